//! The adjustment phase: builds, removals, waives and saves judged against the
//! supply-centre count (first legal ones in written order, DATC 4.D.4-4.D.6), then the
//! automatic steps: missing builds are waived, missing removals are chosen by the
//! civil-disorder rule (DATC 4.D.8, as `docs/RULES.md` states it). Where a power may
//! build is the map's [`BuildRule`]: home centres, any owned centre, or colonial (home
//! centres at once, other owned centres with a build saved the winter before). Also
//! centre ownership after a Fall turn and the adjustments each power owes.

// Indexing is by dense ids and by positions in vectors built here, never by raw
// input. Prov/Loc/Power ids come from the map loader (which builds every adjacency
// table from validated ids) or from a position and orders that `game::check_ids`
// validated at the entry of `adjudicate`/`advance`; the public phase functions
// re-exported from `judge` take ids of the `map` they are given, the contract
// `advance` checks. Unit and order indices are positions in the vectors this
// phase built (one entry per unit, per order). An out-of-range index is a bug, not
// input.
#![allow(clippy::indexing_slicing)]

use std::collections::VecDeque;

use super::outcome::{Illegal, OrderResult, Outcome};
use super::{CivilDisorder, Rules};
use crate::map::{BuildRule, Loc, Map, Power, Prov, UnitKind};
use crate::orders::{Diagnostic, Order, OrderKind, Span, UnitRef};
use crate::state::{Position, Unit};

/// An order that saves one build for a colonial build next winter ("save for a
/// colonial build"), for `power`. Legal only on a map with the colonial build rule,
/// while the power has a build left; it uses the build as a waive does, and gives the
/// power one saved build in the next adjustment phase.
/// Players write it `Save` or `Waive for a colonial build` (`OrderKind::Save`).
pub fn save_order(power: Power) -> Order {
    Order {
        power: Some(power),
        unit: None,
        kind: OrderKind::Save,
        text: "Save for a colonial build".into(),
        span: Span::default(),
        stated: None,
    }
}

/// Is this order a save for a colonial build ([`save_order`])?
pub fn is_save(o: &Order) -> bool {
    o.kind == OrderKind::Save
}

/// Where a power may build in a province, under the map's rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Site {
    /// A build site now (if owned and vacant).
    Now,
    /// A colonial site: a build here needs a build saved the winter before.
    Colonial,
}

/// Can `power` build in `p` under the map's build rule (ownership and vacancy aside)?
fn site(map: &Map, power: Power, p: Prov) -> Result<Site, &'static str> {
    let pr = map.province(p);
    let home = pr.home == Some(power);
    match map.build_rule {
        BuildRule::Home if !home => Err("not a home centre of the power"),
        _ if !pr.supply => Err("not a supply centre"),
        _ if !pr.buildable => Err("the map allows no builds in this centre"),
        BuildRule::Colonial if !home => Ok(Site::Colonial),
        _ => Ok(Site::Now),
    }
}

/// What an adjustment phase decided.
#[derive(Clone, Debug)]
pub struct AdjustmentResult {
    /// The units before the phase (indices used by the outcomes and `removed`).
    pub units: Vec<Unit>,
    /// One result per input order, in input order (`to`: where a unit is built).
    pub orders: Vec<OrderResult>,
    /// The units built, in order.
    pub built: Vec<Unit>,
    /// The units removed by order.
    pub removed: Vec<usize>,
    /// The units removed in civil disorder, each with its distance to the nearest
    /// owned supply centre (`None`: the power owns no centre).
    pub civil_disorder: Vec<(usize, Option<u32>)>,
    /// Per power (map order), the builds it did not use (waived or not ordered; not
    /// the builds saved).
    pub waived: Vec<(Power, usize)>,
    /// Per power (map order), the builds saved for a colonial build next winter.
    pub saved: Vec<(Power, usize)>,
    /// Orders that belong to another phase, name no unit or another power's unit, or
    /// say no power.
    pub diagnostics: Vec<Diagnostic>,
}

impl AdjustmentResult {
    /// The units after the phase.
    pub fn units_after(&self) -> Vec<Unit> {
        let gone = |i: usize| {
            self.removed.contains(&i) || self.civil_disorder.iter().any(|&(u, _)| u == i)
        };
        let mut out: Vec<Unit> = (0..self.units.len())
            .filter(|&i| !gone(i))
            .map(|i| self.units[i])
            .collect();
        out.extend(self.built.iter().copied());
        out
    }
}

/// What one power owes in an adjustment phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Owed {
    pub power: Power,
    pub centres: usize,
    pub units: usize,
    /// Builds (positive) or removals (negative): centres minus units.
    pub change: i32,
    /// Where it may build at once: its vacant, owned centres that the map's build rule
    /// allows (home centres; under `owned`, any centre it owns).
    pub build_sites: Vec<Prov>,
    /// Builds saved last winter for a colonial build (colonial rule only).
    pub saved: usize,
    /// Where it may build with a saved build: its vacant, owned centres that are not
    /// home centres (colonial rule, and only when it has a saved build).
    pub colonial_sites: Vec<Prov>,
    /// May it save builds for a colonial build next winter (colonial rule, builds
    /// owed)?
    pub may_save: bool,
}

impl Owed {
    /// Does the power have anything to order?
    pub fn has_work(&self) -> bool {
        self.change < 0
            || (self.change > 0
                && (!self.build_sites.is_empty()
                    || !self.colonial_sites.is_empty()
                    || self.may_save))
    }
}

/// Per power (map order): what it owes in an adjustment phase on this board.
/// `saved`: per power, the builds saved last winter for a colonial build (empty:
/// none; see [`Position::saved`]).
pub fn owed(map: &Map, owners: &[Option<Power>], units: &[Unit], saved: &[u32]) -> Vec<Owed> {
    let npowers = map.powers.len();
    let mut centres = vec![0usize; npowers];
    let mut count = vec![0usize; npowers];
    let mut occupied = crate::map::ProvSet::EMPTY;
    for u in units {
        count[u.power.0 as usize] += 1;
        occupied.insert(map.prov_of(u.loc));
    }
    let mut out: Vec<Owed> = map
        .power_ids()
        .map(|pw| Owed {
            power: pw,
            centres: 0,
            units: count[pw.0 as usize],
            change: 0,
            build_sites: Vec::new(),
            saved: match map.build_rule {
                BuildRule::Colonial => saved.get(pw.0 as usize).copied().unwrap_or(0) as usize,
                _ => 0,
            },
            colonial_sites: Vec::new(),
            may_save: false,
        })
        .collect();
    // One pass over the centres: count them, and sort the vacant ones into sites.
    for (i, owner) in owners.iter().enumerate() {
        let Some(pw) = *owner else { continue };
        centres[pw.0 as usize] += 1;
        let p = Prov(i as u16);
        if occupied.contains(p) {
            continue;
        }
        let o = &mut out[pw.0 as usize];
        match site(map, pw, p) {
            Ok(Site::Now) => o.build_sites.push(p),
            Ok(Site::Colonial) if o.saved > 0 => o.colonial_sites.push(p),
            _ => {}
        }
    }
    for o in &mut out {
        o.centres = centres[o.power.0 as usize];
        o.change = o.centres as i32 - o.units as i32;
        o.may_save = map.build_rule == BuildRule::Colonial && o.change > 0;
        // Home centres in the order of the power's home list.
        if map.build_rule != BuildRule::Owned && o.build_sites.len() > 1 {
            let home = &map.power(o.power).home;
            o.build_sites
                .sort_by_key(|p| home.iter().position(|h| h == p));
        }
    }
    out
}

/// Judge builds, removals, waives and saves (the first legal ones in written order,
/// DATC 4.D.4-4.D.6), then apply the automatic steps: missing removals by civil
/// disorder (4.D.8), missing builds waived (4.D.7).
pub fn adjudicate_adjustments(
    map: &Map,
    position: &Position,
    orders: &[Order],
    rules: Rules,
) -> AdjustmentResult {
    let mut ledger = Ledger::new(map, position);
    let mut diagnostics = Vec::new();
    let mut results = Vec::with_capacity(orders.len());
    for o in orders {
        let result = ledger.judge(o);
        diagnostics.extend(adjustment_diagnostic(map, o, &result));
        results.push(result);
    }
    AdjustmentResult {
        units: position.units.clone(),
        orders: results,
        civil_disorder: ledger.civil_disorder(rules),
        waived: ledger.waived(),
        saved: ledger.saved(),
        built: ledger.built,
        removed: ledger.removed,
        diagnostics,
    }
}

/// The adjustments of a phase as its orders use them, in written order.
struct Ledger<'a> {
    map: &'a Map,
    position: &'a Position,
    /// Per power: what it owes.
    owed: Vec<Owed>,
    /// Per power: the builds (waives and saves included) or removals its orders used.
    used: Vec<usize>,
    /// Per power: the builds saved last winter used for colonial builds.
    colonial_used: Vec<usize>,
    /// Per power: the builds saved now for a colonial build next winter.
    saving: Vec<usize>,
    /// The units built, in order.
    built: Vec<Unit>,
    /// The units removed by order.
    removed: Vec<usize>,
}

impl<'a> Ledger<'a> {
    fn new(map: &'a Map, position: &'a Position) -> Ledger<'a> {
        let npowers = map.powers.len();
        Ledger {
            map,
            position,
            owed: owed(map, &position.owners, &position.units, &position.saved),
            used: vec![0; npowers],
            colonial_used: vec![0; npowers],
            saving: vec![0; npowers],
            built: Vec::new(),
            removed: Vec::new(),
        }
    }
}

impl Ledger<'_> {
    /// The builds `p` owes.
    fn builds(&self, p: Power) -> usize {
        self.owed[p.0 as usize].change.max(0) as usize
    }

    /// The removals `p` owes.
    fn removals(&self, p: Power) -> usize {
        (-self.owed[p.0 as usize].change).max(0) as usize
    }

    /// The result of order `o`, the adjustments it uses taken.
    fn judge(&mut self, o: &Order) -> OrderResult {
        let (map, units) = (self.map, &self.position.units);
        let unit_here = o
            .prov(map)
            .and_then(|p| units.iter().position(|u| map.prov_of(u.loc) == p));
        let power = o.power.or_else(|| unit_here.map(|i| units[i].power));
        let mut result = OrderResult {
            unit: None,
            power,
            outcome: Outcome::Succeeds,
            to: None,
        };
        result.outcome = match (o.kind, o.unit, power) {
            (_, _, None) => Outcome::Illegal(Illegal::Build(
                "the order does not say which power it is for",
            )),
            (OrderKind::Waive, _, Some(pw)) => self.waive(pw),
            (OrderKind::Save, _, Some(pw)) => self.save(pw),
            (OrderKind::Build, Some(u), Some(pw)) => match self.build(u, pw, unit_here) {
                Ok(loc) => {
                    result.to = Some(loc);
                    Outcome::Succeeds
                }
                Err(why) => Outcome::Illegal(Illegal::Build(why)),
            },
            (OrderKind::Disband, Some(_), Some(pw)) => match unit_here {
                Some(i) if units[i].power != pw => {
                    Outcome::Illegal(Illegal::ForeignUnit(units[i].power))
                }
                Some(i) => {
                    result.unit = Some(i);
                    self.remove(i, pw)
                }
                None => Outcome::Illegal(Illegal::NoUnit),
            },
            _ => Outcome::Illegal(Illegal::WrongPhase),
        };
        result
    }

    /// A waive uses one of the power's builds (DATC 4.D.7).
    fn waive(&mut self, pw: Power) -> Outcome {
        if self.used[pw.0 as usize] < self.builds(pw) {
            self.used[pw.0 as usize] += 1;
            Outcome::Succeeds
        } else {
            Outcome::Illegal(Illegal::Build("no build left to waive"))
        }
    }

    /// A save for a colonial build uses one of the power's builds ([`save_order`]).
    fn save(&mut self, pw: Power) -> Outcome {
        if self.map.build_rule != BuildRule::Colonial {
            Outcome::Illegal(Illegal::Build(
                "this map has no colonial builds: there is nothing to save for",
            ))
        } else if self.used[pw.0 as usize] < self.builds(pw) {
            self.used[pw.0 as usize] += 1;
            self.saving[pw.0 as usize] += 1;
            Outcome::Succeeds
        } else {
            Outcome::Illegal(Illegal::Build("no build left to save"))
        }
    }

    /// A build of `u` by `pw` (`unit_here`: the unit in the province), where the map's
    /// rule allows it, in a vacant centre the power owns, while it has a build left
    /// (DATC 4.D.4, 4.D.5; a fleet needs its coast, 4.B.7). The location built, or
    /// why not.
    fn build(
        &mut self,
        u: UnitRef,
        pw: Power,
        unit_here: Option<usize>,
    ) -> Result<Loc, &'static str> {
        let map = self.map;
        let p = map.prov_of(u.loc);
        let kind = u.kind.unwrap_or(if map.is_named_coast(u.loc) {
            UnitKind::Fleet
        } else {
            UnitKind::Army
        });
        let loc = if kind == UnitKind::Army {
            p.into()
        } else {
            u.loc
        };
        let site = site(map, pw, p)?;
        let colonial = site == Site::Colonial;
        let saved = self.owed[pw.0 as usize].saved;
        if self.position.owners[p.0 as usize] != Some(pw) {
            return Err("the power does not own the centre");
        }
        if unit_here.is_some() || self.built.iter().any(|b| map.prov_of(b.loc) == p) {
            return Err("the centre is occupied");
        }
        if self.used[pw.0 as usize] >= self.builds(pw) {
            return Err("no build left");
        }
        if colonial && self.colonial_used[pw.0 as usize] >= saved {
            return Err(if saved == 0 {
                "not a home centre: a colonial build needs a build saved last winter"
            } else {
                "not a home centre, and every build saved last winter is used"
            });
        }
        if kind == UnitKind::Fleet && map.is_split(p) && !map.is_named_coast(u.loc) {
            return Err("a fleet built in a province with two coasts needs its coast (4.B.7)");
        }
        if kind == UnitKind::Fleet && !map.is_coastal(p) {
            return Err("a fleet cannot be built inland");
        }
        self.used[pw.0 as usize] += 1;
        if colonial {
            self.colonial_used[pw.0 as usize] += 1;
        }
        self.built.push(Unit {
            power: pw,
            kind,
            loc,
        });
        Ok(loc)
    }

    /// A removal of unit `i` of `pw`, while the power has a removal left (DATC 4.D.6).
    fn remove(&mut self, i: usize, pw: Power) -> Outcome {
        if self.removed.contains(&i) {
            Outcome::Illegal(Illegal::DuplicateOrder)
        } else if self.used[pw.0 as usize] >= self.removals(pw) {
            Outcome::Illegal(Illegal::Build("no removal left"))
        } else {
            self.used[pw.0 as usize] += 1;
            self.removed.push(i);
            Outcome::Succeeds
        }
    }

    /// The removals the orders did not make, chosen by the civil-disorder rule (DATC
    /// 4.D.8).
    fn civil_disorder(&self, rules: Rules) -> Vec<(usize, Option<u32>)> {
        let units = &self.position.units;
        let mut out = Vec::new();
        for pw in self.map.power_ids() {
            let left = self.removals(pw).saturating_sub(self.used[pw.0 as usize]);
            if left > 0 {
                let candidates: Vec<usize> = (0..units.len())
                    .filter(|&i| units[i].power == pw && !self.removed.contains(&i))
                    .collect();
                out.extend(civil_disorder_removals(
                    self.map,
                    &self.position.owners,
                    units,
                    pw,
                    &candidates,
                    left,
                    rules,
                ));
            }
        }
        out
    }

    /// Per power, the builds it did not use: waived, by order or not ordered (DATC
    /// 4.D.7). Saves used builds: they are not waived.
    fn waived(&self) -> Vec<(Power, usize)> {
        self.map
            .power_ids()
            .filter(|&pw| self.builds(pw) > 0)
            .map(|pw| (pw, self.builds(pw).saturating_sub(self.used[pw.0 as usize])))
            .filter(|&(_, n)| n > 0)
            .collect()
    }

    /// Per power, the builds saved for a colonial build next winter.
    fn saved(&self) -> Vec<(Power, usize)> {
        self.map
            .power_ids()
            .filter(|pw| self.saving[pw.0 as usize] > 0)
            .map(|pw| (pw, self.saving[pw.0 as usize]))
            .collect()
    }
}

/// The referee's diagnostic for an adjustment order refused: one of another phase,
/// for no unit or another power's unit, or that names no power.
fn adjustment_diagnostic(map: &Map, o: &Order, result: &OrderResult) -> Option<Diagnostic> {
    let (message, help) = match &result.outcome {
        Outcome::Illegal(Illegal::WrongPhase) => (
            "not an adjustment-phase order".to_string(),
            "in an adjustment phase a power builds (`Build A Par`), removes (`Remove A Mun`) or waives",
        ),
        Outcome::Illegal(Illegal::NoUnit) => (
            "there is no unit to remove there".to_string(),
            "check the province",
        ),
        Outcome::Illegal(Illegal::ForeignUnit(p)) => (
            format!("the unit belongs to {}", map.power(*p).name),
            "a power removes only its own units",
        ),
        Outcome::Illegal(Illegal::Build(w)) if result.power.is_none() => {
            (w.to_string(), "put the power's name before its orders (`France:`)")
        }
        _ => return None,
    };
    Some(Diagnostic::error(o.span, message, Some(help.to_string())))
}

/// The `count` units of `power` (from `candidates`) that civil disorder removes: the
/// farthest first (DATC 4.D.8, measured as the edition says: [`unit_distances`]); ties:
/// fleets before armies, then alphabetical by the province's full name.
fn civil_disorder_removals(
    map: &Map,
    owners: &[Option<Power>],
    units: &[Unit],
    power: Power,
    candidates: &[usize],
    count: usize,
    rules: Rules,
) -> Vec<(usize, Option<u32>)> {
    let dist = unit_distances(map, owners, units, power, rules);
    let mut ranked: Vec<(usize, Option<u32>)> = candidates.iter().map(|&i| (i, dist[i])).collect();
    ranked.sort_by(|&(a, da), &(b, db)| {
        let far = |d: Option<u32>| d.unwrap_or(u32::MAX);
        far(db)
            .cmp(&far(da))
            .then_with(|| (units[a].kind == UnitKind::Army).cmp(&(units[b].kind == UnitKind::Army)))
            .then_with(|| {
                let name = |i: usize| &map.province(map.prov_of(units[i].loc)).name;
                name(a).cmp(name(b))
            })
    });
    ranked.truncate(count);
    ranked
}

/// Per unit (of `units`; only those of `power` are meaningful): its civil-disorder
/// distance under the edition's rule (DATC 4.D.8). 2023: steps to the nearest supply
/// centre the power owns, over land and sea for any unit. Before 2023: steps to the
/// nearest home supply centre, a fleet by fleet moves (from its coast, to either coast
/// of a split centre), an army over land and sea. `None`: no such centre can be reached.
pub fn unit_distances(
    map: &Map,
    owners: &[Option<Power>],
    units: &[Unit],
    power: Power,
    rules: Rules,
) -> Vec<Option<u32>> {
    match rules.civil_disorder {
        CivilDisorder::OwnedCentresAnyPath => {
            let d = distances(map, owners, power);
            units
                .iter()
                .map(|u| d[map.prov_of(u.loc).0 as usize])
                .collect()
        }
        CivilDisorder::HomeCentresByUnitType => {
            let home: Vec<Option<Power>> = map.provs().map(|p| map.province(p).home).collect();
            let army = distances(map, &home, power);
            let fleet = fleet_distances(map, &map.power(power).home);
            units
                .iter()
                .map(|u| match u.kind {
                    UnitKind::Army => army[map.prov_of(u.loc).0 as usize],
                    UnitKind::Fleet => fleet[u.loc.0 as usize],
                })
                .collect()
        }
    }
}

/// Per location: fleet moves to the nearest of `targets` (provinces; any coast of a
/// split province counts).
fn fleet_distances(map: &Map, targets: &[Prov]) -> Vec<Option<u32>> {
    let n = map.locs().count();
    let mut dist = vec![None; n];
    let mut queue = VecDeque::new();
    for l in map.locs() {
        if targets.contains(&map.prov_of(l)) && map.placement_problem(UnitKind::Fleet, l).is_none()
        {
            dist[l.0 as usize] = Some(0);
            queue.push_back(l);
        }
    }
    while let Some(l) = queue.pop_front() {
        let d = dist[l.0 as usize].unwrap_or(0) + 1;
        for &m in map.fleet_neighbours(l) {
            if dist[m.0 as usize].is_none() {
                dist[m.0 as usize] = Some(d);
                queue.push_back(m);
            }
        }
    }
    dist
}

/// Per province: steps to the nearest supply centre `power` owns, over land and sea
/// (any adjacency of the province graph). `None`: unreachable or no centre owned.
pub fn distances(map: &Map, owners: &[Option<Power>], power: Power) -> Vec<Option<u32>> {
    let mut dist = vec![None; map.province_count()];
    let mut queue = VecDeque::new();
    for p in map.provs() {
        if owners[p.0 as usize] == Some(power) {
            dist[p.0 as usize] = Some(0);
            queue.push_back(p);
        }
    }
    while let Some(p) = queue.pop_front() {
        let d = dist[p.0 as usize].unwrap_or(0) + 1;
        for q in map
            .army_neighbours(p)
            .iter()
            .chain(map.fleet_reach_any(p).iter())
        {
            if dist[q.0 as usize].is_none() {
                dist[q.0 as usize] = Some(d);
                queue.push_back(q);
            }
        }
    }
    dist
}

/// Supply-centre owners after a Fall turn: a centre passes to the power whose unit
/// stands in it; an empty centre keeps its owner.
pub fn owners_after(map: &Map, owners: &[Option<Power>], units: &[Unit]) -> Vec<Option<Power>> {
    let mut out = owners.to_vec();
    for u in units {
        let p = map.prov_of(u.loc);
        if map.province(p).supply {
            out[p.0 as usize] = Some(u.power);
        }
    }
    out
}
