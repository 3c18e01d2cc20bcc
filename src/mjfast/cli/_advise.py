"""``mjfast advise LOG --at N``: the command line of :func:`mjfast.search.advise`.

Exit status 0 with the advice printed (a table, or strict JSON with
``--format json``: no NaN), 2 with ``mjfast: error: ...`` on stderr for bad input (a file that
is not a log, an event that is not a decision point, a seat not asked there), 130 on Ctrl-C.
Without ``--seed`` a fresh seed is drawn and named on stderr, so the advice can be repeated.
"""
from __future__ import annotations

import argparse
import sys

from ._common import announce_seed, dump_json, parse_policies, seed_or_fresh
from ._options import add_format, add_seed, add_threads

#: the worlds of mjfast.search.advise by default (tests/search/test_search_advise.py checks they agree;
#: not imported from there, so that the parser does not load the search layer: mjfast fan starts fast)
DEFAULT_WORLDS = 256

HELP = "advice on a position of a game log: every legal action's expected points, P(win), P(deal-in)"
DESCRIPTION = (
    "Rebuild the table at event N of a game log (an mjfast event log, JSON lines; mjfast replay writes one) as "
    "the engine had it, sample the hidden tiles from the deciding seat's view, play every legal action forward "
    "in the same worlds and print each action's expected points, P(win) and P(deal-in) with 95% intervals, "
    "best first; the action played in the log is marked *.")


def _nonneg_int(text: str) -> int:
    try:
        v = int(text.replace(",", "").replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number 0 or more, got {text!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"a whole number 0 or more, got {text!r}")
    return v


def _positive(text: str) -> int:
    v = _nonneg_int(text)
    if v == 0:
        raise argparse.ArgumentTypeError(f"a positive whole number, got {text!r}")
    return v


def _seat(text: str) -> int:
    v = _nonneg_int(text)
    if v > 3:
        raise argparse.ArgumentTypeError(f"a seat 0-3, got {text!r}")
    return v


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add ``advise`` to ``subparsers`` (the ``mjfast`` parser's); returns its parser, whose
    ``func`` default is :func:`run`."""
    p = subparsers.add_parser("advise", help=HELP, description=DESCRIPTION)
    p.add_argument("log", metavar="LOG", help="the game log: a file of JSON lines (the header line first), as "
                                             "mjfast replay writes it; - reads it from stdin")
    p.add_argument("--at", dest="at", type=_nonneg_int, required=True, metavar="N",
                   help="the event index (0 = the first event after the header) of the decision: the event that "
                        "answers the seat's question (its discard, claim, kong or win), or the event after a "
                        "claim window it passed")
    p.add_argument("--seat", type=_seat, default=None, metavar="S",
                   help="the seat to advise when several are asked at that event (a claim window); default: the "
                        "seat of event N if it was asked there, else the first seat asked")
    p.add_argument("--worlds", type=_positive, default=DEFAULT_WORLDS, metavar="W",
                   help=f"worlds sampled from the seat's view; every action is played in each (default "
                        f"{DEFAULT_WORLDS})")
    add_seed(p, help="seed of the worlds and rollouts (default: fresh entropy, printed on stderr so that the "
                     "advice can be repeated)")
    p.add_argument("--policies", default="greedy", metavar="P",
                   help="the built-in policies that play the hand out after each action: one name for every seat "
                        "or four comma-separated (default greedy)")
    add_threads(p)
    add_format(p, ["table", "json"], extra="json: the position's facts and one object per action (action, "
                                           "action_id, played, points, points_low, points_high, points_se, p_win, "
                                           "p_win_low, p_win_high, p_deal_in, p_deal_in_low, p_deal_in_high)")
    p.set_defaults(func=run)
    return p


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except FileNotFoundError:
        raise ValueError(f"LOG: no such file: {path}") from None
    except IsADirectoryError:
        raise ValueError(f"LOG: {path} is a directory, not a game log") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"LOG: {path} is not a game log (not UTF-8 text)") from None


def run(args) -> int:
    """Run ``mjfast advise``; the exit status."""
    from ..search._advise import advise

    text = _read(args.log)
    if not text.strip():
        raise ValueError(f"LOG: {args.log} is empty, not a game log")
    pols = parse_policies(args.policies)
    seed = seed_or_fresh(args.seed)
    announce_seed()
    try:
        adv = advise(text, args.at, seat=args.seat, worlds=args.worlds, seed=seed, policies=pols,
                     threads=args.threads)
    except ValueError as exc:
        msg = str(exc).removeprefix("advise: ").removeprefix("evaluate: ")
        raise ValueError(f"--at {args.at}: {msg}" if msg.startswith("event ") else msg) from None
    print(dump_json(adv.to_dict()) if args.format == "json" else repr(adv))
    return 0
