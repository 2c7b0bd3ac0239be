//! Markdown: the results sheet as a document, with the same content as
//! [`text::sheet`](super::text::sheet): a heading with the phase and game, the rules
//! edition, a table of orders by power (outcome and tags), then the dislodged units
//! and their retreats, destroyed units, builds, removals, civil disorder and waives,
//! centre ownership and adjustments owed, skipped phases and the next phase (or the
//! winner) as lists. Table cells escape `|`; the user's text is made inert ([`inert`]:
//! no HTML, no links).

// Reports index a `PhaseResult` produced by the judge on the same map: unit
// and order indices (`k`, `unit`, supporters) are positions in
// that result's own vectors, and Prov/Loc/Power ids are the map's own or were
// checked by `game::check_ids` before the phase was judged. An out-of-range index
// is a bug, not input.
#![allow(clippy::indexing_slicing)]

use std::fmt::Write;

use super::text::{
    closing_lines, count, destroyed_why, distance_words, header, or_list, order_line_keys,
    sheet_line, the, void_orders,
};
use super::{centre_changes, owner_name};
use crate::game::{Judged, PhaseResult};
use crate::judge::{AdjustmentResult, MovementResult};
use crate::map::{Map, Power};
use crate::state::Unit;

/// A table cell: `|` escaped, line breaks flattened.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// The sheet as Markdown.
pub fn sheet(map: &Map, game: &str, result: &PhaseResult) -> String {
    super::text::whole(|emit| sheet_to(map, game, result, emit))
}

/// [`sheet`], handed to `emit` in parts of whole lines as it is written (made inert
/// part by part; about 64 KiB each): a phase of many orders is never held as its
/// sheet too. Stops at the first error `emit` returns.
pub fn sheet_to(
    map: &Map,
    game: &str,
    result: &PhaseResult,
    emit: &mut dyn FnMut(&str) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut out = String::new();
    let _ = writeln!(out, "# {}", header(result, game));
    out.push('\n');
    let _ = writeln!(out, "Rules: {} edition.", result.rules.name());
    out.push('\n');
    let lines = order_line_keys(result);
    if lines.is_empty() {
        let _ = writeln!(out, "No orders.");
    } else {
        let _ = writeln!(out, "| Power | Order | Outcome | Tags |");
        let _ = writeln!(out, "|---|---|---|---|");
        for l in lines {
            let line = sheet_line(map, result, l);
            let power = line
                .power
                .map_or("Unknown".to_string(), |p| map.power(p).name.clone());
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                cell(&power),
                cell(&line.text),
                line.outcome,
                cell(&line.tags.join(", "))
            );
            // Each part ends with a line, so it is made inert as the whole would be.
            if out.len() >= super::text::PART {
                emit(&inert(&out))?;
                out.clear();
            }
        }
    }
    let void = void_orders(map, result);
    if !void.is_empty() {
        section(&mut out, "Void orders (not carried out)");
        for line in &void {
            let _ = writeln!(out, "- {line}");
        }
    }
    match &result.judged {
        Judged::Movement(m) => movement(&mut out, map, result, m),
        Judged::Retreat(_) => retreat(&mut out, map, result),
        Judged::Adjustment(a) => adjustment(&mut out, map, result, a),
    }
    if let Some(after) = &result.owners_after {
        centres(&mut out, map, result, after);
    }
    section(&mut out, "Next");
    for line in closing_lines(map, result) {
        let _ = writeln!(out, "- {line}");
    }
    emit(&inert(&out))
}

/// The sheet with the user's text made inert (game, power and province names, orders
/// as written): no HTML tag, comment or entity (`<script>` → `&lt;script>`, `&amp;`),
/// no link or image (`[x](javascript:…)` → `\[x\](…)`). The sheet's own Markdown
/// has none of these characters, so it is unchanged.
pub fn inert(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        match c {
            '<' if next.is_some_and(|n| n.is_ascii_alphabetic() || "/!?".contains(n)) => {
                out.push_str("&lt;")
            }
            '&' if next.is_some_and(|n| n.is_ascii_alphanumeric() || n == '#') => {
                out.push_str("&amp;")
            }
            '[' | ']' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// `France: Army Paris`.
fn power_unit(map: &Map, u: &crate::state::Unit) -> String {
    format!(
        "{}: {} {}",
        map.power(u.power).name,
        u.kind.word(),
        map.loc_name(u.loc)
    )
}

fn section(out: &mut String, title: &str) {
    out.push('\n');
    let _ = writeln!(out, "## {title}");
    out.push('\n');
}

/// `The French Fleet in Edinburgh`.
fn the_unit(map: &Map, result: &PhaseResult, i: usize) -> String {
    a_unit(map, &result.units()[i])
}

/// `The French army in Paris`.
fn a_unit(map: &Map, u: &Unit) -> String {
    format!(
        "The {} {} in {}",
        map.power(u.power).adjective,
        u.kind.word(),
        the(map, u.loc)
    )
}

fn movement(out: &mut String, map: &Map, result: &PhaseResult, m: &MovementResult) {
    if !result.dislodged().is_empty() {
        section(out, "Dislodged units");
        for d in result.dislodged() {
            let who = a_unit(map, &d.unit);
            if result.retreats_taken_at_once() {
                let _ = writeln!(out, "- {who} with no valid retreats was destroyed.");
            } else if d.retreats.is_empty() {
                let _ = writeln!(out, "- {who} with no valid retreats.");
            } else {
                let places: Vec<String> = d.retreats.iter().map(|&l| map.loc_name(l)).collect();
                let _ = writeln!(out, "- {who} can retreat to {}.", or_list(&places));
            }
        }
    }
    if !m.contested.is_empty() {
        section(out, "Standoffs (no retreat there)");
        for &p in &m.contested {
            let _ = writeln!(out, "- {}", map.province(p).name);
        }
    }
}

fn retreat(out: &mut String, map: &Map, result: &PhaseResult) {
    if result.destroyed().is_empty() {
        return;
    }
    section(out, "Destroyed units");
    for &i in &result.destroyed() {
        let why = destroyed_why(result, i);
        let _ = writeln!(out, "- {}{why}.", the_unit(map, result, i));
    }
}

fn adjustment(out: &mut String, map: &Map, result: &PhaseResult, a: &AdjustmentResult) {
    if !a.built.is_empty() {
        section(out, "Built");
        for u in &a.built {
            let _ = writeln!(out, "- {}", power_unit(map, u));
        }
    }
    if !a.removed.is_empty() {
        section(out, "Removed");
        for &i in &a.removed {
            let u = &result.units()[i];
            let _ = writeln!(out, "- {}", power_unit(map, u));
        }
    }
    if !a.civil_disorder.is_empty() {
        section(out, "Civil disorder");
        for &(i, d) in &a.civil_disorder {
            let u = &result.units()[i];
            let dist = distance_words(result.rules, d);
            let _ = writeln!(out, "- {} removed ({dist}).", power_unit(map, u));
        }
    }
    if !a.waived.is_empty() {
        section(out, "Waived builds");
        for &(pw, n) in &a.waived {
            let _ = writeln!(
                out,
                "- {} waives {n} build{}.",
                map.power(pw).name,
                if n == 1 { "" } else { "s" }
            );
        }
    }
    if !a.saved.is_empty() {
        section(out, "Builds saved for a colonial build");
        for &(pw, n) in &a.saved {
            let _ = writeln!(
                out,
                "- {} saves {n} build{} for a colonial build next winter.",
                map.power(pw).name,
                if n == 1 { "" } else { "s" }
            );
        }
    }
}

/// Centre ownership after the Fall turn, the changes, and the adjustments owed.
fn centres(out: &mut String, map: &Map, result: &PhaseResult, after: &[Option<Power>]) {
    let before = &result.owners_before;
    section(out, "Ownership of supply centres");
    for pw in map.power_ids() {
        let mut names: Vec<&str> = map
            .provs()
            .filter(|p| after[p.0 as usize] == Some(pw))
            .map(|p| map.province(p).name.as_str())
            .collect();
        names.sort();
        if !names.is_empty() {
            let _ = writeln!(out, "- {}: {}.", map.power(pw).name, names.join(", "));
        }
    }
    let changes: Vec<String> = centre_changes(map, before, after)
        .map(|(p, was, now)| {
            format!(
                "- {} ({} to {})",
                map.province(p).name,
                owner_name(map, was),
                owner_name(map, now)
            )
        })
        .collect();
    if !changes.is_empty() {
        section(out, "Changes");
        for c in changes {
            let _ = writeln!(out, "{c}");
        }
    }
    let owed: Vec<String> = result
        .owed
        .iter()
        .filter(|o| o.centres != 0 || o.units != 0)
        .map(|o| {
            let what = match o.change {
                0 => "neither builds nor removes".to_string(),
                d if d > 0 => format!("builds {d}"),
                d => format!("removes {}", -d),
            };
            format!(
                "- {} ({}, {}) {what}.",
                map.power(o.power).name,
                count(o.centres, "centre"),
                count(o.units, "unit")
            )
        })
        .collect();
    if !owed.is_empty() {
        section(out, "Adjustments owed");
        for o in owed {
            let _ = writeln!(out, "{o}");
        }
    }
}
