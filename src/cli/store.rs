//! Game files on disk. Loading refuses anything doubtful and never writes; saving is
//! atomic with a backup. A command that writes a game first takes its lock
//! ([`lock`]: the lock file `.GAME.lock` beside it) and holds it from loading to the
//! rename, so two commands on one game run one after the other. A game path that is
//! a symbolic link is followed: the link stays, the file it names is replaced, and
//! the backup and lock file are beside that file. Saving:
//!
//! 1. the new text goes to `GAME.tmp-<pid>` in the same directory, with the game
//!    file's mode (a `0600` game stays `0600`), and is synced;
//! 2. the file on disk must still be the one this command loaded (else nothing is
//!    saved: something else wrote it meanwhile);
//! 3. the current file is kept as `GAME.bak` (hard-linked, or copied and synced, to
//!    `GAME.bak.tmp-<pid>`, then renamed over `GAME.bak`, so the backup is always a
//!    regular file, never a link);
//! 4. the temporary file is renamed over `GAME`, and the directory is synced.
//!
//! A crash at any point leaves `GAME` whole: the old version or the new one; loading
//! reports the `GAME.tmp-*` and `GAME.bak.tmp-*` files a crash leaves. A new game
//! is linked into place, which fails if a file of that name appeared meanwhile.
//!
//! For tests, `ARBITER_CRASH_AT=write|backup|rename` stops the process (exit code 70)
//! half-way through writing the temporary file, before the backup, or before the
//! rename: a simulated crash.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::write::{self as w, GameLock};
use super::Fatal;
use arbiter::gamefile::{Game, GameFile, GameFileError};
use arbiter::map::Map;

/// A loaded game, its map, and the bytes it was read from.
pub struct Loaded {
    pub game: Game,
    pub map: Map,
    pub bytes: Vec<u8>,
}

/// The backup's path: `GAME.bak`, beside the file a link names.
pub fn backup_path(path: &Path) -> PathBuf {
    sibling(&real(path), ".bak")
}

/// The game file `path` names: links followed (or `path` when that fails).
fn real(path: &Path) -> PathBuf {
    w::resolve_links(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Take the lock of the game at `path` (see the module comment), held until the
/// returned guard is dropped. Every command that writes a game calls this before it
/// loads the game (or, for a new game, checks that none exists).
pub fn lock(path: &Path) -> Result<GameLock, Fatal> {
    w::lock_game(path)
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
                    "the file is not text (invalid UTF-8 at byte {}: {}): it is damaged, or \
                     was saved in another encoding",
                    e.valid_up_to(),
                    super::not_utf8(&bytes, e.valid_up_to())
                ),
            ))
        }
    };
    let file = GameFile::from_yaml(text).map_err(|e| refused(path, &e.to_string()))?;
    let map = match &file.map_file {
        Some(f) => super::load_game_map(f).map_err(|Fatal(m)| {
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
        // A position the map does not hold (a centre, a province, a power it lacks):
        // say so, and that the map may have changed since the game was played on it.
        (GameFileError::Invalid { at, .. }, f) if at.ends_with("position") => {
            let map_from = match f {
                Some(f) => format!("`{}` (from `{f}`)", map.name),
                None => format!("`{}` (embedded in this arbiter)", map.name),
            };
            refused(
                path,
                &format!(
                    "{e}: the position does not fit the map {map_from}: if the map was changed \
                     since the game began, restore the map the game was played on; if the \
                     position was edited by hand, correct it"
                ),
            )
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
    let path = &real(path);
    let dir = dir_of(path);
    let Some(name) = path.file_name() else {
        return;
    };
    let name = name.to_string_lossy();
    let prefixes = [format!("{name}.tmp-"), format!("{name}.bak.tmp-")];
    let Ok(entries) = fs::read_dir(&dir) else {
        return;
    };
    for e in entries.flatten() {
        let n = e.file_name().to_string_lossy().to_string();
        if prefixes.iter().any(|p| n.starts_with(p.as_str())) {
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
    w::dir_of(path)
}

/// A simulated crash for tests (see the module comment).
fn crash_point(stage: &str) {
    if std::env::var("ARBITER_CRASH_AT").is_ok_and(|s| s == stage) {
        eprintln!("arbiter: simulated crash at `{stage}` (ARBITER_CRASH_AT)");
        std::process::exit(70);
    }
}

/// Write `text` to the temporary file (with the mode of `like`, the game file it
/// replaces) and sync it.
fn write_temp(tmp: &Path, text: &str, like: Option<&fs::Metadata>) -> std::io::Result<()> {
    let mut f = w::create_temp(tmp, like)?;
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

fn sync_dir(dir: &Path) {
    w::sync_dir(dir)
}

/// Save a new game; refuse if a file of that name exists.
pub fn create(path: &Path, text: &str) -> Result<(), Fatal> {
    let shown = path.display();
    if path.exists() {
        return Err(exists(path));
    }
    // A dangling link: the game goes where it points.
    let path = &real(path);
    let dir = dir_of(path);
    let tmp = sibling(path, &format!(".tmp-{}", std::process::id()));
    let fail = |e: std::io::Error| {
        let _ = fs::remove_file(&tmp);
        Fatal(format!("cannot write game file `{shown}`: {e}"))
    };
    write_temp(&tmp, text, None).map_err(fail)?;
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
    // A link stays a link: the file it names is replaced.
    let path = &real(path);
    let dir = dir_of(path);
    let pid = std::process::id();
    let tmp = sibling(path, &format!(".tmp-{pid}"));
    let fail = |e: std::io::Error| {
        let _ = fs::remove_file(&tmp);
        Fatal(format!(
            "cannot save game file `{shown}`: {e}; the file was not changed"
        ))
    };
    let meta = fs::symlink_metadata(path).map_err(fail)?;
    if !meta.is_file() {
        return Err(fail(std::io::Error::other(
            "it is not a regular file; a game is kept in a regular file",
        )));
    }
    write_temp(&tmp, text, Some(&meta)).map_err(fail)?;
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
