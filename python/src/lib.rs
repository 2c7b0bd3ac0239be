//! `arbiter._arbiter`: the native part of the Python package `arbiter`
//! (`python/arbiter/__init__.py` re-exports it; docs/PYTHON.md is the user's guide).
//!
//! Everything goes through the library's own API (`arbiter::game::advance`,
//! `arbiter::legal`, `arbiter::batch`, `arbiter::gamefile`, `arbiter::selfplay`,
//! `arbiter::render`, `arbiter::report`): this crate only converts between Python
//! values and the library's types. The GIL is released while judging, listing legal
//! orders, running a batch or self-play, and rendering.

// As the library: no input may panic (a panic here would be a Python `PanicException`).
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::unreachable
)]

use std::sync::{Arc, Mutex, OnceLock};

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};

use arbiter::judge::Rules;
use arbiter::map::{Map, EMBEDDED};

mod game;
mod names;

// The allocator the CLI uses: the judge and the legal lists allocate many small
// vectors, which the system allocator serves at a third of the speed.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

create_exception!(
    _arbiter,
    ArbiterError,
    PyValueError,
    "Base of arbiter's errors (a ValueError): bad input, with the library's message."
);
create_exception!(
    _arbiter,
    OrderError,
    ArbiterError,
    "An order that cannot be read or given: `errors` lists each problem as a dict \
     (order, message, help, span)."
);
create_exception!(
    _arbiter,
    MapError,
    ArbiterError,
    "An unknown map name, or a map that cannot be loaded."
);
create_exception!(
    _arbiter,
    PhaseError,
    ArbiterError,
    "A phase name that cannot be read, or an action the current phase does not allow."
);
create_exception!(
    _arbiter,
    GameFileError,
    ArbiterError,
    "A game file that cannot be read or written."
);

/// The embedded maps, each loaded once per process and shared by every game.
pub(crate) fn load_map(name: &str) -> PyResult<Arc<Map>> {
    type Loaded = Mutex<Vec<(String, Arc<Map>)>>;
    static MAPS: OnceLock<Loaded> = OnceLock::new();
    let key = match name.trim().to_ascii_lowercase().as_str() {
        "classic" => "standard".to_string(),
        k => k.to_string(),
    };
    let maps = MAPS.get_or_init(|| Mutex::new(Vec::new()));
    let mut maps = maps.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, m)) = maps.iter().find(|(k, _)| *k == key) {
        return Ok(m.clone());
    }
    let map = Map::embedded(&key).ok_or_else(|| {
        MapError::new_err(format!(
            "unknown map `{}`: the maps are {}",
            name.chars().take(100).collect::<String>(),
            map_names().join(", ")
        ))
    })?;
    let map = Arc::new(map);
    maps.push((key, map.clone()));
    Ok(map)
}

fn map_names() -> Vec<&'static str> {
    EMBEDDED.iter().map(|(n, _, _)| *n).collect()
}

/// An edition by name (`2023`, `2000`, `1982`, `1971`, aliases as `--rules`).
pub(crate) fn edition(name: &str) -> PyResult<Rules> {
    Rules::parse(name).ok_or_else(|| {
        ArbiterError::new_err(format!(
            "unknown rules edition `{}`: the editions are {}",
            name.chars().take(100).collect::<String>(),
            Rules::names()
        ))
    })
}

/// The names of the embedded maps.
#[pyfunction]
fn maps() -> Vec<&'static str> {
    map_names()
}

/// The rule editions, the default first.
#[pyfunction]
fn editions() -> Vec<&'static str> {
    Rules::EDITIONS.iter().map(|r| r.name()).collect()
}

/// Answer one batch line (JSON text) as `arbiter adjudicate --batch` does: the
/// answer's JSON text (`{"id": …, "error": …}` for a line that cannot be answered).
#[pyfunction]
#[pyo3(signature = (line, rules = None, strict = false))]
fn answer_line(py: Python<'_>, line: &str, rules: Option<&str>, strict: bool) -> PyResult<String> {
    let rules = rules.map(edition).transpose()?.unwrap_or_default();
    let maps = batch_maps()?;
    let options = arbiter::orders::ParseOptions { strict };
    Ok(py.allow_threads(
        || match arbiter::batch::answer_line(line, rules, options, &maps) {
            Ok(s) | Err(s) => s,
        },
    ))
}

/// The batch's maps: every embedded map, the classic one the default.
fn batch_maps() -> PyResult<Arc<arbiter::batch::Maps>> {
    static MAPS: OnceLock<Arc<arbiter::batch::Maps>> = OnceLock::new();
    if let Some(m) = MAPS.get() {
        return Ok(m.clone());
    }
    let standard = load_map("standard")?;
    let m = Arc::new(arbiter::batch::Maps::new((*standard).clone()));
    Ok(MAPS.get_or_init(|| m).clone())
}

/// Answer many batch lines on `jobs` threads (`arbiter adjudicate --batch --jobs N`):
/// `lines` is JSON Lines text; one answer per line, in order, each as the CLI writes
/// it (JSON text).
#[pyfunction]
#[pyo3(signature = (lines, jobs = 1, rules = None, strict = false))]
fn batch_text<'py>(
    py: Python<'py>,
    lines: &str,
    jobs: usize,
    rules: Option<&str>,
    strict: bool,
) -> PyResult<Bound<'py, PyList>> {
    let rules = rules.map(edition).transpose()?.unwrap_or_default();
    let maps = batch_maps()?;
    let o = arbiter::batch::StreamOptions {
        rules,
        parse: arbiter::orders::ParseOptions { strict },
        jobs: jobs.max(1),
        max_line: arbiter::batch::MAX_LINE,
    };
    let out = py.allow_threads(|| {
        let mut input = std::io::Cursor::new(lines.as_bytes());
        let mut out = Vec::with_capacity(lines.len() * 2);
        arbiter::batch::stream(&mut input, &mut out, &maps, &o).map(|_| out)
    });
    let out = out.map_err(|e| ArbiterError::new_err(format!("batch: {e}")))?;
    let out = String::from_utf8(out).map_err(|e| ArbiterError::new_err(format!("batch: {e}")))?;
    let list = PyList::empty(py);
    for answer in out.lines() {
        list.append(PyString::new(py, answer))?;
    }
    Ok(list)
}

/// The most games one `selfplay` call plays: its records come back as one list, held
/// whole (about half a MB a game with `lines`); call again with `first=` for more.
const MAX_SELFPLAY_GAMES: u64 = 1000;

/// Self-play: `games` whole games (at most [`MAX_SELFPLAY_GAMES`]) with random legal
/// orders (as `arbiter selfplay`), game `k` seeded `game_seed(seed, k)`. Returns per
/// game a dict: `seed`, `phases`, `winner`, `last` and, with `lines`, every phase as a
/// batch line (JSON text) that replays it with the answer it got under `expect`. Ctrl-C
/// stops it between games.
#[pyfunction]
#[pyo3(signature = (games = 1, seed = 0, last_year = 1910, map = "standard", rules = None, lines = true, first = 0))]
#[allow(clippy::too_many_arguments)]
fn selfplay<'py>(
    py: Python<'py>,
    games: u64,
    seed: u64,
    last_year: i32,
    map: &str,
    rules: Option<&str>,
    lines: bool,
    first: u64,
) -> PyResult<Bound<'py, PyList>> {
    if games > MAX_SELFPLAY_GAMES {
        return Err(PyValueError::new_err(format!(
            "games={games}: at most {MAX_SELFPLAY_GAMES} a call (the records come back as one \
             list); call again with first= for more, or use `arbiter selfplay --out`, which \
             streams"
        )));
    }
    let map = load_map(map)?;
    let rules = rules.map(edition).transpose()?.unwrap_or_default();
    let out = PyList::empty(py);
    for k in first..first.saturating_add(games) {
        let played = py.allow_threads(|| {
            let s = arbiter::selfplay::game_seed(seed, k);
            let g = arbiter::selfplay::play_game(&map, rules, s, last_year, lines)
                .map_err(|v| v.to_string())?;
            let texts: Vec<String> = g
                .record
                .iter()
                .map(|p| {
                    let id = format!("{seed}-{k}-{}", names::short_phase(p.position.phase));
                    arbiter::selfplay::batch_line(&map, &id, last_year, p).to_string()
                })
                .collect();
            Ok::<_, String>((g.seed, g.phases, g.winner, g.last, texts))
        });
        let (s, phases, winner, last, texts) = played.map_err(ArbiterError::new_err)?;
        let d = PyDict::new(py);
        d.set_item("game", k)?;
        d.set_item("seed", s)?;
        d.set_item("phases", phases)?;
        d.set_item("winner", winner.map(|w| names::power_name(&map, w)))?;
        d.set_item("last", names::short_phase(last))?;
        d.set_item("lines", texts)?;
        out.append(d)?;
        py.check_signals()?;
    }
    Ok(out)
}

/// Render an SVG text as PNG bytes, `width` pixels wide (default: 1600, or four
/// fifths of the SVG's width when that is more).
#[pyfunction]
#[pyo3(signature = (svg, width=None))]
fn svg_to_png<'py>(
    py: Python<'py>,
    svg: &str,
    width: Option<u32>,
) -> PyResult<Bound<'py, PyBytes>> {
    let png = py
        .allow_threads(|| arbiter::render::png_width(svg, width))
        .map_err(|e| ArbiterError::new_err(e.to_string()))?;
    Ok(PyBytes::new(py, &png))
}

/// The test cases of a case file (YAML text, format `test-cases/README.md`), each as
/// a dict: `id`, `title`, `editions`, `phase`, `units`, `owners`, `orders` (a list of
/// `[power, order, outcome]`), `dislodged`, `contested`, `retreats`,
/// `retreat_orders` (like `orders`), `destroyed`, `civil_disorder`.
#[pyfunction]
fn read_cases<'py>(py: Python<'py>, yaml: &str) -> PyResult<Bound<'py, PyList>> {
    let cases =
        arbiter::cases::parse_cases(yaml).map_err(|e| ArbiterError::new_err(e.to_string()))?;
    let out = PyList::empty(py);
    for c in cases {
        let d = PyDict::new(py);
        d.set_item("id", &c.id)?;
        d.set_item("title", &c.title)?;
        let eds: Vec<&str> = c
            .editions()
            .map_err(ArbiterError::new_err)?
            .iter()
            .map(|r| r.name())
            .collect();
        d.set_item("editions", eds)?;
        d.set_item("phase", &c.phase)?;
        d.set_item("units", c.units.clone())?;
        d.set_item("owners", c.owners.clone())?;
        d.set_item("orders", case_orders(&c.orders)?)?;
        d.set_item("dislodged", c.dislodged.clone())?;
        d.set_item("contested", c.contested.clone())?;
        d.set_item("retreats", c.retreats.clone())?;
        d.set_item(
            "retreat_orders",
            c.retreat_orders.as_ref().map(case_orders).transpose()?,
        )?;
        d.set_item("destroyed", c.destroyed.clone())?;
        d.set_item("civil_disorder", c.civil_disorder.clone())?;
        out.append(d)?;
    }
    Ok(out)
}

/// A case's `{power: [{order: outcome}, …]}` as `[power, order, outcome]` rows.
fn case_orders(m: &serde_yaml::Mapping) -> PyResult<Vec<(String, String, String)>> {
    let bad = || ArbiterError::new_err("a case's orders are `power: [{order: outcome}, …]`");
    let mut out = Vec::new();
    for (power, list) in m {
        let power = power.as_str().ok_or_else(bad)?;
        for item in list.as_sequence().ok_or_else(bad)? {
            for (k, v) in item.as_mapping().ok_or_else(bad)? {
                out.push((
                    power.to_string(),
                    k.as_str().ok_or_else(bad)?.to_string(),
                    v.as_str().ok_or_else(bad)?.to_string(),
                ));
            }
        }
    }
    Ok(out)
}

#[pymodule]
fn _arbiter(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("ArbiterError", py.get_type::<ArbiterError>())?;
    m.add("OrderError", py.get_type::<OrderError>())?;
    m.add("MapError", py.get_type::<MapError>())?;
    m.add("PhaseError", py.get_type::<PhaseError>())?;
    m.add("GameFileError", py.get_type::<GameFileError>())?;
    m.add_class::<game::Game>()?;
    m.add_class::<game::PowerView>()?;
    m.add_class::<game::PhaseData>()?;
    m.add_class::<game::GameMap>()?;
    m.add_function(wrap_pyfunction!(maps, m)?)?;
    m.add_function(wrap_pyfunction!(editions, m)?)?;
    m.add_function(wrap_pyfunction!(answer_line, m)?)?;
    m.add_function(wrap_pyfunction!(batch_text, m)?)?;
    m.add_function(wrap_pyfunction!(selfplay, m)?)?;
    m.add_function(wrap_pyfunction!(svg_to_png, m)?)?;
    m.add_function(wrap_pyfunction!(read_cases, m)?)?;
    m.add_function(wrap_pyfunction!(game::explain, m)?)?;
    m.add_function(wrap_pyfunction!(game::render_svg, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
