//! Orders as people write them (issue 11): one row per style in use, by family as in
//! `docs/ORDERS.md`, each with the order it must read as; then the rules that keep the
//! parser from misreading: two readings are an error naming both, a misspelling is
//! corrected only with a warning that shows it (an error in strict mode), a one-letter
//! power is told from a unit type by punctuation and position. Also the canonical form
//! from the board (item 7), the nationality check (DATC 4.C.5, 4.C.6) and the phase
//! styles judged in their phases (item 6).

use arbiter::game::advance;
use arbiter::judge::nationality_warnings;
use arbiter::judge::{Illegal, Outcome, Rules};
use arbiter::map::Map;
use arbiter::orders::{
    parse_order_with, parse_orders, parse_orders_with, render_diagnostics, stated_nationality,
    OrderKind, ParseOptions, Parsed, Severity,
};
use arbiter::state::Position;

const LENIENT: ParseOptions = ParseOptions { strict: false };
const STRICT: ParseOptions = ParseOptions { strict: true };

/// Every order of `p` as `power: CANONICAL` (or `CANONICAL` without a power).
fn shown(map: &Map, p: &Parsed) -> Vec<String> {
    p.orders
        .iter()
        .map(|o| match o.power {
            Some(pw) => format!("{}: {}", map.power(pw).id, o.canonical(map, None)),
            None => o.canonical(map, None),
        })
        .collect()
}

/// (family, text, the order it reads as). Every row reads without a diagnostic, in
/// strict mode and out of it, as exactly that one order.
const STYLES: &[(&str, &str, &str)] = &[
    // 1. Web-site sentences, as order logs print them.
    (
        "1 web",
        "The army at Vienna move to Trieste.",
        "A VIE - TRI",
    ),
    (
        "1 web",
        "The army at Vienna moves to Trieste",
        "A VIE - TRI",
    ),
    (
        "1 web",
        "The fleet at Aegean Sea support move to Greece from Bulgaria.",
        "F AEG S BUL - GRE",
    ),
    (
        "1 web",
        "The fleet at Aegean Sea supports move from Bulgaria to Greece",
        "F AEG S BUL - GRE",
    ),
    (
        "1 web",
        "The army at Rome support hold to Venice.",
        "A ROM S VEN",
    ),
    (
        "1 web",
        "The army at Rome support hold Venice",
        "A ROM S VEN",
    ),
    (
        "1 web",
        "The fleet at Ionian Sea convoy to Tunis from Naples.",
        "F ION C A NAP - TUN",
    ),
    (
        "1 web",
        "The fleet at Ionian Sea convoys from Naples to Tunis",
        "F ION C A NAP - TUN",
    ),
    (
        "1 web",
        "The army at London move to Norway via convoy.",
        "A LON - NWY VIA CONVOY",
    ),
    (
        "1 web",
        "The army at London move to Norway (via convoy)",
        "A LON - NWY VIA CONVOY",
    ),
    (
        "1 web",
        "The army at Vienna move to Trieste. (fail)",
        "A VIE - TRI",
    ),
    ("1 web", "The army at Vienna hold. (dislodged)", "A VIE H"),
    ("1 web", "A Par - Bur (bounce, dislodged)", "A PAR - BUR"),
    ("1 web", "A Par - Bur (succeeds)", "A PAR - BUR"),
    ("1 web", "A Lon - Nwy (no convoy)", "A LON - NWY"),
    ("1 web", "The army at Vienna hold.", "A VIE H"),
    (
        "1 web",
        "The army at Munich retreat to Bohemia.",
        "A MUN - BOH",
    ),
    ("1 web", "The army at Munich disband.", "A MUN D"),
    ("1 web", "Build fleet at Brest.", "BUILD F BRE"),
    ("1 web", "Build army at Paris", "BUILD A PAR"),
    ("1 web", "Build a fleet in Brest", "BUILD F BRE"),
    (
        "1 web",
        "Build fleet at St. Petersburg (North Coast)",
        "BUILD F STP/NC",
    ),
    ("1 web", "Destroy the fleet at Trieste.", "F TRI D"),
    ("1 web", "Destroy the army at Paris", "A PAR D"),
    ("1 web", "A fleet at Brest holds", "F BRE H"),
    (
        "1 web",
        "The army at Munich supports the army at Berlin move to Kiel.",
        "A MUN S A BER - KIE",
    ),
    (
        "1 web",
        "A Mun supports the German army in Berlin",
        "A MUN S A BER",
    ),
    // 2. Other verb words and notations.
    ("2 verbs", "A Par into Bur", "A PAR - BUR"),
    ("2 verbs", "A Par moves into Bur", "A PAR - BUR"),
    ("2 verbs", "A Par attacks Bur", "A PAR - BUR"),
    ("2 verbs", "A Par attack on Bur", "A PAR - BUR"),
    ("2 verbs", "A Par attacks on Bur", "A PAR - BUR"),
    ("2 verbs", "A Vie stands", "A VIE H"),
    ("2 verbs", "A Vie standing", "A VIE H"),
    ("2 verbs", "A Par --> Bur", "A PAR - BUR"),
    ("2 verbs", "A Par => Bur", "A PAR - BUR"),
    ("2 verbs", "A Par - > Bur", "A PAR - BUR"),
    ("2 verbs", "A Par ->Bur", "A PAR - BUR"),
    ("2 verbs", "A Par moves to Bur", "A PAR - BUR"),
    ("2 verbs", "A Par goes to Bur", "A PAR - BUR"),
    ("2 verbs", "A Par MTO Bur", "A PAR - BUR"),
    ("2 verbs", "A Mun SUP A Ber MTO Kie", "A MUN S A BER - KIE"),
    ("2 verbs", "F NTH CVY A Lon CTO Nwy", "F NTH C A LON - NWY"),
    ("2 verbs", "A Vie HLD", "A VIE H"),
    ("2 verbs", "AMY Vie HLD", "A VIE H"),
    (
        "2 verbs",
        "( ( ENG FLT LON ) MTO NTH )",
        "england: F LON - NTH",
    ),
    (
        "2 verbs",
        "( ( FRA AMY PAR ) SUP ( FRA AMY MAR ) MTO BUR )",
        "france: A PAR S A MAR - BUR",
    ),
    (
        "2 verbs",
        "( ( FRA AMY PAR ) SUP ( FRA AMY MAR ) )",
        "france: A PAR S A MAR",
    ),
    (
        "2 verbs",
        "( ( ENG FLT NTH ) CVY ( ENG AMY LON ) CTO NWY )",
        "england: F NTH C A LON - NWY",
    ),
    (
        "2 verbs",
        "( ( ENG AMY LON ) CTO NWY VIA ( NTH ) )",
        "england: A LON - NWY VIA CONVOY",
    ),
    ("2 verbs", "( ( FRA AMY PAR ) HLD )", "france: A PAR H"),
    (
        "2 verbs",
        "( ( RUS FLT ( STP SCS ) ) MTO BOT )",
        "russia: F STP/SC - BOT",
    ),
    (
        "2 verbs",
        "( ( GER AMY MUN ) RTO BOH )",
        "germany: A MUN - BOH",
    ),
    ("2 verbs", "( ( GER AMY MUN ) DSB )", "germany: A MUN D"),
    ("2 verbs", "( ( FRA FLT BRE ) BLD )", "france: BUILD F BRE"),
    ("2 verbs", "( ( ITA FLT NAP ) REM )", "italy: F NAP D"),
    ("2 verbs", "( ENG WVE )", "england: WAIVE"),
    ("2 verbs", "A(Vie) - Tri", "A VIE - TRI"),
    ("2 verbs", "F (Tri) - Adr", "F TRI - ADR"),
    ("2 verbs", "A(Mun) S A(Ber) - Kie", "A MUN S A BER - KIE"),
    (
        "2 verbs",
        "Army in Vienna supports army in Budapest",
        "A VIE S A BUD",
    ),
    ("2 verbs", "Army at Vienna holds", "A VIE H"),
    ("2 verbs", "Move army Vienna to Trieste", "A VIE - TRI"),
    ("2 verbs", "Move A Vie - Tri", "A VIE - TRI"),
    ("2 verbs", "m vie-tri", "VIE - TRI"),
    ("2 verbs", "M Vie Tri", "VIE - TRI"),
    ("2 verbs", "mv A Vie - Tri", "A VIE - TRI"),
    ("2 verbs", "Retreat A Mun to Boh", "A MUN - BOH"),
    ("2 verbs", "Hold A Vie", "A VIE H"),
    ("2 verbs", "A Bud–Holds", "A BUD H"),
    ("2 verbs", "A Bud-Holds", "A BUD H"),
    ("2 verbs", "A Bud - Hold", "A BUD H"),
    ("2 verbs", "A Mun-Supports A Ber", "A MUN S A BER"),
    ("2 verbs", "A Yor via Nth to Nwy", "A YOR - NWY VIA CONVOY"),
    ("2 verbs", "A Yor via Nth - Nwy", "A YOR - NWY VIA CONVOY"),
    (
        "2 verbs",
        "A Lon via convoy to Bre",
        "A LON - BRE VIA CONVOY",
    ),
    (
        "2 verbs",
        "A Lon via NTH ENG to Bre",
        "A LON - BRE VIA CONVOY",
    ),
    ("2 verbs", "A Lon - Nwy via NTH", "A LON - NWY VIA CONVOY"),
    ("2 verbs", "A Lon - Nwy by c", "A LON - NWY VIA CONVOY"),
    (
        "2 verbs",
        "A Mun support from Ber to Kie",
        "A MUN S BER - KIE",
    ),
    (
        "2 verbs",
        "F NTH convoy from Lon to Nwy",
        "F NTH C A LON - NWY",
    ),
    ("2 verbs", "A Boh supports (A Mun holds)", "A BOH S A MUN"),
    (
        "2 verbs",
        "A Boh supports (A Mun - Tyr)",
        "A BOH S A MUN - TYR",
    ),
    // 3. Powers however written.
    ("3 powers", "AUS: A Vie - Tri", "austria: A VIE - TRI"),
    ("3 powers", "ENG: F Lon - NTH", "england: F LON - NTH"),
    ("3 powers", "FRA A Par - Bur", "france: A PAR - BUR"),
    ("3 powers", "GER: A Mun - Ruh", "germany: A MUN - RUH"),
    ("3 powers", "ITA: A Ven H", "italy: A VEN H"),
    ("3 powers", "RUS: A Mos - StP", "russia: A MOS - STP"),
    ("3 powers", "TUR: F Ank - Bla", "turkey: F ANK - BLA"),
    ("3 powers", "ENG FLT LON MTO NTH", "england: F LON - NTH"),
    ("3 powers", "eng F Lon - Nth", "england: F LON - NTH"),
    ("3 powers", "E) F Lon - NTH", "england: F LON - NTH"),
    ("3 powers", "E: F Lon - NTH", "england: F LON - NTH"),
    ("3 powers", "E. F Lon - NTH", "england: F LON - NTH"),
    ("3 powers", "E F Lon - NTH", "england: F LON - NTH"),
    ("3 powers", "R: A Mos - StP", "russia: A MOS - STP"),
    ("3 powers", "R) A Mos - StP", "russia: A MOS - STP"),
    ("3 powers", "(R) A Mos - StP", "russia: A MOS - STP"),
    ("3 powers", "[R] A Mos - StP", "russia: A MOS - STP"),
    ("3 powers", "A: Vie - Tri", "austria: VIE - TRI"),
    ("3 powers", "A) A Vie - Tri", "austria: A VIE - TRI"),
    ("3 powers", "A A Vie - Tri", "austria: A VIE - TRI"),
    ("3 powers", "A F Tri - Adr", "austria: F TRI - ADR"),
    ("3 powers", "F: Par - Bur", "france: PAR - BUR"),
    ("3 powers", "F A Par - Bur", "france: A PAR - BUR"),
    ("3 powers", "F F Bre - Mao", "france: F BRE - MAO"),
    ("3 powers", "T F Ank - Bla", "turkey: F ANK - BLA"),
    ("3 powers", "G A Mun - Ruh", "germany: A MUN - RUH"),
    ("3 powers", "I A Ven H", "italy: A VEN H"),
    ("3 powers", "T Con - Bul", "turkey: CON - BUL"),
    ("3 powers", "[GERMANY] A Mun - Ruh", "germany: A MUN - RUH"),
    ("3 powers", "(ITALY) A Rom - Apu", "italy: A ROM - APU"),
    ("3 powers", "<England> F Lon - NTH", "england: F LON - NTH"),
    ("3 powers", "[E] F Lon - NTH", "england: F LON - NTH"),
    (
        "3 powers",
        "Austria-Hungary: A Vie - Tri",
        "austria: A VIE - TRI",
    ),
    (
        "3 powers",
        "Austro-Hungarian A Vie - Tri",
        "austria: A VIE - TRI",
    ),
    ("3 powers", "Britain: F Lon - NTH", "england: F LON - NTH"),
    (
        "3 powers",
        "Great Britain: F Lon - NTH",
        "england: F LON - NTH",
    ),
    ("3 powers", "British F Lon - NTH", "england: F LON - NTH"),
    ("3 powers", "UK: F Lon - NTH", "england: F LON - NTH"),
    ("3 powers", "Ottoman: A Con - Bul", "turkey: A CON - BUL"),
    ("3 powers", "Turk: A Con - Bul", "turkey: A CON - BUL"),
    ("3 powers", "German: A Mun - Ruh", "germany: A MUN - RUH"),
    ("3 powers", "Russian A Mos - StP", "russia: A MOS - STP"),
    ("3 powers", "Germany's A Mun - Ruh", "germany: A MUN - RUH"),
    (
        "3 powers",
        "A Ukr S Turkish F Bla - Rum",
        "A UKR S F BLA - RUM",
    ),
    ("3 powers", "A Ukr S T F Bla - Rum", "A UKR S F BLA - RUM"),
    ("3 powers", "A Ukr S T: F Bla - Rum", "A UKR S F BLA - RUM"),
    (
        "3 powers",
        "A Ukr S Turkey's F Bla - Rum",
        "A UKR S F BLA - RUM",
    ),
    (
        "3 powers",
        "A Boh supports (Ger A Mun holds)",
        "A BOH S A MUN",
    ),
    ("3 powers", "A Boh S GER AMY MUN", "A BOH S A MUN"),
    (
        "3 powers",
        "F Bla C Turkish A Ank - Sev",
        "F BLA C A ANK - SEV",
    ),
    ("3 powers", "F Bla C T A Ank - Sev", "F BLA C A ANK - SEV"),
    ("3 powers", "A Mun S A A Vie", "A MUN S A VIE"),
    ("3 powers", "A Mun S F A Par", "A MUN S A PAR"),
    ("3 powers", "A Mun S E Lon", "A MUN S LON"),
    // 4. Lists and numbering.
    ("4 lists", "1. A Vie - Tri", "A VIE - TRI"),
    ("4 lists", "2) F Tri - Adr", "F TRI - ADR"),
    ("4 lists", "(3) A Bud - Ser", "A BUD - SER"),
    ("4 lists", "4: A Bud - Ser", "A BUD - SER"),
    ("4 lists", "#5 A Bud - Ser", "A BUD - SER"),
    ("4 lists", "6 A Bud - Ser", "A BUD - SER"),
    ("4 lists", "b) A Vie - Tri", "A VIE - TRI"),
    ("4 lists", "(c) A Vie - Tri", "A VIE - TRI"),
    ("4 lists", "ii) A Vie - Tri", "A VIE - TRI"),
    ("4 lists", "iv. A Vie - Tri", "A VIE - TRI"),
    ("4 lists", "- A Vie - Tri", "A VIE - TRI"),
    ("4 lists", "* A Vie - Tri", "A VIE - TRI"),
    ("4 lists", "• A Vie - Tri", "A VIE - TRI"),
    ("4 lists", "• A Vie", "A VIE H"),
    ("4 lists", "England: 1. F Lon - NTH", "england: F LON - NTH"),
    // 5. Spellings: coasts, the DPjudge alias table, short names.
    ("5 coasts", "F Mao - Spa/north coast", "F MAO - SPA/NC"),
    ("5 coasts", "F Mao - Spa / North Coast", "F MAO - SPA/NC"),
    ("5 coasts", "F Mao - Spa/northern", "F MAO - SPA/NC"),
    ("5 coasts", "F Mao - Spa (northern)", "F MAO - SPA/NC"),
    ("5 coasts", "F Mao - Spa(n)", "F MAO - SPA/NC"),
    ("5 coasts", "F Mao - Spa (N)", "F MAO - SPA/NC"),
    ("5 coasts", "F Gas - Spa (north)", "F GAS - SPA/NC"),
    ("5 coasts", "F Con - Bul (east)", "F CON - BUL/EC"),
    ("5 coasts", "F Con - Bul (eastern coast)", "F CON - BUL/EC"),
    ("5 coasts", "F Con - Bul/e", "F CON - BUL/EC"),
    ("5 coasts", "F Mao - Spa nc", "F MAO - SPA/NC"),
    ("5 coasts", "F Mao - Spa n.c.", "F MAO - SPA/NC"),
    ("5 coasts", "F Mao - Spa/n.c.", "F MAO - SPA/NC"),
    ("5 coasts", "F Mao - Spa (N.C.)", "F MAO - SPA/NC"),
    ("5 coasts", "F Mao - Spa N. Coast", "F MAO - SPA/NC"),
    ("5 coasts", "F Mao - Spa/ncs", "F MAO - SPA/NC"),
    ("5 coasts", "F Mao - Spa-nc", "F MAO - SPA/NC"),
    ("5 coasts", "F Wes - Spain south coast", "F WES - SPA/SC"),
    ("5 coasts", "F Wes - Spain (South Coast)", "F WES - SPA/SC"),
    (
        "5 coasts",
        "F Bot - St. Petersburg (south coast)",
        "F BOT - STP/SC",
    ),
    ("5 coasts", "F Bot - StP(S)", "F BOT - STP/SC"),
    ("5 coasts", "F Nwy - StP/north", "F NWY - STP/NC"),
    ("5 aliases", "F Ech - Mao", "F ENG - MAO"),
    ("5 aliases", "F Gol - Wmed", "F LYO - WES"),
    ("5 aliases", "F Gob - Swe", "F BOT - SWE"),
    ("5 aliases", "F Nrg - Nts", "F NWG - NTH"),
    ("5 aliases", "F Norsea - Norwsea", "F NTH - NWG"),
    ("5 aliases", "F Nat - Mat", "F NAO - MAO"),
    ("5 aliases", "F Midatlantic - Spn/nc", "F MAO - SPA/NC"),
    ("5 aliases", "F Midatlanticocean - Irs", "F MAO - IRI"),
    ("5 aliases", "F Emed - Eastmed", "F EAS - EAS"),
    ("5 aliases", "F Ems - Aegean", "F EAS - AEG"),
    ("5 aliases", "F Wms - Tyh", "F WES - TYS"),
    ("5 aliases", "F Westmed - Tyrr", "F WES - TYS"),
    ("5 aliases", "A Livp - Yonkers", "A LVP - YOR"),
    ("5 aliases", "A Lpl - Wal", "A LVP - WAL"),
    ("5 aliases", "A Livo - Stpete", "A LVN - STP"),
    ("5 aliases", "A Lva - War", "A LVN - WAR"),
    ("5 aliases", "A Trl - Mun", "A TYR - MUN"),
    ("5 aliases", "A Tyo - Boh", "A TYR - BOH"),
    ("5 aliases", "A Mars - Spn", "A MAR - SPA"),
    ("5 aliases", "F Sevastapol - Bla", "F SEV - BLA"),
    ("5 aliases", "A Galacia - War", "A GAL - WAR"),
    ("5 aliases", "A Burgandy - Par", "A BUR - PAR"),
    ("5 aliases", "F Heligoland - Den", "F HEL - DEN"),
    ("5 aliases", "A Constantinople - Bul", "A CON - BUL"),
    ("5 aliases", "F St. Petersburg (nc) - Nwy", "F STP/NC - NWY"),
    (
        "5 aliases",
        "F Gulf of Lyons - Tyrrhenian Sea",
        "F LYO - TYS",
    ),
    // 6. Retreat and adjustment styles (the phase decides what each means).
    ("6 phases", "A Mun R Boh", "A MUN - BOH"),
    ("6 phases", "A Mun retreats to Bohemia", "A MUN - BOH"),
    ("6 phases", "A Mun - Boh", "A MUN - BOH"),
    ("6 phases", "Disband A Mun", "A MUN D"),
    ("6 phases", "A Mun D", "A MUN D"),
    ("6 phases", "A Mun disbands", "A MUN D"),
    ("6 phases", "* A Mun", "A MUN D"),
    ("6 phases", "D A Mun", "A MUN D"),
    ("6 phases", "D. A Mun", "A MUN D"),
    ("6 phases", "Build A Par", "BUILD A PAR"),
    ("6 phases", "A Par B", "BUILD A PAR"),
    ("6 phases", "Army Paris build", "BUILD A PAR"),
    ("6 phases", "+ F Bre", "BUILD F BRE"),
    ("6 phases", "Build: A Par", "BUILD A PAR"),
    ("6 phases", "Builds F StP(nc)", "BUILD F STP/NC"),
    ("6 phases", "Remove F Tri", "F TRI D"),
    ("6 phases", "Removes F Tri", "F TRI D"),
    ("6 phases", "- F Tri", "F TRI D"),
    ("6 phases", "– F Tri", "F TRI D"),
    ("6 phases", "Waive", "WAIVE"),
    ("6 phases", "waived", "WAIVE"),
    ("6 phases", "W", "WAIVE"),
    ("6 phases", "Build waived", "WAIVE"),
    ("6 phases", "Builds waived", "WAIVE"),
    ("6 phases", "waive build", "WAIVE"),
    ("6 phases", "Russia: W", "russia: WAIVE"),
    ("6 phases", "Russia waives", "russia: WAIVE"),
    ("6 phases", "waive Russia", "russia: WAIVE"),
    ("6 phases", "Russia: Build waived", "russia: WAIVE"),
];

#[test]
fn every_style_reads_as_its_order() {
    let map = Map::standard();
    let mut bad = Vec::new();
    for &(family, text, want) in STYLES {
        for options in [LENIENT, STRICT] {
            let p = parse_orders_with(&map, text, options);
            let got = shown(&map, &p);
            if got != [want] || !p.diagnostics.is_empty() {
                bad.push(format!(
                    "{family}: {text:?} (strict {}) gave {got:?}, {:?}; want {want}",
                    options.strict,
                    p.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>()
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_style_table_counts_each_family() {
    let count = |f: &str| STYLES.iter().filter(|s| s.0.starts_with(f)).count();
    for f in ["1", "2", "3", "4", "5", "6"] {
        assert!(count(f) >= 14, "family {f}: {} styles", count(f));
    }
    let texts: std::collections::BTreeSet<&str> = STYLES.iter().map(|s| s.1).collect();
    assert_eq!(texts.len(), STYLES.len(), "a style is listed twice");
}

#[test]
fn labels_results_and_headers_are_not_orders() {
    let map = Map::standard();
    let text = "\
== Spring 1901 Movement ==
S1901M
Orders for England:
1. F Lon - NTH
2. F Edi - NWG (bounce)
3. A Lvp - Yor

France (Fred):
Army Paris -> Burgundy.  (*bounce*)

Retreats
Fall 1901 (retreats)
Winter 1901:
Germany's orders
A Mun H
Austria: (no orders)
Italy: none
1901
";
    let p = parse_orders(&map, text);
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    assert_eq!(
        shown(&map, &p),
        [
            "england: F LON - NTH",
            "england: F EDI - NWG",
            "england: A LVP - YOR",
            "france: A PAR - BUR",
            "germany: A MUN H"
        ]
    );
}

#[test]
fn one_prefix_holds_for_each_whole_order_of_its_line() {
    let map = Map::standard();
    let p = parse_orders(&map, "TUR: Con-Bul, Smy-Arm; F Ank - Bla\nA Vie H\n");
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    assert_eq!(
        shown(&map, &p),
        [
            "turkey: CON - BUL",
            "turkey: SMY - ARM",
            "turkey: F ANK - BLA",
            "A VIE H"
        ]
    );
}

fn rendered(text: &str, options: ParseOptions) -> String {
    let map = Map::standard();
    let p = parse_orders_with(&map, text, options);
    render_diagnostics(&p.diagnostics, text, "orders.txt")
}

#[test]
fn a_misspelling_with_one_close_reading_is_read_with_a_warning() {
    let map = Map::standard();
    let text = "A Par - Burgandi\nF Lon suport F Edi\nEnglnd: F Edi - NWG\nA Mar - Marsielles\nA Par - Belguim\nF Lon - Nroth Sea\nBiuld A Par\n";
    let p = parse_orders_with(&map, text, LENIENT);
    assert_eq!(
        shown(&map, &p),
        [
            "A PAR - BUR",
            "F LON S F EDI",
            "england: F EDI - NWG",
            "A MAR - MAR",
            "A PAR - BEL",
            "F LON - NTH",
            "BUILD A PAR"
        ]
    );
    assert!(p
        .diagnostics
        .iter()
        .all(|d| d.severity == Severity::Warning));
    assert_eq!(p.diagnostics.len(), 7);
    insta::assert_snapshot!(render_diagnostics(&p.diagnostics[..3], text, "orders.txt"), @r"
    warning: read `Burgandi` as `Burgundy` (bur)
     --> orders.txt:1:9
      |
    1 | A Par - Burgandi
      |         ^^^^^^^^ no other name is close; write `bur` to be sure

    warning: read `suport` as `support`
     --> orders.txt:2:7
      |
    2 | F Lon suport F Edi
      |       ^^^^^^ no other order word is close; write `support` to be sure

    warning: read `Englnd` as `England`
     --> orders.txt:3:1
      |
    3 | Englnd: F Edi - NWG
      | ^^^^^^ no other power is close; write `England` to be sure
    ");
}

#[test]
fn strict_mode_turns_every_correction_into_an_error() {
    let map = Map::standard();
    let text = "A Par - Burgandi\nF Lon suport F Edi\nEnglnd: F Edi - NWG\nFrnace\nBiuld A Par\nA Mar - Bur\n";
    let p = parse_orders_with(&map, text, STRICT);
    assert_eq!(shown(&map, &p), ["A MAR - BUR"]);
    assert_eq!(p.diagnostics.len(), 5);
    assert!(p.diagnostics.iter().all(|d| d.severity == Severity::Error));
    insta::assert_snapshot!(rendered("A Par - Burgandi\nEnglnd: F Edi - NWG\n", STRICT), @r"
    error: unknown province `Burgandi`
     --> orders.txt:1:9
      |
    1 | A Par - Burgandi
      |         ^^^^^^^^ did you mean `Burgundy` (bur)?

    error: unknown power `Englnd`
     --> orders.txt:2:1
      |
    2 | Englnd: F Edi - NWG
      | ^^^^^^ did you mean `England`?
    ");
    // `parse_orders` is strict; a coast that is garbage stays a warning (DATC 4.B.6).
    let p = parse_orders(&map, "A Par - Burgandi\nF Mao - Spa/xc\n");
    let sev: Vec<Severity> = p.diagnostics.iter().map(|d| d.severity).collect();
    assert_eq!(sev, [Severity::Error, Severity::Warning]);
}

#[test]
fn two_close_readings_stay_an_error_naming_them() {
    insta::assert_snapshot!(rendered("A Par - Pars\nF Edi - Norw\nA Vie Hodl\n", LENIENT), @r"
    error: unknown province `Pars`: it is close to `Marseilles` (mar) or `Paris` (par)
     --> orders.txt:1:9
      |
    1 | A Par - Pars
      |         ^^^^ write the name in full, or the province's id

    error: ambiguous name `Norw`: it could be `Norwegian Sea` (nwg) or `Norway` (nwy)
     --> orders.txt:2:9
      |
    2 | F Edi - Norw
      |         ^^^^ write more of the name, or the province's id

    error: expected an order after the unit, found `Hodl`
     --> orders.txt:3:7
      |
    3 | A Vie Hodl
      |       ^^^^ did you mean `hold`?
    ");
    // A name written short that is also one letter from another name.
    insta::assert_snapshot!(rendered("A Por - Sain\n", LENIENT), @r"
    error: ambiguous name `Sain`: it could be `St Petersburg` (stp), written short, or `Spain` (spa), misspelt
     --> orders.txt:1:9
      |
    1 | A Por - Sain
      |         ^^^^ write the name in full, or the province's id
    ");
}

#[test]
fn three_letters_are_never_corrected() {
    // `Ber` and `Bre` are both names: a three-letter word is never guessed.
    let map = Map::standard();
    for text in ["A Mun - Brr", "A Mun - Bre", "A Mun S A Bxr"] {
        let p = parse_orders_with(&map, text, LENIENT);
        assert!(
            p.diagnostics.iter().all(|d| d.severity == Severity::Error) || p.diagnostics.is_empty(),
            "{text}: {:?}",
            p.diagnostics
        );
        assert!(p.diagnostics.iter().all(|d| !d.message.starts_with("read")));
    }
}

#[test]
fn a_one_letter_power_is_told_from_a_unit_type_or_is_an_error() {
    let map = Map::standard();
    let one = |text: &str| {
        let p = parse_orders(&map, text);
        (
            shown(&map, &p),
            p.diagnostics
                .iter()
                .map(|d| d.message.clone())
                .collect::<Vec<_>>(),
        )
    };
    // `A` and `F` before a place are unit types; before a unit type, powers.
    assert_eq!(one("A Vie - Tri").0, ["A VIE - TRI"]);
    assert_eq!(one("F Bre - Mao").0, ["F BRE - MAO"]);
    assert_eq!(one("A. Vie - Tri").0, ["A VIE - TRI"]);
    assert_eq!(one("F. Bre - Mao").0, ["F BRE - MAO"]);
    assert_eq!(one("A F Tri - Adr").0, ["austria: F TRI - ADR"]);
    // `a)` alone: a list letter, or Austria? It cannot be told.
    let (orders, diags) = one("a) F Lon - NTH");
    assert!(orders.is_empty());
    assert_eq!(diags, ["`a)` may be a list letter or Austria's initial"]);
    // A lettered list says: `a)` is a letter.
    let (orders, diags) = one("a) F Lon - NTH\nb) F Edi - NWG\n");
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(orders, ["F LON - NTH", "F EDI - NWG"]);
    // Two powers' initials as markers: `a)` is Austria.
    let (orders, diags) = one("a) A Vie - Tri\ne) F Lon - NTH\n");
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(orders, ["austria: A VIE - TRI", "england: F LON - NTH"]);
    // Under Austria's header, `a)` means the same either way.
    assert_eq!(one("Austria:\na) A Vie - Tri").0, ["austria: A VIE - TRI"]);
    // `R` is Russia's initial and also `r`, retreat.
    let (orders, diags) = one("R A Mos - StP");
    assert!(orders.is_empty());
    assert_eq!(
        diags,
        ["`R` may be Russia or the order word `R`: the order reads both ways"]
    );
    assert_eq!(one("Russia:\nR A Mos - StP").0, ["russia: A MOS - STP"]);
    // A text that writes bare initials before units (`E F Lon`) means Russia by `R`.
    assert_eq!(
        one("E F Lon - NTH\nR A Mos - StP\n").0,
        ["england: F LON - NTH", "russia: A MOS - STP"]
    );
    // `i.` alone: a roman one, or Italy? A roman list says.
    assert_eq!(
        one("i. A Ven H").1,
        ["`i.` may be a list letter or Italy's initial"]
    );
    assert_eq!(one("i. A Ven H\nii. A Rom H\n").0, ["A VEN H", "A ROM H"]);
    assert_eq!(one("I. A Ven H").0, ["italy: A VEN H"]);
}

#[test]
fn a_power_word_that_is_a_place_is_read_both_ways() {
    let map = Map::standard();
    let one = |text: &str| {
        let p = parse_orders(&map, text);
        (
            shown(&map, &p),
            p.diagnostics
                .iter()
                .map(|d| d.message.clone())
                .collect::<Vec<_>>(),
        )
    };
    // `ENG` is England's code and the English Channel's id.
    assert_eq!(one("Eng - Bel").0, ["ENG - BEL"]);
    assert_eq!(one("F Eng - Bel").0, ["F ENG - BEL"]);
    assert_eq!(one("ENG FLT LON MTO NTH").0, ["england: F LON - NTH"]);
    assert_eq!(one("ENG:\nF Lon - NTH").0, ["england: F LON - NTH"]);
    assert_eq!(
        one("Eng Bel").1,
        ["`Eng` may be England or the province English Channel: the order reads both ways"]
    );
    // `Eng Lon - NTH` reads only as England's (a route goes on as it began).
    assert_eq!(one("Eng Lon - NTH").0, ["england: LON - NTH"]);
    assert_eq!(
        one("ENG").1,
        ["`ENG` may be England (a header) or the unit in English Channel holding"]
    );
    assert_eq!(one("English Channel - Brest").0, ["ENG - BRE"]);
}

#[test]
fn never_a_guess_into_a_route_or_a_coast() {
    let map = Map::standard();
    let p = parse_orders_with(
        &map,
        "F Mao - Spa west\nF Con - Bul eastern\nA Lon - - Nwy\nA Lon via Nth\nF Spa Western Med\nF Bul Eastern Med\n",
        LENIENT,
    );
    let lines: Vec<u32> = p.diagnostics.iter().map(|d| d.span.line).collect();
    assert_eq!(lines, [1, 2, 3, 4]);
    // Bare `western` is no coast of Spain, `Eastern` no bare coast word: both moves.
    assert_eq!(shown(&map, &p), ["F SPA - WES", "F BUL - EAS"]);
}

#[test]
fn the_stated_nationality_is_checked_against_the_board() {
    let map = Map::standard();
    let position = Position::initial(&map);
    let text = "Germany:\nA Mun S Russian A Ber - Kie\nA Mun S German A Ber - Kie\nF Kie C T A Ber - Den\nA Mun S A Ber\nA Mun S Austrian A Sil - Ber\n";
    let p = parse_orders(&map, text);
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let s = stated_nationality(&p.orders[0]).unwrap();
    assert_eq!(map.power(s.0).id, "russia");
    assert_eq!(s.1.line, 2);
    assert_eq!(
        &text.lines().nth(1).unwrap()[s.1.start as usize..s.1.end as usize],
        "Russian"
    );
    assert!(stated_nationality(&p.orders[3]).is_none());
    let w = nationality_warnings(&map, &position.units, &p.orders).unwrap();
    // German is right; Russian and T (Turkish) are wrong; no unit in Silesia: legality's.
    assert_eq!(w.len(), 2);
    assert!(w.iter().all(|d| d.severity == Severity::Warning));
    insta::assert_snapshot!(render_diagnostics(&w, text, "orders.txt"), @r"
    warning: the supported army in Berlin is German, not Russian
     --> orders.txt:2:9
      |
    2 | A Mun S Russian A Ber - Kie
      |         ^^^^^^^ the nationality is ignored and the order stands (DATC 4.C.6)

    warning: the convoyed army in Berlin is German, not Turkish
     --> orders.txt:4:9
      |
    4 | F Kie C T A Ber - Den
      |         ^ the nationality is ignored and the order stands (DATC 4.C.6)
    ");
}

#[test]
fn the_canonical_form_names_the_supported_unit_from_the_board() {
    let map = Map::standard();
    let position = Position::initial(&map);
    let p = parse_orders(
        &map,
        "Mun S Kie - Ber\nKie - Ber\nBer S Kie\nF Kie C Ber - Den\nMun S F Kie\n",
    );
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let (result, _) = advance(&map, Rules::default(), &position, &p.orders, None).unwrap();
    let canon: Vec<String> = (0..p.orders.len())
        .map(|k| arbiter::report::canonical(&map, &result, k))
        .collect();
    assert_eq!(
        canon,
        [
            "A MUN S F KIE - BER",
            "F KIE - BER",
            "A BER S F KIE",
            "F KIE C A BER - DEN",
            "A MUN S F KIE"
        ]
    );
}

#[test]
fn the_phase_decides_what_a_phase_style_means() {
    let map = Map::standard();
    // Adjustments: `- F Tri` removes, `W` and `Build waived` waive.
    let position = Position::from_yaml(
        &map,
        "phase: Winter 1901\nunits:\n  austria: [F tri, A vie, A bud, A gal]\n  russia: [A war]\n",
    )
    .unwrap();
    let p = parse_orders(
        &map,
        "Austria:\n- F Tri\nRussia:\nBuild waived\nW\n+ F Sev\n",
    );
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let (result, after) = advance(&map, Rules::default(), &position, &p.orders, None).unwrap();
    let outcomes: Vec<&Outcome> = result.orders().iter().map(|o| &o.outcome).collect();
    assert!(
        outcomes.iter().all(|o| matches!(o, Outcome::Succeeds)),
        "{outcomes:?}"
    );
    assert!(after.units.iter().all(|u| map.loc_id(u.loc) != "tri"));
    assert!(after.units.iter().any(|u| map.loc_id(u.loc) == "sev"));
    // Movement: `- F Tri` is a removal, which is no movement order: an error, and the
    // fleet holds.
    let p = parse_orders(&map, "- F Tri\n");
    let (result, _) = advance(
        &map,
        Rules::default(),
        &Position::initial(&map),
        &p.orders,
        None,
    )
    .unwrap();
    assert!(matches!(
        result.orders()[0].outcome,
        Outcome::Illegal(Illegal::WrongPhase)
    ));
    assert_eq!(
        result.diagnostics()[0].message,
        "not a movement-phase order"
    );
    // Retreats: every retreat style moves the dislodged unit.
    for text in [
        "A Mun R Boh",
        "A Mun retreats to Bohemia",
        "A Mun - Boh",
        "Retreat A Mun to Boh",
        "The army at Munich retreat to Bohemia.",
    ] {
        let position = Position::from_yaml(
            &map,
            "phase: Spring 1902 retreat\nunits:\n  france: [A mun]\ndislodged:\n  - {power: germany, unit: A mun, retreats: [boh, sil]}\n",
        )
        .unwrap();
        let p = parse_orders(&map, text);
        let (result, after) = advance(&map, Rules::default(), &position, &p.orders, None).unwrap();
        assert!(
            matches!(result.orders()[0].outcome, Outcome::Succeeds),
            "{text}"
        );
        assert!(
            after.units.iter().any(|u| map.loc_id(u.loc) == "boh"),
            "{text}"
        );
    }
}

#[test]
fn one_order_with_its_warnings() {
    let map = Map::standard();
    let (o, warnings) = parse_order_with(&map, "A Par - Burgandi", None, LENIENT).unwrap();
    assert_eq!(o.canonical(&map, None), "A PAR - BUR");
    assert_eq!(warnings.len(), 1);
    assert!(parse_order_with(&map, "A Par - Burgandi", None, STRICT).is_err());
    let e = parse_order_with(&map, "England", None, LENIENT).unwrap_err();
    assert_eq!(e.message, "`England` is not an order");
    assert!(matches!(
        parse_order_with(&map, "Build waived", None, STRICT)
            .unwrap()
            .0
            .kind,
        OrderKind::Waive
    ));
}

#[test]
fn the_complete_example_of_the_docs_reads() {
    let doc =
        std::fs::read_to_string(format!("{}/docs/ORDERS.md", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let at = doc.find("## A complete example").unwrap();
    let block = &doc[at..];
    let start = block.find("```text\n").unwrap() + "```text\n".len();
    let text = &block[start..start + block[start..].find("```").unwrap()];
    let map = Map::standard();
    let p = parse_orders(&map, text);
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    assert_eq!(
        shown(&map, &p),
        [
            "england: F LON - NTH",
            "england: F EDI - NWG",
            "england: A LVP - YOR",
            "france: A PAR - BUR",
            "france: A MAR S A PAR - BUR",
            "france: F BRE - MAO",
            "russia: F STP/SC - BOT",
            "russia: A WAR - GAL",
            "germany: A MUN - BUR",
            "austria: A VIE - TRI",
            "turkey: CON - BUL",
            "turkey: SMY - ARM",
            "italy: A VEN H"
        ]
    );
}
