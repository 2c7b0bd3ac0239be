//! Pictures of the board, with the phase's orders and their outcomes, as SVG and as a
//! PNG rasterised in-process (resvg, with an embedded font, so no system font or
//! external program is needed). Two views: the board (`board`: the map's
//! [`Drawing`](crate::map::drawing::Drawing), provinces filled by owner, as a table
//! expects), drawn when the map has a drawing; and the graph (`graph`: provinces as
//! nodes placed from their `at` positions, joined by every adjacency), drawn for a map
//! without one or when [`Scene::graph`] asks for it. Both draw the units and orders by
//! the same code (`overlay`) from a [`Layout`]'s points.
//!
//! [`layout`] places every location of a map once for the graph (scaled to the map's
//! density, and nudged apart where the source's positions crowd together; a map too
//! wide for that is evened out first); [`frame`] fits a drawing to the picture; [`svg`]
//! draws a [`Scene`]; [`png`] rasterises the SVG. No I/O: the caller writes the bytes.

// Drawing indexes the layout's point tables by the map's dense ids (one entry per
// location / province, built by `layout` from the same map) and by positions in
// vectors built here; a scene's position and orders are of that map (checked by
// `game::check_ids` when judged). An out-of-range index is a bug, not input.
#![allow(clippy::indexing_slicing)]

mod board;
pub mod gif;
mod graph;
mod labels;
mod legend;
mod overlay;
pub mod page;
mod svg;

pub use board::{frame, Frame, BOARD_LAND, BOARD_SEA};
pub use labels::{text_width, Rect};
pub use svg::{
    centre_tint, occupied_tint, power_colour, problem_province, svg, CENTRE_R, SYMBOL, UNIT,
};

use crate::game::PhaseResult;
use crate::map::{Loc, Map, Prov};
use crate::state::Position;

/// What to draw: a position, and optionally what a phase decided from it.
#[derive(Clone, Debug)]
pub struct Scene<'a> {
    /// The position the phase started from (units, owners, dislodged units).
    pub position: &'a Position,
    /// The phase judged from `position`: orders drawn as arrows with their outcomes,
    /// units dislodged, built and removed.
    pub result: Option<&'a PhaseResult>,
    /// The picture's title (`Spring 1901 movement: demo`).
    pub title: String,
    /// Problems to highlight (`map show --svg`): rings on the provinces named, and
    /// the list in the legend.
    pub problems: Vec<Problem>,
    /// Draw no units, centres owners or orders: the bare board (`map show --svg`).
    pub bare: bool,
    /// Draw the map's graph (provinces as nodes joined by their adjacencies) even
    /// when the map has a drawing; a map without a drawing is always drawn so.
    pub graph: bool,
}

/// One problem to highlight: the province it is about (if any) and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub prov: Option<Prov>,
    pub text: String,
}

/// Where everything of a map is drawn, in SVG user units (pixels at scale 1).
#[derive(Clone, Debug)]
pub struct Layout {
    /// Per location (provinces, then named coasts): its point.
    pub points: Vec<(f64, f64)>,
    /// Width and height of the board (the legend goes below it).
    pub width: f64,
    pub height: f64,
}

impl Layout {
    /// The point of a location: where a unit there is drawn.
    pub fn point(&self, l: Loc) -> (f64, f64) {
        self.points[l.0 as usize]
    }

    /// The centre of a supply centre's marker in province `p`.
    pub fn centre_marker(&self, p: Prov) -> (f64, f64) {
        let (x, y) = self.point(p.into());
        (x + svg::CENTRE_DX * UNIT, y + svg::CENTRE_DY * UNIT)
    }
}

/// The largest board width the layout scales to (about A2 at a readable size): a
/// map that would be wider is evened out ([`Warp`]) and its crowded parts pushed
/// apart.
const MAX_WIDTH: f64 = 2400.0;

/// Place every location of `map`: the `at` positions scaled so that neighbours are
/// a few unit symbols apart, crowded points pushed apart, locations without a
/// position placed in a row below (or, when no location has one, on a circle).
pub fn layout(map: &Map) -> Layout {
    let np = map.province_count();
    let nl = np + map.coasts.len();
    let mut given: Vec<Option<(f64, f64)>> = map
        .locs()
        .map(|l| {
            let at = match map.coast(l) {
                Some(c) => c.at,
                None => map.province(map.prov_of(l)).at,
            };
            at.map(|(x, y)| (f64::from(x), f64::from(y)))
        })
        .collect();
    let mut pts: Vec<(f64, f64)> = vec![(0.0, 0.0); nl];
    let mut placed: Vec<(f64, f64)> = given.iter().flatten().copied().collect();
    // A map whose positions crowd in one part (world1914's Europe) and leave others
    // empty (its oceans) is evened out first, when a plain scale would not fit.
    let crowded = !placed.is_empty() && plain_width(&placed) > MAX_WIDTH;
    if crowded {
        let (wx, wy) = (Warp::new(&placed, |p| p.0), Warp::new(&placed, |p| p.1));
        let even = |(x, y): (f64, f64)| (wx.at(x), wy.at(y));
        for g in given.iter_mut().flatten() {
            *g = even(*g);
        }
        placed = placed.into_iter().map(even).collect();
    }
    if placed.is_empty() {
        // A circle of provinces, coasts beside their province.
        let r = (np as f64 * 5.0 * UNIT / std::f64::consts::TAU).max(8.0 * UNIT);
        for (i, pt) in pts.iter_mut().enumerate().take(np) {
            let a = i as f64 / np as f64 * std::f64::consts::TAU - std::f64::consts::FRAC_PI_2;
            *pt = (r + r * a.cos(), r + r * a.sin());
        }
    } else {
        let d = nearest_distances(&placed);
        let d10 = d.get(d.len() / 10).copied().unwrap_or(1.0).max(1.0);
        let (minx, maxx) = span(placed.iter().map(|p| p.0));
        let (miny, maxy) = span(placed.iter().map(|p| p.1));
        let mut scale = (4.6 * UNIT / d10).clamp(0.25, 6.0);
        if (maxx - minx) * scale > MAX_WIDTH {
            scale = (MAX_WIDTH / (maxx - minx)).max(0.25);
        }
        let mut missing = 0.0;
        for l in 0..np {
            pts[l] = match given[l] {
                Some((x, y)) => ((x - minx) * scale, (y - miny) * scale),
                None => {
                    missing += 1.0;
                    (missing * 4.0 * UNIT, (maxy - miny) * scale + 4.0 * UNIT)
                }
            };
        }
        for l in np..nl {
            pts[l] = match given[l] {
                Some((x, y)) => ((x - minx) * scale, (y - miny) * scale),
                None => (0.0, 0.0),
            };
        }
    }
    // Named coasts without a position of their own go round their province.
    for (i, c) in map.coasts.iter().enumerate() {
        let l = np + i;
        if given[l].is_none() || placed.is_empty() {
            let (px, py) = pts[c.province.0 as usize];
            let k = map.province(c.province).coasts.len().max(1) as f64;
            let j = map
                .province(c.province)
                .coasts
                .iter()
                .position(|&x| x.0 as usize == l)
                .unwrap_or(0) as f64;
            let a = j / k * std::f64::consts::TAU - std::f64::consts::FRAC_PI_2;
            pts[l] = (px + 3.0 * UNIT * a.cos(), py + 3.0 * UNIT * a.sin());
        }
    }
    // Crowded maps are pushed further apart: their labels need the room.
    relax(&mut pts, if crowded { 4.6 } else { 3.6 } * UNIT, 600);
    let (minx, maxx) = span(pts.iter().map(|p| p.0));
    let (miny, maxy) = span(pts.iter().map(|p| p.1));
    let margin = 4.0 * UNIT;
    for p in pts.iter_mut() {
        p.0 = round(p.0 - minx + margin);
        p.1 = round(p.1 - miny + margin);
    }
    Layout {
        points: pts,
        width: round(maxx - minx + 2.0 * margin),
        height: round(maxy - miny + 2.0 * margin),
    }
}

/// How wide a plain scale would draw `placed` (neighbours a few symbols apart).
fn plain_width(placed: &[(f64, f64)]) -> f64 {
    let d = nearest_distances(placed);
    let d10 = d.get(d.len() / 10).copied().unwrap_or(1.0).max(1.0);
    let (minx, maxx) = span(placed.iter().map(|p| p.0));
    (maxx - minx) * (4.6 * UNIT / d10).clamp(0.25, 6.0)
}

/// A monotone map of one coordinate that spreads where the points crowd and
/// squeezes where they are sparse: half a plain scale, half the points' (smoothed)
/// distribution. Order along the axis is kept, so the board keeps its geography.
struct Warp {
    sorted: Vec<f64>,
    lo: f64,
    hi: f64,
    h: f64,
}

impl Warp {
    /// How much of the distribution is mixed in.
    const EVEN: f64 = 0.55;

    fn new(pts: &[(f64, f64)], f: impl Fn(&(f64, f64)) -> f64) -> Warp {
        let mut sorted: Vec<f64> = pts.iter().map(f).collect();
        sorted.sort_by(f64::total_cmp);
        let (lo, hi) = (sorted[0], sorted[sorted.len() - 1]);
        Warp {
            lo,
            hi,
            h: ((hi - lo) * 0.04).max(1e-6),
            sorted,
        }
    }

    fn at(&self, x: f64) -> f64 {
        let range = (self.hi - self.lo).max(1e-6);
        // The share of points below x, each spread over a ramp of width 2h.
        let cdf = self
            .sorted
            .iter()
            .map(|&v| ((x - v) / (2.0 * self.h) + 0.5).clamp(0.0, 1.0))
            .sum::<f64>()
            / self.sorted.len() as f64;
        self.lo + range * ((1.0 - Self::EVEN) * (x - self.lo) / range + Self::EVEN * cdf)
    }
}

fn round(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn span(it: impl Iterator<Item = f64>) -> (f64, f64) {
    it.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
        (a.min(x), b.max(x))
    })
}

/// Each point's distance to its nearest other point, sorted.
pub(super) fn nearest_distances(pts: &[(f64, f64)]) -> Vec<f64> {
    let mut d: Vec<f64> = pts
        .iter()
        .enumerate()
        .map(|(i, a)| {
            pts.iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, b)| dist(*a, *b))
                .fold(f64::INFINITY, f64::min)
        })
        .filter(|d| d.is_finite())
        .collect();
    d.sort_by(f64::total_cmp);
    d
}

pub(crate) fn dist(a: (f64, f64), b: (f64, f64)) -> f64 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

/// Push apart every two points closer than `min`, a few rounds (deterministic: each
/// round computes every push from the same state, then applies them).
fn relax(pts: &mut [(f64, f64)], min: f64, rounds: usize) {
    for _ in 0..rounds {
        let mut moves = vec![(0.0, 0.0); pts.len()];
        let mut any = false;
        for i in 0..pts.len() {
            for j in i + 1..pts.len() {
                let (dx, dy) = (pts[j].0 - pts[i].0, pts[j].1 - pts[i].1);
                let d = (dx * dx + dy * dy).sqrt();
                if d >= min {
                    continue;
                }
                any = true;
                let (ux, uy) = if d < 1e-6 {
                    let a = (i * 7 + j * 13) as f64;
                    (a.cos(), a.sin())
                } else {
                    (dx / d, dy / d)
                };
                let push = (min - d) / 2.0 * 0.8;
                moves[i].0 -= ux * push;
                moves[i].1 -= uy * push;
                moves[j].0 += ux * push;
                moves[j].1 += uy * push;
            }
        }
        if !any {
            break;
        }
        for (p, m) in pts.iter_mut().zip(&moves) {
            p.0 += m.0;
            p.1 += m.1;
        }
    }
}

/// The font the pictures are drawn with, embedded so a PNG needs no system font.
pub const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// The family name of [`FONT`].
pub const FONT_FAMILY: &str = "DejaVu Sans";

/// The SVG could not be rasterised.
#[derive(Debug, thiserror::Error)]
pub enum RasterError {
    #[error("the SVG cannot be read: {0}")]
    Svg(String),
    #[error("the picture is too large to rasterise ({0} x {1} pixels)")]
    Size(u32, u32),
    #[error("cannot encode the PNG: {0}")]
    Encode(String),
    #[error("a PNG is 100 to 8000 pixels wide, not {0}")]
    Width(u32),
}

/// A rasterised picture (RGBA, premultiplied).
pub type RasterPixmap = resvg::tiny_skia::Pixmap;

/// Rasterise an SVG (at 1 pixel per user unit) with the embedded font.
pub fn raster(svg: &str) -> Result<RasterPixmap, RasterError> {
    let tree = svg_tree(svg)?;
    let size = tree.size().to_int_size();
    raster_tree(&tree, size.width(), size.height(), 1.0)
}

/// Rasterise an SVG `width` pixels wide (`None`: as wide as [`PNG_WIDTH`] says), its
/// height in proportion: the picture a GIF frame is made from.
pub fn raster_width(svg: &str, width: Option<u32>) -> Result<RasterPixmap, RasterError> {
    let tree = svg_tree(svg)?;
    let (w, h, k) = fitted(&tree, width);
    raster_tree(&tree, w, h, k)
}

/// The most pixels a picture drawn at its default width has (8000 by 2000): a taller
/// picture (a map whose positions reach far north and south) is drawn narrower, so that
/// its size follows the drawing's proportions, not its extent.
const DEFAULT_MAX_PIXELS: f32 = 16_000_000.0;

/// The size of `tree`'s picture `width` pixels wide (`None`: as wide as [`PNG_WIDTH`]
/// says, narrower if it would pass [`DEFAULT_MAX_PIXELS`]), its height in proportion,
/// and the scale that gives it.
fn fitted(tree: &resvg::usvg::Tree, width: Option<u32>) -> (u32, u32, f32) {
    let (w, h) = (tree.size().width(), tree.size().height());
    let width = width.unwrap_or_else(|| {
        let wide = (0.8 * w).max(PNG_WIDTH as f32);
        let fits = (DEFAULT_MAX_PIXELS * w.max(1.0) / h.max(1.0)).sqrt();
        wide.min(fits).round().max(1.0) as u32
    });
    let k = width as f32 / w.max(1.0);
    // Rounded down, so that a picture with a background covers every pixel.
    let height = (h * k).floor().clamp(1.0, 1e9) as u32;
    (width, height, k)
}

/// The SVG read with the embedded font.
fn svg_tree(svg: &str) -> Result<resvg::usvg::Tree, RasterError> {
    let mut opt = resvg::usvg::Options {
        font_family: FONT_FAMILY.to_string(),
        ..Default::default()
    };
    opt.fontdb_mut().load_font_data(FONT.to_vec());
    resvg::usvg::Tree::from_str(svg, &opt).map_err(|e| RasterError::Svg(e.to_string()))
}

/// The most pixels a picture may have.
const MAX_PIXELS: u64 = 100_000_000;

/// Draw `tree` scaled by `k` into a `w` by `h` picture (at most [`MAX_PIXELS`]).
fn raster_tree(
    tree: &resvg::usvg::Tree,
    w: u32,
    h: u32,
    k: f32,
) -> Result<RasterPixmap, RasterError> {
    if u64::from(w) * u64::from(h) > MAX_PIXELS {
        return Err(RasterError::Size(w, h));
    }
    let mut pixmap = resvg::tiny_skia::Pixmap::new(w, h).ok_or(RasterError::Size(w, h))?;
    resvg::render(
        tree,
        resvg::tiny_skia::Transform::from_scale(k, k),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// Rasterise an SVG to PNG bytes at its own size (1 pixel per user unit): the
/// printable page, which is drawn at its size in pixels.
pub fn png(svg: &str) -> Result<Vec<u8>, RasterError> {
    let tree = svg_tree(svg)?;
    let size = tree.size().to_int_size();
    encode_tree(&tree, size.width(), size.height(), 1.0)
}

/// How wide a board's PNG is when no width is asked for: about a screen's width, or
/// four fifths of the SVG's width when that is more (a dense board such as world1914
/// is drawn wider, and shrunk to 1600 pixels its labels would not read). The SVG is
/// drawn at the size its symbols need; its PNG is that picture scaled.
pub const PNG_WIDTH: u32 = 1600;

/// The widths a PNG may be asked for (a picture wider than this is not one to print
/// or send).
pub const PNG_WIDTHS: std::ops::RangeInclusive<u32> = 100..=8000;

/// Rasterise an SVG to PNG bytes `width` pixels wide (one of [`PNG_WIDTHS`]; `None`: as
/// wide as [`PNG_WIDTH`] says), its height in proportion.
pub fn png_width(svg: &str, width: Option<u32>) -> Result<Vec<u8>, RasterError> {
    if let Some(w) = width.filter(|w| !PNG_WIDTHS.contains(w)) {
        return Err(RasterError::Width(w));
    }
    let tree = svg_tree(svg)?;
    let (w, h, k) = fitted(&tree, width);
    encode_tree(&tree, w, h, k)
}

/// A picture of at most this many pixels is drawn and encoded whole: every board's
/// picture at the default width but world1914's (classic 1600 x 1459), and the
/// printable page (1240 x 1754).
const WHOLE_PIXELS: u64 = 2_500_000;

/// The pixels of one band of rows a larger picture is drawn and encoded in (2 MB as
/// RGBA). A band is drawn with every layer the picture needs (the board's clip, a failed
/// order's opacity), each the band's size: world1914 at its default width peaked at 67 MB
/// drawn whole, 60 in bands of a million pixels, about 40 in these, and each band costs
/// a pass over the whole drawing (at 8000 pixels wide, 5.6 s in bands of a million
/// pixels, 7.3 s in bands of a quarter million, 1.6 s whole but at 509 MB).
const BAND_PIXELS: u64 = 1 << 19;

/// `tree` scaled by `k` as PNG bytes of `w` by `h` pixels (at most [`MAX_PIXELS`]):
/// RGB when every pixel is opaque, else RGBA; deflate level 2 with adaptive filters
/// (about half the time of the default level 6, for files about 2 % larger; on the
/// classic board's picture the encoding took two thirds of the time at level 6).
///
/// A picture past [`WHOLE_PIXELS`] is drawn and encoded a band of rows at a time, so that
/// what is held is a band and the compressed file, not the whole picture twice (a PNG
/// 8000 pixels wide of the world board took 509 MB). A band is drawn with the picture
/// moved up by its first row: the same picture, but for the anti-aliasing of a few edge
/// pixels. The bands are first encoded as RGB; if one is not opaque, the picture is
/// drawn again as RGBA.
fn encode_tree(tree: &resvg::usvg::Tree, w: u32, h: u32, k: f32) -> Result<Vec<u8>, RasterError> {
    if u64::from(w) * u64::from(h) > MAX_PIXELS {
        return Err(RasterError::Size(w, h));
    }
    match encode_bands(tree, w, h, k, png::ColorType::Rgb)? {
        Some(bytes) => Ok(bytes),
        None => encode_bands(tree, w, h, k, png::ColorType::Rgba)?.ok_or(RasterError::Size(w, h)),
    }
}

/// [`encode_tree`] in one colour type: `None` when it is RGB and a pixel is not opaque.
fn encode_bands(
    tree: &resvg::usvg::Tree,
    w: u32,
    h: u32,
    k: f32,
    color: png::ColorType,
) -> Result<Option<Vec<u8>>, RasterError> {
    use std::io::Write;
    let encode = |e: png::EncodingError| RasterError::Encode(e.to_string());
    let io = |e: std::io::Error| RasterError::Encode(e.to_string());
    let pixels = u64::from(w) * u64::from(h);
    let rows = if pixels <= WHOLE_PIXELS {
        h
    } else {
        u32::try_from(BAND_PIXELS / u64::from(w.max(1))).unwrap_or(h)
    }
    .clamp(1, h.max(1));
    let mut band = resvg::tiny_skia::Pixmap::new(w, rows).ok_or(RasterError::Size(w, h))?;
    let rgb = color == png::ColorType::Rgb;
    let mut data = Vec::with_capacity(band.data().len());
    let mut out = Vec::new();
    let mut e = png::Encoder::new(&mut out, w, h);
    e.set_color(color);
    e.set_depth(png::BitDepth::Eight);
    e.set_deflate_compression(png::DeflateCompression::Level(2));
    e.set_filter(png::Filter::Adaptive);
    let mut writer = e.write_header().map_err(encode)?;
    let mut stream = writer.stream_writer().map_err(encode)?;
    let mut y = 0;
    while y < h {
        let n = rows.min(h - y);
        band.fill(resvg::tiny_skia::Color::TRANSPARENT);
        let place = resvg::tiny_skia::Transform::from_scale(k, k).post_translate(0.0, -(y as f32));
        resvg::render(tree, place, &mut band.as_mut());
        data.clear();
        let pixels = band.pixels();
        for p in pixels.get(..(n as usize) * (w as usize)).unwrap_or(pixels) {
            if rgb {
                if p.alpha() != u8::MAX {
                    return Ok(None);
                }
                data.extend_from_slice(&[p.red(), p.green(), p.blue()]);
            } else {
                let c = p.demultiply();
                data.extend_from_slice(&[c.red(), c.green(), c.blue(), c.alpha()]);
            }
        }
        stream.write_all(&data).map_err(io)?;
        y += n;
    }
    stream.finish().map_err(encode)?;
    writer.finish().map_err(encode)?;
    Ok(Some(out))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod band_tests {
    use super::*;

    /// Shapes, a line and text across the bands' edges; `background` or transparent.
    fn picture(background: bool) -> String {
        let fill = if background {
            r##"<rect width="1500" height="900" fill="#e8e0c8"/>"##
        } else {
            ""
        };
        format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="1500" height="900">{fill}<circle cx="700" cy="350" r="300" fill="#3a6" fill-opacity="0.7"/><path d="M10 20 L1490 880" stroke="#000" stroke-width="3"/><text x="100" y="349" font-size="40">Burgundy</text></svg>"##
        )
    }

    #[test]
    fn a_png_drawn_in_bands_is_the_picture_drawn_whole_but_for_a_few_edge_pixels() {
        // 3000 pixels wide: bands of 349 rows, the last one short.
        for background in [true, false] {
            let svg = picture(background);
            let whole = raster_width(&svg, Some(3000)).unwrap();
            assert_eq!((whole.width(), whole.height()), (3000, 1800));
            let png = png_width(&svg, Some(3000)).unwrap();
            // Colour type: RGB (2) when opaque, else RGBA (6).
            assert_eq!(png[25], if background { 2 } else { 6 });
            let back = RasterPixmap::decode_png(&png).unwrap();
            if background {
                // The same picture: a band is drawn with the picture moved, so a few
                // edge pixels are anti-aliased a little otherwise (here 0.02 % of the
                // values, by at most 44 of 255), and nothing else changes.
                let values = back.data().len();
                let mut differ = 0;
                for (a, b) in back.data().iter().zip(whole.data()) {
                    differ += usize::from(a != b);
                    assert!(a.abs_diff(*b) <= 64, "{a} {b}");
                }
                assert!(differ * 1000 < values, "{differ} of {values} values differ");
            } else {
                // Decoded RGBA is premultiplied again: compare the straight colours.
                let straight = |p: &RasterPixmap| -> Vec<[u8; 4]> {
                    p.pixels()
                        .iter()
                        .map(|p| {
                            let c = p.demultiply();
                            [c.red(), c.green(), c.blue(), c.alpha()]
                        })
                        .collect()
                };
                let (back, whole) = (straight(&back), straight(&whole));
                let differ = back.iter().zip(&whole).filter(|(a, b)| a != b).count();
                assert!(differ * 1000 < back.len(), "{differ} pixels differ");
            }
        }
    }

    #[test]
    fn a_tall_picture_is_drawn_narrower_by_default_and_a_width_is_one_of_the_widths() {
        // A drawing 100 wide and 2,000 tall (positions far north and south): at the
        // default width, 1600 pixels, it was 1600 x 32,000.
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="2000"><rect width="100" height="2000" fill="#fff"/></svg>"##;
        let (w, h, _) = fitted(&svg_tree(svg).unwrap(), None);
        assert_eq!((w, h), (894, 17880));
        assert!(f64::from(w) * f64::from(h) <= f64::from(DEFAULT_MAX_PIXELS));
        // An asked width is kept.
        assert_eq!(fitted(&svg_tree(svg).unwrap(), Some(1600)).0, 1600);
        // The GIF's frames: at most two million pixels.
        let gif = gif::gif(&[svg.to_string()], gif::GIF_WIDTH).unwrap();
        let (w, h) = (
            u16::from_le_bytes([gif[6], gif[7]]),
            u16::from_le_bytes([gif[8], gif[9]]),
        );
        assert_eq!((w, h), (316, 6320));
        // A board 1 wide and 20,000 tall (the loader takes it): frames 3 x 60,000, a GIF
        // being at most 65,535 pixels tall (it was refused: 9 x 180,001 pixels).
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="1" height="20000"><rect width="1" height="20000" fill="#fff"/></svg>"##;
        let gif = gif::gif(&[svg.to_string()], gif::GIF_WIDTH).unwrap();
        assert_eq!(u16::from_le_bytes([gif[8], gif[9]]), 60000);
        // The library holds the widths the command line does (the Python package
        // passed 8001 through).
        for bad in [0, 99, 8001, u32::MAX] {
            assert!(matches!(png_width(svg, Some(bad)), Err(RasterError::Width(w)) if w == bad));
        }
    }

    #[test]
    fn a_picture_past_the_pixel_limit_is_refused_before_it_is_drawn() {
        let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100000"/>"#;
        assert!(matches!(
            png_width(svg, Some(8000)),
            Err(RasterError::Size(8000, 8_000_000))
        ));
    }
}
