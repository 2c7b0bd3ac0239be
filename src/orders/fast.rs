//! The fast path: an order written in the common forms (`A PAR - BUR`, `F Lon H`,
//! `A Mun S A Ber - Kie`, `F NTH C A Lon - Nwy`, `F StP/sc - Bot`,
//! `F Mid-Atlantic Ocean - English Channel`, `A St Petersburg holds`, `Army Paris moves to Burgundy.`, `F Spa
//! north coast - Mao`, `A Ukr S Turkish F Bla - Rum`, `A Lon - Nwy via convoy`) is read
//! here from the words of the text, split and normalized once, instead of by the full
//! grammar. Bulk users (AI self-play, archives, batch input) write almost every order so.
//!
//! It reads a text only when the full grammar would read it the same way, and gives up
//! (`None`) on anything else, which then goes to the full grammar. Each step below
//! follows the grammar's own rule for that step (the grammar function is named), on a
//! subset of its input: words of letters, digits, `.` and `'` separated by single
//! spaces; a hyphen only between two words (`Mid-Atlantic`) or as a move arrow of its
//! own (`-`, `->`); a slash only before a coast (`Spa/nc`). Places are names met
//! exactly (the longest, with one meaning); nothing is corrected; there is no prefix,
//! marker, article or parenthesis. A unit test checks that the two paths agree on every
//! order of the DATC cases and the parser tests, and on generated ones.

use super::grammar::{Ctx, Stated};
use super::words::{flag, word_eq};
use super::{Order, OrderKind, UnitRef};
use crate::map::names::short_key;
use crate::map::{Loc, Power, UnitKind};

/// How a word is joined to what comes before it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Join {
    /// One or more spaces (or the start of the text).
    Space,
    /// A hyphen between two words: `Mid-Atlantic`.
    Hyphen,
    /// A slash between two words: `Spa/nc`.
    Slash,
}

/// What an item of the text is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Word,
    /// A move arrow (`-`, `->`) written as a word of its own.
    Arrow,
    /// Words in parentheses (`(sc)`, `(south coast)`): the normalized words are those
    /// inside.
    Paren,
}

/// One word, move arrow or parenthesis of the text.
#[derive(Clone, Copy, Debug)]
struct Item {
    /// Byte range in the text (a text read here is shorter than [`MAX_NORM`]).
    start: u8,
    end: u8,
    /// Byte range of the normalized word in [`Words::norm`] (empty for an arrow).
    nstart: u8,
    nend: u8,
    join: Join,
    kind: Kind,
    /// The word's keyword bits (`words::flags`; 0 for an arrow or parenthesis).
    flags: u32,
}

/// The most items a text read here has.
const MAX_ITEMS: usize = 16;
/// The most bytes of normalized words.
const MAX_NORM: usize = 128;

/// The words of a text, split and normalized once: each word lower-case without `.`
/// and `'`, followed by one space, so that words `k..=j` normalized as
/// [`crate::map::names::normalize`] would are one slice of `norm`.
struct Words<'t> {
    text: &'t str,
    items: [Item; MAX_ITEMS],
    n: usize,
    /// The normalized words, and 8 bytes more (zero) so that 8 bytes may be read from
    /// the start of any of them ([`Words::short_key`]).
    norm: [u8; MAX_NORM + 8],
    /// Is there a parenthesis?
    parens: bool,
}

fn is_word_byte(b: u8) -> bool {
    norm_byte(b) != NOT_WORD
}

/// The [`NORM`] of a byte.
fn norm_byte(b: u8) -> u8 {
    NORM.get(usize::from(b)).copied().unwrap_or(NOT_WORD)
}

/// [`NORM`] of a byte that is no word byte.
const NOT_WORD: u8 = 0;
/// [`NORM`] of `.` and `'`: word bytes that normalizing drops.
const DROPPED: u8 = 1;

/// Per byte: what a word keeps of it, lower-case, for a letter or digit; else
/// [`DROPPED`] or [`NOT_WORD`] (no letter or digit is either).
// Evaluated at compile time: an index out of range fails the build, never a run.
#[allow(clippy::indexing_slicing)]
const NORM: [u8; 256] = {
    let mut t = [NOT_WORD; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() {
            t[b] = c.to_ascii_lowercase();
        } else if c == b'.' || c == b'\'' {
            t[b] = DROPPED;
        }
        b += 1;
    }
    t
};

impl<'t> Words<'t> {
    /// No words yet of `text` (trimmed): see [`Words::split`].
    fn new(text: &'t str) -> Words<'t> {
        Words {
            text,
            items: [Item {
                start: 0,
                end: 0,
                nstart: 0,
                nend: 0,
                join: Join::Space,
                kind: Kind::Word,
                flags: 0,
            }; MAX_ITEMS],
            n: 0,
            norm: [0; MAX_NORM + 8],
            parens: false,
        }
    }

    /// Split the text; `None` for any character or form not read here.
    fn split(&mut self) -> Option<()> {
        let text = self.text;
        let b = text.as_bytes();
        // Each byte gives at most one normalized byte, and the last word one space
        // more: a shorter text always fits (a longer one goes to the full grammar).
        if b.len() >= MAX_NORM {
            return None;
        }
        let w = self;
        let keywords = super::words::keywords();
        let mut nlen = 0usize;
        let mut join = Join::Space;
        let mut i = 0;
        while let Some(&c) = b.get(i) {
            if c == b' ' {
                if join != Join::Space {
                    return None;
                }
                i += 1;
                continue;
            }
            if is_word_byte(c) {
                // The word's bytes, lower-case, without `.` and `'`, in one pass.
                let nstart = nlen;
                let mut j = i;
                for &d in b.get(i..)? {
                    let v = norm_byte(d);
                    if v == NOT_WORD {
                        break;
                    }
                    if v != DROPPED {
                        *w.norm.get_mut(nlen)? = v;
                        nlen += 1;
                    }
                    j += 1;
                }
                if nlen == nstart {
                    return None;
                }
                let nend = nlen;
                *w.norm.get_mut(nlen)? = b' ';
                nlen += 1;
                let flags = keywords.flags(w.norm.get(nstart..nend)?);
                w.push(i, j, nstart, nend, join, Kind::Word, flags)?;
                join = Join::Space;
                i = j;
                // A word is followed by a space, a joining `-` or `/`, or the end.
                match b.get(i) {
                    None | Some(b' ') => {}
                    Some(&d @ (b'-' | b'/')) => {
                        // `Mid-Atlantic`, `Spa/nc`; else a move arrow needs a space
                        // before it, and a slash is read only between two words.
                        if !b.get(i + 1).is_some_and(u8::is_ascii_alphanumeric) {
                            return None;
                        }
                        join = if d == b'-' { Join::Hyphen } else { Join::Slash };
                        i += 1;
                    }
                    Some(_) => return None,
                }
                continue;
            }
            // Here `c` follows a space (or begins the text): a word's `-` or `/` was
            // taken with the word.
            match c {
                b'-' if join == Join::Space => i = w.arrow(i, nlen)?,
                b'(' if join == Join::Space => (i, nlen) = w.paren(i, nlen)?,
                _ => return None,
            }
        }
        (join == Join::Space && w.n > 0).then_some(())
    }

    /// The move arrow (`-`, `->`) at byte `i`, which needs a space after it: the byte
    /// after it.
    #[inline]
    fn arrow(&mut self, i: usize, nlen: usize) -> Option<usize> {
        let b = self.text.as_bytes();
        let len = if b.get(i + 1) == Some(&b'>') { 2 } else { 1 };
        if b.get(i + len) != Some(&b' ') {
            return None;
        }
        let at = nlen as u16;
        self.push(
            i,
            i + len,
            at as usize,
            at as usize,
            Join::Space,
            Kind::Arrow,
            0,
        )?;
        Some(i + len)
    }

    /// The parenthesis at byte `i` (`(sc)`, `(south coast)`): words and spaces, then
    /// `)` and a space or the end; its words onto `norm` at `nlen`, then a space. The
    /// byte after it and the new `nlen`.
    #[inline]
    fn paren(&mut self, i: usize, mut nlen: usize) -> Option<(usize, usize)> {
        let text = self.text;
        let b = text.as_bytes();
        let len = b.get(i + 1..)?.iter().position(|&d| d == b')')?;
        let inner = text.get(i + 1..i + 1 + len)?;
        if !inner
            .bytes()
            .all(|d| d.is_ascii_alphanumeric() || d == b' ')
        {
            return None;
        }
        let nstart = nlen;
        for word in inner.split(' ').filter(|x| !x.is_empty()) {
            if nlen > nstart {
                *self.norm.get_mut(nlen)? = b' ';
                nlen += 1;
            }
            for d in word.bytes() {
                *self.norm.get_mut(nlen)? = d.to_ascii_lowercase();
                nlen += 1;
            }
        }
        if nlen == nstart {
            return None;
        }
        let nend = nlen;
        *self.norm.get_mut(nlen)? = b' ';
        nlen += 1;
        let end = i + len + 2;
        self.push(i, end, nstart, nend, Join::Space, Kind::Paren, 0)?;
        self.parens = true;
        if !matches!(b.get(end), None | Some(b' ')) {
            return None;
        }
        Some((end, nlen))
    }

    /// Add an item: offsets below [`MAX_NORM`] (as [`Words::split`] checks first).
    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        start: usize,
        end: usize,
        nstart: usize,
        nend: usize,
        join: Join,
        kind: Kind,
        flags: u32,
    ) -> Option<()> {
        *self.items.get_mut(self.n)? = Item {
            start: start as u8,
            end: end as u8,
            nstart: nstart as u8,
            nend: nend as u8,
            join,
            kind,
            flags,
        };
        self.n += 1;
        Some(())
    }

    fn item(&self, k: usize) -> Option<&Item> {
        self.items.get(..self.n)?.get(k)
    }

    /// Item `k` if it is a word joined by spaces to what comes before.
    fn spaced(&self, k: usize) -> Option<&Item> {
        self.item(k)
            .filter(|i| i.kind == Kind::Word && i.join == Join::Space)
    }

    /// The text of item `k` as written.
    fn raw(&self, k: usize) -> Option<&'t str> {
        let i = self.item(k)?;
        self.text.get(i.start as usize..i.end as usize)
    }

    /// The text of items `k..=j` as written.
    fn raw_span(&self, k: usize, j: usize) -> Option<&'t str> {
        let (a, b) = (self.item(k)?, self.item(j)?);
        self.text.get(a.start as usize..b.end as usize)
    }

    /// Items `k..=j` normalized (words joined by one space), as bytes.
    fn norm_bytes(&self, k: usize, j: usize) -> Option<&[u8]> {
        let (a, b) = (self.item(k)?, self.item(j)?);
        self.norm.get(a.nstart as usize..b.nend as usize)
    }

    /// Items `k..=j` normalized, as a key number ([`short_key`]) and its length, if
    /// they are 8 bytes or fewer.
    fn short_key(&self, k: usize, j: usize) -> Option<(u64, usize)> {
        let (a, b) = (self.item(k)?, self.item(j)?);
        let at = a.nstart as usize;
        let len = (b.nend as usize).checked_sub(at)?;
        let eight = self.norm.get(at..at + 8)?.try_into().ok()?;
        Some((short_key(eight, len)?, len))
    }

    /// Items `k..=j` normalized (words joined by one space).
    fn norm(&self, k: usize, j: usize) -> Option<&str> {
        std::str::from_utf8(self.norm_bytes(k, j)?).ok()
    }

    /// The keyword bits of word `k` ([`flags`]; 0 for an arrow).
    fn flags(&self, k: usize) -> u32 {
        self.item(k).map_or(0, |i| i.flags)
    }

    /// Does word `k+1` continue a name of several words after word `k` (as
    /// `Ctx::word_ends` reads: joined by spaces or a tight hyphen)?
    fn continues(&self, k: usize) -> bool {
        self.item(k + 1)
            .is_some_and(|i| i.kind == Kind::Word && matches!(i.join, Join::Space | Join::Hyphen))
    }
}

impl Ctx<'_> {
    /// `seg` read as a common order for `power`, with the power of its prefix
    /// (`England: F Lon - NTH`), or `None` when the full grammar must read it.
    pub(super) fn fast(&self, seg: &str, power: Option<Power>) -> Option<(Order, Option<Power>)> {
        self.fast_in(seg, power, true)
    }

    /// [`Ctx::fast`] for a text with no parenthesis (`None` for one): a text it reads
    /// has no comment, tag, result word or second order, so `clean_line` and the
    /// trimming of one order's string leave it as it is.
    pub(super) fn fast_plain(&self, seg: &str, power: Option<Power>) -> Option<Order> {
        self.fast_in(seg, power, false).map(|(o, _)| o)
    }

    /// [`Ctx::fast`], reading parentheses (`(sc)`) or not.
    fn fast_in(
        &self,
        seg: &str,
        power: Option<Power>,
        parens: bool,
    ) -> Option<(Order, Option<Power>)> {
        let t = trim(seg);
        if !t.is_ascii() {
            return None;
        }
        match self.fast_prefix(t) {
            Some((p, body)) => Some((self.fast_body(body, Some(p), parens)?, Some(p))),
            None => Some((self.fast_body(t, power, parens)?, None)),
        }
    }

    /// `Ctx::split_prefix` for a power word of one word and a colon (`England: F Lon`):
    /// the power and the text after the colon. A text that is a header, or has any other
    /// prefix or a marker, goes to the full grammar (its order has no colon).
    fn fast_prefix<'t>(&self, t: &'t str) -> Option<(Power, &'t str)> {
        // The first `:` ends a word of letters: it follows the letters that begin the
        // text.
        let colon = t.bytes().take_while(u8::is_ascii_alphabetic).count();
        if colon == 0 || t.as_bytes().get(colon) != Some(&b':') {
            return None;
        }
        let (word, rest) = (t.get(..colon)?, t.get(colon + 1..)?);
        // `Ctx::header`: an order's unit type is no label word, so this is no header;
        // `Ctx::marker`: a letter or four before `:` is no marker.
        let p = crate::map::names::with_normalized(word, |n| self.names.power(n))?;
        if super::words::flags(word) != 0 || !rest.starts_with(' ') {
            return None;
        }
        Some((p, rest.trim_start()))
    }

    /// The body of an order (`t`, trimmed) for `power`; with `parens` false, `None`
    /// for any parenthesis.
    fn fast_body(&self, t: &str, power: Option<Power>, parens: bool) -> Option<Order> {
        let mut w = Words::new(t);
        w.split()?;
        if !parens && w.parens {
            return None;
        }
        // `Ctx::segment_full`: no label, header or power prefix begins with the first
        // word (`Ctx::initial_prefix`: `A`, `F` before a place are unit types).
        self.first_word(&w)?;
        // `Ctx::body`: no order word before the unit.
        let (me, k) = self.unit_at(&w, 0)?;
        let (kind, stated, k) = self.tail_at(&w, k)?;
        // `Ctx::full`: nothing after the order but `.`s, which the last word holds.
        if k != w.n {
            return None;
        }
        // (Most orders end in a letter: nothing to trim.)
        let text = match t.as_bytes().last() {
            Some(c) if c.is_ascii_alphanumeric() => t,
            _ => t.trim_end_matches('.').trim_end(),
        };
        Some(Order {
            power,
            unit: Some(me),
            kind,
            text: text.into(),
            span: self.span(t, text.len()),
            stated,
        })
    }

    /// The first word begins no label, header or prefix. (That it is a unit type word
    /// of letters only, [`Ctx::unit_at`] checks next.)
    fn first_word(&self, w: &Words) -> Option<()> {
        if w.flags(0) & flag::LABEL != 0 {
            return None;
        }
        (!self.power_head_at(w, 0)?).then_some(())
    }

    /// May word `k` begin a power's name, or be a plural of one that does (`Ctx::power`
    /// reads `Englands`)?
    fn power_head_at(&self, w: &Words, k: usize) -> Option<bool> {
        // A word of one letter (a unit type, mostly) is no plural.
        if let [b] = *w.norm_bytes(k, k)? {
            return Some(self.names.power_head_letter(b));
        }
        if let Some((key, len)) = w.short_key(k, k) {
            // The word without a last `s`: the same bytes, one fewer.
            let plural = len > 1 && key >> (8 * (len - 1)) == u64::from(b's');
            return Some(
                self.names.power_head_short(key, len)
                    || plural && {
                        let head = short_key(key.to_le_bytes(), len - 1)?;
                        self.names.power_head_short(head, len - 1)
                    },
            );
        }
        let n = w.norm_bytes(k, k)?;
        Some(
            self.names.power_head_bytes(n)
                || n.strip_suffix(b"s")
                    .is_some_and(|h| self.names.power_head_bytes(h)),
        )
    }

    /// `Ctx::unit` without an article, `at` or parentheses: a unit type word, then a
    /// place. The unit and the index of the item after it.
    fn unit_at(&self, w: &Words, k: usize) -> Option<(UnitRef, usize)> {
        let raw = w.raw(k)?;
        let f = w.flags(k);
        // `Ctx::command`: not an order word written before a unit (`B`, `D`, `M`, `W`).
        // (`save` and `w`, order words of no list, are no unit type word either: the
        // unit type below tells them.)
        if f & (flag::WAIVE | flag::BUILD | flag::DISBAND | flag::MOVE_FIRST | flag::HOLD_FIRST)
            != 0
            || !raw.bytes().all(|b| b.is_ascii_alphabetic())
        {
            return None;
        }
        // `Ctx::unit_type`
        let kind = if f & flag::ARMY != 0 {
            UnitKind::Army
        } else if f & flag::FLEET != 0 {
            UnitKind::Fleet
        } else {
            return None;
        };
        w.spaced(k)?;
        let (loc, next) = self.loc_at(w, k + 1)?;
        Some((
            UnitRef {
                kind: Some(kind),
                loc,
            },
            next,
        ))
    }

    /// `Ctx::place_req` on a name met exactly, then `Ctx::coast`: the location that
    /// begins at word `k`, and the index of the item after it.
    fn loc_at(&self, w: &Words, k: usize) -> Option<(Loc, usize)> {
        w.spaced(k)?;
        // A keyword here would be read as something else (`at`, a verb, a unit type).
        if w.flags(k) != 0 {
            return None;
        }
        // `Ctx::place`: the longest name of up to `max_words` words (`Ctx::word_ends`).
        // Every word-prefix of a longer name is in the index, so the walk stops at the
        // first text that begins no name.
        let max = self.names.max_words.min(8);
        let mut best: Option<(usize, &[Loc])> = None;
        let mut j = k;
        loop {
            let (locs, longer) = match w.short_key(k, j) {
                Some((key, len)) => self.names.scan_short(key, len),
                None => self.names.scan(w.norm_bytes(k, j)?),
            };
            if !locs.is_empty() {
                best = Some((j, locs));
            }
            if !longer || j + 1 - k >= max || !w.continues(j) {
                break;
            }
            j += 1;
        }
        let (j, locs) = best?;
        let [loc] = *locs else {
            return None;
        };
        if self.map.is_named_coast(loc) {
            return None;
        }
        self.coast_at(w, loc, j + 1)
    }

    /// `Ctx::coast`: an optional coast after a place, at item `k`.
    fn coast_at(&self, w: &Words, loc: Loc, k: usize) -> Option<(Loc, usize)> {
        let prov = self.map.prov_of(loc);
        let coasts = &self.map.province(prov).coasts;
        let find = |id: &str| {
            coasts
                .iter()
                .copied()
                .find(|&c| self.map.coast(c).is_some_and(|x| x.id == id))
        };
        let Some(next) = w.item(k) else {
            return Some((loc, k));
        };
        if next.join == Join::Slash {
            // `/nc`, `/north coast`: the longest coast word of up to two words, else
            // one word.
            let two = w.continues(k) && self.names.coast(w.norm(k, k + 1)?).is_some();
            let end = if two { k + 1 } else { k };
            if coasts.is_empty() {
                // A coast on a province without named coasts is irrelevant (4.B.6).
                return Some((loc, end + 1));
            }
            // An unknown coast is read with a warning: the full grammar says it.
            return Some((find(self.coast_id(w.norm(k, end)?)?)?, end + 1));
        }
        if next.kind == Kind::Paren {
            // `Ctx::coast`: read only if it looks like a coast; else the full grammar
            // reads what follows.
            let n = w.norm(k, k)?;
            if !(self.names.coast(n).is_some()
                || n.ends_with("coast")
                || n.len() == 2 && n.ends_with('c'))
            {
                return None;
            }
            if coasts.is_empty() {
                return Some((loc, k + 1));
            }
            return Some((find(self.coast_id(n)?)?, k + 1));
        }
        if next.kind != Kind::Word {
            return Some((loc, k));
        }
        if coasts.is_empty() {
            return Some((loc, k));
        }
        let own = |a: usize, b: usize| {
            let id = self.names.coast_bare(w.norm(a, b)?)?;
            find(id)
        };
        if next.join == Join::Hyphen {
            // `Spa-nc`; any other word after a hyphen is a move the full grammar reads.
            return own(k, k).map(|c| (c, k + 1));
        }
        // Bare: `Spa nc`, `Spain north coast`; up to two words joined by spaces.
        let mut best = None;
        for end in [k, k + 1] {
            if w.spaced(end).is_none() {
                break;
            }
            if let Some(c) = own(k, end) {
                best = Some((c, end + 1));
            }
        }
        Some(best.unwrap_or((loc, k)))
    }

    /// The coast id a coast written after a slash or in parentheses means (normalized;
    /// `Ctx::coast`).
    fn coast_id(&self, norm: &str) -> Option<&str> {
        let norm = norm.strip_suffix(" coast").unwrap_or(norm);
        match self.names.coast(norm) {
            Some(id) => Some(id),
            None => self.names.coast(&format!("{norm} coast")),
        }
    }

    /// `Ctx::tail`: what the unit does, from item `k`; the index after it.
    fn tail_at(&self, w: &Words, k: usize) -> Option<(OrderKind, Stated, usize)> {
        let Some(item) = w.item(k) else {
            return Some((OrderKind::Hold, None, k));
        };
        if item.join != Join::Space {
            return None;
        }
        // `Ctx::verb`, in its order.
        let f = w.flags(k);
        if f & flag::HOLD != 0 {
            return Some((OrderKind::Hold, None, k + 1));
        }
        if f & flag::SUPPORT != 0 {
            let (target, stated, after) = self.target_at(w, k + 1)?;
            if let Some((_, r)) = move_verb(w, after) {
                let (to, r) = self.loc_at(w, r)?;
                return Some((
                    OrderKind::Support {
                        target,
                        to: Some(to),
                    },
                    stated,
                    via(w, r),
                ));
            }
            let after = if w.spaced(after).is_some() && w.flags(after) & flag::HOLD != 0 {
                after + 1
            } else {
                after
            };
            return Some((OrderKind::Support { target, to: None }, stated, after));
        }
        if f & flag::CONVOY != 0 {
            let (army, stated, after) = self.target_at(w, k + 1)?;
            let (_, r) = move_verb(w, after)?;
            let (to, r) = self.loc_at(w, r)?;
            return Some((OrderKind::Convoy { army, to }, stated, via(w, r)));
        }
        if f & (flag::DISBAND | flag::BUILD | flag::VIA) != 0 {
            return None;
        }
        // A move verb (`-`, `->`, `moves to`); `Ctx::verb_args`: an order word after
        // an arrow would be read as that order (`A Bud - Holds`), but `loc_at` takes
        // no keyword.
        let (_, r) = move_verb(w, k)?;
        let (to, r) = self.loc_at(w, r)?;
        // `Ctx::route`: no further place after a move verb.
        if w.item(r).is_some_and(|i| i.kind == Kind::Arrow) || w.flags(r) & flag::MOVE != 0 {
            return None;
        }
        let end = via(w, r);
        Some((
            OrderKind::Move {
                to,
                via_convoy: end != r,
            },
            None,
            end,
        ))
    }

    /// `Ctx::target` without an article: the supported unit or convoyed army, with the
    /// nationality written before it (`Ctx::stated_power`, a power word only).
    fn target_at(&self, w: &Words, k: usize) -> Option<(UnitRef, Stated, usize)> {
        w.spaced(k)?;
        let f = w.flags(k);
        // `Ctx::support`, `Ctx::convoy`: the web-site sentences (`support hold to`,
        // `convoy to Tunis from Naples`) and an article go to the full grammar.
        if f & (flag::ARMY | flag::FLEET) != 0 {
            // `Ctx::stated_power`: a unit type word is no power (`A`: Austria's
            // initial, but a unit type before a place).
            if self.power_head_at(w, k)? || f & flag::ARTICLE != 0 && !word_eq(w.raw(k)?, "a") {
                return None;
            }
            let (u, r) = self.unit_at(w, k)?;
            return Some((u, None, r));
        }
        if f != 0 {
            return None;
        }
        // `Ctx::power`: the longest power word of up to `power_words` words (none
        // with `'s`: each word read is letters and digits).
        let mut found = None;
        let mut j = k;
        loop {
            if !w.raw(j)?.bytes().all(|b| b.is_ascii_alphanumeric()) {
                return None;
            }
            if let Some(p) = self.names.power(w.norm(k, j)?) {
                found = Some((p, j));
            }
            if j + 1 - k >= self.names.power_words.min(8) || !w.continues(j) {
                break;
            }
            j += 1;
        }
        let (p, j) = found?;
        let words = w.raw_span(k, j)?;
        // A unit type follows: the power is the nationality.
        if w.flags(j + 1) & (flag::ARMY | flag::FLEET) == 0 {
            return None;
        }
        let (u, r) = self.unit_at(w, j + 1)?;
        Some((u, Some((p, self.span(words, words.len()))), r))
    }
}

/// `s.trim()`, at once for a text that begins and ends with a visible ASCII character
/// (all other white space is below `!` or not ASCII).
pub(super) fn trim(s: &str) -> &str {
    match s.as_bytes() {
        [first, .., last] if (b'!'..0x80).contains(first) && (b'!'..0x80).contains(last) => s,
        _ => s.trim(),
    }
}

/// `move_verb`: arrows and move words in a row, at most one arrow; whether the last
/// was an arrow, and the index after the verb. `None` if there is none.
fn move_verb(w: &Words, k: usize) -> Option<(bool, usize)> {
    let mut j = k;
    let (mut dashes, mut words, mut last_arrow) = (0, 0, false);
    while let Some(item) = w.item(j) {
        if item.join != Join::Space {
            return None;
        }
        if item.kind == Kind::Arrow {
            if dashes == 1 {
                return None;
            }
            dashes += 1;
            last_arrow = true;
        } else {
            let want = if words + dashes > 0 {
                flag::MOVE | flag::MOVE_MORE
            } else {
                flag::MOVE
            };
            if item.kind != Kind::Word || w.flags(j) & want == 0 {
                break;
            }
            words += 1;
            last_arrow = false;
        }
        j += 1;
    }
    (j > k).then_some((last_arrow, j))
}

/// `Ctx::via` at the end of an order: `via`, `via convoy`, `via c`, `by convoy`, `by
/// c`; the index after it (`k` if there is none).
fn via(w: &Words, k: usize) -> usize {
    let word = |j: usize| w.spaced(j).and_then(|_| w.raw(j));
    let convoy = |j: usize| word(j).is_some_and(|x| word_eq(x, "convoy") || word_eq(x, "c"));
    match word(k) {
        Some(_) if w.flags(k) & flag::VIA != 0 => {
            if convoy(k + 1) {
                k + 2
            } else {
                k + 1
            }
        }
        Some(x) if word_eq(x, "by") && convoy(k + 1) => k + 2,
        _ => k,
    }
}
