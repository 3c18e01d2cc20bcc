"""The ``mjfast`` command line.

``mjfast demo``       classify a batch of random hands and report how fast (the README's first command)
``mjfast shanten H``  shanten, waits and effective tiles of one hand
``mjfast config``     how mjfast was built (OpenMP or not) and what it will use
"""
from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np


def _cmd_demo(args) -> int:
    from . import hands, _config
    from ._random_hands import random_hands

    threads = _config.resolve_threads(args.threads)
    t0 = time.perf_counter()
    batch = random_hands(args.n, args.tiles, seed=args.seed)
    t_gen = time.perf_counter() - t0
    hands.shanten(batch[:1])  # build the lookup tables outside the timings
    rows = []
    for form in ("standard", "seven_pairs", "thirteen_orphans", "all"):
        t = time.perf_counter()
        s = hands.shanten(batch, form=form, threads=threads)
        dt = time.perf_counter() - t
        rows.append((form, np.bincount(s + 1, minlength=15), dt))
    t = time.perf_counter()
    win = hands.is_winning(batch, threads=threads) if args.tiles % 3 == 2 else np.zeros(args.n, bool)
    dt_win = time.perf_counter() - t
    if args.format == "json":
        print(json.dumps({
            "n": args.n, "tiles": args.tiles, "seed": args.seed, "threads": threads,
            "shanten": {f: {str(k - 1): int(c) for k, c in enumerate(h) if c} for f, h, _ in rows},
            "ns_per_hand": {f: dt / args.n * 1e9 for f, _, dt in rows} | {"is_winning": dt_win / args.n * 1e9},
            "complete": int(win.sum()),
        }, indent=2))
        return 0
    print(f"mjfast demo: {args.n:,} random {args.tiles}-tile hands from the 136-tile set "
          f"(seed {args.seed}, {threads} thread{'s' if threads > 1 else ''}; dealt in {t_gen:.2f} s)\n")
    print("shanten distribution (share of hands)")
    print("  " + "shanten".ljust(9) + "".join(f"{f:>18}" for f, _, _ in rows))
    for k in range(15):
        if not any(h[k] for _, h, _ in rows):
            continue
        print("  " + str(k - 1).ljust(9) + "".join(f"{h[k] / args.n:>18.6f}" for _, h, _ in rows))
    print()
    print("speed (ns per hand, whole batch)")
    for form, _, dt in rows:
        print(f"  shanten form={form:<18}{dt / args.n * 1e9:8.1f} ns   ({args.n / dt / 1e6:6.1f} M hands/s)")
    if args.tiles % 3 == 2:
        print(f"  is_winning form=all{'':<13}{dt_win / args.n * 1e9:8.1f} ns   ({args.n / dt_win / 1e6:6.1f} M hands/s)")
        print(f"\ncomplete hands: {int(win.sum())} of {args.n:,}")
    return 0


def _cmd_shanten(args) -> int:
    from . import hands

    text = " ".join(args.hand)
    s = hands.shanten(text, form=args.form, rules=args.rules)
    print(f"hand      {text}")
    print(f"shanten   {s}  (form={args.form}, rules={args.rules})")
    n = int(hands.as_batch(text).data.sum())
    if s == -1 and n % 3 == 2:
        for d in hands.decompose(text):
            print("decomp    " + " ".join(d))
    if n % 3 == 1:
        if s == 0:
            print("waits     " + " ".join(hands.waits(text, form=args.form, rules=args.rules)))
        imp = hands.effective_tiles(text, args.visible, form=args.form, rules=args.rules)
        print(f"improve   {imp.count} unseen tiles: " + " ".join(f"{k}x{v}" for k, v in imp.tiles.items()))
    elif s >= 0:
        print("discard   shanten  unseen  tiles")
        for imp in hands.effective_tiles(text, args.visible, form=args.form, rules=args.rules):
            print(f"  {imp.discard:<8}{imp.shanten:>6}{imp.count:>8}  " + " ".join(f"{k}x{v}" for k, v in imp.tiles.items()))
    return 0


def _cmd_config(args) -> int:
    from ._config import show_config

    show_config()
    return 0


def _rules_arg(value: str):
    return None if value in ("none", "default") else value


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mjfast", description="Very fast mahjong hands, deals and simulations.")
    sub = p.add_subparsers(dest="command", required=True)

    d = sub.add_parser("demo", help="classify a batch of random hands and report how fast")
    d.add_argument("-n", type=int, default=1_000_000, help="number of hands (default 1,000,000)")
    d.add_argument("--tiles", type=int, default=14, choices=[1, 2, 4, 5, 7, 8, 10, 11, 13, 14], help="tiles per hand")
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--threads", type=int, default=None)
    d.add_argument("--format", choices=["table", "json"], default="table")
    d.set_defaults(func=_cmd_demo)

    s = sub.add_parser("shanten", help="shanten, waits and effective tiles of one hand")
    s.add_argument("hand", nargs="+", help='hand text, e.g. "123m456p789s1122z"')
    s.add_argument("--form", default="all")
    s.add_argument("--rules", type=_rules_arg, default=None, help="none (default), classical, basic or mcr")
    s.add_argument("--visible", default=None, help="tiles seen elsewhere, e.g. 1z5p")
    s.set_defaults(func=_cmd_shanten)

    c = sub.add_parser("config", help="show build configuration (OpenMP, threads)")
    c.set_defaults(func=_cmd_config)
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``mjfast`` command; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "demo" and args.n <= 0:
        parser.error("-n must be a positive number of hands")
    try:
        return args.func(args)
    except (ValueError, TypeError) as exc:
        print(f"mjfast: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("mjfast: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
