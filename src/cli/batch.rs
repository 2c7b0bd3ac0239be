//! `arbiter adjudicate --batch`: JSON Lines in, JSON Lines out, one case per line.
//! A bad line gives `{"id": …, "error": …}` and the batch goes on.

use std::collections::HashMap;
use std::fmt::Write;

use serde::{Deserialize, Serialize};

use super::{
    load_map, parse_rules, read_input, write_output, AdjudicateArgs, Fatal, EXIT_DIAGNOSTICS,
    EXIT_OK,
};
use arbiter::game::{Phase, PhaseKind, Position};
use arbiter::judge::{adjudicate, Rules};
use arbiter::map::Map;
use arbiter::orders::{parse_order, Order};
use arbiter::report::json::{self, JsonDislodged, JsonOrder};

/// One input line. Keys other than these are ignored (a line may carry the caller's own
/// data, such as an expected result).
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
    units: serde_json::Map<String, serde_json::Value>,
    #[serde(default)]
    orders: serde_json::Map<String, serde_json::Value>,
}

#[derive(Serialize)]
struct Out {
    id: serde_json::Value,
    /// The rule edition that produced the result.
    rules: &'static str,
    orders: Vec<JsonOrder>,
    dislodged: Vec<JsonDislodged>,
    contested: Vec<String>,
    units_after: std::collections::BTreeMap<String, Vec<String>>,
}

#[derive(Serialize)]
struct ErrorOut<'a> {
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

pub fn run(args: &AdjudicateArgs) -> Result<i32, Fatal> {
    let default_map = load_map(&args.map)?;
    let default_rules = parse_rules(&args.rules)?;
    let input = read_input(&args.orders)?;
    let mut maps: HashMap<String, Map> = HashMap::new();
    let mut out = String::new();
    let mut errors = 0;
    for line in input.lines() {
        if line.trim().is_empty() {
            continue;
        }
        let id = serde_json::from_str::<serde_json::Value>(line)
            .ok()
            .and_then(|v| v.get("id").cloned())
            .unwrap_or(serde_json::Value::Null);
        let res = case(line, &default_map, default_rules, &mut maps);
        let text = match res {
            Ok(o) => serde_json::to_string(&o),
            Err(e) => {
                errors += 1;
                serde_json::to_string(&ErrorOut { id, error: &e })
            }
        }
        .map_err(|e| Fatal(e.to_string()))?;
        let _ = writeln!(out, "{text}");
    }
    write_output(args.output.as_deref(), &out)?;
    Ok(if errors > 0 {
        EXIT_DIAGNOSTICS
    } else {
        EXIT_OK
    })
}

fn case(
    line: &str,
    default_map: &Map,
    default_rules: Rules,
    maps: &mut HashMap<String, Map>,
) -> Result<Out, String> {
    let c: Case = serde_json::from_str(line).map_err(|e| format!("bad JSON: {e}"))?;
    let map = match &c.map {
        None => default_map,
        Some(name) if name == &default_map.name => default_map,
        Some(name) => {
            if !maps.contains_key(name) {
                let m = load_map(name).map_err(|f| f.0)?;
                maps.insert(name.clone(), m);
            }
            &maps[name]
        }
    };
    let rules = match &c.rules {
        Some(r) => Rules::parse(r).ok_or_else(|| format!("unknown rules edition `{r}`"))?,
        None => default_rules,
    };
    let phase = match &c.phase {
        Some(p) => Phase::parse(p).ok_or_else(|| format!("unknown phase `{p}`"))?,
        None => Phase::first(map),
    };
    if phase.kind != PhaseKind::Movement {
        return Err(format!(
            "phase `{phase}`: only movement phases are adjudicated so far"
        ));
    }
    let mut units: Vec<(String, Vec<String>)> = Vec::new();
    for (power, list) in &c.units {
        units.push((power.clone(), strings(list, &format!("units of {power}"))?));
    }
    let position = Position::from_units(
        map,
        phase,
        units.iter().map(|(p, l)| (p.as_str(), l.as_slice())),
    )
    .map_err(|e| e.to_string())?;
    // Parse each order on its own; an unreadable one is reported in place.
    let mut parsed: Vec<Order> = Vec::new();
    let mut slots: Vec<(Option<String>, String, Result<usize, String>)> = Vec::new();
    for (power, list) in &c.orders {
        let pw = map
            .power_by_name(power)
            .ok_or_else(|| format!("unknown power `{power}`"))?;
        for text in strings(list, &format!("orders of {power}"))? {
            match parse_order(map, &text, Some(pw)) {
                Ok(o) => {
                    slots.push((Some(map.power(pw).id.clone()), text, Ok(parsed.len())));
                    parsed.push(o);
                }
                Err(d) => slots.push((
                    Some(map.power(pw).id.clone()),
                    text,
                    Err(match d.help {
                        Some(h) => format!("cannot read the order: {} ({h})", d.message),
                        None => format!("cannot read the order: {}", d.message),
                    }),
                )),
            }
        }
    }
    let result = adjudicate(map, &position, &parsed, rules);
    let mut entries = json::orders(map, &result, &parsed).into_iter();
    let mut orders = Vec::with_capacity(slots.len());
    for (power, text, slot) in slots {
        match slot {
            Ok(_) => {
                let mut e = entries.next().expect("one entry per parsed order");
                e.order = text;
                orders.push(e);
            }
            Err(reason) => orders.push(JsonOrder {
                power,
                order: text,
                canonical: None,
                outcome: "illegal",
                reason: Some(reason),
                caused_by: vec![],
            }),
        }
    }
    Ok(Out {
        id: c.id,
        rules: rules.name(),
        orders,
        dislodged: json::dislodged(map, &result),
        contested: json::contested(map, &result),
        units_after: json::units_after(map, &result),
    })
}
