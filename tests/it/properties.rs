//! Properties of the adjudicator over generated positions and orders (issue 15), with
//! proptest: the seeds, sizes and permutations are proptest's, the positions and
//! orders come from the library's own generators (`selfplay::scatter`,
//! `legal::legal_orders`, `selfplay::play_game`), on the classic board and world1914,
//! under every edition. A failure is shrunk to its smallest seed and size and saved
//! under `proptest-regressions/`, so it reproduces.
//!
//! 1. every input order gets exactly one outcome, garbage and duplicates included;
//! 2. the result does not depend on the order in which orders, units or (in an
//!    adjustment phase, where written order counts, 4.D.4) powers are listed;
//! 3. after a movement phase no two units share a province;
//! 4. a retreat never goes to an occupied, standoff or forbidden province;
//! 5. units and centres are conserved through every kind of phase;
//! 6. parse, print canonical, parse again gives the same order.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

use arbiter::game::{advance, PhaseResult};
use arbiter::judge::{Failure, Illegal, Outcome, Rules};
use arbiter::legal::legal_orders;
use arbiter::map::{Loc, Map, Power, Prov, UnitKind};
use arbiter::orders::{parse_order_with, Order, OrderKind, ParseOptions, Span, UnitRef};
use arbiter::selfplay::{play_game, scatter, SplitMix64};
use arbiter::state::{PhaseKind, Position, Unit};

/// The classic board and world1914, loaded once.
fn maps() -> &'static [Map; 2] {
    static MAPS: OnceLock<[Map; 2]> = OnceLock::new();
    MAPS.get_or_init(|| {
        [
            Map::standard(),
            Map::embedded("world1914").expect("world1914 is embedded"),
        ]
    })
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 64,
        // Integration tests have no `lib.rs` beside them: one file for this one.
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/properties.txt",
        ))),
        ..ProptestConfig::default()
    }
}

/// A movement position: `n` units scattered by the seed (at most one per province).
fn position(map: &Map, seed: u64, n: usize) -> Position {
    scatter(map, &mut SplitMix64::new(seed), n)
}

/// One legal order per unit, picked by `rng`: mostly moves and supports (so that units
/// get dislodged and standoffs happen), sometimes a convoy or a hold.
fn legal_picks(map: &Map, position: &Position, rules: Rules, rng: &mut SplitMix64) -> Vec<Order> {
    let legal = legal_orders(map, position, rules).unwrap();
    let mut out = Vec::new();
    for u in &legal.units {
        let of = |f: fn(&OrderKind) -> bool| -> Vec<&Order> {
            u.orders.iter().filter(|o| f(&o.kind)).collect()
        };
        let r = rng.below(100);
        let pool = if r < 55 {
            of(|k| matches!(k, OrderKind::Move { .. }))
        } else if r < 85 {
            of(|k| matches!(k, OrderKind::Support { to: Some(_), .. }))
        } else if r < 95 {
            of(|k| matches!(k, OrderKind::Convoy { .. }))
        } else {
            Vec::new()
        };
        if let Some(o) = rng
            .pick(&pool)
            .map(|o| (*o).clone())
            .or(u.orders.first().cloned())
        {
            out.push(o);
        }
    }
    out
}

/// An order that is probably illegal, void or for nobody: random kinds, places and
/// powers; a unit type sometimes wrong or missing.
fn garbage(map: &Map, rng: &mut SplitMix64) -> Order {
    let locs: Vec<Loc> = map.locs().collect();
    let loc = |rng: &mut SplitMix64| *rng.pick(&locs).unwrap();
    let unit = |rng: &mut SplitMix64| UnitRef {
        kind: match rng.below(3) {
            0 => None,
            1 => Some(UnitKind::Army),
            _ => Some(UnitKind::Fleet),
        },
        loc: loc(rng),
    };
    let kind = match rng.below(9) {
        0 => OrderKind::Hold,
        1..=3 => OrderKind::Move {
            to: loc(rng),
            via_convoy: rng.chance(20),
        },
        4 => OrderKind::Support {
            target: unit(rng),
            to: None,
        },
        5 => OrderKind::Support {
            target: unit(rng),
            to: Some(loc(rng)),
        },
        6 => OrderKind::Convoy {
            army: unit(rng),
            to: loc(rng),
        },
        7 => OrderKind::Disband,
        _ => OrderKind::Build,
    };
    let power = if rng.chance(70) {
        Some(Power(rng.below(map.powers.len()) as u8))
    } else {
        None
    };
    let mut o = Order {
        power,
        unit: Some(unit(rng)),
        kind,
        text: Default::default(),
        span: Span::default(),
        stated: None,
    };
    if rng.chance(3) {
        o.kind = if rng.chance(50) {
            OrderKind::Waive
        } else {
            OrderKind::Save
        };
        o.unit = None;
    }
    o.text = o.canonical(map, None).into();
    o
}

/// The legal picks with garbage mixed in (about one order in four), shuffled by `rng`.
fn with_garbage(map: &Map, mut orders: Vec<Order>, rng: &mut SplitMix64) -> Vec<Order> {
    let extra = orders.len() / 3 + 1;
    for _ in 0..extra {
        orders.push(garbage(map, rng));
    }
    rng.shuffle(&mut orders);
    orders
}

/// A permutation of `0..n` from a shuffled `0..64` (the members below `n`, in their
/// shuffled order; past 64, the rest in order).
fn perm_of(shuffled: &[usize], n: usize) -> Vec<usize> {
    let mut p: Vec<usize> = shuffled.iter().copied().filter(|&i| i < n).collect();
    p.extend(shuffled.len()..n);
    p
}

fn adjudicate(map: &Map, rules: Rules, p: &Position, orders: &[Order]) -> (PhaseResult, Position) {
    advance(map, rules, p, orders, None).expect("ids of this map")
}

fn adjudicate_until(
    map: &Map,
    rules: Rules,
    p: &Position,
    orders: &[Order],
    last_year: i32,
) -> (PhaseResult, Position) {
    advance(map, rules, p, orders, Some(last_year)).expect("ids of this map")
}

fn prov_name(map: &Map, p: Prov) -> String {
    map.province(p).id.clone()
}

fn unit_name(map: &Map, u: &Unit) -> String {
    format!("{} {}", map.power(u.power).id, u.short(map))
}

/// An outcome with every unit index replaced by the unit's name, so that results of
/// inputs listed in another order compare (lists of units in the engine's order).
fn outcome_text(map: &Map, r: &PhaseResult, o: &Outcome) -> String {
    let name = |i: usize| unit_name(map, &r.units()[i]);
    match o {
        Outcome::Fails(Failure::Bounced { attack, against }) => {
            // In the engine's order: it must not depend on the input's.
            let v: Vec<String> = against
                .iter()
                .map(|a| format!("{} {:?} {}", name(a.unit), a.kind, a.strength))
                .collect();
            format!("bounced {attack} by {v:?}")
        }
        Outcome::Fails(Failure::Cut { by }) => format!("cut by {}", name(*by)),
        Outcome::Fails(Failure::Dislodged { by }) => format!("dislodged by {}", name(*by)),
        Outcome::Fails(Failure::RetreatClash { with }) => {
            let v: Vec<String> = with.iter().map(|&i| name(i)).collect();
            format!("clash with {v:?}")
        }
        other => format!("{other:?}"),
    }
}

/// Everything a phase decided, with no unit index: per input order (in input order)
/// its outcome and destination, then the sorted lists.
#[derive(Debug, PartialEq, Eq)]
struct Summary {
    orders: Vec<String>,
    rest: Vec<String>,
}

fn summary(map: &Map, r: &PhaseResult) -> Summary {
    let orders = r
        .orders()
        .iter()
        .map(|o| {
            format!(
                "{} {} {:?} -> {:?}",
                o.unit
                    .map(|i| unit_name(map, &r.units()[i]))
                    .unwrap_or_default(),
                outcome_text(map, r, &o.outcome),
                o.power,
                o.to
            )
        })
        .collect();
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    let mut rest = Vec::new();
    rest.extend(sorted(
        r.units_after.iter().map(|u| unit_name(map, u)).collect(),
    ));
    rest.extend(sorted(
        r.dislodged()
            .iter()
            .map(|d| {
                let mut to: Vec<&Loc> = d.retreats.iter().collect();
                to.sort();
                format!(
                    "dislodged {} by {} {} {to:?}",
                    unit_name(map, &d.unit),
                    prov_name(map, d.by),
                    crate::common::attack_by_convoy(map, r.movement().unwrap(), d)
                )
            })
            .collect(),
    ));
    rest.extend(sorted(
        r.movement()
            .map_or(&[][..], |m| &m.contested)
            .iter()
            .map(|&p| format!("contested {}", prov_name(map, p)))
            .collect(),
    ));
    rest.extend(sorted(
        r.destroyed()
            .iter()
            .map(|&i| format!("destroyed {}", unit_name(map, &r.units()[i])))
            .collect(),
    ));
    rest.extend(sorted(
        r.adjustment()
            .map_or(&[][..], |a| &a.built)
            .iter()
            .map(|u| format!("built {}", unit_name(map, u)))
            .collect(),
    ));
    rest.extend(sorted(
        r.adjustment()
            .map_or(&[][..], |a| &a.removed)
            .iter()
            .map(|&i| format!("removed {}", unit_name(map, &r.units()[i])))
            .collect(),
    ));
    rest.extend(sorted(
        r.adjustment()
            .map_or(&[][..], |a| &a.civil_disorder)
            .iter()
            .map(|&(i, d)| format!("civil disorder {} {d:?}", unit_name(map, &r.units()[i])))
            .collect(),
    ));
    rest.extend(sorted(
        r.adjustment()
            .map_or(&[][..], |a| &a.waived)
            .iter()
            .map(|w| format!("waived {w:?}"))
            .collect(),
    ));
    rest.extend(sorted(
        r.adjustment()
            .map_or(&[][..], |a| &a.saved)
            .iter()
            .map(|w| format!("saved {w:?}"))
            .collect(),
    ));
    rest.push(format!(
        "owners {:?}, next {:?}, winner {:?}, skipped {:?}",
        r.owners_after, r.next, r.winner, r.skipped
    ));
    Summary { orders, rest }
}

/// The input orders of a phase bound to unit `u`, not illegal.
fn live_orders(r: &PhaseResult, u: usize) -> Vec<usize> {
    (0..r.orders().len())
        .filter(|&k| {
            r.orders()[k].unit == Some(u) && !matches!(r.orders()[k].outcome, Outcome::Illegal(_))
        })
        .collect()
}

/// Property 1 on one phase: one outcome per input order; an order is bound only to a
/// unit in the province it names; a unit's orders that are not illegal are identical
/// and share one outcome. In a movement or retreat phase an order from the legal lists
/// is never illegal, unless a different order for the same unit is legal too (4.D.3);
/// in an adjustment phase written order decides which builds count (4.D.4), so there
/// it may be.
fn one_outcome_each(
    map: &Map,
    p: &Position,
    r: &PhaseResult,
    legal: &BTreeSet<String>,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(r.orders().len(), r.input.len());
    for (k, o) in r.orders().iter().enumerate() {
        let Some(u) = o.unit else { continue };
        prop_assert!(
            u < r.units().len(),
            "unit index {} of {}",
            u,
            r.units().len()
        );
        if let Some(me) = r.input[k].unit {
            if r.phase.kind != PhaseKind::Adjustment {
                prop_assert_eq!(map.prov_of(me.loc), map.prov_of(r.units()[u].loc));
            }
        }
    }
    for u in 0..r.units().len() {
        let live = live_orders(r, u);
        for &k in &live {
            prop_assert_eq!(&r.orders()[k].outcome, &r.orders()[live[0]].outcome);
        }
    }
    if r.phase.kind == PhaseKind::Adjustment {
        return Ok(());
    }
    for (k, o) in r.orders().iter().enumerate() {
        if !legal.contains(&key(&r.input[k])) {
            continue;
        }
        if let Outcome::Illegal(why) = &o.outcome {
            prop_assert_eq!(why, &Illegal::DuplicateOrder, "`{}`", r.input[k].text);
            // Another order for the unit, legal on its own, and a different one.
            let u = o.unit.unwrap();
            let rival = (0..r.input.len()).find(|&j| {
                j != k && r.orders()[j].unit == Some(u) && r.input[j].kind != r.input[k].kind && {
                    let alone = adjudicate(map, r.rules, p, std::slice::from_ref(&r.input[j])).0;
                    !matches!(alone.orders()[0].outcome, Outcome::Illegal(_))
                }
            });
            prop_assert!(
                rival.is_some(),
                "`{}` illegal as a duplicate of nothing",
                r.input[k].text
            );
        }
    }
    Ok(())
}

/// Every legal order of `p`, by [`key`].
fn legal_texts(map: &Map, p: &Position, rules: Rules) -> BTreeSet<String> {
    let l = legal_orders(map, p, rules).unwrap();
    l.units
        .iter()
        .flat_map(|u| u.orders.iter())
        .chain(l.powers.iter().flat_map(|p| p.orders.iter()))
        .map(key)
        .collect()
}

/// An order as the legal lists know it: its power and canonical text.
fn key(o: &Order) -> String {
    format!("{:?} {}", o.power, o.text)
}

/// Property 3 and 4 on a movement phase: no two units share a province; every listed
/// retreat is next to the unit, where it may stand, not occupied, not a standoff, not
/// the attacker's province unless the attack came by convoy (4.A.5).
fn movement_sound(map: &Map, r: &PhaseResult) -> Result<(), TestCaseError> {
    let mut seen = BTreeSet::new();
    for u in &r.units_after {
        prop_assert!(
            seen.insert(map.prov_of(u.loc)),
            "two units in {}",
            prov_name(map, map.prov_of(u.loc))
        );
    }
    let contested: BTreeSet<Prov> = r.movement().unwrap().contested.iter().copied().collect();
    for d in r.dislodged() {
        let u = &d.unit;
        prop_assert!(
            !r.units_after.contains(u),
            "a dislodged unit stayed on the board"
        );
        for &l in &d.retreats {
            let p = map.prov_of(l);
            let what = format!("{} may retreat to {}", u.short(map), map.loc_upper(l));
            prop_assert!(!seen.contains(&p), "{}, which is occupied", what);
            prop_assert!(!contested.contains(&p), "{}, a standoff", what);
            prop_assert!(
                p != d.by || crate::common::attack_by_convoy(map, r.movement().unwrap(), d),
                "{}, the attacker's province",
                what
            );
            prop_assert!(
                map.placement_problem(u.kind, l).is_none(),
                "{}, where it cannot stand",
                what
            );
            let next_to = match u.kind {
                UnitKind::Army => map.army_adjacent(map.prov_of(u.loc), p),
                UnitKind::Fleet => map.fleet_adjacent(u.loc, l),
            };
            prop_assert!(next_to, "{}, which is not next to it", what);
        }
    }
    Ok(())
}

/// Retreat orders: a legal pick per dislodged unit (a retreat mostly), plus retreats to
/// every forbidden place next to a unit (the attacker's province, standoffs, occupied
/// provinces) and some garbage.
fn retreat_orders(
    map: &Map,
    moved: &PhaseResult,
    p: &Position,
    rules: Rules,
    rng: &mut SplitMix64,
) -> (Vec<Order>, BTreeSet<String>) {
    let legal = legal_orders(map, p, rules).unwrap();
    let mut orders = Vec::new();
    let mut forbidden = BTreeSet::new();
    for u in &legal.units {
        let retreats = &u.orders[..u.orders.len() - 1];
        let pick = if !retreats.is_empty() && rng.chance(85) {
            rng.pick(retreats).unwrap().clone()
        } else {
            u.orders.last().unwrap().clone()
        };
        if rng.chance(90) {
            orders.push(pick);
        }
    }
    for d in &p.dislodged {
        let mut bad: Vec<Prov> = Vec::new();
        let open: BTreeSet<Prov> = d.retreats.iter().map(|&l| map.prov_of(l)).collect();
        let dd = moved.dislodged().iter().find(|x| x.unit == d.unit).unwrap();
        if !crate::common::attack_by_convoy(map, moved.movement().unwrap(), dd) {
            bad.push(d.by);
        }
        bad.extend(moved.movement().unwrap().contested.iter().copied());
        bad.extend(moved.units_after.iter().map(|u| map.prov_of(u.loc)));
        for b in bad {
            let next_to = map.can_reach(d.unit.kind, d.unit.loc, b);
            if !next_to || open.contains(&b) || !rng.chance(50) {
                continue;
            }
            let o = {
                let mut o = Order {
                    power: Some(d.unit.power),
                    unit: Some(UnitRef {
                        kind: Some(d.unit.kind),
                        loc: d.unit.loc,
                    }),
                    kind: OrderKind::Move {
                        to: b.into(),
                        via_convoy: false,
                    },
                    text: Default::default(),
                    span: Span::default(),
                    stated: None,
                };
                o.text = o.canonical(map, None).into();
                o
            };
            forbidden.insert(o.text.to_string());
            orders.push(o);
        }
    }
    if rng.chance(50) {
        orders.push(garbage(map, rng));
    }
    rng.shuffle(&mut orders);
    (orders, forbidden)
}

/// Property 4 and 5 on a retreat phase: a retreat to a forbidden place is illegal;
/// each successful retreat went to one of the unit's options, to a province no other
/// unit holds after the phase; kept + destroyed + disbanded = dislodged.
fn retreat_sound(
    map: &Map,
    before: &Position,
    r: &PhaseResult,
    next: &Position,
    forbidden: &BTreeSet<String>,
) -> Result<(), TestCaseError> {
    for (k, o) in r.orders().iter().enumerate() {
        let text = &r.input[k].text;
        if forbidden.contains(text.as_str()) {
            prop_assert!(
                matches!(o.outcome, Outcome::Illegal(_)),
                "the forbidden retreat `{}` was {:?}",
                text,
                o.outcome
            );
        }
        let Some(i) = o.unit else { continue };
        if !o.outcome.succeeded() {
            continue;
        }
        match r.input[k].kind {
            OrderKind::Move { .. } => {
                let to = o.to.expect("a successful retreat has a destination");
                let p = map.prov_of(to);
                prop_assert!(
                    before.dislodged[i].retreats.contains(&to),
                    "`{}` went off its options",
                    text
                );
                let here = next
                    .units
                    .iter()
                    .filter(|u| map.prov_of(u.loc) == p)
                    .count();
                prop_assert_eq!(here, 1, "`{}`: {} units there after", text, here);
                prop_assert!(
                    before.units.iter().all(|u| map.prov_of(u.loc) != p),
                    "`{}` went to an occupied province",
                    text
                );
            }
            OrderKind::Disband => {}
            _ => prop_assert!(false, "`{}` succeeded in a retreat phase", text),
        }
    }
    let mut seen = BTreeSet::new();
    for u in &next.units {
        prop_assert!(
            seen.insert(map.prov_of(u.loc)),
            "two units in {}",
            prov_name(map, map.prov_of(u.loc))
        );
    }
    Ok(())
}

/// Property 5 on any phase: the units conserved by what the result reports; owned
/// centres never more than the centres; ownership changes only when a Fall turn ends.
fn conserved(
    map: &Map,
    before: &Position,
    r: &PhaseResult,
    next: &Position,
) -> Result<(), TestCaseError> {
    match before.phase.kind {
        PhaseKind::Movement => {
            prop_assert_eq!(
                r.units_after.len() + r.dislodged().len(),
                before.units.len()
            );
            let on_board = if next.phase.kind == PhaseKind::Retreat {
                next.units.len() + next.dislodged.len()
            } else {
                // The retreat phase was skipped: nobody was dislodged, or nobody
                // dislodged could retreat (those are destroyed).
                prop_assert_eq!(r.destroyed().len(), r.dislodged().len());
                next.units.len() + r.destroyed().len()
            };
            prop_assert_eq!(on_board, before.units.len());
        }
        PhaseKind::Retreat => {
            let destroyed: BTreeSet<usize> = r.destroyed().iter().copied().collect();
            let disbanded: BTreeSet<usize> = (0..before.dislodged.len())
                .filter(|&i| {
                    r.orders().iter().enumerate().any(|(k, o)| {
                        o.unit == Some(i)
                            && o.outcome.succeeded()
                            && r.input[k].kind == OrderKind::Disband
                    })
                })
                .collect();
            let kept = next.units.len() - before.units.len();
            prop_assert_eq!(
                kept + destroyed.union(&disbanded).count(),
                before.dislodged.len(),
                "kept {} destroyed {:?} disbanded {:?}",
                kept,
                destroyed,
                disbanded
            );
        }
        PhaseKind::Adjustment => {
            prop_assert_eq!(
                next.units.len()
                    + r.adjustment().unwrap().removed.len()
                    + r.adjustment().unwrap().civil_disorder.len(),
                before.units.len() + r.adjustment().unwrap().built.len()
            );
        }
    }
    let centres = map.provs().filter(|&p| map.province(p).supply).count();
    let owned = next.owners.iter().filter(|o| o.is_some()).count();
    prop_assert!(owned <= centres, "{} owned of {} centres", owned, centres);
    if r.owners_after.is_none() {
        prop_assert_eq!(
            &next.owners,
            &before.owners,
            "centres changed hands before the Fall ended"
        );
    } else {
        prop_assert!(
            before.phase.season == arbiter::map::Season::Fall,
            "owners changed in {}",
            before.phase
        );
    }
    Ok(())
}

/// The order as an AST, without its text, span and stated nationality.
fn ast(o: &Order) -> (Option<Power>, Option<UnitRef>, OrderKind) {
    (o.power, o.unit, o.kind)
}

/// Property 6: `o` printed canonically parses back to itself (`exact`: the order came
/// from the legal lists, so it is already canonical), and printing that parses to the
/// same order again.
fn round_trip(map: &Map, o: &Order, exact: bool) -> Result<(), TestCaseError> {
    let strict = ParseOptions { strict: true };
    let text = o.canonical(map, None);
    let first = parse_order_with(map, &text, o.power, strict);
    let (first, warnings) = match first {
        Ok(v) => v,
        Err(d) => {
            prop_assert!(!exact, "`{}` did not parse: {}", text, d.message);
            return Ok(());
        }
    };
    prop_assert!(warnings.is_empty() || !exact, "`{}`: {:?}", text, warnings);
    if exact {
        prop_assert_eq!(ast(&first), ast(o), "`{}`", text);
    }
    let again = first.canonical(map, None);
    let (second, _) = parse_order_with(map, &again, o.power, strict).map_err(|d| {
        TestCaseError::fail(format!(
            "`{again}` (from `{text}`) did not parse: {}",
            d.message
        ))
    })?;
    prop_assert_eq!(ast(&second), ast(&first), "`{}` then `{}`", text, again);
    prop_assert_eq!(second.canonical(map, None), again);
    Ok(())
}

/// A shuffled `0..64`, for permutations.
fn shuffled() -> impl Strategy<Value = Vec<usize>> {
    Just((0..64).collect::<Vec<usize>>()).prop_shuffle()
}

proptest! {
    #![proptest_config(config())]

    /// Properties 1, 3, 4, 5 through a movement phase and the retreat phase after it.
    #[test]
    fn movement_and_retreat_phases_are_sound(
        m in 0..2usize,
        e in 0..4usize,
        seed in any::<u64>(),
        n in 2..70usize,
    ) {
        let map = &maps()[m];
        let rules = Rules::EDITIONS[e];
        let p = position(map, seed, n);
        let mut rng = SplitMix64::new(seed ^ 0x5eed);
        let orders = with_garbage(map, legal_picks(map, &p, rules, &mut rng), &mut rng);
        let (r, next) = adjudicate(map, rules, &p, &orders);
        one_outcome_each(map, &p, &r, &legal_texts(map, &p, rules))?;
        movement_sound(map, &r)?;
        conserved(map, &p, &r, &next)?;
        if next.phase.kind == PhaseKind::Retreat {
            let (orders, forbidden) = retreat_orders(map, &r, &next, rules, &mut rng);
            let (r2, after) = adjudicate(map, rules, &next, &orders);
            one_outcome_each(map, &next, &r2, &legal_texts(map, &next, rules))?;
            retreat_sound(map, &next, &r2, &after, &forbidden)?;
            conserved(map, &next, &r2, &after)?;
        }
    }

    /// Property 2 on a movement phase (legal picks and garbage) and its retreat phase:
    /// the orders and the units listed in another order give the same result.
    #[test]
    fn results_do_not_depend_on_the_order_of_the_input(
        m in 0..2usize,
        e in 0..4usize,
        seed in any::<u64>(),
        n in 2..70usize,
        orders_perm in shuffled(),
        units_perm in shuffled(),
    ) {
        let map = &maps()[m];
        let rules = Rules::EDITIONS[e];
        let p = position(map, seed, n);
        let mut rng = SplitMix64::new(seed ^ 0x0bde);
        let orders = with_garbage(map, legal_picks(map, &p, rules, &mut rng), &mut rng);
        let (r, next) = adjudicate(map, rules, &p, &orders);
        let op = perm_of(&orders_perm, orders.len());
        let up = perm_of(&units_perm, p.units.len());
        let mut q = p.clone();
        q.units = up.iter().map(|&i| p.units[i]).collect();
        let orders2: Vec<Order> = op.iter().map(|&i| orders[i].clone()).collect();
        let (r2, next2) = adjudicate(map, rules, &q, &orders2);
        let (s, s2) = (summary(map, &r), summary(map, &r2));
        prop_assert_eq!(&s.rest, &s2.rest);
        for (j, &i) in op.iter().enumerate() {
            prop_assert_eq!(&s.orders[i], &s2.orders[j], "`{}`", orders[i].text);
        }
        if next.phase.kind == PhaseKind::Retreat {
            // The retreat phase, its dislodged units and orders listed in another order.
            let (orders, _) = retreat_orders(map, &r, &next, rules, &mut rng);
            let (r, _) = adjudicate(map, rules, &next, &orders);
            let op = perm_of(&orders_perm, orders.len());
            let dp = perm_of(&units_perm, next2.dislodged.len());
            let mut q = next2.clone();
            q.dislodged = dp.iter().map(|&i| next2.dislodged[i].clone()).collect();
            let orders2: Vec<Order> = op.iter().map(|&i| orders[i].clone()).collect();
            let (r2, _) = adjudicate(map, rules, &q, &orders2);
            let (s, s2) = (summary(map, &r), summary(map, &r2));
            prop_assert_eq!(&s.rest, &s2.rest);
            for (j, &i) in op.iter().enumerate() {
                prop_assert_eq!(&s.orders[i], &s2.orders[j], "`{}`", orders[i].text);
            }
        }
    }

    /// Properties 1, 2, 5 through whole game-years of self-play (every kind of phase,
    /// builds and removals included): each recorded phase replays with garbage added
    /// and with the powers (adjustments: whole powers, keeping each power's written
    /// order, 4.D.4) or the orders (other phases) listed in another order.
    #[test]
    fn game_years_conserve_units_and_centres(
        m in 0..2usize,
        e in 0..4usize,
        seed in any::<u64>(),
        powers_perm in shuffled(),
    ) {
        let map = &maps()[m];
        let rules = Rules::EDITIONS[e];
        let year = map.start_year + 1;
        let game = play_game(map, rules, seed, year, true)
            .map_err(|v| TestCaseError::fail(v.to_string()))?;
        let mut rng = SplitMix64::new(seed ^ 0xa11);
        for rec in &game.record {
            let p = &rec.position;
            let (r, next) = adjudicate_until(map, rules, p, &rec.orders, year);
            conserved(map, p, &r, &next)?;
            prop_assert_eq!(summary(map, &r), summary(map, &rec.result));
            // Listed by power in another order.
            let order_of = perm_of(&powers_perm, map.powers.len());
            let rank = |o: &Order| o.power.map(|pw| order_of.iter().position(|&i| i == pw.0 as usize));
            let mut idx: Vec<usize> = (0..rec.orders.len()).collect();
            if p.phase.kind == PhaseKind::Adjustment {
                idx.sort_by_key(|&i| rank(&rec.orders[i]));
            } else {
                idx = perm_of(&powers_perm, rec.orders.len());
            }
            let orders2: Vec<Order> = idx.iter().map(|&i| rec.orders[i].clone()).collect();
            let (r2, _) = adjudicate_until(map, rules, p, &orders2, year);
            let (s, s2) = (summary(map, &r), summary(map, &r2));
            prop_assert_eq!(&s.rest, &s2.rest, "{}", p.phase);
            for (j, &i) in idx.iter().enumerate() {
                prop_assert_eq!(&s.orders[i], &s2.orders[j], "{}: `{}`", p.phase, rec.orders[i].text);
            }
            // With garbage: still one outcome each.
            let mut noisy = rec.orders.clone();
            for _ in 0..3 {
                noisy.push(garbage(map, &mut rng));
            }
            rng.shuffle(&mut noisy);
            let (r3, next3) = adjudicate_until(map, rules, p, &noisy, year);
            one_outcome_each(map, p, &r3, &legal_texts(map, p, rules))?;
            conserved(map, p, &r3, &next3)?;
        }
    }

    /// Property 6 on every legal order of a scattered position (movement), of the
    /// retreat phase after it and of random garbage orders.
    #[test]
    fn canonical_text_parses_back_to_the_same_order(
        m in 0..2usize,
        e in 0..4usize,
        seed in any::<u64>(),
        n in 2..50usize,
    ) {
        let map = &maps()[m];
        let rules = Rules::EDITIONS[e];
        let p = position(map, seed, n);
        let legal = legal_orders(map, &p, rules).unwrap();
        let mut rng = SplitMix64::new(seed ^ 0x7e47);
        for o in legal.units.iter().flat_map(|u| u.orders.iter()) {
            prop_assert_eq!(&o.text, &o.canonical(map, None));
            round_trip(map, o, true)?;
        }
        let orders = legal_picks(map, &p, rules, &mut rng);
        let (_, next) = adjudicate(map, rules, &p, &orders);
        if next.phase.kind == PhaseKind::Retreat {
            for o in legal_orders(map, &next, rules).unwrap().units.iter().flat_map(|u| u.orders.iter()) {
                round_trip(map, o, true)?;
            }
        }
        for _ in 0..50 {
            round_trip(map, &garbage(map, &mut rng), false)?;
        }
    }
}

/// Property 6 on the adjustment phases of self-play (builds on both coasts, waives,
/// saves, removals), with the same generator as the games above.
#[test]
fn adjustment_orders_parse_back() {
    for (m, map) in maps().iter().enumerate() {
        for seed in 0..6u64 {
            let game = play_game(
                map,
                Rules::default(),
                seed * 7 + m as u64,
                map.start_year + 1,
                true,
            )
            .unwrap();
            for rec in game
                .record
                .iter()
                .filter(|r| r.position.phase.kind == PhaseKind::Adjustment)
            {
                let legal = legal_orders(map, &rec.position, Rules::default()).unwrap();
                for o in legal.powers.iter().flat_map(|p| p.orders.iter()) {
                    round_trip(map, o, true).unwrap();
                }
            }
        }
    }
}

fn unit(map: &Map, power: &str, kind: UnitKind, at: &str) -> Unit {
    Unit {
        power: map.power_ids().find(|&p| map.power(p).id == power).unwrap(),
        kind,
        loc: map.prov_by_id(at).unwrap().into(),
    }
}

fn parse(map: &Map, text: &str) -> Vec<Order> {
    let parsed = arbiter::orders::parse_orders(map, text);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    parsed.orders
}

/// Found by `results_do_not_depend_on_the_order_of_the_input`: a support cut by two
/// units named whichever cutter was listed first. The resolver's lists now run in
/// province order, so the cutter named is the same however the units are listed.
#[test]
fn the_cutter_named_does_not_depend_on_the_order_of_the_units() {
    let map = &maps()[0];
    let mut p = Position::initial(map);
    p.units = vec![
        unit(map, "turkey", UnitKind::Fleet, "tri"),
        unit(map, "turkey", UnitKind::Army, "alb"),
        unit(map, "england", UnitKind::Army, "vie"),
        unit(map, "england", UnitKind::Fleet, "adr"),
    ];
    let orders = parse(
        map,
        "F Tri S A Alb - Ven\nA Alb - Ven\nA Vie - Tri\nF Adr - Tri\n",
    );
    let cutter = |p: &Position| {
        let (r, _) = adjudicate(map, Rules::default(), p, &orders);
        let Outcome::Fails(Failure::Cut { by }) = r.orders()[0].outcome else {
            panic!("{:?}", r.orders()[0].outcome)
        };
        r.units()[by]
    };
    let first = cutter(&p);
    p.units.reverse();
    assert_eq!(cutter(&p), first);
}

/// Found by `movement_and_retreat_phases_are_sound`: in a retreat phase an illegal
/// retreat counted as a second order, so a legal disband beside it was illegal too and
/// the unit destroyed. Now 4.D.3 holds as in a movement phase: illegal orders do not
/// count and identical orders are one.
#[test]
fn an_illegal_retreat_beside_a_legal_order_is_ignored() {
    use arbiter::map::Season;
    use arbiter::state::{Dislodged, Phase};
    let map = &maps()[0];
    let mut p = Position::initial(map);
    p.phase = Phase {
        season: Season::Spring,
        year: 1901,
        kind: PhaseKind::Retreat,
    };
    p.units = vec![unit(map, "france", UnitKind::Army, "mun")];
    p.dislodged = vec![Dislodged {
        unit: unit(map, "germany", UnitKind::Army, "bur"),
        by: map.prov_by_id("mar").unwrap(),
        retreats: vec![map.prov_by_id("pic").unwrap().into()],
    }];
    let outcomes = |text: &str| {
        let (r, next) = adjudicate(map, Rules::default(), &p, &parse(map, text));
        let words: Vec<String> = r
            .orders()
            .iter()
            .map(|o| format!("{:?}", o.outcome))
            .collect();
        (words, next.units.len())
    };
    // To the attacker's province (illegal), and a disband.
    let (w, n) = outcomes("A Bur - Mar\nA Bur D\n");
    assert_eq!(w, ["Illegal(NotARetreat)", "Succeeds"]);
    assert_eq!(n, 1);
    // The same retreat twice is one order.
    let (w, n) = outcomes("A Bur - Pic\nA Bur - Pic\n");
    assert_eq!(w, ["Succeeds", "Succeeds"]);
    assert_eq!(n, 2);
    // Two different legal orders: both illegal, the unit is destroyed.
    let (w, n) = outcomes("A Bur - Pic\nA Bur D\n");
    assert_eq!(w, ["Illegal(DuplicateOrder)", "Illegal(DuplicateOrder)"]);
    assert_eq!(n, 1);
}
