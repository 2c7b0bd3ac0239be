//! `arbiter map check`: every problem of a map file in one run, each with its line,
//! column, severity, stable code, the rule it breaks and a hint.
//!
//! Two sources feed one list of [`Finding`]s:
//! - the loader ([`Map::from_yaml`]): its [`MapProblem`]s already carry a code, a line
//!   and a column; they are taken as they are (a unit's position is narrowed to the
//!   unit in its list, a duplicate id's to the second occurrence);
//! - the checks of this module, for what a map may get wrong and still load: edges with
//!   different unit types at their two ends, duplicate edges, names that are order
//!   keywords, terrain the loader cannot see from one end, coasts without water,
//!   connectivity, centres home to two powers, the victory threshold, canals to confirm,
//!   fleet edges between coasts that share no sea, edges far longer than their
//!   neighbours' in the drawing, powers that can never build a fleet; and, with a
//!   reference edge list, every edge missing or extra; and, with the map's drawing
//!   ([`check_with_drawing`]), where the picture disagrees with the edges ([`drawing`]).
//!
//! [`load`] is how every command loads a map file: the map only when these checks find
//! no error.
//!
//! The checks here read the file leniently (module `lenient`), so they still run
//! when the loader stops at a schema error. Positions come from
//! [`crate::map::locate::Locations`]. The library does no I/O: the caller passes the
//! text of the map and of the reference.
//! The codes are listed, with their rules, in [`CODES`] and in `docs/MAPS.md`.

// What remains indexed here is the checker's own raw model and scratch tables, not
// text: `raw.provinces`/`raw.powers` by positions found in them (`by_id`,
// `position`, the `p`/`q` of the edges it resolved), and the graph tables
// (`adj`, `comp`, `comps`, `seas_of`, `group`, `touches_sea`) that were built
// with one entry per raw province / component / sea of that same run. Values from the
// file are looked up (`get`, `by_id`) before they become indices. `map::locate`
// scans the text and denies indexing.
#![allow(clippy::indexing_slicing)]

pub mod drawing;
mod lenient;

use crate::orders::{Window, ORDER_WORDS};
use std::collections::{BTreeMap, HashMap, HashSet};

use serde::Serialize;

use crate::map::locate::{Locations, Pos};
use crate::map::names::normalize;
use crate::map::{Map, MapProblem, ProblemCode, Severity, Terrain};

/// One problem found in a map file (or in the reference edge list).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub file: String,
    /// 1-based line (0 when unknown).
    pub line: usize,
    /// 1-based column, in characters (0 when unknown).
    pub column: usize,
    pub severity: Severity,
    /// The stable code: `ONE_SIDED_EDGE`.
    pub code: &'static str,
    /// The key path the finding is about: `provinces.aaa.army`.
    pub key: String,
    pub message: String,
    /// The rule broken, in words (the same for every finding of a code).
    pub rule: &'static str,
    /// What to do about it.
    pub hint: Option<String>,
}

/// A code, who reports it, its severity and its rule.
pub struct CodeInfo {
    pub code: &'static str,
    pub severity: Severity,
    /// `loader` (the map does not load) or `check` (found by `arbiter map check` only).
    pub source: &'static str,
    pub rule: &'static str,
}

const fn info(
    code: &'static str,
    severity: Severity,
    source: &'static str,
    rule: &'static str,
) -> CodeInfo {
    CodeInfo {
        code,
        severity,
        source,
        rule,
    }
}

use Severity::{Error as E, Note as N, Warning as W};

/// Every code `map check` may report, in the order of the table in `docs/MAPS.md`.
pub const CODES: &[CodeInfo] = &[
    info("YAML", E, "loader", "the file is YAML of the schema's shape: no syntax error, every required key, no unknown key, each value of its type"),
    info("TOO_MANY", E, "loader", "a map stays within the engine's limits on provinces, powers and locations"),
    info("BAD_ID", E, "loader", "an id is one word, without `/` or white space; a power id is letters, digits, `_` and `-`, beginning with a letter or digit"),
    info("DUPLICATE_ID", E, "loader", "ids are unique: provinces, powers, and the coasts of one province"),
    info("DUPLICATE_NAME", E, "loader", "every id, name and alias means one province, and every power word one power"),
    info("KEYWORD_NAME", E, "check", "no province id, name or alias is an order keyword, or a coast word of a split province it borders by fleet"),
    info("COAST_WORD_NAME", W, "check", "no province id, name or alias is a coast word of the map"),
    info("UNKNOWN_PROVINCE", E, "loader", "every province named is defined under `provinces`"),
    info("UNKNOWN_LOCATION", E, "loader", "every location named (`spa/nc`) is a province or a named coast of this map"),
    info("UNKNOWN_POWER", E, "loader", "every power named is defined under `powers`"),
    info("ONE_SIDED_EDGE", E, "loader", "every army and fleet edge is listed at both ends"),
    info("EDGE_TYPE_MISMATCH", E, "check", "both ends of an edge list it for the same unit type"),
    info("DUPLICATE_EDGE", W, "check", "a neighbour is listed once in a list"),
    info("SELF_EDGE", E, "loader", "a province is not its own neighbour"),
    info("AT_RANGE", E, "loader", "a drawing position is within the range a picture can hold"),
    info("ARMY_TO_COAST", E, "loader", "army edges name provinces, never coasts"),
    info("ARMY_EDGE_TERRAIN", E, "loader", "army edges join land and coast provinces only"),
    info("FLEET_EDGE_TERRAIN", E, "loader", "fleet edges join sea and coast provinces only"),
    info("FLEET_EDGE_WITHOUT_SEA", W, "check", "a fleet edge between two coast provinces runs along a sea both touch (or through a canal the designer confirms)"),
    info("LONG_EDGE", N, "check", "an edge is not far longer, in the drawing positions, than the other edges at its two ends"),
    info("COAST_WITHOUT_SEA", W, "check", "a coast province touches at least one sea"),
    info("COASTS_NOT_COASTAL", E, "loader", "only a `coast` province has named coasts"),
    info("FLEET_ON_SPLIT", E, "loader", "a split province lists fleet moves under each coast, not under `fleet`"),
    info("COAST_NOT_NAMED", E, "loader", "a fleet edge into a split province names the coast"),
    info("COAST_WITHOUT_FLEET", E, "check", "every named coast has at least one fleet neighbour"),
    info("ISOLATED_PROVINCE", E, "check", "every passable province has a neighbour"),
    info("SEPARATE_COMPONENTS", E, "check", "every passable province can be reached from every other"),
    info("HOME_NOT_CENTRE", E, "loader", "a home centre is a supply centre"),
    info("HOME_MISMATCH", E, "loader", "a home centre says its power, and its power lists it under `home`"),
    info("CENTRE_TWO_HOMES", E, "check", "a centre is the home of one power at most"),
    info("OWNED_NOT_CENTRE", E, "loader", "a centre a power `owns` at the start is a supply centre"),
    info("OWNED_TWICE", E, "loader", "a centre starts owned by one power: not listed twice, not owned by two, not a power's own home in its `owns`"),
    info("BUILD_NOT_CENTRE", E, "loader", "`build:` is given on supply centres only"),
    info("BAD_UNIT", E, "loader", "a starting unit is written `A par` or `F stp/sc`"),
    info("UNIT_PLACEMENT", E, "loader", "a starting unit stands where its type may (no army at sea, no fleet inland or without its coast, nothing in an impassable province), one to a province"),
    info("VICTORY_UNREACHABLE", E, "check", "the victory threshold is at most the number of supply centres"),
    info("VICTORY_NOT_MAJORITY", W, "check", "the victory threshold is more than half the supply centres, so only one power can reach it"),
    info("NO_HOME_CENTRE", W, "check", "a power has a centre to build in"),
    info("NO_COASTAL_HOME", W, "check", "a power has a coastal build site, or it can never build a fleet"),
    info("CANAL", N, "check", "a single-coast province between seas that do not touch each other is a canal: fleets pass through it; the designer confirms each one"),
    info("REFERENCE_MISSING", E, "check", "every edge of the reference list is on the map"),
    info("REFERENCE_EXTRA", E, "check", "every edge of the map is in the reference list"),
    info("REFERENCE_UNKNOWN", E, "check", "every place the reference list names is on the map"),
    info("REFERENCE_BAD_ROW", E, "check", "a reference row is `a,b,army,fleet` with 0 or 1 for each unit type"),
    info("DRAWING", E, "loader", "the map's drawing (`NAME.drawing.yaml`) reads and fits the map: every province drawn, points inside the picture, outlines of M/L/Z path data"),
    info("DRAWING_TOUCH_NOT_ADJACENT", W, "check", "two provinces that share a border in the drawing are neighbours"),
    info("DRAWING_ADJACENT_APART", W, "check", "two neighbours share a border in the drawing, or are joined across water (both touch one sea, or one lake of the drawing)"),
];

/// The table entry of a code (the loader's codes included).
pub fn code_info(code: &str) -> Option<&'static CodeInfo> {
    CODES.iter().find(|c| c.code == code)
}

fn rule(code: &str) -> &'static str {
    code_info(code).map(|c| c.rule).unwrap_or(
        "the loader accepts the map (its codes are listed in docs/MAPS.md, Error format)",
    )
}

/// An independent edge list to compare the map with (`a,b,army,fleet`).
pub struct Reference<'a> {
    /// Its name in findings (`edges.csv`).
    pub file: &'a str,
    pub text: &'a str,
}

/// What `map check` found in one file.
#[derive(Debug)]
pub struct Checked {
    /// The findings kept, sorted by file, line and column: at most
    /// [`MAX_KEPT_PER_CODE`] of each code (the first in the file).
    pub findings: Vec<Finding>,
    /// How many more were found and not kept: errors, warnings, notes.
    pub omitted: (usize, usize, usize),
    /// The map, when the loader accepts it (whatever the checker's own findings).
    pub map: Option<Map>,
}

impl Checked {
    /// How many errors, warnings and notes were found, the omitted ones included.
    pub fn count(&self) -> (usize, usize, usize) {
        let (e, w, n) = count(&self.findings);
        (e + self.omitted.0, w + self.omitted.1, n + self.omitted.2)
    }

    /// How many findings were found and not kept.
    pub fn omitted_total(&self) -> usize {
        self.omitted.0 + self.omitted.1 + self.omitted.2
    }
}

pub use crate::map::MAX_KEPT_PER_CODE;

/// Check a map file: the findings kept ([`MAX_KEPT_PER_CODE`] of each code at most;
/// [`check_all`] also counts the rest), sorted by line and column. `file` names the
/// map in the findings; `reference` adds the comparison with an edge list.
pub fn check(src: &str, file: &str, reference: Option<&Reference>) -> Vec<Finding> {
    check_all(src, file, reference, None).findings
}

/// Load a map file as every command does: the map when `map check` finds no error in
/// it, else what it found (errors and warnings, in line order), to print with
/// [`render_omitting`] as `map check` does.
pub fn load(src: &str, file: &str) -> Result<Map, Box<Checked>> {
    let checked = check_all(src, file, None, None);
    match checked.map {
        Some(map) if checked.count().0 == 0 => Ok(map),
        map => Err(Box::new(Checked { map, ..checked })),
    }
}

/// A drawing of the map (`NAME.drawing.yaml`) to check with it: its name in findings,
/// and its text.
pub struct DrawingText<'a> {
    pub file: &'a str,
    pub text: &'a str,
}

/// [`check`], and the map's drawing against its adjacency ([`drawing`]): a drawing that
/// does not read or fit is reported (code `DRAWING`, in the drawing's file), one that
/// does is compared with the edges.
pub fn check_with_drawing(
    src: &str,
    file: &str,
    reference: Option<&Reference>,
    drawing: Option<&DrawingText>,
) -> Vec<Finding> {
    check_all(src, file, reference, drawing).findings
}

/// [`check`], and the map when the loader accepts it (whatever the checker's own
/// findings: `map show` draws such a map with its problems ringed).
pub fn check_and_load(
    src: &str,
    file: &str,
    reference: Option<&Reference>,
) -> (Vec<Finding>, Option<Map>) {
    check_and_load_with(src, file, reference, None)
}

/// [`check_and_load`], with the map's drawing ([`check_with_drawing`]).
pub fn check_and_load_with(
    src: &str,
    file: &str,
    reference: Option<&Reference>,
    drawing: Option<&DrawingText>,
) -> (Vec<Finding>, Option<Map>) {
    let c = check_all(src, file, reference, drawing);
    (c.findings, c.map)
}

/// Everything `map check` finds in a map file (with a reference edge list and the
/// map's drawing, when given): the findings kept, the count of those past
/// [`MAX_KEPT_PER_CODE`] of their code, and the map when the loader accepts it.
/// Memory stays bounded by the file, however many findings it has.
pub fn check_all(
    src: &str,
    file: &str,
    reference: Option<&Reference>,
    drawing: Option<&DrawingText>,
) -> Checked {
    let loaded = Map::from_yaml(src, file);
    // Past a size limit, or with aliases or deep nesting (the loader says which), the
    // checker's own checks would only grow with the file.
    let refused = crate::yaml::guard(src).is_err()
        || loaded
            .as_ref()
            .is_err_and(|e| e.problems.iter().any(|p| p.code == ProblemCode::TooMany));
    let raw = (!refused)
        .then(|| lenient::read(src))
        .flatten()
        .map(Raw::read);
    let locs = if refused {
        Locations::default()
    } else {
        Locations::scan(src)
    };
    let mut c = Checker {
        file,
        locs: &locs,
        raw: raw.as_ref(),
        map: loaded.as_ref().ok(),
        out: Vec::new(),
        quiet: HashSet::new(),
        kept: HashMap::new(),
        omitted: (0, 0, 0),
    };
    if let Some(raw) = raw.as_ref() {
        c.own_checks(raw);
        if let Some(r) = reference {
            c.reference(raw, r);
        }
        if let (Some(map), Some(d)) = (loaded.as_ref().ok(), drawing) {
            c.drawing_file(raw, map, d);
        }
    }
    let mut own = std::mem::take(&mut c.out);
    let mut omitted = c.omitted;
    if let Err(e) = &loaded {
        let mut seen: HashMap<(String, String), usize> = HashMap::new();
        for p in &e.problems {
            let n = seen.entry((p.key.clone(), p.message.clone())).or_default();
            let f = c.loader_finding(p, *n);
            *n += 1;
            if !c.quiet.contains(&(f.line, f.column, f.code)) {
                c.out.push(f);
            }
        }
        // The loader's problems past its cap (all errors), but those a finding of
        // this module replaces.
        let replaced = e
            .omitted
            .replaceable
            .iter()
            .filter(|(l, col, code)| c.quiet.contains(&(*l, *col, code.as_str())))
            .count();
        omitted.0 += e.omitted.count - replaced;
    }
    c.out.append(&mut own);
    let mut out = c.out;
    out.sort_by(|a, b| {
        (a.file != file, a.line, a.column, a.code, &a.message).cmp(&(
            b.file != file,
            b.line,
            b.column,
            b.code,
            &b.message,
        ))
    });
    out.dedup_by(|a, b| {
        a.file == b.file
            && a.line == b.line
            && a.column == b.column
            && a.code == b.code
            && a.message == b.message
    });
    // The cap once more over both sources, in line order.
    let mut kept: HashMap<&'static str, usize> = HashMap::new();
    out.retain(|f| {
        let n = kept.entry(f.code).or_default();
        *n += 1;
        if *n <= MAX_KEPT_PER_CODE {
            return true;
        }
        tally(&mut omitted, f.severity);
        false
    });
    Checked {
        findings: out,
        omitted,
        map: loaded.ok(),
    }
}

/// One more finding of `severity` in the counts `(errors, warnings, notes)`.
fn tally(counts: &mut (usize, usize, usize), severity: Severity) {
    match severity {
        Severity::Error => counts.0 += 1,
        Severity::Warning => counts.1 += 1,
        Severity::Note => counts.2 += 1,
    }
}

/// How many errors, warnings and notes.
pub fn count(findings: &[Finding]) -> (usize, usize, usize) {
    let n = |l: Severity| findings.iter().filter(|f| f.severity == l).count();
    (n(Severity::Error), n(Severity::Warning), n(Severity::Note))
}

/// The findings as text, rustc-style, each with the line it is about and a caret under
/// the value. `source` gives the text of a file named in a finding.
///
/// ```text
/// error[ONE_SIDED_EDGE]: one-sided edge: `aaa` lists `bbb` but `bbb` does not list `aaa`
///   --> map.yaml:17:11
///    |
/// 17 |     army: [bbb]
///    |            ^^^
///    = rule: every army and fleet edge is listed at both ends
///    = hint: add it there or remove it here
/// ```
pub fn render<'a>(findings: &[Finding], source: impl Fn(&str) -> Option<&'a str>) -> String {
    render_in(findings, 0, source, |_| false)
}

/// [`render`], where `omitted` more findings were found and not kept (counted in the
/// line that says how many are not shown).
pub fn render_omitting<'a>(
    findings: &[Finding],
    omitted: usize,
    source: impl Fn(&str) -> Option<&'a str>,
) -> String {
    render_in(findings, omitted, source, |_| false)
}

/// The most findings [`render`] writes in full; the rest are counted in one line (the
/// counts of a `map check` summary include them; `--format json` lists every one kept,
/// [`MAX_KEPT_PER_CODE`] of each code).
pub const MAX_SHOWN_FINDINGS: usize = 100;

pub use crate::orders::SHOWN_COLUMNS;

/// [`render`], where `words` tells the files whose values are words separated by white
/// space (a DPjudge map file): the caret spans the word.
///
/// Linear in the findings shown and the files' lengths: each file is split into lines
/// once, a finding's column is counted on from the one before it on the same line (the
/// findings come in line and column order), and only a window of about
/// [`SHOWN_COLUMNS`] characters of a long line is written.
pub fn render_in<'a>(
    findings: &[Finding],
    omitted: usize,
    source: impl Fn(&str) -> Option<&'a str>,
    words: impl Fn(&str) -> bool,
) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let mut lines: HashMap<&str, Vec<&'a str>> = HashMap::new();
    // The last column found: file, line, column (1-based, in characters), its byte.
    let mut cursor: Option<(&str, usize, usize, usize)> = None;
    let not_shown = |out: &mut String, rest: usize| {
        let _ = writeln!(
            out,
            "… and {rest} more finding{} not shown (counted below; `arbiter map check --format json` lists the first {MAX_KEPT_PER_CODE} of each code)\n",
            if rest == 1 { "" } else { "s" }
        );
    };
    for (k, f) in findings.iter().enumerate() {
        if k == MAX_SHOWN_FINDINGS {
            not_shown(&mut out, findings.len() - k + omitted);
            break;
        }
        let _ = writeln!(out, "{}[{}]: {}", f.severity.name(), f.code, f.message);
        let num = f.line.to_string();
        let pad = " ".repeat(num.len());
        let _ = writeln!(out, "{pad}--> {}:{}:{}", f.file, f.line, f.column);
        let text = f.line.checked_sub(1).and_then(|i| {
            lines
                .entry(f.file.as_str())
                .or_insert_with(|| {
                    source(&f.file)
                        .map(|s| s.lines().collect())
                        .unwrap_or_default()
                })
                .get(i)
                .copied()
        });
        if let Some(text) = text {
            let col = f.column.max(1);
            let (mut c, mut start) = match cursor {
                Some((file, line, c, b)) if file == f.file && line == f.line && c <= col => (c, b),
                _ => (1, 0),
            };
            for ch in text.get(start..).unwrap_or_default().chars() {
                if c >= col {
                    break;
                }
                start += ch.len_utf8();
                c += 1;
            }
            cursor = Some((f.file.as_str(), f.line, c, start));
            let Window {
                from,
                to,
                lead,
                tail,
            } = Window::about(text, start);
            let rest = text.get(start..to.max(start)).unwrap_or_default();
            // A YAML value may hold spaces (`North Coast`); in a file of words (a
            // DPjudge map an import points at) a word ends at one.
            let width = if !words(&f.file) {
                token_width(rest)
            } else {
                rest.chars()
                    .take_while(|c| !c.is_whitespace())
                    .count()
                    .max(1)
            };
            let caret_at = text.get(from..start).unwrap_or_default().chars().count()
                + usize::from(from > 0)
                + (col - c);
            let _ = writeln!(out, "{pad} |");
            let _ = writeln!(
                out,
                "{num} | {lead}{}{tail}",
                text.get(from..to).unwrap_or_default()
            );
            let _ = writeln!(out, "{pad} | {}{}", " ".repeat(caret_at), "^".repeat(width));
        }
        let _ = writeln!(out, "{pad} = rule: {}", f.rule);
        if let Some(h) = &f.hint {
            let _ = writeln!(out, "{pad} = hint: {h}");
        }
        out.push('\n');
    }
    if findings.len() <= MAX_SHOWN_FINDINGS && omitted > 0 {
        not_shown(&mut out, omitted);
    }
    out
}

/// The width of the value `rest` starts with: up to a flow separator, a comment or the
/// end of the line (at least 1).
fn token_width(rest: &str) -> usize {
    let rest: Vec<char> = rest.chars().collect();
    let mut w = 0;
    let mut quote = None;
    for (i, &c) in rest.iter().enumerate() {
        match quote {
            Some(q) if c == q => {
                w = i + 1;
                break;
            }
            Some(_) => {}
            None if i == 0 && (c == '"' || c == '\'') => quote = Some(c),
            None if ",]}#".contains(c) => break,
            None if c == ':' && rest.get(i + 1).is_none_or(|n| *n == ' ') => break,
            None => {}
        }
        w = i + 1;
    }
    let taken: String = rest.iter().take(w).collect();
    taken.trim_end().chars().count().max(1)
}

// ---------------------------------------------------------------------------------
// The file as read leniently.

/// A location of the raw file: a province, or one of its coasts.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
struct L {
    p: usize,
    c: Option<usize>,
}

struct RCoast {
    id: String,
    name: String,
    fleet: Vec<String>,
}

struct RProv {
    id: String,
    name: String,
    aliases: Vec<String>,
    kind: Option<Terrain>,
    supply: bool,
    build: Option<bool>,
    /// The drawing position `at: [x, y]`.
    at: Option<(f64, f64)>,
    army: Vec<String>,
    fleet: Vec<String>,
    coasts: Vec<RCoast>,
}

struct RPower {
    id: String,
    name: String,
    adjective: String,
    home: Vec<String>,
    owns: Vec<String>,
    units: Vec<String>,
}

/// The map file, read from a YAML value without the schema's strictness: a wrong key
/// or value is passed over (the loader reports it), the rest is kept.
struct Raw {
    provinces: Vec<RProv>,
    powers: Vec<RPower>,
    victory: Option<i64>,
    builds: String,
    by_id: HashMap<String, usize>,
}

impl Raw {
    fn read(f: lenient::File) -> Raw {
        let texts = |l: lenient::List<lenient::Text>| -> Vec<String> {
            l.0.into_iter().map(|t| t.0).collect()
        };
        let provinces: Vec<RProv> = f
            .provinces
            .0
            .into_iter()
            .map(|lenient::Or(p)| RProv {
                id: p.id.0.trim().to_ascii_lowercase(),
                name: p.name.0,
                aliases: texts(p.aliases),
                kind: match p.kind.0.as_str() {
                    "sea" => Some(Terrain::Sea),
                    "coast" => Some(Terrain::Coastal),
                    "land" => Some(Terrain::Land),
                    "impassable" => Some(Terrain::Impassable),
                    _ => None,
                },
                supply: p.supply.0 == Some(true),
                build: p.build.0,
                at: p.at.0,
                army: texts(p.army),
                fleet: texts(p.fleet),
                coasts: p
                    .coasts
                    .0
                    .into_iter()
                    .map(|lenient::Or(c)| RCoast {
                        id: c.id.0.trim().to_ascii_lowercase(),
                        name: c.name.0,
                        fleet: texts(c.fleet),
                    })
                    .collect(),
            })
            .collect();
        let powers = f
            .powers
            .0
            .into_iter()
            .map(|lenient::Or(p)| RPower {
                id: p.id.0.trim().to_ascii_lowercase(),
                name: p.name.0,
                adjective: p.adjective.0,
                home: texts(p.home),
                owns: texts(p.owns),
                units: texts(p.units),
            })
            .collect();
        // As the loader does: of two provinces with one id, the last one is meant.
        let mut by_id = HashMap::new();
        for (i, p) in provinces.iter().enumerate() {
            by_id.insert(p.id.clone(), i);
        }
        Raw {
            provinces,
            powers,
            victory: f.victory.0,
            builds: f.builds.0.to_ascii_lowercase(),
            by_id,
        }
    }

    fn prov(&self, s: &str) -> Option<usize> {
        self.by_id.get(&s.trim().to_ascii_lowercase()).copied()
    }

    /// `lon`, `spa/nc` (case-insensitive).
    fn loc(&self, s: &str) -> Option<L> {
        let s = s.trim().to_ascii_lowercase();
        match s.split_once('/') {
            None => self.prov(&s).map(|p| L { p, c: None }),
            Some((p, c)) => {
                let p = self.prov(p)?;
                let k = self.provinces[p].coasts.iter().position(|k| k.id == c)?;
                Some(L { p, c: Some(k) })
            }
        }
    }

    fn kind(&self, p: usize) -> Option<Terrain> {
        self.provinces[p].kind
    }

    fn loc_id(&self, l: L) -> String {
        let p = &self.provinces[l.p];
        match l.c {
            Some(k) => format!("{}/{}", p.id, p.coasts[k].id),
            None => p.id.clone(),
        }
    }

    /// The fleet lists: from which location, the list's path and key, its items.
    fn fleet_lists(&self) -> Vec<(L, String, String, &[String])> {
        let mut out = Vec::new();
        for (i, p) in self.provinces.iter().enumerate() {
            if p.coasts.is_empty() {
                out.push((
                    L { p: i, c: None },
                    format!("provinces.{i}.fleet"),
                    format!("provinces.{}.fleet", p.id),
                    p.fleet.as_slice(),
                ));
            }
            for (k, c) in p.coasts.iter().enumerate() {
                out.push((
                    L { p: i, c: Some(k) },
                    format!("provinces.{i}.coasts.{k}.fleet"),
                    format!("provinces.{}.coasts.{}.fleet", p.id, c.id),
                    c.fleet.as_slice(),
                ));
            }
        }
        out
    }
}

/// A table index as the per-edge lists keep it: four bytes, not eight (a map file
/// within the size limits has far fewer than 2^32 provinces or list items).
fn ix(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// One army edge as written: in `provinces.<p>.army`, item `j`, to province `q`.
/// Twelve bytes: a map may list hundreds of thousands.
#[derive(Clone, Copy)]
struct ArmyItem {
    p: u32,
    j: u32,
    q: u32,
}

impl ArmyItem {
    fn p(&self) -> usize {
        self.p as usize
    }
    fn q(&self) -> usize {
        self.q as usize
    }
    /// Its path: `provinces.<p>.army.<j>` (made for a finding only).
    fn path(&self) -> String {
        format!("provinces.{}.army.{}", self.p, self.j)
    }
}

/// A location as the fleet items keep it: province, and coast + 1 (0: none).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct CL(u32, u32);

impl CL {
    fn of(l: L) -> CL {
        CL(ix(l.p), l.c.map_or(0, |c| ix(c).saturating_add(1)))
    }
    fn l(self) -> L {
        L {
            p: self.0 as usize,
            c: self.1.checked_sub(1).map(|c| c as usize),
        }
    }
}

/// One fleet list: its path and its key (kept once per list, not per item).
struct FleetList {
    path: String,
    key: String,
}

/// One fleet edge as written: item `j` of fleet list `list` (of location `from`), to
/// `to`. Twenty-four bytes: a sea grid lists an edge per pair of neighbours.
#[derive(Clone, Copy)]
struct FleetItem {
    list: u32,
    j: u32,
    from: CL,
    to: CL,
}

impl FleetItem {
    fn from(&self) -> L {
        self.from.l()
    }
    fn to(&self) -> L {
        self.to.l()
    }
}

/// The fleet items, and the lists they are in.
#[derive(Default)]
struct Fleet {
    lists: Vec<FleetList>,
    items: Vec<FleetItem>,
}

impl Fleet {
    /// The path of an item: `provinces.3.coasts.0.fleet.2` (made for a finding only).
    fn path(&self, f: &FleetItem) -> String {
        let list = self
            .lists
            .get(f.list as usize)
            .map_or("", |l| l.path.as_str());
        format!("{list}.{}", f.j)
    }
    /// The key of an item's list: `provinces.spa.coasts.nc.fleet`.
    fn key(&self, f: &FleetItem) -> String {
        self.lists
            .get(f.list as usize)
            .map_or(String::new(), |l| l.key.clone())
    }
}

struct Checker<'a> {
    file: &'a str,
    locs: &'a Locations,
    raw: Option<&'a Raw>,
    map: Option<&'a Map>,
    out: Vec<Finding>,
    /// Loader findings to leave out (line, column, code): a more precise finding of
    /// this module stands at the same place.
    quiet: HashSet<(usize, usize, &'static str)>,
    /// How many findings of each code were found so far.
    kept: HashMap<&'static str, usize>,
    /// Findings past [`MAX_KEPT_PER_CODE`] of their code: errors, warnings, notes.
    omitted: (usize, usize, usize),
}

impl Checker<'_> {
    fn pos(&self, path: &str) -> Pos {
        self.locs.nearest(path)
    }

    fn add(
        &mut self,
        at: Pos,
        code: &'static str,
        key: String,
        message: String,
        hint: Option<String>,
    ) {
        let severity = code_info(code)
            .map(|c| c.severity)
            .unwrap_or(Severity::Error);
        self.keep(Finding {
            file: self.file.to_string(),
            line: at.line,
            column: at.column,
            severity,
            code,
            key: crate::map::names::cut_key(key),
            // The user's text a message quotes is cut (an id of 10 MB).
            message: crate::map::names::cut_quotes(message),
            rule: rule(code),
            hint: hint.map(crate::map::names::cut_quotes),
        });
    }

    /// Counts a finding of `code` past [`MAX_KEPT_PER_CODE`] of its code, and says so:
    /// what only a kept finding shows (its message, its hint) need not be made.
    fn counted_only(&mut self, code: &'static str) -> bool {
        if self.kept.get(code).copied().unwrap_or(0) < MAX_KEPT_PER_CODE {
            return false;
        }
        self.kept.entry(code).and_modify(|n| *n += 1);
        let severity = code_info(code).map_or(Severity::Error, |c| c.severity);
        tally(&mut self.omitted, severity);
        true
    }

    /// A finding of this module: kept, or counted past [`MAX_KEPT_PER_CODE`] of its
    /// code.
    fn keep(&mut self, f: Finding) {
        let n = self.kept.entry(f.code).or_default();
        *n += 1;
        if *n <= MAX_KEPT_PER_CODE {
            self.out.push(f);
        } else {
            tally(&mut self.omitted, f.severity);
        }
    }

    /// A loader problem as a finding; `nth` counts earlier problems with the same key
    /// and message (to find the right one of several equal list items).
    fn loader_finding(&self, p: &MapProblem, nth: usize) -> Finding {
        let code = p.code.as_str();
        let mut at = Pos {
            line: p.line,
            column: p.column,
        };
        let mut message = p.message.clone();
        if p.key == "yaml" {
            // serde_yaml repeats the place in its message; the finding gives it anyway.
            message = message.replacen(&format!(" at line {} column {}", p.line, p.column), "", 1);
        }
        if let Some(better) = self.narrow(p, nth) {
            at = better;
        }
        let hint = p.hint.clone().or_else(|| {
            (p.key == "yaml").then(|| {
                "fix this first: the loader's other checks (edges, names, homes, units) run once the file reads".to_string()
            })
        });
        Finding {
            file: self.file.to_string(),
            line: at.line,
            column: at.column,
            severity: p.severity,
            code,
            key: p.key.clone(),
            message,
            rule: rule(code),
            hint,
        }
    }

    /// A more precise place for a loader problem: the unit in a `units` list, the second
    /// province or power with a duplicate id.
    fn narrow(&self, p: &MapProblem, nth: usize) -> Option<Pos> {
        let raw = self.raw?;
        if let Some(rest) = p.key.strip_prefix("powers.") {
            let (id, field) = rest.rsplit_once('.')?;
            let i = raw
                .powers
                .iter()
                .position(|w| w.id == id.to_ascii_lowercase());
            if field == "units" {
                let unit = match p.code.as_str() {
                    "BAD_UNIT" => between_ticks(&p.message)?,
                    _ => p.message.split(':').next()?.to_string(),
                };
                let want = squash(&unit);
                let j = raw
                    .powers
                    .get(i?)?
                    .units
                    .iter()
                    .enumerate()
                    .filter(|(_, u)| squash(u) == want)
                    .map(|(j, _)| j)
                    .nth(nth)?;
                return self.locs.value(&format!("powers.{}.units.{j}", i?));
            }
            if field == "id" && p.code.as_str() == "DUPLICATE_ID" {
                let k = raw
                    .powers
                    .iter()
                    .enumerate()
                    .filter(|(_, w)| w.id == id.to_ascii_lowercase())
                    .map(|(k, _)| k)
                    .nth(nth + 1)?;
                return self.locs.value(&format!("powers.{k}.id"));
            }
        }
        if let Some(rest) = p.key.strip_prefix("provinces.") {
            if p.code.as_str() == "DUPLICATE_ID"
                && rest.ends_with(".id")
                && !rest.contains(".coasts.")
            {
                let id = rest.trim_end_matches(".id").to_ascii_lowercase();
                let k = raw
                    .provinces
                    .iter()
                    .enumerate()
                    .filter(|(_, q)| q.id == id)
                    .map(|(k, _)| k)
                    .nth(nth + 1)?;
                return self.locs.value(&format!("provinces.{k}.id"));
            }
        }
        None
    }

    /// A drawing file: its problems as `DRAWING` findings in that file, or, when it
    /// reads, the drawing against the adjacency.
    fn drawing_file(&mut self, raw: &Raw, map: &Map, d: &DrawingText) {
        match crate::map::drawing::Drawing::from_yaml(d.text, d.file, map) {
            Ok(drawing) => self.drawing(raw, map, &drawing),
            Err(e) => {
                for p in &e.problems {
                    self.keep(Finding {
                        file: d.file.to_string(),
                        line: p.line,
                        column: p.column,
                        severity: p.severity,
                        code: p.code.as_str(),
                        key: p.key.clone(),
                        message: p.message.clone(),
                        rule: rule(p.code.as_str()),
                        hint: p.hint.clone(),
                    });
                }
            }
        }
    }

    fn own_checks(&mut self, raw: &Raw) {
        self.names(raw);
        self.edges(raw);
        self.setup(raw);
    }
}

/// Land an army can stand on (a province whose kind cannot be read is neither).
fn is_land(k: Option<Terrain>) -> bool {
    matches!(k, Some(Terrain::Land | Terrain::Coastal))
}

/// Water a fleet can stand on.
fn is_water(k: Option<Terrain>) -> bool {
    matches!(k, Some(Terrain::Sea | Terrain::Coastal))
}

/// The text between the first pair of backticks.
fn between_ticks(s: &str) -> Option<String> {
    let a = s.find('`')?;
    let b = s[a + 1..].find('`')?;
    Some(s[a + 1..a + 1 + b].to_string())
}

/// Lowercase, white space squeezed: `A  Par` and `a par` are the same unit.
fn squash(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_lowercase()
}

// ---------------------------------------------------------------------------------
// The checks of this module.

impl Checker<'_> {
    /// Names: order keywords and coast words used as province names; duplicate coast
    /// names in one province; duplicate power words.
    fn names(&mut self, raw: &Raw) {
        let derived = coast_words(raw);
        let reach = coast_reach(raw);
        for (i, p) in raw.provinces.iter().enumerate() {
            self.province_words(raw, i, &derived, &reach);
            self.coast_names(i, p);
        }
        self.power_words(raw);
    }

    /// The id, name and aliases of province `i`: none an order keyword, none a coast
    /// word a fleet bordering it could mean (`derived` are the coast words when the map
    /// does not load).
    fn province_words(
        &mut self,
        raw: &Raw,
        i: usize,
        derived: &HashMap<String, String>,
        coast_reach: &CoastReach,
    ) {
        let p = &raw.provinces[i];
        let mut words: Vec<(String, &str)> = vec![(format!("provinces.{i}.id"), &p.id)];
        words.push((format!("provinces.{i}.name"), &p.name));
        for (j, a) in p.aliases.iter().enumerate() {
            words.push((format!("provinces.{i}.aliases.{j}"), a));
        }
        for (path, w) in words {
            let norm = normalize(w);
            if norm.is_empty() {
                continue;
            }
            let field = path
                .rsplit('.')
                .find(|s| s.parse::<usize>().is_err())
                .unwrap_or("name");
            let key = format!("provinces.{}.{field}", p.id);
            let hint = if field == "id" {
                "choose another id (the old one may stay as an alias only if it is no keyword)"
            } else {
                "choose another word, or drop it"
            };
            if let Some((m, _)) = ORDER_WORDS.iter().find(|(_, l)| l.contains(&norm.as_str())) {
                self.add(
                    self.pos(&path),
                    "KEYWORD_NAME",
                    key,
                    format!("`{w}` is also the order word for {m}: an order that writes it is ambiguous"),
                    Some(hint.into()),
                );
                continue;
            }
            let coast = match self.map {
                Some(m) => m.names().coast_bare(&norm).map(str::to_string),
                None => derived.get(&norm).cloned(),
            };
            let Some(c) = coast else { continue };
            let next: Vec<String> = (0..raw.provinces.len())
                .filter(|&q| {
                    coast_reach
                        .get(&(q, c.clone()))
                        .is_some_and(|r| r.contains(&i))
                })
                .map(|q| format!("`{}/{c}`", raw.provinces[q].id))
                .collect();
            if next.is_empty() {
                self.add(
                    self.pos(&path),
                    "COAST_WORD_NAME",
                    key,
                    format!("`{w}` is also a coast word (`{c}`); no fleet on a coast `{c}` borders `{}`, so no order is misread on this map", p.id),
                    Some(format!("if the map may grow, choose another word: with a fleet border added later, `… -{w}` would read as the coast `{c}`")),
                );
            } else {
                self.add(
                    self.pos(&path),
                    "KEYWORD_NAME",
                    key,
                    format!("`{w}` is also a coast word (`{c}`): a fleet on {} moving to `{}` would be read as naming its coast", next.join(", "), p.id),
                    Some(hint.into()),
                );
            }
        }
    }

    /// The coasts of province `i`, each with its own name.
    fn coast_names(&mut self, i: usize, p: &RProv) {
        let mut seen: HashMap<String, usize> = HashMap::new();
        for (k, c) in p.coasts.iter().enumerate() {
            let norm = normalize(&c.name);
            if norm.is_empty() {
                continue;
            }
            if let Some(&first) = seen.get(&norm) {
                self.add(
                    self.pos(&format!("provinces.{i}.coasts.{k}.name")),
                    "DUPLICATE_NAME",
                    format!("provinces.{}.coasts.{}.name", p.id, c.id),
                    format!(
                        "coast name `{}` is also the name of `{}/{}`",
                        c.name, p.id, p.coasts[first].id
                    ),
                    Some("give each coast of a province its own name".into()),
                );
            } else {
                seen.insert(norm, k);
            }
        }
    }

    /// Power words: id, name and adjective, each meaning one power.
    fn power_words(&mut self, raw: &Raw) {
        let mut owner: HashMap<String, usize> = HashMap::new();
        for (i, w) in raw.powers.iter().enumerate() {
            let mut mine: HashSet<String> = HashSet::new();
            for (field, word) in [
                ("id", &w.id),
                ("name", &w.name),
                ("adjective", &w.adjective),
            ] {
                let norm = normalize(word);
                if norm.is_empty() || !mine.insert(norm.clone()) {
                    continue;
                }
                match owner.get(&norm) {
                    Some(&o) if o != i => self.add(
                        self.pos(&format!("powers.{i}.{field}")),
                        "DUPLICATE_NAME",
                        format!("powers.{}.{field}", w.id),
                        format!("`{word}` already names power `{}`", raw.powers[o].id),
                        Some(
                            "every power's id, name and adjective must tell it from the others"
                                .into(),
                        ),
                    ),
                    _ => {
                        owner.insert(norm, i);
                    }
                }
            }
        }
    }

    /// The edges: every item of the army and fleet lists, then what each check finds in
    /// them, in this order.
    fn edges(&mut self, raw: &Raw) {
        let (army, fleet) = self.edge_items(raw);
        self.far_end_terrain(raw, &army, &fleet);
        self.edge_type_mismatch(raw, &army, &fleet);
        self.coasts_and_water(raw, &fleet.items);
        self.connectivity(raw, &army, &fleet.items);
        self.canals(raw, &fleet.items);
        self.fleet_edges_without_sea(raw, &fleet);
        self.long_edges(raw, &army, &fleet);
    }

    /// A fleet edge listed at both ends between two coast provinces that touch no sea
    /// in common: a fleet sails along a shore, so such an edge is usually a slip (a
    /// neighbour listed under `fleet` that should be under `army`, or the wrong
    /// province). Reported once, where it is first listed.
    fn fleet_edges_without_sea(&mut self, raw: &Raw, fleet: &Fleet) {
        let coast = |p: usize| raw.kind(p) == Some(Terrain::Coastal);
        // A province whose kind cannot be read (the loader says so) may be a sea.
        let sea = |p: usize| matches!(raw.kind(p), Some(Terrain::Sea) | None);
        // Only edges between two coast provinces are looked at: the seas of coast
        // locations, and those edges (sorted, to look up the other direction).
        let mut seas: HashMap<CL, HashSet<u32>> = HashMap::new();
        let mut listed: Vec<(CL, CL)> = Vec::new();
        for f in &fleet.items {
            let (a, b) = (f.from(), f.to());
            if coast(a.p) && coast(b.p) {
                listed.push((f.from, f.to));
            }
            if sea(b.p) && coast(a.p) {
                seas.entry(f.from).or_default().insert(f.to.0);
            }
            if sea(a.p) && coast(b.p) {
                seas.entry(f.to).or_default().insert(f.from.0);
            }
        }
        listed.sort_unstable();
        listed.dedup();
        let mut done: HashSet<(CL, CL)> = HashSet::new();
        let empty = HashSet::new();
        for f in &fleet.items {
            let (a, b) = (f.from(), f.to());
            if a.p == b.p
                || !coast(a.p)
                || !coast(b.p)
                || listed.binary_search(&(f.to, f.from)).is_err()
            {
                continue;
            }
            if !done.insert((f.from.min(f.to), f.from.max(f.to))) {
                continue;
            }
            let (sa, sb) = (
                seas.get(&f.from).unwrap_or(&empty),
                seas.get(&f.to).unwrap_or(&empty),
            );
            if sa.intersection(sb).next().is_some() {
                continue;
            }
            // The hint looks through the army list: only for a finding kept (a map of
            // coasts each next to every other has one per pair).
            if self.counted_only("FLEET_EDGE_WITHOUT_SEA") {
                continue;
            }
            let (ia, ib) = (raw.loc_id(a), raw.loc_id(b));
            let army_too = raw.provinces[a.p]
                .army
                .iter()
                .any(|s| raw.prov(s) == Some(b.p));
            self.add(
                self.pos(&fleet.path(f)),
                "FLEET_EDGE_WITHOUT_SEA",
                fleet.key(f),
                format!("the fleet edge `{ia}`–`{ib}` joins two coasts that touch no sea in common: a fleet sails along a shore"),
                Some(if army_too {
                    format!("if only armies cross here, remove `{ib}` from the fleet neighbours of `{ia}` and `{ia}` from those of `{ib}`; if fleets pass through a canal, river or strait, keep it (a warning does not fail the check)")
                } else {
                    format!("if this is an army border, move `{ib}` from `fleet` to `army` here and `{ia}` there; if fleets pass through a canal, river or strait, keep it (a warning does not fail the check)")
                }),
            );
        }
    }

    /// Edges far longer, between the drawing positions (`at`) of their ends, than the
    /// other edges at both ends: a neighbour written for another province, or a border
    /// the picture does not show. A note for the designer to confirm.
    fn long_edges(&mut self, raw: &Raw, army: &[ArmyItem], fleet: &Fleet) {
        let n = raw.provinces.len();
        let drawn = |p: usize| raw.provinces[p].at.is_some();
        // Only an edge between two drawn provinces has a length.
        if raw
            .provinces
            .iter()
            .filter(|p| p.at.is_some())
            .take(2)
            .count()
            < 2
        {
            return;
        }
        /// The first item that lists an edge.
        #[derive(Clone, Copy)]
        enum First {
            Army(u32),
            Fleet(u32),
        }
        // Unordered pairs of different drawn provinces, sorted, with the first item
        // that lists each (army items before fleet items, each in the file's order:
        // the sort is stable).
        let mut edges: Vec<((u32, u32), First)> = Vec::new();
        for (i, a) in army.iter().enumerate() {
            if a.p != a.q && drawn(a.p()) && drawn(a.q()) {
                edges.push(((a.p.min(a.q), a.p.max(a.q)), First::Army(ix(i))));
            }
        }
        for (i, f) in fleet.items.iter().enumerate() {
            let (p, q) = (f.from.0, f.to.0);
            if p != q && drawn(p as usize) && drawn(q as usize) {
                edges.push(((p.min(q), p.max(q)), First::Fleet(ix(i))));
            }
        }
        edges.sort_by_key(|e| e.0);
        edges.dedup_by_key(|e| e.0);
        let len = |p: usize, q: usize| -> Option<f64> {
            let ((x1, y1), (x2, y2)) = (raw.provinces[p].at?, raw.provinces[q].at?);
            Some(((x1 - x2).powi(2) + (y1 - y2).powi(2)).sqrt())
        };
        let mut at: Vec<Vec<f64>> = vec![Vec::new(); n];
        for &((p, q), _) in &edges {
            let (p, q) = (p as usize, q as usize);
            if let Some(d) = len(p, q) {
                at[p].push(d);
                at[q].push(d);
            }
        }
        for v in &mut at {
            v.sort_by(f64::total_cmp);
        }
        // The median of the other edges at `p` (this one, of length `d`, left out of
        // the sorted lengths: the middle one of the rest).
        let median_other = |p: usize, d: f64| -> Option<f64> {
            let v = &at[p];
            if v.len() < 3 {
                return None;
            }
            let i = v.partition_point(|&x| x < d);
            let mid = (v.len() - 1) / 2;
            v.get(if i <= mid { mid + 1 } else { mid }).copied()
        };
        for &((p, q), first) in &edges {
            let (p, q) = (p as usize, q as usize);
            let Some(d) = len(p, q) else {
                continue;
            };
            let (Some(mp), Some(mq)) = (median_other(p, d), median_other(q, d)) else {
                continue;
            };
            let typical = mp.max(mq);
            if typical <= 0.0 || d <= 4.0 * typical {
                continue;
            }
            let path = match first {
                First::Army(i) => army.get(i as usize).map(ArmyItem::path),
                First::Fleet(i) => fleet.items.get(i as usize).map(|f| fleet.path(f)),
            }
            .unwrap_or_default();
            let (a, b) = (&raw.provinces[p].id, &raw.provinces[q].id);
            self.add(
                self.pos(&path),
                "LONG_EDGE",
                format!("provinces.{a}"),
                format!(
                    "the edge `{a}`–`{b}` is {:.0} long between their drawing positions, {:.1} times the other edges at its ends ({:.0})",
                    d,
                    d / typical,
                    typical
                ),
                Some("check that this neighbour is meant (and not a province of a similar id); if the border wraps around the board or crosses a long strait, keep it".into()),
            );
        }
    }

    /// Every army and fleet item as written, resolved where it can be; a neighbour
    /// listed twice in one list is a DUPLICATE_EDGE.
    fn edge_items(&mut self, raw: &Raw) -> (Vec<ArmyItem>, Fleet) {
        // Every item as written, resolved where it can be.
        let mut army: Vec<ArmyItem> = Vec::new();
        for (p, pr) in raw.provinces.iter().enumerate() {
            self.duplicates(
                &pr.army,
                &format!("provinces.{p}.army"),
                &format!("provinces.{}.army", pr.id),
                &pr.id,
                "army",
            );
            for (j, s) in pr.army.iter().enumerate() {
                if let Some(L { p: q, c: None }) = raw.loc(s) {
                    army.push(ArmyItem {
                        p: ix(p),
                        j: ix(j),
                        q: ix(q),
                    });
                }
            }
        }
        let mut fleet = Fleet::default();
        for (from, path, key, list) in raw.fleet_lists() {
            let owner = raw.loc_id(from);
            self.duplicates(list, &path, &key, &owner, "fleet");
            let l = ix(fleet.lists.len());
            for (j, s) in list.iter().enumerate() {
                if let Some(to) = raw.loc(s) {
                    fleet.items.push(FleetItem {
                        list: l,
                        j: ix(j),
                        from: CL::of(from),
                        to: CL::of(to),
                    });
                }
            }
            fleet.lists.push(FleetList { path, key });
        }
        (army, fleet)
    }

    /// Terrain seen from the end the loader does not look at: an army edge to a sea or
    /// impassable province, a fleet edge to an inland or impassable one.
    fn far_end_terrain(&mut self, raw: &Raw, army: &[ArmyItem], fleet: &Fleet) {
        // Terrain seen from the end the loader does not look at.
        for a in army {
            let (pk, qk) = (raw.kind(a.p()), raw.kind(a.q()));
            if is_land(pk) && matches!(qk, Some(Terrain::Sea | Terrain::Impassable)) {
                let at = self.pos(&a.path());
                let q = &raw.provinces[a.q()].id;
                let what = if qk == Some(Terrain::Sea) {
                    "a sea"
                } else {
                    "an impassable province"
                };
                self.quiet.insert((at.line, at.column, "ONE_SIDED_EDGE"));
                self.add(
                    at,
                    "ARMY_EDGE_TERRAIN",
                    format!("provinces.{}.army", raw.provinces[a.p()].id),
                    format!("`{q}` is {what}: no army may move there"),
                    Some(if qk == Some(Terrain::Sea) {
                        format!("remove `{q}` from `army` (a fleet edge goes under `fleet`)")
                    } else {
                        format!("remove `{q}` from `army`")
                    }),
                );
            }
        }
        for f in &fleet.items {
            let (from, to) = (f.from(), f.to());
            let (fk, tk) = (raw.kind(from.p), raw.kind(to.p));
            if is_water(fk) && matches!(tk, Some(Terrain::Land | Terrain::Impassable)) {
                let at = self.pos(&fleet.path(f));
                let t = raw.loc_id(to);
                let what = if tk == Some(Terrain::Land) {
                    "an inland province"
                } else {
                    "an impassable province"
                };
                self.quiet.insert((at.line, at.column, "ONE_SIDED_EDGE"));
                self.add(
                    at,
                    "FLEET_EDGE_TERRAIN",
                    fleet.key(f),
                    format!("`{t}` is {what}: no fleet may move there"),
                    Some(if tk == Some(Terrain::Land) {
                        format!("remove `{t}` from `fleet` (an army edge goes under `army`)")
                    } else {
                        format!("remove `{t}` from `fleet`")
                    }),
                );
            }
        }
    }

    /// An edge listed for armies at one end and for fleets only at the other.
    fn edge_type_mismatch(&mut self, raw: &Raw, army: &[ArmyItem], fleet: &Fleet) {
        // Different unit types at the two ends, between two land provinces: the army
        // edges (directed) and, per directed pair, the first fleet item that lists it,
        // sorted to be looked up.
        let land = |p: u32| is_land(raw.kind(p as usize));
        let mut army_dir: Vec<(u32, u32)> = army
            .iter()
            .filter(|a| land(a.p) && land(a.q))
            .map(|a| (a.p, a.q))
            .collect();
        army_dir.sort_unstable();
        army_dir.dedup();
        let mut fleet_dir: Vec<((u32, u32), u32)> = fleet
            .items
            .iter()
            .enumerate()
            .filter(|(_, f)| land(f.from.0) && land(f.to.0))
            .map(|(i, f)| ((f.from.0, f.to.0), ix(i)))
            .collect();
        fleet_dir.sort_unstable();
        fleet_dir.dedup_by_key(|e| e.0);
        let first_fleet = |pair: (u32, u32)| {
            fleet_dir
                .binary_search_by_key(&pair, |e| e.0)
                .ok()
                .and_then(|k| fleet_dir.get(k))
                .map(|e| e.1)
        };
        for a in army {
            if a.p == a.q || !land(a.p) || !land(a.q) {
                continue;
            }
            if army_dir.binary_search(&(a.q, a.p)).is_ok() || first_fleet((a.p, a.q)).is_some() {
                continue;
            }
            let Some(other) = first_fleet((a.q, a.p)).and_then(|i| fleet.items.get(i as usize))
            else {
                continue;
            };
            let at = self.pos(&a.path());
            let there = self.pos(&fleet.path(other));
            let (p, q) = (&raw.provinces[a.p()].id, &raw.provinces[a.q()].id);
            self.quiet.insert((at.line, at.column, "ONE_SIDED_EDGE"));
            self.quiet
                .insert((there.line, there.column, "ONE_SIDED_EDGE"));
            self.add(
                at,
                "EDGE_TYPE_MISMATCH",
                format!("provinces.{p}.army"),
                format!(
                    "`{p}` lists `{q}` as an army neighbour, but `{q}` lists `{p}` as a fleet neighbour only (line {})",
                    there.line
                ),
                Some(format!(
                    "list the edge for the same units at both ends: `{p}` under `army` of `{q}`, or `{q}` under `fleet` of `{p}`"
                )),
            );
        }
    }

    /// Coasts and water: a coast province that touches no sea, a named coast without
    /// fleet neighbours.
    fn coasts_and_water(&mut self, raw: &Raw, fleet: &[FleetItem]) {
        let n = raw.provinces.len();
        // Coasts and water.
        // A neighbour whose kind cannot be read (the loader says so) may be a sea.
        let maybe_sea = |p: usize| matches!(raw.kind(p), Some(Terrain::Sea) | None);
        let mut touches_sea = vec![false; n];
        for f in fleet {
            let (from, to) = (f.from.0 as usize, f.to.0 as usize);
            if maybe_sea(to) {
                touches_sea[from] = true;
            }
            if maybe_sea(from) {
                touches_sea[to] = true;
            }
        }
        for (i, p) in raw.provinces.iter().enumerate() {
            if p.kind == Some(Terrain::Coastal) && !touches_sea[i] {
                self.add(
                    self.pos(&format!("provinces.{i}.kind")),
                    "COAST_WITHOUT_SEA",
                    format!("provinces.{}.kind", p.id),
                    format!("`{}` is a coast province but touches no sea: no army can be convoyed to it", p.id),
                    Some("make it `kind: land`, or add the seas it touches to its fleet neighbours (at both ends)".into()),
                );
            }
            for (k, c) in p.coasts.iter().enumerate() {
                if c.fleet.is_empty() && p.kind == Some(Terrain::Coastal) {
                    self.add(
                        self.pos(&format!("provinces.{i}.coasts.{k}.id")),
                        "COAST_WITHOUT_FLEET",
                        format!("provinces.{}.coasts.{}.fleet", p.id, c.id),
                        format!("coast `{}/{}` has no fleet neighbours: a fleet there could never move", p.id, c.id),
                        Some("list the seas and coasts it touches under its `fleet` (at both ends), or remove the coast".into()),
                    );
                }
            }
        }
    }

    /// Connectivity over every edge, of either unit type, either way: isolated
    /// provinces, and parts of the board the rest cannot reach.
    fn connectivity(&mut self, raw: &Raw, army: &[ArmyItem], fleet: &[FleetItem]) {
        let n = raw.provinces.len();
        // Connectivity over every edge, of either unit type, either way.
        let passable = |p: usize| raw.kind(p) != Some(Terrain::Impassable);
        // Four bytes a neighbour: a dense map has hundreds of thousands.
        let mut adj: Vec<Vec<u32>> = vec![Vec::new(); n];
        let mut link = |a: u32, b: u32| {
            if a != b && passable(a as usize) && passable(b as usize) {
                adj[a as usize].push(b);
                adj[b as usize].push(a);
            }
        };
        for a in army {
            link(a.p, a.q);
        }
        for f in fleet {
            link(f.from.0, f.to.0);
        }
        let open: Vec<usize> = (0..n).filter(|&p| passable(p)).collect();
        if open.len() > 1 {
            for &p in &open {
                if adj[p].is_empty() {
                    let id = &raw.provinces[p].id;
                    self.add(
                        self.pos(&format!("provinces.{p}.id")),
                        "ISOLATED_PROVINCE",
                        format!("provinces.{id}"),
                        format!("`{id}` has no neighbours: no unit can ever move in or out"),
                        Some("add its army and fleet neighbours (at both ends), or make it `impassable`".into()),
                    );
                }
            }
            // Per province: the component it is in, once reached.
            let mut comp: Vec<Option<usize>> = vec![None; n];
            let mut comps: Vec<Vec<usize>> = Vec::new();
            for &s in &open {
                if comp[s].is_some() || adj[s].is_empty() {
                    continue;
                }
                let c = comps.len();
                let mut members = vec![s];
                comp[s] = Some(c);
                let mut k = 0;
                while k < members.len() {
                    let u = members[k];
                    k += 1;
                    for &v in &adj[u] {
                        let v = v as usize;
                        if comp[v].is_none() {
                            comp[v] = Some(c);
                            members.push(v);
                        }
                    }
                }
                members.sort_unstable();
                comps.push(members);
            }
            if comps.len() > 1 {
                let main = (0..comps.len())
                    .max_by_key(|&c| (comps[c].len(), std::cmp::Reverse(comps[c][0])))
                    .unwrap_or(0);
                for (c, members) in comps.iter().enumerate() {
                    if c == main {
                        continue;
                    }
                    let first = members[0];
                    let names: Vec<String> = members
                        .iter()
                        .take(8)
                        .map(|&m| format!("`{}`", raw.provinces[m].id))
                        .collect();
                    let more = if members.len() > 8 { ", …" } else { "" };
                    self.add(
                        self.pos(&format!("provinces.{first}.id")),
                        "SEPARATE_COMPONENTS",
                        format!("provinces.{}", raw.provinces[first].id),
                        format!(
                            "{}{more} ({} province{}) cannot be reached from the rest of the board ({} provinces)",
                            names.join(", "),
                            members.len(),
                            if members.len() == 1 { "" } else { "s" },
                            comps[main].len()
                        ),
                        Some("an edge is missing at both ends: `--reference EDGES.csv` compares the map with an edge list".into()),
                    );
                }
            }
        }
    }

    /// Canals: single-coast provinces between seas that do not touch each other.
    fn canals(&mut self, raw: &Raw, fleet: &[FleetItem]) {
        let n = raw.provinces.len();
        let sea = |p: usize| raw.kind(p) == Some(Terrain::Sea);
        // Canals: single-coast provinces between seas that do not touch each other.
        // Only such a province (a candidate) has its seas listed, and only the borders
        // among seas next to a candidate with two or more are kept: a sea grid
        // without one costs nothing here.
        let candidate =
            |p: usize| raw.kind(p) == Some(Terrain::Coastal) && raw.provinces[p].coasts.is_empty();
        let mut seas_of: Vec<Vec<usize>> = vec![Vec::new(); n];
        for f in fleet {
            let (from, to) = (f.from(), f.to());
            if sea(to.p) && from.c.is_none() && candidate(from.p) {
                seas_of[from.p].push(to.p);
            }
            if sea(from.p) && to.c.is_none() && candidate(to.p) {
                seas_of[to.p].push(from.p);
            }
        }
        let mut near = vec![false; n];
        for seas in &mut seas_of {
            seas.sort_unstable();
            seas.dedup();
            if seas.len() >= 2 {
                for &s in seas.iter() {
                    near[s] = true;
                }
            }
        }
        let mut sea_pairs: HashSet<(usize, usize)> = HashSet::new();
        for f in fleet {
            let (a, b) = (f.from.0 as usize, f.to.0 as usize);
            if near[a] && near[b] {
                sea_pairs.insert((a, b));
                sea_pairs.insert((b, a));
            }
        }
        for (i, p) in raw.provinces.iter().enumerate() {
            if p.kind != Some(Terrain::Coastal) || !p.coasts.is_empty() || seas_of[i].len() < 2 {
                continue;
            }
            // Group the seas around the province by the borders among themselves.
            let seas = &seas_of[i];
            let mut group: Vec<usize> = (0..seas.len()).collect();
            loop {
                let mut changed = false;
                for a in 0..seas.len() {
                    for b in 0..seas.len() {
                        if group[a] != group[b] && sea_pairs.contains(&(seas[a], seas[b])) {
                            let g = group[a].min(group[b]);
                            changed |= group[a] != g || group[b] != g;
                            group[a] = g;
                            group[b] = g;
                        }
                    }
                }
                if !changed {
                    break;
                }
            }
            let mut groups: BTreeMap<usize, Vec<&str>> = BTreeMap::new();
            for (k, &s) in seas.iter().enumerate() {
                groups
                    .entry(group[k])
                    .or_default()
                    .push(&raw.provinces[s].id);
            }
            if groups.len() < 2 {
                continue;
            }
            let mut parts: Vec<String> = groups
                .into_values()
                .map(|mut v| {
                    v.sort_unstable();
                    v.iter()
                        .map(|s| format!("`{s}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .collect();
            parts.sort();
            let name = if p.name.is_empty() {
                String::new()
            } else {
                format!(" ({})", p.name)
            };
            self.add(
                self.pos(&format!("provinces.{i}.id")),
                "CANAL",
                format!("provinces.{}", p.id),
                format!(
                    "`{}`{name} joins seas that do not touch each other: {}",
                    p.id,
                    parts.join(" | ")
                ),
                Some("fleets pass through it as through a canal (Kiel, Constantinople, Denmark and Sweden on the classic board): confirm it is meant".into()),
            );
        }
    }

    /// Warn about neighbours listed twice in one list.
    fn duplicates(&mut self, list: &[String], path: &str, key: &str, owner: &str, what: &str) {
        let mut seen: HashSet<String> = HashSet::new();
        for (j, s) in list.iter().enumerate() {
            let norm = s.trim().to_ascii_lowercase();
            if !seen.insert(norm) {
                self.add(
                    self.pos(&format!("{path}.{j}")),
                    "DUPLICATE_EDGE",
                    key.to_string(),
                    format!(
                        "`{}` is listed twice in the {what} neighbours of `{owner}`",
                        s.trim()
                    ),
                    Some("remove one (if another neighbour was meant, write that one)".into()),
                );
            }
        }
    }

    /// Home centres, victory, build sites.
    fn setup(&mut self, raw: &Raw) {
        let mut home_of: HashMap<usize, usize> = HashMap::new();
        for (i, w) in raw.powers.iter().enumerate() {
            for (j, h) in w.home.iter().enumerate() {
                let Some(p) = raw.prov(h) else { continue };
                match home_of.get(&p) {
                    Some(&o) if o != i => {
                        let at = self.pos(&format!("powers.{i}.home.{j}"));
                        self.quiet.insert((at.line, at.column, "HOME_MISMATCH"));
                        self.add(
                            at,
                            "CENTRE_TWO_HOMES",
                            format!("powers.{}.home", w.id),
                            format!(
                                "`{}` is already a home centre of `{}`",
                                h.trim(),
                                raw.powers[o].id
                            ),
                            Some(
                                "a centre is the home of one power: remove it here or there".into(),
                            ),
                        );
                    }
                    _ => {
                        home_of.insert(p, i);
                    }
                }
            }
        }
        let centres = raw.provinces.iter().filter(|p| p.supply).count() as i64;
        if let Some(v) = raw.victory {
            let at = self.pos("victory");
            if v > centres {
                self.add(
                    at,
                    "VICTORY_UNREACHABLE",
                    "victory".into(),
                    format!("victory needs {v} supply centres but the map has {centres}"),
                    Some(format!("lower `victory` to at most {centres}")),
                );
            } else if v * 2 <= centres {
                self.add(
                    at,
                    "VICTORY_NOT_MAJORITY",
                    "victory".into(),
                    format!("{v} of {centres} supply centres is not a majority: two powers could reach it in the same year"),
                    Some(format!("a majority is {}; if a lower threshold is meant, keep it", centres / 2 + 1)),
                );
            }
        }
        let owned_builds = matches!(raw.builds.as_str(), "owned" | "any" | "colonial");
        for (i, w) in raw.powers.iter().enumerate() {
            let mut sites: Vec<usize> = w.home.iter().filter_map(|h| raw.prov(h)).collect();
            if owned_builds {
                sites.extend(w.owns.iter().filter_map(|h| raw.prov(h)));
            }
            sites.retain(|&p| raw.provinces[p].build != Some(false));
            let at = self.pos(&format!("powers.{i}.home"));
            if sites.is_empty() {
                self.add(
                    at,
                    "NO_HOME_CENTRE",
                    format!("powers.{}.home", w.id),
                    format!("`{}` has no centre to build in", w.id),
                    Some(
                        "list its home centres under `home` (and give each `home:` the power)"
                            .into(),
                    ),
                );
            } else if !sites.iter().any(|&p| raw.kind(p) == Some(Terrain::Coastal)) {
                self.add(
                    at,
                    "NO_COASTAL_HOME",
                    format!("powers.{}.home", w.id),
                    format!(
                        "`{}` has no coastal build site: it can never build a fleet",
                        w.id
                    ),
                    Some(
                        "if that is meant, leave it; otherwise give it a coastal home centre"
                            .into(),
                    ),
                );
            }
        }
    }

    /// Compare the edge set with a reference list `a,b,army,fleet`: rows it cannot read
    /// or places it does not know, then each edge on one side only.
    fn reference(&mut self, raw: &Raw, r: &Reference) {
        let (army, fleet) = map_edges(raw);
        let (ref_army, ref_fleet) = self.reference_edges(raw, r);
        for (kind, mine, theirs) in [("army", &army, &ref_army), ("fleet", &fleet, &ref_fleet)] {
            self.compare_edges(raw, r, kind, (mine, theirs));
        }
    }

    /// The reference's edges, unordered, with the line of the first row that gives each;
    /// a row it cannot read is REFERENCE_BAD_ROW, a place not on the map
    /// REFERENCE_UNKNOWN.
    fn reference_edges(&mut self, raw: &Raw, r: &Reference) -> (RefEdges, RefEdges) {
        let mut ref_army: BTreeMap<(String, String), usize> = BTreeMap::new();
        let mut ref_fleet: BTreeMap<(String, String), usize> = BTreeMap::new();
        let mut header_done = false;
        for (li, line) in r.text.lines().enumerate() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = t.split(',').map(str::trim).collect();
            let flag = |s: &str| match s.to_ascii_lowercase().as_str() {
                "1" | "yes" | "true" => Some(true),
                "0" | "no" | "false" => Some(false),
                _ => None,
            };
            if !header_done {
                header_done = true;
                if let [_, _, a, b] = fields.as_slice() {
                    if flag(a).is_none() || flag(b).is_none() {
                        continue;
                    }
                }
            }
            let at = Pos {
                line: li + 1,
                column: 1,
            };
            let (a, b, fa, ff) = match fields.as_slice() {
                [a, b, x, y] => match (flag(x), flag(y)) {
                    (Some(x), Some(y)) => (*a, *b, x, y),
                    _ => {
                        self.add_in(
                            r.file,
                            at,
                            "REFERENCE_BAD_ROW",
                            format!("cannot read `{t}`: the unit types are 0 or 1"),
                        );
                        continue;
                    }
                },
                _ => {
                    self.add_in(
                        r.file,
                        at,
                        "REFERENCE_BAD_ROW",
                        format!("cannot read `{t}`: write `a,b,army,fleet`"),
                    );
                    continue;
                }
            };
            let (la, lb) = (raw.loc(a), raw.loc(b));
            for (s, l, col) in [
                (a, la, 1),
                (b, lb, line.find(',').map(|c| c + 2).unwrap_or(1)),
            ] {
                if l.is_none() {
                    self.add_in(
                        r.file,
                        Pos {
                            line: li + 1,
                            column: col,
                        },
                        "REFERENCE_UNKNOWN",
                        format!("`{s}` is not a province or coast of the map"),
                    );
                }
            }
            let (Some(la), Some(lb)) = (la, lb) else {
                continue;
            };
            if fa {
                let (pa, pb) = (
                    raw.provinces[la.p].id.clone(),
                    raw.provinces[lb.p].id.clone(),
                );
                ref_army.entry(pair(pa, pb)).or_insert(li + 1);
            }
            if ff {
                ref_fleet
                    .entry(pair(raw.loc_id(la), raw.loc_id(lb)))
                    .or_insert(li + 1);
            }
        }
        (ref_army, ref_fleet)
    }

    /// The edges of one unit type on one side only: REFERENCE_MISSING for those of the
    /// reference alone, REFERENCE_EXTRA for those of the map alone.
    fn compare_edges(
        &mut self,
        raw: &Raw,
        r: &Reference,
        kind: &str,
        (mine, theirs): (&MapEdges, &RefEdges),
    ) {
        for ((a, b), line) in theirs {
            if mine.contains_key(&(a.clone(), b.clone())) {
                continue;
            }
            let at = raw
                .loc(a)
                .map(|l| self.list_pos(l, kind))
                .unwrap_or(Pos { line: 1, column: 1 });
            self.add(
                at,
                "REFERENCE_MISSING",
                format!("provinces.{}.{kind}", a.split('/').next().unwrap_or(a)),
                format!(
                    "the reference has the {kind} edge `{a}`–`{b}` ({}:{line}); the map does not",
                    r.file
                ),
                Some(format!(
                    "add `{b}` to the {kind} neighbours of `{a}` and `{a}` to those of `{b}`"
                )),
            );
        }
        for ((a, b), path) in mine {
            if theirs.contains_key(&(a.clone(), b.clone())) {
                continue;
            }
            self.add(
                self.pos(path),
                "REFERENCE_EXTRA",
                format!("provinces.{}.{kind}", a.split('/').next().unwrap_or(a)),
                format!(
                    "the {kind} edge `{a}`–`{b}` is not in the reference ({})",
                    r.file
                ),
                Some("remove it at both ends, or correct the reference".into()),
            );
        }
    }

    /// Where the `army` or `fleet` list of a location is (else the province's id).
    fn list_pos(&self, l: L, kind: &str) -> Pos {
        let path = match (kind, l.c) {
            ("fleet", Some(k)) => format!("provinces.{}.coasts.{k}.fleet", l.p),
            _ => format!("provinces.{}.{kind}", l.p),
        };
        self.locs
            .key(&path)
            .unwrap_or_else(|| self.pos(&format!("provinces.{}.id", l.p)))
    }

    /// A finding in another file (the reference).
    fn add_in(&mut self, file: &str, at: Pos, code: &'static str, message: String) {
        let hint = match code {
            "REFERENCE_UNKNOWN" => {
                "use the map's ids (`spa/nc` for a coast), or add the place to the map"
            }
            _ => {
                "one row per edge: `a,b,army,fleet`, as in shared/reference/maps/standard/edges.csv"
            }
        };
        self.keep(Finding {
            file: file.to_string(),
            line: at.line,
            column: at.column,
            severity: code_info(code).map_or(Severity::Error, |c| c.severity),
            code,
            key: "reference".into(),
            message: crate::map::names::cut_quotes(message),
            rule: rule(code),
            hint: Some(hint.into()),
        });
    }
}

/// Per coast id and province: the provinces a fleet on that coast of the province may
/// move to (or come from). Only there does a coast word as a name misread a legal order
/// (`F spa-sc` is `F spa/sc`).
type CoastReach = HashMap<(usize, String), HashSet<usize>>;

/// The [`CoastReach`] of the fleet lists.
fn coast_reach(raw: &Raw) -> CoastReach {
    let mut coast_reach: CoastReach = HashMap::new();
    for (from, _, _, list) in raw.fleet_lists() {
        for s in list {
            let Some(to) = raw.loc(s) else { continue };
            for (a, b) in [(from, to), (to, from)] {
                if let Some(k) = a.c {
                    coast_reach
                        .entry((a.p, raw.provinces[a.p].coasts[k].id.clone()))
                        .or_default()
                        .insert(b.p);
                }
            }
        }
    }
    coast_reach
}

/// Edges by their two ends (sorted): for the map, the path of the first item that lists
/// each; for a reference, the line of its first row.
type MapEdges = BTreeMap<(String, String), String>;
type RefEdges = BTreeMap<(String, String), usize>;

/// An edge's two ends in order, so that each edge has one key.
fn pair(a: String, b: String) -> (String, String) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

/// The map's edges, unordered, each with the first item that lists it.
fn map_edges(raw: &Raw) -> (MapEdges, MapEdges) {
    // The map's edges, unordered, with the first item that lists each.
    let mut army: BTreeMap<(String, String), String> = BTreeMap::new();
    let mut fleet: BTreeMap<(String, String), String> = BTreeMap::new();
    for (p, pr) in raw.provinces.iter().enumerate() {
        for (j, s) in pr.army.iter().enumerate() {
            if let Some(L { p: q, c: None }) = raw.loc(s) {
                if q != p {
                    army.entry(pair(pr.id.clone(), raw.provinces[q].id.clone()))
                        .or_insert(format!("provinces.{p}.army.{j}"));
                }
            }
        }
    }
    for (from, path, _, list) in raw.fleet_lists() {
        for (j, s) in list.iter().enumerate() {
            if let Some(to) = raw.loc(s) {
                if to.p != from.p {
                    fleet
                        .entry(pair(raw.loc_id(from), raw.loc_id(to)))
                        .or_insert(format!("{path}.{j}"));
                }
            }
        }
    }
    (army, fleet)
}

/// Coast words a province name must not be, when the map does not load (else the name
/// index of the map says): each coast's id, name, the first word of its name and its
/// initial.
fn coast_words(raw: &Raw) -> HashMap<String, String> {
    let mut out = HashMap::new();
    for p in &raw.provinces {
        for c in &p.coasts {
            let name = normalize(&c.name);
            for w in [normalize(&c.id), name.clone()] {
                if !w.is_empty() {
                    out.insert(w, c.id.clone());
                }
            }
            if let Some(first) = name.split(' ').next().filter(|w| !w.is_empty()) {
                out.insert(first.to_string(), c.id.clone());
            }
        }
    }
    out
}
