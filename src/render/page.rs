//! A printable page of a phase: an A4 portrait sheet at 150 dpi (1240 × 1754
//! pixels) with the phase's title, its picture at the top fitted to the width, and
//! the results sheet below it in the embedded font, as one SVG (rasterise it with
//! [`super::png`]).
//!
//! The sheet's lines are wrapped to the column (continuation lines indented, as the
//! sheet itself does). The text is set as large as fits, up to about 10 pt: in one
//! column, else in two; a long sheet gets a smaller picture, and smaller type down to
//! [`MIN_SIZE`]. What still does not fit is cut, and the page says so on its last
//! line ([`Page::cut`] counts the lines left out).

use super::{text_width, RasterError, FONT_FAMILY};

/// The page's size in pixels: A4 (210 × 297 mm) at 150 dots per inch.
pub const A4_WIDTH: f64 = 1240.0;
pub const A4_HEIGHT: f64 = 1754.0;

/// The margin round the page (1 cm).
const MARGIN: f64 = 59.0;
/// The title's font size, and the room it takes.
const TITLE_SIZE: f64 = 26.0;
const TITLE_ROOM: f64 = 46.0;
/// The room between the picture and the text, and between two columns.
const GAP: f64 = 28.0;
/// The sheet's largest and smallest font sizes (pixels at 150 dpi: 21 px is 10 pt,
/// 9 px about 4.3 pt, still legible printed).
const MAX_SIZE: f64 = 21.0;
pub const MIN_SIZE: f64 = 9.0;
/// Line height, in font sizes.
const LEADING: f64 = 1.28;
/// The share of the page's height below the title that the picture may take: first
/// the larger, then (for a long sheet) the smaller.
const PICTURE_SHARES: [f64; 2] = [0.62, 0.42];

/// A composed page.
#[derive(Clone, Debug)]
pub struct Page {
    /// The page as SVG, `A4_WIDTH` × `A4_HEIGHT` user units.
    pub svg: String,
    /// Lines of the sheet (as wrapped) left out because the page is full; the page's
    /// last line says how many.
    pub cut: usize,
    /// The font size the sheet is set in, and in how many columns.
    pub size: f64,
    pub columns: usize,
}

/// How the sheet is set: the font size, the columns, the lines as wrapped.
struct Setting {
    size: f64,
    columns: usize,
    lines: Vec<String>,
    /// How many lines fit in one column.
    per_column: usize,
    /// The picture's height.
    picture_h: f64,
}

/// Compose the page of a phase: `title` on top, the picture `picture` (an SVG
/// document with `width` and `height` or a `viewBox` on its root) under it, then the
/// `sheet` text.
pub fn page(picture: &str, title: &str, sheet: &str) -> Result<Page, RasterError> {
    let (pw, ph) = picture_size(picture)?;
    let inner_w = A4_WIDTH - 2.0 * MARGIN;
    let top = MARGIN + TITLE_ROOM;
    let bottom = A4_HEIGHT - MARGIN;
    let setting = set(sheet, (pw, ph), inner_w, bottom - top);
    let scale = (inner_w / pw).min(setting.picture_h / ph);
    let (w, h) = (pw * scale, ph * scale);
    let x = MARGIN + (inner_w - w) / 2.0;
    let mut svg = String::with_capacity(picture.len() + sheet.len() * 2 + 4096);
    svg.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{A4_WIDTH}\" height=\"{A4_HEIGHT}\" \
         viewBox=\"0 0 {A4_WIDTH} {A4_HEIGHT}\" font-family=\"{FONT_FAMILY}, sans-serif\">\n\
         <title>{}</title>\n\
         <rect width=\"{A4_WIDTH}\" height=\"{A4_HEIGHT}\" fill=\"#ffffff\"/>\n\
         <text x=\"{MARGIN}\" y=\"{}\" font-size=\"{TITLE_SIZE}\" font-weight=\"bold\" \
         fill=\"#222222\">{}</text>\n",
        esc(title),
        n(MARGIN + TITLE_SIZE),
        esc(title)
    ));
    svg.push_str(&format!(
        "<g transform=\"translate({} {}) scale({})\">\n",
        n(x),
        n(top),
        scale
    ));
    svg.push_str(strip_prolog(picture));
    svg.push_str("\n</g>\n");
    let text_top = top + h + GAP;
    svg.push_str(&format!(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#999999\" \
         stroke-width=\"1\"/>\n",
        n(x),
        n(top),
        n(w),
        n(h)
    ));
    let cut = text(&mut svg, &setting, text_top, inner_w);
    svg.push_str("</svg>\n");
    Ok(Page {
        svg,
        cut,
        size: setting.size,
        columns: setting.columns,
    })
}

/// Choose the setting: the largest type that fits with the larger picture, else with
/// the smaller one; one column before two at the same size. Failing all, the
/// smallest type in two columns under the smaller picture (the rest is cut).
fn set(sheet: &str, (pw, ph): (f64, f64), inner_w: f64, room: f64) -> Setting {
    let mut last = None;
    for share in PICTURE_SHARES {
        let picture_h = (inner_w / pw * ph).min(room * share);
        let text_h = room - picture_h - GAP;
        let mut size = MAX_SIZE;
        while size >= MIN_SIZE {
            for columns in [1, 2] {
                let s = setting(sheet, size, columns, inner_w, text_h, picture_h);
                if s.lines.len() <= s.per_column * columns {
                    return s;
                }
                last = Some(s);
            }
            size -= 1.0;
        }
    }
    last.unwrap_or_else(|| setting(sheet, MIN_SIZE, 2, inner_w, room / 2.0, room / 2.0))
}

fn setting(
    sheet: &str,
    size: f64,
    columns: usize,
    inner_w: f64,
    text_h: f64,
    picture_h: f64,
) -> Setting {
    let col_w = column_width(inner_w, columns);
    let lines = sheet
        .lines()
        .flat_map(|l| wrap(l, col_w, size))
        .collect::<Vec<_>>();
    // Trailing blank lines take no room.
    let keep = lines
        .iter()
        .rposition(|l| !l.trim().is_empty())
        .map_or(0, |i| i + 1);
    let mut lines = lines;
    lines.truncate(keep);
    Setting {
        size,
        columns,
        lines,
        per_column: (text_h.max(0.0) / (size * LEADING)).floor() as usize,
        picture_h,
    }
}

fn column_width(inner_w: f64, columns: usize) -> f64 {
    let c = columns.max(1) as f64;
    (inner_w - GAP * (c - 1.0)) / c
}

/// Write the sheet's lines, column by column; returns how many were cut.
fn text(svg: &mut String, s: &Setting, top: f64, inner_w: f64) -> usize {
    let capacity = s.per_column * s.columns;
    let (shown, cut) = if s.lines.len() > capacity {
        // The last place says what is missing.
        let shown = capacity.saturating_sub(1);
        (shown, s.lines.len() - shown)
    } else {
        (s.lines.len(), 0)
    };
    let lh = s.size * LEADING;
    let col_w = column_width(inner_w, s.columns);
    svg.push_str(&format!(
        "<g font-size=\"{}\" fill=\"#111111\" xml:space=\"preserve\">\n",
        s.size
    ));
    let per = s.per_column.max(1);
    for (i, line) in s.lines.iter().take(shown).enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let (col, row) = (i / per, i % per);
        let x = MARGIN + col as f64 * (col_w + GAP);
        let y = top + row as f64 * lh + s.size;
        svg.push_str(&format!(
            "<text x=\"{}\" y=\"{}\">{}</text>\n",
            n(x),
            n(y),
            esc(line)
        ));
    }
    if cut > 0 {
        let (col, row) = (shown / per, shown % per);
        let x = MARGIN + col as f64 * (col_w + GAP);
        let y = top + row as f64 * lh + s.size;
        svg.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" font-style=\"italic\" fill=\"#a00000\">{}</text>\n",
            n(x),
            n(y),
            esc(&format!(
                "… {cut} more line{} of the sheet left out: the page is full",
                if cut == 1 { "" } else { "s" }
            ))
        ));
    }
    svg.push_str("</g>\n");
    cut
}

/// Indent of a wrapped line's continuation (the sheet's own).
const INDENT: &str = "    ";

/// Break `line` into pieces no wider than `width` at font size `size`, at spaces
/// (a word wider than the column is broken where it must); continuations are
/// indented.
fn wrap(line: &str, width: f64, size: f64) -> Vec<String> {
    let line = line.trim_end();
    if text_width(line, size) <= width {
        return vec![line.to_string()];
    }
    let mut out = Vec::new();
    let mut cur = String::new();
    let indent_w = text_width(INDENT, size);
    for word in line.split_inclusive(' ') {
        let limit = if out.is_empty() {
            width
        } else {
            width - indent_w
        };
        if !cur.is_empty() && text_width(&cur, size) + text_width(word.trim_end(), size) > limit {
            out.push(std::mem::take(&mut cur).trim_end().to_string());
        }
        cur.push_str(word);
        // A word wider than a whole line is broken by characters.
        loop {
            let limit = if out.is_empty() {
                width
            } else {
                width - indent_w
            };
            if text_width(cur.trim_end(), size) <= limit {
                break;
            }
            let mut head = String::new();
            for c in cur.chars() {
                let mut next = head.clone();
                next.push(c);
                if text_width(&next, size) > limit && !head.is_empty() {
                    break;
                }
                head = next;
            }
            let rest = cur.get(head.len()..).unwrap_or("").to_string();
            out.push(head);
            cur = rest;
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim_end().to_string());
    }
    for l in out.iter_mut().skip(1) {
        l.insert_str(0, INDENT);
    }
    out
}

/// The picture's size in user units: the `width` and `height` of its root element
/// (numbers, or `px`), else its `viewBox`.
fn picture_size(svg: &str) -> Result<(f64, f64), RasterError> {
    let bad =
        || RasterError::Svg("the picture has no size (width and height, or a viewBox)".into());
    let start = svg.find("<svg").ok_or_else(bad)?;
    let tag = svg.get(start..).unwrap_or("");
    let tag = tag.get(..tag.find('>').ok_or_else(bad)?).unwrap_or("");
    let attr = |name: &str| -> Option<&str> {
        let key = format!(" {name}=\"");
        let at = tag.find(&key)? + key.len();
        let rest = tag.get(at..)?;
        rest.get(..rest.find('"')?)
    };
    let num = |v: &str| v.trim().trim_end_matches("px").parse::<f64>().ok();
    let ok = |w: f64, h: f64| w.is_finite() && h.is_finite() && w > 0.0 && h > 0.0;
    if let (Some(w), Some(h)) = (attr("width").and_then(num), attr("height").and_then(num)) {
        if ok(w, h) {
            return Ok((w, h));
        }
    }
    let vb: Vec<f64> = attr("viewBox")
        .unwrap_or("")
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .filter_map(num)
        .collect();
    match vb.as_slice() {
        [_, _, w, h] if ok(*w, *h) => Ok((*w, *h)),
        _ => Err(bad()),
    }
}

/// The document from its root element on (an XML declaration or doctype before it
/// cannot stand inside the page).
fn strip_prolog(svg: &str) -> &str {
    svg.find("<svg").and_then(|i| svg.get(i..)).unwrap_or(svg)
}

/// A number for the SVG: at most two decimals.
fn n(x: f64) -> String {
    let r = (x * 100.0).round() / 100.0;
    format!("{r}")
}

/// Text for an SVG element or attribute.
fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => o.push(' '),
            c => o.push(c),
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    const PIC: &str = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"800\" height=\"600\" \
                       viewBox=\"0 0 800 600\"><rect width=\"800\" height=\"600\" fill=\"#3060c0\"/></svg>";

    #[test]
    fn wraps_long_lines_with_an_indent() {
        let line = "Changes: Bulgaria (nobody to Turkey), Denmark (nobody to Germany), Greece \
                    (nobody to Austria), Norway (nobody to England), Portugal (nobody to France)";
        let w = wrap(line, 400.0, 14.0);
        assert!(w.len() > 2, "{w:?}");
        assert!(w.iter().all(|l| text_width(l, 14.0) <= 400.0), "{w:?}");
        assert!(w[1..].iter().all(|l| l.starts_with(INDENT)));
        let words: Vec<&str> = w.iter().flat_map(|l| l.split_whitespace()).collect();
        assert_eq!(words.join(" "), line);
        // A word wider than the column is broken, not lost.
        let long = "x".repeat(200);
        let w = wrap(&long, 300.0, 14.0);
        assert!(w.len() > 1);
        assert_eq!(w.concat().replace(' ', ""), long);
    }

    #[test]
    fn a_short_sheet_is_set_large_in_one_column() {
        let p = page(PIC, "Spring 1901 movement: demo", "Line one.\nLine two.\n").unwrap();
        assert_eq!((p.cut, p.columns, p.size), (0, 1, MAX_SIZE));
        assert!(p.svg.contains(">Line two.</text>"));
        let px = super::super::raster(&p.svg).unwrap();
        assert_eq!((px.width(), px.height()), (1240, 1754));
        // An opaque page is encoded as RGB, drawn whole (2.2 million pixels), and
        // decodes to the same pixels.
        let png = super::super::png(&p.svg).unwrap();
        assert_eq!(png[25], 2, "colour type RGB");
        let back = super::super::RasterPixmap::decode_png(&png).unwrap();
        assert_eq!(back.data(), px.data());
    }

    #[test]
    fn a_long_sheet_goes_to_two_columns_or_smaller_type_and_a_too_long_one_says_it_is_cut() {
        let sheet: String = (1..=120)
            .map(|i| format!("England: Fleet London -> North Sea {i}.\n"))
            .collect();
        let p = page(PIC, "t", &sheet).unwrap();
        assert_eq!(p.cut, 0);
        assert!(p.columns == 2 || p.size < MAX_SIZE);
        assert!(p.svg.contains("North Sea 120."));
        let sheet: String = (1..=2000).map(|i| format!("Line {i}\n")).collect();
        let p = page(PIC, "t", &sheet).unwrap();
        assert!(p.cut > 0);
        assert!(p
            .svg
            .contains(&format!("… {} more lines of the sheet left out", p.cut)));
        assert!(!p.svg.contains(">Line 2000<"));
        assert_eq!(p.size, MIN_SIZE);
    }

    #[test]
    fn the_picture_size_is_read_from_the_root() {
        assert_eq!(picture_size(PIC).unwrap(), (800.0, 600.0));
        let vb = "<?xml version=\"1.0\"?>\n<svg viewBox=\"0 0 10 20\"></svg>";
        assert_eq!(picture_size(vb).unwrap(), (10.0, 20.0));
        assert!(strip_prolog(vb).starts_with("<svg"));
        assert!(picture_size("<svg></svg>").is_err());
        assert!(picture_size("no picture").is_err());
    }
}
