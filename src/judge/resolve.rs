//! The movement resolver: DATC v3.0 chapter 5. Every move, support and convoy is a
//! yes/no decision; `adjudicate` evaluates one from the others, `resolve` caches,
//! detects cycles and guesses (fail, then succeed) as in 5.F; a cycle with two or no
//! solutions gets the backup rule (circular movement succeeds; with a convoy, Szykman).
//! Attacks on a convoying fleet are evaluated with `adjudicate`, not `resolve` (5.D),
//! so every cycle is a clean single one.
//!
//! Orders are never processed in a fixed sequence. The hot path uses dense indices and
//! flat tables only.

// Indexing is by dense ids and by positions in vectors built here, never by raw
// input. Prov/Loc/Power ids come from the map loader (which builds every adjacency
// table from validated ids) or from a position and orders whose ids `game::check_ids`
// (at the entry of `advance`) or `check_unit_ids` (of `adjudicate`: the units and
// orders, all a movement phase reads) validated; the public phase functions
// re-exported from `judge` take ids of the `map` they are given, the contract
// `advance` checks. Unit and order indices are positions in the vectors this
// phase built (one entry per unit, per order). An out-of-range index is a bug, not
// input.
#![allow(clippy::indexing_slicing)]

use super::convoy;
use super::legality::{self, refill, Checked, Eff, NONE};
use super::outcome::{Failure, Opposition, Outcome, Strength, Void};
use super::{Dislodged, MovementResult, ParadoxRule, Rules};
use crate::map::{Loc, Map, Prov, ProvSet, UnitKind};
use crate::state::{Position, Unit};
use std::cell::Cell;

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Unresolved,
    Visited,
    Resolved,
}

/// Which of a unit's lists a link field belongs to (see [`Node`]): the list of
/// units moving to one province, of a unit's supporters, of a move's convoying fleets.
#[derive(Clone, Copy)]
enum Link {
    Mover,
    Supporter,
    Convoyer,
}

impl Link {
    /// The next unit after `node` in its list of this kind (`NONE`: the last).
    #[inline(always)]
    fn after(self, node: &Node) -> u16 {
        match self {
            Link::Mover => node.next_mover,
            Link::Supporter => node.next_sup,
            Link::Convoyer => node.next_conv,
        }
    }

    /// The field of `node` holding the next unit of its list of this kind.
    #[inline(always)]
    fn next(self, node: &mut Node) -> &mut u16 {
        match self {
            Link::Mover => &mut node.next_mover,
            Link::Supporter => &mut node.next_sup,
            Link::Convoyer => &mut node.next_conv,
        }
    }
}

/// The units of the list that begins with `first`, in order. A walk that resolves
/// decisions on the way needs the resolver itself and follows the links by hand; so
/// does `decide_alone`, on every phase's path, where the iterator kept it from being
/// inlined (about 1 % of a phase's instructions).
#[inline(always)]
fn members(node: &[Node], first: u16, link: Link) -> impl Iterator<Item = usize> + '_ {
    std::iter::successors((first != NONE).then_some(first), move |&u| {
        let next = link.after(&node[u as usize]);
        (next != NONE).then_some(next)
    })
    .map(usize::from)
}

/// The province support order `e` supports a move into (`None`: a hold support).
#[inline(always)]
fn aimed(e: Eff) -> Option<Prov> {
    match e {
        Eff::SupMove { to, .. } => Some(to),
        _ => None,
    }
}

/// Unit `m` (moving into the province of supporting unit `s`) cuts the support if it
/// arrives there by its path (5.B.2): it belongs to another power and does not come
/// from the province the support goes to.
#[inline(always)]
fn cuts_by_path(units: &[Unit], node: &[Node], eff: &[Eff], s: usize, m: usize) -> bool {
    units[m].power != units[s].power && aimed(eff[s]) != Some(node[m].prov)
}

/// Add unit `s` to the list that begins with `head` (`NONE`: empty) and return the
/// list's new first unit. A list is kept in the order of its units' provinces (a unit
/// after those of its own province), not of the units: whatever reads a list first
/// (the cutter named for a cut support, the order of oppositions) is then the same
/// however the input is listed. Lists are short (the units moving to one province,
/// supporting one unit), so the walk to the place is too.
#[inline(always)]
fn insert(node: &mut [Node], head: u16, s: u16, link: Link) -> u16 {
    let p = node[s as usize].prov;
    if head == NONE || node[head as usize].prov > p {
        *link.next(&mut node[s as usize]) = head;
        return s;
    }
    let mut cur = head;
    loop {
        let next = *link.next(&mut node[cur as usize]);
        if next == NONE || node[next as usize].prov > p {
            *link.next(&mut node[s as usize]) = next;
            *link.next(&mut node[cur as usize]) = s;
            return head;
        }
        cur = next;
    }
}

/// What the resolver knows and keeps per unit, in one table filled once per phase.
#[derive(Clone, Copy)]
struct Node {
    /// The province the unit is in.
    prov: Prov,
    /// The province it moves to and whether by convoy, if it moves.
    dest: Option<(Prov, bool)>,
    /// A move by convoy that falls back to land when its route fails (the 1971
    /// reading of DATC 4.A.3).
    fallback: bool,
    /// The unit in the province it moves to if that unit moves here (a head-to-head
    /// battle unless either goes by convoy), else `NONE`.
    swap: u16,
    /// The unit in the province it moves to, or `NONE`.
    opp: u16,
    /// Once resolved: the unit that dislodged it, or `NONE`.
    dislodger: u16,
    state: State,
    /// The decision's result (or current guess).
    res: bool,
    /// Failed by the backup rule's paradox (a convoy in a paradoxical cycle).
    paradox: bool,
    /// Left open in a cycle that is not decided yet.
    in_cycle: bool,
    /// A support that matches what the supported unit does.
    matched: bool,
    /// A fleet whose convoy order matches an army's move.
    convoying: bool,
    /// Whether its convoy route holds (0: not known yet, 1: no, 2: yes), kept once
    /// every fleet convoying it is resolved (a resolved decision never changes).
    route_memo: u8,
    /// Once every decision is resolved ([`Resolver::settled`]): its prevent strength
    /// (`u8::MAX`: not asked yet).
    prevent_memo: u8,
    /// The lists, linked through the units (`NONE` ends a list; see [`insert`]): the
    /// next unit moving to the same province, the first unit supporting this one (a
    /// matching support), the next supporting the same unit, the first fleet
    /// convoying this move (a matching convoy), the next convoying the same army.
    next_mover: u16,
    first_sup: u16,
    next_sup: u16,
    first_conv: u16,
    next_conv: u16,
    /// Its depth on the resolve stack while visited.
    depth: u32,
    /// While open: the smallest stack depth of a guess its result rests on.
    low_of: u32,
}

impl Node {
    const NEW: Node = Node {
        prov: Prov(0),
        dest: None,
        fallback: false,
        swap: NONE,
        opp: NONE,
        dislodger: NONE,
        state: State::Unresolved,
        res: false,
        paradox: false,
        in_cycle: false,
        matched: false,
        convoying: false,
        route_memo: 0,
        prevent_memo: u8::MAX,
        next_mover: NONE,
        first_sup: NONE,
        next_sup: NONE,
        first_conv: NONE,
        next_conv: NONE,
        depth: 0,
        low_of: NO_GUESS,
    };
}

/// The working tables of a movement phase, kept per thread and reused by the next
/// phase so that resolving allocates none of them. Sized afresh for every phase.
struct Scratch {
    /// Per unit: its decision, its lists and what the search keeps about it.
    node: Vec<Node>,
    /// Per province: the first unit moving there (`NONE`: none), the rest linked
    /// through [`Node::next_mover`].
    mover_head: Vec<u16>,
    /// The orders left open in cycles that are not decided yet.
    cycle: Vec<u16>,
}

impl Scratch {
    const fn new() -> Scratch {
        Scratch {
            node: Vec::new(),
            mover_head: Vec::new(),
            cycle: Vec::new(),
        }
    }

    /// This thread's tables (new ones if another phase on the thread holds them).
    fn take() -> Box<Scratch> {
        SCRATCH
            .with(Cell::take)
            .unwrap_or_else(|| Box::new(Scratch::new()))
    }

    /// Hand the tables back for the thread's next phase.
    fn give_back(self: Box<Scratch>) {
        SCRATCH.with(|c| c.set(Some(self)));
    }
}

thread_local! {
    static SCRATCH: Cell<Option<Box<Scratch>>> = const { Cell::new(None) };
}

struct Resolver<'a> {
    map: &'a Map,
    rules: Rules,
    units: &'a [Unit],
    eff: &'a [Eff],
    unit_at: &'a [u16],
    /// The phase's tables.
    t: Box<Scratch>,
    /// The smallest stack depth of a guess read by the current adjudication.
    low: u32,
    stack_depth: u32,
    /// The backup rule decided some cycle (no or two resolutions).
    backup_fired: bool,
    /// Every decision is resolved: nothing read from here on changes, so convoy routes
    /// and prevent strengths are kept once computed.
    settled: bool,
}

/// `low` when no guess was read.
const NO_GUESS: u32 = u32::MAX;

impl Resolver<'_> {
    #[inline(always)]
    fn dest(&self, u: usize) -> Option<(Prov, bool)> {
        self.t.node[u].dest
    }

    /// Once resolved: did unit `m` move?
    #[inline(always)]
    fn moved(&self, m: usize) -> bool {
        let node = &self.t.node[m];
        node.dest.is_some() && node.res
    }

    /// Does move `m` go by convoy? A move that may fall back to land (the 1971
    /// reading of 4.A.3) goes by convoy only if its convoy route holds.
    #[inline(always)]
    fn by_convoy(&mut self, m: usize) -> bool {
        let node = &self.t.node[m];
        match node.dest {
            Some((_, true)) if node.fallback => self.convoy_route(m),
            Some((_, convoy)) => convoy,
            None => false,
        }
    }

    /// The unit opposing `m` head to head, if any (neither move convoyed).
    #[inline(always)]
    fn head_to_head(&mut self, m: usize) -> Option<usize> {
        let o = self.t.node[m].swap;
        if o == NONE || self.by_convoy(m) || self.by_convoy(o as usize) {
            return None;
        }
        Some(o as usize)
    }

    /// Resolve decision `u`: its result at once when it is decided already (the
    /// common case, kept inline), else [`Resolver::search`].
    #[inline(always)]
    fn resolve(&mut self, u: usize) -> bool {
        let node = self.t.node[u];
        if node.state == State::Resolved {
            return node.res;
        }
        self.search(u)
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
        match self.t.node[u].state {
            State::Resolved => return self.t.node[u].res,
            State::Visited => {
                // A cyclic dependency: read this order's current guess.
                self.low = self.low.min(self.t.node[u].depth);
                return self.t.node[u].res;
            }
            State::Unresolved if self.t.node[u].in_cycle => {
                // Left unresolved earlier in a cycle that is still open.
                self.low = self.low.min(self.t.node[u].low_of);
                return self.t.node[u].res;
            }
            State::Unresolved => {}
        }
        self.t.node[u].state = State::Visited;
        self.t.node[u].depth = self.stack_depth;
        self.stack_depth += 1;
        let old_low = self.low;
        let old_cycle_len = self.t.cycle.len();
        let result = self.guess(u, old_cycle_len);
        self.stack_depth -= 1;
        match result {
            Some(r) => {
                self.low = old_low;
                r
            }
            None => {
                // Rests on a guess further up: leave it open, in the cycle.
                let low = self.low;
                self.t.node[u].low_of = low;
                self.t.node[u].in_cycle = true;
                self.t.cycle.push(u as u16);
                self.t.node[u].state = State::Unresolved;
                self.low = old_low.min(low);
                self.t.node[u].res
            }
        }
    }

    /// Adjudicate `u` under the guess `false`, then (if it is the ancestor of its
    /// cycle) under `true`. `Some(result)` once `u` is resolved; `None` when its result
    /// rests on a guess made further up the stack (`res[u]` holds the result).
    fn guess(&mut self, u: usize, old_cycle_len: usize) -> Option<bool> {
        self.low = NO_GUESS;
        self.t.node[u].res = false;
        let first = self.adjudicate(u);
        if self.low == NO_GUESS {
            self.settle(u, first, old_cycle_len);
            return Some(first);
        }
        if self.low < self.t.node[u].depth {
            self.t.node[u].res = first;
            return None;
        }
        // `u` is the ancestor of the whole cycle: reopen the cycle, try the other guess.
        self.reopen(old_cycle_len);
        self.low = NO_GUESS;
        self.t.node[u].res = true;
        let second = self.adjudicate(u);
        if self.low != NO_GUESS && self.low < self.t.node[u].depth {
            self.t.node[u].res = second;
            return None;
        }
        if first == second {
            self.settle(u, first, old_cycle_len);
            return Some(first);
        }
        // No resolution or two: the backup rule decides the cycle.
        self.backup_rule(u, old_cycle_len);
        self.reopen(old_cycle_len);
        self.backup_fired = true;
        if self.t.node[u].state == State::Resolved {
            return Some(self.t.node[u].res);
        }
        self.t.node[u].state = State::Unresolved;
        self.low = NO_GUESS;
        Some(self.resolve(u))
    }

    /// Decide at once the decisions that rest on no other decision, so that the
    /// search never visits them (most orders of a usual phase are such):
    ///
    /// - a support or convoy whose province no unit moves to: nothing can cut or
    ///   dislodge it, so it succeeds (a support only if it matches, 5.B.2);
    /// - a support that does not match fails; one that a move not by convoy from
    ///   another power attacks, not from where the support goes, is cut (5.B.2);
    /// - a move not by convoy to an empty province no other unit moves to: its attack
    ///   is at least 1 and meets no hold, defend or prevent strength, so it succeeds;
    /// - a move not by convoy and with no matching support, to a province whose unit
    ///   does not move (hold strength at least 1) or to an empty province another
    ///   move not by convoy enters (prevent strength at least 1): its attack is at
    ///   most 1, so it fails.
    ///
    /// What [`Resolver::adjudicate`] would find for them is exactly this, under any
    /// guess, so the result of every other decision is the same with or without it.
    fn decide_alone(&mut self) {
        let t = &mut *self.t;
        for (u, &e) in self.eff.iter().enumerate() {
            let node = &t.node[u];
            let heads = &t.mover_head;
            let alone = match e {
                Eff::Hold => continue,
                Eff::SupHold { .. } | Eff::SupMove { .. } => {
                    let first = heads[node.prov.0 as usize];
                    if first == NONE || !node.matched {
                        node.matched
                    } else {
                        // Cut for certain: a move not by convoy has its path.
                        let mut m = first;
                        while m != NONE {
                            let n = &t.node[m as usize];
                            if n.dest.is_some_and(|(_, c)| !c)
                                && cuts_by_path(self.units, &t.node, self.eff, u, m as usize)
                            {
                                break;
                            }
                            m = n.next_mover;
                        }
                        if m == NONE {
                            continue;
                        }
                        false
                    }
                }
                Eff::Convoy { .. } => {
                    if heads[node.prov.0 as usize] != NONE {
                        continue;
                    }
                    true
                }
                Eff::Move { convoy: false, .. } => {
                    let Some((d, _)) = node.dest else { continue };
                    let first = heads[d.0 as usize];
                    if node.opp == NONE && first == u as u16 && node.next_mover == NONE {
                        // The only unit moving there: the first and last of the list.
                        true
                    } else if node.first_sup != NONE {
                        continue;
                    } else if node.opp != NONE {
                        if t.node[node.opp as usize].dest.is_some() {
                            continue;
                        }
                        false
                    } else {
                        // Another unit moves there, not by convoy?
                        let mut o = first;
                        while o != NONE
                            && (o == u as u16 || t.node[o as usize].dest.is_none_or(|(_, c)| c))
                        {
                            o = t.node[o as usize].next_mover;
                        }
                        if o == NONE {
                            continue;
                        }
                        false
                    }
                }
                Eff::Move { .. } => continue,
            };
            t.node[u].res = alone;
            t.node[u].state = State::Resolved;
        }
    }

    /// `u` is decided; orders left open below it are re-resolved when next asked.
    #[inline(always)]
    fn settle(&mut self, u: usize, r: bool, old_cycle_len: usize) {
        self.reopen(old_cycle_len);
        self.t.node[u].res = r;
        self.t.node[u].state = State::Resolved;
    }

    /// Forget the open orders of the cycle above `old_cycle_len`.
    fn reopen(&mut self, old_cycle_len: usize) {
        for &m in &self.t.cycle[old_cycle_len..] {
            self.t.node[m as usize].in_cycle = false;
        }
        self.t.cycle.truncate(old_cycle_len);
    }

    /// Two or no solutions: circular movement succeeds; a cycle with a convoy in it
    /// is a paradox and the convoys fail (Szykman); anything else fails.
    fn backup_rule(&mut self, u: usize, from: usize) {
        // The cycle's members: the open orders above `from`, and `u`.
        let pushed = !self.t.cycle[from..].contains(&(u as u16));
        if pushed {
            self.t.cycle.push(u as u16);
        }
        let is_convoy = |e: Eff| matches!(e, Eff::Convoy { .. });
        let members = &self.t.cycle[from..];
        let convoys = members.iter().any(|&m| is_convoy(self.eff[m as usize]));
        let all_moves = members
            .iter()
            .all(|&m| matches!(self.eff[m as usize], Eff::Move { .. }));
        for i in from..self.t.cycle.len() {
            let m = self.t.cycle[i] as usize;
            if convoys {
                if is_convoy(self.eff[m]) {
                    self.t.node[m].res = false;
                    self.t.node[m].state = State::Resolved;
                    self.t.node[m].paradox = true;
                }
            } else {
                self.t.node[m].res = all_moves;
                self.t.node[m].state = State::Resolved;
            }
        }
        if pushed {
            self.t.cycle.pop();
        }
    }

    fn adjudicate(&mut self, u: usize) -> bool {
        match self.eff[u] {
            Eff::Move { .. } => self.move_succeeds(u),
            Eff::SupHold { .. } | Eff::SupMove { .. } => {
                self.t.node[u].matched && self.cutter(u).is_none()
            }
            Eff::Convoy { .. } => {
                // 5.D: attacks on the fleet are adjudicated, not resolved.
                let mut m = self.t.mover_head[self.t.node[u].prov.0 as usize];
                while m != NONE {
                    if self.adjudicate(m as usize) {
                        return false;
                    }
                    m = self.t.node[m as usize].next_mover;
                }
                true
            }
            Eff::Hold => true,
        }
    }

    /// PATH: the move is not convoyed (or may fall back to land), or a chain of
    /// fleets whose convoys succeed joins its origin and destination.
    #[inline(always)]
    fn path(&mut self, m: usize) -> bool {
        let node = &self.t.node[m];
        match node.dest {
            Some((_, true)) if !node.fallback => self.convoy_route(m),
            _ => true,
        }
    }

    /// Convoyed move `m` is void: no chain of fleets ordered to convoy it (whether
    /// their convoys succeed or not) joins its origin and destination.
    fn void_convoy(&self, m: usize) -> bool {
        let Some((d, true)) = self.dest(m) else {
            return false;
        };
        let node = &self.t.node;
        let fleets: ProvSet = members(node, node[m].first_conv, Link::Convoyer)
            .map(|f| node[f].prov)
            .collect();
        !convoy::route_exists(self.map, &fleets, node[m].prov, d)
    }

    /// A chain of fleets whose convoys succeed joins the origin and destination of
    /// convoyed move `m`.
    fn convoy_route(&mut self, m: usize) -> bool {
        let Some((d, true)) = self.dest(m) else {
            return false;
        };
        if self.t.node[m].route_memo != 0 {
            return self.t.node[m].route_memo == 2;
        }
        let mut fleets = ProvSet::EMPTY;
        // Every convoy read is decided (none is a guess of an open cycle).
        let mut decided = true;
        let mut f = self.t.node[m].first_conv;
        while f != NONE {
            let fu = f as usize;
            if self.resolve(fu) {
                fleets.insert(self.t.node[fu].prov);
            }
            decided &= self.t.node[fu].state == State::Resolved;
            f = self.t.node[fu].next_conv;
        }
        let route =
            !fleets.is_empty() && convoy::route_exists(self.map, &fleets, self.t.node[m].prov, d);
        if decided {
            self.t.node[m].route_memo = 1 + u8::from(route);
        }
        route
    }

    #[inline(always)]
    fn support_count(&mut self, u: usize, not_of: Option<crate::map::Power>) -> u8 {
        let mut n = 0;
        let mut s = self.t.node[u].first_sup;
        while s != NONE {
            let su = s as usize;
            if not_of.is_none_or(|p| self.units[su].power != p) && self.resolve(su) {
                n += 1;
            }
            s = self.t.node[su].next_sup;
        }
        n
    }

    /// The attack strength of move `m`.
    #[inline(always)]
    fn attack(&mut self, m: usize) -> u8 {
        if !self.path(m) {
            return 0;
        }
        let o = self.t.node[m].opp;
        if o == NONE {
            return 1 + self.support_count(m, None);
        }
        let o = o as usize;
        let h2h = self.head_to_head(m).is_some();
        if !h2h && self.dest(o).is_some() && self.resolve(o) {
            return 1 + self.support_count(m, None);
        }
        if self.units[o].power == self.units[m].power {
            return 0;
        }
        1 + self.support_count(m, Some(self.units[o].power))
    }

    #[inline(always)]
    fn defend(&mut self, m: usize) -> u8 {
        1 + self.support_count(m, None)
    }

    #[inline(always)]
    fn prevent(&mut self, m: usize) -> u8 {
        if !self.settled {
            return self.prevent_now(m);
        }
        if self.t.node[m].prevent_memo == u8::MAX {
            self.t.node[m].prevent_memo = self.prevent_now(m);
        }
        self.t.node[m].prevent_memo
    }

    #[inline(always)]
    fn prevent_now(&mut self, m: usize) -> u8 {
        if !self.path(m) {
            return 0;
        }
        if let Some(o) = self.head_to_head(m) {
            if self.resolve(o) {
                return 0;
            }
        }
        1 + self.support_count(m, None)
    }

    #[inline(always)]
    fn hold(&mut self, p: Prov) -> u8 {
        let o = self.unit_at[p.0 as usize];
        if o == NONE {
            return 0;
        }
        let o = o as usize;
        if self.dest(o).is_some() {
            return if self.resolve(o) { 0 } else { 1 };
        }
        1 + self.support_count(o, None)
    }

    // `m` is a move: callers reach here only for units whose effective order is
    // `Eff::Move` (they matched it or `dest` returned `Some`), so `dest` cannot fail.
    #[allow(clippy::expect_used)]
    fn move_succeeds(&mut self, m: usize) -> bool {
        let (d, _) = self.dest(m).expect("a move");
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
        let mut other = self.t.mover_head[d.0 as usize];
        while other != NONE {
            let o = other as usize;
            if o != m && a <= self.prevent(o) {
                return false;
            }
            other = self.t.node[o].next_mover;
        }
        true
    }

    /// The unit that cuts support `s`, if any (5.B.2).
    #[inline(always)]
    fn cutter(&mut self, s: usize) -> Option<usize> {
        let p = self.t.node[s].prov;
        let first = self.t.mover_head[p.0 as usize];
        let mut next = first;
        while next != NONE {
            let m = next as usize;
            if cuts_by_path(self.units, &self.t.node, self.eff, s, m)
                && !self.kept_by_paradox_rule(s, m)
                && self.path(m)
            {
                return Some(m);
            }
            next = self.t.node[m].next_mover;
        }
        next = first;
        while next != NONE {
            let m = next as usize;
            // The 1971 and 1982 rules take precedence over the dislodge rule (6.F.17).
            if !self.kept_by_paradox_rule(s, m) && self.resolve(m) {
                return Some(m);
            }
            next = self.t.node[m].next_mover;
        }
        None
    }

    /// The 1971 and 1982 paradox rules (DATC 4.A.2 a and b): a convoyed army does not
    /// cut this support of fleet `s`. Under the Szykman rule no support is kept.
    #[inline(always)]
    fn kept_by_paradox_rule(&mut self, s: usize, m: usize) -> bool {
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
                    Eff::SupHold { target } => self.t.node[target as usize].prov,
                    _ => return false,
                };
                let f = self.unit_at[at.0 as usize];
                self.map.is_sea(at) && f != NONE && self.t.node[f as usize].convoying
            }
            // "supporting a fleet which is attacking one of the convoy fleets".
            ParadoxRule::ConvoyAttackSupportNotCut1971 => {
                let Eff::SupMove { target, to, .. } = self.eff[s] else {
                    return false;
                };
                let f = self.unit_at[to.0 as usize];
                if self.units[target as usize].kind != UnitKind::Fleet || f == NONE {
                    return false;
                }
                members(&self.t.node, self.t.node[m].first_conv, Link::Convoyer)
                    .any(|c| c == f as usize)
            }
        }
    }
}

/// The resolver for a checked phase, supports and convoys matched to what their units
/// do, its tables in the buffers of `t`.
fn new_resolver<'a>(
    map: &'a Map,
    rules: Rules,
    units: &'a [Unit],
    eff: &'a [Eff],
    unit_at: &'a [u16],
    mut t: Box<Scratch>,
) -> Resolver<'a> {
    // One pass: each unit's node, the supports and convoys matched to what their units
    // do, and the lists linked. A list is ordered by its units' provinces, and the
    // nodes of the units listed before this one are filled in already.
    refill(&mut t.node, units.len(), Node::NEW);
    refill(&mut t.mover_head, map.province_count(), NONE);
    let node = &mut t.node;
    for (s, (u, e)) in units.iter().zip(eff).enumerate() {
        let s16 = s as u16;
        let here = map.prov_of(u.loc);
        node[s].prov = here;
        match *e {
            Eff::SupHold { target } => {
                if !matches!(eff[target as usize], Eff::Move { .. }) {
                    node[s].matched = true;
                    let head = node[target as usize].first_sup;
                    node[target as usize].first_sup = insert(node, head, s16, Link::Supporter);
                }
            }
            Eff::SupMove { target, to, coast } => {
                if let Eff::Move { to: mt, .. } = eff[target as usize] {
                    if map.prov_of(mt) == to && coast.is_none_or(|c| c == mt) {
                        node[s].matched = true;
                        let head = node[target as usize].first_sup;
                        node[target as usize].first_sup = insert(node, head, s16, Link::Supporter);
                    }
                }
            }
            Eff::Convoy { army, to } => {
                if let Eff::Move { to: mt, convoy, .. } = eff[army as usize] {
                    if map.prov_of(mt) == to {
                        node[s].convoying = true;
                        if convoy {
                            let head = node[army as usize].first_conv;
                            node[army as usize].first_conv =
                                insert(node, head, s16, Link::Convoyer);
                        }
                    }
                }
            }
            Eff::Move {
                to,
                convoy,
                fallback,
            } => {
                let d = map.prov_of(to);
                let o = unit_at[d.0 as usize];
                let n = &mut node[s];
                n.dest = Some((d, convoy));
                n.fallback = fallback;
                n.opp = o;
                let head = t.mover_head[d.0 as usize];
                t.mover_head[d.0 as usize] = insert(node, head, s16, Link::Mover);
                // A swap is found by the later of its two units, once both moves are known.
                if o != NONE
                    && (o as usize) < s
                    && node[o as usize].dest.is_some_and(|(b, _)| b == here)
                {
                    node[s].swap = o;
                    node[o as usize].swap = s16;
                }
            }
            Eff::Hold => {}
        }
    }
    t.cycle.clear();
    Resolver {
        map,
        rules,
        units,
        eff,
        unit_at,
        t,
        low: NO_GUESS,
        stack_depth: 0,
        backup_fired: false,
        settled: false,
    }
}

pub(crate) fn resolve(
    map: &Map,
    position: &Position,
    checked: Checked,
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
    let n = units.len();
    let t = Scratch::take();
    let mut r = new_resolver(map, rules, units, &eff, &unit_at, t);
    // Only a move by convoy can be void, or go by convoy.
    let by_convoy = eff
        .iter()
        .any(|e| matches!(e, Eff::Move { convoy: true, .. }));
    r.decide_alone();
    for (u, e) in eff.iter().enumerate() {
        if !matches!(e, Eff::Hold) {
            r.resolve(u);
        }
    }
    r.settled = true;

    // Where every unit ends, and who is dislodged by whom. The provinces occupied after
    // the phase are every unit's destination: a dislodged unit's province is also its
    // dislodger's destination.
    let mut destination: Vec<Loc> = Vec::with_capacity(n);
    let mut occupied = ProvSet::EMPTY;
    let mut dislodgements = 0;
    for (m, u) in units.iter().enumerate() {
        let to = match eff[m] {
            Eff::Move { to, .. } if r.t.node[m].res => {
                let o = r.t.node[m].opp;
                if o != NONE && !r.moved(o as usize) {
                    r.t.node[o as usize].dislodger = m as u16;
                    dislodgements += 1;
                }
                to
            }
            _ => u.loc,
        };
        destination.push(to);
        occupied.insert(map.prov_of(to));
    }
    // Contested: empty after the phase, and a move there with prevent strength failed.
    // Only the destination of a failed move can be; listed in province order.
    let mut contested_set = ProvSet::EMPTY;
    for m in 0..n {
        let Some((p, _)) = r.dest(m) else { continue };
        if !r.t.node[m].res
            && !occupied.contains(p)
            && !contested_set.contains(p)
            && r.prevent(m) > 0
        {
            contested_set.insert(p);
        }
    }
    let mut contested: Vec<Prov> = Vec::with_capacity(contested_set.len());
    contested.extend(contested_set.iter());
    let mut dislodged = Vec::with_capacity(dislodgements);

    // The dislodged units with their retreats, and the outcomes with their causes.
    for (u, (&e, &k)) in eff.iter().zip(&order_of).enumerate() {
        let node = &r.t.node[u];
        // Most units are not dislodged and their orders succeed: their result
        // (`Succeeds` already) stays as it is.
        let succeeds = match e {
            Eff::Hold => true,
            Eff::Move { convoy: false, .. } | Eff::SupHold { .. } | Eff::SupMove { .. } => node.res,
            Eff::Move { .. } => false,
            Eff::Convoy { .. } => node.convoying && !node.paradox,
        };
        if succeeds && node.dislodger == NONE {
            continue;
        }
        let dislodger = match node.dislodger {
            NONE => None,
            m => Some(m as usize),
        };
        if let Some(m) = dislodger {
            let by = r.t.node[m].prov;
            let by_convoy = r.by_convoy(m);
            let unit = &units[u];
            let open = |l: &Loc| {
                let p = map.prov_of(*l);
                !occupied.contains(p) && !contested_set.contains(p) && (by_convoy || p != by)
            };
            let mut retreats = Vec::new();
            match unit.kind {
                UnitKind::Army => {
                    for p in map.army_neighbours(r.t.node[u].prov).iter() {
                        if open(&Loc::from(p)) {
                            retreats.push(Loc::from(p));
                        }
                    }
                }
                UnitKind::Fleet => {
                    for &l in map.fleet_neighbours(unit.loc) {
                        if open(&l) {
                            retreats.push(l);
                        }
                    }
                }
            }
            dislodged.push(Dislodged {
                unit: u,
                by,
                by_convoy,
                retreats,
            });
        }
        let Some(k) = k else { continue };
        let outcome = match e {
            Eff::Hold => match dislodger {
                Some(m) => Outcome::Fails(Failure::Dislodged { by: m }),
                None => Outcome::Succeeds,
            },
            Eff::Move { convoy: true, .. } if r.void_convoy(u) => {
                Outcome::Invalid(Void::NoConvoyOrdered)
            }
            Eff::Move { .. } if r.t.node[u].res => Outcome::Succeeds,
            Eff::Move { .. } => {
                if !r.path(u) {
                    Outcome::Fails(Failure::ConvoyDisrupted)
                } else {
                    match why_bounced(&mut r, u) {
                        // Nothing stood against it: only the backup rule fails such a move.
                        Failure::Bounced { against, .. } if against.is_empty() => {
                            Outcome::Fails(Failure::Paradox)
                        }
                        f => Outcome::Fails(f),
                    }
                }
            }
            Eff::SupHold { .. } | Eff::SupMove { .. } if !r.t.node[u].matched => {
                Outcome::Invalid(Void::SupportNotMatched)
            }
            Eff::SupHold { .. } | Eff::SupMove { .. } => {
                if r.t.node[u].res {
                    Outcome::Succeeds
                } else if let Some(m) = dislodger {
                    Outcome::Fails(Failure::Dislodged { by: m })
                } else {
                    match r.cutter(u) {
                        Some(by) => Outcome::Fails(Failure::Cut { by }),
                        // Only the backup rule fails a support that nothing cut.
                        None => Outcome::Fails(Failure::Paradox),
                    }
                }
            }
            Eff::Convoy { .. } if !r.t.node[u].convoying => {
                Outcome::Invalid(Void::ConvoyNotMatched)
            }
            Eff::Convoy { .. } => match dislodger {
                Some(m) => Outcome::Fails(Failure::Dislodged { by: m }),
                None if r.t.node[u].paradox => Outcome::Fails(Failure::Paradox),
                None => Outcome::Succeeds,
            },
        };
        // A legal order's result starts as `Succeeds`.
        if outcome != Outcome::Succeeds {
            results[k].outcome = outcome;
        }
    }
    // An order written twice shares its twin's outcome (4.D.3).
    for (k, first) in same_as {
        results[k].outcome = results[first].outcome.clone();
    }
    // Not `vec![false; n]`: a zeroed allocation takes mimalloc's slow aligned path.
    let mut convoyed = Vec::with_capacity(n);
    if by_convoy {
        for m in 0..n {
            convoyed.push(r.by_convoy(m));
        }
    } else {
        convoyed.resize(n, false);
    }
    let t = r.t;
    t.give_back();
    legality::recycle(unit_at, eff, order_of);
    MovementResult {
        rules,
        convoyed,
        units: units.clone(),
        orders: results,
        destination,
        dislodged,
        contested,
        diagnostics,
    }
}

/// The opposition that stopped move `m`.
// `m` is a move (called for a failed `Eff::Move` only), so `dest` cannot fail.
#[allow(clippy::expect_used)]
fn why_bounced(r: &mut Resolver<'_>, m: usize) -> Failure {
    let attack = r.attack(m);
    let (d, _) = r.dest(m).expect("a move");
    // Room for the usual number of oppositions, so that pushing them does not grow it.
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
    let h2h = r.head_to_head(m);
    if let Some(o) = h2h {
        oppose(o, Strength::Defend, r.defend(o));
    } else if r.unit_at[d.0 as usize] != NONE {
        oppose(r.unit_at[d.0 as usize] as usize, Strength::Hold, r.hold(d));
    }
    let mut next = r.t.mover_head[d.0 as usize];
    while next != NONE {
        let other = next as usize;
        if other != m && h2h != Some(other) {
            oppose(other, Strength::Prevent, r.prevent(other));
        }
        next = r.t.node[other].next_mover;
    }
    Failure::Bounced { attack, against }
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
    checked: &Checked,
    max_decisions: usize,
) -> Option<Enumeration> {
    let units = &position.units;
    let mut r = new_resolver(
        map,
        rules,
        units,
        &checked.eff,
        &checked.unit_at,
        Scratch::take(),
    );
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
        .filter(|&&u| r.t.node[u].state == State::Resolved)
        .map(|&u| (u, r.t.node[u].res))
        .collect();
    let mut alone_wrong = Vec::new();
    for &u in &decisions {
        r.resolve(u);
    }
    let resolved: Vec<bool> = decisions.iter().map(|&u| r.t.node[u].res).collect();
    let backup_fired = r.backup_fired;
    let mut solutions = Vec::new();
    for mask in 0u32..(1 << decisions.len()) {
        let value = |i: usize| mask >> i & 1 == 1;
        for (i, &u) in decisions.iter().enumerate() {
            r.t.node[u].res = value(i);
            r.t.node[u].state = State::Resolved;
        }
        // Each assignment decides every convoy afresh: no route is kept from the last.
        for node in r.t.node.iter_mut() {
            node.route_memo = 0;
        }
        for &(u, v) in &alone {
            if r.adjudicate(u) != v && !alone_wrong.contains(&u) {
                alone_wrong.push(u);
            }
        }
        for node in r.t.node.iter_mut() {
            node.route_memo = 0;
        }
        if decisions
            .iter()
            .enumerate()
            .all(|(i, &u)| r.adjudicate(u) == value(i))
        {
            solutions.push((0..decisions.len()).map(value).collect());
        }
    }
    r.t.give_back();
    Some(Enumeration {
        decisions,
        resolved,
        backup_fired,
        alone,
        alone_wrong,
        solutions,
    })
}
