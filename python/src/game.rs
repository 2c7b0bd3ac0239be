//! `Game`: a whole game with the `diplomacy` package's method names, on
//! `arbiter::game::advance`. A `Game` is `frozen` and holds its state in a `Mutex`
//! taken with `try_lock`: a second thread calling the same game while the first has
//! released the GIL (judging, listing legal orders) gets a `RuntimeError`, never a torn
//! state.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};

use pyo3::exceptions::{PyKeyError, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use arbiter::files;
use arbiter::game::{advance, PhaseResult};
use arbiter::gamefile::{self, OrderFile, PositionRecord};
use arbiter::judge::Rules;
use arbiter::legal::legal_orders;
use arbiter::map::{Map, Power, Prov, UnitKind};
use arbiter::orders::{parse_order_with, Order, OrderKind, ParseOptions};
use arbiter::report::json;
use arbiter::state::{DislodgedEntry, Phase, PhaseKind, Position, Unit};

use crate::names::{
    dip_order, long_phase, phase_type, power_name, short_phase, unit, write_dip_order,
};
use crate::{load_map, ArbiterError, GameFileError, OrderError, PhaseError};

/// The `diplomacy` package's rule flags that change nothing in adjudication (press,
/// deadlines, seating): accepted and kept in `Game.rules`.
const NEUTRAL_FLAGS: &[&str] = &[
    "NO_PRESS",
    "PUBLIC_PRESS",
    "NO_DEADLINE",
    "REAL_TIME",
    "SOLITAIRE",
    "IGNORE_ERRORS",
    "POWER_CHOICE",
    "ALWAYS_WAIT",
    "CIVIL_DISORDER",
    "NO_OBSERVATIONS",
    "MULTIPLE_POWERS_PER_PLAYER",
    "START_MASTER",
];

/// One judged phase: the position it was judged from and its result (whose `input`
/// holds the orders as given).
#[derive(Clone)]
struct Entry {
    before: Position,
    result: PhaseResult,
}

#[derive(Clone)]
pub(crate) struct State {
    map: Arc<Map>,
    rules: Rules,
    flags: Vec<String>,
    name: String,
    last_year: Option<i32>,
    position: Position,
    /// Per power (map order): the orders given this phase, as read.
    orders: Vec<Vec<Order>>,
    history: Vec<Entry>,
    /// The game is over (a winner, or the last year played).
    done: bool,
    /// `get_all_possible_orders`' table for the position now, once made (dropped by
    /// every change of the position).
    possible: Option<Arc<Vec<Vec<Py<PyString>>>>>,
}

/// A game of Diplomacy with the `diplomacy` package's `Game` API.
#[pyclass(frozen, module = "arbiter._arbiter")]
pub struct Game {
    state: Mutex<State>,
    /// The game file this game was loaded from or last saved to (its path, links
    /// followed, and the bytes then): `save` over it refuses when another writer
    /// changed it meanwhile.
    file: Mutex<Option<(std::path::PathBuf, Vec<u8>)>>,
}

fn in_use() -> PyErr {
    PyRuntimeError::new_err(
        "Game is in use by another thread: give each thread its own Game (copy() makes one), \
         or guard the calls with a lock",
    )
}

impl Game {
    pub(crate) fn lock(&self) -> PyResult<MutexGuard<'_, State>> {
        match self.state.try_lock() {
            Ok(g) => Ok(g),
            // No code holding the lock panics; a poisoned state is still whole.
            Err(TryLockError::Poisoned(e)) => Ok(e.into_inner()),
            Err(TryLockError::WouldBlock) => Err(in_use()),
        }
    }

    fn of(state: State) -> Game {
        Game {
            state: Mutex::new(state),
            file: Mutex::new(None),
        }
    }

    /// Note the game file this game now matches (see [`Game::file`]).
    fn set_file(&self, path: &std::path::Path, bytes: Vec<u8>) {
        let real = real_path(path);
        *self.file.lock().unwrap_or_else(|e| e.into_inner()) = Some((real, bytes));
    }
}

/// A game file's path with links followed (as `arbiter::files` saves it), made
/// absolute, for telling whether two paths name one file.
fn real_path(path: &std::path::Path) -> std::path::PathBuf {
    let real = files::resolve_links(path).unwrap_or_else(|_| path.to_path_buf());
    std::fs::canonicalize(&real).unwrap_or(real)
}

/// Whether saving `text` (a game file) over `path`, a file this game does not match,
/// loses nothing: there is no file, or it is an arbiter game file each of whose judged
/// phases this game has too (the same phase, from the same position, with the same
/// results), in the same order. Otherwise the refusal, naming what would be lost; the
/// file's text is never quoted.
fn would_lose_nothing(path: &std::path::Path, text: &str) -> Result<(), String> {
    let shown = path.display();
    let bytes = match files::read_bytes(path, files::DEFAULT_MAX_INPUT_BYTES) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => {
            return Err(format!(
                "`{shown}` was not saved: the file there cannot be read ({e}), so it cannot be \
                 told that replacing it loses nothing; save to another name"
            ))
        }
    };
    let disk = std::str::from_utf8(&bytes)
        .ok()
        .and_then(|t| gamefile::GameFile::from_yaml(t).ok())
        .ok_or_else(|| {
            format!(
                "`{shown}` was not saved: the file there is not an arbiter game file, and \
                 `save` replaces only a game file; save to another name, or remove the file \
                 first. The file was not changed"
            )
        })?;
    let ours = gamefile::GameFile::from_yaml(text).map_err(|e| e.to_string())?;
    let key = |r: &gamefile::PhaseRecord| {
        let mut results: Vec<(Option<String>, String, String)> = r
            .results
            .iter()
            .map(|x| (x.power.clone(), x.canonical.clone(), x.outcome.clone()))
            .collect();
        results.sort();
        (r.phase.clone(), r.position.clone(), results)
    };
    let n = disk.history.len();
    let differs = disk
        .history
        .iter()
        .zip(&ours.history)
        .position(|(d, o)| key(d) != key(o));
    let why = match differs {
        Some(k) => format!(
            "its phase {} (the {} of its {n} judged) was judged otherwise than in this game",
            disk.history.get(k).map_or("", |h| h.phase.as_str()),
            ordinal(k + 1)
        ),
        None if n > ours.history.len() => format!(
            "the file has {} judged phase{} this game does not (it has {n}, this game {})",
            n - ours.history.len(),
            if n - ours.history.len() == 1 { "" } else { "s" },
            ours.history.len()
        ),
        None => return Ok(()),
    };
    Err(format!(
        "`{shown}` was not saved: {why}: it was judged elsewhere (by `arbiter judge`, or by \
         another Game), and saving would lose that. Load it again (`Game.load`) and play on \
         from there, or save to another name. The file was not changed"
    ))
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Read `rules`: `None`, an edition name, or an iterable of strings holding at most one
/// edition and any of the `diplomacy` package's neutral flags.
fn read_rules(rules: Option<&Bound<'_, PyAny>>) -> PyResult<(Rules, Vec<String>)> {
    let Some(rules) = rules else {
        return Ok((Rules::default(), Vec::new()));
    };
    let items: Vec<String> = match rules.downcast::<PyString>() {
        Ok(s) => vec![s.extract::<String>()?],
        Err(_) => rules
            .try_iter()?
            .map(|r| r.and_then(|r| r.extract::<String>()))
            .collect::<PyResult<_>>()?,
    };
    let mut edition_found: Option<Rules> = None;
    let mut flags = Vec::new();
    for item in items {
        if let Some(r) = Rules::parse(&item) {
            if edition_found.is_some_and(|e| e != r) {
                return Err(ArbiterError::new_err(format!(
                    "two rule editions given (`{}` and `{item}`): give one",
                    edition_found.map(|e| e.name()).unwrap_or_default()
                )));
            }
            edition_found = Some(r);
            continue;
        }
        let upper = item.trim().to_ascii_uppercase();
        if NEUTRAL_FLAGS.contains(&upper.as_str()) {
            flags.push(upper);
            continue;
        }
        return Err(ArbiterError::new_err(format!(
            "unknown rule `{}`: give an edition ({}) and any of the diplomacy package's flags \
             that do not change adjudication ({})",
            item.chars().take(100).collect::<String>(),
            Rules::names(),
            NEUTRAL_FLAGS.join(", ")
        )));
    }
    Ok((edition_found.unwrap_or_default(), flags))
}

/// What the caller wrote, quoted in an exception: each invisible or control character
/// named (`FRA<U+001B ESCAPE>NCE`), so none reaches a terminal or a log raw.
fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    arbiter::orders::name_invisibles(text)
}

fn power_of(map: &Map, name: &str) -> PyResult<Power> {
    map.power_by_name(name).ok_or_else(|| {
        let known: Vec<String> = map.power_ids().map(|p| power_name(map, p)).collect();
        ArbiterError::new_err(format!(
            "unknown power `{}` on map {}: the powers are {}",
            shown(&name.chars().take(100).collect::<String>()),
            map.name,
            known.join(", ")
        ))
    })
}

fn prov_upper(map: &Map, p: Prov) -> &str {
    map.loc_upper(p.into())
}

/// The order a unit or dislodged unit is bound to in this phase, checked as the
/// referee checks a slip: the unit exists, is the power's, and the order is of the
/// phase. `Err`: the reason, in words.
fn bind(map: &Map, pos: &Position, pw: Power, o: &Order) -> Result<(), String> {
    let kind = pos.phase.kind;
    let ok_kind = matches!(
        (kind, o.kind),
        (
            PhaseKind::Movement,
            OrderKind::Hold
                | OrderKind::Move { .. }
                | OrderKind::Support { .. }
                | OrderKind::Convoy { .. }
        ) | (
            PhaseKind::Retreat,
            OrderKind::Move { .. } | OrderKind::Disband
        ) | (
            PhaseKind::Adjustment,
            OrderKind::Build | OrderKind::Waive | OrderKind::Save | OrderKind::Disband
        )
    );
    if !ok_kind {
        let hint = match kind {
            PhaseKind::Movement => {
                "in a movement phase a unit holds (`A PAR H`), moves (`A PAR - BUR`), supports \
                 (`A PAR S A MAR - BUR`) or convoys (`F NTH C A LON - NWY`)"
            }
            PhaseKind::Retreat => {
                "in a retreat phase a dislodged unit retreats (`A PAR R BUR`) or disbands \
                 (`A PAR D`)"
            }
            PhaseKind::Adjustment => {
                "in an adjustment phase a power builds (`A PAR B`), removes (`A PAR D`) or \
                 waives a build (`WAIVE`)"
            }
        };
        return Err(format!(
            "not an order of {}: {hint}",
            long_phase(pos.phase).to_lowercase()
        ));
    }
    if matches!(
        o.kind,
        OrderKind::Build | OrderKind::Waive | OrderKind::Save
    ) {
        return Ok(());
    }
    let Some(p) = o.prov(map) else {
        return Ok(());
    };
    let name = &map.province(p).name;
    let found = match kind {
        PhaseKind::Retreat => pos
            .dislodged
            .iter()
            .find(|d| map.prov_of(d.unit.loc) == p)
            .map(|d| d.unit),
        _ => pos.unit_in(map, p).copied(),
    };
    match found {
        None if kind == PhaseKind::Retreat => Err(format!(
            "no dislodged unit in {name}: only dislodged units are ordered now"
        )),
        None => Err(format!("there is no unit in {name}")),
        Some(u) if u.power != pw => Err(format!(
            "the unit in {name} is {}'s: {} cannot order it",
            map.power(u.power).name,
            power_name(map, pw)
        )),
        Some(_) => Ok(()),
    }
}

/// Raise `OrderError` for the problems found (`(order, message, help, start, end)`).
fn order_error(
    py: Python<'_>,
    power: &str,
    problems: Vec<(String, String, Option<String>, u32, u32)>,
) -> PyErr {
    let first = problems
        .first()
        .map(|(o, m, h, _, _)| match h {
            Some(h) => format!("`{}`: {m} ({h})", shown(o)),
            None => format!("`{}`: {m}", shown(o)),
        })
        .unwrap_or_default();
    let more = match problems.len() {
        0 | 1 => String::new(),
        n => format!(" (and {} more: see .errors)", n - 1),
    };
    let err = OrderError::new_err(format!(
        "orders for {power} not set: {first}{more}; no order of this call was set"
    ));
    let list = PyList::empty(py);
    for (o, m, h, s, e) in problems {
        let d = PyDict::new(py);
        let _ = d.set_item("order", o);
        let _ = d.set_item("message", m);
        let _ = d.set_item("help", h);
        let _ = d.set_item("span", (s, e));
        let _ = list.append(d);
    }
    let _ = err.value(py).setattr("errors", list);
    err
}

impl State {
    fn new(map: Arc<Map>, rules: Rules, flags: Vec<String>, name: String) -> State {
        let position = Position::initial(&map);
        let n = map.powers.len();
        State {
            map,
            rules,
            flags,
            name,
            last_year: None,
            position,
            orders: vec![Vec::new(); n],
            history: Vec::new(),
            done: false,
            possible: None,
        }
    }

    fn powers(&self) -> impl Iterator<Item = Power> + '_ {
        self.map.power_ids()
    }

    /// `f` of the named power, or of every power as a dict keyed by power name
    /// (the shape of `get_units`, `get_centers`, `get_orderable_locations`).
    fn per_power(
        &self,
        py: Python<'_>,
        power_name: Option<&str>,
        f: fn(&State, Power) -> Vec<String>,
    ) -> PyResult<PyObject> {
        match power_name {
            Some(n) => Ok(f(self, power_of(&self.map, n)?)
                .into_pyobject(py)?
                .into_any()
                .unbind()),
            None => {
                let d = PyDict::new(py);
                for pw in self.powers() {
                    d.set_item(crate::names::power_name(&self.map, pw), f(self, pw))?;
                }
                Ok(d.into_any().unbind())
            }
        }
    }

    fn units_of(&self, pw: Power) -> Vec<String> {
        let map = &self.map;
        let mut out: Vec<String> = self
            .position
            .units
            .iter()
            .filter(|u| u.power == pw)
            .map(|u| unit(map, u))
            .collect();
        out.extend(
            self.position
                .dislodged
                .iter()
                .filter(|d| d.unit.power == pw)
                .map(|d| format!("*{}", unit(map, &d.unit))),
        );
        out
    }

    fn centers_of(&self, pw: Power) -> Vec<String> {
        self.position
            .owners
            .iter()
            .enumerate()
            .filter(|(_, o)| **o == Some(pw))
            .map(|(i, _)| prov_upper(&self.map, Prov(i as u16)).to_string())
            .collect()
    }

    fn homes_of(&self, pw: Power) -> Vec<String> {
        self.map
            .power(pw)
            .home
            .iter()
            .map(|&p| prov_upper(&self.map, p).to_string())
            .collect()
    }

    fn retreats_of(&self, pw: Power) -> Vec<(String, Vec<String>)> {
        let map = &self.map;
        self.position
            .dislodged
            .iter()
            .filter(|d| d.unit.power == pw)
            .map(|d| {
                (
                    unit(map, &d.unit),
                    d.retreats
                        .iter()
                        .map(|&l| map.loc_upper(l).to_string())
                        .collect(),
                )
            })
            .collect()
    }

    fn owed(&self) -> Vec<arbiter::judge::Owed> {
        if self.position.phase.kind != PhaseKind::Adjustment {
            return Vec::new();
        }
        arbiter::judge::owed(
            &self.map,
            &self.position.owners,
            &self.position.units,
            &self.position.saved,
        )
        .unwrap_or_default()
    }

    fn is_eliminated(&self, pw: Power) -> bool {
        !self.position.units.iter().any(|u| u.power == pw)
            && !self.position.dislodged.iter().any(|d| d.unit.power == pw)
            && !self.position.owners.contains(&Some(pw))
    }

    fn orderable(&self, pw: Power) -> Vec<String> {
        let map = &self.map;
        if self.done {
            return Vec::new();
        }
        match self.position.phase.kind {
            PhaseKind::Movement => self
                .position
                .units
                .iter()
                .filter(|u| u.power == pw)
                .map(|u| prov_upper(map, map.prov_of(u.loc)).to_string())
                .collect(),
            PhaseKind::Retreat => self
                .position
                .dislodged
                .iter()
                .filter(|d| d.unit.power == pw)
                .map(|d| prov_upper(map, map.prov_of(d.unit.loc)).to_string())
                .collect(),
            PhaseKind::Adjustment => {
                let Some(o) = self.owed().into_iter().find(|o| o.power == pw) else {
                    return Vec::new();
                };
                if o.change > 0 {
                    o.build_sites
                        .iter()
                        .chain(&o.colonial_sites)
                        .map(|&p| prov_upper(map, p).to_string())
                        .collect()
                } else if o.change < 0 {
                    self.position
                        .units
                        .iter()
                        .filter(|u| u.power == pw)
                        .map(|u| prov_upper(map, map.prov_of(u.loc)).to_string())
                        .collect()
                } else {
                    Vec::new()
                }
            }
        }
    }

    /// The state dict of a position (`get_state`).
    fn state_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let phase = if self.done {
            "COMPLETED".to_string()
        } else {
            short_phase(self.position.phase)
        };
        d.set_item("name", phase)?;
        d.set_item("phase", long_phase(self.position.phase))?;
        d.set_item("map", &self.map.name)?;
        d.set_item("rules", self.rules.name())?;
        let (units, centers, homes, retreats, builds) = (
            PyDict::new(py),
            PyDict::new(py),
            PyDict::new(py),
            PyDict::new(py),
            PyDict::new(py),
        );
        let owed = self.owed();
        for pw in self.powers() {
            let n = power_name(&self.map, pw);
            units.set_item(&n, self.units_of(pw))?;
            centers.set_item(&n, self.centers_of(pw))?;
            homes.set_item(&n, self.homes_of(pw))?;
            let r = PyDict::new(py);
            for (u, to) in self.retreats_of(pw) {
                r.set_item(u, to)?;
            }
            retreats.set_item(&n, r)?;
            let b = PyDict::new(py);
            let o = owed.iter().find(|o| o.power == pw);
            b.set_item("count", o.map_or(0, |o| o.change))?;
            let sites: Vec<&str> = o
                .map(|o| {
                    o.build_sites
                        .iter()
                        .map(|&p| prov_upper(&self.map, p))
                        .collect()
                })
                .unwrap_or_default();
            b.set_item("homes", sites)?;
            builds.set_item(&n, b)?;
        }
        d.set_item("units", units)?;
        d.set_item("centers", centers)?;
        d.set_item("homes", homes)?;
        d.set_item("retreats", retreats)?;
        d.set_item("builds", builds)?;
        Ok(d)
    }

    /// A position's batch-line keys (`phase`, `units`, `dislodged`, `centers`, `saved`).
    fn position_json(&self, p: &Position) -> serde_json::Value {
        let rec = PositionRecord::of(&self.map, p);
        serde_json::json!({
            "map": self.map.name,
            "rules": self.rules.name(),
            "phase": p.phase.to_string(),
            "units": rec.units,
            "dislodged": rec.dislodged,
            "centers": rec.owners,
            "saved": rec.saved,
        })
    }

    /// The orders of a result by power id upper case, in input order.
    fn orders_by_power(&self, r: &PhaseResult) -> Vec<(String, Vec<String>)> {
        let mut out: Vec<(String, Vec<String>)> = Vec::new();
        for o in &r.input {
            let Some(pw) = o.power else { continue };
            let name = power_name(&self.map, pw);
            match out.iter_mut().find(|(n, _)| *n == name) {
                Some((_, v)) => v.push(o.text.to_string()),
                None => out.push((name, vec![o.text.to_string()])),
            }
        }
        out
    }

    /// One judged phase as a batch line that replays it, its answer under `expect`.
    fn batch_line(&self, id: &str, e: &Entry) -> serde_json::Value {
        let mut orders = serde_json::Map::new();
        for (pw, list) in self.orders_by_power(&e.result) {
            orders.insert(pw.to_lowercase(), list.into());
        }
        let mut v = serde_json::Map::new();
        v.insert("id".into(), id.into());
        if let serde_json::Value::Object(keys) = self.position_json(&e.before) {
            v.extend(keys);
        }
        v.insert("orders".into(), orders.into());
        if let Some(y) = self.last_year {
            v.insert("last_year".into(), y.into());
        }
        let expect = json::phase(&self.map, &e.result, &[]).unwrap_or_default();
        v.insert("expect".into(), expect);
        serde_json::Value::Object(v)
    }

    /// The game as arbiter's game file: each phase judged again from its order files
    /// (one slip per power), so the CLI reads back exactly this game.
    fn to_gamefile(&self) -> Result<String, String> {
        let map = &*self.map;
        let mut g = gamefile::Game::new(map, &self.name, None, self.rules, self.last_year);
        for (i, e) in self.history.iter().enumerate() {
            g.position = e.before.clone();
            g.over = None;
            let mut files = Vec::new();
            for (pw, list) in self.orders_by_power(&e.result) {
                let mut text = format!("{pw}:\n");
                for o in list {
                    text.push_str(&o);
                    text.push('\n');
                }
                files.push(OrderFile {
                    file: format!("{}.txt", pw.to_lowercase()),
                    text,
                });
            }
            if files.is_empty() {
                // A phase processed with no orders at all (every unit in civil
                // disorder): a game file records at least one order file, so the
                // phase is recorded as judged from an empty one, as `arbiter judge
                // GAME empty.txt` records it.
                files.push(OrderFile {
                    file: "no-orders.txt".into(),
                    text: String::new(),
                });
            }
            let mut j = g.judge(map, &files, false).map_err(|e| e.to_string())?;
            if j.result.units_after != e.result.units_after || j.result.next != e.result.next {
                return Err(format!(
                    "{}: the orders read back from the file give another result",
                    e.before.phase
                ));
            }
            j.next = match self.history.get(i + 1) {
                Some(n) => n.before.clone(),
                None => self.position.clone(),
            };
            let accepted = j.has_errors();
            g.record(map, files, j, accepted);
        }
        g.position = self.position.clone();
        if !self.done {
            g.over = None;
        }
        let text = g.to_yaml(map);
        gamefile::Game::from_yaml(map, &text)
            .map_err(|e| format!("the game cannot be saved as a game file that reads back: {e}"))?;
        Ok(text)
    }

    fn from_gamefile(text: &str) -> Result<State, String> {
        let f = gamefile::GameFile::from_yaml(text).map_err(|e| e.to_string())?;
        if f.map_file.is_some() {
            return Err(format!(
                "the game is on the map file `{}`: only embedded maps are read here",
                f.map_file.unwrap_or_default()
            ));
        }
        let map = load_map(&f.map).map_err(|e| e.to_string())?;
        let g = gamefile::Game::from_file(&map, &f).map_err(|e| e.to_string())?;
        let mut history = Vec::new();
        for k in 0..g.history.len() {
            let j = g
                .rejudge(&map, k)
                .ok_or("a phase of the history is missing")?
                .map_err(|e| e.to_string())?;
            let before = g.history.get(k).map(|h| h.before.clone());
            history.push(Entry {
                before: before.ok_or("a phase of the history is missing")?,
                result: j.result,
            });
        }
        let n = map.powers.len();
        Ok(State {
            map,
            rules: g.rules,
            flags: Vec::new(),
            name: g.name,
            last_year: g.last_year,
            position: g.position,
            orders: vec![Vec::new(); n],
            history,
            done: g.over.is_some(),
            possible: None,
        })
    }

    /// Results of a phase as the `diplomacy` package keys them: unit → report tags
    /// (`bounce`, `cut`, `void`, `dislodged`, `no convoy`, `disrupted`).
    fn result_tags(&self, r: &PhaseResult) -> Vec<(String, Vec<&'static str>)> {
        let mut out: Vec<(String, Vec<&'static str>)> = Vec::new();
        for (i, u) in r.units().iter().enumerate() {
            // The unit's order (an illegal one too: it is void, and the unit held).
            let k = r
                .order_of(i)
                .or_else(|| r.orders().iter().position(|res| res.unit == Some(i)));
            let mut tags = k.map(|k| arbiter::report::tags(r, k)).unwrap_or_default();
            let illegal = k
                .and_then(|k| r.orders().get(k))
                .is_some_and(|res| matches!(res.outcome, arbiter::judge::Outcome::Illegal(_)));
            if illegal && !tags.contains(&"void") {
                tags.push("void");
            }
            if r.is_dislodged(i) && !tags.contains(&"dislodged") {
                tags.push("dislodged");
            }
            if r.phase.kind == PhaseKind::Retreat && r.is_destroyed(i) && !tags.contains(&"disband")
            {
                tags.push("disband");
            }
            out.push((unit(&self.map, u), tags));
        }
        out
    }
}

/// Every location's legal orders (the table `get_all_possible_orders` lists), as
/// Python strings: made once per position.
fn possible_orders(py: Python<'_>, st: &State) -> PyResult<Vec<Vec<Py<PyString>>>> {
    let map = &*st.map;
    let kind = st.position.phase.kind;
    let legal = if st.done {
        Default::default()
    } else {
        let (position, rules) = (&st.position, st.rules);
        py.allow_threads(|| legal_orders(map, position, rules))
            .map_err(|e| ArbiterError::new_err(arbiter::map::names::shown(&e.to_string())))?
    };
    let keys = loc_keys(py, map);
    let mut direct: Vec<Option<Vec<Py<PyString>>>> = (0..keys.len()).map(|_| None).collect();
    let mut buf = String::with_capacity(32);
    for u in &legal.units {
        let mut list = Vec::with_capacity(u.orders.len());
        for o in &u.orders {
            buf.clear();
            write_dip_order(&mut buf, map, kind, o);
            list.push(PyString::new(py, &buf).unbind());
        }
        let prov = map.prov_of(u.unit.loc);
        if u.unit.loc != prov.into() {
            if let Some(v) = direct.get_mut(u.unit.loc.0 as usize) {
                *v = Some(list.iter().map(|s| s.clone_ref(py)).collect());
            }
        }
        if let Some(v) = direct.get_mut(prov.0 as usize) {
            *v = Some(list);
        }
    }
    let mut lists: Vec<Vec<String>> = vec![Vec::new(); keys.len()];
    for p in &legal.powers {
        let waive: Vec<String> = p
            .orders
            .iter()
            .filter(|o| matches!(o.kind, OrderKind::Waive | OrderKind::Save))
            .map(|o| dip_order(map, kind, o))
            .collect();
        for o in &p.orders {
            let Some(u) = o.unit else { continue };
            let text = dip_order(map, kind, o);
            let prov = map.prov_of(u.loc);
            for l in [prov.into(), u.loc] {
                if let Some(v) = lists.get_mut(l.0 as usize) {
                    if !v.contains(&text) {
                        v.push(text.clone());
                    }
                }
                if l == u.loc {
                    break;
                }
            }
        }
        if p.change > 0 {
            for o in &p.orders {
                let Some(u) = o.unit else { continue };
                for l in [map.prov_of(u.loc).into(), u.loc] {
                    if let Some(v) = lists.get_mut(l.0 as usize) {
                        for w in &waive {
                            if !v.contains(w) {
                                v.push(w.clone());
                            }
                        }
                    }
                }
            }
        }
    }
    Ok(lists
        .into_iter()
        .zip(direct)
        .map(|(v, list)| match list {
            Some(list) => list,
            None => v.iter().map(|t| PyString::new(py, t).unbind()).collect(),
        })
        .collect())
}

/// The map's locations as Python strings (`PAR`, `STP/SC`), made once per map.
fn loc_keys(py: Python<'_>, map: &Map) -> Arc<Vec<Py<PyString>>> {
    type Keys = Mutex<Vec<(String, Arc<Vec<Py<PyString>>>)>>;
    static KEYS: std::sync::OnceLock<Keys> = std::sync::OnceLock::new();
    let keys = KEYS.get_or_init(|| Mutex::new(Vec::new()));
    let find = || {
        let keys = keys.lock().unwrap_or_else(|e| e.into_inner());
        keys.iter()
            .find(|(n, _)| *n == map.name)
            .map(|(_, k)| k.clone())
    };
    if let Some(k) = find() {
        return k;
    }
    // Made without the lock held: making Python objects may run other Python code.
    let k: Arc<Vec<Py<PyString>>> = Arc::new(
        map.locs()
            .map(|l| PyString::intern(py, map.loc_upper(l)).unbind())
            .collect(),
    );
    let mut all = keys.lock().unwrap_or_else(|e| e.into_inner());
    match all.iter().find(|(n, _)| *n == map.name) {
        Some((_, existing)) => existing.clone(),
        None => {
            all.push((map.name.clone(), k.clone()));
            k
        }
    }
}

fn json_to_py<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    let json = py.import("json")?;
    json.call_method1("loads", (v.to_string(),))
}

/// A power of a game, read live from the game (`game.powers['FRANCE']`).
#[pyclass(frozen, module = "arbiter._arbiter", name = "Power")]
pub struct PowerView {
    game: Py<Game>,
    power: Power,
    #[pyo3(get)]
    name: String,
}

#[pymethods]
impl PowerView {
    /// Units on the board (`['A PAR', 'F BRE']`), then dislodged units marked `*`.
    #[getter]
    fn units(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        Ok(self.game.bind(py).get().lock()?.units_of(self.power))
    }
    /// Supply centres owned (`['PAR', 'BRE', 'MAR']`).
    #[getter]
    fn centers(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        Ok(self.game.bind(py).get().lock()?.centers_of(self.power))
    }
    /// Home centres.
    #[getter]
    fn homes(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        Ok(self.game.bind(py).get().lock()?.homes_of(self.power))
    }
    /// Retreat phase: dislodged unit → the places it may retreat to.
    #[getter]
    fn retreats(&self, py: Python<'_>) -> PyResult<BTreeMap<String, Vec<String>>> {
        Ok(self
            .game
            .bind(py)
            .get()
            .lock()?
            .retreats_of(self.power)
            .into_iter()
            .collect())
    }
    /// The orders given this phase, as written.
    #[getter]
    fn orders(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        let st = self.game.bind(py).get().lock()?;
        Ok(st
            .orders
            .get(self.power.0 as usize)
            .map(|v| v.iter().map(|o| o.text.to_string()).collect())
            .unwrap_or_default())
    }
    /// No units, no dislodged units and no centres.
    fn is_eliminated(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.game.bind(py).get().lock()?.is_eliminated(self.power))
    }
    fn __repr__(&self) -> String {
        format!("<Power {}>", self.name)
    }
}

/// One judged phase (`get_phase_history()`): `name` (`S1901M`), `state` (as
/// `get_state()` before it), `orders` (power → orders as given), `results` (unit →
/// tags, as the `diplomacy` package keys them) and `result` (arbiter's full result:
/// the JSON object of `arbiter adjudicate --format json`).
#[pyclass(frozen, get_all, module = "arbiter._arbiter")]
pub struct PhaseData {
    name: String,
    state: Py<PyDict>,
    orders: Py<PyDict>,
    results: Py<PyDict>,
    result: PyObject,
}

#[pymethods]
impl PhaseData {
    fn __repr__(&self) -> String {
        format!("<PhaseData {}>", self.name)
    }
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (map_name = "standard", rules = None, *, game_id = None, last_year = None))]
    fn new(
        map_name: &str,
        rules: Option<&Bound<'_, PyAny>>,
        game_id: Option<String>,
        last_year: Option<i32>,
    ) -> PyResult<Game> {
        let map = load_map(map_name)?;
        if let Some(problem) = last_year.and_then(|y| arbiter::state::last_year_problem(&map, y)) {
            return Err(PhaseError::new_err(format!("last_year: {problem}")));
        }
        let (rules, flags) = read_rules(rules)?;
        let mut st = State::new(map, rules, flags, game_id.unwrap_or_else(|| "game".into()));
        st.last_year = last_year;
        Ok(Game::of(st))
    }

    /// A game from a position: a dict with `units` (power → unit strings) and
    /// optionally `phase` (`S1901M` or `Spring 1901 movement`), `dislodged`
    /// (`[{power, unit, by, retreats}]`), `centers` (power → centres) and `saved`.
    #[staticmethod]
    #[pyo3(signature = (position, map_name = "standard", rules = None))]
    fn from_position(
        position: &Bound<'_, PyDict>,
        map_name: &str,
        rules: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Game> {
        let map = load_map(map_name)?;
        let (rules, flags) = read_rules(rules)?;
        let mut st = State::new(map.clone(), rules, flags, "game".into());
        let phase = match position.get_item("phase")? {
            Some(p) => read_phase(&p.extract::<String>()?)?,
            None => Phase::first(&map),
        };
        let units: Vec<(String, Vec<String>)> = match position.get_item("units")? {
            Some(u) => u
                .downcast::<PyDict>()?
                .iter()
                .map(|(k, v)| Ok((k.extract()?, v.extract()?)))
                .collect::<PyResult<_>>()?,
            None => Vec::new(),
        };
        let err = |e: arbiter::state::PositionError| {
            ArbiterError::new_err(arbiter::map::names::shown(&e.to_string()))
        };
        let mut pos = Position::from_units(
            &map,
            phase,
            units.iter().map(|(k, v)| (k.as_str(), v.as_slice())),
        )
        .map_err(err)?;
        if let Some(d) = position.get_item("dislodged")? {
            let mut entries = Vec::new();
            for e in d.try_iter()? {
                let e = e?;
                let e = e.downcast::<PyDict>()?;
                let get = |k: &str| -> PyResult<Option<Bound<'_, PyAny>>> { e.get_item(k) };
                entries.push(DislodgedEntry {
                    power: get("power")?
                        .ok_or_else(|| PyKeyError::new_err("power"))?
                        .extract()?,
                    unit: get("unit")?
                        .ok_or_else(|| PyKeyError::new_err("unit"))?
                        .extract()?,
                    by: get("by")?.map(|b| b.extract()).transpose()?,
                    retreats: get("retreats")?
                        .map(|b| b.extract())
                        .transpose()?
                        .unwrap_or_default(),
                });
            }
            pos.set_dislodged(&map, &entries).map_err(err)?;
        }
        pos.check_dislodged().map_err(err)?;
        if let Some(c) = position.get_item("centers")? {
            let centres: Vec<(String, Vec<String>)> = c
                .downcast::<PyDict>()?
                .iter()
                .map(|(k, v)| Ok((k.extract()?, v.extract()?)))
                .collect::<PyResult<_>>()?;
            pos.set_owners(
                &map,
                centres.iter().map(|(k, v)| (k.as_str(), v.as_slice())),
            )
            .map_err(err)?;
        }
        if let Some(s) = position.get_item("saved")? {
            let saved: Vec<(String, u32)> = s
                .downcast::<PyDict>()?
                .iter()
                .map(|(k, v)| Ok((k.extract()?, v.extract()?)))
                .collect::<PyResult<_>>()?;
            pos.set_saved_by_name(&map, saved.iter().map(|(k, v)| (k.as_str(), *v)))
                .map_err(err)?;
        }
        st.position = pos;
        Ok(Game::of(st))
    }

    /// The board (`game.map.locs`, `scs`, `powers`, `homes`, `area_type`, `abuts`).
    #[getter]
    fn map(&self) -> PyResult<GameMap> {
        Ok(GameMap {
            map: self.lock()?.map.clone(),
        })
    }

    /// The map's name (`standard`).
    #[getter]
    fn map_name(&self) -> PyResult<String> {
        Ok(self.lock()?.map.name.clone())
    }

    /// The game's name (`game_id`).
    #[getter]
    fn game_id(&self) -> PyResult<String> {
        Ok(self.lock()?.name.clone())
    }

    /// The rules: the `diplomacy` package's flags given, then the edition.
    #[getter]
    fn rules(&self) -> PyResult<Vec<String>> {
        let st = self.lock()?;
        let mut v = st.flags.clone();
        v.push(st.rules.name().to_string());
        Ok(v)
    }

    /// The rule edition in force (`2023`, `2000`, `1982`, `1971`).
    #[getter]
    fn edition(&self) -> PyResult<&'static str> {
        Ok(self.lock()?.rules.name())
    }

    /// The game ends after this year's Fall turn (`None`: when a power wins).
    #[getter]
    fn last_year(&self) -> PyResult<Option<i32>> {
        Ok(self.lock()?.last_year)
    }

    /// `SPRING 1901 MOVEMENT` (`COMPLETED` once the game is over).
    #[getter]
    fn phase(&self) -> PyResult<String> {
        let st = self.lock()?;
        Ok(if st.done {
            "COMPLETED".into()
        } else {
            long_phase(st.position.phase)
        })
    }

    /// `M`, `R` or `A` (`-` once the game is over).
    #[getter]
    fn phase_type(&self) -> PyResult<&'static str> {
        let st = self.lock()?;
        Ok(if st.done {
            "-"
        } else {
            phase_type(st.position.phase)
        })
    }

    #[getter]
    fn is_game_done(&self) -> PyResult<bool> {
        Ok(self.lock()?.done)
    }

    /// Once the game is over: the last phase judged, then the winner, or (the last
    /// year played) every power that still owns a centre. Empty before.
    #[getter]
    fn outcome(&self) -> PyResult<Vec<String>> {
        let st = self.lock()?;
        if !st.done {
            return Ok(Vec::new());
        }
        let Some(last) = st.history.last() else {
            return Ok(Vec::new());
        };
        let mut out = vec![short_phase(last.before.phase)];
        match last.result.winner {
            Some(w) => out.push(power_name(&st.map, w)),
            None => out.extend(
                st.powers()
                    .filter(|&p| st.position.owners.contains(&Some(p)))
                    .map(|p| power_name(&st.map, p)),
            ),
        }
        Ok(out)
    }

    /// Power name (`FRANCE`) → its `Power` (units, centers, is_eliminated()).
    #[getter]
    fn powers<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
        let py = slf.py();
        let st = slf.get().lock()?;
        let d = PyDict::new(py);
        for pw in st.powers() {
            let name = power_name(&st.map, pw);
            let view = PowerView {
                game: slf.clone().unbind(),
                power: pw,
                name: name.clone(),
            };
            d.set_item(name, Py::new(py, view)?)?;
        }
        Ok(d)
    }

    fn get_power<'py>(slf: &Bound<'py, Self>, power_name: &str) -> PyResult<Py<PowerView>> {
        let py = slf.py();
        let st = slf.get().lock()?;
        let pw = power_of(&st.map, power_name)?;
        Py::new(
            py,
            PowerView {
                game: slf.clone().unbind(),
                power: pw,
                name: crate::names::power_name(&st.map, pw),
            },
        )
    }

    /// `S1901M` (`COMPLETED` once the game is over), as `get_current_phase()`.
    #[getter]
    fn current_short_phase(&self) -> PyResult<String> {
        self.get_current_phase()
    }

    /// Take a power's units off the board (every power's with no name).
    #[pyo3(signature = (power_name = None))]
    fn clear_units(&self, power_name: Option<&str>) -> PyResult<()> {
        let mut st = self.lock()?;
        let pw = power_name.map(|n| power_of(&st.map, n)).transpose()?;
        st.position
            .units
            .retain(|u| pw.is_some_and(|p| p != u.power));
        st.position
            .dislodged
            .retain(|d| pw.is_some_and(|p| p != d.unit.power));
        st.orders.iter_mut().for_each(Vec::clear);
        st.possible = None;
        Ok(())
    }

    /// Make a power's supply centres unowned (every power's with no name).
    #[pyo3(signature = (power_name = None))]
    fn clear_centers(&self, power_name: Option<&str>) -> PyResult<()> {
        let mut st = self.lock()?;
        let pw = power_name.map(|n| power_of(&st.map, n)).transpose()?;
        for o in st.position.owners.iter_mut() {
            if o.is_some_and(|o| pw.is_none_or(|p| p == o)) {
                *o = None;
            }
        }
        st.possible = None;
        Ok(())
    }

    /// `S1901M` (`COMPLETED` once the game is over).
    fn get_current_phase(&self) -> PyResult<String> {
        let st = self.lock()?;
        Ok(if st.done {
            "COMPLETED".into()
        } else {
            short_phase(st.position.phase)
        })
    }

    /// A power's units (`['A PAR', 'F BRE']`, dislodged units marked `*`), or every
    /// power's as a dict.
    #[pyo3(signature = (power_name = None))]
    fn get_units<'py>(&self, py: Python<'py>, power_name: Option<&str>) -> PyResult<PyObject> {
        self.lock()?.per_power(py, power_name, State::units_of)
    }

    /// A power's supply centres, or every power's as a dict.
    #[pyo3(signature = (power_name = None))]
    fn get_centers<'py>(&self, py: Python<'py>, power_name: Option<&str>) -> PyResult<PyObject> {
        self.lock()?.per_power(py, power_name, State::centers_of)
    }

    /// The provinces where a power has something to order (its units; in a retreat
    /// phase its dislodged units; in an adjustment phase its build sites or, owing
    /// removals, its units), or every power's as a dict.
    #[pyo3(signature = (power_name = None))]
    fn get_orderable_locations<'py>(
        &self,
        py: Python<'py>,
        power_name: Option<&str>,
    ) -> PyResult<PyObject> {
        self.lock()?.per_power(py, power_name, State::orderable)
    }

    /// Every location (`PAR`, `STP/SC`) → its legal orders in the `diplomacy`
    /// package's spelling (`A PAR - BUR`, `A LON - NWY VIA`, `A PAR R BUR`, `A PAR B`,
    /// `WAIVE`). A unit on a coast is listed under its province and its coast.
    fn get_all_possible_orders<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let mut st = self.lock()?;
        let table = match &st.possible {
            Some(t) => t.clone(),
            None => {
                let t = Arc::new(possible_orders(py, &st)?);
                st.possible = Some(t.clone());
                t
            }
        };
        let keys = loc_keys(py, &st.map);
        let d = PyDict::new(py);
        for (key, v) in keys.iter().zip(table.iter()) {
            d.set_item(key.bind(py), PyList::new(py, v.iter().map(|s| s.bind(py)))?)?;
        }
        Ok(d)
    }

    /// Give a power's orders for this phase (`['A PAR - BUR', 'F BRE - MAO']`, or one
    /// string). Each is read as arbiter reads a slip and checked: the unit exists, is
    /// the power's and the order is of this phase; otherwise `OrderError` is raised
    /// and no order of the call is set. With `replace` (the default) the power's
    /// earlier orders are dropped first; a second order for a unit replaces the first.
    /// Returns the warnings (misspellings read with a correction).
    #[pyo3(signature = (power_name, orders, expand = true, replace = true))]
    fn set_orders(
        &self,
        py: Python<'_>,
        power_name: &str,
        orders: &Bound<'_, PyAny>,
        expand: bool,
        replace: bool,
    ) -> PyResult<Vec<String>> {
        let _ = expand;
        // The strings are read in place (no copy), as the hot path of an agent's turn.
        let items: Vec<Bound<'_, PyString>> = match orders.downcast::<PyString>() {
            Ok(s) => vec![s.clone()],
            Err(_) => orders
                .try_iter()?
                .map(|x| Ok(x?.downcast_into::<PyString>()?))
                .collect::<PyResult<_>>()?,
        };
        let texts: Vec<&str> = items.iter().map(|s| s.to_str()).collect::<PyResult<_>>()?;
        let mut st = self.lock()?;
        if st.done {
            return Err(PhaseError::new_err(
                "the game is over: no orders can be given",
            ));
        }
        let map = st.map.clone();
        let pw = power_of(&map, power_name)?;
        let mut read = Vec::with_capacity(texts.len());
        let mut problems = Vec::new();
        let mut warnings = Vec::new();
        for &t in &texts {
            match parse_order_with(&map, t, Some(pw), ParseOptions::default()) {
                Ok((o, w)) => {
                    if let Some(other) = o.power.filter(|&p| p != pw) {
                        problems.push((
                            t.to_string(),
                            format!(
                                "the order is written for {}, but given for {}",
                                map.power(other).name,
                                crate::names::power_name(&map, pw)
                            ),
                            Some("give it with set_orders of its own power".into()),
                            o.span.start,
                            o.span.end,
                        ));
                        continue;
                    }
                    match bind(&map, &st.position, pw, &o) {
                        Ok(()) => {
                            warnings.extend(
                                w.into_iter()
                                    .map(|d| format!("`{}`: {}", shown(t), d.message)),
                            );
                            read.push(o)
                        }
                        Err(why) => {
                            problems.push((t.to_string(), why, None, o.span.start, o.span.end))
                        }
                    }
                }
                Err(d) => {
                    problems.push((t.to_string(), d.message, d.help, d.span.start, d.span.end))
                }
            }
        }
        if !problems.is_empty() {
            return Err(order_error(
                py,
                &crate::names::power_name(&map, pw),
                problems,
            ));
        }
        let by_unit = st.position.phase.kind != PhaseKind::Adjustment;
        // A phase holds at most as many orders as `arbiter judge` reads for it (ten a
        // unit and 100 more: builds and waives accumulate), so that the game saves and
        // reads back as it was played. Only a call that may pass the limit keeps a copy
        // to restore.
        let max = gamefile::max_orders(&st.position);
        let held = |orders: &[Vec<Order>]| orders.iter().map(Vec::len).sum::<usize>();
        let backup = (held(&st.orders) + read.len() > max).then(|| st.orders.clone());
        let Some(slot) = st.orders.get_mut(pw.0 as usize) else {
            return Ok(warnings);
        };
        if replace {
            slot.clear();
        }
        for o in read {
            if by_unit {
                if let Some(p) = o.prov(&map) {
                    slot.retain(|x| x.prov(&map) != Some(p));
                }
            }
            slot.push(o);
        }
        if let Some(backup) = backup {
            let total = held(&st.orders);
            if total > max {
                st.orders = backup;
                let first = texts.last().map(|t| t.to_string()).unwrap_or_default();
                return Err(order_error(
                    py,
                    &crate::names::power_name(&map, pw),
                    vec![(
                        first,
                        gamefile::too_many_orders(total, max),
                        Some("one order a unit: give fewer orders, or replace them".into()),
                        0,
                        0,
                    )],
                ));
            }
        }
        Ok(warnings)
    }

    /// The orders given this phase, as written: a power's list, or every power's.
    #[pyo3(signature = (power_name = None))]
    fn get_orders<'py>(&self, py: Python<'py>, power_name: Option<&str>) -> PyResult<PyObject> {
        let st = self.lock()?;
        let texts = |pw: Power| -> Vec<String> {
            st.orders
                .get(pw.0 as usize)
                .map(|v| v.iter().map(|o| o.text.to_string()).collect())
                .unwrap_or_default()
        };
        match power_name {
            Some(n) => Ok(texts(power_of(&st.map, n)?)
                .into_pyobject(py)?
                .into_any()
                .unbind()),
            None => {
                let d = PyDict::new(py);
                for pw in st.powers() {
                    d.set_item(crate::names::power_name(&st.map, pw), texts(pw))?;
                }
                Ok(d.into_any().unbind())
            }
        }
    }

    /// Drop the orders given this phase: a power's, or everyone's.
    #[pyo3(signature = (power_name = None))]
    fn clear_orders(&self, power_name: Option<&str>) -> PyResult<()> {
        let mut st = self.lock()?;
        match power_name {
            Some(n) => {
                let pw = power_of(&st.map, n)?;
                if let Some(v) = st.orders.get_mut(pw.0 as usize) {
                    v.clear();
                }
            }
            None => st.orders.iter_mut().for_each(Vec::clear),
        }
        Ok(())
    }

    /// Judge the phase with the orders given (a unit without one holds; a dislodged
    /// unit without one disbands; builds not given are waived; removals not given are
    /// made by the civil-disorder rule) and move to the next phase that needs orders.
    fn process(&self, py: Python<'_>) -> PyResult<()> {
        let mut st = self.lock()?;
        if st.done {
            return Err(PhaseError::new_err("the game is over: nothing to process"));
        }
        let orders: Vec<Order> = st.orders.iter().flatten().cloned().collect();
        let (map, rules, position, last_year) = (&*st.map, st.rules, &st.position, st.last_year);
        let (result, next) = py
            .allow_threads(|| advance(map, rules, position, &orders, last_year))
            .map_err(|e| ArbiterError::new_err(arbiter::map::names::shown(&e.to_string())))?;
        let before = std::mem::replace(&mut st.position, next);
        st.done = result.next.is_none();
        st.history.push(Entry { before, result });
        st.orders.iter_mut().for_each(Vec::clear);
        st.possible = None;
        Ok(())
    }

    /// The state now, as the `diplomacy` package's `get_state()` keys it: `name`
    /// (`S1901M`), `units`, `retreats`, `centers`, `homes`, `builds`; plus `phase`,
    /// `map` and `rules`.
    fn get_state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.lock()?.state_dict(py)
    }

    /// Every judged phase, oldest first.
    fn get_phase_history(&self, py: Python<'_>) -> PyResult<Vec<Py<PhaseData>>> {
        let st = self.lock()?;
        let mut out = Vec::with_capacity(st.history.len());
        for e in &st.history {
            let view = State {
                position: e.before.clone(),
                done: false,
                history: Vec::new(),
                orders: Vec::new(),
                ..st.clone_settings()
            };
            let orders = PyDict::new(py);
            for pw in st.powers() {
                orders.set_item(crate::names::power_name(&st.map, pw), Vec::<String>::new())?;
            }
            for (pw, list) in st.orders_by_power(&e.result) {
                orders.set_item(pw, list)?;
            }
            let results = PyDict::new(py);
            for (u, tags) in st.result_tags(&e.result) {
                results.set_item(u, tags)?;
            }
            let result = json::phase(&st.map, &e.result, &[])
                .map_err(|e| ArbiterError::new_err(arbiter::map::names::shown(&e.to_string())))?;
            out.push(Py::new(
                py,
                PhaseData {
                    name: short_phase(e.before.phase),
                    state: view.state_dict(py)?.unbind(),
                    orders: orders.unbind(),
                    results: results.unbind(),
                    result: json_to_py(py, &result)?.unbind(),
                },
            )?);
        }
        Ok(out)
    }

    /// Phase (`S1901M`) → power → the orders given, for every judged phase.
    #[getter]
    fn order_history<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let st = self.lock()?;
        let out = PyDict::new(py);
        for e in &st.history {
            let orders = PyDict::new(py);
            for pw in st.powers() {
                orders.set_item(crate::names::power_name(&st.map, pw), Vec::<String>::new())?;
            }
            for (pw, list) in st.orders_by_power(&e.result) {
                orders.set_item(pw, list)?;
            }
            out.set_item(short_phase(e.before.phase), orders)?;
        }
        Ok(out)
    }

    /// Phase (`S1901M`) → unit → its result tags, for every judged phase.
    #[getter]
    fn result_history<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let st = self.lock()?;
        let out = PyDict::new(py);
        for e in &st.history {
            let results = PyDict::new(py);
            for (u, tags) in st.result_tags(&e.result) {
                results.set_item(u, tags)?;
            }
            out.set_item(short_phase(e.before.phase), results)?;
        }
        Ok(out)
    }

    /// The result of the last phase processed (the JSON object of `arbiter adjudicate
    /// --format json`), or `None`.
    #[getter]
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let st = self.lock()?;
        let Some(e) = st.history.last() else {
            return Ok(None);
        };
        let v = json::phase(&st.map, &e.result, &[])
            .map_err(|e| ArbiterError::new_err(arbiter::map::names::shown(&e.to_string())))?;
        Ok(Some(json_to_py(py, &v)?))
    }

    /// Every judged phase as an `arbiter adjudicate --batch` line (JSON text) that
    /// replays it, with the answer it got under `expect`.
    fn batch_lines(&self) -> PyResult<Vec<String>> {
        let st = self.lock()?;
        Ok(st
            .history
            .iter()
            .enumerate()
            .map(|(k, e)| {
                let id = format!("{}-{k}-{}", st.name, short_phase(e.before.phase));
                st.batch_line(&id, e).to_string()
            })
            .collect())
    }

    /// Put units on the board: `units` (`['A PAR', 'F STP/SC']`) for the power; a unit
    /// already in one of those provinces is taken off. With `reset` the power's other
    /// units are removed first.
    #[pyo3(signature = (power_name, units, reset = true))]
    fn set_units(&self, power_name: &str, units: Vec<String>, reset: bool) -> PyResult<()> {
        let mut st = self.lock()?;
        let map = st.map.clone();
        let pw = power_of(&map, power_name)?;
        let mut new = Vec::new();
        for u in &units {
            let mut unit = Position::parse_unit(&map, pw, u).ok_or_else(|| {
                ArbiterError::new_err(format!(
                    "cannot read the unit `{u}`: write `A PAR` or `F STP/SC`"
                ))
            })?;
            if let Some(why) = map.placement_problem(unit.kind, unit.loc) {
                return Err(ArbiterError::new_err(format!("`{}`: {why}", shown(u))));
            }
            if unit.kind == UnitKind::Army {
                unit.loc = map.prov_of(unit.loc).into();
            }
            if new
                .iter()
                .any(|n: &Unit| map.prov_of(n.loc) == map.prov_of(unit.loc))
            {
                return Err(ArbiterError::new_err(format!(
                    "two units in {}",
                    map.province(map.prov_of(unit.loc)).name
                )));
            }
            new.push(unit);
        }
        let units_now = &mut st.position.units;
        units_now.retain(|u| {
            let replaced = new.iter().any(|n| map.prov_of(n.loc) == map.prov_of(u.loc));
            let dropped = reset && u.power == pw;
            !(replaced || dropped)
        });
        units_now.extend(new);
        // A retreat option now occupied is no longer one (a unit retreats only to an
        // empty place), so that the position stays one the game-file loader takes.
        let taken: Vec<_> = st
            .position
            .units
            .iter()
            .map(|u| map.prov_of(u.loc))
            .collect();
        for d in &mut st.position.dislodged {
            d.retreats.retain(|&l| !taken.contains(&map.prov_of(l)));
        }
        st.orders.iter_mut().for_each(Vec::clear);
        st.possible = None;
        Ok(())
    }

    /// Give supply centres (`['PAR', 'BRE']`) to the power (taken from their owners).
    /// With `reset` the power's other centres become unowned.
    #[pyo3(signature = (power_name, centers, reset = false))]
    fn set_centers(&self, power_name: &str, centers: Vec<String>, reset: bool) -> PyResult<()> {
        let mut st = self.lock()?;
        let map = st.map.clone();
        let pw = power_of(&map, power_name)?;
        let mut provs = Vec::new();
        for c in &centers {
            let p = map
                .prov_by_id(c.split('/').next().unwrap_or(c))
                .filter(|&p| map.province(p).supply)
                .ok_or_else(|| {
                    ArbiterError::new_err(format!(
                        "`{}` is not a supply centre of {}",
                        shown(c),
                        map.name
                    ))
                })?;
            provs.push(p);
        }
        if reset {
            for o in st.position.owners.iter_mut() {
                if *o == Some(pw) {
                    *o = None;
                }
            }
        }
        for p in provs {
            if let Some(o) = st.position.owners.get_mut(p.0 as usize) {
                *o = Some(pw);
            }
        }
        st.possible = None;
        Ok(())
    }

    /// Move the game to another phase (`S1902M`, `Fall 1902 retreat`); the orders given
    /// are dropped. A retreat phase keeps the dislodged units only if it was one (and
    /// needs some); a phase past the game's `last_year` is refused.
    fn set_current_phase(&self, phase: &str) -> PyResult<()> {
        let p = read_phase(phase)?;
        let mut st = self.lock()?;
        if let Some(why) = st
            .last_year
            .and_then(|y| arbiter::state::past_last_year(p, y))
        {
            return Err(PhaseError::new_err(format!("last_year: {why}")));
        }
        let dislodged =
            st.position.phase.kind == PhaseKind::Retreat && !st.position.dislodged.is_empty();
        if p.kind == PhaseKind::Retreat && !dislodged {
            return Err(PhaseError::new_err(
                arbiter::state::PositionError::RetreatWithoutDislodged(p.to_string()).to_string(),
            ));
        }
        if p.kind != PhaseKind::Retreat {
            st.position.dislodged.clear();
        }
        st.position.phase = p;
        st.done = false;
        st.orders.iter_mut().for_each(Vec::clear);
        st.possible = None;
        Ok(())
    }

    /// The game as arbiter's game file (YAML text): `arbiter status`, `judge`, `history`
    /// and `explain` open it.
    fn to_yaml(&self, py: Python<'_>) -> PyResult<String> {
        let st = self.lock()?;
        let st = &*st;
        py.allow_threads(|| st.to_gamefile())
            .map_err(GameFileError::new_err)
    }

    /// Save the game as arbiter's game file, as `arbiter judge` saves one: under the
    /// game's lock (`.GAME.lock`, shared with the commands and `arbiter serve`),
    /// atomically, the previous version kept as `GAME.bak`. Saving over the file this
    /// game was loaded from (or last saved to) is refused when another writer changed
    /// it meanwhile: its phases would be lost. Saving over any other existing file is
    /// refused unless it is an arbiter game file whose judged phases this game has too,
    /// the same, in the same order (none lost): a file of another kind, or a game
    /// judged further or otherwise (by `arbiter judge`, by another `Game`), is never
    /// replaced. A file named as a lock file (`.NAME.lock`) is never written.
    fn save(&self, py: Python<'_>, path: std::path::PathBuf) -> PyResult<()> {
        let text = self.to_yaml(py)?;
        let known = self.file.lock().unwrap_or_else(|e| e.into_inner()).clone();
        py.allow_threads(|| {
            if let Some(refusal) = files::lock_file_refusal(&path) {
                return Err(refusal);
            }
            let _lock = files::lock_game(&path)?;
            let expect = match &known {
                Some((p, bytes)) if *p == real_path(&path) => files::Expect::Loaded(bytes),
                _ => {
                    would_lose_nothing(&path, &text)?;
                    files::Expect::Any
                }
            };
            files::save_game(&path, &text, expect, files::DEFAULT_MAX_INPUT_BYTES)
        })
        .map_err(GameFileError::new_err)?;
        let near = files::near_limit(
            &path.display().to_string(),
            text.len() as u64,
            files::DEFAULT_MAX_INPUT_BYTES,
        );
        self.set_file(&path, text.into_bytes());
        if let Some(w) = near {
            let kind = py.get_type::<pyo3::exceptions::PyUserWarning>();
            PyErr::warn(py, &kind, &std::ffi::CString::new(w).unwrap_or_default(), 1)?;
        }
        Ok(())
    }

    /// A game from arbiter's game file text.
    #[staticmethod]
    fn from_yaml(py: Python<'_>, text: &str) -> PyResult<Game> {
        let st = py
            .allow_threads(|| State::from_gamefile(text))
            .map_err(GameFileError::new_err)?;
        Ok(Game::of(st))
    }

    /// Open a game file (as `arbiter new` or `save` wrote it).
    #[staticmethod]
    fn load(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Game> {
        let shown = path.display();
        let bytes = py
            .allow_threads(|| files::read_bytes(&path, files::DEFAULT_MAX_INPUT_BYTES))
            .map_err(|e| {
                GameFileError::new_err(arbiter::map::names::shown(&format!("{shown}: {e}")))
            })?;
        let text = arbiter::encoding::decode_str(&bytes).map_err(|why| {
            GameFileError::new_err(format!(
                "{shown}: the file is not UTF-8 text: {why}; if it was not saved in another \
                 encoding, it is damaged"
            ))
        })?;
        let game = Game::from_yaml(py, text).map_err(|e| {
            GameFileError::new_err(arbiter::map::names::shown(&format!(
                "{shown}: {}",
                e.value(py)
            )))
        })?;
        game.set_file(&path, bytes);
        Ok(game)
    }

    /// An independent copy (history, position and orders given).
    fn copy(&self) -> PyResult<Game> {
        let copy = Game::of(self.lock()?.clone());
        // The copy is the same game as the file this one matches.
        *copy.file.lock().unwrap_or_else(|e| e.into_inner()) =
            self.file.lock().unwrap_or_else(|e| e.into_inner()).clone();
        Ok(copy)
    }

    fn __copy__(&self) -> PyResult<Game> {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyResult<Game> {
        self.copy()
    }

    fn __repr__(&self) -> PyResult<String> {
        let st = self.lock()?;
        Ok(format!(
            "<arbiter.Game {} on {} ({} rules), {}>",
            st.name,
            st.map.name,
            st.rules.name(),
            if st.done {
                "completed".into()
            } else {
                short_phase(st.position.phase)
            }
        ))
    }
}

impl State {
    fn clone_settings(&self) -> State {
        State {
            map: self.map.clone(),
            rules: self.rules,
            flags: self.flags.clone(),
            name: self.name.clone(),
            last_year: self.last_year,
            position: self.position.clone(),
            orders: Vec::new(),
            history: Vec::new(),
            done: self.done,
            possible: None,
        }
    }
}

fn read_phase(s: &str) -> PyResult<Phase> {
    let t = s.trim();
    let upper = t.to_ascii_uppercase();
    let t = upper
        .strip_suffix("RETREATS")
        .map(|r| format!("{r}RETREAT"))
        .or_else(|| {
            upper
                .strip_suffix("ADJUSTMENTS")
                .map(|r| format!("{r}ADJUSTMENT"))
        })
        .unwrap_or(upper.clone());
    Phase::parse(&t)
        .or_else(|_| Phase::parse(s))
        .map_err(|e| PhaseError::new_err(arbiter::map::names::shown(&e.to_string())))
}

/// Explain the last phase a game processed (`arbiter explain`): why each order ended
/// as it did; with `province`, only the orders about it.
#[pyfunction]
#[pyo3(signature = (game, province = None))]
pub fn explain(py: Python<'_>, game: &Game, province: Option<&str>) -> PyResult<String> {
    let st = game.lock()?;
    let map = &*st.map;
    let Some(e) = st.history.last() else {
        return Err(PhaseError::new_err(
            "nothing to explain: the game has processed no phase",
        ));
    };
    let prov = province
        .map(|p| {
            map.prov_by_id(p.split('/').next().unwrap_or(p))
                .ok_or_else(|| ArbiterError::new_err(format!("unknown province `{}`", shown(p))))
        })
        .transpose()?;
    let result = &e.result;
    Ok(py.allow_threads(|| arbiter::report::explain::explain(map, result, prov)))
}

/// Draw a game as SVG: the last phase processed (its position, orders and outcomes),
/// or with `current` the position now.
#[pyfunction]
#[pyo3(signature = (game, current = false, title = None))]
pub fn render_svg(
    py: Python<'_>,
    game: &Game,
    current: bool,
    title: Option<String>,
) -> PyResult<String> {
    let st = game.lock()?;
    let map = &*st.map;
    let (position, result) = match st.history.last() {
        Some(e) if !current => (&e.before, Some(&e.result)),
        _ => (&st.position, None),
    };
    let title = title.unwrap_or_else(|| format!("{}: {}", position.phase, st.name));
    let scene = arbiter::render::Scene {
        position,
        result,
        title,
        problems: Vec::new(),
        bare: false,
        graph: false,
    };
    py.allow_threads(|| arbiter::render::svg(map, &scene))
        .map_err(|e| ArbiterError::new_err(arbiter::map::names::shown(&e.to_string())))
}

/// The board, with the names the `diplomacy` package's `game.map` uses for the same
/// facts (`locs`, `scs`, `powers`, `homes`, `area_type`, `abuts`).
#[pyclass(frozen, module = "arbiter._arbiter", name = "Map")]
pub struct GameMap {
    map: Arc<Map>,
}

impl GameMap {
    fn loc(&self, s: &str) -> PyResult<arbiter::map::Loc> {
        self.map
            .loc_by_id(s)
            .ok_or_else(|| ArbiterError::new_err(format!("unknown location `{}`", shown(s))))
    }
}

#[pymethods]
impl GameMap {
    #[getter]
    fn name(&self) -> String {
        self.map.name.clone()
    }
    /// Every location, coasts too (`'PAR'`, `'STP/SC'`).
    #[getter]
    fn locs(&self) -> Vec<String> {
        self.map
            .locs()
            .map(|l| self.map.loc_upper(l).to_string())
            .collect()
    }
    /// The supply centres.
    #[getter]
    fn scs(&self) -> Vec<String> {
        self.map
            .provs()
            .filter(|&p| self.map.province(p).supply)
            .map(|p| prov_upper(&self.map, p).to_string())
            .collect()
    }
    /// The powers (`'FRANCE'`).
    #[getter]
    fn powers(&self) -> Vec<String> {
        self.map
            .power_ids()
            .map(|p| power_name(&self.map, p))
            .collect()
    }
    /// Power → its home centres.
    #[getter]
    fn homes(&self) -> BTreeMap<String, Vec<String>> {
        self.map
            .power_ids()
            .map(|p| {
                let homes = self
                    .map
                    .power(p)
                    .home
                    .iter()
                    .map(|&h| prov_upper(&self.map, h).to_string())
                    .collect();
                (power_name(&self.map, p), homes)
            })
            .collect()
    }
    /// `'WATER'`, `'COAST'`, `'LAND'` or `'SHUT'` (impassable).
    fn area_type(&self, loc: &str) -> PyResult<&'static str> {
        let p = self.map.prov_of(self.loc(loc)?);
        Ok(match self.map.terrain(p) {
            arbiter::map::Terrain::Sea => "WATER",
            arbiter::map::Terrain::Coastal => "COAST",
            arbiter::map::Terrain::Land => "LAND",
            arbiter::map::Terrain::Impassable => "SHUT",
        })
    }
    /// May a unit of type `unit_type` (`'A'` or `'F'`) at `loc` move to `other_loc`?
    /// (`order_type` is accepted for the `diplomacy` package's signature; a support
    /// or convoy asks the same question of the place.) A fleet to a named coast must
    /// reach that coast.
    #[pyo3(signature = (unit_type, loc, order_type, other_loc))]
    fn abuts(
        &self,
        unit_type: &str,
        loc: &str,
        order_type: &str,
        other_loc: &str,
    ) -> PyResult<bool> {
        let _ = order_type;
        let (from, to) = (self.loc(loc)?, self.loc(other_loc)?);
        let kind = match unit_type.trim().to_ascii_uppercase().as_str() {
            "A" => UnitKind::Army,
            "F" => UnitKind::Fleet,
            other => {
                return Err(ArbiterError::new_err(format!(
                    "unknown unit type `{other}`: write `A` or `F`"
                )))
            }
        };
        let p = self.map.prov_of(to);
        Ok(match kind {
            UnitKind::Fleet if to != p.into() => self.map.fleet_adjacent(from, to),
            _ => self.map.can_reach(kind, from, p),
        })
    }
    fn __repr__(&self) -> String {
        format!("<arbiter.Map {}>", self.map.name)
    }
}
