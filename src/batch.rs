//! Batch adjudication: one JSON case in, one JSON answer out, for every kind of phase.
//! The answer is the phase's JSON result (the same object as `--format json`, see
//! [`crate::report::json::phase`]) with the caller's `id` first. The binary only reads
//! lines and writes answers; a bad line gives `{"id": …, "error": …}`.

use serde::{Deserialize, Serialize};

use crate::game::{advance, DislodgedEntry, Phase, PhaseKind, Position};
use crate::judge::Rules;
use crate::map::Map;
use crate::orders::{nationality_warnings, parse_order_with, Diagnostic, Order, ParseOptions};
use crate::report::json::{self, JsonResult};

/// One input line. Keys other than these are ignored (a line may carry the caller's
/// own data, such as an expected result).
#[derive(Deserialize)]
struct Case {
    #[serde(default)]
    id: serde_json::Value,
    #[serde(default)]
    map: Option<String>,
    #[serde(default)]
    phase: Option<String>,
    #[serde(default)]
    rules: Option<String>,
    #[serde(default, deserialize_with = "crate::yaml::unique_keys")]
    units: serde_json::Map<String, serde_json::Value>,
    #[serde(default, deserialize_with = "crate::yaml::unique_keys")]
    orders: serde_json::Map<String, serde_json::Value>,
    /// Retreat phase: the dislodged units with their retreats.
    #[serde(default)]
    dislodged: Vec<DislodgedEntry>,
    /// Adjustment phase: supply-centre owners after the Fall, by power.
    #[serde(default, deserialize_with = "crate::yaml::unique_keys")]
    centers: Option<serde_json::Map<String, serde_json::Value>>,
}

/// The answer to one line.
#[derive(Serialize)]
pub struct Answer {
    pub id: serde_json::Value,
    #[serde(flatten)]
    pub result: JsonResult,
}

#[derive(Serialize)]
struct ErrorAnswer<'a> {
    id: serde_json::Value,
    error: &'a str,
}

fn strings(v: &serde_json::Value, what: &str) -> Result<Vec<String>, String> {
    v.as_array()
        .ok_or_else(|| format!("{what} must be a list of strings"))?
        .iter()
        .map(|s| {
            s.as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("{what} must be a list of strings"))
        })
        .collect()
}

/// Answer one line as JSON text; `Err` holds the error answer's text. `map_for`
/// gives the map a line names (`None`: the default map), or why it cannot.
pub fn answer_line<'m>(
    line: &str,
    default_rules: Rules,
    options: ParseOptions,
    map_for: &mut dyn FnMut(Option<&str>) -> Result<&'m Map, String>,
) -> Result<String, String> {
    let fail = |id: serde_json::Value, e: &str| {
        serde_json::to_string(&ErrorAnswer { id, error: e }).unwrap_or_default()
    };
    match answer(line, default_rules, options, map_for) {
        Ok(a) => serde_json::to_string(&a).map_err(|e| fail(a.id.clone(), &e.to_string())),
        Err(e) => {
            // Only a failed line is read a second time, for whatever `id` it has.
            let id = serde_json::from_str::<serde_json::Value>(line)
                .ok()
                .and_then(|v| v.get("id").cloned())
                .unwrap_or(serde_json::Value::Null);
            Err(fail(id, &e))
        }
    }
}

/// Answer one case.
fn answer<'m>(
    line: &str,
    default_rules: Rules,
    options: ParseOptions,
    map_for: &mut dyn FnMut(Option<&str>) -> Result<&'m Map, String>,
) -> Result<Answer, String> {
    // serde reads a struct from a JSON array too (by position): only an object is a case.
    if !line.trim_start().starts_with('{') {
        return Err("bad JSON: a line is one JSON object (`{\"units\": …, \"orders\": …}`)".into());
    }
    let c: Case = serde_json::from_str(line).map_err(|e| format!("bad JSON: {e}"))?;
    let map = map_for(c.map.as_deref())?;
    let rules = match &c.rules {
        Some(r) => Rules::parse(r).ok_or_else(|| format!("unknown rules edition `{r}`"))?,
        None => default_rules,
    };
    let phase = match c.phase.as_deref().map(str::trim) {
        None | Some("movement") => Phase::first(map),
        Some("retreat") => Phase {
            kind: PhaseKind::Retreat,
            ..Phase::first(map)
        },
        Some("adjustment") => Phase {
            season: crate::map::Season::Winter,
            kind: PhaseKind::Adjustment,
            ..Phase::first(map)
        },
        Some(p) => {
            Phase::parse(p).map_err(|e| format!("{e}; or write movement, retreat or adjustment"))?
        }
    };
    let mut units: Vec<(String, Vec<String>)> = Vec::new();
    for (power, list) in &c.units {
        units.push((power.clone(), strings(list, &format!("units of {power}"))?));
    }
    let mut position = Position::from_units(
        map,
        phase,
        units.iter().map(|(p, l)| (p.as_str(), l.as_slice())),
    )
    .map_err(|e| e.to_string())?;
    position
        .set_dislodged(map, &c.dislodged)
        .map_err(|e| e.to_string())?;
    position.check_dislodged().map_err(|e| e.to_string())?;
    if let Some(centers) = &c.centers {
        let mut owners: Vec<(String, Vec<String>)> = Vec::new();
        for (power, list) in centers {
            owners.push((
                power.clone(),
                strings(list, &format!("centers of {power}"))?,
            ));
        }
        position
            .set_owners(map, owners.iter().map(|(p, l)| (p.as_str(), l.as_slice())))
            .map_err(|e| e.to_string())?;
    }
    // Parse each order on its own; an unreadable one is reported in place.
    let mut parsed: Vec<Order> = Vec::new();
    let mut slots: Vec<(String, String, Result<usize, String>)> = Vec::new();
    let mut warnings: Vec<Vec<Diagnostic>> = Vec::new();
    for (power, list) in &c.orders {
        let pw = map
            .power_by_name(power)
            .ok_or_else(|| format!("unknown power `{power}`"))?;
        let id = map.power(pw).id.clone();
        for text in strings(list, &format!("orders of {power}"))? {
            match parse_order_with(map, &text, Some(pw), options) {
                Ok((o, w)) => {
                    slots.push((id.clone(), text, Ok(parsed.len())));
                    parsed.push(o);
                    warnings.push(w);
                }
                Err(d) => slots.push((
                    id.clone(),
                    text,
                    Err(match d.help {
                        Some(h) => format!("cannot read the order: {} ({h})", d.message),
                        None => format!("cannot read the order: {}", d.message),
                    }),
                )),
            }
        }
    }
    for (k, o) in parsed.iter().enumerate() {
        warnings[k].extend(nationality_warnings(
            map,
            &position.units,
            std::slice::from_ref(o),
        ));
    }
    let (mut result, _) =
        advance(map, rules, &position, &parsed, None).map_err(|e| e.to_string())?;
    let mut entries = json::orders(map, &result).into_iter();
    let mut orders = Vec::with_capacity(slots.len());
    for (power, text, slot) in slots {
        match slot {
            Ok(k) => {
                let mut e = entries.next().expect("one entry per parsed order");
                e.order = text;
                e.warnings = warnings[k].iter().map(|d| d.message.clone()).collect();
                orders.push(e);
            }
            Err(reason) => orders.push(json::JsonOrder {
                power: Some(power),
                order: text,
                canonical: None,
                outcome: "illegal",
                reason: Some(reason),
                caused_by: vec![],
                warnings: vec![],
            }),
        }
    }
    result.diagnostics.clear();
    let mut j = json::phase(map, &result);
    j.orders = orders;
    Ok(Answer {
        id: c.id,
        result: j,
    })
}
