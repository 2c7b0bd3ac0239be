"""Hostile inputs of issue 28 (helper FUZZ) at the Python door: retreat options are
checked against the board (item 2) when a game file is read, and a retreat into an
occupied province never moves a unit there, so no saved game is one the loader refuses."""

import pytest

import arbiter

# A hand-edited game file at Fall 1901 retreat whose dislodged French army is given
# Ruhr, where a German army stands.
EDITED_GAME = """arbiter_game: 1
name: edited
map: standard
rules: '2023'
phase: Fall 1901 retreat
position:
  units:
    germany: [A BUR, A RUH]
  owners: {}
  dislodged:
  - {power: france, unit: A BUR, by: MUN, retreats: [BEL, RUH]}
complete: true
"""


def test_a_game_file_with_a_retreat_into_an_occupied_province_is_refused():
    with pytest.raises(arbiter.GameFileError, match="cannot retreat to `RUH`.*Ruhr is occupied"):
        arbiter.Game.from_yaml(EDITED_GAME)
    # The options the board allows load.
    g = arbiter.Game.from_yaml(EDITED_GAME.replace("[BEL, RUH]", "[BEL, PIC]"))
    assert g.get_current_phase() == "F1901R"


def test_a_unit_set_into_a_retreat_option_is_not_joined_by_the_retreat(tmp_path):
    g = arbiter.Game()
    g.set_units("AUSTRIA", ["F TRI"])
    g.set_units("ITALY", ["A VEN", "A TYR"])
    g.set_orders("ITALY", ["A VEN - TRI", "A TYR S A VEN - TRI"])
    g.process()
    assert g.powers["AUSTRIA"].retreats == {"F TRI": ["ADR", "ALB"]}
    # A unit put in Albania by hand, after the options were worked out: Albania is no
    # longer an option.
    g.set_units("TURKEY", ["A ALB"])
    assert g.powers["AUSTRIA"].retreats == {"F TRI": ["ADR"]}
    g.set_orders("AUSTRIA", ["F TRI R ALB"])
    g.process()
    in_albania = [u for p in g.powers for u in g.get_units(p) if u.endswith(" ALB")]
    assert in_albania == ["A ALB"], in_albania
    assert g.get_units("AUSTRIA") == []
    # The game saves, and reads back.
    path = tmp_path / "game.yaml"
    g.save(path)
    back = arbiter.Game.load(path)
    assert back.get_units("TURKEY") == g.get_units("TURKEY")
