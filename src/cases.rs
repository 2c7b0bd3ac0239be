//! Test cases as data (format: `test-cases/README.md`): load a case, run it, and list
//! every difference from its expectation. Used by the DATC harness and the benches.
//! No I/O here: the caller reads the files.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::game::{advance, PhaseResult};
use crate::judge::Rules;
use crate::map::Map;
use crate::orders::{parse_orders, Order};
use crate::state::{Phase, PhaseKind, Position};

/// One case: a position, orders as written with their expected outcomes, and the
/// expected dislodgements and standoffs.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct TestCase {
    pub id: String,
    pub title: String,
    /// The edition or editions the case holds under (default: `2023`): a name or a
    /// list of names. The case runs under each.
    #[serde(default)]
    pub rules: Option<Editions>,
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
    /// Supply-centre owners by power (default: the home centres).
    #[serde(default)]
    pub owners: Option<BTreeMap<String, Vec<String>>>,
    /// Expected retreats of each dislodged unit: its province → location ids.
    #[serde(default)]
    pub retreats: Option<BTreeMap<String, Vec<String>>>,
    /// The retreat phase that follows: orders as written → outcome, by power.
    #[serde(default)]
    pub retreat_orders: Option<serde_yaml::Mapping>,
    /// Provinces of the dislodged units destroyed in the retreat phase.
    #[serde(default)]
    pub destroyed: Option<Vec<String>>,
    /// Adjustment: provinces of the units removed in civil disorder.
    #[serde(default)]
    pub civil_disorder: Option<Vec<String>>,
    #[serde(default)]
    pub note: Option<String>,
}

/// Orders written per power as `{order text: outcome}` items: the orders text (a
/// header per power, one order per line) and the expectations in written order.
fn orders_text(orders: &serde_yaml::Mapping) -> Result<(String, Vec<(String, String)>), String> {
    let mut text = String::new();
    let mut expected = Vec::new();
    for (power, list) in orders {
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
    Ok((text, expected))
}

/// Compare a list of province ids, in any order.
fn same_set(what: &str, want: &[String], have: Vec<String>, diffs: &mut Vec<String>) {
    let mut want = want.to_vec();
    want.sort();
    let mut have = have;
    have.sort();
    if want != have {
        diffs.push(format!("{what}: expected {want:?}, got {have:?}"));
    }
}

/// Compare each order's outcome word with the expectation.
fn words(expected: &[(String, String)], r: &PhaseResult, diffs: &mut Vec<String>) {
    if r.orders().len() != expected.len() {
        diffs.push(format!(
            "parsed {} orders, expected {}",
            r.orders().len(),
            expected.len()
        ));
        return;
    }
    for ((order, want), got) in expected.iter().zip(r.orders()) {
        if want != got.outcome.word() {
            diffs.push(format!(
                "`{order}`: expected {want}, got {}",
                got.outcome.word()
            ));
        }
    }
}

/// One edition name or a list of them.
#[derive(Deserialize, Debug, Clone)]
#[serde(untagged)]
pub enum Editions {
    One(String),
    Many(Vec<String>),
}

/// Read a file of cases.
pub fn parse_cases(yaml: &str) -> Result<Vec<TestCase>, crate::yaml::YamlError> {
    crate::yaml::from_str(yaml)
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

impl TestCase {
    /// The editions the case runs under, in the order written (default: `2023`).
    pub fn editions(&self) -> Result<Vec<Rules>, String> {
        let names: Vec<&str> = match &self.rules {
            None => return Ok(vec![Rules::default()]),
            Some(Editions::One(r)) => vec![r.as_str()],
            Some(Editions::Many(v)) => v.iter().map(String::as_str).collect(),
        };
        if names.is_empty() {
            return Err("`rules` names no edition".into());
        }
        names
            .into_iter()
            .map(|r| {
                Rules::parse(r).ok_or_else(|| {
                    format!(
                        "unknown rules edition `{r}`: the editions are {}",
                        Rules::names()
                    )
                })
            })
            .collect()
    }

    /// Build the position and parse the orders, under the case's first edition.
    pub fn prepare(&self, map: &Map) -> Result<Prepared, String> {
        let rules = self
            .editions()?
            .first()
            .copied()
            .ok_or("`rules` names no edition")?;
        self.prepare_under(map, rules)
    }

    /// Build the position and parse the orders, under `rules`.
    pub fn prepare_under(&self, map: &Map, rules: Rules) -> Result<Prepared, String> {
        let phase = match &self.phase {
            Some(p) => Phase::parse(p).map_err(|e| e.to_string())?,
            None => Phase::first(map),
        };
        let mut position = Position::from_units(
            map,
            phase,
            self.units.iter().map(|(k, v)| (k.as_str(), v.as_slice())),
        )
        .map_err(|e| e.to_string())?;
        if let Some(o) = &self.owners {
            position
                .set_owners(map, o.iter().map(|(k, v)| (k.as_str(), v.as_slice())))
                .map_err(|e| e.to_string())?;
        }
        let (text, expected) = orders_text(&self.orders)?;
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

    /// Run the case under every edition it names; return every difference from the
    /// expectation (empty: it passes), each prefixed with its edition when there are
    /// several.
    pub fn check(&self, map: &Map) -> Vec<String> {
        let editions = match self.editions() {
            Ok(e) => e,
            Err(e) => return vec![e],
        };
        let several = editions.len() > 1;
        editions
            .into_iter()
            .flat_map(|rules| {
                self.check_under(map, rules).into_iter().map(move |d| {
                    if several {
                        format!("[{} rules] {d}", rules.name())
                    } else {
                        d
                    }
                })
            })
            .collect()
    }

    /// Run the case under `rules`; return every difference from the expectation.
    pub fn check_under(&self, map: &Map, rules: Rules) -> Vec<String> {
        let p = match self.prepare_under(map, rules) {
            Ok(p) => p,
            Err(e) => return vec![e],
        };
        let mut diffs = p
            .problems
            .iter()
            .map(|e| format!("parse error: {e}"))
            .collect::<Vec<_>>();
        let (r, next) = match advance(map, p.rules, &p.position, &p.orders, None) {
            Ok(r) => r,
            Err(e) => return vec![e.to_string()],
        };
        words(&p.expected, &r, &mut diffs);
        let prov = |l| map.province(map.prov_of(l)).id.clone();
        if p.position.phase.kind == PhaseKind::Adjustment {
            if let Some(want) = &self.civil_disorder {
                let have = r
                    .adjustment()
                    .map_or(&[][..], |a| &a.civil_disorder)
                    .iter()
                    .filter_map(|&(i, _)| r.units().get(i).map(|u| prov(u.loc)))
                    .collect();
                same_set("civil disorder", want, have, &mut diffs);
            }
            return diffs;
        }
        let got: BTreeMap<String, String> = r
            .dislodged()
            .iter()
            .map(|d| (prov(d.unit.loc), map.province(d.by).id.clone()))
            .collect();
        if got != self.dislodged {
            diffs.push(format!(
                "dislodged: expected {:?}, got {:?}",
                self.dislodged, got
            ));
        }
        if let Some(c) = &self.contested {
            let have = r
                .movement()
                .map_or(&[][..], |m| &m.contested)
                .iter()
                .map(|&q| map.province(q).id.clone())
                .collect();
            same_set("contested", c, have, &mut diffs);
        }
        if let Some(want) = &self.retreats {
            let have: BTreeMap<String, Vec<String>> = r
                .dislodged()
                .iter()
                .map(|d| {
                    let mut l: Vec<String> = d.retreats.iter().map(|&l| map.loc_id(l)).collect();
                    l.sort();
                    (prov(d.unit.loc), l)
                })
                .collect();
            let want: BTreeMap<String, Vec<String>> = want
                .iter()
                .map(|(k, v)| {
                    let mut v = v.clone();
                    v.sort();
                    (k.clone(), v)
                })
                .collect();
            if want != have {
                diffs.push(format!("retreats: expected {want:?}, got {have:?}"));
            }
        }
        if let Some(orders) = &self.retreat_orders {
            if next.phase.kind != PhaseKind::Retreat && r.retreats_taken_at_once() {
                // No dislodged unit could retreat: the retreat phase was taken at once
                // and every dislodged unit destroyed, so there can be no retreat orders.
                if !orders.is_empty() {
                    diffs.push(
                        "retreat orders given, but no dislodged unit can retreat (the retreat \
                         phase is taken at once)"
                            .into(),
                    );
                }
                if let Some(want) = &self.destroyed {
                    let have = r
                        .destroyed()
                        .iter()
                        .filter_map(|&i| r.units().get(i).map(|u| prov(u.loc)))
                        .collect();
                    same_set("destroyed", want, have, &mut diffs);
                }
                return diffs;
            }
            if next.phase.kind != PhaseKind::Retreat {
                diffs.push("no retreat phase follows the movement phase".into());
                return diffs;
            }
            let (text, expected) = match orders_text(orders) {
                Ok(t) => t,
                Err(e) => {
                    diffs.push(e);
                    return diffs;
                }
            };
            let parsed = parse_orders(map, &text);
            for d in &parsed.diagnostics {
                diffs.push(format!(
                    "retreat parse error: line {}: {}",
                    d.span.line, d.message
                ));
            }
            let (t, _) = match advance(map, p.rules, &next, &parsed.orders, None) {
                Ok(r) => r,
                Err(e) => {
                    diffs.push(e.to_string());
                    return diffs;
                }
            };
            words(&expected, &t, &mut diffs);
            if let Some(want) = &self.destroyed {
                let have = t
                    .destroyed()
                    .iter()
                    .filter_map(|&i| t.units().get(i).map(|u| prov(u.loc)))
                    .collect();
                same_set("destroyed", want, have, &mut diffs);
            }
        }
        diffs
    }
}

impl TestCase {
    /// The editions the case runs under, in the order written; a case that names none
    /// runs under `default` (`arbiter test --rules`). [`TestCase::editions`] is this with
    /// the default edition, `2023`.
    pub fn editions_or(&self, default: Rules) -> Result<Vec<Rules>, String> {
        match self.rules {
            None => Ok(vec![default]),
            Some(_) => self.editions(),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_streaming_reader_reads_the_suites_as_serde_yaml_does() {
        for dir in [
            "test-cases/datc",
            "test-cases/editions",
            "test-cases/regressions",
        ] {
            for (name, text) in crate::yaml::repo_texts(dir, ".yaml") {
                crate::yaml::assert_readers_agree::<Vec<super::TestCase>>(&text, &name);
            }
        }
    }
}
