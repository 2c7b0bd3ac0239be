//! JSON output: one object per phase, whatever its kind (shape in `docs/CLI.md`). The
//! batch answers with the same object per line.

// Reports index a `PhaseResult` produced by the judge on the same map: unit
// and order indices (`k`, `unit`, `Dislodged::unit`, supporters) are positions in
// that result's own vectors, and Prov/Loc/Power ids are the map's own or were
// checked by `game::check_ids` before the phase was judged. An out-of-range index
// is a bug, not input.
#![allow(clippy::indexing_slicing)]

use serde::Serialize;
use std::collections::BTreeMap;

use super::{canonical, reason, unit_order};
use crate::game::{PhaseResult, Unit};
use crate::judge::Owed;
use crate::map::{Map, Power};
use crate::orders::Diagnostic;

#[derive(Serialize, Debug, Clone)]
pub struct JsonOrder {
    pub power: Option<String>,
    pub order: String,
    pub canonical: Option<String>,
    pub outcome: &'static str,
    pub reason: Option<String>,
    /// The orders of the units that caused the outcome.
    pub caused_by: Vec<String>,
    /// Corrections made while reading the order (a misspelling with one close
    /// reading), and other warnings about it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// A dislodged unit: what a movement phase gives and a retreat phase takes.
#[derive(Serialize, Debug, Clone)]
pub struct JsonDislodged {
    pub power: String,
    pub unit: String,
    pub by: String,
    pub retreats: Vec<String>,
}

/// A unit with its power: `{"power": "france", "unit": "F PIC"}`.
#[derive(Serialize, Debug, Clone)]
pub struct JsonUnit {
    pub power: String,
    pub unit: String,
}

/// A unit removed in civil disorder, with its distance to the nearest owned centre.
#[derive(Serialize, Debug, Clone)]
pub struct JsonCivilDisorder {
    pub power: String,
    pub unit: String,
    pub distance: Option<u32>,
}

/// What a power owes in the coming adjustment phase.
#[derive(Serialize, Debug, Clone)]
pub struct JsonOwed {
    pub power: String,
    pub centres: usize,
    pub units: usize,
    /// Builds (positive) or removals (negative).
    pub change: i32,
    pub build_sites: Vec<String>,
    /// Builds saved last winter for a colonial build (colonial build rule only).
    #[serde(skip_serializing_if = "is_zero")]
    pub saved: usize,
    /// Where it may build with a saved build (colonial build rule only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub colonial_sites: Vec<String>,
    /// It may save builds for a colonial build next winter (colonial build rule only).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub may_save: bool,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

#[derive(Serialize, Debug, Clone)]
pub struct JsonResult {
    pub map: String,
    pub rules: &'static str,
    pub phase: String,
    pub orders: Vec<JsonOrder>,
    pub dislodged: Vec<JsonDislodged>,
    pub contested: Vec<String>,
    pub destroyed: Vec<JsonUnit>,
    pub built: Vec<JsonUnit>,
    pub removed: Vec<JsonUnit>,
    pub civil_disorder: Vec<JsonCivilDisorder>,
    pub waived: BTreeMap<String, usize>,
    /// Builds saved for a colonial build next winter, by power (colonial build rule).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub saved: BTreeMap<String, usize>,
    pub units_after: BTreeMap<String, Vec<String>>,
    /// Supply-centre owners after the Fall turn, when this phase ended it.
    pub owners: Option<BTreeMap<String, Vec<String>>>,
    pub owed: Vec<JsonOwed>,
    pub skipped: Vec<String>,
    /// The next phase that needs orders; null when the game is over.
    pub next: Option<String>,
    pub winner: Option<String>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Each input order's JSON entry, in input order.
pub fn orders(map: &Map, result: &PhaseResult) -> Vec<JsonOrder> {
    (0..result.input.len())
        .map(|k| {
            let (reason, causes) = reason(map, result, k);
            JsonOrder {
                power: result.orders[k].power.map(|p| map.power(p).id.clone()),
                order: result.input[k].text.to_string(),
                canonical: Some(canonical(map, result, k)),
                outcome: result.orders[k].outcome.word(),
                reason,
                caused_by: causes
                    .into_iter()
                    .map(|u| unit_order(map, result, u))
                    .collect(),
                warnings: Vec::new(),
            }
        })
        .collect()
}

fn unit(map: &Map, u: &Unit) -> JsonUnit {
    JsonUnit {
        power: map.power(u.power).id.clone(),
        unit: u.short(map),
    }
}

/// Units by power id; every power of the map is listed.
pub fn units_by_power(map: &Map, units: &[Unit]) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = map
        .powers
        .iter()
        .map(|p| (p.id.clone(), Vec::new()))
        .collect();
    for u in units {
        out.entry(map.power(u.power).id.clone())
            .or_default()
            .push(u.short(map));
    }
    out
}

/// Supply centres by owner id (upper-case province ids); every power is listed.
pub fn owners_by_power(map: &Map, owners: &[Option<Power>]) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = map
        .powers
        .iter()
        .map(|p| (p.id.clone(), Vec::new()))
        .collect();
    for p in map.provs() {
        if let Some(pw) = owners[p.0 as usize] {
            out.entry(map.power(pw).id.clone())
                .or_default()
                .push(map.loc_upper(p.into()).to_string());
        }
    }
    out
}

pub fn owed(map: &Map, owed: &[Owed]) -> Vec<JsonOwed> {
    owed.iter()
        .filter(|o| o.centres > 0 || o.units > 0)
        .map(|o| JsonOwed {
            power: map.power(o.power).id.clone(),
            centres: o.centres,
            units: o.units,
            change: o.change,
            build_sites: o
                .build_sites
                .iter()
                .map(|&p| map.loc_upper(p.into()).to_string())
                .collect(),
            saved: o.saved,
            colonial_sites: o
                .colonial_sites
                .iter()
                .map(|&p| map.loc_upper(p.into()).to_string())
                .collect(),
            may_save: o.may_save,
        })
        .collect()
}

/// The whole JSON result of a phase.
pub fn phase(map: &Map, result: &PhaseResult) -> JsonResult {
    let dislodged = result
        .dislodged
        .iter()
        .map(|d| {
            let u = &result.units[d.unit];
            JsonDislodged {
                power: map.power(u.power).id.clone(),
                unit: u.short(map),
                by: map.loc_upper(d.by.into()).to_string(),
                retreats: d
                    .retreats
                    .iter()
                    .map(|&l| map.loc_upper(l).to_string())
                    .collect(),
            }
        })
        .collect();
    JsonResult {
        map: map.name.clone(),
        rules: result.rules.name(),
        phase: result.phase.to_string(),
        orders: orders(map, result),
        dislodged,
        contested: result
            .contested
            .iter()
            .map(|&p| map.loc_upper(p.into()).to_string())
            .collect(),
        destroyed: result
            .destroyed
            .iter()
            .map(|&i| unit(map, &result.units[i]))
            .collect(),
        built: result.built.iter().map(|u| unit(map, u)).collect(),
        removed: result
            .removed
            .iter()
            .map(|&i| unit(map, &result.units[i]))
            .collect(),
        civil_disorder: result
            .civil_disorder
            .iter()
            .map(|&(i, distance)| {
                let u = unit(map, &result.units[i]);
                JsonCivilDisorder {
                    power: u.power,
                    unit: u.unit,
                    distance,
                }
            })
            .collect(),
        waived: result
            .waived
            .iter()
            .map(|&(p, n)| (map.power(p).id.clone(), n))
            .collect(),
        saved: result
            .saved
            .iter()
            .map(|&(p, n)| (map.power(p).id.clone(), n))
            .collect(),
        units_after: units_by_power(map, &result.units_after),
        owners: result
            .owners_after
            .as_ref()
            .map(|o| owners_by_power(map, o)),
        owed: owed(map, &result.owed),
        skipped: result.skipped.iter().map(|p| p.to_string()).collect(),
        next: result.next.map(|p| p.to_string()),
        winner: result.winner.map(|p| map.power(p).id.clone()),
        diagnostics: result.diagnostics.clone(),
    }
}
