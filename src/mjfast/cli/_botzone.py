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

from ._common import dump_json
from ._options import add_format, add_progress

DESCRIPTION = ("Botzone Chinese-Standard-Mahjong match logs (the match-data text format or JSON match logs). "
               "judge: every hand played again on mjfast's engine, each disagreement (winner, fans, scores) printed "
               "with its match and line; exit status 0 when every hand agrees, 1 when some disagree, 2 for a log "
               "that cannot be read. decisions: every decision the hands show, as cn-v0 arrays in an .npz file "
               "(numpy.load reads it).")


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``botzone`` subcommand to an ``argparse`` subparsers object; returns its parser."""
    p = subparsers.add_parser("botzone", help="Botzone Chinese-Standard-Mahjong logs: judge them, make training data",
                              description=DESCRIPTION)
    sub = p.add_subparsers(dest="botzone_command", metavar="COMMAND",
                           help="judge (play the hands again and compare) or decisions (training arrays)")
    sub.required = True
    j = sub.add_parser("judge", help="play every hand again on mjfast's engine and report disagreements")
    j.add_argument("log", help="a Botzone log: the match-data text format or JSON match logs")
    _add_log_format(j)
    add_format(j, ("table", "json"))
    add_progress(j)
    d = sub.add_parser("decisions", help="every decision of the hands as cn-v0 training arrays (.npz)")
    d.add_argument("log", help="a Botzone log: the match-data text format or JSON match logs")
    d.add_argument("--out", required=True, help="the .npz file to write")
    _add_log_format(d)
    add_format(d, ("table", "json"))
    add_progress(d)
    p.set_defaults(func=run)
    return p


def _add_log_format(parser) -> None:
    parser.add_argument("--log-format", choices=("auto", "text", "json"), default="auto",
                        help="the log's format: text (the match-data format), json (the platform's match logs) or "
                             "auto (told by the first character)")


def run(args) -> int:
    """Run ``mjfast botzone ...`` from parsed arguments; the exit status."""
    from ..botzone._logs import LogError, read_logs

    try:
        hands = read_logs(args.log, format=args.log_format, progress=args.progress is not False)
        if args.botzone_command == "judge":
            return _judge(hands, args.format == "json")
        return _decisions(hands, args.out, args.format == "json")
    except (LogError, OSError) as exc:
        print(f"mjfast botzone: {exc}", file=sys.stderr)
        return 2


def _judge(hands, as_json: bool) -> int:
    from ..botzone._judge import judge, unsupported

    n = agree = skipped = 0
    lines: list[str] = []       # the disagreements: printed as they come, or kept for the JSON
    emit = lines.append if as_json else print
    for h in hands:
        n += 1
        why = unsupported(h)
        if why:
            skipped += 1
            continue
        try:
            j = judge(h)
        except ValueError as exc:
            emit(f"cannot play again: {exc}")
            skipped += 1
            continue
        if j.agrees:
            agree += 1
        for d in j.differences:
            emit(str(d))
    judged = n - skipped
    if as_json:
        print(dump_json({"hands": n, "judged": judged, "agree": agree, "not_judged": skipped,
                         "differences": lines}))
        return 0 if agree == judged else 1
    print(f"{n} hands: {agree} of {judged} judged again agree with the log; {skipped} not judged "
          "(penalty endings, wins on the dealer's first draw, hands mjfast cannot play)")
    return 0 if agree == judged else 1


def _decisions(hands, out: str, as_json: bool) -> int:
    import numpy as np

    from ..botzone._decisions import decisions

    d = decisions(hands, progress=False)
    np.savez(out, **d.arrays())
    n_hands = len(set(d.game_id.tolist()))
    if as_json:
        print(dump_json({"decisions": len(d), "hands": n_hands, "left_out": len(d.skipped), "out": out}))
        return 0
    print(f"{len(d)} decisions from {n_hands} hands written to {out}; "
          f"{len(d.skipped)} hands left out")
    return 0

