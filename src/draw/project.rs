//! Projections from the globe (`lat`, `lon` in degrees) to picture units (x right,
//! y down), fitted so that the projected `bounds` box is `width` units wide.

use serde::Deserialize;

use super::Point;

/// How the globe is flattened.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Lambert azimuthal equal-area about `centre` (Europe's shapes stay true).
    Azimuthal,
    /// Plate carrée with `centre`'s latitude as the standard parallel.
    Equirectangular,
    /// Mercator (the world; `centre`'s longitude is the middle).
    Mercator,
}

/// A magnifier of the projected plane: a radial lens about a point that enlarges
/// what is near it by `factor` and blends back to the identity further out.
///
/// A point at distance `r` from the lens centre moves (along its ray) to
/// `r · (1 + (factor − 1) · w(r / radius))`, `w(t) = (e^(−t²) − e^(−9)) / (1 − e^(−9))`
/// for `t < 3` and `0` beyond: so the centre is enlarged `factor` times, a point at
/// `radius` about 1.6 times (for factor 2.6), and from `3 · radius` on nothing moves.
/// The map is continuous and strictly monotone along each ray for `factor` up to
/// [`MAX_FACTOR`] (the ring about the lens is squeezed to make the room), so no
/// shape crosses another.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Magnify {
    /// The lens centre, `(lat, lon)` in degrees.
    pub centre: (f64, f64),
    /// Degrees of the projected plane: one degree is `π/180` of the projection's
    /// own units (for mercator, a degree of longitude at the equator).
    pub radius: f64,
    /// The enlargement at the centre, `1..=MAX_FACTOR`.
    pub factor: f64,
}

/// The largest magnifier factor that keeps the lens monotone (the bound is about 3.24).
pub const MAX_FACTOR: f64 = 3.0;

/// How far out (in lens radii) the lens reaches.
const LENS_REACH: f64 = 3.0;

/// The lens weight `w(t)`: 1 at the centre, 0 from [`LENS_REACH`] on.
fn lens_weight(t: f64) -> f64 {
    if t >= LENS_REACH {
        return 0.0;
    }
    let floor = (-LENS_REACH * LENS_REACH).exp();
    ((-t * t).exp() - floor) / (1.0 - floor)
}

/// The lens's new distance for distance `r` from its centre, with `radius` the lens
/// radius (same units) and `factor` the enlargement at the centre.
pub fn lens(r: f64, radius: f64, factor: f64) -> f64 {
    if radius <= 0.0 || !r.is_finite() {
        return r;
    }
    r * (1.0 + (factor - 1.0) * lens_weight(r / radius))
}

/// A lens placed in a projection's own plane.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Lens {
    x: f64,
    y: f64,
    radius: f64,
    factor: f64,
}

impl Lens {
    fn apply(&self, (x, y): (f64, f64)) -> (f64, f64) {
        let (dx, dy) = (x - self.x, y - self.y);
        let r = dx.hypot(dy);
        if r < 1e-15 {
            return (x, y);
        }
        let k = lens(r, self.radius, self.factor) / r;
        (self.x + dx * k, self.y + dy * k)
    }
}

/// A projection fitted to a picture.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Projection {
    pub kind: Kind,
    /// `(lat, lon)` in radians.
    centre: (f64, f64),
    /// The magnifier, in the projection's own plane.
    lens: Option<Lens>,
    /// The projected box's left and top (projection units), and units per picture unit.
    left: f64,
    top: f64,
    scale: f64,
    pub width: f64,
    pub height: f64,
}

/// Points along the edges of the bounds box, to find its projected extent.
const EDGE_SAMPLES: usize = 64;

impl Projection {
    /// A projection of `kind` about `centre` (`(lat, lon)`, degrees) whose picture is
    /// `bounds` (`[west, east, south, north]`, degrees) projected, `width` units wide.
    /// `None` when the box does not project to an area.
    pub fn new(kind: Kind, centre: (f64, f64), bounds: [f64; 4], width: f64) -> Option<Projection> {
        Projection::magnified(kind, centre, bounds, width, None)
    }

    /// [`Projection::new`] with a magnifier of the projected plane.
    pub fn magnified(
        kind: Kind,
        centre: (f64, f64),
        bounds: [f64; 4],
        width: f64,
        magnify: Option<Magnify>,
    ) -> Option<Projection> {
        let [west, east, south, north] = bounds;
        let mut p = Projection {
            kind,
            centre: (centre.0.to_radians(), centre.1.to_radians()),
            lens: None,
            left: 0.0,
            top: 0.0,
            scale: 1.0,
            width,
            height: 0.0,
        };
        if let Some(m) = magnify {
            let (x, y) = p.raw(m.centre.0, m.centre.1)?;
            p.lens = Some(Lens {
                x,
                y,
                radius: m.radius.to_radians(),
                factor: m.factor,
            });
        }
        let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for i in 0..=EDGE_SAMPLES {
            let t = i as f64 / EDGE_SAMPLES as f64;
            let lon = west + (east - west) * t;
            let lat = south + (north - south) * t;
            for (la, lo) in [(south, lon), (north, lon), (lat, west), (lat, east)] {
                let (x, y) = p.raw(la, lo)?;
                x0 = x0.min(x);
                x1 = x1.max(x);
                y0 = y0.min(y);
                y1 = y1.max(y);
            }
        }
        if !(x1 - x0 > 1e-9 && y1 - y0 > 1e-9) {
            return None;
        }
        p.left = x0;
        p.top = y1;
        p.scale = width / (x1 - x0);
        p.height = ((y1 - y0) * p.scale).ceil();
        Some(p)
    }

    /// The projection's own coordinates of `(lat, lon)` (degrees), y up, through the
    /// magnifier if there is one; `None` for the azimuthal projection's antipode.
    fn raw(&self, lat: f64, lon: f64) -> Option<(f64, f64)> {
        let at = self.flat(lat, lon)?;
        Some(match &self.lens {
            Some(lens) => lens.apply(at),
            None => at,
        })
    }

    /// The projection's own coordinates of `(lat, lon)` (degrees), y up, before the
    /// magnifier.
    fn flat(&self, lat: f64, lon: f64) -> Option<(f64, f64)> {
        let (phi, lam) = (lat.to_radians(), lon.to_radians());
        let (phi0, lam0) = self.centre;
        let dl = lam - lam0;
        match self.kind {
            Kind::Azimuthal => {
                let d = 1.0 + phi0.sin() * phi.sin() + phi0.cos() * phi.cos() * dl.cos();
                if d <= 1e-12 {
                    return None;
                }
                let k = (2.0 / d).sqrt();
                Some((
                    k * phi.cos() * dl.sin(),
                    k * (phi0.cos() * phi.sin() - phi0.sin() * phi.cos() * dl.cos()),
                ))
            }
            Kind::Equirectangular => Some((dl * phi0.cos(), phi)),
            Kind::Mercator => {
                let phi = phi.clamp(-1.4835, 1.4835); // 85 degrees
                Some((dl, (std::f64::consts::FRAC_PI_4 + phi / 2.0).tan().ln()))
            }
        }
    }

    /// `(lat, lon)` in degrees → picture units (x right, y down). Points beyond the
    /// picture are returned as they fall (callers clip); the azimuthal antipode
    /// goes far outside.
    pub fn point(&self, lat: f64, lon: f64) -> Point {
        match self.raw(lat, lon) {
            Some((x, y)) => ((x - self.left) * self.scale, (self.top - y) * self.scale),
            None => (-1e9, -1e9),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn the_bounds_fill_the_width_and_north_is_up() {
        for kind in [Kind::Azimuthal, Kind::Equirectangular, Kind::Mercator] {
            let p = Projection::new(kind, (50.0, 15.0), [-25.0, 50.0, 28.0, 72.0], 1600.0).unwrap();
            assert!(
                p.height > 500.0 && p.height < 2000.0,
                "{kind:?} {}",
                p.height
            );
            let (x, y) = p.point(50.0, 15.0);
            assert!((0.0..1600.0).contains(&x) && (0.0..p.height).contains(&y));
            let (_, north) = p.point(60.0, 15.0);
            assert!(north < y, "{kind:?}");
            let (east, _) = p.point(50.0, 25.0);
            assert!(east > x, "{kind:?}");
        }
        let p = Projection::new(
            Kind::Equirectangular,
            (0.0, 0.0),
            [0.0, 10.0, 0.0, 5.0],
            100.0,
        )
        .unwrap();
        assert_eq!(p.height, 50.0);
        let (x, y) = p.point(5.0, 0.0);
        assert!(x.abs() < 1e-9 && y.abs() < 1e-9);
        let (x, y) = p.point(0.0, 10.0);
        assert!((x - 100.0).abs() < 1e-9 && (y - 50.0).abs() < 1e-9);
    }

    #[test]
    fn the_lens_is_monotone_continuous_and_the_identity_far_away() {
        for factor in [1.0, 1.5, 2.6, MAX_FACTOR] {
            let radius = 0.4;
            let mut last = 0.0;
            let steps = 20_000;
            for i in 1..=steps {
                let r = 5.0 * radius * i as f64 / steps as f64;
                let f = lens(r, radius, factor);
                // Monotone: strictly increasing along the ray.
                assert!(f > last, "factor {factor} r {r}: {f} <= {last}");
                // Continuous: a small step moves the image a bounded amount.
                assert!(f - last < factor * 5.0 * radius / steps as f64 + 1e-9);
                last = f;
            }
            // The identity from 3 radii on, and the centre enlarged by the factor.
            for r in [3.0 * radius, 3.5 * radius, 10.0] {
                assert_eq!(lens(r, radius, factor), r);
            }
            let small = 1e-6 * radius;
            assert!((lens(small, radius, factor) / small - factor).abs() < 1e-6);
            // Just inside the reach, it is already almost the identity.
            let r = 2.999 * radius;
            assert!((lens(r, radius, factor) - r).abs() < 1e-3 * radius);
        }
        assert!(lens(1.0, 0.5, 3.3) > 0.0);
    }

    #[test]
    fn a_magnified_projection_enlarges_its_centre_and_keeps_far_points() {
        let bounds = [-180.0, 180.0, -56.0, 78.0];
        let plain = Projection::new(Kind::Mercator, (0.0, 0.0), bounds, 1600.0).unwrap();
        let m = Magnify {
            centre: (50.0, 15.0),
            radius: 22.0,
            factor: 2.6,
        };
        let lensed =
            Projection::magnified(Kind::Mercator, (0.0, 0.0), bounds, 1600.0, Some(m)).unwrap();
        assert_eq!(plain.height, lensed.height);
        // Far away (Sydney, Rio): the same point.
        for (lat, lon) in [(-33.9, 151.2), (-22.9, -43.2)] {
            let (a, b) = (plain.point(lat, lon), lensed.point(lat, lon));
            assert!((a.0 - b.0).abs() < 1e-6 && (a.1 - b.1).abs() < 1e-6);
        }
        // Near the centre: a degree is about 2.6 times as long.
        let span = |p: &Projection| p.point(50.0, 16.0).0 - p.point(50.0, 15.0).0;
        let ratio = span(&lensed) / span(&plain);
        assert!((ratio - 2.6).abs() < 0.05, "{ratio}");
        // The centre stays put; order along a parallel is kept.
        let (a, b) = (plain.point(50.0, 15.0), lensed.point(50.0, 15.0));
        assert!((a.0 - b.0).abs() < 1e-6 && (a.1 - b.1).abs() < 1e-6);
        let xs: Vec<f64> = (-60..=90)
            .map(|lon| lensed.point(50.0, lon as f64).0)
            .collect();
        assert!(xs.windows(2).all(|w| w[1] > w[0]));
    }

    #[test]
    fn an_equal_area_projection_keeps_areas() {
        let p = Projection::new(
            Kind::Azimuthal,
            (50.0, 15.0),
            [-25.0, 50.0, 28.0, 72.0],
            1600.0,
        )
        .unwrap();
        // A 1-degree box's area at 40° and at 65° latitude goes as cos(lat).
        let area = |lat: f64| {
            let (a, b) = (p.point(lat, 15.0), p.point(lat + 1.0, 16.0));
            ((b.0 - a.0) * (b.1 - a.1)).abs()
        };
        let ratio = area(65.0) / area(40.0);
        let want = 65.5f64.to_radians().cos() / 40.5f64.to_radians().cos();
        assert!((ratio - want).abs() < 0.05, "{ratio} {want}");
    }
}
