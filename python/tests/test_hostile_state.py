"""Hostile positions at the Python door, issue 28 (theme STATE): a power named twice in
two spellings, a phase past `last_year`, a retreat option listed twice, a retreat phase
with nobody dislodged, an id that is not Unicode: refused here as at the CLI's doors
(docs/CLI.md, "Batch mode"; docs/GAMES.md)."""

import pytest

import arbiter


def test_a_power_named_twice_in_two_spellings_is_refused():
    twice = "the power `france` is given twice"
    with pytest.raises(arbiter.ArbiterError, match=twice):
        arbiter.adjudicate({"units": {"france": ["A PAR"], "FRANCE": ["F BRE"]}})
    with pytest.raises(arbiter.ArbiterError, match=twice):
        arbiter.adjudicate(
            {"units": {"france": ["A PAR"]}, "centers": {"France": ["PAR"], "FRANCE": ["BRE"]}}
        )
    with pytest.raises(arbiter.ArbiterError, match=twice):
        arbiter.adjudicate(
            {"units": {"france": ["A PAR"]}},
            {"France": ["A PAR H"], "FRANCE": ["A PAR - BUR"]},
        )
    with pytest.raises(arbiter.ArbiterError, match=twice):
        arbiter.Game.from_position({"units": {"france": ["A PAR"], "FRANCE": ["F BRE"]}})
    with pytest.raises(arbiter.ArbiterError, match=twice):
        arbiter.Game.from_position(
            {"units": {"france": ["A PAR"]}, "centers": {"France": ["PAR"], "FRANCE": ["BRE"]}}
        )


def test_a_phase_past_last_year_is_refused():
    with pytest.raises(arbiter.ArbiterError, match="past the last year 1901"):
        arbiter.adjudicate(
            {"phase": "Spring 1905 movement", "last_year": 1901, "units": {"france": ["A PAR"]}}
        )
    # The last year's Fall turn is played, and ends the game.
    r = arbiter.adjudicate(
        {"phase": "Fall 1901 movement", "last_year": 1901, "units": {"france": ["A PAR"]}}
    )
    assert r is not None


def test_a_retreat_option_listed_twice_is_refused():
    position = {
        "phase": "Fall 1901 retreat",
        "units": {"germany": ["A BUR"]},
        "dislodged": [
            {"power": "france", "unit": "A BUR", "by": "MUN", "retreats": ["PAR", "PAR", "par"]}
        ],
    }
    with pytest.raises(arbiter.ArbiterError, match="already among its retreats"):
        arbiter.adjudicate(position)
    with pytest.raises(arbiter.ArbiterError, match="already among its retreats"):
        arbiter.Game.from_position(position)


def test_a_retreat_phase_with_nobody_dislodged_is_refused():
    position = {"phase": "Spring 1901 retreat", "units": {"france": ["A PAR"]}}
    with pytest.raises(arbiter.ArbiterError, match="has no dislodged units"):
        arbiter.adjudicate(position)
    with pytest.raises(arbiter.ArbiterError, match="has no dislodged units"):
        arbiter.Game.from_position(position)


def test_an_id_that_is_not_unicode_is_refused():
    answers = arbiter.batch([{"id": "\ud800", "units": {"france": ["A PAR"]}}])
    assert "is not valid Unicode" in answers[0]["error"]


def test_set_current_phase_keeps_to_the_same_rules():
    g = arbiter.Game(last_year=1901)
    with pytest.raises(arbiter.PhaseError, match="past the last year 1901"):
        g.set_current_phase("S1905M")
    with pytest.raises(arbiter.PhaseError, match="past the last year 1901"):
        g.set_current_phase("W1901A")
    with pytest.raises(arbiter.PhaseError, match="has no dislodged units"):
        g.set_current_phase("F1901R")
    g.set_current_phase("F1901M")
    assert g.get_current_phase() == "F1901M"
