"""Self-play on Ray: N games spread over Ray workers, collected as batch lines.

Each worker plays whole games through arbiter.Game with the diplomacy package's random
agent (random legal orders for every power) and returns every phase as an
`arbiter adjudicate --batch` line that replays it, with the answer it got under
`expect`. The driver writes the lines, in game order, to one JSON Lines file:

    python examples/python/ray_selfplay.py --games 100 --out games.jsonl
    python examples/python/ray_selfplay.py --address auto --games 10000 --out games.jsonl
    arbiter adjudicate --batch games.jsonl   # answers each line with its `expect`

`--address auto` joins a running Ray cluster (`ray start --head` on one machine,
`ray start --address HEAD:6379` on the others; docs/PYTHON.md); without it a local Ray
instance is started with `--cpus` workers.
"""

from __future__ import annotations

import argparse
import json
import random
from typing import List

import ray

import arbiter


def play_game(seed: int, last_year: int) -> List[str]:
    """One game with random legal orders; its phases as batch lines."""
    rng = random.Random(seed)
    game = arbiter.Game(game_id=f"g{seed}", last_year=last_year)
    while not game.is_game_done:
        possible_orders = game.get_all_possible_orders()
        for power_name in game.powers:
            orders = [
                rng.choice(possible_orders[loc])
                for loc in game.get_orderable_locations(power_name)
                if possible_orders[loc]
            ]
            game.set_orders(power_name, orders)
        game.process()
    return game.batch_lines()


@ray.remote
def play_games(seeds: List[int], last_year: int) -> List[List[str]]:
    return [play_game(s, last_year) for s in seeds]


def run(games: int, seed: int = 0, last_year: int = 1910, per_task: int = 4) -> List[str]:
    """Play `games` games on the Ray instance this process is connected to; every
    phase of every game as a batch line, game after game."""
    seeds = [seed + k for k in range(games)]
    tasks = [
        play_games.remote(seeds[i : i + per_task], last_year)
        for i in range(0, len(seeds), per_task)
    ]
    lines: List[str] = []
    for result in ray.get(tasks):
        for game in result:
            lines.extend(game)
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--last-year", type=int, default=1910)
    ap.add_argument("--per-task", type=int, default=4, help="games per Ray task")
    ap.add_argument("--address", help="a Ray cluster to join (`auto`: the running one)")
    ap.add_argument("--cpus", type=int, default=None, help="local instance: worker CPUs")
    ap.add_argument("--out", default="selfplay.jsonl")
    a = ap.parse_args()
    if a.address:
        ray.init(address=a.address)
    else:
        ray.init(num_cpus=a.cpus)
    lines = run(a.games, a.seed, a.last_year, a.per_task)
    with open(a.out, "w") as f:
        for line in lines:
            f.write(line + "\n")
    phases = len(lines)
    print(json.dumps({"games": a.games, "phases": phases, "out": a.out}))


if __name__ == "__main__":
    main()
