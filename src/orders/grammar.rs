//! The order grammar (nom, on characters), with names resolved as they are read.
//!
//! A line holds zero or more orders separated by `,` or `;`; `#` starts a comment;
//! result tags such as `(*bounce*)` are ignored so that a results listing pasted back
//! still parses. A segment is a power header (`England:`, `[England]`), or an order
//! with an optional power prefix (`England: F Lon - NTH`). See `docs/ORDERS.md`.

use std::borrow::Cow;

use nom::branch::alt;
use nom::bytes::complete::{tag, take_while1};
use nom::character::complete::{char, space0, space1};
use nom::combinator::opt;
use nom::error::{ErrorKind, ParseError};
use nom::{Err, IResult};

use super::{Diagnostic, Order, OrderKind, Span, UnitRef};
use crate::map::names::{normalize, with_normalized, NameIndex};
use crate::map::{Loc, Map, Power, UnitKind};

/// Orders read from a text, and a diagnostic for every problem.
#[derive(Debug, Clone, Default)]
pub struct Parsed {
    pub orders: Vec<Order>,
    pub diagnostics: Vec<Diagnostic>,
}

/// A grammar error: where, and (for a committed error) what to tell the user.
#[derive(Debug)]
struct PErr<'a> {
    at: &'a str,
    len: usize,
    msg: Option<(String, Option<String>)>,
}

impl<'a> ParseError<&'a str> for PErr<'a> {
    fn from_error_kind(input: &'a str, _: ErrorKind) -> Self {
        PErr {
            at: input,
            len: 0,
            msg: None,
        }
    }
    fn append(_: &'a str, _: ErrorKind, other: Self) -> Self {
        other
    }
}

type Res<'a, T> = IResult<&'a str, T, PErr<'a>>;

fn fail<'a, T>(at: &'a str, len: usize, msg: String, help: Option<String>) -> Res<'a, T> {
    Err(Err::Failure(PErr {
        at,
        len,
        msg: Some((msg, help)),
    }))
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '.' || c == '\'' || c == '’'
}

/// A word: letters, digits, `.` and `'`.
fn word(i: &str) -> Res<'_, &str> {
    take_while1(is_word_char)(i)
}

/// Length of the first word of `i` (for error spans).
fn first_word_len(i: &str) -> usize {
    let n = i.find(|c: char| !is_word_char(c)).unwrap_or(i.len());
    if n == 0 {
        i.chars().next().map(|c| c.len_utf8()).unwrap_or(0)
    } else {
        n
    }
}

/// Does the word `w` (any case, `.` and `'` ignored) equal the lowercase keyword `k`?
fn word_eq(w: &str, k: &str) -> bool {
    let mut kb = k.bytes();
    for b in w.bytes() {
        if b == b'.' || b == b'\'' {
            continue;
        }
        match kb.next() {
            Some(c) if c == b.to_ascii_lowercase() => {}
            _ => return false,
        }
    }
    kb.next().is_none()
}

/// A keyword: one word whose normalized form is in `words`.
fn kw<'a>(words: &'static [&'static str]) -> impl FnMut(&'a str) -> Res<'a, &'a str> {
    move |i: &'a str| {
        let (rest, w) = word(i)?;
        if words.iter().any(|k| word_eq(w, k)) {
            Ok((rest, w))
        } else {
            Err(Err::Error(PErr::from_error_kind(i, ErrorKind::Tag)))
        }
    }
}

const HOLD: &[&str] = &["h", "hold", "holds", "stand", "stands"];
const SUPPORT: &[&str] = &["s", "support", "supports", "sup", "supp"];
const CONVOY: &[&str] = &["c", "convoy", "convoys"];
const MOVE_WORDS: &[&str] = &[
    "to", "m", "move", "moves", "attack", "attacks", "r", "retreat", "retreats", "mv",
];
const DISBAND: &[&str] = &["d", "disband", "disbands", "destroy", "remove", "removes"];
const BUILD: &[&str] = &["b", "build", "builds"];
const WAIVE: &[&str] = &["waive", "waives", "waived"];
const ARMY: &[&str] = &["a", "army"];
const FLEET: &[&str] = &["f", "fleet"];

/// Every keyword, for "did you mean" on a misspelt order word.
const KEYWORDS: &[&[&str]] = &[HOLD, SUPPORT, CONVOY, MOVE_WORDS, DISBAND, BUILD, WAIVE];

fn unit_kind(i: &str) -> Res<'_, UnitKind> {
    alt((
        |i| kw(ARMY)(i).map(|(r, _)| (r, UnitKind::Army)),
        |i| kw(FLEET)(i).map(|(r, _)| (r, UnitKind::Fleet)),
    ))(i)
}

/// A move arrow or move word(s): `-`, `->`, `=>`, `→`, `to`, `moves to`, `R`, ...
fn move_verb(i: &str) -> Res<'_, ()> {
    let one = |i| -> Res<'_, ()> {
        let (i, _) = space0(i)?;
        let (i, _) = alt((
            tag("-->"),
            tag("->"),
            tag("=>"),
            tag("→"),
            tag("–"),
            tag("—"),
            tag("-"),
            tag(">"),
            kw(MOVE_WORDS),
        ))(i)?;
        Ok((i, ()))
    };
    let (mut i, _) = one(i)?;
    while let Ok((r, _)) = one(i) {
        i = r;
    }
    Ok((i, ()))
}

/// `via convoy`, `via`, `by convoy`, `(via convoy)`.
fn via(i: &str) -> Res<'_, ()> {
    let (i, _) = space0(i)?;
    let (i, open) = opt(char('('))(i)?;
    let (i, _) = space0(i)?;
    let (i, _) = alt((
        |i| {
            let (i, _) = kw(&["via"])(i)?;
            let (i, _) = opt(|i| {
                let (i, _) = space1(i)?;
                kw(&["convoy", "c"])(i)
            })(i)?;
            Ok((i, ()))
        },
        |i| {
            let (i, _) = kw(&["by"])(i)?;
            let (i, _) = space1(i)?;
            let (i, _) = kw(&["convoy", "c"])(i)?;
            Ok((i, ()))
        },
    ))(i)?;
    let (i, _) = space0(i)?;
    let (i, _) = if open.is_some() {
        opt(char(')'))(i)?
    } else {
        (i, None)
    };
    Ok((i, ()))
}

/// What an order's body says: its unit, what it does, a power named inside it.
type Body = (Option<UnitRef>, OrderKind, Option<Power>);

/// What the grammar knows while parsing one line.
struct Ctx<'m> {
    map: &'m Map,
    names: &'m NameIndex,
    line: &'m str,
    line_no: u32,
    /// Problems that do not stop an order from being read (an ignored coast).
    warnings: std::cell::RefCell<Vec<Diagnostic>>,
}

impl<'m> Ctx<'m> {
    fn offset(&self, s: &str) -> u32 {
        (s.as_ptr() as usize).saturating_sub(self.line.as_ptr() as usize) as u32
    }

    fn span(&self, s: &str, len: usize) -> Span {
        let start = self.offset(s);
        Span {
            line: self.line_no,
            start,
            end: start + len as u32,
        }
    }

    /// A place name of one or more words (longest match), with an optional coast.
    /// With `short`, a unique prefix of a name is accepted too (`Gasc`). Fails softly
    /// (nom `Error`) if no name matches.
    fn place<'a>(&self, i: &'a str, short: bool) -> Res<'a, Loc> {
        let (start, _) = space0(i)?;
        // Collect up to `max_words` words, joined by spaces or a tight hyphen.
        let mut ends: Vec<&'a str> = Vec::new();
        let mut cur = start;
        while ends.len() < self.names.max_words {
            let Ok((r, _)) = word(cur) else { break };
            ends.push(r);
            // separator
            let sep = r.trim_start_matches([' ', '\t']);
            if let Some(s) = r.strip_prefix('-') {
                if s.starts_with(|c: char| c.is_alphanumeric()) {
                    cur = s;
                    continue;
                }
            }
            if sep.len() == r.len() || sep.is_empty() {
                break;
            }
            cur = sep;
        }
        // The longest exact name; failing that, a name written short (`Gasc`, `North Atl`).
        type Lookup<'x> = &'x dyn Fn(&str) -> Cow<'x, [Loc]>;
        let exact = |text: &str| Cow::Borrowed(with_normalized(text, |n| self.names.place(n)));
        let prefix = |text: &str| Cow::Owned(self.names.by_prefix(self.map, &normalize(text)));
        let lookups: [(Lookup<'_>, &str); 2] = [
            (&exact, "write the province's id instead"),
            (&prefix, "write more of the name, or the province's id"),
        ];
        for (lookup, help) in lookups.into_iter().take(if short { 2 } else { 1 }) {
            for k in (1..=ends.len()).rev() {
                let text = &start[..start.len() - ends[k - 1].len()];
                let locs = lookup(text);
                match locs.len() {
                    0 => continue,
                    1 => return self.coast(ends[k - 1], locs[0], text),
                    _ => {
                        let names: Vec<String> = locs
                            .iter()
                            .map(|&l| {
                                format!("`{}` ({})", self.map.loc_name(l), self.map.loc_id(l))
                            })
                            .collect();
                        let msg = format!(
                            "ambiguous name `{text}`: it could be {}",
                            names.join(" or ")
                        );
                        return fail(start, text.len(), msg, Some(help.into()));
                    }
                }
            }
        }
        Err(Err::Error(PErr::from_error_kind(start, ErrorKind::Tag)))
    }

    /// An optional coast after a place: `/nc`, `(nc)`, `(north coast)`, ` nc`, ` north coast`.
    fn coast<'a>(&self, i: &'a str, loc: Loc, name: &'a str) -> Res<'a, Loc> {
        let slash = |i: &'a str| -> Res<'a, &'a str> {
            let (i, _) = space0(i)?;
            let (i, _) = char('/')(i)?;
            let (i, _) = space0(i)?;
            word(i)
        };
        let paren = |i: &'a str| -> Res<'a, &'a str> {
            let (i, _) = space0(i)?;
            let (i, _) = char('(')(i)?;
            let (i, _) = space0(i)?;
            let s = i;
            let end = i
                .find(')')
                .ok_or_else(|| Err::Error(PErr::from_error_kind(i, ErrorKind::Char)))?;
            let inner = &s[..end];
            Ok((&s[end + 1..], inner))
        };
        let looks_like_coast = |w: &str| {
            let n = normalize(w);
            self.names.coast(&n).is_some()
                || n.ends_with("coast")
                || (n.len() == 2 && n.ends_with('c'))
        };
        let (rest, written) = if let Ok((r, w)) = slash(i) {
            (r, w)
        } else if let Some((r, w)) = paren(i).ok().filter(|(_, w)| looks_like_coast(w)) {
            (r, w)
        } else if self.map.province(self.map.prov_of(loc)).coasts.is_empty() {
            // No named coasts: a bare word after the place is not a coast (`Nwy North Sea`).
            return Ok((i, loc));
        } else {
            // bare: `stp nc`, `spain north coast` (no single letters: `S` is support)
            let mut best = None;
            let mut cur = i;
            let mut words = 0;
            while words < 2 {
                let Ok((r, _)) = space1::<_, PErr>(cur) else {
                    break;
                };
                let Ok((r2, _)) = word(r) else { break };
                words += 1;
                let text = &i[..i.len() - r2.len()];
                let n = normalize(text);
                if n.len() > 1 && self.names.coast(&n).is_some() {
                    best = Some((r2, text));
                }
                cur = r2;
            }
            match best {
                Some((r, t)) => (r, t),
                None => return Ok((i, loc)),
            }
        };
        let norm = normalize(written);
        let norm = norm
            .strip_suffix(" coast")
            .map(|s| s.to_string())
            .unwrap_or(norm);
        let coast_id = self
            .names
            .coast(&norm)
            .or_else(|| self.names.coast(&format!("{norm} coast")));
        let p = self.map.province(self.map.prov_of(loc));
        if p.coasts.is_empty() {
            // A coast on a province without named coasts is irrelevant (DATC 4.B.6).
            return Ok((rest, loc));
        }
        let found = coast_id.and_then(|cid| {
            p.coasts
                .iter()
                .copied()
                .find(|&c| self.map.coast(c).is_some_and(|k| k.id == cid))
        });
        match found {
            Some(c) => Ok((rest, c)),
            None => {
                // An unknown coast is garbage to ignore (DATC 4.B.6); say so.
                let options: Vec<String> = p.coasts.iter().map(|&c| self.map.loc_id(c)).collect();
                let len = name.len() + (i.len() - rest.len());
                self.warnings.borrow_mut().push(Diagnostic::warning(
                    self.span(name, len),
                    format!(
                        "{} has no coast `{}`: the coast is ignored (DATC 4.B.6)",
                        p.name,
                        written.trim()
                    ),
                    Some(format!("write one of {}", options.join(", "))),
                ));
                Ok((rest, loc))
            }
        }
    }

    /// A place that must be there: a soft failure becomes "unknown province".
    fn place_req<'a>(&self, i: &'a str, what: &str) -> Res<'a, Loc> {
        match self.place(i, true) {
            Err(Err::Error(_)) => {
                let s = i.trim_start();
                if s.is_empty() || s.starts_with('.') {
                    return fail(
                        s,
                        0,
                        format!("expected {what}, found the end of the order"),
                        None,
                    );
                }
                let len = first_word_len(s);
                let w = &s[..len];
                fail(
                    s,
                    len,
                    format!("unknown province `{w}`"),
                    self.names.suggest(self.map, w),
                )
            }
            other => other,
        }
    }

    /// `[A|F] place`, the unit an order is for or refers to.
    fn unit<'a>(&self, i: &'a str, what: &str) -> Res<'a, UnitRef> {
        let (i, _) = space0(i)?;
        let (i, kind) = opt(|i| {
            let (r, k) = unit_kind(i)?;
            // `A` must be a word of its own, followed by space.
            let (r, _) = space1(r)?;
            Ok((r, k))
        })(i)?;
        let (i, loc) = self.place_req(i, what)?;
        Ok((i, UnitRef { kind, loc }))
    }

    /// A power name or adjective (`England`, `English`), as one word.
    fn power<'a>(&self, i: &'a str) -> Res<'a, Power> {
        let (r, w) = word(i)?;
        match with_normalized(w, |n| self.names.power(n)) {
            Some(p) => Ok((r, p)),
            None => Err(Err::Error(PErr::from_error_kind(i, ErrorKind::Tag))),
        }
    }

    /// The body of an order (after any power prefix).
    /// Skip a power's adjective or name before a supported or convoyed unit
    /// (`S Russian A Ber`, `C Turkish Army Ankara`): the unit's own power counts.
    fn skip_power<'a>(&self, i: &'a str) -> &'a str {
        let (r, _) = space0::<_, PErr>(i).unwrap_or((i, ""));
        match self.power(r) {
            Ok((after, _)) if after.starts_with(' ') && self.place(r, false).is_err() => after,
            _ => i,
        }
    }

    /// The body of an order: the unit, what it does, and a power named inside the
    /// order (`waive France`).
    fn body<'a>(&self, i: &'a str) -> Res<'a, Body> {
        let (i, _) = space0(i)?;
        // waive
        if let Ok((r, _)) = kw(WAIVE)(i) {
            let (r, power) = opt(|i| {
                let (i, _) = space1(i)?;
                self.power(i)
            })(r)?;
            return Ok((r, (None, OrderKind::Waive, power)));
        }
        // build / remove written before the unit
        let build = |i| -> Res<'_, ()> {
            let (i, _) = alt((kw(BUILD), tag("+")))(i)?;
            let (i, _) = space1(i)?;
            Ok((i, ()))
        };
        if let Ok((r, _)) = build(i) {
            let (r, u) = self.unit(r, "a province to build in")?;
            return Ok((r, (Some(u), OrderKind::Build, None)));
        }
        let remove = |i| -> Res<'_, ()> {
            let (i, _) = alt((kw(DISBAND), tag("*")))(i)?;
            let (i, _) = space1(i)?;
            Ok((i, ()))
        };
        if let Ok((r, _)) = remove(i) {
            if let Ok((r, u)) = self.unit(r, "a unit") {
                return Ok((r, (Some(u), OrderKind::Disband, None)));
            }
        }
        let (i, unit) = self.unit(i, "a unit (`A Par`, `F Lon`)")?;
        let (i, kind) = self.tail(i)?;
        Ok((i, (Some(unit), kind, None)))
    }

    /// What follows the unit: the verb and its arguments.
    fn tail<'a>(&self, i: &'a str) -> Res<'a, OrderKind> {
        let (i, _) = space0(i)?;
        if at_end(i) {
            return Ok((i, OrderKind::Hold));
        }
        if let Ok((r, _)) = kw(HOLD)(i) {
            return Ok((r, OrderKind::Hold));
        }
        if let Ok((r, _)) = kw(SUPPORT)(i) {
            let r = self.skip_power(r);
            let (r, target) = self.unit(r, "the supported unit")?;
            if let Ok((r2, _)) = move_verb(r) {
                let (r2, to) = self.place_req(r2, "where the supported unit moves")?;
                let (r2, _) = opt(via)(r2)?;
                return Ok((
                    r2,
                    OrderKind::Support {
                        target,
                        to: Some(to),
                    },
                ));
            }
            let (r, _) = opt(|i| {
                let (i, _) = space1(i)?;
                kw(HOLD)(i)
            })(r)?;
            return Ok((r, OrderKind::Support { target, to: None }));
        }
        if let Ok((r, _)) = kw(CONVOY)(i) {
            let r = self.skip_power(r);
            let (r, army) = self.unit(r, "the convoyed army")?;
            let r = match move_verb(r) {
                Ok((r, _)) => r,
                Err(_) => {
                    let s = r.trim_start();
                    return fail(
                        s,
                        first_word_len(s),
                        "a convoy names the army's move".to_string(),
                        Some("write `F NTH C A Lon - Nwy`".into()),
                    );
                }
            };
            let (r, to) = self.place_req(r, "where the convoyed army goes")?;
            return Ok((r, OrderKind::Convoy { army, to }));
        }
        if let Ok((r, _)) = alt((kw(DISBAND), tag("*")))(i) {
            return Ok((r, OrderKind::Disband));
        }
        if let Ok((r, _)) = kw(BUILD)(i) {
            return Ok((r, OrderKind::Build));
        }
        // Move: a verb then a place, or a place right away; a route (several places) means
        // via convoy (DATC 4.A.6: the path itself is ignored).
        let first = match move_verb(i) {
            Ok((r, _)) => self.place_req(r, "where the unit moves")?,
            Err(_) => match self.place(i, false) {
                Ok(x) => x,
                Err(Err::Error(_)) => {
                    let len = first_word_len(i);
                    let w = &i[..len];
                    let help = suggest_keyword(w)
                        .map(|k| format!("did you mean `{k}`?"))
                        .or_else(|| self.names.suggest(self.map, w))
                        .or_else(|| {
                            Some("an order is hold (H), move (-), support (S) or convoy (C)".into())
                        });
                    return fail(
                        i,
                        len,
                        format!("expected an order after the unit, found `{w}`"),
                        help,
                    );
                }
                Err(e) => return Err(e),
            },
        };
        let (mut r, mut to) = first;
        let mut hops = 0;
        loop {
            let save = r;
            let step = match move_verb(r) {
                Ok((r2, _)) => self.place(r2, false),
                Err(_) => match space1::<_, PErr>(r) {
                    Ok((r2, _)) => self.place(r2, false),
                    Err(_) => break,
                },
            };
            match step {
                Ok((r2, l)) => {
                    r = r2;
                    to = l;
                    hops += 1;
                }
                Err(Err::Failure(e)) => return Err(Err::Failure(e)),
                Err(_) => {
                    r = save;
                    break;
                }
            }
        }
        let (r, v) = opt(via)(r)?;
        Ok((
            r,
            OrderKind::Move {
                to,
                via_convoy: v.is_some() || hops > 0,
            },
        ))
    }
}

fn at_end(i: &str) -> bool {
    let t = i.trim();
    t.is_empty() || t == "."
}

fn suggest_keyword(w: &str) -> Option<&'static str> {
    let n = normalize(w);
    if n.len() < 3 {
        return None;
    }
    KEYWORDS
        .iter()
        .flat_map(|l| l.iter())
        .filter(|k| k.len() > 2)
        .map(|k| (crate::map::names::levenshtein(&n, k), *k))
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, k)| k)
}

/// Remove `(*bounce*)`-style tags and comments, keeping byte offsets (tags become spaces).
fn clean_line(raw: &str) -> std::borrow::Cow<'_, str> {
    if !raw.contains('#') && !raw.contains("(*") {
        return std::borrow::Cow::Borrowed(raw);
    }
    let mut s = match raw.find('#') {
        Some(n) => raw[..n].to_string(),
        None => raw.to_string(),
    };
    while let Some(a) = s.find("(*") {
        let b = s[a..].find("*)").map(|b| a + b + 2).unwrap_or(s.len());
        s.replace_range(a..b, &" ".repeat(b - a));
    }
    std::borrow::Cow::Owned(s)
}

/// Parse a whole text of orders: headers, prefixes, several orders per line, comments.
pub fn parse_orders(map: &Map, text: &str) -> Parsed {
    let names = map.names();
    let mut out = Parsed::default();
    let mut power: Option<Power> = None;
    for (n, raw) in text.lines().enumerate() {
        let cleaned = clean_line(raw);
        let ctx = Ctx {
            map,
            names,
            line: &cleaned,
            line_no: n as u32 + 1,
            warnings: Default::default(),
        };
        // A `Power:` prefix holds for the rest of its line.
        let mut line_power = power;
        for seg in cleaned.split([',', ';']) {
            let t = seg.trim();
            if t.is_empty() {
                continue;
            }
            // Header: `England`, `England:`, `[England]`, `ENGLAND:`
            let h = t
                .trim_start_matches('[')
                .trim_end_matches(':')
                .trim_end_matches(']')
                .trim();
            if let Some(p) = with_normalized(h, |n| names.power(n)) {
                power = Some(p);
                line_power = Some(p);
                continue;
            }
            if let Some(p) = ctx.prefix(seg) {
                line_power = Some(p);
            }
            match ctx.segment(seg, line_power) {
                Ok(o) => out.orders.push(o),
                Err(d) => out.diagnostics.push(d),
            }
            out.diagnostics.append(&mut ctx.warnings.borrow_mut());
        }
    }
    out
}

/// Parse one order (batch input): `power` is the power it is given for. A trailing `,`
/// or `;` is allowed; two orders in one string are an error.
pub fn parse_order(map: &Map, text: &str, power: Option<Power>) -> Result<Order, Diagnostic> {
    let cleaned = clean_line(text);
    let one = cleaned.trim_end().trim_end_matches([',', ';']);
    let ctx = Ctx {
        map,
        names: map.names(),
        line: &cleaned,
        line_no: 1,
        warnings: Default::default(),
    };
    if let Some(at) = one.find([',', ';']) {
        return Err(Diagnostic::error(
            ctx.span(&one[at..], 1),
            "several orders in one string",
            Some("give each order as a string of its own".into()),
        ));
    }
    ctx.segment(one, power)
}

impl Ctx<'_> {
    /// The power of a `Power:` (or `Power `) prefix, and the text after it.
    fn split_prefix<'a>(&self, seg: &'a str) -> Option<(Power, &'a str)> {
        let t = seg.trim_start();
        let (r, p) = self.power(t).ok()?;
        if let Some(rest) = r.trim_start().strip_prefix(':') {
            return Some((p, rest.trim_start()));
        }
        // Without a colon, a power word that begins a place name is the place:
        // `English Channel - Brest` is an order for the fleet in the Channel.
        let begins_place = self
            .place(t, false)
            .is_ok_and(|(after, _)| after.len() < r.len());
        (r.starts_with(' ') && !begins_place).then(|| (p, r.trim_start()))
    }

    fn prefix(&self, seg: &str) -> Option<Power> {
        self.split_prefix(seg).map(|(p, _)| p)
    }

    /// One order, with an optional `Power:` prefix.
    fn segment(&self, seg: &str, header: Option<Power>) -> Result<Order, Diagnostic> {
        let (body, power) = match self.split_prefix(seg) {
            Some((p, body)) => (body, Some(p)),
            None => (seg.trim_start(), header),
        };
        let result = self.body(body).and_then(|(r, x)| {
            let r = r.trim_start();
            let r = r.strip_prefix('.').unwrap_or(r).trim_start();
            if r.is_empty() {
                Ok((r, x))
            } else {
                let len = r.trim_end().len();
                fail(
                    r,
                    len,
                    format!("unexpected `{}` after the order", r.trim_end()),
                    Some("write one order per line, or separate orders with `,`".into()),
                )
            }
        });
        match result {
            Ok((_, (unit, kind, named))) => {
                let text = body.trim().trim_end_matches('.').trim_end();
                Ok(Order {
                    power: named.or(power),
                    unit,
                    kind,
                    text: text.to_string(),
                    span: self.span(body, text.len()),
                })
            }
            Err(Err::Failure(e)) | Err(Err::Error(e)) => Err(match e.msg {
                Some((msg, help)) => Diagnostic::error(self.span(e.at, e.len), msg, help),
                None => Diagnostic::error(
                    self.span(seg.trim_start(), seg.trim().len()),
                    format!("cannot read the order `{}`", seg.trim()),
                    Some("see docs/ORDERS.md for the order syntax".into()),
                ),
            }),
            Err(Err::Incomplete(_)) => Err(Diagnostic::error(
                self.span(seg, seg.len()),
                "incomplete order",
                None,
            )),
        }
    }
}
