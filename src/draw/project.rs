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

/// A projection fitted to a picture.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Projection {
    pub kind: Kind,
    /// `(lat, lon)` in radians.
    centre: (f64, f64),
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
        let [west, east, south, north] = bounds;
        let mut p = Projection {
            kind,
            centre: (centre.0.to_radians(), centre.1.to_radians()),
            left: 0.0,
            top: 0.0,
            scale: 1.0,
            width,
            height: 0.0,
        };
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

    /// The projection's own coordinates of `(lat, lon)` (degrees), y up; `None` for
    /// the azimuthal projection's antipode.
    fn raw(&self, lat: f64, lon: f64) -> Option<(f64, f64)> {
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
