"""Simulation results keep their text byte for byte: ``to_dict()`` JSON (key order included),
``table()``, ``repr``, HTML, ``to_pandas()`` and the statistics methods of every rule set (and
with fans, a card, duplicate runs, merged runs, comparisons and pass effects), against the text
recorded from main before results moved to composition (``tests/data/results_text``).

The golden hashes compare ``to_dict`` with sorted keys; this file also fixes the order of the
keys and every rendering."""
from __future__ import annotations

import importlib.util
import json
import os

import pytest

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "results_text")
pytest.importorskip("pandas")


def _recorder():
    spec = importlib.util.spec_from_file_location("results_text_record", os.path.join(HERE, "record.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def computed():
    return _recorder().compute()


with open(os.path.join(HERE, "expected.json"), encoding="utf-8") as _f:
    EXPECTED = json.load(_f)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_result_text_unchanged(computed, name):
    got, want = computed[name], EXPECTED[name]
    assert sorted(got) == sorted(want), f"{name}: the recorded forms differ"
    for form in sorted(want):
        assert got[form] == want[form], (
            f"{name}: {form} differs from main's (hashed forms: re-run tests/data/results_text/record.py on "
            "main and here, and diff the texts)")


def test_every_rule_set_is_covered():
    import mjfast

    for rules in mjfast.rules.names():
        assert any(name.startswith(rules) for name in EXPECTED)


_MERGE_ORDER = """
import json, sys
import mjfast
kw = dict(policies=["greedy_blind", "random", "defensive", "greedy"], threads=1, progress=False)
a = mjfast.simulate(4, seed=1, **kw)
b = mjfast.simulate(4, seed=2, **kw)
print(json.dumps([list(a.to_dict()["policies"]), list((a + b).to_dict()["policies"]),
                  list((b + a).to_dict()["policies"])]))
"""


def test_merged_results_list_policies_in_one_order_whatever_the_hash_seed():
    """``a + b`` lists the policies in a's order (then any of b's that a lacks): its JSON text
    does not depend on the process's string hashing (it was a set union, ordered by
    PYTHONHASHSEED)."""
    import sys

    from _proc import run

    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    outs = set()
    for hash_seed in range(6):
        p = run([sys.executable, "-c", _MERGE_ORDER], timeout=120, capture_output=True, text=True,
                env=dict(env, PYTHONHASHSEED=str(hash_seed)))
        assert p.returncode == 0, p.stderr
        outs.add(p.stdout)
    assert len(outs) == 1
    one, ab, ba = json.loads(outs.pop())
    assert one == ab == ba == sorted(one) and len(one) == 4
