//! Command-line interface: clap arguments → validated settings → one module per subcommand.

/// `eprintln!` and `eprint!` that never panic: the standard library's panic when
/// standard error is a closed pipe (`arbiter judge … 2>&1 | head -c0`); the text is
/// then dropped and the command goes on, as with a closed standard output. Defined
/// before the modules, so that every `eprintln!` of the binary is this one. What they
/// print is made safe for a terminal first ([`terminal`]): a path or a name the user
/// gave (`g\e[2J.yaml`) cannot clear the screen.
macro_rules! eprintln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let text = ::arbiter::map::names::shown(&format!("{}\n", format_args!($($arg)*)));
        let _ = std::io::stderr().write_all($crate::cli::terminal(&text).as_bytes());
    }};
}

macro_rules! eprint {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let text = ::arbiter::map::names::shown(&format!($($arg)*));
        let _ = std::io::stderr().write_all($crate::cli::terminal(&text).as_bytes());
    }};
}

#[macro_use]
mod stdout;

mod adjudicate;
mod album;
mod batch;
mod game;
mod map;
mod render;
mod selfplay;
#[cfg(feature = "serve")]
mod serve;
mod store;
mod test;
mod write;

use std::io::Read;
use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand, ValueEnum};

use arbiter::judge::Rules;
use arbiter::map::Map;

/// Exit code: the phase was adjudicated.
pub const EXIT_OK: i32 = 0;
/// Exit code: the orders had diagnostics (errors); the rest was still adjudicated.
pub const EXIT_DIAGNOSTICS: i32 = 1;
/// Exit code: usage or I/O error.
pub const EXIT_USAGE: i32 = 2;

#[derive(Parser, Debug)]
#[command(name = "arbiter", version, about = "A Diplomacy adjudicator", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// The largest file (or standard input) any command reads, in bytes: orders,
    /// positions, maps, game files, suites. A game larger than this is not saved.
    #[arg(long, global = true, value_name = "BYTES", default_value_t = DEFAULT_MAX_INPUT_BYTES)]
    max_input_bytes: u64,
}

/// The default of `--max-input-bytes`: 16 MiB.
pub const DEFAULT_MAX_INPUT_BYTES: u64 = arbiter::files::DEFAULT_MAX_INPUT_BYTES;

/// The limit `--max-input-bytes` set for this run.
static MAX_INPUT_BYTES: std::sync::atomic::AtomicU64 =
    std::sync::atomic::AtomicU64::new(DEFAULT_MAX_INPUT_BYTES);

/// The input limit of this run (`--max-input-bytes`).
pub fn max_input_bytes() -> u64 {
    MAX_INPUT_BYTES.load(std::sync::atomic::Ordering::Relaxed)
}

/// Read all of `r`, but never more than `--max-input-bytes`
/// ([`arbiter::files::read_limited`]).
pub fn read_limited(r: impl Read) -> std::io::Result<Vec<u8>> {
    arbiter::files::read_limited(r, max_input_bytes())
}

/// [`read_limited`] of a file's bytes, opened by [`arbiter::files::open_input`] (a
/// FIFO or a device never hangs the command; a folder or a socket is refused). The
/// file is noted as an input: no output of this command may be written over it.
pub fn read_file_bytes(path: impl AsRef<Path>) -> std::io::Result<Vec<u8>> {
    let f = arbiter::files::open_input(path.as_ref())?;
    write::record_input(path.as_ref(), f.file());
    read_limited(f)
}

/// [`read_limited`] of a file as UTF-8 text: the one way the binary reads a file.
pub fn read_file(path: impl AsRef<Path>) -> std::io::Result<String> {
    utf8(read_file_bytes(path)?)
}

/// Bytes as UTF-8 text, or refused with the encoding they seem to be in and where
/// ([`arbiter::encoding::decode`], the one detector of every door).
fn utf8(bytes: Vec<u8>) -> std::io::Result<String> {
    arbiter::encoding::decode(bytes)
        .map_err(|m| std::io::Error::new(std::io::ErrorKind::InvalidData, m))
}

pub(crate) use arbiter::encoding::not_utf8;

#[derive(Subcommand, Debug)]
enum Command {
    /// Adjudicate one phase from a position file (or, with --batch, many cases as JSON Lines).
    Adjudicate(AdjudicateArgs),
    /// Start a game file at the map's first phase.
    New(game::NewArgs),
    /// Show a game: the board by power and what the current phase needs.
    Status(game::StatusArgs),
    /// Judge a game's current phase with one or more order files, and save.
    Judge(game::JudgeArgs),
    /// Take back the last judged phase, exactly.
    Undo(game::UndoArgs),
    /// Print the sheets of past phases.
    History(game::HistoryArgs),
    /// Supply-centre owners and counts after each game year.
    #[command(alias = "centers")]
    Centres(game::CentresArgs),
    /// Why each order of the last judged phase succeeded or failed.
    Explain(game::ExplainArgs),
    /// Run conformance suites (our YAML cases, jDip DATC files): one line per case.
    Test(test::TestArgs),
    /// Map files: check, list, show, import from DPjudge, lay out positions.
    Map(map::MapArgs),
    /// Draw a position as SVG (or PNG): a game's judged phase with its orders, or a
    /// position file with optional orders, or a whole game (--all, --gif); the board
    /// coloured by owner when the map has a drawing, else (or with --graph) the map's graph.
    Render(render::RenderArgs),
    /// Play whole games with random legal orders, checking invariants every phase.
    Selfplay(selfplay::SelfplayArgs),
    /// Serve a game's web pages: the referee's page and one page per power, where
    /// players type their orders on their phones (docs/SERVE.md).
    #[cfg(feature = "serve")]
    Serve(serve::ServeArgs),
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Markdown,
}

/// A phase's result in the chosen format.
pub fn render(
    map: &Map,
    game: &str,
    result: &arbiter::game::PhaseResult,
    format: Format,
    diagnostics: &[arbiter::orders::Diagnostic],
) -> Result<String, Fatal> {
    use arbiter::report;
    Ok(match format {
        Format::Text => report::text::sheet(map, game, result),
        Format::Markdown => report::markdown::sheet(map, game, result),
        Format::Json => {
            let mut s = report::json::phase_pretty(map, result, diagnostics)
                .map_err(|e| Fatal(e.to_string()))?;
            s.push('\n');
            s
        }
    })
}

#[derive(clap::Args, Debug)]
pub struct AdjudicateArgs {
    /// Orders file, or `-` for standard input (the default). With --batch: JSON Lines,
    /// one case per line.
    ///
    /// A slip's power is its header (`France:` on a line of its own, or before each
    /// order); without one, its file name when that begins with a power's name, code or
    /// adjective (`france.txt`, `France-S1901.txt`, any case). An order with neither is
    /// an error (it is judged for the power whose unit it orders), and so is an order
    /// for another power's unit or a heading that names another phase (`Spring 1905`
    /// in a Fall turn; in a slip without one, a file name that does: `France-S1905.txt`).
    #[arg(default_value = "-")]
    pub orders: String,
    /// Position file (YAML: phase, units by power, supply-centre owners). Default: the
    /// map's starting position.
    #[arg(long, value_name = "FILE")]
    pub position: Option<PathBuf>,
    /// Map: the name of an embedded map (`standard`, `classic1913`, `world1914`) or a YAML map file.
    #[arg(long, value_name = "NAME|FILE", default_value = "standard")]
    pub map: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    #[arg(long, default_value = "2023", value_name = "EDITION", help = RULES_HELP)]
    pub rules: String,
    /// JSON Lines in, JSON Lines out: one case per line.
    #[arg(long)]
    pub batch: bool,
    /// With --batch: worker threads (default: every core).
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// With --batch: print lines, errors and lines per second to standard error.
    #[arg(long)]
    pub stats: bool,
    /// With --batch: let lines name the map file PATH as NAME (`"map": "NAME"`); lines
    /// may name embedded maps and maps registered so, nothing else. Repeatable.
    #[arg(long, value_name = "NAME=PATH")]
    pub map_file: Vec<String>,
    /// With --batch: the longest line read, in bytes; a longer line gets an error answer.
    #[arg(long, value_name = "BYTES", default_value_t = arbiter::batch::MAX_LINE)]
    pub max_line_bytes: usize,
    /// Game name for the results header.
    #[arg(long)]
    pub game: Option<String>,
    /// Every correction of a misspelling is an error (without it, a misspelt name with
    /// exactly one close reading is read, with a warning that shows the correction).
    #[arg(long)]
    pub strict: bool,
    /// Write the output to FILE instead of standard output: a regular file is replaced
    /// atomically and keeps its mode; a FIFO or device (`/dev/null`) is written in place;
    /// an input file is refused.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// A usage or I/O error: message for standard error, exit code 2.
#[derive(Debug)]
pub struct Fatal(pub String);

pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            if !e.use_stderr() {
                // `--help`, `--version`: to standard output, as clap writes them.
                let _ = e.print();
                return EXIT_OK;
            }
            // A usage error quotes what was typed: through the same cleaning as every
            // message (invisible characters named, long words cut, no escapes).
            eprint!("{}", e.render());
            return EXIT_USAGE;
        }
    };
    MAX_INPUT_BYTES.store(cli.max_input_bytes, std::sync::atomic::Ordering::Relaxed);
    let result = match cli.command {
        Command::Adjudicate(args) if args.batch => batch::run(&args),
        Command::Adjudicate(args) => adjudicate::run(&args),
        Command::New(args) => game::new(&args),
        Command::Status(args) => game::status(&args),
        Command::Judge(args) => game::judge(&args),
        Command::Undo(args) => game::undo(&args),
        Command::History(args) => game::history(&args),
        Command::Centres(args) => game::centres(&args),
        Command::Explain(args) => game::explain(&args),
        Command::Test(args) => test::run(&args),
        Command::Map(args) => map::run(&args),
        Command::Render(args) => render::run(&args),
        Command::Selfplay(args) => selfplay::run(&args),
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve::run(&args),
    };
    let result = match (result, stdout::finish()) {
        (Ok(_), Some(e)) => Err(Fatal(format!("cannot write output: {e}"))),
        (result, _) => result,
    };
    match result {
        Ok(code) => code,
        Err(Fatal(msg)) => {
            eprint_text(&format!("error: {msg}\n"));
            EXIT_USAGE
        }
    }
}

/// `--jobs N` of `adjudicate --batch` and `selfplay`: 1 to [`arbiter::batch::MAX_JOBS`];
/// by default every core, at most that many.
pub fn jobs(requested: Option<usize>) -> Result<usize, Fatal> {
    let max = arbiter::batch::MAX_JOBS;
    match requested {
        Some(0) => Err(Fatal("--jobs must be at least 1".into())),
        Some(n) if n > max => Err(Fatal(format!(
            "--jobs {n}: at most {max} threads (docs/CLI.md, \"Bounds\")"
        ))),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get().min(max))),
    }
}

/// Read a file, or standard input for `-`.
pub fn read_input(path: &str) -> Result<String, Fatal> {
    if path == "-" {
        read_limited(std::io::stdin().lock())
            .and_then(utf8)
            .map_err(|e| Fatal(format!("cannot read standard input: {e}")))
    } else {
        read_file(path).map_err(|e| Fatal(format!("cannot read `{path}`: {e}")))
    }
}

/// Write diagnostics to standard error as they are rendered (at most
/// [`arbiter::orders::MAX_DIAGNOSTICS`], long lines cut).
pub fn print_diagnostics(diags: &[arbiter::orders::Diagnostic], source: &str, file: &str) {
    if diags.is_empty() {
        return;
    }
    let mut text = Vec::new();
    let _ = arbiter::orders::write_diagnostics(&mut text, diags, source, file);
    eprint_text(&String::from_utf8_lossy(&text));
}

/// User text made safe for a terminal: every control character (C0 but line feed and
/// tab, a carriage return not before a line feed, DEL, C1, NEL among them), the line and
/// paragraph separators (U+2028, U+2029) and every bidirectional
/// override or isolate (U+202A–U+202E, U+2066–U+2069) becomes `�`, one column for one,
/// so an order file, a name or a game name cannot clear the screen, move the cursor,
/// recolour or reorder what follows, or forge a sheet line (`a\e[2Jb`). Everything
/// the binary prints as text goes through it; files written with `-o` are not changed.
pub fn terminal(s: &str) -> std::borrow::Cow<'_, str> {
    let bad = |c: char, next: Option<char>| match c {
        '\n' | '\t' => false,
        '\r' => next != Some('\n'),
        '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}' => true,
        c => c.is_control(),
    };
    let mut it = s.chars().peekable();
    let mut any = false;
    while let Some(c) = it.next() {
        if bad(c, it.peek().copied()) {
            any = true;
            break;
        }
    }
    if !any {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        out.push(if bad(c, it.peek().copied()) {
            '\u{FFFD}'
        } else {
            c
        });
    }
    std::borrow::Cow::Owned(out)
}

/// Print text on standard output, made safe for a terminal ([`terminal`]).
pub fn print_text(s: &str) {
    stdout::write_bytes(terminal(s).as_bytes());
}

/// Print text on standard error, made safe for a terminal ([`terminal`]).
pub fn eprint_text(s: &str) {
    use std::io::Write;
    // Standard error gone: nothing left to tell.
    let s = arbiter::map::names::shown(s);
    let _ = std::io::stderr().lock().write_all(terminal(&s).as_bytes());
}

/// An embedded map by name, or a map file.
pub fn load_map(name: &str) -> Result<Map, Fatal> {
    load_map_as(name, true)
}

/// The map file a game file names (`map_file`), read only as a map: a file that does
/// not read as one (YAML of the map schema) is never quoted (a hand-edited `map_file:
/// /etc/passwd` must not print the file): the error counts its problems and names
/// `arbiter map check`, which the referee runs on a file of their choosing. A map with
/// other problems is shown as `--map` shows it.
pub fn load_game_map(name: &str) -> Result<Map, Fatal> {
    let path = Path::new(name);
    if Map::embedded(name).is_some() || !path.is_file() {
        return load_map(name);
    }
    let src = read_file(path).map_err(|e| Fatal(format!("cannot read map `{name}`: {e}")))?;
    match arbiter::mapcheck::load(&src, name) {
        Ok(mut map) => {
            if let Some(d) = load_drawing(path, &map)? {
                map.drawing = Some(std::sync::Arc::new(d));
            }
            Ok(map)
        }
        // A map file with a map's shape: its problems are shown as every command
        // shows them.
        Err(found) if !found.findings.iter().any(|f| f.code == "YAML") => load_map(name),
        Err(found) => {
            let (e, w, _) = found.count();
            Err(Fatal(format!(
                "it is not a map file (it does not read as YAML of the map schema): {}, {}; \
                 its contents are not shown here: `arbiter map check {name}` shows them, or \
                 set `map_file` to the game's map",
                arbiter::report::text::count(e, "error"),
                arbiter::report::text::count(w, "warning")
            )))
        }
    }
}

/// [`load_map`]; with `strict: false` a map the loader accepts is returned whatever
/// the checker's own findings (`map show` draws it with its problems ringed).
pub fn load_map_as(name: &str, strict: bool) -> Result<Map, Fatal> {
    if let Some(m) = Map::embedded(name) {
        return Ok(m);
    }
    let mut map = load_map_file(name, strict)?;
    if let Some(d) = load_drawing(Path::new(name), &map)? {
        map.drawing = Some(std::sync::Arc::new(d));
    }
    Ok(map)
}

/// A map file as [`load_map_as`] reads it, without the drawing beside it (`map draw`
/// makes a new one whether the old one fits or not).
pub fn load_map_file(name: &str, strict: bool) -> Result<Map, Fatal> {
    let path = Path::new(name);
    if !path.exists() {
        return Err(Fatal(format!(
            "unknown map `{name}`: give an embedded map name (`standard`, `classic1913`, `world1914`) or a YAML file"
        )));
    }
    let src = read_file(path).map_err(|e| Fatal(format!("cannot read map `{name}`: {e}")))?;
    // Every command reports a broken map as `arbiter map check` does: the same checks,
    // each finding with its code, line, caret and hint, in line order.
    let loaded = if strict {
        arbiter::mapcheck::load(&src, name)
    } else {
        let found = arbiter::mapcheck::check_all(&src, name, None, None);
        match found.map {
            Some(map) => Ok(map),
            None => Err(Box::new(found)),
        }
    };
    loaded.map_err(|found| {
        let shown =
            arbiter::mapcheck::render_omitting(&found.findings, found.omitted_total(), |f| {
                (f == name).then_some(src.as_str())
            });
        let (e, w, _) = found.count();
        Fatal(format!(
            "the map is not valid:\n\n{shown}{name}: {}, {}",
            arbiter::report::text::count(e, "error"),
            arbiter::report::text::count(w, "warning")
        ))
    })
}

/// The drawing file of a map file: `NAME.drawing.yaml` beside `NAME.yaml`.
pub fn drawing_path(map_file: &Path) -> std::path::PathBuf {
    let stem = map_file
        .file_stem()
        .map_or_else(|| "map".into(), |s| s.to_string_lossy().into_owned());
    map_file.with_file_name(format!("{stem}.drawing.yaml"))
}

/// A file found beside the map file `map_file` by its name (its drawing
/// `NAME.drawing.yaml`, its geography `NAME.geo.yaml`; `what` says which), if one is
/// there. A link there must lead to a file in the map's folder (the folder of the map
/// as named, or of the file a link to the map names): one that leads out is refused,
/// as `map import` refuses a `USE` that does, and nothing of it is read.
pub fn beside(
    map_file: &Path,
    found: std::path::PathBuf,
    what: &str,
) -> Result<Option<std::path::PathBuf>, Fatal> {
    let Ok(meta) = std::fs::symlink_metadata(&found) else {
        return Ok(None);
    };
    if !meta.file_type().is_symlink() {
        return Ok(Some(found));
    }
    // A link to nothing: no file there.
    let Ok(real) = std::fs::canonicalize(&found) else {
        return Ok(None);
    };
    let folder_of = |p: &Path| std::fs::canonicalize(write::dir_of(p)).ok();
    let folders = [
        folder_of(map_file),
        std::fs::canonicalize(map_file)
            .ok()
            .and_then(|m| folder_of(&m)),
    ];
    if folders
        .iter()
        .flatten()
        .any(|f| real.parent() == Some(f.as_path()))
    {
        return Ok(Some(found));
    }
    Err(Fatal(format!(
        "`{}`, the {what} beside the map `{}`, is a link that leads out of the map's folder \
         (to `{}`): a file found beside a map must be in its folder, and nothing of this one \
         was read; copy the {what} into the folder, or remove the link",
        found.display(),
        map_file.display(),
        real.display()
    )))
}

/// The drawing beside a map file, if there is one; a drawing that does not fit the
/// map is an error naming each problem and its line.
fn load_drawing(
    map_file: &Path,
    map: &Map,
) -> Result<Option<arbiter::map::drawing::Drawing>, Fatal> {
    // Anything there but a file (a FIFO, a folder) is an error when read, not passed over.
    let Some(path) = beside(map_file, drawing_path(map_file), "drawing")? else {
        return Ok(None);
    };
    let shown = path.display().to_string();
    let src = read_file(&path).map_err(|e| Fatal(format!("cannot read drawing `{shown}`: {e}")))?;
    arbiter::map::drawing::Drawing::from_yaml(&src, &shown, map)
        .map(Some)
        .map_err(|e| {
            Fatal(format!(
                "the drawing does not fit the map:\n{e}\n(fix it, or delete it and run `arbiter map draw {}`)",
                map_file.display()
            ))
        })
}

pub fn parse_rules(s: &str) -> Result<Rules, Fatal> {
    Rules::parse(s).ok_or_else(|| {
        Fatal(format!(
            "unknown rules edition `{s}`: the editions are {}",
            Rules::names()
        ))
    })
}

/// The help of every `--rules` option: the editions and what each is (docs/RULES.md).
pub const RULES_HELP: &str = "Rule edition: \
2023 (default; alias datc-3.0): the 2023 rulebook with every DATC v3.0 preference; \
2000 (alias datc-2.4): the 2000 rulebook with the DATC v2.4 preferences (a via-convoy move \
with no convoy ordered goes by land; civil disorder measures to home centres by unit type); \
1982: the 1982 rulebook (its convoy paradox and convoy-intent rules), otherwise as 2000; \
1971: the 1971 rulebook (its convoy paradox rule; an army goes to an adjacent province \
by land unless it swaps places by convoy), otherwise as 2000. docs/RULES.md gives every difference";

/// Write the output to standard output, or atomically to a file.
pub fn write_output(path: Option<&Path>, text: &str) -> Result<(), Fatal> {
    match path {
        // Standard output may be a terminal: no control characters ([`terminal`]).
        None => write_bytes(path, terminal(text).as_bytes()),
        Some(_) => write_bytes(path, text.as_bytes()),
    }
}

/// [`write_output`] of what `write` writes as it goes: to standard output (through
/// [`stdout`], in parts), or atomically to a file.
pub fn write_with(
    path: Option<&Path>,
    write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> Result<(), Fatal> {
    match path {
        None => {
            let mut out = stdout::Parts;
            write(&mut out).map_err(|e| Fatal(format!("cannot write output: {e}")))
        }
        Some(p) => write_atomically(p, |f| {
            let mut w = std::io::BufWriter::new(f);
            write(&mut w)?;
            std::io::Write::flush(&mut w)
        }),
    }
}

/// [`write_output`] for bytes (a PNG).
pub fn write_bytes(path: Option<&Path>, bytes: &[u8]) -> Result<(), Fatal> {
    use std::io::Write;
    match path {
        None => {
            stdout::write_bytes(bytes);
            Ok(())
        }
        Some(p) => write_atomically(p, |f| f.write_all(bytes)),
    }
}

/// Write a file by the one write policy of [`write`]: a regular file is replaced
/// atomically and keeps its mode, a link keeps pointing at the file written, a FIFO or
/// character device is written in place, an input of this command is refused.
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> Result<(), Fatal> {
    write::write_file(path, write)
}
