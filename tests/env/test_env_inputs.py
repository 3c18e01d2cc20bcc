"""Hostile inputs to the environments: refused with a clear
error before anything changes, never a crash, a wedge or a silent truncation."""
from __future__ import annotations

import json
import os
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from numpy.testing import assert_array_equal

import _proc
import mjfast
from mjfast.env import VecTables, decisions
from mjfast.env import _decisions as dec

# ------------------------------------------------------------------------------------------
# step(out=...) checks every entry before anything happens


def _pair(**kw):
    """Two tables of the same seed, reset: one to misuse, one to compare with."""
    a, b = VecTables(3, seed=7, threads=1, **kw), VecTables(3, seed=7, threads=1, **kw)
    a.reset()
    b.reset()
    return a, b


def _buffers(env):
    obs = env._obs_dict(fresh=True)
    return {"observation": obs["observation"], "scalars": obs["scalars"], "action_mask": obs["action_mask"],
            "rewards": np.zeros((env.n_tables, 4), np.float32)}


def _bad_out(env, key, how):
    out = _buffers(env)
    arr = out[key]
    if how == "read-only":
        arr.flags.writeable = False
    elif how == "shape":
        arr = arr[:-1].copy()
    elif how == "dtype":
        arr = arr.astype(np.float64)
    elif how == "non-contiguous":
        arr = np.repeat(arr, 2, axis=-1)[..., ::2]
    elif how == "list":
        arr = arr.tolist()
    out[key] = arr
    return out


@pytest.mark.parametrize("how", ["read-only", "shape", "dtype", "non-contiguous", "list"])
@pytest.mark.parametrize("key", ["observation", "scalars", "action_mask", "rewards"])
@pytest.mark.parametrize("dtype", ["uint8", "float32"])
def test_a_bad_out_buffer_steps_nothing_and_is_not_kept(key, how, dtype):
    """Failed before: a read-only buffer was adopted, then every step moved the tables and
    raised (the actions consumed invisibly); a float32 observation buffer failed after the step."""
    env, twin = _pair(dtype=dtype)
    acts = env.expert_actions("greedy")
    good = {k: v.copy() for k, v in _buffers(env).items()}       # valid entries alongside the bad one
    out = _bad_out(env, key, how)
    out = {k: (out[k] if k == key else good[k]) for k in out}
    with pytest.raises((ValueError, TypeError), match=f"out\\[{key!r}\\]"):
        env.step(acts, out=out)
    for v in good.values():                                       # nothing adopted
        assert not any(np.shares_memory(v, getattr(env, a)) for a in ("_obs", "_obs_f", "_scal", "_mask", "_rew")
                       if getattr(env, a) is not None)
    # nothing stepped: the next step plays the twin's first step, and the environment is not wedged
    for _ in range(5):
        r1, r2 = env.step(acts), twin.step(acts)
        for x, y in zip(r1[:4], r2[:4]):
            if isinstance(x, dict):
                for k in x:
                    assert_array_equal(x[k], y[k])
            else:
                assert_array_equal(x, y)
        acts = env.expert_actions("greedy")


def test_out_buffers_sharing_memory_or_unknown_keys_are_refused():
    env, _ = _pair()
    acts = env.expert_actions("greedy")
    buf = np.zeros(3 * env.n_actions, np.uint8)
    shared = {"action_mask": buf.reshape(3, env.n_actions), "rewards": buf[:48].view(np.float32).reshape(3, 4)}
    with pytest.raises(ValueError, match="share memory"):
        env.step(acts, out=shared)
    with pytest.raises(ValueError, match="unknown keys 'obs'"):
        env.step(acts, out={"obs": np.zeros(3)})
    with pytest.raises(TypeError, match="out must be a dict"):
        env.step(acts, out=[np.zeros(3)])


def test_good_out_buffers_are_written_from_then_on():
    env, twin = _pair()
    out = {k: np.zeros_like(v) for k, v in _buffers(env).items()}
    acts = env.expert_actions("greedy")
    obs, rew, *_ = env.step(acts, out=out)
    obs2, rew2, *_ = twin.step(acts)
    assert np.shares_memory(obs["observation"], out["observation"])
    assert_array_equal(out["rewards"], rew)
    for k in obs:
        assert_array_equal(obs[k], obs2[k])
    assert_array_equal(rew, rew2)


# ------------------------------------------------------------------------------------------
# actions and seats are integers


def test_single_table_fronts_refuse_non_integer_actions():
    """Failed before: step(5.9) and step("5") played action 5."""
    pytest.importorskip("gymnasium")
    from mjfast.env.gym import MahjongEnv

    env = MahjongEnv(rules="classical", illegal="raise")
    obs, _ = env.reset(seed=1)
    a = int(np.flatnonzero(obs["action_mask"])[0])
    for bad in (a + 0.9, str(a), True, None):
        with pytest.raises(TypeError, match="integer action id"):
            env.step(bad)
    with pytest.raises(ValueError, match="one action id"):
        env.step([a])
    obs2, *_ = env.step(np.int16(a))                   # numpy integers are action ids
    assert obs2["observation"].shape == obs["observation"].shape


def test_aec_refuses_non_integer_actions():
    pytest.importorskip("pettingzoo")
    from mjfast.env import MahjongAEC

    env = MahjongAEC(rules="classical")
    env.reset(seed=1)
    a = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    for bad in (a + 0.5, str(a)):
        with pytest.raises(TypeError, match="integer action id"):
            env.step(bad)
    env.step(np.int64(a))


def test_learner_seats_must_be_integers():
    """Failed before: learners=[0.5] seated a learner at 0."""
    for bad in ([0.5], [1, 2.0], ["1"], [True]):
        with pytest.raises(TypeError, match="learners must be seats 0-3"):
            VecTables(2, learners=bad)
    assert VecTables(2, learners=[np.int64(1), 3]).learners == (1, 3)


# ------------------------------------------------------------------------------------------
# memory estimated before allocating


def _child(code: str) -> str:
    env = dict(os.environ)
    here = str(Path(mjfast.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (here, env.get("PYTHONPATH")) if p)
    out = _proc.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=240, env=env)
    assert out.returncode == 0, f"exit status {out.returncode}:\n{out.stderr[-3000:]}"
    return out.stdout


LIMIT = """
import resource
resource.setrlimit(resource.RLIMIT_AS, ({gib} << 30, {gib} << 30))   # (a failed test cannot exhaust the machine)
from mjfast.env import VecTables
try:
    VecTables({n})
except (ValueError, MemoryError) as exc:
    print(type(exc).__name__, "|", exc)
else:
    print("allocated")
"""


def test_too_many_tables_are_refused_with_the_bytes_needed():
    """Failed before: no estimate; the allocation was attempted (here under a 4 GiB address-space
    limit: a MemoryError with no message)."""
    out = _child(LIMIT.format(gib=4, n=2**26))
    kind, msg = out.split("|", 1)
    assert kind.strip() == "ValueError", out
    assert "VecTables(67,108,864) would need about" in msg and "bytes" in msg and "per table" in msg


def test_a_failed_allocation_says_what_and_how_much():
    """Under an address-space limit below what 10**6 tables need (and above what the estimate
    refuses on this machine), the MemoryError names the tables and the bytes."""
    out = _child(LIMIT.format(gib=3, n=10**6))
    kind, msg = out.split("|", 1)
    assert kind.strip() in ("MemoryError", "ValueError"), out
    assert "VecTables(1,000,000)" in msg and "bytes" in msg, out


def test_the_estimate_covers_the_arrays():
    env = VecTables(64, rules="american", card=mjfast.card.toy_card(), derived=True, dtype="float32")
    from mjfast.env import _memory
    from mjfast.game.batch import core_class

    per = _memory.table_bytes(core_class("american"), env.rules.kernel(), env.observation_shape[0], 36,
                              env.scalars_shape[0], env.n_actions, True)
    arrays = sum(v.nbytes for v in vars(env).values() if isinstance(v, np.ndarray)) + env.core.out.nbytes
    assert arrays < 64 * per


# ------------------------------------------------------------------------------------------
# decisions(log) refuses malformed events


@pytest.fixture(scope="module")
def log_lines():
    return mjfast.replay(3, 5).to_jsonl().splitlines()


def _with(lines, i, change):
    ev = json.loads(lines[i])
    change(ev)
    return lines[:i] + [json.dumps(ev)] + lines[i + 1:]


def _set(k, v):
    return lambda e: e.__setitem__(k, v)


@pytest.mark.parametrize("case, match", [
    ("appended", r"event 534 \(score\) comes after the end"),
    ("unknown type", r"event 4: unknown event type 'bogus'"),
    ("missing field", r"event 4 \(deal\): missing field 'id'"),
    ("missing seat", r"event 4 \(deal\): missing field 'seat'"),
    ("dice 2.5", r"event 0 \(hand\): 'dice' must be two integers; got \[2.5, 8\]"),
    ("dice 7.0", r"event 0 \(hand\): 'dice' must be two integers"),
    ("float id", r"event 4 \(deal\): 'id' must be an integer"),
    ("bool delta", r"event 533 \(score\): 'delta' must be an integer"),
    ("edited last score", r"event 533 \(score\) differs from the game"),
    ("cut", r"the log ends at event 533"),
    ("not an object", r"JSON lines of objects"),
    ("deep JSON", r"nested too deeply"),
])
def test_decisions_refuses_malformed_logs(log_lines, case, match):
    """Failed before: appended events and an edited last score were accepted, an unknown type or
    a missing field raised a bare KeyError, 10**5-deep JSON RecursionError."""
    L = log_lines
    bad = {
        "appended": L + [L[-1]],
        "unknown type": _with(L, 5, _set("type", "bogus")),
        "missing field": _with(L, 5, lambda e: e.pop("id")),
        "missing seat": _with(L, 5, lambda e: e.pop("seat")),
        "dice 2.5": _with(L, 1, _set("dice", [2.5, 8])),
        "dice 7.0": _with(L, 1, _set("dice", [7.0, 8])),
        "float id": _with(L, 5, lambda e: e.__setitem__("id", e["id"] + 0.0)),
        "bool delta": _with(L, len(L) - 1, _set("delta", False)),
        "edited last score": _with(L, len(L) - 1, lambda e: e.__setitem__("delta", e["delta"] + 1)),
        "cut": L[:-1],
        "not an object": L[:5] + ["[1, 2]"] + L[6:],
        "deep JSON": L[:3] + ["[" * 100000 + "]" * 100000] + L[3:],
    }[case]
    with pytest.raises(ValueError, match=match):
        decisions("\n".join(bad))


@pytest.mark.parametrize("dice", [[7.5, 8], [7.0, 8], [True, 8]])
def test_decisions_refuses_header_dice_that_are_not_integers(log_lines, dice):
    """Failed before: header dice [7.5, 8] were read as [7, 8], the game replayed as logged."""
    header = json.loads(log_lines[0])
    header["dice"][0] = dice
    with pytest.raises(ValueError, match="the header's 'dice' must be integer totals"):
        decisions("\n".join([json.dumps(header)] + log_lines[1:]))


def test_decisions_from_an_intact_log_still_reads():
    d = decisions(mjfast.replay(3, 5).to_jsonl())
    assert len(d) > 100


# ------------------------------------------------------------------------------------------
# decisions(games) grows its rows as they come


def test_decisions_does_not_reserve_rows_per_game_up_front():
    """Failed before: 1,000 rows per game were reserved (decisions(30000) asked for 45.6 GiB);
    the arrays now stay within twice the rows the games yield."""
    tracemalloc.start()
    try:
        d = decisions(20, seed=1, progress=False, n_tables=4)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    row = sum(a.nbytes for a in d.arrays().values()) / len(d)
    assert len(d) < 20 * 400
    assert peak < 3 * len(d) * row + (8 << 20), (peak, len(d), row)


@pytest.mark.parametrize("rules", ["classical", "american"])
def test_decisions_do_not_depend_on_how_the_rows_grow(rules, monkeypatch):
    base = decisions(12, rules=rules, seed=4, progress=False, n_tables=5).arrays()
    monkeypatch.setattr(dec, "FIRST_ROWS", 16)          # many growth steps
    small = decisions(12, rules=rules, seed=4, progress=False, n_tables=5).arrays()
    for k in base:
        assert_array_equal(base[k], small[k])
