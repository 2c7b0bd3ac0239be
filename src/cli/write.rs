//! Writing files: the one way the binary writes a file (`-o`, `--out`, `--svg`,
//! `map import -o`, selfplay and batch output; game files go through [`super::store`],
//! which uses the same pieces), and the lock a command that writes a game holds.
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
//!   over or removed;
//! - a directory, a block device or a socket is refused;
//! - a file this command has read (a game, a position, orders, a map; the same file
//!   by whatever path) is refused as an output: writing it would destroy the input.
//!
//! A command that writes a game holds [`GameLock`] from loading the game to renaming
//! the new version over it.

use std::fs::{self, File, Metadata, OpenOptions};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

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
    let id = file_id(m)?;
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

/// Follow `path` link by link to a path that is not a symbolic link (or does not
/// exist): the file a write to `path` really means. Directories on the way may be
/// links; only the last component is followed.
pub fn resolve_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    // The system's own limit on links in a row (Linux: 40).
    for _ in 0..40 {
        match fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = fs::read_link(&p)?;
                p = match p.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(std::io::Error::other(format!(
        "too many symbolic links in a row from `{}`",
        path.display()
    )))
}

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

/// Create the temporary file `tmp` (never following a link there: a leftover of that
/// name is removed first) with the mode and, where allowed, the owner of `like`.
pub fn create_temp(tmp: &Path, like: Option<&Metadata>) -> std::io::Result<File> {
    match fs::remove_file(tmp) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let f = OpenOptions::new().write(true).create_new(true).open(tmp)?;
    if let Some(m) = like {
        f.set_permissions(m.permissions())?;
        keep_owner(&f, m);
    }
    Ok(f)
}

/// Give `f` the owner and group of `m` when they differ and the system allows it
/// (root replacing another user's file); otherwise the new file is the writer's.
#[cfg(unix)]
fn keep_owner(f: &File, m: &Metadata) {
    use std::os::unix::fs::MetadataExt;
    if let Ok(now) = f.metadata() {
        if now.uid() != m.uid() || now.gid() != m.gid() {
            let _ = std::os::unix::fs::fchown(f, Some(m.uid()), Some(m.gid()));
        }
    }
}

#[cfg(not(unix))]
fn keep_owner(_: &File, _: &Metadata) {}

/// Sync a directory so renames in it are on disk.
pub fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// The directory a path is in (`.` for a bare name).
pub fn dir_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
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
    let shown = path.display();
    let mut name = real.file_name().unwrap_or_default().to_os_string();
    name.push(".bak");
    let bak = real.with_file_name(&name);
    name.push(format!(".tmp-{}", std::process::id()));
    let bak_tmp = real.with_file_name(name);
    let _ = fs::remove_file(&bak_tmp);
    let backup = || -> std::io::Result<()> {
        if fs::hard_link(&real, &bak_tmp).is_err() {
            fs::copy(&real, &bak_tmp)?;
            File::open(&bak_tmp)?.sync_all()?;
        }
        fs::rename(&bak_tmp, &bak)
    };
    backup().map_err(|e| {
        let _ = fs::remove_file(&bak_tmp);
        Fatal(format!("cannot keep a backup of `{shown}`: {e}"))
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
            let mut f = OpenOptions::new().write(true).open(&p).map_err(fail)?;
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
                let mut f = create_temp(&tmp, meta.as_ref())?;
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

/// How long a command waits for another one holding a game's lock.
const LOCK_WAIT: Duration = Duration::from_secs(5);

/// An exclusive lock on a game file, held until dropped: the lock file
/// `.<name>.lock` beside the game (links followed), never the game itself (which
/// is renamed over). The lock file stays after the command; it holds nothing, except
/// while `arbiter serve` holds it: then it names the server ([`GameLock::announce`]),
/// and a command that wants the lock refuses at once, naming it.
#[derive(Debug)]
pub struct GameLock {
    _file: File,
}

/// How the lock file of a served game begins.
pub const SERVER_MARK: &str = "arbiter serve";

impl GameLock {
    #[cfg_attr(not(feature = "serve"), allow(dead_code))]
    /// Write `who` into the lock file (replacing what it held): a long-running holder
    /// (the server) says who it is, for the commands it makes wait.
    pub fn announce(&self, who: &str) -> std::io::Result<()> {
        use std::io::{Seek, Write};
        let mut f = &self._file;
        f.set_len(0)?;
        f.seek(std::io::SeekFrom::Start(0))?;
        f.write_all(who.as_bytes())?;
        f.sync_all()
    }
}

/// What the lock file says about a server holding it, if it names one.
fn server_named(path: &Path) -> Option<String> {
    let text = fs::read_to_string(path).ok()?;
    let text = text.trim();
    (text.starts_with(SERVER_MARK) && text.len() < 1000).then(|| text.to_string())
}

/// The lock file of the game at `game`.
pub fn lock_path(game: &Path) -> std::io::Result<PathBuf> {
    let real = resolve_links(game)?;
    let name = real.file_name().unwrap_or_default().to_string_lossy();
    Ok(real.with_file_name(format!(".{name}.lock")))
}

/// Take the game's lock, waiting up to a few seconds for another command holding it;
/// then refuse, naming the game and the lock file.
pub fn lock_game(game: &Path) -> Result<GameLock, Fatal> {
    let shown = game.display();
    let path = lock_path(game).map_err(|e| Fatal(format!("cannot lock `{shown}`: {e}")))?;
    let cannot = |e: std::io::Error| {
        Fatal(format!(
            "cannot lock the game `{shown}` with the lock file `{}`: {e}",
            path.display()
        ))
    };
    if fs::symlink_metadata(&path).is_ok_and(|m| !m.is_file()) {
        return Err(cannot(std::io::Error::other(
            "it is not a regular file; remove it",
        )));
    }
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(cannot)?;
    let wait = std::env::var("ARBITER_LOCK_WAIT_MS")
        .ok()
        .and_then(|s| s.parse().ok())
        .map_or(LOCK_WAIT, Duration::from_millis);
    let started = Instant::now();
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(GameLock { _file: file }),
            Err(fs::TryLockError::WouldBlock) => {
                if let Some(server) = server_named(&path) {
                    return Err(Fatal(format!(
                        "`{shown}` is being served: {server} holds it (the lock file `{}`). \
                         Nothing was done: judge, undo and take orders on the referee's page, \
                         or stop the server (Ctrl-C) and run the command again; commands that \
                         only read the game (status, history, centres, explain, render) work \
                         while it is served",
                        path.display()
                    )));
                }
            }
            Err(fs::TryLockError::Error(e)) => return Err(cannot(e)),
        }
        if started.elapsed() >= wait {
            return Err(Fatal(format!(
                "`{shown}` is in use: another command is writing the game (it holds the \
                 lock file `{}`); waited {} s. Nothing was done: run the command again when \
                 the other one has finished",
                path.display(),
                wait.as_secs_f64()
            )));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}
