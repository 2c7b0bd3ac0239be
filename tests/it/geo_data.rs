//! The geography facts the board drawings are generated from (`maps/NAME.geo.yaml`, read
//! by `arbiter map draw`): every province of each shipped board has exactly one point,
//! seeds name only its provinces, every point lies inside the picture (the projected
//! extent of `bounds`), and land
//! points (land, coast, impassable) fall on land while sea points fall in water, tested
//! against the committed coastlines (`maps/geo/*.json`) in longitude/latitude with the
//! even-odd rule over all rings. A point may stand on the wrong side of a coast only where
//! its line in the YAML says so with a comment containing `wrong side` and the reason.

use std::collections::{BTreeMap, BTreeSet};

use arbiter::map::{Map, Terrain};

type LatLon = [f64; 2];

#[derive(serde::Deserialize)]
struct Bounds {
    west: f64,
    east: f64,
    south: f64,
    north: f64,
}

#[derive(serde::Deserialize)]
struct Projection {
    kind: String,
    #[serde(default)]
    centre: Option<LatLon>,
}

#[derive(serde::Deserialize)]
struct Geo {
    map: String,
    land: String,
    projection: Projection,
    bounds: Bounds,
    width: f64,
    provinces: BTreeMap<String, LatLon>,
    #[serde(default)]
    seeds: BTreeMap<String, Vec<LatLon>>,
    #[serde(default)]
    filler: Vec<LatLon>,
}

#[derive(serde::Deserialize)]
struct Land {
    source: String,
    rings: Vec<Vec<[f64; 2]>>,
}

fn read(rel: &str) -> String {
    let path = format!("{}/maps/{rel}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Even-odd point in polygon over every ring; rings are `[lon, lat]`, closed implicitly.
fn on_land(rings: &[Vec<[f64; 2]>], [lat, lon]: LatLon) -> bool {
    let mut inside = false;
    for ring in rings {
        let mut j = ring.len() - 1;
        for i in 0..ring.len() {
            let [xi, yi] = ring[i];
            let [xj, yj] = ring[j];
            if (yi > lat) != (yj > lat) && lon < (xj - xi) * (lat - yi) / (yj - yi) + xi {
                inside = !inside;
            }
            j = i;
        }
    }
    inside
}

/// Projects [lat, lon] (degrees) to plane (x east, y north), as docs/MAPS.md describes the
/// kinds: Lambert azimuthal equal-area about `centre`, equirectangular with `centre`'s
/// latitude as standard parallel, mercator.
fn project(p: &Projection, [lat, lon]: LatLon) -> (f64, f64) {
    let [lat0, lon0] = p.centre.unwrap_or([0.0, 0.0]);
    let (phi, lam) = (lat.to_radians(), (lon - lon0).to_radians());
    match p.kind.as_str() {
        "azimuthal" => {
            let phi0 = lat0.to_radians();
            let k =
                (2.0 / (1.0 + phi0.sin() * phi.sin() + phi0.cos() * phi.cos() * lam.cos())).sqrt();
            (
                k * phi.cos() * lam.sin(),
                k * (phi0.cos() * phi.sin() - phi0.sin() * phi.cos() * lam.cos()),
            )
        }
        "equirectangular" => (lam * lat0.to_radians().cos(), phi),
        "mercator" => (lam, (std::f64::consts::FRAC_PI_4 + phi / 2.0).tan().ln()),
        other => panic!("unknown projection {other}"),
    }
}

/// The picture: the projected extent of the bounds' outline (x0, x1, y0, y1).
fn picture(p: &Projection, b: &Bounds) -> (f64, f64, f64, f64) {
    let mut ext = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for i in 0..=100 {
        let t = f64::from(i) / 100.0;
        let lat = b.south + t * (b.north - b.south);
        let lon = b.west + t * (b.east - b.west);
        for ll in [[lat, b.west], [lat, b.east], [b.south, lon], [b.north, lon]] {
            let (x, y) = project(p, ll);
            ext = (ext.0.min(x), ext.1.max(x), ext.2.min(y), ext.3.max(y));
        }
    }
    ext
}

/// Ids whose line in the `provinces:` or `seeds:` section carries a `wrong side` comment.
fn excused(text: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let (mut points, mut seeds) = (BTreeSet::new(), BTreeSet::new());
    let mut section = "";
    for line in text.lines() {
        if !line.starts_with(' ') && !line.starts_with('#') {
            section = line.split(':').next().unwrap_or("");
            continue;
        }
        let Some((entry, comment)) = line.split_once('#') else {
            continue;
        };
        let id = entry.trim().split(':').next().unwrap_or("").to_string();
        if id.is_empty() || !comment.contains("wrong side") {
            continue;
        }
        match section {
            "provinces" => points.insert(id),
            "seeds" => seeds.insert(id),
            _ => false,
        };
    }
    (points, seeds)
}

fn check(name: &str) {
    let text = read(&format!("{name}.geo.yaml"));
    let geo: Geo = serde_yaml::from_str(&text).unwrap();
    assert_eq!(geo.map, name);
    assert!(geo.width >= 800.0, "{name}: width {}", geo.width);
    let b = &geo.bounds;
    assert!(b.west < b.east && b.south < b.north, "{name}: bounds");
    let (x0, x1, y0, y1) = picture(&geo.projection, b);
    let in_picture = |ll: LatLon| {
        let (x, y) = project(&geo.projection, ll);
        (x0..=x1).contains(&x) && (y0..=y1).contains(&y)
    };
    let land: Land = serde_json::from_str(&read(&geo.land)).unwrap();
    assert!(land.source.contains("Natural Earth"), "{}", land.source);
    assert!(!land.rings.is_empty());
    let map = Map::embedded(name).unwrap();

    // Exactly one point per province (a YAML mapping has unique keys; none missing, none
    // unknown), seeds only of provinces.
    let ids: BTreeSet<String> = map.provs().map(|p| map.province(p).id.clone()).collect();
    let pointed: BTreeSet<String> = geo.provinces.keys().cloned().collect();
    assert_eq!(
        ids.difference(&pointed).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "{name}: provinces without a point"
    );
    assert_eq!(
        pointed.difference(&ids).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "{name}: points of no province"
    );
    for id in geo.seeds.keys() {
        assert!(ids.contains(id), "{name}: seeds of unknown province {id}");
    }

    let (excused_points, excused_seeds) = excused(&text);
    let mut wrong = Vec::new();
    let mut outside = Vec::new();
    let mut all = Vec::new();
    for p in map.provs() {
        let id = &map.province(p).id;
        let sea = map.terrain(p) == Terrain::Sea;
        all.push((id, sea, geo.provinces[id], false));
        for &s in geo.seeds.get(id).into_iter().flatten() {
            all.push((id, sea, s, true));
        }
    }
    for (id, sea, ll, seed) in all {
        if !in_picture(ll) {
            outside.push(format!("{id} {ll:?}"));
        }
        let excuse = if seed {
            &excused_seeds
        } else {
            &excused_points
        };
        if on_land(&land.rings, ll) == sea && !excuse.contains(id) {
            let what = if seed { "seed" } else { "point" };
            let side = if sea { "on land" } else { "in water" };
            wrong.push(format!("{what} {id} {ll:?} {side}"));
        }
    }
    for &ll in &geo.filler {
        if !in_picture(ll) {
            outside.push(format!("filler {ll:?}"));
        }
    }
    assert_eq!(outside, Vec::<String>::new(), "{name}: outside the bounds");
    assert_eq!(
        wrong,
        Vec::<String>::new(),
        "{name}: wrong side of the coast"
    );
}

#[test]
fn standard_points_sit_in_their_provinces() {
    check("standard");
}

#[test]
fn classic1913_points_sit_in_their_provinces() {
    check("classic1913");
}

#[test]
fn world1914_points_sit_in_their_provinces() {
    check("world1914");
}

#[test]
fn point_in_polygon_is_even_odd() {
    // A square with a square hole: inside the ring, in the hole, outside.
    let outer = vec![[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]];
    let hole = vec![[4.0, 4.0], [6.0, 4.0], [6.0, 6.0], [4.0, 6.0]];
    let rings = vec![outer, hole];
    assert!(on_land(&rings, [2.0, 2.0]));
    assert!(!on_land(&rings, [5.0, 5.0]));
    assert!(!on_land(&rings, [5.0, 12.0]));
    assert!(!on_land(&rings, [-1.0, 5.0]));
}

#[test]
fn wrong_side_comments_excuse_only_their_section() {
    let text = "map: x\nprovinces:\n  aaa: [1.0, 2.0]   # A (wrong side: no island at this scale)\n  bbb: [1.0, 2.0] # B\nseeds:\n  ccc: [[1.0, 2.0]]  # wrong side: a reason\n";
    let (points, seeds) = excused(text);
    assert_eq!(points, BTreeSet::from(["aaa".to_string()]));
    assert_eq!(seeds, BTreeSet::from(["ccc".to_string()]));
}
