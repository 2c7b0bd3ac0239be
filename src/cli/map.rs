//! `arbiter map …`: tools for map files and variant designers.
//!
//! - `map check FILE…`: every problem of each map (`arbiter::mapcheck`), with file,
//!   line, column, severity, code, rule and hint; `--reference EDGES.csv` compares the
//!   edges with an independent list; `--format json`. Exit status: 0 no error (warnings
//!   and notes allowed), 1 an error in some map, 2 a usage or I/O error.
//! - `map list`: the maps built into the binary.
//! - `map show NAME|FILE [PROVINCE]`: a map as tables, or one province in detail.
//! - `map draw NAME|FILE [--geo FILE] [-o FILE]`: the map's drawing (`arbiter::draw`),
//!   from its geography if it has one, else from its provinces' positions.
//! - `map import FILE.map [-o FILE.yaml]`: a DPjudge map file in our schema
//!   (`arbiter::map::dpjudge`), what could not be carried over, and every check on it.
//! - `map layout MAP [-o OUT]`: positions for the provinces without any
//!   (`arbiter::draw::layout`), written into the map (in place, keeping `MAP.bak`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use clap::{Subcommand, ValueEnum};

use arbiter::map::{dpjudge, Map, Terrain, UnitKind, EMBEDDED};
use arbiter::mapcheck::{self as check, Finding, Reference};

use super::{write_output, Fatal, EXIT_OK, EXIT_USAGE};

/// Exit code: a map has an error.
pub const EXIT_ERRORS: i32 = 1;

#[derive(clap::Args, Debug)]
pub struct MapArgs {
    #[command(subcommand)]
    pub command: MapCommand,
}

#[derive(Subcommand, Debug)]
pub enum MapCommand {
    /// Check map files: every problem, with line, column, code, rule and hint (and
    /// the drawing beside each map, NAME.drawing.yaml, against its edges).
    Check(CheckArgs),
    /// List the maps built into the binary.
    List,
    /// Show a map as tables (provinces, neighbours, centres, powers), or one province.
    Show(ShowArgs),
    /// Draw a map: every province's outline and where its unit, label, centre and
    /// coasts go, from its geography (NAME.geo.yaml) or else its provinces' positions;
    /// written to NAME.drawing.yaml beside the map (exit 1 if the geography has a
    /// problem).
    Draw(DrawArgs),
    /// Import a DPjudge map file (.map) into our YAML schema, and check the result
    /// (exit 1 if the check finds errors or a line is refused, such as `NEWHOMES`).
    Import(ImportArgs),
    /// Give every province without a position (`at`) one, from a layout of the
    /// adjacency graph (stress majorisation), and write the map with them: in place
    /// (the old file kept as FILE.bak) or to -o.
    Layout(LayoutArgs),
}

#[derive(clap::Args, Debug)]
pub struct LayoutArgs {
    /// The map file (YAML).
    #[arg(value_name = "MAP")]
    pub map: PathBuf,
    /// Write the map with positions here (atomically) instead of over MAP.
    #[arg(long, short, value_name = "OUT.yaml")]
    pub output: Option<PathBuf>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    Text,
    Json,
}

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Map files (YAML), or names of embedded maps (`standard`).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    /// Compare each map's edges with this list (`a,b,army,fleet`, one row per edge).
    #[arg(long, value_name = "EDGES.csv")]
    pub reference: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    pub format: CheckFormat,
}

#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// An embedded map's name (`standard`) or a YAML map file.
    #[arg(value_name = "NAME|FILE")]
    pub map: String,
    /// One province in detail: its id or a name.
    #[arg(value_name = "PROVINCE")]
    pub province: Option<String>,
    /// Also draw the map (every province and edge, with the problems `map check`
    /// finds ringed) to FILE as SVG.
    #[arg(long, value_name = "FILE", conflicts_with = "province")]
    pub svg: Option<PathBuf>,
    /// With --svg: draw the map's graph (provinces as nodes joined by every
    /// adjacency) instead of the board (the map's drawing).
    #[arg(long, requires = "svg")]
    pub graph: bool,
}

#[derive(clap::Args, Debug)]
pub struct DrawArgs {
    /// A YAML map file, or an embedded map's name (`standard`; then `-o` is needed).
    #[arg(value_name = "NAME|FILE")]
    pub map: String,
    /// The map's geography (docs/MAPS.md, "Drawing"); default: NAME.geo.yaml beside
    /// the map file, if there is one. Without one the map is drawn from its
    /// provinces' `at` positions.
    #[arg(long, value_name = "FILE")]
    pub geo: Option<PathBuf>,
    /// Write the drawing here (atomically); default: NAME.drawing.yaml beside the
    /// map file.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// The DPjudge map file; `USE` and `MAP` files are read from its folder, else from
    /// arbiter's embedded boards (`standard.map`, `standard.geography`, …).
    #[arg(value_name = "FILE.map")]
    pub file: PathBuf,
    /// Write the YAML map here (atomically); without it, to standard output (and the
    /// report to standard error).
    #[arg(long, short, value_name = "FILE.yaml")]
    pub output: Option<PathBuf>,
    /// The map's `name` (default: the file's name without `.map`).
    #[arg(long)]
    pub name: Option<String>,
}

pub fn run(args: &MapArgs) -> Result<i32, Fatal> {
    match &args.command {
        MapCommand::Check(a) => check_maps(a),
        MapCommand::List => list(),
        MapCommand::Show(a) => show(a),
        MapCommand::Draw(a) => draw(a),
        MapCommand::Import(a) => import(a),
        MapCommand::Layout(a) => layout(a),
    }
}

/// The source of an embedded map by name (`classic` is `standard`): file and text.
fn embedded_source(name: &str) -> Option<(&'static str, &'static str)> {
    let name = name.trim().to_ascii_lowercase();
    let name = if name == "classic" { "standard" } else { &name };
    EMBEDDED
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, f, s)| (*f, *s))
}

use arbiter::report::text::count as plural;

fn summary((e, w, n): (usize, usize, usize)) -> String {
    format!(
        "{}, {}, {}",
        plural(e, "error"),
        plural(w, "warning"),
        plural(n, "note")
    )
}

fn check_maps(args: &CheckArgs) -> Result<i32, Fatal> {
    let reference = match &args.reference {
        Some(p) => Some((
            p.display().to_string(),
            super::read_file(p)
                .map_err(|e| Fatal(format!("cannot read `{}`: {e}", p.display())))?,
        )),
        None => None,
    };
    let mut io_error = false;
    let mut errors = 0;
    let mut text = String::new();
    let mut files = Vec::new();
    let mut checked = 0;
    let (mut te, mut tw, mut tn, mut tomitted) = (0, 0, 0, 0);
    for name in &args.files {
        let (file, src) = if Path::new(name).exists() {
            match super::read_file(name) {
                Ok(s) => (name.clone(), s),
                Err(e) => {
                    eprintln!("error: cannot read `{name}`: {e}");
                    io_error = true;
                    continue;
                }
            }
        } else if let Some((f, s)) = embedded_source(name) {
            (f.to_string(), s.to_string())
        } else {
            eprintln!(
                "error: cannot read `{name}`: no such file (and no embedded map of that name)"
            );
            io_error = true;
            continue;
        };
        let r = reference
            .as_ref()
            .map(|(f, t)| Reference { file: f, text: t });
        let drawing = match drawing_source(name) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("error: {e}");
                io_error = true;
                None
            }
        };
        let d = drawing
            .as_ref()
            .map(|(f, t)| check::DrawingText { file: f, text: t });
        let found = check::check_all(&src, &file, r.as_ref(), d.as_ref());
        let omitted = found.omitted_total();
        let (e, w, n) = found.count();
        let findings = found.findings;
        checked += 1;
        errors += e;
        te += e;
        tw += w;
        tn += n;
        tomitted += omitted;
        match args.format {
            CheckFormat::Text => {
                // A file beside the map that is not a drawing at all (a link to a
                // system file) is never quoted, not even the line a finding points at.
                let not_a_drawing = findings
                    .iter()
                    .any(|f| f.message.contains("is not a drawing file"));
                text.push_str(&check::render_omitting(&findings, omitted, |f| {
                    if f == file {
                        Some(src.as_str())
                    } else if let Some((_, t)) =
                        drawing.as_ref().filter(|(df, _)| df == f && !not_a_drawing)
                    {
                        Some(t.as_str())
                    } else {
                        reference
                            .as_ref()
                            .filter(|(rf, _)| rf == f)
                            .map(|(_, t)| t.as_str())
                    }
                }));
                let _ = writeln!(text, "{file}: {}", summary((e, w, n)));
            }
            CheckFormat::Json => files.push(serde_json::json!({
                "file": file,
                "errors": e,
                "warnings": w,
                "notes": n,
                "omitted": omitted,
                "findings": findings,
            })),
        }
    }
    match args.format {
        CheckFormat::Text => {
            if args.files.len() > 1 {
                let _ = writeln!(
                    text,
                    "{} checked: {}, {}, {}",
                    plural(checked, "map"),
                    plural(te, "error"),
                    plural(tw, "warning"),
                    plural(tn, "note")
                );
            }
        }
        CheckFormat::Json => {
            let j = serde_json::json!({
                "files": files,
                "errors": te,
                "warnings": tw,
                "notes": tn,
                "omitted": tomitted,
            });
            text = serde_json::to_string_pretty(&j).map_err(|e| Fatal(e.to_string()))?;
            text.push('\n');
        }
    }
    write_output(None, &text)?;
    Ok(if io_error {
        EXIT_USAGE
    } else if errors > 0 {
        EXIT_ERRORS
    } else {
        EXIT_OK
    })
}

/// The drawing of a map `map check` was given (a file, or an embedded map's name):
/// `NAME.drawing.yaml` beside the file, or the embedded drawing; its name and text.
fn drawing_source(name: &str) -> Result<Option<(String, String)>, String> {
    if Path::new(name).exists() {
        let map_file = Path::new(name);
        let Some(path) = super::beside(map_file, super::drawing_path(map_file), "drawing")
            .map_err(|super::Fatal(e)| e)?
        else {
            return Ok(None);
        };
        if std::fs::metadata(&path).is_err() {
            return Ok(None);
        }
        let shown = path.display().to_string();
        return super::read_file(&path)
            .map(|t| Some((shown.clone(), t)))
            .map_err(|e| format!("cannot read drawing `{shown}`: {e}"));
    }
    let map = name.trim().to_ascii_lowercase();
    let map = if map == "classic" { "standard" } else { &map };
    Ok(arbiter::map::EMBEDDED_DRAWINGS
        .iter()
        .find(|(n, _, _)| *n == map)
        .map(|(_, f, t)| (f.to_string(), t.to_string())))
}

/// Passable provinces and supply centres of a map.
fn counts(map: &Map) -> (usize, usize) {
    let passable = map
        .provs()
        .filter(|&p| map.terrain(p) != Terrain::Impassable)
        .count();
    let centres = map.provs().filter(|&p| map.province(p).supply).count();
    (passable, centres)
}

fn list() -> Result<i32, Fatal> {
    let mut rows = vec![[
        "name".to_string(),
        "title".into(),
        "powers".into(),
        "provinces".into(),
        "centres".into(),
        "victory".into(),
        "start".into(),
    ]];
    for (name, file, src) in EMBEDDED {
        let map = Map::from_yaml(src, file).map_err(|e| Fatal(format!("{e}")))?;
        let (passable, centres) = counts(&map);
        rows.push([
            name.to_string(),
            map.title.clone(),
            map.powers.len().to_string(),
            passable.to_string(),
            centres.to_string(),
            map.victory.to_string(),
            format!("{} {}", map.start_season, map.start_year),
        ]);
    }
    let mut out = String::new();
    table(&rows, &[false, false, true, true, true, true, false], |l| {
        out.push_str(l)
    });
    out.push_str("\nprovinces: passable ones; `arbiter map show NAME` prints a map.\n");
    write_output(None, &out)?;
    Ok(EXIT_OK)
}

/// The widest a column of [`table`] is padded to, in characters: a row with a wider
/// cell (a long list of neighbours) is not padded there, and a longer name is cut
/// ([`cell`]), so no name, however long, makes every row as wide as itself.
const COLUMN_MAX: usize = 40;

/// A name (or an id) for a cell of [`table`]: whole, or its first [`COLUMN_MAX`] - 1
/// characters and `…` (`map show MAP PROVINCE` shows a province's whole name).
fn cell(name: &str) -> String {
    match name.char_indices().nth(COLUMN_MAX) {
        None => name.to_string(),
        Some(_) => {
            let end = name
                .char_indices()
                .nth(COLUMN_MAX - 1)
                .map_or(name.len(), |(i, _)| i);
            format!("{}…", name.get(..end).unwrap_or(name))
        }
    }
}

/// Columns padded to their widest cell, but never past [`COLUMN_MAX`]; `right` aligns
/// a column to the right. Each line is given to `line` as it is made.
fn table<const N: usize>(rows: &[[String; N]], right: &[bool; N], mut emit: impl FnMut(&str)) {
    let mut width = [0; N];
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            width[i] = width[i].max(c.chars().count().min(COLUMN_MAX));
        }
    }
    let mut line = String::new();
    for r in rows {
        line.clear();
        for (i, c) in r.iter().enumerate() {
            let pad = width[i].saturating_sub(c.chars().count());
            if i > 0 {
                line.push_str("  ");
            }
            if right[i] {
                line.extend(std::iter::repeat_n(' ', pad));
                line.push_str(c);
            } else {
                line.push_str(c);
                if i + 1 < N {
                    line.extend(std::iter::repeat_n(' ', pad));
                }
            }
        }
        line.truncate(line.trim_end().len());
        line.push('\n');
        emit(&line);
    }
}

fn terrain_word(t: Terrain) -> &'static str {
    match t {
        Terrain::Sea => "sea",
        Terrain::Coastal => "coast",
        Terrain::Land => "land",
        Terrain::Impassable => "impassable",
    }
}

fn show(args: &ShowArgs) -> Result<i32, Fatal> {
    // A map that loads is shown (and drawn with its problems ringed) even when `map
    // check` finds an error in it: this is where a designer looks at it.
    let map = super::load_map_as(&args.map, false)?;
    let text = match &args.province {
        Some(p) => Some(show_province(&map, p)?),
        None => None,
    };
    if let Some(path) = &args.svg {
        let problems = map_problems(&map, &args.map);
        super::render::note_view(&map, args.graph);
        write_output(
            Some(path),
            &super::render::map_picture(&map, problems, args.graph)?,
        )?;
    }
    match text {
        Some(text) => write_output(None, &text)?,
        // Written as it is made, line by line, made safe for a terminal.
        None => super::write_with(None, |w| {
            let mut w = std::io::BufWriter::new(w);
            let mut done = Ok(());
            show_map(&map, &mut |part| {
                if done.is_ok() {
                    done = std::io::Write::write_all(&mut w, super::terminal(part).as_bytes());
                }
            });
            done.and_then(|()| std::io::Write::flush(&mut w))
        })?,
    }
    Ok(EXIT_OK)
}

/// What `map check` finds in a map (read from its file, or an embedded map's source),
/// each tied to the province its key names.
fn map_problems(map: &Map, name: &str) -> Vec<arbiter::render::Problem> {
    let (file, src) = if Path::new(name).exists() && Map::embedded(name).is_none() {
        match super::read_file(name) {
            Ok(s) => (name.to_string(), s),
            Err(_) => return Vec::new(),
        }
    } else if let Some((f, s)) = embedded_source(name) {
        (f.to_string(), s.to_string())
    } else {
        return Vec::new();
    };
    // The drawing's disagreements with the edges too (a broken drawing stops the map
    // from loading before this).
    let drawing = drawing_source(name).ok().flatten();
    let d = drawing
        .as_ref()
        .map(|(f, t)| check::DrawingText { file: f, text: t });
    check::check_with_drawing(&src, &file, None, d.as_ref())
        .into_iter()
        .map(|f| arbiter::render::Problem {
            prov: arbiter::render::problem_province(map, &f.key),
            text: format!(
                "{}[{}] {}:{}: {}",
                f.severity.name(),
                f.code,
                f.file,
                f.line,
                f.message
            ),
        })
        .collect()
}

fn ids(map: &Map, it: impl Iterator<Item = arbiter::map::Loc>) -> String {
    let mut v: Vec<String> = it.map(|l| map.loc_id(l)).collect();
    v.sort();
    v.join(" ")
}

/// The text of `map show` for a whole map, given to `emit` in parts as it is made.
fn show_map(map: &Map, emit: &mut dyn FnMut(&str)) {
    let (passable, centres) = counts(map);
    let mut out = String::new();
    let title = if map.title.is_empty() {
        map.name.clone()
    } else {
        format!("{} ({})", map.title, map.name)
    };
    let _ = writeln!(out, "{title}");
    let _ = writeln!(
        out,
        "{} powers, {passable} provinces, {centres} supply centres, {} to win, starts {} {}, builds: {}",
        map.powers.len(),
        map.victory,
        map.start_season,
        map.start_year,
        map.build_rule.name()
    );
    for (label, v) in [("designer", &map.designer), ("source", &map.source)] {
        if !v.is_empty() {
            let _ = writeln!(out, "{label}: {v}");
        }
    }
    out.push('\n');
    emit(&out);
    let mut rows = vec![[
        "power".to_string(),
        "adjective".into(),
        "home centres".into(),
        "owns".into(),
        "units".into(),
    ]];
    for pw in map.power_ids() {
        let p = map.power(pw);
        let units: Vec<String> = p
            .units
            .iter()
            .map(|&(k, l)| format!("{} {}", k.letter(), map.loc_id(l)))
            .collect();
        rows.push([
            format!("{} ({})", cell(&p.name), cell(&p.id)),
            cell(&p.adjective),
            ids(map, p.home.iter().map(|&h| h.into())),
            ids(map, p.owns.iter().map(|&h| h.into())),
            units.join(", "),
        ]);
    }
    table(&rows, &[false; 5], &mut *emit);
    emit("\n");
    let mut rows = vec![[
        "id".to_string(),
        "name".into(),
        "kind".into(),
        "centre".into(),
        "army".into(),
        "fleet".into(),
    ]];
    for p in map.provs() {
        let pr = map.province(p);
        let centre = if !pr.supply {
            String::new()
        } else {
            let mut s = match pr.home {
                Some(h) => cell(&map.power(h).id),
                None => "SC".into(),
            };
            if !pr.buildable {
                s.push_str(" (no build)");
            }
            s
        };
        let army = ids(map, map.army_neighbours(p).iter().map(Into::into));
        let fleet = if map.is_split(p) {
            pr.coasts
                .iter()
                .map(|&c| {
                    format!(
                        "{}: {}",
                        map.coast(c).map(|k| k.id.as_str()).unwrap_or(""),
                        ids(map, map.fleet_neighbours(c).iter().copied())
                    )
                })
                .collect::<Vec<_>>()
                .join("; ")
        } else {
            ids(map, map.fleet_neighbours(p.into()).iter().copied())
        };
        rows.push([
            cell(&pr.id),
            cell(&pr.name),
            terrain_word(pr.terrain).into(),
            centre,
            army,
            fleet,
        ]);
    }
    table(&rows, &[false; 6], &mut *emit);
    emit("\ncentre: the home power, or SC for a centre no one has at the start.\n");
}

fn show_province(map: &Map, name: &str) -> Result<String, Fatal> {
    let p = arbiter::orders::parse_place(map, name)
        .map(|l| map.prov_of(l))
        .map_err(|d| Fatal(super::game::place_error(&d)))?;
    let pr = map.province(p);
    let mut out = String::new();
    let _ = writeln!(out, "{} ({})", pr.name, pr.id);
    let _ = writeln!(out, "  kind: {}", terrain_word(pr.terrain));
    if !pr.aliases.is_empty() {
        let _ = writeln!(out, "  also written: {}", pr.aliases.join(", "));
    }
    if pr.supply {
        let home = pr
            .home
            .map(|h| format!("home centre of {}", map.power(h).name))
            .unwrap_or_else(|| "no home power".into());
        let owner = map
            .power_ids()
            .find(|&pw| map.power(pw).owns.contains(&p))
            .map(|pw| format!(", owned by {} at the start", map.power(pw).name))
            .unwrap_or_default();
        let build = if pr.buildable { "" } else { ", no builds" };
        let _ = writeln!(out, "  supply centre: {home}{owner}{build}");
    }
    if let Some((x, y)) = pr.at {
        let _ = writeln!(out, "  drawn at: {x}, {y}");
    }
    let named = |l: arbiter::map::Loc| format!("{} ({})", map.loc_id(l), map.loc_name(l));
    let army: Vec<String> = map
        .army_neighbours(p)
        .iter()
        .map(|q| named(q.into()))
        .collect();
    if !army.is_empty() {
        let _ = writeln!(out, "  army moves to: {}", army.join(", "));
    }
    let mut froms: Vec<arbiter::map::Loc> = vec![p.into()];
    froms.extend(pr.coasts.iter().copied());
    for l in froms {
        let fleet: Vec<String> = map.fleet_neighbours(l).iter().map(|&m| named(m)).collect();
        if fleet.is_empty() {
            continue;
        }
        let from = match map.coast(l) {
            Some(c) => format!(" from {} ({})", map.loc_id(l), c.name),
            None => String::new(),
        };
        let _ = writeln!(out, "  fleet moves{from} to: {}", fleet.join(", "));
    }
    for pw in map.power_ids() {
        for &(k, l) in &map.power(pw).units {
            if map.prov_of(l) == p {
                let _ = writeln!(
                    out,
                    "  starts with: {} {} {}",
                    map.power(pw).adjective,
                    if k == UnitKind::Army { "army" } else { "fleet" },
                    map.loc_id(l)
                );
            }
        }
    }
    Ok(out)
}

/// The land file a geography names (`land:`) is read only from the geography's folder
/// or a folder below it: a name with `..` or a root (`/etc/x`), or a link that leads
/// out of the folder, is refused, and nothing of it is read.
fn inside_folder_of(geo: &Path, name: &str, land: &Path) -> Result<(), Fatal> {
    use std::path::Component;
    let refuse = |why: String| {
        Err(Fatal(format!(
            "{}: `land: {name}`: {why}: the land file is read from the geography's folder \
             (or a folder below it) only; copy it there and name it from there \
             (`land: geo/europe-land.json`)",
            geo.display()
        )))
    };
    if !Path::new(name)
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return refuse("the name leaves the geography's folder".into());
    }
    let folder = std::fs::canonicalize(super::write::dir_of(geo)).ok();
    if let (Ok(real), Some(folder)) = (std::fs::canonicalize(land), folder) {
        if !real.starts_with(&folder) {
            return refuse(format!(
                "it is a link that leads out of the folder (to `{}`)",
                real.display()
            ));
        }
    }
    Ok(())
}

/// `map draw`: read the map (without any old drawing), its geography and coastlines,
/// draw, write, and say what was drawn in one line.
fn draw(args: &DrawArgs) -> Result<i32, Fatal> {
    use arbiter::draw::{GeoSpec, Land};
    let started = std::time::Instant::now();
    let embedded = Map::embedded(&args.map).filter(|_| !Path::new(&args.map).is_file());
    let (map, file) = match embedded {
        Some(m) => (m, None),
        None => (
            super::load_map_file(&args.map, true)?,
            Some(PathBuf::from(&args.map)),
        ),
    };
    let geo = match (&args.geo, &file) {
        (Some(g), _) => Some(g.clone()),
        (None, Some(f)) => {
            let stem = f
                .file_stem()
                .map_or_else(|| "map".into(), |s| s.to_string_lossy().into_owned());
            super::beside(f, f.with_file_name(format!("{stem}.geo.yaml")), "geography")?
                .filter(|p| std::fs::metadata(p).is_ok())
        }
        (None, None) => None,
    };
    let out = match (&args.output, &file) {
        (Some(o), _) => o.clone(),
        (None, Some(f)) => super::drawing_path(f),
        (None, None) => {
            return Err(Fatal(format!(
                "`{}` is an embedded map: say where to write its drawing with `-o FILE`",
                args.map
            )))
        }
    };
    let report = |e: arbiter::map::MapError| -> Result<i32, Fatal> {
        super::eprint_text(&format!("{e}\n"));
        Ok(EXIT_ERRORS)
    };
    let read = |p: &Path| {
        super::read_file(p).map_err(|e| Fatal(format!("cannot read `{}`: {e}", p.display())))
    };
    let (spec, land, from) = match &geo {
        Some(g) => {
            let shown = g.display().to_string();
            let spec = match GeoSpec::from_yaml(&read(g)?, &shown, &map) {
                Ok(s) => s,
                Err(e) => return report(e),
            };
            let land_path = g.with_file_name("").join(&spec.land);
            inside_folder_of(g, &spec.land, &land_path)?;
            let land = match Land::from_json(&read(&land_path)?, &land_path.display().to_string()) {
                Ok(l) => l,
                Err(e) => return report(e),
            };
            (Some(spec), Some(land), shown)
        }
        None => (None, None, "the provinces' positions".to_string()),
    };
    let drawing = match arbiter::draw::draw(&map, spec.as_ref(), land.as_ref()) {
        Ok(d) => d,
        Err(e) => return report(e),
    };
    let comment = format!(
        "Drawing of map `{}`, made by `arbiter map draw` from {from} (docs/MAPS.md, \"Drawing\").",
        map.name
    );
    write_output(Some(&out), &drawing.to_yaml(&map, &comment))?;
    let rings: usize = drawing
        .provinces
        .iter()
        .map(|s| s.rings.len())
        .sum::<usize>()
        + drawing.land.len()
        + drawing.water.len();
    write_output(
        None,
        &format!(
            "{}: {}, {}, {} x {} units, {:.2} s: {}\n",
            map.name,
            plural(map.provinces.len(), "province"),
            plural(rings, "ring"),
            drawing.width.round(),
            drawing.height.round(),
            started.elapsed().as_secs_f64(),
            out.display()
        ),
    )?;
    Ok(EXIT_OK)
}

fn import(args: &ImportArgs) -> Result<i32, Fatal> {
    let path = args.file.display().to_string();
    let text =
        super::read_file(&args.file).map_err(|e| Fatal(format!("cannot read `{path}`: {e}")))?;
    // The text of every file read, to show the lines findings point at.
    let mut texts: std::collections::HashMap<String, String> = Default::default();
    texts.insert(path.clone(), text.clone());
    // A used file is read from the imported file's folder only: its name has no
    // folder in it (the importer refuses one), and a link that leads out is refused
    // here. A file that is not there is answered `NOT_FOUND`, so that an embedded
    // board of that name is used.
    let folder = args
        .file
        .parent()
        .map(|d| {
            if d.as_os_str().is_empty() {
                Path::new(".")
            } else {
                d
            }
        })
        .and_then(|d| d.canonicalize().ok());
    let mut read = |p: &str| {
        let real = match Path::new(p).canonicalize() {
            Ok(r) => r,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(dpjudge::NOT_FOUND.to_string())
            }
            Err(e) => return Err(e.to_string()),
        };
        if real.parent() != folder.as_deref() {
            return Err(format!(
                "it leads out of the folder of `{path}` (to `{}`): a used file must be in that folder",
                real.display()
            ));
        }
        let t = super::read_file(p).map_err(|e| e.to_string())?;
        texts.insert(p.to_string(), t.clone());
        Ok(t)
    };
    let order_words: Vec<&str> = arbiter::orders::order_words().collect();
    let imported =
        dpjudge::import_with(&path, &text, args.name.as_deref(), &mut read, &order_words)
            .map_err(|e| Fatal(e.to_string()))?;
    let out_name = args
        .output
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "<stdout>".into());
    write_output(args.output.as_deref(), &imported.yaml)?;
    let found = check::check_all(&imported.yaml, &out_name, None, None);
    let (counts, omitted) = (found.count(), found.omitted_total());
    let findings = at_the_source(found.findings, &imported, (&path, &out_name), &texts);
    let mut report = String::new();
    // At most this many lines of each list are written: a file of thousands of bad
    // lines would otherwise be written back whole; the rest are counted.
    const SHOWN: usize = check::MAX_KEPT_PER_CODE;
    let more = |report: &mut String, n: usize| {
        if n > SHOWN {
            let _ = writeln!(report, "  … and {} more, not shown", n - SHOWN);
        }
    };
    if !imported.refused.is_empty() {
        let _ = writeln!(report, "Refused ({}):", imported.refused.len());
        for n in imported.refused.iter().take(SHOWN) {
            let _ = writeln!(report, "  error: {}:{}: {}", n.file, n.line, n.message);
        }
        more(&mut report, imported.refused.len());
        report.push('\n');
    }
    if imported.notes.is_empty() && imported.refused.is_empty() {
        let _ = writeln!(report, "Everything in {path} was carried over.");
    } else if !imported.notes.is_empty() {
        let _ = writeln!(report, "Not carried over ({}):", imported.notes.len());
        for n in imported.notes.iter().take(SHOWN) {
            if n.line == 0 {
                let _ = writeln!(report, "  {}: {}", n.file, n.message);
            } else {
                let _ = writeln!(report, "  {}:{}: {}", n.file, n.line, n.message);
            }
        }
        more(&mut report, imported.notes.len());
    }
    report.push('\n');
    report.push_str(&check::render_in(
        &findings,
        omitted,
        |f| {
            if f == out_name {
                Some(imported.yaml.as_str())
            } else {
                texts.get(f).map(String::as_str)
            }
        },
        |f| f != out_name,
    ));
    let _ = writeln!(
        report,
        "Imported {path} as `{}` ({}, {} provinces): {}",
        imported.name,
        plural(imported.powers, "power"),
        imported.provinces,
        summary(counts)
    );
    if !imported.refused.is_empty() {
        let _ = writeln!(
            report,
            "{} refused (listed first): the map was written without {}.",
            plural(imported.refused.len(), "line"),
            if imported.refused.len() == 1 {
                "it"
            } else {
                "them"
            }
        );
    }
    if args.output.is_some() {
        write_output(None, &report)?;
    } else {
        super::eprint_text(&report);
    }
    let (e, _, _) = counts;
    Ok(if e > 0 || !imported.refused.is_empty() {
        EXIT_ERRORS
    } else {
        EXIT_OK
    })
}

/// The findings on an imported map, pointed at the DPjudge line each comes from (the
/// designer edits the `.map` file, not the YAML): the line that gave the neighbour a
/// finding is about, else the line of the place, name or power; the caret under the
/// word in that line. The YAML's own line is kept in the message. A finding with no
/// such line (the header, `victory`) stays on the YAML. In order: by file (the imported
/// file first), line and column.
fn at_the_source(
    findings: Vec<Finding>,
    imported: &dpjudge::Imported,
    (main, yaml_name): (&str, &str),
    texts: &std::collections::HashMap<String, String>,
) -> Vec<Finding> {
    let yaml_lines: Vec<&str> = imported.yaml.lines().collect();
    let mut out: Vec<Finding> = findings
        .into_iter()
        .map(|mut f| {
            if f.file != yaml_name || f.line == 0 {
                return f;
            }
            let token: String = yaml_lines
                .get(f.line - 1)
                .map(|l| {
                    l.chars()
                        .skip(f.column.saturating_sub(1))
                        .take_while(|c| !",]}#".contains(*c))
                        .collect::<String>()
                        .trim()
                        .trim_matches('"')
                        .to_ascii_lowercase()
                })
                .unwrap_or_default();
            let here = imported.origins.iter().filter(|o| o.yaml_line == f.line);
            let same = |i: &str| {
                i == token || i.split('/').next() == Some(token.as_str()) && !token.is_empty()
            };
            let origin = here
                .clone()
                .find(|o| o.item.as_deref().is_some_and(same))
                .or_else(|| here.clone().find(|o| o.item.is_none()));
            let Some(o) = origin else { return f };
            let word = o.item.clone().unwrap_or(token);
            let column = texts
                .get(&o.file)
                .and_then(|t| t.lines().nth(o.line.wrapping_sub(1)))
                .and_then(|l| find_word(l, &word))
                .unwrap_or(1);
            f.message = format!("{} (imported as {yaml_name}:{})", f.message, f.line);
            f.file = o.file.clone();
            f.line = o.line;
            f.column = column;
            f
        })
        .collect();
    out.sort_by(|a, b| {
        (a.file != main, &a.file, a.line, a.column).cmp(&(
            b.file != main,
            &b.file,
            b.line,
            b.column,
        ))
    });
    out
}

/// The 1-based character column of `word` in `line` as a whole word, in any case.
fn find_word(line: &str, word: &str) -> Option<usize> {
    if word.is_empty() {
        return None;
    }
    let lower = line.to_ascii_lowercase();
    let word = word.to_ascii_lowercase();
    let is_word = |c: char| c.is_alphanumeric() || c == '/' || c == '_';
    let mut from = 0;
    while let Some(i) = lower.get(from..)?.find(&word) {
        let at = from + i;
        let before = lower[..at].chars().next_back();
        let after = lower[at + word.len()..].chars().next();
        if !before.is_some_and(is_word) && !after.is_some_and(is_word) {
            return Some(lower[..at].chars().count() + 1);
        }
        from = at + word.len();
    }
    None
}

/// `map layout MAP [-o OUT]`: positions for the provinces that have none
/// (`arbiter::draw::layout`), written into the map's text (everything else kept byte
/// for byte); in place, the old file kept as `MAP.bak`, or to OUT.
fn layout(args: &LayoutArgs) -> Result<i32, Fatal> {
    let name = args.map.display().to_string();
    let src =
        super::read_file(&args.map).map_err(|e| Fatal(format!("cannot read `{name}`: {e}")))?;
    let map = check::load(&src, &name).map_err(|found| {
        let shown = check::render_omitting(&found.findings, found.omitted_total(), |f| {
            (f == name).then_some(src.as_str())
        });
        Fatal(format!(
            "the map is not valid:\n\n{shown}{name}: {}\n(fix it first: `arbiter map check {name}`)",
            summary(found.count())
        ))
    })?;
    let placed = map.provinces.iter().filter(|p| p.at.is_none()).count();
    let positions = arbiter::draw::layout::positions(&map);
    let text = arbiter::draw::layout::write_positions(&src, &map, &positions);
    let whither = match &args.output {
        Some(out) => {
            write_output(Some(out), &text)?;
            format!("written to `{}`", out.display())
        }
        None if placed == 0 => "nothing to write".to_string(),
        None => {
            if !args.map.is_file() {
                return Err(Fatal(format!(
                    "`{name}` is not a regular file to edit in place: give -o OUT.yaml"
                )));
            }
            let bak = super::write::replace_keeping_backup(&args.map, text.as_bytes())?;
            format!("written to `{name}` (the old file is `{}`)", bak.display())
        }
    };
    outln!(
        "{name}: placed {} ({} already had one); {whither}",
        plural(placed, "province"),
        map.provinces.len() - placed
    );
    Ok(EXIT_OK)
}
