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

/// Is fleet `f` on some route from `from` to `to` that needs every one of its fleets
/// (an induced path: no fleet of it touches a later one but its successor)? A convoy
/// by a fleet on no such route is illegal (DATC 4.E.1, 6.G.19).
pub fn necessary(map: &Map, fleets: &ProvSet, from: Prov, to: Prov, f: Prov) -> bool {
    if !fleets.contains(f) || !route_exists(map, fleets, from, to) {
        return false;
    }
    let mut path: Vec<Prov> = Vec::new();
    // `banned`: provinces touching an earlier element of the path (not the last).
    fn dfs(
        map: &Map,
        fleets: &ProvSet,
        to: Prov,
        f: Prov,
        path: &mut Vec<Prov>,
        banned: ProvSet,
        has_f: bool,
    ) -> bool {
        let last = *path.last().expect("non-empty path");
        if map.fleet_reach_any(last).contains(to) {
            return has_f;
        }
        let next = map.fleet_reach_any(last).and(fleets).minus(&banned);
        let banned2 = banned.or(map.fleet_reach_any(last));
        for s in next.iter() {
            if path.contains(&s) {
                continue;
            }
            path.push(s);
            let ok = dfs(map, fleets, to, f, path, banned2, has_f || s == f);
            path.pop();
            if ok {
                return true;
            }
        }
        false
    }
    for s in touching(map, fleets, from).iter() {
        path.push(s);
        // a later fleet may not touch `from` (else the path would not be induced)
        let banned = *map.fleet_reach_any(from);
        if dfs(map, fleets, to, f, &mut path, banned, s == f) {
            return true;
        }
        path.pop();
    }
    false
}
