//! `arbiter adjudicate --batch`: JSON Lines in, JSON Lines out, one case per line, for
//! every kind of phase. The answers come from [`arbiter::batch::answer_line`]; this
//! module only reads lines, keeps the maps, and writes the answers.

use std::collections::HashMap;
use std::fmt::Write;

use super::{
    load_map, parse_rules, read_input, write_output, AdjudicateArgs, Fatal, EXIT_DIAGNOSTICS,
    EXIT_OK,
};
use arbiter::batch::answer_line;
use arbiter::map::Map;

pub fn run(args: &AdjudicateArgs) -> Result<i32, Fatal> {
    let default_map = load_map(&args.map)?;
    let default_rules = parse_rules(&args.rules)?;
    let input = read_input(&args.orders)?;
    // Load every map the lines name first, so answers can borrow them.
    let mut maps: HashMap<String, Result<Map, String>> = HashMap::new();
    for line in input.lines().filter(|l| l.contains("\"map\"")) {
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(line) {
            if let Some(name) = v.get("map").and_then(|m| m.as_str()) {
                if name != default_map.name && !maps.contains_key(name) {
                    maps.insert(name.to_string(), load_map(name).map_err(|f| f.0));
                }
            }
        }
    }
    let mut map_for = |name: Option<&str>| -> Result<&Map, String> {
        match name {
            None => Ok(&default_map),
            Some(n) if n == default_map.name => Ok(&default_map),
            Some(n) => match maps.get(n) {
                Some(Ok(m)) => Ok(m),
                Some(Err(e)) => Err(e.clone()),
                None => Err(format!("unknown map `{n}`")),
            },
        }
    };
    let mut out = String::new();
    let mut errors = 0;
    for line in input.lines() {
        if line.trim().is_empty() {
            continue;
        }
        let options = arbiter::orders::ParseOptions {
            strict: args.strict,
        };
        let text = match answer_line(line, default_rules, options, &mut map_for) {
            Ok(t) => t,
            Err(t) => {
                errors += 1;
                t
            }
        };
        let _ = writeln!(out, "{text}");
    }
    write_output(args.output.as_deref(), &out)?;
    Ok(if errors > 0 {
        EXIT_DIAGNOSTICS
    } else {
        EXIT_OK
    })
}
