//! The grammar of one order's body (nom, on characters), with names resolved as they
//! are read: places and coasts, units, the supported or convoyed unit and its stated
//! nationality, verbs and their arguments, command-first forms. Lines, headers,
//! prefixes and list markers are in [`super::text`]. See `docs/ORDERS.md`.
//!
//! Never a misreading: where a text has two readings the grammar fails with an error
//! naming both; a misspelling is corrected only when exactly one name is close, and
//! then with a warning that shows the correction (an error in strict mode).

use std::borrow::Cow;
use std::cell::RefCell;

use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::character::complete::{char, space0, space1};
use nom::combinator::opt;
use nom::sequence::{preceded, tuple};
use nom::Err;

use super::words::*;
use super::{Diagnostic, OrderKind, Span, UnitRef};
use crate::map::names::{correction_limit, distance_within, normalize, with_normalized, NameIndex};
use crate::map::{Loc, Map, Power, UnitKind};

/// The nationality written for a supported or convoyed unit, and where.
pub(super) type Stated = Option<(Power, Span)>;

/// What an order's body says.
#[derive(Debug)]
pub(super) struct Body {
    pub unit: Option<UnitRef>,
    pub kind: OrderKind,
    /// A power named inside the order (`waive France`).
    pub named: Option<Power>,
    /// The nationality written for the supported or convoyed unit (DATC 4.C.5, 4.C.6).
    pub stated: Stated,
}

/// What follows a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verb {
    Hold,
    Support,
    Convoy,
    Disband,
    Build,
    Via,
    /// A move verb; `true` if it ended in an arrow (`A Bud–Holds`).
    Move(bool),
}

/// An order word written before the unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Command {
    Waive,
    /// `Save`, `save build`: save a build for a colonial build next winter.
    Save,
    Build,
    /// `Disband`, `Remove`, `D`: a unit and nothing after it.
    Remove,
    /// `*`, `-`: a removal when only a unit follows, else a bullet before an order.
    RemoveOrBullet,
    /// `•`: a bullet before an order.
    Bullet,
    Move,
    Hold,
}

/// Where each of the first few words of a name ends (no allocation).
struct Ends<'a> {
    e: [&'a str; Ends::MAX],
    n: usize,
}

impl Ends<'_> {
    /// The most words a name may have.
    const MAX: usize = 8;
}

impl<'a> std::ops::Deref for Ends<'a> {
    type Target = [&'a str];
    fn deref(&self) -> &[&'a str] {
        self.e.get(..self.n).unwrap_or_default()
    }
}

/// What the grammar knows while parsing one line.
pub(super) struct Ctx<'m> {
    pub map: &'m Map,
    pub names: &'m NameIndex,
    pub line: &'m str,
    pub line_no: u32,
    /// Every correction is an error.
    pub strict: bool,
    /// Problems that do not stop an order from being read (an ignored coast, a
    /// corrected name).
    pub warnings: RefCell<Vec<Diagnostic>>,
    /// Looking ahead only ([`Ctx::probe`]): errors need no "did you mean".
    quiet: std::cell::Cell<bool>,
}

pub(super) fn at_end(i: &str) -> bool {
    let t = i.trim();
    t.is_empty() || t == "."
}

impl<'m> Ctx<'m> {
    pub fn new(map: &'m Map, line: &'m str, line_no: u32, strict: bool) -> Self {
        Ctx {
            map,
            names: map.names(),
            line,
            line_no,
            strict,
            warnings: Default::default(),
            quiet: Default::default(),
        }
    }

    pub fn offset(&self, s: &str) -> u32 {
        (s.as_ptr() as usize).saturating_sub(self.line.as_ptr() as usize) as u32
    }

    pub fn span(&self, s: &str, len: usize) -> Span {
        let start = self.offset(s);
        Span {
            line: self.line_no,
            start,
            end: start + len as u32,
        }
    }

    fn warn(&self, d: Diagnostic) {
        self.warnings.borrow_mut().push(d);
    }

    /// Run `f` and keep the warnings it gave only if it succeeded.
    pub fn attempt<T, E>(&self, f: impl FnOnce() -> Result<T, E>) -> Result<T, E> {
        let n = self.warnings.borrow().len();
        let r = f();
        if r.is_err() {
            self.warnings.borrow_mut().truncate(n);
        }
        r
    }

    /// From now on, errors need no "did you mean" (nor its search of the names): the
    /// text has given more diagnostics than are kept, so this line's are only counted.
    pub fn quiet(self) -> Self {
        self.quiet.set(true);
        self
    }

    /// Run `f` to look ahead only: its warnings are dropped either way.
    pub fn probe<T, E>(&self, f: impl FnOnce() -> Result<T, E>) -> Option<T> {
        let n = self.warnings.borrow().len();
        let quiet = self.quiet.replace(true);
        let r = f();
        self.quiet.set(quiet);
        self.warnings.borrow_mut().truncate(n);
        r.ok()
    }

    /// The ends of up to `max` words from `start` (at most [`Ends::MAX`]), joined by
    /// spaces or a tight hyphen (`Mid-Atlantic`), for names of several words.
    fn word_ends(start: &str, max: usize) -> Ends<'_> {
        let mut ends = Ends {
            e: [""; Ends::MAX],
            n: 0,
        };
        let mut cur = start;
        while ends.n < max.min(Ends::MAX) {
            let Ok((r, _)) = word(cur) else { break };
            let Some(slot) = ends.e.get_mut(ends.n) else {
                break;
            };
            *slot = r;
            ends.n += 1;
            if let Some(s) = r.strip_prefix('-') {
                if s.starts_with(|c: char| c.is_alphanumeric()) {
                    cur = s;
                    continue;
                }
            }
            let sep = r.trim_start_matches([' ', '\t']);
            if sep.len() == r.len() || sep.is_empty() {
                break;
            }
            cur = sep;
        }
        ends
    }

    /// A place name of one or more words (longest match), with an optional coast.
    /// With `short`, a unique prefix of a name is accepted too (`Gasc`). Fails softly
    /// (nom `Error`) if no name matches.
    pub fn place<'a>(&self, i: &'a str, short: bool) -> Res<'a, Loc> {
        let (start, _) = space0(i)?;
        let ends = Self::word_ends(start, self.names.max_words);
        type Lookup<'x> = &'x dyn Fn(&str) -> Cow<'x, [Loc]>;
        let exact = |text: &str| Cow::Borrowed(with_normalized(text, |n| self.names.place(n)));
        let prefix = |text: &str| Cow::Owned(self.short_places(text));
        let lookups: [(Lookup<'_>, &str); 2] = [
            (&exact, "write the province's id instead"),
            (&prefix, "write more of the name, or the province's id"),
        ];
        // Exact names: the longest of the texts that may begin one. A text that begins
        // no longer name (and a space) ends the walk, unless the next word is only `.`
        // or `'` (it adds nothing to the name).
        let mut longest = 0;
        for (k, &end) in ends.iter().enumerate() {
            let text = &start[..start.len() - end.len()];
            let (locs, longer) = with_normalized(text, |n| self.names.scan(n.as_bytes()));
            if !locs.is_empty() {
                longest = k + 1;
            }
            let next_adds = ends.get(k + 1).is_some_and(|&next| {
                end[..end.len() - next.len()]
                    .chars()
                    .any(char::is_alphanumeric)
            });
            if !longer && next_adds {
                break;
            }
        }
        // A name written short that goes on past the longest exact name (`Mid Atl`:
        // `Mid` is the Mid-Atlantic's alias; `Nor Sea`: `Nor` is Norway's).
        if short && longest > 0 {
            if let Some(r) = self.short_past_exact(start, &ends, longest) {
                return r;
            }
        }
        for (n, (lookup, help)) in lookups
            .into_iter()
            .take(if short { 2 } else { 1 })
            .enumerate()
        {
            let tried = match n {
                0 => ends.get(..longest).unwrap_or_default(),
                _ => &ends[..],
            };
            for &end in tried.iter().rev() {
                let text = &start[..start.len() - end.len()];
                let locs = lookup(text);
                if locs.is_empty() {
                    continue;
                }
                if n == 0 {
                    return match *locs {
                        [loc] => self.coast(end, loc, text),
                        _ => {
                            let msg = format!(
                                "ambiguous name `{text}`: it could be {}",
                                self.list_places(&locs)
                            );
                            fail(start, text.len(), msg, Some(help.into()))
                        }
                    };
                }
                // Written short, and perhaps a misspelling of another name: `Sain`
                // begins `Saint Petersburg` and is one letter from `Spain`; `Pars` is
                // Paris without its `i` and one letter from `Mars` (Marseilles).
                let norm = normalize(text);
                let close = self.names.one_edit_from(self.map, &norm);
                let mut all: Vec<Loc> = locs.to_vec();
                all.extend(close.iter().filter(|l| !locs.contains(l)));
                if let [loc] = *all {
                    return self.coast(end, loc, text);
                }
                let prefix = self.names.prefix_places(self.map, &norm);
                let (misspelt, short): (Vec<Loc>, Vec<Loc>) = all
                    .iter()
                    .partition(|l| close.contains(l) && !prefix.contains(l));
                let short: Vec<Loc> = short.into_iter().filter(|l| locs.contains(l)).collect();
                let msg = match (short.as_slice(), misspelt.is_empty()) {
                    // Every reading is a misspelling: the corrections say so (and
                    // no shorter text is read instead).
                    ([], _) => return no(start),
                    ([loc], true) => return self.coast(end, *loc, text),
                    (_, true) => format!(
                        "ambiguous name `{text}`: it could be {}",
                        self.list_places(&short)
                    ),
                    (_, false) => format!(
                        "ambiguous name `{text}`: it could be {}, written short, or {}, misspelt",
                        self.list_places(&short),
                        self.list_places(&misspelt)
                    ),
                };
                let help = if misspelt.is_empty() {
                    help
                } else {
                    "write the name in full, or the province's id"
                };
                return fail(start, text.len(), msg, Some(help.into()));
            }
        }
        no(start)
    }

    /// The provinces `text` is written short for ([`NameIndex::short_places`]), none
    /// if a word of it is an order word (`Hld` is *hold*, not Holland) or the whole
    /// text is a power, coast or label word.
    fn short_places(&self, text: &str) -> Vec<Loc> {
        if is_reserved_short(self.names, text) {
            return vec![];
        }
        self.names.short_places(self.map, &normalize(text))
    }

    /// After the longest exact name (`longest` words of `ends`), a longer text from
    /// `start` that is a name written short: its reading, the longest first. Where the
    /// short reading is another province and the word after the exact name reads as
    /// something of its own (an order word, or the start of a name: `F Nth Nwy`), the
    /// text reads both ways and it is an error naming both. `None`: no such text.
    fn short_past_exact<'a>(
        &self,
        start: &'a str,
        ends: &[&'a str],
        longest: usize,
    ) -> Option<Res<'a, Loc>> {
        let exact_end = *ends.get(longest - 1)?;
        let exact_text = &start[..start.len() - exact_end.len()];
        let exact: Vec<Loc> = with_normalized(exact_text, |n| {
            self.names
                .place(n)
                .iter()
                .map(|&l| self.map.prov_of(l).into())
                .collect()
        });
        for &end in ends.get(longest..)?.iter().rev() {
            let text = &start[..start.len() - end.len()];
            let locs = self.short_places(text);
            if locs.is_empty() {
                continue;
            }
            let same = locs.len() == 1 && exact == locs;
            let next = exact_end.trim_start_matches([' ', '\t', '-']);
            let next_reads = word(next).is_ok_and(|(_, w)| {
                is_any_keyword(w)
                    || with_normalized(w, |n| {
                        let (found, longer) = self.names.scan(n.as_bytes());
                        !found.is_empty() || longer
                    })
            });
            if !same && next_reads {
                let msg = format!(
                    "ambiguous name `{text}`: it could be {}, written short, or {} and what follows",
                    self.list_places(&locs),
                    self.list_places(&exact)
                );
                return Some(fail(
                    start,
                    text.len(),
                    msg,
                    Some("write the name in full, or the province's id".into()),
                ));
            }
            return Some(match *locs.as_slice() {
                [loc] => self.coast(end, loc, text),
                _ => fail(
                    start,
                    text.len(),
                    format!(
                        "ambiguous name `{text}`: it could be {}",
                        self.list_places(&locs)
                    ),
                    Some("write more of the name, or the province's id".into()),
                ),
            });
        }
        None
    }

    fn list_places(&self, locs: &[Loc]) -> String {
        let names: Vec<String> = locs
            .iter()
            .map(|&l| format!("`{}` ({})", self.map.loc_name(l), self.map.loc_id(l)))
            .collect();
        names.join(" or ")
    }

    /// An optional coast after a place: `/nc`, `/north coast`, `(nc)`, `(northern)`,
    /// `-nc`, ` nc`, ` north coast`.
    fn coast<'a>(&self, i: &'a str, loc: Loc, name: &'a str) -> Res<'a, Loc> {
        let p = self.map.province(self.map.prov_of(loc));
        // `/nc`, `/ north coast`: the longest coast word of up to two words, else one word.
        let slash = |i: &'a str| -> Res<'a, &'a str> {
            let (i, _) = space0(i)?;
            let (i, _) = char('/')(i)?;
            let (s, _) = space0(i)?;
            let ends = Self::word_ends(s, 2);
            for &end in ends.iter().rev() {
                let text = &s[..s.len() - end.len()];
                if with_normalized(text, |n| self.names.coast(n).is_some()) {
                    return Ok((end, text));
                }
            }
            word(s)
        };
        let paren = |i: &'a str| -> Res<'a, &'a str> {
            let (i, _) = space0(i)?;
            let (i, _) = char('(')(i)?;
            let (s, _) = space0(i)?;
            let Some(end) = s.find(')') else {
                return no(s);
            };
            Ok((&s[end + 1..], s[..end].trim_end()))
        };
        let looks_like_coast = |w: &str| {
            let n = normalize(w);
            self.names.coast(&n).is_some()
                || n.ends_with("coast")
                || (n.len() == 2 && n.ends_with('c'))
        };
        let own = |w: &str| -> Option<Loc> {
            let id = with_normalized(w, |n| self.names.coast_bare(n).map(str::to_string))?;
            p.coasts
                .iter()
                .copied()
                .find(|&c| self.map.coast(c).is_some_and(|k| k.id == id))
        };
        let (rest, written) = if let Ok((r, w)) = slash(i) {
            (r, w)
        } else if let Some((r, w)) = paren(i).ok().filter(|(_, w)| looks_like_coast(w)) {
            (r, w)
        } else if p.coasts.is_empty() {
            // No named coasts: a bare word after the place is not a coast (`Nwy North Sea`).
            return Ok((i, loc));
        } else if let Some((r, c)) = i
            .strip_prefix('-')
            .and_then(|s| word(s).ok())
            .and_then(|(r, w)| own(w).map(|c| (r, c)))
        {
            // `Spa-nc`
            return Ok((r, c));
        } else {
            // bare: `stp nc`, `spain north coast`; only this province's coasts, and
            // never a single letter (`S` after a place is support)
            let mut best = None;
            let mut cur = i;
            for _ in 0..2 {
                let Ok((r, _)) = space1::<_, PErr>(cur) else {
                    break;
                };
                let Ok((r2, _)) = word(r) else { break };
                let text = &i[..i.len() - r2.len()];
                if let Some(c) = own(text) {
                    best = Some((r2, c));
                }
                cur = r2;
            }
            return Ok(best.unwrap_or((i, loc)));
        };
        if p.coasts.is_empty() {
            // A coast on a province without named coasts is irrelevant (DATC 4.B.6).
            return Ok((rest, loc));
        }
        let norm = normalize(written);
        let norm = norm
            .strip_suffix(" coast")
            .map(|s| s.to_string())
            .unwrap_or(norm);
        let coast_id = self
            .names
            .coast(&norm)
            .or_else(|| self.names.coast(&format!("{norm} coast")));
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
                self.warn(Diagnostic::warning(
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

    /// Is this (normalized) word one the grammar knows as something other than a
    /// place: a keyword, a power, a coast or a label word? Such words are never
    /// corrected into a place.
    fn is_other_word(&self, w: &str) -> bool {
        is_any_keyword(w)
            || with_normalized(w, |n| {
                self.names.power(n).is_some() || self.names.coast(n).is_some()
            })
            || label_word(w).is_some()
    }

    /// A misspelt place (`Burgandi`) with exactly one close name: read as that name with
    /// a warning (an error in strict mode). Two or more close names are an error naming
    /// them. `None` if no name is close.
    fn corrected_place<'a>(&self, s: &'a str) -> Result<Option<(&'a str, Loc)>, Err<PErr<'a>>> {
        let ends = Self::word_ends(s, self.names.max_words);
        for &end in ends.iter().rev() {
            let text = &s[..s.len() - end.len()];
            let words: Vec<&str> = text
                .split([' ', '-', '\t'])
                .filter(|w| !w.is_empty())
                .collect();
            if words.iter().any(|w| self.is_other_word(w)) {
                continue;
            }
            let norm = normalize(text);
            let mut close = self.names.close_places(self.map, &norm);
            if close.is_empty() {
                // No name close by letters: one that sounds the same (`Bergendee`).
                close = self
                    .names
                    .sounds_like(self.map, &norm)
                    .into_iter()
                    .map(|l| (l, 0))
                    .collect();
            }
            match (close.len(), close.first()) {
                (0, _) => continue,
                (1, Some(&(loc, _))) => {
                    let (name, id) = (self.map.loc_name(loc), self.map.loc_id(loc));
                    if self.strict {
                        return Err(failure(
                            s,
                            text.len(),
                            format!("unknown province `{text}`"),
                            Some(format!("did you mean `{name}` ({id})?")),
                        ));
                    }
                    self.warn(Diagnostic::warning(
                        self.span(s, text.len()),
                        format!("read `{text}` as `{name}` ({id})"),
                        Some(format!("no other name is close; write `{id}` to be sure")),
                    ));
                    return self.coast(end, loc, text).map(Some);
                }
                _ => {
                    let locs: Vec<Loc> = close.iter().map(|&(l, _)| l).collect();
                    return Err(failure(
                        s,
                        text.len(),
                        format!(
                            "unknown province `{text}`: it is close to {}",
                            self.list_places(&locs)
                        ),
                        Some("write the name in full, or the province's id".into()),
                    ));
                }
            }
        }
        Ok(None)
    }

    /// A place that must be there: a misspelling with one close name is corrected; a
    /// soft failure becomes "unknown province".
    pub fn place_req<'a>(&self, i: &'a str, what: &str) -> Res<'a, Loc> {
        match self.place(i, true) {
            Err(Err::Error(_)) => {}
            other => return other,
        }
        let s = i.trim_start();
        if at_end(s) {
            return fail(
                s,
                0,
                format!("expected {what}, found the end of the order"),
                None,
            );
        }
        let len = first_word_len(s);
        let w = &s[..len];
        if !s.starts_with(is_word_char) {
            return fail(s, len, format!("expected {what}, found `{w}`"), None);
        }
        if let Some(r) = self.corrected_place(s)? {
            return Ok(r);
        }
        let help = if self.quiet.get() {
            None
        } else {
            self.names.suggest(self.map, w).or_else(|| {
                // A word not read as a short form because it means something else too
                // (`North`: a coast): the names it begins are the fix.
                let begun = self.names.short_places(self.map, &normalize(w));
                (!begun.is_empty()).then(|| {
                    format!(
                        "it could be {}, written short: write more of the name, or the \
                         province's id",
                        self.list_places(&begun)
                    )
                })
            })
        };
        fail(s, len, format!("unknown province `{w}`"), help)
    }

    /// A unit type written as a word of its own: `A`, `Army`, `F`, `Fleet`, DAIDE's
    /// `AMY` and `FLT`, followed by a space or `(`.
    pub fn unit_type<'a>(&self, i: &'a str) -> Res<'a, UnitKind> {
        let (r, w) = word(i)?;
        let f = flags(w);
        let k = if f & flag::ARMY != 0 {
            UnitKind::Army
        } else if f & flag::FLEET != 0 {
            UnitKind::Fleet
        } else {
            return no(i);
        };
        if r.starts_with([' ', '\t']) || r.trim_start().starts_with('(') {
            Ok((r, k))
        } else {
            no(i)
        }
    }

    /// An article before a unit: `the`, or `a`/`an` before a unit type spelt out (`a
    /// fleet at Brest`, `the German army`).
    fn article<'a>(&self, i: &'a str) -> &'a str {
        let Ok((r, w)) = word(i) else {
            return i;
        };
        if flags(w) & flag::ARTICLE == 0 || !r.starts_with([' ', '\t']) {
            return i;
        }
        let r = r.trim_start();
        if word_eq(w, "the") {
            return r;
        }
        match word(r) {
            Ok((_, w2)) if w2.len() > 1 && flags(w2) & (flag::ARMY | flag::FLEET) != 0 => r,
            _ => i,
        }
    }

    /// `[article] [type] [at|in] place`, or `A(Vie)`: the unit an order is for or
    /// refers to.
    pub fn unit<'a>(&self, i: &'a str, what: &str) -> Res<'a, UnitRef> {
        let (i, _) = space0(i)?;
        let f = word(i).map(|(_, w)| flags(w)).unwrap_or(0);
        let i = if f & flag::ARTICLE != 0 {
            self.article(i)
        } else {
            i
        };
        let (i, kind) = if f & (flag::ARMY | flag::FLEET | flag::ARTICLE) != 0 {
            opt(|i| self.unit_type(i))(i)?
        } else {
            (i, None)
        };
        let (i, _) = space0(i)?;
        let i = match kind {
            Some(_) => match preceded(kwf(flag::AT), space1::<_, PErr>)(i) {
                Ok((r, _)) => r,
                Err(_) => i,
            },
            None => i,
        };
        if let Ok((r, _)) = char::<_, PErr>('(')(i) {
            let (r, loc) = self.place_req(r, what)?;
            let (r, _) = space0(r)?;
            let (r, _) = opt(char(')'))(r)?;
            return Ok((r, UnitRef { kind, loc }));
        }
        let (i, loc) = self.place_req(i, what)?;
        Ok((i, UnitRef { kind, loc }))
    }

    /// A power's name, adjective, code or other name (`England`, `English`, `ENG`,
    /// `Austria-Hungary`, `Germany's`), of one or more words.
    pub fn power<'a>(&self, i: &'a str) -> Res<'a, Power> {
        let (_, first) = word(i)?;
        let head = with_normalized(first, |n| {
            self.names.power_head(n)
                || n.strip_suffix('s')
                    .is_some_and(|h| self.names.power_head(h))
        });
        if !head {
            return no(i);
        }
        let ends = Self::word_ends(i, self.names.power_words);
        for &end in ends.iter().rev() {
            let text = &i[..i.len() - end.len()];
            let found = with_normalized(text, |n| self.names.power(n)).or_else(|| {
                let t = text
                    .strip_suffix("'s")
                    .or_else(|| text.strip_suffix("’s"))?;
                with_normalized(t, |n| self.names.power(n))
            });
            if let Some(p) = found {
                return Ok((end, p));
            }
        }
        no(i)
    }

    /// The nationality written before a supported or convoyed unit: a power word
    /// (`S Russian A Ber`, `SUP ( GER AMY MUN )`) or an initial (`S T F Bla`, `S R: A
    /// Mos`). A power word that is, or begins, a place is the place (`S English Channel`,
    /// `S Eng - Bel`) unless a unit type follows it; `A` and `F` before a place are
    /// unit types (`S A Ber`).
    fn stated_power<'a>(&self, i: &'a str) -> (&'a str, Stated) {
        let s = i.trim_start();
        if let Ok((r, p)) = self.power(s) {
            let rest = r.strip_prefix(':').unwrap_or(r);
            if rest.starts_with([' ', '\t']) {
                let typed = self.unit_type(rest.trim_start()).is_ok();
                let place = self
                    .probe(|| self.place(s, false))
                    .is_some_and(|(after, _)| after.len() <= r.len());
                if typed || !place {
                    return (rest, Some((p, self.span(s, s.len() - r.len()))));
                }
            }
        }
        if let Ok((r, w)) = word(s) {
            let letter = w.trim_end_matches('.');
            if letter.len() == 1 {
                if let Some(p) = self.names.initial(letter.chars().next().unwrap_or(' ')) {
                    let r = r.strip_prefix([':', ')']).unwrap_or(r);
                    let rest = r.trim_start();
                    let is_type_letter = flags(letter) & (flag::ARMY | flag::FLEET) != 0;
                    let power = if self.unit_type(rest).is_ok() {
                        true
                    } else {
                        !is_type_letter && self.probe(|| self.place(rest, false)).is_some()
                    };
                    if power && r.starts_with([' ', '\t']) {
                        return (r, Some((p, self.span(s, w.len()))));
                    }
                }
            }
        }
        (i, None)
    }

    /// The supported unit or convoyed army: `[the] [power] unit`.
    fn target<'a>(&self, i: &'a str, what: &str) -> Res<'a, (UnitRef, Stated)> {
        let (i, _) = space0(i)?;
        let i = self.article(i);
        let (i, stated) = self.stated_power(i);
        let (i, u) = self.unit(i, what)?;
        Ok((i, (u, stated)))
    }

    /// The order word after a unit, if any.
    fn verb<'a>(&self, i: &'a str) -> Option<(&'a str, Verb)> {
        let s = i.trim_start();
        if let Ok((r, w)) = word(s) {
            let f = flags(w);
            let v = if f & flag::HOLD != 0 {
                Verb::Hold
            } else if f & flag::SUPPORT != 0 {
                Verb::Support
            } else if f & flag::CONVOY != 0 {
                Verb::Convoy
            } else if f & flag::DISBAND != 0 {
                Verb::Disband
            } else if f & flag::BUILD != 0 {
                Verb::Build
            } else if f & flag::VIA != 0 {
                Verb::Via
            } else if f & flag::MOVE == 0 {
                return None;
            } else {
                return move_verb(s).ok().map(|(r, arrow)| (r, Verb::Move(arrow)));
            };
            return Some((r, v));
        }
        if let Some(r) = s.strip_prefix('*') {
            return Some((r, Verb::Disband));
        }
        move_verb(s).ok().map(|(r, arrow)| (r, Verb::Move(arrow)))
    }

    /// A misspelt order word with exactly one close keyword (`suport`), if it is not
    /// close to a place: read as that keyword with a warning (an error in strict mode,
    /// as `Ok(None)`).
    fn corrected_keyword<'a, T: Copy + PartialEq>(
        &self,
        s: &'a str,
        choices: &[(&[&str], &'static str, T)],
    ) -> Option<(&'a str, T, &'static str)> {
        let (r, w) = word(s).ok()?;
        let n = normalize(w);
        let limit = correction_limit(&n).min(2);
        if limit == 0 || self.is_other_word(w) {
            return None;
        }
        let mut found: Option<(T, &'static str)> = None;
        for (list, shown, v) in choices {
            if list
                .iter()
                .any(|k| k.len() > 2 && distance_within(&n, k, limit, true).is_some())
            {
                match found {
                    Some((f, _)) if f != *v => return None,
                    _ => found = Some((*v, shown)),
                }
            }
        }
        let (v, shown) = found?;
        if !self.names.close_places(self.map, &n).is_empty() {
            return None;
        }
        Some((r, v, shown))
    }

    /// Report a keyword correction; `false` in strict mode (the caller fails).
    fn keyword_corrected(&self, s: &str, shown: &str) -> bool {
        if self.strict {
            return false;
        }
        let len = first_word_len(s);
        self.warn(Diagnostic::warning(
            self.span(s, len),
            format!("read `{}` as `{shown}`", &s[..len]),
            Some(format!(
                "no other order word is close; write `{shown}` to be sure"
            )),
        ));
        true
    }

    /// The body of an order: the unit, what it does, a power named inside the order
    /// (`waive France`), the nationality of a supported or convoyed unit.
    pub fn body<'a>(&self, i: &'a str) -> Res<'a, Body> {
        let (i, _) = space0(i)?;
        if let Some((r, c)) = self.command(i) {
            return self.command_args(r, c);
        }
        if let Some(r) = self.hold_first(i) {
            return r;
        }
        match self.attempt(|| self.unit(i, "a unit (`A Par`, `F Lon`)")) {
            Ok((r, unit)) => {
                let (r, (kind, stated)) = self.tail(r)?;
                Ok((
                    r,
                    Body {
                        unit: Some(unit),
                        kind,
                        named: None,
                        stated,
                    },
                ))
            }
            Err(e) => {
                // `Biuld A Par`: a misspelt order word before the unit.
                let choices: [(&[&str], &'static str, Command); 5] = [
                    (BUILD, "build", Command::Build),
                    (DISBAND, "disband", Command::Remove),
                    (WAIVE, "waive", Command::Waive),
                    (&["move", "retreat"], "move", Command::Move),
                    (HOLD_FIRST, "hold", Command::Hold),
                ];
                match self.corrected_keyword(i, &choices) {
                    Some((r, c, shown)) if self.keyword_corrected(i, shown) => {
                        self.command_args(r, c)
                    }
                    _ => Err(e),
                }
            }
        }
    }

    /// A hold word between a unit type and its place (`fleet stands English Channel`,
    /// `army holds Paris`, `army holds at Paris`): a hold word spelt out, and the place
    /// the end of the order. `None` if the text is not so.
    fn hold_first<'a>(&self, i: &'a str) -> Option<Res<'a, Body>> {
        let (r, kind) = self.unit_type(i).ok()?;
        let (r, w) = word(r.trim_start()).ok()?;
        if w.len() < 2 || flags(w) & flag::HOLD == 0 || !r.starts_with([' ', '\t']) {
            return None;
        }
        let r = r.trim_start();
        let r = match preceded(kwf(flag::AT), space1::<_, PErr>)(r) {
            Ok((r2, _)) => r2,
            Err(_) => r,
        };
        let (rest, loc) = self.probe(|| self.place(r, true))?;
        if !at_end(rest) {
            return None;
        }
        Some(self.place(r, true).map(|(rest, loc2)| {
            debug_assert_eq!(loc, loc2);
            (
                rest,
                Body {
                    unit: Some(UnitRef {
                        kind: Some(kind),
                        loc: loc2,
                    }),
                    kind: OrderKind::Hold,
                    named: None,
                    stated: None,
                },
            )
        }))
    }

    /// An order word written before the unit (`Build`, `Disband`, `*`, `-`, `waive`,
    /// `W`, `Move`, `m`, `Hold`), and the text after it.
    fn command<'a>(&self, i: &'a str) -> Option<(&'a str, Command)> {
        if let Ok((r, w)) = word(i) {
            if word_eq(w, "save") {
                return Some((r, Command::Save));
            }
            let f = flags(w);
            if f & (flag::WAIVE | flag::BUILD | flag::DISBAND | flag::MOVE_FIRST | flag::HOLD_FIRST)
                == 0
            {
                // `W` alone: waive
                return (word_eq(w, "w") && at_end(r)).then_some((r, Command::Waive));
            }
            if f & flag::WAIVE != 0 {
                return Some((r, Command::Waive));
            }
            if !r.starts_with([' ', '\t', ':']) {
                return None;
            }
            let c = if f & flag::BUILD != 0 {
                Command::Build
            } else if f & flag::DISBAND != 0 {
                Command::Remove
            } else if f & flag::MOVE_FIRST != 0 {
                Command::Move
            } else {
                Command::Hold
            };
            return Some((r, c));
        }
        let (r, sym) = alt((
            tag::<_, _, PErr>("+"),
            tag("*"),
            tag("-"),
            tag("–"),
            tag("—"),
            tag("•"),
            tag("·"),
        ))(i)
        .ok()?;
        if !r.starts_with([' ', '\t']) {
            return None;
        }
        Some(match sym {
            "+" => (r, Command::Build),
            "•" | "·" => (r, Command::Bullet),
            _ => (r, Command::RemoveOrBullet),
        })
    }

    /// What follows an order word written before the unit.
    fn command_args<'a>(&self, r: &'a str, c: Command) -> Res<'a, Body> {
        let body = |r, unit, kind| {
            Ok((
                r,
                Body {
                    unit,
                    kind,
                    named: None,
                    stated: None,
                },
            ))
        };
        let r = r.strip_prefix(':').unwrap_or(r);
        match c {
            Command::Waive | Command::Save => {
                // `waive`, `waive France`, `waive build`, `W`; `save`, `save build`,
                // `waive for a colonial build`, `save for colonial build`.
                let (r, named) = opt(preceded(space1, |i| self.power(i)))(r)?;
                let (r, _) = opt(preceded(space1, kw(&["build", "builds"])))(r)?;
                let (r, colonial) = opt(tuple((
                    preceded(space1, kw(&["for"])),
                    opt(preceded(space1, kw(&["a"]))),
                    preceded(space1, kw(&["colonial"])),
                    preceded(space1, kw(&["build"])),
                )))(r)?;
                let kind = if c == Command::Save || colonial.is_some() {
                    OrderKind::Save
                } else {
                    OrderKind::Waive
                };
                Ok((
                    r,
                    Body {
                        unit: None,
                        kind,
                        named,
                        stated: None,
                    },
                ))
            }
            Command::Build => {
                // `Build waived`
                if let Ok((r2, _)) = preceded(space1, kwf(flag::WAIVE))(r) {
                    return body(r2, None, OrderKind::Waive);
                }
                let (r, u) = self.unit(r, "a province to build in")?;
                body(r, Some(u), OrderKind::Build)
            }
            Command::Remove => {
                let (r, u) = self.unit(r, "the unit to remove")?;
                body(r, Some(u), OrderKind::Disband)
            }
            Command::RemoveOrBullet => {
                // `- F Tri`, `* A Mun`: a removal; `- A Vie - Tri`: a bullet.
                if let Some((r2, u)) = self.probe(|| self.unit(r, "a unit")) {
                    if at_end(r2) {
                        let (r2, u2) = self.unit(r, "a unit")?;
                        debug_assert_eq!(u, u2);
                        return body(r2, Some(u2), OrderKind::Disband);
                    }
                }
                self.body(r)
            }
            Command::Bullet => self.body(r),
            Command::Move => {
                // `Move army Vienna to Trieste`, `m vie-tri`, `Retreat A Mun to Boh`
                let (r, u) = self.unit(r, "the unit that moves")?;
                let (r, kind) = match move_verb(r) {
                    Ok((r, _)) => {
                        let (r, to) = self.place_req(r, "where the unit moves")?;
                        self.route(r, to, true)?
                    }
                    Err(_) => match self.place(r, false) {
                        Ok((r, to)) => self.route(r, to, false)?,
                        Err(Err::Failure(e)) => return Err(Err::Failure(e)),
                        Err(_) => {
                            let s = r.trim_start();
                            let what = "where the unit moves";
                            return if at_end(s) {
                                fail(
                                    s,
                                    0,
                                    format!("expected {what}, found the end of the order"),
                                    None,
                                )
                            } else {
                                let len = first_word_len(s);
                                fail(
                                    s,
                                    len,
                                    format!("expected {what}, found `{}`", &s[..len]),
                                    None,
                                )
                            };
                        }
                    },
                };
                body(r, Some(u), kind.0)
            }
            Command::Hold => {
                let (r, u) = self.unit(r, "the unit that holds")?;
                body(r, Some(u), OrderKind::Hold)
            }
        }
    }

    /// What follows the unit: the verb and its arguments.
    fn tail<'a>(&self, i: &'a str) -> Res<'a, (OrderKind, Stated)> {
        let (i, _) = space0(i)?;
        if at_end(i) {
            return Ok((i, (OrderKind::Hold, None)));
        }
        if let Some((r, v)) = self.verb(i) {
            return self.verb_args(r, v);
        }
        // Move written without a verb: a place right away (`A Par Bur`).
        match self.place(i, false) {
            Ok((r, to)) => return self.route(r, to, false),
            Err(Err::Failure(e)) => return Err(Err::Failure(e)),
            Err(_) => {}
        }
        let choices: [(&[&str], &'static str, Verb); 7] = [
            (HOLD, "hold", Verb::Hold),
            (SUPPORT, "support", Verb::Support),
            (CONVOY, "convoy", Verb::Convoy),
            (MOVE_WORDS, "move", Verb::Move(false)),
            (DISBAND, "disband", Verb::Disband),
            (BUILD, "build", Verb::Build),
            (VIA, "via", Verb::Via),
        ];
        if let Some((r, v, shown)) = self.corrected_keyword(i, &choices) {
            if self.keyword_corrected(i, shown) {
                return self.verb_args(r, v);
            }
        }
        let len = first_word_len(i);
        let w = &i[..len];
        if self.quiet.get() {
            return fail(i, len, String::new(), None);
        }
        let help = suggest_keyword(w)
            .map(|k| format!("did you mean `{k}`?"))
            .or_else(|| self.names.suggest(self.map, w))
            .or_else(|| Some("an order is hold (H), move (-), support (S) or convoy (C)".into()));
        fail(
            i,
            len,
            format!("expected an order after the unit, found `{w}`"),
            help,
        )
    }

    fn verb_args<'a>(&self, r: &'a str, v: Verb) -> Res<'a, (OrderKind, Stated)> {
        match v {
            Verb::Hold => Ok((r, (OrderKind::Hold, None))),
            Verb::Support => self.support(r),
            Verb::Convoy => self.convoy(r),
            Verb::Disband => Ok((r, (OrderKind::Disband, None))),
            Verb::Build => Ok((r, (OrderKind::Build, None))),
            Verb::Via => self.via_route(r),
            Verb::Move(arrow) => {
                // A dash glued to an order word: `A Bud–Holds`, `A Mun - S A Ber`.
                if arrow {
                    if let Some((r2, v2)) = self.verb(r) {
                        if !matches!(v2, Verb::Move(_) | Verb::Via) {
                            return self.verb_args(r2, v2);
                        }
                    }
                }
                let (r, to) = self.place_req(r, "where the unit moves")?;
                self.route(r, to, true)
            }
        }
    }

    /// After a move's first place: further places (a route: the last is the
    /// destination and the move is via convoy; DATC 4.A.6), then `via convoy`. The
    /// route goes on as it began: with move verbs after a verb (`A Lon - NTH - Nwy`),
    /// with spaces after none (`A Lon NTH Nwy`); `A Lon - Nwy NTH` is not a route.
    fn route<'a>(&self, r: &'a str, mut to: Loc, verbs: bool) -> Res<'a, (OrderKind, Stated)> {
        let mut r = r;
        let mut hops = 0;
        loop {
            let save = r;
            let step = match move_verb(r) {
                // after a verb a place must follow, written in full or short
                Ok((r2, _)) if verbs => self.place_req(r2, "where the unit moves"),
                Ok(_) => break,
                Err(_) if verbs => break,
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
        let (r, v) = opt(|i| self.via(i))(r)?;
        Ok((
            r,
            (
                OrderKind::Move {
                    to,
                    via_convoy: v.is_some() || hops > 0,
                },
                None,
            ),
        ))
    }

    /// `via convoy`, `via`, `via c`, `by convoy`, `(via convoy)`, and a path after
    /// `via`, read and ignored (DATC 4.A.6): `via NTH`, DAIDE's `VIA ( NTH )`.
    fn via<'a>(&self, i: &'a str) -> Res<'a, ()> {
        let (i, _) = space0(i)?;
        let (i, open) = opt(char('('))(i)?;
        let (i, _) = space0(i)?;
        let (i, is_via) = alt((
            |i| {
                let (i, _) = kwf(flag::VIA)(i)?;
                let (i, _) = opt(preceded(space1, kw(&["convoy", "c"])))(i)?;
                Ok((i, true))
            },
            |i| {
                let (i, _) = kw(&["by"])(i)?;
                let (i, _) = space1(i)?;
                let (i, _) = kw(&["convoy", "c"])(i)?;
                Ok((i, false))
            },
        ))(i)?;
        let mut i = i;
        if is_via {
            while let Some((r, _)) = self.probe(|| self.place(i, false)) {
                i = r;
            }
        }
        let (i, _) = space0(i)?;
        let (i, _) = if open.is_some() {
            opt(char(')'))(i)?
        } else {
            (i, None)
        };
        Ok((i, ()))
    }

    /// A route that begins with `via`: `A Yor via Nth to Nwy`, `A Lon via Nwy`.
    fn via_route<'a>(&self, r: &'a str) -> Res<'a, (OrderKind, Stated)> {
        let (mut r, _) = opt(preceded(space1, kw(&["convoy", "c"])))(r)?;
        let mut dest = None;
        // Places of the path, and whether the last one came after a move verb or
        // after another place (so that it is a destination, not the path alone).
        let mut places = 0;
        let mut after_verb = false;
        loop {
            let save = r;
            let (r1, verb) = match move_verb(r) {
                Ok((x, _)) => (x, true),
                Err(_) => (r, false),
            };
            match self.place(r1, false) {
                Ok((r2, l)) => {
                    r = r2;
                    dest = Some(l);
                    places += 1;
                    after_verb = verb;
                }
                Err(Err::Failure(e)) => return Err(Err::Failure(e)),
                Err(_) if verb || places == 0 => {
                    let what = "where the unit moves";
                    let (r2, l) = self.place_req(r1, what)?;
                    r = r2;
                    dest = Some(l);
                    places += 1;
                    after_verb = verb;
                }
                Err(_) => {
                    r = save;
                    break;
                }
            }
        }
        match dest {
            Some(to) if places > 1 || after_verb => Ok((
                r,
                (
                    OrderKind::Move {
                        to,
                        via_convoy: true,
                    },
                    None,
                ),
            )),
            _ => {
                let s = r.trim_start();
                fail(
                    s,
                    first_word_len(s),
                    "expected where the unit moves after its route".to_string(),
                    Some("write `A Yor via Nth to Nwy`, or `A Yor - Nwy via convoy`".into()),
                )
            }
        }
    }

    /// After `S`: the supported unit and what it does. Also the web-site sentences
    /// `support hold to Venice` and `support move to Greece from Bulgaria`, and a
    /// supported order in parentheses: `supports (Ger A Mun holds)`.
    fn support<'a>(&self, i: &'a str) -> Res<'a, (OrderKind, Stated)> {
        let (i, _) = space0(i)?;
        let (i, open) = opt(char('('))(i)?;
        let (i, _) = space0(i)?;
        let what = "the supported unit";
        let dest = "where the supported unit moves";
        let (r, kind, stated) = if let Ok((r, _)) = kw(&["hold", "holds", "holding"])(i) {
            // `support hold to Venice`
            let (r, _) = opt(preceded(space1, kw(&["to", "of", "at", "in"])))(r)?;
            let (r, (target, stated)) = self.target(r, what)?;
            (r, OrderKind::Support { target, to: None }, stated)
        } else if word(i)
            .is_ok_and(|(_, w)| is_kw(w, &["move", "moves", "moving", "to", "into", "from"]))
        {
            let (r, (target, to, stated)) = self.moved_from(i, what, dest)?;
            let (r, _) = opt(|i| self.via(i))(r)?;
            (
                r,
                OrderKind::Support {
                    target,
                    to: Some(to),
                },
                stated,
            )
        } else {
            let (r, (target, stated)) = self.target(i, what)?;
            if let Ok((r2, _)) = move_verb(r) {
                let (r2, to) = self.place_req(r2, dest)?;
                let (r2, _) = opt(|i| self.via(i))(r2)?;
                (
                    r2,
                    OrderKind::Support {
                        target,
                        to: Some(to),
                    },
                    stated,
                )
            } else {
                let (r, _) = opt(preceded(space1, kwf(flag::HOLD)))(r)?;
                (r, OrderKind::Support { target, to: None }, stated)
            }
        };
        let r = close_paren(r, open.is_some());
        Ok((r, (kind, stated)))
    }

    /// `move to Greece from Bulgaria`, `to Tunis from Naples`, `from Bulgaria to
    /// Greece`: a unit and where it goes, written in the sentence order of web sites.
    fn moved_from<'a>(
        &self,
        i: &'a str,
        what: &str,
        dest: &str,
    ) -> Res<'a, (UnitRef, Loc, Stated)> {
        let (i, moved) = opt(kw(&["move", "moves", "moving"]))(i)?;
        let (i, _) = space0(i)?;
        if let Ok((r, _)) = kwf(flag::FROM)(i) {
            let (r, (u, stated)) = self.target(r, what)?;
            let Ok((r, _)) = move_verb(r) else {
                let s = r.trim_start();
                return fail(
                    s,
                    first_word_len(s),
                    format!("expected `to` and {dest}"),
                    None,
                );
            };
            let (r, to) = self.place_req(r, dest)?;
            return Ok((r, (u, to, stated)));
        }
        let i = match move_verb(i) {
            Ok((r, _)) => r,
            Err(_) if moved.is_some() => i,
            Err(e) => return Err(e),
        };
        let (r, to) = self.place_req(i, dest)?;
        let r2 = r.trim_start();
        let Ok((r, _)) = kwf(flag::FROM)(r2) else {
            return fail(
                r2,
                first_word_len(r2),
                format!("expected `from` and {what}"),
                Some(format!(
                    "write `{}`",
                    "support move to Greece from Bulgaria"
                )),
            );
        };
        let (r, (u, stated)) = self.target(r, what)?;
        Ok((r, (u, to, stated)))
    }

    /// `[a|an|the] army` (or `A`, `fleet`) written before `to` or `from` of a sentence
    /// (`convoy an army to Norway from London`, `convoys A from Lon to Nwy`): the text
    /// from `to` or `from`, and the type.
    fn sentence_type<'a>(&self, i: &'a str) -> Option<(&'a str, UnitKind)> {
        let j = self.article(i);
        let (r, kind) = self.unit_type(j).ok()?;
        let r = r.trim_start();
        word(r)
            .is_ok_and(|(_, w)| is_kw(w, &["to", "into", "from"]))
            .then_some((r, kind))
    }

    /// After `C`: the convoyed army, a required move verb, the destination. Also the
    /// web-site sentence `convoy to Tunis from Naples`.
    fn convoy<'a>(&self, i: &'a str) -> Res<'a, (OrderKind, Stated)> {
        let (i, _) = space0(i)?;
        let (i, open) = opt(char('('))(i)?;
        let (i, _) = space0(i)?;
        let what = "the convoyed army";
        let dest = "where the convoyed army goes";
        // `convoy an army to Norway from London` (webDiplomacy), `convoys A from Lon to
        // Nwy`: the army's type, then the sentence.
        let typed = self.sentence_type(i);
        let (r, kind, stated) = if let Some((j, kind)) = typed {
            let (r, (mut army, to, stated)) = self.moved_from(j, what, dest)?;
            army.kind = army.kind.or(Some(kind));
            (r, OrderKind::Convoy { army, to }, stated)
        } else if word(i).is_ok_and(|(_, w)| is_kw(w, &["to", "into", "from"])) {
            let (r, (army, to, stated)) = self.moved_from(i, what, dest)?;
            (r, OrderKind::Convoy { army, to }, stated)
        } else {
            let (r, (army, stated)) = self.target(i, what)?;
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
            let (r, to) = self.place_req(r, dest)?;
            (r, OrderKind::Convoy { army, to }, stated)
        };
        let (r, _) = opt(|i| self.via(i))(r)?;
        let r = close_paren(r, open.is_some());
        Ok((r, (kind, stated)))
    }
}

/// Skip a `)` that closes an opening `(`.
fn close_paren(r: &str, open: bool) -> &str {
    if open {
        let t = r.trim_start();
        t.strip_prefix(')').unwrap_or(r)
    } else {
        r
    }
}

/// Is `text` no name written short: a word of it is an order word (`Hld`, `the`,
/// `S`), or the whole of it is a power, coast or label word?
pub(super) fn is_reserved_short(names: &NameIndex, text: &str) -> bool {
    text.split([' ', '-', '\t'])
        .filter(|w| !w.is_empty())
        .any(is_any_keyword)
        || with_normalized(text, |n| {
            names.power(n).is_some() || names.coast(n).is_some()
        })
        || label_word(text.trim()).is_some()
}

/// The closest keyword to a misspelt word, for "did you mean": the keyword's usual
/// spelling (`hold` for `Hodl`).
pub(super) fn suggest_keyword(w: &str) -> Option<&'static str> {
    let n = normalize(w);
    if n.len() < 3 {
        return None;
    }
    KEYWORDS
        .iter()
        .filter_map(|(list, shown)| {
            list.iter()
                .filter(|k| k.len() > 2)
                .filter_map(|k| distance_within(&n, k, 2, true))
                .min()
                .map(|d| (d, *shown))
        })
        .min()
        .map(|(_, k)| k)
}
