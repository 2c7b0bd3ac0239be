//! The state a phase starts from: the phase, the units, supply-centre owners, saved
//! builds, and the dislodged units that must retreat with the places each may go.
//! Loaded from YAML (schema in `docs/CLI.md`), or the map's starting position. Ids are
//! dense indices into one map's tables: [`check_ids`] refuses a position or orders read
//! against another map before any phase reads them.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::map::{Loc, Map, Power, Prov, Season, UnitKind};
use crate::orders::{Diagnostic, Label, Order, OrderKind, Span};

/// A unit on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit {
    pub power: Power,
    pub kind: UnitKind,
    pub loc: Loc,
}

impl Unit {
    /// `F STP/SC`.
    pub fn short(&self, map: &Map) -> String {
        let mut s = String::with_capacity(8);
        self.write_short(&mut s, map);
        s
    }

    /// [`Unit::short`], appended to `s`.
    pub fn write_short(&self, s: &mut String, map: &Map) {
        s.push(self.kind.letter());
        s.push(' ');
        s.push_str(map.loc_upper(self.loc));
    }
}

/// Which step of the year.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhaseKind {
    Movement,
    Retreat,
    Adjustment,
}

/// A phase: season, year and kind (`Spring 1901 movement`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Phase {
    pub season: Season,
    pub year: i32,
    pub kind: PhaseKind,
}

impl Phase {
    /// The map's first phase: its starting season and year, in the season's first
    /// phase (a winter start is the adjustment phase: builds before any move).
    pub fn first(map: &Map) -> Phase {
        Phase {
            season: map.start_season,
            year: map.start_year,
            kind: if map.start_season == Season::Winter {
                PhaseKind::Adjustment
            } else {
                PhaseKind::Movement
            },
        }
    }

    /// The map's first movement phase: [`Phase::first`], or the spring after a map
    /// that starts in winter.
    pub fn first_movement(map: &Map) -> Phase {
        let first = Phase::first(map);
        match first.kind {
            PhaseKind::Adjustment => Phase {
                season: Season::Spring,
                year: first.year.saturating_add(1),
                kind: PhaseKind::Movement,
            },
            _ => first,
        }
    }

    /// Read `Spring 1901`, `Fall 1901 retreat`, `Winter 1901`, `S1901M`, `F1901R`, `W1901A`:
    /// exactly the forms of docs/CLI.md ("Phase formats"), in any case. Anything else,
    /// such as `Spring of 1901`, `Spring 1901 movementxyz` or trailing words, is refused.
    pub fn parse(s: &str) -> Result<Phase, PhaseError> {
        let shown = || s.trim().chars().take(80).collect::<String>();
        let err = || PhaseError::Unknown(shown());
        let t = s.trim().to_ascii_lowercase();
        let words: Vec<&str> = t.split_whitespace().collect();
        // A year of digits within `map::YEARS` (however many digits: no overflow).
        let year = |y: &str| -> Result<i32, PhaseError> {
            if y.is_empty() || !y.bytes().all(|b| b.is_ascii_digit()) {
                return Err(err());
            }
            let digits = y.trim_start_matches('0');
            let n: i64 = match digits.len() {
                0 => 0,
                1..=9 => digits.parse().map_err(|_| err())?,
                _ => i64::MAX,
            };
            match crate::map::year_problem(n) {
                Some(_) => Err(PhaseError::Year(shown())),
                None => i32::try_from(n).map_err(|_| err()),
            }
        };
        let (season, year, kind) = match words.as_slice() {
            [w] => {
                let mut cs = w.chars();
                let season = match cs.next() {
                    Some('s') => Season::Spring,
                    Some('f') => Season::Fall,
                    Some('w') => Season::Winter,
                    _ => return Err(err()),
                };
                let rest = cs.as_str();
                let digits =
                    rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                let kind = match &rest[digits..] {
                    "m" | "" => None,
                    "r" => Some(PhaseKind::Retreat),
                    "a" | "b" => Some(PhaseKind::Adjustment),
                    _ => return Err(err()),
                };
                (season, year(&rest[..digits])?, kind)
            }
            [season, y, kind @ ..] if kind.len() <= 1 => {
                let season = match *season {
                    "spring" => Season::Spring,
                    "fall" | "autumn" => Season::Fall,
                    "winter" => Season::Winter,
                    _ => return Err(err()),
                };
                let kind = match kind.first().copied() {
                    None => None,
                    Some("movement" | "moves" | "move") => Some(PhaseKind::Movement),
                    Some("retreat" | "retreats") => Some(PhaseKind::Retreat),
                    Some("adjustment" | "adjustments" | "builds" | "build") => {
                        Some(PhaseKind::Adjustment)
                    }
                    Some(_) => return Err(err()),
                };
                (season, year(y)?, kind)
            }
            _ => return Err(err()),
        };
        let kind = kind.unwrap_or(if season == Season::Winter {
            PhaseKind::Adjustment
        } else {
            PhaseKind::Movement
        });
        if (season == Season::Winter) != (kind == PhaseKind::Adjustment) {
            return Err(err());
        }
        Ok(Phase { season, year, kind })
    }
}

/// A phase name [`Phase::parse`] does not read (the text, cut to 80 characters).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PhaseError {
    #[error(
        "unknown phase `{0}`: write a season, a year and optionally the kind, e.g. `Spring 1901`, \
         `Fall 1901 retreat`, `Winter 1901`, or the short forms `S1901M`, `F1901R`, `W1901A`"
    )]
    Unknown(String),
    /// A year outside [`crate::map::YEARS`].
    #[error("the phase `{0}` is outside the years arbiter plays, 1 to 9999")]
    Year(String),
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let k = match self.kind {
            PhaseKind::Movement => "movement",
            PhaseKind::Retreat => "retreat",
            PhaseKind::Adjustment => "adjustment",
        };
        write!(f, "{} {} {}", self.season, self.year, k)
    }
}

/// The phase a slip's heading names: its season and year, and its kind when the
/// heading says one (`Spring 1905` says none; `S1905M`, `Fall 1905 retreats` do).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Heading {
    pub phase: Phase,
    pub kind_stated: bool,
    /// The year was written with two digits (`Fall '01`): `phase.year` holds them, and
    /// the heading fits any year that ends with them.
    pub short_year: bool,
}

impl Heading {
    /// The phase named by a heading in any of the ways players write one: `Spring
    /// 1905`, `Germany, Spring 1905`, `S1905M`, `F1901R`, `Winter 1901`, `Spring 1905
    /// Movement`, `1905 Spring`, `Spring of 1905 orders`, `Fall 1901 builds` (Winter
    /// 1901). Its season, year and kind words are picked out of the other words (a
    /// power, `orders`, `of`) and read by [`Phase::parse`]. `None` when it names no
    /// season with a year, or two different ones.
    pub fn read(text: &str) -> Option<Heading> {
        let lower = text.to_ascii_lowercase();
        let mut season: Option<&str> = None;
        let mut year: Option<&str> = None;
        let mut kind: Option<&str> = None;
        let mut code: Option<Heading> = None;
        let set = |slot: &mut Option<&'static str>, w: &'static str| -> bool {
            let same = slot.is_none_or(|s| s == w);
            *slot = Some(w);
            same
        };
        for w in lower.split(|c: char| !c.is_ascii_alphanumeric()) {
            let ok = match w {
                "" => true,
                "spring" | "spr" => set(&mut season, "spring"),
                "fall" | "autumn" | "aut" => set(&mut season, "fall"),
                "winter" | "wtr" => set(&mut season, "winter"),
                "movement" | "movements" | "moves" | "move" => set(&mut kind, "movement"),
                "retreat" | "retreats" => set(&mut kind, "retreat"),
                "adjustment" | "adjustments" | "builds" | "build" => set(&mut kind, "adjustment"),
                w if w.bytes().all(|b| b.is_ascii_digit()) => {
                    let same = year.is_none_or(|y| y == w);
                    year = Some(w);
                    same
                }
                w if w.bytes().any(|b| b.is_ascii_digit()) => match Phase::parse(w) {
                    Ok(phase) => {
                        let h = Heading {
                            phase,
                            kind_stated: w.ends_with(|c: char| c.is_ascii_alphabetic()),
                            short_year: false,
                        };
                        let same = code.is_none_or(|c| c == h);
                        code = Some(h);
                        same
                    }
                    Err(_) => true,
                },
                _ => true,
            };
            if !ok {
                return None;
            }
        }
        let worded = match (season, year) {
            (Some(season), Some(year)) => {
                // `Fall 1901 builds`: the adjustments after Fall 1901 are Winter 1901's.
                let season = match (season, kind) {
                    ("fall", Some("adjustment")) => "winter",
                    _ => season,
                };
                let named = format!("{season} {year} {}", kind.unwrap_or(""));
                Phase::parse(&named).ok().map(|phase| Heading {
                    phase,
                    kind_stated: kind.is_some(),
                    short_year: year.len() <= 2,
                })
            }
            _ => None,
        };
        match (code, worded) {
            (Some(c), Some(w)) if c.phase != w.phase => None,
            (Some(c), _) => Some(c),
            (None, w) => w,
        }
    }

    /// Does the heading fit the phase judged (its kind too, when it says one)?
    pub fn fits(&self, phase: Phase) -> bool {
        self.phase.season == phase.season
            && (self.phase.year == phase.year
                || (self.short_year && self.phase.year == phase.year.rem_euclid(100)))
            && (!self.kind_stated || self.phase.kind == phase.kind)
    }
}

impl std::fmt::Display for Heading {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let p = self.phase;
        if self.short_year {
            write!(f, "{} '{:02}", p.season, p.year)?;
            if self.kind_stated {
                let k = match p.kind {
                    PhaseKind::Movement => "movement",
                    PhaseKind::Retreat => "retreat",
                    PhaseKind::Adjustment => "adjustment",
                };
                write!(f, " {k}")?;
            }
            Ok(())
        } else if self.kind_stated {
            write!(f, "{}", self.phase)
        } else {
            write!(f, "{} {}", self.phase.season, self.phase.year)
        }
    }
}

/// An error for every heading of a slip that names another phase than `phase`, the
/// one being judged (`Spring 1905` on a slip judged in Fall 1905): the referee
/// checks the slip, corrects its heading, or accepts it as it is.
pub fn slip_phase_diagnostics(labels: &[Label], phase: Phase) -> Vec<Diagnostic> {
    labels
        .iter()
        .filter_map(|l| {
            let h = Heading::read(&l.text)?;
            (!h.fits(phase)).then(|| {
                let named = h.to_string();
                let read = if named.eq_ignore_ascii_case(&l.text) {
                    String::new()
                } else {
                    format!(" ({named})")
                };
                Diagnostic::error(
                    l.span,
                    format!(
                        "this slip is headed `{}`{read}, but the phase being judged is {phase}",
                        l.text
                    ),
                    Some(format!(
                        "check that the slip is for {phase}; if it is, correct its heading"
                    )),
                )
            })
        })
        .collect()
}

/// An error when a slip has no heading naming a phase and its file name names another
/// phase than `phase` (`Austria-S1902.txt` judged in Fall 1902: last phase's slip,
/// given by mistake). The file name is read as a heading, without its folders: its
/// words end at `-`, `_`, `.` or a space (`S1902`, `Spring-1902`; not `s1.txt`). The
/// error is at the slip's first line.
pub fn slip_file_phase_diagnostic(
    file: &str,
    labels: &[Label],
    phase: Phase,
) -> Option<Diagnostic> {
    if labels.iter().any(|l| Heading::read(&l.text).is_some()) {
        return None;
    }
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    if base.len() > 200 {
        return None;
    }
    let h = Heading::read(base)?;
    // `s1.txt`, `f2.txt`: numbered files, not years. A year has three digits or more,
    // or two after a season word (`Fall-01.txt`).
    if h.fits(phase) || (h.phase.year < 100 && !h.short_year) {
        return None;
    }
    Some(Diagnostic::error(
        Span {
            line: 1,
            start: 0,
            end: 0,
        },
        format!("the file name `{base}` names {h}, but the phase being judged is {phase}"),
        Some(format!(
            "check that the slip is for {phase}; if it is, rename the file or head the slip \
             with the phase (`{phase}`)"
        )),
    ))
}

/// A unit dislodged in a movement phase, waiting for the retreat phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dislodged {
    pub unit: Unit,
    /// The province the attacker came from.
    pub by: Prov,
    /// Where it may retreat (decided by the movement phase, DATC 6.H.13, 6.H.14).
    pub retreats: Vec<Loc>,
}

/// The game state at the start of a phase: units, supply-centre owners, and (in a
/// retreat phase) the dislodged units.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub phase: Phase,
    /// The units on the board (dislodged units are not among them).
    pub units: Vec<Unit>,
    /// Per province: the power owning the supply centre there.
    pub owners: Vec<Option<Power>>,
    /// The units dislodged in the last movement phase, with their retreats.
    pub dislodged: Vec<Dislodged>,
    /// Per power (map order): builds saved last winter for a colonial build in the
    /// coming adjustment phase (maps with the colonial build rule). Empty when no
    /// power has one; read it with [`Position::saved_by`].
    pub saved: Vec<u32>,
}

/// What the user wrote, quoted in a message: each invisible or control character
/// named (`A PAR<U+200F RIGHT-TO-LEFT MARK>`).
fn q(text: &str) -> std::borrow::Cow<'_, str> {
    crate::orders::name_invisibles(text)
}

/// A problem reading a position.
#[derive(Debug, thiserror::Error)]
pub enum PositionError {
    #[error("{0}")]
    Yaml(#[from] crate::yaml::YamlError),
    #[error("{0}")]
    Phase(#[from] PhaseError),
    #[error("unknown power `{}`", q(.0))]
    Power(String),
    /// Two keys that name one power (`france` and `FRANCE`): one list would be merged
    /// into the other, or replace it, without a word.
    #[error(
        "the power `{}` is given twice (as `{}` and `{}`): give each power once",
        q(.power),
        q(.first),
        q(.second)
    )]
    PowerTwice {
        power: String,
        first: String,
        second: String,
    },
    #[error("power {}: cannot read unit `{}`: write `A par` or `F stp/sc`", q(.power), q(.unit))]
    Unit { power: String, unit: String },
    #[error("two units in {0}")]
    Occupied(String),
    #[error("power {}: `{}` cannot stand there: {why}", q(.power), q(.unit))]
    Misplaced {
        power: String,
        unit: String,
        why: String,
    },
    #[error("unknown supply centre `{}`", q(.0))]
    Centre(String),
    #[error("the supply centre {0} is listed for two powers")]
    TwoOwners(String),
    /// One power lists a centre twice (a slip of the pen, or an edit gone wrong).
    #[error("power {power}: the supply centre {centre} is listed twice")]
    CentreTwice { power: String, centre: String },
    #[error("unknown place `{}`", q(.0))]
    Place(String),
    #[error("dislodged `{}` cannot retreat to `{}`: not a place it could move to", q(.unit), q(.to))]
    Retreat { unit: String, to: String },
    /// A retreat option that the board refuses (occupied, the attacker's province):
    /// `why` says which rule.
    #[error("dislodged `{}` cannot retreat to `{}`: {why}", q(.unit), q(.to))]
    RetreatRefused {
        unit: String,
        to: String,
        why: String,
    },
    /// A dislodged unit's attacker (`by`, the unit that stands in its province) that
    /// cannot be.
    #[error("dislodged `{}`: `by: {}` cannot be: {why}", q(.unit), q(.by))]
    By {
        unit: String,
        by: String,
        why: String,
    },
    #[error("dislodged units are given for {0}: they belong to a retreat phase (write e.g. `phase: Fall 1901 retreat`)")]
    DislodgedOutsideRetreat(String),
    #[error(
        "{0} has no dislodged units: a retreat phase needs some (give them under \
         `dislodged`, or the phase that follows: a retreat phase with nobody dislodged is \
         skipped)"
    )]
    RetreatWithoutDislodged(String),
    #[error("power {power}: {why}")]
    Saved { power: String, why: String },
    #[error(
        "the position is empty (no phase, no units): an empty board is written `units: {{}}` \
         (with a `phase:` line for a phase other than the map's first)"
    )]
    Empty,
    /// An error in a position file, with where it is written there.
    #[error("line {line}, column {column}: {error}")]
    At {
        line: usize,
        column: usize,
        error: Box<PositionError>,
    },
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct PositionFile {
    #[serde(default)]
    phase: Option<String>,
    #[serde(default, deserialize_with = "crate::yaml::unique_keys")]
    units: BTreeMap<String, Vec<String>>,
    #[serde(default, deserialize_with = "crate::yaml::unique_keys")]
    owners: Option<BTreeMap<String, Vec<String>>>,
    #[serde(default)]
    dislodged: Vec<DislodgedEntry>,
    #[serde(default, deserialize_with = "crate::yaml::unique_keys")]
    saved: BTreeMap<String, u32>,
}

/// A dislodged unit as position files, game files and batch lines write it:
/// `{power: france, unit: F PIC, by: BUR, retreats: [BEL, BRE]}` (`by` optional).
#[derive(Deserialize, serde::Serialize, Clone, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct DislodgedEntry {
    pub power: String,
    pub unit: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    pub retreats: Vec<String>,
}

impl DislodgedEntry {
    /// The written form of a dislodged `unit`, attacked from `by`, that may retreat to
    /// `retreats`: ids in upper case (`F PIC`, `BUR`), as every file and answer writes it.
    pub fn new(map: &Map, unit: &Unit, by: Prov, retreats: &[Loc]) -> DislodgedEntry {
        DislodgedEntry {
            power: map.power(unit.power).id.clone(),
            unit: unit.short(map),
            by: Some(map.loc_upper(by.into()).to_string()),
            retreats: retreats
                .iter()
                .map(|&l| map.loc_upper(l).to_string())
                .collect(),
        }
    }
}

impl Dislodged {
    /// The written form of this unit ([`DislodgedEntry::new`]).
    pub fn entry(&self, map: &Map) -> DislodgedEntry {
        DislodgedEntry::new(map, &self.unit, self.by, &self.retreats)
    }
}

impl Position {
    /// The map's starting position.
    pub fn initial(map: &Map) -> Position {
        let units = map
            .power_ids()
            .flat_map(|p| {
                map.power(p).units.iter().map(move |&(kind, loc)| Unit {
                    power: p,
                    kind,
                    loc,
                })
            })
            .collect();
        Position {
            phase: Phase::first(map),
            units,
            owners: Self::home_owners(map),
            dislodged: Vec::new(),
            saved: Vec::new(),
        }
    }

    /// The map's starting owners: every home centre owned by its power, and the
    /// centres a power `owns` at the start (colonies); the rest unowned
    /// ([`Map::starting_owners`]). A position file without `owners` gets these.
    pub fn home_owners(map: &Map) -> Vec<Option<Power>> {
        map.starting_owners()
    }

    /// The builds `power` saved last winter for a colonial build.
    pub fn saved_by(&self, power: Power) -> u32 {
        self.saved.get(power.0 as usize).copied().unwrap_or(0)
    }

    /// Set the saved builds per power (map order); all zero is stored as empty, so
    /// equal positions compare equal however they were made.
    pub fn set_saved(&mut self, saved: Vec<u32>) {
        self.saved = if saved.iter().all(|&n| n == 0) {
            Vec::new()
        } else {
            saved
        };
    }

    /// Set the saved builds from counts by power name (position and game files). A
    /// saved build needs a map with the colonial build rule.
    pub fn set_saved_by_name<'a>(
        &mut self,
        map: &Map,
        saved: impl IntoIterator<Item = (&'a str, u32)>,
    ) -> Result<(), PositionError> {
        let mut out = vec![0u32; map.powers.len()];
        let saved: Vec<(&str, u32)> = saved.into_iter().collect();
        unique_powers(map, saved.iter().map(|&(k, _)| k))?;
        for (power, n) in saved {
            let pw = map
                .power_by_name(power)
                .ok_or_else(|| PositionError::Power(power.to_string()))?;
            if n > 0 && map.build_rule != crate::map::BuildRule::Colonial {
                return Err(PositionError::Saved {
                    power: power.to_string(),
                    why: format!(
                        "saved builds are for colonial builds, and the map `{}` has none \
                         (its build rule is `{}`)",
                        map.name,
                        map.build_rule.name()
                    ),
                });
            }
            if let Some(slot) = out.get_mut(pw.0 as usize) {
                *slot = n;
            }
        }
        self.set_saved(out);
        Ok(())
    }

    /// The unit in a province, if any.
    pub fn unit_in(&self, map: &Map, p: Prov) -> Option<&Unit> {
        self.units.iter().find(|u| map.prov_of(u.loc) == p)
    }

    /// Read a unit written `A par`, `F stp/sc`, `F St Petersburg (south coast)`.
    /// The location is an id (`par`, `stp/sc`) or a name the order parser reads as a
    /// unit's place (`St Petersburg (south coast)`).
    pub fn parse_unit(map: &Map, power: Power, s: &str) -> Option<Unit> {
        let (kind, rest) = UnitKind::split_unit(s)?;
        let loc = map.loc_by_id(rest).or_else(|| {
            let o = crate::orders::parse_order(map, rest, None).ok()?;
            match o.kind {
                crate::orders::OrderKind::Hold => o.unit.map(|u| u.loc),
                _ => None,
            }
        })?;
        Some(Unit { power, kind, loc })
    }

    /// Build a position from units given per power name (as in the batch input).
    pub fn from_units<'a, S: AsRef<str> + 'a>(
        map: &Map,
        phase: Phase,
        units: impl IntoIterator<Item = (&'a str, &'a [S])>,
    ) -> Result<Position, PositionError> {
        let mut out = Vec::new();
        // Provinces already holding a unit, as bits (a loaded map has at most
        // `MAX_PROVINCES`).
        let mut taken = [0u64; crate::map::MAX_PROVINCES / 64];
        let units: Vec<(&str, &[S])> = units.into_iter().collect();
        unique_powers(map, units.iter().map(|&(k, _)| k))?;
        for (power, list) in units {
            let pw = map
                .power_by_name(power)
                .ok_or_else(|| PositionError::Power(power.to_string()))?;
            for u in list {
                let u = u.as_ref();
                let mut unit = Self::parse_unit(map, pw, u).ok_or_else(|| PositionError::Unit {
                    power: power.to_string(),
                    unit: u.to_string(),
                })?;
                let p = map.prov_of(unit.loc);
                let why = map.placement_problem(unit.kind, unit.loc);
                if let Some(why) = why {
                    return Err(PositionError::Misplaced {
                        power: power.to_string(),
                        unit: u.to_string(),
                        why,
                    });
                }
                if unit.kind == UnitKind::Army {
                    unit.loc = p.into();
                }
                let (word, bit) = (p.0 as usize / 64, 1u64 << (p.0 % 64));
                let Some(w) = taken.get_mut(word) else {
                    // Not reached: the loader refuses a map of more provinces.
                    return Err(PositionError::Unit {
                        power: power.to_string(),
                        unit: u.to_string(),
                    });
                };
                if *w & bit != 0 {
                    return Err(PositionError::Occupied(map.province(p).name.clone()));
                }
                *w |= bit;
                out.push(unit);
            }
        }
        Ok(Position {
            phase,
            units: out,
            owners: Self::home_owners(map),
            dislodged: Vec::new(),
            saved: Vec::new(),
        })
    }

    /// Add dislodged units (with their retreats) to the position.
    pub fn set_dislodged(
        &mut self,
        map: &Map,
        entries: &[DislodgedEntry],
    ) -> Result<(), PositionError> {
        for e in entries {
            let pw = map
                .power_by_name(&e.power)
                .ok_or_else(|| PositionError::Power(e.power.clone()))?;
            let mut unit =
                Self::parse_unit(map, pw, &e.unit).ok_or_else(|| PositionError::Unit {
                    power: e.power.clone(),
                    unit: e.unit.clone(),
                })?;
            if let Some(why) = map.placement_problem(unit.kind, unit.loc) {
                return Err(PositionError::Misplaced {
                    power: e.power.clone(),
                    unit: e.unit.clone(),
                    why,
                });
            }
            let p = map.prov_of(unit.loc);
            if unit.kind == UnitKind::Army {
                unit.loc = p.into();
            }
            if self.dislodged.iter().any(|d| map.prov_of(d.unit.loc) == p) {
                return Err(PositionError::Occupied(map.province(p).name.clone()));
            }
            let by = match &e.by {
                Some(b) => map
                    .prov_by_id(b)
                    .ok_or_else(|| PositionError::Place(b.clone()))?,
                None => p,
            };
            // Where the attacker came from, checked against the unit that stands in
            // the province now (the attacker): it could move from there, by land or
            // sea, or (an army between two coasts) by convoy.
            let attacker = self.units.iter().find(|u| map.prov_of(u.loc) == p);
            let by_convoy = e.by.is_some()
                && attacker.is_none_or(|a| a.kind == UnitKind::Army)
                && map.is_coastal(by)
                && map.is_coastal(p);
            if let Some(b) = &e.by {
                let refuse = |why: String| PositionError::By {
                    unit: e.unit.clone(),
                    by: b.clone(),
                    why,
                };
                if by == p {
                    return Err(refuse(
                        "that is the unit's own province: `by` is the province the attack \
                         came from"
                            .into(),
                    ));
                }
                // The attacker's kind, or (no unit stands there) either kind.
                let kinds: &[UnitKind] = match attacker {
                    Some(a) if a.kind == UnitKind::Fleet => &[UnitKind::Fleet],
                    Some(_) => &[UnitKind::Army],
                    None => &[UnitKind::Army, UnitKind::Fleet],
                };
                let mut reached = kinds.iter().any(|&k| {
                    std::iter::once(Loc::from(by))
                        .chain(map.province(by).coasts.iter().copied())
                        .filter(|&l| map.placement_problem(k, l).is_none())
                        .any(|l| map.can_reach(k, l, p))
                });
                reached |= by_convoy;
                if !reached {
                    return Err(refuse(format!(
                        "{} could not have come from {} (not next to it, and no convoy \
                         could bring it)",
                        match attacker {
                            Some(a) if a.kind == UnitKind::Fleet => {
                                format!("the fleet in {}", map.province(p).name)
                            }
                            Some(_) => format!("the army in {}", map.province(p).name),
                            None => format!("a unit attacking {}", map.province(p).name),
                        },
                        map.province(by).name
                    )));
                }
            }
            let mut retreats = Vec::new();
            for r in &e.retreats {
                let l = map
                    .loc_by_id(r)
                    .ok_or_else(|| PositionError::Place(r.clone()))?;
                let l = if unit.kind == UnitKind::Army {
                    map.prov_of(l).into()
                } else {
                    l
                };
                if !map.can_reach(unit.kind, unit.loc, map.prov_of(l))
                    || map.placement_problem(unit.kind, l).is_some()
                {
                    return Err(PositionError::Retreat {
                        unit: e.unit.clone(),
                        to: r.clone(),
                    });
                }
                let q = map.prov_of(l);
                let refuse = |why: String| PositionError::RetreatRefused {
                    unit: e.unit.clone(),
                    to: r.clone(),
                    why,
                };
                if let Some(there) = self.units.iter().find(|u| map.prov_of(u.loc) == q) {
                    return Err(refuse(format!(
                        "{} is occupied (by {} of {}); a unit retreats only to an empty place",
                        map.province(q).name,
                        there.short(map),
                        map.power(there.power).name
                    )));
                }
                if let Some(&first) = retreats.iter().find(|&&f| f == l) {
                    return Err(refuse(format!(
                        "{} is already among its retreats (`{}`): list each place once",
                        map.province(q).name,
                        map.loc_upper(first)
                    )));
                }
                if e.by.is_some() && q == by && !by_convoy {
                    return Err(refuse(format!(
                        "the attack came from {} (`by`): a unit may not retreat to the \
                         province its attacker came from, unless the attack came by convoy",
                        map.province(q).name
                    )));
                }
                retreats.push(l);
            }
            self.dislodged.push(Dislodged { unit, by, retreats });
        }
        Ok(())
    }

    /// Set supply-centre owners from lists by power; centres not listed are unowned.
    pub fn set_owners<'a, S: AsRef<str> + 'a>(
        &mut self,
        map: &Map,
        owners: impl IntoIterator<Item = (&'a str, &'a [S])>,
    ) -> Result<(), PositionError> {
        self.owners = vec![None; map.province_count()];
        let owners: Vec<(&str, &[S])> = owners.into_iter().collect();
        unique_powers(map, owners.iter().map(|&(k, _)| k))?;
        for (power, list) in owners {
            let pw = map
                .power_by_name(power)
                .ok_or_else(|| PositionError::Power(power.to_string()))?;
            for c in list {
                let c = c.as_ref();
                let p = map
                    .prov_by_id(c)
                    .filter(|&p| map.province(p).supply)
                    .ok_or_else(|| PositionError::Centre(c.to_string()))?;
                let Some(slot) = self.owners.get_mut(p.0 as usize) else {
                    return Err(PositionError::Centre(c.to_string()));
                };
                if slot.is_some_and(|o| o != pw) {
                    return Err(PositionError::TwoOwners(map.province(p).name.clone()));
                }
                if *slot == Some(pw) {
                    return Err(PositionError::CentreTwice {
                        power: power.to_string(),
                        centre: map.province(p).name.clone(),
                    });
                }
                *slot = Some(pw);
            }
        }
        Ok(())
    }

    /// Read a position file (YAML): `phase`, `units` by power, optional `owners` by
    /// power, optional `dislodged` units with their retreats, optional `saved` builds
    /// by power (colonial build rule).
    ///
    /// Every error names the line and column of what it is about; an empty file (only
    /// blank lines and comments) is an error, not an empty board.
    pub fn from_yaml(map: &Map, src: &str) -> Result<Position, PositionError> {
        if is_empty_yaml(src) {
            return Err(PositionError::At {
                line: 1,
                column: 1,
                error: Box::new(PositionError::Empty),
            });
        }
        let f: PositionFile = crate::yaml::from_str(src)?;
        // Where an error of a part is written: found only when there is one.
        // A power's name that is a key (of `units`, `owners`, `saved`) is an error of
        // the key, anything else of its value.
        let at = |path: String| {
            move |e: PositionError| {
                let locations = crate::map::locate::Locations::scan(src);
                let key = matches!(
                    e,
                    PositionError::Power(_)
                        | PositionError::PowerTwice { .. }
                        | PositionError::Saved { .. }
                ) && !path.starts_with("dislodged");
                let pos = key
                    .then(|| locations.key(&path))
                    .flatten()
                    .unwrap_or_else(|| locations.nearest(&path));
                PositionError::At {
                    line: pos.line,
                    column: pos.column,
                    error: Box::new(e),
                }
            }
        };
        let phase = match &f.phase {
            Some(s) => Phase::parse(s).map_err(|e| at("phase".into())(e.into()))?,
            None => Phase::first(map),
        };
        let mut pos = Self::from_units(
            map,
            phase,
            f.units.iter().map(|(k, v)| (k.as_str(), v.as_slice())),
        )
        .map_err(|e| {
            let path = units_error_path(map, "units", &f.units, &e);
            at(path)(e)
        })?;
        if let Some(owners) = &f.owners {
            pos.set_owners(map, owners.iter().map(|(k, v)| (k.as_str(), v.as_slice())))
                .map_err(|e| {
                    let path = units_error_path(map, "owners", owners, &e);
                    at(path)(e)
                })?;
        }
        for (i, d) in f.dislodged.iter().enumerate() {
            pos.set_dislodged(map, std::slice::from_ref(d))
                .map_err(|e| {
                    let field = match &e {
                        PositionError::Power(_) => "power".to_string(),
                        PositionError::Place(x) if d.by.as_ref() == Some(x) => "by".into(),
                        PositionError::By { .. } => "by".into(),
                        PositionError::Place(x)
                        | PositionError::Retreat { to: x, .. }
                        | PositionError::RetreatRefused { to: x, .. } => d
                            .retreats
                            .iter()
                            .position(|r| r == x)
                            .map_or("retreats".into(), |j| format!("retreats.{j}")),
                        _ => "unit".into(),
                    };
                    at(format!("dislodged.{i}.{field}"))(e)
                })?;
        }
        pos.check_dislodged().map_err(|e| match e {
            PositionError::RetreatWithoutDislodged(_) => at("phase".into())(e),
            _ => at("dislodged".into())(e),
        })?;
        for (k, v) in &f.saved {
            pos.set_saved_by_name(map, std::iter::once((k.as_str(), *v)))
                .map_err(|e| at(format!("saved.{k}"))(e))?;
        }
        pos.set_saved_by_name(map, f.saved.iter().map(|(k, v)| (k.as_str(), *v)))
            .map_err(|e| match &e {
                PositionError::PowerTwice { second, .. } => at(format!("saved.{second}"))(e),
                _ => at("saved".into())(e),
            })?;
        Ok(pos)
    }

    /// Dislodged units belong to a retreat phase, and a retreat phase has some (one
    /// with nobody dislodged is never played: it is skipped).
    pub fn check_dislodged(&self) -> Result<(), PositionError> {
        if !self.dislodged.is_empty() && self.phase.kind != PhaseKind::Retreat {
            return Err(PositionError::DislodgedOutsideRetreat(
                self.phase.to_string(),
            ));
        }
        if self.dislodged.is_empty() && self.phase.kind == PhaseKind::Retreat {
            return Err(PositionError::RetreatWithoutDislodged(
                self.phase.to_string(),
            ));
        }
        Ok(())
    }
}

/// The power each key names, each power once: keys that name one power (`france`,
/// `FRANCE`, `France`) are refused, as an exact key given twice is. Unknown powers
/// are left to the caller.
pub fn unique_powers<'a>(
    map: &Map,
    keys: impl IntoIterator<Item = &'a str>,
) -> Result<(), PositionError> {
    let mut seen: Vec<Option<&'a str>> = vec![None; map.powers.len()];
    for k in keys {
        let Some(pw) = map.power_by_name(k) else {
            continue;
        };
        match seen.get_mut(pw.0 as usize) {
            Some(Some(first)) => {
                return Err(PositionError::PowerTwice {
                    power: map.power(pw).id.clone(),
                    first: (*first).to_string(),
                    second: k.to_string(),
                })
            }
            Some(slot) => *slot = Some(k),
            None => {}
        }
    }
    Ok(())
}

impl PositionError {
    /// Does this error name what the map lacks: a power, a place or a supply centre
    /// that is not the map's (a position read against another map, or a map changed
    /// since)? Other errors are about the position itself.
    pub fn names_what_the_map_lacks(&self) -> bool {
        match self {
            PositionError::Power(_)
            | PositionError::Unit { .. }
            | PositionError::Centre(_)
            | PositionError::Place(_) => true,
            PositionError::At { error, .. } => error.names_what_the_map_lacks(),
            _ => false,
        }
    }
}

/// A YAML text with nothing in it: blank lines, comments, document markers.
fn is_empty_yaml(src: &str) -> bool {
    src.lines().all(|l| {
        let t = l.trim();
        t.is_empty() || t.starts_with('#') || t == "---" || t == "..."
    })
}

/// The key path in a position file of what an error of the `units` (or `owners`)
/// lists is about: the power's key, or the entry of the list.
fn units_error_path(
    map: &Map,
    section: &str,
    lists: &BTreeMap<String, Vec<String>>,
    e: &PositionError,
) -> String {
    let entry = |pred: &dyn Fn(&str, &str) -> bool, nth: usize| {
        lists
            .iter()
            .flat_map(|(pw, l)| l.iter().enumerate().map(move |(i, u)| (pw, i, u)))
            .filter(|(pw, _, u)| pred(pw, u))
            .nth(nth)
            .map(|(pw, i, _)| format!("{section}.{pw}.{i}"))
    };
    let province_name = |pw: &str, u: &str| -> Option<String> {
        let p = match map.power_by_name(pw) {
            Some(power) if section == "units" => {
                map.prov_of(Position::parse_unit(map, power, u)?.loc)
            }
            _ => map.prov_by_id(u)?,
        };
        Some(map.province(p).name.clone())
    };
    let found = match e {
        PositionError::Power(p) | PositionError::PowerTwice { second: p, .. } => {
            Some(format!("{section}.{p}"))
        }
        PositionError::Unit { power, unit } | PositionError::Misplaced { power, unit, .. } => {
            entry(&|pw, u| pw == power && u == unit, 0)
        }
        PositionError::Centre(c) => entry(&|_, u| u == c, 0),
        // The second unit (or listing) of the province.
        PositionError::Occupied(name) | PositionError::TwoOwners(name) => entry(
            &|pw, u| province_name(pw, u).as_deref() == Some(name.as_str()),
            1,
        ),
        PositionError::CentreTwice { power, centre } => entry(
            &|pw, u| pw == power && province_name(pw, u).as_deref() == Some(centre.as_str()),
            1,
        ),
        _ => None,
    };
    found.unwrap_or_else(|| section.to_string())
}

/// Why `year` cannot be a game's last year on `map`, if it cannot: outside
/// [`crate::map::YEARS`], or before the map's first year of moves (a game ends after a
/// Fall turn: a map starting in winter has its first in the next year).
pub fn last_year_problem(map: &Map, year: i32) -> Option<String> {
    if let Some(p) = crate::map::year_problem(i64::from(year)) {
        return Some(p);
    }
    let first = Phase::first_movement(map).year;
    (year < first).then(|| format!("{year} is before the map's first year of moves, {first}"))
}

/// Why `phase` cannot be played in a game whose last year is `last_year`, if it
/// cannot: a game ends after the Fall turn of its last year, so no phase after it (a
/// later year, or that year's winter) is played.
pub fn past_last_year(phase: Phase, last_year: i32) -> Option<String> {
    let past = phase.year > last_year
        || (phase.year == last_year && phase.season == crate::map::Season::Winter);
    past.then(|| {
        format!(
            "{phase} is past the last year {last_year} (a game ends after the Fall turn of \
             its last year)"
        )
    })
}

/// The phase after `p` in the yearly sequence (none skipped).
pub fn next_phase(p: Phase) -> Phase {
    let (season, year, kind) = match (p.season, p.kind) {
        (Season::Spring, PhaseKind::Movement) => (Season::Spring, p.year, PhaseKind::Retreat),
        (Season::Spring, _) => (Season::Fall, p.year, PhaseKind::Movement),
        (Season::Fall, PhaseKind::Movement) => (Season::Fall, p.year, PhaseKind::Retreat),
        (Season::Fall, _) => (Season::Winter, p.year, PhaseKind::Adjustment),
        (Season::Winter, _) => (
            Season::Spring,
            p.year.saturating_add(1),
            PhaseKind::Movement,
        ),
    };
    Phase { season, year, kind }
}

/// A position or orders with an id that is not on the map they are judged on: they
/// were read against another map. Ids are dense indices into one [`Map`]'s tables, so
/// [`check_ids`] refuses them at the entry of [`advance`] and
/// [`crate::judge::adjudicate`] rather than letting an index run out of bounds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} is not on map `{map}`: the position or the orders were read against another map")]
pub struct ForeignIds {
    pub what: String,
    pub map: String,
}

/// The sizes of `map`'s tables that ids index, and the error naming the map.
pub(crate) struct Ids<'a> {
    map: &'a Map,
    nlocs: usize,
    nprovs: usize,
    npowers: usize,
}

impl Ids<'_> {
    pub(crate) fn of(map: &Map) -> Ids<'_> {
        Ids {
            map,
            nlocs: map.provinces.len() + map.coasts.len(),
            nprovs: map.province_count(),
            npowers: map.powers.len(),
        }
    }

    pub(crate) fn fail(&self, what: String) -> Result<(), ForeignIds> {
        Err(ForeignIds {
            what,
            map: self.map.name.clone(),
        })
    }

    pub(crate) fn loc_ok(&self, l: Loc) -> bool {
        (l.0 as usize) < self.nlocs
    }

    pub(crate) fn power_ok(&self, p: Power) -> bool {
        (p.0 as usize) < self.npowers
    }

    /// The first unit whose location or power is not on the map.
    pub(crate) fn units<'u>(
        &self,
        mut units: impl Iterator<Item = &'u Unit>,
    ) -> Result<(), ForeignIds> {
        match units.find(|u| !(self.loc_ok(u.loc) & self.power_ok(u.power))) {
            Some(u) => self.fail(format!("unit id {} of power id {}", u.loc.0, u.power.0)),
            None => Ok(()),
        }
    }

    /// One owner entry per province, each a power of the map; at most one saved count
    /// per power; every unit on the map.
    fn board<'u>(
        &self,
        owners: &[Option<Power>],
        saved: &[u32],
        units: impl Iterator<Item = &'u Unit>,
    ) -> Result<(), ForeignIds> {
        let nprovs = self.nprovs;
        if owners.len() != nprovs {
            return self.fail(format!(
                "an owner table of {} provinces (the map has {nprovs})",
                owners.len()
            ));
        }
        // The largest power id of the owner table, by one scan with no early exit.
        let owners_top = owners.iter().flatten().map(|p| p.0).max();
        if saved.len() > self.npowers || owners_top.is_some_and(|p| !self.power_ok(Power(p))) {
            return self.fail("a power of the position".into());
        }
        self.units(units)
    }

    pub(crate) fn orders(&self, orders: &[Order]) -> Result<(), ForeignIds> {
        // One past a location id, for the largest id an order names.
        let past = |l: Loc| usize::from(l.0) + 1;
        for o in orders {
            // One past the largest location id of the order's unit and the places it
            // names (at most three); 0 when it names none.
            let top = match o.kind {
                OrderKind::Move { to, .. } => past(to),
                OrderKind::Support { target, to } => past(target.loc).max(to.map_or(0, past)),
                OrderKind::Convoy { army, to } => past(army.loc).max(past(to)),
                _ => 0,
            }
            .max(o.unit.map_or(0, |u| past(u.loc)));
            let powers_ok = o.power.is_none_or(|p| self.power_ok(p))
                && o.stated.is_none_or(|(p, _)| self.power_ok(p));
            if top > self.nlocs || !powers_ok {
                return self.fail(format!(
                    "the order `{}`",
                    o.text.chars().take(80).collect::<String>()
                ));
            }
        }
        Ok(())
    }
}

/// Check that every id of `position` and `orders` indexes `map`'s tables: provinces,
/// locations and powers in range, one owner entry per province, one saved count per
/// power at most. Linear in the input.
pub fn check_ids(map: &Map, position: &Position, orders: &[Order]) -> Result<(), ForeignIds> {
    let ids = Ids::of(map);
    let nprovs = ids.nprovs;
    let dislodged = position.dislodged.iter().map(|d| &d.unit);
    ids.board(
        &position.owners,
        &position.saved,
        position.units.iter().chain(dislodged),
    )?;
    for d in &position.dislodged {
        if (d.by.0 as usize) >= nprovs || !d.retreats.iter().all(|&l| ids.loc_ok(l)) {
            return ids.fail("a retreat of a dislodged unit".into());
        }
    }
    ids.orders(orders)
}

/// [`check_ids`] for a board alone: an owner table, saved builds per power and units
/// (for the judge's helpers that read them without a whole position).
pub(crate) fn check_board_ids(
    map: &Map,
    owners: &[Option<Power>],
    saved: &[u32],
    units: &[Unit],
) -> Result<(), ForeignIds> {
    Ids::of(map).board(owners, saved, units.iter())
}

/// [`check_ids`] for units and orders alone: what a movement phase reads
/// ([`crate::judge::adjudicate`]: it never reads the owner table, saved builds or
/// dislodged units), and what the nationality warnings compare.
pub(crate) fn check_unit_ids(
    map: &Map,
    units: &[Unit],
    orders: &[Order],
) -> Result<(), ForeignIds> {
    let ids = Ids::of(map);
    ids.units(units.iter())?;
    ids.orders(orders)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_streaming_reader_reads_a_position_file_as_serde_yaml_does() {
        for (name, text) in crate::yaml::repo_texts("examples", ".yaml") {
            crate::yaml::assert_readers_agree::<PositionFile>(&text, &name);
        }
        // Nulls, numbers and booleans where words go, a key given twice.
        for text in [
            "units: {france: [A PAR, ~, '', 12, true]}\n",
            "units:\n  france:\n  - A PAR\n  -\n  - 0x1F\n",
            "phase: 1901\nsaved: {france: 2, england: 3}\n",
            "units: {france: [A PAR]}\nunits: {}\n",
            "units: {france: [A PAR], france: [A MAR]}\n",
            "dislodged: [{power: france, unit: A PAR, retreats: [BUR, 017]}]\n",
        ] {
            crate::yaml::assert_readers_agree::<PositionFile>(text, text);
        }
    }

    #[test]
    fn slip_headings() {
        let read = |t: &str| Heading::read(t).map(|h| h.to_string());
        for (text, named) in [
            ("Spring 1905", "Spring 1905"),
            ("Germany, Spring 1905", "Spring 1905"),
            ("GERMANY SPRING 1905:", "Spring 1905"),
            ("1905 Spring", "Spring 1905"),
            ("Spring of 1905 orders", "Spring 1905"),
            ("Spring 1905 Movement", "Spring 1905 movement"),
            ("S1905M", "Spring 1905 movement"),
            ("s1905", "Spring 1905"),
            ("F1901R", "Fall 1901 retreat"),
            ("== Fall 1901 Retreats ==", "Fall 1901 retreat"),
            ("Autumn 1901", "Fall 1901"),
            ("Winter 1901", "Winter 1901"),
            ("W1901A", "Winter 1901 adjustment"),
            ("Fall 1901 builds", "Winter 1901 adjustment"),
            ("S1905M Spring 1905", "Spring 1905 movement"),
        ] {
            assert_eq!(read(text).as_deref(), Some(named), "`{text}`");
        }
        // No season with a year, two of them, or a kind that season has not.
        for text in [
            "England",
            "Orders 1905",
            "Spring orders",
            "Spring 1901 Fall 1901",
            "S1901M F1901M",
            "Spring 1901 1902",
            "Spring 1901 builds",
            "Winter 1901 movement",
        ] {
            assert_eq!(read(text), None, "`{text}`");
        }
        let fall = Phase::parse("Fall 1905").unwrap();
        let retreat = Phase::parse("Fall 1905 retreat").unwrap();
        let h = Heading::read("Fall 1905").unwrap();
        assert!(h.fits(fall) && h.fits(retreat));
        let h = Heading::read("F1905M").unwrap();
        assert!(h.fits(fall) && !h.fits(retreat));
        assert!(!Heading::read("Spring 1905").unwrap().fits(fall));
        assert!(!Heading::read("Fall 1904").unwrap().fits(fall));
    }

    #[test]
    fn phases_in_long_and_short_form() {
        let p = Phase::parse("Spring 1901").unwrap();
        assert_eq!(
            (p.season, p.year, p.kind),
            (Season::Spring, 1901, PhaseKind::Movement)
        );
        let p = Phase::parse("Fall 1902 retreat").unwrap();
        assert_eq!(
            (p.season, p.year, p.kind),
            (Season::Fall, 1902, PhaseKind::Retreat)
        );
        let p = Phase::parse("W1903A").unwrap();
        assert_eq!(
            (p.season, p.year, p.kind),
            (Season::Winter, 1903, PhaseKind::Adjustment)
        );
        assert_eq!(
            Phase::parse("S1901M").unwrap().to_string(),
            "Spring 1901 movement"
        );
        assert!(Phase::parse("Winter 1901 movement").is_err());
        assert!(Phase::parse("Summer 1901").is_err());
    }

    #[test]
    fn positions_reject_misplaced_units() {
        let map = Map::standard();
        let phase = Phase::parse("Spring 1901").unwrap();
        let bad = |u: &str| {
            let units = [u.to_string()];
            Position::from_units(&map, phase, [("france", &units[..])])
                .unwrap_err()
                .to_string()
        };
        assert!(bad("A nth").contains("an army cannot be at sea"));
        assert!(bad("F par").contains("a fleet cannot be inland"));
        assert!(bad("F spa").contains("name the coast: spa/nc or spa/sc"));
        assert!(bad("A swi").contains("impassable"));
        assert!(bad("Q par").contains("cannot read unit"));
        let two = ["A par".to_string(), "F par".to_string()];
        assert!(Position::from_units(&map, phase, [("france", &two[..])]).is_err());
    }
}
