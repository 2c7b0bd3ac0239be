//! JSON output: one object per phase, whatever its kind (shape in `docs/CLI.md`). The
//! batch answers with the same object per line.

// Reports index a `PhaseResult` produced by the judge on the same map: unit
// and order indices (`k`, `unit`, supporters) are positions in
// that result's own vectors, and Prov/Loc/Power ids are the map's own or were
// checked by `game::check_ids` before the phase was judged. An out-of-range index
// is a bug, not input.
#![allow(clippy::indexing_slicing)]

use serde::Serialize;
use std::collections::BTreeMap;

use super::{canonical, reason, unit_order};
use crate::game::PhaseResult;
use crate::judge::Owed;
use crate::map::{Map, Power};
use crate::orders::Diagnostic;
use crate::state::{DislodgedEntry, Unit};

/// An input order's result as strings, for the game file's records. (The JSON result
/// writes its entries with [`Writer::order`].)
#[derive(Debug, Clone)]
pub struct JsonOrder {
    pub power: Option<String>,
    pub order: String,
    pub canonical: Option<String>,
    pub outcome: &'static str,
    pub reason: Option<String>,
    /// The orders of the units that caused the outcome.
    pub caused_by: Vec<String>,
}

/// What a power owes in the coming adjustment phase.
#[derive(Serialize, Debug, Clone)]
pub struct JsonOwed {
    pub power: String,
    pub centres: usize,
    pub units: usize,
    /// Builds (positive) or removals (negative).
    pub change: i32,
    pub build_sites: Vec<String>,
    /// Builds saved last winter for a colonial build (colonial build rule only).
    #[serde(skip_serializing_if = "is_zero")]
    pub saved: usize,
    /// Where it may build with a saved build (colonial build rule only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub colonial_sites: Vec<String>,
    /// It may save builds for a colonial build next winter (colonial build rule only).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub may_save: bool,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Each input order's JSON entry, in input order.
pub fn orders(map: &Map, result: &PhaseResult) -> Vec<JsonOrder> {
    (0..result.input.len())
        .map(|k| {
            let (reason, causes) = reason(map, result, k);
            JsonOrder {
                power: result.orders()[k].power.map(|p| map.power(p).id.clone()),
                order: result.input[k].text.to_string(),
                canonical: Some(canonical(map, result, k)),
                outcome: result.orders()[k].outcome.word(),
                reason,
                caused_by: causes
                    .into_iter()
                    .map(|u| unit_order(map, result, u))
                    .collect(),
            }
        })
        .collect()
}

/// Units by power id; every power of the map is listed.
pub fn units_by_power(map: &Map, units: &[Unit]) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = map
        .powers
        .iter()
        .map(|p| (p.id.clone(), Vec::new()))
        .collect();
    for u in units {
        out.entry(map.power(u.power).id.clone())
            .or_default()
            .push(u.short(map));
    }
    out
}

/// Supply centres by owner id (upper-case province ids); every power is listed.
pub fn owners_by_power(map: &Map, owners: &[Option<Power>]) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = map
        .powers
        .iter()
        .map(|p| (p.id.clone(), Vec::new()))
        .collect();
    for p in map.provs() {
        if let Some(pw) = owners[p.0 as usize] {
            out.entry(map.power(pw).id.clone())
                .or_default()
                .push(map.loc_upper(p.into()).to_string());
        }
    }
    out
}

pub fn owed(map: &Map, owed: &[Owed]) -> Vec<JsonOwed> {
    owed.iter()
        .filter(|o| o.centres > 0 || o.units > 0)
        .map(|o| JsonOwed {
            power: map.power(o.power).id.clone(),
            centres: o.centres,
            units: o.units,
            change: o.change,
            build_sites: o
                .build_sites
                .iter()
                .map(|&p| map.loc_upper(p.into()).to_string())
                .collect(),
            saved: o.saved,
            colonial_sites: o
                .colonial_sites
                .iter()
                .map(|&p| map.loc_upper(p.into()).to_string())
                .collect(),
            may_save: o.may_save,
        })
        .collect()
}

/// Writes the JSON result of a phase: compact JSON text appended to a byte buffer,
/// with no value built first. This is the one definition of the result's shape (key
/// order included): [`write_phase`], [`phase`] and the batch's answers all write it
/// through here.
pub struct Writer<'o> {
    out: &'o mut Vec<u8>,
    /// Room to format one string before it is written.
    scratch: String,
    /// Where the text goes as it is made, indented ([`write_phase_pretty`]); `None`:
    /// it stays in `out`.
    sink: Option<Sink<'o>>,
}

/// The indented output of a [`Writer`] that writes as it goes.
struct Sink<'o> {
    indenter: Indenter,
    w: &'o mut dyn std::io::Write,
    /// The first error writing `w`: the rest is not written.
    error: Option<serde_json::Error>,
}

/// How many bytes of text a [`Writer`] that writes as it goes holds at most before it
/// indents and writes them (one element more at most).
const PART: usize = 1 << 16;

impl<'o> Writer<'o> {
    pub fn new(out: &'o mut Vec<u8>) -> Writer<'o> {
        Writer {
            out,
            scratch: String::with_capacity(64),
            sink: None,
        }
    }

    /// With a sink: the rest of the text indented and written, or the first error.
    fn finish(self) -> serde_json::Result<()> {
        match self.sink {
            None => Ok(()),
            Some(Sink { error: Some(e), .. }) => Err(e),
            Some(mut sink) => sink.indenter.feed(self.out, sink.w),
        }
    }

    /// With a sink, past [`PART`] bytes: indent them and write them out. Called only
    /// after a whole element of a list (never just after an opening bracket, which the
    /// indenter reads with the byte after it).
    fn spill(&mut self) {
        let Some(sink) = self.sink.as_mut() else {
            return;
        };
        if self.out.len() < PART {
            return;
        }
        if sink.error.is_none() {
            if let Err(e) = sink.indenter.feed(self.out, sink.w) {
                sink.error = Some(e);
            }
        }
        self.out.clear();
    }

    /// Bytes that are JSON as they stand (keys, punctuation, literals).
    pub fn raw(&mut self, json: &[u8]) {
        self.out.extend_from_slice(json);
    }

    /// A JSON string.
    pub fn str(&mut self, s: &str) {
        string(self.out, s);
    }

    fn opt_str(&mut self, s: Option<&str>) {
        match s {
            Some(s) => self.str(s),
            None => self.raw(b"null"),
        }
    }

    fn num(&mut self, n: impl std::fmt::Display) {
        use std::io::Write;
        // Writing to a `Vec` cannot fail.
        let _ = write!(self.out, "{n}");
    }

    /// `v` through serde, for the parts whose shape a serde type defines.
    pub fn serde(&mut self, v: &impl Serialize) -> serde_json::Result<()> {
        serde_json::to_writer(&mut *self.out, v)
    }

    /// The string `f` writes into the scratch buffer.
    fn str_with(&mut self, f: impl FnOnce(&mut String)) {
        self.scratch.clear();
        f(&mut self.scratch);
        string(self.out, &self.scratch);
    }

    /// A comma unless this is the first element of an array or object.
    fn comma(&mut self) {
        if !matches!(self.out.last(), Some(b'[' | b'{')) {
            self.out.push(b',');
        }
    }

    /// `[…]`, one element per item.
    fn list<T>(&mut self, items: impl IntoIterator<Item = T>, mut each: impl FnMut(&mut Self, T)) {
        self.raw(b"[");
        for (n, t) in items.into_iter().enumerate() {
            if n > 0 {
                self.raw(b",");
            }
            each(self, t);
        }
        self.raw(b"]");
    }

    /// `{"power": "…", "unit": "F PIC"}`, without its closing brace.
    fn unit_open(&mut self, map: &Map, u: &Unit) {
        self.raw(b"{\"power\":");
        self.power(map, u.power);
        self.raw(b",\"unit\":");
        self.unit_str(map, u);
    }

    /// A power's id as a JSON string.
    fn power(&mut self, map: &Map, p: Power) {
        string(self.out, &map.power(p).id);
    }

    /// A unit as a JSON string: `"F STP/SC"` ([`Unit::short`]).
    fn unit_str(&mut self, map: &Map, u: &Unit) {
        self.str_with(|s| u.write_short(s, map));
    }

    /// A word of the format's own vocabulary (an outcome), which needs no escape.
    fn word(&mut self, word: &'static str) {
        self.out.reserve(word.len() + 2);
        self.out.push(b'"');
        self.out.extend_from_slice(word.as_bytes());
        self.out.push(b'"');
    }

    fn unit(&mut self, map: &Map, u: &Unit) {
        self.unit_open(map, u);
        self.raw(b"}");
    }

    /// The entry of input order `k` of `result`, written `text`, with `warnings` (the
    /// messages of these diagnostics).
    pub fn order(
        &mut self,
        map: &Map,
        result: &PhaseResult,
        k: usize,
        text: &str,
        warnings: &[Diagnostic],
    ) {
        self.comma();
        self.raw(b"{\"power\":");
        match result.orders()[k].power {
            Some(p) => self.power(map, p),
            None => self.raw(b"null"),
        }
        self.raw(b",\"order\":");
        self.str(text);
        self.raw(b",\"canonical\":");
        self.str_with(|s| super::write_canonical(s, map, result, k));
        self.raw(b",\"outcome\":");
        self.word(result.orders()[k].outcome.word());
        self.raw(b",\"reason\":");
        self.scratch.clear();
        if super::write_reason(&mut self.scratch, map, result, k) {
            string(self.out, &self.scratch);
        } else {
            self.raw(b"null");
        }
        self.raw(b",\"caused_by\":");
        self.list(super::causes(result, k), |w, u| {
            w.str_with(|s| super::write_unit_order(s, map, result, u))
        });
        if !warnings.is_empty() {
            self.raw(b",\"warnings\":");
            self.list(warnings, |w, d| w.str(&d.message));
        }
        self.raw(b"}");
    }

    /// The entry of an order that could not be read (or was listed under the wrong
    /// power): illegal, with no canonical form, for `reason`.
    pub fn unread_order(&mut self, power: &str, text: &str, reason: &str) {
        self.comma();
        self.raw(b"{\"power\":");
        self.str(power);
        self.raw(b",\"order\":");
        self.str(text);
        self.raw(b",\"canonical\":null,\"outcome\":\"illegal\",\"reason\":");
        self.str(reason);
        self.raw(b",\"caused_by\":[]}");
    }

    /// `{"id": [items of that power], …}` for every power of the map, in id order
    /// (as [`units_by_power`] gives them), with each power's items in order, each
    /// written by `item`.
    fn by_power<T: Copy>(
        &mut self,
        map: &Map,
        items: &[T],
        power: impl Fn(T) -> Option<Power>,
        item: impl Fn(&mut Self, T),
    ) {
        self.raw(b"{");
        for (n, p) in powers_by_id(map).into_iter().enumerate() {
            if n > 0 {
                self.raw(b",");
            }
            self.power(map, p);
            self.raw(b":");
            let mine = items.iter().copied().filter(|&t| power(t) == Some(p));
            self.list(mine, &item);
        }
        self.raw(b"}");
    }

    /// `{"id": n, …}` by power id, in id order; for a power listed twice, the last.
    fn counts(&mut self, map: &Map, counts: &[(Power, usize)]) {
        let mut by_id: Vec<(&str, usize)> = counts
            .iter()
            .map(|&(p, n)| (map.power(p).id.as_str(), n))
            .collect();
        // A stable sort keeps a power's entries in order: the last one is kept.
        by_id.sort_by(|a, b| a.0.cmp(b.0));
        self.raw(b"{");
        for (k, &(id, n)) in by_id.iter().enumerate() {
            if by_id.get(k + 1).is_some_and(|next| next.0 == id) {
                continue;
            }
            self.comma();
            self.str(id);
            self.raw(b":");
            self.num(n);
        }
        self.raw(b"}");
    }

    /// The result's keys, `"map": …` to `"diagnostics": […]`, without the braces
    /// around them; `orders` writes the entries of the `orders` list (with
    /// [`Writer::order`] for this `result` and [`Writer::unread_order`]).
    pub fn phase_keys(
        &mut self,
        map: &Map,
        result: &PhaseResult,
        diagnostics: &[Diagnostic],
        orders: impl FnOnce(&mut Self),
    ) -> serde_json::Result<()> {
        let upper = |s: &mut String, p: crate::map::Prov| s.push_str(map.loc_upper(p.into()));
        self.raw(b"\"map\":");
        self.str(&map.name);
        self.raw(b",\"rules\":");
        self.str(result.rules.name());
        self.raw(b",\"phase\":");
        self.str_with(|s| push_display(s, result.phase));
        self.raw(b",\"orders\":[");
        orders(self);
        self.raw(b"],\"dislodged\":");
        let dislodged: Vec<DislodgedEntry> =
            result.dislodged().iter().map(|d| d.entry(map)).collect();
        self.serde(&dislodged)?;
        // Each kind's keys are written for every kind (empty where they do not apply).
        let contested = result.movement().map_or(&[][..], |m| &m.contested);
        let adjustment = result.adjustment();
        let built = adjustment.map_or(&[][..], |a| &a.built);
        let removed = adjustment.map_or(&[][..], |a| &a.removed);
        let civil_disorder = adjustment.map_or(&[][..], |a| &a.civil_disorder);
        let waived = adjustment.map_or(&[][..], |a| &a.waived);
        let saved = adjustment.map_or(&[][..], |a| &a.saved);
        self.raw(b",\"contested\":");
        self.list(contested, |w, &p| w.str_with(|s| upper(s, p)));
        self.raw(b",\"destroyed\":");
        self.list(&result.destroyed(), |w, &i| w.unit(map, &result.units()[i]));
        self.raw(b",\"built\":");
        self.list(built, |w, u| w.unit(map, u));
        self.raw(b",\"removed\":");
        self.list(removed, |w, &i| w.unit(map, &result.units()[i]));
        self.raw(b",\"civil_disorder\":");
        self.list(civil_disorder, |w, &(i, distance)| {
            w.unit_open(map, &result.units()[i]);
            w.raw(b",\"distance\":");
            match distance {
                Some(d) => w.num(d),
                None => w.raw(b"null"),
            }
            w.raw(b"}");
        });
        self.raw(b",\"waived\":");
        self.counts(map, waived);
        if !saved.is_empty() {
            self.raw(b",\"saved\":");
            self.counts(map, saved);
        }
        self.raw(b",\"units_after\":");
        self.by_power(
            map,
            &result.units_after,
            |u| Some(u.power),
            |w, u| w.unit_str(map, &u),
        );
        self.raw(b",\"owners\":");
        match &result.owners_after {
            Some(owners) => {
                let provs: Vec<crate::map::Prov> = map.provs().collect();
                self.by_power(
                    map,
                    &provs,
                    |p| owners.get(p.0 as usize).copied().flatten(),
                    |w, p| w.str_with(|s| upper(s, p)),
                );
            }
            None => self.raw(b"null"),
        }
        self.raw(b",\"owed\":");
        self.serde(&owed(map, &result.owed))?;
        self.raw(b",\"skipped\":");
        self.list(&result.skipped, |w, &p| w.str_with(|s| push_display(s, p)));
        self.raw(b",\"next\":");
        match result.next {
            Some(p) => self.str_with(|s| push_display(s, p)),
            None => self.raw(b"null"),
        }
        self.raw(b",\"winner\":");
        self.opt_str(result.winner.map(|p| map.power(p).id.as_str()));
        self.raw(b",\"diagnostics\":[");
        // One at a time (the bytes serde writes for the whole list), so that a writer
        // that writes as it goes can do so between them.
        for (n, d) in diagnostics.iter().enumerate() {
            if n > 0 {
                self.raw(b",");
            }
            self.serde(d)?;
            self.spill();
        }
        self.raw(b"]");
        Ok(())
    }
}

fn push_display(s: &mut String, v: impl std::fmt::Display) {
    use std::fmt::Write;
    // Writing to a `String` cannot fail.
    let _ = write!(s, "{v}");
}

/// `s` as a JSON string, escaped by serde_json.
fn string(out: &mut Vec<u8>, s: &str) {
    // Writing to a `Vec` cannot fail.
    let _ = serde_json::to_writer(out, s);
}

/// The powers of `map` in the order of their ids (the loader refuses two powers of
/// one id): the order of every object keyed by power.
fn powers_by_id(map: &Map) -> Vec<Power> {
    let mut by_id: Vec<Power> = map.power_ids().collect();
    by_id.sort_by(|&a, &b| map.power(a).id.cmp(&map.power(b).id));
    by_id
}

/// The JSON result of a phase as compact text appended to `out`: `{"map": …, …}`
/// (shape in `docs/CLI.md`), with `diagnostics` as its diagnostics.
pub fn write_phase(
    out: &mut Vec<u8>,
    map: &Map,
    result: &PhaseResult,
    diagnostics: &[Diagnostic],
) -> serde_json::Result<()> {
    let mut w = Writer::new(out);
    w.raw(b"{");
    w.phase_keys(map, result, diagnostics, |w| {
        for (k, o) in result.input.iter().enumerate() {
            w.order(map, result, k, &o.text, &[]);
        }
    })?;
    w.raw(b"}");
    Ok(())
}

/// [`write_phase`], indented as [`indent`] indents it, written to `w` as it is made: a
/// phase of many orders is held as its result, never as its whole text too (the
/// memory bound of `docs/CLI.md`, "Bounds").
pub fn write_phase_pretty(
    w: &mut dyn std::io::Write,
    map: &Map,
    result: &PhaseResult,
    diagnostics: &[Diagnostic],
) -> serde_json::Result<()> {
    let mut buf = Vec::with_capacity(PART + 4096);
    let mut wr = Writer {
        out: &mut buf,
        scratch: String::with_capacity(64),
        sink: Some(Sink {
            indenter: Indenter::default(),
            w,
            error: None,
        }),
    };
    wr.raw(b"{");
    wr.phase_keys(map, result, diagnostics, |w| {
        for (k, o) in result.input.iter().enumerate() {
            w.order(map, result, k, &o.text, &[]);
            w.spill();
        }
    })?;
    wr.raw(b"}");
    wr.finish()
}

/// The JSON result of a phase as indented text, byte for byte what
/// `serde_json::to_string_pretty` writes of [`phase`]'s value, without that value: the
/// compact text is indented as it stands ([`indent`]), so a phase of many orders takes
/// about the memory of its text, not of a tree of maps ten times its size.
pub fn phase_pretty(
    map: &Map,
    result: &PhaseResult,
    diagnostics: &[Diagnostic],
) -> serde_json::Result<String> {
    let mut out = Vec::new();
    write_phase(&mut out, map, result, diagnostics)?;
    indent(&out)
}

/// Compact JSON text indented as `serde_json::to_string_pretty` indents a value read
/// from it: two spaces a level, `"key": value`, `[]` and `{}` for empty ones. A string
/// with an escape in it and a number that is not an integer are read and written again
/// by serde_json, so they come out as that value would.
pub fn indent(compact: &[u8]) -> serde_json::Result<String> {
    use serde::de::Error;
    let mut out: Vec<u8> = Vec::with_capacity(compact.len() + compact.len() / 2);
    indent_to(compact, &mut out)?;
    String::from_utf8(out).map_err(|_| serde_json::Error::custom("not UTF-8"))
}

/// [`indent`], written to `w` as it goes (64 KiB at a time): a large result is never
/// held twice.
pub fn indent_to(compact: &[u8], w: &mut dyn std::io::Write) -> serde_json::Result<()> {
    Indenter::default().feed(compact, w)
}

/// Indents compact JSON given in pieces ([`indent`]), each piece written to `w` as it
/// goes. A piece ends between two tokens, and never just after an opening bracket
/// (whether `[]` is empty is read from the byte after `[`).
#[derive(Default)]
struct Indenter {
    /// How deep the text is nested where the last piece ended.
    depth: usize,
}

impl Indenter {
    fn feed(&mut self, compact: &[u8], w: &mut dyn std::io::Write) -> serde_json::Result<()> {
        use serde::de::Error;
        let bad = || serde_json::Error::custom("not compact JSON");
        let mut out: Vec<u8> = Vec::with_capacity(PART.min(compact.len() * 2) + 1024);
        let mut depth = self.depth;
        let newline = |out: &mut Vec<u8>, depth: usize| {
            out.push(b'\n');
            out.extend(std::iter::repeat_n(b' ', 2 * depth));
        };
        let mut i = 0;
        while let Some(&c) = compact.get(i) {
            // Where the next token begins.
            let mut next = i + 1;
            match c {
                b'{' | b'[' => {
                    let close = if c == b'{' { b'}' } else { b']' };
                    out.push(c);
                    if compact.get(i + 1) == Some(&close) {
                        out.push(close);
                        next = i + 2;
                    } else {
                        depth += 1;
                        newline(&mut out, depth);
                    }
                }
                b'}' | b']' => {
                    depth = depth.checked_sub(1).ok_or_else(bad)?;
                    newline(&mut out, depth);
                    out.push(c);
                }
                b',' => {
                    out.push(b',');
                    newline(&mut out, depth);
                }
                b':' => out.extend_from_slice(b": "),
                b'"' => {
                    // The string's end: the next quote not escaped.
                    let mut j = i + 1;
                    let mut escaped = false;
                    loop {
                        match compact.get(j) {
                            None => return Err(bad()),
                            Some(b'\\') => {
                                escaped = true;
                                j += 2;
                            }
                            Some(b'"') => break,
                            Some(_) => j += 1,
                        }
                    }
                    let token = compact.get(i..=j).ok_or_else(bad)?;
                    if escaped {
                        let text: String = serde_json::from_slice(token)?;
                        serde_json::to_writer(&mut out, &text)?;
                    } else {
                        out.extend_from_slice(token);
                    }
                    next = j + 1;
                }
                b' ' | b'\n' | b'\r' | b'\t' => {}
                _ => {
                    // A number or a literal, up to the next punctuation.
                    let end = compact
                        .get(i..)
                        .and_then(|r| r.iter().position(|b| b",]}: \n".contains(b)))
                        .map_or(compact.len(), |k| i + k)
                        .max(i + 1);
                    let token = compact.get(i..end).ok_or_else(bad)?;
                    if matches!(token.first(), Some(b'-' | b'0'..=b'9'))
                        && token.iter().any(|b| matches!(b, b'.' | b'e' | b'E'))
                    {
                        let v: serde_json::Value = serde_json::from_slice(token)?;
                        serde_json::to_writer(&mut out, &v)?;
                    } else {
                        out.extend_from_slice(token);
                    }
                    next = end;
                }
            }
            i = next;
            if out.len() >= PART {
                w.write_all(&out).map_err(serde_json::Error::io)?;
                out.clear();
            }
        }
        self.depth = depth;
        w.write_all(&out).map_err(serde_json::Error::io)
    }
}

/// The JSON result of a phase as a value ([`write_phase`]'s text, read back).
pub fn phase(
    map: &Map,
    result: &PhaseResult,
    diagnostics: &[Diagnostic],
) -> serde_json::Result<serde_json::Value> {
    let mut out = Vec::new();
    write_phase(&mut out, map, result, diagnostics)?;
    serde_json::from_slice(&out)
}
