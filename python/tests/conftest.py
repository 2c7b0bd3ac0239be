"""Shared fixtures: the repository root and the `arbiter` CLI the tests compare with.

The CLI is $ARBITER_CLI, else target/release/arbiter, else target/debug/arbiter (build
it with `cargo build`)."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def cli_path():
    env = os.environ.get("ARBITER_CLI")
    if env:
        return env
    for kind in ("release", "debug"):
        p = ROOT / "target" / kind / "arbiter"
        if p.exists():
            return str(p)
    return None


@pytest.fixture(scope="session")
def root():
    return ROOT


@pytest.fixture(scope="session")
def cli():
    p = cli_path()
    if p is None:
        pytest.fail("no arbiter binary: run `cargo build` (or set ARBITER_CLI)")
    return p


def run_cli_batch(cli, lines, jobs=1):
    """Answer batch lines (dicts or JSON texts) with `arbiter adjudicate --batch`."""
    text = "".join((l if isinstance(l, str) else json.dumps(l)) + "\n" for l in lines)
    out = subprocess.run(
        [cli, "adjudicate", "--batch", "--jobs", str(jobs), "-"],
        input=text.encode(),
        capture_output=True,
    )
    assert out.returncode in (0, 1), out.stderr.decode()
    return [json.loads(a) for a in out.stdout.decode().splitlines()]
