//! The jDip DATC text format, which jDip, godip and other adjudicators use for their
//! conformance cases: read from text (no I/O here), resolved against a [`Map`] with the
//! line of every problem, and checked by position: the units on the board and the
//! dislodged units after the phase must equal the file's `POSTSTATE` and
//! `POSTSTATE_DISLODGED`.
//!
//! ```text
//! VARIANT_ALL Standard
//! CASE 6.A.11 (Simple bounce)
//! PRESTATE_SETPHASE Spring 1901, Movement
//! PRESTATE
//!     Austria: A vie
//!     Italy: A ven
//! ORDERS
//!     Austria: A vie-tyr
//!     Italy: A ven-tyr
//! POSTSTATE_SAME
//! END
//! ```
//!
//! Keywords (any case) begin a line; `#` starts a comment; blank lines are ignored.
//! `VARIANT_ALL name` (optional; it must name the map in use), `CASE id title`,
//! `PRESTATE_SETPHASE Spring 1901, Movement` (also `Fall 1901, Retreat`,
//! `Fall 1901, Adjustment`, `F1901M`; an adjustment phase is our Winter), and the blocks,
//! whose lines follow the keyword: `PRESTATE` (`Power: A|F province`), `PRESTATE_SUPPLYCENTER_OWNERS`
//! (same shape: the unit type is ignored; when the block is given, centres not listed are
//! unowned, otherwise every power owns its home centres), `PRESTATE_DISLODGED`,
//! `PRESTATE_RESULTS` (`SUCCESS: Power: order` or `FAILURE: Power: order`: the movement
//! phase before a retreat phase), `ORDERS` (`Power: order`), `POSTSTATE`,
//! `POSTSTATE_DISLODGED`; then `POSTSTATE_SAME` (the units do not change) and `END`.
//!
//! Province abbreviations are the map's ids and aliases; a few more that jDip files use
//! are mapped here ([`JDIP_ALIASES`]) when the map does not know them.

use crate::game::advance;
use crate::judge::Rules;
use crate::map::{Loc, Map, Power, Prov, ProvSet, UnitKind};
use crate::orders::{normalize, parse_order, Order, OrderKind};
use crate::state::{Dislodged, Phase, PhaseKind, Position, Unit};

use super::Checked;

/// Abbreviations found in jDip-format files, and the classic map's id for each. The
/// reader uses one only where the map does not already know the word.
pub const JDIP_ALIASES: [(&str, &str); 16] = [
    ("nat", "nao"),
    ("nrg", "nwg"),
    ("mid", "mao"),
    ("mat", "mao"),
    ("gol", "lyo"),
    ("gob", "bot"),
    ("ech", "eng"),
    ("tyn", "tys"),
    ("tyrr", "tys"),
    ("wme", "wes"),
    ("eme", "eas"),
    ("hgb", "hel"),
    ("nts", "nth"),
    ("nor", "nwy"),
    ("lvo", "lvn"),
    ("tyl", "tyr"),
];

/// A problem in a file: its line (1-based), the case it is in, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub line: usize,
    /// The case's id, when the problem is inside a case.
    pub case: Option<String>,
    pub message: String,
}

/// One case, resolved against the map.
#[derive(Clone, Debug)]
pub struct JdipCase {
    pub id: String,
    pub title: String,
    /// The line of its `CASE` keyword.
    pub line: usize,
    /// The position the phase starts from; in a retreat phase, with the dislodged units
    /// and the retreat options worked out from `PRESTATE_RESULTS` ([`retreat_options`]).
    pub position: Position,
    /// The orders, as written (`Power: order`) and as parsed, in written order.
    pub orders: Vec<(String, Order)>,
    /// The units expected on the board after the phase (`POSTSTATE`, or the
    /// `PRESTATE` units for `POSTSTATE_SAME`).
    pub expect_units: Vec<Unit>,
    /// The units expected dislodged after the phase (`POSTSTATE_DISLODGED`).
    pub expect_dislodged: Vec<Unit>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Block {
    Pre,
    Owners,
    Dislodged,
    Results,
    Orders,
    Post,
    PostDislodged,
}

/// A case as its lines were read, before it is resolved against the map.
struct Raw {
    id: String,
    title: String,
    line: usize,
    phase: Option<(usize, String)>,
    block: Option<Block>,
    lines: Vec<(Block, usize, String)>,
    owners: bool,
    post: Option<usize>,
    same: Option<usize>,
    error: Option<Error>,
}

/// Read a file's text: every case in written order, each resolved against `map` or the
/// first problem found in it (a case with a problem is skipped to its `END`; the cases
/// after it are still read). Problems outside a case have no case id.
pub fn parse(map: &Map, text: &str) -> Vec<Result<JdipCase, Error>> {
    let mut out = Vec::new();
    let mut cur: Option<Raw> = None;
    // Only the first stray line between cases is reported.
    let mut stray = false;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (head, rest) = match line.split_once(char::is_whitespace) {
            Some((h, r)) => (h, r.trim()),
            None => (line, ""),
        };
        match head.to_ascii_uppercase().as_str() {
            "VARIANT_ALL" => {
                if let Some(c) = cur.take() {
                    out.push(Err(unterminated(c, n)));
                }
                if !rest.is_empty() && !rest.eq_ignore_ascii_case(&map.name) {
                    out.push(Err(Error {
                        line: n,
                        case: None,
                        message: format!(
                            "VARIANT_ALL `{rest}`: the cases are run on the `{}` map",
                            map.name
                        ),
                    }));
                }
            }
            "CASE" => {
                if let Some(c) = cur.take() {
                    out.push(Err(unterminated(c, n)));
                }
                stray = false;
                cur = Some(Raw::new(rest, n));
            }
            "END" => match cur.take() {
                Some(c) => out.push(c.finish(map)),
                None => out.push(Err(Error {
                    line: n,
                    case: None,
                    message: "END without a CASE before it".into(),
                })),
            },
            kw => match cur.as_mut() {
                Some(c) => c.take_line(n, kw, rest, line),
                None if !stray => {
                    stray = true;
                    out.push(Err(Error {
                        line: n,
                        case: None,
                        message: format!(
                            "`{line}` is outside a case: a case begins with `CASE id` and ends with `END`"
                        ),
                    }));
                }
                None => {}
            },
        }
    }
    if let Some(c) = cur {
        let n = text.lines().count() + 1;
        out.push(Err(unterminated(c, n)));
    }
    out
}

/// The error for a case with no `END` (before line `n`).
fn unterminated(c: Raw, n: usize) -> Error {
    c.error.unwrap_or(Error {
        line: c.line,
        case: Some(c.id),
        message: format!("the case has no END (before line {n})"),
    })
}

impl Raw {
    fn new(name: &str, line: usize) -> Raw {
        // `CASE 6.A.1 (Moving to an area that is not a neighbour)`: the first word is the
        // id when it holds a digit (a DATC number), else the name before a `(`, else the
        // whole name; the rest is the title.
        let (first, rest) = match name.split_once(char::is_whitespace) {
            Some((f, r)) => (f, r.trim()),
            None => (name, ""),
        };
        let (id, title) = if first.chars().any(|c| c.is_ascii_digit()) {
            (first.trim_end_matches(['.', ':', ',']), rest)
        } else if let Some((id, title)) = name.split_once('(') {
            (id.trim(), title)
        } else {
            (name, "")
        };
        let mut title = title.trim().trim_start_matches(['-', ':', ',']).trim();
        if let Some(t) = title.strip_prefix('(') {
            title = t.strip_suffix(')').unwrap_or(t);
        } else if let Some(t) = title.strip_suffix(')').filter(|t| !t.contains('(')) {
            title = t;
        }
        let title = title.trim();
        Raw {
            id: id.to_string(),
            title: title.to_string(),
            line,
            phase: None,
            block: None,
            lines: Vec::new(),
            owners: false,
            post: None,
            same: None,
            error: None,
        }
    }

    fn fail(&mut self, line: usize, message: String) {
        if self.error.is_none() {
            self.error = Some(Error {
                line,
                case: Some(self.id.clone()),
                message,
            });
        }
    }

    /// A line inside the case: a keyword, or a line of the current block.
    fn take_line(&mut self, n: usize, kw: &str, rest: &str, line: &str) {
        if self.error.is_some() {
            return;
        }
        let block = match kw {
            "PRESTATE_SETPHASE" => {
                self.phase = Some((n, rest.to_string()));
                self.block = None;
                return;
            }
            "POSTSTATE_SAME" => {
                self.same = Some(n);
                self.block = None;
                return;
            }
            "PRESTATE" => Block::Pre,
            "PRESTATE_SUPPLYCENTER_OWNERS" => Block::Owners,
            "PRESTATE_DISLODGED" => Block::Dislodged,
            "PRESTATE_RESULTS" => Block::Results,
            "ORDERS" => Block::Orders,
            "POSTSTATE" => Block::Post,
            "POSTSTATE_DISLODGED" => Block::PostDislodged,
            _ => {
                match self.block {
                    Some(b) => self.lines.push((b, n, line.to_string())),
                    None => self.fail(
                        n,
                        format!(
                            "expected a keyword (PRESTATE_SETPHASE, PRESTATE, ORDERS, POSTSTATE, END, ...), found `{line}`"
                        ),
                    ),
                }
                return;
            }
        };
        if !rest.is_empty() {
            self.fail(
                n,
                format!("`{kw}` begins a block: write its lines below it, not `{rest}`"),
            );
            return;
        }
        match block {
            Block::Post => self.post = Some(n),
            Block::Owners => self.owners = true,
            _ => {}
        }
        self.block = Some(block);
    }

    fn of(&self, b: Block) -> impl Iterator<Item = (usize, &str)> {
        self.lines
            .iter()
            .filter(move |(k, _, _)| *k == b)
            .map(|(_, n, l)| (*n, l.as_str()))
    }

    /// Resolve the case against the map.
    fn finish(mut self, map: &Map) -> Result<JdipCase, Error> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let phase = self.resolve_phase(map)?;
        let pre = self.units(map, phase, Block::Pre)?;
        let mut position = Position {
            phase,
            units: pre.clone(),
            owners: Position::home_owners(map),
            dislodged: Vec::new(),
            saved: Vec::new(),
        };
        if self.owners {
            position.owners = self.owners_of(map)?;
        }
        let dislodged = self.units(map, phase, Block::Dislodged)?;
        self.check_dislodged_phase(phase)?;
        let results = self.results(map)?;
        if phase.kind == PhaseKind::Retreat {
            position.dislodged = retreat_options(map, &pre, &dislodged, &results);
        }
        // As many orders as `judge` reads for a phase (ten a unit, and 100 more): a case
        // that orders a unit thousands of times is refused, as a slip is, not judged.
        let max = crate::gamefile::max_orders(&position);
        let total = self.of(Block::Orders).count();
        if total > max {
            let n = self
                .of(Block::Orders)
                .nth(max)
                .map_or(self.line, |(n, _)| n);
            return Err(self.err(n, crate::gamefile::too_many_orders(total, max)));
        }
        let mut orders = Vec::new();
        for (n, line) in self.of(Block::Orders) {
            let order = order_line(map, line).map_err(|m| self.err(n, m))?;
            orders.push((line.to_string(), order));
        }
        let expect_units = self.expected_units(map, phase, pre)?;
        let expect_dislodged = self.units(map, phase, Block::PostDislodged)?;
        Ok(JdipCase {
            id: self.id,
            title: self.title,
            line: self.line,
            position,
            orders,
            expect_units,
            expect_dislodged,
        })
    }

    /// A problem at line `line` of this case.
    fn err(&self, line: usize, message: String) -> Error {
        Error {
            line,
            case: Some(self.id.clone()),
            message,
        }
    }

    /// The case's phase (none stated: the map's first).
    fn resolve_phase(&self, map: &Map) -> Result<Phase, Error> {
        Ok(match &self.phase {
            Some((n, s)) => parse_phase(s).ok_or_else(|| {
                // A year out of range is named as such, not as an unknown phase.
                let year_out = s
                    .split(|c: char| !c.is_ascii_digit())
                    .filter(|d| !d.is_empty())
                    .any(|d| {
                        let n = d.trim_start_matches('0');
                        let n = if n.len() > 9 { i64::MAX } else { n.parse().unwrap_or(0) };
                        crate::map::year_problem(n).is_some()
                    });
                let shown: String = s.chars().take(80).collect();
                self.err(
                    *n,
                    if year_out {
                        format!(
                            "the phase `{shown}` is outside the years arbiter plays, {} to {}",
                            crate::map::YEARS.start(),
                            crate::map::YEARS.end()
                        )
                    } else {
                        format!(
                            "unknown phase `{s}`: write e.g. `Spring 1901, Movement`, `Fall 1901, Retreat` or `Fall 1901, Adjustment`"
                        )
                    },
                )
            })?,
            None => Phase::first(map),
        })
    }

    /// The units of block `b`, at most one to a province.
    fn units(&self, map: &Map, phase: Phase, b: Block) -> Result<Vec<Unit>, Error> {
        let mut out: Vec<Unit> = Vec::new();
        for (n, line) in self.of(b) {
            let u = unit_line(map, phase, line).map_err(|m| self.err(n, m))?;
            if out.iter().any(|o| map.prov_of(o.loc) == map.prov_of(u.loc)) {
                let name = &map.province(map.prov_of(u.loc)).name;
                return Err(self.err(n, format!("two units in {name}")));
            }
            out.push(u);
        }
        Ok(out)
    }

    /// The supply centres' owners as the owners block lists them (the others: none).
    fn owners_of(&self, map: &Map) -> Result<Vec<Option<Power>>, Error> {
        let mut owners = vec![None; map.province_count()];
        for (n, line) in self.of(Block::Owners) {
            let (power, p) = owner_line(map, line).map_err(|m| self.err(n, m))?;
            let Some(slot) = owners.get_mut(p.0 as usize) else {
                return Err(self.err(n, format!("no province {} on this map", p.0)));
            };
            if slot.is_some_and(|o| o != power) {
                let name = &map.province(p).name;
                return Err(self.err(
                    n,
                    format!("the supply centre {name} is listed for two powers"),
                ));
            }
            *slot = Some(power);
        }
        Ok(owners)
    }

    /// Dislodged units are given only in a retreat phase.
    fn check_dislodged_phase(&self, phase: Phase) -> Result<(), Error> {
        if let (Some((n, _)), false) = (
            self.of(Block::Dislodged).next(),
            phase.kind == PhaseKind::Retreat,
        ) {
            return Err(self.err(
                n,
                format!(
                    "dislodged units belong to a retreat phase, and this is {phase} (write e.g. `PRESTATE_SETPHASE Fall 1901, Retreat`)"
                ),
            ));
        }
        Ok(())
    }

    /// The results of the phase before (`SUCCESS:` or `FAILURE:` and an order), which
    /// give a retreat phase its dislodged units' retreats.
    fn results(&self, map: &Map) -> Result<Vec<(bool, Order)>, Error> {
        let mut results = Vec::new();
        for (n, line) in self.of(Block::Results) {
            let (flag, rest) = line.split_once(':').unwrap_or(("", line));
            let success = match flag.trim().to_ascii_uppercase().as_str() {
                "SUCCESS" => true,
                "FAILURE" => false,
                _ => {
                    return Err(self.err(
                        n,
                        format!(
                            "a PRESTATE_RESULTS line is `SUCCESS: Power: order` or `FAILURE: Power: order`, not `{line}`"
                        ),
                    ))
                }
            };
            let order = order_line(map, rest.trim()).map_err(|m| self.err(n, m))?;
            results.push((success, order));
        }
        Ok(results)
    }

    /// The units expected after the phase: the POSTSTATE block's, or those before
    /// (POSTSTATE_SAME); exactly one of the two is given.
    fn expected_units(&self, map: &Map, phase: Phase, pre: Vec<Unit>) -> Result<Vec<Unit>, Error> {
        match (self.same, self.post) {
            (Some(_), None) => Ok(pre),
            (None, Some(_)) => self.units(map, phase, Block::Post),
            (Some(n), Some(_)) => Err(self.err(
                n,
                "both POSTSTATE and POSTSTATE_SAME: give one of them".into(),
            )),
            (None, None) => Err(self.err(
                self.line,
                "the case has neither POSTSTATE nor POSTSTATE_SAME: it states no result".into(),
            )),
        }
    }
}

/// `Spring 1901, Movement`, `Fall 1901, Retreat`, `Fall 1901, Adjustment` (our Winter
/// 1901), `Winter 1901`, and the short forms `S1901M`, `F1901R`, `F1901A`.
pub fn parse_phase(s: &str) -> Option<Phase> {
    let t = s.replace(',', " ").trim().to_ascii_lowercase();
    let words: Vec<&str> = t.split_whitespace().collect();
    let adjustment = match words.as_slice() {
        [w] => w.len() >= 5 && (w.ends_with('a') || w.ends_with('b')),
        [.., w] if words.len() >= 3 => w.starts_with("adjust") || w.starts_with("build"),
        _ => false,
    };
    if adjustment {
        let year: i32 = match words.as_slice() {
            // `F1901A`: the digits between the season's letter and the kind's (`get`: the
            // word may hold multi-byte characters, `€ab`, and is then no phase).
            [w] => w.get(1..w.len() - 1)?.parse().ok()?,
            [_, y, ..] => y.parse().ok()?,
            _ => return None,
        };
        return Phase::parse(&format!("Winter {year}")).ok();
    }
    Phase::parse(&t).ok()
}

/// Replace the jDip abbreviations the map does not know by the map's ids.
pub fn translate(map: &Map, text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let lower = word.to_ascii_lowercase();
        let known = !map.names().place(&normalize(&lower)).is_empty();
        match JDIP_ALIASES.iter().find(|(a, _)| *a == lower) {
            Some((_, id)) if !known && map.prov_by_id(id).is_some() => out.push_str(id),
            _ => out.push_str(word),
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_ascii_alphabetic() {
            word.push(c);
        } else {
            if !word.is_empty() {
                flush(&mut word, &mut out);
            }
            out.push(c);
        }
    }
    if !word.is_empty() {
        flush(&mut word, &mut out);
    }
    out
}

/// `England: rest` (the colon may be left out): the power and the rest.
fn power_line<'a>(map: &Map, line: &'a str) -> Result<(Power, &'a str), String> {
    if let Some((p, rest)) = line.split_once(':') {
        if let Some(pw) = map.power_by_name(p.trim()) {
            return Ok((pw, rest.trim()));
        }
    }
    if let Some((p, rest)) = line.split_once(char::is_whitespace) {
        if let Some(pw) = map.power_by_name(p.trim()) {
            return Ok((pw, rest.trim()));
        }
    }
    let first = line
        .split(|c: char| c == ':' || c.is_whitespace())
        .next()
        .unwrap_or(line);
    Err(format!(
        "expected `Power: ...` with a power of the {} map, found `{first}` in `{line}`",
        map.name
    ))
}

/// `England: F stp/nc` → the unit.
fn unit_line(map: &Map, phase: Phase, line: &str) -> Result<Unit, String> {
    let (power, rest) = power_line(map, line)?;
    let text = [translate(map, rest)];
    let id = map.power(power).id.as_str();
    let p = Position::from_units(map, phase, [(id, &text[..])]).map_err(|e| e.to_string())?;
    p.units
        .first()
        .copied()
        .ok_or_else(|| format!("no unit in `{}`", crate::yaml::name_invisibles(line)))
}

/// `France: A par` in `PRESTATE_SUPPLYCENTER_OWNERS` → the power and the centre (the
/// unit type is ignored).
fn owner_line(map: &Map, line: &str) -> Result<(Power, Prov), String> {
    let (power, rest) = power_line(map, line)?;
    let place = rest.split_whitespace().last().unwrap_or("");
    let t = translate(map, place);
    let p = map
        .loc_by_id(&t)
        .or_else(|| map.names().place(&normalize(&t)).first().copied())
        .map(|l| map.prov_of(l))
        .ok_or_else(|| format!("unknown province `{}`", crate::yaml::name_invisibles(place)))?;
    if !map.province(p).supply {
        return Err(format!("{} is not a supply centre", map.province(p).name));
    }
    Ok((power, p))
}

/// `England: F nth S A yor-nwy` → the order, for that power.
fn order_line(map: &Map, line: &str) -> Result<Order, String> {
    let (power, rest) = power_line(map, line)?;
    let text = translate(map, rest);
    parse_order(map, &text, Some(power)).map_err(|d| {
        let help = d.help.map(|h| format!(" ({h})")).unwrap_or_default();
        format!(
            "cannot read the order `{}`: {}{help}",
            crate::yaml::name_invisibles(rest),
            d.message
        )
    })
}

/// The retreat options of each dislodged unit, worked out from the results of the
/// movement phase before (`PRESTATE_RESULTS`), as the resolver would have listed them
/// (`docs/RULES.md`, "Contested provinces and retreat options"): the places the unit
/// could move to, less the provinces occupied after the movement (`units`), the
/// provinces left empty by a standoff, and the province its attacker came from unless
/// the attack came by convoy. A standoff is a failed move into a province empty after
/// the phase, unless the move could not be made at all, lost a head-to-head battle, or
/// went by a convoy that was disrupted (a convoy order for it failed or its fleet was
/// dislodged). A move goes by convoy when it says so, when the army is not next to its
/// destination, or when a fleet was ordered to convoy it.
pub fn retreat_options(
    map: &Map,
    units: &[Unit],
    dislodged: &[Unit],
    results: &[(bool, Order)],
) -> Vec<Dislodged> {
    struct Move {
        success: bool,
        from: Prov,
        to: Prov,
        army: bool,
        via_convoy: bool,
    }
    let occupied: ProvSet = units.iter().map(|u| map.prov_of(u.loc)).collect();
    let dislodged_at: ProvSet = dislodged.iter().map(|u| map.prov_of(u.loc)).collect();
    // The unit type a result's order names, or the type of the unit found there.
    let kind_of = |o: &Order, from: Prov| {
        o.unit.and_then(|u| u.kind).or_else(|| {
            units
                .iter()
                .chain(dislodged)
                .find(|u| map.prov_of(u.loc) == from)
                .map(|u| u.kind)
        })
    };
    let mut moves = Vec::new();
    // (success, fleet's province, army's province, destination)
    let mut convoys = Vec::new();
    for (success, o) in results {
        let Some(u) = o.unit else { continue };
        let from = map.prov_of(u.loc);
        match o.kind {
            OrderKind::Move { to, via_convoy } => moves.push(Move {
                success: *success,
                from,
                to: map.prov_of(to),
                army: kind_of(o, from) != Some(UnitKind::Fleet),
                via_convoy,
            }),
            OrderKind::Convoy { army, to } => {
                convoys.push((*success, from, map.prov_of(army.loc), map.prov_of(to)))
            }
            _ => {}
        }
    }
    let convoys_for = |m: &Move| {
        convoys
            .iter()
            .filter(move |c| c.2 == m.from && c.3 == m.to)
            .collect::<Vec<_>>()
    };
    let by_convoy = |m: &Move| {
        m.army && (m.via_convoy || !map.army_adjacent(m.from, m.to) || !convoys_for(m).is_empty())
    };
    let possible = |m: &Move| {
        if m.army {
            map.army_adjacent(m.from, m.to) || !convoys_for(m).is_empty()
        } else {
            map.fleet_reach_any(m.from).contains(m.to)
        }
    };
    let disrupted = |m: &Move| {
        by_convoy(m)
            && convoys_for(m)
                .iter()
                .any(|c| !c.0 || dislodged_at.contains(c.1))
    };
    let lost_head_to_head = |m: &Move| {
        dislodged_at.contains(m.from)
            && moves
                .iter()
                .any(|w| w.success && w.from == m.to && w.to == m.from)
    };
    let contested: ProvSet = moves
        .iter()
        .filter(|m| {
            !m.success
                && !occupied.contains(m.to)
                && possible(m)
                && !lost_head_to_head(m)
                && !disrupted(m)
        })
        .map(|m| m.to)
        .collect();
    dislodged
        .iter()
        .map(|&unit| {
            let here = map.prov_of(unit.loc);
            let attack = moves.iter().find(|m| m.success && m.to == here);
            let by = attack.map_or(here, |m| m.from);
            let convoyed = attack.is_some_and(by_convoy);
            let candidates: Vec<Loc> = match unit.kind {
                UnitKind::Army => map.army_neighbours(here).iter().map(Loc::from).collect(),
                UnitKind::Fleet => map.fleet_neighbours(unit.loc).to_vec(),
            };
            let retreats = candidates
                .into_iter()
                .filter(|&l| {
                    let p = map.prov_of(l);
                    !occupied.contains(p) && !contested.contains(p) && (convoyed || p != by)
                })
                .collect();
            Dislodged { unit, by, retreats }
        })
        .collect()
}

/// A unit as the file writes it: `England: F stp/nc`.
pub fn describe(map: &Map, u: &Unit) -> String {
    format!(
        "{}: {} {}",
        map.power(u.power).name,
        u.kind.letter(),
        map.loc_id(u.loc)
    )
}

/// Armies stand in provinces, whatever coast a file writes.
fn key(map: &Map, u: &Unit) -> (Power, char, String) {
    let loc = match u.kind {
        UnitKind::Army => map.prov_of(u.loc).into(),
        UnitKind::Fleet => u.loc,
    };
    (u.power, u.kind.letter(), map.loc_id(loc))
}

/// Compare expected and actual units as multisets; one difference per unit.
fn compare(
    map: &Map,
    want: &[Unit],
    have: &[Unit],
    missing: impl Fn(&str) -> String,
    extra: impl Fn(&str) -> String,
    diffs: &mut Vec<String>,
) {
    let mut have_left: Vec<(Power, char, String)> = have.iter().map(|u| key(map, u)).collect();
    let mut unmatched = Vec::new();
    for u in want {
        let k = key(map, u);
        match have_left.iter().position(|h| *h == k) {
            Some(i) => {
                have_left.remove(i);
            }
            None => unmatched.push(missing(&describe(map, u))),
        }
    }
    diffs.extend(unmatched);
    for u in have {
        let k = key(map, u);
        if let Some(i) = have_left.iter().position(|h| *h == k) {
            have_left.remove(i);
            diffs.push(extra(&describe(map, u)));
        }
    }
}

impl JdipCase {
    /// Run the case under `rules` through [`advance`], the step a game takes; list every
    /// unit where the result differs from the expectation, and how each order was judged.
    pub fn check(&self, map: &Map, rules: Rules) -> Checked {
        let orders: Vec<Order> = self.orders.iter().map(|(_, o)| o.clone()).collect();
        let (r, _) = match advance(map, rules, &self.position, &orders, None) {
            Ok(r) => r,
            Err(e) => {
                return Checked {
                    differences: vec![e.to_string()],
                    judged: Vec::new(),
                }
            }
        };
        let got_dislodged: Vec<Unit> = if self.position.phase.kind == PhaseKind::Movement {
            r.dislodged().iter().map(|d| d.unit).collect()
        } else {
            Vec::new()
        };
        let mut differences = Vec::new();
        compare(
            map,
            &self.expect_units,
            &r.units_after,
            |u| format!("expected {u} after the phase: it is not there"),
            |u| format!("{u} is on the board after the phase: not expected"),
            &mut differences,
        );
        compare(
            map,
            &self.expect_dislodged,
            &got_dislodged,
            |u| format!("expected {u} dislodged: it is not"),
            |u| format!("{u} is dislodged: not expected"),
            &mut differences,
        );
        let mut judged = Vec::new();
        for d in &self.position.dislodged {
            let places: Vec<String> = d.retreats.iter().map(|&l| map.loc_id(l)).collect();
            judged.push(format!(
                "{} dislodged from {}, may retreat to: {}",
                describe(map, &d.unit),
                map.province(d.by).id,
                if places.is_empty() {
                    "nowhere".to_string()
                } else {
                    places.join(", ")
                }
            ));
        }
        for (k, o) in r.orders().iter().enumerate() {
            let written = self.orders.get(k).map_or("", |(w, _)| w.as_str());
            let why = crate::report::reason(map, &r, k)
                .0
                .map(|w| format!(" ({w})"))
                .unwrap_or_default();
            judged.push(format!("{written}: {}{why}", o.outcome.word()));
        }
        Checked {
            differences,
            judged,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_abbreviation_means_its_province_on_the_classic_map() {
        let map = Map::standard();
        for (alias, id) in JDIP_ALIASES {
            let t = translate(&map, alias);
            let locs = map.names().place(&normalize(&t));
            assert_eq!(locs.len(), 1, "{alias}");
            assert_eq!(map.province(map.prov_of(locs[0])).id, id, "{alias}");
        }
    }

    #[test]
    fn phases_as_jdip_writes_them() {
        let p = parse_phase("Fall 1901, Adjustment").unwrap();
        assert_eq!(p.to_string(), "Winter 1901 adjustment");
        assert_eq!(
            parse_phase("Spring 1902, Retreat").unwrap().to_string(),
            "Spring 1902 retreat"
        );
        assert_eq!(
            parse_phase("F1901A").unwrap().to_string(),
            "Winter 1901 adjustment"
        );
        assert_eq!(
            parse_phase("S1901M").unwrap().to_string(),
            "Spring 1901 movement"
        );
        assert!(parse_phase("Summer 1901, Movement").is_none());
    }

    #[test]
    fn problems_carry_their_line_and_the_rest_is_read() {
        let map = Map::standard();
        let text = "VARIANT_ALL Standard\n\
                    CASE 1 (bad place)\n\
                    PRESTATE\n\
                    England: F xyz\n\
                    ORDERS\n\
                    POSTSTATE_SAME\n\
                    END\n\
                    CASE 2\n\
                    PRESTATE\n\
                    England: F nat\n\
                    ORDERS\n\
                    England: F nat-nrg\n\
                    POSTSTATE\n\
                    England: F nwg\n\
                    END\n";
        let cases = parse(&map, text);
        assert_eq!(cases.len(), 2);
        let e = cases[0].as_ref().unwrap_err();
        assert_eq!((e.line, e.case.as_deref()), (4, Some("1")));
        let c = cases[1].as_ref().unwrap();
        assert_eq!(c.id, "2");
        assert!(c.check(&map, Rules::default()).differences.is_empty());
    }
}
