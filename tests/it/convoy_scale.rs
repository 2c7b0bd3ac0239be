//! Convoy legality on large, densely connected seas (issue 15, defect 11): a fleet in
//! every sea, every fleet ordered to convoy. Whether a fleet lies on a route that needs
//! it (DATC 4.E.1, 6.G.19) was once a search over every induced route, exponential in
//! the number of seas: 81 seas took 2 s and 100 seas over 100 s.

use std::time::{Duration, Instant};

use arbiter::game::advance;
use arbiter::judge::{Illegal, Outcome, Rules};
use arbiter::map::UnitKind;

use crate::common::convoy_board::{Board, Sea};

/// Adjudicate the board's phase, returning the result and how long `advance` took.
fn run(b: &Board) -> (arbiter::game::PhaseResult, Duration) {
    let (map, position, orders) = b.load();
    let t = Instant::now();
    let (r, _) = advance(&map, Rules::default(), &position, &orders, None).unwrap();
    (r, t.elapsed())
}

/// Every convoy order's outcome, by the sea's kind; and the armies that arrived.
fn check(b: &Board, r: &arbiter::game::PhaseResult) {
    assert_eq!(r.orders().len(), r.input.len());
    let mut legal = 0;
    for (k, o) in r.orders().iter().enumerate() {
        match b.order_sea.get(k) {
            Some(Sea::Trap) => assert!(
                matches!(o.outcome, Outcome::Illegal(Illegal::NotOnRoute)),
                "{}: {:?}",
                r.input[k].text,
                o.outcome
            ),
            Some(Sea::Row) => {
                assert!(
                    matches!(o.outcome, Outcome::Succeeds),
                    "{}: {:?}",
                    r.input[k].text,
                    o.outcome
                );
                legal += 1;
            }
            Some(Sea::Grid) => {
                assert!(
                    matches!(
                        o.outcome,
                        Outcome::Succeeds | Outcome::Illegal(Illegal::NotOnRoute)
                    ),
                    "{}: {:?}",
                    r.input[k].text,
                    o.outcome
                );
                legal += matches!(o.outcome, Outcome::Succeeds) as usize;
            }
            None => assert!(
                matches!(o.outcome, Outcome::Succeeds),
                "{}: {:?}",
                r.input[k].text,
                o.outcome
            ),
        }
    }
    // Most of the grid lies on some route that needs it.
    assert!(legal * 2 > b.rows * b.cols, "{legal} legal convoys");
    // Every army arrived: nothing opposes them.
    let armies = r
        .units_after
        .iter()
        .filter(|u| u.kind == UnitKind::Army)
        .count();
    assert_eq!(armies, b.armies);
}

#[test]
fn a_150_sea_board_with_every_fleet_convoying_adjudicates_quickly() {
    // 10 × 15 seas, each touching its 8 neighbours; traps beside the far shore that lie
    // on simple routes but on no route that needs them.
    let b = Board::grid(10, 15, 4, 6);
    assert_eq!(b.seas(), 150 + 6);
    let (r, took) = run(&b);
    check(&b, &r);
    eprintln!("150 seas + 6 traps, every fleet convoying: {took:?}");
    assert!(took < Duration::from_secs(5), "took {took:?}");
}

#[test]
fn boards_of_growing_size_stay_fast() {
    // From 36 to 196 seas: the time may grow, but polynomially.
    for n in [6usize, 9, 11, 14] {
        let b = Board::grid(n, n, 3, 3);
        let (r, took) = run(&b);
        check(&b, &r);
        eprintln!("{n}×{n} seas: {took:?}");
        assert!(took < Duration::from_secs(5), "{n}×{n}: {took:?}");
    }
}

/// `CONVOY_SCALE=ROWSxCOLS` measures one board (run with `--release --nocapture`).
#[test]
fn measure_from_the_environment() {
    let Ok(v) = std::env::var("CONVOY_SCALE") else {
        return;
    };
    let (r, c) = v.split_once('x').expect("ROWSxCOLS");
    let b = Board::grid(r.parse().unwrap(), c.parse().unwrap(), 3, 2);
    let (res, took) = run(&b);
    check(&b, &res);
    eprintln!("{v} seas: {took:?}");
}
