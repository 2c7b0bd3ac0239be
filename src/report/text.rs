//! The results sheet in the Judge / DPjudge format that mappers and other programs
//! read, for every kind of phase, fitted to 80 columns:
//!
//! ```text
//! Movement results for Spring of 1901. (standard)
//!
//! England: Fleet London -> North Sea.
//! France: Army Paris -> Burgundy.  (*bounce*)
//! ```

// Reports index a `PhaseResult` produced by the judge on the same map: unit
// and order indices (`k`, `unit`, supporters) are positions in
// that result's own vectors, and Prov/Loc/Power ids are the map's own or were
// checked by `game::check_ids` before the phase was judged. An out-of-range index
// is a bug, not input.
#![allow(clippy::indexing_slicing)]

use std::fmt::Write;

use super::{centre_changes, owner_name, tags, unit_words};
use crate::game::{Judged, PhaseResult};
use crate::judge::{AdjustmentResult, MovementResult};
use crate::judge::{CivilDisorder, Illegal, Outcome, Rules};
use crate::map::{Loc, Map, Power, Prov, UnitKind};
use crate::orders::OrderKind;
use crate::state::{Phase, PhaseKind, Unit};

/// The width a sheet is fitted to.
pub const WIDTH: usize = 80;

/// One order as the Judge writes it, without the power prefix and tags.
pub(crate) fn order_text(map: &Map, result: &PhaseResult, k: usize) -> String {
    let o = &result.input[k];
    let r = &result.orders()[k];
    let unit: Option<Unit> = r.unit.map(|u| result.units()[u]);
    let (kind, loc) = match (unit, o.unit) {
        (Some(u), _) => (Some(u.kind), u.loc),
        (None, Some(u)) => (u.kind, u.loc),
        (None, None) if o.kind == OrderKind::Save => {
            return "SAVE (for a colonial build)".to_string()
        }
        (None, None) => return "WAIVE".to_string(),
    };
    let kind = match (o.kind, r.to) {
        (OrderKind::Build, Some(_)) => kind.or(Some(if map.is_named_coast(loc) {
            UnitKind::Fleet
        } else {
            UnitKind::Army
        })),
        _ => kind,
    };
    let me = format!(
        "{} {}",
        kind.map(|k| k.word()).unwrap_or("Unit"),
        map.loc_name(loc)
    );
    let other = |l: Loc, k: Option<UnitKind>, convoy: bool| -> String {
        let p = map.prov_of(l);
        let u = result.units().iter().find(|u| map.prov_of(u.loc) == p);
        match u {
            Some(u) => {
                let foreign = convoy || unit.is_some_and(|me| me.power != u.power);
                format!("{} {}", unit_words(map, u, foreign), map.loc_name(u.loc))
            }
            None => format!(
                "{} {}",
                k.map(|k| k.word()).unwrap_or("Unit"),
                map.loc_name(l)
            ),
        }
    };
    match o.kind {
        OrderKind::Hold => format!("{me} HOLD"),
        OrderKind::Move { to, .. } => format!("{me} -> {}", map.loc_name(r.to.unwrap_or(to))),
        OrderKind::Build if r.to.is_some() => {
            let l = r.to.unwrap_or(loc);
            format!(
                "BUILD {} {}",
                kind.map(|k| k.word()).unwrap_or("Unit"),
                map.loc_name(l)
            )
        }
        OrderKind::Support { target, to: None } => {
            format!("{me} SUPPORT {}", other(target.loc, target.kind, false))
        }
        OrderKind::Support {
            target,
            to: Some(to),
        } => {
            format!(
                "{me} SUPPORT {} -> {}",
                other(target.loc, target.kind, false),
                map.loc_name(to)
            )
        }
        OrderKind::Convoy { army, to } => {
            format!(
                "{me} CONVOY {} -> {}",
                other(army.loc, Some(UnitKind::Army), true),
                map.loc_name(to)
            )
        }
        OrderKind::Disband => format!("{me} DISBAND"),
        OrderKind::Build => format!("BUILD {me}"),
        OrderKind::Waive => "WAIVE".to_string(),
        OrderKind::Save => "SAVE FOR A COLONIAL BUILD".to_string(),
    }
}

/// The header line: `Movement results for Spring of 1901. (game)`.
pub fn header(result: &PhaseResult, game: &str) -> String {
    let what = match result.phase.kind {
        PhaseKind::Movement => "Movement results",
        PhaseKind::Retreat => "Retreat orders",
        PhaseKind::Adjustment => "Adjustment orders",
    };
    // The game's name is one line: a line break or another control character in it
    // (`adjudicate --game`) could forge a sheet line, so it is a space.
    let game: String = game
        .chars()
        .map(|c| {
            if crate::yaml::breaks_a_name(c) {
                ' '
            } else {
                c
            }
        })
        .collect();
    format!(
        "{what} for {} of {}. ({game})",
        result.phase.season, result.phase.year
    )
}

/// One line of a sheet: an order as written, or a unit that received no order.
pub struct SheetLine {
    pub power: Option<Power>,
    /// The order in the Judge's words, without power and tags.
    pub text: String,
    /// `succeeds`, `fails`, `illegal`, `invalid`.
    pub outcome: &'static str,
    pub tags: Vec<&'static str>,
}

/// Each order's line, by power in map order, then as written. In a movement phase a
/// unit that received no order is listed too (`HOLD`, tag `no order`), so a missing
/// slip is seen on the sheet.
pub fn order_lines(map: &Map, result: &PhaseResult) -> Vec<SheetLine> {
    order_line_keys(result)
        .into_iter()
        .map(|l| sheet_line(map, result, l))
        .collect()
}

/// One line of [`order_lines`]: an order of the input, or a unit that received none.
#[derive(Clone, Copy, Debug)]
pub enum LineOf {
    /// Input order `k`.
    Order(usize),
    /// Unit `i`, which received no order in a movement phase.
    Unordered(usize),
}

/// The lines of [`order_lines`] in their order, each written only when asked
/// ([`sheet_line`]): a sheet of many orders is written line by line, never held as
/// lines too.
pub fn order_line_keys(result: &PhaseResult) -> Vec<LineOf> {
    let mut lines: Vec<((bool, Option<Power>), LineOf)> = (0..result.input.len())
        .map(|k| {
            (
                super::power_first(result.orders()[k].power),
                LineOf::Order(k),
            )
        })
        .collect();
    if result.phase.kind == PhaseKind::Movement {
        let mut ordered = vec![false; result.units().len()];
        for o in result.orders() {
            if !matches!(o.outcome, Outcome::Illegal(Illegal::ForeignUnit(_))) {
                if let Some(slot) = o.unit.and_then(|i| ordered.get_mut(i)) {
                    *slot = true;
                }
            }
        }
        for (i, u) in result.units().iter().enumerate() {
            if !ordered[i] {
                lines.push((super::power_first(Some(u.power)), LineOf::Unordered(i)));
            }
        }
    }
    // Stable: by power, then as written.
    lines.sort_by_key(|(p, _)| *p);
    lines.into_iter().map(|(_, l)| l).collect()
}

/// The line of the sheet `l` stands for ([`order_line_keys`]).
pub fn sheet_line(map: &Map, result: &PhaseResult, l: LineOf) -> SheetLine {
    match l {
        LineOf::Order(k) => SheetLine {
            power: result.orders()[k].power,
            text: order_text(map, result, k),
            outcome: result.orders()[k].outcome.word(),
            tags: tags(result, k),
        },
        LineOf::Unordered(i) => {
            let u = &result.units()[i];
            let dislodged = result.is_dislodged(i);
            let mut tags = vec!["no order"];
            if dislodged {
                tags.push("dislodged");
            }
            SheetLine {
                power: Some(u.power),
                text: format!("{} {} HOLD", u.kind.word(), map.loc_name(u.loc)),
                outcome: if dislodged { "fails" } else { "succeeds" },
                tags,
            }
        }
    }
}

/// How much text [`sheet_to`] and `markdown::sheet_to` hold before they hand it on.
pub(crate) const PART: usize = 1 << 16;

/// The whole sheet of a phase.
pub fn sheet(map: &Map, game: &str, result: &PhaseResult) -> String {
    whole(|emit| sheet_to(map, game, result, emit))
}

/// The whole text a writer in parts (such as [`sheet_to`]) hands on.
pub(crate) fn whole(
    write: impl FnOnce(&mut dyn FnMut(&str) -> std::io::Result<()>) -> std::io::Result<()>,
) -> String {
    let mut out = String::new();
    let _ = write(&mut |part| {
        out.push_str(part);
        Ok(())
    });
    out
}

/// [`sheet`], handed to `emit` in parts of whole lines as it is written (about
/// [`PART`] bytes each): a phase of many orders is never held as its sheet too.
/// Stops at the first error `emit` returns.
pub fn sheet_to(
    map: &Map,
    game: &str,
    result: &PhaseResult,
    emit: &mut dyn FnMut(&str) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut out = String::new();
    let _ = writeln!(out, "{}", header(result, game));
    let _ = writeln!(out, "Rules: {} edition.", result.rules.name());
    out.push('\n');
    let lines = order_line_keys(result);
    if lines.is_empty() {
        let _ = writeln!(out, "No orders.");
    }
    for l in lines {
        let SheetLine {
            power,
            text,
            tags: t,
            ..
        } = sheet_line(map, result, l);
        let power = match power {
            Some(p) => map.power(p).name.clone(),
            None => "Unknown".to_string(),
        };
        let tag = if t.is_empty() {
            String::new()
        } else {
            format!("  (*{}*)", t.join(", "))
        };
        wrap(&mut out, &format!("{power}: {text}.{tag}"));
        if out.len() >= PART {
            emit(&out)?;
            out.clear();
        }
    }
    let void = void_orders(map, result);
    if !void.is_empty() {
        out.push('\n');
        let _ = writeln!(out, "Void orders (not carried out):");
        for line in &void {
            wrap(&mut out, line);
        }
    }
    match &result.judged {
        Judged::Movement(m) => movement_tail(&mut out, map, result, m),
        Judged::Retreat(_) => retreat_tail(&mut out, map, result),
        Judged::Adjustment(a) => adjustment_tail(&mut out, map, result, a),
    }
    if let Some(owners) = &result.owners_after {
        out.push('\n');
        centres(&mut out, map, &result.owners_before, owners, result);
    }
    out.push('\n');
    for line in closing_lines(map, result) {
        wrap(&mut out, &line);
    }
    emit(&out)
}

/// In a retreat or adjustment phase, each illegal order (judged only with `--accept`,
/// or by `adjudicate`) and why it is void: `Turkey: BUILD Army Sevastopol: not a home
/// centre …`. None in a movement phase, whose void orders hold (tag `void`).
pub(crate) fn void_orders(map: &Map, result: &PhaseResult) -> Vec<String> {
    if result.phase.kind == PhaseKind::Movement {
        return Vec::new();
    }
    let mut lines: Vec<_> = (0..result.input.len())
        .filter_map(|k| {
            let r = &result.orders()[k];
            let Outcome::Illegal(why) = &r.outcome else {
                return None;
            };
            let power = r.power.map_or("Unknown", |p| map.power(p).name.as_str());
            let line = format!(
                "{power}: {}: {}.",
                order_text(map, result, k),
                why.describe(map)
            );
            Some((super::power_first(r.power), line))
        })
        .collect();
    // By power in map order, then as written, as the order lines.
    lines.sort_by_key(|(p, _)| *p);
    lines.into_iter().map(|(_, l)| l).collect()
}

/// The last lines of a sheet: the phases skipped, then the next phase, the winner,
/// or the end of the game.
pub(crate) fn closing_lines(map: &Map, result: &PhaseResult) -> Vec<String> {
    let mut lines: Vec<String> = result
        .skipped
        .iter()
        .flat_map(|p| skipped_lines(map, result, *p))
        .collect();
    // The powers at or past the victory line after this Fall turn, the most first: a
    // sheet says why one of several won, or why nobody did.
    let past: Vec<(Power, usize)> = result.owners_after.as_ref().map_or(Vec::new(), |o| {
        let mut v: Vec<(Power, usize)> = map
            .power_ids()
            .map(|pw| (pw, o.iter().filter(|x| **x == Some(pw)).count()))
            .filter(|&(_, n)| n >= map.victory as usize && n > 0)
            .collect();
        v.sort_by_key(|&(pw, n)| (std::cmp::Reverse(n), pw));
        v
    });
    let named = |v: &[(Power, usize)]| -> Vec<String> {
        v.iter()
            .map(|&(pw, n)| format!("{} ({n})", map.power(pw).name))
            .collect()
    };
    if result.winner.is_none() && past.len() > 1 {
        lines.push(format!(
            "Past the line of {} supply centres: {}. With a tie for the most, nobody \
             wins yet.",
            map.victory,
            and_list(&named(&past))
        ));
    }
    lines.push(match (result.winner, result.next) {
        (Some(w), _) => {
            let n = past.iter().find(|&&(pw, _)| pw == w).map_or(0, |&(_, n)| n);
            let others: Vec<(Power, usize)> =
                past.iter().copied().filter(|&(pw, _)| pw != w).collect();
            let also = if others.is_empty() {
                String::new()
            } else {
                format!(
                    " (the most of the powers past the line of {}; also past it: {})",
                    map.victory,
                    and_list(&named(&others))
                )
            };
            format!(
                "{} owns {n} supply centres and wins the game{also}.",
                map.power(w).name
            )
        }
        (None, None) => "The game is over: its last year has been played.".to_string(),
        (None, Some(next)) => format!("Next: {}.", capital(&next.to_string())),
    });
    lines
}

/// `1 centre`, `2 centres`, `0 units`: a count and its noun, singular for one.
pub fn count(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// Why phase `p` was skipped: nothing to do; or, for a retreat phase, no dislodged
/// unit had anywhere to go (the units are destroyed); or, for an adjustment phase,
/// nobody could build or had to remove (builds with nowhere to go are waived).
pub(crate) fn skipped_lines(map: &Map, result: &PhaseResult, p: Phase) -> Vec<String> {
    let phase = capital(&p.to_string());
    let mut lines = Vec::new();
    match p.kind {
        PhaseKind::Retreat if result.retreats_taken_at_once() => lines.push(format!(
            "{phase}: no dislodged unit can retreat, so the phase is taken at once: \
             the dislodged units are destroyed."
        )),
        PhaseKind::Adjustment => {
            let stuck: Vec<String> = result
                .owed
                .iter()
                .filter(|o| o.change > 0)
                .map(|o| {
                    format!(
                        "{} waives {}",
                        map.power(o.power).name,
                        count(o.change.unsigned_abs() as usize, "build")
                    )
                })
                .collect();
            if stuck.is_empty() {
                lines.push(format!("{phase}: nothing to do, skipped."));
            } else {
                lines.push(format!(
                    "{phase}: nobody can build or must remove, so the phase is skipped: {} \
                     (no vacant centre to build in).",
                    stuck.join(", ")
                ));
            }
        }
        _ => lines.push(format!("{phase}: nothing to do, skipped.")),
    }
    lines
}

pub(crate) fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Write `line`, wrapped at [`WIDTH`] with a four-space indent on continuation lines.
pub(crate) fn wrap(out: &mut String, line: &str) {
    let mut rest = line;
    let mut first = true;
    loop {
        let width = if first { WIDTH } else { WIDTH - 4 };
        let indent = if first { "" } else { "    " };
        if rest.chars().count() <= width {
            let _ = writeln!(out, "{indent}{rest}");
            return;
        }
        let cut = rest
            .char_indices()
            .take_while(|&(i, _)| i <= width)
            .filter(|&(_, c)| c == ' ')
            .map(|(i, _)| i)
            .last()
            .filter(|&i| i > 0)
            .unwrap_or_else(|| rest.find(' ').unwrap_or(rest.len()));
        let _ = writeln!(out, "{indent}{}", &rest[..cut]);
        rest = rest[cut..].trim_start();
        if rest.is_empty() {
            return;
        }
        first = false;
    }
}

fn movement_tail(out: &mut String, map: &Map, result: &PhaseResult, m: &MovementResult) {
    if !result.dislodged().is_empty() {
        out.push('\n');
        let _ = writeln!(out, "The following units were dislodged:");
        for d in result.dislodged() {
            let u = &d.unit;
            let who = format!("The {} in {}", unit_words(map, u, true), the(map, u.loc));
            if result.retreats_taken_at_once() {
                wrap(out, &format!("{who} with no valid retreats was destroyed."));
            } else if d.retreats.is_empty() {
                wrap(out, &format!("{who} with no valid retreats."));
            } else {
                let places: Vec<String> = d.retreats.iter().map(|&l| map.loc_name(l)).collect();
                wrap(out, &format!("{who} can retreat to {}.", or_list(&places)));
            }
        }
    }
    if !m.contested.is_empty() {
        out.push('\n');
        let names: Vec<String> = m
            .contested
            .iter()
            .map(|&p| map.province(p).name.clone())
            .collect();
        wrap(
            out,
            &format!("Standoffs (no retreat there): {}.", names.join(", ")),
        );
    }
}

/// Why dislodged unit `i` was destroyed in a retreat phase: ` (bounced)` and the like.
pub(crate) fn destroyed_why(result: &PhaseResult, i: usize) -> &'static str {
    match result.orders().iter().find(|o| o.unit == Some(i)) {
        None => " (no retreat ordered)",
        Some(o) => match &o.outcome {
            Outcome::Succeeds => " (disbanded)",
            Outcome::Fails(_) => " (bounced: another unit retreated there too)",
            Outcome::Illegal(Illegal::DuplicateOrder) => " (two different orders)",
            Outcome::Illegal(_) | Outcome::Invalid(_) => " (its order was illegal)",
        },
    }
}

fn retreat_tail(out: &mut String, map: &Map, result: &PhaseResult) {
    if result.destroyed().is_empty() {
        return;
    }
    out.push('\n');
    let _ = writeln!(out, "The following units were destroyed:");
    for &i in &result.destroyed() {
        let u = &result.units()[i];
        let why = destroyed_why(result, i);
        wrap(
            out,
            &format!(
                "The {} in {}{why}.",
                unit_words(map, u, true),
                the(map, u.loc)
            ),
        );
    }
}

/// A civil-disorder distance in words, naming the centres the edition measures to.
pub(crate) fn distance_words(rules: Rules, d: Option<u32>) -> String {
    let centre = match rules.civil_disorder {
        CivilDisorder::OwnedCentresAnyPath => "owned",
        CivilDisorder::HomeCentresByUnitType => "home",
    };
    match d {
        Some(d) => format!("{d} from the nearest {centre} supply centre"),
        None => format!("no {centre} supply centre can be reached"),
    }
}

fn adjustment_tail(out: &mut String, map: &Map, result: &PhaseResult, a: &AdjustmentResult) {
    if a.civil_disorder.is_empty() && a.waived.is_empty() && a.saved.is_empty() {
        return;
    }
    out.push('\n');
    for &(i, d) in &a.civil_disorder {
        let u = &result.units()[i];
        let dist = distance_words(result.rules, d);
        wrap(
            out,
            &format!(
                "{}: {} {} removed in civil disorder ({dist}).",
                map.power(u.power).name,
                u.kind.word(),
                map.loc_name(u.loc)
            ),
        );
    }
    for &(pw, n) in &a.waived {
        let _ = writeln!(
            out,
            "{} waives {n} build{}.",
            map.power(pw).name,
            if n == 1 { "" } else { "s" }
        );
    }
    for &(pw, n) in &a.saved {
        wrap(
            out,
            &format!(
                "{} saves {n} build{} for a colonial build next winter.",
                map.power(pw).name,
                if n == 1 { "" } else { "s" }
            ),
        );
    }
}

/// The ownership of supply centres after the Fall turn, the changes, and the
/// adjustments owed.
fn centres(
    out: &mut String,
    map: &Map,
    before: &[Option<Power>],
    after: &[Option<Power>],
    result: &PhaseResult,
) {
    let _ = writeln!(out, "Ownership of supply centres:");
    for pw in map.power_ids() {
        let mut names: Vec<&str> = map
            .provs()
            .filter(|p| after[p.0 as usize] == Some(pw))
            .map(|p| map.province(p).name.as_str())
            .collect();
        names.sort();
        if !names.is_empty() {
            wrap(
                out,
                &format!("{}: {}.", map.power(pw).name, names.join(", ")),
            );
        }
    }
    let changes: Vec<String> = centre_changes(map, before, after)
        .map(|(p, was, now)| {
            format!(
                "{} ({} to {})",
                map.province(p).name,
                owner_name(map, was),
                owner_name(map, now)
            )
        })
        .collect();
    if !changes.is_empty() {
        wrap(out, &format!("Changes: {}.", changes.join(", ")));
    }
    out.push('\n');
    for o in &result.owed {
        if o.centres == 0 && o.units == 0 {
            continue;
        }
        let name = &map.power(o.power).name;
        let what = match o.change {
            0 => "neither builds nor removes".to_string(),
            d if d > 0 => format!("builds {d}"),
            d => format!("removes {}", -d),
        };
        let _ = writeln!(
            out,
            "{name} ({}, {}) {what}.",
            count(o.centres, "centre"),
            count(o.units, "unit")
        );
    }
}

/// `the North Sea` for seas, `London` for land.
pub(crate) fn the(map: &Map, l: Loc) -> String {
    let name = map.loc_name(l);
    if map.is_sea(map.prov_of(l)) {
        format!("the {name}")
    } else {
        name
    }
}

/// A build site with the units that may be built there: `Trieste (army or fleet)`,
/// `St Petersburg (army, or fleet on the north coast or south coast)`, `Vienna (army)`.
pub fn build_site(map: &Map, p: Prov) -> String {
    let name = &map.province(p).name;
    if map.is_split(p) {
        let coasts: Vec<String> = map
            .province(p)
            .coasts
            .iter()
            .filter_map(|&l| map.coast(l).map(|c| c.name.to_lowercase()))
            .collect();
        format!("{name} (army, or fleet on the {})", or_list(&coasts))
    } else if map.is_coastal(p) {
        format!("{name} (army or fleet)")
    } else {
        format!("{name} (army)")
    }
}

/// `A`, `A and B`, `A, B and C`.
pub(crate) fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

pub(crate) fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}
