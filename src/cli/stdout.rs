//! Standard output for the commands' reports (`outln!`, `write_bytes`, and
//! `cli::print_text`, which makes text safe for a terminal first), which never panic: when
//! the reader of the output went away (`arbiter history g.yaml | head -c 10`), the rest
//! of the output is dropped and the command still finishes its work (a judged phase is
//! saved, its pictures written) and exits as it would have; any other write error is
//! reported at the end, with exit code 2 (docs/CLI.md, "Bounds").

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// The reader of standard output went away: nothing more is written to it.
static CLOSED: AtomicBool = AtomicBool::new(false);
/// The first error writing standard output other than a closed pipe.
static FAILED: Mutex<Option<String>> = Mutex::new(None);

/// `println!` that never panics: see the module's comment.
macro_rules! outln {
    () => {
        $crate::cli::stdout::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::cli::stdout::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// Write text to standard output and flush it, remembering a failure instead of
/// panicking; the text made safe for a terminal first ([`crate::cli::terminal`]: a
/// path or a name the user gave cannot clear the screen).
pub fn write(args: std::fmt::Arguments) {
    write_bytes(crate::cli::terminal(&args.to_string()).as_bytes());
}

/// [`write`] for bytes.
pub fn write_bytes(bytes: &[u8]) {
    if CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(bytes).and_then(|()| out.flush()) {
        failed(&e);
    }
}

/// Remember an error writing standard output: a closed pipe stops the output quietly;
/// another error is kept for [`finish`].
pub fn failed(e: &std::io::Error) {
    CLOSED.store(true, Ordering::Relaxed);
    if e.kind() != std::io::ErrorKind::BrokenPipe {
        if let Ok(mut f) = FAILED.lock() {
            f.get_or_insert_with(|| e.to_string());
        }
    }
}

/// The error writing standard output, if any other than a closed pipe.
pub fn finish() -> Option<String> {
    FAILED.lock().ok().and_then(|mut f| f.take())
}

/// Standard output as a writer, through [`write_bytes`]: never an error.
pub struct Parts;

impl std::io::Write for Parts {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        write_bytes(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
