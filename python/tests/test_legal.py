"""Legal orders: arbiter.legal_orders and Game.get_all_possible_orders equal the CLI's
`"legal": true` answer, on the positions of a random game (every kind of phase)."""

import random
import re

import arbiter
from conftest import run_cli_batch
from test_game import play_random


def dip_to_canonical(order, phase_type):
    """The diplomacy package's spelling back to arbiter's canonical one."""
    if order == "WAIVE":
        return "WAIVE"
    m = re.fullmatch(r"([AF]) (\S+) B", order)
    if m:
        return f"BUILD {m[1]} {m[2]}"
    if phase_type == "R":
        order = re.sub(r" R ", " - ", order)
    return order


def positions():
    seen = []
    for seed in range(20):
        g = arbiter.Game(last_year=1906)
        rng = random.Random(seed)
        while not g.is_game_done:
            seen.append(g.copy())
            play_random(g, rng, max_phases=1)
        if len({s.phase_type for s in seen}) == 3 and len(seen) > 40:
            break
    return seen


def test_legal_orders_equal_the_cli(cli):
    games = positions()
    kinds = {g.phase_type for g in games}
    assert kinds == {"M", "R", "A"}, kinds
    lines = []
    for k, g in enumerate(games):
        line = arbiter._position_line(g)
        line.update(id=k, legal=True)
        lines.append(line)
    answers = run_cli_batch(cli, lines)
    for g, line, answer in zip(games, lines, answers):
        want = answer["legal"]
        assert arbiter.legal_orders(g) == want
        # get_all_possible_orders lists the same orders, in the diplomacy spelling.
        po = g.get_all_possible_orders()
        if g.phase_type in ("M", "R"):
            for loc, orders in want.items():
                prov = loc.split("/")[0]
                converted = []
                for o in po[prov]:
                    c = dip_to_canonical(o, g.phase_type)
                    # A convoyed move is `A LON - NWY VIA`: canonical `A LON - NWY` when the
                    # province is not adjacent, `... VIA CONVOY` when it is.
                    if c.endswith(" VIA"):
                        c = c + " CONVOY" if c + " CONVOY" in orders else c[:-4]
                    converted.append(c)
                assert sorted(converted) == sorted(orders), (g.get_current_phase(), loc)
                assert po[loc] == po[prov]
            listed = sum(len(v) for k, v in po.items() if "/" not in k)
            assert listed == sum(len(v) for v in want.values())
        else:
            for power, entry in want.items():
                name = power.upper()
                mine = set()
                for loc in g.get_orderable_locations(name):
                    mine.update(dip_to_canonical(o, "A") for o in po[loc])
                assert mine == set(entry["orders"]) - {"SAVE"} or mine == set(entry["orders"])
