"""Fuzz cases that reach the compiled kernels (arrays of any dtype, shape, order, values).

Not collected by the default run: tests/test_fuzz_api.py runs this file in a subprocess, so
a crash of the interpreter fails that test instead of killing the suite. Every call must
return a correct answer (checked against the pure-Python reference when the input is a valid
hand) or raise ValueError/TypeError with a message; nothing else is allowed.
"""
from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import mjfast
from mjfast import tiles, wall
from oracles import reference as _reference

FUZZ = settings(max_examples=int(os.environ.get("MJFAST_FUZZ_EXAMPLES", "150")), deadline=None, suppress_health_check=list(HealthCheck),
                derandomize=not os.environ.get("MJFAST_FUZZ_RANDOM"))
DTYPES = ["u1", "i1", "u2", "i2", "u4", "i4", "u8", "i8", ">u4", ">i8", "f8", "f4", "?", "c16", "U2", "O"]
SHAPES = [(34,), (1, 34), (3, 34), (0, 34), (4,), (2, 4), (5,), (2, 5), (43,), (2, 43), (), (33,), (35,),
          (2, 3), (1, 34, 1), (34, 1), (0,), (2, 0)]


def _elements(dtype):
    kind = np.dtype(dtype).kind
    if kind in "iu":
        info = np.iinfo(np.dtype(dtype))
        return st.one_of(st.integers(0, 4), st.integers(int(info.min), int(info.max)))
    if kind == "f":
        return st.one_of(st.integers(0, 4).map(float), st.floats(allow_nan=True, allow_infinity=True, width=32))
    return None


@st.composite
def arrays(draw):
    dtype = draw(st.sampled_from(DTYPES))
    shape = draw(st.sampled_from(SHAPES))
    if dtype == "O":
        return np.array(draw(st.lists(st.integers(0, 4), min_size=34, max_size=34)), dtype=object)
    a = draw(hnp.arrays(np.dtype(dtype), shape, elements=_elements(dtype)))
    layout = draw(st.sampled_from(["C", "F", "strided", "readonly", "list"]))
    if layout == "F":
        a = np.asfortranarray(a)
    elif layout == "strided" and a.ndim >= 1:
        big = np.repeat(a, 2, axis=-1)
        a = big[..., ::2]  # same values, non-contiguous
    elif layout == "readonly":
        a = a.copy()
        a.setflags(write=False)
    elif layout == "list":
        return a.tolist()
    return a


@st.composite
def hand_like(draw):
    """Mostly valid count vectors / batches (so that success paths are exercised), some not."""
    n = draw(st.integers(0, 3))
    size = draw(st.sampled_from([0, 1, 2, 4, 5, 7, 8, 10, 11, 13, 14, 3, 6, 15, 17]))
    rows = []
    for _ in range(max(n, 1)):
        c = np.zeros(34, np.int64)
        for k in draw(st.lists(st.integers(0, 33), min_size=size, max_size=size)):
            c[k] += 1
        rows.append(c)
    arr = np.array(rows)
    if draw(st.booleans()):
        arr[0, draw(st.integers(0, 33))] = draw(st.integers(-3, 300))
    dtype = draw(st.sampled_from(["u1", "i8", "i2", "u4", "i4"]))
    arr = arr.astype(dtype) if (dtype != "u1" or (arr.min() >= 0 and arr.max() < 256)) else arr
    if draw(st.booleans()):
        arr = arr[0]
    if draw(st.booleans()) and arr.ndim == 2:
        arr = np.asfortranarray(arr)
    return arr


def _valid_counts(a):
    """The input as a (n, 34) int array if it is a valid batch of 34-count hands, else None."""
    try:
        arr = np.asarray(a)
    except Exception:
        return None
    if arr.dtype.kind not in "iu" or arr.ndim not in (1, 2) or arr.shape[-1] != 34:
        return None
    arr = arr.reshape(-1, 34).astype(np.int64)
    if arr.size and (arr.min() < 0 or arr.max() > 4):
        return None
    return arr


def outcome(fn, *args, **kw):
    """Call; return ("ok", value) or ("error", exc) for ValueError/TypeError with a message."""
    try:
        return "ok", fn(*args, **kw)
    except (ValueError, TypeError) as exc:
        assert str(exc).strip(), f"{type(exc).__name__} without a message from {fn.__name__}"
        return "error", exc


@given(arrays() | hand_like())
@FUZZ
def test_hand_functions_on_any_array(a):
    counts = _valid_counts(a)
    kind, res = outcome(mjfast.shanten, a)
    if kind == "ok" and counts is not None:
        got = np.atleast_1d(res)
        for row, s in zip(counts[:3], got[:3]):
            assert s == _reference.shanten(row), (row, s)
    kind, res = outcome(mjfast.is_winning, a)
    if kind == "ok" and counts is not None:
        got = np.atleast_1d(res)
        for row, w in zip(counts[:3], got[:3]):
            assert bool(w) == _reference.is_winning(row)
    for fn in (mjfast.waits, mjfast.effective_tiles, mjfast.decompose):
        kind, res = outcome(fn, a)
        if kind == "ok" and fn is mjfast.waits and counts is not None and len(counts):
            first = res if np.ndim(a) == 1 else res[0]      # a batch: one list of waits per hand
            assert first == [tiles.tile_name(k) for k in _reference.waits(counts[0])]
    for form in ("standard", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight"):
        kind, res = outcome(mjfast.shanten, a, form=form, rules="mcr")
        if kind == "ok" and counts is not None:
            for row, s in zip(counts[:2], np.atleast_1d(res)[:2]):
                assert s == _reference.shanten(row, form=form, rules="mcr")


@given(arrays() | hand_like())
@FUZZ
def test_pack_unpack_on_any_array(a):
    kind, packed = outcome(mjfast.pack, a)
    if kind == "ok":
        back = mjfast.unpack(packed)
        assert np.array_equal(back.astype(np.int64), np.asarray(a).astype(np.int64))
    kind, res = outcome(mjfast.unpack, a)
    if kind == "ok":
        assert res.dtype == np.uint8 and res.shape[-1] in (34, 43)
        assert np.array_equal(mjfast.pack(res).astype(np.int64), np.asarray(a).astype(np.int64))
    kind, fmt = outcome(mjfast.format_hand, a)
    if kind == "ok" and np.shape(a) == (34,):
        assert np.array_equal(mjfast.parse_hand(fmt, max_tiles=None), np.asarray(a).astype(np.uint8))


@given(arrays(), st.sampled_from([136, 144, 152, 0, -1, 10**20]), arrays())
@FUZZ
def test_wall_functions_on_any_array(a, n_tiles, dice):
    outcome(wall.tile_kind, a)
    outcome(wall.tile_kind, a, n_tiles=n_tiles)
    outcome(wall.build_walls, a)
    outcome(wall.deal_positions, n_tiles, dice)
    outcome(wall.deal_from_wall, a, dice)


@given(arrays(), st.one_of(st.none(), arrays()))
@FUZZ
def test_play_walls_on_any_array(walls, dice):
    outcome(mjfast.play_walls, walls, dice)


@given(st.integers(0, 2**64), st.sampled_from([np.uint8, np.uint32, np.int64]))
@FUZZ
def test_packed_words_any_bits(word, dtype):
    """Packed uint32 words with arbitrary bits: a clear error or the right answer."""
    words = np.array([[word % 2**32, (word >> 3) % 2**32, (word >> 7) % 2**32, (word >> 11) % 2**21]], np.uint64)
    arr = words.astype(dtype)
    kind, res = outcome(mjfast.shanten, arr)
    if kind == "ok":
        assert np.asarray(arr).dtype == np.uint32 or True
        counts = mjfast.unpack(arr.astype(np.uint32))
        assert res[0] == _reference.shanten(counts[0])


@pytest.mark.parametrize("threads", [None, 1, 2, -1])
def test_batch_layouts_same_answer(threads):
    """C, Fortran, strided and read-only views of one batch give the same answers."""
    from mjfast.hands._random import random_hands

    h = random_hands(200, 14, seed=3)
    want = mjfast.shanten(h, threads=threads)
    for v in (np.asfortranarray(h), np.repeat(h, 2, axis=1)[:, ::2], h.astype(">i8"), h.astype(np.int16)):
        assert np.array_equal(mjfast.shanten(v, threads=threads), want)
    ro = h.copy()
    ro.setflags(write=False)
    assert np.array_equal(mjfast.shanten(ro, threads=threads), want)
    p = mjfast.pack(h)
    assert np.array_equal(mjfast.shanten(np.asfortranarray(p), threads=threads), want)
    assert np.array_equal(mjfast.shanten(np.repeat(p, 2, axis=1)[:, ::2], threads=threads), want)


ANSWERS = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(), st.text(max_size=12),
                    st.sampled_from(["win", "pung", "kong", "chow:123m", "1m", "5z", "concealed_kong:1m", "added_kong:7z"]),
                    st.just(np.int64(3)), st.just(object()), st.lists(st.integers(), max_size=2))


class Erratic(mjfast.Policy):
    """Answers each question with a value from hypothesis, then plays legally."""

    name = "erratic"

    def __init__(self, discard, claim, own, ready):
        self.answers = {"discard": discard, "claim": claim, "own": own, "ready": ready}

    def discard(self, view):
        return self.answers["discard"]

    def claim(self, view, tile, options):
        return self.answers["claim"]

    def own_turn(self, view, options):
        return self.answers["own"]

    def declare_ready(self, view):
        return self.answers["ready"]


@given(ANSWERS, ANSWERS, ANSWERS, ANSWERS, st.sampled_from(["classical", "basic", "mcr"]))
@settings(max_examples=int(os.environ.get("MJFAST_FUZZ_EXAMPLES", "150")) // 3, deadline=None,
          suppress_health_check=list(HealthCheck), derandomize=not os.environ.get("MJFAST_FUZZ_RANDOM"))
def test_python_policy_any_answer(discard, claim, own, ready, rules):
    """A policy answering anything: a finished game or IllegalActionError naming seat and turn."""
    pols = [Erratic(discard, claim, own, ready), "greedy", "random", "greedy"]
    try:
        res = mjfast.simulate(2, rules=rules, policies=pols, seed=1, progress=False)
    except mjfast.IllegalActionError as exc:
        assert "seat 0 (erratic)" in str(exc) and "turn" in str(exc)
    else:
        assert res.games == 2 and int(res.points.sum()) == 0


AM_SHAPES = [(43,), (1, 43), (3, 43), (0, 43), (5,), (2, 5), (4,), (34,), (2, 34), (42,), (44,), (), (43, 1)]


@st.composite
def american_like(draw):
    """Arrays for rules="american": mostly valid 13/14-tile (43,) / (N, 43) counts, some not."""
    if draw(st.booleans()):
        dtype = draw(st.sampled_from(DTYPES))
        if dtype == "O":
            return np.array(draw(st.lists(st.integers(0, 4), min_size=43, max_size=43)), dtype=object)
        return draw(hnp.arrays(np.dtype(dtype), draw(st.sampled_from(AM_SHAPES)), elements=_elements(dtype)))
    rows = []
    for _ in range(draw(st.integers(1, 3))):
        c = np.zeros(43, np.int64)
        size = draw(st.sampled_from([13, 14, 14, 12, 15]))
        kinds = draw(st.lists(st.integers(0, 33), min_size=4, max_size=4, unique=True))
        pool = [k for k in kinds for _ in range(4)] + list(range(34, 42)) + [42] * 8
        for k in draw(st.permutations(pool))[:size]:
            c[k] += 1
        rows.append(c)
    arr = np.array(rows)
    if draw(st.integers(0, 4)) == 0:
        arr[0, draw(st.integers(0, 42))] = draw(st.integers(-3, 300))
    arr = arr.astype(draw(st.sampled_from(["u1", "i8", "i2", "u4"]))) if arr.min() >= 0 and arr.max() < 256 else arr
    return arr[0] if draw(st.booleans()) else arr


def _valid_american(a):
    try:
        arr = np.asarray(a)
    except Exception:
        return None
    if arr.dtype.kind not in "iu" or arr.ndim not in (1, 2) or arr.shape[-1] != 43:
        return None
    return arr.reshape(-1, 43).astype(np.int64)


@given(american_like(), st.one_of(st.none(), st.integers(-1, 17)))
@FUZZ
def test_american_hand_functions_on_any_array(a, jokers):
    counts = _valid_american(a)
    kind, res = outcome(mjfast.shanten, a, rules="american")
    if kind == "ok" and counts is not None:
        for row, s in zip(counts[:3], np.atleast_1d(res)[:3]):
            assert s == _reference.american_shanten(row), (row, s)
    kind, res = outcome(mjfast.is_winning, a, rules="american")
    if kind == "ok" and counts is not None:
        for row, w in zip(counts[:3], np.atleast_1d(res)[:3]):
            assert bool(w) == _reference.american_is_winning(row)
    kind, res = outcome(mjfast.waits, a, rules="american", jokers=jokers)
    if kind == "ok" and counts is not None and len(counts):
        nj = 8 if jokers is None else jokers
        first = res if np.ndim(a) == 1 else res[0]          # a batch: one list of waits per hand
        assert first == [tiles.tile_name(k) for k in _reference.american_waits(counts[0], nj)]
    kind, res = outcome(mjfast.effective_tiles, a, rules="american", jokers=jokers)
    if kind == "ok" and counts is not None and len(counts) and counts[0].sum() == 13:
        nj = 8 if jokers is None else jokers
        res = res if np.ndim(a) == 1 else res[0]
        assert set(res.tiles) == {tiles.tile_name(k) for k in _reference.american_effective_tiles(counts[0], None, nj)}
    outcome(mjfast.pack, a)


@st.composite
def american_walls(draw):
    """Mostly valid American walls (permutations of 144 + jokers ids), some broken."""
    jokers = draw(st.integers(0, 10))
    n = 144 + jokers
    hands = draw(st.integers(1, 2))
    walls = np.array([draw(st.permutations(range(n))) for _ in range(hands)])
    how = draw(st.integers(0, 6))
    if how == 1:
        walls[0, draw(st.integers(0, n - 1))] = draw(st.integers(-5, 400))
    elif how == 2:
        walls = walls[:, :-1]
    elif how == 3:
        walls = walls.astype(draw(st.sampled_from(["u1", "i2", "f8", ">i4", "u8"])))
    elif how == 4:
        walls = np.asfortranarray(walls)
    return walls, jokers


@given(american_walls(), st.one_of(st.just("same"), st.just("same"), st.integers(0, 10), st.just(None)),
       st.sampled_from(["greedy", "random"]))
@settings(max_examples=int(os.environ.get("MJFAST_FUZZ_EXAMPLES", "150")) // 3, deadline=None,
          suppress_health_check=list(HealthCheck), derandomize=not os.environ.get("MJFAST_FUZZ_RANDOM"))
def test_american_play_walls_on_any_array(walls_jokers, jokers, policy):
    walls, wall_jokers = walls_jokers
    if jokers == "same":
        jokers = wall_jokers
    kind, log = outcome(mjfast.play_walls, walls, rules="american", jokers=jokers, policies=policy)
    if kind == "ok":
        scores = [e for e in log.events if e["type"] == "score"]
        assert sum(e["delta"] for e in scores) == 0
    outcome(mjfast.play_walls, walls, np.full((len(walls), 2), 2), rules="american")
