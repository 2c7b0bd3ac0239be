//! The movement resolver: DATC v3.0 chapter 5. Every move, support and convoy is a
//! yes/no decision (5.A); [`Resolver::evaluate`] evaluates one from the others by
//! the equations of 5.B (the DATC's "adjudicate"), [`Resolver::decide`] caches,
//! detects cycles and guesses (fail, then succeed) as in 5.F (the DATC's "resolve");
//! the names here keep those two words for the phase functions ([`resolve`],
//! `judge::adjudicate`). A cycle with two or no solutions gets the backup rule of
//! 5.B.9 (circular movement succeeds; with a convoy, Szykman). Attacks on a convoying
//! fleet are evaluated with `evaluate`, not `decide` (5.D), so every cycle is a clean
//! single one. Before the search, [`Resolver::decide_alone`] decides
//! the decisions that rest on no other.
//!
//! [`resolve`] runs the phase in stages: the tables ([`Resolver::new`]), the decisions
//! decided alone, the search over the rest, then what follows from the decisions:
//! where every unit ends, the standoffs, the dislodged units with their retreats, and
//! each order's outcome with its cause. Orders are never processed in a fixed
//! sequence: every list the resolver walks is kept in province order.

// Inline hints: the strengths of 5.B and the read of a decided decision are
// `#[inline(always)]` or `#[inline]`, and the search `#[inline(never)]`: measured, without
// them the resolver-heavy benches (benches/adjudicate.rs, the world1914 phases) ran well
// over the readability budget.

// Indexing is by dense ids and by positions in vectors built here, never by raw
// input. Prov/Loc/Power ids come from the map loader (which builds every adjacency
// table from validated ids) or from a position and orders whose ids `state::check_ids`
// (at the entry of `advance`) or `check_unit_ids` (of `adjudicate`: the units and
// orders, all a movement phase reads) validated; the public phase functions
// re-exported from `judge` take ids of the `map` they are given, the contract
// `advance` checks. Unit and order indices are positions in the vectors this
// phase built (one entry per unit, per order). An out-of-range index is a bug, not
// input.
#![allow(clippy::indexing_slicing)]

use super::convoy;
use super::legality::{Checked, Eff, UnitId};
use super::outcome::{Failure, Opposition, Outcome, Strength, Void};
use super::{MovementResult, ParadoxRule, Rules, Strengths};
use crate::map::{Loc, Map, Power, Prov, ProvSet, UnitKind};
use crate::state::Dislodged;
use crate::state::{Position, Unit};
use std::cell::Cell;

/// How a move goes (DATC 4.A.3, as the edition decides it).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Way {
    Land,
    Convoy,
    /// By convoy if its convoy route holds, else by land (the 1971 reading of 4.A.3).
    ConvoyElseLand,
}

/// Where a move goes and how.
#[derive(Clone, Copy)]
struct Dest {
    prov: Prov,
    way: Way,
}

/// What a unit's order is, fixed once the tables are built.
#[derive(Clone, Copy)]
struct Ordered {
    /// The province the unit is in.
    prov: Prov,
    /// Where it moves, if it moves.
    dest: Option<Dest>,
    /// The unit in the province it moves to.
    opp: Option<UnitId>,
    /// A support that matches what the supported unit does.
    matched: bool,
    /// A fleet whose convoy order matches an army's move.
    convoying: bool,
    /// The list its order puts it in, besides the units moving where it moves.
    joins: Option<Joins>,
}

/// The list a support or a convoy joins: a matching support is one of its supported
/// unit's supporters; a matching convoy of a move by convoy, one of its army's fleets.
#[derive(Clone, Copy)]
enum Joins {
    SupportersOf(UnitId),
    ConvoyersOf(UnitId),
}

/// A depth on the resolve stack. Each decision is on the stack at most once, so a
/// depth is less than the number of units, which fits in `u16` as a unit id does; the
/// smaller type keeps [`Node`] small (measured, the node table is built faster).
type Depth = u16;

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Unresolved,
    Visited,
    Resolved,
}

/// The unit's decision (its move, support or convoy succeeds: DATC 5.A) and what
/// the search keeps about it.
#[derive(Clone, Copy)]
struct Decision {
    state: State,
    /// The decision's result (or current guess).
    res: bool,
    /// Failed by the backup rule's paradox (a convoy in a paradoxical cycle).
    paradox: bool,
    /// Its depth on the resolve stack while visited.
    depth: Depth,
    /// Left open in a cycle that is not decided yet, resting on the guess made at this
    /// stack depth.
    open_in_cycle: Option<Depth>,
    /// Whether its convoy route holds, kept once every fleet convoying it is resolved
    /// (a resolved decision never changes).
    route: Option<bool>,
    /// Once every decision is resolved ([`Resolver::settled`]): its prevent strength.
    prevent: Option<u8>,
    /// Once every decision is resolved ([`Resolver::where_units_end`]): the unit that
    /// dislodged it.
    dislodged_by: Option<UnitId>,
}

/// The lists a unit belongs to or heads, linked through the units (`None` ends a
/// list; see [`insert`]).
#[derive(Clone, Copy, Default)]
struct Links {
    /// The next unit moving to the same province.
    next_mover: Option<UnitId>,
    /// The first unit supporting this one (a matching support).
    first_sup: Option<UnitId>,
    /// The next unit supporting the same unit.
    next_sup: Option<UnitId>,
    /// The first fleet convoying this move (a matching convoy).
    first_conv: Option<UnitId>,
    /// The next fleet convoying the same army.
    next_conv: Option<UnitId>,
}

/// What the resolver knows and keeps per unit.
#[derive(Clone, Copy)]
struct Node {
    order: Ordered,
    decision: Decision,
    links: Links,
}

impl Node {
    /// A unit's node once its order is read: its decision not made yet, in no list.
    fn new(order: Ordered) -> Node {
        Node {
            order,
            decision: Decision {
                state: State::Unresolved,
                res: false,
                paradox: false,
                depth: 0,
                open_in_cycle: None,
                route: None,
                prevent: None,
                dislodged_by: None,
            },
            links: Links::default(),
        }
    }
}

/// Which of a unit's lists a link field belongs to (see [`Links`]): the list of
/// units moving to one province, of a unit's supporters, of a move's convoying fleets.
#[derive(Clone, Copy)]
enum Link {
    Mover,
    Supporter,
    Convoyer,
}

impl Link {
    /// The next unit after a unit with these links in its list of this kind.
    fn after(self, links: &Links) -> Option<UnitId> {
        match self {
            Link::Mover => links.next_mover,
            Link::Supporter => links.next_sup,
            Link::Convoyer => links.next_conv,
        }
    }

    /// The field of `links` holding the next unit of its list of this kind.
    fn next(self, links: &mut Links) -> &mut Option<UnitId> {
        match self {
            Link::Mover => &mut links.next_mover,
            Link::Supporter => &mut links.next_sup,
            Link::Convoyer => &mut links.next_conv,
        }
    }
}

/// The units of the list that begins with `first`, in order. A walk that resolves
/// decisions on the way needs the resolver itself and follows the links by hand
/// ([`Resolver::after`]).
#[inline]
fn members(node: &[Node], first: Option<UnitId>, link: Link) -> impl Iterator<Item = usize> + '_ {
    std::iter::successors(first, move |&u| link.after(&node[u.index()].links)).map(UnitId::index)
}

/// Add unit `s` to the list that begins with `head` and return the list's new first
/// unit. A list is kept in the order of its units' provinces, not of the units:
/// whatever reads a list first (the cutter named for a cut support, the order of
/// oppositions) is then the same however the input is listed. Lists are short (the
/// units moving to one province, supporting one unit), so the walk to the place is too.
#[inline]
fn insert(node: &mut [Node], head: Option<UnitId>, s: UnitId, link: Link) -> UnitId {
    let p = node[s.index()].order.prov;
    let Some(head) = head.filter(|&h| node[h.index()].order.prov <= p) else {
        *link.next(&mut node[s.index()].links) = head;
        return s;
    };
    let mut cur = head;
    loop {
        match link.after(&node[cur.index()].links) {
            Some(next) if node[next.index()].order.prov <= p => cur = next,
            next => {
                *link.next(&mut node[s.index()].links) = next;
                *link.next(&mut node[cur.index()].links) = Some(s);
                return head;
            }
        }
    }
}

/// The province support order `e` supports a move into (`None`: a hold support).
fn aimed(e: Eff) -> Option<Prov> {
    match e {
        Eff::SupMove { to, .. } => Some(to),
        _ => None,
    }
}

/// How a search of one decision ended ([`Resolver::guess`]).
enum Searched {
    /// The decision is resolved to this.
    Decided(bool),
    /// Its result rests on the guess made at this stack depth, further up: it is left
    /// open, in that guess's cycle.
    RestsOn(Depth),
}

struct Resolver<'a> {
    map: &'a Map,
    rules: Rules,
    units: &'a [Unit],
    eff: &'a [Eff],
    unit_at: &'a [Option<UnitId>],
    /// Per unit: its order, its decision and its lists.
    node: Vec<Node>,
    /// Per province: the first unit moving there, the rest linked through
    /// [`Links::next_mover`].
    mover_head: Vec<Option<UnitId>>,
    /// The orders left open in cycles that are not decided yet.
    cycle: Vec<u16>,
    /// The smallest stack depth of a guess read by the current adjudication (`None`:
    /// it read no guess).
    low: Option<Depth>,
    stack_depth: Depth,
    /// The backup rule decided some cycle (no or two resolutions).
    backup_fired: bool,
    /// Every decision is resolved: nothing read from here on changes, so convoy routes
    /// and prevent strengths are kept once computed.
    settled: bool,
}

impl<'a> Resolver<'a> {
    /// The resolver for a checked phase: each unit's order as the resolver reads it,
    /// the supports and convoys matched to what their units do, and the lists linked.
    fn new(
        map: &'a Map,
        rules: Rules,
        units: &'a [Unit],
        eff: &'a [Eff],
        unit_at: &'a [Option<UnitId>],
    ) -> Resolver<'a> {
        let Tables {
            mut node,
            mut mover_head,
            mut cycle,
        } = TABLES.take();
        // Each unit's order, then each unit in the lists it belongs to.
        node.clear();
        node.extend(
            units
                .iter()
                .zip(eff)
                .map(|(unit, &e)| Node::new(ordered(map, eff, unit_at, unit, e))),
        );
        mover_head.clear();
        mover_head.resize(map.province_count(), None);
        for s in 0..units.len() {
            link(&mut node, &mut mover_head, s);
        }
        cycle.clear();
        Resolver {
            map,
            rules,
            units,
            eff,
            unit_at,
            node,
            mover_head,
            cycle,
            low: None,
            stack_depth: 0,
            backup_fired: false,
            settled: false,
        }
    }
}

/// The resolver's tables (see [`Resolver`]), kept by the thread for its next phase so
/// that a phase allocates neither its node table nor its province table. Private to
/// this module: nothing outside it sees or returns them.
#[derive(Default)]
struct Tables {
    node: Vec<Node>,
    mover_head: Vec<Option<UnitId>>,
    cycle: Vec<u16>,
}

thread_local! {
    static TABLES: Cell<Tables> = const {
        Cell::new(Tables {
            node: Vec::new(),
            mover_head: Vec::new(),
            cycle: Vec::new(),
        })
    };
}

impl Resolver<'_> {
    /// Hand the tables back to the thread for its next phase.
    fn give_back_tables(self) {
        TABLES.set(Tables {
            node: self.node,
            mover_head: self.mover_head,
            cycle: self.cycle,
        });
    }
}

/// What the order `e` of `unit` is: where it moves and
/// how, and whether its support or convoy matches what the unit it names does. A
/// support must match the supported unit's order, the coast it named included
/// (6.B.9); a convoy must match the army's move.
#[inline]
fn ordered(map: &Map, eff: &[Eff], unit_at: &[Option<UnitId>], unit: &Unit, e: Eff) -> Ordered {
    let mut order = Ordered {
        prov: map.prov_of(unit.loc),
        dest: None,
        opp: None,
        matched: false,
        convoying: false,
        joins: None,
    };
    match e {
        Eff::SupHold { target } => {
            order.matched = !matches!(eff[target as usize], Eff::Move { .. });
            order.joins = order
                .matched
                .then(|| Joins::SupportersOf(UnitId::new(target as usize)));
        }
        Eff::SupMove { target, to, coast } => {
            order.matched = matches!(
                eff[target as usize],
                Eff::Move { to: mt, .. } if map.prov_of(mt) == to && coast.is_none_or(|c| c == mt)
            );
            order.joins = order
                .matched
                .then(|| Joins::SupportersOf(UnitId::new(target as usize)));
        }
        Eff::Convoy { army, to } => {
            if let Eff::Move { to: mt, convoy, .. } = eff[army as usize] {
                order.convoying = map.prov_of(mt) == to;
                order.joins = (order.convoying && convoy)
                    .then(|| Joins::ConvoyersOf(UnitId::new(army as usize)));
            }
        }
        Eff::Move {
            to,
            convoy,
            fallback,
        } => {
            let prov = map.prov_of(to);
            let way = match (convoy, fallback) {
                (false, _) => Way::Land,
                (true, false) => Way::Convoy,
                (true, true) => Way::ConvoyElseLand,
            };
            order.dest = Some(Dest { prov, way });
            order.opp = unit_at[prov.0 as usize];
        }
        Eff::Hold => {}
    }
    order
}

/// Put unit `s` in the lists its order puts it in ([`Ordered::joins`]), and a move in
/// the list of the province it enters.
fn link(node: &mut [Node], mover_head: &mut [Option<UnitId>], s: usize) {
    let id = UnitId::new(s);
    let order = node[s].order;
    match order.joins {
        Some(Joins::SupportersOf(t)) => {
            let t = t.index();
            let head = node[t].links.first_sup;
            node[t].links.first_sup = Some(insert(node, head, id, Link::Supporter));
        }
        Some(Joins::ConvoyersOf(a)) => {
            let a = a.index();
            let head = node[a].links.first_conv;
            node[a].links.first_conv = Some(insert(node, head, id, Link::Convoyer));
        }
        None => {}
    }
    if let Some(d) = order.dest {
        let p = d.prov.0 as usize;
        mover_head[p] = Some(insert(node, mover_head[p], id, Link::Mover));
    }
}

impl Resolver<'_> {
    #[inline]
    fn dest(&self, u: usize) -> Option<Dest> {
        self.node[u].order.dest
    }

    /// The unit after `u` in its list of kind `link`.
    #[inline]
    fn after(&self, u: usize, link: Link) -> Option<usize> {
        link.after(&self.node[u].links).map(UnitId::index)
    }

    /// The first unit moving to `p`.
    #[inline]
    fn first_mover(&self, p: Prov) -> Option<usize> {
        self.mover_head[p.0 as usize].map(UnitId::index)
    }

    /// The unit in province `p`.
    #[inline]
    fn unit_in(&self, p: Prov) -> Option<usize> {
        self.unit_at[p.0 as usize].map(UnitId::index)
    }

    /// Once resolved: did unit `m` move?
    #[inline]
    fn moved(&self, m: usize) -> bool {
        self.dest(m).is_some() && self.node[m].decision.res
    }

    /// Does move `m` go by convoy? A move that may fall back to land (the 1971
    /// reading of 4.A.3) goes by convoy only if its convoy route holds.
    #[inline(always)]
    fn by_convoy(&mut self, m: usize) -> bool {
        match self.dest(m).map(|d| d.way) {
            Some(Way::ConvoyElseLand) => self.convoy_route(m),
            Some(Way::Convoy) => true,
            Some(Way::Land) | None => false,
        }
    }

    /// Per unit: its move went by convoy. Most phases have no move by convoy at all,
    /// and then no route is asked for.
    fn convoyed(&mut self) -> Vec<bool> {
        let n = self.units.len();
        let any = (0..n).any(|m| self.dest(m).is_some_and(|d| d.way != Way::Land));
        if any {
            (0..n).map(|m| self.by_convoy(m)).collect()
        } else {
            // Not `vec![false; n]`: a zeroed allocation takes the allocator's slow path.
            std::iter::repeat_n(false, n).collect()
        }
    }

    /// The unit opposing `m` head to head, if any (DATC 5.B.1): the unit in the
    /// province `m` moves to moves to the province of `m`, and neither goes by convoy.
    #[inline(always)]
    fn head_to_head(&mut self, m: usize) -> Option<usize> {
        let o = self.node[m].order.opp?.index();
        let swap = self
            .dest(o)
            .is_some_and(|d| d.prov == self.node[m].order.prov);
        if !swap || self.by_convoy(m) || self.by_convoy(o) {
            return None;
        }
        Some(o)
    }

    /// Unit `m` (moving into the province of supporting unit `s`) cuts the support if it
    /// arrives there by its path (5.B.2): it belongs to another power and does not come
    /// from the province the support goes to.
    #[inline]
    fn cuts_by_path(&self, s: usize, m: usize) -> bool {
        self.units[m].power != self.units[s].power
            && aimed(self.eff[s]) != Some(self.node[m].order.prov)
    }

    /// Decide decision `u` (the DATC's "resolve"): its result at once when it is
    /// decided already (the
    /// common case, read inline by every strength), else [`Resolver::search`].
    #[inline]
    fn decide(&mut self, u: usize) -> bool {
        let decision = self.node[u].decision;
        if decision.state == State::Resolved {
            return decision.res;
        }
        self.search(u)
    }

    /// The current adjudication read a guess made at stack depth `depth`.
    fn read_guess(&mut self, depth: Depth) {
        self.low = Some(self.low.map_or(depth, |low| low.min(depth)));
    }

    /// Resolve decision `u` (DATC 5.F, the guess algorithm), with cycle membership
    /// tracked as in Tarjan's strongly connected components: `low` is the smallest
    /// stack depth of a guess the current adjudication read. An order whose result
    /// rests on a guess made further up the stack is left unresolved (it belongs to
    /// that order's cycle); only the order that made every guess below it (the
    /// ancestor of the whole cycle) tries its second guess, and only when both guesses
    /// disagree (no or two resolutions) does the backup rule fire.
    #[inline(never)]
    fn search(&mut self, u: usize) -> bool {
        let decision = self.node[u].decision;
        match decision.state {
            State::Resolved => return decision.res,
            // A cyclic dependency: read this order's current guess.
            State::Visited => {
                self.read_guess(decision.depth);
                return decision.res;
            }
            State::Unresolved => {
                // Left unresolved earlier in a cycle that is still open.
                if let Some(depth) = decision.open_in_cycle {
                    self.read_guess(depth);
                    return decision.res;
                }
            }
        }
        self.node[u].decision.state = State::Visited;
        self.node[u].decision.depth = self.stack_depth;
        self.stack_depth += 1;
        let old_low = self.low;
        let old_cycle_len = self.cycle.len();
        let searched = self.guess(u, old_cycle_len);
        self.stack_depth -= 1;
        self.low = old_low;
        match searched {
            Searched::Decided(r) => r,
            Searched::RestsOn(depth) => {
                // Leave it open, in the cycle of the guess it rests on.
                let decision = &mut self.node[u].decision;
                decision.open_in_cycle = Some(depth);
                decision.state = State::Unresolved;
                let res = decision.res;
                self.cycle.push(u as u16);
                self.read_guess(depth);
                res
            }
        }
    }

    /// Adjudicate `u` under the guess `false`, then (if it is the ancestor of its
    /// cycle) under `true` (DATC 5.F). When the two guesses disagree, the cycle has no
    /// or two resolutions and the backup rule decides it (5.B.9).
    fn guess(&mut self, u: usize, old_cycle_len: usize) -> Searched {
        let depth = self.node[u].decision.depth;
        self.low = None;
        self.node[u].decision.res = false;
        let first = self.evaluate(u);
        let Some(low) = self.low else {
            self.settle(u, first, old_cycle_len);
            return Searched::Decided(first);
        };
        if low < depth {
            self.node[u].decision.res = first;
            return Searched::RestsOn(low);
        }
        // `u` is the ancestor of the whole cycle: reopen the cycle, try the other guess.
        self.reopen(old_cycle_len);
        self.low = None;
        self.node[u].decision.res = true;
        let second = self.evaluate(u);
        if let Some(low) = self.low.filter(|&low| low < depth) {
            self.node[u].decision.res = second;
            return Searched::RestsOn(low);
        }
        if first == second {
            self.settle(u, first, old_cycle_len);
            return Searched::Decided(first);
        }
        // No resolution or two: the backup rule decides the cycle.
        self.backup_rule(u, old_cycle_len);
        self.reopen(old_cycle_len);
        self.backup_fired = true;
        if self.node[u].decision.state == State::Resolved {
            return Searched::Decided(self.node[u].decision.res);
        }
        self.node[u].decision.state = State::Unresolved;
        self.low = None;
        Searched::Decided(self.decide(u))
    }

    /// `u` is decided; orders left open below it are re-resolved when next asked.
    fn settle(&mut self, u: usize, r: bool, old_cycle_len: usize) {
        self.reopen(old_cycle_len);
        self.node[u].decision.res = r;
        self.node[u].decision.state = State::Resolved;
    }

    /// Forget the open orders of the cycle above `old_cycle_len`.
    fn reopen(&mut self, old_cycle_len: usize) {
        for &m in &self.cycle[old_cycle_len..] {
            self.node[m as usize].decision.open_in_cycle = None;
        }
        self.cycle.truncate(old_cycle_len);
    }

    /// The backup rule (DATC 5.B.9), for a cycle with two or no solutions: circular
    /// movement succeeds; a cycle with a convoy in it is a paradox and the convoys fail
    /// (Szykman); anything else fails.
    fn backup_rule(&mut self, u: usize, from: usize) {
        // The cycle's members: the open orders above `from`, and `u`.
        let pushed = !self.cycle[from..].contains(&(u as u16));
        if pushed {
            self.cycle.push(u as u16);
        }
        let is_convoy = |e: Eff| matches!(e, Eff::Convoy { .. });
        let members = &self.cycle[from..];
        let convoys = members.iter().any(|&m| is_convoy(self.eff[m as usize]));
        let all_moves = members
            .iter()
            .all(|&m| matches!(self.eff[m as usize], Eff::Move { .. }));
        for i in from..self.cycle.len() {
            let m = self.cycle[i] as usize;
            let decision = &mut self.node[m].decision;
            if convoys {
                if is_convoy(self.eff[m]) {
                    decision.res = false;
                    decision.state = State::Resolved;
                    decision.paradox = true;
                }
            } else {
                decision.res = all_moves;
                decision.state = State::Resolved;
            }
        }
        if pushed {
            self.cycle.pop();
        }
    }

    /// Decide at once the decisions that rest on no other decision, so that the
    /// search never visits them (most orders of a usual phase are such). What
    /// [`Resolver::evaluate`] would find for them is exactly this, under any guess,
    /// so the result of every other decision is the same with or without it.
    fn decide_alone(&mut self) {
        for u in 0..self.eff.len() {
            if let Some(result) = self.decided_alone(u) {
                self.node[u].decision.res = result;
                self.node[u].decision.state = State::Resolved;
            }
        }
    }

    /// What decision `u` is whatever the other decisions are, if that is known from the
    /// orders alone (`None`: it rests on other decisions).
    #[inline]
    fn decided_alone(&self, u: usize) -> Option<bool> {
        match self.eff[u] {
            Eff::Hold => None,
            Eff::SupHold { .. } | Eff::SupMove { .. } => self.support_alone(u),
            Eff::Convoy { .. } => self.convoy_alone(u),
            Eff::Move { .. } => self.move_alone(u),
        }
    }

    /// DATC 5.B.2 for support `s`, where it rests on no decision: a support that does
    /// not match fails; one whose province no unit moves to succeeds (nothing can cut
    /// or dislodge it); one that a move by land from another power attacks, not from
    /// where the support goes, is cut (the move has its path).
    #[inline]
    fn support_alone(&self, s: usize) -> Option<bool> {
        if !self.node[s].order.matched {
            return Some(false);
        }
        let first = self.mover_head[self.node[s].order.prov.0 as usize];
        if first.is_none() {
            return Some(true);
        }
        let cut = members(&self.node, first, Link::Mover)
            .any(|m| self.dest(m).is_some_and(|d| d.way == Way::Land) && self.cuts_by_path(s, m));
        cut.then_some(false)
    }

    /// DATC 5.B.3 for convoy `c`, where it rests on no decision: no unit moves to its
    /// province, so none dislodges the fleet and it succeeds.
    #[inline]
    fn convoy_alone(&self, c: usize) -> Option<bool> {
        self.mover_head[self.node[c].order.prov.0 as usize]
            .is_none()
            .then_some(true)
    }

    /// DATC 5.B.1 for move `m`, where it rests on no decision. Only a move by land is
    /// decided alone (its path holds and its attack strength is at least 1):
    ///
    /// - to an empty province no other unit moves to, it meets no hold, defend or
    ///   prevent strength, so it succeeds;
    /// - with no matching support, its attack strength is at most 1, so it fails
    ///   against a unit that does not move (hold strength at least 1) or, into an
    ///   empty province, against another move by land there (prevent strength at
    ///   least 1).
    #[inline]
    fn move_alone(&self, m: usize) -> Option<bool> {
        let Some(Dest {
            prov,
            way: Way::Land,
        }) = self.dest(m)
        else {
            return None;
        };
        let order = self.node[m].order;
        let first = self.mover_head[prov.0 as usize];
        // The only unit moving there: the first and the last of the list.
        let only_mover = first == Some(UnitId::new(m)) && self.node[m].links.next_mover.is_none();
        if order.opp.is_none() && only_mover {
            return Some(true);
        }
        if self.node[m].links.first_sup.is_some() {
            return None;
        }
        match order.opp {
            Some(o) if self.dest(o.index()).is_some() => None,
            Some(_) => Some(false),
            None => members(&self.node, first, Link::Mover)
                .any(|o| o != m && self.dest(o).is_some_and(|d| d.way == Way::Land))
                .then_some(false),
        }
    }

    /// Evaluate decision `u` from the current values of the others (DATC 5.B; the
    /// DATC's "adjudicate").
    fn evaluate(&mut self, u: usize) -> bool {
        match self.eff[u] {
            Eff::Move { .. } => self.move_succeeds(u),
            Eff::SupHold { .. } | Eff::SupMove { .. } => {
                self.node[u].order.matched && self.cutter(u).is_none()
            }
            Eff::Convoy { .. } => self.convoy_succeeds(u),
            Eff::Hold => true,
        }
    }

    /// DATC 5.B.3: convoy `c` succeeds unless a unit moves into its province. The
    /// attacks on the fleet are adjudicated, not resolved (5.D).
    fn convoy_succeeds(&mut self, c: usize) -> bool {
        let mut next = self.first_mover(self.node[c].order.prov);
        while let Some(m) = next {
            if self.evaluate(m) {
                return false;
            }
            next = self.after(m, Link::Mover);
        }
        true
    }

    /// PATH (DATC 5.B.4): the move is not convoyed (or may fall back to land), or a
    /// chain of fleets whose convoys succeed joins its origin and destination.
    #[inline(always)]
    fn path(&mut self, m: usize) -> bool {
        match self.dest(m) {
            Some(Dest {
                way: Way::Convoy, ..
            }) => self.convoy_route(m),
            _ => true,
        }
    }

    /// Convoyed move `m` is void: no chain of fleets ordered to convoy it (whether
    /// their convoys succeed or not) joins its origin and destination.
    #[inline]
    fn void_convoy(&self, m: usize) -> bool {
        let Some(Dest { prov: d, way }) = self.dest(m) else {
            return false;
        };
        if way == Way::Land {
            return false;
        }
        let fleets: ProvSet = members(&self.node, self.node[m].links.first_conv, Link::Convoyer)
            .map(|f| self.node[f].order.prov)
            .collect();
        !convoy::route_exists(self.map, &fleets, self.node[m].order.prov, d)
    }

    /// A chain of fleets whose convoys succeed joins the origin and destination of
    /// convoyed move `m`.
    fn convoy_route(&mut self, m: usize) -> bool {
        let Some(Dest { prov: d, way }) = self.dest(m) else {
            return false;
        };
        if way == Way::Land {
            return false;
        }
        if let Some(route) = self.node[m].decision.route {
            return route;
        }
        let mut fleets = ProvSet::EMPTY;
        // Every convoy read is decided (none is a guess of an open cycle).
        let mut decided = true;
        let mut next = self.node[m].links.first_conv.map(UnitId::index);
        while let Some(f) = next {
            if self.decide(f) {
                fleets.insert(self.node[f].order.prov);
            }
            decided &= self.node[f].decision.state == State::Resolved;
            next = self.after(f, Link::Convoyer);
        }
        let route = !fleets.is_empty()
            && convoy::route_exists(self.map, &fleets, self.node[m].order.prov, d);
        if decided {
            self.node[m].decision.route = Some(route);
        }
        route
    }

    /// The successful supports of unit `u`, those of power `not_of` left out.
    #[inline(always)]
    fn support_count(&mut self, u: usize, not_of: Option<Power>) -> u8 {
        let mut n = 0;
        let mut next = self.node[u].links.first_sup.map(UnitId::index);
        while let Some(s) = next {
            if not_of.is_none_or(|p| self.units[s].power != p) && self.decide(s) {
                n += 1;
            }
            next = self.after(s, Link::Supporter);
        }
        n
    }

    /// The ATTACK STRENGTH of move `m` (DATC 5.B.8).
    #[inline(always)]
    fn attack(&mut self, m: usize) -> u8 {
        if !self.path(m) {
            return 0;
        }
        let Some(o) = self.node[m].order.opp.map(UnitId::index) else {
            return 1 + self.support_count(m, None);
        };
        let h2h = self.head_to_head(m).is_some();
        if !h2h && self.dest(o).is_some() && self.decide(o) {
            return 1 + self.support_count(m, None);
        }
        if self.units[o].power == self.units[m].power {
            return 0;
        }
        1 + self.support_count(m, Some(self.units[o].power))
    }

    /// The DEFEND STRENGTH of move `m` (DATC 5.B.7).
    #[inline(always)]
    fn defend(&mut self, m: usize) -> u8 {
        1 + self.support_count(m, None)
    }

    /// The PREVENT STRENGTH of move `m` (DATC 5.B.6), kept once every decision is
    /// resolved.
    #[inline(always)]
    fn prevent(&mut self, m: usize) -> u8 {
        if !self.settled {
            return self.prevent_now(m);
        }
        if let Some(strength) = self.node[m].decision.prevent {
            return strength;
        }
        let strength = self.prevent_now(m);
        self.node[m].decision.prevent = Some(strength);
        strength
    }

    /// [`Resolver::prevent`], computed.
    #[inline(always)]
    fn prevent_now(&mut self, m: usize) -> u8 {
        if !self.path(m) {
            return 0;
        }
        if let Some(o) = self.head_to_head(m) {
            if self.decide(o) {
                return 0;
            }
        }
        1 + self.support_count(m, None)
    }

    /// The HOLD STRENGTH of province `p` (DATC 5.B.5).
    #[inline(always)]
    fn hold(&mut self, p: Prov) -> u8 {
        let Some(o) = self.unit_in(p) else {
            return 0;
        };
        if self.dest(o).is_some() {
            return if self.decide(o) { 0 } else { 1 };
        }
        1 + self.support_count(o, None)
    }

    /// MOVE (DATC 5.B.1): the attack strength of `m` beats the defend strength of the
    /// unit it meets head to head, or else the hold strength of its destination, and
    /// the prevent strength of every other unit moving there.
    // `m` is a move: callers reach here only for units whose effective order is
    // `Eff::Move` (they matched it or `dest` returned `Some`), so `dest` cannot fail.
    #[allow(clippy::expect_used)]
    fn move_succeeds(&mut self, m: usize) -> bool {
        let d = self.dest(m).expect("a move").prov;
        let a = self.attack(m);
        if a == 0 {
            return false;
        }
        if let Some(o) = self.head_to_head(m) {
            if a <= self.defend(o) {
                return false;
            }
        } else if a <= self.hold(d) {
            return false;
        }
        let mut next = self.first_mover(d);
        while let Some(o) = next {
            if o != m && a <= self.prevent(o) {
                return false;
            }
            next = self.after(o, Link::Mover);
        }
        true
    }

    /// The unit that cuts support `s`, if any (DATC 5.B.2): a move from another power
    /// that has its path, not from where the support goes; else a move that succeeds
    /// (dislodging the supporter).
    #[inline]
    fn cutter(&mut self, s: usize) -> Option<usize> {
        let first = self.first_mover(self.node[s].order.prov);
        let mut next = first;
        while let Some(m) = next {
            if self.cuts_by_path(s, m) && !self.kept_by_paradox_rule(s, m) && self.path(m) {
                return Some(m);
            }
            next = self.after(m, Link::Mover);
        }
        next = first;
        while let Some(m) = next {
            // The 1971 and 1982 rules take precedence over the dislodge rule (6.F.17).
            if !self.kept_by_paradox_rule(s, m) && self.decide(m) {
                return Some(m);
            }
            next = self.after(m, Link::Mover);
        }
        None
    }

    /// The 1971 and 1982 paradox rules (DATC 4.A.2 a and b): a convoyed army does not
    /// cut this support of fleet `s`. Under the Szykman rule no support is kept.
    #[inline]
    fn kept_by_paradox_rule(&self, s: usize, m: usize) -> bool {
        if self.rules.paradox == ParadoxRule::Szykman
            || self.units[s].kind != UnitKind::Fleet
            || self.units[m].kind != UnitKind::Army
            || !matches!(self.eff[m], Eff::Move { convoy: true, .. })
        {
            return false;
        }
        match self.rules.paradox {
            ParadoxRule::Szykman => false,
            // "supporting an action in a body of water; and that body of water contains
            // a convoying fleet".
            ParadoxRule::SeaSupportNotCut1982 => {
                let at = match self.eff[s] {
                    Eff::SupMove { to, .. } => to,
                    Eff::SupHold { target } => self.node[target as usize].order.prov,
                    _ => return false,
                };
                self.map.is_sea(at)
                    && self
                        .unit_in(at)
                        .is_some_and(|f| self.node[f].order.convoying)
            }
            // "supporting a fleet which is attacking one of the convoy fleets".
            ParadoxRule::ConvoyAttackSupportNotCut1971 => {
                let Eff::SupMove { target, to, .. } = self.eff[s] else {
                    return false;
                };
                if self.units[target as usize].kind != UnitKind::Fleet {
                    return false;
                }
                let Some(f) = self.unit_in(to) else {
                    return false;
                };
                members(&self.node, self.node[m].links.first_conv, Link::Convoyer).any(|c| c == f)
            }
        }
    }
}

/// Where every unit ends the phase, and who dislodged whom.
struct Ends {
    /// Per unit: where it ends the phase (its own location if it did not move).
    destination: Vec<Loc>,
    /// The provinces occupied after the phase: every unit's destination (a dislodged
    /// unit's province is also its dislodger's destination).
    occupied: ProvSet,
}

/// What the decisions mean once every one is resolved.
impl Resolver<'_> {
    /// Resolve every decision the orders make (DATC 5.F); from here on nothing read
    /// changes.
    fn decide_all(&mut self) {
        for (u, e) in self.eff.iter().enumerate() {
            if !matches!(e, Eff::Hold) {
                self.decide(u);
            }
        }
        self.settled = true;
    }

    /// Where every unit ends: a unit whose move succeeds at its destination, every
    /// other where it is; a unit that stays where a move succeeds is dislodged.
    fn where_units_end(&mut self) -> Ends {
        let n = self.units.len();
        let mut ends = Ends {
            destination: Vec::with_capacity(n),
            occupied: ProvSet::EMPTY,
        };
        for (m, u) in self.units.iter().enumerate() {
            let to = match self.eff[m] {
                Eff::Move { to, .. } if self.node[m].decision.res => {
                    if let Some(o) = self.node[m].order.opp.map(UnitId::index) {
                        if !self.moved(o) {
                            self.node[o].decision.dislodged_by = Some(UnitId::new(m));
                        }
                    }
                    to
                }
                _ => u.loc,
            };
            ends.destination.push(to);
            ends.occupied.insert(self.map.prov_of(to));
        }
        ends
    }

    /// The standoffs: provinces empty after the phase into which a move with prevent
    /// strength failed (no retreat goes there). Only the destination of a failed move
    /// can be one.
    fn standoffs(&mut self, occupied: &ProvSet) -> ProvSet {
        let mut contested = ProvSet::EMPTY;
        for m in 0..self.units.len() {
            let Some(Dest { prov: p, .. }) = self.dest(m) else {
                continue;
            };
            if !self.node[m].decision.res
                && !occupied.contains(p)
                && !contested.contains(p)
                && self.prevent(m) > 0
            {
                contested.insert(p);
            }
        }
        contested
    }

    /// The dislodged units, each with where it may retreat.
    fn dislodged(&mut self, ends: &Ends, contested: &ProvSet) -> Vec<Dislodged> {
        let mut dislodged = Vec::new();
        for u in 0..self.units.len() {
            let Some(m) = self.dislodger(u) else { continue };
            let by = self.node[m].order.prov;
            let by_convoy = self.by_convoy(m);
            let blocked = |p: Prov| {
                ends.occupied.contains(p) || contested.contains(p) || (!by_convoy && p == by)
            };
            dislodged.push(Dislodged {
                unit: self.units[u],
                by,
                retreats: self.retreats(u, blocked),
            });
        }
        dislodged
    }

    /// Where dislodged unit `u` may retreat: the places it could move to but those
    /// `blocked` (occupied after the phase, a standoff, or the attacker's province
    /// unless the attacker came by convoy, DATC 4.A.5).
    fn retreats(&self, u: usize, blocked: impl Fn(Prov) -> bool) -> Vec<Loc> {
        let unit = &self.units[u];
        match unit.kind {
            UnitKind::Army => self
                .map
                .army_neighbours(self.node[u].order.prov)
                .iter()
                .filter(|&p| !blocked(p))
                .map(Loc::from)
                .collect(),
            UnitKind::Fleet => self
                .map
                .fleet_neighbours(unit.loc)
                .iter()
                .copied()
                .filter(|&l| !blocked(self.map.prov_of(l)))
                .collect(),
        }
    }

    /// The unit that dislodged unit `u`, once [`Resolver::where_units_end`] found it.
    fn dislodger(&self, u: usize) -> Option<usize> {
        self.node[u].decision.dislodged_by.map(UnitId::index)
    }

    /// The outcome of the order of unit `u`, with its cause.
    #[inline]
    fn outcome(&mut self, u: usize) -> Outcome {
        let dislodger = self.dislodger(u);
        match self.eff[u] {
            Eff::Hold => dislodged_or(dislodger, Outcome::Succeeds),
            Eff::Move { .. } => self.move_outcome(u),
            Eff::SupHold { .. } | Eff::SupMove { .. } => self.support_outcome(u, dislodger),
            Eff::Convoy { .. } => self.convoy_outcome(u, dislodger),
        }
    }

    /// A move is void with no convoy route ordered; else it succeeds, or fails for its
    /// convoy disrupted or for what stood against it.
    #[inline]
    fn move_outcome(&mut self, m: usize) -> Outcome {
        if self.void_convoy(m) {
            return Outcome::Invalid(Void::NoConvoyOrdered);
        }
        if self.node[m].decision.res {
            return Outcome::Succeeds;
        }
        if !self.path(m) {
            return Outcome::Fails(Failure::ConvoyDisrupted);
        }
        match self.why_bounced(m) {
            // Nothing stood against it: only the backup rule fails such a move.
            Failure::Bounced { against, .. } if against.is_empty() => {
                Outcome::Fails(Failure::Paradox)
            }
            f => Outcome::Fails(f),
        }
    }

    /// A support is void when it does not match; else it succeeds, or fails
    /// dislodged, cut, or by the backup rule.
    fn support_outcome(&mut self, s: usize, dislodger: Option<usize>) -> Outcome {
        if !self.node[s].order.matched {
            return Outcome::Invalid(Void::SupportNotMatched);
        }
        if self.node[s].decision.res {
            return Outcome::Succeeds;
        }
        if let Some(m) = dislodger {
            return Outcome::Fails(Failure::Dislodged { by: m });
        }
        match self.cutter(s) {
            Some(by) => Outcome::Fails(Failure::Cut { by }),
            // Only the backup rule fails a support that nothing cut.
            None => Outcome::Fails(Failure::Paradox),
        }
    }

    /// A convoy is void when it does not match; else it succeeds unless its fleet is
    /// dislodged or the backup rule failed it (Szykman).
    fn convoy_outcome(&mut self, c: usize, dislodger: Option<usize>) -> Outcome {
        if !self.node[c].order.convoying {
            return Outcome::Invalid(Void::ConvoyNotMatched);
        }
        let otherwise = if self.node[c].decision.paradox {
            Outcome::Fails(Failure::Paradox)
        } else {
            Outcome::Succeeds
        };
        dislodged_or(dislodger, otherwise)
    }

    /// The opposition that stopped move `m`: the defend or hold strength it met and
    /// the prevent strengths of the other moves there, each as strong as its attack.
    // `m` is a move (called for a failed `Eff::Move` only), so `dest` cannot fail.
    #[allow(clippy::expect_used)]
    fn why_bounced(&mut self, m: usize) -> Failure {
        let attack = self.attack(m);
        let d = self.dest(m).expect("a move").prov;
        // Room for the usual number of oppositions.
        let mut against = Vec::with_capacity(4);
        let mut oppose = |unit: usize, kind: Strength, strength: u8| {
            if strength >= attack {
                against.push(Opposition {
                    unit,
                    kind,
                    strength,
                });
            }
        };
        let h2h = self.head_to_head(m);
        if let Some(o) = h2h {
            oppose(o, Strength::Defend, self.defend(o));
        } else if let Some(o) = self.unit_in(d) {
            oppose(o, Strength::Hold, self.hold(d));
        }
        let mut next = self.first_mover(d);
        while let Some(other) = next {
            if other != m && h2h != Some(other) {
                oppose(other, Strength::Prevent, self.prevent(other));
            }
            next = self.after(other, Link::Mover);
        }
        Failure::Bounced { attack, against }
    }
}

/// `Fails(Dislodged)` if a unit dislodged it, else `otherwise`.
#[inline]
fn dislodged_or(dislodger: Option<usize>, otherwise: Outcome) -> Outcome {
    match dislodger {
        Some(m) => Outcome::Fails(Failure::Dislodged { by: m }),
        None => otherwise,
    }
}

/// Resolve a checked movement phase: the decisions that rest on no other first, then
/// the search (DATC 5.F), then where the units end, the standoffs, the dislodged
/// units with their retreats, and every order's outcome.
pub(crate) fn resolve(
    map: &Map,
    position: &Position,
    checked: Checked<'_>,
    rules: Rules,
) -> MovementResult {
    let Checked {
        unit_at,
        eff,
        order_of,
        same_as,
        mut results,
        diagnostics,
    } = checked;
    let units = &position.units;
    let mut r = Resolver::new(map, rules, units, eff, unit_at);
    r.decide_alone();
    r.decide_all();
    let ends = r.where_units_end();
    let contested = r.standoffs(&ends.occupied);
    let dislodged = r.dislodged(&ends, &contested);
    for (u, k) in order_of.iter().enumerate() {
        let Some(k) = *k else { continue };
        // A legal order's result starts as `Succeeds`, the outcome of most orders:
        // only another outcome is written (measured, the opening's adjudication is
        // faster so).
        let outcome = r.outcome(u);
        if !outcome.succeeded() {
            results[k].outcome = outcome;
        }
    }
    // An order written twice shares its twin's outcome (4.D.3).
    for &(k, first) in same_as {
        results[k].outcome = results[first].outcome.clone();
    }
    let convoyed = r.convoyed();
    r.give_back_tables();
    MovementResult {
        rules,
        convoyed,
        units: units.clone(),
        orders: results,
        destination: ends.destination,
        dislodged,
        contested: contested.iter().collect(),
        diagnostics,
    }
}

/// The strengths of DATC 5.B as the resolver reckons them once every decision is
/// resolved (for an explanation of the phase), one entry per unit.
pub(crate) fn strengths(
    map: &Map,
    position: &Position,
    checked: &Checked<'_>,
    rules: Rules,
) -> Vec<Strengths> {
    let units = &position.units;
    let mut r = Resolver::new(map, rules, units, checked.eff, checked.unit_at);
    r.decide_alone();
    r.decide_all();
    let out = (0..units.len())
        .map(|u| {
            let hold = r.hold(r.node[u].order.prov);
            match r.dest(u) {
                Some(_) => Strengths {
                    attack: r.attack(u),
                    defend: r.defend(u),
                    prevent: r.prevent(u),
                    hold,
                },
                None => Strengths {
                    hold,
                    ..Strengths::default()
                },
            }
        })
        .collect();
    r.give_back_tables();
    out
}

/// Every consistent resolution of a movement phase, found by brute force over its
/// decisions (moves, supports, convoys): the check on the resolver and its backup rule.
#[derive(Clone, Debug)]
pub struct Enumeration {
    /// The decisions (units whose order is not a hold), as indices into the units.
    pub decisions: Vec<usize>,
    /// The resolver's value of each decision.
    pub resolved: Vec<bool>,
    /// The backup rule decided some cycle (the resolver found no or two resolutions).
    pub backup_fired: bool,
    /// The decisions [`Resolver::decide_alone`] decided before the search, with their
    /// values, and those of them whose rule gives another value under some assignment
    /// of the other decisions (must be none: a decision decided alone rests on no
    /// other).
    pub alone: Vec<(usize, bool)>,
    pub alone_wrong: Vec<usize>,
    /// Every assignment of the decisions that is a fixed point of the rules.
    pub solutions: Vec<Vec<bool>>,
}

pub(crate) fn enumerate(
    map: &Map,
    rules: Rules,
    position: &Position,
    checked: &Checked<'_>,
    max_decisions: usize,
) -> Option<Enumeration> {
    let units = &position.units;
    let mut r = Resolver::new(map, rules, units, checked.eff, checked.unit_at);
    let decisions: Vec<usize> = (0..units.len())
        .filter(|&u| !matches!(checked.eff[u], Eff::Hold))
        .collect();
    if decisions.len() > max_decisions.min(24) {
        return None;
    }
    // As `resolve` does: the decisions that rest on no other first, then the search.
    r.decide_alone();
    let alone: Vec<(usize, bool)> = decisions
        .iter()
        .filter(|&&u| r.node[u].decision.state == State::Resolved)
        .map(|&u| (u, r.node[u].decision.res))
        .collect();
    let mut alone_wrong = Vec::new();
    for &u in &decisions {
        r.decide(u);
    }
    let resolved: Vec<bool> = decisions.iter().map(|&u| r.node[u].decision.res).collect();
    let backup_fired = r.backup_fired;
    let mut solutions = Vec::new();
    for mask in 0u32..(1 << decisions.len()) {
        let value = |i: usize| mask >> i & 1 == 1;
        for (i, &u) in decisions.iter().enumerate() {
            r.node[u].decision.res = value(i);
            r.node[u].decision.state = State::Resolved;
        }
        // Each assignment decides every convoy afresh: no route is kept from the last.
        r.forget_routes();
        for &(u, v) in &alone {
            if r.evaluate(u) != v && !alone_wrong.contains(&u) {
                alone_wrong.push(u);
            }
        }
        r.forget_routes();
        if decisions
            .iter()
            .enumerate()
            .all(|(i, &u)| r.evaluate(u) == value(i))
        {
            solutions.push((0..decisions.len()).map(value).collect());
        }
    }
    r.give_back_tables();
    Some(Enumeration {
        decisions,
        resolved,
        backup_fired,
        alone,
        alone_wrong,
        solutions,
    })
}

impl Resolver<'_> {
    /// Forget every convoy route kept (for [`enumerate`], which assigns the decisions
    /// afresh).
    fn forget_routes(&mut self) {
        for node in &mut self.node {
            node.decision.route = None;
        }
    }
}
