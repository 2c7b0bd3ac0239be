//! Victory (docs/RULES.md, "Victory"): after a Fall turn, of the powers owning at least
//! the map's threshold, the one owning the most wins; a tie for the most means nobody
//! has won yet. On world1914 (threshold 37) England with 37 centres and Russia with 40
//! must give Russia, whatever the map's order of powers.

use arbiter::game::{advance, winner};
use arbiter::judge::Rules;
use arbiter::map::{Map, Power, Prov, Season};
use arbiter::state::{Phase, PhaseKind, Position};

/// Owners giving each `(power, n)` its first `n` free supply centres in map order.
fn owners(map: &Map, counts: &[(&str, usize)]) -> Vec<Option<Power>> {
    let mut owners = vec![None; map.province_count()];
    let mut free = (0..map.province_count()).filter(|&p| map.province(Prov(p as u16)).supply);
    for &(name, n) in counts {
        let pw = map.power_by_name(name).unwrap();
        for _ in 0..n {
            owners[free.next().expect("enough centres")] = Some(pw);
        }
    }
    owners
}

/// A Fall movement phase on `map` with no units and these owners: it ends the year with
/// the centres as they are.
fn fall_without_units(map: &Map, counts: &[(&str, usize)]) -> Position {
    let mut pos = Position::initial(map);
    pos.units.clear();
    pos.owners = owners(map, counts);
    pos.phase = Phase {
        season: Season::Fall,
        kind: PhaseKind::Movement,
        ..pos.phase
    };
    pos
}

fn name(map: &Map, p: Option<Power>) -> Option<String> {
    p.map(|p| map.power(p).id.clone())
}

#[test]
fn the_most_centres_past_the_line_wins() {
    let map = Map::embedded("world1914").unwrap();
    assert_eq!(map.victory, 37);
    // England comes before Russia in the map's order of powers: the old rule named it.
    let o = owners(&map, &[("england", 37), ("russia", 40)]);
    assert_eq!(name(&map, winner(&map, &o)).as_deref(), Some("russia"));
    let o = owners(&map, &[("russia", 37), ("england", 40)]);
    assert_eq!(name(&map, winner(&map, &o)).as_deref(), Some("england"));
}

#[test]
fn a_tie_for_the_most_is_no_winner_yet() {
    let map = Map::embedded("world1914").unwrap();
    let o = owners(&map, &[("england", 38), ("russia", 38)]);
    assert_eq!(winner(&map, &o), None);
    // Both past the line, one ahead by one: it wins.
    let o = owners(&map, &[("england", 37), ("russia", 38)]);
    assert_eq!(name(&map, winner(&map, &o)).as_deref(), Some("russia"));
    // One short of the line is no winner, however far ahead of the rest.
    let o = owners(&map, &[("england", 36), ("russia", 2)]);
    assert_eq!(winner(&map, &o), None);
    let o = owners(&map, &[("england", 37)]);
    assert_eq!(name(&map, winner(&map, &o)).as_deref(), Some("england"));
}

#[test]
fn a_fall_turn_names_the_winner_and_ends_the_game() {
    let map = Map::embedded("world1914").unwrap();
    let mut pos = fall_without_units(&map, &[("england", 37), ("russia", 40)]);
    let (r, _) = advance(&map, Rules::default(), &pos, &[], None).unwrap();
    assert_eq!(name(&map, r.winner).as_deref(), Some("russia"));
    assert_eq!(r.next, None, "the game ends with a winner");

    pos.owners = owners(&map, &[("england", 38), ("russia", 38)]);
    let (r, _) = advance(&map, Rules::default(), &pos, &[], None).unwrap();
    assert_eq!(r.winner, None);
    assert!(r.next.is_some(), "a tie for the most: the game goes on");
}

/// The sheet says why one of several powers past the line won, and why nobody won when
/// several share the most: a referee is not left to wonder why England, past the line,
/// did not win, or why the game goes on with two powers past it. Before, the sheet said
/// only `Russia owns 40 supply centres and wins the game.`, or just `Next: …`.
#[test]
fn the_sheet_names_every_power_past_the_line() {
    let map = Map::embedded("world1914").unwrap();
    let mut pos = fall_without_units(&map, &[("england", 37), ("russia", 40)]);
    let (r, _) = advance(&map, Rules::default(), &pos, &[], None).unwrap();
    let sheet = arbiter::report::text::sheet(&map, "w", &r).replace("\n    ", " ");
    assert!(
        sheet.contains(
            "Russia owns 40 supply centres and wins the game (the most of the powers past \
             the line of 37; also past it: England (37))."
        ),
        "{sheet}"
    );

    pos.owners = owners(&map, &[("england", 38), ("russia", 38)]);
    let (r, _) = advance(&map, Rules::default(), &pos, &[], None).unwrap();
    let sheet = arbiter::report::text::sheet(&map, "w", &r).replace("\n    ", " ");
    assert!(
        sheet.contains(
            "Past the line of 37 supply centres: England (38) and Russia (38). \
             With a tie for the most, nobody wins yet.\nNext: Winter 1901 adjustment."
        ),
        "{sheet}"
    );

    // One power past the line: the line is as before.
    pos.owners = owners(&map, &[("england", 37), ("russia", 30)]);
    let (r, _) = advance(&map, Rules::default(), &pos, &[], None).unwrap();
    let sheet = arbiter::report::text::sheet(&map, "w", &r);
    assert!(
        sheet.ends_with("England owns 37 supply centres and wins the game.\n"),
        "{sheet}"
    );
}
