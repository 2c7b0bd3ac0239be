//! The movement resolver: DATC v3.0 chapter 5. Every move, support and convoy is a
//! yes/no decision; `adjudicate` evaluates one from the others, `resolve` caches,
//! detects cycles and guesses (fail, then succeed) as in 5.F; a cycle with two or no
//! solutions gets the backup rule (circular movement succeeds; with a convoy, Szykman).
//! Attacks on a convoying fleet are evaluated with `adjudicate`, not `resolve` (5.D),
//! so every cycle is a clean single one.
//!
//! Orders are never processed in a fixed sequence. The hot path uses dense indices and
//! flat tables only.

use super::convoy;
use super::legality::{Checked, Eff, NONE};
use super::outcome::{Failure, Opposition, Outcome, Strength, Void};
use super::{Dislodged, MovementResult, Rules};
use crate::game::{Position, Unit};
use crate::map::{Loc, Map, Prov, ProvSet, UnitKind};

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Unresolved,
    Visited,
    Resolved,
}

/// Flat lists: `items[start[i]..start[i + 1]]` belongs to `i`.
struct Lists {
    start: Vec<u16>,
    items: Vec<u16>,
}

impl Lists {
    fn build(n: usize, pairs: &[(u16, u16)]) -> Lists {
        let mut start = vec![0u16; n + 1];
        for &(k, _) in pairs {
            start[k as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut items = vec![0u16; pairs.len()];
        for &(k, v) in pairs {
            items[fill[k as usize] as usize] = v;
            fill[k as usize] += 1;
        }
        Lists { start, items }
    }
    fn of(&self, i: usize) -> &[u16] {
        &self.items[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

struct Resolver<'a> {
    map: &'a Map,
    units: &'a [Unit],
    eff: &'a [Eff],
    unit_at: &'a [u16],
    /// Per unit: the province it is in.
    prov: Vec<Prov>,
    /// Per unit: the units whose support (matched) it receives.
    supporters: Lists,
    /// Per province: the units moving there.
    movers: Lists,
    /// Per moving unit: the fleets with a matching convoy order.
    convoyers: Lists,
    /// Per supporting unit: the support matches what the supported unit does.
    matched: Vec<bool>,
    state: Vec<State>,
    res: Vec<bool>,
    paradox: Vec<bool>,
    cycle: Vec<u16>,
    guess_based: bool,
    recursion_hits: i32,
}

impl Resolver<'_> {
    fn dest(&self, u: usize) -> Option<(Prov, bool)> {
        match self.eff[u] {
            Eff::Move { to, convoy } => Some((self.map.prov_of(to), convoy)),
            _ => None,
        }
    }

    /// The unit opposing `m` head to head, if any (neither move convoyed).
    fn head_to_head(&self, m: usize) -> Option<usize> {
        let (d, conv) = self.dest(m)?;
        if conv {
            return None;
        }
        let o = self.unit_at[d.0 as usize];
        if o == NONE {
            return None;
        }
        match self.dest(o as usize) {
            Some((back, false)) if back == self.prov[m] => Some(o as usize),
            _ => None,
        }
    }

    fn resolve(&mut self, u: usize) -> bool {
        if self.state[u] == State::Resolved {
            return self.res[u];
        }
        if self.cycle.contains(&(u as u16)) {
            self.guess_based = true;
            return self.res[u];
        }
        if self.state[u] == State::Visited {
            self.cycle.push(u as u16);
            self.guess_based = true;
            self.recursion_hits += 1;
            return self.res[u];
        }
        self.state[u] = State::Visited;
        let old_cycle_len = self.cycle.len();
        let old_guess_based = self.guess_based;
        self.guess_based = false;
        let old_recursion_hits = self.recursion_hits;
        self.res[u] = false;
        let first = self.adjudicate(u);
        if !self.guess_based {
            self.guess_based = old_guess_based;
            self.res[u] = first;
            self.state[u] = State::Resolved;
            return first;
        }
        if self.cycle[old_cycle_len..].contains(&(u as u16)) {
            self.recursion_hits -= 1;
        }
        if self.recursion_hits == old_recursion_hits {
            self.cycle.truncate(old_cycle_len);
            self.res[u] = true;
            let second = self.adjudicate(u);
            if first == second {
                self.cycle.truncate(old_cycle_len);
                self.guess_based = old_guess_based;
                self.res[u] = first;
                self.state[u] = State::Resolved;
                return first;
            }
            let members: Vec<u16> = self.cycle[old_cycle_len..].to_vec();
            self.backup_rule(u, &members);
            self.cycle.truncate(old_cycle_len);
            self.guess_based = old_guess_based;
            if self.state[u] != State::Resolved {
                self.state[u] = State::Unresolved;
            }
            return self.resolve(u);
        }
        if !self.cycle[old_cycle_len..].contains(&(u as u16)) {
            self.cycle.push(u as u16);
        }
        self.res[u] = first;
        self.state[u] = State::Unresolved;
        first
    }

    /// Two or no solutions: circular movement succeeds; a cycle with a convoy in it
    /// is a paradox and the convoys fail (Szykman); anything else fails.
    fn backup_rule(&mut self, u: usize, members: &[u16]) {
        let mut all: Vec<u16> = members.to_vec();
        if !all.contains(&(u as u16)) {
            all.push(u as u16);
        }
        let convoys: Vec<u16> = all
            .iter()
            .copied()
            .filter(|&m| matches!(self.eff[m as usize], Eff::Convoy { .. }))
            .collect();
        if !convoys.is_empty() {
            for m in convoys {
                self.res[m as usize] = false;
                self.state[m as usize] = State::Resolved;
                self.paradox[m as usize] = true;
            }
        } else if all
            .iter()
            .all(|&m| matches!(self.eff[m as usize], Eff::Move { .. }))
        {
            for m in all {
                self.res[m as usize] = true;
                self.state[m as usize] = State::Resolved;
            }
        } else {
            for m in all {
                self.res[m as usize] = false;
                self.state[m as usize] = State::Resolved;
            }
        }
    }

    fn adjudicate(&mut self, u: usize) -> bool {
        match self.eff[u] {
            Eff::Move { .. } => self.move_succeeds(u),
            Eff::SupHold { .. } | Eff::SupMove { .. } => {
                self.matched[u] && self.cutter(u).is_none()
            }
            Eff::Convoy { .. } => {
                // 5.D: attacks on the fleet are adjudicated, not resolved.
                let p = self.prov[u];
                let movers: Vec<u16> = self.movers.of(p.0 as usize).to_vec();
                !movers.into_iter().any(|m| self.adjudicate(m as usize))
            }
            Eff::Hold => true,
        }
    }

    /// PATH: the move is not convoyed, or a chain of fleets whose convoys succeed
    /// joins its origin and destination.
    fn path(&mut self, m: usize) -> bool {
        let Some((d, true)) = self.dest(m) else {
            return true;
        };
        let n = self.convoyers.of(m).len();
        let mut fleets = ProvSet::EMPTY;
        for k in 0..n {
            let f = self.convoyers.of(m)[k] as usize;
            if self.resolve(f) {
                fleets.insert(self.prov[f]);
            }
        }
        !fleets.is_empty() && convoy::route_exists(self.map, &fleets, self.prov[m], d)
    }

    fn support_count(&mut self, u: usize, not_of: Option<crate::map::Power>) -> u8 {
        let mut n = 0;
        let k = self.supporters.of(u).len();
        for i in 0..k {
            let s = self.supporters.of(u)[i] as usize;
            if not_of.is_some_and(|p| self.units[s].power == p) {
                continue;
            }
            if self.resolve(s) {
                n += 1;
            }
        }
        n
    }

    fn attack(&mut self, m: usize) -> u8 {
        if !self.path(m) {
            return 0;
        }
        let (d, _) = self.dest(m).expect("a move");
        let o = self.unit_at[d.0 as usize];
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

    fn defend(&mut self, m: usize) -> u8 {
        1 + self.support_count(m, None)
    }

    fn prevent(&mut self, m: usize) -> u8 {
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
        let k = self.movers.of(d.0 as usize).len();
        for i in 0..k {
            let other = self.movers.of(d.0 as usize)[i] as usize;
            if other != m && a <= self.prevent(other) {
                return false;
            }
        }
        true
    }

    /// The unit that cuts support `s`, if any (5.B.2).
    fn cutter(&mut self, s: usize) -> Option<usize> {
        let p = self.prov[s];
        let aimed = match self.eff[s] {
            Eff::SupMove { to, .. } => Some(to),
            _ => None,
        };
        let k = self.movers.of(p.0 as usize).len();
        for i in 0..k {
            let m = self.movers.of(p.0 as usize)[i] as usize;
            if self.units[m].power != self.units[s].power
                && aimed != Some(self.prov[m])
                && self.path(m)
            {
                return Some(m);
            }
        }
        for i in 0..k {
            let m = self.movers.of(p.0 as usize)[i] as usize;
            if self.resolve(m) {
                return Some(m);
            }
        }
        None
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
    let prov: Vec<Prov> = units.iter().map(|u| map.prov_of(u.loc)).collect();

    // Match supports and convoys to what their units do.
    let mut matched = vec![false; n];
    let mut sup_pairs: Vec<(u16, u16)> = Vec::new();
    let mut conv_pairs: Vec<(u16, u16)> = Vec::new();
    let mut conv_matched = vec![false; n];
    let mut mover_pairs: Vec<(u16, u16)> = Vec::new();
    for s in 0..n {
        match eff[s] {
            Eff::SupHold { target } => {
                if !matches!(eff[target as usize], Eff::Move { .. }) {
                    matched[s] = true;
                    sup_pairs.push((target, s as u16));
                }
            }
            Eff::SupMove { target, to, coast } => {
                if let Eff::Move { to: mt, .. } = eff[target as usize] {
                    if map.prov_of(mt) == to && coast.is_none_or(|c| c == mt) {
                        matched[s] = true;
                        sup_pairs.push((target, s as u16));
                    }
                }
            }
            Eff::Convoy { army, to } => {
                if let Eff::Move { to: mt, convoy } = eff[army as usize] {
                    if map.prov_of(mt) == to {
                        conv_matched[s] = true;
                        if convoy {
                            conv_pairs.push((army, s as u16));
                        }
                    }
                }
            }
            Eff::Move { to, .. } => mover_pairs.push((map.prov_of(to).0 as u16, s as u16)),
            Eff::Hold => {}
        }
    }
    let mut r = Resolver {
        map,
        units,
        eff: &eff,
        unit_at: &unit_at,
        prov,
        supporters: Lists::build(n, &sup_pairs),
        movers: Lists::build(map.province_count(), &mover_pairs),
        convoyers: Lists::build(n, &conv_pairs),
        matched,
        state: vec![State::Unresolved; n],
        res: vec![false; n],
        paradox: vec![false; n],
        cycle: Vec::new(),
        guess_based: false,
        recursion_hits: 0,
    };
    // A convoyed move with no route through matching convoys at all is void.
    let void_move: Vec<bool> = (0..n)
        .map(|m| match r.dest(m) {
            Some((d, true)) => {
                let fleets: ProvSet = r
                    .convoyers
                    .of(m)
                    .iter()
                    .map(|&f| r.prov[f as usize])
                    .collect();
                !convoy::route_exists(map, &fleets, r.prov[m], d)
            }
            _ => false,
        })
        .collect();
    for (u, e) in eff.iter().enumerate() {
        if !matches!(e, Eff::Hold) {
            r.resolve(u);
        }
    }

    // Where every unit ends, and who is dislodged by whom.
    let mut destination: Vec<Loc> = units.iter().map(|u| u.loc).collect();
    let mut moved = vec![false; n];
    for m in 0..n {
        if let Eff::Move { to, .. } = eff[m] {
            if r.res[m] {
                destination[m] = to;
                moved[m] = true;
            }
        }
    }
    let mut dislodger: Vec<Option<usize>> = vec![None; n];
    for m in 0..n {
        if moved[m] {
            let o = unit_at[map.prov_of(destination[m]).0 as usize];
            if o != NONE && !moved[o as usize] {
                dislodger[o as usize] = Some(m);
            }
        }
    }
    let mut occupied = ProvSet::EMPTY;
    for u in 0..n {
        if dislodger[u].is_none() {
            occupied.insert(map.prov_of(destination[u]));
        }
    }
    // Contested: empty after the phase, and a move there with prevent strength failed.
    let mut contested = Vec::new();
    for p in map.provs() {
        if occupied.contains(p) {
            continue;
        }
        let k = r.movers.of(p.0 as usize).len();
        let mut standoff = false;
        for i in 0..k {
            let m = r.movers.of(p.0 as usize)[i] as usize;
            if !moved[m] && r.prevent(m) > 0 {
                standoff = true;
            }
        }
        if standoff {
            contested.push(p);
        }
    }
    let contested_set: ProvSet = contested.iter().copied().collect();
    let mut dislodged = Vec::new();
    for u in 0..n {
        if let Some(m) = dislodger[u] {
            let by = r.prov[m];
            let by_convoy = matches!(eff[m], Eff::Move { convoy: true, .. });
            let unit = &units[u];
            let candidates: Vec<Loc> = match unit.kind {
                UnitKind::Army => map
                    .army_neighbours(r.prov[u])
                    .iter()
                    .map(Loc::from)
                    .collect(),
                UnitKind::Fleet => map.fleet_neighbours(unit.loc).to_vec(),
            };
            let retreats = candidates
                .into_iter()
                .filter(|&l| {
                    let p = map.prov_of(l);
                    !occupied.contains(p) && !contested_set.contains(p) && (by_convoy || p != by)
                })
                .collect();
            dislodged.push(Dislodged {
                unit: u,
                by,
                by_convoy,
                retreats,
            });
        }
    }

    // Outcomes with their causes.
    for u in 0..n {
        let Some(k) = order_of[u] else { continue };
        let outcome = match eff[u] {
            Eff::Hold => match dislodger[u] {
                Some(m) => Outcome::Fails(Failure::Dislodged { by: m }),
                None => Outcome::Succeeds,
            },
            Eff::Move { .. } if void_move[u] => Outcome::Invalid(Void::NoConvoyOrdered),
            Eff::Move { .. } if moved[u] => Outcome::Succeeds,
            Eff::Move { .. } => {
                if !r.path(u) {
                    Outcome::Fails(Failure::ConvoyDisrupted)
                } else {
                    Outcome::Fails(why_bounced(&mut r, u))
                }
            }
            Eff::SupHold { .. } | Eff::SupMove { .. } if !r.matched[u] => {
                Outcome::Invalid(Void::SupportNotMatched)
            }
            Eff::SupHold { .. } | Eff::SupMove { .. } => {
                if r.res[u] {
                    Outcome::Succeeds
                } else if let Some(m) = dislodger[u] {
                    Outcome::Fails(Failure::Dislodged { by: m })
                } else {
                    match r.cutter(u) {
                        Some(by) => Outcome::Fails(Failure::Cut { by }),
                        // Only the backup rule fails a support that nothing cut.
                        None => Outcome::Fails(Failure::Paradox),
                    }
                }
            }
            Eff::Convoy { .. } if !conv_matched[u] => Outcome::Invalid(Void::ConvoyNotMatched),
            Eff::Convoy { .. } => match dislodger[u] {
                Some(m) => Outcome::Fails(Failure::Dislodged { by: m }),
                None if r.paradox[u] => Outcome::Fails(Failure::Paradox),
                None => Outcome::Succeeds,
            },
        };
        results[k].outcome = outcome;
    }
    // An order written twice shares its twin's outcome (4.D.3).
    for (k, first) in same_as {
        results[k].outcome = results[first].outcome.clone();
    }
    MovementResult {
        rules,
        units: units.clone(),
        orders: results,
        destination,
        dislodged,
        contested,
        diagnostics,
    }
}

/// The opposition that stopped move `m`.
fn why_bounced(r: &mut Resolver<'_>, m: usize) -> Failure {
    let attack = r.attack(m);
    let (d, _) = r.dest(m).expect("a move");
    let mut against = Vec::new();
    let mut oppose = |unit: usize, kind: Strength, strength: u8| {
        if strength >= attack {
            against.push(Opposition {
                unit,
                kind,
                strength,
            });
        }
    };
    if let Some(o) = r.head_to_head(m) {
        oppose(o, Strength::Defend, r.defend(o));
    } else if r.unit_at[d.0 as usize] != NONE {
        oppose(r.unit_at[d.0 as usize] as usize, Strength::Hold, r.hold(d));
    }
    let k = r.movers.of(d.0 as usize).len();
    for i in 0..k {
        let other = r.movers.of(d.0 as usize)[i] as usize;
        if other != m && r.head_to_head(m) != Some(other) {
            oppose(other, Strength::Prevent, r.prevent(other));
        }
    }
    Failure::Bounced { attack, against }
}
