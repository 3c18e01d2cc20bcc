"""``mjfast botzone``: Botzone logs on the command line.

- ``mjfast botzone judge LOG``: every hand of a Botzone log played again on mjfast's engine;
  prints each disagreement (winner, fans, scores) with its match and line, then a summary.
  Exit status 0 when every hand agrees, 1 when some disagree, 2 for a log that cannot be read.
- ``mjfast botzone decisions LOG --out FILE.npz``: every decision the hands show, as
  ``cn-v0`` arrays in an ``.npz`` (``numpy.load`` reads it).
"""
from __future__ import annotations

import argparse
import sys

from ._options import add_progress

DESCRIPTION = ("Botzone Chinese-Standard-Mahjong match logs (the match-data text format or JSON match logs). "
               "judge: every hand played again on mjfast's engine, each disagreement (winner, fans, scores) printed "
               "with its match and line; exit status 0 when every hand agrees, 1 when some disagree, 2 for a log "
               "that cannot be read. decisions: every decision the hands show, as cn-v0 arrays in an .npz file "
               "(numpy.load reads it).")


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``botzone`` subcommand to an ``argparse`` subparsers object; returns its parser."""
    p = subparsers.add_parser("botzone", help="Botzone Chinese-Standard-Mahjong logs: judge them, make training data",
                              description=DESCRIPTION)
    sub = p.add_subparsers(dest="botzone_command", metavar="COMMAND")
    sub.required = True
    j = sub.add_parser("judge", help="play every hand again on mjfast's engine and report disagreements")
    j.add_argument("log", help="a Botzone log: the match-data text format or JSON match logs")
    j.add_argument("--format", choices=("auto", "text", "json"), default="auto")
    add_progress(j)
    d = sub.add_parser("decisions", help="every decision of the hands as cn-v0 training arrays (.npz)")
    d.add_argument("log", help="a Botzone log: the match-data text format or JSON match logs")
    d.add_argument("--out", required=True, help="the .npz file to write")
    d.add_argument("--format", choices=("auto", "text", "json"), default="auto")
    add_progress(d)
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    """Run ``mjfast botzone ...`` from parsed arguments; the exit status."""
    from ..botzone._logs import LogError, read_logs

    try:
        hands = read_logs(args.log, format=args.format, progress=args.progress is not False)
        if args.botzone_command == "judge":
            return _judge(hands)
        return _decisions(hands, args.out)
    except (LogError, OSError) as exc:
        print(f"mjfast botzone: {exc}", file=sys.stderr)
        return 2


def _judge(hands) -> int:
    from ..botzone._judge import judge, unsupported

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

    from ..botzone._decisions import decisions

    d = decisions(hands, progress=False)
    np.savez(out, **d.arrays())
    print(f"{len(d)} decisions from {len(set(d.game_id.tolist()))} hands written to {out}; "
          f"{len(d.skipped)} hands left out")
    return 0

