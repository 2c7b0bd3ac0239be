"""Bad input raises a Python exception with the parser's message, never a crash; a
failed set_orders sets nothing."""

import pytest

import arbiter


def test_unknown_map():
    with pytest.raises(arbiter.MapError, match="unknown map `narnia`.*standard"):
        arbiter.Game("narnia")


def test_unknown_rules_and_power():
    with pytest.raises(arbiter.ArbiterError, match="unknown rule `BUILD_ANY`"):
        arbiter.Game(rules=["BUILD_ANY"])
    g = arbiter.Game()
    with pytest.raises(arbiter.ArbiterError, match="unknown power `NARNIA`"):
        g.set_orders("NARNIA", ["A PAR H"])
    with pytest.raises(arbiter.ArbiterError, match="unknown power"):
        g.get_units("NARNIA")


def test_bad_order_has_the_parsers_message_and_span():
    g = arbiter.Game()
    with pytest.raises(arbiter.OrderError) as e:
        g.set_orders("FRANCE", ["A PAR - BUR", "A Par - Xyzzyq"])
    err = e.value
    assert isinstance(err, ValueError)
    assert "Xyzzyq" in str(err)
    assert len(err.errors) == 1
    (only,) = err.errors
    assert only["order"] == "A Par - Xyzzyq"
    start, end = only["span"]
    assert only["order"][start:end] == "Xyzzyq"
    # Nothing of the call was set.
    assert g.get_orders("FRANCE") == []


def test_misspelling_with_one_reading_is_a_warning():
    g = arbiter.Game()
    warnings = g.set_orders("FRANCE", ["A Par - Burgandi"])
    assert warnings and "Burgundy" in warnings[0]
    assert g.get_orders("FRANCE") == ["A Par - Burgandi"]


def test_wrong_phase():
    g = arbiter.Game()
    with pytest.raises(arbiter.OrderError, match="not an order of spring 1901 movement"):
        g.set_orders("FRANCE", ["A PAR B"])
    with pytest.raises(arbiter.OrderError, match="not an order"):
        g.set_orders("FRANCE", ["WAIVE"])
    g.set_current_phase("W1901A")
    with pytest.raises(arbiter.OrderError, match="not an order of winter 1901 adjustments"):
        g.set_orders("FRANCE", ["A PAR - BUR"])
    with pytest.raises(arbiter.PhaseError, match="unknown phase"):
        g.set_current_phase("Summer 1901")


def test_another_powers_unit_and_no_unit():
    g = arbiter.Game()
    with pytest.raises(arbiter.OrderError, match="the unit in Munich is Germany's"):
        g.set_orders("FRANCE", ["A MUN - BUR"])
    with pytest.raises(arbiter.OrderError, match="there is no unit in Burgundy"):
        g.set_orders("FRANCE", ["A BUR - PAR"])
    with pytest.raises(arbiter.OrderError, match="written for Germany"):
        g.set_orders("FRANCE", ["Germany: A MUN - RUH"])


def test_illegal_but_readable_movement_orders_are_judged_illegal():
    g = arbiter.Game()
    g.set_orders("FRANCE", ["A PAR - MUN"])
    g.process()
    (o,) = [o for o in g.result["orders"] if o["power"] == "france"]
    assert o["outcome"] == "illegal" and o["reason"]


def test_game_over_and_bad_positions():
    g = arbiter.Game(last_year=1901)
    g.process()
    g.process()
    assert g.is_game_done and g.get_current_phase() == "COMPLETED"
    with pytest.raises(arbiter.PhaseError, match="the game is over"):
        g.process()
    with pytest.raises(arbiter.PhaseError, match="the game is over"):
        g.set_orders("FRANCE", [])
    with pytest.raises(arbiter.ArbiterError):
        arbiter.adjudicate({"units": {"france": ["A XYZ"]}})
    with pytest.raises(arbiter.ArbiterError, match="unknown phase"):
        arbiter.adjudicate({"phase": "Summer 1901", "units": {}})
    with pytest.raises(arbiter.ArbiterError, match="cannot read the unit"):
        g.set_units("FRANCE", ["Q PAR"])
    with pytest.raises(arbiter.GameFileError):
        arbiter.Game.from_yaml("not: a game")


def test_adjudicate_keeps_unreadable_orders_in_place():
    r = arbiter.adjudicate(
        {"units": {"france": ["A PAR"]}}, {"france": ["A PAR - Xyzzyq", "A PAR H"]}
    )
    assert [o.outcome for o in r.orders] == ["illegal", "succeeds"]
    assert "Xyzzyq" in r.orders[0].reason
