"""``mjfast botzone``: Botzone logs on the command line (to be registered by mjfast's CLI).

- ``mjfast botzone judge LOG``: every hand of a Botzone log played again on mjfast's engine;
  prints each disagreement (winner, fans, scores) with its match and line, then a summary.
  Exit status 0 when every hand agrees, 1 when some disagree, 2 for a log that cannot be read.
- ``mjfast botzone decisions LOG --out FILE.npz``: every decision the hands show, as
  ``cn-v0`` arrays in an ``.npz`` (``numpy.load`` reads it).
"""
from __future__ import annotations

import argparse
import sys


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``botzone`` subcommand to an ``argparse`` subparsers object; returns its parser."""
    p = subparsers.add_parser("botzone", help="Botzone Chinese-Standard-Mahjong logs: judge them, make training data",
                              description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="botzone_command", metavar="COMMAND")
    sub.required = True
    j = sub.add_parser("judge", help="play every hand again on mjfast's engine and report disagreements")
    j.add_argument("log", help="a Botzone log: the match-data text format or JSON match logs")
    j.add_argument("--format", choices=("auto", "text", "json"), default="auto")
    j.add_argument("--no-progress", dest="progress", action="store_false")
    d = sub.add_parser("decisions", help="every decision of the hands as cn-v0 training arrays (.npz)")
    d.add_argument("log", help="a Botzone log: the match-data text format or JSON match logs")
    d.add_argument("--out", required=True, help="the .npz file to write")
    d.add_argument("--format", choices=("auto", "text", "json"), default="auto")
    d.add_argument("--no-progress", dest="progress", action="store_false")
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    """Run ``mjfast botzone ...`` from parsed arguments; the exit status."""
    from ._logs import LogError, read_logs

    try:
        hands = read_logs(args.log, format=args.format, progress=args.progress)
        if args.botzone_command == "judge":
            return _judge(hands)
        return _decisions(hands, args.out)
    except (LogError, OSError) as exc:
        print(f"mjfast botzone: {exc}", file=sys.stderr)
        return 2


def _judge(hands) -> int:
    from ._judge import judge, unsupported

    n = agree = skipped = 0
    for h in hands:
        n += 1
        why = unsupported(h)
        if why:
            skipped += 1
            continue
        try:
            j = judge(h)
        except ValueError as exc:
            print(f"cannot play again: {exc}")
            skipped += 1
            continue
        if j.agrees:
            agree += 1
        for d in j.differences:
            print(d)
    judged = n - skipped
    print(f"{n} hands: {agree} of {judged} judged again agree with the log; {skipped} not judged "
          "(penalty endings, wins on the dealer's first draw, hands mjfast cannot play)")
    return 0 if agree == judged else 1


def _decisions(hands, out: str) -> int:
    import numpy as np

    from ._decisions import decisions

    d = decisions(hands, progress=False)
    np.savez(out, **d.arrays())
    print(f"{len(d)} decisions from {len(set(d.game_id.tolist()))} hands written to {out}; "
          f"{len(d.skipped)} hands left out")
    return 0


def main(argv=None) -> int:
    """``python -m mjfast.botzone._cli ...`` (until the subcommand is registered)."""
    ap = argparse.ArgumentParser(prog="mjfast")
    add_parser(ap.add_subparsers(dest="command"))
    args = ap.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
