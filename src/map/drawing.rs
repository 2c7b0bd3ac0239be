//! A board's drawing: the outline of every province (several rings for islands),
//! where its unit, label and supply-centre marker go, and where a fleet on each named
//! coast is drawn. It is map data, kept in a YAML file beside the map
//! (`standard.drawing.yaml`; docs/MAPS.md, "Drawing"), made by `arbiter map draw` and
//! checked here against the map it draws.
//!
//! Outlines are written as SVG path data of absolute `M`, `L` and `Z` commands only, in
//! picture units (x to the right, y down, `0..width`, `0..height`).

use super::build::{MapError, MapProblem, ProblemCode, Severity};
use super::locate::{join, Locations, Pos};
use super::{Loc, Map, Prov};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A point of the picture.
pub type Point = (f64, f64);

/// A closed outline: its corners in order (the last joins the first).
pub type Ring = Vec<Point>;

/// The largest picture a drawing may describe (units per side).
pub const MAX_SIZE: f64 = 20_000.0;

/// The most corners a drawing may have in all (bounds memory for hostile files).
pub const MAX_CORNERS: usize = 2_000_000;

/// How a province is drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Shape {
    /// Its outline: one ring per piece (a province with islands has several).
    pub rings: Vec<Ring>,
    /// Where a unit in the province is drawn (for a split province: an army).
    pub unit: Point,
    /// Where its abbreviation is written (away from `unit`).
    pub label: Point,
    /// Where its supply-centre marker goes (supply centres only).
    pub centre: Option<Point>,
}

/// A board drawn as a map.
#[derive(Clone, Debug, PartialEq)]
pub struct Drawing {
    pub width: f64,
    pub height: f64,
    /// Per province ([`Prov`] index): its shape.
    pub provinces: Vec<Shape>,
    /// Per named coast (in [`Map::coasts`] order): where a fleet on it is drawn.
    pub coasts: Vec<Point>,
    /// Land that is no province (drawn plain).
    pub land: Vec<Ring>,
    /// Water that is no province (lakes, inland seas off the board; drawn as sea).
    pub water: Vec<Ring>,
}

impl Drawing {
    /// Where a unit at location `l` is drawn: a province's unit point, or a named
    /// coast's point.
    pub fn point(&self, l: Loc) -> Point {
        let i = usize::from(l.0);
        let n = self.provinces.len();
        if i < n {
            self.provinces.get(i).map_or((0.0, 0.0), |s| s.unit)
        } else {
            self.coasts.get(i - n).copied().unwrap_or((0.0, 0.0))
        }
    }

    /// The shape of province `p`.
    pub fn shape(&self, p: Prov) -> Option<&Shape> {
        self.provinces.get(usize::from(p.0))
    }

    /// Read a drawing of `map` from YAML text; `file` names it in the problems. Every
    /// problem is reported (with its line), not only the first.
    pub fn from_yaml(src: &str, file: &str, map: &Map) -> Result<Drawing, MapError> {
        let fail = |problems| MapError {
            file: file.to_string(),
            problems,
            omitted: Default::default(),
        };
        let parsed: DrawingFile = crate::yaml::from_str(src).map_err(|e| {
            let (line, column) = e.location().unwrap_or((0, 0));
            // A file of another kind (a link to a system file): said so, never quoted.
            let message = match crate::yaml::wrong_kind(&e, "DrawingFile") {
                Some(found) => format!(
                    "`{file}` is not a drawing file: line {line}, column {column}: it holds \
                     {found} (not shown), where a drawing is a YAML mapping of `width`, \
                     `height`, `provinces`, … (docs/MAPS.md, \"Drawing\")"
                ),
                None => e.to_string(),
            };
            fail(vec![problem(Pos { line, column }, "yaml", message, None)])
        })?;
        let locations = Locations::scan(src);
        let mut check = Checker {
            locations: &locations,
            problems: Vec::new(),
            corners: 0,
        };
        let drawing = check.drawing(&parsed, map);
        if check.problems.is_empty() {
            Ok(drawing)
        } else {
            check.problems.sort_by_key(|p| (p.line, p.column));
            Err(fail(check.problems))
        }
    }

    /// The drawing as YAML text (the form [`Drawing::from_yaml`] reads), for `map`.
    pub fn to_yaml(&self, map: &Map, comment: &str) -> String {
        let mut out = String::new();
        for line in comment.lines() {
            let _ = writeln!(out, "# {line}");
        }
        let _ = writeln!(out, "map: {}", map.name);
        let _ = writeln!(out, "width: {}", num(self.width));
        let _ = writeln!(out, "height: {}", num(self.height));
        for (key, rings) in [("land", &self.land), ("water", &self.water)] {
            if !rings.is_empty() {
                let _ = writeln!(out, "{key}: \"{}\"", path_data(rings));
            }
        }
        let _ = writeln!(out, "provinces:");
        for (i, (p, shape)) in map.provinces.iter().zip(&self.provinces).enumerate() {
            let _ = writeln!(out, "  {}:", p.id);
            let _ = writeln!(out, "    unit: {}", pt(shape.unit));
            let _ = writeln!(out, "    label: {}", pt(shape.label));
            if let Some(c) = shape.centre {
                let _ = writeln!(out, "    centre: {}", pt(c));
            }
            let coasts: Vec<String> = map
                .coasts
                .iter()
                .zip(&self.coasts)
                .filter(|(c, _)| usize::from(c.province.0) == i)
                .map(|(c, at)| format!("{}: {}", c.id, pt(*at)))
                .collect();
            if !coasts.is_empty() {
                let _ = writeln!(out, "    coasts: {{{}}}", coasts.join(", "));
            }
            let _ = writeln!(out, "    outline: \"{}\"", path_data(&shape.rings));
        }
        out
    }
}

/// A number as written in a drawing file: at most two decimals, no trailing zeros.
fn num(v: f64) -> String {
    let r = (v * 100.0).round() / 100.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r}")
    }
}

fn pt((x, y): Point) -> String {
    format!("[{}, {}]", num(x), num(y))
}

/// Rings as SVG path data: `M x y L x y … Z` per ring.
pub fn path_data(rings: &[Ring]) -> String {
    let mut out = String::new();
    for ring in rings {
        for (i, &(x, y)) in ring.iter().enumerate() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(if i == 0 { "M" } else { "L" });
            let _ = write!(out, "{} {}", num(x), num(y));
        }
        if !ring.is_empty() {
            out.push_str(" Z");
        }
    }
    out
}

/// Read SVG path data of absolute `M`, `L` and `Z` commands (numbers separated by
/// spaces or commas; a command letter may touch its number). A ring closes at `Z` or
/// at the next `M`. Errors say what was found and where (byte offset).
pub fn parse_path(d: &str) -> Result<Vec<Ring>, String> {
    let mut rings: Vec<Ring> = Vec::new();
    let mut current: Ring = Vec::new();
    let mut command: Option<char> = None;
    let mut numbers: Vec<f64> = Vec::new();
    let mut rest = d;
    let flush = |numbers: &mut Vec<f64>, current: &mut Ring, at: usize| -> Result<(), String> {
        if !numbers.len().is_multiple_of(2) {
            return Err(format!("an odd number of coordinates before offset {at}"));
        }
        current.extend(numbers.chunks_exact(2).filter_map(|c| match c {
            [x, y] => Some((*x, *y)),
            _ => None,
        }));
        numbers.clear();
        Ok(())
    };
    while let Some(c) = rest.chars().next() {
        let at = d.len() - rest.len();
        if c.is_whitespace() || c == ',' {
            rest = &rest[c.len_utf8()..];
            continue;
        }
        match c {
            'M' | 'L' | 'Z' | 'z' => {
                flush(&mut numbers, &mut current, at)?;
                if (c == 'M' || c == 'Z' || c == 'z') && !current.is_empty() {
                    rings.push(std::mem::take(&mut current));
                }
                command = Some(c.to_ascii_uppercase());
                rest = &rest[1..];
            }
            _ => {
                let end = rest
                    .find(|ch: char| {
                        !(ch.is_ascii_digit() || matches!(ch, '.' | '-' | '+' | 'e' | 'E'))
                    })
                    .unwrap_or(rest.len());
                let word = &rest[..end];
                if end == 0 {
                    return Err(format!(
                        "`{c}` at offset {at}: only the commands M, L and Z and numbers are read"
                    ));
                }
                if !matches!(command, Some('M' | 'L')) {
                    return Err(format!("a number at offset {at} before any M or L"));
                }
                let v: f64 = word
                    .parse()
                    .map_err(|_| format!("`{word}` at offset {at} is not a number"))?;
                if !v.is_finite() {
                    return Err(format!("`{word}` at offset {at} is not a finite number"));
                }
                numbers.push(v);
                rest = &rest[end..];
            }
        }
    }
    flush(&mut numbers, &mut current, d.len())?;
    if !current.is_empty() {
        rings.push(current);
    }
    Ok(rings)
}

/// The file's shape, as serde reads it.
#[derive(Deserialize, Serialize, Debug)]
#[serde(deny_unknown_fields)]
struct DrawingFile {
    map: String,
    width: f64,
    height: f64,
    #[serde(default)]
    land: Option<String>,
    #[serde(default)]
    water: Option<String>,
    provinces: BTreeMap<String, ShapeFile>,
}

#[derive(Deserialize, Serialize, Debug)]
#[serde(deny_unknown_fields)]
struct ShapeFile {
    unit: [f64; 2],
    label: [f64; 2],
    #[serde(default)]
    centre: Option<[f64; 2]>,
    #[serde(default)]
    coasts: BTreeMap<String, [f64; 2]>,
    outline: String,
}

/// A problem of a drawing or of a file the drawing is made from (code `DRAWING`).
pub fn problem(at: Pos, key: &str, message: String, hint: Option<&str>) -> MapProblem {
    MapProblem {
        line: at.line,
        column: at.column,
        key: key.to_string(),
        code: ProblemCode::Drawing,
        severity: Severity::Error,
        message,
        hint: hint.map(str::to_string),
    }
}

struct Checker<'a> {
    locations: &'a Locations,
    problems: Vec<MapProblem>,
    corners: usize,
}

impl Checker<'_> {
    fn add(&mut self, path: &str, message: String, hint: Option<&str>) {
        let at = self.locations.nearest(path);
        self.problems.push(problem(at, path, message, hint));
    }

    fn drawing(&mut self, f: &DrawingFile, map: &Map) -> Drawing {
        if f.map != map.name {
            self.add(
                "map",
                format!("the drawing is of map `{}`, not `{}`", f.map, map.name),
                Some("draw this map with `arbiter map draw`"),
            );
        }
        let size_ok = |v: f64| v.is_finite() && (1.0..=MAX_SIZE).contains(&v);
        for (key, v) in [("width", f.width), ("height", f.height)] {
            if !size_ok(v) {
                self.add(
                    key,
                    format!("{key} {v} is not a size between 1 and {MAX_SIZE}"),
                    None,
                );
            }
        }
        let (w, h) = (f.width, f.height);
        let land = self.rings("land", f.land.as_deref(), w, h);
        let water = self.rings("water", f.water.as_deref(), w, h);
        let mut provinces = Vec::with_capacity(map.provinces.len());
        let mut coasts = vec![(0.0, 0.0); map.coasts.len()];
        for (i, p) in map.provinces.iter().enumerate() {
            let key = join("provinces", &p.id);
            let Some(s) = f.provinces.get(&p.id) else {
                self.add(
                    "provinces",
                    format!("province `{}` has no shape", p.id),
                    Some("every province of the map needs one; `arbiter map draw` makes them"),
                );
                provinces.push(Shape {
                    rings: Vec::new(),
                    unit: (0.0, 0.0),
                    label: (0.0, 0.0),
                    centre: None,
                });
                continue;
            };
            let rings = self.rings(&join(&key, "outline"), Some(&s.outline), w, h);
            if rings.is_empty() {
                self.add(
                    &join(&key, "outline"),
                    format!("province `{}` has an empty outline", p.id),
                    None,
                );
            }
            let unit = self.point(&join(&key, "unit"), s.unit, w, h);
            let label = self.point(&join(&key, "label"), s.label, w, h);
            let centre = s.centre.map(|c| self.point(&join(&key, "centre"), c, w, h));
            for (name, at) in &s.coasts {
                let found = map.coasts.iter().position(|c| {
                    usize::from(c.province.0) == i && c.id.eq_ignore_ascii_case(name)
                });
                match found {
                    Some(ci) => {
                        let pt = self.point(&join(&join(&key, "coasts"), name), *at, w, h);
                        if let Some(slot) = coasts.get_mut(ci) {
                            *slot = pt;
                        }
                    }
                    None => self.add(
                        &join(&join(&key, "coasts"), name),
                        format!("`{}` has no named coast `{name}`", p.id),
                        None,
                    ),
                }
            }
            for c in map.coasts.iter().filter(|c| usize::from(c.province.0) == i) {
                if !s.coasts.keys().any(|n| n.eq_ignore_ascii_case(&c.id)) {
                    self.add(
                        &key,
                        format!("the named coast `{}/{}` has no point", p.id, c.id),
                        Some("add it under `coasts:`"),
                    );
                }
            }
            provinces.push(Shape {
                rings,
                unit,
                label,
                centre,
            });
        }
        for id in f.provinces.keys() {
            if !map.provinces.iter().any(|p| &p.id == id) {
                self.add(
                    &join("provinces", id),
                    format!("`{id}` is not a province of map `{}`", map.name),
                    None,
                );
            }
        }
        Drawing {
            width: w,
            height: h,
            provinces,
            coasts,
            land,
            water,
        }
    }

    fn point(&mut self, path: &str, [x, y]: [f64; 2], w: f64, h: f64) -> Point {
        if !(x.is_finite() && y.is_finite() && (0.0..=w).contains(&x) && (0.0..=h).contains(&y)) {
            self.add(
                path,
                format!("the point [{x}, {y}] is outside the picture ({w} by {h})"),
                None,
            );
        }
        (x, y)
    }

    fn rings(&mut self, path: &str, d: Option<&str>, w: f64, h: f64) -> Vec<Ring> {
        let Some(d) = d else { return Vec::new() };
        match parse_path(d) {
            Ok(rings) => {
                self.corners += rings.iter().map(Vec::len).sum::<usize>();
                if self.corners > MAX_CORNERS {
                    self.add(
                        path,
                        format!("more than {MAX_CORNERS} corners in the drawing"),
                        None,
                    );
                    return Vec::new();
                }
                let outside = rings
                    .iter()
                    .flatten()
                    .find(|&&(x, y)| !((0.0..=w).contains(&x) && (0.0..=h).contains(&y)));
                if let Some((x, y)) = outside {
                    self.add(
                        path,
                        format!("the corner [{x}, {y}] is outside the picture ({w} by {h})"),
                        None,
                    );
                }
                if let Some(r) = rings.iter().find(|r| r.len() < 3) {
                    self.add(
                        path,
                        format!("a ring with {} corners; a ring needs at least 3", r.len()),
                        None,
                    );
                }
                rings
            }
            Err(e) => {
                self.add(
                    path,
                    format!("bad path data: {e}"),
                    Some("write `M x y L x y … Z`"),
                );
                Vec::new()
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn the_streaming_reader_reads_a_drawing_as_serde_yaml_does() {
        for (name, text) in crate::yaml::repo_texts("maps", ".drawing.yaml") {
            crate::yaml::assert_readers_agree::<DrawingFile>(&text, &name);
        }
    }

    fn square(x: f64, y: f64) -> Ring {
        vec![(x, y), (x + 10.0, y), (x + 10.0, y + 10.0), (x, y + 10.0)]
    }

    fn tiny() -> (Map, Drawing) {
        let map = Map::standard();
        let n = map.provinces.len();
        let provinces = (0..n)
            .map(|i| {
                let x = (i % 10) as f64 * 20.0;
                let y = (i / 10) as f64 * 20.0;
                Shape {
                    rings: vec![square(x, y)],
                    unit: (x + 5.0, y + 5.0),
                    label: (x + 2.5, y + 2.5),
                    centre: map.provinces[i].supply.then_some((x + 8.0, y + 8.0)),
                }
            })
            .collect();
        let coasts = (0..map.coasts.len()).map(|i| (i as f64, 1.5)).collect();
        let d = Drawing {
            width: 300.0,
            height: 300.0,
            provinces,
            coasts,
            land: vec![square(250.0, 250.0)],
            water: Vec::new(),
        };
        (map, d)
    }

    #[test]
    fn a_drawing_reads_back_what_it_wrote() {
        let (map, d) = tiny();
        let text = d.to_yaml(&map, "test");
        let back = Drawing::from_yaml(&text, "t.drawing.yaml", &map).unwrap();
        assert_eq!(back, d);
        let spa_nc = map.loc_by_id("spa/nc").unwrap();
        let i = usize::from(spa_nc.0) - map.provinces.len();
        assert_eq!(back.point(spa_nc), d.coasts[i]);
    }

    #[test]
    fn problems_name_the_line_and_what_is_wrong() {
        let (map, d) = tiny();
        let text = d
            .to_yaml(&map, "")
            .replacen("  adr:\n", "  zzz:\n", 1)
            .replacen("spa:\n    unit: [", "spa:\n    unit: [9999", 1);
        let e = Drawing::from_yaml(&text, "t.drawing.yaml", &map).unwrap_err();
        let all = e.to_string();
        assert!(all.contains("province `adr` has no shape"), "{all}");
        assert!(all.contains("`zzz` is not a province"), "{all}");
        assert!(all.contains("outside the picture"), "{all}");
        let zzz = e
            .problems
            .iter()
            .find(|p| p.message.contains("zzz"))
            .unwrap();
        assert_eq!(text.lines().nth(zzz.line - 1).unwrap().trim(), "zzz:");
    }

    #[test]
    fn path_data_is_read_strictly() {
        assert_eq!(
            parse_path("M0 0L10,0 L10 10Z M 20 20 L 30 20 L 30 30 z")
                .unwrap()
                .len(),
            2
        );
        assert!(parse_path("M0 0 C1 1 2 2 3 3").unwrap_err().contains("`C`"));
        assert!(parse_path("M0 0 L1").unwrap_err().contains("odd"));
        assert!(parse_path("0 0").unwrap_err().contains("before any M"));
        assert!(parse_path("M0 0 L1e999 0").unwrap_err().contains("finite"));
    }
}
