"""Hostile input, security (issue 28): the Python door refuses orders for another
power's units, removals and waives, as slips and judge files do."""

import pytest

import arbiter


def test_set_orders_refuses_another_powers_unit_removal_and_waive():
    g = arbiter.Game()
    with pytest.raises(arbiter.OrderError, match="the unit in Munich is Germany's"):
        g.set_orders("FRANCE", ["A MUN - RUH"])
    with pytest.raises(arbiter.OrderError, match="written for England"):
        g.set_orders("FRANCE", ["England: F LON - NTH"])
    assert g.get_orders("FRANCE") == []
    g.set_current_phase("W1901A")
    with pytest.raises(arbiter.OrderError, match="Germany's"):
        g.set_orders("FRANCE", ["A MUN D"])
    with pytest.raises(arbiter.OrderError):
        g.set_orders("GERMANY", ["WAIVE FRANCE"])
    assert g.get_orders("FRANCE") == [] and g.get_orders("GERMANY") == []


def test_adjudicate_judges_another_powers_unit_illegal():
    r = arbiter.adjudicate(
        {"units": {"france": ["A PAR"], "england": ["F LON"]}},
        {"france": ["F LON - NTH", "England: F LON - NTH"]},
    )
    assert [o.outcome for o in r.orders] == ["illegal", "illegal"]
