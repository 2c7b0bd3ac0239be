//! Legal orders (`arbiter::legal`): hand-checked lists on the classic board, and on
//! random positions the list against the legality filter itself: every listed order is
//! adjudicated without `illegal` (soundness), and on the classic board every order the
//! filter accepts, out of every order that could be written for a unit, is listed
//! (completeness). A listed order may still be void (a support of a move not made); the
//! tests check legality, not success.

use std::collections::BTreeSet;

use arbiter::game::advance;
use arbiter::judge::{Outcome, Rules};
use arbiter::legal::{legal_orders, LegalOrders};
use arbiter::map::{Loc, Map, UnitKind};
use arbiter::orders::{parse_order, Order, OrderKind, Span, UnitRef};
use arbiter::report::canonical;
use arbiter::selfplay::{scatter, SplitMix64};
use arbiter::state::{Dislodged, Phase, Position, Unit};

fn texts(l: &LegalOrders, map: &Map, loc: &str) -> BTreeSet<String> {
    let loc = map.loc_by_id(loc).unwrap();
    let u = l.units.iter().find(|u| u.unit.loc == loc).unwrap();
    let set: BTreeSet<String> = u.orders.iter().map(|o| o.text.to_string()).collect();
    assert_eq!(set.len(), u.orders.len(), "no order twice");
    set
}

fn set(v: &[&str]) -> BTreeSet<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// Kiel's fleet in Spring 1901: bal, ber, den, hel, hol. Of those only Berlin holds a
/// unit; of the units that could enter them only Munich's army (into Berlin).
const KIEL: [&str; 8] = [
    "F KIE H",
    "F KIE - BAL",
    "F KIE - BER",
    "F KIE - DEN",
    "F KIE - HEL",
    "F KIE - HOL",
    "F KIE S A BER",
    "F KIE S A MUN - BER",
];

/// Spring 1901, worked out from the adjacency lists of `maps/standard.yaml`.
#[test]
fn opening_lists_checked_by_hand() {
    let map = Map::standard();
    let l = legal_orders(&map, &Position::initial(&map), Rules::default()).unwrap();
    assert_eq!(l.units.len(), 22);
    assert!(l.powers.is_empty());
    assert_eq!(texts(&l, &map, "kie"), set(&KIEL));
    // Paris: bre, bur, gas, pic. Brest's fleet holds; Marseilles may go to Burgundy or
    // Gascony, Munich to Burgundy, Brest's fleet to Gascony or Picardy.
    assert_eq!(
        texts(&l, &map, "par"),
        set(&[
            "A PAR H",
            "A PAR - BRE",
            "A PAR - BUR",
            "A PAR - GAS",
            "A PAR - PIC",
            "A PAR S F BRE",
            "A PAR S A MAR - BUR",
            "A PAR S A MUN - BUR",
            "A PAR S A MAR - GAS",
            "A PAR S F BRE - GAS",
            "A PAR S F BRE - PIC",
        ])
    );
    // The south coast touches bot, fin, lvn; Moscow and Warsaw may enter Livonia.
    assert_eq!(
        texts(&l, &map, "stp/sc"),
        set(&[
            "F STP/SC H",
            "F STP/SC - BOT",
            "F STP/SC - FIN",
            "F STP/SC - LVN",
            "F STP/SC S A MOS - LVN",
            "F STP/SC S A WAR - LVN",
        ])
    );
}

fn position(map: &Map, phase: &str, units: &[(&str, &[&str])]) -> Position {
    let owned: Vec<(String, Vec<String>)> = units
        .iter()
        .map(|(p, l)| (p.to_string(), l.iter().map(|s| s.to_string()).collect()))
        .collect();
    Position::from_units(
        map,
        Phase::parse(phase).unwrap(),
        owned.iter().map(|(p, l)| (p.as_str(), l.as_slice())),
    )
    .unwrap()
}

/// London's army and the North Sea fleet: the fleet touches bel, den, edi, hol, lon,
/// nwy and yor, so the army may be convoyed to each but London; York is adjacent, so
/// its convoyed move is `VIA CONVOY`, which only the 2000 and 2023 editions honour.
#[test]
fn convoys_along_the_north_sea() {
    let map = Map::standard();
    let pos = position(&map, "Spring 1901", &[("england", &["A lon", "F nth"])]);
    let l = legal_orders(&map, &pos, Rules::default()).unwrap();
    let army = [
        "A LON H",
        "A LON - BEL",
        "A LON - DEN",
        "A LON - EDI",
        "A LON - HOL",
        "A LON - NWY",
        "A LON - WAL",
        "A LON - YOR",
        "A LON S F NTH - YOR",
    ];
    let mut with_via = set(&army);
    with_via.insert("A LON - YOR VIA CONVOY".into());
    assert_eq!(texts(&l, &map, "lon"), with_via);
    let l1982 = legal_orders(&map, &pos, Rules::parse("1982").unwrap()).unwrap();
    assert_eq!(texts(&l1982, &map, "lon"), set(&army));
    // The fleet cannot support a convoy that needs itself (6.D.31), only the land move.
    let mut fleet = vec!["F NTH H", "F NTH S A LON", "F NTH S A LON - YOR"];
    let moves = [
        "bel", "den", "edi", "eng", "hel", "hol", "lon", "nwg", "nwy", "ska", "yor",
    ];
    let moves: Vec<String> = moves
        .iter()
        .map(|m| format!("F NTH - {}", m.to_uppercase()))
        .collect();
    let convoys: Vec<String> = ["BEL", "DEN", "EDI", "HOL", "NWY", "YOR"]
        .iter()
        .map(|d| format!("F NTH C A LON - {d}"))
        .collect();
    fleet.extend(moves.iter().map(String::as_str));
    fleet.extend(convoys.iter().map(String::as_str));
    assert_eq!(texts(&l, &map, "nth"), set(&fleet));
}

/// Winter: Russia owns its four homes and Sweden with two units, so it builds up to
/// three, in Moscow (an army) and St Petersburg (an army, or a fleet on either coast);
/// Germany owns its three homes with four units and removes one.
#[test]
fn adjustments_with_coasts() {
    let map = Map::standard();
    let mut pos = position(
        &map,
        "Winter 1901",
        &[
            ("russia", &["A war", "F sev"]),
            ("germany", &["A ber", "F kie", "A mun", "A hol"]),
        ],
    );
    let p = |s: &str| map.prov_by_id(s).unwrap();
    let (russia, germany) = (
        map.power_by_name("russia").unwrap(),
        map.power_by_name("germany").unwrap(),
    );
    // The other powers own nothing, so owe nothing.
    for o in pos.owners.iter_mut() {
        if o.is_some_and(|pw| pw != russia && pw != germany) {
            *o = None;
        }
    }
    pos.owners[p("swe").0 as usize] = Some(russia);
    let l = legal_orders(&map, &pos, Rules::default()).unwrap();
    assert!(l.units.is_empty());
    assert_eq!(l.powers.len(), 2);
    let by = |name: &str| {
        let pw = map.power_by_name(name).unwrap();
        let e = l.powers.iter().find(|e| e.power == pw).unwrap();
        (
            e.change,
            e.orders
                .iter()
                .map(|o| o.text.to_string())
                .collect::<BTreeSet<_>>(),
        )
    };
    assert_eq!(
        by("russia"),
        (
            3,
            set(&[
                "BUILD A MOS",
                "BUILD A STP",
                "BUILD F STP/NC",
                "BUILD F STP/SC",
                "WAIVE"
            ])
        )
    );
    assert_eq!(
        by("germany"),
        (-1, set(&["A BER D", "F KIE D", "A MUN D", "A HOL D"]))
    );
    // Each is accepted by the adjustment phase on its own.
    for e in &l.powers {
        for o in &e.orders {
            let (r, _) =
                advance(&map, Rules::default(), &pos, std::slice::from_ref(o), None).unwrap();
            assert!(
                !matches!(r.orders()[0].outcome, Outcome::Illegal(_)),
                "{}",
                o.text
            );
        }
    }
}

/// A colonial board: a power owed builds may also save one for a colonial build.
#[test]
fn colonial_boards_offer_a_save() {
    let map = Map::embedded("world1914").unwrap();
    let mut pos = Position::initial(&map);
    pos.phase = Phase::parse("Winter 1901").unwrap();
    let gone = pos.units.remove(0);
    let l = legal_orders(&map, &pos, Rules::default()).unwrap();
    assert_eq!(l.powers.len(), 1);
    let e = &l.powers[0];
    assert_eq!((e.power, e.change), (gone.power, 1));
    let texts: Vec<&str> = e.orders.iter().map(|o| o.text.as_str()).collect();
    assert!(
        texts.contains(&"WAIVE") && texts.contains(&"SAVE"),
        "{texts:?}"
    );
    let site = map.prov_of(gone.loc);
    let build = format!("BUILD {}", gone.short(&map));
    assert!(texts.contains(&build.as_str()), "{build} in {texts:?}");
    assert!(map.province(site).supply);
}

/// A dislodged fleet retreats to each coast left open, or disbands.
#[test]
fn retreats_and_disbands() {
    let map = Map::standard();
    let mut pos = position(&map, "Fall 1901 retreat", &[("france", &["A par"])]);
    let l = |s: &str| map.loc_by_id(s).unwrap();
    let italy = map.power_by_name("italy").unwrap();
    pos.dislodged = vec![
        Dislodged {
            unit: Unit {
                power: italy,
                kind: UnitKind::Fleet,
                loc: l("mao"),
            },
            by: map.prov_by_id("eng").unwrap(),
            retreats: vec![l("spa/nc"), l("spa/sc"), l("por")],
        },
        Dislodged {
            unit: Unit {
                power: italy,
                kind: UnitKind::Army,
                loc: l("bur"),
            },
            by: map.prov_by_id("mun").unwrap(),
            retreats: vec![],
        },
    ];
    let lo = legal_orders(&map, &pos, Rules::default()).unwrap();
    assert_eq!(
        texts(&lo, &map, "mao"),
        set(&["F MAO - SPA/NC", "F MAO - SPA/SC", "F MAO - POR", "F MAO D"])
    );
    assert_eq!(texts(&lo, &map, "bur"), set(&["A BUR D"]));
    for u in &lo.units {
        for o in &u.orders {
            let (r, _) =
                advance(&map, Rules::default(), &pos, std::slice::from_ref(o), None).unwrap();
            assert_eq!(r.orders()[0].outcome, Outcome::Succeeds, "{}", o.text);
        }
    }
}

/// Adjudicate the orders of each unit in rounds (one order per unit a round, so no
/// unit has two) and give each order's outcome with its result and index.
fn adjudicate_each(
    map: &Map,
    rules: Rules,
    pos: &Position,
    per_unit: &[Vec<Order>],
    mut seen: impl FnMut(&Order, &arbiter::game::PhaseResult, usize),
) {
    let rounds = per_unit.iter().map(Vec::len).max().unwrap_or(0);
    for r in 0..rounds {
        let orders: Vec<Order> = per_unit.iter().filter_map(|v| v.get(r).cloned()).collect();
        let (result, _) = advance(map, rules, pos, &orders, None).unwrap();
        assert_eq!(result.orders().len(), orders.len());
        for (k, o) in orders.iter().enumerate() {
            seen(o, &result, k);
        }
    }
}

/// Every listed order passes the legality filter, and reads back as itself.
fn check_sound(map: &Map, rules: Rules, pos: &Position) -> usize {
    let l = legal_orders(map, pos, rules).unwrap();
    let per_unit: Vec<Vec<Order>> = l.units.iter().map(|u| u.orders.clone()).collect();
    let mut n = 0;
    adjudicate_each(map, rules, pos, &per_unit, |o, r, k| {
        n += 1;
        assert!(
            !matches!(r.orders()[k].outcome, Outcome::Illegal(_)),
            "{} on {}: {:?}",
            o.text,
            map.name,
            r.orders()[k].outcome
        );
        let back = parse_order(map, &o.text, o.power).unwrap();
        assert_eq!((back.unit, back.kind), (o.unit, o.kind), "{}", o.text);
    });
    assert_eq!(n, l.count());
    n
}

/// Every order that could be written for each unit (every move, support and convoy
/// naming any place), through the legality filter: those accepted, written the list's
/// way (coast decided, `VIA CONVOY` only where it changes the move, a support naming
/// the province), are exactly the list.
fn check_complete(map: &Map, rules: Rules, pos: &Position) {
    let l = legal_orders(map, pos, rules).unwrap();
    let locs: Vec<Loc> = map.locs().collect();
    let me = |u: &Unit| UnitRef {
        kind: Some(u.kind),
        loc: u.loc,
    };
    let mk = |u: &Unit, kind| Order {
        power: Some(u.power),
        unit: Some(me(u)),
        kind,
        text: Default::default(),
        span: Span::default(),
        stated: None,
    };
    let per_unit: Vec<Vec<Order>> = pos
        .units
        .iter()
        .map(|u| {
            let mut v = vec![mk(u, OrderKind::Hold)];
            for &to in &locs {
                for via_convoy in [false, true] {
                    v.push(mk(u, OrderKind::Move { to, via_convoy }));
                }
            }
            for t in &pos.units {
                v.push(mk(
                    u,
                    OrderKind::Support {
                        target: me(t),
                        to: None,
                    },
                ));
                for &to in &locs {
                    v.push(mk(
                        u,
                        OrderKind::Support {
                            target: me(t),
                            to: Some(to),
                        },
                    ));
                    if t.kind == UnitKind::Army && !map.is_named_coast(to) {
                        v.push(mk(u, OrderKind::Convoy { army: me(t), to }));
                    }
                }
            }
            v
        })
        .collect();
    let honours_via = matches!(
        rules.convoy_intent,
        arbiter::judge::ConvoyIntent::ViaConvoyOrOwnFleet { .. }
    );
    let mut accepted: Vec<BTreeSet<String>> = vec![BTreeSet::new(); pos.units.len()];
    adjudicate_each(map, rules, pos, &per_unit, |o, r, k| {
        if matches!(r.orders()[k].outcome, Outcome::Illegal(_)) {
            return;
        }
        let Some(u) = r.orders()[k].unit else { return };
        let unit = pos.units[u];
        let here = map.prov_of(unit.loc);
        let mut n = o.clone();
        match &mut n.kind {
            OrderKind::Move { to, via_convoy } => {
                let dest = map.prov_of(*to);
                *to = r.orders()[k].to.unwrap();
                // `VIA CONVOY` changes an army's move to an adjacent coastal province
                // where the edition honours it and a route is possible (the 2023
                // filter finds it illegal otherwise); elsewhere it is the plain move.
                *via_convoy &= honours_via
                    && unit.kind == UnitKind::Army
                    && map.army_adjacent(here, dest)
                    && map.is_coastal(here)
                    && map.is_coastal(dest)
                    && {
                        let (r23, _) =
                            advance(map, Rules::default(), pos, std::slice::from_ref(o), None)
                                .unwrap();
                        !matches!(r23.orders()[0].outcome, Outcome::Illegal(_))
                    };
            }
            OrderKind::Support { to: Some(to), .. } => *to = map.prov_of(*to).into(),
            _ => {}
        }
        // The canonical printer of the report agrees on the text.
        if !matches!(n.kind, OrderKind::Move { .. } | OrderKind::Support { .. }) {
            assert_eq!(canonical(map, r, k), n.canonical(map, None));
        }
        accepted[u].insert(n.canonical(map, None));
    });
    for (u, got) in accepted.iter().enumerate() {
        let listed: BTreeSet<String> = l.units[u]
            .orders
            .iter()
            .map(|o| o.text.to_string())
            .collect();
        assert_eq!(
            listed.len(),
            l.units[u].orders.len(),
            "an order listed twice"
        );
        assert_eq!(
            &listed,
            got,
            "{} on {} ({} units): listed, then accepted by the filter",
            pos.units[u].short(map),
            map.name,
            pos.units.len()
        );
    }
}

#[test]
fn the_list_is_what_the_legality_filter_accepts_on_the_classic_board() {
    let map = Map::standard();
    check_complete(&map, Rules::default(), &Position::initial(&map));
    let mut rng = SplitMix64::new(13);
    for (i, n) in [12, 20, 30, 45].into_iter().enumerate() {
        let pos = scatter(&map, &mut rng, n);
        let rules = Rules::EDITIONS[i % Rules::EDITIONS.len()];
        check_complete(&map, rules, &pos);
    }
}

#[test]
fn every_listed_order_is_legal_on_every_board() {
    let mut rng = SplitMix64::new(1914);
    for name in ["standard", "classic1913", "world1914"] {
        let map = Map::embedded(name).unwrap();
        assert!(check_sound(&map, Rules::default(), &Position::initial(&map)) > 0);
        for n in [10, 40, 110] {
            let pos = scatter(&map, &mut rng, n);
            for rules in Rules::EDITIONS {
                check_sound(&map, rules, &pos);
            }
        }
    }
}

/// Convoys come up on random boards full of fleets: the completeness test above sees
/// them (not only holds and moves).
#[test]
fn random_positions_have_convoys_and_convoyed_supports() {
    let map = Map::standard();
    let mut rng = SplitMix64::new(13);
    let mut convoys = 0;
    let mut convoyed_support = 0;
    for n in [12, 20, 30, 45] {
        let pos = scatter(&map, &mut rng, n);
        for u in legal_orders(&map, &pos, Rules::default()).unwrap().units {
            for o in u.orders {
                match o.kind {
                    OrderKind::Convoy { .. } => convoys += 1,
                    OrderKind::Support {
                        target,
                        to: Some(to),
                    } if !map.can_reach(UnitKind::Army, target.loc, map.prov_of(to))
                        && target.kind == Some(UnitKind::Army) =>
                    {
                        convoyed_support += 1
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(convoys > 10, "{convoys}");
    assert!(convoyed_support > 0, "{convoyed_support}");
}

fn batch(line: &str) -> serde_json::Value {
    let maps = arbiter::batch::Maps::new(Map::standard());
    let text = arbiter::batch::answer_line(
        line,
        Rules::default(),
        arbiter::orders::ParseOptions::default(),
        &maps,
    )
    .unwrap();
    serde_json::from_str(&text).unwrap()
}

/// A batch line with `"legal": true` (and no orders) answers the lists of its
/// position; without it there is no `legal` key.
#[test]
fn batch_lines_answer_legal_orders() {
    let a = batch(
        r#"{"id": 1, "legal": true, "units": {"germany": ["F kie", "A ber", "A mun"], "russia": ["F stp/sc", "A mos"]}}"#,
    );
    assert_eq!(a["id"], 1);
    let legal = a["legal"].as_object().unwrap();
    let keys: Vec<&str> = legal.keys().map(String::as_str).collect();
    assert_eq!(keys, ["KIE", "BER", "MUN", "STP/SC", "MOS"]);
    let kie: BTreeSet<String> = legal["KIE"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    assert_eq!(kie, set(&KIEL));
    // Only Moscow's army may enter Livonia now (Warsaw is empty).
    assert_eq!(
        legal["STP/SC"],
        serde_json::json!([
            "F STP/SC H",
            "F STP/SC - BOT",
            "F STP/SC - FIN",
            "F STP/SC - LVN",
            "F STP/SC S A MOS - LVN"
        ])
    );
    assert!(a["orders"].as_array().unwrap().is_empty());
    let plain = batch(
        r#"{"id": 2, "units": {"germany": ["F kie"]}, "orders": {"germany": ["F kie - hol"]}}"#,
    );
    assert!(plain.get("legal").is_none());
    assert_eq!(plain["orders"][0]["outcome"], "succeeds");
    // Adjustments: per power, with what it owes.
    let w = batch(
        r#"{"id": 3, "legal": true, "phase": "Winter 1901", "units": {"russia": ["A war", "F sev"]}, "centers": {"russia": ["mos", "sev", "stp", "war", "swe"]}}"#,
    );
    assert_eq!(w["legal"]["russia"]["change"], 3);
    assert_eq!(
        w["legal"]["russia"]["orders"],
        serde_json::json!([
            "BUILD A MOS",
            "BUILD A STP",
            "BUILD F STP/NC",
            "BUILD F STP/SC",
            "WAIVE"
        ])
    );
}
