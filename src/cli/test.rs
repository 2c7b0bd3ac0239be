//! `arbiter test PATH…`: run conformance suites (our YAML cases and jDip DATC text
//! files; the readers are in `arbiter::suite`), a file or a folder searched recursively
//! for `*.yaml`, `*.yml` and `*.txt`. One line per case and edition (`ok` or `FAILED`,
//! with the differences under a failure), then `N passed, M failed`; or one JSON object
//! per line with `--format json`. Exit status: 0 all passed, 1 a case failed or a file
//! could not be read, 2 usage or I/O error (bad option, a PATH that does not exist,
//! output that cannot be written).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::ValueEnum;

use arbiter::judge::Rules;
use arbiter::map::Map;
use arbiter::suite::{self, Entry, Format as SuiteFormat};

use super::{load_map, parse_rules, Fatal, EXIT_OK};

/// Exit code: a case failed (or a file or case could not be read).
pub const EXIT_FAILED: i32 = 1;

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum TestFormat {
    /// One line per case: `6.A.1 ... ok`, the differences under a failure.
    Text,
    /// One JSON object per line: id, title, edition, file, line, format, passed,
    /// differences, judged.
    Json,
}

#[derive(clap::Args, Debug)]
pub struct TestArgs {
    /// Case files or folders (searched recursively for *.yaml, *.yml and *.txt).
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    #[arg(
        long,
        value_name = "EDITION",
        help = format!("For the cases that do not name one. {}", super::RULES_HELP)
    )]
    pub rules: Option<String>,
    /// Run only the cases whose id contains TEXT.
    #[arg(long, value_name = "TEXT")]
    pub filter: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TestFormat::Text)]
    pub format: TestFormat,
    /// Map: the name of an embedded map (`standard`, `classic1913`, `world1914`) or a YAML map file.
    #[arg(long, value_name = "NAME|FILE", default_value = "standard")]
    pub map: String,
}

/// One line of the report: a case under one edition, or a problem reading a file.
struct Report<'a> {
    id: Option<&'a str>,
    title: &'a str,
    edition: Option<&'static str>,
    /// Print the edition beside the id (several editions, or not the one asked for).
    show_edition: bool,
    file: &'a str,
    line: Option<usize>,
    format: SuiteFormat,
    differences: &'a [String],
    judged: &'a [String],
}

struct Printer<W: Write> {
    out: W,
    json: bool,
    passed: usize,
    failed: usize,
}

impl<W: Write> Printer<W> {
    fn report(&mut self, r: &Report) -> Result<(), Fatal> {
        let passed = r.differences.is_empty();
        if passed {
            self.passed += 1;
        } else {
            self.failed += 1;
        }
        let text = if self.json {
            let j = serde_json::json!({
                "id": r.id,
                "title": r.title,
                "edition": r.edition,
                "file": r.file,
                "line": r.line,
                "format": r.format.name(),
                "passed": passed,
                "differences": r.differences,
                "judged": if passed { &[][..] } else { r.judged },
            });
            format!("{j}\n")
        } else {
            let at = match r.line {
                Some(n) => format!("{}:{n}", r.file),
                None => r.file.to_string(),
            };
            let mut s = match (r.id, r.show_edition, r.edition) {
                (Some(id), true, Some(e)) => format!("{id} [{e}]"),
                (Some(id), _, _) => id.to_string(),
                (None, _, _) => at.clone(),
            };
            s.push_str(if passed { " ... ok\n" } else { " ... FAILED\n" });
            if !passed {
                if r.title.is_empty() {
                    s.push_str(&format!("    at {at}\n"));
                } else {
                    s.push_str(&format!("    {} (at {at})\n", r.title));
                }
                for d in r.differences {
                    s.push_str(&format!("    - {d}\n"));
                }
                if !r.judged.is_empty() {
                    s.push_str("    as judged:\n");
                    for j in r.judged {
                        s.push_str(&format!("      {j}\n"));
                    }
                }
            }
            s
        };
        self.write(&text)
    }

    fn write(&mut self, s: &str) -> Result<(), Fatal> {
        // Case titles and differences come from the suite: no control characters.
        self.out
            .write_all(super::terminal(s).as_bytes())
            .and_then(|_| self.out.flush())
            .map_err(|e| Fatal(format!("cannot write output: {e}")))
    }
}

/// How deep `arbiter test DIR` searches below a folder named: deeper folders are reported,
/// not searched (a suite is never that deep; a chain `a/a/a/…` made to slow the search
/// down is named).
pub const MAX_DEPTH: usize = 500;

/// What a folder or file is, whatever the path that leads to it: its device and inode
/// (the path resolved, where there are none).
#[cfg(unix)]
type Identity = (u64, u64);
#[cfg(not(unix))]
type Identity = PathBuf;

#[cfg(unix)]
fn identity(_path: &Path, meta: &std::fs::Metadata) -> Option<Identity> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn identity(path: &Path, _meta: &std::fs::Metadata) -> Option<Identity> {
    std::fs::canonicalize(path).ok()
}

/// Why a path cannot be read, naming a path longer than the system allows.
fn why(path: &Path, e: &std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::InvalidFilename {
        format!(
            "its path is too long for the system ({} bytes): {e}",
            path.as_os_str().len()
        )
    } else {
        e.to_string()
    }
}

/// The path a link leads to, for a warning (resolved only then).
fn resolved(path: &Path) -> String {
    match std::fs::canonicalize(path) {
        Ok(r) => format!("`{}`", r.display()),
        Err(_) => "a file or folder met before".to_string(),
    }
}

/// A search for suite files under the paths named (see [`collect`]).
struct Search {
    /// The folders searched and files taken so far, by device and inode (links
    /// followed): a link back to a folder is a cycle, and a file is read once. Linear:
    /// no path is resolved for this.
    seen: std::collections::HashSet<Identity>,
    /// The folder named on the command line that is being searched (links followed):
    /// a link out of it is not followed.
    root: Option<PathBuf>,
    /// Suite files met under the path named (read, passed over or unreadable): none in
    /// a folder is a failure (nothing to run).
    met: usize,
    files: Vec<PathBuf>,
    unreadable: Vec<(String, String)>,
}

/// The suite files under `path`, sorted; hidden files and folders are passed over. A
/// file named on the command line is taken whatever its name. Links inside a folder
/// are followed only within the folder named, and never back into a folder already
/// searched (a cycle, found by device and inode): each link passed over is a warning. A
/// FIFO, a device or a socket with a suite's name is reported, never opened. A folder
/// deeper than [`MAX_DEPTH`] below the one named is reported, not searched. Time: each
/// level costs a few system calls on its path, no resolution of the whole path (which
/// made a chain of 1,000 folders take seconds); only a link is resolved, to see whether
/// it leads out of the folder named.
fn collect(path: &Path, depth: usize, search: &mut Search) {
    let named = depth == 0;
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) => {
            if named || SuiteFormat::of_name(&path.to_string_lossy()).is_some() {
                search.met += 1;
            }
            search.unreadable.push((
                path.display().to_string(),
                format!("cannot read it: {}", why(path, &e)),
            ));
            return;
        }
    };
    let is_link = || std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if meta.is_dir() {
        if named {
            search.root = std::fs::canonicalize(path).ok();
        } else if is_link() {
            let real = std::fs::canonicalize(path);
            let outside = match (&search.root, &real) {
                (Some(r), Ok(real)) => !real.starts_with(r),
                _ => true,
            };
            if outside {
                let to = match &real {
                    Ok(r) => format!("`{}`", r.display()),
                    Err(e) => format!("a path that cannot be resolved ({})", why(path, e)),
                };
                eprintln!(
                    "warning: `{}` is a link to {to}, outside the folder searched: not followed",
                    path.display(),
                );
                return;
            }
        }
        if let Some(id) = identity(path, &meta) {
            if !search.seen.insert(id) {
                eprintln!(
                    "warning: `{}` leads back to {}, a folder already searched (a cycle of \
                     links): not followed",
                    path.display(),
                    resolved(path)
                );
                return;
            }
        }
        if depth > MAX_DEPTH {
            search.met += 1;
            search.unreadable.push((
                path.display().to_string(),
                format!(
                    "not searched: folders nest more than {MAX_DEPTH} deep below the one named \
                     (a suite is never that deep); name a deeper folder on the command line"
                ),
            ));
            return;
        }
        let entries = match std::fs::read_dir(path) {
            Ok(e) => e,
            Err(e) => {
                search.met += 1;
                search.unreadable.push((
                    path.display().to_string(),
                    format!("cannot read the folder: {}", why(path, &e)),
                ));
                return;
            }
        };
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for p in paths {
            let hidden = p
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'));
            if !hidden {
                collect(&p, depth + 1, search);
            }
        }
    } else if named || SuiteFormat::of_name(&path.to_string_lossy()).is_some() {
        search.met += 1;
        if !named {
            if is_link() {
                let outside = match (&search.root, std::fs::canonicalize(path)) {
                    (Some(r), Ok(real)) => !real.starts_with(r),
                    _ => false,
                };
                if outside {
                    eprintln!(
                        "warning: `{}` is a link to a file outside the folder searched: not \
                         followed",
                        path.display()
                    );
                    return;
                }
            }
            if !meta.is_file() {
                search.unreadable.push((
                    path.display().to_string(),
                    "cannot read it: it is not a regular file (a FIFO, a device or a \
                     socket); a suite is a file"
                        .to_string(),
                ));
                return;
            }
        }
        // One file reached by two paths (a link beside it) is read once.
        if let Some(id) = identity(path, &meta) {
            if !search.seen.insert(id) {
                eprintln!(
                    "warning: `{}` is {}, already read: not read again",
                    path.display(),
                    resolved(path)
                );
                return;
            }
        }
        search.files.push(path.to_path_buf());
    }
}

/// Why a path named on the command line that does not lead to anything cannot be read:
/// no such file, a link to nothing, or a loop of links.
fn missing(p: &Path) -> String {
    let Ok(m) = std::fs::symlink_metadata(p) else {
        return "no such file or folder".to_string();
    };
    if !m.file_type().is_symlink() {
        return "it cannot be read".to_string();
    }
    // Follow the links one by one: a path met twice is a loop.
    let mut seen = std::collections::HashSet::new();
    let mut at = p.to_path_buf();
    loop {
        if !seen.insert(at.clone()) || seen.len() > 40 {
            return "it is a loop of symbolic links (a link that leads back to itself); \
                    name a file or a folder"
                .to_string();
        }
        let Ok(to) = std::fs::read_link(&at) else {
            return "no such file or folder".to_string();
        };
        let next = match at.parent() {
            Some(dir) => dir.join(&to),
            None => to.clone(),
        };
        if std::fs::symlink_metadata(&next).is_err() {
            return format!("it is a link to `{}`, which does not exist", to.display());
        }
        at = next;
    }
}

pub fn run(args: &TestArgs) -> Result<i32, Fatal> {
    let map = load_map(&args.map)?;
    let default = match &args.rules {
        Some(r) => parse_rules(r)?,
        None => Rules::default(),
    };
    let mut search = Search {
        seen: Default::default(),
        root: None,
        met: 0,
        files: Vec::new(),
        unreadable: Vec::new(),
    };
    for p in &args.paths {
        if !p.exists() {
            return Err(Fatal(format!(
                "cannot read `{}`: {}",
                p.display(),
                missing(p)
            )));
        }
        search.root = None;
        search.met = 0;
        collect(p, 0, &mut search);
        if search.met == 0 {
            search.unreadable.push((
                p.display().to_string(),
                "no suite file (*.yaml, *.yml, *.txt) in this folder or below: no case \
                 to run"
                    .to_string(),
            ));
        }
    }
    let Search {
        files, unreadable, ..
    } = search;
    let mut printer = Printer {
        out: super::stdout::Parts,
        json: args.format == TestFormat::Json,
        passed: 0,
        failed: 0,
    };
    for (folder, why) in unreadable {
        printer.report(&Report {
            id: None,
            title: "",
            edition: None,
            show_edition: false,
            file: &folder,
            line: None,
            format: SuiteFormat::Yaml,
            differences: &[why],
            judged: &[],
        })?;
    }
    for f in &files {
        run_file(&map, default, args.filter.as_deref(), f, &mut printer)?;
    }
    let summary = format!("{} passed, {} failed\n", printer.passed, printer.failed);
    if printer.json {
        eprint!("{summary}");
    } else {
        printer.write(&format!("\n{summary}"))?;
    }
    Ok(if printer.failed > 0 {
        EXIT_FAILED
    } else {
        EXIT_OK
    })
}

fn run_file<W: Write>(
    map: &Map,
    default: Rules,
    filter: Option<&str>,
    path: &Path,
    printer: &mut Printer<W>,
) -> Result<(), Fatal> {
    let file = path.display().to_string();
    let format = SuiteFormat::of_name(&file);
    // A byte-order mark (jDip's files may have one) is dropped; a file in another
    // encoding is named with its line (`read_file`).
    let text = match super::read_file(path) {
        Ok(t) => t,
        Err(e) => {
            let why = format!("cannot read the file: {e}");
            return printer.report(&Report {
                id: None,
                title: "",
                edition: None,
                show_edition: false,
                file: &file,
                line: None,
                format: format.unwrap_or(SuiteFormat::Yaml),
                differences: &[why],
                judged: &[],
            });
        }
    };
    let format = format.unwrap_or_else(|| SuiteFormat::sniff(&text));
    let picked = |id: &str| filter.is_none_or(|f| id.contains(f));
    suite::read_each(map, format, &text, |entry| -> Result<(), Fatal> {
        match entry {
            Entry::Problem(p) => {
                if p.id.as_deref().is_some_and(|id| !picked(id)) {
                    return Ok(());
                }
                printer.report(&Report {
                    id: p.id.as_deref(),
                    title: "",
                    edition: None,
                    show_edition: false,
                    file: &file,
                    line: p.line,
                    format,
                    differences: &[p.message],
                    judged: &[],
                })?;
            }
            Entry::Case { line, case } => {
                if !picked(case.id()) {
                    return Ok(());
                }
                let editions = match case.editions(default) {
                    Ok(e) => e,
                    Err(e) => {
                        printer.report(&Report {
                            id: Some(case.id()),
                            title: case.title(),
                            edition: None,
                            show_edition: false,
                            file: &file,
                            line,
                            format,
                            differences: &[e],
                            judged: &[],
                        })?;
                        return Ok(());
                    }
                };
                let several = editions.len() > 1;
                for rules in editions {
                    let checked = case.check(map, rules);
                    printer.report(&Report {
                        id: Some(case.id()),
                        title: case.title(),
                        edition: Some(rules.name()),
                        show_edition: several || rules != default,
                        file: &file,
                        line,
                        format,
                        differences: &checked.differences,
                        judged: &checked.judged,
                    })?;
                }
            }
        }
        Ok(())
    })?;
    Ok(())
}
