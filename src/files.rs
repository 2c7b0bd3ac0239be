//! Files on disk, the same at every door. This is the one module of the library that
//! touches the file system: the binary (its commands and `arbiter serve`) and the
//! Python package read and write files only through it, and no other module of the
//! library calls it. The rules are written in docs/CLI.md, "Files: one reader, one
//! writer, one lock".
//!
//! - **Reading** ([`open_input`], [`read_bytes`]): never more than a limit
//!   ([`DEFAULT_MAX_INPUT_BYTES`] unless raised); a path is opened without blocking, so
//!   a FIFO nobody writes cannot hang a command: a named FIFO is waited for (at most
//!   [`FIFO_WAIT`]) and then refused; a folder, a block device or a socket is refused
//!   with what it is.
//! - **The lock** ([`lock_game`]): a writer of a game holds the lock file `.GAME.lock`
//!   from loading the game to renaming the new version over it; a second writer waits
//!   (at most [`LOCK_WAIT`]) and then refuses, naming the lock file, or refuses at once
//!   naming the server that holds it.
//! - **Saving a game** ([`save_game`], [`create_game`]): atomic (temporary file, sync,
//!   rename, directory sync), the game file's mode kept, the old version kept as
//!   `GAME.bak` (always a regular file, never a link: a link there is replaced, not
//!   followed), nothing saved over a file another writer changed since it was loaded,
//!   and nothing saved that the reading limit would refuse.

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The largest file any door reads by default (`--max-input-bytes`): 16 MiB.
pub const DEFAULT_MAX_INPUT_BYTES: u64 = 16 * 1024 * 1024;

/// A game file larger than this share of the limit gets a warning when saved.
pub const NEAR_LIMIT_PERCENT: u64 = 80;

/// How long a named FIFO is waited for: a program must start writing it by then.
pub const FIFO_WAIT: Duration = Duration::from_secs(5);

/// How long a writer of a game waits for another one holding the game's lock.
pub const LOCK_WAIT: Duration = Duration::from_secs(5);

/// How the lock file of a served game begins.
pub const SERVER_MARK: &str = "arbiter serve";

/// A wait from the environment (`ARBITER_LOCK_WAIT_MS`, `ARBITER_FIFO_WAIT_MS`: for
/// tests), else `default`.
fn wait_from_env(var: &str, default: Duration) -> Duration {
    std::env::var(var)
        .ok()
        .and_then(|s| s.parse().ok())
        .map_or(default, Duration::from_millis)
}

// ---------------------------------------------------------------- reading

/// What an opened input is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// A regular file (or anything a blocking read cannot hang on).
    Plain,
    /// A pipe or FIFO: reads that find it empty are retried.
    Pipe {
        /// A named FIFO (`mkfifo`): it may have no writer yet, which is waited for.
        named: bool,
    },
    /// A character device (a terminal): reads that find nothing are retried.
    Device,
}

/// An input file opened without blocking (see the module comment); read it with
/// [`Read`] (or [`read_limited`]).
#[derive(Debug)]
pub struct Input {
    file: File,
    path: PathBuf,
    kind: Kind,
    got_any: bool,
    opened: Instant,
    fifo_wait: Duration,
}

impl Input {
    /// The open file (to note its identity: an output may not be written over it).
    pub fn file(&self) -> &File {
        &self.file
    }
}

#[cfg(unix)]
fn open_nonblocking(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> io::Result<File> {
    File::open(path)
}

/// What a file that is not a regular one is, in words.
#[cfg(unix)]
fn kind_words(m: &Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let ft = m.file_type();
    if ft.is_dir() {
        "a folder"
    } else if ft.is_block_device() {
        "a block device (a disk)"
    } else if ft.is_socket() {
        "a socket"
    } else if ft.is_fifo() {
        "a FIFO (named pipe)"
    } else if ft.is_char_device() {
        "a character device"
    } else {
        "not a regular file"
    }
}

#[cfg(not(unix))]
fn kind_words(m: &Metadata) -> &'static str {
    if m.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

/// Open `path` for reading without ever blocking on it: a regular file, a pipe
/// (`/dev/stdin`, `<(…)`), a named FIFO (waited for at most [`FIFO_WAIT`] once read)
/// or a character device; a folder, a block device or a socket is an error saying
/// which it is.
pub fn open_input(path: &Path) -> io::Result<Input> {
    let refuse = |m: &Metadata| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "it is {}, not a file; arbiter reads regular files (and pipes)",
                kind_words(m)
            ),
        )
    };
    let file = match open_nonblocking(path) {
        Ok(f) => f,
        // A socket cannot be opened: say what it is.
        Err(e) => {
            return Err(match fs::metadata(path) {
                Ok(m) if !m.is_file() && !m.is_dir() => refuse(&m),
                _ => e,
            })
        }
    };
    let meta = file.metadata()?;
    let kind = kind_of_input(path, &meta).ok_or_else(|| refuse(&meta))?;
    Ok(Input {
        file,
        path: path.to_path_buf(),
        kind,
        got_any: false,
        opened: Instant::now(),
        fifo_wait: wait_from_env("ARBITER_FIFO_WAIT_MS", FIFO_WAIT),
    })
}

#[cfg(unix)]
fn kind_of_input(path: &Path, m: &Metadata) -> Option<Kind> {
    use std::os::unix::fs::FileTypeExt;
    let ft = m.file_type();
    if ft.is_file() {
        Some(Kind::Plain)
    } else if ft.is_fifo() {
        // A FIFO in the file system (not a pipe reached through `/dev/fd/N`, whose
        // writer is there from the start).
        let named = resolve_links(path)
            .and_then(fs::symlink_metadata)
            .is_ok_and(|m| m.file_type().is_fifo());
        Some(Kind::Pipe { named })
    } else if ft.is_char_device() {
        Some(Kind::Device)
    } else {
        None
    }
}

#[cfg(not(unix))]
fn kind_of_input(_: &Path, m: &Metadata) -> Option<Kind> {
    (!m.is_dir()).then_some(Kind::Plain)
}

/// How long a read that found nothing waits before trying again.
const RETRY: Duration = Duration::from_millis(2);

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match self.file.read(buf) {
                Ok(0) if !buf.is_empty() => {
                    // A named FIFO with no writer yet reads as ended: wait for one.
                    if self.kind == (Kind::Pipe { named: true }) && !self.got_any {
                        if self.opened.elapsed() >= self.fifo_wait {
                            return Err(io::Error::new(
                                io::ErrorKind::TimedOut,
                                format!(
                                    "`{}` is a FIFO (named pipe) and no program wrote to it \
                                     within {} s; arbiter reads a FIFO only while a program \
                                     writes it: start the writer first, or give a regular file",
                                    self.path.display(),
                                    self.fifo_wait.as_secs_f64()
                                ),
                            ));
                        }
                        std::thread::sleep(RETRY);
                        continue;
                    }
                    return Ok(0);
                }
                Ok(n) => {
                    self.got_any = true;
                    return Ok(n);
                }
                // A pipe or terminal with a writer but nothing in it yet.
                Err(e) if e.kind() == io::ErrorKind::WouldBlock && self.kind != Kind::Plain => {
                    std::thread::sleep(RETRY);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }
}

/// Read all of `r`, but never more than `limit` bytes: one byte more is an error naming
/// the limit and the option that raises it, before anything larger is held in memory
/// (a FIFO or `/dev/zero` cannot exhaust it).
pub fn read_limited(r: impl Read, limit: u64) -> io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    r.take(limit.saturating_add(1)).read_to_end(&mut buf)?;
    if buf.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "larger than the input limit of {limit} bytes (raise it with --max-input-bytes)"
            ),
        ));
    }
    Ok(buf)
}

/// The bytes of the file at `path` ([`open_input`], [`read_limited`]).
pub fn read_bytes(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    read_limited(open_input(path)?, limit)
}

// ---------------------------------------------------------------- writing pieces

/// Follow `path` link by link to a path that is not a symbolic link (or does not
/// exist): the file a write to `path` really means. Directories on the way may be
/// links; only the last component is followed.
pub fn resolve_links(path: &Path) -> io::Result<PathBuf> {
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
    Err(io::Error::other(format!(
        "too many symbolic links in a row from `{}`",
        path.display()
    )))
}

/// Open a FIFO or character device to write it in place. A FIFO no program reads
/// is refused at once (a plain open would wait for a reader forever).
pub fn open_in_place(path: &Path) -> io::Result<File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
        if fs::metadata(path).is_ok_and(|m| m.file_type().is_fifo()) {
            let probe = OpenOptions::new()
                .write(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(path);
            match probe {
                Err(e) if e.raw_os_error() == Some(libc::ENXIO) => {
                    return Err(io::Error::other(
                        "it is a FIFO (named pipe) and no program is reading it; start the \
                         reader first, or give a regular file",
                    ))
                }
                Err(e) => return Err(e),
                // A reader is there: the blocking open below returns at once.
                Ok(_) => {}
            }
        }
    }
    OpenOptions::new().write(true).open(path)
}

/// The directory a path is in (`.` for a bare name).
pub fn dir_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Sync a directory so renames in it are on disk.
pub fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// `path` with `suffix` added to its file name.
pub fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

/// Create the temporary file `tmp` (never following a link there: a leftover of that
/// name is removed first) with the mode and, where allowed, the owner of `like`.
pub fn create_temp(tmp: &Path, like: Option<&Metadata>) -> io::Result<File> {
    match fs::remove_file(tmp) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
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

/// Keep the regular file `real` (links already followed) as `REAL.bak`: hard-linked,
/// or copied (into a new file, never through a link) and synced, under a temporary
/// name renamed over the backup. A link named `REAL.bak` is replaced, never followed:
/// the backup is always a regular file. Returns the backup's path.
pub fn keep_backup(real: &Path) -> io::Result<PathBuf> {
    let bak = sibling(real, ".bak");
    let bak_tmp = sibling(&bak, &format!(".tmp-{}", std::process::id()));
    let run = || -> io::Result<()> {
        match fs::remove_file(&bak_tmp) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        if fs::hard_link(real, &bak_tmp).is_err() {
            let mut from = File::open(real)?;
            let mut to = create_temp(&bak_tmp, from.metadata().ok().as_ref())?;
            io::copy(&mut from, &mut to)?;
            to.sync_all()?;
        }
        fs::rename(&bak_tmp, &bak)
    };
    run().inspect_err(|_| {
        let _ = fs::remove_file(&bak_tmp);
    })?;
    Ok(bak)
}

/// Why the backup of `real` ([`keep_backup`]) could not be kept, naming the backup's
/// path and what to do.
pub fn backup_failed(real: &Path, e: &io::Error) -> String {
    let bak = sibling(real, ".bak");
    let what = match fs::symlink_metadata(&bak) {
        Ok(m) if m.is_dir() => "it is a folder: move or remove it (the backup is a file), \
                                then run the command again"
            .to_string(),
        Ok(m) if !m.is_file() && !m.file_type().is_symlink() => {
            format!(
                "it is {}: move or remove it, then run the command again",
                kind_words(&m)
            )
        }
        _ => {
            "check the folder's permissions and free space, then run the command again".to_string()
        }
    };
    format!(
        "its backup `{}` cannot be written ({e}): {what}",
        bak.display()
    )
}

// ---------------------------------------------------------------- the lock

/// An exclusive lock on a game file, held until dropped: the lock file
/// `.<name>.lock` beside the game (links followed), never the game itself (which
/// is renamed over). The lock file stays after the command; it holds nothing, except
/// while `arbiter serve` holds it: then it names the server ([`GameLock::announce`]),
/// and a writer that wants the lock refuses at once, naming it.
#[derive(Debug)]
pub struct GameLock {
    file: File,
}

impl GameLock {
    /// Write `who` into the lock file (replacing what it held): a long-running holder
    /// (the server) says who it is, for the writers it makes wait.
    pub fn announce(&self, who: &str) -> io::Result<()> {
        use std::io::Seek;
        let mut f = &self.file;
        f.set_len(0)?;
        f.seek(io::SeekFrom::Start(0))?;
        f.write_all(who.as_bytes())?;
        f.sync_all()
    }
}

/// What the lock file says about a server holding it, if it names one.
fn server_named(path: &Path) -> Option<String> {
    let bytes = read_bytes(path, 1000).ok()?;
    let text = String::from_utf8(bytes).ok()?;
    let text = text.trim();
    text.starts_with(SERVER_MARK).then(|| text.to_string())
}

/// The lock file of the game at `game`.
pub fn lock_path(game: &Path) -> io::Result<PathBuf> {
    let real = resolve_links(game)?;
    let name = real.file_name().unwrap_or_default().to_string_lossy();
    Ok(real.with_file_name(format!(".{name}.lock")))
}

/// Whether `path` (links followed) is named as a game's lock file is (`.NAME.lock`):
/// no door writes such a file, which may be the lock of a game being written or
/// served; the refusal in words, else `None`.
pub fn lock_file_refusal(path: &Path) -> Option<String> {
    let real = resolve_links(path).unwrap_or_else(|_| path.to_path_buf());
    let named = |p: &Path| {
        p.file_name().map(|n| n.to_string_lossy()).is_some_and(|n| {
            n.len() > ".x.lock".len() - 1 && n.starts_with('.') && n.ends_with(".lock")
        })
    };
    (named(path) || named(&real)).then(|| {
        format!(
            "refused to write `{}`: it is named as a game's lock file (`.GAME.lock`), which \
             arbiter never writes over (it may be the lock of a game being written or served); \
             choose another file name",
            path.display()
        )
    })
}

/// Take the game's lock, waiting up to [`LOCK_WAIT`] (`ARBITER_LOCK_WAIT_MS`) for
/// another writer holding it; then refuse, naming the game and the lock file (or the
/// server holding it, at once).
pub fn lock_game(game: &Path) -> Result<GameLock, String> {
    let shown = game.display();
    if let Some(refusal) = lock_file_refusal(game) {
        return Err(refusal);
    }
    let path = lock_path(game).map_err(|e| format!("cannot lock `{shown}`: {e}"))?;
    let cannot = |e: io::Error| {
        format!(
            "cannot lock the game `{shown}` with the lock file `{}`: {e}",
            path.display()
        )
    };
    if fs::symlink_metadata(&path).is_ok_and(|m| !m.is_file()) {
        return Err(cannot(io::Error::other(
            "it is not a regular file; remove it",
        )));
    }
    let file = open_lock_file(&path).map_err(cannot)?;
    let wait = wait_from_env("ARBITER_LOCK_WAIT_MS", LOCK_WAIT);
    let started = Instant::now();
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(GameLock { file }),
            Err(fs::TryLockError::WouldBlock) => {
                if let Some(server) = server_named(&path) {
                    return Err(format!(
                        "`{shown}` is being served: {server} holds it (the lock file `{}`). \
                         Nothing was done: judge, undo and take orders on the referee's page, \
                         or stop the server (Ctrl-C) and run the command again; commands that \
                         only read the game (status, history, centres, explain, render) work \
                         while it is served",
                        path.display()
                    ));
                }
            }
            Err(fs::TryLockError::Error(e)) => return Err(cannot(e)),
        }
        if started.elapsed() >= wait {
            return Err(format!(
                "`{shown}` is in use: another command is writing the game (it holds the \
                 lock file `{}`); waited {} s. Nothing was done: run the command again when \
                 the other one has finished",
                path.display(),
                wait.as_secs_f64()
            ));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Open (creating) the lock file without following a link or blocking on a FIFO put
/// there.
fn open_lock_file(path: &Path) -> io::Result<File> {
    let mut o = OpenOptions::new();
    o.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let f = o.open(path)?;
    if !f.metadata()?.is_file() {
        return Err(io::Error::other("it is not a regular file; remove it"));
    }
    Ok(f)
}

// ---------------------------------------------------------------- saving a game

/// A simulated crash for tests: `ARBITER_CRASH_AT=write|backup|rename` stops the
/// process (exit code 70) half-way through writing the temporary file, before the
/// backup, or before the rename.
fn crash_point(stage: &str) {
    if std::env::var("ARBITER_CRASH_AT").is_ok_and(|s| s == stage) {
        // The simulated crash says so on standard error (tests read it).
        let _ = writeln!(
            io::stderr(),
            "arbiter: simulated crash at `{stage}` (ARBITER_CRASH_AT)"
        );
        std::process::exit(70);
    }
}

/// Write `text` to the temporary file (with the mode of `like`, the game file it
/// replaces) and sync it.
fn write_temp(tmp: &Path, text: &str, like: Option<&Metadata>) -> io::Result<()> {
    let mut f = create_temp(tmp, like)?;
    if std::env::var("ARBITER_CRASH_AT").is_ok_and(|s| s == "write") {
        let half = text.len() / 2;
        let cut = (0..=half)
            .rev()
            .find(|&i| text.is_char_boundary(i))
            .unwrap_or(0);
        f.write_all(text.as_bytes().get(..cut).unwrap_or_default())?;
        f.sync_all()?;
        crash_point("write");
    }
    f.write_all(text.as_bytes())?;
    f.sync_all()
}

/// A game text over `limit` bytes is refused: no door could read it back.
fn check_size(shown: &str, text: &str, limit: u64) -> Result<(), String> {
    let size = text.len() as u64;
    if size > limit {
        return Err(format!(
            "`{shown}` was not saved: the game would be {size} bytes, over the input limit of \
             {limit} bytes, and no command could read it back. The file was not changed. \
             Raise the limit with --max-input-bytes (for this command and every later one \
             on the game), or start a new game from the current position"
        ));
    }
    Ok(())
}

/// A warning when a saved game of `size` bytes nears the input `limit` (over
/// [`NEAR_LIMIT_PERCENT`] of it), else `None`.
pub fn near_limit(shown: &str, size: u64, limit: u64) -> Option<String> {
    (size.saturating_mul(100) > limit.saturating_mul(NEAR_LIMIT_PERCENT)).then(|| {
        format!(
            "`{shown}` is {size} bytes, near the input limit of {limit} bytes: a game \
             larger than the limit is not saved; raise it with --max-input-bytes, or start \
             a new game from the current position"
        )
    })
}

/// What the file on disk must be for [`save_game`] to replace it.
#[derive(Clone, Copy, Debug)]
pub enum Expect<'a> {
    /// The bytes this writer loaded: anything else means another writer saved the game
    /// meanwhile, and nothing is saved.
    Loaded(&'a [u8]),
    /// Whatever is there (or nothing): a game saved under a name (the Python package's
    /// `save`), the old file kept as the backup.
    Any,
}

/// Save a game over `path` (see the module comment); the caller holds the game's lock.
/// `limit`: the input limit, which the new text may not pass.
pub fn save_game(path: &Path, text: &str, expect: Expect<'_>, limit: u64) -> Result<(), String> {
    let shown = path.display().to_string();
    if let Some(refusal) = lock_file_refusal(path) {
        return Err(refusal);
    }
    check_size(&shown, text, limit)?;
    // A link stays a link: the file it names is replaced.
    let path = &resolve_links(path).unwrap_or_else(|_| path.to_path_buf());
    let dir = dir_of(path);
    let tmp = sibling(path, &format!(".tmp-{}", std::process::id()));
    let fail = |e: io::Error| {
        let _ = fs::remove_file(&tmp);
        format!("cannot save game file `{shown}`: {e}; the file was not changed")
    };
    let meta = match (fs::symlink_metadata(path), expect) {
        (Ok(m), _) => Some(m),
        (Err(e), Expect::Any) if e.kind() == io::ErrorKind::NotFound => None,
        (Err(e), _) => return Err(fail(e)),
    };
    if meta.as_ref().is_some_and(|m| !m.is_file()) {
        return Err(fail(io::Error::other(
            "it is not a regular file; a game is kept in a regular file",
        )));
    }
    write_temp(&tmp, text, meta.as_ref()).map_err(fail)?;
    if let Expect::Loaded(loaded) = expect {
        // Nobody saved the game since this writer loaded it (one byte more than the
        // loaded file is enough to tell).
        let mut now = Vec::new();
        open_input(path)
            .and_then(|f| f.take(loaded.len() as u64 + 1).read_to_end(&mut now))
            .map_err(fail)?;
        if now != loaded {
            let _ = fs::remove_file(&tmp);
            return Err(format!(
                "`{shown}` was changed by another command while this one ran; nothing was \
                 saved: run the command again"
            ));
        }
    }
    crash_point("backup");
    if meta.is_some() {
        keep_backup(path).map_err(|e| {
            let _ = fs::remove_file(&tmp);
            format!(
                "cannot save game file `{shown}`: {}; the file was not changed",
                backup_failed(path, &e)
            )
        })?;
    }
    crash_point("rename");
    fs::rename(&tmp, path).map_err(fail)?;
    sync_dir(&dir);
    Ok(())
}

/// Save a new game; refuse if a file of that name exists (`exists` words the refusal).
pub fn create_game(
    path: &Path,
    text: &str,
    limit: u64,
    exists: impl Fn(&Path) -> String,
) -> Result<(), String> {
    let shown = path.display().to_string();
    if path.exists() {
        return Err(exists(path));
    }
    if let Some(refusal) = lock_file_refusal(path) {
        return Err(refusal);
    }
    check_size(&shown, text, limit)?;
    // A dangling link: the game goes where it points.
    let path = &resolve_links(path).unwrap_or_else(|_| path.to_path_buf());
    let dir = dir_of(path);
    let tmp = sibling(path, &format!(".tmp-{}", std::process::id()));
    let fail = |e: io::Error| {
        let _ = fs::remove_file(&tmp);
        format!("cannot write game file `{shown}`: {e}")
    };
    write_temp(&tmp, text, None).map_err(fail)?;
    crash_point("rename");
    match fs::hard_link(&tmp, path) {
        Ok(()) => {
            let _ = fs::remove_file(&tmp);
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            let _ = fs::remove_file(&tmp);
            return Err(exists(path));
        }
        // No hard links here: rename (the existence check above must do).
        Err(_) => fs::rename(&tmp, path).map_err(fail)?,
    }
    sync_dir(&dir);
    Ok(())
}
