//! The referee's commands on a game file: `new`, `status`, `judge`, `undo`,
//! `history`, `centres`, `explain` (see `docs/CLI.md` and `docs/GAMES.md`). The game
//! logic is in `arbiter::gamefile`; the file on disk (its lock, saves and backup) is kept
//! by [`super::store`].

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use clap::ValueEnum;
use serde::Serialize;

use super::store::{self, Loaded};
use super::{load_map, parse_rules, read_input, Fatal, Format, EXIT_DIAGNOSTICS, EXIT_OK};
use arbiter::game::PhaseResult;
use arbiter::gamefile::{phase_key, Found, Game, Judgement, OrderFile, Over};
use arbiter::judge::owed;
use arbiter::map::{BuildRule, Map, Power, Prov};
use arbiter::orders::Diagnostic;
use arbiter::report;
use arbiter::state::{DislodgedEntry, Phase, PhaseKind, Position};

/// The width text output is fitted to.
const WIDTH: usize = 80;

#[derive(clap::Args, Debug)]
pub struct NewArgs {
    /// The game file to create (YAML); an existing file is never overwritten.
    pub game: PathBuf,
    /// Map: the name of an embedded map (`standard`, `classic1913`, `world1914`) or a YAML
    /// map file.
    #[arg(long, value_name = "NAME|FILE", default_value = "standard")]
    pub map: String,
    #[arg(long, default_value = "2023", value_name = "EDITION", help = super::RULES_HELP)]
    pub rules: String,
    /// The game's name, printed in sheet headers: one line of text, without control
    /// characters. Default: the file name without its extension.
    #[arg(long, value_name = "TEXT")]
    pub name: Option<String>,
    /// A tournament game: the game ends after this year's Fall turn (not before the
    /// map's first year of moves; at most 9999, the last year arbiter plays).
    #[arg(long, value_name = "YEAR")]
    pub last_year: Option<i32>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum StatusFormat {
    Text,
    Json,
}

#[derive(clap::Args, Debug)]
pub struct StatusArgs {
    /// The game file.
    pub game: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = StatusFormat::Text)]
    pub format: StatusFormat,
}

#[derive(clap::Args, Debug)]
pub struct JudgeArgs {
    /// The game file.
    pub game: PathBuf,
    /// Order files (one per player is typical), or `-` for standard input.
    ///
    /// A slip's power is its header (`France:` on a line of its own, or before each
    /// order); without one, its file name when that begins with a power's name, code or
    /// adjective (`france.txt`, `France-S1901.txt`, any case); a referee's file may
    /// hold several powers, each under its header. An order with no power, an order
    /// for another power's unit (a move, retreat or removal) or another power's waive
    /// (`Germany: waive France`), and a heading that names another phase than the one
    /// judged (`Spring 1905` in Fall 1905; in a slip without one, a file name that
    /// does: `France-S1905.txt`) are errors: nothing is judged unless --accept is given.
    #[arg(required = true, value_name = "ORDERS")]
    pub orders: Vec<String>,
    /// Judge even if some orders have errors: orders that cannot be read are left out
    /// (their units hold); illegal retreats, builds, removals and waives are void (the
    /// sheet lists them with the reason). An order with no power counts for the power
    /// whose unit it orders; a slip headed with another phase is judged as this phase's.
    #[arg(long)]
    pub accept: bool,
    /// Every correction of a misspelling is an error (without it, a misspelt name
    /// with exactly one close reading is read, with a warning that shows the
    /// correction). A game records only orders read without it, so it cannot be
    /// combined with --accept.
    #[arg(long, conflicts_with = "accept")]
    pub strict: bool,
    /// Output format of the sheet.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Also write a picture of the phase judged (its position and orders) to FILE, as
    /// SVG (atomically), after the game is saved.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Also write the same picture to FILE as PNG (atomically), after the game is saved.
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct UndoArgs {
    /// The game file.
    pub game: PathBuf,
}

#[derive(clap::Args, Debug)]
pub struct HistoryArgs {
    /// The game file.
    pub game: PathBuf,
    /// One phase only: `Spring 1901`, `Fall 1901 retreat`, `Winter 1901`, `F1901R`, ….
    pub phase: Option<String>,
    /// Output format: the stored sheets (text), or the phases judged again from their
    /// stored positions and orders (json, markdown).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum CentresFormat {
    Text,
    Csv,
    Json,
}

#[derive(clap::Args, Debug)]
pub struct CentresArgs {
    /// The game file.
    pub game: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CentresFormat::Text)]
    pub format: CentresFormat,
}

#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    /// The game file.
    pub game: PathBuf,
    /// Only the orders about this province (id or name: `bur`, `Burgundy`).
    pub province: Option<String>,
    /// Explain this judged phase instead of the last one.
    #[arg(long, value_name = "PHASE")]
    pub phase: Option<String>,
}

// ---------------------------------------------------------------------------------
// new
// ---------------------------------------------------------------------------------

pub fn new(args: &NewArgs) -> Result<i32, Fatal> {
    if args.game.exists() {
        return Err(store::exists(&args.game));
    }
    let _lock = store::lock(&args.game)?;
    let map = load_map(&args.map)?;
    let map_file = if Map::embedded(&args.map).is_some() {
        None
    } else {
        let abs = std::fs::canonicalize(&args.map)
            .map_err(|e| Fatal(format!("cannot resolve map file `{}`: {e}", args.map)))?;
        Some(abs.to_string_lossy().into_owned())
    };
    let rules = parse_rules(&args.rules)?;
    if let Some(y) = args.last_year {
        if let Some(problem) = arbiter::state::last_year_problem(&map, y) {
            return Err(Fatal(format!("--last-year {y}: {problem}")));
        }
    }
    let name = match &args.name {
        Some(n) if n.chars().any(arbiter::yaml::breaks_a_name) => {
            return Err(Fatal(
                "--name must be one line of text, without control characters (it heads every \
                 sheet, and a line break in it would forge a sheet line)"
                    .into(),
            ))
        }
        Some(n) if !n.trim().is_empty() => n.trim().to_string(),
        Some(_) => return Err(Fatal("--name must not be empty".into())),
        None => args
            .game
            .file_stem()
            .map(|s| {
                // One line of text, as the loader wants a name.
                let s: String = s
                    .to_string_lossy()
                    .chars()
                    .map(|c| {
                        if arbiter::yaml::breaks_a_name(c) {
                            ' '
                        } else {
                            c
                        }
                    })
                    .collect();
                s.trim().to_string()
            })
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "game".into()),
    };
    let game = Game::new(&map, &name, map_file, rules, args.last_year);
    store::create(&args.game, &game.to_yaml(&map))?;
    let last = match args.last_year {
        Some(y) => format!(", last year {y}"),
        None => String::new(),
    };
    outln!(
        "Created {}: game `{name}` on the {} map, rules {} edition{last}.",
        args.game.display(),
        map.name,
        rules.name()
    );
    outln!("Next: {}.", capital(&game.position.phase.to_string()));
    Ok(EXIT_OK)
}

// ---------------------------------------------------------------------------------
// status
// ---------------------------------------------------------------------------------

#[derive(Serialize)]
struct StatusJson {
    game: String,
    map: String,
    rules: &'static str,
    last_year: Option<i32>,
    phase: String,
    /// Phases judged so far.
    judged: usize,
    over: Option<OverJson>,
    /// Units by power (not the dislodged ones).
    units: BTreeMap<String, Vec<String>>,
    dislodged: Vec<DislodgedEntry>,
    owners: BTreeMap<String, Vec<String>>,
    centres: BTreeMap<String, usize>,
    /// In an adjustment phase: what each power builds or removes, and where it may build.
    owed: Vec<report::json::JsonOwed>,
    /// Builds saved for a colonial build in the coming adjustment phase, by power.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    saved: BTreeMap<String, u32>,
}

#[derive(Serialize)]
struct OverJson {
    winner: Option<String>,
    last_year: Option<i32>,
}

pub fn status(args: &StatusArgs) -> Result<i32, Fatal> {
    let Loaded { game, map, .. } = store::load(&args.game)?;
    let out = match args.format {
        StatusFormat::Text => status_text(&map, &game),
        StatusFormat::Json => {
            let p = &game.position;
            let owed_now = if p.phase.kind == PhaseKind::Adjustment && game.over.is_none() {
                let owed =
                    owed(&map, &p.owners, &p.units, &p.saved).map_err(|e| Fatal(e.to_string()))?;
                report::json::owed(&map, &owed)
            } else {
                Vec::new()
            };
            let j = StatusJson {
                game: game.name.clone(),
                map: map.name.clone(),
                rules: game.rules.name(),
                last_year: game.last_year,
                phase: p.phase.to_string(),
                judged: game.history.len(),
                over: game.over.map(|o| match o {
                    Over::Winner(w) => OverJson {
                        winner: Some(map.power(w).id.clone()),
                        last_year: None,
                    },
                    Over::LastYear(y) => OverJson {
                        winner: None,
                        last_year: Some(y),
                    },
                }),
                units: report::json::units_by_power(&map, &p.units),
                dislodged: p.dislodged.iter().map(|d| d.entry(&map)).collect(),
                owners: report::json::owners_by_power(&map, &p.owners),
                centres: map
                    .power_ids()
                    .map(|pw| (map.power(pw).id.clone(), centre_count(&p.owners, pw)))
                    .collect(),
                owed: owed_now,
                saved: map
                    .power_ids()
                    .filter(|&pw| p.saved_by(pw) > 0)
                    .map(|pw| (map.power(pw).id.clone(), p.saved_by(pw)))
                    .collect(),
            };
            json(&j)?
        }
    };
    super::print_text(&out);
    Ok(EXIT_OK)
}

fn centre_count(owners: &[Option<Power>], pw: Power) -> usize {
    owners.iter().filter(|o| **o == Some(pw)).count()
}

pub(super) fn status_text(map: &Map, game: &Game) -> String {
    let p = &game.position;
    let mut out = String::new();
    let last = match game.last_year {
        Some(y) => format!(", last year {y}"),
        None => String::new(),
    };
    wrap(
        &mut out,
        &format!(
            "Game {}: {} ({} map, rules {} edition{last}).",
            game.name,
            capital(&p.phase.to_string()),
            map.name,
            game.rules.name()
        ),
    );
    out.push('\n');
    for pw in map.power_ids() {
        let info = map.power(pw);
        let mut units: Vec<(String, String)> = p
            .units
            .iter()
            .filter(|u| u.power == pw)
            .map(|u| {
                (
                    map.loc_name(u.loc),
                    format!("{} {}", u.kind.word(), map.loc_name(u.loc)),
                )
            })
            .collect();
        units.sort();
        let mut centres: Vec<&str> = map
            .provs()
            .filter(|q| p.owners[q.0 as usize] == Some(pw))
            .map(|q| map.province(q).name.as_str())
            .collect();
        centres.sort();
        let dislodged = p.dislodged.iter().filter(|d| d.unit.power == pw).count();
        if units.is_empty() && centres.is_empty() && dislodged == 0 {
            let _ = writeln!(out, "{}: eliminated.", info.name);
            continue;
        }
        let more = if dislodged > 0 {
            format!(", {dislodged} dislodged")
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "{} ({} centre{}, {} unit{}{more})",
            info.name,
            centres.len(),
            plural(centres.len()),
            units.len(),
            plural(units.len())
        );
        if !units.is_empty() {
            let names: Vec<String> = units.into_iter().map(|(_, n)| n).collect();
            wrap_list(&mut out, "Units: ", &names, 2);
        }
        if !centres.is_empty() {
            wrap_list(&mut out, "Centres: ", &centres, 2);
        }
        let saved = p.saved_by(pw);
        if saved > 0 {
            wrap_indented(
                &mut out,
                &format!(
                    "Saved for a colonial build this winter: {saved} build{}.",
                    plural(saved as usize)
                ),
                2,
            );
        }
    }
    let mut unowned: Vec<&str> = map
        .provs()
        .filter(|q| map.province(*q).supply && p.owners[q.0 as usize].is_none())
        .map(|q| map.province(q).name.as_str())
        .collect();
    unowned.sort();
    if !unowned.is_empty() {
        wrap(
            &mut out,
            &format!("Unowned ({}): {}.", unowned.len(), unowned.join(", ")),
        );
    }
    out.push('\n');
    match game.over {
        Some(Over::Winner(w)) => {
            let _ = writeln!(
                out,
                "The game is over: {} owns {} supply centres and wins.",
                map.power(w).name,
                centre_count(&p.owners, w)
            );
            return out;
        }
        Some(Over::LastYear(y)) => {
            let _ = writeln!(
                out,
                "The game is over: its last year, {y}, has been played."
            );
            return out;
        }
        None => {}
    }
    match p.phase.kind {
        PhaseKind::Movement => wrap(
            &mut out,
            &format!(
                "{} needs orders for every unit; a unit without an order holds.",
                capital(&p.phase.to_string())
            ),
        ),
        PhaseKind::Retreat => retreat_needs(&mut out, map, p),
        PhaseKind::Adjustment => adjustment_needs(&mut out, map, p),
    }
    out
}

fn retreat_needs(out: &mut String, map: &Map, p: &Position) {
    wrap(
        out,
        &format!(
            "{}: each dislodged unit retreats or disbands; a unit without an order is \
             disbanded.",
            capital(&p.phase.to_string())
        ),
    );
    for d in &p.dislodged {
        let u = &d.unit;
        let who = format!(
            "{}: {} {} (dislodged by the attack from {})",
            map.power(u.power).name,
            u.kind.word(),
            map.loc_name(u.loc),
            map.province(d.by).name
        );
        if d.retreats.is_empty() {
            wrap(out, &format!("{who} has nowhere to go: it is disbanded."));
        } else {
            let places: Vec<String> = d.retreats.iter().map(|&l| map.loc_name(l)).collect();
            wrap(out, &format!("{who} may retreat to {}.", or_list(&places)));
        }
    }
}

fn adjustment_needs(out: &mut String, map: &Map, p: &Position) {
    wrap(
        out,
        &format!(
            "{}: builds and removals. Builds not ordered are waived; removals not \
             ordered are made in civil disorder.",
            capital(&p.phase.to_string())
        ),
    );
    let mut even = Vec::new();
    let centres = match map.build_rule {
        BuildRule::Owned => "vacant centre it owns",
        _ => "vacant home centre it owns",
    };
    // The loader checked the position against the map, so its ids are the map's.
    for o in owed(map, &p.owners, &p.units, &p.saved).unwrap_or_default() {
        if o.centres == 0 && o.units == 0 {
            continue;
        }
        let name = &map.power(o.power).name;
        let head = format!(
            "{name} ({}, {})",
            report::text::count(o.centres, "centre"),
            report::text::count(o.units, "unit")
        );
        match o.change {
            0 => even.push(name.clone()),
            d if d < 0 => wrap(out, &format!("{head} removes {}.", -d)),
            d if o.build_sites.is_empty() && o.colonial_sites.is_empty() => {
                wrap(out, &format!("{head} may build {d} but has no {centres}."))
            }
            d => {
                let sites: Vec<String> = o
                    .build_sites
                    .iter()
                    .map(|&s| report::text::build_site(map, s))
                    .collect();
                if sites.is_empty() {
                    wrap(out, &format!("{head} may build {d}."));
                } else {
                    wrap(out, &format!("{head} builds {d}: {}.", sites.join(", ")));
                }
                let sites_all = o.build_sites.len() + o.colonial_sites.len().min(o.saved);
                if !o.colonial_sites.is_empty() {
                    let colonies: Vec<String> = o
                        .colonial_sites
                        .iter()
                        .map(|&s| report::text::build_site(map, s))
                        .collect();
                    wrap_indented(
                        out,
                        &format!(
                            "With the {} build{} saved last winter, colonial builds: {}.",
                            o.saved,
                            plural(o.saved),
                            colonies.join(", ")
                        ),
                        2,
                    );
                }
                if d as usize > sites_all {
                    wrap_indented(
                        out,
                        &format!(
                            "It has only {sites_all} build site{}: the rest are waived.",
                            plural(sites_all)
                        ),
                        2,
                    );
                }
            }
        }
        if o.may_save {
            wrap_indented(
                out,
                "It may instead save builds for colonial builds next winter.",
                2,
            );
        }
    }
    if !even.is_empty() {
        wrap(
            out,
            &format!("Neither build nor remove: {}.", even.join(", ")),
        );
    }
}

// ---------------------------------------------------------------------------------
// judge
// ---------------------------------------------------------------------------------

pub fn judge(args: &JudgeArgs) -> Result<i32, Fatal> {
    // The pictures may not be the game (saved before they are written), its backup,
    // an order file, or one another: refused before anything is done.
    let outputs: Vec<(&str, &Path)> = [("--svg", &args.svg), ("--png", &args.png)]
        .into_iter()
        .filter_map(|(f, p)| Some((f, p.as_deref()?)))
        .collect();
    if !outputs.is_empty() {
        let backup = store::backup_path(&args.game);
        let mut inputs: Vec<(&str, &Path)> = vec![
            ("the game file", &args.game),
            ("the backup of the game file", &backup),
        ];
        inputs.extend(args.orders.iter().map(|o| ("the order file", Path::new(o))));
        super::write::check_outputs(&outputs, &inputs)?;
    }
    // Held until the new game is renamed into place (the end of this function).
    let _lock = store::lock(&args.game)?;
    let Loaded {
        mut game,
        map,
        bytes,
    } = store::load(&args.game)?;
    let shown = args.game.display().to_string();
    if game.over.is_some() {
        return Err(Fatal(format!(
            "{shown}: the game is over; there is nothing to judge (`arbiter undo {shown}` \
             reopens the last phase)"
        )));
    }
    if args.orders.iter().filter(|o| *o == "-").count() > 1 {
        return Err(Fatal("standard input (`-`) can be given only once".into()));
    }
    let mut files = Vec::new();
    for o in &args.orders {
        files.push(OrderFile {
            file: if o == "-" {
                "<stdin>".to_string()
            } else {
                o.clone()
            },
            text: read_input(o)?,
        });
    }
    // Again now the game's map file and its drawing have been read: no picture may be
    // written over them either (the inputs this command read are noted as it reads).
    super::write::check_outputs(&outputs, &[])?;
    let (j, errors) = judge_orders(&game, &map, &files, args.strict)?;
    for (f, ds) in files.iter().zip(&j.diagnostics) {
        super::print_diagnostics(ds, &f.text, &f.file);
    }
    if errors > 0 && !args.accept {
        eprintln!(
            "error: {errors} error{} in the orders (above): nothing was judged and `{shown}` \
             is unchanged",
            plural(errors)
        );
        let left_out = match game.position.phase.kind {
            PhaseKind::Movement => "orders that cannot be read are left out and those units hold",
            _ => {
                "orders that cannot be read are left out; illegal orders are void, and the \
                 sheet says why"
            }
        };
        let accept = if args.strict {
            "judge again without --strict and with --accept"
        } else {
            "add --accept"
        };
        eprintln!(
            "help: fix the orders and judge again, or {accept} to judge them as they are \
             ({left_out})"
        );
        return Ok(EXIT_DIAGNOSTICS);
    }
    let out = render_judgement(&map, &game.name, &j, &files, args.format)?;
    let phase = j.result.phase;
    let picture = (args.svg.is_some() || args.png.is_some())
        .then(|| super::render::picture(&map, &game.name, &game.position, Some(&j.result)))
        .transpose()?;
    let served = game.pending();
    record_and_save(&args.game, &mut game, &map, files, j, errors > 0, &bytes)?;
    super::print_text(&out);
    warn_pending(&served, "judged");
    let pictures = [(&args.svg, false, ""), (&args.png, true, " --png")];
    for (path, png, flag) in pictures {
        if let (Some(path), Some(svg)) = (path, &picture) {
            super::render::write_picture(Some(path), svg, png.then_some(None)).map_err(
                |Fatal(e)| {
                    Fatal(format!(
                        "{e} (the phase was judged and `{shown}` saved; draw it again with \
                     `arbiter render {shown}{flag} -o FILE`)"
                    ))
                },
            )?;
        }
    }
    let next = match game.over {
        None => format!("next: {}", game.position.phase),
        Some(_) => "the game is over".to_string(),
    };
    eprintln!("Judged {phase} and saved `{shown}`; {next}.");
    Ok(EXIT_OK)
}

/// Judge the game's current phase with these order files, saving nothing: the
/// judgement and its number of errors. `arbiter judge` and `arbiter serve`'s Judge
/// button both judge so (then [`record_and_save`], unless there are errors and the
/// referee did not accept them).
pub fn judge_orders(
    game: &Game,
    map: &Map,
    files: &[OrderFile],
    strict: bool,
) -> Result<(Judgement, usize), Fatal> {
    let j = game
        .judge(map, files, strict)
        .map_err(|e| Fatal(e.to_string()))?;
    let errors = j
        .diagnostics
        .iter()
        .flatten()
        .filter(|d| d.severity == arbiter::orders::Severity::Error)
        .count();
    Ok((j, errors))
}

/// Record a judgement in the game and save it over `path` (atomically, with the
/// backup; `loaded`: the bytes the game was loaded from). Returns the bytes saved.
pub fn record_and_save(
    path: &Path,
    game: &mut Game,
    map: &Map,
    files: Vec<OrderFile>,
    j: Judgement,
    accepted: bool,
    loaded: &[u8],
) -> Result<Vec<u8>, Fatal> {
    game.record(map, files, j, accepted);
    let text = game.to_yaml(map);
    store::save(path, map, &text, loaded)?;
    Ok(text.into_bytes())
}

/// Warn that orders submitted through `arbiter serve` for the phase just judged (or
/// undone) from the command line were not used, and are gone from the game file.
fn warn_pending(pending: &BTreeMap<String, String>, done: &str) {
    if pending.is_empty() {
        return;
    }
    let powers: Vec<&str> = pending.keys().map(String::as_str).collect();
    eprintln!(
        "warning: the orders submitted on `arbiter serve`'s pages ({}) were not used: the \
         phase was {done} from the command line, and they were dropped",
        powers.join(", ")
    );
}

/// A judged phase in the chosen format; in JSON each diagnostic names its file.
fn render_judgement(
    map: &Map,
    game: &str,
    j: &Judgement,
    files: &[OrderFile],
    format: Format,
) -> Result<String, Fatal> {
    match format {
        Format::Json => {
            let mut v =
                report::json::phase(map, &j.result, &[]).map_err(|e| Fatal(e.to_string()))?;
            let diags: Vec<serde_json::Value> = files
                .iter()
                .zip(&j.diagnostics)
                .flat_map(|(f, ds)| ds.iter().map(move |d| file_diagnostic(&f.file, d)))
                .collect();
            v["diagnostics"] = serde_json::Value::Array(diags);
            json(&v)
        }
        _ => super::render(map, game, &j.result, format, j.result.diagnostics()),
    }
}

fn file_diagnostic(file: &str, d: &Diagnostic) -> serde_json::Value {
    let mut v = serde_json::to_value(d).unwrap_or_default();
    if let serde_json::Value::Object(m) = &mut v {
        let mut with = serde_json::Map::new();
        with.insert("file".into(), file.into());
        with.extend(std::mem::take(m));
        *m = with;
    }
    v
}

// ---------------------------------------------------------------------------------
// undo
// ---------------------------------------------------------------------------------

pub fn undo(args: &UndoArgs) -> Result<i32, Fatal> {
    let _lock = store::lock(&args.game)?;
    let Loaded {
        mut game,
        map,
        bytes,
    } = store::load(&args.game)?;
    let shown = args.game.display().to_string();
    let served = game.pending();
    let Some(last) = game.undo() else {
        return Err(Fatal(format!(
            "{shown}: nothing to undo: no phase has been judged; the game is at its start \
             ({})",
            game.position.phase
        )));
    };
    store::save(&args.game, &map, &game.to_yaml(&map), &bytes)?;
    warn_pending(&served, "undone");
    let files: Vec<String> = last
        .orders
        .iter()
        .map(|o| {
            Path::new(&o.file)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| o.file.clone())
        })
        .collect();
    let mut out = String::new();
    wrap(
        &mut out,
        &format!(
            "Undid {} (orders from {}). The game is back at {}.",
            last.phase(),
            files.join(", "),
            game.position.phase
        ),
    );
    if game.history.is_empty() {
        let _ = writeln!(
            out,
            "This is the start of the game: there is nothing more to undo."
        );
    }
    super::print_text(&out);
    Ok(EXIT_OK)
}

// ---------------------------------------------------------------------------------
// history
// ---------------------------------------------------------------------------------

pub fn history(args: &HistoryArgs) -> Result<i32, Fatal> {
    let Loaded { game, map, .. } = store::load(&args.game)?;
    let shown = args.game.display().to_string();
    let picked: Vec<usize> = match &args.phase {
        None => (0..game.history.len()).collect(),
        Some(s) => {
            let phase = Phase::parse(s).map_err(|e| Fatal(e.to_string()))?;
            match game.find(phase) {
                Some(Found::Judged(k)) => vec![k],
                Some(Found::Skipped(k)) => {
                    outln!(
                        "{} was skipped: nothing to do (after {}).",
                        capital(&phase.to_string()),
                        game.history[k].phase()
                    );
                    return Ok(EXIT_OK);
                }
                None => return Err(not_judged(&game, phase, &shown)),
            }
        }
    };
    if picked.is_empty() && args.format != Format::Json {
        outln!(
            "No phase has been judged yet; the game is at {}.",
            game.position.phase
        );
        return Ok(EXIT_OK);
    }
    let out = match args.format {
        Format::Text => picked
            .iter()
            .map(|&k| game.history[k].sheet.clone())
            .collect::<Vec<_>>()
            .join("\n"),
        Format::Markdown => {
            let mut parts = Vec::new();
            for &k in &picked {
                let j = rejudged(&game, &map, k)?;
                parts.push(report::markdown::sheet(&map, &game.name, &j.result));
            }
            parts.join("\n")
        }
        Format::Json => {
            let mut list = Vec::new();
            for &k in &picked {
                let h = &game.history[k];
                let j = rejudged(&game, &map, k)?;
                let text = render_judgement(&map, &game.name, &j, &h.orders, Format::Json)?;
                let v: serde_json::Value =
                    serde_json::from_str(&text).map_err(|e| Fatal(e.to_string()))?;
                list.push(v);
            }
            if args.phase.is_some() {
                json(&list[0])?
            } else {
                json(&list)?
            }
        }
    };
    super::print_text(&out);
    Ok(EXIT_OK)
}

pub(super) fn not_judged(game: &Game, phase: Phase, shown: &str) -> Fatal {
    let now = game.position.phase;
    if phase == now && game.over.is_none() {
        return Fatal(format!(
            "{phase} has not been judged yet: it is the current phase of `{shown}`"
        ));
    }
    let range = match (game.history.first(), game.history.last()) {
        (Some(a), Some(b)) => format!("the phases judged are {} to {}", a.phase(), b.phase()),
        _ => "no phase has been judged yet".to_string(),
    };
    if phase_key(phase) > phase_key(now) {
        Fatal(format!(
            "{phase} has not been played yet in `{shown}` ({range})"
        ))
    } else {
        Fatal(format!(
            "{phase} is not in the history of `{shown}` ({range})"
        ))
    }
}

/// History entry `k` judged again from its stored position and orders, with a warning
/// if this arbiter now rules differently from the stored results.
pub(super) fn rejudged(game: &Game, map: &Map, k: usize) -> Result<Judgement, Fatal> {
    let j = game
        .rejudge(map, k)
        .ok_or_else(|| Fatal(format!("no judged phase {}", k + 1)))?
        .map_err(|e| Fatal(e.to_string()))?;
    let h = &game.history[k];
    let now = report::json::orders(map, &j.result);
    let same = now.len() == h.results.len()
        && now
            .iter()
            .zip(&h.results)
            .all(|(a, b)| a.outcome == b.outcome && a.canonical.as_deref() == Some(&b.canonical));
    if !same {
        eprintln!(
            "warning: this arbiter judges {} differently from the results stored when it was \
             judged (the stored sheet: `arbiter history GAME \"{}\"`)",
            h.phase(),
            h.phase()
        );
    }
    Ok(j)
}

// ---------------------------------------------------------------------------------
// centres
// ---------------------------------------------------------------------------------

#[derive(Serialize)]
struct CentresJson {
    game: String,
    map: String,
    years: Vec<YearJson>,
}

#[derive(Serialize)]
struct YearJson {
    year: i32,
    /// Centre counts by power id (every power), and `unowned`.
    counts: BTreeMap<String, usize>,
    unowned: usize,
    /// Centres by owner.
    owners: BTreeMap<String, Vec<String>>,
}

pub fn centres(args: &CentresArgs) -> Result<i32, Fatal> {
    let Loaded { game, map, .. } = store::load(&args.game)?;
    finish(centres_out(&game, &map, args.format)?)
}

/// The centre table of `arbiter centres` in the chosen format.
pub(super) fn centres_out(game: &Game, map: &Map, format: CentresFormat) -> Result<String, Fatal> {
    let years = game.centres_by_year();
    let supply = map.provs().filter(|&p| map.province(p).supply).count();
    let unowned = |o: &[Option<Power>]| supply - o.iter().filter(|x| x.is_some()).count();
    let out = match format {
        CentresFormat::Csv => {
            let mut out = String::from("year");
            for pw in map.power_ids() {
                let _ = write!(out, ",{}", report::csv_field(&map.power(pw).id));
            }
            out.push_str(",unowned\n");
            for (y, o) in &years {
                let _ = write!(out, "{y}");
                for pw in map.power_ids() {
                    let _ = write!(out, ",{}", centre_count(o, pw));
                }
                let _ = writeln!(out, ",{}", unowned(o));
            }
            out
        }
        CentresFormat::Json => json(&CentresJson {
            game: game.name.clone(),
            map: map.name.clone(),
            years: years
                .iter()
                .map(|(y, o)| YearJson {
                    year: *y,
                    counts: map
                        .power_ids()
                        .map(|pw| (map.power(pw).id.clone(), centre_count(o, pw)))
                        .collect(),
                    unowned: unowned(o),
                    owners: report::json::owners_by_power(map, o),
                })
                .collect(),
        })?,
        CentresFormat::Text => {
            let mut out = String::new();
            wrap(
                &mut out,
                &format!(
                    "Supply centres after each year: game {} ({} map).",
                    game.name, map.name
                ),
            );
            out.push('\n');
            if years.is_empty() {
                let _ = writeln!(out, "No game year has been completed yet.");
                return Ok(out);
            }
            // Power names as column heads, or their first three letters if the table
            // would not fit in 80 columns.
            let mut heads: Vec<String> =
                map.power_ids().map(|p| map.power(p).name.clone()).collect();
            heads.push("Unowned".into());
            let width = |hs: &[String]| 4 + hs.iter().map(|h| col(h) + 2).sum::<usize>();
            if width(&heads) > WIDTH {
                heads = heads.iter().map(|h| h.chars().take(3).collect()).collect();
            }
            let mut line = String::from("Year");
            for h in &heads {
                let _ = write!(line, "  {h:>w$}", w = col(h));
            }
            let _ = writeln!(out, "{line}");
            for (y, o) in &years {
                let mut line = format!("{y:<4}");
                let counts: Vec<usize> = map
                    .power_ids()
                    .map(|pw| centre_count(o, pw))
                    .chain([unowned(o)])
                    .collect();
                for (h, c) in heads.iter().zip(counts) {
                    let _ = write!(line, "  {c:>w$}", w = col(h));
                }
                let _ = writeln!(out, "{line}");
            }
            let (y, o) = years.last().expect("not empty");
            out.push('\n');
            let _ = writeln!(out, "Owners after {y}:");
            for pw in map.power_ids() {
                let mut names: Vec<&str> = map
                    .provs()
                    .filter(|p| o[p.0 as usize] == Some(pw))
                    .map(|p| map.province(p).name.as_str())
                    .collect();
                names.sort();
                if !names.is_empty() {
                    wrap(
                        &mut out,
                        &format!("{}: {}.", map.power(pw).name, names.join(", ")),
                    );
                }
            }
            out
        }
    };
    Ok(out)
}

/// The width of a column of the centres table.
fn col(head: &str) -> usize {
    head.chars().count().max(3)
}

fn finish(out: String) -> Result<i32, Fatal> {
    super::print_text(&out);
    Ok(EXIT_OK)
}

// ---------------------------------------------------------------------------------
// explain
// ---------------------------------------------------------------------------------

pub fn explain(args: &ExplainArgs) -> Result<i32, Fatal> {
    let Loaded { game, map, .. } = store::load(&args.game)?;
    let shown = args.game.display().to_string();
    let k = match &args.phase {
        None => game.history.len().checked_sub(1).ok_or_else(|| {
            Fatal(format!(
                "{shown}: no phase has been judged yet, so there is nothing to explain"
            ))
        })?,
        Some(s) => {
            let phase = Phase::parse(s).map_err(|e| Fatal(e.to_string()))?;
            match game.find(phase) {
                Some(Found::Judged(k)) => k,
                Some(Found::Skipped(_)) => {
                    return Err(Fatal(format!(
                        "{phase} was skipped (nothing to do): there is nothing to explain"
                    )))
                }
                None => return Err(not_judged(&game, phase, &shown)),
            }
        }
    };
    let province = match &args.province {
        Some(s) => Some(province(&map, s)?),
        None => None,
    };
    let j = rejudged(&game, &map, k)?;
    super::print_text(&explained(&map, &j.result, province));
    Ok(EXIT_OK)
}

pub(super) fn explained(map: &Map, result: &PhaseResult, province: Option<Prov>) -> String {
    report::explain::explain(map, result, province)
}

/// A province by id or name, read as an order reads it (`Mid Atl`, `Lpool`); a
/// misspelling is an error with a suggestion.
pub(super) fn province(map: &Map, s: &str) -> Result<Prov, Fatal> {
    arbiter::orders::parse_place(map, s)
        .map(|l| map.prov_of(l))
        .map_err(|d| Fatal(place_error(&d)))
}

/// A place error as one line: the message, and its help in brackets.
pub(crate) fn place_error(d: &Diagnostic) -> String {
    match &d.help {
        Some(h) => format!("{} ({h})", d.message),
        None => d.message.clone(),
    }
}

// ---------------------------------------------------------------------------------
// Text helpers
// ---------------------------------------------------------------------------------

fn json<T: Serialize>(v: &T) -> Result<String, Fatal> {
    let mut s = serde_json::to_string_pretty(v).map_err(|e| Fatal(e.to_string()))?;
    s.push('\n');
    Ok(s)
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// Write `line` fitted to [`WIDTH`], continuation lines indented by four spaces.
fn wrap(out: &mut String, line: &str) {
    wrap_at(out, line, 0, 4);
}

/// Write `line` indented by `indent`, continuation lines by `indent + 2`.
fn wrap_indented(out: &mut String, line: &str, indent: usize) {
    wrap_at(out, line, indent, indent + 2);
}

/// Write `head` and the items joined by `, ` with a full stop, breaking lines only
/// between items.
fn wrap_list(out: &mut String, head: &str, items: &[impl AsRef<str>], indent: usize) {
    const NBSP: char = '\u{a0}';
    let joined: Vec<String> = items
        .iter()
        .map(|i| i.as_ref().replace(' ', &NBSP.to_string()))
        .collect();
    let mut text = String::new();
    wrap_indented(&mut text, &format!("{head}{}.", joined.join(", ")), indent);
    out.push_str(&text.replace(NBSP, " "));
}

fn wrap_at(out: &mut String, line: &str, first: usize, rest_indent: usize) {
    let mut indent = first;
    let mut cur = String::new();
    for word in line.split(' ').filter(|w| !w.is_empty()) {
        let len = cur.chars().count();
        if len > 0 && indent + len + 1 + word.chars().count() > WIDTH {
            let _ = writeln!(out, "{}{cur}", " ".repeat(indent));
            cur.clear();
            indent = rest_indent;
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    let _ = writeln!(out, "{}{cur}", " ".repeat(indent));
}
