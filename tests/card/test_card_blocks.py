"""The card kernel's blocked path (CardBlocks, card.h ``mj_card_blocks_dv``: 16 variations per
vector step) gives exactly the distances of the per-variation path it replaces for hands without
exposures or unseen tiles; and card.h's plain C path (non-x86 targets) gives exactly what its SSE2
path gives.

The per-variation path is the same kernel called without blocks (``line_distance_batch(...,
blocks=None)``), which the reference tests (test_card_reference.py) check against an independent
bipartite-matching oracle.
"""
from __future__ import annotations

import pathlib

import numpy as np
import pytest

import mjfast
from _c_check import build_and_run
from mjfast._kernels import card as kern
from mjfast.card import load_card, toy_card

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "cards"


def _cards() -> list:
    beginner = {"format": "mjfast-card/1", "name": "with the beginner hand",
                "lines": [{"id": "b", "pattern": "KKKK0 KKKK1 KKKK2 KK3", "points": 25},
                          {"id": "one", "pattern": "1111a 4444a 7777a NN", "points": 25},    # 3 variations
                          {"id": "single", "pattern": "NNNN EEEE WWWW SS", "points": 25},     # 1 variation
                          {"id": "big", "pattern": "XXXX0a XXXX1b XXXX2c NN", "points": 25}]}
    return [toy_card(), load_card(DATA / "invented-small.json"), load_card(DATA / "invented-large.json"),
            load_card(beginner),
            load_card({**beginner, "name": "all-joker", "all_joker_sets": True}),
            load_card({**beginner, "name": "keep one", "all_joker_sets": False})]


CARDS = _cards()


def _rows(n: int, seed: int) -> np.ndarray:
    """n hands of 13 or 14 tiles as 48-byte kernel rows: deals (dealer and others) plus hands rich
    in jokers and flowers, and a few near-complete ones."""
    d = mjfast.deal(n, rules="american", seed=seed)
    rows = np.zeros((2 * n, 48), np.uint8)
    for s, seat in enumerate((0, 1)):
        part = rows[s * n:(s + 1) * n]
        part[:, :34] = d.hands[:, seat]
        part[:, 34] = d.bonus[:, seat].sum(axis=1)
        part[:, 35] = d.jokers[:, seat]
    rng = np.random.default_rng(seed)
    for i in range(0, 2 * n, 7):            # trade tiles for jokers: the flexible places matter
        k = np.flatnonzero(rows[i, :35])
        take = rng.choice(k, size=min(len(k), int(rng.integers(0, 5))), replace=False)
        rows[i, take] -= 1
        rows[i, 35] += len(take)
    return rows


def _run(card, rows, exps=None, n_exp=None, threads=1, blocks=True):
    n, lines = len(rows), len(card.ids)
    exps = np.zeros((n, 8), np.int8) if exps is None else exps
    n_exp = np.zeros(n, np.int8) if n_exp is None else n_exp
    out = np.full((n, lines), -1, np.int8)
    kern.line_distance_batch(card._rows, card._line_start, card._flags, card._xk, card._xs, rows, exps, n_exp,
                             np.zeros((0, 48), np.uint8), card.all_joker_sets, out, np.empty((0, lines), np.int32),
                             threads, card._blocks if blocks else None)
    return out


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c.name[:24])
@pytest.mark.parametrize("threads", [1, 2])
def test_blocks_match_rows(card, threads):
    rows = _rows(3000, 11)
    fast = _run(card, rows, threads=threads)
    slow = _run(card, rows, blocks=False)
    assert (fast >= 0).all()
    np.testing.assert_array_equal(fast, slow)


@pytest.mark.parametrize("card", CARDS[:3], ids=lambda c: c.name[:24])
def test_blocks_with_exposed_hands_in_the_batch(card):
    """Hands with exposures take the per-variation path inside the same batch."""
    rows = _rows(500, 12)
    rows[::3, :35] = np.minimum(rows[::3, :35], 1)          # room for an exposure beside the hand
    exps = np.zeros((len(rows), 8), np.int8)
    n_exp = np.zeros(len(rows), np.int8)
    exps[::3, 0], exps[::3, 1], n_exp[::3] = 3, 4, 1          # a kong of 4m
    fast = _run(card, rows, exps, n_exp, threads=2)
    slow = _run(card, rows, exps, n_exp, blocks=False)
    np.testing.assert_array_equal(fast, slow)
    assert (fast[::3] != _run(card, rows)[::3]).any()          # the exposure changes some distances
    np.testing.assert_array_equal(fast[1::3], _run(card, rows)[1::3])


def test_public_distance_agrees_with_the_per_variation_path():
    card = load_card(DATA / "invented-large.json")
    rows = _rows(400, 13)
    h43 = np.zeros((len(rows), 43), np.uint8)
    h43[:, :34] = rows[:, :34]
    for i, f in enumerate(rows[:, 34]):
        h43[i, 34:34 + f] = 1
    h43[:, 42] = rows[:, 35]
    np.testing.assert_array_equal(card.distance(h43, threads=1), _run(card, rows, blocks=False))
    # single hands and best(): the per-variation path (with the best variation) gives the same
    for i in range(0, 40, 7):
        best = {r.id: r.distance for r in card.best(h43[i], k=None)}
        assert [best[i_] for i_ in card.ids] == list(card.distance(h43[i]))


def test_blocks_layout():
    card = toy_card()
    b = card._blocks
    assert b.nvar == len(card.variations) and b.nblocks == (b.nvar + 15) // 16
    assert b.off[0] == 0 and b.off[-1] == len(b.data) == len(b.kind16)
    assert (np.diff(b.off) >= 1).all() and (b.kind16 % 16 == 0).all() and (b.kind16 < 36 * 16).all()
    # within each line's range of positions, the blocks hold exactly the line's (R, T) rows
    r = card._rows[:, :36].astype(int)
    t = r + card._rows[:, 48:84]
    blocks_r = np.zeros((b.nblocks * 16, 36), int)
    blocks_t = np.zeros((b.nblocks * 16, 36), int)
    for e in range(len(b.kind16)):
        blk = int(np.searchsorted(b.off, e, side="right")) - 1
        blocks_r[16 * blk:16 * blk + 16, int(b.kind16[e]) // 16] = b.data[e, :16]
        blocks_t[16 * blk:16 * blk + 16, int(b.kind16[e]) // 16] = b.data[e, 16:]
    assert not blocks_t[b.nvar:].any()                      # padding variations demand nothing
    for ln in range(len(card.lines)):
        lo, hi = card._line_start[ln], card._line_start[ln + 1]
        got = sorted(map(tuple, np.concatenate([blocks_r[lo:hi], blocks_t[lo:hi]], axis=1)))
        assert got == sorted(map(tuple, np.concatenate([r[lo:hi], t[lo:hi]], axis=1)))


@pytest.mark.parametrize("rows,starts", [
    (np.zeros((3, 95), np.uint8), [0, 3]),
    (np.zeros((3, 96), np.uint8), [0, 2]),
    (np.zeros((3, 96), np.uint8), [1, 3]),
    (np.zeros((3, 96), np.uint8), [0, 2, 1, 3]),
])
def test_blocks_refuse_bad_tables(rows, starts):
    with pytest.raises(ValueError):
        kern.CardBlocks(rows, np.array(starts, np.int32))


def test_blocks_from_other_rows_refused():
    card, other = toy_card(), load_card(DATA / "invented-small.json")
    rows = _rows(10, 1)
    with pytest.raises(ValueError, match="other rows"):
        kern.line_distance_batch(card._rows, card._line_start, card._flags, card._xk, card._xs, rows,
                                 np.zeros((len(rows), 8), np.int8), np.zeros(len(rows), np.int8),
                                 np.zeros((0, 48), np.uint8), False, np.empty((len(rows), 10), np.int8),
                                 np.empty((0, 10), np.int32), 1, other._blocks)


# ------------------------------------------------------------------ card.h: plain C = SSE2

PROGRAM = r"""
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include "card.h"

static uint64_t state = 0x9E3779B97F4A7C15ULL;
static uint64_t next(void) {             /* splitmix64: test values only */
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static uint64_t h = 1469598103934665603ULL;
static void mix(uint64_t x) { h = (h ^ x) * 1099511628211ULL; }

int main(void) {
    static uint8_t data[64 * 32], dv[16 * 8 + 16], R[96], sR[48], sF[48], hand[48], u[48];
    static uint8_t sr[40], sf[40], rt[40], ft[40], dvv[40];
    static uint16_t kind16[64];
    static int32_t off[9], idx[40];
    int it, i, e, b, sra, sfa, nb, n;
    for (it = 0; it < 20000; it++) {
        memset(hand, 0, 48); memset(u, 0, 48); memset(R, 0, 96);
        memset(sR, 0, 48); memset(sF, 0, 48);
        for (i = 0; i < 36; i++) {
            hand[i] = (uint8_t)(next() % 9 < 2 ? next() % 5 : 0);
            u[i] = (uint8_t)(next() % 5);
            R[i] = (uint8_t)(next() % 7 == 0 ? next() % 3 : 0);
            R[48 + i] = (uint8_t)(next() % 6 == 0 ? next() % 5 : 0);
            sR[i] = (uint8_t)(next() % 11 == 0);
            sF[i] = (uint8_t)(next() % 9 == 0 ? next() % 3 : 0);
        }
        hand[35] = (uint8_t)(next() % 9);
        mix((uint64_t)mj_card_eval(R, R + 48, NULL, NULL, hand, NULL, 0, &sra, &sfa)); mix(sra); mix(sfa);
        mix((uint64_t)mj_card_eval(R, R + 48, sR, sF, hand, u, hand[35], &sra, &sfa)); mix(sra); mix(sfa);
        /* blocked distances: nb blocks of random entries */
        nb = 1 + (int)(next() % 8);
        off[0] = 0;
        for (b = 0; b < nb; b++) {
            n = (int)(next() % 8);
            for (e = off[b]; e < off[b] + n; e++) {
                kind16[e] = (uint16_t)(16 * (next() % 36));
                for (i = 0; i < 16; i++) {
                    data[32 * e + i] = (uint8_t)(next() % 3);
                    data[32 * e + 16 + i] = (uint8_t)(data[32 * e + i] + next() % 4);
                }
            }
            off[b + 1] = off[b] + n;
        }
        memset(dv, 0xEE, sizeof dv);
        mj_card_blocks_dv(data, kind16, off, nb, hand, dv);
        for (i = 0; i < 16 * nb; i++) mix(dv[i]);
        for (i = 0; i < 20; i++) {
            int lo = (int)(next() % (16 * nb)), hi = lo + (int)(next() % (16 * nb - lo + 1));
            mix((uint64_t)mj_card_min(dv, lo, hi));
        }
        /* cache updates and levels */
        n = 1 + (int)(next() % 40);
        for (i = 0; i < n; i++) {
            rt[i] = (uint8_t)(next() % 4); ft[i] = (uint8_t)(next() % 4);
            sr[i] = (uint8_t)(1 + next() % 9); sf[i] = (uint8_t)(1 + next() % 9);   /* one update cannot wrap */
        }
        b = (int)(next() % 2);                                  /* up; removing needs a tile */
        mj_card_delta(sr, sf, rt, ft, (int)(next() % 2), (int)(next() % 2), (int)(next() % 4) + !b, b, n);
        for (i = 0; i < n; i++) { mix(sr[i]); mix(sf[i]); }
        mix((uint64_t)mj_card_dv(sr, sf, (int)(next() % 5), dvv, n));
        for (i = 0; i < n; i++) mix(dvv[i]);
        e = mj_card_level(dvv, n, dvv[next() % n], idx);
        mix((uint64_t)e);
        for (i = 0; i < e; i++) mix((uint64_t)idx[i]);
    }
    printf("%016llx\n", (unsigned long long)h);
    return 0;
}
"""


def test_portable_card_h_matches_sse2(tmp_path):
    default = build_and_run(PROGRAM, tmp_path, "default", ["-Wall"], build_timeout=120, run_timeout=120)
    portable = build_and_run(PROGRAM, tmp_path, "portable", ["-Wall", "-DMJ_CARD_PORTABLE"], build_timeout=120,
                             run_timeout=120)
    assert len(default) == 16
    assert default == portable


def test_cards_pickle_and_copy_with_their_blocks():
    """A Card (with its SIMD blocks) pickles and deep-copies and gives the same distances
    (Dask workers, other processes and Gymnasium's env copies hold cards)."""
    import copy
    import pickle

    card = mjfast.card.toy_card()
    d = mjfast.deal(20, rules="american", seed=3)
    want = card.distance(d)
    for other in (pickle.loads(pickle.dumps(card)), copy.deepcopy(card)):
        assert np.array_equal(other.distance(d), want)
