"""Bad input gives a clear ValueError / TypeError naming the problem."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mjfast


@pytest.mark.parametrize("fn", [mjfast.shanten, mjfast.is_winning])
def test_bad_arrays(fn):
    good = mjfast.parse_hand("123m456p789s1122z")
    with pytest.raises(TypeError, match="integer"):
        fn(good.astype(float))
    with pytest.raises(TypeError, match="boolean"):
        fn(good.astype(bool))
    with pytest.raises(ValueError, match="34 counts"):
        fn(np.zeros(33, np.uint8))
    with pytest.raises(ValueError, match="shape"):
        fn(np.zeros((2, 2, 33), np.uint8))     # (any leading batch shape is accepted: (2, 2, 34) is a batch)
    bad = good.astype(np.int64)
    bad[0] = 5
    with pytest.raises(ValueError, match="5 copies of 1m"):
        fn(bad)
    bad[0] = -1
    with pytest.raises(ValueError, match="-1 copies of 1m"):
        fn(bad)
    u8 = good.copy()
    u8[33] = 200
    with pytest.raises(ValueError, match="200 copies of 7z"):
        fn(u8)
    batch = np.stack([good, good, good])
    batch[2, 0] = 0  # 12 tiles
    with pytest.raises(ValueError, match="hand 2 has 12 tiles"):
        fn(batch)
    with pytest.raises(ValueError, match="has 0 tiles"):
        fn(np.zeros(34, np.uint8))
    with pytest.raises(TypeError, match="uint32"):
        fn(np.zeros((3, 4), np.int64))
    with pytest.raises(TypeError):
        fn(b"123m")
    with pytest.raises(TypeError):
        fn(None)


def test_bad_packed():
    p = mjfast.pack(mjfast.parse_hand("123m456p789s1122z"))[None, :].copy()
    q = p.copy()
    q[0, 0] |= 7  # field of 1m = 7
    with pytest.raises(ValueError, match="above 4"):
        mjfast.shanten(q)
    q = p.copy()
    q[0, 3] |= 1 << 25
    with pytest.raises(ValueError, match="outside the 3-bit"):
        mjfast.shanten(q)


def test_bad_names_and_sizes():
    h = "123m456p789s1122z"
    with pytest.raises(ValueError, match="unknown form 'chiitoi'"):
        mjfast.shanten(h, form="chiitoi")
    with pytest.raises(ValueError, match="unknown rules 'riichi'"):
        mjfast.shanten(h, rules="riichi")
    with pytest.raises(ValueError, match="unknown form 'standard' for rules='american'"):
        mjfast.shanten(h, rules="american", form="standard")
    with pytest.raises(ValueError, match="needs rules='american'"):
        mjfast.shanten(h, form="beginner")
    with pytest.raises(TypeError, match="form must be a str"):
        mjfast.shanten(h, form=1)
    with pytest.raises(ValueError, match="allowed sizes here: 13, 14"):
        mjfast.shanten("123m456p789s11z", form="seven_pairs")
    with pytest.raises(ValueError, match="threads"):
        mjfast.shanten(h, threads=0)
    with pytest.raises(TypeError, match="threads"):
        mjfast.shanten(h, threads=1.5)
    with pytest.raises(ValueError, match="5 copies of 1z"):
        mjfast.shanten("11111z")
    with pytest.raises(ValueError, match="bonus tiles"):
        mjfast.shanten("123m456p789s1122zf1")
    with pytest.raises(ValueError, match="allowed sizes"):
        mjfast.waits("123m456p789s11222z")
    with pytest.raises(ValueError, match="allowed sizes"):
        mjfast.decompose("123m456p789s1122z")
    with pytest.raises(ValueError, match="copies; only 4 exist"):
        mjfast.effective_tiles("123m456p789s1122z", visible="111z")
    with pytest.raises(ValueError, match="hand 0 has 0 tiles"):   # a batch: one list of waits per hand
        mjfast.waits(np.zeros((2, 34), np.uint8))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30))
def test_arbitrary_text_never_crashes(text):
    for fn in (mjfast.shanten, mjfast.is_winning):
        try:
            r = fn(text)
        except ValueError:
            continue
        assert isinstance(r, (int, bool))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-3, 8), min_size=34, max_size=34))
def test_arbitrary_counts_valid_or_valueerror(counts):
    arr = np.array(counts)
    valid = arr.min() >= 0 and arr.max() <= 4 and 1 <= arr.sum() <= 14 and arr.sum() % 3 != 0
    if valid:
        assert -1 <= mjfast.shanten(arr) <= 8
    else:
        with pytest.raises(ValueError):
            mjfast.shanten(arr)


@pytest.mark.parametrize("total", [64, 65, 66, 68, 71, 77, 78, 136])
def test_hand_totals_above_63_rejected(total):
    """Totals of 64+ tiles were once checked with a C shift by >= 64 (undefined: on x86 a
    68-tile hand passed as a 4-tile one and shanten returned -1)."""
    counts = np.zeros(34, np.uint8)
    left = total
    for k in range(34):
        counts[k] = min(4, left)
        left -= counts[k]
    for fn in (mjfast.shanten, mjfast.is_winning):
        with pytest.raises(ValueError, match=f"has {total} tiles"):
            fn(counts)
        with pytest.raises(ValueError, match=f"has {total} tiles"):
            fn(mjfast.pack(counts[None, :]))


@pytest.mark.parametrize("threads", [1025, 100_000, 2**31, 2**70])
def test_absurd_thread_counts_rejected(threads):
    """threads=100000 once reached OpenMP and crashed the interpreter (segfault); 2**31
    overflowed the C int (OverflowError) or tried to allocate per-thread tables (MemoryError)."""
    h = mjfast.parse_hand("123m456p789s1122z")[None, :]
    for call in (lambda: mjfast.shanten(h, threads=threads), lambda: mjfast.deal(2, threads=threads),
                 lambda: mjfast.deal_stats(10, threads=threads, progress=False),
                 lambda: mjfast.simulate(1, threads=threads, progress=False)):
        with pytest.raises(ValueError, match=f"threads={threads} is more than mjfast allows"):
            call()


def test_omp_num_threads_env_capped(monkeypatch):
    from mjfast._runtime import threads as _config

    monkeypatch.setenv("OMP_NUM_THREADS", "100000")
    assert _config.default_threads() == _config.max_threads()


def test_rerun_and_tile_kind_bad_input_messages():
    """rerun('0') raised AttributeError, a header without options KeyError, tile_kind with an
    array n_tiles numpy's 'truth value of an array' error."""
    for text in ("0", "[1]", '{"type": "header", "seed": 1}', "not json"):
        with pytest.raises(ValueError, match="event log"):
            mjfast.rerun(text)
    with pytest.raises(TypeError, match="GameLog"):
        mjfast.rerun(42)
    with pytest.raises(TypeError, match="n_tiles must be an integer"):
        mjfast.wall.tile_kind([1, 2], n_tiles=np.array([1, 2]))
    with pytest.raises(TypeError, match="must hold integers"):
        mjfast.wall.tile_kind(np.array([], dtype=complex))


H13 = "123m456p789s1122z"


@pytest.mark.parametrize("call", [
    lambda n: mjfast.win_by_turn(H13, draws=3, method="monte_carlo", samples=n, progress=False),
    lambda n: mjfast.win_by_turn(H13, draws=3, method="exact", samples=n),
    lambda n: mjfast.win_by_turn(H13, draws=3, method="exact", max_states=n),
    lambda n: mjfast.win_by_turn_random(n, draws=3, progress=False),
    lambda n: mjfast.odds_table("win_by_turn", draws=3, samples=n, progress=False),
    lambda n: mjfast.odds_table("win_by_turn", hands=H13, draws=3, method="monte_carlo", samples=n, progress=False),
])
def test_winturn_counts_rejected_quickly(call):
    """Counts >= 2**62 are rejected at once (samples=2**62 used to run forever), non-ints
    with a TypeError naming the argument."""
    for n in (2**62, 2**64, np.uint64(2**63)):
        with pytest.raises(ValueError, match="too large"):
            call(n)
    for n in (0, -1):
        with pytest.raises(ValueError, match=">= 1"):
            call(n)
    for n in (2.0, "10", True):
        with pytest.raises(TypeError, match="must be an int"):
            call(n)


def test_new_entry_points_reject_arrays_and_odd_types_by_name():
    """No numpy "truth value of an array" errors leak from option checks."""
    arr = np.array([1, 2])
    with pytest.raises(ValueError, match="unknown method"):
        mjfast.win_by_turn(H13, method=arr)
    with pytest.raises(ValueError, match="exact must be"):
        mjfast.win_by_turn(H13, exact=arr)
    with pytest.raises(TypeError, match="hand_tiles must be an int"):
        mjfast.win_by_turn_random(10, hand_tiles=arr, progress=False)
    with pytest.raises(TypeError, match="hand_tiles must be an int"):
        mjfast.win_by_turn_random(10, hand_tiles=True, progress=False)   # was accepted as 1
    with pytest.raises(TypeError, match="hand_tiles must be an int"):
        mjfast.win_by_turn_random(10, hand_tiles=4.0, progress=False)    # was accepted
    with pytest.raises(ValueError, match="unknown kind"):
        mjfast.odds_table(arr)
    with pytest.raises(TypeError, match="method must be"):
        mjfast.odds_table("deal", method=arr)
    with pytest.raises(TypeError, match="rules must be"):
        mjfast.odds_table("deal", rules=5)
    with pytest.raises(TypeError, match="hands must be"):
        mjfast.odds_table("win_by_turn", hands=5)
    with pytest.raises(ValueError, match="give rounds or hands_per_game"):
        mjfast.rules.get("american", hands_per_game=8, rounds=arr)
    with pytest.raises(ValueError, match="second_charleston must be"):
        mjfast.rules.get("american", second_charleston=arr)
    with pytest.raises(TypeError, match="options must be a list"):
        mjfast.charleston_effect(2, options=5, progress=False)
    with pytest.raises(ValueError, match="unknown optional pass 3"):
        mjfast.charleston_effect(2, options=[3], progress=False)
    assert list(mjfast.charleston_effect(2, options="courtesy", seed=1, progress=False)) == ["courtesy"]
    with pytest.raises(TypeError, match="shanten distribution"):
        mjfast.plot.shanten_distribution(5)
    with pytest.raises(ValueError, match="which must be"):
        mjfast.plot.win_by_turn([], which=arr)


def test_exact_max_states_must_be_positive():
    # max_states=-1 used to raise MemoryError("more than max_states=-1 ...")
    with pytest.raises(ValueError, match="max_states must be >= 1"):
        mjfast.win_by_turn(H13, draws=3, method="exact", max_states=-1)


def test_plot_options_checked_by_name():
    pytest.importorskip("matplotlib")
    t = mjfast.odds_table("win_by_turn", hands=H13, draws=2)
    with pytest.raises(TypeError, match="ax must be a matplotlib Axes"):
        mjfast.plot.win_by_turn(t, ax=5)                 # was AttributeError: 'int' object has no attribute 'plot'
    with pytest.raises(TypeError, match="min_hands must be an int"):
        mjfast.plot.win_by_turn(t, min_hands="x")
    with pytest.raises(TypeError, match="bands must be True or False"):
        mjfast.plot.win_by_turn(t, bands=np.array([1, 2]))
    with pytest.raises(TypeError, match="log must be True or False"):
        mjfast.plot.shanten_distribution(mjfast.odds_table("deal", rules="classical"), log=np.array([1, 2]))


def test_game_rules_arrays_and_odd_types_named():
    """game_rules options: no numpy "truth value of an array" errors (rules=array(...) used to
    raise one from the American dispatch), special_forms must be a list or tuple."""
    arr = np.array([1, 2])
    with pytest.raises(TypeError, match="rules must be a str"):
        mjfast.rules.get(arr)
    with pytest.raises(TypeError, match="rules must be a str"):
        mjfast.simulate(2, rules=arr, progress=False)
    with pytest.raises(ValueError, match="dead_wall must be"):
        mjfast.rules.get(dead_wall=arr)
    with pytest.raises(ValueError, match="payment must be"):
        mjfast.rules.get(payment=arr)
    with pytest.raises(TypeError, match="special_forms must be a tuple"):
        mjfast.rules.get(special_forms=5)
    with pytest.raises(TypeError, match="special_forms must be a tuple"):
        mjfast.rules.get(special_forms="seven_pairs")
    with pytest.raises(ValueError, match="unknown special form"):
        mjfast.rules.get(special_forms=(arr,))
    with pytest.raises(TypeError, match="flowers must be True or False"):
        mjfast.rules.get("mcr", flowers=arr)
    assert mjfast.rules.get(special_forms=["seven_pairs"]).special_forms == ("seven_pairs",)
