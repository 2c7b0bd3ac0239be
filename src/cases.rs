//! Test cases as data (format: `test-cases/README.md`): load a case, run it, and list
//! every difference from its expectation. Used by the DATC harness and the benches.
//! No I/O here: the caller reads the files.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::game::{Phase, PhaseKind, Position};
use crate::judge::{adjudicate, adjudicate_adjustments, Rules};
use crate::map::Map;
use crate::orders::{parse_orders, Order};

/// One case: a position, orders as written with their expected outcomes, and the
/// expected dislodgements and standoffs.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub id: String,
    pub title: String,
    #[serde(default)]
    pub rules: Option<String>,
    #[serde(default)]
    pub phase: Option<String>,
    #[serde(default)]
    pub units: BTreeMap<String, Vec<String>>,
    /// Power → list of `{order text: outcome word}`, in written order.
    pub orders: serde_yaml::Mapping,
    #[serde(default)]
    pub dislodged: BTreeMap<String, String>,
    #[serde(default)]
    pub contested: Option<Vec<String>>,
    #[serde(default)]
    pub note: Option<String>,
}

/// Read a file of cases.
pub fn parse_cases(yaml: &str) -> Result<Vec<Case>, serde_yaml::Error> {
    serde_yaml::from_str(yaml)
}

/// A case made ready to adjudicate.
pub struct Prepared {
    pub rules: Rules,
    pub position: Position,
    /// The orders text as the case writes it: a header per power, one order per line.
    pub text: String,
    pub orders: Vec<Order>,
    /// (order as written, expected outcome word), in written order.
    pub expected: Vec<(String, String)>,
    /// Parse problems (a case's orders should all parse).
    pub problems: Vec<String>,
}

impl Case {
    /// Build the position and parse the orders.
    pub fn prepare(&self, map: &Map) -> Result<Prepared, String> {
        let rules = match &self.rules {
            Some(r) => Rules::parse(r).ok_or_else(|| format!("unknown rules `{r}`"))?,
            None => Rules::default(),
        };
        let phase = match &self.phase {
            Some(p) => Phase::parse(p).ok_or_else(|| format!("unknown phase `{p}`"))?,
            None => Phase::first(map),
        };
        let position = Position::from_units(
            map,
            phase,
            self.units.iter().map(|(k, v)| (k.as_str(), v.as_slice())),
        )
        .map_err(|e| e.to_string())?;
        let mut text = String::new();
        let mut expected = Vec::new();
        for (power, list) in &self.orders {
            let power = power.as_str().ok_or("a power name must be text")?;
            text.push_str(power);
            text.push_str(":\n");
            for item in list.as_sequence().ok_or("orders are a list per power")? {
                let m = item
                    .as_mapping()
                    .ok_or("each order is `order text: outcome`")?;
                for (k, v) in m {
                    let order = k.as_str().ok_or("order text")?.to_string();
                    let want = v.as_str().ok_or("outcome word")?.to_string();
                    text.push_str(&order);
                    text.push('\n');
                    expected.push((order, want));
                }
            }
        }
        let parsed = parse_orders(map, &text);
        let problems = parsed
            .diagnostics
            .iter()
            .map(|d| format!("line {}: {}", d.span.line, d.message))
            .collect();
        Ok(Prepared {
            rules,
            position,
            text,
            orders: parsed.orders,
            expected,
            problems,
        })
    }

    /// Run the case; return every difference from the expectation (empty: it passes).
    pub fn check(&self, map: &Map) -> Vec<String> {
        let p = match self.prepare(map) {
            Ok(p) => p,
            Err(e) => return vec![e],
        };
        let mut diffs = p
            .problems
            .iter()
            .map(|e| format!("parse error: {e}"))
            .collect::<Vec<_>>();
        if p.orders.len() != p.expected.len() {
            diffs.push(format!(
                "parsed {} orders, expected {}",
                p.orders.len(),
                p.expected.len()
            ));
            return diffs;
        }
        let words: Vec<&'static str> = if p.position.phase.kind == PhaseKind::Adjustment {
            adjudicate_adjustments(map, &p.position, &p.orders)
                .orders
                .iter()
                .map(|(_, o)| o.word())
                .collect()
        } else {
            let r = adjudicate(map, &p.position, &p.orders, p.rules);
            let got: BTreeMap<String, String> = r
                .dislodged
                .iter()
                .map(|d| {
                    (
                        map.province(map.prov_of(r.units[d.unit].loc)).id.clone(),
                        map.province(d.by).id.clone(),
                    )
                })
                .collect();
            if got != self.dislodged {
                diffs.push(format!(
                    "dislodged: expected {:?}, got {:?}",
                    self.dislodged, got
                ));
            }
            if let Some(c) = &self.contested {
                let mut want = c.clone();
                want.sort();
                let mut have: Vec<String> = r
                    .contested
                    .iter()
                    .map(|&q| map.province(q).id.clone())
                    .collect();
                have.sort();
                if want != have {
                    diffs.push(format!("contested: expected {want:?}, got {have:?}"));
                }
            }
            r.orders.iter().map(|o| o.outcome.word()).collect()
        };
        for ((order, want), got) in p.expected.iter().zip(words) {
            if want != got {
                diffs.push(format!("`{order}`: expected {want}, got {got}"));
            }
        }
        diffs
    }
}
