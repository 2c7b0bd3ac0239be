//! Game files on disk. Loading refuses anything doubtful and never writes; saving is
//! atomic with a backup:
//!
//! 1. the new text goes to `GAME.tmp-<pid>` in the same directory and is synced;
//! 2. the file on disk must still be the one this command loaded (else nothing is
//!    saved: another command saved meanwhile);
//! 3. the current file is kept as `GAME.bak` (hard-linked, or copied and synced, to
//!    `GAME.bak.tmp-<pid>`, then renamed over `GAME.bak`);
//! 4. the temporary file is renamed over `GAME`, and the directory is synced.
//!
//! A crash at any point leaves `GAME` whole: the old version or the new one. A new game
//! is linked into place, which fails if a file of that name appeared meanwhile.
//!
//! For tests, `ARBITER_CRASH_AT=write|backup|rename` stops the process (exit code 70)
//! half-way through writing the temporary file, before the backup, or before the
//! rename: a simulated crash.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::{load_map, Fatal};
use arbiter::gamefile::{Game, GameFile, GameFileError};
use arbiter::map::Map;

/// A loaded game, its map, and the bytes it was read from.
pub struct Loaded {
    pub game: Game,
    pub map: Map,
    pub bytes: Vec<u8>,
}

/// The backup's path: `GAME.bak`.
pub fn backup_path(path: &Path) -> PathBuf {
    sibling(path, ".bak")
}

fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

/// Read and check a game file. Any problem is an error that names it; the file is
/// never touched.
pub fn load(path: &Path) -> Result<Loaded, Fatal> {
    let shown = path.display();
    let bytes = super::read_file_bytes(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            Fatal(format!(
                "no game file `{shown}`: create one with `arbiter new {shown}`"
            ))
        } else {
            Fatal(format!("cannot read game file `{shown}`: {e}"))
        }
    })?;
    let text = match std::str::from_utf8(&bytes) {
        Ok(t) => t,
        Err(e) => {
            return Err(refused(
                path,
                &format!(
                    "the file is not text (invalid UTF-8 at byte {}): it is damaged",
                    e.valid_up_to()
                ),
            ))
        }
    };
    let file = GameFile::from_yaml(text).map_err(|e| refused(path, &e.to_string()))?;
    let map = match &file.map_file {
        Some(f) => load_map(f).map_err(|Fatal(m)| {
            Fatal(format!(
                "{shown}: the game's map file `{f}` cannot be loaded: {m}"
            ))
        })?,
        None => Map::embedded(&file.map).ok_or_else(|| {
            refused(
                path,
                &format!("unknown map `{}`: it is not an embedded map", file.map),
            )
        })?,
    };
    let game = Game::from_file(&map, &file).map_err(|e| match (&e, &file.map_file) {
        (GameFileError::WrongMap { .. }, Some(f)) => {
            refused(path, &format!("{e} (from the map file `{f}`)"))
        }
        _ => refused(path, &e.to_string()),
    })?;
    warn_leftovers(path);
    Ok(Loaded { game, map, bytes })
}

/// The message for a game file that was refused.
fn refused(path: &Path, why: &str) -> Fatal {
    let bak = backup_path(path);
    let mut msg = format!(
        "{}: refused to load the game: {why}\nThe file was not changed.",
        path.display()
    );
    if bak.exists() {
        msg.push_str(&format!(" The previous version is in `{}`.", bak.display()));
    }
    Fatal(msg)
}

/// Warn about temporary files left by an interrupted save.
fn warn_leftovers(path: &Path) {
    let dir = dir_of(path);
    let Some(name) = path.file_name() else {
        return;
    };
    let prefix = format!("{}.tmp-", name.to_string_lossy());
    let Ok(entries) = fs::read_dir(&dir) else {
        return;
    };
    for e in entries.flatten() {
        let n = e.file_name().to_string_lossy().to_string();
        if n.starts_with(&prefix) {
            eprintln!(
                "warning: `{}` is left over from an interrupted save; `{}` itself is whole \
                 and the leftover can be deleted",
                dir.join(&n).display(),
                path.display()
            );
        }
    }
}

fn dir_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// A simulated crash for tests (see the module comment).
fn crash_point(stage: &str) {
    if std::env::var("ARBITER_CRASH_AT").is_ok_and(|s| s == stage) {
        eprintln!("arbiter: simulated crash at `{stage}` (ARBITER_CRASH_AT)");
        std::process::exit(70);
    }
}

/// Write `text` to the temporary file and sync it.
fn write_temp(tmp: &Path, text: &str) -> std::io::Result<()> {
    let mut f = fs::File::create(tmp)?;
    if std::env::var("ARBITER_CRASH_AT").is_ok_and(|s| s == "write") {
        let half = text.len() / 2;
        let cut = (0..=half)
            .rev()
            .find(|&i| text.is_char_boundary(i))
            .unwrap_or(0);
        f.write_all(&text.as_bytes()[..cut])?;
        f.sync_all()?;
        crash_point("write");
    }
    f.write_all(text.as_bytes())?;
    f.sync_all()
}

/// Sync a directory so renames in it are on disk.
fn sync_dir(dir: &Path) {
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Save a new game; refuse if a file of that name exists.
pub fn create(path: &Path, text: &str) -> Result<(), Fatal> {
    let shown = path.display();
    if path.exists() {
        return Err(exists(path));
    }
    let dir = dir_of(path);
    let tmp = sibling(path, &format!(".tmp-{}", std::process::id()));
    let fail = |e: std::io::Error| {
        let _ = fs::remove_file(&tmp);
        Fatal(format!("cannot write game file `{shown}`: {e}"))
    };
    write_temp(&tmp, text).map_err(fail)?;
    crash_point("rename");
    match fs::hard_link(&tmp, path) {
        Ok(()) => {
            let _ = fs::remove_file(&tmp);
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            let _ = fs::remove_file(&tmp);
            return Err(exists(path));
        }
        // No hard links here: rename (the existence check above must do).
        Err(_) => fs::rename(&tmp, path).map_err(fail)?,
    }
    sync_dir(&dir);
    Ok(())
}

/// The refusal to overwrite an existing file.
pub fn exists(path: &Path) -> Fatal {
    Fatal(format!(
        "`{}` already exists: `arbiter new` never overwrites a file; choose another name",
        path.display()
    ))
}

/// Save a game over the file it was loaded from (`loaded`: the bytes read then).
pub fn save(path: &Path, text: &str, loaded: &[u8]) -> Result<(), Fatal> {
    let shown = path.display();
    let dir = dir_of(path);
    let pid = std::process::id();
    let tmp = sibling(path, &format!(".tmp-{pid}"));
    let fail = |e: std::io::Error| {
        let _ = fs::remove_file(&tmp);
        Fatal(format!(
            "cannot save game file `{shown}`: {e}; the file was not changed"
        ))
    };
    write_temp(&tmp, text).map_err(fail)?;
    // Nobody saved the game since this command loaded it.
    match super::read_file_bytes(path) {
        Ok(now) if now == loaded => {}
        Ok(_) => {
            let _ = fs::remove_file(&tmp);
            return Err(Fatal(format!(
                "`{shown}` was changed by another command while this one ran; nothing was \
                 saved: run the command again"
            )));
        }
        Err(e) => return Err(fail(e)),
    }
    crash_point("backup");
    let bak = backup_path(path);
    let bak_tmp = sibling(&bak, &format!(".tmp-{pid}"));
    let _ = fs::remove_file(&bak_tmp);
    let backup = || -> std::io::Result<()> {
        if fs::hard_link(path, &bak_tmp).is_err() {
            fs::copy(path, &bak_tmp)?;
            fs::File::open(&bak_tmp)?.sync_all()?;
        }
        fs::rename(&bak_tmp, &bak)
    };
    backup().map_err(|e| {
        let _ = fs::remove_file(&bak_tmp);
        fail(e)
    })?;
    crash_point("rename");
    fs::rename(&tmp, path).map_err(fail)?;
    sync_dir(&dir);
    Ok(())
}
