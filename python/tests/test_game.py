"""The Game API: the diplomacy package's names and behaviour, and a whole random game
through Game equal to the same game through the CLI, phase for phase."""

import copy
import json
import random
import subprocess

import arbiter
from conftest import run_cli_batch


def play_random(game, rng, max_phases=10_000):
    """The diplomacy package's documented random agent, unchanged but for the import."""
    n = 0
    while not game.is_game_done and n < max_phases:
        possible_orders = game.get_all_possible_orders()
        for power_name, power in game.powers.items():
            power_orders = [
                rng.choice(possible_orders[loc])
                for loc in game.get_orderable_locations(power_name)
                if possible_orders[loc]
            ]
            game.set_orders(power_name, power_orders)
        game.process()
        n += 1
    return n


def test_opening_state():
    g = arbiter.Game()
    assert g.map_name == "standard"
    assert g.get_current_phase() == "S1901M"
    assert g.phase == "SPRING 1901 MOVEMENT"
    assert g.phase_type == "M"
    assert not g.is_game_done and g.outcome == []
    assert sorted(g.powers) == [
        "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"
    ]
    assert sorted(g.get_units("FRANCE")) == ["A MAR", "A PAR", "F BRE"]
    assert sorted(g.get_units()["RUSSIA"]) == ["A MOS", "A WAR", "F SEV", "F STP/SC"]
    assert sorted(g.get_centers("RUSSIA")) == ["MOS", "SEV", "STP", "WAR"]
    assert sorted(g.powers["RUSSIA"].units) == ["A MOS", "A WAR", "F SEV", "F STP/SC"]
    assert not g.powers["RUSSIA"].is_eliminated()
    assert sorted(g.get_orderable_locations("RUSSIA")) == ["MOS", "SEV", "STP", "WAR"]
    po = g.get_all_possible_orders()
    # Every location is a key; a fleet on a coast is listed under both names.
    assert "STP/NC" in po and po["STP/NC"] == [] and po["NTH"] == []
    assert po["STP"] == po["STP/SC"] and "F STP/SC - BOT" in po["STP"]
    assert set(po["PAR"]) == {
        "A PAR H", "A PAR - BRE", "A PAR - BUR", "A PAR - GAS", "A PAR - PIC",
        "A PAR S F BRE", "A PAR S A MAR - BUR", "A PAR S A MUN - BUR",
        "A PAR S F BRE - GAS", "A PAR S A MAR - GAS", "A PAR S F BRE - PIC",
    }
    s = g.get_state()
    assert s["name"] == "S1901M" and s["units"]["FRANCE"] == g.get_units("FRANCE")


def test_orders_of_every_kind_and_the_phases_they_lead_to():
    g = arbiter.Game()
    g.set_orders("FRANCE", ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"])
    g.set_orders("GERMANY", "A MUN - BUR")
    assert g.get_orders("FRANCE") == ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"]
    g.process()
    assert g.get_current_phase() == "F1901M"
    assert sorted(g.get_units("FRANCE")) == ["A BUR", "A MAR", "F MAO"]
    # Fall: France takes Portugal and Spain and holds Burgundy against Germany.
    g.set_orders("FRANCE", ["F MAO - POR", "A MAR - SPA", "A BUR H"])
    g.set_orders("GERMANY", ["A MUN - BUR", "A BER - MUN", "F KIE - HOL"])
    g.process()
    assert g.get_current_phase() == "W1901A"
    assert sorted(g.get_centers("FRANCE")) == ["BRE", "MAR", "PAR", "POR", "SPA"]
    # France owns 5 centres with 3 units: 2 builds, on its vacant home centres.
    assert sorted(g.get_orderable_locations("FRANCE")) == ["BRE", "MAR", "PAR"]
    po = g.get_all_possible_orders()
    assert "A PAR B" in po["PAR"] and "F BRE B" in po["BRE"] and "WAIVE" in po["PAR"]
    assert g.get_state()["builds"]["FRANCE"]["count"] == 2
    g.set_orders("FRANCE", ["A PAR B", "F BRE B"])
    g.set_orders("GERMANY", ["F KIE B"])
    g.process()
    assert g.get_current_phase() == "S1902M"
    assert "A PAR" in g.get_units("FRANCE") and "F BRE" in g.get_units("FRANCE")
    assert "F KIE" in g.get_units("GERMANY")


def test_a_retreat_phase():
    g = arbiter.Game()
    g.set_units("AUSTRIA", ["F TRI"])
    g.set_units("ITALY", ["A VEN", "A TYR"])
    g.set_orders("ITALY", ["A VEN - TRI", "A TYR S A VEN - TRI"])
    g.process()
    assert g.get_current_phase() == "S1901R"
    assert g.get_units("AUSTRIA") == ["*F TRI"]
    assert g.powers["AUSTRIA"].retreats == {"F TRI": ["ADR", "ALB"]}
    assert g.get_orderable_locations("AUSTRIA") == ["TRI"]
    po = g.get_all_possible_orders()
    assert po["TRI"] == ["F TRI R ADR", "F TRI R ALB", "F TRI D"]
    g.set_orders("AUSTRIA", ["F TRI R ALB"])
    g.process()
    assert g.get_current_phase() == "F1901M"
    assert g.get_units("AUSTRIA") == ["F ALB"]
    h = g.get_phase_history()
    assert [p.name for p in h] == ["S1901M", "S1901R"]
    assert h[0].results["F TRI"] == ["dislodged"]
    assert h[1].orders["AUSTRIA"] == ["F TRI R ALB"]
    assert h[1].result["orders"][0]["outcome"] == "succeeds"


def test_whole_random_game_equals_the_cli_phase_for_phase(cli, tmp_path):
    g = arbiter.Game(rules=["NO_PRESS", "POWER_CHOICE"], last_year=1912)
    n = play_random(g, random.Random(20261127))
    assert g.is_game_done and n == len(g.get_phase_history())
    assert g.get_current_phase() == "COMPLETED" and g.outcome
    history = g.get_phase_history()
    lines = []
    for k, pd in enumerate(history):
        s = pd.state
        lines.append({
            "id": k,
            "phase": pd.name,
            "units": {p: [u for u in us if not u.startswith("*")] for p, us in s["units"].items()},
            "dislodged": [
                {"power": p, "unit": u, "retreats": to}
                for p, rs in s["retreats"].items()
                for u, to in rs.items()
            ],
            "centers": s["centers"],
            "orders": pd.orders,
            "last_year": 1912,
        })
    answers = run_cli_batch(cli, lines)
    assert len(answers) == len(history)
    for k, (pd, answer) in enumerate(zip(history, answers)):
        assert answer.pop("id") == k
        assert answer == pd.result, f"phase {pd.name} differs from the CLI"
        # The next phase judged starts where this one ended.
        if k + 1 < len(history):
            nxt = history[k + 1].state
            after = {p.upper(): sorted(us) for p, us in answer["units_after"].items()}
            on_board = {p: sorted(u for u in us if not u.startswith("*")) for p, us in nxt["units"].items()}
            dislodged = {p: sorted(u[1:] for u in us if u.startswith("*")) for p, us in nxt["units"].items()}
            if history[k + 1].name.endswith("R"):
                assert after == on_board
            else:
                assert after == on_board and not any(dislodged.values())
    # The same phases through Game.batch_lines and the library's batch.
    own = [json.loads(l) for l in g.batch_lines()]
    again = arbiter.batch(g.batch_lines(), jobs=2)
    for line, answer in zip(own, again):
        answer.pop("id")
        assert answer == line["expect"]
    # Saved as a game file, the CLI opens it and replays every phase the same.
    path = tmp_path / "game.yaml"
    g.save(path)
    out = subprocess.run([cli, "status", str(path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    out = subprocess.run([cli, "history", str(path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    back = arbiter.Game.load(path)
    assert back.outcome == g.outcome and back.get_centers() == g.get_centers()
    assert [p.result for p in back.get_phase_history()] == [p.result for p in history]


def test_a_phase_processed_with_no_orders_saves_and_reads_back(cli, tmp_path):
    # Every unit in civil disorder: the phase is recorded from an empty order file, as
    # `arbiter judge GAME empty.txt` records it, and the CLI replays it the same.
    g = arbiter.Game()
    g.process()
    assert g.get_current_phase() == "F1901M"
    g.set_orders("FRANCE", ["A PAR - BUR"])
    g.process()
    path = tmp_path / "game.yaml"
    g.save(path)
    out = subprocess.run([cli, "history", str(path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    back = arbiter.Game.load(path)
    assert [p.name for p in back.get_phase_history()] == ["S1901M", "F1901M"]
    assert back.get_units("FRANCE") == g.get_units("FRANCE")
    assert "A BUR" in back.get_units("FRANCE")


def test_copy_is_independent():
    g = arbiter.Game()
    g.set_orders("FRANCE", ["A PAR - BUR"])
    c = copy.deepcopy(g)
    c.process()
    assert g.get_current_phase() == "S1901M" and c.get_current_phase() == "F1901M"
    assert g.get_orders("FRANCE") == ["A PAR - BUR"]


def test_set_current_phase_and_centers():
    g = arbiter.Game()
    g.set_current_phase("F1905M")
    assert g.phase == "FALL 1905 MOVEMENT"
    g.set_current_phase("WINTER 1905 ADJUSTMENTS")
    assert g.get_current_phase() == "W1905A"
    g.set_centers("FRANCE", ["BEL", "HOL"])
    assert sorted(g.get_centers("FRANCE")) == ["BEL", "BRE", "HOL", "MAR", "PAR"]
    assert g.get_state()["builds"]["FRANCE"]["count"] == 2
    g.set_centers("FRANCE", ["PAR"], reset=True)
    assert g.get_centers("FRANCE") == ["PAR"]
    assert g.get_state()["builds"]["FRANCE"]["count"] == -2
    g.set_units("FRANCE", [], reset=True)
    g.set_centers("FRANCE", [], reset=True)
    assert g.powers["FRANCE"].is_eliminated()


def test_rules_editions_and_flags():
    assert arbiter.Game(rules="2000").edition == "2000"
    g = arbiter.Game(rules={"NO_PRESS", "1982"})
    assert g.edition == "1982" and "NO_PRESS" in g.rules
    assert arbiter.Game().rules == ["2023"]


def test_explain_and_render():
    g = arbiter.Game()
    g.set_orders("FRANCE", ["A PAR - BUR"])
    g.set_orders("GERMANY", ["A MUN - BUR"])
    g.process()
    text = arbiter.explain(g)
    assert "Burgundy" in text and "Standoff" in text
    svg = arbiter.render(g)
    assert svg.startswith(b"<svg") or b"<svg" in svg[:200]
    png = arbiter.render(g, format="png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    # The classic board's PNG is 1600 pixels wide unless asked (IHDR width, big-endian).
    assert int.from_bytes(png[16:20], "big") == 1600
    assert int.from_bytes(arbiter.render(g, format="png", width=800)[16:20], "big") == 800
    # A position and orders, not a game.
    text = arbiter.explain(
        {"units": {"france": ["A PAR"], "germany": ["A MUN"]}},
        {"france": ["A PAR - BUR"], "germany": ["A MUN - BUR"]},
        province="BUR",
    )
    assert "Standoff" in text


def test_order_and_result_history():
    g = arbiter.Game()
    g.set_orders("FRANCE", ["A PAR - BUR"])
    g.set_orders("GERMANY", ["A MUN - BUR"])
    g.process()
    assert g.order_history["S1901M"]["FRANCE"] == ["A PAR - BUR"]
    assert g.order_history["S1901M"]["ITALY"] == []
    assert g.result_history["S1901M"]["A PAR"] == ["bounce"]
    assert g.result_history["S1901M"]["A MUN"] == ["bounce"]
    assert g.result_history["S1901M"]["F BRE"] == []


def test_possible_orders_follow_the_position_and_are_fresh_lists():
    g = arbiter.Game()
    po = g.get_all_possible_orders()
    po["PAR"].clear()
    assert "A PAR - BUR" in g.get_all_possible_orders()["PAR"]
    g.set_units("FRANCE", ["A BUR"], reset=False)
    po = g.get_all_possible_orders()
    assert "A BUR - MUN" in po["BUR"] and "A PAR S A BUR" in po["PAR"]
    g.set_units("FRANCE", [], reset=True)
    assert g.get_all_possible_orders()["PAR"] == []
    g.set_current_phase("W1901A")
    assert "A PAR B" in g.get_all_possible_orders()["PAR"]
    g.set_centers("FRANCE", [], reset=True)
    assert g.get_all_possible_orders()["PAR"] == []


def test_clear_units_and_centers():
    g = arbiter.Game()
    assert g.current_short_phase == "S1901M"
    g.clear_units("FRANCE")
    assert g.get_units("FRANCE") == [] and g.get_units("GERMANY")
    g.clear_centers("FRANCE")
    assert g.get_centers("FRANCE") == [] and g.powers["FRANCE"].is_eliminated()
    assert g.get_all_possible_orders()["PAR"] == []
    g.clear_units()
    g.clear_centers()
    assert not any(g.get_units().values()) and not any(g.get_centers().values())


def test_the_map():
    m = arbiter.Game().map
    assert m.name == "standard" and len(m.scs) == 34 and "STP/SC" in m.locs
    assert sorted(m.powers)[0] == "AUSTRIA" and sorted(m.homes["RUSSIA"]) == ["MOS", "SEV", "STP", "WAR"]
    assert m.area_type("NTH") == "WATER" and m.area_type("PAR") == "LAND"
    assert m.area_type("BRE") == "COAST" and m.area_type("SWI") == "SHUT"
    assert m.abuts("A", "PAR", "-", "BUR") and not m.abuts("A", "PAR", "-", "MUN")
    assert m.abuts("F", "BOT", "-", "STP/SC") and not m.abuts("F", "BOT", "-", "STP/NC")
    assert not m.abuts("F", "PAR", "-", "BUR") and m.abuts("F", "NTH", "-", "LON")
