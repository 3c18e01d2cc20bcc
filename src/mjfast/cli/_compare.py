"""``mjfast compare A B``: policy A against policy B on the same walls (paired differences)."""
from __future__ import annotations

import sys
import time

from .. import _core
from .. import rules as _rules
from .._runtime.seeding import seed_to_json
from ._common import announce_seed, check_run_args, dump_json, parse_policies, progress_arg, seed_or_fresh
from ._options import WALL_SETS, add_format, add_progress, add_rule_options, add_rules, add_seed, add_threads, rule_options


def add_parser(sub) -> None:
    """Add ``mjfast compare`` to the subcommands."""
    cp = sub.add_parser("compare", help="policy A against policy B on the same walls: paired differences",
                        description="Compare two policies with common random numbers (mjfast.compare): every "
                                    "wall set is played with A in each seat against three B, and by four B; "
                                    "the differences in points and win rate of the same seat on the same walls "
                                    "are averaged over wall sets.")
    cp.add_argument("policy_a", metavar="A", help="policy A: random, greedy, defensive or greedy_blind "
                                                  "(american: random or greedy)")
    cp.add_argument("policy_b", metavar="B", help="policy B, the baseline (the same names)")
    add_rules(cp)
    cp.add_argument("-n", "--games", type=WALL_SETS, default=10_000, metavar="N",
                    help="wall sets to play (default 10,000; each is played 5 times)")
    add_seed(cp)
    add_threads(cp)
    add_format(cp, ["table", "json", "csv"],
                extra="json: rules, options, seed, policy_a, policy_b, wall_sets, games, points_diff and "
                      "win_rate_diff {mean, se, n, ci95}, a and b {policy, hands, win_rate, win_rate_ci95, "
                      "deal_in_rate, mean_points, mean_points_se}, seconds")
    add_progress(cp)
    add_rule_options(cp)
    cp.set_defaults(func=run)


def run(args) -> int:
    """Run ``mjfast compare``; the exit status."""
    from ..game import compare

    opts = rule_options(args)
    rules = _rules.get(args.rules, **opts)
    pair = []
    for name, which in ((args.policy_a, "A"), (args.policy_b, "B")):
        if "," in name:
            raise ValueError(f"policy {which}: compare takes one policy name for A and one for B; got {name!r}")
        pair.append(parse_policies(name, rules, option=f"policy {which}"))
    check_run_args(args)
    seed = seed_or_fresh(args.seed)
    _core.ensure_tables()
    announce_seed()
    t0 = time.perf_counter()
    try:
        c = compare(pair[0], pair[1], args.games, rules=rules, seed=seed, threads=args.threads,
                    progress=progress_arg(args))
    except KeyboardInterrupt:
        print("mjfast: interrupted", file=sys.stderr)
        return 130
    dt = time.perf_counter() - t0

    def side(res, name):
        w, d, m = res.win_rate(policy=name), res.deal_in_rate(policy=name), res.mean_points(policy=name)
        return {"policy": name, "hands": w.n, "win_rate": w.p, "win_rate_ci95": [w.low, w.high],
                "deal_in_rate": d.p, "mean_points": m.mean, "mean_points_se": m.se}

    data = {"rules": rules.name, "options": rules.to_dict(), "seed": seed_to_json(seed)} | c.to_dict()
    data |= {"games": 5 * c.wall_sets, "a": side(c.a, c.policy_a), "b": side(c.b, c.policy_b), "seconds": dt}
    if args.format == "json":
        print(dump_json(data))
        return 0
    rows = (("points per game", c.points_diff, "+.2f"), ("win rate per hand", c.win_rate_diff, "+.4f"))
    if args.format == "csv":
        print("statistic,mean,se,ci95_low,ci95_high,n")
        for name, m, _ in rows:
            print(f"{name.replace(' ', '_')},{m.mean!r},{m.se!r},{m.low!r},{m.high!r},{m.n}")
        return 0
    print(f"mjfast compare: A = {c.policy_a} against B = {c.policy_b}, rules {rules.name}, seed {data['seed']}")
    print(f"{c.wall_sets:,} wall sets, each played by A in every seat against three B and by four B "
          f"({data['games']:,} games): A minus B in the same seat on the same walls\n")
    print(f"{'':<20}{'A - B':>12}   95% interval")
    for name, m, fmt in rows:
        print(f"{name:<20}{format(m.mean, fmt):>12}   [{format(m.low, fmt)}, {format(m.high, fmt)}]")
    print(f"\n{'':<20}{'win rate':>10}{'deal-in rate':>14}{'mean points':>13}")
    start = c.a.points_start()      # the table shows points won or lost per game (American players start at 650)
    for label, d in (("A " + c.policy_a, data["a"]), ("B " + c.policy_b, data["b"])):
        print(f"{label:<20}{d['win_rate']:>10.4f}{d['deal_in_rate']:>14.4f}{d['mean_points'] - start:>+13.2f}")
    print(f"\n{data['games']:,} games in {dt:.2f} s")
    return 0
