"""Hostile input at the Python door, issue 28 items 9 and 12 (theme BOUNDS): a thread
count past the bound is taken as the bound (docs/CLI.md, "Bounds"), never a crash."""

import pytest

import arbiter

LINE = {
    "id": 1,
    "phase": "Spring 1901",
    "units": {"france": ["A Par"]},
    "orders": {"france": ["A Par - Bur"]},
}


def test_a_huge_job_count_is_capped_not_a_crash():
    lines = [dict(LINE, id=i) for i in range(300)]
    want = arbiter.batch(lines, jobs=1)
    # Once: a thread started per job, until the system refused one (a panic).
    assert arbiter.batch(lines, jobs=1_000_000) == want
    assert [a["id"] for a in want] == list(range(300))


def test_a_job_count_past_any_integer_is_an_error():
    with pytest.raises((OverflowError, ValueError, TypeError)):
        arbiter.batch([LINE], jobs=10**40)


def _winter_with_builds():
    """A game at Winter 1901 where France owes two builds (France takes Portugal and
    Spain), as in test_game."""
    g = arbiter.Game()
    g.set_orders("FRANCE", ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"])
    g.process()
    g.set_orders("FRANCE", ["F MAO - POR", "A MAR - SPA", "A BUR H"])
    g.process()
    assert g.get_current_phase() == "W1901A"
    return g


def test_orders_past_what_judge_reads_are_refused_and_the_game_still_saves(tmp_path):
    # Builds and waives accumulate in an adjustment phase: thousands of them made a
    # phase `arbiter judge` reads only in part (ten orders a unit and 100 more: 320
    # for the 22 units), so the saved game did not read back as played.
    g = _winter_with_builds()
    g.set_orders("FRANCE", ["WAIVE"] * 300)
    with pytest.raises(arbiter.OrderError) as e:
        g.set_orders("FRANCE", ["WAIVE"] * 21, replace=False)
    assert "321 orders for this phase: at most 320 are read" in str(e.value)
    # Nothing of the refused call was set; the orders held before are kept.
    assert len(g.get_orders("FRANCE")) == 300
    g.set_orders("FRANCE", ["WAIVE"] * 20, replace=False)
    assert len(g.get_orders("FRANCE")) == 320
    g.process()
    path = tmp_path / "g.yaml"
    g.save(str(path))
    assert arbiter.Game.load(str(path)).get_current_phase() == g.get_current_phase()


def test_selfplay_refuses_more_games_than_one_list_can_hold():
    # `selfplay(games=2**64-1)` played on, holding every record (4.3 GB after ten
    # minutes), and Ctrl-C did not stop it: a call plays at most 1000 games.
    for games in (2**64 - 1, 1001):
        with pytest.raises(ValueError) as e:
            arbiter.selfplay(games=games)
        assert "at most 1000 a call" in str(e.value)
    played = arbiter.selfplay(games=2, last_year=1901, lines=False, first=5)
    assert [p["game"] for p in played] == [5, 6]
