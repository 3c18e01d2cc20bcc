"""Chinese Official play with fans: how the built-in bots do.

For four-bot tables of each built-in policy: the share of hands ending in a valid win and in an
exhaustive draw, the mean fan of wins (flowers not counted) with its 95 % interval, the most
frequent fans and the hand-fan distribution; then paired comparisons (mjfast.compare: one seat
of policy A among three of B, against four of B on the same walls) of the fan-aware policies
with the fan-blind baseline greedy_blind.
Usage: PYTHONPATH=src python bench/mcr_play_report.py [games]
"""
from __future__ import annotations

import sys

import mjfast


def main(games: int = 5000) -> None:
    print("| policy (4 seats) | valid wins | exhaustive draws | mean fan of wins | Seven Pairs | fan 8-11 / 12-23 / 24+ |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for pol in ("greedy", "defensive", "greedy_blind"):
        r = mjfast.simulate(games, rules="mcr", policies=pol, seed=1, progress=False)
        f = r.fans
        w = mjfast.stats.Estimate.from_counts(f.wins, r.hands)
        d = r.exhaustive_draw_rate()
        m = f.mean_fan()
        h = f.hist
        bands = [h[8:12].sum() / f.wins, h[12:24].sum() / f.wins, h[24:].sum() / f.wins]
        sp = f.frequency()["Seven Pairs"].p
        print(f"| {pol} | {w.p:.3f} [{w.low:.3f}, {w.high:.3f}] | {d.p:.3f} | {m.mean:.2f} ± {1.96 * m.se:.2f} | "
              f"{sp:.3f} | {bands[0]:.2f} / {bands[1]:.2f} / {bands[2]:.2f} |")
    print()
    print("| A vs B (paired, one seat of A among three B) | win rate A - B | points A - B per game |")
    print("| --- | ---: | ---: |")
    for a, b in (("greedy", "greedy_blind"), ("defensive", "greedy_blind"), ("greedy", "defensive")):
        c = mjfast.compare(a, b, games, rules="mcr", seed=2, progress=False)
        wd, pd = c.win_rate_diff, c.points_diff
        print(f"| {a} vs {b} | {wd.mean:+.4f} ± {1.96 * wd.se:.4f} | {pd.mean:+.2f} ± {1.96 * pd.se:.2f} |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000)
