"""CPU-time medians of the card queries and card play (Markdown rows for bench/README.md).

``PYTHONPATH=src python bench/card_timing.py [n]``: the dealer's 14-tile hands of ``n`` deals
(default 100,000, seed 1) against the invented 958-variation card
(tests/data/cards/invented-large.json), the toy card and the invented 129-variation card
(tests/data/cards/invented-small.json, 9 lines of the large one); single-thread CPU time
(``time.thread_time``), which other jobs on the machine barely disturb. The distance rows also
give the cost per 1,000 variations (the bound: 10 µs for any card of 100 variations or
more), the whole public call (validation included) and the kernel alone.
"""
from __future__ import annotations

import pathlib
import sys
import time

import numpy as np

import mjfast
from mjfast.card import load_card, toy_card

LARGE = pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "cards" / "invented-large.json"
SMALL = LARGE.with_name("invented-small.json")


def _median(f, reps=7):
    f()
    ts = []
    for _ in range(reps):
        t0 = time.thread_time()
        r = f()
        ts.append(time.thread_time() - t0)
    return float(np.median(ts)), r


def _kernel_call(card, hands):
    """The batch kernel alone on the card's compiled tables (no validation, no conversion)."""
    from mjfast._kernels import card as kern

    rows = np.zeros((len(hands), 48), np.uint8)
    rows[:, :34] = hands[:, :34]
    rows[:, 34] = hands[:, 34:42].sum(axis=1)
    rows[:, 35] = hands[:, 42]
    n, lines = len(hands), len(card.ids)
    exps, n_exp = np.zeros((n, 8), np.int8), np.zeros(n, np.int8)
    out, arg, unseen = np.empty((n, lines), np.int8), np.empty((0, lines), np.int32), np.zeros((0, 48), np.uint8)
    return lambda: kern.line_distance_batch(card._rows, card._line_start, card._flags, card._xk, card._xs, rows, exps,
                                            n_exp, unseen, card.all_joker_sets, out, arg, 1, card._blocks)


def main(n: int = 100_000) -> None:
    d = mjfast.deal(n, rules="american", seed=1)
    hands = np.ascontiguousarray(np.concatenate([d.hands[:, 0], d.bonus[:, 0], d.jokers[:, 0, None]], axis=1))
    large, toy = load_card(LARGE), toy_card()
    print("| row | figure |")
    print("| --- | ---: |")
    t, _ = _median(lambda: load_card(LARGE))
    print(f"| load + compile, 45 lines / 958 variations | {t * 1e3:.1f} ms |")
    small = load_card(SMALL)
    for name, card in (("958 variations", large), ("toy, 195 variations", toy), ("129 variations", small)):
        v = len(card.variations)
        t, _ = _median(lambda: card.distance(hands, threads=1))
        tk, _ = _median(_kernel_call(card, hands))
        print(f"| all line distances, {name}, 1 thread | {t / n * 1e6:.2f} µs/hand "
              f"({t / n * 1e9 / v:.2f} µs per 1,000 variations; kernel {tk / n * 1e6:.2f} µs/hand) |")
    t, _ = _median(lambda: large.charleston("1111m 444p 777s 2m 3m 6z"), reps=31)
    print(f"| charleston choice, 958 variations | {t * 1e3:.2f} ms |")
    for name, card, games in (("toy card", toy, 2000), ("958 variations", large, 300)):
        t, r = _median(lambda: mjfast.simulate(games, rules="american", card=card, seed=1, threads=1,
                                               progress=False), reps=3)
        print(f"| card-aware greedy play, {name}, 1 thread | {r.turns / t / 1e6:.3f} M turns/s |")
    t, r = _median(lambda: mjfast.simulate(2000, rules="american", seed=1, threads=1, progress=False), reps=3)
    print(f"| beginner-hand greedy play (no card), 1 thread | {r.turns / t / 1e6:.3f} M turns/s |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)
