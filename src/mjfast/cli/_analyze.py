"""``mjfast analyze H``: one hand as a table (shanten per form, waits, each discard's effective
tiles; ``--rules mcr``: the fans of each wait), and with ``--draws`` its win-by-turn odds.
"""
from __future__ import annotations

from ._common import announce_seed, dump_json, inapplicable, progress_arg, seed_note, seed_or_fresh
from ._options import add_format, add_hand, add_progress, add_seed, rules_arg, whole_number


def add_parser(sub) -> None:
    """Add ``mjfast analyze`` to the subcommands."""
    an = sub.add_parser("analyze", help="one hand as a table: shanten per form, waits, effective tiles per discard")
    add_hand(an, 'e.g. "123m456p789s1122z" or "123m456p1z [555z]"')
    an.add_argument("--visible", default=None, help="tiles seen elsewhere (discards, exposures), e.g. 1z5p")
    an.add_argument("--rules", type=rules_arg, default="classical", help="classical (default), basic, mcr or none")
    add_format(an, ["table", "json"])
    an.add_argument("--draws", type=whole_number, default=None, metavar="T",
                    help="also the win-by-turn odds over T draws (exact when cheaper than Monte Carlo, e.g. up to "
                         "4-shanten)")
    add_seed(an, help="--draws: seed of a Monte Carlo win-by-turn run (default: fresh entropy, printed on stderr)")
    an.add_argument("--draw-policy", choices=["greedy", "first", "greedy_swap"], default=None,
                    help="--draws: the drawing policy of the win-by-turn odds (default greedy; see mjfast.analysis.winturn)")
    add_progress(an, when="; with --draws")
    an.add_argument("--min-fan", type=whole_number, default=None, metavar="F",
                    help="--rules mcr: the minimum of a valid win, fans without flowers (default 8)")
    an.add_argument("--seat-wind", default=None, choices=["E", "S", "W", "N"], help="--rules mcr: default E")
    an.add_argument("--prevalent-wind", default=None, choices=["E", "S", "W", "N"], help="--rules mcr: default E")
    an.set_defaults(func=run)


def run(args) -> int:
    """Run ``mjfast analyze``; the exit status."""
    from ..analysis import analyze

    text = " ".join(args.hand)
    mcr_kw = {k: v for k, v in (("min_fan", args.min_fan), ("seat_wind", args.seat_wind),
                                ("prevalent_wind", args.prevalent_wind)) if v is not None}   # --rules mcr only
    if mcr_kw and args.rules != "mcr":
        raise inapplicable(next(o for o, d in (("--min-fan", "min_fan"), ("--seat-wind", "seat_wind"),
                                                 ("--prevalent-wind", "prevalent_wind")) if d in mcr_kw),
                            f"--rules {args.rules or 'none'}", "fans are scored under the Chinese Official rules "
                                                                "(--rules mcr)")
    if args.draws is None:
        for option, given in (("--seed", args.seed is not None), ("--draw-policy", args.draw_policy is not None),
                              ("--progress/--no-progress", args.progress is not None)):
            if given:
                raise inapplicable(option, "analyze without --draws",
                                    "it is an option of the win-by-turn odds that --draws T adds")
    res = analyze(text, visible=args.visible, rules=args.rules, **mcr_kw)
    odds = None
    if args.draws is not None:
        from ..analysis.winturn import win_by_turn

        seed = seed_or_fresh(args.seed)   # announced below if the curve is Monte Carlo (auto's choice)
        odds = win_by_turn(text, draws=args.draws, visible=args.visible, rules=args.rules, seed=seed,
                           policy=args.draw_policy or "greedy", progress=progress_arg(args))
        if odds.method != "monte_carlo":   # an exact curve uses no seed
            seed_note.clear()
    announce_seed()
    if args.format == "json":
        data = res.to_dict()
        if odds is not None:
            data["win_by_turn"] = odds.to_dict()
        print(dump_json(data))
    else:
        print(res.table())
        if odds is not None:
            print()
            print(odds.table())
    return 0
