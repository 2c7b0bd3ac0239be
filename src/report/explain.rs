//! The explanation of a phase in plain words (`arbiter explain`): why each order
//! succeeded or failed, with the strengths, the supports that counted and those that
//! did not, what stood against a move, the convoy route, and the rule that decided a
//! paradox, a retreat clash or a civil-disorder removal. Fitted to 80 columns.
//!
//! Everything is derived from the [`PhaseResult`] (outcomes, input orders, units):
//! the strengths of a successful move are computed from the outcomes the same way the
//! resolver computes them (DATC 5.B: a unit's support count is the number of matching
//! support orders that succeeded); a failed move's come from its
//! [`Failure::Bounced`]. The resolver is never run again here.

// Reports index a `PhaseResult` produced by the judge on the same map: unit
// and order indices (`k`, `unit`, supporters) are positions in
// that result's own vectors, and Prov/Loc/Power ids are the map's own or were
// checked by `game::check_ids` before the phase was judged. An out-of-range index
// is a bug, not input.
#![allow(clippy::indexing_slicing)]

use std::fmt::Write;

use super::text::{count, or_list, wrap};
use crate::game::PhaseResult;
use crate::judge::{
    owed_checked, strengths, unit_distances, AdjustmentResult, CivilDisorder, Failure, Illegal,
    Opposition, Outcome, Owed, ParadoxRule, Rules, Strength, Strengths, Void,
};
use crate::map::{BuildRule, Loc, Map, Power, Prov, UnitKind};
use crate::orders::OrderKind;
use crate::state::{PhaseKind, Position};

/// Why each order of the phase ended as it did; with `province`, only the orders of
/// units in it, moving to it or supporting into it (and builds or removals there).
pub fn explain(map: &Map, result: &PhaseResult, province: Option<Prov>) -> String {
    let b = Board::new(map, result);
    let mut out = String::new();
    let what = match result.phase.kind {
        PhaseKind::Movement => "movement",
        PhaseKind::Retreat => "retreat",
        PhaseKind::Adjustment => "adjustment",
    };
    wrap(
        &mut out,
        &format!(
            "Why each order of the {} {} {what} phase ended as it did ({} rules).",
            result.phase.season,
            result.phase.year,
            result.rules.name()
        ),
    );
    if let Some(p) = province {
        wrap(
            &mut out,
            &format!("Only the orders concerning {}.", map.province(p).name),
        );
    }
    let paragraphs = match result.phase.kind {
        PhaseKind::Movement => b.movement(province),
        PhaseKind::Retreat => b.retreat(province),
        PhaseKind::Adjustment => b.adjustment(province),
    };
    if paragraphs.is_empty() {
        out.push('\n');
        let _ = writeln!(out, "No orders.");
    }
    for p in paragraphs {
        out.push('\n');
        wrap(&mut out, &p);
    }
    out
}

/// A unit's order as the resolver saw it, rebuilt from its legal input order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Act {
    Hold,
    /// `to`: the exact destination; `convoy`: the move goes by convoy (4.A.3).
    Move {
        to: Loc,
        convoy: bool,
    },
    SupHold {
        target: usize,
    },
    SupMove {
        target: usize,
        to: Prov,
    },
    Convoy {
        army: usize,
        to: Prov,
    },
    /// A retreat-phase or adjustment-phase order.
    Other,
}

/// The phase as seen from its units: per unit, the order that counted and what it was.
struct Board<'a> {
    map: &'a Map,
    r: &'a PhaseResult,
    /// Per unit: the input order that counted (the first legal one), if any.
    order: Vec<Option<usize>>,
    act: Vec<Act>,
    /// Per province: the unit standing there at the start of the phase.
    at: Vec<Option<usize>>,
    /// Per unit: the strengths of DATC 5.B as the resolver reckoned them (movement
    /// phases; empty in the others).
    strengths: Vec<Strengths>,
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The backup rule the edition applies to a convoy paradox (DATC 4.A.2).
fn paradox_rule(rules: Rules) -> String {
    let e = rules.edition;
    match rules.paradox {
        ParadoxRule::Szykman => format!(
            "The {e} rules decide a convoy paradox by the Szykman rule (DATC 4.A.2): \
             the convoying fleets in the paradox hold and their convoy fails."
        ),
        ParadoxRule::SeaSupportNotCut1982 | ParadoxRule::ConvoyAttackSupportNotCut1971 => {
            format!(
                "The {e} paradox rule (DATC 4.A.2) left this paradox open, so the Szykman \
                 backup decides it: the convoying fleets in the paradox hold and their \
                 convoy fails."
            )
        }
    }
}

/// The rule the edition applies to circular movement (DATC 4.A.2).
fn circular_rule(rules: Rules) -> String {
    format!(
        "units moving in a circle all move ({} rules, DATC 4.A.2)",
        rules.edition
    )
}

/// The civil-disorder rule of the edition (DATC 4.D.8).
fn civil_disorder_rule(rules: Rules) -> String {
    let e = rules.edition;
    match rules.civil_disorder {
        CivilDisorder::OwnedCentresAnyPath => format!(
            "The rule ({e} rules, DATC 4.D.8): the unit farthest from the nearest \
             owned supply centre goes first, counting steps over land and sea; at equal \
             distance fleets go before armies, then alphabetically by province name."
        ),
        CivilDisorder::HomeCentresByUnitType => format!(
            "The rule ({e} rules, DATC 4.D.8): the unit farthest from the nearest \
             home supply centre goes first, fleets counting fleet moves and armies \
             steps over land and sea; at equal distance fleets go before armies, then \
             alphabetically by province name."
        ),
    }
}

fn steps(d: u32) -> String {
    format!("{d} step{}", if d == 1 { "" } else { "s" })
}

impl<'a> Board<'a> {
    fn new(map: &'a Map, r: &'a PhaseResult) -> Board<'a> {
        let n = r.units().len();
        let mut at = vec![None; map.province_count()];
        for (i, u) in r.units().iter().enumerate() {
            at[map.prov_of(u.loc).0 as usize] = Some(i);
        }
        let mut b = Board {
            map,
            r,
            order: r.order_of.clone(),
            act: vec![Act::Hold; n],
            at,
            strengths: Vec::new(),
        };
        if r.phase.kind != PhaseKind::Movement {
            for u in 0..n {
                if b.order[u].is_some() {
                    b.act[u] = Act::Other;
                }
            }
            return b;
        }
        for u in 0..n {
            b.act[u] = b.order[u].map_or(Act::Hold, |k| b.rebuild(u, k));
        }
        // The strengths are the resolver's, reckoned again from the phase's position and
        // orders: the result came from them, so their ids are the map's and the call
        // cannot be refused.
        let position = Position {
            phase: r.phase,
            units: r.units().to_vec(),
            owners: r.owners_before.clone(),
            dislodged: Vec::new(),
            saved: r.saved_before.clone(),
        };
        b.strengths = strengths(map, &position, &r.input, r.rules).unwrap_or_default();
        // Which moves went by convoy is the judge's decision (DATC 4.A.3, by edition).
        for a in 0..n {
            if let (Act::Move { to, .. }, Some(&convoy)) =
                (b.act[a], r.movement().and_then(|m| m.convoyed.get(a)))
            {
                b.act[a] = Act::Move { to, convoy };
            }
        }
        b
    }

    /// The act of unit `u` from its legal order `k`.
    fn rebuild(&self, u: usize, k: usize) -> Act {
        let map = self.map;
        let unit = &self.r.units()[u];
        let here = map.prov_of(unit.loc);
        let at = |l: Loc| self.at[map.prov_of(l).0 as usize];
        match self.r.input[k].kind {
            OrderKind::Move { to, via_convoy } => {
                let to = self.r.orders()[k].to.unwrap_or(to);
                let dest = map.prov_of(to);
                let convoy = unit.kind == UnitKind::Army
                    && map.is_coastal(here)
                    && map.is_coastal(dest)
                    && (via_convoy || !map.army_adjacent(here, dest));
                Act::Move { to, convoy }
            }
            OrderKind::Support { target, to: None } => match at(target.loc) {
                Some(t) => Act::SupHold { target: t },
                None => Act::Hold,
            },
            OrderKind::Support {
                target,
                to: Some(to),
            } => match at(target.loc) {
                Some(t) => Act::SupMove {
                    target: t,
                    to: map.prov_of(to),
                },
                None => Act::Hold,
            },
            OrderKind::Convoy { army, to } => match at(army.loc) {
                Some(a) => Act::Convoy {
                    army: a,
                    to: map.prov_of(to),
                },
                None => Act::Hold,
            },
            _ => Act::Hold,
        }
    }

    // ---- facts derived from the outcomes -------------------------------------------

    fn prov(&self, u: usize) -> Prov {
        self.map.prov_of(self.r.units()[u].loc)
    }

    fn power(&self, u: usize) -> Power {
        self.r.units()[u].power
    }

    fn outcome(&self, u: usize) -> Option<&Outcome> {
        self.order[u].map(|k| &self.r.orders()[k].outcome)
    }

    fn succeeds(&self, u: usize) -> bool {
        self.outcome(u).is_some_and(Outcome::succeeded)
    }

    fn dest(&self, u: usize) -> Option<Prov> {
        match self.act[u] {
            Act::Move { to, .. } => Some(self.map.prov_of(to)),
            _ => None,
        }
    }

    fn convoyed(&self, u: usize) -> bool {
        matches!(self.act[u], Act::Move { convoy: true, .. })
    }

    /// Did unit `u` move?
    fn moved(&self, u: usize) -> bool {
        self.dest(u).is_some() && self.succeeds(u)
    }

    /// Does move `u` have a path (not convoyed, or a convoy route that stood)?
    fn path(&self, u: usize) -> bool {
        !matches!(
            self.outcome(u),
            Some(Outcome::Fails(Failure::ConvoyDisrupted))
                | Some(Outcome::Invalid(Void::NoConvoyOrdered))
        )
    }

    /// The unit moving head to head against move `m` (neither convoyed).
    fn head_to_head(&self, m: usize) -> Option<usize> {
        if self.convoyed(m) {
            return None;
        }
        let o = self.at[self.dest(m)?.0 as usize]?;
        (self.dest(o) == Some(self.prov(m)) && !self.convoyed(o)).then_some(o)
    }

    /// The units whose support order names unit `u`, with any outcome.
    fn support_orders(&self, u: usize) -> Vec<usize> {
        let p = self.prov(u);
        (0..self.r.input.len())
            .filter(|&k| match self.r.input[k].kind {
                OrderKind::Support { target, .. } => self.map.prov_of(target.loc) == p,
                _ => false,
            })
            .filter(|&k| self.r.orders()[k].unit.is_some())
            .collect()
    }

    /// The supporters whose support of `u` matched what `u` did.
    fn supporters(&self, u: usize) -> Vec<usize> {
        (0..self.r.units().len())
            .filter(|&s| match self.act[s] {
                Act::SupHold { target } | Act::SupMove { target, .. } => target == u,
                _ => false,
            })
            .filter(|&s| !matches!(self.outcome(s), Some(Outcome::Invalid(_))))
            .collect()
    }

    /// The matching supports of `u` that were given, leaving out those of `not_of`.
    fn given(&self, u: usize, not_of: Option<Power>) -> Vec<usize> {
        self.supporters(u)
            .into_iter()
            .filter(|&s| self.succeeds(s) && Some(self.power(s)) != not_of)
            .collect()
    }

    /// The power whose supports do not count for move `m`'s attack: the owner of the
    /// unit it attacks, when that unit stays (DATC 5.B.4).
    fn excluded(&self, m: usize) -> Option<Power> {
        let o = self.at[self.dest(m)?.0 as usize]?;
        if self.head_to_head(m).is_none() && self.moved(o) {
            return None;
        }
        Some(self.power(o))
    }

    /// The resolver's strengths of unit `u`.
    fn strength(&self, u: usize) -> Strengths {
        self.strengths.get(u).copied().unwrap_or_default()
    }

    /// The attack strength of move `m` (DATC 5.B.8).
    fn attack(&self, m: usize) -> u8 {
        self.strength(m).attack
    }

    /// The hold strength of province `p` (DATC 5.B.5): 0 when nobody stands there.
    fn hold(&self, p: Prov) -> u8 {
        self.at[p.0 as usize].map_or(0, |o| self.strength(o).hold)
    }

    /// The defend strength of move `o` (DATC 5.B.7).
    fn defend(&self, o: usize) -> u8 {
        self.strength(o).defend
    }

    /// The prevent strength of move `o` (DATC 5.B.6).
    fn prevent(&self, o: usize) -> u8 {
        self.strength(o).prevent
    }

    /// The unit that moved into `u`'s province while `u` stayed.
    fn dislodger(&self, u: usize) -> Option<usize> {
        if !self.r.is_dislodged(u) {
            return None;
        }
        let p = self.prov(u);
        (0..self.r.units().len()).find(|&m| self.moved(m) && self.dest(m) == Some(p))
    }

    /// The units moving to province `p`.
    fn movers(&self, p: Prov) -> Vec<usize> {
        (0..self.r.units().len())
            .filter(|&m| self.dest(m) == Some(p))
            .collect()
    }

    /// The matching convoy orders for move `m`.
    fn convoyers(&self, m: usize) -> Vec<usize> {
        let Some(d) = self.dest(m) else {
            return vec![];
        };
        (0..self.r.units().len())
            .filter(|&f| self.act[f] == Act::Convoy { army: m, to: d })
            .filter(|&f| !matches!(self.outcome(f), Some(Outcome::Invalid(_))))
            .collect()
    }

    /// The circle of successful moves `m` is part of, starting with `m`.
    fn circle(&self, m: usize) -> Option<Vec<usize>> {
        let mut chain = vec![m];
        let mut cur = m;
        loop {
            if !self.moved(cur) {
                return None;
            }
            let next = self.at[self.dest(cur)?.0 as usize]?;
            if next == m {
                return (chain.len() >= 2).then_some(chain);
            }
            if chain.contains(&next) || chain.len() > self.r.units().len() {
                return None;
            }
            chain.push(next);
            cur = next;
        }
    }

    /// One link of a convoy paradox, from a convoyed army `a` whose every route
    /// failed: `a` attacks the supporter `s` (and would cut it, were it convoyed),
    /// whose support of move `d` is what let `d` dislodge fleet `f`, which convoys
    /// the army `next`. Returns `(s, d, f, next)`.
    fn paradox_link(&self, a: usize) -> Option<(usize, usize, usize, usize)> {
        if !matches!(
            self.outcome(a),
            Some(Outcome::Fails(Failure::ConvoyDisrupted))
        ) {
            return None;
        }
        let s = self.at[self.dest(a)?.0 as usize]?;
        if self.power(s) == self.power(a) || !self.succeeds(s) {
            return None;
        }
        let d = match self.act[s] {
            Act::SupMove { target, to } if to != self.prov(a) => target,
            _ => return None,
        };
        if !self.moved(d) || !self.given(d, self.excluded(d)).contains(&s) {
            return None;
        }
        // Without the support, `d` would not have beaten what stood against it.
        let without = self.attack(d).saturating_sub(1);
        let strongest = self
            .oppositions(d)
            .iter()
            .map(|o| o.strength)
            .max()
            .unwrap_or(0);
        if without > strongest {
            return None;
        }
        let f = self.at[self.dest(d)?.0 as usize]?;
        let Act::Convoy { army: next, .. } = self.act[f] else {
            return None;
        };
        if !matches!(self.outcome(f), Some(Outcome::Fails(Failure::Dislodged { by })) if *by == d) {
            return None;
        }
        // `f` is the only broken link of `next`'s route.
        let fleets = self.convoyers(next);
        if !fleets.contains(&f) || fleets.iter().any(|&x| x != f && !self.succeeds(x)) {
            return None;
        }
        Some((s, d, f, next))
    }

    /// For a convoyed move `m` whose every route failed: the convoy paradox the
    /// Szykman rule decided, as the links from `m` back to `m` (see
    /// [`Board::paradox_link`]). Had `m` cut the first support, the first attack
    /// would have failed, the next army would have been convoyed and cut the next
    /// support, and so on until `m`'s own convoy would have stood. (A cycle with two
    /// resolutions; the convoying fleets held, and were dislodged.)
    fn szykman(&self, m: usize) -> Option<Vec<(usize, usize, usize, usize)>> {
        let mut links = Vec::new();
        let mut a = m;
        while links.len() <= self.r.units().len() {
            let link = self.paradox_link(a)?;
            links.push(link);
            if link.3 == m {
                return Some(links);
            }
            if links.iter().filter(|l| l.3 == link.3).count() > 1 {
                return None;
            }
            a = link.3;
        }
        None
    }

    /// Is fleet `f` one of the convoying fleets of a paradox the Szykman rule decided?
    fn in_paradox(&self, f: usize) -> bool {
        match self.act[f] {
            Act::Convoy { army, .. } => self
                .szykman(army)
                .is_some_and(|links| links.iter().any(|l| l.2 == f)),
            _ => false,
        }
    }

    /// Did the Szykman rule fail the convoy of move `m`?
    fn convoy_paradox(&self, m: usize) -> bool {
        self.szykman(m).is_some()
            || self
                .convoyers(m)
                .iter()
                .any(|&f| matches!(self.outcome(f), Some(Outcome::Fails(Failure::Paradox))))
    }

    // ---- words --------------------------------------------------------------------

    /// `F North Sea`.
    fn unit(&self, u: usize) -> String {
        let x = &self.r.units()[u];
        format!("{} {}", x.kind.letter(), self.map.loc_name(x.loc))
    }

    /// `the North Sea` for a sea, `London` for land.
    fn place(&self, l: Loc) -> String {
        let name = self.map.loc_name(l);
        if self.map.is_sea(self.map.prov_of(l)) {
            format!("the {name}")
        } else {
            name
        }
    }

    /// `army` or `fleet`.
    fn noun(&self, u: usize) -> &'static str {
        match self.r.units()[u].kind {
            UnitKind::Army => "army",
            UnitKind::Fleet => "fleet",
        }
    }

    fn power_name(&self, p: Option<Power>) -> String {
        p.map_or("Unknown".to_string(), |p| self.map.power(p).name.clone())
    }

    /// The unit named at `l` by an order: the unit there, or as written.
    fn named(&self, l: Loc, kind: Option<UnitKind>) -> String {
        match self.at[self.map.prov_of(l).0 as usize] {
            Some(u) if self.r.phase.kind != PhaseKind::Adjustment => self.unit(u),
            _ => match kind {
                Some(k) => format!("{} {}", k.letter(), self.map.loc_name(l)),
                None => self.map.loc_name(l),
            },
        }
    }

    /// The unit order `k` is for, in words: `A Norway`, `F Spain (north coast)`, or
    /// the unit a build names.
    fn subject(&self, k: usize) -> String {
        let map = self.map;
        let o = &self.r.input[k];
        let res = &self.r.orders()[k];
        match (res.unit, o.unit) {
            (Some(u), _) => self.unit(u),
            (None, Some(x)) => match (o.kind, x.kind) {
                (OrderKind::Build, None) => format!(
                    "{} {}",
                    if map.is_named_coast(x.loc) { 'F' } else { 'A' },
                    map.loc_name(x.loc)
                ),
                (_, Some(kind)) => format!("{} {}", kind.letter(), map.loc_name(x.loc)),
                (_, None) => map.loc_name(x.loc),
            },
            (None, None) => String::new(),
        }
    }

    /// Input order `k` in words: `A Norway -> Edinburgh (via convoy)`.
    fn order(&self, k: usize) -> String {
        let me = self.subject(k);
        let o = &self.r.input[k];
        let res = &self.r.orders()[k];
        let map = self.map;
        match o.kind {
            OrderKind::Hold => format!("{me} holds"),
            OrderKind::Move { to, via_convoy } => {
                let convoy = match res.unit {
                    Some(u) if self.order[u] == Some(k) => self.convoyed(u),
                    _ => via_convoy,
                };
                let to = res.to.unwrap_or(to);
                let via = if convoy && self.r.phase.kind == PhaseKind::Movement {
                    " (via convoy)"
                } else {
                    ""
                };
                format!("{me} -> {}{via}", map.loc_name(to))
            }
            OrderKind::Support { target, to } => {
                let t = self.named(target.loc, target.kind);
                match to {
                    None => format!("{me} supports {t}"),
                    Some(to) => format!("{me} supports {t} -> {}", map.loc_name(to)),
                }
            }
            OrderKind::Convoy { army, to } => format!(
                "{me} convoys {} -> {}",
                self.named(army.loc, Some(UnitKind::Army)),
                map.loc_name(to)
            ),
            OrderKind::Disband if self.r.phase.kind == PhaseKind::Adjustment => {
                format!("remove {me}")
            }
            OrderKind::Disband => format!("{me} disbands"),
            OrderKind::Build => format!("build {me}"),
            OrderKind::Waive => "waive".to_string(),
            OrderKind::Save => "save a build for a colonial build".to_string(),
        }
    }

    /// What unit `u` was doing: its order in words, or `F Brest (no order)`.
    fn doing(&self, u: usize) -> String {
        match self.order[u] {
            Some(k) => self.order(k),
            None => format!("{} (no order)", self.unit(u)),
        }
    }

    /// `(1 + support from F X)`, `(1 + supports from F X and F Y)`, or nothing.
    fn breakdown(&self, supports: &[usize]) -> String {
        if supports.is_empty() {
            return String::new();
        }
        let names: Vec<String> = supports.iter().map(|&s| self.unit(s)).collect();
        format!(
            ": 1 + support{} from {}",
            if names.len() == 1 { "" } else { "s" },
            and_list(&names)
        )
    }

    /// `1 + support from F X`, `1 + supports from F X and F Y`, or nothing.
    fn sum(&self, supports: &[usize]) -> Option<String> {
        (!supports.is_empty()).then(|| self.breakdown(supports)[2..].to_string())
    }

    /// `It may retreat to Clyde or Yorkshire.` for dislodged unit `u`.
    fn retreat_words(&self, u: usize) -> String {
        let unit = self.r.units().get(u);
        match self.r.dislodged().iter().find(|d| Some(&d.unit) == unit) {
            Some(d) if !d.retreats.is_empty() => {
                let places: Vec<String> = d.retreats.iter().map(|&l| self.place(l)).collect();
                format!("It may retreat to {}.", or_list(&places))
            }
            _ => "It has nowhere to retreat and will be destroyed.".to_string(),
        }
    }

    /// `F Edinburgh is dislodged by A Norway -> Edinburgh with attack strength 2
    /// against hold strength 1.`
    fn dislodgement(&self, u: usize) -> Option<String> {
        let d = self.dislodger(u)?;
        Some(format!(
            "{} is dislodged by {} with attack strength {} against hold strength {}.",
            self.unit(u),
            self.doing(d),
            self.attack(d),
            self.hold(self.prov(u)),
        ))
    }

    /// The line about unit `u`, `prefix` (the power) then `body` (its order and why):
    /// a dislodged unit's line says first that it was dislodged, and ends with where
    /// it may retreat.
    fn unit_line(&self, u: usize, prefix: String, body: &str) -> String {
        match self.dislodgement(u) {
            Some(d) => format!("{prefix}{d} {body} {}", self.retreat_words(u)),
            None => prefix + body,
        }
    }

    /// Is order `k` the one whose line explains what became of unit `u`: the order it
    /// followed, or when it followed none (every order illegal), its first one?
    fn explains_unit(&self, k: usize, u: usize) -> bool {
        match self.order[u] {
            Some(o) => o == k,
            None => {
                self.r.orders().iter().position(|o| {
                    o.unit == Some(u)
                        && !matches!(o.outcome, Outcome::Illegal(Illegal::ForeignUnit(_)))
                }) == Some(k)
            }
        }
    }

    /// Why the support order `k` (of unit `s`) did not count for unit `u`, if it did not.
    fn support_note(&self, k: usize, u: usize, not_of: Option<Power>) -> Option<String> {
        let s = self.r.orders()[k].unit?;
        let who = format!("The support from {}", self.unit(s));
        match &self.r.orders()[k].outcome {
            Outcome::Succeeds if Some(self.power(s)) == not_of && self.order[s] == Some(k) => {
                Some(format!(
                    "{who} does not count: it is {}'s, and a power's support cannot help \
                     dislodge its own unit.",
                    self.map.power(self.power(s)).name
                ))
            }
            Outcome::Succeeds => None,
            Outcome::Illegal(i) => Some(format!(
                "{who} is illegal ({}) and does not count.",
                i.describe(self.map)
            )),
            Outcome::Invalid(_) => {
                let what = match self.r.input[k].kind {
                    OrderKind::Support { to: Some(to), .. } => {
                        format!("a move to {}", self.map.loc_name(to))
                    }
                    _ => "a hold".to_string(),
                };
                Some(format!(
                    "{who} is void: it supports {what}, and {}.",
                    self.ordered(u)
                ))
            }
            Outcome::Fails(Failure::Cut { by }) => {
                Some(format!("{who} was cut by {}.", self.doing(*by)))
            }
            Outcome::Fails(Failure::Dislodged { by }) => Some(format!(
                "{who} was cut: {} was dislodged by {}.",
                self.unit(s),
                self.doing(*by)
            )),
            Outcome::Fails(Failure::Paradox) => Some(format!(
                "{who} failed by the backup rule (a cycle of orders with no single result)."
            )),
            Outcome::Fails(_) => Some(format!("{who} failed.")),
        }
    }

    /// What unit `u` was ordered: `A Norway is ordered to move to Yorkshire`,
    /// `A Norway has no order and holds`.
    fn ordered(&self, u: usize) -> String {
        let me = self.unit(u);
        let Some(k) = self.order[u] else {
            return format!("{me} has no order and holds");
        };
        let what = match self.r.input[k].kind {
            OrderKind::Hold => "to hold".to_string(),
            OrderKind::Move { to, .. } => {
                let to = self.place(self.r.orders()[k].to.unwrap_or(to));
                let via = if self.convoyed(u) {
                    " (via convoy)"
                } else {
                    ""
                };
                format!("to move to {to}{via}")
            }
            OrderKind::Support { .. } => format!("to support {}", self.target(k)),
            OrderKind::Convoy { .. } => format!("to convoy {}", self.target(k)),
            _ => return self.order(k),
        };
        format!("{me} is ordered {what}")
    }

    /// What support or convoy order `k` is for: `F London -> North Sea`.
    fn target(&self, k: usize) -> String {
        let map = self.map;
        match self.r.input[k].kind {
            OrderKind::Support { target, to } => {
                let t = self.named(target.loc, target.kind);
                match to {
                    None => t,
                    Some(to) => format!("{t} -> {}", map.loc_name(to)),
                }
            }
            OrderKind::Convoy { army, to } => format!(
                "{} -> {}",
                self.named(army.loc, Some(UnitKind::Army)),
                map.loc_name(to)
            ),
            _ => String::new(),
        }
    }

    /// Order `k` as the subject of its verdict, a noun phrase: `F Edinburgh's support
    /// of F London -> North Sea`, `F North Sea's convoy of A Norway -> Edinburgh`,
    /// `disbanding A Sevastopol`, `building A Berlin`, or a hold or move itself
    /// (`A Norway -> Edinburgh`).
    fn heading(&self, k: usize) -> String {
        let me = || self.subject(k);
        let adjustment = self.r.phase.kind == PhaseKind::Adjustment;
        match self.r.input[k].kind {
            OrderKind::Support { .. } => format!("{}'s support of {}", me(), self.target(k)),
            OrderKind::Convoy { .. } => format!("{}'s convoy of {}", me(), self.target(k)),
            OrderKind::Disband if adjustment => format!("removing {}", me()),
            OrderKind::Disband => format!("disbanding {}", me()),
            OrderKind::Build => format!("building {}", me()),
            OrderKind::Waive => "waiving a build".to_string(),
            OrderKind::Save => "saving a build for a colonial build".to_string(),
            OrderKind::Hold | OrderKind::Move { .. } => self.order(k),
        }
    }

    /// Notes on the supports of unit `u` that did not count.
    fn support_notes(&self, u: usize, not_of: Option<Power>) -> Vec<String> {
        self.support_orders(u)
            .into_iter()
            .filter(|&k| self.r.orders()[k].unit != Some(u))
            .filter_map(|k| self.support_note(k, u, not_of))
            .collect()
    }

    /// One unit standing against move `m`, in words.
    fn opposition(&self, m: usize, o: &Opposition) -> String {
        let u = o.unit;
        let s = o.strength;
        let paren = |notes: Vec<String>| {
            if notes.is_empty() {
                String::new()
            } else {
                format!(" ({})", notes.join("; "))
            }
        };
        let sum = || {
            self.sum(&self.given(u, None))
                .into_iter()
                .collect::<Vec<_>>()
        };
        match o.kind {
            Strength::Hold => match self.act[u] {
                Act::Move { to, .. } if self.moved(u) => {
                    format!("{} left for {}", self.unit(u), self.place(to))
                }
                Act::Move { to, .. } => format!(
                    "{} holds with strength {s} (its move to {} failed)",
                    self.unit(u),
                    self.place(to)
                ),
                _ => {
                    let mut notes = sum();
                    notes.extend(self.own_failure(u, m));
                    format!("{} holds with strength {s}{}", self.unit(u), paren(notes))
                }
            },
            Strength::Defend => format!(
                "{} moves the other way (a head-to-head battle) and defends with strength \
                 {s}{}",
                self.doing(u),
                paren(sum())
            ),
            Strength::Prevent => {
                let notes = if s > 0 {
                    sum()
                } else {
                    match self.head_to_head(u) {
                        Some(x) if self.moved(x) => vec![format!(
                            "it lost its head-to-head battle with {}",
                            self.unit(x)
                        )],
                        _ => vec!["its convoy failed".to_string()],
                    }
                };
                format!(
                    "{} also moves there, with prevent strength {s}{}",
                    self.doing(u),
                    paren(notes)
                )
            }
        }
    }

    /// Why a standing unit's own support or convoy failed, as seen from move `m`.
    fn own_failure(&self, u: usize, m: usize) -> Option<String> {
        let k = self.order[u]?;
        let what = match self.r.input[k].kind {
            OrderKind::Support { .. } => "support",
            OrderKind::Convoy { .. } => "convoy",
            _ => return None,
        };
        let target = self.target(k);
        let by = |b: usize| {
            if b == m {
                format!("this {}", self.noun(m))
            } else {
                self.unit(b)
            }
        };
        match &self.r.orders()[k].outcome {
            Outcome::Fails(Failure::Cut { by: b })
            | Outcome::Fails(Failure::Dislodged { by: b }) => {
                let verb = if what == "support" {
                    "cut"
                } else {
                    "disrupted"
                };
                Some(format!("its {what} of {target} was {verb} by {}", by(*b)))
            }
            _ => None,
        }
    }

    /// The oppositions to move `m` computed from the outcomes: the unit in the
    /// destination (hold or defend) and every other unit moving there (prevent).
    fn oppositions(&self, m: usize) -> Vec<Opposition> {
        let Some(d) = self.dest(m) else {
            return vec![];
        };
        let mut v = Vec::new();
        let h2h = self.head_to_head(m);
        if let Some(o) = h2h {
            v.push(Opposition {
                unit: o,
                kind: Strength::Defend,
                strength: self.defend(o),
            });
        } else if let Some(o) = self.at[d.0 as usize] {
            v.push(Opposition {
                unit: o,
                kind: Strength::Hold,
                strength: self.hold(d),
            });
        }
        for o in self.movers(d) {
            if o != m && Some(o) != h2h {
                v.push(Opposition {
                    unit: o,
                    kind: Strength::Prevent,
                    strength: self.prevent(o),
                });
            }
        }
        v
    }

    // ---- movement -----------------------------------------------------------------

    fn movement(&self, province: Option<Prov>) -> Vec<String> {
        let map = self.map;
        let concerns_order = |k: usize| -> bool {
            let Some(p) = province else { return true };
            let o = &self.r.input[k];
            let at = |l: Loc| map.prov_of(l) == p;
            o.unit.is_some_and(|u| at(u.loc))
                || self.r.orders()[k].unit.is_some_and(|u| self.prov(u) == p)
                || match o.kind {
                    OrderKind::Move { to, .. } => at(to),
                    OrderKind::Support { to: Some(to), .. } => at(to),
                    OrderKind::Support { target, to: None } => at(target.loc),
                    OrderKind::Convoy { to, .. } => at(to),
                    _ => false,
                }
        };
        let mut items: Vec<((bool, Option<Power>), String)> = Vec::new();
        for k in 0..self.r.input.len() {
            if concerns_order(k) {
                let key = super::power_first(self.r.orders()[k].power);
                items.push((key, self.movement_order(k)));
            }
        }
        for u in 0..self.r.units().len() {
            let ordered = self.r.orders().iter().any(|o| {
                o.unit == Some(u) && !matches!(o.outcome, Outcome::Illegal(Illegal::ForeignUnit(_)))
            });
            if !ordered && province.is_none_or(|p| self.prov(u) == p) {
                let prefix = format!("{}: ", self.map.power(self.power(u)).name);
                let mut t = format!("{} has no order and holds.", self.unit(u));
                self.stay(&mut t, u);
                let line = self.unit_line(u, prefix, &t);
                items.push((super::power_first(Some(self.power(u))), line));
            }
        }
        items.sort_by_key(|&(key, _)| key);
        items.into_iter().map(|(_, t)| t).collect()
    }

    fn movement_order(&self, k: usize) -> String {
        let res = &self.r.orders()[k];
        let prefix = format!("{}: ", self.power_name(res.power));
        let body = self.movement_verdict(k);
        match res.unit {
            Some(u) if self.explains_unit(k, u) => self.unit_line(u, prefix, &body),
            _ => prefix + &body,
        }
    }

    /// Order `k` of a movement phase, its outcome and why, without the power.
    fn movement_verdict(&self, k: usize) -> String {
        let res = &self.r.orders()[k];
        let mut t = self.heading(k);
        let Some(u) = res.unit else {
            if let Outcome::Illegal(i) = &res.outcome {
                let _ = write!(t, " is illegal: {}.", i.describe(self.map));
            }
            return t;
        };
        match &res.outcome {
            Outcome::Illegal(i) => {
                let _ = write!(t, " is illegal: {}.", i.describe(self.map));
                if matches!(i, Illegal::ForeignUnit(_)) {
                    t.push_str(" The order is ignored.");
                } else if self.order[u].is_none() {
                    t.push_str(" The order is ignored and the unit holds.");
                    // The hold is explained once, under the unit's first order.
                    if self.explains_unit(k, u) {
                        self.stay(&mut t, u);
                    }
                } else {
                    t.push_str(" The order is ignored; the unit's other order stands.");
                }
                return t;
            }
            Outcome::Invalid(_) => t.push_str(" is void."),
            Outcome::Succeeds if self.act[u] == Act::Hold => t.push('.'),
            Outcome::Fails(_) if self.act[u] == Act::Hold => t.push_str(", and fails."),
            o => {
                let _ = write!(t, " {}.", o.word());
            }
        }
        if self.order[u] != Some(k) {
            t.push_str(" It is the same order written twice; it counts once.");
            return t;
        }
        match self.act[u] {
            Act::Move { .. } => self.explain_move(&mut t, u),
            Act::SupHold { .. } | Act::SupMove { .. } => self.explain_support(&mut t, u),
            Act::Convoy { army, .. } => self.explain_convoy(&mut t, u, army),
            Act::Hold | Act::Other => self.stay(&mut t, u),
        }
        t
    }

    /// A unit that stays where it is: its hold strength, who attacked it, whether it
    /// was dislodged.
    fn stay(&self, t: &mut String, u: usize) {
        let p = self.prov(u);
        if self.dest(u).is_none() {
            for n in self.support_notes(u, None) {
                t.push(' ');
                t.push_str(&n);
            }
        }
        if self.dislodger(u).is_some() {
            // Said first on the unit's line (`unit_line`).
            return;
        }
        let attackers: Vec<usize> = self
            .movers(p)
            .into_iter()
            .filter(|&m| self.head_to_head(m).is_none())
            .collect();
        if attackers.is_empty() {
            return;
        }
        let hold = self.hold(p);
        if self.dest(u).is_some() {
            let _ = write!(t, " It stays, with hold strength {hold}.");
        } else {
            let _ = write!(
                t,
                " Hold strength {hold}{}.",
                self.breakdown(&self.given(u, None))
            );
        }
        for m in attackers {
            let (a, others) = match self.outcome(m) {
                Some(Outcome::Fails(Failure::Bounced { attack, against })) => {
                    // What stopped the attack besides this unit's hold: another
                    // move's prevent strength (DATC 5.B), named so the reader sees
                    // what really held the province.
                    let others: Vec<String> = against
                        .iter()
                        .filter(|o| o.unit != u)
                        .map(|o| match o.kind {
                            Strength::Prevent => format!(
                                "the prevent strength {} of {}{}",
                                o.strength,
                                self.doing(o.unit),
                                self.sum(&self.given(o.unit, None))
                                    .map(|s| format!(" ({s})"))
                                    .unwrap_or_default()
                            ),
                            _ => self.opposition(m, o),
                        })
                        .collect();
                    (*attack, others)
                }
                _ => (self.attack(m), Vec::new()),
            };
            if a == 0 {
                let _ = write!(t, " {} failed (attack strength 0).", self.doing(m));
            } else if others.is_empty() {
                let _ = write!(
                    t,
                    " {} attacked with strength {a} and failed.",
                    self.doing(m)
                );
            } else {
                let held = if a > hold {
                    format!("it beat hold strength {hold}, but not")
                } else {
                    "it was stopped too by".to_string()
                };
                // "but not the prevent strength 2 of A Serbia -> Trieste (1 + support
                // from A Budapest)".
                let _ = write!(
                    t,
                    " {} attacked with strength {a} and failed: {held} {}.",
                    self.doing(m),
                    and_list(&others)
                );
            }
        }
    }

    fn explain_move(&self, t: &mut String, m: usize) {
        // Called for `Act::Move` only; anything else has no move to explain.
        let Some(d) = self.dest(m) else {
            return;
        };
        let dname = self.place(d.into());
        match self.outcome(m) {
            Some(Outcome::Invalid(Void::NoConvoyOrdered)) => {
                t.push_str(
                    " The move needs a convoy, and no fleet was ordered to convoy it along a \
                     route, so the army holds.",
                );
                self.stay(t, m);
                return;
            }
            Some(Outcome::Fails(Failure::ConvoyDisrupted)) => {
                self.convoy_route(t, m);
                self.stay(t, m);
                return;
            }
            _ => {}
        }
        // The attack, from the failure when the move bounced, else from the outcomes.
        let (attack, against, failed) = match self.outcome(m) {
            Some(Outcome::Fails(Failure::Bounced { attack, against })) => {
                (*attack, against.clone(), true)
            }
            Some(Outcome::Fails(_)) => (self.attack(m), self.oppositions(m), true),
            _ => (self.attack(m), self.oppositions(m), false),
        };
        let not_of = self.excluded(m);
        if attack == 0 {
            let o = self.at[d.0 as usize]
                .map(|o| self.unit(o))
                .unwrap_or_default();
            let _ = write!(
                t,
                " Attack strength 0: {o} belongs to {} too and stays, and a unit may not \
                 dislodge a unit of its own power.",
                self.map.power(self.power(m)).name
            );
        } else {
            let _ = write!(
                t,
                " Attack strength {attack}{}.",
                self.breakdown(&self.given(m, not_of))
            );
        }
        let own = not_of.filter(|&p| p != self.power(m));
        for n in self.support_notes(m, if attack == 0 { None } else { own }) {
            t.push(' ');
            t.push_str(&n);
        }
        let strongest = against.iter().map(|o| o.strength).max().unwrap_or(0);
        if against.is_empty() {
            let _ = write!(
                t,
                " Nothing stood against it: {dname} was empty and no other unit moved there."
            );
        } else {
            let words: Vec<String> = against.iter().map(|o| self.opposition(m, o)).collect();
            let _ = write!(t, " Against it: {}.", words.join("; "));
        }
        let target = self.at[d.0 as usize].filter(|&o| self.dislodger(o) == Some(m));
        if failed {
            if matches!(self.outcome(m), Some(Outcome::Fails(Failure::Paradox))) {
                t.push_str(
                    " The move fails by the backup rule (DATC 5.B.9): it is part of a \
                     cycle of orders with no single result that is neither circular \
                     movement nor a convoy paradox, and every order of such a cycle fails.",
                );
            } else if attack > 0 {
                let _ = write!(t, " {attack} does not beat {strongest}, so the move fails.");
            }
            if self.r.movement().is_some_and(|m| m.contested.contains(&d)) {
                let _ = write!(
                    t,
                    " Standoff: {dname} stays empty, and no unit may retreat there."
                );
            }
        } else {
            if !against.is_empty() {
                let _ = write!(t, " {attack} beats {strongest}");
                match target {
                    Some(o) => {
                        let _ = write!(t, ": {} is dislodged.", self.unit(o));
                    }
                    None => t.push('.'),
                }
            }
            if let Some(circle) = self.circle(m) {
                let mut names: Vec<String> = circle.iter().map(|&u| self.unit(u)).collect();
                names.push(self.unit(m));
                let _ = write!(
                    t,
                    " It is part of circular movement ({}): {}.",
                    names.join(" -> "),
                    circular_rule(self.r.rules)
                );
            }
        }
        if self.convoyed(m) {
            self.convoy_route(t, m);
        }
        if failed {
            self.stay(t, m);
        }
    }

    /// The convoy route of move `m`: who convoyed it, or what broke it.
    fn convoy_route(&self, t: &mut String, m: usize) {
        let fleets = self.convoyers(m);
        let (stood, broke): (Vec<usize>, Vec<usize>) =
            fleets.iter().partition(|&&f| self.succeeds(f));
        let names = |v: &[usize]| -> Vec<String> { v.iter().map(|&f| self.unit(f)).collect() };
        let why = |f: usize| -> String {
            match self.outcome(f) {
                Some(Outcome::Fails(Failure::Dislodged { by })) => {
                    format!("{} was dislodged by {}", self.unit(f), self.doing(*by))
                }
                Some(Outcome::Fails(Failure::Paradox)) => {
                    format!("the convoy of {} failed by the Szykman rule", self.unit(f))
                }
                _ => format!("the convoy of {} failed", self.unit(f)),
            }
        };
        if self.path(m) {
            let _ = write!(t, " Convoyed by {}.", and_list(&names(&stood)));
            let broken: Vec<String> = broke.iter().map(|&f| why(f)).collect();
            if !broken.is_empty() {
                let _ = write!(
                    t,
                    " Another route was broken ({}), but one route is enough.",
                    and_list(&broken)
                );
            }
        } else {
            t.push_str(" No convoy: every convoy route was disrupted");
            let broken: Vec<String> = broke.iter().map(|&f| why(f)).collect();
            if broken.is_empty() {
                t.push('.');
            } else {
                let _ = write!(t, " ({}).", and_list(&broken));
            }
            if !stood.is_empty() {
                let (what, it) = if stood.len() == 1 {
                    ("convoy", "it")
                } else {
                    ("convoys", "them")
                };
                let _ = write!(
                    t,
                    " The {what} of {} stood, but no route remains through {it}.",
                    and_list(&names(&stood))
                );
            }
            if let Some(links) = self.szykman(m) {
                let mut w = String::new();
                for (i, &(s, d, _, _)) in links.iter().enumerate() {
                    if i > 0 {
                        let army = self.doing(links[i - 1].3);
                        let _ = write!(w, ", {army} would have been convoyed and");
                        let _ = write!(w, " cut the support of {}", self.unit(s));
                    } else {
                        let _ = write!(w, " Had the army cut the support of {}", self.unit(s));
                    }
                    let _ = write!(w, ", {} would have failed", self.doing(d));
                }
                let _ = write!(
                    t,
                    "{w} and the convoy would have stood: the orders form a convoy \
                     paradox. {}",
                    paradox_rule(self.r.rules)
                );
            }
        }
    }

    fn explain_support(&self, t: &mut String, s: usize) {
        let p = self.prov(s);
        let (target, aimed) = match self.act[s] {
            Act::SupHold { target } => (target, None),
            Act::SupMove { target, to } => (target, Some(to)),
            _ => return,
        };
        match self.outcome(s) {
            Some(Outcome::Succeeds) => {
                t.push_str(" The support is given.");
                // Attacks that did not cut it, and why.
                for m in self.movers(p) {
                    let why = if self.power(m) == self.power(s) {
                        "a unit of the same power cannot cut a support".to_string()
                    } else if aimed == Some(self.prov(m)) {
                        format!(
                            "a support is not cut by an attack from the province it \
                             supports into, {}",
                            self.map.province(self.prov(m)).name
                        )
                    } else if self.convoy_paradox(m) {
                        "its convoy failed by the Szykman rule (a convoy paradox)".to_string()
                    } else if !self.path(m) {
                        "its convoy failed".to_string()
                    } else {
                        "it did not cut".to_string()
                    };
                    let _ = write!(t, " {} did not cut it: {why}.", self.doing(m));
                }
                if let Some(to) = aimed {
                    if self.at[to.0 as usize].is_some_and(|o| self.power(o) == self.power(s))
                        && self.excluded(target) == Some(self.power(s))
                    {
                        let _ = write!(
                            t,
                            " It does not count for the attack: a power's support cannot \
                             help dislodge its own unit ({}).",
                            self.at[to.0 as usize]
                                .map(|o| self.unit(o))
                                .unwrap_or_default()
                        );
                    }
                }
            }
            Some(Outcome::Fails(Failure::Cut { by })) => {
                let mut w = format!(" The support is cut by {}", self.doing(*by));
                if !self.moved(*by) {
                    w.push_str(", which cuts it even though that move fails");
                }
                t.push_str(&w);
                t.push('.');
            }
            Some(Outcome::Fails(Failure::Dislodged { .. })) => {
                t.push_str(" The support is cut: the unit is dislodged.");
            }
            Some(Outcome::Fails(Failure::Paradox)) => t.push_str(
                " The support fails by the backup rule (DATC 5.B.9): it is part of a cycle \
                 of orders with no single result that is neither circular movement nor a \
                 convoy paradox, and every order of such a cycle fails.",
            ),
            Some(Outcome::Invalid(_)) => {
                let _ = write!(t, " {}.", self.ordered(target));
            }
            _ => {}
        }
    }

    fn explain_convoy(&self, t: &mut String, f: usize, army: usize) {
        match self.outcome(f) {
            Some(Outcome::Succeeds) => {
                t.push_str(" The convoy stands.");
                for m in self.movers(self.prov(f)) {
                    let a = match self.outcome(m) {
                        Some(Outcome::Fails(Failure::Bounced { attack, .. })) => *attack,
                        _ => self.attack(m),
                    };
                    let _ = write!(
                        t,
                        " {} attacked it with strength {a} against hold strength {} and \
                         failed.",
                        self.doing(m),
                        self.hold(self.prov(f))
                    );
                }
            }
            Some(Outcome::Fails(Failure::Dislodged { .. })) => {
                t.push_str(" The convoy is disrupted: the fleet is dislodged.");
            }
            Some(Outcome::Fails(Failure::Paradox)) => {
                t.push_str(" The orders form a convoy paradox. ");
                t.push_str(&paradox_rule(self.r.rules));
                let _ = write!(t, " So {} fails.", self.doing(army));
            }
            Some(Outcome::Invalid(_)) => {
                let _ = write!(t, " {}.", self.ordered(army));
            }
            _ => {}
        }
        if self.in_paradox(f) {
            t.push_str(" The orders form a convoy paradox. ");
            t.push_str(&paradox_rule(self.r.rules));
        }
    }

    // ---- retreat ------------------------------------------------------------------

    fn retreat(&self, province: Option<Prov>) -> Vec<String> {
        let map = self.map;
        let mut items: Vec<((bool, Option<Power>), String)> = Vec::new();
        for (k, res) in self.r.orders().iter().enumerate() {
            let o = &self.r.input[k];
            if let Some(p) = province {
                let here = o.unit.is_some_and(|u| map.prov_of(u.loc) == p)
                    || res.unit.is_some_and(|u| self.prov(u) == p);
                let there = matches!(o.kind, OrderKind::Move { to, .. } if map.prov_of(to) == p);
                if !here && !there {
                    continue;
                }
            }
            let mut t = format!("{}: {}", self.power_name(res.power), self.heading(k));
            let gone = |u: usize| self.r.is_destroyed(u);
            match &res.outcome {
                Outcome::Succeeds => match (o.kind, res.to, res.unit) {
                    (OrderKind::Move { .. }, Some(to), _) => {
                        let _ = write!(t, " succeeds: the unit retreats to {}.", map.loc_name(to));
                    }
                    (_, _, Some(u)) if gone(u) => {
                        t.push_str(" succeeds: the unit is disbanded.");
                    }
                    _ => t.push_str(" succeeds."),
                },
                Outcome::Fails(Failure::RetreatClash { with }) => {
                    let others: Vec<String> = with.iter().map(|&u| self.doing(u)).collect();
                    let _ = write!(
                        t,
                        " fails: {} retreated to the same province. Units that retreat to \
                         the same province are all destroyed.",
                        and_list(&others)
                    );
                }
                Outcome::Illegal(i) => {
                    let _ = write!(t, " is illegal: {}.", i.describe(map));
                    match res.unit {
                        Some(u)
                            if gone(u)
                                && !self.r.orders().iter().any(|x| {
                                    x.unit == Some(u) && !matches!(x.outcome, Outcome::Illegal(_))
                                }) =>
                        {
                            t.push_str(
                                " A dislodged unit without a legal retreat order is destroyed.",
                            )
                        }
                        _ => {}
                    }
                }
                other => {
                    let _ = write!(t, " {}.", other.word());
                }
            }
            let key = super::power_first(res.power);
            items.push((key, t));
        }
        for u in 0..self.r.units().len() {
            let ordered = self.r.orders().iter().any(|o| o.unit == Some(u));
            if !ordered && province.is_none_or(|p| self.prov(u) == p) {
                let t = format!(
                    "{}: {} had no retreat order and is destroyed.",
                    map.power(self.power(u)).name,
                    self.unit(u)
                );
                items.push((super::power_first(Some(self.power(u))), t));
            }
        }
        items.sort_by_key(|&(key, _)| key);
        items.into_iter().map(|(_, t)| t).collect()
    }

    // ---- adjustment ---------------------------------------------------------------

    /// The adjustment phase: each power's orders with their outcomes, then what the
    /// judge did for it (civil disorder, builds waived, saved builds lost), under a line
    /// saying what it owed; orders that name no power come last.
    fn adjustment(&self, province: Option<Prov>) -> Vec<String> {
        let map = self.map;
        let r = self.r;
        let Some(a) = r.adjustment() else {
            return Vec::new();
        };
        let owed = owed_checked(map, &r.owners_before, r.units(), &r.saved_before);
        let mut out = Vec::new();
        for pw in map.power_ids() {
            let mut items = self.adjustment_orders(Some(pw), province);
            let o = &owed[pw.0 as usize];
            items.extend(self.adjustment_notes(a, o, province));
            if items.is_empty() {
                continue;
            }
            if o.saved > 0 {
                items.insert(
                    0,
                    format!(
                        "{} saved {} build{} last winter: up to {} unit{} may be built in centres it owns that are not home centres.",
                        map.power(pw).name,
                        o.saved,
                        if o.saved == 1 { "" } else { "s" },
                        o.saved,
                        if o.saved == 1 { "" } else { "s" },
                    ),
                );
            }
            let what = match o.change {
                0 => "neither builds nor removes".to_string(),
                d if d > 0 => format!("may build {d}"),
                d => format!("must remove {}", -d),
            };
            out.push(format!(
                "{} owns {} and has {}: it {what}.",
                map.power(pw).name,
                count(o.centres, "supply centre"),
                count(o.units, "unit"),
            ));
            out.extend(items);
        }
        out.extend(self.adjustment_orders(None, province));
        out
    }

    /// The adjustment orders given for `pw` (`None`: for no power), each with its
    /// outcome in words; with `province`, only those about it.
    fn adjustment_orders(&self, pw: Option<Power>, province: Option<Prov>) -> Vec<String> {
        let map = self.map;
        let r = self.r;
        let in_prov = |l: Loc| province.is_none_or(|p| map.prov_of(l) == p);
        let mut items = Vec::new();
        for (k, res) in r.orders().iter().enumerate() {
            if res.power != pw {
                continue;
            }
            let o = &r.input[k];
            let loc = res.to.or(o.unit.map(|u| u.loc));
            if province.is_some() && !loc.is_some_and(in_prov) {
                continue;
            }
            let mut t = format!("{}: {}", self.power_name(pw), self.heading(k));
            match &res.outcome {
                Outcome::Illegal(i) => {
                    let _ = write!(t, " is illegal: {}.", i.describe(map));
                }
                Outcome::Succeeds => match o.kind {
                    OrderKind::Save => t.push_str(
                        " succeeds: one build is not used now, and may be used next winter \
                         in a centre that is not a home centre.",
                    ),
                    OrderKind::Build
                        if map.build_rule == BuildRule::Colonial
                            && res
                                .to
                                .is_some_and(|l| map.province(map.prov_of(l)).home != pw) =>
                    {
                        t.push_str(" succeeds: the unit is built with a build saved last winter.")
                    }
                    OrderKind::Build => t.push_str(" succeeds: the unit is built."),
                    OrderKind::Disband => t.push_str(" succeeds: the unit is removed."),
                    OrderKind::Waive => t.push_str(" succeeds: one build is not used."),
                    _ => t.push_str(" succeeds."),
                },
                other => {
                    let _ = write!(t, " {}.", other.word());
                }
            }
            items.push(t);
        }
        items
    }

    /// What the judge did for the power `o` is owed to: its units removed in civil
    /// disorder (4.D.8), its builds waived because none was ordered, its saved builds
    /// lost because none was used.
    fn adjustment_notes(
        &self,
        a: &AdjustmentResult,
        o: &Owed,
        province: Option<Prov>,
    ) -> Vec<String> {
        let map = self.map;
        let r = self.r;
        let pw = o.power;
        let in_prov = |l: Loc| province.is_none_or(|p| map.prov_of(l) == p);
        let mut items = Vec::new();
        let cd: Vec<(usize, Option<u32>)> = a
            .civil_disorder
            .iter()
            .copied()
            .filter(|&(u, _)| r.units()[u].power == pw && in_prov(r.units()[u].loc))
            .collect();
        if !cd.is_empty() {
            items.push(self.civil_disorder(pw, &cd));
        }
        let waived = a.waived.iter().find(|w| w.0 == pw).map_or(0, |w| w.1);
        if waived > 0 && province.is_none() {
            items.push(format!(
                "{}: {waived} build{} not ordered and {} waived.",
                map.power(pw).name,
                if waived == 1 { " was" } else { "s were" },
                if waived == 1 { "is" } else { "are" }
            ));
        }
        if o.saved > 0 && province.is_none() {
            let used = a
                .built
                .iter()
                .filter(|u| u.power == pw && map.province(map.prov_of(u.loc)).home != Some(pw))
                .count();
            let lost = o.saved.saturating_sub(used);
            if lost > 0 {
                items.push(format!(
                    "{}: {lost} build{} saved last winter {} not used and {} lost.",
                    map.power(pw).name,
                    if lost == 1 { "" } else { "s" },
                    if lost == 1 { "is" } else { "are" },
                    if lost == 1 { "is" } else { "are" },
                ));
            }
        }
        items
    }

    /// The civil-disorder removals of one power, with their distances and the rule.
    fn civil_disorder(&self, pw: Power, cd: &[(usize, Option<u32>)]) -> String {
        let map = self.map;
        let r = self.r;
        let Some(a) = r.adjustment() else {
            return String::new();
        };
        let ordered = a
            .removed
            .iter()
            .filter(|&&u| r.units()[u].power == pw)
            .count();
        let all = a
            .civil_disorder
            .iter()
            .filter(|&&(u, _)| r.units()[u].power == pw)
            .count();
        let units = |n: usize| {
            if n == 1 {
                "1 unit is".to_string()
            } else {
                format!("{n} units are")
            }
        };
        let mut t = if ordered == 0 {
            format!(
                "{} ordered no removal, so {} removed in civil disorder.",
                map.power(pw).name,
                units(all)
            )
        } else {
            format!(
                "{} ordered {ordered} of its {} removals, so {} removed in civil disorder.",
                map.power(pw).name,
                ordered + all,
                units(all)
            )
        };
        t.push(' ');
        t.push_str(&civil_disorder_rule(r.rules));
        let dist = unit_distances(map, &r.owners_before, r.units(), pw, r.rules);
        let centre = match r.rules.civil_disorder {
            CivilDisorder::OwnedCentresAnyPath => "owned",
            CivilDisorder::HomeCentresByUnitType => "home",
        };
        let kept: Vec<usize> = (0..r.units().len())
            .filter(|&u| {
                r.units()[u].power == pw
                    && !a.removed.contains(&u)
                    && !a.civil_disorder.iter().any(|&(x, _)| x == u)
            })
            .collect();
        let far = |d: Option<u32>| match d {
            Some(d) => format!("{} from the nearest {centre} supply centre", steps(d)),
            None => format!("no {centre} supply centre can be reached"),
        };
        for &(u, d) in cd {
            let _ = write!(t, " {} is removed: {}", self.unit(u), far(d));
            let tied: Vec<usize> = kept.iter().copied().filter(|&x| dist[x] == d).collect();
            let is_fleet = r.units()[u].kind == UnitKind::Fleet;
            let armies: Vec<String> = tied
                .iter()
                .filter(|&&x| r.units()[x].kind == UnitKind::Army)
                .map(|&x| self.unit(x))
                .collect();
            let same: Vec<String> = tied
                .iter()
                .filter(|&&x| r.units()[x].kind == r.units()[u].kind)
                .map(|&x| self.unit(x))
                .collect();
            if is_fleet && !armies.is_empty() {
                let _ = write!(
                    t,
                    "; {} is as far, but a fleet goes before an army",
                    and_list(&armies)
                );
            }
            if !same.is_empty() {
                let _ = write!(
                    t,
                    "; {} {} as far, and {} comes first alphabetically",
                    and_list(&same),
                    if same.len() == 1 { "is" } else { "are" },
                    map.province(self.prov(u)).name
                );
            }
            t.push('.');
        }
        let kept_words: Vec<String> = kept
            .iter()
            .map(|&u| {
                let d = dist[u];
                format!(
                    "{} ({})",
                    self.unit(u),
                    d.map_or("no owned centre".to_string(), steps)
                )
            })
            .collect();
        if !kept_words.is_empty() {
            let _ = write!(t, " Kept: {}.", and_list(&kept_words));
        }
        t
    }
}

#[cfg(test)]
mod tests {
    //! The strengths derived here from the outcomes must agree with the resolver's:
    //! checked over every case under `test-cases/`.

    use super::*;
    use crate::cases::parse_cases;
    use crate::game::advance;

    fn case_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).expect("test-cases/") {
            let p = e.expect("an entry").path();
            if p.is_dir() {
                case_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "yaml") {
                out.push(p);
            }
        }
    }

    #[test]
    fn derived_strengths_agree_with_the_resolver() {
        let map = Map::standard();
        let mut files = Vec::new();
        case_files(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("test-cases"),
            &mut files,
        );
        let mut moves = 0;
        for f in files {
            let text = std::fs::read_to_string(&f).expect("a case file");
            for case in parse_cases(&text).expect("cases") {
                let Ok(p) = case.prepare(&map) else { continue };
                let (r, _) = advance(&map, p.rules, &p.position, &p.orders, None).unwrap();
                if r.phase.kind != PhaseKind::Movement {
                    continue;
                }
                let b = Board::new(&map, &r);
                for m in 0..r.units().len() {
                    if b.dest(m).is_none() || !b.path(m) {
                        continue;
                    }
                    moves += 1;
                    let best = b
                        .oppositions(m)
                        .iter()
                        .map(|o| o.strength)
                        .max()
                        .unwrap_or(0);
                    match b.outcome(m) {
                        Some(Outcome::Succeeds) => assert!(
                            b.attack(m) > best,
                            "{}: {} succeeds with {} against {best}",
                            case.id,
                            b.unit(m),
                            b.attack(m)
                        ),
                        Some(Outcome::Fails(Failure::Bounced { attack, against })) => {
                            assert_eq!(b.attack(m), *attack, "{}: {}", case.id, b.unit(m));
                            let mine = b.oppositions(m);
                            for o in against {
                                assert!(
                                    mine.contains(o),
                                    "{}: {} against {o:?}, derived {mine:?}",
                                    case.id,
                                    b.unit(m)
                                );
                            }
                            assert!(*attack == 0 || *attack <= best, "{}", case.id);
                        }
                        _ => {}
                    }
                }
            }
        }
        assert!(moves > 200, "only {moves} moves checked");
    }
}
