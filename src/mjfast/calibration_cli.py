"""``mjfast calibration``: simulated MCR play beside people's on the command line (to be
registered by mjfast's CLI).

Prints the table of :func:`mjfast.calibration` (or its JSON with ``--json``): the exhaustive
draw rate, the self-drawn and discard shares of wins, the mean hand fan and the mean turns per
hand, simulated and published, with 95 % intervals; with ``--logs``, also a Botzone log's
figures, its fans' shares of wins and the total-variation distance of the hand-fan
distributions. Exit status 0, or 2 for bad arguments or a log that cannot be read.
"""
from __future__ import annotations

import argparse
import json
import sys


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``calibration`` subcommand to an ``argparse`` subparsers object; returns its parser."""
    p = subparsers.add_parser("calibration", help="simulated MCR play beside people's (draw rate, self-drawn share, fans)",
                              description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rules", default="mcr", help="a Chinese rule set with fan scoring (default mcr)")
    p.add_argument("--policies", default="humanlike",
                   help="one built-in policy, or four separated by commas (default humanlike)")
    p.add_argument("--hands", type=int, default=20_000, help="hands to simulate (default 20000)")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--logs", default=None, help="a Botzone log to compare with (text or JSON match logs)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    """Run ``mjfast calibration`` from parsed arguments; the exit status."""
    from .calibration import calibration

    pols = args.policies.split(",") if "," in args.policies else args.policies
    try:
        c = calibration(rules=args.rules, policies=pols, hands=args.hands, seed=args.seed, logs=args.logs,
                        threads=args.threads)
    except (ValueError, TypeError, OSError) as e:
        print(f"mjfast calibration: {e}", file=sys.stderr)
        return 2
    print(json.dumps(c.to_dict(), indent=1) if args.json else c.table())
    return 0


def main(argv=None) -> int:
    """Run the subcommand alone (``python -m mjfast.calibration_cli ...``)."""
    parser = argparse.ArgumentParser(prog="mjfast")
    add_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["calibration", *(sys.argv[1:] if argv is None else argv)])
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
