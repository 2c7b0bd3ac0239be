//! JSON output: one object per phase, the shape documented in `docs/CLI.md`.

use serde::Serialize;
use std::collections::BTreeMap;

use super::{canonical, reason, unit_order};
use crate::game::Phase;
use crate::judge::MovementResult;
use crate::map::Map;
use crate::orders::{Diagnostic, Order};

#[derive(Serialize, Debug, Clone)]
pub struct JsonOrder {
    pub power: Option<String>,
    pub order: String,
    pub canonical: Option<String>,
    pub outcome: &'static str,
    pub reason: Option<String>,
    /// The orders of the units that caused the outcome.
    pub caused_by: Vec<String>,
}

#[derive(Serialize, Debug, Clone)]
pub struct JsonDislodged {
    pub power: String,
    pub unit: String,
    pub by: String,
    pub retreats: Vec<String>,
}

#[derive(Serialize, Debug, Clone)]
pub struct JsonResult {
    pub map: String,
    pub rules: &'static str,
    pub phase: String,
    pub orders: Vec<JsonOrder>,
    pub dislodged: Vec<JsonDislodged>,
    pub contested: Vec<String>,
    pub units_after: BTreeMap<String, Vec<String>>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Each input order's JSON entry, in input order.
pub fn orders(map: &Map, result: &MovementResult, orders: &[Order]) -> Vec<JsonOrder> {
    (0..orders.len())
        .map(|k| {
            let (reason, causes) = reason(map, result, orders, k);
            JsonOrder {
                power: result.orders[k].power.map(|p| map.power(p).id.clone()),
                order: orders[k].text.clone(),
                canonical: Some(canonical(map, result, orders, k)),
                outcome: result.orders[k].outcome.word(),
                reason,
                caused_by: causes
                    .into_iter()
                    .map(|u| unit_order(map, result, orders, u))
                    .collect(),
            }
        })
        .collect()
}

pub fn dislodged(map: &Map, result: &MovementResult) -> Vec<JsonDislodged> {
    result
        .dislodged
        .iter()
        .map(|d| {
            let u = &result.units[d.unit];
            JsonDislodged {
                power: map.power(u.power).id.clone(),
                unit: u.short(map),
                by: map.province(d.by).id.to_uppercase(),
                retreats: d
                    .retreats
                    .iter()
                    .map(|&l| map.loc_id(l).to_uppercase())
                    .collect(),
            }
        })
        .collect()
}

pub fn contested(map: &Map, result: &MovementResult) -> Vec<String> {
    result
        .contested
        .iter()
        .map(|&p| map.province(p).id.to_uppercase())
        .collect()
}

/// Units after the phase by power id; every power of the map is listed.
pub fn units_after(map: &Map, result: &MovementResult) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = map
        .powers
        .iter()
        .map(|p| (p.id.clone(), Vec::new()))
        .collect();
    for u in result.units_after() {
        out.entry(map.power(u.power).id.clone())
            .or_default()
            .push(u.short(map));
    }
    out
}

/// The whole JSON result of a movement phase.
pub fn movement(
    map: &Map,
    phase: Phase,
    result: &MovementResult,
    input: &[Order],
    diagnostics: Vec<Diagnostic>,
) -> JsonResult {
    JsonResult {
        map: map.name.clone(),
        rules: result.rules.name(),
        phase: phase.to_string(),
        orders: orders(map, result, input),
        dislodged: dislodged(map, result),
        contested: contested(map, result),
        units_after: units_after(map, result),
        diagnostics,
    }
}
