"""Every case of test-cases/ (DATC, editions, regressions) through arbiter.adjudicate:
each order's outcome, the dislodged units and the standoffs, and the retreat phase
that follows where the case gives one."""

import pytest

import arbiter
from conftest import ROOT

FILES = sorted(
    p
    for d in ("datc", "editions", "regressions")
    for p in (ROOT / "test-cases" / d).glob("*.yaml")
)


def cases():
    for f in FILES:
        for c in arbiter.read_cases(f.read_text()):
            for edition in c["editions"]:
                yield pytest.param(c, edition, id=f"{c['id']}[{edition}]")


def orders_by_power(rows):
    out = {}
    for power, order, _ in rows:
        out.setdefault(power, []).append(order)
    return out


def prov(unit):
    return unit.split()[-1].split("/")[0].lower()


@pytest.mark.parametrize("case,edition", list(cases()))
def test_case(case, edition):
    position = {"units": case["units"]}
    if case["phase"]:
        position["phase"] = case["phase"]
    if case["owners"] is not None:
        position["centers"] = case["owners"]
    r = arbiter.adjudicate(position, orders_by_power(case["orders"]), rules=edition)
    got = [o.outcome for o in r.orders]
    want = [w for _, _, w in case["orders"]]
    assert got == want, [(o.order, o.outcome, o.reason) for o in r.orders]
    if r.phase.endswith("adjustment"):
        if case["civil_disorder"] is not None:
            have = sorted(prov(u["unit"]) for u in r.json["civil_disorder"])
            assert have == sorted(p.lower() for p in case["civil_disorder"])
        return
    dislodged = {prov(d.unit): d.by.lower() for d in r.dislodged}
    assert dislodged == {k.lower(): v.lower() for k, v in case["dislodged"].items()}
    if case["contested"] is not None:
        assert sorted(c.lower() for c in r.contested) == sorted(
            c.lower() for c in case["contested"]
        )
    if case["retreats"] is not None:
        have = {prov(d.unit): sorted(x.lower() for x in d.retreats) for d in r.dislodged}
        want = {k.lower(): sorted(x.lower() for x in v) for k, v in case["retreats"].items()}
        assert have == want
    if case["retreat_orders"] is not None:
        phase = r.phase.replace("movement", "retreat")
        retreat = arbiter.adjudicate(
            {
                "phase": phase,
                "units": r.units_after,
                "dislodged": [
                    {"power": d.power, "unit": d.unit, "by": d.by, "retreats": d.retreats}
                    for d in r.dislodged
                ],
            },
            orders_by_power(case["retreat_orders"]),
            rules=edition,
        )
        got = [o.outcome for o in retreat.orders]
        want = [w for _, _, w in case["retreat_orders"]]
        assert got == want, [(o.order, o.outcome, o.reason) for o in retreat.orders]
        if case["destroyed"] is not None:
            have = sorted(prov(d["unit"]) for d in retreat.json["destroyed"])
            assert have == sorted(p.lower() for p in case["destroyed"])


def test_every_file_has_cases():
    assert len(FILES) >= 10
    assert sum(len(arbiter.read_cases(f.read_text())) for f in FILES) > 150
