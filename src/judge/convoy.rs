//! Convoy routes over the board: is a route possible at all (legality), is a fleet
//! necessary for some route (6.G.19), and is there a route through the fleets whose
//! convoys succeed (the resolver's PATH).

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
    /// The number of the sea province `p`.
    fn number(&self, p: Prov) -> usize;
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
    fn number(&self, p: Prov) -> usize {
        self.0.number[p.0 as usize] as usize
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
    fn number(&self, p: Prov) -> usize {
        p.0 as usize
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
        let n = t.number[p.0 as usize];
        if n == u8::MAX {
            return None;
        }
        bits |= 1 << n;
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

/// Is fleet `f` on some route from `from` to `to` that needs every one of its fleets
/// (an induced path: no fleet of it touches a later one but its successor)? A convoy
/// by a fleet on no such route is illegal (DATC 4.E.1, 6.G.19).
pub fn necessary(map: &Map, fleets: &ProvSet, from: Prov, to: Prov, f: Prov) -> bool {
    let mut want = ProvSet::EMPTY;
    want.insert(f);
    !necessary_among(map, fleets, from, to, &want).is_empty()
}

/// The fleets of `want` that lie on some route from `from` to `to` needing every one of
/// its fleets ([`necessary`] for many fleets in one search): the fleets whose convoy
/// of an army from `from` to `to` is legal.
///
/// A depth-first search over induced paths, pruned by reachability: a branch is cut as
/// soon as `to` cannot be reached through the fleets still allowed, or when no fleet of
/// `want` not yet found could lie on it.
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
    match small(map, fleets) {
        Some((net, bits)) => {
            let w = want.iter().fold(0u128, |b, p| b | 1 << net.number(p));
            let found = search(&net, bits, from, to, w);
            want.iter()
                .filter(|&p| found.contains(net.number(p)))
                .collect()
        }
        None => search(&Wide(map), *fleets, from, to, want),
    }
}

/// The fleets (in `fleets`, sea provinces) reachable from `from` through a chain of
/// them: an army in `from` may be convoyed to every coastal province one of them
/// touches ([`route_exists`]).
pub fn reachable(map: &Map, fleets: &ProvSet, from: Prov) -> ProvSet {
    let net = Wide(map);
    reach_within(&net, *fleets, net.touch(from).and(*fleets))
}

fn search<N: Net>(net: &N, fleets: N::B, from: Prov, to: Prov, want: N::B) -> N::B {
    struct Search<'a, N: Net> {
        net: &'a N,
        fleets: N::B,
        goal: N::B,
        want: N::B,
    }
    impl<N: Net> Search<'_, N> {
        /// `last` ends the path; `used`: the path's fleets; `banned`: seas touching an
        /// earlier element than `last` (a later fleet there would make a shortcut).
        fn dfs(&self, last: usize, used: N::B, banned: N::B, found: &mut N::B) {
            if self.goal.contains(last) {
                *found = found.or(used.and(self.want));
                return;
            }
            let allowed = self.fleets.minus(banned).minus(used);
            let next = self.net.adj(last).and(allowed);
            let reach = reach_within(self.net, allowed, next);
            if !reach.intersects(self.goal)
                || reach.or(used).and(self.want).minus(*found).is_empty()
            {
                return;
            }
            let banned2 = banned.or(self.net.adj(last));
            for s in next.members() {
                if self.want.minus(*found).is_empty() {
                    return;
                }
                let mut used2 = used;
                used2.insert(s);
                self.dfs(s, used2, banned2, found);
            }
        }
    }
    let search = Search {
        net,
        fleets,
        goal: net.touch(to).and(fleets),
        want,
    };
    // A later fleet may not touch `from` (else the path would not be induced).
    let banned = net.touch(from);
    let first = banned.and(fleets);
    let mut found = N::B::EMPTY;
    for s in first.members() {
        if want.minus(found).is_empty() {
            break;
        }
        let mut used = N::B::EMPTY;
        used.insert(s);
        search.dfs(s, used, banned, &mut found);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

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
