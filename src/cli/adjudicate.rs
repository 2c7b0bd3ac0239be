//! `arbiter adjudicate ORDERS`: one phase (movement, retreat or adjustment, as the
//! position file says), as a sheet, JSON or Markdown.

use super::{load_map, parse_rules, read_input, AdjudicateArgs, Fatal, EXIT_DIAGNOSTICS, EXIT_OK};
use arbiter::game::advance;
use arbiter::gamefile::outcome_diagnostics;
use arbiter::judge::nationality_warnings;
use arbiter::orders::{parse_slip, ParseOptions, Severity};
use arbiter::state::{slip_file_phase_diagnostic, slip_phase_diagnostics, Position};

pub fn run(args: &AdjudicateArgs) -> Result<i32, Fatal> {
    let map = load_map(&args.map)?;
    let rules = parse_rules(&args.rules)?;
    let position = match &args.position {
        Some(p) => {
            let src = super::read_file(p)
                .map_err(|e| Fatal(format!("cannot read `{}`: {e}", p.display())))?;
            Position::from_yaml(&map, &src).map_err(|e| Fatal(format!("{}: {e}", p.display())))?
        }
        None => Position::initial(&map),
    };
    let text = read_input(&args.orders)?;
    let file = if args.orders == "-" {
        "<stdin>"
    } else {
        args.orders.as_str()
    };
    // A slip: its power from its header or file name, its heading's phase checked.
    let mut parsed = parse_slip(
        &map,
        file,
        &text,
        ParseOptions {
            strict: args.strict,
        },
    );
    parsed
        .diagnostics
        .extend(slip_phase_diagnostics(&parsed.labels, position.phase));
    parsed.diagnostics.extend(slip_file_phase_diagnostic(
        file,
        &parsed.labels,
        position.phase,
    ));
    let (mut result, _) =
        advance(&map, rules, &position, &parsed.orders, None).map_err(|e| Fatal(e.to_string()))?;
    let mut diagnostics = parsed.diagnostics;
    // DATC 4.C.5, 4.C.6: a stated nationality that does not match is ignored, with a warning.
    diagnostics.extend(
        nationality_warnings(&map, &position.units, &parsed.orders)
            .map_err(|e| Fatal(e.to_string()))?,
    );
    // What is done with is let go before the report is written: a file of many orders
    // is not held twice (docs/CLI.md, "Bounds"). The result keeps its own copy of the
    // orders; its diagnostics move to the report's list.
    drop(parsed.orders);
    diagnostics.append(result.diagnostics_mut());
    // Illegal retreat and adjustment orders are errors, as in `judge`.
    let illegal = outcome_diagnostics(&map, &position, &result, &diagnostics);
    diagnostics.extend(illegal);
    diagnostics.sort_by_key(|d| (d.span.line, d.span.start));
    super::print_diagnostics(&diagnostics, &text, file);
    drop(text);
    let game = args.game.clone().unwrap_or_else(|| map.name.clone());
    if args.format == super::Format::Json {
        // The JSON is indented and written as it is made: a phase of many orders is
        // not held as text too (docs/CLI.md, "Bounds").
        super::write_with(args.output.as_deref(), |w| {
            arbiter::report::json::write_phase_pretty(w, &map, &result, &diagnostics)
                .map_err(std::io::Error::other)?;
            w.write_all(b"\n")
        })?;
    } else {
        // The sheet is written as it is made, for the same reason; to standard output
        // without control characters, as `write_output` writes it.
        let to_terminal = args.output.is_none();
        let markdown = args.format == super::Format::Markdown;
        super::write_with(args.output.as_deref(), |w| {
            let mut emit = |part: &str| {
                if to_terminal {
                    w.write_all(super::terminal(part).as_bytes())
                } else {
                    w.write_all(part.as_bytes())
                }
            };
            if markdown {
                arbiter::report::markdown::sheet_to(&map, &game, &result, &mut emit)
            } else {
                arbiter::report::text::sheet_to(&map, &game, &result, &mut emit)
            }
        })?;
    }
    Ok(
        if diagnostics.iter().any(|d| d.severity == Severity::Error) {
            EXIT_DIAGNOSTICS
        } else {
            EXIT_OK
        },
    )
}
