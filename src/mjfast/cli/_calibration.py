"""``mjfast calibration``: simulated Chinese Official play beside people's (:func:`mjfast.calibration`)."""
from __future__ import annotations

import sys

from ._common import announce_seed, check_run_args, dump_json, parse_policies, progress_arg, seed_or_fresh
from ._options import GAMES, add_format, add_progress, add_seed, add_threads

#: the rule sets with fan scoring (the published figures are of Chinese Official play)
FAN_RULES = ("mcr", "mcr-botzone")


def add_parser(sub) -> None:
    """Add ``mjfast calibration`` to the subcommands."""
    p = sub.add_parser("calibration", help="simulated MCR play beside people's: draw rate, self-drawn share, fans",
                       description="Simulate Chinese Official hands (mjfast.calibration) and print the exhaustive "
                                   "draw rate, the self-drawn and discard shares of wins, the mean hand fan and the "
                                   "mean turns per hand, beside the published figures of people's play on Botzone "
                                   "(530,458 hands), with 95% intervals. With --logs, also a Botzone log's figures, "
                                   "each fan's share of wins and the total-variation distance of the hand-fan "
                                   "distributions.")
    p.add_argument("--rules", default="mcr", choices=FAN_RULES, help="the rule set: mcr (default) or mcr-botzone")
    p.add_argument("-n", "--hands", type=GAMES, default=20_000, metavar="N",
                   help="hands to simulate (default 20,000; whole games are played)")
    p.add_argument("--policies", metavar="P[,P1,P2,P3]", default="humanlike",
                   help="the policy of every seat, or four comma-separated names (seats 0 to 3): random, greedy, "
                        "defensive, greedy_blind or humanlike (default humanlike)")
    p.add_argument("--logs", default=None, metavar="FILE",
                   help="a Botzone log to compare with (the match-data text format or JSON match logs)")
    add_seed(p)
    add_threads(p)
    add_format(p, ["table", "json"], extra="json: rules, policies, seed, hands, the figures {name, simulated "
                                           "{value, se, ci95}, published}, and with --logs the log's figures, "
                                           "fan shares and the total-variation distance")
    add_progress(p)
    p.set_defaults(func=run)


def run(args) -> int:
    """Run ``mjfast calibration``; the exit status."""
    from .. import rules as _rules
    from ..analysis.calibration import calibration

    rules = _rules.get(args.rules)
    policies = parse_policies(args.policies, rules)
    check_run_args(args)
    seed = seed_or_fresh(args.seed)
    announce_seed()
    try:
        c = calibration(rules=rules, policies=policies, hands=args.hands, seed=seed, logs=args.logs,
                        threads=args.threads, progress=progress_arg(args))
    except OSError as exc:
        raise ValueError(f"--logs: {exc}") from None
    except KeyboardInterrupt:
        print("mjfast: interrupted", file=sys.stderr)
        return 130
    print(dump_json(c.to_dict()) if args.format == "json" else c.table())
    return 0
