//! Import a DPjudge map file into our YAML schema (`arbiter map import`).
//!
//! What is read (the format as DPjudge reads it; `docs/MAPS.md` has the details):
//! - `#` comments, blank lines; keywords in any case.
//! - `USE`/`USES`/`MAP` `file…`: include other files from the including file's folder,
//!   else arbiter's embedded boards written in this format (`standard.map`,
//!   `standard.geography`, …); `.map` is added to a name without a dot, and a name
//!   with a folder in it is refused. `MAP base` is how a variant builds on a base map;
//!   the imported map is named after the file given (or `--name`).
//! - `OLD -> Full Name = abbr …` renames a place everywhere; `OLD -> NEW (ADJ)` a power.
//! - `Full Name = abbr alias…`: a place's full name, its abbreviation (our id) and
//!   aliases, where `+` stands for a space (`eas+med`). `Spain (north coast) = spa/nc …`
//!   names a coast.
//! - `POWER (ADJECTIVE:L) HOME…`: a power, its adjective and home centres; following
//!   `A xxx`/`F xxx` lines are its starting units, `OWNS`/`CENTERS` its other centres at
//!   the start, `HOME`/`HOMES`/`INHABITS` replace its home centres, `UNITS` clears its
//!   units. `UNOWNED`/`NEUTRAL` lists the neutral centres.
//! - `BEGIN Spring 1901 Movement` (any phase of the standard year: `Winter 1900
//!   Adjustments` starts with builds; a start in `Retreats` is the next phase),
//!   `VICTORY n`.
//! - `LAND|WATER|COAST|PORT|SHUT place ABUTS n1 n2 …` (and `AMEND`): terrain and
//!   neighbours. Case carries meaning: an upper-case neighbour is a border for both unit
//!   types (as the terrain allows), a lower-case one for armies only, a mixed-case one
//!   (`Rom`) for fleets only; a lower-case place line (`COAST spa`) is the parent of a
//!   split province, whose fleet borders are on its `SPA/NC` lines. A fleet may not move
//!   to a split province without naming the coast, nor to `LAND` or `SHUT`; an army may
//!   not move to `WATER` or `SHUT`.
//!
//! Everything else is reported as not carried over, with its file and line: border
//! markers (`*MAO`, `R:AEG`, `AEG(CON)`), special home centres (`*`, `+`, `~`, `@`),
//! rules, flows, variant directives, dummies, renames. `NEWHOMES` and a `BEGIN` phase
//! outside the standard year are refused ([`Imported::refused`]: errors with their
//! line). The library does no I/O: included
//! files are read through the caller's `read`.

// After conversion, what remains indexed is `self.powers[p]` and `self.places[i]`
// with `p`/`i` taken from `self.power`, `power_at` or `place_at` (set to
// `len() - 1` right after a push, or a position found in the vector), plus the
// importer's own tables; the words of a line are read with `get`. Out of range is a
// bug, not input.
#![allow(clippy::indexing_slicing)]

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;

/// The result of an import: the YAML text and what could not be carried over.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The map's `name`.
    pub name: String,
    /// The map in our YAML schema.
    pub yaml: String,
    /// What could not be carried over, in file order.
    pub notes: Vec<Note>,
    /// What was refused, in file order: errors, each naming the directive and its
    /// line (`NEWHOMES`, a `BEGIN` phase outside the standard year). The map is
    /// written without them.
    pub refused: Vec<Note>,
    pub powers: usize,
    pub provinces: usize,
    /// Where each line of `yaml` (and each neighbour in its lists) was read from, so
    /// that a finding on the YAML can name the DPjudge file and line.
    pub origins: Vec<Origin>,
}

/// The DPjudge line a line of the imported YAML comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// 1-based line of the YAML.
    pub yaml_line: usize,
    /// A neighbour of an `army` or `fleet` list (lower case, as in the YAML), for the
    /// line that gave that one item (`AMEND` lines add items to another line's list).
    pub item: Option<String>,
    pub file: String,
    pub line: usize,
}

/// Something in the DPjudge file that the YAML map does not carry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    pub file: String,
    pub line: usize,
    pub message: String,
}

/// An included file could not be read: the import stops.
#[derive(Debug, thiserror::Error)]
#[error("{from}:{line}: cannot read `{file}`: {why}")]
pub struct ImportError {
    pub file: String,
    pub from: String,
    pub line: usize,
    pub why: String,
}

/// What `read` answers for a file that does not exist: the import then looks for an
/// embedded board of that name.
pub const NOT_FOUND: &str = "no such file";

/// How deep `USE` files may nest (a file that uses a file that uses …): deeper is
/// refused, so that a long chain of files cannot overflow the stack. Published variants
/// nest two or three deep.
pub const MAX_USE_DEPTH: usize = 32;

/// The text of an embedded board in the DPjudge format, for `USE`/`MAP` of a name
/// that is not in the importing file's folder: `standard.map` (the whole board),
/// `standard.geography` (names and terrain), `standard.politics` (powers, homes,
/// neutral centres, centres owned), `standard.military` (units). Also `classic1913`
/// and `world1914` (and `classic` for `standard`).
pub fn embedded_text(name: &str) -> Option<String> {
    let (stem, ext) = name.rsplit_once('.').unwrap_or((name, "map"));
    let ext = ext.to_ascii_lowercase();
    if !matches!(ext.as_str(), "map" | "geography" | "politics" | "military") {
        return None;
    }
    let map = super::Map::embedded(stem)?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# arbiter's embedded board `{}`, written in the DPjudge format.",
        map.name
    );
    if ext == "map" || ext == "politics" {
        dp_politics(&map, &mut out);
    }
    if ext == "map" || ext == "geography" {
        dp_geography(&map, &mut out);
    }
    if ext == "map" || ext == "military" {
        dp_military(&map, &mut out);
    }
    if ext == "map" {
        let _ = writeln!(out, "VICTORY {}", map.victory);
    }
    Some(out)
}

/// A word of a DPjudge line: spaces as `+`.
fn dp_word(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join("+")
}

/// Power lines (`ENGLAND (ENGLISH) EDI LON LVP`), with `OWNS` where a power starts
/// with other centres than its homes, and `UNOWNED` centres.
fn dp_politics(map: &super::Map, out: &mut String) {
    let id = |p: super::Prov| map.province(p).id.to_ascii_uppercase();
    for pw in map.power_ids() {
        let info = map.power(pw);
        let homes: Vec<String> = info.home.iter().map(|&p| id(p)).collect();
        let _ = writeln!(
            out,
            "{} ({}) {}",
            dp_word(&info.id).to_ascii_uppercase(),
            dp_word(&info.adjective).to_ascii_uppercase(),
            homes.join(" ")
        );
        if !info.owns.is_empty() || !info.unowned_homes.is_empty() {
            let owned: Vec<String> = info
                .home
                .iter()
                .filter(|h| !info.unowned_homes.contains(h))
                .chain(&info.owns)
                .map(|&p| id(p))
                .collect();
            let _ = writeln!(out, "OWNS {}", owned.join(" "));
        }
    }
    let owners = map.starting_owners();
    let neutral: Vec<String> = map
        .provs()
        .filter(|&p| map.province(p).supply && map.province(p).home.is_none())
        .filter(|&p| owners.get(p.0 as usize).is_some_and(Option::is_none))
        .map(id)
        .collect();
    if !neutral.is_empty() {
        let _ = writeln!(out, "UNOWNED {}", neutral.join(" "));
    }
}

/// Name lines and terrain lines, case carrying the unit types as DPjudge reads it:
/// upper case for both, lower case for armies only, mixed case for fleets only; a
/// split province's coast lines, then its own line in lower case.
fn dp_geography(map: &super::Map, out: &mut String) {
    use super::Terrain;
    for p in map.provs() {
        let pr = map.province(p);
        for &c in &pr.coasts {
            if let Some(nc) = map.coast(c) {
                let mut words = vec![map.loc_id(c)];
                words.extend(nc.aliases.iter().map(|a| dp_word(a)));
                let _ = writeln!(out, "{} ({}) = {}", pr.name, nc.name, words.join(" "));
            }
        }
        let mut words = vec![pr.id.to_ascii_lowercase()];
        words.extend(pr.aliases.iter().map(|a| dp_word(a)));
        let _ = writeln!(out, "{} = {}", pr.name, words.join(" "));
    }
    for p in map.provs() {
        let pr = map.province(p);
        let me: super::Loc = p.into();
        let upper = pr.id.to_ascii_uppercase();
        match pr.terrain {
            Terrain::Sea => {
                let n: Vec<String> = map
                    .fleet_neighbours(me)
                    .iter()
                    .map(|&l| map.loc_id(l).to_ascii_uppercase())
                    .collect();
                let _ = writeln!(out, "WATER {upper} ABUTS {}", n.join(" "));
            }
            Terrain::Impassable => {
                let _ = writeln!(out, "SHUT {upper}");
            }
            Terrain::Land => {
                let n: Vec<String> = map
                    .army_neighbours(p)
                    .iter()
                    .map(|q| map.province(q).id.to_ascii_uppercase())
                    .collect();
                let _ = writeln!(out, "LAND {upper} ABUTS {}", n.join(" "));
            }
            Terrain::Coastal if !pr.coasts.is_empty() => {
                for &c in &pr.coasts {
                    let n: Vec<String> = map
                        .fleet_neighbours(c)
                        .iter()
                        .map(|&l| map.loc_id(l).to_ascii_uppercase())
                        .collect();
                    let _ = writeln!(
                        out,
                        "COAST {} ABUTS {}",
                        map.loc_id(c).to_ascii_uppercase(),
                        n.join(" ")
                    );
                }
                let n: Vec<String> = map
                    .army_neighbours(p)
                    .iter()
                    .map(|q| map.province(q).id.to_ascii_lowercase())
                    .collect();
                let _ = writeln!(
                    out,
                    "COAST {} ABUTS {}",
                    pr.id.to_ascii_lowercase(),
                    n.join(" ")
                );
            }
            Terrain::Coastal => {
                let fleet = map.fleet_neighbours(me);
                let mut n: Vec<String> = Vec::new();
                for q in map.army_neighbours(p).iter() {
                    let qid = map.province(q).id.to_ascii_uppercase();
                    let by_fleet = fleet.iter().any(|&l| l == q.into());
                    n.push(if by_fleet {
                        qid
                    } else {
                        qid.to_ascii_lowercase()
                    });
                }
                for &l in fleet {
                    let q = map.prov_of(l);
                    let army = map.army_adjacent(p, q);
                    if army && !map.is_named_coast(l) {
                        continue;
                    }
                    let lid = map.loc_id(l).to_ascii_uppercase();
                    n.push(if army {
                        lid
                    } else {
                        title(&lid.replace('/', " /")).replace(" /", "/")
                    });
                }
                let _ = writeln!(out, "COAST {upper} ABUTS {}", n.join(" "));
            }
        }
    }
}

/// Each power's units (`A PAR`, `F STP/SC`) after its name.
fn dp_military(map: &super::Map, out: &mut String) {
    for pw in map.power_ids() {
        let info = map.power(pw);
        let _ = writeln!(out, "{}", dp_word(&info.id).to_ascii_uppercase());
        for &(k, l) in &info.units {
            let _ = writeln!(out, "{} {}", k.letter(), map.loc_id(l).to_ascii_uppercase());
        }
    }
}

/// Import the DPjudge map `text` (read from `file`). `name` overrides the map's name;
/// `read` returns the text of an included file, by the path computed from the including
/// file's folder.
pub fn import(
    file: &str,
    text: &str,
    name: Option<&str>,
    read: &mut dyn FnMut(&str) -> Result<String, String>,
) -> Result<Imported, ImportError> {
    import_with(file, text, name, read, &[])
}

/// [`import`], where a place whose abbreviation is one of `order_words` (the order
/// grammar's words: `the`, `by`, …), or a coast word a fleet on that coast could
/// misread it as (`scs` beside a south coast), is imported under a safe id, and such
/// an alias is dropped (each noted).
pub fn import_with(
    file: &str,
    text: &str,
    name: Option<&str>,
    read: &mut dyn FnMut(&str) -> Result<String, String>,
    order_words: &[&str],
) -> Result<Imported, ImportError> {
    let mut r = Reader {
        order_words: order_words
            .iter()
            .map(|w| super::names::normalize(w))
            .collect(),
        ..Reader::default()
    };
    r.used.insert(file.to_string());
    r.file(file, text, read)?;
    let stem = Path::new(file)
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "imported".into());
    let name = name
        .map(str::to_string)
        .unwrap_or(stem)
        .to_ascii_lowercase();
    Ok(r.finish(file, name))
}

/// A place line: `COAST spa/nc ABUTS …`.
#[derive(Debug, Clone)]
struct Place {
    /// As written (case matters: a lower-case line is a split province's parent).
    written: String,
    kind: String,
    abuts: Vec<Abut>,
    file: String,
    line: usize,
}

#[derive(Debug, Clone)]
struct Abut {
    text: String,
    file: String,
    line: usize,
}

#[derive(Debug, Clone)]
struct NameLine {
    full: String,
    aliases: Vec<String>,
    file: String,
    line: usize,
}

#[derive(Debug, Clone, Default)]
struct PowerDef {
    /// Normalized, upper case: `AUSTRIA`.
    key: String,
    name: String,
    adjective: String,
    homes: Vec<String>,
    owns: Vec<String>,
    /// Whether an `OWNS`/`CENTERS` line gave the centres it starts with (else its
    /// home centres).
    owns_set: bool,
    /// Where its `OWNS`/`CENTERS` lines are (the last one).
    owns_at: (String, usize),
    /// `A BUD`, `F STP/SC`.
    units: Vec<(char, String)>,
    reinit_homes: bool,
    /// `&SC` in its home centres: it builds in any centre it owns.
    build_any: bool,
    /// The line of its `&SC`.
    build_any_at: (String, usize),
    /// Where the power is first declared.
    file: String,
    line: usize,
}

/// What a power owns at the start, apart from its home centres: `owns` (centres
/// that are not its homes) and `unowned_homes` (its homes it starts without).
struct StartOwns {
    owns: Vec<String>,
    unowned: Vec<String>,
}

/// The supply centres of an import, and the power each home centre goes to.
struct Centres {
    all: Vec<String>,
    /// `all`, to look a province up in.
    set: HashSet<String>,
    home_of: HashMap<String, usize>,
}

/// What a province is written from: its own place line (none for a split province
/// given by its coasts only), the first place line of it or its coasts, its name line,
/// its coasts.
struct ProvSrc<'a> {
    prov: &'a str,
    id: String,
    coasts: Vec<String>,
    own: Option<Place>,
    first: Place,
    nl: Option<NameLine>,
}

/// One line of a DPjudge file that is not blank or a comment.
struct Line<'t> {
    file: &'t str,
    /// 1-based.
    ln: usize,
    raw: &'t str,
    words: Vec<&'t str>,
    /// The first word, in upper case.
    up: String,
    /// The last word, in upper case.
    last: String,
}

#[derive(Default)]
struct Reader {
    places: Vec<Place>,
    /// Upper-case place → index in `places`.
    place_at: HashMap<String, usize>,
    /// Lower-case abbreviation → name line.
    names: HashMap<String, NameLine>,
    powers: Vec<PowerDef>,
    power_at: HashMap<String, usize>,
    unowned: Vec<String>,
    victory: Option<u16>,
    /// `RULE BUILD_ANY`: every power builds in any centre it owns.
    build_any: bool,
    /// The build rule of an embedded board read in full (`MAP world1914`), where
    /// it is not the classic one.
    base_builds: Option<super::BuildRule>,
    begin: Option<(String, i32)>,
    used: HashSet<String>,
    /// Files in the order they were first read.
    read_order: Vec<String>,
    notes: Vec<Note>,
    /// Lines refused: errors ([`Imported::refused`]).
    refused: Vec<Note>,
    power: Option<usize>,
    /// Inside a variant `DIRECTIVE` block, or a dynamic `IN phase` block.
    skipping: Option<&'static str>,
    /// The order grammar's words, normalized (no place may be written as one).
    order_words: HashSet<String>,
    /// How many `USE` files deep the file being read is (0: the imported file).
    depth: usize,
    /// Upper-case province → index in `places` of its first place line (its own or a
    /// coast's), made by [`Reader::finish`]: one lookup per province, not a scan.
    first_at: HashMap<String, usize>,
    /// Upper-case province → how many of its coasts have a place line, for every
    /// province of `places`: kept within the loader's limits ([`Reader::size_limits`]).
    provinces: HashMap<String, usize>,
    /// The place line past the loader's limits, if one was read: the import stops there.
    too_big: Option<ImportError>,
}

const SKIPPED: &[(&str, &str)] = &[
    ("TEXTONLY", "a text-only map"),
    ("FLAGS", "flag pictures"),
    ("FLAG", "a flag picture"),
    ("FLOW", "the order of phases in a year"),
    ("NOTIFY", "whom to notify at game start"),
    ("ROTATE", "rotating control"),
    ("DUMMY", "dummy powers"),
    ("DUMMIES", "dummy powers"),
    ("TEAM", "teams"),
    ("TEAMS", "teams"),
    ("CONTROL", "control of a dummy power"),
    ("LEAGUE", "leagues"),
    ("RESERVES", "reserve units"),
    ("MILITIA", "militia units"),
];

const TERRAIN: &[&str] = &["AMEND", "WATER", "LAND", "COAST", "PORT", "SHUT"];

/// Title case: `AUSTRIA` → `Austria`, `NORTH+AFRICA` → `North Africa`.
fn title(s: &str) -> String {
    s.replace('+', " ")
        .split_whitespace()
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f
                    .to_uppercase()
                    .chain(c.flat_map(char::to_lowercase))
                    .collect(),
                None => String::new(),
            }
        })
        .collect::<Vec<String>>()
        .join(" ")
}

/// Mixed case (`Rom`): a fleet-only border in DPjudge.
fn is_mixed(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|f| f.is_uppercase()) && c.any(|x| x.is_lowercase())
}

impl Reader {
    /// Index the places by their written name, upper case, again (and count their
    /// provinces and coasts again).
    fn index_places(&mut self) {
        self.place_at = self
            .places
            .iter()
            .enumerate()
            .map(|(i, p)| (p.written.to_ascii_uppercase(), i))
            .collect();
        self.provinces.clear();
        for key in self.place_at.keys() {
            let (prov, coast) = match key.split_once('/') {
                Some((p, _)) => (p, 1),
                None => (key.as_str(), 0),
            };
            *self.provinces.entry(prov.to_string()).or_default() += coast;
        }
    }

    /// Whether a new place line `key` (upper case) keeps the map within the loader's
    /// limits on provinces and on named coasts of one province (`TOO_MANY`); if not, the
    /// import stops at the line with an error ([`Reader::too_big`]), before anything
    /// else is read or built: a map past them is never written.
    fn size_limits(&mut self, file: &str, ln: usize, written: &str, key: &str) -> bool {
        let (prov, coast) = match key.split_once('/') {
            Some((p, _)) => (p, 1),
            None => (key, 0),
        };
        let why = match self.provinces.get(prov) {
            None if self.provinces.len() >= super::MAX_PROVINCES => format!(
                "`{}` is province {} of the map: a map may have at most {} provinces; the import stops here",
                super::names::cut_quote(written),
                self.provinces.len() + 1,
                super::MAX_PROVINCES
            ),
            Some(&n) if n + coast > super::MAX_COASTS => format!(
                "`{}` is coast {} of `{}`: a province may have at most {} named coasts; the import stops here",
                super::names::cut_quote(written),
                n + coast,
                super::names::cut_quote(prov),
                super::MAX_COASTS
            ),
            _ => {
                *self.provinces.entry(prov.to_string()).or_default() += coast;
                return true;
            }
        };
        self.too_big.get_or_insert(ImportError {
            file: file.to_string(),
            from: file.to_string(),
            line: ln,
            why,
        });
        false
    }

    /// Rename every place line and every border that `recase` rewrites (a rename's
    /// old name, in the case it was written), and index the places again.
    fn rewrite_places(&mut self, recase: impl Fn(&str) -> Option<String>) {
        for p in &mut self.places {
            if let Some(w) = recase(&p.written) {
                p.written = w;
            }
            for a in &mut p.abuts {
                if let Some(w) = recase(&a.text) {
                    a.text = w;
                }
            }
        }
        self.index_places();
    }

    /// A line that cannot be imported and changes the game if left out: an error.
    fn refuse(&mut self, file: &str, line: usize, message: String) {
        self.refused.push(Note {
            file: file.to_string(),
            line,
            message: super::names::cut_quotes(message),
        });
    }

    fn note(&mut self, file: &str, line: usize, message: String) {
        self.notes.push(Note {
            file: file.to_string(),
            line,
            message: super::names::cut_quotes(message),
        });
    }

    /// Read one file (and the files it includes), line by line.
    fn file(
        &mut self,
        file: &str,
        text: &str,
        read: &mut dyn FnMut(&str) -> Result<String, String>,
    ) -> Result<(), ImportError> {
        self.read_order.push(file.to_string());
        for (i, raw) in text.lines().enumerate() {
            let words: Vec<&str> = raw.split_whitespace().collect();
            let (Some(&first), Some(&final_word)) = (words.first(), words.last()) else {
                continue;
            };
            if first.starts_with('#') {
                continue;
            }
            let l = Line {
                file,
                ln: i + 1,
                raw,
                up: first.to_ascii_uppercase(),
                last: final_word.to_ascii_uppercase(),
                words,
            };
            if !self.passed_over(&l) {
                self.keyword_line(&l, read)?;
            }
        }
        Ok(())
    }

    /// Whether a line is passed over: inside a variant directive or a dynamic block, or
    /// the start of one, or a keyword that is not carried over (each noted once).
    fn passed_over(&mut self, l: &Line) -> bool {
        let (file, ln, raw, words, up, last) = (l.file, l.ln, l.raw, &l.words, &l.up, &l.last);
        if let Some(what) = self.skipping {
            let end = match what {
                "directive" => up == "END",
                _ => {
                    (up == "IN" || up == "FROM")
                        && words
                            .get(1)
                            .is_some_and(|w| w.eq_ignore_ascii_case("start"))
                }
            };
            if end {
                self.skipping = None;
            }
            return true;
        }
        if last == "DIRECTIVE" || last == "DIRECTIVES" {
            if up != "END" {
                self.note(file, ln, format!("`{}`: variant directives are not carried over (the block up to `END` is passed over)", raw.trim()));
                self.skipping = Some("directive");
            }
            return true;
        }
        if up == "IN" || up == "FROM" {
            if raw.contains(':') {
                self.note(
                    file,
                    ln,
                    format!(
                        "`{}`: changes to the map during the game are not carried over",
                        raw.trim()
                    ),
                );
            } else if !words
                .get(1)
                .is_some_and(|w| w.eq_ignore_ascii_case("start"))
            {
                self.note(file, ln, format!("`{}`: changes to the map during the game are not carried over (the lines up to `IN START` are passed over)", raw.trim()));
                self.skipping = Some("dynamic");
            }
            return true;
        }
        if up == "NEWHOMES" {
            self.refuse(file, ln, format!("`{}`: `NEWHOMES` (home centres chosen again during the game) is not supported: arbiter's home centres are fixed; the map is imported with the home centres it starts with (remove the line to import it without an error)", raw.trim()));
            return true;
        }
        if let Some((_, what)) = SKIPPED.iter().find(|(k, _)| *k == up) {
            self.note(
                file,
                ln,
                format!("`{}` is not carried over ({what})", raw.trim()),
            );
            if matches!(up.as_str(), "DUMMY" | "DUMMIES" | "TEAM" | "TEAMS") && words.len() > 1 {
                self.power = None;
            }
            return true;
        }
        false
    }

    /// A line read by its first word: a setting, an include, a name line, a power's
    /// centres or units, a place line, else a power line.
    fn keyword_line(
        &mut self,
        l: &Line,
        read: &mut dyn FnMut(&str) -> Result<String, String>,
    ) -> Result<(), ImportError> {
        let (file, ln, raw, words, up) = (l.file, l.ln, l.raw, &l.words, &l.up);
        match up.as_str() {
            "VICTORY" => self.victory_line(l),
            "RULE" | "RULES" => self.rule_line(l),
            "USE" | "USES" | "MAP" => self.includes(l, read)?,
            "BEGIN" => self.begin_line(l),
            _ if raw.contains('=') => self.name_line(file, ln, raw),
            "OWNS" | "CENTERS" => self.owns_line(l),
            "INHABITS" | "HOME" | "HOMES" => match self.power {
                Some(p) => {
                    if up != "INHABITS" || !self.powers[p].reinit_homes {
                        self.powers[p].homes.clear();
                    }
                    self.powers[p].reinit_homes = true;
                    self.homes(p, words.get(1..).unwrap_or_default(), file, ln);
                }
                None => self.note(
                    file,
                    ln,
                    format!("`{}`: `{up}` before any power", raw.trim()),
                ),
            },
            "UNITS" => match self.power {
                Some(p) => self.powers[p].units.clear(),
                None => self.note(file, ln, "`UNITS` before any power".into()),
            },
            "A" | "F" => self.unit_line(l),
            "W" if words.len() == 2 => self.note(
                file,
                ln,
                format!(
                    "`{}`: a wing (an air unit) is not carried over: arbiter has armies and fleets",
                    raw.trim()
                ),
            ),
            "DROP" => {
                for w in words.get(1..).unwrap_or_default() {
                    if !self.drop_place(&w.to_ascii_uppercase()) {
                        self.note(file, ln, format!("`DROP {w}`: no such place"));
                    }
                }
            }
            "UNPLAYED" => self.unplayed(l),
            _ if words.len() > 2
                && !TERRAIN.contains(&up.as_str())
                && words
                    .get(2)
                    .is_some_and(|w| w.eq_ignore_ascii_case("ABUTS")) =>
            {
                self.note(file, ln, format!("`{}`: `{up}` is no terrain (WATER, LAND, COAST, PORT, SHUT or AMEND); the line is not read", raw.trim()))
            }
            _ if words.len() > 1 && TERRAIN.contains(&up.as_str()) => {
                self.terrain(file, ln, words);
                if let Some(e) = self.too_big.take() {
                    return Err(e);
                }
            }
            _ => self.power_line(file, ln, raw, words),
        }
        Ok(())
    }

    /// `RULE …`: `BUILD_ANY` (build in any centre owned) is the map's `builds: owned`,
    /// `!BUILD_ANY` turns it off; other rules are not carried over.
    fn rule_line(&mut self, l: &Line) {
        let (file, ln, raw, words) = (l.file, l.ln, l.raw, &l.words);
        let rules = words.get(1..).unwrap_or_default();
        let any = |r: &&str| r.eq_ignore_ascii_case("BUILD_ANY");
        let not_any = |r: &&str| r.eq_ignore_ascii_case("!BUILD_ANY");
        if rules.iter().any(any) {
            self.build_any = true;
        }
        if rules.iter().any(not_any) {
            self.build_any = false;
        }
        if !rules.iter().all(|r| any(r) || not_any(r)) {
            self.note(
                file,
                ln,
                format!("`{}` is not carried over (a DPjudge rule)", raw.trim()),
            );
        }
    }

    /// `DROP place`: forget the place (and its coasts): its lines, names, every
    /// border to it, homes, centres and units in it. False if there is none.
    fn drop_place(&mut self, place: &str) -> bool {
        let gone = |w: &str| {
            let u = w.to_ascii_uppercase();
            u == place || (!place.contains('/') && u.starts_with(&format!("{place}/")))
        };
        let before = self.places.len();
        self.places.retain(|p| !gone(&p.written));
        let dropped = self.places.len() != before;
        for p in &mut self.places {
            p.abuts.retain(|a| !gone(&a.text));
        }
        self.index_places();
        let had_name = self.names.keys().any(|k| gone(k));
        self.names.retain(|k, _| !gone(k));
        for pw in &mut self.powers {
            pw.homes.retain(|h| !gone(h));
            pw.owns.retain(|h| !gone(h));
            pw.units
                .retain(|(_, l)| !gone(l.split('/').next().unwrap_or_default()));
        }
        self.unowned.retain(|h| !gone(h));
        dropped || had_name
    }

    /// `UNPLAYED [ALL [EXCEPT]] [power…]`: remove powers (the current one without a
    /// list) with all DPjudge recorded for them: their home centres are no longer
    /// centres unless `UNOWNED` lists them (before or after).
    fn unplayed(&mut self, l: &Line) {
        let (file, ln, words) = (l.file, l.ln, &l.words);
        let named: Vec<String> = words
            .get(1..)
            .unwrap_or_default()
            .iter()
            .map(|w| power_key(&w.to_ascii_uppercase()))
            .collect();
        let all: Vec<String> = self.powers.iter().map(|p| p.key.clone()).collect();
        let goners: Vec<String> = match named.first().map(String::as_str) {
            None => match self.power {
                Some(p) => vec![self.powers[p].key.clone()],
                None => {
                    self.note(file, ln, "`UNPLAYED` before any power".into());
                    return;
                }
            },
            Some("ALL") if named.get(1).map(String::as_str) == Some("EXCEPT") => all
                .into_iter()
                .filter(|k| !named[2..].contains(k))
                .collect(),
            Some("ALL") => all,
            Some(_) => {
                for n in &named {
                    if !self.power_at.contains_key(n) {
                        self.note(file, ln, format!("`UNPLAYED {n}`: no such power"));
                    }
                }
                named
            }
        };
        for g in goners {
            if let Some(i) = self.powers.iter().position(|p| p.key == g) {
                self.powers.remove(i);
            }
        }
        self.power_at = self
            .powers
            .iter()
            .enumerate()
            .map(|(i, p)| (p.key.clone(), i))
            .collect();
        self.power = None;
    }

    /// `VICTORY n`: the first threshold.
    fn victory_line(&mut self, l: &Line) {
        let (file, ln, raw, words) = (l.file, l.ln, l.raw, &l.words);
        match words.get(1).and_then(|w| w.parse::<u16>().ok()) {
            Some(v) => {
                self.victory = Some(v);
                if words.len() > 2 {
                    self.note(file, ln, format!("`{}`: victory thresholds that change by year are not carried over; the first one ({v}) is kept", raw.trim()));
                }
            }
            None => self.note(
                file,
                ln,
                format!("`{}`: cannot read the victory threshold", raw.trim()),
            ),
        }
    }

    /// `USE`/`USES`/`MAP file…`: read each file not read yet, from the folder of this
    /// one, else (when `read` answers [`NOT_FOUND`]) from arbiter's embedded boards
    /// (`standard.map`, `standard.geography`, …: [`embedded_text`]). A name with a
    /// folder in it (`/`, `\`, `..`, an absolute path) is refused.
    fn includes(
        &mut self,
        l: &Line,
        read: &mut dyn FnMut(&str) -> Result<String, String>,
    ) -> Result<(), ImportError> {
        let (file, ln, words) = (l.file, l.ln, &l.words);
        for w in words.get(1..).unwrap_or_default() {
            let name = if w.contains('.') {
                w.to_string()
            } else {
                format!("{w}.map")
            };
            let refuse = |why: String| ImportError {
                file: name.clone(),
                from: file.to_string(),
                line: ln,
                why,
            };
            if name.contains(['/', '\\', ':']) || name.starts_with('.') {
                return Err(refuse(format!(
                    "`{} {w}`: a used file is looked up in the folder of `{file}` (then among arbiter's embedded boards), so its name has no folder in it",
                    l.up
                )));
            }
            let path = match Path::new(file).parent() {
                Some(d) if !d.as_os_str().is_empty() => d.join(&name).display().to_string(),
                _ => name.clone(),
            };
            if self.depth >= MAX_USE_DEPTH {
                return Err(refuse(format!(
                    "`{} {w}`: `USE` files nest more than {MAX_USE_DEPTH} deep; put the chain's files into fewer files",
                    l.up
                )));
            }
            if !self.used.insert(path.clone()) {
                self.note(file, ln, format!("`{name}` is used twice; read once"));
                continue;
            }
            let sub = match read(&path) {
                Ok(text) => text,
                Err(why) if why == NOT_FOUND => match embedded_text(&name) {
                    Some(text) => {
                        let stem = name.rsplit_once('.').map_or(name.as_str(), |(a, _)| a);
                        if name.to_ascii_lowercase().ends_with(".map") {
                            self.base_builds = super::Map::embedded(stem)
                                .map(|m| m.build_rule)
                                .filter(|&r| r != super::BuildRule::Home);
                        }
                        self.note(file, ln, format!("`{name}` is not in the folder of `{file}`: arbiter's embedded board `{}` is used", name.split('.').next().unwrap_or_default().to_ascii_lowercase()));
                        text
                    }
                    None => return Err(refuse(format!("{NOT_FOUND} in the folder of `{file}`, and arbiter has no embedded board of that name (`standard`, `classic1913`, `world1914`, with `.map`, `.geography`, `.politics` or `.military`)"))),
                },
                Err(why) => {
                    return Err(ImportError {
                        file: path.clone(),
                        from: file.to_string(),
                        line: ln,
                        why,
                    })
                }
            };
            self.depth += 1;
            let read_it = self.file(&path, &sub, read);
            self.depth -= 1;
            read_it?;
        }
        Ok(())
    }

    /// `BEGIN Spring 1901 Movement`: the phase the game starts in, any of the standard
    /// year's: `Spring|Fall … Movement`, `Winter … Adjustments` (builds before any
    /// move), or `Spring|Fall … Retreats`, which with nobody dislodged at the start
    /// DPjudge passes at once (the map starts in the next phase, noted). A season or
    /// kind outside the standard year (a `FLOW` of its own) is refused.
    fn begin_line(&mut self, l: &Line) {
        let (file, ln, raw, words) = (l.file, l.ln, l.raw, &l.words);
        let said = raw.trim();
        let season = words
            .get(1)
            .map(|s| s.to_ascii_lowercase())
            .unwrap_or_default();
        let year = words.get(2).and_then(|y| y.parse::<i32>().ok());
        let kind = words
            .get(3)
            .map(|s| s.to_ascii_uppercase())
            .unwrap_or_default();
        let kind = match kind.as_str() {
            "" => None,
            "M" | "MOVE" | "MOVES" | "MOVEMENT" | "MOVEMENTS" => Some('M'),
            "R" | "RETREAT" | "RETREATS" => Some('R'),
            "A" | "B" | "BUILDS" | "ADJUSTMENT" | "ADJUSTMENTS" => Some('A'),
            _ => Some('?'),
        };
        let Some(y) = year.filter(|_| matches!(season.as_str(), "spring" | "fall" | "winter"))
        else {
            self.refuse(file, ln, format!("`{said}`: cannot read the first phase: write `BEGIN` with a season of the standard year (Spring, Fall, Winter), a year and the phase (Movement, Retreats, Adjustments), e.g. `BEGIN Winter 1900 Adjustments`; the map starts in Spring 1901"));
            return;
        };
        if let Some(problem) = super::year_problem(i64::from(y)) {
            self.refuse(
                file,
                ln,
                format!("`{said}`: {problem}; the map cannot start there"),
            );
            return;
        }
        if words.len() > 4 {
            self.refuse(file, ln, format!("`{said}`: `BEGIN` takes a season, a year and a phase; the words after `{}` are not read", words[3]));
        }
        match (season.as_str(), kind) {
            (_, Some('?')) | ("winter", Some('M' | 'R')) | ("spring" | "fall", Some('A')) => {
                self.refuse(file, ln, format!("`{said}`: the standard year has Spring and Fall movement and retreats, and Winter adjustments; a phase of another kind needs a `FLOW` of its own, which arbiter does not read; the map starts in {} {y}", title(&season)));
                self.begin = Some((season, y));
            }
            ("spring" | "fall", Some('R')) => {
                let (next, kind) = if season == "spring" {
                    ("fall", "movement")
                } else {
                    ("winter", "adjustments")
                };
                self.note(file, ln, format!("`{said}`: nobody is dislodged at the start, so the retreat phase is passed at once (as DPjudge does): the map starts in {} {y} {kind}", title(next)));
                self.begin = Some((next.to_string(), y));
            }
            _ => self.begin = Some((season, y)),
        }
    }

    /// `OWNS`/`CENTERS`: the current power's other centres at the start (`CENTERS`
    /// replaces the list).
    fn owns_line(&mut self, l: &Line) {
        let (file, ln, raw, words, up) = (l.file, l.ln, l.raw, &l.words, &l.up);
        match self.power {
            Some(p) => {
                let list: Vec<String> = words
                    .iter()
                    .skip(1)
                    .map(|w| w.to_ascii_uppercase())
                    .collect();
                let pw = &mut self.powers[p];
                if up == "CENTERS" || !pw.owns_set {
                    pw.owns.clear();
                }
                let mut listed: HashSet<String> = pw.owns.iter().cloned().collect();
                for c in list {
                    if listed.insert(c.clone()) {
                        pw.owns.push(c);
                    }
                }
                pw.owns_set = true;
                pw.owns_at = (file.to_string(), ln);
            }
            None => self.note(
                file,
                ln,
                format!("`{}`: `{up}` before any power", raw.trim()),
            ),
        }
    }

    /// `A xxx`/`F xxx`: a starting unit of the current power (replacing any unit in the
    /// same province).
    fn unit_line(&mut self, l: &Line) {
        let (file, ln, raw, words, up) = (l.file, l.ln, l.raw, &l.words, &l.up);
        match (self.power, words.len()) {
            (Some(p), 2) => {
                let at = words
                    .get(1)
                    .map(|w| w.to_ascii_uppercase())
                    .unwrap_or_default();
                let prov = at.split('/').next().unwrap_or("").to_string();
                for pw in &mut self.powers {
                    pw.units
                        .retain(|(_, l)| l.split('/').next() != Some(prov.as_str()));
                }
                self.powers[p]
                    .units
                    .push((up.chars().next().unwrap_or('A'), at));
            }
            (None, _) => self.note(
                file,
                ln,
                format!("`{}`: a unit before any power", raw.trim()),
            ),
            _ => self.note(file, ln, format!("`{}`: cannot read the unit", raw.trim())),
        }
    }

    fn name_line(&mut self, file: &str, ln: usize, raw: &str) {
        let (left, right) = raw.split_once('=').unwrap_or((raw, ""));
        let mut full = left.trim().to_string();
        let words: Vec<&str> = right.split_whitespace().collect();
        let Some(abbr) = words.first() else {
            self.note(
                file,
                ln,
                format!("`{}`: a name line without an abbreviation", raw.trim()),
            );
            return;
        };
        if let Some((old, new)) = full.clone().split_once("->") {
            // `PIE -> Savoy = sav pie piedmont`: the place `PIE` becomes `SAV`
            // everywhere (its lines, its neighbours' lines, homes, centres, units), its
            // old names are forgotten, and this line gives its new ones.
            full = new.trim().to_string();
            let old = old.trim().to_ascii_uppercase();
            if old.contains(char::is_whitespace) || old.is_empty() {
                self.note(file, ln, format!("`{}`: a rename names the old place by its abbreviation (`PIE -> Savoy = sav …`); not carried over", raw.trim()));
            } else if !self.rename_place(&old, &abbr.to_ascii_uppercase()) {
                self.note(
                    file,
                    ln,
                    format!("`{}`: no place `{old}` to rename", raw.trim()),
                );
            }
        }
        let mut aliases = Vec::new();
        for a in words.get(1..).unwrap_or_default() {
            if let Some(a) = a.strip_suffix('?') {
                self.note(
                    file,
                    ln,
                    format!("`{a}?`: an ambiguous alias is not carried over"),
                );
                continue;
            }
            aliases.push(a.replace('+', " ").to_lowercase());
        }
        self.names.insert(
            abbr.to_lowercase(),
            NameLine {
                full,
                aliases,
                file: file.to_string(),
                line: ln,
            },
        );
    }

    fn terrain(&mut self, file: &str, ln: usize, words: &[&str]) {
        let (Some(kind), Some(written)) = (words.first(), words.get(1)) else {
            return;
        };
        let kind = kind.to_ascii_uppercase();
        let written = written.to_string();
        let key = written.to_ascii_uppercase();
        if words
            .get(2)
            .is_some_and(|w| !w.eq_ignore_ascii_case("ABUTS"))
        {
            self.note(
                file,
                ln,
                format!(
                    "`{}` has no `ABUTS`: its neighbours are not read",
                    words.join(" ")
                ),
            );
        }
        let idx = match self.place_at.get(&key) {
            Some(&i) => {
                if kind != "AMEND" {
                    self.places[i].kind = kind.clone();
                    self.places[i].written = written.clone();
                    if words.len() > 2 {
                        self.places[i].abuts.clear();
                    }
                }
                i
            }
            None => {
                if kind == "AMEND" {
                    self.note(
                        file,
                        ln,
                        format!("`AMEND {written}`: no such place to amend"),
                    );
                    return;
                }
                if !self.size_limits(file, ln, &written, &key) {
                    return;
                }
                self.places.push(Place {
                    written: written.clone(),
                    kind: kind.clone(),
                    abuts: Vec::new(),
                    file: file.to_string(),
                    line: ln,
                });
                self.place_at.insert(key.clone(), self.places.len() - 1);
                self.places.len() - 1
            }
        };
        if words.len() <= 3
            || !words
                .get(2)
                .is_some_and(|w| w.eq_ignore_ascii_case("ABUTS"))
        {
            return;
        }
        for d in words.get(3..).unwrap_or_default() {
            if let Some(gone) = d.strip_prefix('-') {
                let g = gone.to_ascii_uppercase();
                self.places[idx]
                    .abuts
                    .retain(|a| !a.text.to_ascii_uppercase().starts_with(&g));
                continue;
            }
            let mut dest = d.to_string();
            if dest.matches(':').count() == 1 {
                let (who, rest) = dest.split_once(':').unwrap_or(("", ""));
                self.note(file, ln, format!("`{d}` ({key}): only units of power `{who}` may use this border in DPjudge; imported as an ordinary border"));
                dest = rest.to_string();
            }
            if dest.matches('(').count() == 1 && dest.ends_with(')') {
                let (place, need) = dest.split_once('(').unwrap_or(("", ""));
                self.note(file, ln, format!("`{d}` ({key}): only the owner of `{}` may use this border in DPjudge; imported as an ordinary border", need.trim_end_matches(')')));
                dest = place.to_string();
            }
            let trimmed = dest
                .trim_matches(|c: char| !c.is_alphanumeric())
                .to_string();
            if trimmed != dest {
                self.note(file, ln, format!("`{d}` ({key}): the special border marker is not carried over; imported as an ordinary border"));
                dest = trimmed;
            }
            if dest.is_empty() {
                self.note(
                    file,
                    ln,
                    format!("`{d}` ({key}): cannot read this neighbour"),
                );
                continue;
            }
            self.places[idx].abuts.push(Abut {
                text: dest,
                file: file.to_string(),
                line: ln,
            });
        }
    }

    fn homes(&mut self, p: usize, words: &[&str], file: &str, ln: usize) {
        for w in words {
            let mut h = w.to_ascii_uppercase();
            let mut remove = false;
            while let Some(c) = h.chars().next().filter(|c| "-*+~@".contains(*c)) {
                match c {
                    '-' => remove = true,
                    '*' => self.note(file, ln, format!("`{w}`: a partisan site is not carried over")),
                    '+' => self.note(file, ln, format!("`{w}`: a factory (a build site that is not a centre) is not carried over")),
                    '~' => self.note(file, ln, format!("`{w}`: a hidden home centre is imported as an ordinary one")),
                    _ => self.note(file, ln, format!("`{w}`: an alternative home centre is imported as an ordinary one")),
                }
                h.remove(0);
            }
            if let Some(i) = h.find('(') {
                self.note(
                    file,
                    ln,
                    format!("`{w}`: limits on a home centre are not carried over"),
                );
                h.truncate(i);
            }
            if h.is_empty() || w.starts_with('*') || w.starts_with('+') {
                continue;
            }
            if h == "&SC" {
                // Not a place: the power builds in any centre it owns.
                self.powers[p].build_any = !remove;
                self.powers[p].build_any_at = (file.to_string(), ln);
                continue;
            }
            self.powers[p].homes.retain(|x| *x != h);
            self.unowned.retain(|x| *x != h);
            if !remove {
                self.powers[p].homes.push(h);
            }
        }
    }

    fn power_line(&mut self, file: &str, ln: usize, raw: &str, words: &[&str]) {
        let mut words: Vec<&str> = words.to_vec();
        let Some(first) = words.first() else {
            return;
        };
        let mut up = first.to_ascii_uppercase();
        if words.len() > 2 && words.get(1) == Some(&"->") {
            // `ENGLAND -> BRITAIN (BRITISH)`: the power keeps its homes, centres and
            // units under its new name; its old adjective is forgotten.
            let old = power_key(&up);
            words.drain(..2);
            up = words
                .first()
                .map(|w| w.to_ascii_uppercase())
                .unwrap_or_default();
            let new = power_key(&up);
            match self.power_at.get(&old).copied() {
                Some(p) if !self.power_at.contains_key(&new) || new == old => {
                    self.power_at.remove(&old);
                    self.power_at.insert(new.clone(), p);
                    let pw = &mut self.powers[p];
                    pw.key = new;
                    pw.name = title(
                        words
                            .first()
                            .copied()
                            .unwrap_or_default()
                            .trim_start_matches('_'),
                    );
                    pw.adjective.clear();
                }
                Some(_) => self.note(
                    file,
                    ln,
                    format!(
                        "`{}`: a power `{new}` exists already; the rename is not carried over",
                        raw.trim()
                    ),
                ),
                None => self.note(
                    file,
                    ln,
                    format!("`{}`: no power `{old}` to rename", raw.trim()),
                ),
            }
        }
        let first = words.first().copied().unwrap_or_default();
        if up == "UNOWNED" || up == "NEUTRAL" {
            self.power = None;
            let mut listed: HashSet<String> = self.unowned.iter().cloned().collect();
            for w in words.get(1..).unwrap_or_default() {
                let h = w.to_ascii_uppercase();
                if listed.insert(h.clone()) {
                    self.unowned.push(h);
                }
            }
            return;
        }
        let key = power_key(&up);
        let p = match self.power_at.get(&key) {
            Some(&p) => p,
            None if self.powers.len() >= super::MAX_POWERS => {
                // Past the limit a map could not load anyway; each power more would
                // only make the map written, and its check, grow with the file.
                self.refuse(
                    file,
                    ln,
                    format!(
                        "`{}`: a map has at most {} powers; this one is not carried over (nor the lines under it)",
                        raw.trim(),
                        super::MAX_POWERS
                    ),
                );
                self.power = None;
                return;
            }
            None => {
                self.powers.push(PowerDef {
                    key: key.clone(),
                    name: title(first.trim_start_matches('_')),
                    file: file.to_string(),
                    line: ln,
                    ..PowerDef::default()
                });
                self.power_at.insert(key.clone(), self.powers.len() - 1);
                self.powers.len() - 1
            }
        };
        self.power = Some(p);
        let mut rest = words.get(1..).unwrap_or_default();
        if let Some(w) = rest.first().filter(|w| w.starts_with('(')) {
            let inner = w.trim_start_matches('(').trim_end_matches(')');
            let adj = inner.split(':').next().unwrap_or("");
            self.powers[p].adjective = if adj.is_empty() {
                title(first)
            } else {
                title(adj)
            };
            rest = rest.get(1..).unwrap_or_default();
        }
        if self.powers[p].adjective.is_empty() {
            self.powers[p].adjective = self.powers[p].name.clone();
        }
        let reinit = self.powers[p].reinit_homes;
        if reinit && !rest.is_empty() {
            self.powers[p].homes.clear();
            self.powers[p].reinit_homes = false;
        }
        self.homes(p, rest, file, ln);
    }

    /// Rename the place `old` (an upper-case abbreviation) to `new` everywhere: its
    /// place lines and those of its coasts, every neighbour naming it (in the same
    /// case), homes, centres and units; its name lines are forgotten (its coasts'
    /// are kept under the new name). False if there is no such place, or `new` is
    /// another place already (noted by the caller as nothing renamed).
    fn rename_place(&mut self, old: &str, new: &str) -> bool {
        if old.contains('/') {
            return self.rename_coast(old, new);
        }
        let prov = |w: &str| w.split('/').next().unwrap_or_default().to_ascii_uppercase();
        let exists = |r: &Reader, k: &str| {
            r.places.iter().any(|p| prov(&p.written) == k)
                || r.names.contains_key(&k.to_ascii_lowercase())
        };
        if !exists(self, old) || (old != new && self.places.iter().any(|p| prov(&p.written) == new))
        {
            return false;
        }
        // The same word in the case it was written in: `PIE`/`pie`/`Pie`.
        let recase = |w: &str| -> Option<String> {
            let (head, rest) = match w.split_once('/') {
                Some((h, r)) => (h, format!("/{r}")),
                None => (w, String::new()),
            };
            if !head.eq_ignore_ascii_case(old) {
                return None;
            }
            let h = if head == head.to_ascii_lowercase() {
                new.to_ascii_lowercase()
            } else if is_mixed(head) {
                title(new)
            } else {
                new.to_string()
            };
            Some(h + &rest)
        };
        self.rewrite_places(recase);
        let (lo, lnew) = (old.to_ascii_lowercase(), new.to_ascii_lowercase());
        self.names.remove(&lo);
        let coast_names: Vec<String> = self
            .names
            .keys()
            .filter(|k| k.starts_with(&format!("{lo}/")))
            .cloned()
            .collect();
        for k in coast_names {
            if let Some(n) = self.names.remove(&k) {
                self.names.insert(format!("{lnew}{}", &k[lo.len()..]), n);
            }
        }
        let up = |list: &mut Vec<String>| {
            for h in list.iter_mut() {
                if let Some(w) = recase(h) {
                    *h = w.to_ascii_uppercase();
                }
            }
        };
        for pw in &mut self.powers {
            up(&mut pw.homes);
            up(&mut pw.owns);
            for (_, l) in &mut pw.units {
                if let Some(w) = recase(l) {
                    *l = w.to_ascii_uppercase();
                }
            }
        }
        up(&mut self.unowned);
        true
    }

    /// Rename a coast (`BUL/EC` to `BUL/OK`, both upper case, of one province): its
    /// line, every neighbour naming it, units on it; its name line is forgotten.
    fn rename_coast(&mut self, old: &str, new: &str) -> bool {
        let same_prov = old.split('/').next() == new.split('/').next();
        let known = self.place(old).is_some() || self.names.contains_key(&old.to_ascii_lowercase());
        if !same_prov || !known || (old != new && self.place(new).is_some()) {
            return false;
        }
        let recase = |w: &str| -> Option<String> {
            if !w.eq_ignore_ascii_case(old) {
                None
            } else if w == w.to_ascii_lowercase() {
                Some(new.to_ascii_lowercase())
            } else if is_mixed(w) {
                Some(title(&new.replace('/', " /")).replace(" /", "/"))
            } else {
                Some(new.to_string())
            }
        };
        self.rewrite_places(recase);
        self.names.remove(&old.to_ascii_lowercase());
        for pw in &mut self.powers {
            for (_, l) in &mut pw.units {
                if l.eq_ignore_ascii_case(old) {
                    *l = new.to_string();
                }
            }
        }
        true
    }

    /// The place line of a province or location (`SPA`, `spa`, `SPA/NC`).
    fn place(&self, key: &str) -> Option<&Place> {
        self.place_at
            .get(&key.to_ascii_uppercase())
            .map(|&i| &self.places[i])
    }

    /// The terrain of a province: its own line, else its first coast line.
    fn prov_kind(&self, prov: &str) -> Option<&str> {
        if let Some(p) = self.place(prov) {
            return Some(&p.kind);
        }
        // Not its own line: the first line of the province is one of its coasts'.
        self.first_place(prov).map(|p| p.kind.as_str())
    }

    /// The first place line of a province (its own, or one of its coasts'), from the
    /// index [`Reader::finish`] makes once the names are final.
    fn first_place(&self, prov: &str) -> Option<&Place> {
        self.first_at
            .get(&prov.to_ascii_uppercase())
            .and_then(|&i| self.places.get(i))
    }

    /// The YAML map and the notes: the header, the centres and the victory threshold,
    /// the powers, each province, then the names and centres that have no place line.
    fn finish(mut self, file: &str, name: String) -> Imported {
        let mut notes = Vec::new();
        self.visible_names(&mut notes);
        self.safe_names(&mut notes);
        self.safe_power_ids(&mut notes);
        for (i, p) in self.places.iter().enumerate() {
            let up = p.written.to_ascii_uppercase();
            let prov = up.split('/').next().unwrap_or_default().to_string();
            self.first_at.entry(prov).or_insert(i);
        }
        let (provs, coasts_of) = self.province_order();
        let mut out = String::new();
        let _ = writeln!(out, "# Imported from {file} by `arbiter map import`.");
        let _ = writeln!(
            out,
            "# Check it with `arbiter map check`; see docs/MAPS.md for the schema."
        );
        let _ = writeln!(out, "name: {}", scalar(&name));
        let (season, year) = self.begin.clone().unwrap_or(("spring".into(), 1901));
        let _ = writeln!(out, "start: {{season: {season}, year: {year}}}");
        let centres = self.centres(&mut notes);
        let victory = self.victory_threshold(file, &centres.all, &mut notes);
        let _ = writeln!(out, "victory: {victory}");
        if self.builds_owned(&mut notes) {
            let _ = writeln!(out, "builds: owned");
        } else if let Some(rule) = self.base_builds {
            let _ = writeln!(out, "builds: {}", rule.name());
        }
        let owns = self.starting_owns(&centres, &mut notes);
        self.write_powers(&owns, &mut out);
        let _ = writeln!(out, "provinces:");
        for prov in &provs {
            self.write_province(prov, &centres, &coasts_of, &mut out, &mut notes);
        }
        self.unplaced(&coasts_of, &mut notes);
        let mut all = std::mem::take(&mut self.notes);
        all.extend(notes.into_iter().map(|mut n| {
            n.message = super::names::cut_quotes(n.message);
            n
        }));
        // In reading order: by file (as first read; a file never read last), then line.
        let order = |f: &str| {
            let first_read = self.read_order.iter().position(|x| x == f);
            (first_read.is_none(), first_read)
        };
        all.sort_by_key(|n| (order(&n.file), n.line));
        let mut refused = std::mem::take(&mut self.refused);
        refused.sort_by_key(|n| (order(&n.file), n.line));
        let origins = self.origins(&out);
        Imported {
            origins,
            name,
            yaml: out,
            notes: all,
            refused,
            powers: self.powers.len(),
            provinces: provs.len(),
        }
    }

    /// Where each line of the YAML written by [`Reader::finish`] was read from: a power's
    /// lines from its power line; a province's from its place line, its `name` and
    /// `aliases` from its name line, each neighbour of a list from the line that gave it;
    /// a coast's likewise. Lines of no one place (the header) have none.
    fn origins(&self, yaml: &str) -> Vec<Origin> {
        let mut out = Vec::new();
        let mut section = "";
        // The place line (upper case key) of the province or coast being read, and its
        // name line's key (lower case).
        let mut prov = String::new();
        let mut place: Option<&Place> = None;
        let mut name_key = String::new();
        let mut power: Option<&PowerDef> = None;
        for (i, text) in yaml.lines().enumerate() {
            let yaml_line = i + 1;
            let t = text.trim_start();
            let indent = text.len() - t.len();
            if indent == 0 {
                section = if t.starts_with("powers:") {
                    "powers"
                } else if t.starts_with("provinces:") {
                    "provinces"
                } else {
                    ""
                };
                continue;
            }
            let value = |key: &str| t.strip_prefix(key).map(|v| v.trim().trim_matches('"'));
            let mut at = |file: &str, line: usize, item: Option<String>| {
                out.push(Origin {
                    yaml_line,
                    item,
                    file: file.to_string(),
                    line,
                });
            };
            match section {
                "powers" => {
                    if let Some(id) = value("- id:") {
                        power = self.powers.iter().find(|p| p.key.eq_ignore_ascii_case(id));
                    }
                    if let Some(p) = power {
                        at(&p.file, p.line, None);
                    }
                }
                "provinces" => {
                    if let Some(id) = value("- id:") {
                        let key = id.to_ascii_uppercase();
                        if indent == 2 {
                            prov = key.clone();
                            name_key = id.to_ascii_lowercase();
                            place = self.place(&key).or_else(|| self.first_place(&key));
                        } else {
                            let loc = format!("{prov}/{key}");
                            name_key = loc.to_ascii_lowercase();
                            place = self.place(&loc).or(place);
                        }
                    }
                    let names = self.names.get(&name_key);
                    match (names, value("name:").or(value("aliases:"))) {
                        (Some(n), Some(_)) => at(&n.file, n.line, None),
                        _ => {
                            if let Some(p) = place {
                                at(&p.file, p.line, None);
                                if t.starts_with("army:") || t.starts_with("fleet:") {
                                    for a in &p.abuts {
                                        at(&a.file, a.line, Some(a.text.to_ascii_lowercase()));
                                    }
                                }
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// Provinces, in the order their first place line appears, and the coasts of each.
    fn province_order(&self) -> (Vec<String>, HashMap<String, Vec<String>>) {
        let mut provs: Vec<String> = Vec::new();
        let mut listed: HashSet<String> = HashSet::new();
        let mut coasts_of: HashMap<String, Vec<String>> = HashMap::new();
        for p in &self.places {
            let key = p.written.to_ascii_uppercase();
            let (prov, coast) = match key.split_once('/') {
                Some((a, b)) => (a.to_string(), Some(b.to_string())),
                None => (key.clone(), None),
            };
            if listed.insert(prov.clone()) {
                provs.push(prov.clone());
            }
            if let Some(c) = coast {
                coasts_of.entry(prov).or_default().push(c);
            }
        }
        (provs, coasts_of)
    }

    /// Centres and homes: every centre (homes, owned, unowned), and the one power each
    /// home centre goes to (a home centre of two powers is noted).
    fn centres(&self, notes: &mut Vec<Note>) -> Centres {
        let mut centres: Vec<String> = Vec::new();
        // The centres listed so far: each is looked up once, not in the list.
        let mut set: HashSet<String> = HashSet::new();
        let mut home_of: HashMap<String, usize> = HashMap::new();
        for (i, pw) in self.powers.iter().enumerate() {
            for h in &pw.homes {
                if let Some(&o) = home_of.get(h) {
                    notes.push(Note {
                        file: pw.file.clone(),
                        line: pw.line,
                        message: format!(
                            "`{h}` is a home centre of both {} and {}: DPjudge allows a shared home centre, arbiter gives it to {}",
                            self.powers[o].name, pw.name, self.powers[o].name
                        ),
                    });
                } else {
                    home_of.insert(h.clone(), i);
                }
            }
            for h in pw.homes.iter().chain(&pw.owns).filter(|h| !chosen(h)) {
                if set.insert(h.clone()) {
                    centres.push(h.clone());
                }
            }
        }
        for h in &self.unowned {
            if set.insert(h.clone()) {
                centres.push(h.clone());
            }
        }
        Centres {
            all: centres,
            set,
            home_of,
        }
    }

    /// The `VICTORY` threshold, else a majority of the centres (noted).
    fn victory_threshold(&self, file: &str, centres: &[String], notes: &mut Vec<Note>) -> usize {
        match self.victory {
            Some(v) => v as usize,
            None => {
                let v = centres.len() / 2 + 1;
                notes.push(Note {
                    file: file.to_string(),
                    line: 0,
                    message: format!(
                        "no `VICTORY` line: victory is set to {v}, a majority of the {} centres",
                        centres.len()
                    ),
                });
                v
            }
        }
    }

    /// The coast words a fleet could misread a place name as: for each normalized
    /// coast word (`sc`, `south`, `scs`, …), each coast of that id (`spa/sc`) with
    /// each province a fleet there borders (upper case).
    fn coast_reach(&self) -> HashMap<String, Vec<(String, String)>> {
        let mut reach: HashMap<String, Vec<(String, String)>> = HashMap::new();
        let mut scratch = Vec::new();
        for p in &self.places {
            let up = p.written.to_ascii_uppercase();
            let Some((prov, c)) = up.split_once('/') else {
                continue;
            };
            let cid = c.to_ascii_lowercase();
            let cname = self
                .names
                .get(&format!("{}/{cid}", prov.to_ascii_lowercase()))
                .and_then(|n| {
                    let (a, b) = (n.full.find('(')?, n.full.rfind(')')?);
                    (b > a).then(|| title(&n.full[a + 1..b]))
                })
                .unwrap_or_else(|| coast_name(&cid));
            let near: Vec<String> = self
                .fleet_list(p, &mut scratch)
                .iter()
                .map(|t| t.split('/').next().unwrap_or_default().to_ascii_uppercase())
                .collect();
            for (w, bare) in super::names::coast_forms(&cid, &cname, &[]) {
                if bare && w.len() > 1 {
                    let e = reach.entry(w).or_default();
                    e.extend(near.iter().map(|q| (up.to_ascii_lowercase(), q.clone())));
                }
            }
        }
        reach
    }

    /// Places whose abbreviation an order could misread (an order word, or a coast
    /// word a fleet on that coast borders them by) get a safe id; such aliases are
    /// dropped. Each is noted.
    /// Names (of powers, their adjectives, of provinces and their aliases) without a
    /// control or invisible character, which the loader refuses or a reader cannot
    /// see (`BL\e[2JUE` → `Bl[2jue`, a right-to-left mark dropped, a no-break space
    /// a space): each such name noted. A power's name with nothing left is its id.
    fn visible_names(&mut self, notes: &mut Vec<Note>) {
        fn visible(s: &str) -> Option<String> {
            let hidden = |c: char| crate::yaml::is_invisible(c) || crate::yaml::breaks_a_name(c);
            if !s.chars().any(hidden) {
                return None;
            }
            let t: String = s
                .chars()
                .filter_map(|c| match c {
                    c if crate::yaml::reads_as_space(c) => Some(' '),
                    c if hidden(c) => None,
                    c => Some(c),
                })
                .collect();
            Some(t.split_whitespace().collect::<Vec<_>>().join(" "))
        }
        let note = |notes: &mut Vec<Note>, file: &str, line: usize, what: &str, old: &str| {
            notes.push(Note {
                file: file.to_string(),
                line,
                message: format!(
                    "{what} `{}` holds a control or invisible character: imported without it",
                    old.escape_debug()
                ),
            });
        };
        for pw in &mut self.powers {
            if let Some(t) = visible(&pw.name) {
                note(notes, &pw.file, pw.line, "the power's name", &pw.name);
                pw.name = if t.chars().any(char::is_alphanumeric) {
                    t
                } else {
                    title(&pw.key)
                };
            }
            if let Some(t) = visible(&pw.adjective) {
                note(
                    notes,
                    &pw.file,
                    pw.line,
                    "the power's adjective",
                    &pw.adjective,
                );
                pw.adjective = if t.chars().any(char::is_alphanumeric) {
                    t
                } else {
                    pw.name.clone()
                };
            }
        }
        for n in self.names.values_mut() {
            if let Some(t) = visible(&n.full) {
                note(notes, &n.file, n.line, "the name", &n.full);
                n.full = t;
            }
            for a in &mut n.aliases {
                if let Some(t) = visible(a) {
                    note(notes, &n.file, n.line, "the alias", a);
                    *a = t;
                }
            }
        }
        self.short_names(notes);
    }

    /// Names, adjectives and aliases cut to [`super::MAX_NAME_CHARS`] characters (at a
    /// word where one ends near the cut), as the loader takes them; each cut noted.
    fn short_names(&mut self, notes: &mut Vec<Note>) {
        let max = super::MAX_NAME_CHARS;
        let cut = |s: &mut String, what: &str, file: &str, line: usize, notes: &mut Vec<Note>| {
            let n = s.chars().count();
            if n <= max {
                return;
            }
            let head: String = s.chars().take(max).collect();
            let head = match head.rfind(' ').filter(|&i| i > max / 2) {
                Some(i) => head.get(..i).unwrap_or(&head).trim_end().to_string(),
                None => head,
            };
            notes.push(Note {
                file: file.to_string(),
                line,
                message: format!(
                    "{what} is {n} characters long: cut to `{head}` (a map's names are at most \
                     {max} characters)"
                ),
            });
            *s = head;
        };
        for pw in &mut self.powers {
            cut(&mut pw.name, "the power's name", &pw.file, pw.line, notes);
            cut(
                &mut pw.adjective,
                "the power's adjective",
                &pw.file,
                pw.line,
                notes,
            );
        }
        for n in self.names.values_mut() {
            cut(&mut n.full, "the name", &n.file, n.line, notes);
            for a in &mut n.aliases {
                cut(a, "an alias", &n.file, n.line, notes);
            }
        }
    }

    fn safe_names(&mut self, notes: &mut Vec<Note>) {
        if self.order_words.is_empty() {
            return;
        }
        let reach = self.coast_reach();
        let why = |r: &Reader, word: &str, prov: &str| -> Option<String> {
            let norm = super::names::normalize(word);
            if r.order_words.contains(&norm) {
                return Some("an order word".to_string());
            }
            let at = reach.get(&norm)?.iter().find(|(_, q)| q == prov)?;
            let c = at.0.split('/').nth(1).unwrap_or_default();
            Some(format!(
                "a coast word (`{c}`): a fleet on `{}` moving there would be read as naming its coast",
                at.0
            ))
        };
        let (provs, _) = self.province_order();
        for prov in provs {
            let lo = prov.to_ascii_lowercase();
            // Aliases first: dropped where they could be misread.
            if let Some(mut n) = self.names.get(&lo).cloned() {
                let before = n.aliases.len();
                let mut kept = Vec::new();
                for a in std::mem::take(&mut n.aliases) {
                    match why(self, &a, &prov) {
                        Some(w) => notes.push(Note { file: n.file.clone(), line: n.line, message: format!("alias `{a}` of `{lo}` is {w}: an order could misread it, so it is not carried over") }),
                        None => kept.push(a),
                    }
                }
                n.aliases = kept;
                if n.aliases.len() != before {
                    self.names.insert(lo.clone(), n);
                }
            }
            let Some(w) = why(self, &lo, &prov) else {
                continue;
            };
            let full = self
                .names
                .get(&lo)
                .map(|n| n.full.clone())
                .unwrap_or_else(|| prov.clone());
            let Some(new) = self.safe_id(&full, &lo, &reach) else {
                continue;
            };
            let nl = self.names.get(&lo).cloned();
            let at = nl
                .as_ref()
                .map(|n| (n.file.clone(), n.line))
                .or_else(|| self.place(&prov).map(|p| (p.file.clone(), p.line)))
                .unwrap_or_default();
            if self.rename_place(&prov, &new.to_ascii_uppercase()) {
                if let Some(n) = nl {
                    self.names.insert(new.clone(), n);
                }
                notes.push(Note { file: at.0, line: at.1, message: format!("`{lo}` ({full}) is {w}: imported under the id `{new}`; `{lo}` is not kept as an alias, since an order could misread it") });
            }
        }
    }

    /// Power ids that are words ([`super::build::is_power_id`]) and not reserved
    /// (`year`, `unowned`: a reserved key gets a number, `year2`): a key with other
    /// characters (`=HYPERLINK("X")`, `A<B`) keeps its ASCII letters, digits, `_` and
    /// `-`, the others becoming `_` (a number added if the id is taken), noted.
    fn safe_power_ids(&mut self, notes: &mut Vec<Note>) {
        let mut taken: HashSet<String> = self
            .powers
            .iter()
            .filter(|p| usable_power_id(&p.key))
            .map(|p| p.key.to_ascii_lowercase())
            .collect();
        for pw in &mut self.powers {
            if usable_power_id(&pw.key) {
                continue;
            }
            let why = if super::build::is_power_id(&pw.key) {
                "an id that is reserved (`centres --format csv` has a column of that name)"
            } else {
                "an id that is not a word"
            };
            let word: String = pw
                .key
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '-' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            let word = word.trim_start_matches(['_', '-']).trim_end_matches('_');
            let base = if word.is_empty() { "POWER" } else { word };
            let new = std::iter::once(base.to_string())
                .chain((2..).map(|k| format!("{base}{k}")))
                .find(|w| usable_power_id(w) && !taken.contains(&w.to_ascii_lowercase()))
                .unwrap_or_default();
            taken.insert(new.to_ascii_lowercase());
            notes.push(Note {
                file: pw.file.clone(),
                line: pw.line,
                message: format!(
                    "the power `{}` has {why}: imported under the id `{}`",
                    pw.key.escape_debug(),
                    new.to_ascii_lowercase()
                ),
            });
            pw.key = new;
        }
    }

    /// A safe id for the place named `full`: three letters of its name, beginning
    /// with its first (`Thebes` → `thb`), that are no order word, coast word, or name
    /// of the map; else `old` and a number.
    fn safe_id(
        &self,
        full: &str,
        old: &str,
        reach: &HashMap<String, Vec<(String, String)>>,
    ) -> Option<String> {
        let letters: Vec<char> = super::names::normalize(full)
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .take(12)
            .collect();
        let taken = |r: &Reader, w: &str| {
            r.order_words.contains(w)
                || reach.contains_key(w)
                || r.names.contains_key(w)
                || r.names
                    .values()
                    .any(|n| n.aliases.iter().any(|a| super::names::normalize(a) == w))
                || r.place(w).is_some()
                || r.places
                    .iter()
                    .any(|p| p.written.to_ascii_lowercase().split('/').next() == Some(w))
        };
        let first = letters.first().copied();
        if let Some(f) = first {
            for i in 1..letters.len() {
                for j in i + 1..letters.len() {
                    let w: String = [f, letters[i], letters[j]].iter().collect();
                    if !taken(self, &w) {
                        return Some(w);
                    }
                }
            }
        }
        (1..100)
            .map(|k| format!("{old}{k}"))
            .find(|w| !taken(self, w))
    }

    /// Whether every power builds in any centre it owns: `RULE BUILD_ANY`, or `&SC`
    /// among the home centres of every power. `&SC` for some powers only is noted
    /// (arbiter's build rule is the map's).
    fn builds_owned(&self, notes: &mut Vec<Note>) -> bool {
        if self.build_any {
            return true;
        }
        let some: Vec<&PowerDef> = self.powers.iter().filter(|p| p.build_any).collect();
        if !some.is_empty() && some.len() == self.powers.len() {
            return true;
        }
        for pw in some {
            notes.push(Note {
                file: pw.build_any_at.0.clone(),
                line: pw.build_any_at.1,
                message: format!("`&SC`: {} may build in any centre it owns in DPjudge; arbiter's build rule is the whole map's (`builds: owned` for every power), and the other powers build in their home centres: not carried over", pw.name),
            });
        }
        false
    }

    /// The `owns` of each power, as DPjudge means its `OWNS`/`CENTERS` lines: the
    /// centres a power starts with (without them, its home centres). Its own home
    /// centres are left out (a power owns them anyway); another power's home centre
    /// stays (it starts owned by this power instead). A home centre its power's list
    /// leaves out and no other power owns goes to the power's `unowned_homes`.
    fn starting_owns(&self, centres: &Centres, notes: &mut Vec<Note>) -> Vec<StartOwns> {
        let mut out = Vec::new();
        for (i, pw) in self.powers.iter().enumerate() {
            let (file, line) = pw.owns_at.clone();
            let mut owns = Vec::new();
            for c in &pw.owns {
                if chosen(c) {
                    notes.push(Note {
                        file: file.clone(),
                        line,
                        message: format!("`{c}` (a centre the player chooses) is not carried over"),
                    });
                } else if centres.home_of.get(c) != Some(&i) {
                    owns.push(c.clone());
                }
            }
            let mut unowned = Vec::new();
            if pw.owns_set {
                for h in &pw.homes {
                    let owned_by_other =
                        self.powers.iter().any(|o| o.owns_set && o.owns.contains(h));
                    if centres.home_of.get(h) == Some(&i) && !pw.owns.contains(h) && !owned_by_other
                    {
                        unowned.push(h.clone());
                    }
                }
            }
            out.push(StartOwns { owns, unowned });
        }
        out
    }

    /// The `powers:` list (`owns` from [`Reader::starting_owns`]).
    fn write_powers(&self, owns: &[StartOwns], out: &mut String) {
        let _ = writeln!(out, "powers:");
        for (i, pw) in self.powers.iter().enumerate() {
            let _ = writeln!(out, "  - id: {}", scalar(&pw.key.to_ascii_lowercase()));
            let _ = writeln!(out, "    name: {}", scalar(&pw.name));
            let _ = writeln!(out, "    adjective: {}", scalar(&pw.adjective));
            let homes: Vec<String> = pw.homes.iter().map(|h| h.to_ascii_lowercase()).collect();
            let _ = writeln!(out, "    home: {}", flow(&homes));
            let start = owns.get(i);
            for (key, list) in [
                ("owns", start.map(|s| &s.owns)),
                ("unowned_homes", start.map(|s| &s.unowned)),
            ] {
                if let Some(list) = list.filter(|l| !l.is_empty()) {
                    let ids: Vec<String> = list.iter().map(|h| h.to_ascii_lowercase()).collect();
                    let _ = writeln!(out, "    {key}: {}", flow(&ids));
                }
            }
            if !pw.units.is_empty() {
                let units: Vec<String> = pw
                    .units
                    .iter()
                    .map(|(k, l)| format!("{k} {}", l.to_ascii_lowercase()))
                    .collect();
                let _ = writeln!(out, "    units: {}", flow(&units));
            }
        }
    }

    /// One province: id, names, terrain, centre and home, army and fleet borders (or
    /// its coasts, each with its own).
    fn write_province(
        &self,
        prov: &str,
        centres: &Centres,
        coasts_of: &HashMap<String, Vec<String>>,
        out: &mut String,
        notes: &mut Vec<Note>,
    ) {
        let id = prov.to_ascii_lowercase();
        let coasts = coasts_of.get(prov).cloned().unwrap_or_default();
        let own = self.place(prov).cloned();
        let first = self.first_place(prov).cloned();
        let Some(first) = first else { return };
        let kind = own
            .as_ref()
            .map(|p| p.kind.clone())
            .unwrap_or(first.kind.clone());
        let ours = match kind.as_str() {
            "WATER" => "sea",
            "LAND" => "land",
            "SHUT" => "impassable",
            _ => "coast",
        };
        if kind == "PORT" {
            notes.push(Note {
                file: first.file.clone(),
                line: first.line,
                message: format!("`PORT {prov}` is imported as a coast province"),
            });
        }
        let _ = writeln!(out, "  - id: {}", scalar(&id));
        let s = ProvSrc {
            prov,
            nl: self.names.get(&id).cloned(),
            id,
            coasts,
            own,
            first,
        };
        self.write_names(&s, out, notes);
        let _ = writeln!(out, "    kind: {ours}");
        if centres.set.contains(prov) {
            let _ = writeln!(out, "    supply: true");
        }
        if let Some(&o) = centres.home_of.get(prov) {
            let _ = writeln!(
                out,
                "    home: {}",
                scalar(&self.powers[o].key.to_ascii_lowercase())
            );
        }
        let army = self.army_list(&s);
        if !army.is_empty() && ours != "sea" && ours != "impassable" {
            let _ = writeln!(out, "    army: {}", flow(&army));
        }
        let own = &s.own;
        if s.coasts.is_empty() {
            if let Some(p) = own
                .as_ref()
                .filter(|p| matches!(p.kind.as_str(), "WATER" | "COAST" | "PORT"))
            {
                let fleet = self.fleet_list(p, notes);
                if !fleet.is_empty() {
                    let _ = writeln!(out, "    fleet: {}", flow(&fleet));
                }
            }
        } else {
            self.write_coasts(&s, out, notes);
        }
    }

    /// A province's `name` and `aliases`, from its name line (noted when it has none).
    fn write_names(&self, s: &ProvSrc, out: &mut String, notes: &mut Vec<Note>) {
        let ProvSrc {
            prov,
            id,
            first,
            nl,
            ..
        } = s;
        match &nl {
            Some(n) => {
                let _ = writeln!(out, "    name: {}", scalar(&n.full));
                let own_names = [
                    super::names::normalize(id),
                    super::names::normalize(&n.full),
                ];
                let mut seen: Vec<String> = Vec::new();
                let mut aliases: Vec<String> = Vec::new();
                // Past the loader's limit (`TOO_MANY`), aliases are counted and noted.
                let mut over = 0;
                for a in &n.aliases {
                    if aliases.len() >= super::MAX_ALIASES {
                        over += 1;
                        continue;
                    }
                    let norm = super::names::normalize(a);
                    if norm.is_empty() || own_names.contains(&norm) || seen.contains(&norm) {
                        continue;
                    }
                    if a.contains('/') {
                        notes.push(Note {
                            file: n.file.clone(),
                            line: n.line,
                            message: format!(
                                "alias `{a}` of `{id}` names a coast: not carried over"
                            ),
                        });
                        continue;
                    }
                    seen.push(norm);
                    aliases.push(a.clone());
                }
                if over > 0 {
                    notes.push(Note {
                        file: n.file.clone(),
                        line: n.line,
                        message: format!(
                            "`{}`: {over} more aliases not carried over: a province may have at most {}",
                            super::names::cut_quote(id),
                            super::MAX_ALIASES
                        ),
                    });
                }
                if !aliases.is_empty() {
                    let _ = writeln!(out, "    aliases: {}", flow(&aliases));
                }
            }
            None => {
                notes.push(Note {
                    file: first.file.clone(),
                    line: first.line,
                    message: format!(
                        "`{prov}` has no full name (`Name = {id}`): its name is `{prov}`"
                    ),
                });
                let _ = writeln!(out, "    name: {}", scalar(prov));
            }
        }
    }

    /// Army borders, from the province's own line: every neighbour that is not itself,
    /// a fleet-only border, water or shut.
    fn army_list(&self, s: &ProvSrc) -> Vec<String> {
        let (prov, own) = (s.prov, &s.own);
        let mut army: Vec<String> = Vec::new();
        if let Some(p) = own
            .as_ref()
            .filter(|p| matches!(p.kind.as_str(), "LAND" | "COAST" | "PORT"))
        {
            for a in &p.abuts {
                if is_mixed(&a.text) {
                    continue;
                }
                let t = a.text.to_ascii_uppercase();
                let tp = t.split('/').next().unwrap_or("").to_string();
                if tp == *prov || matches!(self.prov_kind(&tp), Some("WATER" | "SHUT")) {
                    continue;
                }
                let tid = tp.to_ascii_lowercase();
                if !army.contains(&tid) {
                    army.push(tid);
                }
            }
        }
        army
    }

    /// The `coasts:` of a split province, each with its name and fleet borders (aliases
    /// arbiter does not derive itself are noted).
    fn write_coasts(&self, s: &ProvSrc, out: &mut String, notes: &mut Vec<Note>) {
        let ProvSrc {
            prov,
            id,
            coasts,
            own,
            first,
            nl,
        } = s;
        if let Some(p) = own
            .as_ref()
            .filter(|p| p.written == p.written.to_ascii_uppercase())
        {
            notes.push(Note { file: p.file.clone(), line: p.line, message: format!("`{}` is written in capitals but has coast lines: in DPjudge a fleet may also stand in it without a coast; arbiter requires the coast, and its own fleet borders are not carried over", p.written) });
        }
        if own.is_none() {
            notes.push(Note { file: first.file.clone(), line: first.line, message: format!("split province `{prov}` has no line of its own (`COAST {id} ABUTS …`): no army borders") });
        }
        let _ = writeln!(out, "    coasts:");
        for c in coasts {
            let cid = c.to_ascii_lowercase();
            let loc = format!("{prov}/{c}");
            let cname = self
                .names
                .get(&format!("{id}/{cid}"))
                .and_then(|n| {
                    let (a, b) = (n.full.find('(')?, n.full.rfind(')')?);
                    (b > a).then(|| title(&n.full[a + 1..b]))
                })
                .unwrap_or_else(|| coast_name(&cid));
            let mut coast_aliases: Vec<String> = Vec::new();
            if let Some(n) = self.names.get(&format!("{id}/{cid}")) {
                let mut places: Vec<String> = vec![super::names::normalize(id)];
                if let Some(pn) = &nl {
                    places.push(super::names::normalize(&pn.full));
                    places.extend(pn.aliases.iter().map(|a| super::names::normalize(a)));
                }
                let cn = super::names::normalize(&cname);
                let words = [
                    cid.clone(),
                    cn.clone(),
                    cn.split(' ').next().unwrap_or("").to_string(),
                ];
                // An alias of one word (`snc`) is carried over as the coast's; one that
                // names a coast another way (`spa/wc`) is reported.
                for a in &n.aliases {
                    let norm = super::names::normalize(a);
                    if derivable(a, &places, &words) || norm.is_empty() {
                        continue;
                    }
                    if a.contains(['/', '(', ')']) {
                        notes.push(Note { file: n.file.clone(), line: n.line, message: format!("alias `{a}` of `{id}/{cid}` is not carried over (arbiter reads `{id}/{cid}`, `{id}({cid})` and the coast's name in any spelling)") });
                    } else if !coast_aliases
                        .iter()
                        .any(|c| super::names::normalize(c) == norm)
                    {
                        coast_aliases.push(a.to_ascii_lowercase());
                    }
                }
            }
            let _ = writeln!(out, "      - id: {}", scalar(&cid));
            let _ = writeln!(out, "        name: {}", scalar(&cname));
            if !coast_aliases.is_empty() {
                let _ = writeln!(out, "        aliases: {}", flow(&coast_aliases));
            }
            let p = self.place(&loc).cloned();
            let fleet = p.map(|p| self.fleet_list(&p, notes)).unwrap_or_default();
            let _ = writeln!(out, "        fleet: {}", flow(&fleet));
        }
    }

    /// Names of places that have no terrain line, and centres that have none.
    fn unplaced(&self, coasts_of: &HashMap<String, Vec<String>>, notes: &mut Vec<Note>) {
        // Names of places that have no terrain line.
        for (k, n) in &self.names {
            let up = k.to_ascii_uppercase();
            if self.place(&up).is_none() && !self.power_at.contains_key(&up) {
                notes.push(Note {
                    file: n.file.clone(),
                    line: n.line,
                    message: format!(
                        "`{k}` has a name line but no terrain line: it is not on the map"
                    ),
                });
            }
        }
        for pw in &self.powers {
            for h in pw.homes.iter().chain(&pw.owns).filter(|h| !chosen(h)) {
                if self.place(h).is_none() && !coasts_of.contains_key(h) {
                    notes.push(Note {
                        file: pw.file.clone(),
                        line: pw.line,
                        message: format!("{}'s centre `{h}` has no terrain line", pw.name),
                    });
                }
            }
        }
    }

    /// The fleet borders of a place line.
    fn fleet_list(&self, p: &Place, notes: &mut Vec<Note>) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let me = p.written.to_ascii_uppercase();
        let me_prov = me.split('/').next().unwrap_or("").to_string();
        for a in &p.abuts {
            if a.text.chars().next().is_some_and(|c| c.is_lowercase()) {
                continue;
            }
            let t = a.text.to_ascii_uppercase();
            let tp = t.split('/').next().unwrap_or("").to_string();
            if tp == me_prov {
                continue;
            }
            match self.place(&t) {
                Some(q) if q.written != q.written.to_ascii_uppercase() => {
                    notes.push(Note { file: a.file.clone(), line: a.line, message: format!("`{}` ({me}): a fleet border to a split province must name the coast; not a fleet border in DPjudge either", a.text) });
                    continue;
                }
                Some(q) if matches!(q.kind.as_str(), "LAND" | "SHUT") => continue,
                Some(_) => {}
                None if matches!(self.prov_kind(&tp), Some("LAND" | "SHUT")) => continue,
                None => {}
            }
            let tid = t.to_ascii_lowercase();
            if !out.contains(&tid) {
                out.push(tid);
            }
        }
        out
    }
}

/// Does arbiter read the coast alias `a` (`spa(nc)`, `spain/nc`, `spa (north coast)`)
/// anyway: a name of the province and a word of the coast?
fn derivable(a: &str, places: &[String], coast_words: &[String]) -> bool {
    let (x, c) = if let Some(i) = a.rfind('/') {
        (&a[..i], &a[i + 1..])
    } else if let (Some(i), true) = (a.find('('), a.ends_with(')')) {
        (&a[..i], &a[i + 1..a.len() - 1])
    } else {
        return false;
    };
    let (x, c) = (super::names::normalize(x), super::names::normalize(c));
    places.contains(&x) && coast_words.iter().any(|w| super::names::normalize(w) == c)
}

/// A power's key: its name in upper case without `+`, `.` and the leading `_` that
/// only orders DPjudge's listings (`_BELGIUM` is `BELGIUM`).
fn power_key(up: &str) -> String {
    up.trim_start_matches('_').replace(['+', '.'], "")
}

/// `SC!`, `SC?`: a centre the player chooses (DPjudge's `MOBILIZE`), not a place.
/// A DPjudge key usable as a power id as it is: a word, not reserved.
fn usable_power_id(key: &str) -> bool {
    super::build::is_power_id(key) && !super::build::is_reserved_power_id(key)
}

fn chosen(c: &str) -> bool {
    c == "SC!" || c == "SC?"
}

/// A coast's name from its id: `nc` → `North Coast`.
fn coast_name(id: &str) -> String {
    match id {
        "nc" => "North Coast".into(),
        "sc" => "South Coast".into(),
        "ec" => "East Coast".into(),
        "wc" => "West Coast".into(),
        _ => id.to_ascii_uppercase(),
    }
}

/// A scalar as YAML: plain when it reads back as the same string, else double-quoted.
fn scalar(s: &str) -> String {
    let plain = !s.is_empty()
        && s.trim() == s
        && s.chars()
            .all(|c| c.is_alphanumeric() || " ._/()'-".contains(c))
        && !s.starts_with(['-', '\'', '.'])
        && s.parse::<f64>().is_err()
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n" | "~"
        );
    if plain {
        s.to_string()
    } else {
        let mut q = String::from("\"");
        for c in s.chars() {
            match c {
                '"' => q.push_str("\\\""),
                '\\' => q.push_str("\\\\"),
                c => q.push(c),
            }
        }
        q.push('"');
        q
    }
}

/// A flow list: `[a, b, c]`.
fn flow(items: &[String]) -> String {
    format!(
        "[{}]",
        items
            .iter()
            .map(|s| scalar(s))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_quote_what_yaml_would_misread() {
        assert_eq!(scalar("Adriatic Sea"), "Adriatic Sea");
        assert_eq!(scalar("St. Petersburg"), "St. Petersburg");
        assert_eq!(scalar("1901"), "\"1901\"");
        assert_eq!(scalar("no"), "\"no\"");
        assert_eq!(scalar("a: b"), "\"a: b\"");
        assert_eq!(scalar("x, y"), "\"x, y\"");
        assert_eq!(scalar("say \"hi\""), "\"say \\\"hi\\\"\"");
    }

    #[test]
    fn case_tells_the_unit_types() {
        let text = "\
Alpha = aaa
Beta = bbb
Sea = sss
Gamma = ccc
RED (REDDISH) AAA
RED
A AAA
COAST AAA ABUTS bbb SSS Ccc
COAST BBB ABUTS aaa SSS
WATER SSS ABUTS AAA BBB CCC
COAST CCC ABUTS Aaa SSS
";
        let mut read = |_: &str| Err("no includes".to_string());
        let imp = import("t.map", text, None, &mut read).unwrap();
        let map = crate::map::Map::from_yaml(&imp.yaml, "t.yaml")
            .unwrap_or_else(|e| panic!("{e}\n{}", imp.yaml));
        let id = |s| map.prov_by_id(s).unwrap();
        assert!(map.army_adjacent(id("aaa"), id("bbb")));
        assert!(!map.army_adjacent(id("aaa"), id("ccc")));
        assert!(map.fleet_adjacent(id("aaa").into(), id("ccc").into()));
        assert!(!map.fleet_adjacent(id("aaa").into(), id("bbb").into()));
        assert_eq!(map.name, "t");
        assert_eq!(map.victory, 1);
    }
}
