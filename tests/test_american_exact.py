"""Exact American deal odds: against brute force on small tile worlds, Monte Carlo and the CLI."""
from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction
from math import comb

import pytest

import mjfast
from mjfast import cli
from mjfast.exact import exact_deal_odds, exact_deal_odds_table
from mjfast.exact._american import _american_counts
from oracles import reference as ref


def brute_force(tiles: int, kinds: int, flowers: int, jokers: int, all_joker_sets: bool = True):
    """Every physical hand of a small world: (distance histogram, hands with a standard kong, total)."""
    world = [k for k in range(kinds) for _ in range(4)] + [34 + f for f in range(flowers)] + [42] * jokers
    hist: dict = {}
    four = total = 0
    for hand in itertools.combinations(range(len(world)), tiles):
        counts = [0] * 43
        for t in hand:
            counts[world[t]] += 1
        d = ref.american_distance(counts, all_joker_sets)
        hist[d] = hist.get(d, 0) + 1
        four += any(c == 4 for c in counts[:34])
        total += 1
    return tuple(sorted(hist.items())), four, total


@pytest.mark.parametrize("tiles,kinds,flowers,jokers", [
    (14, 3, 3, 3), (13, 3, 3, 3),   # 18 tiles
    (14, 4, 2, 2),                  # 20 tiles, many complete hands
    (14, 2, 8, 3), (13, 2, 8, 3),   # more flowers than a set of four holds
    (13, 3, 1, 5),                  # joker-heavy
])
@pytest.mark.parametrize("aj", [True, False], ids=["all-joker-sets", "one-natural-per-set"])
def test_dp_equals_brute_force(tiles, kinds, flowers, jokers, aj):
    hist, four, total = _american_counts(tiles, kinds, flowers, jokers, aj)
    want = brute_force(tiles, kinds, flowers, jokers, aj)
    assert total == comb(4 * kinds + flowers + jokers, tiles) == want[2]
    assert (hist, four) == want[:2]


def test_full_set_odds():
    r = exact_deal_odds("american", 14)
    assert r["options"] == {"flowers": True, "jokers": 8, "tiles": 152}
    assert sum(r["shanten"].values()) == 1
    assert sum(r["bonus_tiles"].values()) == 1 and sum(r["jokers"].values()) == 1
    assert r["complete"] == r["shanten"][-1] > 0 and r["tenpai"] == r["shanten"][0]
    # hypergeometric: no joker among 14 of 152 tiles
    assert r["jokers"][0] == Fraction(comb(144, 14), comb(152, 14))
    assert exact_deal_odds("american", 14, "beginner")["shanten"] == r["shanten"]
    table = exact_deal_odds_table("american", 13)
    assert list(table) == ["beginner", "all"] and -1 not in table["all"]["shanten"]
    # more jokers make complete hands likelier; without jokers they are rarer
    j0 = exact_deal_odds("american", 14, jokers=0)
    j16 = exact_deal_odds("american", 14, jokers=16)
    assert j0["options"]["tiles"] == 144 and j0["jokers"] == {0: 1}
    assert j0["complete"] < r["complete"] < j16["complete"]


def test_arguments():
    with pytest.raises(ValueError, match="13 or 14"):
        exact_deal_odds("american", 11)
    with pytest.raises(ValueError, match="unknown form 'standard' for rules='american'"):
        exact_deal_odds("american", 14, "standard")
    with pytest.raises(ValueError, match="between 0 and 16"):
        exact_deal_odds("american", 14, jokers=17)
    with pytest.raises(ValueError, match="rules='american' only"):
        exact_deal_odds("classical", 14, jokers=8)
    with pytest.raises(ValueError, match="needs rules='american'"):
        exact_deal_odds("classical", 14, "beginner")


@pytest.mark.parametrize("jokers", [8, 10])
def test_monte_carlo_agrees(jokers):
    n = 400_000
    st = mjfast.deal_stats(n, rules="american", jokers=jokers, seed=20 + jokers, progress=False)
    for seat, tiles in (("dealer", 14), ("non_dealer", 13)):
        ex = exact_deal_odds("american", tiles, jokers=jokers)
        for name, dist, counts in (
            ("shanten", ex["shanten"], {k - 1: c for k, c in enumerate(st.shanten[seat]["beginner"])}),
            ("bonus", ex["bonus_tiles"], dict(enumerate(st.bonus[seat]))),
            ("jokers", ex["jokers"], dict(enumerate(st.jokers[seat]))),
            ("four", {True: ex["four_of_a_kind"]}, {True: st.four_of_a_kind[seat]}),
        ):
            assert set(k for k, c in counts.items() if c) <= set(dist), (seat, name)
            for k, p in dist.items():
                p = float(p)
                se = math.sqrt(p * (1 - p) / n)
                assert abs(counts.get(k, 0) / n - p) <= 4 * se + 1e-12, (seat, name, k)
        assert (st.shanten[seat]["all"] == st.shanten[seat]["beginner"]).all()


def test_cli_exact_json(capsys):
    assert cli.main(["deal-stats", "--rules", "american", "--exact", "--format", "json"]) == 0
    exact = json.loads(capsys.readouterr().out)
    assert cli.main(["deal-stats", "--rules", "american", "-n", "20000", "--seed", "1", "--format", "json",
                     "--no-progress"]) == 0
    mc = json.loads(capsys.readouterr().out)
    assert exact["forms"] == mc["forms"] == ["beginner", "all"]
    assert exact["options"] == mc["options"] == {"flowers": True, "jokers": 8, "tiles": 152}
    for seat in ("dealer", "non_dealer"):
        assert set(exact[seat]) == set(mc[seat])
        assert set(exact[seat]["shanten"]) == set(mc[seat]["shanten"]) == {"beginner", "all"}
        dist = {k: Fraction(v) for k, v in exact[seat]["shanten"]["beginner"].items()}
        assert sum(dist.values()) == 1 and exact[seat]["shanten"]["all"] == exact[seat]["shanten"]["beginner"]
        assert sum(Fraction(v) for v in exact[seat]["jokers"].values()) == 1
        assert sum(mc[seat]["shanten"]["beginner"].values()) == 20000
    assert cli.main(["deal-stats", "--rules", "american", "--exact", "--jokers", "10", "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "seat,form,shanten,probability,fraction"
    assert any(line.startswith("dealer,beginner,-1,") for line in lines)


def _partitions(total: int, top: int = 4):
    if total == 0:
        yield ()
        return
    for c in range(min(top, total), 0, -1):
        for rest in _partitions(total - c, c):
            yield (c,) + rest


@pytest.mark.parametrize("aj", [True, False], ids=["all-joker-sets", "one-natural-per-set"])
@pytest.mark.parametrize("tiles,jokers", [(14, 8), (13, 8), (14, 3)])
def test_full_world_by_count_profiles(tiles, jokers, aj):
    """The whole 152-tile world, counted a second way: every profile of standard counts (a
    partition), the flowers and jokers, weighted by the ways to place it on the 34 kinds, and
    the distance from the reference. Independent of the DP and of the kernel."""
    hist: dict = {}
    for m in range(tiles + 1):
        for prof in _partitions(m):
            mult = math.factorial(34) // math.factorial(34 - len(prof))
            for c in set(prof):
                mult //= math.factorial(prof.count(c))
            ways = mult
            for c in prof:
                ways *= comb(4, c)
            for f in range(min(8, tiles - m) + 1):
                j = tiles - m - f
                if j > jokers:
                    continue
                h = [0] * 43
                h[: len(prof)] = prof
                h[34:34 + f] = [1] * f
                h[42] = j
                d = ref.american_distance(h, aj)
                hist[d] = hist.get(d, 0) + ways * comb(8, f) * comb(jokers, j)
    total = comb(144 + jokers, tiles)
    assert sum(hist.values()) == total
    r = exact_deal_odds(mjfast.rules.get("american", all_joker_sets=aj), tiles, jokers=jokers)
    assert r["shanten"] == {d - 1: Fraction(n, total) for d, n in hist.items() if n}
