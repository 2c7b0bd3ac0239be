"""The Ray example on a local Ray instance (ray.init(num_cpus=2)): a few games, every
phase replayed through `arbiter adjudicate --batch` to the same answer."""

import importlib
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT

ray = pytest.importorskip("ray")


EXAMPLES = ROOT / "examples" / "python"


def load_example():
    """Import the example as the module `ray_selfplay`, importable by the Ray workers too
    (they find it on PYTHONPATH, inherited from this process)."""
    sys.path.insert(0, str(EXAMPLES))
    paths = [str(EXAMPLES)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    os.environ["PYTHONPATH"] = os.pathsep.join(paths)
    return importlib.import_module("ray_selfplay")


def test_ray_selfplay_replays_through_the_cli(cli, tmp_path):
    example = load_example()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        lines = example.run(games=4, seed=11, last_year=1904, per_task=1)
    finally:
        ray.shutdown()
    parsed = [json.loads(l) for l in lines]
    games = {l["id"].split("-")[0] for l in parsed}
    assert games == {"g11", "g12", "g13", "g14"}
    # The same games on one process give the same lines: Ray only spread them.
    assert lines == [l for s in range(11, 15) for l in example.play_game(s, 1904)]
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(lines) + "\n")
    out = subprocess.run(
        [cli, "adjudicate", "--batch", "--jobs", "2", str(path)], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    answers = [json.loads(a) for a in out.stdout.splitlines()]
    assert len(answers) == len(parsed)
    for line, answer in zip(parsed, answers):
        assert answer.pop("id") == line["id"]
        assert answer == line["expect"], line["id"]
