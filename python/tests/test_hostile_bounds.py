"""Hostile input at the Python door, issue 28 items 9 and 12 (theme BOUNDS): a thread
count past the bound is taken as the bound (docs/CLI.md, "Bounds"), never a crash."""

import pytest

import arbiter

LINE = {
    "id": 1,
    "phase": "Spring 1901",
    "units": {"france": ["A Par"]},
    "orders": {"france": ["A Par - Bur"]},
}


def test_a_huge_job_count_is_capped_not_a_crash():
    lines = [dict(LINE, id=i) for i in range(300)]
    want = arbiter.batch(lines, jobs=1)
    # Once: a thread started per job, until the system refused one (a panic).
    assert arbiter.batch(lines, jobs=1_000_000) == want
    assert [a["id"] for a in want] == list(range(300))


def test_a_job_count_past_any_integer_is_an_error():
    with pytest.raises((OverflowError, ValueError, TypeError)):
        arbiter.batch([LINE], jobs=10**40)
