"""``mjfast demo``: classify a batch of random hands and report how fast."""
from __future__ import annotations

import time

import numpy as np

from .._runtime import threads as _config
from ._common import check_run_args, dump_json
from ._options import DEMO_HANDS, DEMO_MAX_HANDS, add_format, add_seed, add_threads


def add_parser(sub) -> None:
    """Add ``mjfast demo`` to the subcommands."""
    d = sub.add_parser("demo", help="classify a batch of random hands and report how fast")
    d.add_argument("-n", "--hands", type=DEMO_HANDS, default=1_000_000, metavar="N",
                   help=f"number of hands (default 1,000,000; at most {DEMO_MAX_HANDS:,})")
    d.add_argument("--tiles", type=int, default=14, choices=[1, 2, 4, 5, 7, 8, 10, 11, 13, 14],
                   help="tiles per hand (default 14)")
    add_seed(d, help="seed of the random hands (default 1)")
    add_threads(d)
    add_format(d, ["table", "json"])
    d.set_defaults(func=run)


def run(args) -> int:
    """Run ``mjfast demo``; the exit status."""
    from .. import hands
    from ..hands._random import random_hands

    check_run_args(args)
    threads = _config.resolve_threads(args.threads)
    n = args.hands
    seed = 1 if args.seed is None else args.seed
    t0 = time.perf_counter()
    batch = random_hands(n, args.tiles, seed=seed)
    t_gen = time.perf_counter() - t0
    hands.shanten(batch[:1])  # build the lookup tables outside the timings
    rows = []
    for form in ("standard", "seven_pairs", "thirteen_orphans", "all"):
        t = time.perf_counter()
        s = hands.shanten(batch, form=form, threads=threads)
        dt = time.perf_counter() - t
        rows.append((form, np.bincount(s + 1, minlength=15), dt))
    t = time.perf_counter()
    win = hands.is_winning(batch, threads=threads) if args.tiles % 3 == 2 else np.zeros(n, bool)
    dt_win = time.perf_counter() - t
    if args.format == "json":
        print(dump_json({
            "n": n, "tiles": args.tiles, "seed": seed, "threads": threads,
            "shanten": {f: {str(k - 1): int(c) for k, c in enumerate(h) if c} for f, h, _ in rows},
            "ns_per_hand": {f: dt / n * 1e9 for f, _, dt in rows} | {"is_winning": dt_win / n * 1e9},
            "complete": int(win.sum()),
        }))
        return 0
    print(f"mjfast demo: {n:,} random {args.tiles}-tile hands from the 136-tile set "
          f"(seed {seed}, {threads} thread{'s' if threads > 1 else ''}; dealt in {t_gen:.2f} s)\n")
    print("shanten distribution (share of hands)")
    print("  " + "shanten".ljust(9) + "".join(f"{f:>18}" for f, _, _ in rows))
    for k in range(15):
        if not any(h[k] for _, h, _ in rows):
            continue
        print("  " + str(k - 1).ljust(9) + "".join(f"{h[k] / n:>18.6f}" for _, h, _ in rows))
    print()
    print("speed (ns per hand, whole batch)")
    for form, _, dt in rows:
        print(f"  shanten form={form:<18}{dt / n * 1e9:8.1f} ns   ({n / dt / 1e6:6.1f} M hands/s)")
    if args.tiles % 3 == 2:
        print(f"  is_winning form=all{'':<13}{dt_win / n * 1e9:8.1f} ns   ({n / dt_win / 1e6:6.1f} M hands/s)")
        print(f"\ncomplete hands: {int(win.sum())} of {n:,}")
    return 0
