//! Convoy routes over the board: is a route possible at all (legality), is a fleet
//! necessary for some route (6.G.19), and is there a route through the fleets whose
//! convoys succeed (the resolver's PATH).

use crate::map::{Map, Prov, ProvSet};

/// The seas in `fleets` a convoy could start from or end at next to `shore`.
fn touching(map: &Map, fleets: &ProvSet, shore: Prov) -> ProvSet {
    map.fleet_reach_any(shore).and(fleets)
}

/// Is there a chain of fleets (in `fleets`, sea provinces) from `from` to `to`?
pub fn route_exists(map: &Map, fleets: &ProvSet, from: Prov, to: Prov) -> bool {
    let start = touching(map, fleets, from);
    if start.is_empty() {
        return false;
    }
    let goal = touching(map, fleets, to);
    if goal.is_empty() {
        return false;
    }
    let mut seen = start;
    let mut frontier = start;
    loop {
        if frontier.intersects(&goal) {
            return true;
        }
        let mut next = ProvSet::EMPTY;
        for s in frontier.iter() {
            next = next.or(&map.fleet_reach_any(s).and(fleets));
        }
        next = next.minus(&seen);
        if next.is_empty() {
            return false;
        }
        seen = seen.or(&next);
        frontier = next;
    }
}

/// The fleets in `allowed` reachable from `start` through fleets in `allowed`.
fn reach_within(map: &Map, allowed: &ProvSet, start: ProvSet) -> ProvSet {
    let mut seen = start.and(allowed);
    let mut frontier = seen;
    while !frontier.is_empty() {
        let mut next = ProvSet::EMPTY;
        for s in frontier.iter() {
            next = next.or(map.fleet_reach_any(s));
        }
        next = next.and(allowed).minus(&seen);
        seen = seen.or(&next);
        frontier = next;
    }
    seen
}

/// Is fleet `f` on some route from `from` to `to` that needs every one of its fleets
/// (an induced path: no fleet of it touches a later one but its successor)? A convoy
/// by a fleet on no such route is illegal (DATC 4.E.1, 6.G.19).
///
/// A depth-first search over induced paths, pruned by reachability: a branch is cut as
/// soon as `to` (or `f`, while the path lacks it) cannot be reached through the fleets
/// still allowed.
pub fn necessary(map: &Map, fleets: &ProvSet, from: Prov, to: Prov, f: Prov) -> bool {
    if !fleets.contains(f) || !route_exists(map, fleets, from, to) {
        return false;
    }
    let goal = map.fleet_reach_any(to).and(fleets);
    struct Search<'a> {
        map: &'a Map,
        fleets: ProvSet,
        goal: ProvSet,
        f: Prov,
    }
    impl Search<'_> {
        /// `last` ends the path; `used`: the path's fleets; `banned`: provinces touching
        /// an earlier element than `last` (a later fleet there would make a shortcut).
        fn dfs(&self, last: Prov, used: ProvSet, banned: ProvSet, has_f: bool) -> bool {
            if self.goal.contains(last) {
                return has_f;
            }
            let allowed = self.fleets.minus(&banned).minus(&used);
            let next = self.map.fleet_reach_any(last).and(&allowed);
            let reach = reach_within(self.map, &allowed, next);
            if !reach.intersects(&self.goal) || (!has_f && !reach.contains(self.f)) {
                return false;
            }
            let banned2 = banned.or(self.map.fleet_reach_any(last));
            let found = next.iter().any(|s| {
                let mut used2 = used;
                used2.insert(s);
                self.dfs(s, used2, banned2, has_f || s == self.f)
            });
            found
        }
    }
    let search = Search {
        map,
        fleets: *fleets,
        goal,
        f,
    };
    // A later fleet may not touch `from` (else the path would not be induced).
    let banned = *map.fleet_reach_any(from);
    let first = map.fleet_reach_any(from).and(fleets);
    let found = first.iter().any(|s| {
        let mut used = ProvSet::EMPTY;
        used.insert(s);
        search.dfs(s, used, banned, s == f)
    });
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
