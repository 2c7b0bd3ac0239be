//! Lines and segments: comments, result tags and result words, DAIDE parentheses,
//! section labels, list markers and bullets, power headers and prefixes. Each order's
//! body goes to [`super::grammar`]. See `docs/ORDERS.md`.
//!
//! A line holds zero or more segments separated by `,` or `;`. A segment is a section
//! label (skipped), a power header (`England:`, `[England]`, `(ITALY)`), or an order
//! with an optional list marker (`1.`, `b)`) and power prefix (`England:`, `TUR:`,
//! `E)`, `[GERMANY]`).

use std::borrow::Cow;
use std::cell::OnceCell;

use nom::Err;

use super::diagnostic::{find2, reads_as_space, source_lines, MAX_DIAGNOSTICS};
use super::grammar::{at_end, Body, Ctx};
use super::words::*;
use super::{Diagnostic, Order, Severity, Span};
use crate::map::names::{normalize, with_normalized, NameIndex};
use crate::map::{Loc, Map, Power};

/// Orders read from a text, and a diagnostic for every problem.
#[derive(Debug, Clone, Default)]
pub struct Parsed {
    pub orders: Vec<Order>,
    pub diagnostics: Vec<Diagnostic>,
    /// The section labels and power headers that may name a phase (`Spring 1905`,
    /// `Germany, S1905M`: those with a digit), in the order written. They are not
    /// orders; `state::slip_phase_diagnostics` reads the phase they name.
    pub labels: Vec<Label>,
    /// Orders read but not kept, past the room a caller gave ([`parse_slip_at_most`]):
    /// how many, and where the first was.
    ///
    /// [`parse_slip_at_most`]: super::parse_slip_at_most
    pub unkept: Option<Unkept>,
}

/// Orders past a parse's room: read (so that every mistake in them is still told) but
/// not kept, so a hostile slip of many thousands of orders costs no memory for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unkept {
    /// The first order not kept.
    pub first: Span,
    /// How many were not kept.
    pub count: usize,
}

/// A section label or header as written, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub text: String,
}

impl Parsed {
    /// Keep an order while there is room; past it, count it.
    fn keep(&mut self, order: Order, room: usize) {
        if self.orders.len() < room {
            self.orders.push(order);
        } else {
            let unkept = self.unkept.get_or_insert(Unkept {
                first: order.span,
                count: 0,
            });
            unkept.count += 1;
        }
    }

    /// Keep a label that may name a phase (it holds a digit).
    fn label(&mut self, ctx: &Ctx, text: &str) {
        let text = text.trim();
        if text.bytes().any(|b| b.is_ascii_digit()) {
            self.labels.push(Label {
                span: ctx.span(text, text.len()),
                text: text.to_string(),
            });
        }
    }
}

/// How to parse.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParseOptions {
    /// Every correction is an error: a misspelt province, order word or power with
    /// exactly one close reading is not read (`unknown province `Burgandi``, with "did
    /// you mean") instead of being read with a warning that shows the correction.
    pub strict: bool,
}

/// Parse a whole text of orders: headers, prefixes, several orders per line,
/// comments, labels, lists. Every correction is an error, as [`ParseOptions`] with
/// `strict` says; [`parse_orders_with`] chooses.
pub fn parse_orders(map: &Map, text: &str) -> Parsed {
    parse_orders_with(map, text, ParseOptions { strict: true })
}

/// Parse a whole text of orders with the given options.
pub fn parse_orders_with(map: &Map, text: &str, options: ParseOptions) -> Parsed {
    parse_text(map, text, options, None, usize::MAX)
}

/// Parse a text of orders whose power before any header is `power` (a slip's power
/// known from its file name, as [`super::slip`] finds it).
pub(super) fn parse_text(
    map: &Map,
    text: &str,
    options: ParseOptions,
    power: Option<Power>,
    room: usize,
) -> Parsed {
    let names = map.names();
    let mut out = Parsed::default();
    // About one order a line, and a line of orders is seldom shorter than 16 bytes:
    // reserved at once, the list is seldom copied as it grows (bounded, so a long text
    // reserves little more than its orders take).
    out.orders
        .reserve((text.len() / 16 + 1).min(1 << 14).min(room));
    let mut header: Option<Power> = power;
    let lists = OnceCell::new();
    let lists = || *lists.get_or_init(|| list_style(names, text));
    let mut kept = Kept::default();
    for (n, raw) in source_lines(text).enumerate() {
        let cleaned = clean_line(raw);
        if is_label(&cleaned) {
            out.label(&Ctx::new(map, &cleaned, n as u32 + 1, false), &cleaned);
            continue;
        }
        let mut ctx = Ctx::new(map, &cleaned, n as u32 + 1, options.strict);
        // Past the diagnostics kept, the rest are only counted: no "did you mean" is
        // looked for (16 MB of distinct unknown words took a minute).
        if out.diagnostics.len() >= MAX_DIAGNOSTICS {
            ctx = ctx.quiet();
        }
        // A prefix holds for the rest of its line.
        let mut line_power = header;
        let mut segs = segments(&cleaned).peekable();
        let mut empty_told = false;
        while let Some(seg) = segs.next() {
            if super::fast::trim(seg).is_empty() {
                // One separator may end a line; an empty place between two, or before
                // the first order, is an order left out or a slip of the key: said
                // once a line, never silently passed over.
                if segs.peek().is_some() && !empty_told {
                    empty_told = true;
                    kept.push(
                        &mut out.diagnostics,
                        Diagnostic::warning(
                            ctx.span(seg, 1),
                            "an empty order between separators (`,` or `;`)",
                            Some(
                                "remove the extra separator; if an order is missing, write it"
                                    .into(),
                            ),
                        ),
                    );
                }
                continue;
            }
            match ctx.segment(seg, line_power, &lists) {
                Seg::Skip => {}
                Seg::Label => out.label(&ctx, seg),
                Seg::Header(p) => {
                    out.label(&ctx, seg);
                    header = Some(p);
                    line_power = Some(p);
                }
                Seg::Order(o, prefix) => {
                    line_power = prefix.or(line_power);
                    out.keep(o, room);
                }
                Seg::Error(d, prefix) => {
                    line_power = prefix.or(line_power);
                    // An invisible character anywhere in the line is named, though
                    // the message may quote only the words around it.
                    let d = match super::diagnostic::invisible_in(raw) {
                        Some(named) => d.with_invisible_note(&named),
                        None => d,
                    };
                    kept.push(&mut out.diagnostics, d);
                }
            }
            let mut warnings = ctx.warnings.borrow_mut();
            if !warnings.is_empty() {
                for d in warnings.drain(..) {
                    kept.push(&mut out.diagnostics, d);
                }
            }
        }
    }
    kept.close(&mut out.diagnostics);
    out
}

/// `s` split at every `,` and `;`, as `str::split` splits it (both are one byte, never
/// inside another character).
fn segments(s: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(s);
    std::iter::from_fn(move || {
        let r = rest?;
        match find2(r.as_bytes(), b',', b';') {
            Some(i) => {
                rest = r.get(i + 1..);
                r.get(..i)
            }
            None => {
                rest = None;
                Some(r)
            }
        }
    })
}

/// Keeps at most [`MAX_DIAGNOSTICS`] diagnostics and counts the rest, so a hostile text
/// cannot grow the list without bound.
#[derive(Default)]
struct Kept {
    /// How many were left out, whether one of them was an error, and where the first was.
    omitted: usize,
    error: bool,
    first: Option<Span>,
}

impl Kept {
    fn push(&mut self, list: &mut Vec<Diagnostic>, d: Diagnostic) {
        if list.len() < MAX_DIAGNOSTICS {
            list.push(d);
        } else {
            self.omitted += 1;
            self.error |= d.severity == Severity::Error;
            self.first.get_or_insert(d.span);
        }
    }

    /// One last diagnostic that counts those left out (an error if one of them was).
    fn close(self, list: &mut Vec<Diagnostic>) {
        let Some(span) = self.first else { return };
        let message = super::diagnostic::not_listed(self.omitted);
        let span = Span {
            end: span.start,
            ..span
        };
        list.push(if self.error {
            Diagnostic::error(span, message, None)
        } else {
            Diagnostic::warning(span, message, None)
        });
    }
}

/// A place a referee names on the command line (`explain GAME PLACE`, `map show MAP
/// PLACE`), read as an order reads it: an id, a name or alias, a name written short
/// (`Mid Atl`, `N Sea`, `Lpool`), a coast (`stp/nc`). A misspelling (`Burgandi`,
/// `Bergendee`) is never read: it is an error whose help names the close name; an
/// ambiguous short form is an error naming the candidates. The error's message and
/// help are for the referee.
pub fn parse_place(map: &Map, text: &str) -> Result<Loc, Diagnostic> {
    let ctx = Ctx::new(map, text, 1, true);
    let unknown = || {
        Diagnostic::error(
            ctx.span(text, text.len()),
            format!("unknown province `{}`", text.trim()),
            map.names().suggest(map, text).or_else(|| {
                let near = map.names().sounds_like(map, &normalize(text));
                match near.as_slice() {
                    [l] => Some(format!(
                        "did you mean `{}` ({})?",
                        map.loc_name(*l),
                        map.loc_id(*l)
                    )),
                    _ => None,
                }
            }),
        )
    };
    match ctx.place_req(text, "a province") {
        Ok((rest, loc)) if at_end(rest) => Ok(loc),
        Ok(_) | Err(Err::Incomplete(_)) => Err(unknown()),
        Err(Err::Failure(e)) | Err(Err::Error(e)) => match e.msg {
            Some((msg, help)) => Err(Diagnostic::error(ctx.span(e.at, e.len), msg, help)),
            None => Err(unknown()),
        },
    }
}

/// Parse one order (batch input): `power` is the power it is given for. A trailing `,`
/// or `;` is allowed; two orders in one string are an error. Every correction is an
/// error; see [`parse_order_with`].
pub fn parse_order(map: &Map, text: &str, power: Option<Power>) -> Result<Order, Diagnostic> {
    parse_order_with(map, text, power, ParseOptions { strict: true }).map(|(o, _)| o)
}

/// Parse one order with the given options; the order comes with its warnings.
pub fn parse_order_with(
    map: &Map,
    text: &str,
    power: Option<Power>,
    options: ParseOptions,
) -> Result<(Order, Vec<Diagnostic>), Diagnostic> {
    // Most orders are plain (no comment, parenthesis or second order): the fast path
    // reads them as written, as `segment` would after the cleaning and trimming below
    // (which leave such a text as it is), and warns of nothing.
    if let Some(o) = Ctx::new(map, text, 1, options.strict).fast_plain(text, power) {
        return Ok((o, Vec::new()));
    }
    parse_order_cleaned(map, text, power, options)
}

/// [`parse_order_with`] of any text: cleaned, checked for a second order, and read as
/// one segment.
fn parse_order_cleaned(
    map: &Map,
    text: &str,
    power: Option<Power>,
    options: ParseOptions,
) -> Result<(Order, Vec<Diagnostic>), Diagnostic> {
    let cleaned = clean_line(text);
    // Most orders end in a letter: no trimming to do.
    let one = match cleaned.as_bytes().last() {
        Some(c) if c.is_ascii_alphanumeric() => &*cleaned,
        // One trailing separator is allowed; a second is an empty order (below).
        _ => {
            let t = cleaned.trim_end();
            t.strip_suffix([',', ';']).unwrap_or(t)
        }
    };
    let ctx = Ctx::new(map, &cleaned, 1, options.strict);
    if let Some(at) = find2(one.as_bytes(), b',', b';') {
        let rest = &one[at..];
        if rest
            .trim_matches(|c: char| c == ',' || c == ';' || c.is_whitespace())
            .is_empty()
        {
            return Err(Diagnostic::error(
                ctx.span(rest, rest.trim_end().len()),
                format!("empty orders after the order (`{}`)", rest.trim_end()),
                Some("end the order with at most one `,` or `;`".into()),
            ));
        }
        return Err(Diagnostic::error(
            ctx.span(&one[at..], 1),
            "several orders in one string",
            Some("give each order as a string of its own".into()),
        ));
    }
    match ctx.segment(one, power, &ListStyle::default) {
        Seg::Order(o, _) => Ok((o, ctx.warnings.take())),
        Seg::Error(d, _) => Err(match super::diagnostic::invisible_in(text) {
            Some(named) => d.with_invisible_note(&named),
            None => d,
        }),
        Seg::Header(_) | Seg::Skip | Seg::Label => Err(Diagnostic::error(
            ctx.span(one.trim_start(), one.trim().len()),
            format!("`{}` is not an order", one.trim()),
            Some("see docs/ORDERS.md for the order syntax".into()),
        )),
    }
}

/// What a segment is.
enum Seg {
    Skip,
    /// A section label (`Spring 1905`): not an order.
    Label,
    Header(Power),
    /// An order, and the power of its prefix (which holds for the rest of the line).
    Order(Order, Option<Power>),
    Error(Diagnostic, Option<Power>),
}

/// What a list marker at the start of a segment is.
enum Marker<'a> {
    None,
    /// A number or letter of a list (`1.`, `b)`), and the text after it.
    Strip(&'a str),
    /// A power's initial (`E)`).
    Power(Power, &'a str),
    Ambiguous(Diagnostic),
}

/// A power prefix.
enum Prefix<'a> {
    None,
    Power(Power, &'a str),
    Ambiguous(Diagnostic),
}

/// How the text numbers its lists, which tells `a)` (a list letter) from `A)`
/// (Austria's initial).
#[derive(Clone, Copy, Debug, Default)]
struct ListStyle {
    /// Some marker is a letter that is no power's initial (`b)`) or a roman number
    /// (`ii)`): the letters are a list.
    lettered: bool,
    /// Markers are initials of two or more powers (`A)`, `E)`): they are powers.
    powers: bool,
    /// Some line begins with a power's initial that is no order word, before a unit
    /// type (`E F Lon`, `G A Mun`): bare initials are powers (`R A War` is Russia's).
    initials: bool,
}

fn is_roman(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 4
        && s.bytes()
            .all(|b| matches!(b.to_ascii_lowercase(), b'i' | b'v' | b'x'))
}

/// The letters a line begins with as a marker (`b)`, `(c)`, `ii.`), with its punctuation.
fn letter_marker(t: &str) -> Option<(&str, u8, &str)> {
    let b = t.as_bytes();
    let k = usize::from(b.first() == Some(&b'('));
    let n = b
        .get(k..)
        .unwrap_or_default()
        .iter()
        .take_while(|c| c.is_ascii_alphabetic())
        .count();
    if n == 0 || n > 4 {
        return None;
    }
    let j = k + n;
    let p = *b.get(j)?;
    if p != b')' && p != b'.' {
        return None;
    }
    let after = &t[j + 1..];
    let follows = after.is_empty() || after.starts_with(char::is_whitespace);
    // `b.`, `ii.`; never a unit type or order word (`A. Vie`, `D. A Mun`)
    let ok = match p {
        b')' => true,
        _ => k == 0 && (n >= 2 && is_roman(&t[k..j]) || n == 1 && flags(&t[k..j]) == 0),
    };
    (ok && follows).then(|| (&t[k..j], p, after))
}

fn list_style(names: &NameIndex, text: &str) -> ListStyle {
    let mut initials: Vec<char> = Vec::new();
    let mut lettered = false;
    let mut bare = false;
    for line in source_lines(text) {
        let t = line.trim_start();
        if let Ok((r, w)) = word(t) {
            let mut cs = w.chars();
            if let (Some(c), None) = (cs.next(), cs.next()) {
                let f = flags(w);
                let typed = word(r.trim_start())
                    .is_ok_and(|(_, w2)| flags(w2) & (flag::ARMY | flag::FLEET) != 0);
                if names.initial(c).is_some()
                    && f & flag::KEYWORD == 0
                    && r.starts_with(' ')
                    && typed
                {
                    bare = true;
                }
            }
        }
        let Some((s, _, _)) = letter_marker(t) else {
            continue;
        };
        if s.len() == 1 {
            let c = s.chars().next().unwrap_or(' ').to_ascii_lowercase();
            match names.initial(c) {
                Some(_) => {
                    if !initials.contains(&c) {
                        initials.push(c);
                    }
                }
                None => lettered = true,
            }
        } else if is_roman(s) {
            lettered = true;
        }
    }
    ListStyle {
        lettered,
        powers: !lettered && initials.len() >= 2,
        initials: bare,
    }
}

/// Remove comments, `(*bounce*)`-style tags and result words in parentheses (`(fail)`),
/// keeping byte offsets (they become spaces). On a DAIDE line (`( ( ENG FLT LON ) MTO
/// NTH )`) every parenthesis becomes a space.
fn clean_line(raw: &str) -> Cow<'_, str> {
    // A space that shows as one (a no-break space) is read as a space: as many ASCII
    // spaces as it has bytes, so every offset holds.
    if !raw.is_ascii() && raw.chars().any(|c| !c.is_ascii() && reads_as_space(c)) {
        let mut spaced = String::with_capacity(raw.len());
        for c in raw.chars() {
            if !c.is_ascii() && reads_as_space(c) {
                spaced.extend(std::iter::repeat_n(' ', c.len_utf8()));
            } else {
                spaced.push(c);
            }
        }
        return Cow::Owned(clean_ascii_spaced(&spaced).into_owned());
    }
    clean_ascii_spaced(raw)
}

/// [`clean_line`] of a line whose spaces are ASCII.
fn clean_ascii_spaced(raw: &str) -> Cow<'_, str> {
    // Most lines have neither a comment nor a parenthesis: one scan tells.
    if find2(raw.as_bytes(), b'#', b'(').is_none() {
        return Cow::Borrowed(raw);
    }
    // `#` starts a comment, except `#1` numbering a line.
    let lead = raw.len() - raw.trim_start().len();
    let mut end = raw.len();
    // `#` is one byte, never inside another character.
    for (k, _) in raw.bytes().enumerate().filter(|&(_, b)| b == b'#') {
        if k == lead && raw.as_bytes().get(k + 1).is_some_and(u8::is_ascii_digit) {
            continue;
        }
        end = k;
        break;
    }
    let s = &raw[..end];
    if !s.contains('(') {
        return Cow::Borrowed(s);
    }
    // Blank `(*tags*)`, then result words in parentheses: each a single pass. The
    // bytes are copied only when something is blanked.
    let mut blanked: Option<Vec<u8>> = None;
    let mut from = 0;
    // (No tag without a `*`: one quick scan tells most lines have none.)
    let tags = find2(s.as_bytes(), b'*', b'*').is_some();
    while let Some(a) = find_pair(s, from, b"(*").filter(|_| tags) {
        let b = find_pair(s, a, b"*)").map_or(s.len(), |k| k + 2);
        let bytes = blanked.get_or_insert_with(|| s.as_bytes().to_vec());
        if let Some(r) = bytes.get_mut(a..b) {
            r.fill(b' ');
        }
        from = b;
    }
    // Only parentheses, spaces and ASCII were put in or taken out: still UTF-8.
    let tagless = match &blanked {
        Some(bytes) => String::from_utf8_lossy(bytes),
        None => Cow::Borrowed(s),
    };
    let parens = result_parens(&tagless);
    for &(a, b) in &parens {
        let bytes = blanked.get_or_insert_with(|| s.as_bytes().to_vec());
        if let Some(r) = bytes.get_mut(a..=b) {
            r.fill(b' ');
        }
    }
    let changed = blanked.is_some();
    let daide = s.trim_start().starts_with('(')
        && s.as_bytes().windows(3).any(|w| {
            [b"amy", b"flt", b"wve"]
                .iter()
                .any(|t| w.eq_ignore_ascii_case(&t[..]))
        });
    if !changed && !daide {
        return Cow::Borrowed(s);
    }
    let bytes = blanked.unwrap_or_else(|| s.as_bytes().to_vec());
    let mut out = String::from_utf8_lossy(&bytes).into_owned();
    // DAIDE: only three-letter tokens and parentheses, with a unit or a waive.
    let mut tokens = out.split(|c: char| c == '(' || c == ')' || c.is_whitespace());
    let daide = out.trim_start().starts_with('(')
        && tokens
            .clone()
            .all(|w| w.is_empty() || w.len() == 3 && w.bytes().all(|b| b.is_ascii_alphabetic()))
        && tokens.any(|w| {
            ["AMY", "FLT", "WVE"]
                .iter()
                .any(|t| w.eq_ignore_ascii_case(t))
        });
    if daide {
        out = out.replace(['(', ')'], " ");
    }
    Cow::Owned(out)
}

/// Where the two bytes `pair` first stand together in `s` from `from` on (as
/// `s[from..].find` would tell, from the start of `s`).
fn find_pair(s: &str, from: usize, pair: &[u8; 2]) -> Option<usize> {
    let b = s.as_bytes().get(from..)?;
    b.windows(2).position(|w| w == pair).map(|k| from + k)
}

/// The parentheses holding only result words (`(fail)`, `(no convoy)`), as byte ranges
/// `a..=b` of `(` and `)`. For each `(`, its text runs to the next `)`; where several `(`
/// share that `)`, the first whose text is all result words is taken (it covers the
/// rest). One pass: the `(`s of a group are tried from the right, and the words of each
/// piece are read once.
fn result_parens(s: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(b) = s[from..].find(')').map(|k| from + k) {
        let seg = &s[from..b];
        let mut end = seg.len();
        let tail = seg.trim_end().len();
        let mut any = false;
        let mut best = None;
        for (a, _) in seg.rmatch_indices('(') {
            let piece = &seg[a + 1..end];
            let mut words = piece
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty());
            if !words.all(is_result_word) {
                break;
            }
            any |= piece.chars().any(char::is_alphanumeric);
            // `(convoy)` alone is not a result; `(no convoy)` is.
            let convoy = seg[a + 1..tail.max(a + 1)]
                .trim_start()
                .eq_ignore_ascii_case("convoy");
            if any && !convoy {
                best = Some(from + a);
            }
            end = a;
        }
        if let Some(a) = best {
            out.push((a, b));
        }
        from = b + 1;
    }
    out
}

impl Ctx<'_> {
    /// An order body that reads completely (nothing left over).
    fn full<'a>(&self, body: &'a str) -> Result<Body, Err<PErr<'a>>> {
        let (r, b) = self.body(body)?;
        let r = r.trim_start();
        let r = r.strip_prefix('.').unwrap_or(r).trim_start();
        if r.is_empty() {
            Ok(b)
        } else {
            let len = r.trim_end().len();
            Err(Err::Failure(PErr {
                at: r,
                len,
                msg: Some((
                    format!("unexpected `{}` after the order", r.trim_end()),
                    Some("write one order per line, or separate orders with `,`".into()),
                )),
            }))
        }
    }

    /// One order from its body, for `power`.
    fn order(&self, body: &str, power: Option<Power>) -> Result<Order, Diagnostic> {
        match self.attempt(|| self.full(body)) {
            Ok(b) => {
                let text = body.trim().trim_end_matches('.').trim_end();
                if let (Some(named), Some(by)) = (b.named, power) {
                    if named != by {
                        // `Germany: waive France`: a power waives or saves only its own.
                        let (named, by) = (&self.map.power(named).name, &self.map.power(by).name);
                        return Err(Diagnostic::error(
                            self.span(body.trim_start(), text.len()),
                            format!("`{text}` names {named} in {by}'s orders"),
                            Some(format!(
                                "{by} waives or saves only its own builds: write it under \
                                 `{named}:` if it is {named}'s order; if the orders are \
                                 judged anyway, it is left out and the sheet does not show \
                                 it"
                            )),
                        ));
                    }
                }
                Ok(Order {
                    power: b.named.or(power),
                    unit: b.unit,
                    kind: b.kind,
                    text: text.into(),
                    span: self.span(body.trim_start(), text.len()),
                    stated: b.stated,
                })
            }
            Err(Err::Failure(e)) | Err(Err::Error(e)) => Err(match e.msg {
                Some((msg, help)) => Diagnostic::error(self.span(e.at, e.len), msg, help),
                None => Diagnostic::error(
                    self.span(body.trim_start(), body.trim().len()),
                    format!("cannot read the order `{}`", body.trim()),
                    Some("see docs/ORDERS.md for the order syntax".into()),
                ),
            }),
            Err(Err::Incomplete(_)) => Err(Diagnostic::error(
                self.span(body, body.len()),
                "incomplete order",
                None,
            )),
        }
    }

    /// One segment: a label, a header, or an order with its marker and prefix.
    fn segment(&self, seg: &str, in_force: Option<Power>, lists: &dyn Fn() -> ListStyle) -> Seg {
        match self.fast(seg, in_force) {
            Some((o, prefix)) => Seg::Order(o, prefix),
            None => self.segment_full(seg, in_force, lists),
        }
    }

    /// [`Ctx::segment`] by the full grammar.
    fn segment_full(
        &self,
        seg: &str,
        in_force: Option<Power>,
        lists: &dyn Fn() -> ListStyle,
    ) -> Seg {
        let t = seg.trim();
        // A line break inside an order (a form feed, a vertical tab, NEL, a line or
        // paragraph separator pasted from a web page or a word processor) is no space:
        // named, never read past.
        if !t.is_ascii() || t.bytes().any(|b| b == 0x0b || b == 0x0c || b == b'\r') {
            if let Some((i, c)) = t
                .char_indices()
                .find(|&(_, c)| c.is_whitespace() && !super::diagnostic::reads_as_space(c))
            {
                let at = t.get(i..).unwrap_or_default();
                return Seg::Error(
                    Diagnostic::error(
                        self.span(at, c.len_utf8()),
                        format!("a line break inside an order: found `{c}`"),
                        // (The help names it: pasted from a chat or a web page.)
                        None,
                    ),
                    None,
                );
            }
        }
        let t = self.bullet(t, in_force, lists);
        let (t, marked) = match self.marker(t, in_force, lists) {
            Marker::None => (t, None),
            Marker::Strip(r) => (r, None),
            Marker::Power(p, r) => (r, Some(p)),
            Marker::Ambiguous(d) => return Seg::Error(d, None),
        };
        if t.is_empty() {
            return match marked {
                Some(p) => Seg::Header(p),
                None => Seg::Skip,
            };
        }
        // What the first word may be: most orders begin with a unit, and need no
        // look for labels, headers or prefixes.
        let (power_head, label) = match word(t) {
            Ok((_, w)) => (
                with_normalized(w, |n| {
                    self.names.power_head(n)
                        || n.strip_suffix('s')
                            .is_some_and(|h| self.names.power_head(h))
                }),
                flags(w) & flag::LABEL != 0,
            ),
            Err(_) => (false, true),
        };
        if marked.is_none() && (power_head || label) {
            if label && is_label(t) {
                return Seg::Label;
            }
            match self.header(t) {
                Some(Ok(p)) => return Seg::Header(p),
                Some(Err(d)) => return Seg::Error(d, None),
                None => {}
            }
        }
        let (body, prefix) = match marked {
            Some(p) => (t, Some(p)),
            None if !power_head
                && !label
                && t.as_bytes().get(1).is_some_and(|&c| {
                    !c.is_ascii_whitespace() && !matches!(c, b':' | b'.' | b')')
                }) =>
            {
                (t, None)
            }
            None => match self.split_prefix(t, in_force, power_head, lists) {
                Prefix::None => (t, None),
                Prefix::Power(p, rest) => (rest, Some(p)),
                Prefix::Ambiguous(d) => return Seg::Error(d, None),
            },
        };
        // `England: 1. F Lon - NTH`
        let body = match (prefix, self.marker(body, prefix, lists)) {
            (Some(_), Marker::Strip(r)) => r,
            _ => body,
        };
        if let (Some(p), true) = (prefix, body.trim().is_empty()) {
            return Seg::Header(p);
        }
        match self.order(body, prefix.or(in_force)) {
            Ok(o) => Seg::Order(o, prefix),
            Err(d) => match prefix {
                None => self.corrected_power(t).unwrap_or(Seg::Error(d, None)),
                Some(_) => Seg::Error(d, prefix),
            },
        }
    }

    /// A bullet before a marker or a power prefix (`• 1. A Vie - Tri`, `- England: F
    /// Lon - NTH`, `* E) F Lon`): skipped. `•` is always a bullet; `-` and `*` before a
    /// unit are left to the grammar, which reads `- F Tri` as a removal.
    fn bullet<'a>(
        &self,
        t: &'a str,
        in_force: Option<Power>,
        lists: &dyn Fn() -> ListStyle,
    ) -> &'a str {
        let Some(rest) = t
            .strip_prefix(['•', '·', '-', '*', '–', '—'])
            .filter(|r| r.starts_with([' ', '\t']))
        else {
            return t;
        };
        let rest = rest.trim_start();
        if t.starts_with(['•', '·']) {
            return rest;
        }
        let marked = !matches!(self.marker(rest, in_force, lists), Marker::None);
        let head = word(rest)
            .is_ok_and(|(_, w)| with_normalized(w, |n| self.names.power_head(n)) || w.len() == 1)
            || rest.starts_with(['[', '(', '<']);
        if marked
            || head
                && matches!(
                    self.probe(|| Ok::<_, ()>(self.split_prefix(rest, in_force, true, lists))),
                    Some(Prefix::Power(..))
                )
        {
            rest
        } else {
            t
        }
    }

    /// A list marker: `1.`, `2)`, `(3)`, `#4`, `5:`, `b)`, `(c)`, `iv)`, `ii.`; or a
    /// power's initial written like one (`E)`). A letter that is a power's initial is a
    /// list letter when the text's markers include a letter that is not (`b)`), a power
    /// when it is upper case or the text marks two powers so; otherwise it cannot be
    /// told, and that is an error.
    fn marker<'a>(
        &self,
        t: &'a str,
        in_force: Option<Power>,
        lists: &dyn Fn() -> ListStyle,
    ) -> Marker<'a> {
        let b = t.as_bytes();
        let k = usize::from(matches!(b.first(), Some(b'(') | Some(b'#')));
        let digits = b
            .get(k..)
            .unwrap_or_default()
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if digits > 0 {
            let mut j = k + digits;
            let punct = matches!(b.get(j), Some(b'.') | Some(b')') | Some(b':'));
            if punct {
                j += 1;
            }
            if b.first() == Some(&b'(') && b.get(j - 1) != Some(&b')') {
                return Marker::None;
            }
            let rest = &t[j..];
            if digits <= 3 && (punct || rest.is_empty() || rest.starts_with(char::is_whitespace)) {
                return Marker::Strip(rest.trim_start());
            }
            return Marker::None;
        }
        let Some((s, _, after)) = letter_marker(t) else {
            return Marker::None;
        };
        let rest = after.trim_start();
        if s.len() > 1 {
            return if is_roman(s) {
                Marker::Strip(rest)
            } else {
                Marker::None
            };
        }
        let c = s.chars().next().unwrap_or(' ');
        let Some(p) = self.names.initial(c) else {
            return Marker::Strip(rest);
        };
        let style = lists();
        if style.lettered {
            Marker::Strip(rest)
        } else if style.powers || c.is_ascii_uppercase() || in_force == Some(p) {
            Marker::Power(p, rest)
        } else {
            let name = &self.map.power(p).name;
            Marker::Ambiguous(Diagnostic::error(
                self.span(t, t.len() - after.len()),
                format!(
                    "`{}` may be a list letter or {name}'s initial",
                    &t[..t.len() - after.len()]
                ),
                Some(format!(
                    "write `{name}:` for the power, or number the list `1.`"
                )),
            ))
        }
    }

    /// A header: a segment that names a power and nothing else but label words,
    /// perhaps in brackets or with a colon: `England`, `ENGLAND:`, `[England]`,
    /// `(ITALY)`, `Austria-Hungary`, `England's orders`, `Orders for France:`.
    fn header(&self, t: &str) -> Option<Result<Power, Diagnostic>> {
        const OPEN: &str = "[(<*=-";
        const CLOSE: &str = "])>*=-:.";
        let inner = t.trim_start_matches(|c: char| OPEN.contains(c) || c.is_whitespace());
        let opened = inner.len() != t.len();
        let inner2 = inner.trim_end_matches(|c: char| CLOSE.contains(c) || c.is_whitespace());
        let closed = inner2.len() != inner.len();
        let mut power: Option<(Power, &str)> = None;
        let mut words = 0;
        let mut cur = inner2;
        loop {
            cur = cur.trim_start_matches(|c: char| !is_word_char(c));
            if cur.is_empty() {
                break;
            }
            words += 1;
            if let Ok((r, p)) = self.power(cur) {
                if power.is_some() {
                    return None;
                }
                power = Some((p, &cur[..cur.len() - r.len()]));
                cur = r;
                // `France (Fred):`, the player's name after the power
                let at = r.as_ptr() as usize - t.as_ptr() as usize;
                let after = t[at..].trim().trim_end_matches(':').trim_end();
                let group = after
                    .strip_prefix('(')
                    .and_then(|a| a.strip_suffix(')'))
                    .filter(|g| !g.contains(['(', ')']) && g.len() <= 40);
                if words == 1 && group.is_some() {
                    return Some(Ok(p));
                }
                continue;
            }
            let (r, w) = word(cur).ok()?;
            // `Fall '01`: a year written short, after its apostrophe.
            label_word(w.trim_end_matches('.').trim_start_matches(['\'', '’']))?;
            cur = r;
        }
        let (p, text) = power?;
        // `ENG` alone: England, or the unit in the English Channel holding?
        let place = (words == 1 && !opened && !closed)
            .then(|| with_normalized(text, |n| self.names.place(n).first().copied()))
            .flatten();
        if let Some(place) = place {
            return Some(Err(Diagnostic::error(
                self.span(t, t.len()),
                format!(
                    "`{text}` may be {} (a header) or the unit in {} holding",
                    self.map.power(p).name,
                    self.map.loc_name(place)
                ),
                Some(format!(
                    "write `{}:` for a header, or `{} H` for the order",
                    self.map.power(p).name,
                    text
                )),
            )));
        }
        Some(Ok(p))
    }

    /// A power prefix: `England: F Lon`, `TUR: Con-Bul`, `[GERMANY] A Mun - Ruh`,
    /// `(Italy) A Rom - Apu`, `English F Lon`, `E: F Lon`, `E F Lon`, `A F Tri`
    /// (Austria's fleet). Without a colon, a power word that begins a place name is
    /// the place (`English Channel - Brest`), and one that is a place name (`ENG`) is
    /// read both ways: if both read, it is an error naming both.
    fn split_prefix<'a>(
        &self,
        t: &'a str,
        in_force: Option<Power>,
        power_head: bool,
        lists: &dyn Fn() -> ListStyle,
    ) -> Prefix<'a> {
        let close = match t.as_bytes().first() {
            Some(b'[') => Some(']'),
            Some(b'(') => Some(')'),
            Some(b'<') => Some('>'),
            _ => None,
        };
        if let Some(close) = close {
            let Some(end) = t.find(close) else {
                return Prefix::None;
            };
            let inner = t[1..end].trim().trim_end_matches(':');
            let p = with_normalized(inner, |n| self.names.power(n)).or_else(|| {
                let mut cs = inner.chars();
                match (cs.next(), cs.next()) {
                    (Some(c), None) => self.names.initial(c),
                    _ => None,
                }
            });
            return match p {
                Some(p) => Prefix::Power(p, t[end + 1..].trim_start()),
                None => Prefix::None,
            };
        }
        if let Some((r, p)) = power_head.then(|| self.power(t).ok()).flatten() {
            let r2 = r.trim_start();
            if let Some(rest) = r2.strip_prefix([':', ')']) {
                return Prefix::Power(p, rest.trim_start());
            }
            if !r.starts_with([' ', '\t'])
                || !r2.starts_with(|c: char| c.is_alphanumeric() || c == '(' || c == '[')
            {
                return Prefix::None;
            }
            return match self.probe(|| self.place(t, false)) {
                // `English Channel - Brest`
                Some((after, _)) if after.len() < r.len() => Prefix::None,
                // `ENG FLT LON`, `Eng - Bel`, `Eng Bel`
                Some(_) => self.both_ways(t, r2, p, in_force, true),
                None => Prefix::Power(p, r2),
            };
        }
        self.initial_prefix(t, in_force, lists)
    }

    /// A one-letter power prefix: `E: F Lon`, `E. F Lon`, `E F Lon`, `A F Tri`, `F A
    /// Par`, `T Con - Bul`. `A` and `F` before a place are unit types (`A Vie`); a
    /// letter that is also an order word (`R A Mun - Boh`: Russia, or a retreat?) is
    /// read both ways.
    fn initial_prefix<'a>(
        &self,
        t: &'a str,
        in_force: Option<Power>,
        lists: &dyn Fn() -> ListStyle,
    ) -> Prefix<'a> {
        let Ok((r, w)) = word(t) else {
            return Prefix::None;
        };
        let letter = w.trim_end_matches('.');
        let mut cs = letter.chars();
        let (Some(c), None) = (cs.next(), cs.next()) else {
            return Prefix::None;
        };
        let Some(p) = self.names.initial(c) else {
            return Prefix::None;
        };
        let type_letter = flags(letter) & (flag::ARMY | flag::FLEET) != 0;
        // `E:`; `E)` after a list marker (`b) E) F Lon`; alone, `E)` is a marker)
        if let Some(rest) = r.trim_start().strip_prefix([':', ')']) {
            if !w.ends_with('.') {
                return Prefix::Power(p, rest.trim_start());
            }
        }
        if !r.starts_with([' ', '\t']) {
            return Prefix::None;
        }
        let rest = r.trim_start();
        if rest.is_empty() {
            return Prefix::None;
        }
        if type_letter {
            // `A F Tri`, `F A Par`: a power before a unit type; `A Vie`: the type;
            // `A fleet at Brest`: an article.
            let typed = self.unit_type(rest).is_ok();
            let article = flags(letter) & flag::ARMY != 0
                && word(rest)
                    .is_ok_and(|(r2, w2)| w2.len() > 1 && kwf(flag::AT)(r2.trim_start()).is_ok());
            return if typed && !article {
                Prefix::Power(p, rest)
            } else {
                Prefix::None
            };
        }
        if flags(letter) & flag::KEYWORD != 0 && lists().initials {
            // `R A War - Gal` in a text that writes `E F Lon`, `G A Mun`
            return Prefix::Power(p, rest);
        }
        self.both_ways(t, rest, p, in_force, false)
    }

    /// Read `whole` as an order, and `rest` as an order for `p`: the prefix holds if
    /// only `rest` reads, or if both read and mean the same (the header in force is
    /// `p`); if both read otherwise, it is an error naming both.
    fn both_ways<'a>(
        &self,
        whole: &'a str,
        rest: &'a str,
        p: Power,
        in_force: Option<Power>,
        place_word: bool,
    ) -> Prefix<'a> {
        let as_power = self.probe(|| self.full(rest));
        let as_written = self.probe(|| self.full(whole));
        match (as_power, as_written) {
            (Some(_), None) => Prefix::Power(p, rest),
            (None, Some(_)) => Prefix::None,
            (None, None) => {
                if self.unit_type(rest).is_ok() || !place_word {
                    Prefix::Power(p, rest)
                } else {
                    Prefix::None
                }
            }
            (Some(a), Some(b)) => {
                let same = a.unit.map(|u| self.map.prov_of(u.loc))
                    == b.unit.map(|u| self.map.prov_of(u.loc))
                    && a.kind == b.kind;
                if (place_word && self.unit_type(rest).is_ok()) || (same && in_force == Some(p)) {
                    return Prefix::Power(p, rest);
                }
                let first = &whole[..whole.len() - rest.len()];
                let first = first.trim_end();
                let name = &self.map.power(p).name;
                let other = if place_word {
                    let l = with_normalized(first, |n| self.names.place(n).first().copied());
                    l.map(|l| format!("the province {}", self.map.loc_name(l)))
                        .unwrap_or_else(|| "a province".into())
                } else {
                    format!("the order word `{first}`")
                };
                Prefix::Ambiguous(Diagnostic::error(
                    self.span(whole, first.len()),
                    format!("`{first}` may be {name} or {other}: the order reads both ways"),
                    Some(format!(
                        "write `{name}:` for the power, or the order in full"
                    )),
                ))
            }
        }
    }

    /// A misspelt power (`Englnd:`, `Frnace`) with exactly one close power, as a
    /// header or a prefix with a colon: read with a warning (an error in strict mode).
    fn corrected_power(&self, t: &str) -> Option<Seg> {
        let s = t.trim_start_matches(['[', '(', '<']);
        let (r, w) = word(s).ok()?;
        if w.len() < 4 || is_any_keyword(w) || label_word(w).is_some() {
            return None;
        }
        let exact_place = with_normalized(w, |n| !self.names.place(n).is_empty());
        if exact_place || self.probe(|| self.place(s, true)).is_some() {
            return None;
        }
        let close = self.names.close_powers(&normalize(w));
        let [p] = close[..] else {
            return None;
        };
        let r = r.trim_start_matches([']', ')', '>']);
        let rest = r.trim_start();
        let whole = at_end(rest.trim_start_matches(':'));
        let colon = rest.starts_with(':');
        if !whole && !colon {
            return None;
        }
        let name = &self.map.power(p).name;
        let span = self.span(s, w.len());
        if self.strict {
            return Some(Seg::Error(
                Diagnostic::error(
                    span,
                    format!("unknown power `{w}`"),
                    Some(format!("did you mean `{name}`?")),
                ),
                None,
            ));
        }
        let warning = Diagnostic::warning(
            span,
            format!("read `{w}` as `{name}`"),
            Some(format!(
                "no other power is close; write `{name}` to be sure"
            )),
        );
        if whole {
            self.warnings.borrow_mut().push(warning);
            return Some(Seg::Header(p));
        }
        let body = rest[1..].trim_start();
        let seg = match self.order(body, Some(p)) {
            Ok(o) => Seg::Order(o, Some(p)),
            Err(d) => Seg::Error(d, Some(p)),
        };
        self.warnings.borrow_mut().insert(0, warning);
        Some(seg)
    }
}

#[cfg(test)]
mod result_tests {
    use super::*;

    #[test]
    fn result_words_in_parentheses() {
        assert_eq!(result_parens("A Par - Bur (fail)"), [(12, 17)]);
        assert_eq!(result_parens("(bounce, dislodged)"), [(0, 18)]);
        assert_eq!(result_parens("(no convoy)"), [(0, 10)]);
        assert_eq!(result_parens("( convoy )"), []);
        assert_eq!(result_parens("(nc) (via convoy)"), []);
        // Several `(` before one `)`: the first whose text is all result words.
        assert_eq!(result_parens("((fail)"), [(0, 6)]);
        assert_eq!(result_parens("(nc (fail)"), [(4, 9)]);
        let line = "A Par - Bur (*bounce*) (fail)";
        let clean = clean_line(line);
        assert_eq!((clean.trim_end(), clean.len()), ("A Par - Bur", line.len()));
    }

    #[test]
    fn many_tags_and_parentheses_take_linear_time() {
        // Once quadratic: 1 MB of tags took 27 s.
        let tags = "(*bounce*)".repeat(100_000);
        let line = format!("A Par - Bur {tags}");
        assert_eq!(clean_line(&line).trim_end(), "A Par - Bur");
        let opens = format!("{}fail)", "(".repeat(500_000));
        assert_eq!(clean_line(&opens).trim(), "");
        let words = format!("({})", "fail ".repeat(200_000));
        assert_eq!(clean_line(&words).trim(), "");
    }
}

#[cfg(test)]
mod fast_tests {
    use super::*;

    /// Every order written in a DATC case, in the parser's benches and tests, and
    /// plain orders for every province: the fast path reads each exactly as the full
    /// grammar does, or leaves it to the full grammar.
    #[test]
    fn the_fast_path_agrees_with_the_full_grammar() {
        let map = Map::standard();
        let mut texts: Vec<String> = Vec::new();
        for src in [
            include_str!("../../test-cases/datc/6a-basic.yaml"),
            include_str!("../../test-cases/datc/6b-coasts.yaml"),
            include_str!("../../test-cases/datc/6c-circular.yaml"),
            include_str!("../../test-cases/datc/6d-supports.yaml"),
            include_str!("../../test-cases/datc/6e-head-to-head.yaml"),
            include_str!("../../test-cases/datc/6f-convoys.yaml"),
            include_str!("../../test-cases/datc/6g-adjacent-convoys.yaml"),
            include_str!("../../test-cases/datc/6h-retreats.yaml"),
            include_str!("../../test-cases/regressions/midgame.yaml"),
            include_str!("../../benches/parse.rs"),
            include_str!("../../tests/it/parser.rs"),
            include_str!("../../tests/it/parser_styles.rs"),
        ] {
            for line in src.lines() {
                let t = line
                    .trim()
                    .trim_start_matches("- ")
                    .trim_matches(['"', ',']);
                let t = t.split(": ").next().unwrap_or(t);
                if t.len() > 2 && t.len() < 80 {
                    texts.push(t.to_string());
                }
            }
        }
        for p in map.provs() {
            let id = &map.province(p).id;
            let name = &map.province(p).name;
            for q in map.provs().filter(|&q| map.army_adjacent(p, q) || q == p) {
                let to = &map.province(q).id;
                texts.push(format!("A {id} - {to}"));
                texts.push(format!(
                    "F {} - {}",
                    id.to_uppercase(),
                    map.province(q).name
                ));
                texts.push(format!("a {name} S A {to}"));
                texts.push(format!("A {id} S F {to} - {id}"));
                texts.push(format!("F {id} C A {to} - {name}"));
                texts.push(format!("Army {name} holds"));
                texts.push(format!("A {id} H S"));
                texts.push(format!("F {id}/nc - {to}/sc"));
                texts.push(format!("F {to} S F {id} H"));
            }
        }
        // Texts `parse_order_with` must not read as plain.
        for t in [
            "A Par - Bur, A Mar H",
            "A Par - Bur;",
            "A Par - Bur # Paris to Burgundy",
            "A Par - Bur (fail)",
            "A Par - Bur (*bounce*)",
            "F Spa (sc) - Mao",
            "  A Par - Bur\t",
            "England: F Lon - NTH",
        ] {
            texts.push(t.to_string());
        }
        let (fast, total, _) = agree(&map, &texts);
        // The fast path reads a good part of these (or this test checks nothing): each
        // text is tried for two powers.
        assert!(fast / 2 > total / 4, "{fast} of {total}");
    }

    /// Check each text both ways; how many the fast path read (for two powers each),
    /// and how many texts there were.
    fn agree(map: &Map, texts: &[String]) -> (usize, usize, usize) {
        let (mut fast, mut prefixed) = (0, 0);
        for t in texts {
            for power in [None, Some(Power(2))] {
                // `parse_order_with` reads a plain text at once, as its general path
                // does.
                for strict in [false, true] {
                    let options = ParseOptions { strict };
                    assert_eq!(
                        parse_order_with(map, t, power, options),
                        parse_order_cleaned(map, t, power, options),
                        "`{t}`"
                    );
                }
                let ctx = Ctx::new(map, t, 1, false);
                let Some((quick, prefix)) = ctx.fast(t, power) else {
                    continue;
                };
                fast += 1;
                prefixed += usize::from(prefix.is_some());
                let full = Ctx::new(map, t, 1, false);
                match full.segment_full(t, power, &ListStyle::default) {
                    Seg::Order(o, p) => {
                        assert_eq!((quick, prefix), (o, p), "`{t}`");
                        assert!(full.warnings.borrow().is_empty(), "`{t}` warns");
                    }
                    _ => panic!("the fast path read `{t}`, the full grammar does not"),
                }
            }
        }
        (fast, texts.len(), prefixed)
    }

    /// Orders put together from the written forms of each part (names of one or more
    /// words, in any case, hyphenated; unit words; verbs; coasts in every form;
    /// nationalities; `via convoy`; a final `.`), and the same with a word replaced by
    /// a word of the grammar or a stray mark: the two paths agree on every one.
    fn any<'a>(xs: &[&'a str], k: usize) -> &'a str {
        xs.get(k % xs.len()).copied().unwrap_or("")
    }

    #[test]
    fn the_fast_path_agrees_on_generated_orders() {
        let map = Map::standard();
        let mut places: Vec<String> = Vec::new();
        for p in map.provs() {
            let pr = map.province(p);
            places.push(pr.id.clone());
            places.push(pr.name.clone());
            places.push(pr.name.to_uppercase());
            places.push(pr.name.replace(' ', "-"));
            places.extend(pr.aliases.iter().cloned());
            for &c in &pr.coasts {
                let Some(k) = map.coast(c) else { continue };
                for form in ["/", " ", "-"] {
                    places.push(format!("{}{form}{}", pr.id, k.id));
                }
                places.push(format!("{} {}", pr.name, k.name.to_lowercase()));
                places.push(format!("{}/{}", pr.name, k.name));
                let first = k.name.split(' ').next().unwrap_or("");
                places.push(format!("{} {first}", pr.id));
                places.push(format!("{}/{first}ern", pr.id));
                places.push(format!("{} ({})", pr.id, k.id));
            }
        }
        places.extend(
            [
                "Lon/xc",
                "Spa/qq",
                "Par/nc",
                "North",
                "Mid",
                "St. Petersburg",
                "Gulf of",
                "Eng-Bel",
            ]
            .map(String::from),
        );
        let units = [
            "A",
            "F",
            "a",
            "Army",
            "fleet",
            "AMY",
            "FLT",
            "The army at",
            "A F",
        ];
        let moves = [
            "-",
            "->",
            "moves to",
            "m",
            "to",
            "attack on",
            "- to",
            "- -",
            "=>",
            "-->",
        ];
        let holds = ["H", "holds", "Hold.", "stands", "h via convoy"];
        let nations = [
            "",
            "Turkish ",
            "ENG ",
            "Austria-Hungary ",
            "German: ",
            "T ",
            "E ",
        ];
        let prefixes = [
            "",
            "",
            "",
            "",
            "",
            "England: ",
            "TUR: ",
            "France:",
            "E: ",
            "Eng: ",
        ];
        let tails = [
            "",
            ".",
            " via convoy",
            " by c",
            " via Nth",
            " H",
            " - Bur",
            "  ",
            " S",
        ];
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut pick = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut texts = Vec::new();
        let mut total = (0, 0, 0);
        // 10,000 orders in a debug build (the usual `cargo test`), 40,000 optimised.
        let rounds = if cfg!(debug_assertions) {
            10_000
        } else {
            40_000
        };
        for round in 0..rounds {
            let place = |k: usize| places.get(k % places.len()).cloned().unwrap_or_default();
            let (u1, p1, p2, p3) = (pick(99), pick(9999), pick(9999), pick(9999));
            let (u2, v, n, tl) = (pick(99), pick(99), pick(99), pick(99));
            let unit = format!("{} {}", any(&units, u1), place(p1));
            let target = format!("{}{} {}", any(&nations, n), any(&units, u2), place(p2));
            let go = format!("{} {}", any(&moves, v), place(p3));
            let mut t = match round % 5 {
                0 => format!("{unit} {}", any(&holds, v)),
                1 => format!("{unit} {go}"),
                2 => format!("{unit} S {target} {go}"),
                3 => format!("{unit} supports {target}"),
                _ => format!("{unit} C {target} {go}"),
            };
            t.push_str(any(&tails, tl));
            t.insert_str(0, any(&prefixes, u1 + n));
            if round % 3 == 0 {
                // One word replaced, or a mark put in.
                let words: Vec<&str> = t.split(' ').collect();
                let at = pick(words.len());
                let with = [
                    "S", "-", "/", "(", "at", "the", "nc", "Spa", "convoy", "Nth", "",
                ];
                let w = with.get(pick(with.len())).copied().unwrap_or("");
                let mut ws: Vec<String> = words.iter().map(|x| x.to_string()).collect();
                if let Some(x) = ws.get_mut(at) {
                    *x = if round % 2 == 0 {
                        w.to_string()
                    } else {
                        format!("{x}{w}")
                    };
                }
                t = ws.join(" ");
            }
            texts.push(t);
            if texts.len() == 5_000 {
                let (f, n, p) = agree(&map, &texts);
                total = (total.0 + f, total.1 + n, total.2 + p);
                texts.clear();
            }
        }
        let (f, n, p) = agree(&map, &texts);
        total = (total.0 + f, total.1 + n, total.2 + p);
        assert!(
            total.0 / 2 > total.1 / 10 && total.2 > total.0 / 20,
            "{total:?}"
        );
    }
}
