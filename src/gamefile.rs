//! Game files: one YAML file per game (format in `docs/GAMES.md`). This module owns
//! the file model ([`GameFile`], plain strings as written) and the validated game
//! ([`Game`]: typed positions and the history), the conversions between them, and the
//! pure steps a referee takes: judge the current phase with several order files,
//! record it, undo it, look a phase up, list the centres after each year. It does no
//! I/O: the binary reads and writes the file (atomically, with a backup).
//!
//! Loading checks everything: the format version first (a newer one is refused and
//! named), then that the file is complete (its last key is `complete: true`, so a cut
//! short file is caught), then the YAML shape (unknown keys refused), then every
//! position against the map, the order of the phases, and the end of the game.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::game::{advance, PhaseResult};
use crate::judge::nationality_warnings;
use crate::judge::{owed, Illegal, OrderResult, Outcome, Owed, Rules};
use crate::map::{Map, Power, Season, UnitKind};
use crate::orders::{parse_slip_at_most, Diagnostic, Order, OrderKind, ParseOptions, Unkept};
use crate::report::json::{orders as json_orders, owners_by_power, units_by_power};
use crate::report::text;
use crate::state::ForeignIds;
use crate::state::{
    slip_file_phase_diagnostic, slip_phase_diagnostics, DislodgedEntry, Phase, PhaseKind, Position,
};

/// The game-file format this arbiter writes, and the newest it reads.
pub const FORMAT_VERSION: u32 = 1;

// ---------------------------------------------------------------------------------
// The file model: what the YAML holds, as written.
// ---------------------------------------------------------------------------------

/// A game file as written (see `docs/GAMES.md`). Keys are written in this order;
/// `complete: true` is always last, so a file cut short lacks it.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    /// The format version ([`FORMAT_VERSION`]).
    pub arbiter_game: u32,
    pub name: String,
    /// The map's name (`standard`).
    pub map: String,
    /// The map file the game was created with, if the map is not embedded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map_file: Option<String>,
    /// The rules edition (`2023`).
    pub rules: String,
    /// A tournament game ends after this year's Fall turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_year: Option<i32>,
    /// The phase that needs orders now (`Fall 1901 retreat`).
    pub phase: String,
    /// Set when the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub over: Option<OverRecord>,
    /// The position now.
    pub position: PositionRecord,
    /// Every judged phase, oldest first.
    #[serde(default)]
    pub history: Vec<PhaseRecord>,
    /// Kept by `arbiter serve`: its links (token hashes) and the orders submitted but
    /// not yet judged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub serve: Option<ServeRecord>,
    /// Always `true`: written last, so a truncated file is recognised.
    pub complete: bool,
}

/// What `arbiter serve` keeps in a game file (docs/GAMES.md, docs/SERVE.md): a hash of
/// each link's secret token (never the token), and the orders the players have
/// submitted for the current phase, not yet judged.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq, Default)]
#[serde(deny_unknown_fields)]
pub struct ServeRecord {
    /// The SHA-256 (hex) of the referee's token.
    pub referee: String,
    /// Per power id: its player's link.
    #[serde(default)]
    pub links: BTreeMap<String, LinkRecord>,
    /// The phase the pending orders were submitted for (`Spring 1901 movement`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    /// Per power id: its orders as submitted (the slip's text), not yet judged.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub pending: BTreeMap<String, String>,
}

/// One player's link: which issue of the link is valid (the referee may issue new
/// ones, which ends the old) and the SHA-256 (hex) of its token.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq, Default)]
#[serde(deny_unknown_fields)]
pub struct LinkRecord {
    pub issue: u32,
    pub hash: String,
}

/// How the game ended: exactly one of the two is set.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct OverRecord {
    /// The power that reached the map's victory threshold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    /// The game's last year has been played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_year: Option<i32>,
}

/// A position without its phase: units by power (not the dislodged ones), supply-centre
/// owners by power, the dislodged units with their attacker and retreats, and the
/// builds saved for a colonial build by power (only powers with one).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct PositionRecord {
    pub units: BTreeMap<String, Vec<String>>,
    pub owners: BTreeMap<String, Vec<String>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dislodged: Vec<DislodgedEntry>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub saved: BTreeMap<String, u32>,
}

/// One order file as the referee gave it: its name and its whole text.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct OrderFile {
    /// The file name as given on the command line (`<stdin>` for `-`).
    pub file: String,
    /// The text exactly as read.
    pub text: String,
}

/// One order's result as the sheet reports it.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ResultRecord {
    /// The order file it was read from.
    pub file: String,
    /// The power it counts for (`null`: none).
    pub power: Option<String>,
    /// The order as written.
    pub order: String,
    /// Its canonical form (`A PAR - BUR`).
    pub canonical: String,
    /// `succeeds`, `fails`, `illegal` or `invalid` (the JSON outcome word).
    pub outcome: String,
    /// Why, in words (the JSON reason).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// One judged phase: the position before it (so undo is exact), the orders as typed,
/// their results, and the sheet printed.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct PhaseRecord {
    pub phase: String,
    /// The position the phase was judged from.
    pub position: PositionRecord,
    /// The order files, in the order given.
    pub orders: Vec<OrderFile>,
    /// Judged with `--accept` although some orders could not be read.
    #[serde(default, skip_serializing_if = "is_false")]
    pub accepted: bool,
    pub results: Vec<ResultRecord>,
    /// Phases with nothing to do, passed over after this one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
    /// The next phase that needs orders (`null`: the game ended here).
    pub next: Option<String>,
    /// The results sheet (Judge format, text).
    pub sheet: String,
}

fn is_false(b: &bool) -> bool {
    !*b
}

// ---------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------

/// Why a game file was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum GameFileError {
    #[error("the file is empty")]
    Empty,
    #[error("the file is not valid YAML ({0}): it is damaged or was cut short")]
    Yaml(String),
    #[error("not an arbiter game file: it has no `arbiter_game: <version>` line")]
    NotAGame,
    #[error("`arbiter_game` must be a format number such as {FORMAT_VERSION}, not `{0}`")]
    BadVersion(String),
    #[error(
        "the file was written by a newer arbiter (game-file format {0}); this arbiter reads \
         format {FORMAT_VERSION} and older: upgrade arbiter to open it"
    )]
    Newer(u64),
    #[error(
        "the file is incomplete: it does not end with `complete: true`, so it was probably \
         cut short (truncated)"
    )]
    Truncated,
    #[error("{0}")]
    Shape(String),
    #[error("the game is on map `{file}`, but the map loaded is `{loaded}`")]
    WrongMap { file: String, loaded: String },
    #[error("{at}: {what}")]
    Invalid { at: String, what: String },
    /// A position naming what the map lacks (a power, a place, a supply centre): the
    /// map may have changed since the game was played on it.
    #[error("{at}: {what}")]
    NotOnMap { at: String, what: String },
}

/// A position's error: [`GameFileError::NotOnMap`] when it names what the map lacks,
/// else [`GameFileError::Invalid`] (the real reason, with no word about the map).
fn position_invalid(at: &str, e: crate::state::PositionError) -> GameFileError {
    if e.names_what_the_map_lacks() {
        GameFileError::NotOnMap {
            at: at.to_string(),
            what: e.to_string(),
        }
    } else {
        invalid(at, e)
    }
}

fn invalid(at: impl Into<String>, what: impl std::fmt::Display) -> GameFileError {
    GameFileError::Invalid {
        at: at.into(),
        what: what.to_string(),
    }
}

impl GameFile {
    /// Read a game file's text: version, completeness and shape (not yet checked
    /// against its map: see [`Game::from_file`]).
    pub fn from_yaml(src: &str) -> Result<GameFile, GameFileError> {
        if src.trim().is_empty() {
            return Err(GameFileError::Empty);
        }
        let guarded = crate::yaml::guard(src).map_err(|e| GameFileError::Yaml(e.to_string()))?;
        // The header is read without a tree of the whole file (a `serde_yaml::Value`
        // of a large game took as much memory as the game itself, and was held while
        // the game was read): the same errors, the same checks.
        let header: header::Header =
            crate::yaml::read(src, guarded).map_err(|e| GameFileError::Yaml(e.placed()))?;
        if !header.mapping {
            return Err(GameFileError::NotAGame);
        }
        let version = header
            .arbiter_game
            .as_ref()
            .ok_or(GameFileError::NotAGame)?;
        let version = match version.as_u64() {
            Some(v) if v >= 1 => v,
            _ => {
                let shown = serde_yaml::to_string(version).unwrap_or_default();
                return Err(GameFileError::BadVersion(shown.trim().to_string()));
            }
        };
        if version > u64::from(FORMAT_VERSION) {
            return Err(GameFileError::Newer(version));
        }
        if header.complete.as_ref().and_then(|c| c.as_bool()) != Some(true) {
            return Err(GameFileError::Truncated);
        }
        crate::yaml::read(src, guarded).map_err(|e| GameFileError::Shape(e.placed()))
    }

    /// The file's text. Lists of plain words (units, centres, retreats) are written
    /// on one line (`france: [A PAR, F BRE]`) when the result reads back the same.
    // Serializing cannot fail: a `GameFile` is strings, numbers, lists and maps
    // with string keys, all of which YAML represents.
    #[allow(clippy::expect_used)]
    pub fn to_yaml(&self) -> String {
        let head = format!("# arbiter game file (format {FORMAT_VERSION}): see docs/GAMES.md\n");
        let body = serde_yaml::to_string(self).expect("a game file serializes");
        let compact = flow_lists(&head, &body);
        // One text at a time: the block form is made again if the compact one does not
        // read back the same (a large game is not held three times over).
        drop(body);
        match serde_yaml::from_str::<GameFile>(&compact) {
            Ok(back) if back == *self => compact,
            _ => {
                drop(compact);
                let mut out = head.into_bytes();
                serde_yaml::to_writer(&mut out, self).expect("a game file serializes");
                String::from_utf8(out).expect("YAML is UTF-8")
            }
        }
    }
}

/// `head`, then `src` with each block sequence of plain words rewritten as a flow
/// sequence on its key's line. Lines inside block scalars (`text: |`) are copied as
/// they are.
fn flow_lists(head: &str, src: &str) -> String {
    let lines: Vec<&str> = src.lines().collect();
    let indent_of = |l: &str| l.len() - l.trim_start().len();
    let plain = |item: &str| {
        item.starts_with(|c: char| c.is_ascii_alphabetic())
            && !item.ends_with(' ')
            && item
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == ' ' || c == '/')
    };
    let block_start = |l: &str| {
        let t = l.trim_start().trim_start_matches("- ");
        let value = match t.rfind(": ") {
            Some(i) => &t[i + 2..],
            None => t,
        };
        value.starts_with('|')
            && value[1..]
                .chars()
                .all(|c| c.is_ascii_digit() || c == '-' || c == '+')
    };
    let mut out = String::with_capacity(head.len() + src.len());
    out.push_str(head);
    let mut block: Option<usize> = None;
    let mut i = 0;
    while let Some(&line) = lines.get(i) {
        i += 1;
        if let Some(b) = block {
            if line.trim().is_empty() || indent_of(line) > b {
                out.push_str(line);
                out.push('\n');
                continue;
            }
            block = None;
        }
        if block_start(line) {
            block = Some(indent_of(line));
        } else if line.ends_with(':') && !line.trim_start().starts_with('-') {
            let dash = format!("{}- ", " ".repeat(indent_of(line)));
            let mut items = Vec::new();
            let mut j = i;
            while let Some(item) = lines
                .get(j)
                .and_then(|l| l.strip_prefix(dash.as_str()))
                .filter(|item| plain(item))
            {
                items.push(item);
                j += 1;
            }
            let whole = lines.get(j).is_none_or(|l| !l.starts_with(&dash));
            if !items.is_empty() && whole {
                out.push_str(&format!("{line} [{}]\n", items.join(", ")));
                i = j;
                continue;
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

// ---------------------------------------------------------------------------------
// The validated game
// ---------------------------------------------------------------------------------

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Over {
    /// A power reached the map's victory threshold.
    Winner(Power),
    /// The last year of a tournament game was played.
    LastYear(i32),
}

/// One judged phase, typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judged {
    /// The position the phase was judged from (its phase is the phase judged).
    pub before: Position,
    pub orders: Vec<OrderFile>,
    pub accepted: bool,
    pub results: Vec<ResultRecord>,
    pub skipped: Vec<Phase>,
    pub next: Option<Phase>,
    pub sheet: String,
}

impl Judged {
    pub fn phase(&self) -> Phase {
        self.before.phase
    }
}

/// A whole game: settings, the position now, and every judged phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub name: String,
    /// The map's name.
    pub map: String,
    /// The map file, if the map is not embedded.
    pub map_file: Option<String>,
    pub rules: Rules,
    pub last_year: Option<i32>,
    /// The position now; its phase is the phase that needs orders (or, once the game
    /// is over, the adjustment phase that would have followed).
    pub position: Position,
    pub over: Option<Over>,
    pub history: Vec<Judged>,
    /// `arbiter serve`'s links and pending orders ([`ServeRecord`]).
    pub serve: Option<ServeRecord>,
}

/// The orders of several files, read as one set.
#[derive(Clone, Debug)]
pub struct ReadOrders {
    /// Every order read, file after file.
    pub orders: Vec<Order>,
    /// Per order: the index of its file.
    pub file_of: Vec<usize>,
    /// Per file: its diagnostics (spans within that file), sorted by position.
    pub diagnostics: Vec<Vec<Diagnostic>>,
    /// Per file: the line offset its orders' spans were moved by.
    offsets: Vec<u32>,
}

/// What judging the current phase gives, before anything is recorded.
#[derive(Clone, Debug)]
pub struct Judgement {
    pub result: PhaseResult,
    /// The position of the next phase that needs orders.
    pub next: Position,
    /// Per file: every diagnostic (parser and binding), spans within that file.
    pub diagnostics: Vec<Vec<Diagnostic>>,
    /// Per order of `result.input`: the index of its file.
    pub file_of: Vec<usize>,
}

impl Judgement {
    /// Are there error diagnostics (orders that could not be read or bound)?
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .flatten()
            .any(|d| d.severity == crate::orders::Severity::Error)
    }
}

/// Where a phase is found in a game's history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// Judged: the index into `history`.
    Judged(usize),
    /// Skipped (nothing to do) after the judged phase at this index.
    Skipped(usize),
}

/// A canonical order of phases in time.
pub fn phase_key(p: Phase) -> (i32, u8) {
    let step = match (p.season, p.kind) {
        (Season::Spring, PhaseKind::Retreat) => 1,
        (Season::Spring, _) => 0,
        (Season::Fall, PhaseKind::Retreat) => 3,
        (Season::Fall, _) => 2,
        (Season::Winter, _) => 4,
    };
    (p.year, step)
}

fn parse_phase(at: &str, s: &str) -> Result<Phase, GameFileError> {
    Phase::parse(s).map_err(|e| invalid(at, e.to_string()))
}

impl PositionRecord {
    /// The record of a position.
    pub fn of(map: &Map, p: &Position) -> PositionRecord {
        PositionRecord {
            units: units_by_power(map, &p.units),
            owners: owners_by_power(map, &p.owners),
            dislodged: p.dislodged.iter().map(|d| d.entry(map)).collect(),
            saved: map
                .power_ids()
                .filter(|&pw| p.saved_by(pw) > 0)
                .map(|pw| (map.power(pw).id.clone(), p.saved_by(pw)))
                .collect(),
        }
    }

    /// The position this record describes, checked against the map.
    pub fn to_position(
        &self,
        map: &Map,
        phase: Phase,
        at: &str,
    ) -> Result<Position, GameFileError> {
        let mut p = Position::from_units(
            map,
            phase,
            self.units.iter().map(|(k, v)| (k.as_str(), v.as_slice())),
        )
        .map_err(|e| position_invalid(at, e))?;
        p.set_owners(
            map,
            self.owners.iter().map(|(k, v)| (k.as_str(), v.as_slice())),
        )
        .map_err(|e| position_invalid(at, e))?;
        for (pw, list) in &self.owners {
            let mut seen = std::collections::HashSet::new();
            for c in list {
                if !seen.insert(c.to_ascii_lowercase()) {
                    return Err(invalid(
                        at,
                        format!("{pw} owns `{}` twice", crate::yaml::name_invisibles(c)),
                    ));
                }
            }
        }
        let listed: usize = self.owners.values().map(Vec::len).sum();
        let owned = p.owners.iter().filter(|o| o.is_some()).count();
        if listed != owned {
            return Err(invalid(
                at,
                "a supply centre is listed for two powers".to_string(),
            ));
        }
        p.set_dislodged(map, &self.dislodged)
            .map_err(|e| position_invalid(at, e))?;
        p.check_dislodged().map_err(|e| position_invalid(at, e))?;
        p.set_saved_by_name(map, self.saved.iter().map(|(k, v)| (k.as_str(), *v)))
            .map_err(|e| position_invalid(at, e))?;
        for d in &self.dislodged {
            if d.by.is_none() {
                return Err(invalid(
                    at,
                    format!(
                        "dislodged {}: `by` (where the attacker came from) is missing",
                        d.unit
                    ),
                ));
            }
        }
        Ok(p)
    }
}

impl Game {
    /// A new game at the map's starting position.
    pub fn new(
        map: &Map,
        name: &str,
        map_file: Option<String>,
        rules: Rules,
        last_year: Option<i32>,
    ) -> Game {
        Game {
            name: name.to_string(),
            map: map.name.clone(),
            map_file,
            rules,
            last_year,
            position: Position::initial(map),
            over: None,
            history: Vec::new(),
            serve: None,
        }
    }

    /// Check a game file against its map and build the game.
    pub fn from_file(map: &Map, f: &GameFile) -> Result<Game, GameFileError> {
        let rules = check_settings(map, f)?;
        let phase = parse_phase("phase", &f.phase)?;
        let position = f.position.to_position(map, phase, "position")?;
        let history = f
            .history
            .iter()
            .enumerate()
            .map(|(i, h)| judged_entry(map, i, h))
            .collect::<Result<Vec<_>, _>>()?;
        check_phase_order(&history)?;
        check_reachable(map, &history, phase)?;
        let over = game_end(map, f)?;
        check_end_agrees(&history, over, phase)?;
        check_last_year(f.last_year, over, phase)?;
        for (i, h) in history.iter().enumerate() {
            let at = format!("history entry {} ({})", i + 1, h.phase());
            check_leads_to(&at, h.phase(), &h.skipped, h.next)?;
        }
        check_retreats_after_standoffs(map, rules, f.last_year, &history, &position)?;
        if let Some(s) = &f.serve {
            check_serve(map, s)?;
        }
        Ok(Game {
            name: f.name.clone(),
            map: f.map.clone(),
            map_file: f.map_file.clone(),
            rules,
            last_year: f.last_year,
            position,
            over,
            history,
            serve: f.serve.clone(),
        })
    }

    /// The file model of this game.
    pub fn to_file(&self, map: &Map) -> GameFile {
        GameFile {
            arbiter_game: FORMAT_VERSION,
            name: self.name.clone(),
            map: self.map.clone(),
            map_file: self.map_file.clone(),
            rules: self.rules.name().to_string(),
            last_year: self.last_year,
            phase: self.position.phase.to_string(),
            over: self.over.map(|o| match o {
                Over::Winner(p) => OverRecord {
                    winner: Some(map.power(p).id.clone()),
                    last_year: None,
                },
                Over::LastYear(y) => OverRecord {
                    winner: None,
                    last_year: Some(y),
                },
            }),
            position: PositionRecord::of(map, &self.position),
            history: self
                .history
                .iter()
                .map(|h| PhaseRecord {
                    phase: h.phase().to_string(),
                    position: PositionRecord::of(map, &h.before),
                    orders: h.orders.clone(),
                    accepted: h.accepted,
                    results: h.results.clone(),
                    skipped: h.skipped.iter().map(|p| p.to_string()).collect(),
                    next: h.next.map(|p| p.to_string()),
                    sheet: h.sheet.clone(),
                })
                .collect(),
            serve: self.serve.clone(),
            complete: true,
        }
    }

    /// The game file's text.
    pub fn to_yaml(&self, map: &Map) -> String {
        self.to_file(map).to_yaml()
    }

    /// Read a game file's text and check it against `map` (the map it names).
    pub fn from_yaml(map: &Map, src: &str) -> Result<Game, GameFileError> {
        Game::from_file(map, &GameFile::from_yaml(src)?)
    }

    /// Judge the current phase with these order files (nothing is recorded).
    /// `strict`: every correction of a misspelling is an error.
    pub fn judge(
        &self,
        map: &Map,
        files: &[OrderFile],
        strict: bool,
    ) -> Result<Judgement, ForeignIds> {
        judge_from(
            map,
            self.rules,
            &self.position,
            files,
            self.last_year,
            ParseOptions { strict },
        )
    }

    /// Record a judgement: the phase joins the history (with its sheet) and the game
    /// moves to the next phase that needs orders, or ends.
    pub fn record(&mut self, map: &Map, files: Vec<OrderFile>, j: Judgement, accepted: bool) {
        let sheet = crate::report::text::sheet(map, &self.name, &j.result);
        let results = json_orders(map, &j.result)
            .into_iter()
            .enumerate()
            .map(|(k, o)| ResultRecord {
                file: j
                    .file_of
                    .get(k)
                    .and_then(|&f| files.get(f))
                    .map(|f| f.file.clone())
                    .unwrap_or_default(),
                power: o.power,
                order: o.order,
                canonical: o.canonical.unwrap_or_default(),
                outcome: o.outcome.to_string(),
                reason: o.reason,
            })
            .collect();
        let before = std::mem::replace(&mut self.position, j.next);
        self.over = match (j.result.next, j.result.winner) {
            (Some(_), _) => None,
            (None, Some(w)) => Some(Over::Winner(w)),
            (None, None) => Some(Over::LastYear(
                self.last_year.unwrap_or(j.result.phase.year),
            )),
        };
        self.drop_pending();
        self.history.push(Judged {
            before,
            orders: files,
            accepted,
            results,
            skipped: j.result.skipped.clone(),
            next: j.result.next,
            sheet,
        });
    }

    /// Forget the orders submitted through `arbiter serve` (the phase was judged or
    /// undone); the links stay.
    pub fn drop_pending(&mut self) {
        if let Some(s) = &mut self.serve {
            s.pending.clear();
            s.phase = None;
        }
    }

    /// The orders submitted through `arbiter serve` for the current phase, by power id.
    pub fn pending(&self) -> BTreeMap<String, String> {
        match &self.serve {
            Some(s) if s.phase.as_deref() == Some(self.position.phase.to_string().as_str()) => {
                s.pending.clone()
            }
            _ => BTreeMap::new(),
        }
    }

    /// Go back one judged phase, exactly as it was before. `None` at the start.
    pub fn undo(&mut self) -> Option<Judged> {
        let last = self.history.pop()?;
        self.drop_pending();
        self.position = last.before.clone();
        self.over = None;
        Some(last)
    }

    /// Judge history entry `k` again from its stored position and orders.
    pub fn rejudge(&self, map: &Map, k: usize) -> Option<Result<Judgement, ForeignIds>> {
        let h = self.history.get(k)?;
        // A recorded phase was read without --strict.
        Some(judge_from(
            map,
            self.rules,
            &h.before,
            &h.orders,
            self.last_year,
            ParseOptions::default(),
        ))
    }

    /// Where `phase` is in the history: judged, or skipped after a judged phase.
    pub fn find(&self, phase: Phase) -> Option<Found> {
        if let Some(k) = self.history.iter().position(|h| h.phase() == phase) {
            return Some(Found::Judged(k));
        }
        self.history
            .iter()
            .position(|h| h.skipped.contains(&phase))
            .map(Found::Skipped)
    }

    /// The supply-centre owners after each Fall turn played (each game year), in order.
    pub fn centres_by_year(&self) -> Vec<(i32, &[Option<Power>])> {
        let mut out = Vec::new();
        for (k, h) in self.history.iter().enumerate() {
            let p = h.phase();
            let ends_fall = p.season == Season::Fall
                && !(p.kind == PhaseKind::Movement
                    && h.next.is_some_and(|n| {
                        n.season == Season::Fall && n.kind == PhaseKind::Retreat && n.year == p.year
                    }));
            if ends_fall {
                let after = self
                    .history
                    .get(k + 1)
                    .map(|n| &n.before)
                    .unwrap_or(&self.position);
                out.push((p.year, after.owners.as_slice()));
            }
        }
        out
    }
}

/// The game's settings against its map: the map's name, the rules, the last year and
/// the game's name; the rules read.
fn check_settings(map: &Map, f: &GameFile) -> Result<Rules, GameFileError> {
    if f.map != map.name {
        return Err(GameFileError::WrongMap {
            file: f.map.clone(),
            loaded: map.name.clone(),
        });
    }
    let rules = Rules::parse(&f.rules).ok_or_else(|| {
        invalid(
            "rules",
            format!(
                "unknown rules edition `{}`",
                crate::yaml::name_invisibles(&f.rules)
            ),
        )
    })?;
    if let Some(y) = f.last_year {
        if let Some(problem) = crate::state::last_year_problem(map, y) {
            return Err(invalid("last_year", problem));
        }
    }
    if f.name.trim().is_empty() {
        return Err(invalid("name", "the game has no name"));
    }
    if f.name.chars().any(crate::yaml::breaks_a_name) {
        return Err(invalid(
            "name",
            "the game's name has a line break or another control character: a name is one \
             line of text (it heads every sheet)",
        ));
    }
    Ok(rules)
}

/// History entry `i` (from 0) checked against the map and read: its position, phases,
/// order files, sheet and results.
fn judged_entry(map: &Map, i: usize, h: &PhaseRecord) -> Result<Judged, GameFileError> {
    let at = format!("history entry {} ({})", i + 1, h.phase);
    let before =
        h.position
            .to_position(map, parse_phase(&at, &h.phase)?, &format!("{at}: position"))?;
    let next = match &h.next {
        Some(n) => Some(parse_phase(&at, n)?),
        None => None,
    };
    let skipped = h
        .skipped
        .iter()
        .map(|s| parse_phase(&at, s))
        .collect::<Result<Vec<_>, _>>()?;
    if h.orders.is_empty() {
        return Err(invalid(&at, "no order files are recorded"));
    }
    if h.sheet.trim().is_empty() {
        return Err(invalid(&at, "the sheet is missing"));
    }
    if let Some(n) = next {
        if phase_key(n) <= phase_key(before.phase) {
            return Err(invalid(
                &at,
                format!("the next phase {n} does not come after {}", before.phase),
            ));
        }
    }
    for r in &h.results {
        if let Some(p) = r
            .power
            .as_deref()
            .filter(|p| map.power_by_name(p).is_none())
        {
            return Err(invalid(
                &at,
                format!(
                    "result `{}` names the power `{p}`, which is not one of the map's",
                    r.order
                ),
            ));
        }
        if !h.orders.iter().any(|o| o.file == r.file) {
            return Err(invalid(
                &at,
                format!(
                    "result `{}` names file `{}`, which is not among the orders",
                    r.order, r.file
                ),
            ));
        }
    }
    Ok(Judged {
        before,
        orders: h.orders.clone(),
        accepted: h.accepted,
        results: h.results.clone(),
        skipped,
        next,
        sheet: h.sheet.clone(),
    })
}

/// A judged phase's `skipped` and `next` are the phases its result leads to: each
/// skipped phase (a retreat or an adjustment with nothing to do) is the one after the
/// phase before it, and `next` the one after the last; no phase is left out.
fn check_leads_to(
    at: &str,
    phase: Phase,
    skipped: &[Phase],
    next: Option<Phase>,
) -> Result<(), GameFileError> {
    let mut expected = crate::state::next_phase(phase);
    let mut last = phase;
    for &s in skipped {
        if s != expected || s.kind == PhaseKind::Movement {
            return Err(invalid(
                at,
                format!(
                    "the skipped phase {s} is not the phase after {last} ({expected}, and a movement phase is never skipped): correct `skipped`"
                ),
            ));
        }
        last = s;
        expected = crate::state::next_phase(s);
    }
    match next {
        Some(n) if n != expected => Err(invalid(
            at,
            format!(
                "its next phase is {n}, but {phase} leads to {expected}{}: a game leaves no phase out; correct `next` (and the phases after it)",
                match skipped {
                    [] => String::new(),
                    s => format!(
                        " (after {} skipped)",
                        s.iter().map(Phase::to_string).collect::<Vec<_>>().join(", ")
                    ),
                }
            ),
        )),
        _ => Ok(()),
    }
}

/// A retreat phase's retreat options (which a hand-edited file may change) against the
/// standoffs of the movement phase that made them, the history entry before it: no
/// unit may retreat to a province left empty by a standoff (DATC 4.E.1, 6.H.13). The
/// board's own rules (adjacent, empty, not the attacker's province) are checked when
/// the position is read; a standoff is known only from the movement phase, judged
/// again here from its recorded position and orders.
fn check_retreats_after_standoffs(
    map: &Map,
    rules: Rules,
    last_year: Option<i32>,
    history: &[Judged],
    position: &Position,
) -> Result<(), GameFileError> {
    let retreat_phases = history
        .iter()
        .enumerate()
        .skip(1)
        .map(|(k, h)| {
            (
                k,
                &h.before,
                format!("history entry {} ({}): position", k + 1, h.phase()),
            )
        })
        .chain(std::iter::once((
            history.len(),
            position,
            "position".to_string(),
        )));
    for (k, retreat, at) in retreat_phases {
        if retreat.phase.kind != PhaseKind::Retreat || retreat.dislodged.is_empty() {
            continue;
        }
        let Some(movement) = k.checked_sub(1).and_then(|m| history.get(m)) else {
            continue;
        };
        if movement.phase().kind != PhaseKind::Movement {
            continue;
        }
        let Ok(j) = judge_from(
            map,
            rules,
            &movement.before,
            &movement.orders,
            last_year,
            ParseOptions::default(),
        ) else {
            continue;
        };
        let Some(m) = j.result.movement() else {
            continue;
        };
        for d in &retreat.dislodged {
            for &r in &d.retreats {
                let q = map.prov_of(r);
                if m.contested.contains(&q) {
                    return Err(invalid(
                        &at,
                        format!(
                            "dislodged `{}` cannot retreat to `{}`: {} was left empty by a \
                             standoff in {} (history entry {}), and a unit may not retreat \
                             to a standoff's province",
                            d.unit.short(map),
                            map.loc_upper(r),
                            map.province(q).name,
                            movement.phase(),
                            k
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// `serve`: its power ids are the map's, its phase reads, its hashes are SHA-256 hex.
fn check_serve(map: &Map, s: &ServeRecord) -> Result<(), GameFileError> {
    let hex = |h: &str| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit());
    if !hex(&s.referee) {
        return Err(invalid(
            "serve: referee",
            "not a SHA-256 hash (64 hex digits)",
        ));
    }
    for (p, l) in &s.links {
        if map.power_by_name(p).is_none() {
            return Err(invalid(
                "serve: links",
                format!("unknown power `{}`", crate::orders::name_invisibles(p)),
            ));
        }
        if !hex(&l.hash) {
            return Err(invalid(
                format!("serve: links: {p}"),
                "not a SHA-256 hash (64 hex digits)",
            ));
        }
    }
    for p in s.pending.keys() {
        if map.power_by_name(p).is_none() {
            return Err(invalid(
                "serve: pending",
                format!("unknown power `{}`", crate::orders::name_invisibles(p)),
            ));
        }
    }
    crate::state::unique_powers(map, s.links.keys().map(String::as_str))
        .map_err(|e| invalid("serve: links", e))?;
    crate::state::unique_powers(map, s.pending.keys().map(String::as_str))
        .map_err(|e| invalid("serve: pending", e))?;
    if let Some(ph) = &s.phase {
        parse_phase("serve: phase", ph)?;
    }
    Ok(())
}

/// The judged phases follow one another: each entry is the phase the one before led to.
fn check_phase_order(history: &[Judged]) -> Result<(), GameFileError> {
    for (i, w) in history.windows(2).enumerate() {
        let [before, after] = w else { continue };
        if before.next != Some(after.phase()) {
            return Err(invalid(
                format!("history entry {} ({})", i + 2, after.phase()),
                format!(
                    "it does not follow the entry before it, whose next phase is {}",
                    show(before.next)
                ),
            ));
        }
    }
    Ok(())
}

/// The game's first phase (its first judged one, or the current one) is not before
/// the map's first phase: a game starts where its map does, and plays forward.
fn check_reachable(map: &Map, history: &[Judged], phase: Phase) -> Result<(), GameFileError> {
    let first = Phase::first(map);
    let (earliest, at) = match history.first() {
        Some(h) => (h.phase(), "history entry 1".to_string()),
        None => (phase, "phase".to_string()),
    };
    if phase_key(earliest) < phase_key(first) {
        return Err(invalid(
            at,
            format!(
                "{earliest} comes before the map's first phase ({first}): no game on `{}` \
                 reaches it",
                map.name
            ),
        ));
    }
    Ok(())
}

/// A game that is not over is not past its last year: it ends after the Fall turn of
/// `last_year`, so its phase is at most that year's Fall.
fn check_last_year(
    last_year: Option<i32>,
    over: Option<Over>,
    phase: Phase,
) -> Result<(), GameFileError> {
    let Some(y) = last_year else { return Ok(()) };
    let past = crate::state::past_last_year(phase, y).is_some();
    if over.is_none() && past {
        return Err(invalid(
            "last_year",
            format!(
                "the game is at {phase}, past its last year {y} (a game ends after the Fall \
                 turn of its last year), and it is not over: correct `last_year` or `phase`"
            ),
        ));
    }
    Ok(())
}

/// How the game ended, if it did: a known winner, or the game's own last year.
fn game_end(map: &Map, f: &GameFile) -> Result<Option<Over>, GameFileError> {
    Ok(match &f.over {
        None => None,
        Some(OverRecord {
            winner: Some(w),
            last_year: None,
        }) => Some(Over::Winner(map.power_by_name(w).ok_or_else(|| {
            invalid(
                "over",
                format!("unknown power `{}`", crate::orders::name_invisibles(w)),
            )
        })?)),
        Some(OverRecord {
            winner: None,
            last_year: Some(y),
        }) => {
            // A game without a last year ends after the last year arbiter plays.
            if f.last_year != Some(*y) && !(f.last_year.is_none() && *y == *crate::map::YEARS.end())
            {
                return Err(invalid(
                    "over",
                    format!(
                        "the game ended after {y}, but its last year is {}",
                        show_year(f.last_year)
                    ),
                ));
            }
            Some(Over::LastYear(*y))
        }
        Some(_) => {
            return Err(invalid(
                "over",
                "give exactly one of `winner` and `last_year`",
            ))
        }
    })
}

/// The end of the history agrees with the game: the last judged phase led to the
/// current one, or, once the game is over, to nothing.
fn check_end_agrees(
    history: &[Judged],
    over: Option<Over>,
    phase: Phase,
) -> Result<(), GameFileError> {
    match (history.last(), over) {
        (None, Some(_)) => Err(invalid("over", "the game is over but no phase was judged")),
        (Some(last), None) if last.next != Some(phase) => Err(invalid(
            "phase",
            format!(
                "the game is at {phase}, but the last judged phase ({}) led to {}",
                last.phase(),
                show(last.next)
            ),
        )),
        (Some(last), Some(_)) if last.next.is_some() => Err(invalid(
            "over",
            format!(
                "the game is over, but the last judged phase ({}) led to {}",
                last.phase(),
                show(last.next)
            ),
        )),
        _ => Ok(()),
    }
}

fn show(p: Option<Phase>) -> String {
    match p {
        Some(p) => p.to_string(),
        None => "the end of the game".to_string(),
    }
}

fn show_year(y: Option<i32>) -> String {
    match y {
        Some(y) => y.to_string(),
        None => "not set".to_string(),
    }
}

/// How many orders a phase reads at most: ten for each unit on the board or dislodged,
/// and 100 more (builds, waives, mistakes). No phase needs more; a game records every
/// order's result, so a slip of tens of thousands of orders would make a game file many
/// times its size (and the memory to write it).
pub fn max_orders(position: &Position) -> usize {
    10 * (position.units.len() + position.dislodged.len()) + 100
}

/// What a phase given `total` orders, past its [`max_orders`] of `max`, is told: the
/// same words from `judge` and from the Python package.
pub fn too_many_orders(total: usize, max: usize) -> String {
    format!("{total} orders for this phase: at most {max} are read (ten a unit, and 100 more)")
}

/// Read several order files as one set of orders for `phase`. Each file is a slip,
/// parsed on its own (a header in one file does not carry into the next; without a
/// header, a file named after a power is that power's: `orders::parse_slip`), and
/// every heading naming another phase is an error (`state::slip_phase_diagnostics`);
/// the orders' spans are moved past the lines of the files before, so diagnostics
/// found later can be traced back.
///
/// At most `max` orders are kept ([`max_orders`]): every file is still read whole, so
/// its mistakes are told, but the orders past `max` are only counted, and the first of
/// them gets an error (in its file) that says so, so that judging waits for `--accept`
/// (which judges the orders kept) or for the files to be fixed.
pub fn read_orders(
    map: &Map,
    files: &[OrderFile],
    options: ParseOptions,
    phase: Phase,
    max: usize,
) -> ReadOrders {
    let mut out = ReadOrders {
        orders: Vec::new(),
        file_of: Vec::new(),
        diagnostics: Vec::new(),
        offsets: Vec::new(),
    };
    let mut offset = 0u32;
    let mut unkept: Option<(usize, Unkept)> = None;
    for (i, f) in files.iter().enumerate() {
        let room = max.saturating_sub(out.orders.len());
        let mut parsed = parse_slip_at_most(map, &f.file, &f.text, options, room);
        parsed
            .diagnostics
            .extend(slip_phase_diagnostics(&parsed.labels, phase));
        parsed
            .diagnostics
            .extend(slip_file_phase_diagnostic(&f.file, &parsed.labels, phase));
        if let Some(u) = parsed.unkept {
            match &mut unkept {
                Some((_, first)) => first.count += u.count,
                None => unkept = Some((i, u)),
            }
        }
        out.file_of
            .extend(std::iter::repeat_n(i, parsed.orders.len()));
        out.orders.extend(parsed.orders.into_iter().map(|mut o| {
            o.span.line += offset;
            o
        }));
        out.diagnostics.push(parsed.diagnostics);
        out.offsets.push(offset);
        offset += crate::orders::source_lines(&f.text).count() as u32 + 1;
    }
    if let Some((f, u)) = unkept {
        let total = max + u.count;
        let d = Diagnostic::error(
            u.first,
            format!(
                "{}; this one and the {} after it are not",
                too_many_orders(total, max),
                u.count - 1
            ),
            Some("one order a unit: check the order files".into()),
        );
        if let Some(ds) = out.diagnostics.get_mut(f) {
            ds.push(d);
        }
    }
    out
}

impl ReadOrders {
    /// Give a diagnostic about a (moved) order back to its file, with its own span.
    fn attribute(&mut self, d: &Diagnostic) {
        let Some(i) = self.offsets.iter().rposition(|&o| o < d.span.line.max(1)) else {
            return;
        };
        let (Some(&offset), Some(ds)) = (self.offsets.get(i), self.diagnostics.get_mut(i)) else {
            return;
        };
        let mut d = d.clone();
        d.span.line -= offset;
        ds.push(d);
    }
}

/// Judge `position` with the orders of `files`.
fn judge_from(
    map: &Map,
    rules: Rules,
    position: &Position,
    files: &[OrderFile],
    last_year: Option<i32>,
    options: ParseOptions,
) -> Result<Judgement, ForeignIds> {
    let mut read = read_orders(map, files, options, position.phase, max_orders(position));
    let (mut result, next) = advance(map, rules, position, &read.orders, last_year)?;
    let mut bound = std::mem::take(result.diagnostics_mut());
    // DATC 4.C.5, 4.C.6: a stated nationality that does not match the board is ignored,
    // with a warning.
    bound.extend(nationality_warnings(map, &position.units, &read.orders)?);
    bound.extend(outcome_diagnostics(map, position, &result, &bound));
    for d in &bound {
        read.attribute(d);
    }
    // The result keeps the diagnostics with the spans of their own files.
    for (k, o) in result.input.iter_mut().enumerate() {
        let file = read.file_of.get(k).and_then(|&f| read.offsets.get(f));
        o.span.line -= file.copied().unwrap_or(0);
    }
    for ds in &mut read.diagnostics {
        ds.sort_by_key(|d| (d.span.line, d.span.start));
    }
    *result.diagnostics_mut() = read.diagnostics.iter().flatten().cloned().collect();
    Ok(Judgement {
        result,
        next,
        diagnostics: read.diagnostics,
        file_of: read.file_of,
    })
}

/// In retreat and adjustment phases the judge reports an illegal order only as its
/// outcome. A referee needs to see each one before anything is judged, and to ask the
/// player, as in a movement phase: every illegal retreat, disband, build, removal,
/// waive or save is an error (judging waits for a fixed order or `--accept`, and the
/// order is then void), except an extra waive or save, which changes nothing (the
/// builds not ordered are waived anyway): that is a warning. An order that already has a
/// diagnostic (a binding error) is left alone. A movement phase has its own
/// diagnostics (binding errors, illegal orders as warnings): none are added here.
/// The help of an illegal retreat, build or removal names the player's choices (where
/// the unit may retreat, where the power may build, the coasts to name), from
/// `position`, the position the phase was judged from.
pub fn outcome_diagnostics(
    map: &Map,
    position: &Position,
    result: &PhaseResult,
    have: &[Diagnostic],
) -> Vec<Diagnostic> {
    let void = match result.phase.kind {
        PhaseKind::Movement => return Vec::new(),
        PhaseKind::Retreat => "the unit is disbanded",
        PhaseKind::Adjustment => {
            "a build not made is waived, a removal not made is made in civil disorder"
        }
    };
    let help =
        format!("ask the player; judged as written (`judge --accept`), the order is void: {void}");
    let owed = result
        .adjustment()
        .and_then(|a| owed(map, &result.owners_before, &a.units, &result.saved_before).ok())
        .unwrap_or_default();
    let mut out = Vec::new();
    for (k, r) in result.orders().iter().enumerate() {
        let Outcome::Illegal(why) = &r.outcome else {
            continue;
        };
        let Some(span) = result.input.get(k).map(|i| i.span) else {
            continue;
        };
        if have.iter().any(|d| d.span == span) {
            continue;
        }
        let text = why.describe(map);
        out.push(match why {
            Illegal::Build(EXTRA_WAIVE | EXTRA_SAVE) => Diagnostic::warning(
                span,
                format!("illegal order: {text}"),
                Some("the order is ignored; it changes nothing".into()),
            ),
            Illegal::NoUnit
            | Illegal::ForeignUnit(_)
            | Illegal::NotDislodged
            | Illegal::WrongPhase
            | Illegal::DuplicateOrder
            | Illegal::CoastNeeded(_) => Diagnostic::error(span, text, Some(help.clone())),
            _ => {
                let help = match choices(map, position, result, &owed, k, r) {
                    Some(c) => format!(
                        "ask the player: {c}; judged as written (`judge --accept`), the order \
                         is void: {void}"
                    ),
                    None => help.clone(),
                };
                Diagnostic::error(span, format!("illegal order: {text}"), Some(help))
            }
        });
    }
    out
}

/// What the player of the illegal order `r` (input `k`) of a retreat or adjustment
/// phase may order instead, in words: `the Army in Burgundy may retreat to Picardy or
/// Ruhr, or disband`; `name the coast: `stp/nc` or `stp/sc``; `Austria builds 2:
/// Trieste (army or fleet), Vienna (army)`. `None` if there is nothing to say.
fn choices(
    map: &Map,
    position: &Position,
    result: &PhaseResult,
    owed: &[Owed],
    k: usize,
    r: &OrderResult,
) -> Option<String> {
    let order = result.input.get(k)?;
    match result.phase.kind {
        PhaseKind::Movement => None,
        PhaseKind::Retreat => {
            let d = position.dislodged.get(r.unit?)?;
            let unit = format!(
                "the {} in {}",
                unit_kind_word(d.unit.kind),
                map.loc_name(d.unit.loc)
            );
            if d.retreats.is_empty() {
                return Some(format!(
                    "{unit} has nowhere to retreat: it can only disband"
                ));
            }
            let places: Vec<String> = d.retreats.iter().map(|&l| map.loc_name(l)).collect();
            Some(format!(
                "{unit} may retreat to {}, or disband",
                text::or_list(&places)
            ))
        }
        PhaseKind::Adjustment => {
            let power = r.power?;
            let name = &map.power(power).name;
            let o = owed.iter().find(|o| o.power == power);
            let change = o.map_or(0, |o| o.change);
            match &order.kind {
                OrderKind::Build => {
                    let u = order.unit?;
                    let p = map.prov_of(u.loc);
                    // A fleet without its coast in a site the power may build in: the
                    // coast is the fix. Elsewhere the sites are.
                    let site = o.is_some_and(|o| {
                        o.build_sites.contains(&p) || (o.saved > 0 && o.colonial_sites.contains(&p))
                    });
                    if site
                        && u.kind == Some(UnitKind::Fleet)
                        && map.is_split(p)
                        && !map.is_named_coast(u.loc)
                    {
                        let coasts: Vec<String> = map
                            .province(p)
                            .coasts
                            .iter()
                            .map(|&l| format!("`{}`", map.loc_id(l)))
                            .collect();
                        return Some(format!("name the coast: {}", text::or_list(&coasts)));
                    }
                    if change <= 0 {
                        return Some(format!("{name} has no build to make"));
                    }
                    let o = o?;
                    let mut sites: Vec<String> = o
                        .build_sites
                        .iter()
                        .map(|&s| text::build_site(map, s))
                        .collect();
                    if o.saved > 0 {
                        sites.extend(o.colonial_sites.iter().map(|&s| text::build_site(map, s)));
                    }
                    Some(if sites.is_empty() {
                        format!("{name} has no vacant centre it may build in")
                    } else {
                        format!("{name} builds {change}: {}", sites.join(", "))
                    })
                }
                OrderKind::Disband => Some(if change < 0 {
                    format!("{name} removes {}", -change)
                } else {
                    format!("{name} has no unit to remove")
                }),
                _ => None,
            }
        }
    }
}

fn unit_kind_word(kind: UnitKind) -> &'static str {
    match kind {
        UnitKind::Army => "Army",
        UnitKind::Fleet => "Fleet",
    }
}

/// The judge's reasons for a waive, or a save for a colonial build, when the power has
/// no build left.
const EXTRA_WAIVE: &str = "no build left to waive";
const EXTRA_SAVE: &str = "no build left to save";

#[cfg(test)]
mod tests {
    use super::*;

    fn files(list: &[(&str, &str)]) -> Vec<OrderFile> {
        list.iter()
            .map(|(f, t)| OrderFile {
                file: f.to_string(),
                text: t.to_string(),
            })
            .collect()
    }

    #[test]
    fn a_new_game_round_trips() {
        let map = Map::standard();
        let g = Game::new(&map, "demo", None, Rules::default(), Some(1910));
        let text = g.to_yaml(&map);
        assert!(text.contains("arbiter_game: 1\n"));
        assert!(text.trim_end().ends_with("complete: true"));
        let back = Game::from_yaml(&map, &text).unwrap();
        assert_eq!(back, g);
    }

    #[test]
    fn judging_records_and_undo_restores() {
        let map = Map::standard();
        let mut g = Game::new(&map, "demo", None, Rules::default(), None);
        let f = files(&[
            ("france.txt", "France:\nA Par - Bur\n"),
            ("germany.txt", "Germany:\nA Mun - Bur\n  A Ber - Kie\r\n"),
        ]);
        let before = g.clone();
        let j = g.judge(&map, &f, false).unwrap();
        assert!(!j.has_errors());
        g.record(&map, f.clone(), j, false);
        assert_eq!(g.history.len(), 1);
        assert_eq!(g.position.phase.to_string(), "Fall 1901 movement");
        assert_eq!(g.history[0].skipped.len(), 1);
        assert_eq!(g.history[0].results[2].file, "germany.txt");
        assert_eq!(g.history[0].results[2].canonical, "A BER - KIE");
        // The file keeps the texts exactly.
        let back = Game::from_yaml(&map, &g.to_yaml(&map)).unwrap();
        assert_eq!(back, g);
        assert_eq!(back.history[0].orders, f);
        g.undo().unwrap();
        assert_eq!(g, before);
        assert!(g.undo().is_none());
    }

    #[test]
    fn the_streaming_reader_reads_a_game_file_as_serde_yaml_does() {
        // The example game's eight phases, judged from its slips, then saved.
        let map = Map::standard();
        let mut g = Game::new(&map, "demo", None, Rules::default(), Some(1910));
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/game");
        let mut phases: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_dir())
            .collect();
        phases.sort();
        for phase in phases {
            let mut slips: Vec<_> = std::fs::read_dir(&phase)
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            slips.sort();
            let f: Vec<OrderFile> = slips
                .iter()
                .map(|p| OrderFile {
                    file: p.file_name().unwrap().to_string_lossy().into_owned(),
                    text: std::fs::read_to_string(p).unwrap(),
                })
                .collect();
            let j = g.judge(&map, &f, false).unwrap();
            g.record(&map, f, j, false);
        }
        assert_eq!(g.history.len(), 8);
        let text = g.to_yaml(&map);
        crate::yaml::assert_readers_agree::<GameFile>(&text, "example game");
        crate::yaml::assert_readers_agree::<GameFile>(&text.replace("complete", "x"), "cut");
    }

    #[test]
    fn diagnostics_go_back_to_their_files() {
        let map = Map::standard();
        let g = Game::new(&map, "demo", None, Rules::default(), None);
        let f = files(&[
            ("a.txt", "France:\nA Par - Bur\nA Pic - Bel\n"),
            ("b.txt", "Germany:\nA Mun - Burgandi\nA Par H\n"),
        ]);
        let j = g.judge(&map, &f, false).unwrap();
        assert!(j.has_errors());
        // a.txt line 3: no unit in Picardy; b.txt line 2: unknown name; line 3: foreign unit.
        assert_eq!(j.diagnostics[0].len(), 1);
        assert_eq!(j.diagnostics[0][0].span.line, 3);
        assert_eq!(
            j.diagnostics[1]
                .iter()
                .map(|d| d.span.line)
                .collect::<Vec<_>>(),
            vec![2, 3]
        );
    }

    #[test]
    fn order_texts_that_look_like_yaml_are_kept_exactly() {
        let map = Map::standard();
        let mut g = Game::new(&map, "demo", None, Rules::default(), None);
        let tricky = [
            "units:\n- A PAR\n- F BRE\nfrance:\n- A MAR\n",
            "  leading spaces:\n  - A PAR\n",
            "- A PAR\n",
            "France: A Par - Bur  \ttab\r\n",
            "no newline at the end: A Par H",
            "",
            "complete: true\n",
        ];
        let f: Vec<OrderFile> = tricky
            .iter()
            .enumerate()
            .map(|(i, t)| OrderFile {
                file: format!("f{i}.txt"),
                text: t.to_string(),
            })
            .collect();
        let j = g.judge(&map, &f, false).unwrap();
        g.record(&map, f.clone(), j, true);
        let text = g.to_yaml(&map);
        assert!(
            text.contains("    france: [F BRE, A MAR, A PAR]\n"),
            "{text}"
        );
        let back = Game::from_yaml(&map, &text).unwrap();
        assert_eq!(back.history[0].orders, f);
        assert_eq!(back, g);
    }

    #[test]
    fn refusals_name_the_problem() {
        let map = Map::standard();
        let g = Game::new(&map, "demo", None, Rules::default(), None);
        let text = g.to_yaml(&map);
        let err = |s: &str| Game::from_yaml(&map, s).unwrap_err().to_string();
        assert_eq!(err(""), "the file is empty");
        assert!(err(&text.replace("arbiter_game: 1", "arbiter_game: 2")).contains("newer arbiter"));
        assert!(err(&text[..text.len() - 16]).contains("cut short"));
        assert!(err("just: text\n").contains("not an arbiter game file"));
        assert!(err(&text.replace("A PAR", "A NTH")).contains("an army cannot be at sea"));
        assert!(
            err(&text.replace("phase: Spring 1901", "phase: Summer 1901"))
                .contains("unknown phase")
        );
        assert!(
            err(&text.replace("complete: true", "complete: true\nextra: 1"))
                .contains("unknown field `extra`")
        );
        assert!(err(&text.replacen("A VIE]", "A VIE, A MUN]", 1)).contains("two units in Munich"));
    }
}

/// The header of a game file (`arbiter_game`, `complete`), read in one pass over the
/// YAML that checks what reading it into a `serde_yaml::Value` checked (every mapping
/// without a duplicate key, with the same message) without building that tree.
mod header {
    use serde::de::{self, Deserialize, Deserializer, EnumAccess, MapAccess, SeqAccess};
    use serde::de::{VariantAccess, Visitor};
    use serde_yaml::Value;
    use std::collections::HashSet;
    use std::fmt;

    pub(super) struct Header {
        /// Whether the file is a mapping at all.
        pub mapping: bool,
        pub arbiter_game: Option<Value>,
        pub complete: Option<Value>,
    }

    /// `serde_yaml`'s message for a mapping with a key twice.
    fn duplicate<E: de::Error>(key: &Value) -> E {
        match key {
            Value::Null => E::custom("duplicate entry with null key"),
            Value::Bool(b) => E::custom(format_args!("duplicate entry with key `{b}`")),
            Value::Number(n) => E::custom(format_args!("duplicate entry with key {n}")),
            Value::String(s) => E::custom(format_args!("duplicate entry with key {s:?}")),
            _ => E::custom("duplicate entry in YAML map"),
        }
    }

    /// Any value, read and let go: only its mappings' keys are kept while it is read.
    struct Walk;

    impl<'de> Deserialize<'de> for Walk {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Walk, D::Error> {
            d.deserialize_any(WalkVisitor)
        }
    }

    struct WalkVisitor;

    impl<'de> Visitor<'de> for WalkVisitor {
        type Value = Walk;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("any YAML value")
        }
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Walk, E> {
            Ok(Walk)
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Walk, E> {
            Ok(Walk)
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Walk, E> {
            Ok(Walk)
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Walk, E> {
            Ok(Walk)
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Walk, E> {
            Ok(Walk)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Walk, E> {
            Ok(Walk)
        }
        fn visit_none<E: de::Error>(self) -> Result<Walk, E> {
            Ok(Walk)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Walk, D::Error> {
            d.deserialize_any(WalkVisitor)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Walk, A::Error> {
            while s.next_element::<Walk>()?.is_some() {}
            Ok(Walk)
        }
        fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Walk, A::Error> {
            let mut keys = HashSet::new();
            while let Some(k) = m.next_key::<Value>()? {
                if keys.contains(&k) {
                    return Err(duplicate(&k));
                }
                m.next_value::<Walk>()?;
                keys.insert(k);
            }
            Ok(Walk)
        }
        fn visit_enum<A: EnumAccess<'de>>(self, e: A) -> Result<Walk, A::Error> {
            let (_, v) = e.variant::<de::IgnoredAny>()?;
            v.newtype_variant::<Walk>()
        }
    }

    impl<'de> Deserialize<'de> for Header {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Header, D::Error> {
            d.deserialize_any(HeaderVisitor)
        }
    }

    struct HeaderVisitor;

    impl HeaderVisitor {
        fn not_a_map(self) -> Header {
            Header {
                mapping: false,
                arbiter_game: None,
                complete: None,
            }
        }
    }

    impl<'de> Visitor<'de> for HeaderVisitor {
        type Value = Header;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("any YAML value")
        }
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Header, E> {
            Ok(self.not_a_map())
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Header, E> {
            Ok(self.not_a_map())
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Header, E> {
            Ok(self.not_a_map())
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Header, E> {
            Ok(self.not_a_map())
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Header, E> {
            Ok(self.not_a_map())
        }
        fn visit_unit<E: de::Error>(self) -> Result<Header, E> {
            Ok(self.not_a_map())
        }
        fn visit_none<E: de::Error>(self) -> Result<Header, E> {
            Ok(self.not_a_map())
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Header, D::Error> {
            d.deserialize_any(HeaderVisitor)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, s: A) -> Result<Header, A::Error> {
            WalkVisitor.visit_seq(s)?;
            Ok(self.not_a_map())
        }
        fn visit_enum<A: EnumAccess<'de>>(self, e: A) -> Result<Header, A::Error> {
            WalkVisitor.visit_enum(e)?;
            Ok(self.not_a_map())
        }
        fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Header, A::Error> {
            let mut h = Header {
                mapping: true,
                arbiter_game: None,
                complete: None,
            };
            let mut keys = HashSet::new();
            while let Some(k) = m.next_key::<Value>()? {
                if keys.contains(&k) {
                    return Err(duplicate(&k));
                }
                match k.as_str() {
                    Some("arbiter_game") => h.arbiter_game = Some(m.next_value()?),
                    Some("complete") => h.complete = Some(m.next_value()?),
                    _ => {
                        m.next_value::<Walk>()?;
                    }
                }
                keys.insert(k);
            }
            Ok(h)
        }
    }
}
