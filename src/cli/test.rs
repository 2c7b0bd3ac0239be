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

/// A search for suite files under the paths named (see [`collect`]).
struct Search {
    /// The folders searched and files taken so far (links followed): a link back to a
    /// folder is a cycle, and a file is read once.
    seen: std::collections::HashSet<PathBuf>,
    /// The folder named on the command line that is being searched (links followed):
    /// a link out of it is not followed.
    root: Option<PathBuf>,
    files: Vec<PathBuf>,
    unreadable: Vec<(String, String)>,
}

/// The suite files under `path`, sorted; hidden files and folders are passed over. A
/// file named on the command line is taken whatever its name. Links inside a folder
/// are followed only within the folder named, and never back into a folder already
/// searched (a cycle): each link passed over is a warning. A FIFO, a device or a
/// socket with a suite's name is reported, never opened.
fn collect(path: &Path, named: bool, search: &mut Search) {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) => {
            search
                .unreadable
                .push((path.display().to_string(), format!("cannot read it: {e}")));
            return;
        }
    };
    if meta.is_dir() {
        let Ok(real) = std::fs::canonicalize(path) else {
            search.unreadable.push((
                path.display().to_string(),
                "cannot read the folder: its path cannot be resolved".to_string(),
            ));
            return;
        };
        if named {
            search.root = Some(real.clone());
        }
        let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
        if !named && is_link && search.root.as_ref().is_some_and(|r| !real.starts_with(r)) {
            eprintln!(
                "warning: `{}` is a link to `{}`, outside the folder searched: not followed",
                path.display(),
                real.display()
            );
            return;
        }
        if !search.seen.insert(real.clone()) {
            eprintln!(
                "warning: `{}` leads back to `{}`, a folder already searched (a cycle of \
                 links): not followed",
                path.display(),
                real.display()
            );
            return;
        }
        let entries = match std::fs::read_dir(path) {
            Ok(e) => e,
            Err(e) => {
                search.unreadable.push((
                    path.display().to_string(),
                    format!("cannot read the folder: {e}"),
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
                collect(&p, false, search);
            }
        }
    } else if named || SuiteFormat::of_name(&path.to_string_lossy()).is_some() {
        if !named {
            let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
            let outside = match (&search.root, std::fs::canonicalize(path)) {
                (Some(r), Ok(real)) => !real.starts_with(r),
                _ => false,
            };
            if is_link && outside {
                eprintln!(
                    "warning: `{}` is a link to a file outside the folder searched: not followed",
                    path.display()
                );
                return;
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
        if let Ok(real) = std::fs::canonicalize(path) {
            if !search.seen.insert(real.clone()) {
                eprintln!(
                    "warning: `{}` is `{}`, already read: not read again",
                    path.display(),
                    real.display()
                );
                return;
            }
        }
        search.files.push(path.to_path_buf());
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
        files: Vec::new(),
        unreadable: Vec::new(),
    };
    for p in &args.paths {
        if !p.exists() {
            return Err(Fatal(format!(
                "cannot read `{}`: no such file or folder",
                p.display()
            )));
        }
        search.root = None;
        collect(p, true, &mut search);
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
