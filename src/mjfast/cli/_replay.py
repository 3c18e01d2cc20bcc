"""``mjfast replay``: the event log of one simulated game, as JSON lines."""
from __future__ import annotations

from ._common import announce_notes, dump_json, parse_policies
from ._options import add_format, add_policies, add_rules, add_seed, whole_number


def add_parser(sub) -> None:
    """Add ``mjfast replay`` to the subcommands."""
    rp = sub.add_parser("replay", help="event log of one simulated game (JSON lines)",
                        description="The event log of game --game of the run seeded --seed (the same game "
                                    "mjfast simulate played).")
    add_seed(rp, help="the seed of the run (required)", required=True)
    rp.add_argument("--game", type=whole_number, default=0, metavar="G", help="game index within the run (default 0)")
    add_rules(rp)
    add_policies(rp)
    add_format(rp, ["jsonl", "json"], default="jsonl",
                extra='jsonl (default): the header line, then one event per line; json: one object '
                      '{"header": {...}, "events": [...]} (the same header and events)')
    rp.set_defaults(func=run)


def run(args) -> int:
    """Run ``mjfast replay``; the exit status."""
    from ..game import replay

    policies = parse_policies(args.policies or "greedy", args.rules)
    announce_notes()
    log = replay(args.seed, args.game, rules=args.rules, policies=policies)
    if args.format == "json":
        print(dump_json({"header": log.header, "events": log.events}))
    else:       # the lines of log.to_jsonl(), written strictly
        for line in [{"type": "header", **log.header}] + list(log.events):
            print(dump_json(line, indent=None, ensure_ascii=True))
    return 0
