//! The fast path: an order written in the plainest form (`A PAR - BUR`, `F Lon H`,
//! `A Mun S A Ber - Kie`, `F NTH C A Lon - Nwy`, `F StP/sc - Bot`) is read here with a
//! few hash lookups, instead of by the full grammar. Bulk users (AI self-play, archives)
//! write almost every order so.
//!
//! It reads a text only when the full grammar would read it the same way, and gives up
//! (`None`) on anything else, which then goes to the full grammar: a text is taken only
//! if every token is a unit letter, a verb, or a location written exactly as a name or
//! id (one location, no correction, no prefix); no longer name begins with that token;
//! no coast follows a split province's name unwritten. A unit test checks that the two
//! paths agree on every order of the DATC cases and the parser tests.

use super::grammar::Ctx;
use super::words::{flag, flags};
use super::{Order, OrderKind, UnitRef};
use crate::map::names::with_normalized;
use crate::map::{Loc, Power, UnitKind};

/// One token of a plain order.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tok<'a> {
    Unit(UnitKind),
    Move,
    Hold,
    Support,
    Convoy,
    Word(&'a str),
}

/// The most tokens a plain order has: `F NTH C A LON - NWY`.
const MAX_TOKENS: usize = 8;

impl Ctx<'_> {
    /// `seg` read as a plain order for `power`, or `None` when the full grammar must
    /// read it.
    pub(super) fn fast(&self, seg: &str, power: Option<Power>) -> Option<Order> {
        let t = seg.trim();
        if t.is_empty()
            || !t
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b' ' || b == b'/' || b == b'-')
        {
            return None;
        }
        let mut toks = [Tok::Hold; MAX_TOKENS];
        let mut words = [""; MAX_TOKENS];
        let mut n = 0;
        for w in t.split(' ') {
            if w.is_empty() || n == MAX_TOKENS {
                return None;
            }
            *words.get_mut(n)? = w;
            *toks.get_mut(n)? = token(w)?;
            n += 1;
        }
        let toks = toks.get(..n)?;
        let words = words.get(..n)?;
        // The unit ordered, then what it does.
        let (me, rest) = self.unit_at(toks, words, 0)?;
        let kind = match toks.get(rest..)? {
            [Tok::Hold] => OrderKind::Hold,
            [Tok::Move, Tok::Word(_)] => OrderKind::Move {
                to: self.loc_at(words, rest + 1)?,
                via_convoy: false,
            },
            [Tok::Support, ..] => {
                let (target, after) = self.unit_at(toks, words, rest + 1)?;
                match toks.get(after..)? {
                    [] => OrderKind::Support { target, to: None },
                    [Tok::Move, Tok::Word(_)] => OrderKind::Support {
                        target,
                        to: Some(self.loc_at(words, after + 1)?),
                    },
                    _ => return None,
                }
            }
            [Tok::Convoy, ..] => {
                let (army, after) = self.unit_at(toks, words, rest + 1)?;
                if army.kind != Some(UnitKind::Army) {
                    return None;
                }
                match toks.get(after..)? {
                    [Tok::Move, Tok::Word(_)] => OrderKind::Convoy {
                        army,
                        to: self.loc_at(words, after + 1)?,
                    },
                    _ => return None,
                }
            }
            _ => return None,
        };
        Some(Order {
            power,
            unit: Some(me),
            kind,
            text: t.to_string(),
            span: self.span(t, t.len()),
            stated: None,
        })
    }

    /// `A LOC` at token `k`: the unit and the index of the token after it.
    fn unit_at(&self, toks: &[Tok], words: &[&str], k: usize) -> Option<(UnitRef, usize)> {
        let Tok::Unit(kind) = *toks.get(k)? else {
            return None;
        };
        let Tok::Word(_) = *toks.get(k + 1)? else {
            return None;
        };
        let loc = self.loc_at(words, k + 1)?;
        Some((
            UnitRef {
                kind: Some(kind),
                loc,
            },
            k + 2,
        ))
    }

    /// The location written as token `k`: a name or id met exactly, with an optional
    /// `/coast` id. `None` if the full grammar could read more into it: a longer name
    /// beginning with it, or a coast written after a split province.
    fn loc_at(&self, words: &[&str], k: usize) -> Option<Loc> {
        let w = *words.get(k)?;
        let (name, coast) = match w.split_once('/') {
            Some((n, c)) => (n, Some(c)),
            None => (w, None),
        };
        let loc = match with_normalized(name, |n| self.names.place(n)) {
            [l] if !self.map.is_coast(*l) => *l,
            _ => return None,
        };
        let prov = self.map.prov_of(loc);
        let last = k + 1 == words.len();
        if !last && coast.is_none() {
            if self.map.is_split(prov) {
                return None;
            }
            // No name of two or more words begins with this one (`North` of `North Sea`),
            // as the full grammar reads names: words up to a `-`. The tokens are slices
            // of one text, one space apart: words `k..end` are the text from the start
            // of the first to the end of the last.
            let from = w.as_ptr() as usize;
            let mut end = k + 1;
            while end - k < self.names.max_words {
                let Some(&next) = words.get(end) else {
                    break;
                };
                if next == "-" || next == "->" {
                    break;
                }
                if next.contains('/') {
                    return None;
                }
                end += 1;
                let last = *words.get(end - 1)?;
                let len = last.as_ptr() as usize + last.len() - from;
                let joined = self.line.get(self.offset(w) as usize..)?.get(..len)?;
                if !with_normalized(joined, |n| self.names.place(n)).is_empty() {
                    return None;
                }
            }
        }
        match coast {
            None => Some(loc),
            Some(c) => self.map.province(prov).coasts.iter().copied().find(|&l| {
                self.map
                    .coast(l)
                    .is_some_and(|k| k.id.eq_ignore_ascii_case(c))
            }),
        }
    }
}

/// What a token is; `None` for a keyword the fast path does not read.
fn token(w: &str) -> Option<Tok<'_>> {
    if w == "-" || w == "->" {
        return Some(Tok::Move);
    }
    if w.contains('-') {
        return None;
    }
    let f = flags(w);
    if f == 0 {
        return Some(Tok::Word(w));
    }
    let one = |bit: u32| f == bit;
    if one(flag::ARMY) || (f & flag::ARMY != 0 && w.eq_ignore_ascii_case("a")) {
        return (w.eq_ignore_ascii_case("a") || w.eq_ignore_ascii_case("army"))
            .then_some(Tok::Unit(UnitKind::Army));
    }
    if one(flag::FLEET) || (f & flag::FLEET != 0 && w.eq_ignore_ascii_case("f")) {
        return (w.eq_ignore_ascii_case("f") || w.eq_ignore_ascii_case("fleet"))
            .then_some(Tok::Unit(UnitKind::Fleet));
    }
    if ["h", "hold", "holds"]
        .iter()
        .any(|k| w.eq_ignore_ascii_case(k))
    {
        return Some(Tok::Hold);
    }
    if ["s", "support", "supports"]
        .iter()
        .any(|k| w.eq_ignore_ascii_case(k))
    {
        return Some(Tok::Support);
    }
    if ["c", "convoy", "convoys"]
        .iter()
        .any(|k| w.eq_ignore_ascii_case(k))
    {
        return Some(Tok::Convoy);
    }
    None
}
