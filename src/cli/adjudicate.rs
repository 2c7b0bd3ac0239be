//! `arbiter adjudicate ORDERS`: one movement phase, text or JSON.

use super::{
    load_map, parse_rules, read_input, write_output, AdjudicateArgs, Fatal, Format,
    EXIT_DIAGNOSTICS, EXIT_OK,
};
use arbiter::game::{PhaseKind, Position};
use arbiter::judge::adjudicate;
use arbiter::orders::{parse_orders, render_diagnostics, Severity};
use arbiter::report;

pub fn run(args: &AdjudicateArgs) -> Result<i32, Fatal> {
    let map = load_map(&args.map)?;
    let rules = parse_rules(&args.rules)?;
    let position = match &args.position {
        Some(p) => {
            let src = std::fs::read_to_string(p)
                .map_err(|e| Fatal(format!("cannot read `{}`: {e}", p.display())))?;
            Position::from_yaml(&map, &src).map_err(|e| Fatal(format!("{}: {e}", p.display())))?
        }
        None => Position::initial(&map),
    };
    if position.phase.kind != PhaseKind::Movement {
        return Err(Fatal(format!(
            "the position is a {} phase; `adjudicate` handles movement phases so far",
            position.phase
        )));
    }
    let text = read_input(&args.orders)?;
    let parsed = parse_orders(&map, &text);
    let result = adjudicate(&map, &position, &parsed.orders, rules);
    let mut diagnostics = parsed.diagnostics;
    diagnostics.extend(result.diagnostics.iter().cloned());
    diagnostics.sort_by_key(|d| (d.span.line, d.span.start));
    let file = if args.orders == "-" {
        "<stdin>"
    } else {
        args.orders.as_str()
    };
    if !diagnostics.is_empty() {
        eprint!("{}", render_diagnostics(&diagnostics, &text, file));
    }
    let out = match args.format {
        Format::Text => {
            let game = args.game.clone().unwrap_or_else(|| map.name.clone());
            report::text::movement(
                &map,
                position.phase,
                &position.owners,
                &game,
                &result,
                &parsed.orders,
            )
        }
        Format::Json => {
            let j = report::json::movement(
                &map,
                position.phase,
                &result,
                &parsed.orders,
                diagnostics.clone(),
            );
            let mut s = serde_json::to_string_pretty(&j).map_err(|e| Fatal(e.to_string()))?;
            s.push('\n');
            s
        }
    };
    write_output(args.output.as_deref(), &out)?;
    Ok(
        if diagnostics.iter().any(|d| d.severity == Severity::Error) {
            EXIT_DIAGNOSTICS
        } else {
            EXIT_OK
        },
    )
}
