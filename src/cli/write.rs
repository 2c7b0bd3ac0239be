//! Writing files: the one way the binary writes a file (`-o`, `--out`, `--svg`,
//! `map import -o`, selfplay and batch output; game files go through [`super::store`]
//! to [`arbiter::files`], whose pieces this module uses too: links, temporary files,
//! backups, the game's lock, shared with `arbiter serve` and the Python package).
//!
//! The rules, by what the output path is:
//!
//! - a symbolic link is followed first (link by link, as the system would): the link
//!   stays as it is, pointing at its target, and the target is what is written;
//! - a regular file (or no file yet) is replaced atomically: the text goes to a
//!   temporary file in the same directory, which gets the old file's mode (and, where
//!   allowed, its owner), is synced, and is renamed over the file;
//! - a FIFO or a character device (`/dev/null`, a terminal, a pipe behind
//!   `/dev/stdout`) is written through: opened and written in place, never renamed
//!   over or removed; a FIFO no program reads is refused at once, never waited on;
//! - a directory, a block device or a socket is refused, and so is a file named as a
//!   game's lock file (`.GAME.lock`, [`arbiter::files::lock_file_refusal`]);
//! - a file this command has read (a game, a position, orders, a map; the same file
//!   by whatever path) is refused as an output: writing it would destroy the input.
//!
//! A command that writes a game holds [`GameLock`] from loading the game to renaming
//! the new version over it.

use std::fs::{self, File, Metadata};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::Fatal;

/// The files this command has read: (device, inode) and the path as given.
static INPUTS: Mutex<Vec<(FileId, PathBuf)>> = Mutex::new(Vec::new());

/// What identifies a file whatever the path to it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct FileId(u64, u64);

#[cfg(unix)]
fn file_id(m: &Metadata) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    Some(FileId(m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn file_id(_: &Metadata) -> Option<FileId> {
    None
}

/// Note that this command read `file` (opened from `path`): it may not be an output.
pub fn record_input(path: &Path, file: &File) {
    let Ok(m) = file.metadata() else {
        return;
    };
    // Only regular files can be destroyed by writing the output over them.
    if !m.is_file() {
        return;
    }
    if let Some(id) = file_id(&m) {
        let mut inputs = INPUTS.lock().unwrap_or_else(|e| e.into_inner());
        if !inputs.iter().any(|(i, _)| *i == id) {
            inputs.push((id, path.to_path_buf()));
        }
    }
}

/// The input file (as the command named it) that `m` is, if any.
fn input_named(m: &Metadata) -> Option<PathBuf> {
    recorded(file_id(m)?)
}

/// The input file (as the command named it) with identity `id`, if any.
fn recorded(id: FileId) -> Option<PathBuf> {
    let inputs = INPUTS.lock().unwrap_or_else(|e| e.into_inner());
    inputs
        .iter()
        .find(|(i, _)| *i == id)
        .map(|(_, p)| p.clone())
}

/// Refuse `out` as an output when it is a file this command has read.
pub fn check_output(out: &Path) -> Result<(), Fatal> {
    match target(out)? {
        Target::Replace {
            meta: Some(m),
            path: _,
        } => refuse_input(out, &m),
        _ => Ok(()),
    }
}

fn refuse_input(out: &Path, m: &Metadata) -> Result<(), Fatal> {
    match input_named(m) {
        Some(input) => Err(Fatal(format!(
            "refused to write `{}`: it is the input file `{}` of this command, and writing \
             it would destroy it; choose another output file",
            out.display(),
            input.display()
        ))),
        None => Ok(()),
    }
}

/// What a path names, for telling whether two paths are one file: an existing file by
/// (device, inode), links followed; a file not there yet by its absolute path (its
/// folder's links followed). `None`: a FIFO or a device (written in place: two outputs
/// may share `/dev/null`), or a path that cannot be told.
#[derive(PartialEq, Eq, Debug)]
enum Ident {
    File(FileId),
    Path(PathBuf),
}

fn ident(path: &Path) -> Option<Ident> {
    match fs::metadata(path) {
        Ok(m) if m.is_file() => file_id(&m).map(Ident::File),
        Ok(_) => None,
        Err(_) => {
            let real = resolve_links(path).unwrap_or_else(|_| path.to_path_buf());
            let name = real.file_name()?;
            let dir = fs::canonicalize(dir_of(&real)).ok()?;
            Some(Ident::Path(dir.join(name)))
        }
    }
}

/// Check the files of one command before it does any work: each output (`(flag,
/// path)`) must be writable by the rules above ([`target`]: no directory, no lock
/// file), may not be any of the command's `inputs` (`(what, path)`: the game file, its
/// backup, order files, a map; by identity, whatever the path: a link, a hard link),
/// and two outputs may not be one file. `-` (standard input) is not a file.
pub fn check_outputs(outputs: &[(&str, &Path)], inputs: &[(&str, &Path)]) -> Result<(), Fatal> {
    let mut seen: Vec<(Ident, &str, &Path)> = Vec::new();
    for &(flag, out) in outputs {
        target(out)?;
        let Some(id) = ident(out) else {
            continue;
        };
        for &(what, input) in inputs {
            if input.as_os_str() == "-" {
                continue;
            }
            if ident(input).as_ref() == Some(&id) {
                return Err(Fatal(format!(
                    "refused to write `{}` ({flag}): it is an input file of this command, {what} \
                     `{}` (the same file, by whatever path), and writing it would destroy it; \
                     choose another output file. Nothing was done",
                    out.display(),
                    input.display()
                )));
            }
        }
        if let Ident::File(fid) = &id {
            if let Some(input) = recorded(*fid) {
                return Err(Fatal(format!(
                    "refused to write `{}` ({flag}): it is the input file `{}` of this \
                     command, and writing it would destroy it; choose another output file. \
                     Nothing was done",
                    out.display(),
                    input.display()
                )));
            }
        }
        if let Some((_, other_flag, other)) = seen.iter().find(|(i, _, _)| *i == id) {
            return Err(Fatal(format!(
                "refused to write `{}` ({flag}): it is the same file as `{}` ({other_flag}), \
                 another output of this command, and one would replace the other; give each \
                 output its own file. Nothing was done",
                out.display(),
                other.display()
            )));
        }
        seen.push((id, flag, out));
    }
    Ok(())
}

pub use arbiter::files::{dir_of, resolve_links, sync_dir};

/// What a write to a path does.
pub enum Target {
    /// Replace (or create) the regular file at `path` (links followed) atomically;
    /// `meta`: the file there now.
    Replace {
        path: PathBuf,
        meta: Option<Metadata>,
    },
    /// Open this path and write in place (a FIFO, a character device).
    Through(PathBuf),
}

/// How `path` is written (see the module comment), or why it cannot be.
pub fn target(path: &Path) -> Result<Target, Fatal> {
    let shown = path.display();
    if let Some(refusal) = arbiter::files::lock_file_refusal(path) {
        return Err(Fatal(refusal));
    }
    let real = resolve_links(path).map_err(|e| Fatal(format!("cannot write `{shown}`: {e}")))?;
    let meta = match fs::symlink_metadata(&real) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // A link the system follows but that names no file (`/dev/stdout` to a
            // pipe, `/proc/self/fd/1`): write through it.
            if real != path && fs::metadata(path).is_ok() {
                return Ok(Target::Through(path.to_path_buf()));
            }
            return Ok(Target::Replace {
                path: real,
                meta: None,
            });
        }
        Err(e) => return Err(Fatal(format!("cannot write `{shown}`: {e}"))),
    };
    let ft = meta.file_type();
    if ft.is_file() {
        return Ok(Target::Replace {
            path: real,
            meta: Some(meta),
        });
    }
    if ft.is_dir() {
        return Err(Fatal(format!(
            "cannot write `{shown}`: it is a directory; give a file name"
        )));
    }
    if special_written_through(&meta) {
        return Ok(Target::Through(real));
    }
    Err(Fatal(format!(
        "refused to write `{shown}`: it is {}; arbiter writes regular files, and writes \
         FIFOs and character devices (such as `/dev/null`) in place",
        kind_of(&meta)
    )))
}

#[cfg(unix)]
fn special_written_through(m: &Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    let ft = m.file_type();
    ft.is_fifo() || ft.is_char_device()
}

#[cfg(not(unix))]
fn special_written_through(_: &Metadata) -> bool {
    false
}

#[cfg(unix)]
fn kind_of(m: &Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let ft = m.file_type();
    if ft.is_block_device() {
        "a block device (a disk)"
    } else if ft.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

#[cfg(not(unix))]
fn kind_of(_: &Metadata) -> &'static str {
    "not a regular file"
}

/// Write a file by the rules of the module comment: `write` fills the file (a
/// temporary one, renamed over the target once synced, or the special file itself);
/// on failure a regular file at `path` is untouched.
pub fn write_file(
    path: &Path,
    write: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> Result<(), Fatal> {
    write_file_as(path, write, false)
}

/// Replace a file this command read and edits in place (`map layout`): the current
/// file is kept as `FILE.bak` (hard-linked, or copied and synced, through a temporary
/// name renamed over the backup), then the new text replaces it as [`write_file`]
/// does. Returns the backup's path.
pub fn replace_keeping_backup(path: &Path, bytes: &[u8]) -> Result<PathBuf, Fatal> {
    let real = resolve_links(path).unwrap_or_else(|_| path.to_path_buf());
    let bak = arbiter::files::keep_backup(&real).map_err(|e| {
        Fatal(format!(
            "cannot write `{}`: {}; the file was not changed",
            path.display(),
            arbiter::files::backup_failed(&real, &e)
        ))
    })?;
    write_file_as(path, |f| std::io::Write::write_all(f, bytes), true)?;
    Ok(bak)
}

/// [`write_file`]; `edit_input`: the file may be one this command read (it is edited
/// in place, its old version kept by the caller).
fn write_file_as(
    path: &Path,
    write: impl FnOnce(&mut File) -> std::io::Result<()>,
    edit_input: bool,
) -> Result<(), Fatal> {
    let shown = path.display();
    let fail = |e: std::io::Error| Fatal(format!("cannot write `{shown}`: {e}"));
    match target(path)? {
        Target::Through(p) => {
            let mut f = arbiter::files::open_in_place(&p).map_err(fail)?;
            write(&mut f).map_err(fail)
        }
        Target::Replace { path: real, meta } => {
            if let Some(m) = meta.as_ref().filter(|_| !edit_input) {
                refuse_input(path, m)?;
            }
            let name = real
                .file_name()
                .ok_or_else(|| Fatal(format!("`{shown}` is not a file name")))?;
            let dir = dir_of(&real);
            let tmp = dir.join(format!(
                ".{}.tmp{}",
                name.to_string_lossy(),
                std::process::id()
            ));
            let run = || -> std::io::Result<()> {
                let mut f = arbiter::files::create_temp(&tmp, meta.as_ref())?;
                write(&mut f)?;
                f.sync_all()?;
                fs::rename(&tmp, &real)?;
                sync_dir(&dir);
                Ok(())
            };
            run().map_err(|e| {
                let _ = fs::remove_file(&tmp);
                fail(e)
            })
        }
    }
}

pub use arbiter::files::{GameLock, SERVER_MARK};

/// Take the game's lock ([`arbiter::files::lock_game`]), or refuse saying why.
pub fn lock_game(game: &Path) -> Result<GameLock, Fatal> {
    arbiter::files::lock_game(game).map_err(Fatal)
}
