//! The generator's inputs: a board's geography (`maps/NAME.geo.yaml`, [`GeoSpec`]) and
//! the coastlines it names ([`Land`], JSON `{"rings": [[[lon, lat], …], …]}`), read
//! with serde and checked against the map. Every problem is reported with its line.

use crate::map::locate::{join, Locations, Pos};
use crate::map::{Map, MapError};
use serde::Deserialize;
use std::collections::BTreeMap;

use super::project::{Kind, Magnify, Projection, MAX_FACTOR};
use super::Point;

/// The most corners a land file may have (bounds time and memory).
pub const MAX_LAND_POINTS: usize = 5_000_000;

/// The most seeds (points, extra seeds and filler) a geo spec may have.
pub const MAX_SEEDS: usize = 20_000;

/// A board's geography: where each province is, how the globe is projected, and the
/// picture's box.
#[derive(Debug)]
pub struct GeoSpec {
    /// The file it was read from (for messages).
    pub file: String,
    /// The land file named by `land:`, relative to the spec's folder.
    pub land: String,
    pub projection: Projection,
    /// Per province ([`crate::map::Prov`] index): its point and extra seeds, `[lat, lon]`.
    pub seeds: Vec<Vec<Point>>,
    /// Points of land or water that is no province, `[lat, lon]`.
    pub filler: Vec<Point>,
    /// Where things are written in the spec (for the generator's own problems).
    pub locations: Locations,
}

/// Coastlines: closed rings of `(lon, lat)` (even–odd: a ring inside another is a lake).
#[derive(Debug, Clone, PartialEq)]
pub struct Land {
    pub rings: Vec<Vec<Point>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct SpecFile {
    map: String,
    land: String,
    projection: ProjectionFile,
    bounds: BoundsFile,
    width: f64,
    provinces: BTreeMap<String, [f64; 2]>,
    #[serde(default)]
    seeds: BTreeMap<String, Vec<[f64; 2]>>,
    #[serde(default)]
    filler: Vec<[f64; 2]>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct ProjectionFile {
    kind: Kind,
    #[serde(default)]
    centre: Option<[f64; 2]>,
    #[serde(default)]
    magnify: Option<MagnifyFile>,
}

#[derive(Deserialize, Debug, Clone, Copy)]
#[serde(deny_unknown_fields)]
struct MagnifyFile {
    centre: [f64; 2],
    radius: f64,
    factor: f64,
}

#[derive(Deserialize, Debug, Clone, Copy)]
#[serde(deny_unknown_fields)]
struct BoundsFile {
    west: f64,
    east: f64,
    south: f64,
    north: f64,
}

#[derive(Deserialize, Debug)]
struct LandFile {
    rings: Vec<Vec<[f64; 2]>>,
}

/// A problem of a file the generator reads (code `DRAWING`).
pub use crate::map::drawing::problem;

fn lat_lon_ok([lat, lon]: [f64; 2]) -> bool {
    lat.is_finite()
        && lon.is_finite()
        && (-90.0..=90.0).contains(&lat)
        && (-180.0..=180.0).contains(&lon)
}

/// The projection the spec describes, fitted to its picture; `None` (with the
/// problems added) when its bounds, centre or width are wrong.
fn projection_of(
    parsed: &SpecFile,
    add: &mut impl FnMut(&str, String, Option<&str>),
) -> Option<Projection> {
    let b = parsed.bounds;
    let bounds_ok = lat_lon_ok([b.south, b.west])
        && lat_lon_ok([b.north, b.east])
        && b.west < b.east
        && b.south < b.north;
    if !bounds_ok {
        add(
            "bounds",
            format!(
                "bounds west {} east {} south {} north {} are not a box of the globe",
                b.west, b.east, b.south, b.north
            ),
            Some("degrees, west < east within -180..180, south < north within -90..90"),
        );
    }
    if parsed.projection.kind == Kind::Mercator && (b.south < -85.0 || b.north > 85.0) {
        add(
            "bounds",
            "a mercator picture must stay within 85 degrees of the equator".into(),
            None,
        );
    }
    let centre = parsed
        .projection
        .centre
        .unwrap_or([(b.south + b.north) / 2.0, (b.west + b.east) / 2.0]);
    if !lat_lon_ok(centre) {
        add(
            "projection.centre",
            format!("the centre {centre:?} is not [lat, lon] in degrees"),
            None,
        );
    }
    let size_ok = parsed.width.is_finite()
        && parsed.width >= 10.0
        && parsed.width <= crate::map::drawing::MAX_SIZE;
    if !size_ok {
        add(
            "width",
            format!(
                "width {} is not a size between 10 and {}",
                parsed.width,
                crate::map::drawing::MAX_SIZE
            ),
            None,
        );
    }
    let magnify = magnify_of(parsed.projection.magnify, add);
    if bounds_ok && size_ok && lat_lon_ok(centre) && magnify.is_ok() {
        let p = Projection::magnified(
            parsed.projection.kind,
            (centre[0], centre[1]),
            [b.west, b.east, b.south, b.north],
            parsed.width,
            magnify.ok().flatten(),
        );
        if let Some(p) = &p {
            if p.height > crate::map::drawing::MAX_SIZE {
                add(
                    "width",
                    format!("the picture would be {} units high", p.height.round()),
                    Some("make the width or the bounds smaller"),
                );
            }
        } else {
            add("bounds", "these bounds cannot be projected".into(), None);
        }
        p
    } else {
        None
    }
}

/// The magnifier the spec asks for; `Err` (with the problems added) when it is wrong.
fn magnify_of(
    file: Option<MagnifyFile>,
    add: &mut impl FnMut(&str, String, Option<&str>),
) -> Result<Option<Magnify>, ()> {
    let Some(m) = file else {
        return Ok(None);
    };
    let mut ok = true;
    if !lat_lon_ok(m.centre) {
        add(
            "projection.magnify.centre",
            format!("the centre {:?} is not [lat, lon] in degrees", m.centre),
            None,
        );
        ok = false;
    }
    if !(m.radius.is_finite() && m.radius > 0.0 && m.radius <= 180.0) {
        add(
            "projection.magnify.radius",
            format!("radius {} is not between 0 and 180 degrees", m.radius),
            None,
        );
        ok = false;
    }
    if !(m.factor.is_finite() && (1.0..=MAX_FACTOR).contains(&m.factor)) {
        add(
            "projection.magnify.factor",
            format!("factor {} is not between 1 and {MAX_FACTOR}", m.factor),
            Some("a larger factor would fold the ring around the lens over itself"),
        );
        ok = false;
    }
    if ok {
        Ok(Some(Magnify {
            centre: (m.centre[0], m.centre[1]),
            radius: m.radius,
            factor: m.factor,
        }))
    } else {
        Err(())
    }
}

impl GeoSpec {
    /// Read a geo spec of `map` from YAML text; `file` names it in the problems.
    pub fn from_yaml(src: &str, file: &str, map: &Map) -> Result<GeoSpec, MapError> {
        let fail = |problems| MapError {
            file: file.to_string(),
            problems,
            omitted: Default::default(),
        };
        let parsed: SpecFile = crate::yaml::from_str(src).map_err(|e| {
            let (line, column) = e.location().unwrap_or((0, 0));
            // A file of another kind (a link to a system file): said so, never quoted.
            let message = match crate::yaml::wrong_kind(&e, "SpecFile") {
                Some(found) => format!(
                    "`{file}` is not a geography file: line {line}, column {column}: it \
                     holds {found} (not shown), where a geography is a YAML mapping of \
                     `map`, `land`, `projection`, … (docs/MAPS.md, \"Drawing\")"
                ),
                None => e.to_string(),
            };
            fail(vec![problem(Pos { line, column }, "yaml", message, None)])
        })?;
        let locations = Locations::scan(src);
        let mut problems = Vec::new();
        let mut add = |path: &str, message: String, hint: Option<&str>| {
            problems.push(problem(locations.nearest(path), path, message, hint));
        };
        if parsed.map != map.name {
            add(
                "map",
                format!(
                    "the geography is of map `{}`, not `{}`",
                    parsed.map, map.name
                ),
                None,
            );
        }
        let projection = projection_of(&parsed, &mut add);
        let mut seeds: Vec<Vec<Point>> = vec![Vec::new(); map.provinces.len()];
        let mut count = parsed.filler.len();
        for (id, at) in &parsed.provinces {
            let path = join("provinces", id);
            match map.prov_by_id(id) {
                None => add(
                    &path,
                    format!("`{id}` is not a province of map `{}`", map.name),
                    None,
                ),
                Some(_) if !lat_lon_ok(*at) => {
                    add(&path, format!("{at:?} is not [lat, lon] in degrees"), None)
                }
                Some(p) => {
                    if let Some(s) = seeds.get_mut(usize::from(p.0)) {
                        s.insert(0, (at[0], at[1]));
                    }
                }
            }
        }
        for (id, list) in &parsed.seeds {
            let path = join("seeds", id);
            count += list.len();
            let Some(p) = map.prov_by_id(id) else {
                add(
                    &path,
                    format!("`{id}` is not a province of map `{}`", map.name),
                    None,
                );
                continue;
            };
            for (i, at) in list.iter().enumerate() {
                if lat_lon_ok(*at) {
                    if let Some(s) = seeds.get_mut(usize::from(p.0)) {
                        s.push((at[0], at[1]));
                    }
                } else {
                    add(
                        &join(&path, i),
                        format!("{at:?} is not [lat, lon] in degrees"),
                        None,
                    );
                }
            }
        }
        for (p, _) in map.provinces.iter().zip(&seeds).filter(|(p, _)| {
            !parsed
                .provinces
                .keys()
                .any(|k| k.eq_ignore_ascii_case(&p.id))
        }) {
            add(
                "provinces",
                format!("province `{}` has no point", p.id),
                Some("every province needs `ID: [lat, lon]`, a point inside it"),
            );
        }
        let mut filler = Vec::new();
        for (i, at) in parsed.filler.iter().enumerate() {
            if lat_lon_ok(*at) {
                filler.push((at[0], at[1]));
            } else {
                add(
                    &join("filler", i),
                    format!("{at:?} is not [lat, lon] in degrees"),
                    None,
                );
            }
        }
        if count + parsed.provinces.len() > MAX_SEEDS {
            add("seeds", format!("more than {MAX_SEEDS} points"), None);
        }
        match projection {
            Some(projection) if problems.is_empty() => Ok(GeoSpec {
                file: file.to_string(),
                land: parsed.land,
                projection,
                seeds,
                filler,
                locations,
            }),
            _ => {
                problems.sort_by_key(|p| (p.line, p.column));
                Err(fail(problems))
            }
        }
    }

    /// Where the entry at `path` is written (for a problem of the drawing).
    pub fn at(&self, path: &str) -> Pos {
        self.locations.nearest(path)
    }
}

impl Land {
    /// Read coastlines from JSON text (`{"rings": [[[lon, lat], …], …]}`; other keys,
    /// such as `source`, are ignored); `file` names it in the problems.
    pub fn from_json(src: &str, file: &str) -> Result<Land, MapError> {
        let fail = |message: String| MapError {
            file: file.to_string(),
            problems: vec![problem(Pos::default(), "rings", message, None)],
            omitted: Default::default(),
        };
        let parsed: LandFile = serde_json::from_str(src).map_err(|e| MapError {
            file: file.to_string(),
            problems: vec![problem(
                Pos {
                    line: e.line(),
                    column: e.column(),
                },
                "json",
                crate::yaml::capped(&e.to_string()),
                Some("write {\"rings\": [[[lon, lat], …], …]}"),
            )],
            omitted: Default::default(),
        })?;
        let total: usize = parsed.rings.iter().map(Vec::len).sum();
        if total > MAX_LAND_POINTS {
            return Err(fail(format!(
                "{total} corners; at most {MAX_LAND_POINTS} are read"
            )));
        }
        let mut rings = Vec::with_capacity(parsed.rings.len());
        for (i, ring) in parsed.rings.iter().enumerate() {
            if let Some(bad) = ring.iter().find(|&&[lon, lat]| !lat_lon_ok([lat, lon])) {
                return Err(fail(format!(
                    "ring {i}: {bad:?} is not [lon, lat] in degrees"
                )));
            }
            if ring.len() >= 3 {
                rings.push(ring.iter().map(|&[lon, lat]| (lon, lat)).collect());
            }
        }
        Ok(Land { rings })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn the_streaming_reader_reads_a_geography_as_serde_yaml_does() {
        for (name, text) in crate::yaml::repo_texts("maps", ".geo.yaml") {
            crate::yaml::assert_readers_agree::<SpecFile>(&text, &name);
        }
    }

    /// A geo spec of the standard board naming every province at a made-up point.
    pub fn full_spec(map: &Map) -> String {
        let mut s = String::from(
            "map: standard\nland: land.json\nprojection: {kind: equirectangular, centre: [50.0, 10.0]}\n\
             bounds: {west: 0.0, east: 20.0, south: 40.0, north: 60.0}\nwidth: 400\nprovinces:\n",
        );
        for (i, p) in map.provinces.iter().enumerate() {
            s.push_str(&format!(
                "  {}: [{}, {}]\n",
                p.id,
                41.0 + (i / 9) as f64 * 2.0,
                1.0 + (i % 9) as f64 * 2.0
            ));
        }
        s
    }

    #[test]
    fn a_spec_reads_and_names_each_problem_with_its_line() {
        let map = Map::standard();
        let good = full_spec(&map);
        let spec = GeoSpec::from_yaml(&good, "s.geo.yaml", &map).unwrap();
        assert_eq!(spec.seeds.len(), map.provinces.len());
        assert!(spec.seeds.iter().all(|s| s.len() == 1));
        assert_eq!(spec.projection.width, 400.0);

        let bad = good
            .replacen("  adr: [", "  zzz: [", 1)
            .replacen("  alb: [", "  alb: [95", 1)
            + "seeds:\n  nap: [[37.6, 14.1], [37.0, 999.0]]\n";
        let e = GeoSpec::from_yaml(&bad, "s.geo.yaml", &map).unwrap_err();
        let all = e.to_string();
        assert!(all.contains("`zzz` is not a province"), "{all}");
        assert!(all.contains("province `adr` has no point"), "{all}");
        assert!(all.contains("[9541.0"), "{all}");
        assert!(all.contains("[37.0, 999.0] is not"), "{all}");
        let zzz = e
            .problems
            .iter()
            .find(|p| p.message.contains("zzz"))
            .unwrap();
        assert_eq!(
            bad.lines().nth(zzz.line - 1).unwrap().trim_start().get(..4),
            Some("zzz:")
        );
    }

    #[test]
    fn bad_bounds_and_sizes_are_refused() {
        let map = Map::standard();
        let bad = full_spec(&map)
            .replace("west: 0.0, east: 20.0", "west: 30.0, east: 20.0")
            .replace("width: 400", "width: -3");
        let all = GeoSpec::from_yaml(&bad, "s", &map).unwrap_err().to_string();
        assert!(all.contains("not a box of the globe"), "{all}");
        assert!(all.contains("width -3"), "{all}");
        let bad = full_spec(&map).replace("kind: equirectangular", "kind: conic");
        assert!(GeoSpec::from_yaml(&bad, "s", &map).is_err());
        let lens = |m: &str| {
            full_spec(&map).replace(
                "centre: [50.0, 10.0]}",
                &format!("centre: [50.0, 10.0], magnify: {m}}}"),
            )
        };
        let good = lens("{centre: [50.0, 10.0], radius: 5.0, factor: 2.0}");
        assert!(GeoSpec::from_yaml(&good, "s", &map).is_ok(), "{good}");
        let bad = lens("{centre: [95.0, 10.0], radius: 0.0, factor: 4.0}");
        let all = GeoSpec::from_yaml(&bad, "s", &map).unwrap_err().to_string();
        assert!(all.contains("factor 4 is not between 1 and 3"), "{all}");
        assert!(all.contains("radius 0 is not"), "{all}");
        assert!(all.contains("[95.0, 10.0] is not"), "{all}");
    }

    #[test]
    fn land_reads_rings_and_refuses_bad_numbers() {
        let land = Land::from_json(
            r#"{"source": "test", "rings": [[[0,0],[1,0],[1,1]], [[5,5]]]}"#,
            "l.json",
        )
        .unwrap();
        assert_eq!(land.rings.len(), 1);
        let e = Land::from_json(r#"{"rings": [[[0,0],[1,200],[1,1]]]}"#, "l.json").unwrap_err();
        assert!(e.to_string().contains("[1.0, 200.0]"), "{e}");
        let e = Land::from_json("{\"rings\": [[[0,0]],\n]}", "l.json").unwrap_err();
        assert_eq!(e.problems[0].line, 2);
    }
}
