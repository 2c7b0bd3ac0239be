//! Convoy routes over the board: is a route possible at all (legality), is a fleet
//! necessary for some route (6.G.19), and is there a route through the fleets whose
//! convoys succeed (the resolver's PATH).

// Indexing is by dense ids and by positions in vectors built here, never by raw
// input. Prov/Loc/Power ids come from the map loader (which builds every adjacency
// table from validated ids) or from a position and orders that `game::check_ids`
// validated at the entry of `adjudicate`/`advance`; the public phase functions
// re-exported from `judge` take ids of the `map` they are given, the contract
// `advance` checks. Unit and order indices are positions in the vectors this
// phase built (one entry per unit, per order). An out-of-range index is a bug, not
// input.
#![allow(clippy::indexing_slicing)]

use crate::map::{Map, Prov, ProvSet, SeaTable};

// The searches run on sets of seas. On a map with at most 128 seas (every shipped board)
// a set of seas is one `u128`, numbered by the map's [`SeaTable`]; otherwise it is a
// [`ProvSet`] indexed by province. The search code is written once, over [`Bits`] and
// [`Net`].

/// A set of sea numbers.
trait Bits: Copy {
    const EMPTY: Self;
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    fn minus(self, o: Self) -> Self;
    fn is_empty(self) -> bool;
    fn contains(self, i: usize) -> bool;
    fn insert(&mut self, i: usize);
    /// The members, in increasing order.
    fn members(self) -> impl Iterator<Item = usize>;
    fn intersects(self, o: Self) -> bool {
        !self.and(o).is_empty()
    }
}

impl Bits for u128 {
    const EMPTY: u128 = 0;
    #[inline]
    fn and(self, o: u128) -> u128 {
        self & o
    }
    #[inline]
    fn or(self, o: u128) -> u128 {
        self | o
    }
    #[inline]
    fn minus(self, o: u128) -> u128 {
        self & !o
    }
    #[inline]
    fn is_empty(self) -> bool {
        self == 0
    }
    #[inline]
    fn contains(self, i: usize) -> bool {
        self >> i & 1 != 0
    }
    #[inline]
    fn insert(&mut self, i: usize) {
        *self |= 1 << i;
    }
    #[inline]
    fn members(self) -> impl Iterator<Item = usize> {
        let mut b = self;
        std::iter::from_fn(move || {
            if b == 0 {
                return None;
            }
            let t = b.trailing_zeros() as usize;
            b &= b - 1;
            Some(t)
        })
    }
}

impl Bits for ProvSet {
    const EMPTY: ProvSet = ProvSet::EMPTY;
    fn and(self, o: ProvSet) -> ProvSet {
        ProvSet::and(&self, &o)
    }
    fn or(self, o: ProvSet) -> ProvSet {
        ProvSet::or(&self, &o)
    }
    fn minus(self, o: ProvSet) -> ProvSet {
        ProvSet::minus(&self, &o)
    }
    fn is_empty(self) -> bool {
        ProvSet::is_empty(&self)
    }
    fn contains(self, i: usize) -> bool {
        ProvSet::contains(&self, Prov(i as u16))
    }
    fn insert(&mut self, i: usize) {
        ProvSet::insert(self, Prov(i as u16))
    }
    fn members(self) -> impl Iterator<Item = usize> {
        self.into_iter().map(|p| p.0 as usize)
    }
    fn intersects(self, o: ProvSet) -> bool {
        ProvSet::intersects(&self, &o)
    }
}

/// The seas of a board, as [`Bits`].
trait Net {
    type B: Bits;
    /// The seas a fleet in sea `s` may move to.
    fn adj(&self, s: usize) -> Self::B;
    /// The seas a fleet in province `p` (any coast) may move to.
    fn touch(&self, p: Prov) -> Self::B;
    /// The number of the sea province `p` (`None` for a province that is not a sea).
    fn number(&self, p: Prov) -> Option<usize>;
}

/// At most 128 seas: `u128`.
struct Small<'a>(&'a SeaTable);

impl Net for Small<'_> {
    type B = u128;
    #[inline]
    fn adj(&self, s: usize) -> u128 {
        self.0.adj[s]
    }
    #[inline]
    fn touch(&self, p: Prov) -> u128 {
        self.0.touch[p.0 as usize]
    }
    #[inline]
    fn number(&self, p: Prov) -> Option<usize> {
        self.0.number[p.0 as usize].map(usize::from)
    }
}

/// Any board: [`ProvSet`], numbered by province.
struct Wide<'a>(&'a Map);

impl Net for Wide<'_> {
    type B = ProvSet;
    fn adj(&self, s: usize) -> ProvSet {
        *self.0.fleet_reach_any(Prov(s as u16))
    }
    fn touch(&self, p: Prov) -> ProvSet {
        *self.0.fleet_reach_any(p)
    }
    fn number(&self, p: Prov) -> Option<usize> {
        Some(p.0 as usize)
    }
}

/// The sea table and `fleets` as a `u128`, when the map has one and every fleet is at
/// sea.
#[inline]
fn small<'a>(map: &'a Map, fleets: &ProvSet) -> Option<(Small<'a>, u128)> {
    let t = map.sea_table()?;
    if t.identity {
        let bits = fleets.as_u128()?;
        return (bits & !t.seas == 0).then_some((Small(t), bits));
    }
    let mut bits = 0u128;
    for p in fleets.iter() {
        bits |= 1 << t.number[p.0 as usize]?;
    }
    Some((Small(t), bits))
}

/// Is there a chain of fleets (in `fleets`, sea provinces) from `from` to `to`?
pub fn route_exists(map: &Map, fleets: &ProvSet, from: Prov, to: Prov) -> bool {
    match small(map, fleets) {
        Some((net, f)) => route(&net, f, from, to),
        None => route(&Wide(map), *fleets, from, to),
    }
}

fn route<N: Net>(net: &N, fleets: N::B, from: Prov, to: Prov) -> bool {
    let start = net.touch(from).and(fleets);
    if start.is_empty() {
        return false;
    }
    let goal = net.touch(to).and(fleets);
    if goal.is_empty() {
        return false;
    }
    let mut seen = start;
    let mut frontier = start;
    loop {
        if frontier.intersects(goal) {
            return true;
        }
        let mut next = N::B::EMPTY;
        for s in frontier.members() {
            next = next.or(net.adj(s).and(fleets));
        }
        next = next.minus(seen);
        if next.is_empty() {
            return false;
        }
        seen = seen.or(next);
        frontier = next;
    }
}

/// The fleets in `allowed` reachable from `start` through fleets in `allowed`.
fn reach_within<N: Net>(net: &N, allowed: N::B, start: N::B) -> N::B {
    let mut seen = start.and(allowed);
    let mut frontier = seen;
    while !frontier.is_empty() {
        let mut next = N::B::EMPTY;
        for s in frontier.members() {
            next = next.or(net.adj(s));
        }
        next = next.and(allowed).minus(seen);
        seen = seen.or(next);
        frontier = next;
    }
    seen
}

/// The most search steps [`necessary`] spends on one fleet before it gives the fleet
/// the benefit of the doubt (its convoy is legal). See [`necessary`].
pub const NECESSARY_BUDGET: u32 = 4_096;

/// Is fleet `f` on some route from `from` to `to` that needs every one of its fleets
/// (an induced path: no fleet of it touches a later one but its successor, the first
/// alone touches `from` and the last alone touches `to`)? A convoy by a fleet on no such
/// route is illegal (DATC 4.E.1, 6.G.19).
///
/// Whether a vertex lies on an induced path between two others is NP-complete on
/// general graphs, so no method is polynomial on every board. This one is polynomial
/// except in a last resort, and that resort is bounded:
///
/// 1. *A witness*: the shortest chain from `from` to `f` that touches `to` only at `f`,
///    then the shortest chain from `f` to `to` clear of it; and the same from the other
///    end. Either is a route that needs all its fleets. Two breadth-first searches
///    settle nearly every fleet that is on such a route.
/// 2. *A refutation*: `f` is reached from some fleet `q` (or is itself next to
///    `from`), and the route's part after `f` must keep clear of every fleet touching
///    `q`; if for no `q` a chain from `f` to `to` stays clear of the fleets touching
///    `from` and `q`, no route needs `f` (the Aegean between the Ionian and the Eastern
///    Mediterranean on the way to Syria, the traps of `tests/it/convoy_scale.rs`).
/// 3. *A search* over the routes' first parts, from `from` to `f`, each completed by a
///    breadth-first search, pruned by the two tests above at every step. After
///    [`NECESSARY_BUDGET`] steps without an answer, `f` counts as necessary: its convoy
///    is legal (docs/RULES.md, 4.E.1). The answer depends only on the board, the
///    fleets at sea, `from`, `to` and `f`, never on the other orders, so
///    [`necessary_among`] and the legal-order lists agree with legality.
pub fn necessary(map: &Map, fleets: &ProvSet, from: Prov, to: Prov, f: Prov) -> bool {
    if !fleets.contains(f) {
        return false;
    }
    let answer = match small(map, fleets) {
        // A fleet not at sea is on no convoy route.
        Some((net, bits)) => match net.number(f) {
            Some(n) => on_needed_route(&net, bits, from, to, n),
            None => Some(false),
        },
        None => on_needed_route(&Wide(map), *fleets, from, to, f.0 as usize),
    };
    answer.unwrap_or(true)
}

/// The fleets of `want` that lie on some route from `from` to `to` needing every one of
/// its fleets ([`necessary`] for each of them): the fleets whose convoy of an army from
/// `from` to `to` is legal.
pub fn necessary_among(
    map: &Map,
    fleets: &ProvSet,
    from: Prov,
    to: Prov,
    want: &ProvSet,
) -> ProvSet {
    let want = want.and(fleets);
    if want.is_empty() || !route_exists(map, fleets, from, to) {
        return ProvSet::EMPTY;
    }
    want.iter()
        .filter(|&f| necessary(map, fleets, from, to, f))
        .collect()
}

/// The fleets (in `fleets`, sea provinces) reachable from `from` through a chain of
/// them: an army in `from` may be convoyed to every coastal province one of them
/// touches ([`route_exists`]).
pub fn reachable(map: &Map, fleets: &ProvSet, from: Prov) -> ProvSet {
    let net = Wide(map);
    reach_within(&net, *fleets, net.touch(from).and(*fleets))
}

/// [`necessary`] on sea numbers: `Some(answer)`, or `None` when the search ran out of
/// steps.
fn on_needed_route<N: Net>(net: &N, fleets: N::B, from: Prov, to: Prov, f: usize) -> Option<bool> {
    let mut steps = NECESSARY_BUDGET;
    Needed::new(net, fleets, net.touch(from), net.touch(to).and(fleets), f).answer(&mut steps)
}

/// The set of one sea.
fn one<B: Bits>(i: usize) -> B {
    let mut b = B::EMPTY;
    b.insert(i);
    b
}

/// The question "is fleet `f` on an induced route from `from` to `to`", with the sets
/// it needs.
struct Needed<'a, N: Net> {
    net: &'a N,
    fleets: N::B,
    /// The seas touching `from` (fleets or not): only a route's first fleet may be one.
    start: N::B,
    /// The fleets touching `to`: a route ends at the first one.
    goal: N::B,
    f: usize,
    /// The fleets the part of a route up to `f` may use: not in `goal`, but `f` itself.
    before: N::B,
}

impl<'a, N: Net> Needed<'a, N> {
    fn new(net: &'a N, fleets: N::B, start: N::B, goal: N::B, f: usize) -> Self {
        Needed {
            net,
            fleets,
            start,
            goal,
            f,
            before: fleets.minus(goal).or(one(f)),
        }
    }

    fn answer(&self, steps: &mut u32) -> Option<bool> {
        let (start, goal, f) = (self.start, self.goal, self.f);
        let first = start.and(self.before);
        if !self.fleets.contains(f) || goal.is_empty() || first.is_empty() {
            return Some(false);
        }
        if start.contains(f) && goal.contains(f) {
            return Some(true);
        }
        // The same question read backwards: from `to` to `from`.
        let mirror = Needed::new(self.net, self.fleets, goal, start.and(self.fleets), f);
        if self.witness() || mirror.witness() {
            return Some(true);
        }
        // Refutation: `f` is first (touching `from`), or comes after a fleet beside it.
        let pred = if start.contains(f) {
            one(f)
        } else {
            self.net.adj(f).and(self.before).minus(one(f))
        };
        if !self.may_finish(pred, N::B::EMPTY, start) {
            return Some(false);
        }
        for v in first.members() {
            if self.dfs(v, one(v), start, steps)? {
                return Some(true);
            }
        }
        Some(false)
    }

    /// A route through `f` made of two shortest chains: from `from` to `f` (touching
    /// `to` only at `f`), then from `f` to `to` clear of everything the first chain and
    /// `from` touch.
    fn witness(&self) -> bool {
        let (net, f) = (self.net, self.f);
        // Breadth-first layers from the fleets touching `from`, within `before`.
        let mut layers = vec![self.start.and(self.before)];
        let mut seen = layers[0];
        while !layers[layers.len() - 1].contains(f) {
            let mut next = N::B::EMPTY;
            for s in layers[layers.len() - 1].members() {
                next = next.or(net.adj(s));
            }
            next = next.and(self.before).minus(seen);
            if next.is_empty() {
                return false;
            }
            seen = seen.or(next);
            layers.push(next);
        }
        if self.goal.contains(f) {
            return true;
        }
        // Walk back, one fleet per layer, each touching the one after it; the second
        // chain keeps clear of them all and of what they touch.
        let mut banned = self.start.or(one(f));
        let mut at = f;
        for layer in layers.iter().rev().skip(1) {
            let Some(prev) = layer.and(net.adj(at)).members().next() else {
                return false;
            };
            banned = banned.or(net.adj(prev)).or(one(prev));
            at = prev;
        }
        let allowed = self.fleets.minus(banned);
        reach_within(net, allowed, net.adj(f).and(allowed)).intersects(self.goal)
    }

    /// Can a route whose part up to `f` came through `used`, with `f`'s predecessor in
    /// `pred` (`f` itself in `pred`: `f` is first), go on from `f` to `to`? The part
    /// after `f` keeps clear of `used`, of `banned` (the seas touching `from` or a fleet
    /// two or more before where it starts) and of the seas touching the predecessor.
    fn may_finish(&self, pred: N::B, used: N::B, banned: N::B) -> bool {
        let (net, f) = (self.net, self.f);
        if self.goal.contains(f) {
            return !pred.is_empty();
        }
        let clear = self.fleets.minus(used).minus(banned).minus(one(f));
        pred.members().any(|q| {
            let allowed = if q == f {
                clear
            } else {
                clear.minus(net.adj(q)).minus(one(q))
            };
            reach_within(net, allowed, net.adj(f).and(allowed)).intersects(self.goal)
        })
    }

    /// Extend the part of a route up to `f`: `used`, ending at `last` (not in `goal`
    /// unless it is `f`); `banned`: the seas touching `from` or a fleet before `last`.
    /// `None`: out of steps.
    fn dfs(&self, last: usize, used: N::B, banned: N::B, steps: &mut u32) -> Option<bool> {
        *steps = steps.checked_sub(1)?;
        let (net, f) = (self.net, self.f);
        if last == f {
            if self.goal.contains(f) {
                return Some(true);
            }
            let allowed = self.fleets.minus(banned).minus(used);
            let after = reach_within(net, allowed, net.adj(f).and(allowed));
            return Some(after.intersects(self.goal));
        }
        let walk = self.before.minus(banned).minus(used);
        let next = net.adj(last).and(walk);
        if !reach_within(net, walk, next).contains(f) {
            return Some(false);
        }
        // `f`'s predecessor: `last`, or a fleet still free beside `f`.
        let banned2 = banned.or(net.adj(last));
        let mut pred = net.adj(f).and(walk).minus(one(f));
        if next.contains(f) {
            pred.insert(last);
        }
        if !self.may_finish(pred, used, banned2) {
            return Some(false);
        }
        for v in next.members() {
            if self.dfs(v, used.or(one(v)), banned2, steps)? {
                return Some(true);
            }
        }
        Some(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board given as bare adjacency: seas `0..n`; province 0 is `from`, 1 is `to`.
    struct TestNet {
        adj: Vec<u128>,
        from: u128,
        to: u128,
    }

    impl Net for TestNet {
        type B = u128;
        fn adj(&self, s: usize) -> u128 {
            self.adj[s]
        }
        fn touch(&self, p: Prov) -> u128 {
            if p.0 == 0 {
                self.from
            } else {
                self.to
            }
        }
        fn number(&self, p: Prov) -> Option<usize> {
            Some(p.0 as usize)
        }
    }

    /// The definition itself: every induced route, by brute force.
    fn on_some_induced_route(net: &TestNet, fleets: u128, f: usize) -> bool {
        fn go(net: &TestNet, fleets: u128, f: usize, path: &mut Vec<usize>) -> bool {
            let last = *path.last().unwrap();
            if net.to.contains(last) {
                return path.contains(&f);
            }
            for v in net.adj[last].and(fleets).members() {
                let chord = path[..path.len() - 1]
                    .iter()
                    .any(|&u| net.adj[u].contains(v));
                if path.contains(&v) || net.from.contains(v) || chord {
                    continue;
                }
                path.push(v);
                let found = go(net, fleets, f, path);
                path.pop();
                if found {
                    return true;
                }
            }
            false
        }
        net.from
            .and(fleets)
            .members()
            .any(|v| go(net, fleets, f, &mut vec![v]))
    }

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
        fn subset(&mut self, n: usize, percent: u64) -> u128 {
            (0..n)
                .filter(|_| self.below(100) < percent)
                .fold(0, |b, i| b | 1 << i)
        }
    }

    fn random_net(rng: &mut Rng) -> (TestNet, u128, usize) {
        let n = 3 + rng.below(11) as usize;
        let p = 10 + rng.below(60);
        let mut adj = vec![0u128; n];
        for i in 0..n {
            for j in i + 1..n {
                if rng.below(100) < p {
                    adj[i] |= 1 << j;
                    adj[j] |= 1 << i;
                }
            }
        }
        let from = rng.subset(n, 25);
        let to = rng.subset(n, 25);
        let fleets = if rng.below(2) == 0 {
            (1u128 << n) - 1
        } else {
            rng.subset(n, 80)
        };
        (TestNet { adj, from, to }, fleets, n)
    }

    /// The witnesses, the refutation and the search agree with the definition on
    /// thousands of small random boards, and a search cut short never contradicts it.
    #[test]
    fn necessary_agrees_with_brute_force_on_random_boards() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut yes, mut no) = (0, 0);
        for _ in 0..4000 {
            let (net, fleets, n) = random_net(&mut rng);
            let (from, to) = (Prov(0), Prov(1));
            for f in 0..n {
                let want = fleets.contains(f) && on_some_induced_route(&net, fleets, f);
                let mut steps = u32::MAX;
                let got = Needed::new(&net, fleets, net.touch(from), net.touch(to).and(fleets), f)
                    .answer(&mut steps);
                assert_eq!(
                    got,
                    Some(want),
                    "{:?} fleets {fleets:b} f {f}",
                    (&net.adj, net.from, net.to)
                );
                let mut steps = 2;
                let cut = Needed::new(&net, fleets, net.touch(from), net.touch(to).and(fleets), f)
                    .answer(&mut steps);
                assert!(cut.is_none_or(|c| c == want));
                if want {
                    yes += 1;
                } else {
                    no += 1;
                }
            }
        }
        assert!(yes > 1000 && no > 1000, "{yes} necessary, {no} not");
    }

    /// Every sea holds a fleet; an army in London goes to Syria. The fleets needed by
    /// some route that cannot be shortened are worked out by hand from the board: the
    /// route through the Channel and the one round Scotland (North Sea, Norwegian Sea,
    /// North Atlantic) both meet at Mid-Atlantic, then West Med, Tyrrhenian, Ionian,
    /// East Med. The Aegean is skippable (Ionian touches East Med), as are the Irish Sea
    /// and the Gulf of Lyon; the rest lead nowhere.
    #[test]
    fn necessary_fleets_on_a_board_full_of_fleets() {
        let map = Map::standard();
        let fleets = *map.seas();
        let p = |s: &str| map.prov_by_id(s).unwrap();
        let needed: Vec<String> = fleets
            .iter()
            .filter(|&f| necessary(&map, &fleets, p("lon"), p("syr"), f))
            .map(|f| map.province(f).id.clone())
            .collect();
        assert_eq!(
            needed,
            ["eas", "eng", "ion", "mao", "nao", "nth", "nwg", "tys", "wes"]
        );
        assert!(route_exists(&map, &fleets, p("lon"), p("syr")));
        let mut no_ion = fleets;
        no_ion.remove(p("ion"));
        assert!(!route_exists(&map, &no_ion, p("lon"), p("syr")));
    }
}
