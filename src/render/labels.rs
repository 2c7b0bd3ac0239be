//! Label placement: every label is given a box from the embedded font's advance
//! widths, and placed greedily, most crowded first, at the first of a ring of
//! candidate positions round its point that covers no unit symbol and no other
//! label (and, if it can, no province node, supply centre or order arrow). Labels
//! pushed far from their point get a leader line. Deterministic: a fixed order, and
//! ties go to the first candidate.

/// An axis-aligned box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl Rect {
    /// The box of half-size (hw, hh) centred on (x, y).
    pub fn around((x, y): (f64, f64), hw: f64, hh: f64) -> Rect {
        Rect {
            x0: x - hw,
            y0: y - hh,
            x1: x + hw,
            y1: y + hh,
        }
    }

    pub fn overlaps(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }

    /// Whether the segment from `a` to `b` passes through the box (Liang–Barsky).
    pub fn crossed_by(&self, a: (f64, f64), b: (f64, f64)) -> bool {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for (p, q) in [
            (-dx, a.0 - self.x0),
            (dx, self.x1 - a.0),
            (-dy, a.1 - self.y0),
            (dy, self.y1 - a.1),
        ] {
            if p.abs() < 1e-12 {
                if q < 0.0 {
                    return false;
                }
            } else {
                let t = q / p;
                if p < 0.0 {
                    t0 = t0.max(t);
                } else {
                    t1 = t1.min(t);
                }
                if t0 > t1 {
                    return false;
                }
            }
        }
        true
    }

    /// The point of the box nearest to `p`.
    pub fn nearest(&self, p: (f64, f64)) -> (f64, f64) {
        (p.0.clamp(self.x0, self.x1), p.1.clamp(self.y0, self.y1))
    }

    pub fn centre(&self) -> (f64, f64) {
        ((self.x0 + self.x1) / 2.0, (self.y0 + self.y1) / 2.0)
    }
}

/// Advance widths of DejaVu Sans (the embedded font) for ASCII 32..=126, in font
/// units (2048 to the em); read from the font's `hmtx` table.
const ADVANCE: [u16; 95] = [
    651, 821, 942, 1716, 1303, 1946, 1597, 563, 799, 799, 1024, 1716, 651, 739, 651, 690, 1303,
    1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 690, 690, 1716, 1716, 1716, 1087, 2048,
    1401, 1405, 1430, 1577, 1294, 1178, 1587, 1540, 604, 604, 1343, 1141, 1767, 1532, 1612, 1235,
    1612, 1423, 1300, 1251, 1499, 1401, 2025, 1403, 1251, 1403, 799, 690, 799, 1716, 1024, 1024,
    1255, 1300, 1126, 1300, 1260, 721, 1300, 1298, 569, 569, 1186, 569, 1995, 1298, 1253, 1300,
    1300, 842, 1067, 803, 1298, 1212, 1675, 1212, 1212, 1075, 1303, 690, 1303, 1716,
];

/// The width of `text` at font size `size` (DejaVu Sans; any other character is
/// taken as wide as a capital W).
pub fn text_width(text: &str, size: f64) -> f64 {
    let units: u32 = text
        .chars()
        .map(|c| match c as u32 {
            k @ 32..=126 => u32::from(ADVANCE[(k - 32) as usize]),
            _ => 2048,
        })
        .sum();
    f64::from(units) / 2048.0 * size
}

/// The white halo drawn round every label (half its stroke width), and a little
/// room for a browser's fallback font being wider.
const HALO: f64 = 1.3;
const SLACK: f64 = 1.04;

/// Cap height of DejaVu Sans, in ems: the labels are capitals (a retreat list has
/// no descenders either), so their ink is the cap height.
pub const CAP: f64 = 0.73;

/// The box of a label of `text` at `size`, centred at `c` (the box covers the
/// letters' ink between the baseline and the cap height, and the halo).
pub fn label_box(text: &str, size: f64, c: (f64, f64)) -> Rect {
    let hw = text_width(text, size) * SLACK / 2.0 + HALO;
    let hh = CAP * size / 2.0 + HALO;
    Rect::around(c, hw, hh)
}

/// The baseline of a label centred at `cy` (the text's `y`).
pub fn baseline(cy: f64, size: f64) -> f64 {
    cy + CAP * size / 2.0
}

/// What a placed label needs: its centre and, when it sits away from its point, the
/// leader line from the point's edge to the label.
#[derive(Clone, Copy, Debug)]
pub struct Placed {
    pub centre: (f64, f64),
    pub leader: Option<((f64, f64), (f64, f64))>,
}

/// The obstacles a label is placed among.
#[derive(Default)]
pub struct Placer {
    /// Unit symbols: never covered.
    pub units: Vec<Rect>,
    /// Province nodes, centre markers, named coasts: better not covered.
    pub soft: Vec<Rect>,
    /// Order lines: better not crossed.
    pub lines: Vec<((f64, f64), (f64, f64))>,
    /// The labels placed so far: never covered.
    pub placed: Vec<Rect>,
    /// Every location's point: a label nearer another one than its own reads as
    /// that one's, so it had better not be.
    pub points: Vec<(f64, f64)>,
}

/// How far a label may go from its point: ring k of the candidates stands this far
/// (in units of `ring`) beyond the point's edge. Rings from 2 on get a leader line.
const RINGS: [f64; 6] = [0.2, 0.9, 1.8, 2.9, 4.2, 5.8];

impl Placer {
    /// Place a label of `text` at `size` centred on `at` when it covers no unit
    /// symbol and no label placed before; else round `at`, as [`Placer::place`] does
    /// (rings `ring` apart). The label's box is recorded.
    pub fn place_at(&mut self, text: &str, size: f64, at: (f64, f64), ring: f64) -> Placed {
        let b = label_box(text, size, at);
        let free = |v: &[Rect]| !v.iter().any(|r| r.overlaps(&b));
        if free(&self.units) && free(&self.placed) {
            self.placed.push(b);
            return Placed {
                centre: at,
                leader: None,
            };
        }
        self.place(text, size, at, 0.0, ring)
    }

    /// Place a label of `text` at `size` round the point `at` whose drawing reaches
    /// `clear` from it (a node, a unit, a dislodged unit's ring); the rings of
    /// candidates are `ring` apart. The label's box is recorded.
    pub fn place(
        &mut self,
        text: &str,
        size: f64,
        at: (f64, f64),
        clear: f64,
        ring: f64,
    ) -> Placed {
        let b0 = label_box(text, size, (0.0, 0.0));
        let (hw, hh) = (b0.x1, b0.y1);
        // Only what lies within reach of the farthest candidate matters.
        let reach = clear + RINGS[RINGS.len() - 1] * ring + 2.0 * hw.max(hh);
        let area = Rect::around(at, reach, reach);
        let near =
            |v: &[Rect]| -> Vec<Rect> { v.iter().filter(|r| r.overlaps(&area)).copied().collect() };
        let (units, soft, placed) = (near(&self.units), near(&self.soft), near(&self.placed));
        let points: Vec<(f64, f64)> = self
            .points
            .iter()
            .filter(|&&q| area.overlaps(&Rect::around(q, 0.0, 0.0)) && super::dist(q, at) > 1e-6)
            .copied()
            .collect();
        let lines: Vec<_> = self
            .lines
            .iter()
            .filter(|(a, e)| area.crossed_by(*a, *e))
            .copied()
            .collect();
        // The eight directions, below first (where a reader looks for a name), then
        // above, the sides, and the corners.
        const DIRS: [(f64, f64); 8] = [
            (0.0, 1.0),
            (0.0, -1.0),
            (1.0, 0.0),
            (-1.0, 0.0),
            (1.0, 1.0),
            (-1.0, 1.0),
            (1.0, -1.0),
            (-1.0, -1.0),
        ];
        type Score = (usize, usize, usize, usize);
        let mut best: Option<(Score, Rect, usize)> = None;
        let mut k = 0;
        for (r, &g) in RINGS.iter().enumerate() {
            let d = clear + g * ring;
            for &(dx, dy) in &DIRS {
                // Corners sit a little in (the box's corner, not its side, faces the
                // point).
                let f = if dx != 0.0 && dy != 0.0 { 0.75 } else { 1.0 };
                let c = (at.0 + dx * (d * f + hw), at.1 + dy * (d * f + hh));
                let b = Rect::around(c, hw, hh);
                let units = units.iter().filter(|u| u.overlaps(&b)).count();
                let labels = placed.iter().filter(|u| u.overlaps(&b)).count();
                let soft = soft.iter().filter(|u| u.overlaps(&b)).count()
                    + lines.iter().filter(|(a, e)| b.crossed_by(*a, *e)).count();
                let own = super::dist(c, at);
                let misleading = points.iter().any(|&q| super::dist(c, q) < own);
                let soft = soft + 2 * usize::from(misleading);
                // A far ring is worse than a near one with one soft thing covered.
                let score = (units, labels, soft + r / 2, k);
                if best.as_ref().is_none_or(|(s, _, _)| score < *s) {
                    best = Some((score, b, r));
                }
                k += 1;
            }
            if best
                .as_ref()
                .is_some_and(|(s, _, _)| s.0 == 0 && s.1 == 0 && s.2 == 0)
            {
                break;
            }
        }
        // RINGS is not empty, so there is always a best candidate; the fallback (just
        // below the point) keeps this panic-free all the same.
        let (_, b, r) = best.unwrap_or((
            (0, 0, 0, 0),
            Rect::around((at.0, at.1 + clear + hh), hw, hh),
            0,
        ));
        self.placed.push(b);
        let centre = b.centre();
        let leader = (r >= 2).then(|| {
            let end = b.nearest(at);
            let d = super::dist(at, end).max(1e-6);
            let start = (
                at.0 + (end.0 - at.0) / d * clear,
                at.1 + (end.1 - at.1) / d * clear,
            );
            (start, end)
        });
        Placed { centre, leader }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_follow_the_font() {
        // M is wider than I; three capitals are about two ems.
        assert!(text_width("M", 10.0) > 2.0 * text_width("I", 10.0));
        let w = text_width("MUN", 10.0);
        assert!((w - 23.4).abs() < 0.1, "{w}");
    }

    #[test]
    fn segments_cross_boxes() {
        let r = Rect::around((0.0, 0.0), 1.0, 1.0);
        assert!(r.crossed_by((-5.0, 0.0), (5.0, 0.0)));
        assert!(r.crossed_by((0.0, 0.0), (5.0, 5.0)));
        assert!(!r.crossed_by((-5.0, 2.0), (5.0, 2.0)));
        assert!(!r.crossed_by((2.0, -5.0), (2.0, 5.0)));
        assert!(!r.crossed_by((3.0, 0.0), (5.0, 0.0)));
    }

    #[test]
    fn a_label_moves_off_a_placed_one() {
        let mut p = Placer::default();
        let a = p.place("BUR", 10.0, (0.0, 0.0), 10.0, 10.0);
        let b = p.place("RUH", 10.0, (0.0, 0.0), 10.0, 10.0);
        assert!(!p.placed[0].overlaps(&p.placed[1]));
        assert_ne!(a.centre, b.centre);
    }
}
