"""Hashes of full results through the public API stay what tests/golden/hashes.json records.

The guard that a refactor keeps behaviour bit for bit: simulate for every rule set and table
(1 and 2 threads, duplicate), replay logs, deals and deal statistics, exact deal odds, the hand
functions on fixed hand sets for every form and rule set, analyze and win-by-turn (see
tests/golden/record.py). A change that alters results on purpose re-records the hashes
(``python tests/golden/record.py --slow --write``) and its commit says which changed and why.
"""
from __future__ import annotations

import json
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "golden"))
import record  # noqa: E402


def _check(tier: str):
    stored = json.load(open(record.HASHES))
    got = record.compute(tier)
    missing = sorted(set(got) - set(stored))
    changed = sorted(k for k in got if k in stored and stored[k] != got[k])
    assert not missing, f"no recorded hash for {missing[:10]}"
    assert not changed, f"{len(changed)} of {len(got)} results changed: {changed[:20]}"
    return got


def test_results_match_the_recorded_hashes():
    got = _check("default")
    assert len(got) > 350


@pytest.mark.slow
def test_slow_results_match_the_recorded_hashes():
    got = _check("slow")
    assert "exact/mcr/14" in got and "exact_table/classical/14" in got
