//! The board: dense ids, terrain, adjacency tables and names.
//!
//! A [`Map`] is built once from a YAML file (see `docs/MAPS.md` and [`file`]) and is
//! read-only afterwards. Every province, coast and power is a small integer; the
//! adjacency tables are bit sets, so adjudication never compares a string.

mod build;
pub mod dpjudge;
pub mod drawing;
pub mod file;
pub mod locate;
pub mod names;
mod set;

pub use build::{MapError, MapProblem, Omitted, ProblemCode, Severity, MAX_KEPT_PER_CODE};
pub use set::{Iter as ProvSetIter, ProvSet};

use std::fmt;

/// Maximum number of provinces a map may have (the width of [`ProvSet`]).
pub const MAX_PROVINCES: usize = 512;

/// Maximum number of powers a map may have.
pub const MAX_POWERS: usize = 64;

/// Maximum number of named coasts of one province.
pub const MAX_COASTS: usize = 8;

/// Maximum number of aliases of one province or coast.
pub const MAX_ALIASES: usize = 64;

/// The longest name, alias or adjective a map may give (in characters): longer than
/// any board's, short enough that a sheet line naming a place stays a line.
pub const MAX_NAME_CHARS: usize = 100;

/// Maximum number of entries in one list of a map file (`army`, `fleet`, `home`, `owns`,
/// `units`): more than any board can use (a province has at most 511 neighbours).
pub const MAX_LIST: usize = 1024;

/// A province (a space on the board), as a dense index into [`Map::provinces`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Prov(pub u16);

/// A place a unit can stand: a province, or one named coast of a split province.
/// Ids `0..provinces` are the provinces themselves; named coasts follow.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Loc(pub u16);

impl From<Prov> for Loc {
    fn from(p: Prov) -> Loc {
        Loc(p.0)
    }
}

/// A power (a player), as an index into [`Map::powers`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Power(pub u8);

/// Army or fleet.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
pub enum UnitKind {
    Army,
    Fleet,
}

impl UnitKind {
    /// `A` or `F`.
    pub fn letter(self) -> char {
        match self {
            UnitKind::Army => 'A',
            UnitKind::Fleet => 'F',
        }
    }
    /// `Army` or `Fleet`.
    pub fn word(self) -> &'static str {
        match self {
            UnitKind::Army => "Army",
            UnitKind::Fleet => "Fleet",
        }
    }

    /// A unit as map, position and game files write it (`A par`, `F stp/sc`,
    /// `Fleet St Petersburg (south coast)`): its type (`A`, `F`, `army` or `fleet`, in any
    /// case), white space, and the location as written (trimmed; the caller looks it up).
    /// `None` when the type is not one of those or no location follows. This is the one
    /// reading of a unit string.
    pub fn split_unit(s: &str) -> Option<(UnitKind, &str)> {
        let (k, rest) = s.trim().split_once(char::is_whitespace)?;
        let kind = if k.eq_ignore_ascii_case("a") || k.eq_ignore_ascii_case("army") {
            UnitKind::Army
        } else if k.eq_ignore_ascii_case("f") || k.eq_ignore_ascii_case("fleet") {
            UnitKind::Fleet
        } else {
            return None;
        };
        let rest = rest.trim_start();
        (!rest.is_empty()).then_some((kind, rest))
    }
}

/// What a province is made of.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Terrain {
    /// Water: fleets only; fleets here may convoy.
    Sea,
    /// A coastal province: land touching water, for armies and fleets (written
    /// `coast` in map files).
    #[serde(rename = "coast")]
    Coastal,
    /// Inland: armies only.
    Land,
    /// No unit may enter (Switzerland on the classic board).
    Impassable,
}

/// A province as compiled from the map file.
#[derive(Clone, Debug)]
pub struct Province {
    pub id: String,
    pub name: String,
    pub aliases: Vec<String>,
    pub terrain: Terrain,
    pub supply: bool,
    pub home: Option<Power>,
    /// May a unit be built here (a supply centre without `build: false`)? Whether a
    /// given power may build here also depends on the map's [`BuildRule`].
    pub buildable: bool,
    /// Drawing position on the map's picture.
    pub at: Option<(i32, i32)>,
    /// Named coasts (empty unless the province is split), as [`Loc`]s.
    pub coasts: Vec<Loc>,
}

/// A named coast of a split province.
#[derive(Clone, Debug)]
pub struct NamedCoast {
    pub province: Prov,
    /// Short id as written after the slash: `nc`.
    pub id: String,
    /// `North Coast`.
    pub name: String,
    /// Other words for it (`north`, `nc` are derived from the name and id anyway).
    pub aliases: Vec<String>,
    pub at: Option<(i32, i32)>,
}

/// A power as compiled from the map file.
#[derive(Clone, Debug)]
pub struct PowerInfo {
    pub id: String,
    pub name: String,
    pub adjective: String,
    pub home: Vec<Prov>,
    /// Supply centres owned at the start that are not home centres (colonies).
    pub owns: Vec<Prov>,
    /// Home centres that start unowned (`unowned_homes`).
    pub unowned_homes: Vec<Prov>,
    pub units: Vec<(UnitKind, Loc)>,
}

/// Where a power may build in an adjustment phase (the map's `builds` key). In every
/// rule a build site must be a supply centre the power owns, that is vacant and that
/// the map does not mark `build: false`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BuildRule {
    /// Only in its home centres (the classic rule).
    #[default]
    Home,
    /// In any centre it owns (`any` is accepted too).
    #[serde(alias = "any")]
    Owned,
    /// At once in its home centres; in any other centre it owns only with a build
    /// saved the winter before ("save for a colonial build"), one saved build per
    /// colonial unit. A saving not used the next winter is lost.
    Colonial,
}

impl BuildRule {
    /// The word the map file uses: `home`, `owned`, `colonial`.
    pub fn name(self) -> &'static str {
        match self {
            BuildRule::Home => "home",
            BuildRule::Owned => "owned",
            BuildRule::Colonial => "colonial",
        }
    }
}

/// Spring or Fall (movement and retreats) or Winter (adjustments).
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Season {
    Spring,
    Fall,
    Winter,
}

impl fmt::Display for Season {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Season::Spring => "Spring",
            Season::Fall => "Fall",
            Season::Winter => "Winter",
        })
    }
}

/// The years arbiter plays, everywhere (docs/CLI.md, "Files: one reader, one writer,
/// one lock"): a map's first year, every phase name read (position files, game files,
/// batch lines, slips' headings), `last_year` and `--last-year`, `selfplay --years`. Wide
/// enough for every published variant; a phase name writes at most four digits, so what
/// is written can always be read back. A game ends after the Fall turn of 9999 at the
/// latest.
pub const YEARS: std::ops::RangeInclusive<i32> = 1..=9999;

/// Why `year` cannot be a year of a game (outside [`YEARS`]), if it cannot.
pub fn year_problem(year: i64) -> Option<String> {
    (!(i64::from(*YEARS.start())..=i64::from(*YEARS.end())).contains(&year)).then(|| {
        format!(
            "the year {year} is outside the years arbiter plays, {} to {}",
            YEARS.start(),
            YEARS.end()
        )
    })
}

/// A compiled board.
#[derive(Clone, Debug)]
pub struct Map {
    pub name: String,
    pub title: String,
    /// Who designed the board (empty if not given).
    pub designer: String,
    /// Where the board comes from (empty if not given).
    pub source: String,
    /// A description for players (empty if not given).
    pub description: String,
    /// Where powers may build.
    pub build_rule: BuildRule,
    pub provinces: Vec<Province>,
    pub coasts: Vec<NamedCoast>,
    pub powers: Vec<PowerInfo>,
    pub victory: u16,
    pub start_season: Season,
    /// The first year: within [`YEARS`].
    pub start_year: i32,
    /// Per province: the provinces an army may move to.
    army_adj: Vec<ProvSet>,
    /// Per location: the locations a fleet there may move to.
    fleet_adj: Vec<Vec<Loc>>,
    /// Per location: the provinces a fleet there may move to (any coast).
    fleet_reach: Vec<ProvSet>,
    /// Per province: provinces reachable by a fleet from any of its coasts.
    fleet_reach_any: Vec<ProvSet>,
    /// Sea provinces (where a fleet may convoy).
    seas: ProvSet,
    /// Names players write, built on first use.
    names: std::sync::OnceLock<names::NameIndex>,
    /// Coastal provinces (where an army may be convoyed from or to).
    coastal: ProvSet,
    /// The seas numbered `0..`, for convoy searches on small bit sets; `None` when the
    /// map has more than 128 seas.
    sea_table: Option<SeaTable>,
    /// Every location's short id, for printing and lookup.
    ids: LocIds,
    /// The board drawn as a map ([`drawing`]), when it has one: the embedded maps carry
    /// theirs; a map file's is read from `NAME.drawing.yaml` beside it.
    pub drawing: Option<std::sync::Arc<drawing::Drawing>>,
}

/// Every location's short id (`lon`, `spa/nc`) as written, in upper case, and an index
/// from the lower-case id back to the location.
#[derive(Debug, Clone)]
pub(crate) struct LocIds {
    ids: Vec<String>,
    upper: Vec<String>,
    /// Lower-case id → location.
    index: names::ByteTable<Loc>,
}

impl LocIds {
    pub(crate) fn new(provinces: &[Province], coasts: &[NamedCoast]) -> LocIds {
        let ids: Vec<String> = provinces
            .iter()
            .map(|p| p.id.clone())
            .chain(coasts.iter().map(|c| {
                let p = provinces.get(c.province.0 as usize).map_or("", |p| &p.id);
                format!("{p}/{}", c.id)
            }))
            .collect();
        let upper = ids.iter().map(|s| s.to_uppercase()).collect();
        let index = names::ByteTable::new(
            ids.iter()
                .enumerate()
                .map(|(k, s)| (s.to_ascii_lowercase().into_bytes(), Loc(k as u16))),
        );
        LocIds { ids, upper, index }
    }
}

/// The seas of a map with at most 128 of them as bits of a `u128`, so a set of seas is
/// one `u128`. Convoy routes are searched in this space (`judge::convoy`). On a map of at
/// most 128 provinces (the classic board) a sea's number is its province id, so a
/// [`ProvSet`] of fleets turns into a `u128` at no cost; on a larger map the seas are
/// numbered `0..` in province order.
#[derive(Clone, Debug)]
pub struct SeaTable {
    /// Sea numbers are province ids (the map has at most 128 provinces).
    pub identity: bool,
    /// Per province: its sea number (`None` for a province that is not a sea).
    pub number: Vec<Option<u8>>,
    /// Every sea, as numbers.
    pub seas: u128,
    /// Per sea number (per province, when `identity`): the seas a fleet there may move
    /// to.
    pub adj: Vec<u128>,
    /// Per province: the seas a fleet in it (on any coast) may move to.
    pub touch: Vec<u128>,
}

// `SeaTable::new` indexes `number` (one entry per province, built here) and `touch`
// (one per province) by province ids of this map. Not input; out of range is a bug.
#[allow(clippy::indexing_slicing)]
impl SeaTable {
    /// The table of a map's seas, if it has at most 128.
    fn new(seas: &ProvSet, fleet_reach_any: &[ProvSet]) -> Option<SeaTable> {
        let provs: Vec<Prov> = seas.iter().collect();
        if provs.len() > 128 {
            return None;
        }
        let identity = fleet_reach_any.len() <= 128;
        let mut number = vec![None; fleet_reach_any.len()];
        for (i, p) in provs.iter().enumerate() {
            number[p.0 as usize] = Some(if identity { p.0 as u8 } else { i as u8 });
        }
        let bits = |s: &ProvSet| {
            s.iter()
                .filter_map(|p| number[p.0 as usize])
                .fold(0u128, |b, n| b | 1 << n)
        };
        let touch: Vec<u128> = fleet_reach_any.iter().map(bits).collect();
        let adj = if identity {
            touch.clone()
        } else {
            provs.iter().map(|p| touch[p.0 as usize]).collect()
        };
        Some(SeaTable {
            identity,
            seas: bits(seas),
            number,
            adj,
            touch,
        })
    }
}

// The accessors index the map's tables by its own dense ids (Prov, Loc, Power): the
// loader assigned them and built every table with one entry per id. Ids in a
// position or in orders are checked by `game::check_ids` at the entry of
// `advance`/`adjudicate`, and names from input go through the name index, which only
// yields ids of this map. An out-of-range index is a bug, not input.
#[allow(clippy::indexing_slicing)]
impl Map {
    /// The classic board, compiled into the binary.
    // The embedded maps are fixed at compile time and loaded by the tests
    // (`Map::standard` everywhere, every entry of `EMBEDDED`), so they are valid.
    #[allow(clippy::expect_used)]
    pub fn standard() -> Map {
        Map::from_yaml(STANDARD_YAML, "maps/standard.yaml")
            .expect("the embedded classic map is valid")
    }

    /// An embedded map by name: `standard` (or `classic`), `classic1913`, `world1914`
    /// ([`EMBEDDED`]). Names are matched case-insensitively.
    // As `standard`: the embedded maps are fixed and loaded by the tests.
    #[allow(clippy::expect_used)]
    pub fn embedded(name: &str) -> Option<Map> {
        let name = name.trim().to_ascii_lowercase();
        let name = if name == "classic" { "standard" } else { &name };
        let (_, file, src) = EMBEDDED.iter().find(|(n, _, _)| *n == name)?;
        let mut map = Map::from_yaml(src, file).expect("the embedded maps are valid");
        if let Some((_, dfile, dsrc)) = EMBEDDED_DRAWINGS.iter().find(|(n, _, _)| *n == name) {
            let d = drawing::Drawing::from_yaml(dsrc, dfile, &map)
                .expect("the embedded drawings are valid");
            map.drawing = Some(std::sync::Arc::new(d));
        }
        Some(map)
    }

    /// The name index the order parser reads names with.
    pub fn names(&self) -> &names::NameIndex {
        self.names.get_or_init(|| names::NameIndex::new(self))
    }

    /// Number of provinces.
    pub fn province_count(&self) -> usize {
        self.provinces.len()
    }

    /// Every province id in order.
    pub fn provs(&self) -> impl Iterator<Item = Prov> + '_ {
        (0..self.provinces.len()).map(|i| Prov(i as u16))
    }

    pub fn province(&self, p: Prov) -> &Province {
        &self.provinces[p.0 as usize]
    }

    pub fn power(&self, p: Power) -> &PowerInfo {
        &self.powers[p.0 as usize]
    }

    /// Every power in order.
    pub fn power_ids(&self) -> impl Iterator<Item = Power> + '_ {
        (0..self.powers.len()).map(|i| Power(i as u8))
    }

    /// The province a location lies in.
    pub fn prov_of(&self, l: Loc) -> Prov {
        let i = l.0 as usize;
        if i < self.provinces.len() {
            Prov(i as u16)
        } else {
            self.coasts[i - self.provinces.len()].province
        }
    }

    /// The named coast of a location, if it is one.
    pub fn coast(&self, l: Loc) -> Option<&NamedCoast> {
        (l.0 as usize)
            .checked_sub(self.provinces.len())
            .map(|i| &self.coasts[i])
    }

    /// Is this location a named coast?
    pub fn is_named_coast(&self, l: Loc) -> bool {
        l.0 as usize >= self.provinces.len()
    }

    /// Does the province have named coasts?
    pub fn is_split(&self, p: Prov) -> bool {
        !self.province(p).coasts.is_empty()
    }

    pub fn terrain(&self, p: Prov) -> Terrain {
        self.province(p).terrain
    }

    pub fn is_sea(&self, p: Prov) -> bool {
        self.seas.contains(p)
    }

    /// A coastal province: armies may be convoyed from and to it.
    pub fn is_coastal(&self, p: Prov) -> bool {
        self.coastal.contains(p)
    }

    /// All sea provinces.
    pub fn seas(&self) -> &ProvSet {
        &self.seas
    }

    /// The seas numbered for small bit sets, if the map has at most 128 seas.
    pub fn sea_table(&self) -> Option<&SeaTable> {
        self.sea_table.as_ref()
    }

    /// May an army move from `a` to `b` over land?
    #[inline(always)]
    pub fn army_adjacent(&self, a: Prov, b: Prov) -> bool {
        self.army_adj[a.0 as usize].contains(b)
    }

    /// Provinces an army may move to from `a`.
    pub fn army_neighbours(&self, a: Prov) -> &ProvSet {
        &self.army_adj[a.0 as usize]
    }

    /// Locations a fleet at `l` may move to.
    pub fn fleet_neighbours(&self, l: Loc) -> &[Loc] {
        &self.fleet_adj[l.0 as usize]
    }

    /// Provinces a fleet at `l` may move to (on some coast).
    pub fn fleet_reach(&self, l: Loc) -> &ProvSet {
        &self.fleet_reach[l.0 as usize]
    }

    /// Provinces a fleet in province `p`, on any of its coasts, may move to.
    pub fn fleet_reach_any(&self, p: Prov) -> &ProvSet {
        &self.fleet_reach_any[p.0 as usize]
    }

    /// May a fleet at `from` move to location `to` (coast exact)?
    pub fn fleet_adjacent(&self, from: Loc, to: Loc) -> bool {
        self.fleet_adj[from.0 as usize].contains(&to)
    }

    /// May a unit of `kind` at `from` move into province `to` (any coast)?
    #[inline(always)]
    pub fn can_reach(&self, kind: UnitKind, from: Loc, to: Prov) -> bool {
        match kind {
            UnitKind::Army => self.army_adjacent(self.prov_of(from), to),
            UnitKind::Fleet => self.fleet_reach[from.0 as usize].contains(to),
        }
    }

    /// Short name of a location: `lon`, `spa/nc`.
    pub fn loc_id(&self, l: Loc) -> String {
        self.loc_key(l).to_string()
    }

    /// Short id of a location, borrowed: `lon`, `spa/nc`.
    pub fn loc_key(&self, l: Loc) -> &str {
        self.ids.ids.get(l.0 as usize).map_or("?", String::as_str)
    }

    /// Short id of a location in upper case, as canonical orders print it: `LON`,
    /// `SPA/NC`.
    pub fn loc_upper(&self, l: Loc) -> &str {
        self.ids.upper.get(l.0 as usize).map_or("?", String::as_str)
    }

    /// Long name of a location: `London`, `Spain (north coast)`.
    pub fn loc_name(&self, l: Loc) -> String {
        match self.coast(l) {
            Some(c) => format!(
                "{} ({})",
                self.province(c.province).name,
                c.name.to_lowercase()
            ),
            None => self.province(self.prov_of(l)).name.clone(),
        }
    }

    /// Find a location by its short id (`lon`, `spa/nc`, case-insensitive).
    pub fn loc_by_id(&self, id: &str) -> Option<Loc> {
        // Trimmed only when an end may be white space: a printable ASCII byte is not.
        let printable = |b: Option<&u8>| b.is_some_and(|b| (0x21..0x80).contains(b));
        let bytes = id.as_bytes();
        let id = if printable(bytes.first()) && printable(bytes.last()) {
            bytes
        } else {
            id.trim().as_bytes()
        };
        let mut buf = [0u8; 32];
        // Ids are short; a longer word is no id.
        let b = buf.get_mut(..id.len())?;
        for (to, from) in b.iter_mut().zip(id) {
            *to = from.to_ascii_lowercase();
        }
        self.ids.index.get(b).copied()
    }

    /// Find a province by its short id (case-insensitive).
    pub fn prov_by_id(&self, id: &str) -> Option<Prov> {
        self.provinces
            .iter()
            .position(|p| p.id.eq_ignore_ascii_case(id))
            .map(|i| Prov(i as u16))
    }

    /// Find a power by id, name or adjective (case-insensitive).
    pub fn power_by_name(&self, name: &str) -> Option<Power> {
        self.powers
            .iter()
            .position(|p| {
                p.id.eq_ignore_ascii_case(name)
                    || p.name.eq_ignore_ascii_case(name)
                    || p.adjective.eq_ignore_ascii_case(name)
            })
            .map(|i| Power(i as u8))
    }

    /// The supply-centre owners at the start: every home centre owned by its power
    /// (but those in its `unowned_homes`), and the centres each power `owns` at the
    /// start (another power's home centre too); the rest unowned.
    pub fn starting_owners(&self) -> Vec<Option<Power>> {
        let mut owners: Vec<Option<Power>> = self.provinces.iter().map(|p| p.home).collect();
        for pw in self.power_ids() {
            for &p in &self.power(pw).unowned_homes {
                owners[p.0 as usize] = None;
            }
        }
        for pw in self.power_ids() {
            for &p in &self.power(pw).owns {
                owners[p.0 as usize] = Some(pw);
            }
        }
        owners
    }

    /// Every location (provinces, then named coasts).
    pub fn locs(&self) -> impl Iterator<Item = Loc> {
        (0..(self.provinces.len() + self.coasts.len())).map(|i| Loc(i as u16))
    }

    /// Why a unit of `kind` cannot stand at `loc`, if it cannot: an army at sea, a
    /// fleet inland, any unit in an impassable province, a fleet in a split province
    /// without its coast.
    pub fn placement_problem(&self, kind: UnitKind, loc: Loc) -> Option<String> {
        let p = self.prov_of(loc);
        match (kind, self.terrain(p)) {
            (_, Terrain::Impassable) => Some("the province is impassable".into()),
            (UnitKind::Army, Terrain::Sea) => Some("an army cannot be at sea".into()),
            (UnitKind::Fleet, Terrain::Land) => Some("a fleet cannot be inland".into()),
            (UnitKind::Fleet, _) if self.is_split(p) && !self.is_named_coast(loc) => {
                let coasts: Vec<String> = self
                    .province(p)
                    .coasts
                    .iter()
                    .map(|&c| self.loc_id(c))
                    .collect();
                Some(format!("name the coast: {}", coasts.join(" or ")))
            }
            _ => None,
        }
    }

    /// The locations a unit of `kind` may occupy in province `p`: the province itself
    /// for an army; for a fleet, its named coasts if split, else the province.
    pub fn unit_locs(&self, kind: UnitKind, p: Prov) -> Vec<Loc> {
        match kind {
            UnitKind::Fleet if self.is_split(p) => self.province(p).coasts.clone(),
            _ => vec![p.into()],
        }
    }
}

/// The embedded classic map's YAML source.
pub const STANDARD_YAML: &str = include_str!("../../maps/standard.yaml");

/// The drawings of the embedded maps ([`drawing`]): map name, file, YAML source.
pub const EMBEDDED_DRAWINGS: &[(&str, &str, &str)] = &[
    (
        "standard",
        "maps/standard.drawing.yaml",
        include_str!("../../maps/standard.drawing.yaml"),
    ),
    (
        "classic1913",
        "maps/classic1913.drawing.yaml",
        include_str!("../../maps/classic1913.drawing.yaml"),
    ),
    (
        "world1914",
        "maps/world1914.drawing.yaml",
        include_str!("../../maps/world1914.drawing.yaml"),
    ),
];

/// The maps compiled into the binary: name, file, YAML source.
pub const EMBEDDED: &[(&str, &str, &str)] = &[
    ("standard", "maps/standard.yaml", STANDARD_YAML),
    (
        "classic1913",
        "maps/classic1913.yaml",
        include_str!("../../maps/classic1913.yaml"),
    ),
    (
        "world1914",
        "maps/world1914.yaml",
        include_str!("../../maps/world1914.yaml"),
    ),
];
