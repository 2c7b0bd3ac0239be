"""Benchmark of the arbiter Python package (docs/PERFORMANCE.md, "Python").

Run in a virtual environment where the package is installed (release build):

    python python/bench.py                 # full run, checks the targets
    python python/bench.py --quick         # a short run (CI): prints figures, checks nothing
    python python/bench.py --cli target/release/arbiter   # also time the CLI's batch

Measured, on one thread (one core) unless said:

1. the opening: ``set_orders`` for all 7 powers from order strings (22 orders) and
   ``process()``, on a fresh copy of the starting game each time (the copy is not
   timed); target >= 50,000 phases/s;
2. a 34-unit phase (test-cases/regressions/midgame.yaml) the same way; target
   >= 30,000 phases/s;
3. ``get_all_possible_orders()`` on the opening; target >= 20,000 calls/s;
4. ``arbiter.batch(lines, jobs=2)`` against ``arbiter adjudicate --batch --jobs 2`` on
   the same lines (self-play phases); target: within 10 %.

Each timed loop checks its result (the phase reached, the orders' count), so a fast
wrong answer cannot pass.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Run as `python python/bench.py`, the script's folder (python/, which holds the package's
# source without its compiled part) comes first on the path: take it off, so that the
# installed package is imported.
if sys.path and os.path.abspath(sys.path[0] or ".") == os.path.dirname(os.path.abspath(__file__)):
    del sys.path[0]

import arbiter  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

OPENING = {
    "AUSTRIA": ["A BUD - SER", "F TRI - ALB", "A VIE - GAL"],
    "ENGLAND": ["F EDI - NWG", "F LON - NTH", "A LVP - YOR"],
    "FRANCE": ["F BRE - MAO", "A MAR - SPA", "A PAR - BUR"],
    "GERMANY": ["F KIE - DEN", "A BER - KIE", "A MUN - RUH"],
    "ITALY": ["F NAP - ION", "A ROM - APU", "A VEN H"],
    "RUSSIA": ["A MOS - UKR", "F SEV - BLA", "F STP/SC - BOT", "A WAR - GAL"],
    "TURKEY": ["F ANK - BLA", "A CON - BUL", "A SMY - CON"],
}


def midgame():
    """The 34-unit phase of test-cases/regressions/midgame.yaml: position and orders."""
    text = (ROOT / "test-cases" / "regressions" / "midgame.yaml").read_text()
    case = next(c for c in arbiter.read_cases(text) if c["id"] == "arbiter.midgame.34")
    orders = {}
    for power, order, _ in case["orders"]:
        orders.setdefault(power.upper(), []).append(order)
    return arbiter.Game.from_position({"units": case["units"]}), orders


def phases_per_second(start: arbiter.Game, orders, seconds: float, want_phase: str) -> float:
    """set_orders for every power and process(), on a fresh copy each time."""
    timed = 0.0
    n = 0
    deadline = time.perf_counter() + seconds
    items = list(orders.items())
    while time.perf_counter() < deadline:
        copies = [start.copy() for _ in range(200)]
        t0 = time.perf_counter()
        for g in copies:
            for power, lst in items:
                g.set_orders(power, lst)
            g.process()
        timed += time.perf_counter() - t0
        n += len(copies)
        # The check is not timed; every copy reached the phase expected.
        for g in copies:
            got = g.get_current_phase()
            assert got == want_phase, (got, want_phase)
    return n / timed


def possible_orders_per_second(game: arbiter.Game, seconds: float, fresh: bool) -> float:
    """Calls per second of get_all_possible_orders() on `game`'s position. `fresh`: each
    call on a fresh copy, so each one works the orders out (the copy is not timed);
    otherwise repeated calls on one game, which reuse the table of its position (the
    lists are new each call)."""
    n = 0
    timed = 0.0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        games = [game.copy() for _ in range(100)] if fresh else [game] * 100
        t0 = time.perf_counter()
        for g in games:
            po = g.get_all_possible_orders()
        timed += time.perf_counter() - t0
        n += 100
        assert len(po["PAR"]) == 11 and po["STP/SC"] == po["STP"], po["PAR"]
    return n / timed


def batch_lines(games: int) -> list:
    lines = []
    for g in arbiter.selfplay(games=games, seed=7, last_year=1910):
        lines.extend(g["lines"])
    return lines


def time_batch(lines, jobs: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        answers = arbiter.batch(lines, jobs=jobs, parse=False)
        best = min(best, time.perf_counter() - t0)
        assert len(answers) == len(lines)
    return len(lines) / best


def time_cli_batch(cli: str, lines, jobs: int, repeat: int) -> float:
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "lines.jsonl")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            out = subprocess.run(
                [cli, "adjudicate", "--batch", "--jobs", str(jobs), path],
                check=True,
                capture_output=True,
            ).stdout
            best = min(best, time.perf_counter() - t0)
            assert out.count(b"\n") == len(lines)
    return len(lines) / best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="a short run; check no target")
    ap.add_argument("--cli", help="the arbiter binary, to compare the batch with")
    a = ap.parse_args()
    seconds = 0.3 if a.quick else 3.0
    failed = []

    def report(what: str, rate: float, target: float, unit: str) -> None:
        ok = rate >= target
        mark = "" if a.quick else ("  ok" if ok else "  BELOW TARGET")
        print(f"{what:<64} {rate:>12,.0f} {unit}  (target >= {target:,.0f}){mark}")
        if not ok:
            failed.append(what)

    opening = arbiter.Game()
    report(
        "opening: set_orders x7 (22 orders) + process()",
        phases_per_second(opening, OPENING, seconds, "F1901M"),
        50_000,
        "phases/s",
    )
    start, orders = midgame()
    report(
        "34-unit phase: set_orders x7 (34 orders) + process()",
        phases_per_second(start, orders, seconds, "F1901M"),
        30_000,
        "phases/s",
    )
    report(
        "get_all_possible_orders() on the opening, each on a fresh copy",
        possible_orders_per_second(opening, seconds, fresh=True),
        20_000,
        "calls/s",
    )
    opening.get_all_possible_orders()
    report(
        "get_all_possible_orders() on the opening, called again",
        possible_orders_per_second(opening, seconds, fresh=False),
        20_000,
        "calls/s",
    )
    # Self-play phases, repeated so that the CLI's start (reading its maps) weighs little.
    lines = batch_lines(2) if a.quick else batch_lines(40) * 20
    repeat = 1 if a.quick else 5
    # The two are timed in turns, best of `repeat` each, so a change of the machine's
    # load during the run weighs on both alike.
    py_rate = cli_rate = 0.0
    for _ in range(repeat):
        py_rate = max(py_rate, time_batch(lines, 2, 1))
        if a.cli:
            cli_rate = max(cli_rate, time_cli_batch(a.cli, lines, 2, 1))
    print(f"{'batch: arbiter.batch(lines, jobs=2), %d lines' % len(lines):<64} {py_rate:>12,.0f} lines/s")
    if a.cli:
        ratio = py_rate / cli_rate
        print(
            f"{'batch: arbiter adjudicate --batch --jobs 2, same lines':<64} {cli_rate:>12,.0f} lines/s"
            f"  (Python / CLI = {ratio:.2f}, target >= 0.90)"
        )
        if ratio < 0.9:
            failed.append("batch within 10 % of the CLI")
    if a.quick:
        print("bench: quick run, targets not checked")
        return 0
    if failed:
        print("below target: " + "; ".join(failed))
        return 1
    print("every target met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
