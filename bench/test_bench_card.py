"""American cards: all line distances, card compile, card-aware play.

``pytest bench/test_bench_card.py --benchmark-only``. The card is the invented
``tests/data/cards/invented-large.json`` (45 lines, 958 variations: the size of a real card;
not a published card); the hands are the dealer's 14 tiles of ``--bench-hands`` / 10 deals
(seed 1) from the 152-tile set. Each benchmark records ``extra_info["us_per_hand"]`` or
``["turns_per_s"]``.
"""
from __future__ import annotations

import pathlib

import numpy as np
import pytest

pytest.importorskip("pytest_benchmark", reason="pip install -e '.[bench]' (pytest-benchmark)")

import mjfast  # noqa: E402
from mjfast.card import load_card, toy_card  # noqa: E402

LARGE = pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "cards" / "invented-large.json"


@pytest.fixture(scope="session")
def card_hands(bench_sizes):
    n = max(10_000, bench_sizes["mjfast"] // 10)
    d = mjfast.deal(n, rules="american", seed=1)
    return np.ascontiguousarray(np.concatenate([d.hands[:, 0], d.bonus[:, 0], d.jokers[:, 0, None]], axis=1))


@pytest.mark.parametrize("threads", [1, 2], ids=lambda t: f"t{t}")
def test_card_distance_large(benchmark, card_hands, threads):
    card = load_card(LARGE)
    benchmark.group = "card distance, 958 variations (14 tiles)"
    _distance(benchmark, card, card_hands, threads)


def test_card_distance_small(benchmark, card_hands):
    """A small card (9 lines, 129 variations; the bound: at most 10 µs per 1,000 variations)."""
    card = load_card(LARGE.with_name("invented-small.json"))
    benchmark.group = "card distance, 129 variations (14 tiles)"
    _distance(benchmark, card, card_hands, 1)


def _distance(benchmark, card, card_hands, threads):
    benchmark.extra_info.update(library="mjfast.card.distance", threads=threads, variations=len(card.variations))
    out = benchmark.pedantic(lambda: card.distance(card_hands, threads=threads), rounds=7, iterations=1,
                             warmup_rounds=1)
    benchmark.extra_info["us_per_hand"] = benchmark.stats.stats.median / len(card_hands) * 1e6
    benchmark.extra_info["us_per_1000_variations"] = benchmark.extra_info["us_per_hand"] * 1000 / len(card.variations)
    assert out.shape == (len(card_hands), len(card.ids)) and out.min() >= 0


def test_card_load_compile(benchmark):
    benchmark.group = "card load + compile"
    card = benchmark(lambda: load_card(LARGE))
    assert len(card.variations) == 958


@pytest.mark.parametrize("which", ["toy", "large"])
def test_card_play(benchmark, which):
    card = toy_card() if which == "toy" else load_card(LARGE)
    games = 1000 if which == "toy" else 200
    benchmark.group = "card-aware four-bot play (1 thread)"
    res = benchmark.pedantic(lambda: mjfast.simulate(games, rules="american", card=card, seed=1, threads=1,
                                                     progress=False), rounds=3, iterations=1, warmup_rounds=1)
    benchmark.extra_info["turns_per_s"] = res.turns / benchmark.stats.stats.median
    assert res.hands == 4 * games


def test_card_charleston(benchmark):
    card = load_card(LARGE)
    benchmark.group = "card charleston choice (one hand)"
    out = benchmark(lambda: card.charleston("1111m 444p 777s 2m 3m 6z"))
    assert len(out) == 3
