"""Validation fused with the kernels: the public batch functions check uint8 count
batches in the kernel's own pass. The answers and the error messages must be exactly those of
the separate validation pass they replace."""
from __future__ import annotations

import numpy as np
import pytest

import mjfast
from mjfast import _core
from mjfast.hands._input import SIZES_ALL, as_batch


def _random_hands(n: int, size: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    wall = np.repeat(np.arange(34), 4)
    out = np.zeros((n, 34), np.uint8)
    for i in range(n):
        np.add.at(out[i], rng.choice(wall, size, replace=False), 1)
    return out


def _separate_pass_error(hands: np.ndarray) -> str:
    """The message of the separate validation pass (``as_batch`` without fusing)."""
    with pytest.raises(ValueError) as err:
        as_batch(hands, SIZES_ALL)
    return str(err.value)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("forms", [1, 7, 1 | 2 | 4 | 8 | 16 | 32])
def test_checked_kernels_equal_unchecked(threads, forms):
    h = np.concatenate([_random_hands(3000, s, s) for s in (1, 2, 5, 13, 14)])
    h = np.tile(h, (4, 1))                          # > PAR_MIN rows: the parallel loop runs too
    size_mask = SIZES_ALL if forms & 1 else (1 << 13) | (1 << 14)
    if not forms & 1:
        h = h[np.isin(h.sum(1), (13, 14))]
    a, b = np.empty(len(h), np.int8), np.empty(len(h), np.int8)
    _core.shanten_counts_batch(h, forms, a, threads)
    assert _core.shanten_counts_checked(h, forms, size_mask, b, threads)
    np.testing.assert_array_equal(a, b)
    wa, wb = np.empty(len(h), np.uint8), np.empty(len(h), np.uint8)
    _core.winning_counts_batch(h, forms, wa, threads)
    assert _core.winning_counts_checked(h, forms, size_mask, wb, threads)
    np.testing.assert_array_equal(wa, wb)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("fn", [mjfast.shanten, mjfast.is_winning])
@pytest.mark.parametrize("bad", ["count5", "count255", "size", "size0", "size15"])
def test_errors_equal_the_separate_pass(fn, bad, threads):
    h = _random_hands(40_000, 14, 1)
    row = 33_333
    if bad == "count5":
        h[row, 3] = 5
    elif bad == "count255":
        h[row, 30] = 255
    elif bad == "size":
        h[row] = 0
        h[row, :3] = 1                              # 3 tiles: not 3k+1 or 3k+2
    elif bad == "size0":
        h[row] = 0
    else:
        h[row] = 0
        h[row, :5] = 3                              # 15 tiles
    h[row + 100] = h[row]                           # the first bad row is the one named
    expected = _separate_pass_error(h)
    assert f"hand {row}" in expected
    with pytest.raises(ValueError) as err:
        fn(h, threads=threads)
    assert str(err.value) == expected
    with pytest.raises(ValueError) as err:          # the leading shape is kept in the name
        fn(h.reshape(10, 4000, 34), threads=threads)
    assert "hand (8, 1333)" in str(err.value)


def test_bad_rows_never_read_out_of_the_tables():
    """Counts up to 255 would index far past the tables; the fused check stops them first."""
    h = np.full((20_000, 34), 255, np.uint8)
    out = np.empty(len(h), np.int8)
    assert not _core.shanten_counts_checked(h, 7, SIZES_ALL, out, 2)
    outb = np.empty(len(h), np.uint8)
    assert not _core.winning_counts_checked(h, 1, SIZES_ALL, outb, 2)


def test_every_honor_pattern_standard_win():
    """All 5**7 honor patterns of 3k+2 tiles (with and without a complete chow beside them):
    complete exactly when one kind is held twice and every other 0 or 3 times."""
    grid = np.indices((5,) * 7).reshape(7, -1).T.astype(np.uint8)
    grid = grid[(grid.sum(1) % 3 == 2) & (grid.sum(1) <= 14)]
    expected = ((grid == 2).sum(1) == 1) & np.isin(grid, (0, 2, 3)).all(1)
    h = np.zeros((len(grid), 34), np.uint8)
    h[:, 27:] = grid
    np.testing.assert_array_equal(mjfast.is_winning(h, form="standard"), expected)
    small = grid.sum(1) <= 11
    h2 = h[small].copy()
    h2[:, [3, 4, 5]] += 1                             # + 456m
    np.testing.assert_array_equal(mjfast.is_winning(h2, form="standard"), expected[small])
    np.testing.assert_array_equal(mjfast.is_winning(mjfast.pack(h2), form="standard"), expected[small])


def _special_hands(rng) -> np.ndarray:
    """500 complete seven-pairs hands and 300 complete thirteen-orphans hands."""
    pairs = np.zeros((500, 34), np.uint8)
    for i in range(len(pairs)):
        pairs[i, rng.choice(34, 7, replace=False)] = 2
    orphans = np.zeros((300, 34), np.uint8)
    kinds = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
    orphans[:, kinds] = 1
    orphans[np.arange(len(orphans)), rng.choice(kinds, len(orphans))] += 1
    return np.concatenate([pairs, orphans])


def _levels() -> list[str]:
    names = ("baseline", "avx2", "avx512")
    best = _core.simd_level()[1]
    return list(names[: names.index(best) + 1])


@pytest.mark.parametrize("level", _levels())
@pytest.mark.parametrize("forms", [1, 7, 2, 4, 1 | 2 | 4 | 8 | 16 | 32])
def test_every_simd_level_gives_the_same_answers(level, forms):
    """The dispatched winning loops (baseline, AVX2, AVX-512 as this CPU allows) agree with the
    unfused kernel on random and on complete / near-complete hands, and report bad rows."""
    rng = np.random.default_rng(forms)
    h = np.concatenate([_random_hands(4000, 14, 7), _random_hands(4000, 13, 8)])
    complete = np.zeros((3000, 34), np.uint8)
    for i in range(len(complete)):              # four pungs / chows + a pair, one tile moved
        for _ in range(4):
            k = int(rng.integers(27))
            if rng.random() < 0.5 and k % 9 < 7:
                complete[i, k:k + 3] += 1
            else:
                complete[i, k] += 3
        complete[i, int(rng.integers(34))] += 2
    complete = complete[(complete <= 4).all(1)]
    moved = complete.copy()
    moved[np.arange(len(moved)), moved.argmax(1)] -= 1
    moved[np.arange(len(moved)), rng.integers(34, size=len(moved))] += 1
    moved = moved[(moved <= 4).all(1)]
    h = np.concatenate([h, complete, moved, np.tile(complete, (3, 1)), _special_hands(rng)])
    size_mask = SIZES_ALL if forms & 1 else (1 << 13) | (1 << 14)
    if not forms & 1:
        h = h[np.isin(h.sum(1), (13, 14))]
    expected = np.empty(len(h), np.uint8)
    _core.winning_counts_batch(h, forms, expected, 1)
    assert expected.any()
    previous = _core.set_simd_level(level)
    try:
        for threads in (1, 2):
            out = np.empty(len(h), np.uint8)
            assert _core.winning_counts_checked(h, forms, size_mask, out, threads)
            np.testing.assert_array_equal(out, expected)
        bad = h.copy()
        bad[len(bad) // 2, 33] = 200
        assert not _core.winning_counts_checked(bad, forms, size_mask, out, 2)
    finally:
        _core.set_simd_level(previous)


def test_simd_level_names_and_errors():
    used, best = _core.simd_level()
    assert used in _levels() and best == _levels()[-1]
    with pytest.raises(ValueError, match="unknown SIMD level"):
        _core.set_simd_level("sse9")
    assert "simd" in mjfast.show_config.__doc__


@pytest.mark.parametrize("level", _levels())
@pytest.mark.parametrize("forms", [1, 2, 3, 4, 5, 6, 7])
def test_every_simd_level_gives_the_same_shanten(level, forms):
    """The dispatched shanten loops (shanten_rows.h: SIMD base-5 codes, masks and popcnt for the
    special forms) equal the generic kernel at every level, on every hand size, with bad rows
    reported (127 in their slot)."""
    sizes = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)
    h = np.concatenate([_random_hands(1500, s, 20 + s) for s in sizes])
    rng = np.random.default_rng(forms)
    h = np.concatenate([h, _special_hands(rng), np.full((1, 34), 0, np.uint8) + np.eye(34, dtype=np.uint8)[5] * 4 +
                        np.eye(34, dtype=np.uint8)[6]])     # a four-of-a-kind with a single: 5 tiles
    size_mask = SIZES_ALL
    if not forms & 1:                                # the special forms alone: 13 and 14 tiles
        h = h[np.isin(h.sum(1), (13, 14))]
        size_mask = (1 << 13) | (1 << 14)
    expected = np.empty(len(h), np.int8)
    _core.shanten_counts_batch(h, forms, expected, 1)
    previous = _core.set_simd_level(level)
    try:
        for threads in (1, 2):
            out = np.empty(len(h), np.int8)
            assert _core.shanten_counts_checked(h, forms, size_mask, out, threads)
            np.testing.assert_array_equal(out, expected)
        bad = h.copy()
        bad[77, 2] = 9
        out = np.empty(len(h), np.int8)
        assert not _core.shanten_counts_checked(bad, forms, size_mask, out, 1)
        assert out[77] == 127
        np.testing.assert_array_equal(np.delete(out, 77), np.delete(expected, 77))
    finally:
        _core.set_simd_level(previous)


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from mjfast import tiles  # noqa: E402

_GROUP = st.one_of(st.tuples(st.text("123456789", min_size=1, max_size=6), st.sampled_from("mps")),
                   st.tuples(st.text("1234567", min_size=1, max_size=6), st.just("z")))
_NOISE = st.sampled_from(["", " ", "0", "8z", "[", "f1", "j", "x"])


@settings(max_examples=400, deadline=None)
@given(st.lists(_GROUP, min_size=1, max_size=6), _NOISE, st.integers(0, 6))
def test_plain_notation_fast_path_equals_the_parser(groups, noise, at):
    """The one-hand text fast path reads exactly what parse_tiles reads, and leaves every other
    text (and every text parse_tiles rejects) to the parser."""
    parts = [d + s for d, s in groups]
    text = "".join(parts[:at]) + noise + "".join(parts[at:])
    fast = tiles.plain_counts(text)
    try:
        parsed = tiles.parse_tiles(text)
    except ValueError:
        assert fast is None
        return
    if fast is not None:
        assert not parsed.melds and not parsed.jokers and not parsed.bonus.any()
        np.testing.assert_array_equal(fast, parsed.concealed)
        assert _outcome(text) == _outcome(parsed.concealed)
    else:
        assert noise != ""                           # every plain text takes the fast path


def _outcome(hand):
    """shanten of a hand, or the error message it raises."""
    try:
        return mjfast.shanten(hand, threads=1)
    except ValueError as exc:
        return str(exc)


def test_one_hand_text_errors_unchanged():
    with pytest.raises(ValueError, match="hands has 3 tiles; allowed sizes here"):
        mjfast.shanten("123m")
    with pytest.raises(ValueError, match="5"):
        mjfast.shanten("11111m")
    assert mjfast.is_winning("123m456p789s11222z") is True
    assert mjfast.shanten("123m456p789s1122z") == 0
