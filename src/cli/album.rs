//! The whole game at once (`arbiter render GAME --all --dir DIR`, `--gif FILE`):
//! every judged phase and the current position as pictures (`NN-S1901M.svg`, `.png`),
//! a printable A4 page each (`NN-S1901M-page.png`: the picture above the results
//! sheet), an `index.html` to step through them offline, and an animated GIF.
//!
//! Every file goes through the one write helper ([`super::write`]); the directory is
//! created if missing, and refused if it is a file.

use std::fs;
use std::path::{Path, PathBuf};

use super::game::{rejudged, status_text};
use super::render::esc;
use super::store::{self, Loaded};
use super::{write, write_bytes, Fatal, EXIT_OK};
use arbiter::map::Season;
use arbiter::render;
use arbiter::report;
use arbiter::state::{Phase, PhaseKind};

/// One picture of the game: a judged phase with its orders, or the current position.
struct Still {
    /// The file names' stem: `01-S1901M`.
    stem: String,
    /// The picture's and the page's title.
    title: String,
    /// The phase, in the list of phases: `Spring 1901 movement`.
    label: String,
    svg: String,
    /// The results sheet (`arbiter judge`'s text), or for the current position the
    /// game's status (`arbiter status`).
    sheet: String,
}

/// Draw the game at `path` into `dir` (with --all) and as the GIF `gif`.
pub fn run(path: &Path, dir: Option<&Path>, gif: Option<&Path>, graph: bool) -> Result<i32, Fatal> {
    let Loaded { game, map, .. } = store::load(path)?;
    if let Some(g) = gif {
        // Refused now (a directory, the game itself), not after drawing every phase.
        write::target(g)?;
        write::check_output(g)?;
    }
    if let Some(d) = dir {
        prepare_dir(d)?;
    }
    super::render::note_view(&map, graph);
    let stills = stills(&game, &map, graph)?;
    // Before anything is written: no file written may be the game (or another input),
    // and the GIF may not be one of the pictures or pages written into --dir.
    let mut names = Vec::new();
    if let Some(d) = dir {
        for s in &stills {
            for suffix in [".svg", ".png", "-page.png"] {
                names.push(("--dir", file(d, &s.stem, suffix)));
            }
        }
        names.push(("--dir", d.join("index.html")));
    }
    if let Some(g) = gif {
        names.push(("--gif", g.to_path_buf()));
    }
    let outputs: Vec<(&str, &Path)> = names.iter().map(|(f, p)| (*f, p.as_path())).collect();
    write::check_outputs(&outputs, &[("the game file", path)])?;
    if let Some(d) = dir {
        for s in &stills {
            write_still(d, s)?;
        }
        let index = d.join("index.html");
        write_bytes(
            Some(&index),
            index_html(&game.name, &map.name, &stills).as_bytes(),
        )?;
        eprintln!(
            "Drew {} phase{} of `{}` into `{}`: a picture (SVG and PNG) and a printable \
             page of each, and index.html to step through them.",
            stills.len(),
            if stills.len() == 1 { "" } else { "s" },
            path.display(),
            d.display()
        );
    }
    if let Some(g) = gif {
        let svgs: Vec<String> = stills.into_iter().map(|s| s.svg).collect();
        let bytes = render::gif::gif(&svgs, render::gif::GIF_WIDTH)
            .map_err(|e| Fatal(format!("cannot draw the GIF: {e}")))?;
        write_bytes(Some(g), &bytes)?;
        eprintln!(
            "Wrote the GIF `{}`: {} frame{}.",
            g.display(),
            svgs.len(),
            if svgs.len() == 1 { "" } else { "s" }
        );
    }
    Ok(EXIT_OK)
}

/// Make sure `dir` is a directory: create it (and its parents) if missing; refuse a
/// file.
fn prepare_dir(dir: &Path) -> Result<(), Fatal> {
    let shown = dir.display();
    match fs::metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(Fatal(format!(
            "cannot draw the game into `{shown}`: it is a file, not a directory; give --dir \
             a directory (it is created if missing)"
        ))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => fs::create_dir_all(dir)
            .map_err(|e| Fatal(format!("cannot create the directory `{shown}`: {e}"))),
        Err(e) => Err(Fatal(format!("cannot use the directory `{shown}`: {e}"))),
    }
}

/// Every judged phase of the game (its position and orders, judged again from the
/// file as `arbiter render --phase` does), then the current position.
fn stills(
    game: &arbiter::gamefile::Game,
    map: &arbiter::map::Map,
    graph: bool,
) -> Result<Vec<Still>, Fatal> {
    let count = game.history.len() + 1;
    let digits = count.to_string().len().max(2);
    let stem = |i: usize, phase: Phase| format!("{:0digits$}-{}", i + 1, short(phase));
    let mut out = Vec::with_capacity(count);
    for (k, h) in game.history.iter().enumerate() {
        let j = rejudged(game, map, k)?;
        out.push(Still {
            stem: stem(k, h.phase()),
            title: super::render::title(h.phase(), &game.name),
            label: h.phase().to_string(),
            svg: super::render::picture_as(map, &game.name, &h.before, Some(&j.result), graph)?,
            sheet: report::text::sheet(map, &game.name, &j.result),
        });
    }
    let p = &game.position;
    let which = if game.over.is_some() {
        "final position"
    } else {
        "current position"
    };
    out.push(Still {
        stem: stem(game.history.len(), p.phase),
        title: format!("{} ({which})", super::render::title(p.phase, &game.name)),
        label: format!("{} ({which})", p.phase),
        svg: super::render::picture_as(map, &game.name, p, None, graph)?,
        sheet: status_text(map, game),
    });
    Ok(out)
}

/// A phase's short form, as in file names: `S1901M`, `F1901R`, `W1901A`.
fn short(p: Phase) -> String {
    let season = match p.season {
        Season::Spring => 'S',
        Season::Fall => 'F',
        Season::Winter => 'W',
    };
    let kind = match p.kind {
        PhaseKind::Movement => 'M',
        PhaseKind::Retreat => 'R',
        PhaseKind::Adjustment => 'A',
    };
    format!("{season}{}{kind}", p.year)
}

fn file(dir: &Path, stem: &str, suffix: &str) -> PathBuf {
    dir.join(format!("{stem}{suffix}"))
}

/// Write one phase's SVG, PNG and page.
fn write_still(dir: &Path, s: &Still) -> Result<(), Fatal> {
    let raster = |e: render::RasterError| Fatal(format!("cannot draw {}: {e}", s.title));
    write_bytes(Some(&file(dir, &s.stem, ".svg")), s.svg.as_bytes())?;
    write_bytes(
        Some(&file(dir, &s.stem, ".png")),
        &render::png_width(&s.svg, None).map_err(raster)?,
    )?;
    let page = render::page::page(&s.svg, &s.title, &s.sheet).map_err(raster)?;
    if page.cut > 0 {
        eprintln!(
            "warning: the page of {} leaves out the last {} lines of its sheet (too long \
             for one page even in small type); index.html shows it whole",
            s.title, page.cut
        );
    }
    write_bytes(
        Some(&file(dir, &s.stem, "-page.png")),
        &render::png(&page.svg).map_err(raster)?,
    )
}

/// The page that steps through the game: one phase at a time (its picture, title
/// and sheet), previous and next buttons, the arrow keys, and the list of every
/// phase. Self-contained (inline style and script; the pictures beside it), so it
/// works from a file; without script every phase is shown one below the other.
fn index_html(game: &str, map: &str, stills: &[Still]) -> String {
    let name = esc(game);
    let mut list = String::new();
    let mut sections = String::new();
    for s in stills {
        let (stem, title) = (esc(&s.stem), esc(&s.title));
        list.push_str(&format!(
            "<li><a href=\"#{stem}\">{}</a></li>\n",
            esc(&s.label)
        ));
        sections.push_str(&format!(
            "<section class=\"phase\" id=\"{stem}\" data-title=\"{title}\">\n\
             <figure><img src=\"{stem}.svg\" alt=\"The board: {title}\" loading=\"lazy\"></figure>\n\
             <div class=\"sheet\"><h2>{title}</h2>\n\
             <p class=\"files\">Files: <a href=\"{stem}.svg\">{stem}.svg</a> · \
             <a href=\"{stem}.png\">{stem}.png</a> · \
             <a href=\"{stem}-page.png\">{stem}-page.png</a> (printable page, A4)</p>\n\
             <pre>{}</pre></div>\n</section>\n",
            esc(s.sheet.trim_end())
        ));
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{name}: the game on the {map} map</title>\n<style>\n{STYLE}</style>\n</head>\n\
         <body>\n<header>\n<h1>{name} <small>({map} map, {} phases)</small></h1>\n\
         <button id=\"prev\" type=\"button\" title=\"Previous phase (left arrow)\">&#9664; Previous</button>\n\
         <span id=\"where\"></span>\n\
         <button id=\"next\" type=\"button\" title=\"Next phase (right arrow)\">Next &#9654;</button>\n\
         </header>\n<div class=\"layout\">\n<nav id=\"list\"><ol>\n{list}</ol>\n\
         <p class=\"hint\">Keys: &#8592; &#8594; step, Home and End: first and last.</p></nav>\n\
         <main>\n{sections}</main>\n</div>\n<script>\n{SCRIPT}</script>\n</body>\n</html>\n",
        stills.len(),
        map = esc(map),
    )
}

const STYLE: &str = r#"body { margin: 0; font: 15px/1.4 "DejaVu Sans", Verdana, sans-serif; background: #f2f0ea; color: #222; }
header { position: sticky; top: 0; z-index: 1; display: flex; align-items: center; gap: 0.8rem;
  padding: 0.45rem 1rem; background: #263545; color: #fff; }
header h1 { flex: 1; margin: 0; font-size: 1.1rem; }
header small { font-weight: normal; opacity: 0.8; }
header button { font: inherit; padding: 0.25rem 0.8rem; cursor: pointer; }
#where { min-width: 18rem; text-align: center; }
.layout { display: flex; align-items: flex-start; }
#list { flex: none; width: 13rem; position: sticky; top: 2.8rem; max-height: calc(100vh - 3.2rem);
  overflow: auto; padding: 0.6rem 0.4rem; font-size: 0.9rem; }
#list ol { margin: 0; padding-left: 2.2rem; }
#list a { color: #1c4f8a; text-decoration: none; }
#list a.current { font-weight: bold; color: #000; }
.hint { color: #666; font-size: 0.8rem; padding-left: 0.6rem; }
main { flex: 1; min-width: 0; padding: 0.6rem 1rem; }
section.phase { display: flex; flex-wrap: wrap; gap: 1rem; align-items: flex-start; margin-bottom: 2rem; }
.js section.phase { display: none; }
.js section.phase.shown { display: flex; }
figure { flex: 1 1 28rem; min-width: 0; margin: 0; }
figure img { display: block; max-width: 100%; max-height: calc(100vh - 4.5rem); margin: 0 auto;
  background: #fff; box-shadow: 0 1px 4px rgba(0, 0, 0, 0.25); }
.sheet { flex: 0 1 auto; min-width: 0; }
.sheet h2 { margin: 0 0 0.3rem; font-size: 1.1rem; }
.files { margin: 0 0 0.5rem; font-size: 0.85rem; }
pre { margin: 0; padding: 0.6rem 0.8rem; background: #fff; border: 1px solid #ccc; white-space: pre;
  overflow-x: auto; font: 12px/1.4 "DejaVu Sans Mono", Menlo, Consolas, monospace; }
"#;

const SCRIPT: &str = r##"(function () {
  var sections = Array.prototype.slice.call(document.querySelectorAll("section.phase"));
  var links = Array.prototype.slice.call(document.querySelectorAll("#list a"));
  var prev = document.getElementById("prev"), next = document.getElementById("next");
  var where = document.getElementById("where");
  var i = 0;
  if (!sections.length) { return; }
  document.documentElement.className = "js";
  function show(k, fromHash) {
    i = Math.max(0, Math.min(sections.length - 1, k));
    sections.forEach(function (s, j) { s.className = j === i ? "phase shown" : "phase"; });
    links.forEach(function (a, j) { a.className = j === i ? "current" : ""; });
    where.textContent = (i + 1) + " of " + sections.length + ": " + sections[i].getAttribute("data-title");
    prev.disabled = i === 0;
    next.disabled = i === sections.length - 1;
    if (!fromHash) { location.replace("#" + sections[i].id); }
  }
  function hashed() {
    var id = decodeURIComponent(location.hash.slice(1));
    for (var j = 0; j < sections.length; j++) { if (sections[j].id === id) { return j; } }
    return -1;
  }
  prev.addEventListener("click", function () { show(i - 1); });
  next.addEventListener("click", function () { show(i + 1); });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var to = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: sections.length - 1 }[e.key];
    if (to !== undefined) { e.preventDefault(); show(to); }
  });
  window.addEventListener("hashchange", function () {
    var j = hashed();
    if (j >= 0 && j !== i) { show(j, true); }
  });
  var start = hashed();
  show(start >= 0 ? start : 0, true);
})();
"##;
