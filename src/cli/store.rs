//! Game files on disk. Loading refuses anything doubtful and never writes; saving is
//! atomic with a backup. A command that writes a game first takes its lock
//! ([`lock`]: the lock file `.GAME.lock` beside it) and holds it from loading to the
//! rename, so two commands on one game run one after the other. A game path that is
//! a symbolic link is followed: the link stays, the file it names is replaced, and
//! the backup and lock file are beside that file. Saving:
//!
//! 0. the new text is read back as [`load`] would read it, and the size checked
//!    against the input limit: what could not be loaded again is never saved;
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
    arbiter::files::sibling(path, suffix)
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
        (GameFileError::NotOnMap { .. }, f) => {
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

/// Save a new game; refuse if a file of that name exists.
pub fn create(path: &Path, text: &str) -> Result<(), Fatal> {
    arbiter::files::create_game(path, text, super::max_input_bytes(), |p| exists(p).0)
        .map_err(Fatal)?;
    warn_near_limit(path, text);
    Ok(())
}

/// Warn when a saved game nears the input limit (docs/CLI.md, "Files").
fn warn_near_limit(path: &Path, text: &str) {
    let limit = super::max_input_bytes();
    if let Some(w) =
        arbiter::files::near_limit(&path.display().to_string(), text.len() as u64, limit)
    {
        eprintln!("warning: {w}");
    }
}

/// The refusal to overwrite an existing file.
pub fn exists(path: &Path) -> Fatal {
    Fatal(format!(
        "`{}` already exists: `arbiter new` never overwrites a file; choose another name",
        path.display()
    ))
}

/// Save a game over the file it was loaded from (`loaded`: the bytes read then),
/// by the rules of the module comment ([`arbiter::files::save_game`]). The text is
/// read back first, as [`load`] would read it on `map`: what could not be loaded is
/// never saved.
pub fn save(path: &Path, map: &Map, text: &str, loaded: &[u8]) -> Result<(), Fatal> {
    if let Err(e) = Game::from_yaml(map, text) {
        return Err(Fatal(format!(
            "`{}` was not saved: the game would not load again ({e}). The file was not \
             changed",
            path.display()
        )));
    }
    arbiter::files::save_game(
        path,
        text,
        arbiter::files::Expect::Loaded(loaded),
        super::max_input_bytes(),
    )
    .map_err(Fatal)?;
    warn_near_limit(path, text);
    Ok(())
}
