//! `arbiter render`: a picture (SVG, or PNG with `--png`) of a position, from a game
//! file (a judged phase with its orders, by default the last one) or a position file
//! with an optional orders file; also the pictures `judge --svg` and `map show --svg`
//! write.

use std::path::{Path, PathBuf};

use super::game::{not_judged, rejudged};
use super::store::{self, Loaded};
use super::{load_map, parse_rules, read_input, write_bytes, Fatal, EXIT_OK};
use arbiter::game::{advance, PhaseResult};
use arbiter::gamefile::{phase_key, Found, Game};
use arbiter::map::Map;
use arbiter::orders::{parse_orders_with, render_diagnostics, ParseOptions, Severity};
use arbiter::render::{self, Problem, Scene};
use arbiter::state::{Phase, Position};

#[derive(clap::Args, Debug)]
pub struct RenderArgs {
    /// A game file: draw a judged phase (its position and orders). Without it, draw
    /// --position (or the map's starting position).
    #[arg(value_name = "GAME")]
    pub game: Option<PathBuf>,
    /// The phase of GAME to draw: `Spring 1901`, `F1901R`, … (default: the last one
    /// judged). The current phase is drawn without orders.
    #[arg(long, value_name = "PHASE", requires = "game")]
    pub phase: Option<String>,
    /// A position file (YAML) to draw instead of a game.
    #[arg(long, value_name = "FILE", conflicts_with = "game")]
    pub position: Option<PathBuf>,
    /// Orders for the position (a file, or `-`): judged and drawn with their outcomes.
    #[arg(long, value_name = "FILE", conflicts_with = "game")]
    pub orders: Option<String>,
    /// The map of --position: an embedded map's name or a YAML map file.
    #[arg(
        long,
        value_name = "NAME|FILE",
        default_value = "standard",
        conflicts_with = "game"
    )]
    pub map: String,
    /// Rule edition for --orders.
    #[arg(
        long,
        default_value = "2023",
        value_name = "EDITION",
        conflicts_with = "game",
        help = format!("For --orders. {}", super::RULES_HELP)
    )]
    pub rules: String,
    /// Write a PNG image instead of SVG.
    #[arg(long)]
    pub png: bool,
    /// The PNG's width in pixels (its height follows; a wide one is drawn in bands, so
    /// memory does not grow with it). By default 1600, which fits a screen, or four
    /// fifths of the SVG's width when that is more (world1914: 2560), or narrower for a
    /// tall board (at most 16 million pixels).
    #[arg(
        long,
        value_name = "PX",
        value_parser = clap::value_parser!(u32).range(i64::from(*render::PNG_WIDTHS.start())..=i64::from(*render::PNG_WIDTHS.end())),
        requires = "png"
    )]
    pub width: Option<u32>,
    /// Draw the map's graph (provinces as nodes joined by every adjacency) instead of
    /// the board (the map's drawing: provinces as shapes, coloured by owner).
    #[arg(long)]
    pub graph: bool,
    /// Write the picture to FILE instead of standard output: a regular file is replaced
    /// atomically and keeps its mode; a FIFO or device (`/dev/null`) is written in place;
    /// an input file is refused.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Draw the whole game into --dir: every judged phase and the current position, each
    /// as `NN-S1901M.svg`, `.png` and a printable A4 page `NN-S1901M-page.png` (the
    /// picture above the results sheet), and `index.html` to step through them offline.
    #[arg(
        long,
        requires_all = ["game", "dir"],
        conflicts_with_all = ["phase", "png", "output"]
    )]
    pub all: bool,
    /// The directory --all writes to (created if missing; files of the same names in it
    /// are replaced, others left alone).
    #[arg(long, value_name = "DIR", requires = "all")]
    pub dir: Option<PathBuf>,
    /// Write an animated GIF of the game to FILE: one frame per judged phase and the
    /// current position, 1000 pixels wide (narrower for a tall board: at most 2 million
    /// pixels a frame), 1.5 s each (the last 4 s), looping. Alone or
    /// with --all.
    #[arg(
        long,
        value_name = "FILE",
        requires = "game",
        conflicts_with_all = ["phase", "png", "output"]
    )]
    pub gif: Option<PathBuf>,
}

pub fn run(args: &RenderArgs) -> Result<i32, Fatal> {
    if let (true, Some(game)) = (args.all || args.gif.is_some(), &args.game) {
        let dir = args.dir.as_deref().filter(|_| args.all);
        return super::album::run(game, dir, args.gif.as_deref(), args.graph);
    }
    let svg = match &args.game {
        Some(path) => from_game(path, args.phase.as_deref(), args.graph)?,
        None => from_position(args)?,
    };
    write_picture(args.output.as_deref(), &svg, args.png.then_some(args.width))?;
    Ok(EXIT_OK)
}

/// Write an SVG, or (`png`) its PNG, as wide as asked or by default as wide as
/// [`render::png_width`] draws it.
pub fn write_picture(
    path: Option<&Path>,
    svg: &str,
    png: Option<Option<u32>>,
) -> Result<(), Fatal> {
    match png {
        Some(width) => {
            let bytes = render::png_width(svg, width)
                .map_err(|e| Fatal(format!("cannot draw the PNG: {e}")))?;
            write_bytes(path, &bytes)
        }
        None => write_bytes(path, svg.as_bytes()),
    }
}

/// Text for HTML (the album's page, `serve`'s print view).
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The title of a phase's picture: `Spring 1901 movement: demo`.
pub fn title(phase: Phase, name: &str) -> String {
    format!("{phase}: {name}")
}

/// The SVG of a judged phase (its position and result): the board when the map has a
/// drawing, else the graph.
pub fn picture(
    map: &Map,
    name: &str,
    position: &Position,
    result: Option<&PhaseResult>,
) -> Result<String, Fatal> {
    picture_as(map, name, position, result, false)
}

/// [`picture`], drawing the graph view when `graph` is set.
pub fn picture_as(
    map: &Map,
    name: &str,
    position: &Position,
    result: Option<&PhaseResult>,
    graph: bool,
) -> Result<String, Fatal> {
    render::svg(
        map,
        &Scene {
            position,
            result,
            title: title(position.phase, name),
            problems: Vec::new(),
            bare: false,
            graph,
        },
    )
    .map_err(|e| Fatal(format!("cannot draw the picture: {e}")))
}

/// Say on standard error when the board cannot be drawn because the map has no
/// drawing (the graph is drawn instead).
pub fn note_view(map: &Map, graph: bool) {
    if !graph && map.drawing.is_none() {
        eprintln!(
            "note: no drawing for this map: run `arbiter map draw {}`; drawing the graph",
            map.name
        );
    }
}

fn from_game(path: &Path, phase: Option<&str>, graph: bool) -> Result<String, Fatal> {
    let Loaded { game, map, .. } = store::load(path)?;
    note_view(&map, graph);
    let picture = |map: &Map, name: &str, position: &Position, result: Option<&PhaseResult>| {
        picture_as(map, name, position, result, graph)
    };
    let shown = path.display().to_string();
    let k = match phase {
        None => match game.history.len().checked_sub(1) {
            Some(k) => k,
            // Nothing judged yet: the current position.
            None => return picture(&map, &game.name, &game.position, None),
        },
        Some(s) => {
            let phase = Phase::parse(s).map_err(|e| {
                Fatal(format!(
                    "{e}; e.g. `Fall 1901`, `Fall 1901 retreat` or `W1901`; {}",
                    phases(&game)
                ))
            })?;
            match game.find(phase) {
                Some(Found::Judged(k)) => k,
                Some(Found::Skipped(_)) => {
                    return Err(Fatal(format!(
                        "{phase} was skipped (nothing to do), so it has no picture; {}",
                        phases(&game)
                    )))
                }
                None if phase == game.position.phase => {
                    return picture(&map, &game.name, &game.position, None)
                }
                None => {
                    let Fatal(msg) = not_judged(&game, phase, &shown);
                    return Err(Fatal(format!("{msg}; {}", phases(&game))));
                }
            }
        }
    };
    let j = rejudged(&game, &map, k)?;
    picture(&map, &game.name, &game.history[k].before, Some(&j.result))
}

/// The phases of a game that have a picture, for error messages.
fn phases(game: &Game) -> String {
    let mut v: Vec<Phase> = game.history.iter().map(|h| h.phase()).collect();
    if game.over.is_none() {
        v.push(game.position.phase);
    }
    v.sort_by_key(|&p| phase_key(p));
    let names: Vec<String> = v.iter().map(|p| format!("`{p}`")).collect();
    format!("the phases that can be drawn are {}", names.join(", "))
}

fn from_position(args: &RenderArgs) -> Result<String, Fatal> {
    let map = load_map(&args.map)?;
    note_view(&map, args.graph);
    let (position, name) = match &args.position {
        Some(p) => {
            let src = super::read_file(p)
                .map_err(|e| Fatal(format!("cannot read `{}`: {e}", p.display())))?;
            let pos = Position::from_yaml(&map, &src)
                .map_err(|e| Fatal(format!("{}: {e}", p.display())))?;
            let name = p
                .file_name()
                .map(|f| f.to_string_lossy().to_string())
                .unwrap_or_else(|| map.name.clone());
            (pos, name)
        }
        None => (Position::initial(&map), map.name.clone()),
    };
    let result = match &args.orders {
        Some(file) => {
            let rules = parse_rules(&args.rules)?;
            let text = read_input(file)?;
            let parsed = parse_orders_with(&map, &text, ParseOptions::default());
            let (result, _) = advance(&map, rules, &position, &parsed.orders, None)
                .map_err(|e| Fatal(e.to_string()))?;
            let mut diagnostics = parsed.diagnostics;
            diagnostics.extend(result.diagnostics().iter().cloned());
            diagnostics.sort_by_key(|d| (d.span.line, d.span.start));
            if !diagnostics.is_empty() {
                let shown = if file == "-" { "<stdin>" } else { file };
                super::eprint_text(&render_diagnostics(&diagnostics, &text, shown));
                let errors = diagnostics
                    .iter()
                    .filter(|d| d.severity == Severity::Error)
                    .count();
                if errors > 0 {
                    eprintln!(
                        "warning: {errors} order{} could not be read (above): they are not drawn, and their units hold",
                        if errors == 1 { "" } else { "s" }
                    );
                }
            }
            Some(result)
        }
        None => None,
    };
    picture_as(&map, &name, &position, result.as_ref(), args.graph)
}

/// The bare map for designers, with the problems `map check` found: the board when
/// the map has a drawing and `graph` is not set, else the graph.
pub fn map_picture(map: &Map, problems: Vec<Problem>, graph: bool) -> Result<String, Fatal> {
    let position = Position::initial(map);
    let title = if map.title.is_empty() {
        format!("Map {}", map.name)
    } else {
        format!("Map {}: {}", map.name, map.title)
    };
    render::svg(
        map,
        &Scene {
            position: &position,
            result: None,
            title,
            problems,
            bare: true,
            graph,
        },
    )
    .map_err(|e| Fatal(format!("cannot draw the map: {e}")))
}
