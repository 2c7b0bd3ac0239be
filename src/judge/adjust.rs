//! Adjustment orders (builds, removals, waives): legality of each order against the
//! supply-centre count. Minimal for now: enough for DATC 6.B.14 and 4.B.7.

use super::outcome::{Illegal, Outcome};
use crate::game::Position;
use crate::map::{Map, Power, UnitKind};
use crate::orders::{Order, OrderKind};

/// The outcome of each adjustment order, in input order.
#[derive(Clone, Debug)]
pub struct AdjustmentResult {
    pub orders: Vec<(Option<Power>, Outcome)>,
}

/// Judge builds, removals and waives (first legal ones in written order, 4.D.4–4.D.6).
pub fn adjudicate_adjustments(
    map: &Map,
    position: &Position,
    orders: &[Order],
) -> AdjustmentResult {
    let centres = |p: Power| position.owners.iter().filter(|o| **o == Some(p)).count();
    let units = |p: Power| position.units.iter().filter(|u| u.power == p).count();
    let mut used = vec![0usize; map.powers.len()];
    let mut built = Vec::new();
    let mut removed = Vec::new();
    let mut out = Vec::new();
    for o in orders {
        let power = o.power.or_else(|| {
            o.prov(map)
                .and_then(|p| position.unit_in(map, p))
                .map(|u| u.power)
        });
        let outcome = match (o.kind, o.unit, power) {
            (_, _, None) => Outcome::Illegal(Illegal::Build(
                "the order does not say which power it is for",
            )),
            (OrderKind::Waive, _, Some(pw)) => {
                if used[pw.0 as usize] < centres(pw).saturating_sub(units(pw)) {
                    used[pw.0 as usize] += 1;
                    Outcome::Succeeds
                } else {
                    Outcome::Illegal(Illegal::Build("no build left to waive"))
                }
            }
            (OrderKind::Build, Some(u), Some(pw)) => {
                let p = map.prov_of(u.loc);
                let kind = u.kind.unwrap_or(if map.is_coast(u.loc) {
                    UnitKind::Fleet
                } else {
                    UnitKind::Army
                });
                let why = if map.province(p).home != Some(pw) {
                    Some("not a home centre of the power")
                } else if position.owners[p.0 as usize] != Some(pw) {
                    Some("the power does not own the centre")
                } else if position.unit_in(map, p).is_some() || built.contains(&p) {
                    Some("the centre is occupied")
                } else if used[pw.0 as usize] >= centres(pw).saturating_sub(units(pw)) {
                    Some("no build left")
                } else if kind == UnitKind::Fleet && map.is_split(p) && !map.is_coast(u.loc) {
                    Some("a fleet built in a province with two coasts needs its coast (4.B.7)")
                } else if kind == UnitKind::Fleet && !map.is_shore(p) {
                    Some("a fleet cannot be built inland")
                } else {
                    None
                };
                match why {
                    Some(w) => Outcome::Illegal(Illegal::Build(w)),
                    None => {
                        used[pw.0 as usize] += 1;
                        built.push(p);
                        Outcome::Succeeds
                    }
                }
            }
            (OrderKind::Disband, Some(u), Some(pw)) => {
                let p = map.prov_of(u.loc);
                match position.unit_in(map, p) {
                    Some(unit) if unit.power != pw => {
                        Outcome::Illegal(Illegal::ForeignUnit(unit.power))
                    }
                    Some(_) if removed.contains(&p) => Outcome::Illegal(Illegal::DuplicateOrder),
                    Some(_) if used[pw.0 as usize] >= units(pw).saturating_sub(centres(pw)) => {
                        Outcome::Illegal(Illegal::Build("no removal left"))
                    }
                    Some(_) => {
                        used[pw.0 as usize] += 1;
                        removed.push(p);
                        Outcome::Succeeds
                    }
                    None => Outcome::Illegal(Illegal::NoUnit),
                }
            }
            _ => Outcome::Illegal(Illegal::WrongPhase),
        };
        out.push((power, outcome));
    }
    AdjustmentResult { orders: out }
}

/// Supply-centre owners after a Fall turn: a centre passes to the power whose unit
/// stands in it; an empty centre keeps its owner.
pub fn owners_after(
    map: &Map,
    owners: &[Option<Power>],
    units: &[crate::game::Unit],
) -> Vec<Option<Power>> {
    let mut out = owners.to_vec();
    for u in units {
        let p = map.prov_of(u.loc);
        if map.province(p).supply {
            out[p.0 as usize] = Some(u.power);
        }
    }
    out
}

/// Per power (map order): centres owned, units, and the difference (builds if positive,
/// removals if negative).
pub fn adjustments(
    map: &Map,
    owners: &[Option<Power>],
    units: &[crate::game::Unit],
) -> Vec<(Power, usize, usize, i32)> {
    map.power_ids()
        .map(|pw| {
            let c = owners.iter().filter(|o| **o == Some(pw)).count();
            let u = units.iter().filter(|x| x.power == pw).count();
            (pw, c, u, c as i32 - u as i32)
        })
        .collect()
}
