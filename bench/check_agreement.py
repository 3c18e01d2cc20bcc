"""Check that the competitors give the same shanten numbers as mjfast before timing them.

Usage::

    PYTHONPATH=src python bench/check_agreement.py            # 20,000 hands per set
    PYTHONPATH=src python bench/check_agreement.py -n 2000    # quicker
    PYTHONPATH=src python bench/check_agreement.py --xiangting-n 1000000

For each hand set (uniform 14- and 13-tile hands, one-suit hands, hands forced to hold one or
two four-of-a-kinds, and the small sizes 1-11) it compares mjfast's ``shanten`` with each
installed competitor, in the standard form and over all forms (standard + seven pairs +
thirteen orphans), and prints the number of disagreements with up to ``--examples`` examples
of each (mjfast value, competitor value) class. It never changes anything; a disagreement is
reported, not resolved. Exit status 1 if any disagreement was found.

xiangting is fast enough to be checked on more hands (``--xiangting-n``); the ``mahjong``
package is pure Python (~50-250 us per hand), so keep ``-n`` moderate.
"""
from __future__ import annotations

import argparse
import collections
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mjfast  # noqa: E402
from _competitors import load_competitors  # noqa: E402
from _hands import make_hands, quad_hands  # noqa: E402
from mjfast.hands._random import random_hands  # noqa: E402

#: hand-picked hands around four-copy handling and the special forms
EDGE_CASES = (
    "123m456p789s1111z",   # four East: 1-shanten (the pair cannot be a fifth East)
    "123m456p789s1112z",   # 13 tiles, tenpai (1z, 2z waits)
    "1111m2222m3333m4z",   # tenpai only on 4z
    "11112222333344m",     # complete (111 123 123 123 44 ... or 4 sets + pair)
    "1111m",               # 4 tiles: a set and a lone tile that cannot pair with itself
    "11112m",              # 5 tiles
    "1111222233334m",      # 13 tiles, three quads in a row
    "11223344556677m",     # seven pairs and a standard hand at once
    "11112233445566m",     # 'seven pairs' with a four-of-a-kind (not a seven-pairs win here)
    "1122334455667z",      # honour pairs + single
    "19m19p19s1234567z",   # thirteen orphans tenpai (13-sided)
    "19m19p19s11234567z",  # thirteen orphans complete
    "1111999m1111999p",    # 14 tiles of two quads-and-triples
    "5555m5555p5555s55z",  # three quads and a pair
    "123m1111z2222z333z",  # honour quads
)


def edge_cases() -> np.ndarray:
    rows = []
    for text in EDGE_CASES:
        rows.append(mjfast.parse_hand(text))
    return np.stack(rows).astype(np.uint8)


def hand_sets(n: int):
    """(label, counts) pairs checked against every competitor."""
    yield "edge cases", edge_cases()
    yield "random14", make_hands("random14", n)
    yield "random13", make_hands("random13", n)
    yield "flush14", make_hands("flush14", n)
    yield "flush13", random_hands(n, 13, seed=1302, suits="m")
    m = max(1, n // 4)
    yield "quad14 (one 4-of-a-kind)", quad_hands(m, 14, seed=4141, quads=1)
    yield "quad13 (one 4-of-a-kind)", quad_hands(m, 13, seed=4131, quads=1)
    yield "quad14x2 flush (two)", quad_hands(m, 14, seed=4142, quads=2, suits="m")
    yield "quad13x3 flush (three)", quad_hands(m, 13, seed=4133, quads=3, suits="m")
    small = [random_hands(max(1, n // 16), s, seed=500 + s) for s in (1, 2, 4, 5, 7, 8, 10, 11)]
    yield "sizes 1-11", np.concatenate(small)
    small_flush = [random_hands(max(1, n // 16), s, seed=600 + s, suits="p") for s in (4, 5, 7, 8, 10, 11)]
    yield "flush sizes 4-11", np.concatenate(small_flush)


def compare(label, hands, comp, form, examples, ours_cache):
    ours = ours_cache.get(form)
    if ours is None:
        ours = ours_cache[form] = mjfast.shanten(hands, form=form, threads=1)
    prepared = comp.prepare(hands)
    t0 = time.perf_counter()
    theirs = comp.forms[form](prepared)
    dt = time.perf_counter() - t0
    bad = np.flatnonzero(theirs != ours)
    won = mjfast.is_winning(hands, form=form, threads=1)
    n_win = int((won != (theirs == -1)).sum())
    if n_win:
        print(f"      is_winning disagrees with {comp.name}'s shanten == -1 on {n_win} hands")
    print(f"  {comp.name:<10} {form:<9} {len(hands):>9,} hands  {len(bad):>6} disagreements"
          f"  ({dt / len(hands) * 1e9:,.0f} ns/hand)")
    classes = collections.defaultdict(list)
    for i in bad:
        classes[(int(ours[i]), int(theirs[i]))].append(i)
    for (o, t), rows in sorted(classes.items()):
        shown = ", ".join(mjfast.format_hand(hands[i]) for i in rows[:examples])
        print(f"      mjfast {o:>2} vs {comp.name} {t:>2}: {len(rows)} hands, e.g. {shown}")
    return len(bad) + n_win


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=20_000, help="hands per set (default 20,000)")
    ap.add_argument("--xiangting-n", type=int, default=None,
                    help="hands per set for xiangting only (default: same as -n)")
    ap.add_argument("--examples", type=int, default=3)
    args = ap.parse_args(argv)

    comps, notes = load_competitors()
    for note in notes:
        print(f"note: {note}")
    for c in comps:
        print(f"{c.name} {c.version}: {c.input_note}")
    print(f"mjfast {mjfast.__version__}")
    total = 0
    runs = [(c, args.n) for c in comps if c.name != "xiangting"]
    runs += [(c, args.xiangting_n or args.n) for c in comps if c.name == "xiangting"]
    for comp, n in runs:
        print(f"\n== {comp.name} ({n:,} hands per set)")
        for label, hands in hand_sets(n):
            print(f" {label}")
            cache = {}
            for form in ("standard", "all"):
                if form in comp.forms:
                    total += compare(label, hands, comp, form, args.examples, cache)
    print(f"\ntotal disagreements: {total}")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
