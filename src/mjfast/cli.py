"""The ``mjfast`` command line.

``mjfast simulate``   win rates of simulated games (the README's first command)
``mjfast replay``     the event log of one simulated game, as JSON lines
``mjfast deal-stats`` odds of dealt hands
``mjfast demo``       classify a batch of random hands and report how fast
``mjfast shanten H``  shanten, waits and effective tiles of one hand
``mjfast analyze H``  one hand as a table: shanten per form, waits, each discard's effective tiles
                     (--rules mcr: the fans of each wait, on a discard and self-drawn)
``mjfast odds-table`` deal odds, win-by-turn curves, win rates or MCR ready deals as a table (and a plot)
``mjfast config``     how mjfast was built (OpenMP or not) and what it will use

Every subcommand takes ``--format json`` (``replay`` prints JSON lines by default), and
``mjfast --version`` prints the version. Output into a pipe that closes early (``mjfast
simulate | head``) ends the command quietly with status 141 (128 + SIGPIPE), as other Unix
tools end, and a fresh seed is announced on stderr only once the arguments have been checked.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from typing import Any

import numpy as np

from . import rules as _rules
from ._version import __version__

#: exit status after the reader of stdout (or stderr) went away: 128 + SIGPIPE, as a shell
#: reports a tool that SIGPIPE ended (``yes | head``)
EXIT_BROKEN_PIPE = 141


def _cmd_demo(args) -> int:
    from . import hands
    from ._runtime import threads as _config
    from .hands._random import random_hands

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
    american = _rules.facts(args.rules)[2] == "american"
    if american:  # 13 tiles: waiting hand; 14: one row per discard
        from .hands import _american as _american_hands

        n = 13 if int(_american_hands.as_batch(text, _american_hands.SIZES_SHANTEN).data.sum()) == 13 else 14
    else:
        n = int(hands.as_batch(text).data.sum())
    # the facts of the table, in the JSON shape --format json prints (see its help)
    data: dict[str, Any] = {"hand": text, "shanten": s, "form": args.form, "rules": args.rules,
                            "visible": args.visible}
    if n % 3 == 1:
        data["waits"] = hands.waits(text, form=args.form, rules=args.rules) if s == 0 else []
        imp = hands.effective_tiles(text, args.visible, form=args.form, rules=args.rules)
        data["effective_tiles"] = {"count": imp.count, "tiles": dict(imp.tiles)}
    else:
        if not american:
            data["decompositions"] = [list(d) for d in hands.decompose(text)] if s == -1 else []
        data["discards"] = [{"discard": imp.discard, "shanten": imp.shanten, "count": imp.count,
                             "tiles": dict(imp.tiles)}
                            for imp in (hands.effective_tiles(text, args.visible, form=args.form, rules=args.rules)
                                        if s >= 0 else ())]
    if args.format == "json":
        print(json.dumps(data, indent=2))
        return 0
    print(f"hand      {text}")
    print(f"shanten   {s}  (form={args.form}, rules={args.rules})")
    for d in data.get("decompositions", ()):
        print("decomp    " + " ".join(d))
    if n % 3 == 1:
        if s == 0:
            print("waits     " + " ".join(data["waits"]))
        imp = data["effective_tiles"]
        print(f"improve   {imp['count']} unseen tiles: " + " ".join(f"{k}x{v}" for k, v in imp["tiles"].items()))
    elif s >= 0:
        print("discard   shanten  unseen  tiles")
        for row in data["discards"]:
            print(f"  {row['discard']:<8}{row['shanten']:>6}{row['count']:>8}  "
                  + " ".join(f"{k}x{v}" for k, v in row["tiles"].items()))
    return 0


#: the pending "no --seed given" line of this run (see _seed_or_fresh and _announce_seed)
_seed_note: list[str] = []


def _seed_or_fresh(seed):
    """The --seed given, or fresh entropy, to be announced on stderr so the run can be repeated.

    The announcement waits for :func:`_announce_seed`, which a command calls once its arguments
    are checked (before the long work, so the line precedes the progress bar); :func:`main`
    drops it on an argument error and prints it otherwise (a result, Ctrl-C, a closed pipe).
    """
    if seed is None:
        from ._runtime.seeding import root_key

        seed = root_key(None).entropy
        _seed_note[:] = [f"mjfast: no --seed given; using --seed {seed}"]
    return seed


def _announce_seed() -> None:
    """Print the pending "no --seed given" line, once."""
    while _seed_note:
        print(_seed_note.pop(), file=sys.stderr)


def _check_run_args(args, rules=None, policies=None) -> None:
    """Raise now, before the seed is announced and the work (or a Dask cluster) starts, the
    library's own errors for a bad ``--policy`` (for ``rules``) or ``--threads``."""
    from ._runtime.threads import resolve_threads

    if rules is not None:
        from .game.runner import family, resolve

        resolve(family(rules), policies)
    if getattr(args, "backend", "local") == "local" or args.threads is not None:  # dask: None = 1 per task
        resolve_threads(args.threads)


def _exact_shape(rules: str, flowers, jokers) -> dict:
    """Exact deal odds in the JSON shape of DealStats.to_dict, "num/den" strings for counts."""
    from . import exact
    from .deals import deal_spec

    spec = deal_spec(rules, flowers=flowers, jokers=jokers)
    out: dict[str, Any] = {"rules": rules, "exact": True, "options": spec.options, "forms": list(spec.forms) + ["all"]}
    extra = {"jokers": spec.jokers} if spec.american else {}
    for seat, tiles in (("dealer", 14), ("non_dealer", 13)):
        table = exact.exact_deal_odds_table(rules=rules, tiles=tiles, **extra)
        sh = {}
        any_res = None
        for form, res in table.items():
            sh[form] = {str(k): f"{v.numerator}/{v.denominator}" for k, v in sorted(res["shanten"].items())}
            any_res = res
        if "all" not in sh and len(spec.forms) == 1:
            sh["all"] = sh[spec.forms[0]]
        final = table.get("all") or any_res
        assert final is not None and any_res is not None  # the table has a row per form of the rule set
        out[seat] = {
            "tiles": tiles,
            "shanten": sh,
            "complete": _frac(final["complete"]),
            "tenpai": _frac(final["tenpai"]),
            "four_of_a_kind": _frac(any_res["four_of_a_kind"]),
        }
        if spec.american:  # the exact flower and joker distributions, as DealStats gives them
            for key in ("bonus_tiles", "jokers"):
                out[seat][key] = {str(k): _frac(v) for k, v in final[key].items()}
    return out


def _frac(f) -> str:
    return f"{f.numerator}/{f.denominator}"


@contextlib.contextmanager
def _backend_client(args):
    """The Dask client for ``--backend dask`` (None for the local backend), closed afterwards.

    ``--scheduler ADDRESS`` connects to a running cluster. Without it, ``distributed.Client()``
    decides: the scheduler named by Dask's configuration (``DASK_SCHEDULER_ADDRESS``) if any,
    else a LocalCluster of worker processes on this machine, started for the run.
    """
    if args.backend != "dask":
        yield None
        return
    from ._runtime.dask import import_distributed

    distributed = import_distributed()
    try:
        client = (distributed.Client(args.scheduler, timeout=args.connect_timeout) if args.scheduler
                  else distributed.Client())
    except OSError as exc:
        raise ValueError(f"cannot connect to the Dask scheduler {args.scheduler or ''} within "
                         f"{args.connect_timeout:g} s (--connect-timeout): {exc}") from exc
    if not args.scheduler:
        print(f"mjfast: no --scheduler given; using Dask scheduler {client.scheduler.address}", file=sys.stderr)
    try:
        yield client
    finally:
        client.close()


def _positive_seconds(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of seconds, got {text!r}") from None
    if not v > 0 or v != v or v == float("inf"):
        raise argparse.ArgumentTypeError(f"a positive number of seconds, got {text!r}")
    return v


def _add_backend_args(parser) -> None:
    parser.add_argument("--backend", choices=["local", "dask"], default="local",
                        help="local threads (default) or a Dask cluster (pip install \"mjfast[dask]\")")
    parser.add_argument("--scheduler", metavar="ADDRESS", default=None,
                        help="--backend dask: address of a running Dask scheduler, e.g. tcp://host:8786 "
                             "(default: DASK_SCHEDULER_ADDRESS, else a local cluster)")
    parser.add_argument("--connect-timeout", metavar="SECONDS", type=_positive_seconds, default=5.0,
                        help="--backend dask with --scheduler: seconds to wait for the scheduler before "
                             "failing (default 5)")


def _cmd_deal_stats(args) -> int:
    import csv
    import io

    from .deals import deal_spec, deal_stats

    if args.exact:
        data = _exact_shape(args.rules, args.flowers or None, args.jokers)
        if args.format == "json":
            print(json.dumps(data, indent=2))
        else:
            _print_exact(data, csv_out=args.format == "csv")
        return 0
    deal_spec(args.rules, flowers=args.flowers or None, jokers=args.jokers)  # validate before seeding
    _check_run_args(args)
    seed = _seed_or_fresh(args.seed)
    from . import _core

    _core.ensure_tables()
    t0 = time.perf_counter()
    try:
        with _backend_client(args) as client:
            _announce_seed()  # the arguments are valid and the cluster (if any) is up
            st = deal_stats(args.n, rules=args.rules, seed=seed, threads=args.threads,
                            progress=not args.no_progress, flowers=args.flowers or None, jokers=args.jokers,
                            backend=args.backend, client=client)
    except KeyboardInterrupt as exc:
        part = getattr(exc, "partial", None)
        print(f"mjfast: interrupted after {part.n if part else 0:,} deals", file=sys.stderr)
        return 130
    dt = time.perf_counter() - t0
    if args.format == "json":
        data = st.to_dict()
        data["seconds"] = dt
        print(json.dumps(data, indent=2))
    elif args.format == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["seat", "form", "shanten", "count", "n", "p", "se", "ci95_low", "ci95_high", "one_in"])
        for seat in ("dealer", "non_dealer"):
            for form in st.forms + ("all",):
                for s, e in st.shanten_estimates(seat, form).items():
                    w.writerow([seat, form, s, e.count, e.n, repr(e.p), repr(e.se), repr(e.low), repr(e.high),
                                repr(e.one_in)])
        print(buf.getvalue(), end="")
    else:
        print(st.table())
        print(f"\n{args.n:,} deals in {dt:.2f} s ({args.n / dt / 1e6:.1f} M deals/s, "
              f"{2 * args.n / dt / 1e6:.1f} M hands classified/s)")
    return 0


def _print_exact(data: dict, csv_out: bool) -> None:
    from fractions import Fraction

    if csv_out:
        print("seat,form,shanten,probability,fraction")
    else:
        print(f"mjfast exact deal odds: rules={data['rules']} {data['options']}")
    for seat in ("dealer", "non_dealer"):
        if not csv_out:
            print(f"\n{seat.replace('_', '-')} ({data[seat]['tiles']} tiles)")
        for form, dist in data[seat]["shanten"].items():
            if not csv_out:
                print(f"  form={form}")
                print(f"    {'shanten':>8} {'probability':>14} {'1 in':>12}  exact")
            for s, frac in dist.items():
                p = Fraction(frac)
                if csv_out:
                    print(f"{seat},{form},{s},{float(p)!r},{frac}")
                else:
                    one_in = f"{1 / float(p):.4g}" if p else "inf"
                    print(f"    {s:>8} {float(p):>14.8g} {one_in:>12}  {frac}")


def _cmd_simulate(args) -> int:
    import csv
    import io

    from . import _core
    from .game import AmericanSimResult
    from .sim import game_rules, simulate

    opts: dict[str, Any] = {}
    if args.flowers:
        opts["flowers"] = True
    if args.payment:
        opts["payment"] = args.payment
    if args.rounds:
        opts["rounds"] = args.rounds
    if args.base_points is not None:
        opts["base_points"] = args.base_points
    if args.refill_dead_wall:
        opts["refill_dead_wall"] = True
    if args.added_kong is not None:
        opts["added_kong"] = args.added_kong
    if args.min_fan is not None:
        opts["min_fan"] = args.min_fan
    if args.scoring is not None:
        opts["scoring"] = args.scoring
    if args.false_win is not None:
        opts["false_win"] = args.false_win
    if args.no_flowers:
        if args.flowers:
            raise ValueError("--flowers and --no-flowers contradict each other")
        opts["flowers"] = False
    if args.jokers is not None:
        opts["jokers"] = args.jokers
    if args.second_charleston is not None:
        opts["second_charleston"] = {"policy": "policy", "always": True, "never": False}[args.second_charleston]
    if args.no_courtesy:
        opts["courtesy"] = False
    if args.no_blind_pass:
        opts["blind_pass"] = False
    rules = game_rules(args.rules, **opts)
    american = rules.family == "american"
    if args.charleston_effect and not american:
        raise ValueError("--charleston-effect needs --rules american")
    policies = args.policy.split(",") if "," in args.policy else args.policy
    _check_run_args(args, rules, policies)
    if args.charleston_effect:
        return _charleston_effect(args, opts)
    seed = _seed_or_fresh(args.seed)
    _core.ensure_tables()
    t0 = time.perf_counter()
    try:
        with _backend_client(args) as client:
            _announce_seed()  # the arguments are valid and the cluster (if any) is up
            res = simulate(args.games, rules=rules, policies=policies, seed=seed, threads=args.threads,
                           duplicate=args.duplicate, progress=not args.no_progress, backend=args.backend,
                           client=client)
    except KeyboardInterrupt as exc:
        part = getattr(exc, "partial", None)
        print(f"mjfast: interrupted after {part.games if part else 0:,} games", file=sys.stderr)
        return 130
    dt = time.perf_counter() - t0
    if args.format == "json":
        data = res.to_dict()
        data["seconds"] = dt
        data["games_per_second"] = res.games / dt
        data["turns_per_second"] = res.turns / dt
        print(json.dumps(data, indent=2))
    elif args.format == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["seat", "policy", "hands", "wins", "self_draw_wins", "discard_wins", "deal_ins", "win_rate",
                    "win_rate_ci95_low", "win_rate_ci95_high", "deal_in_rate", "mean_points", "mean_points_se"]
                   + (["jokerless_wins", "dead_hands", "mean_distance_before", "mean_distance_after"] if american else []))
        for s in range(4):
            e, d, m = res.win_rate(s), res.deal_in_rate(s), res.mean_points(s)
            pol = "" if res.duplicate else (res.policies[s] if isinstance(res.policies[s], str) else res.policies[s].name)
            extra = ([int(res.jokerless_wins[s]), int(res.dead_hands[s]), repr(res.mean_distance("before", s).mean),
                      repr(res.mean_distance("after", s).mean)] if isinstance(res, AmericanSimResult) else [])
            w.writerow([s, pol, res.hands, int(res.wins[s]), int(res.self_draw_wins[s]), int(res.discard_wins[s]),
                        int(res.deal_ins[s]), repr(e.p), repr(e.low), repr(e.high), repr(d.p), repr(m.mean), repr(m.se)]
                       + extra)
        print(buf.getvalue(), end="")
    else:
        print(res.table())
        print(f"\n{res.games:,} games ({res.hands:,} hands, {res.turns:,} turns) in {dt:.2f} s: "
              f"{res.games / dt:,.0f} games/s, {res.hands / dt:,.0f} hands/s, {res.turns / dt / 1e6:.2f} M turns/s")
    return 0


def _charleston_effect(args, opts: dict) -> int:
    from .game import charleston_effect
    from .stats import Z95

    policies = args.policy.split(",") if "," in args.policy else args.policy
    seed = _seed_or_fresh(args.seed)
    _announce_seed()  # _cmd_simulate checked the policies and threads
    t0 = time.perf_counter()
    eff = charleston_effect(args.games, policies=policies, seed=seed, threads=args.threads,
                            progress=not args.no_progress, **opts)
    dt = time.perf_counter() - t0
    if args.format == "json":
        print(json.dumps({"rules": "american", "games": args.games, "seed": seed, "seconds": dt,
                          "effects": {k: e.to_dict() for k, e in eff.items()}}, indent=2))
        return 0
    cols = ("distance_after", "win_rate", "wall_game_rate", "mean_turns")
    if args.format == "csv":
        print("option," + ",".join(f"{c},{c}_se" for c in cols))
        for name, e in eff.items():
            print(name + "," + ",".join(f"{getattr(e, c).mean!r},{getattr(e, c).se!r}" for c in cols))
        return 0
    print(f"mjfast charleston effect: games={args.games:,} per setting, seed={seed}; each optional pass on "
          "minus off, same walls (mean ± 95% half-width over games)")
    print(f"{'option':<20}" + "".join(f"{c:>26}" for c in cols))
    for name, e in eff.items():
        print(f"{name:<20}" + "".join(f"{getattr(e, c).mean:>+14.4f} ± {Z95 * getattr(e, c).se:<9.4f}" for c in cols))
    print(f"\n{6 * args.games:,} games in {dt:.2f} s")
    return 0


def _cmd_replay(args) -> int:
    from .sim import replay

    policies = args.policy.split(",") if "," in args.policy else args.policy
    log = replay(args.seed, args.game, rules=args.rules, policies=policies)
    if args.format == "json":
        print(json.dumps({"header": log.header, "events": log.events}, indent=2))
    else:
        print(log.to_jsonl(), end="")
    return 0


def _cmd_analyze(args) -> int:
    from .analysis import analyze

    text = " ".join(args.hand)
    mcr_kw = {k: v for k, v in (("min_fan", args.min_fan), ("seat_wind", args.seat_wind),
                                ("prevalent_wind", args.prevalent_wind)) if v is not None}   # --rules mcr only
    res = analyze(text, visible=args.visible, rules=args.rules, **mcr_kw)
    odds = None
    if args.draws:
        from .winturn import win_by_turn

        seed = _seed_or_fresh(args.seed)   # announced below if the curve is Monte Carlo (auto's choice)
        odds = win_by_turn(text, draws=args.draws, visible=args.visible, rules=args.rules, seed=seed,
                           progress=False)
        if odds.method != "monte_carlo":   # an exact curve uses no seed
            _seed_note.clear()
    _announce_seed()
    if args.format == "json":
        data = res.to_dict()
        if odds is not None:
            data["win_by_turn"] = odds.to_dict()
        print(json.dumps(data, indent=2))
    else:
        print(res.table())
        if odds is not None:
            print()
            print(odds.table())
    return 0


def _cmd_fan(args) -> int:
    from . import mcr, tiles

    melds: list = []
    for text in args.melds or ():
        parsed = tiles.parse_tiles(text, max_tiles=None)
        if not parsed.melds or parsed.concealed.any():
            raise ValueError(f"--melds takes sets in brackets or parentheses, e.g. [456p] or (2222z); got {text!r}")
        melds.extend(parsed.melds)
    res = mcr.fan(" ".join(args.hand), melds=melds, win_tile=args.win, self_drawn=args.self_drawn,
                  fourth_tile=args.fourth_tile, kong=args.kong, last_of_wall=args.last_of_wall,
                  seat_wind=args.seat_wind, prevalent_wind=args.prevalent_wind, flowers=args.flowers)
    if args.format == "json":
        print(json.dumps(dict(res.to_dict(), reaches_min_fan=res.reaches(args.min_fan), min_fan=args.min_fan),
                         ensure_ascii=False, indent=2))
        return 0
    if not res.is_win:
        print("not a win: the winning tile does not complete the hand")
        return 0
    import unicodedata

    def pad(text: str, width: int) -> str:      # Chinese characters take two columns
        cols = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
        return text + " " * max(0, width - cols)

    width = max(len(f.name) for f in res.fans)
    for f in res.fans:
        times = f" x{f.count}" if f.count > 1 else ""
        print(f"{f.name:<{width}}  {pad(f.chinese, 12)}  {f.value:>2}{times:>4}  {f.fans:>3}")
    print(f"{'total':<{width}}  {pad('', 12)}  {'':>2}{'':>4}  {res.total:>3}")
    valid = "a valid win" if res.reaches(args.min_fan) else "not a valid win"
    print(f"{res.total_without_flowers} fan without flowers: {valid} at a minimum of {args.min_fan}")
    return 0


def _cmd_odds_table(args) -> int:
    from .odds import odds_table

    kind = args.kind.replace("-", "_")
    rules = ([_rules_arg(r) for r in args.rules.split(",")] if args.rules
             else ["mcr" if kind in ("mcr_ready", "mcr_fans") else "classical"])
    needs_seed = kind in ("win_rate", "mcr_ready", "mcr_fans") or (kind == "deal" and args.method == "monte_carlo") or (
        kind == "win_by_turn" and (not args.hand or args.method == "monte_carlo"))
    # win-by-turn curves of given hands, method auto: exact or Monte Carlo, whichever is estimated cheaper
    may_need_seed = kind == "win_by_turn" and bool(args.hand) and args.method in (None, "auto")
    seed = _seed_or_fresh(args.seed) if needs_seed or may_need_seed else args.seed
    kw: dict[str, Any] = {}
    if args.n is not None:
        kw["samples"] = args.n
    if args.min_fan is not None:
        kw["min_fan"] = args.min_fan
    policies = args.policies.split(",") if "," in args.policies else args.policies
    try:
        table = odds_table(kind, rules=rules if len(rules) > 1 else rules[0], method=args.method,
                           hands=args.hand or None, draws=args.draws, games=args.games, policies=policies,
                           policy=args.policy, by=args.by, seed=seed, threads=args.threads,
                           progress=not args.no_progress, **kw)
    except KeyboardInterrupt:
        _announce_seed()
        print("mjfast: interrupted", file=sys.stderr)
        return 130
    # odds_table checks some arguments only as it goes (each rule set in turn): the seed is
    # announced once the table is built
    if not needs_seed and not any(row.get("method") == "monte_carlo" for row in table.rows):
        _seed_note.clear()
    _announce_seed()
    text = {"table": table.table, "json": table.to_json, "csv": table.to_csv, "markdown": table.to_markdown}[args.format]()
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text if text.endswith("\n") else text + "\n")
    else:
        print(text, end="" if text.endswith("\n") else "\n")
    if args.plot:
        from .plot import plot_table

        plot_table(table, args.plot)
        print(f"mjfast: plot written to {args.plot}", file=sys.stderr)
    return 0


def _cmd_config(args) -> int:
    from ._runtime.threads import config, show_config

    if args.format == "json":
        print(json.dumps(config(), indent=2))
    else:
        show_config()
    return 0


def _rules_arg(value: str):
    return None if value in ("none", "default") else value


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mjfast", description="Very fast mahjong hands, deals and simulations.")
    p.add_argument("--version", action="version", version=f"mjfast {__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    sm = sub.add_parser("simulate", help="simulate complete games and print win rates with intervals")
    sm.add_argument("--rules", default="classical", choices=list(_rules.names()))
    sm.add_argument("--games", type=int, default=100_000, help="games to play (default 100,000)")
    sm.add_argument("--policy", default="greedy",
                    help="random, greedy, defensive or greedy_blind (american: random or greedy); or four "
                         "comma-separated names, one per seat")
    sm.add_argument("--seed", type=int, default=None, help="seed (default: fresh entropy, printed on stderr)")
    sm.add_argument("--threads", type=int, default=None)
    sm.add_argument("--format", choices=["table", "json", "csv"], default="table")
    sm.add_argument("--duplicate", action="store_true", help="play each wall set once per seat rotation")
    sm.add_argument("--flowers", action="store_true", help="classical: play with the 8 bonus tiles")
    sm.add_argument("--payment", choices=["each", "discarder"], default=None)
    sm.add_argument("--rounds", type=int, default=None, help="deals per seat in a game (default 1)")
    sm.add_argument("--base-points", type=int, default=None,
                    help="points a winner collects from each loser (1 to 10**6; default 20, american 50)")
    sm.add_argument("--refill-dead-wall", action="store_true",
                    help="classical/basic/mcr: the dead wall keeps its size, every replacement shortening the "
                         "live wall (default: replacements use up the dead wall first, as seed 000 reads)")
    sm.add_argument("--added-kong", choices=["any", "drawn"], default=None,
                    help="classical/basic/mcr: which copy may be added to an exposed pung: any held copy "
                         "(default) or only the tile just drawn")
    sm.add_argument("--min-fan", type=int, default=None,
                    help="mcr: fan a win needs, flowers not counted (default 8; 0: any complete hand)")
    sm.add_argument("--scoring", choices=["fan", "basic"], default=None,
                    help="mcr: 'fan' pays 8 + fan as the competition does (default), 'basic' flat base points")
    sm.add_argument("--false-win", choices=["penalty", "error"], default=None,
                    help="mcr: a Python policy's false win costs 30 (default) or is an error")
    sm.add_argument("--no-flowers", action="store_true", help="mcr: play without the 8 bonus tiles (136 tiles)")
    sm.add_argument("--jokers", type=int, default=None, help="american: number of jokers (default 8)")
    sm.add_argument("--second-charleston", choices=["policy", "always", "never"], default=None,
                    help="american: second Charleston when a player wants it (default), always or never")
    sm.add_argument("--no-courtesy", action="store_true", help="american: no courtesy pass")
    sm.add_argument("--no-blind-pass", action="store_true", help="american: no blind passes")
    sm.add_argument("--charleston-effect", action="store_true",
                    help="american: play the games with each optional pass on and off (same walls) "
                         "and print the paired differences")
    sm.add_argument("--no-progress", action="store_true", help="no progress bar")
    _add_backend_args(sm)
    sm.set_defaults(func=_cmd_simulate)

    rp = sub.add_parser("replay", help="event log of one simulated game (JSON lines)")
    rp.add_argument("--seed", type=int, required=True)
    rp.add_argument("--game", type=int, default=0, help="game index within the run")
    rp.add_argument("--rules", default="classical", choices=list(_rules.names()))
    rp.add_argument("--policy", default="greedy")
    rp.add_argument("--format", choices=["jsonl", "json"], default="jsonl",
                    help="jsonl (default): the header line, then one event per line; json: one object "
                         '{"header": {...}, "events": [...]} (the same header and events)')
    rp.set_defaults(func=_cmd_replay)

    ds = sub.add_parser("deal-stats", help="odds of dealt hands: shanten per form, complete, tenpai, bonus tiles")
    ds.add_argument("--rules", default="classical", choices=list(_rules.names()))
    ds.add_argument("-n", type=int, default=10_000_000, help="number of deals (default 10,000,000)")
    ds.add_argument("--seed", type=int, default=None, help="seed (default: fresh entropy, printed on stderr)")
    ds.add_argument("--threads", type=int, default=None)
    ds.add_argument("--format", choices=["table", "json", "csv"], default="table")
    ds.add_argument("--exact", action="store_true", help="exact probabilities instead of Monte Carlo")
    ds.add_argument("--flowers", action="store_true", help="classical: play with the 8 bonus tiles")
    ds.add_argument("--jokers", type=int, default=None, help="american: number of jokers (default 8)")
    ds.add_argument("--no-progress", action="store_true", help="no progress bar")
    _add_backend_args(ds)
    ds.set_defaults(func=_cmd_deal_stats)

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
    s.add_argument("--rules", type=_rules_arg, default=None, help="none (default), classical, basic, mcr or american")
    s.add_argument("--visible", default=None, help="tiles seen elsewhere, e.g. 1z5p")
    s.add_argument("--format", choices=["table", "json"], default="table",
                   help="table (default) or json: one object with hand, shanten, form, rules, visible; for 3k+1 "
                        "tiles waits (empty unless tenpai) and effective_tiles {count, tiles}; for 3k+2 tiles "
                        "discards [{discard, shanten, count, tiles}] (empty for a complete hand) and, except "
                        "under rules american, decompositions (lists of sets; empty unless complete). tiles "
                        "maps each tile to its unseen copies")
    s.set_defaults(func=_cmd_shanten)

    an = sub.add_parser("analyze", help="one hand as a table: shanten per form, waits, effective tiles per discard")
    an.add_argument("hand", nargs="+", help='hand text, e.g. "123m456p789s1122z" or "123m456p1z [555z]"')
    an.add_argument("--visible", default=None, help="tiles seen elsewhere (discards, exposures), e.g. 1z5p")
    an.add_argument("--rules", type=_rules_arg, default="classical", help="classical (default), basic, mcr or none")
    an.add_argument("--format", choices=["table", "json"], default="table")
    an.add_argument("--draws", type=int, default=None,
                    help="also the win-by-turn odds over this many draws (exact when cheaper, e.g. up to 4-shanten)")
    an.add_argument("--seed", type=int, default=None, help="seed of a Monte Carlo win-by-turn run")
    an.add_argument("--min-fan", type=int, default=None,
                    help="--rules mcr: the minimum of a valid win, fans without flowers (default 8)")
    an.add_argument("--seat-wind", default=None, choices=["E", "S", "W", "N"], help="--rules mcr: default E")
    an.add_argument("--prevalent-wind", default=None, choices=["E", "S", "W", "N"], help="--rules mcr: default E")
    an.set_defaults(func=_cmd_analyze)

    fa = sub.add_parser("fan", help="Chinese Official (MCR) fans of a winning hand")
    fa.add_argument("hand", nargs="+", help='hand text, e.g. "123456789m123p55p" or "11m99p [234p] (7777z) f1"')
    fa.add_argument("--win", required=True, help="the winning tile, e.g. 5p")
    fa.add_argument("--melds", nargs="*", default=None, help="more sets, e.g. [456p] (2222z)")
    fa.add_argument("--self-drawn", action="store_true", help="won on a tile from the wall (default: on a discard)")
    fa.add_argument("--fourth-tile", action="store_true", help="the winning tile is the last copy (Last Tile)")
    fa.add_argument("--kong", action="store_true",
                    help="self-drawn: a kong's replacement tile; on a discard: robbing a kong")
    fa.add_argument("--last-of-wall", action="store_true", help="the last tile of the live wall")
    fa.add_argument("--seat-wind", default="E", choices=["E", "S", "W", "N"])
    fa.add_argument("--prevalent-wind", default="E", choices=["E", "S", "W", "N"])
    fa.add_argument("--flowers", type=int, default=None, help="flower tiles (default: those in the hand text)")
    fa.add_argument("--min-fan", type=int, default=8, help="the minimum for a valid win (default 8)")
    fa.add_argument("--format", choices=["table", "json"], default="table")
    fa.set_defaults(func=_cmd_fan)

    ot = sub.add_parser("odds-table", help="standard odds tables: deal odds, win-by-turn curves, win rates per seat, "
                                           "Chinese Official deals one tile from an 8-fan win")
    ot.add_argument("kind", choices=["deal", "win-by-turn", "win-rate", "mcr-ready", "mcr-fans", "win_by_turn",
                                     "win_rate", "mcr_ready", "mcr_fans"])
    ot.add_argument("--rules", default=None,
                    help="rule set or comma-separated list (default classical; mcr for mcr-ready and mcr-fans)")
    ot.add_argument("--method", choices=["exact", "monte_carlo", "auto"], default=None,
                    help="deal: exact (default) or monte_carlo; win-by-turn with --hand: auto (default), exact, monte_carlo")
    ot.add_argument("--hand", action="append", default=None, help="win-by-turn: a hand (repeat for several)")
    ot.add_argument("--draws", type=int, default=18, help="win-by-turn: number of draws (default 18)")
    ot.add_argument("-n", type=int, default=None, help="Monte Carlo deals / samples")
    ot.add_argument("--min-fan", type=int, default=None, help="mcr-ready: the minimum of a valid win (default 8)")
    ot.add_argument("--games", type=int, default=2000, help="win-rate: games to simulate (default 2000)")
    ot.add_argument("--policy", default="greedy", choices=["greedy", "first", "greedy_swap"],
                    help="win-by-turn drawing policy")
    ot.add_argument("--policies", default="greedy", help="win-rate: policy or four comma-separated names")
    ot.add_argument("--by", choices=["seat", "policy"], default="seat", help="win-rate: rows per seat or per policy")
    ot.add_argument("--seed", type=int, default=None, help="seed (default: fresh entropy, printed on stderr)")
    ot.add_argument("--threads", type=int, default=None)
    ot.add_argument("--format", choices=["table", "json", "csv", "markdown"], default="table")
    ot.add_argument("--output", default=None, help="write the table to this file instead of stdout")
    ot.add_argument("--plot", default=None, metavar="PATH", help="also draw the table to an image (needs mjfast[plot])")
    ot.add_argument("--no-progress", action="store_true", help="no progress bar")
    ot.set_defaults(func=_cmd_odds_table)

    c = sub.add_parser("config", help="show build configuration (OpenMP, threads)")
    c.add_argument("--format", choices=["table", "json"], default="table",
                   help="table (default) or json: one object with the same facts (mjfast, python, numpy, openmp, "
                        "openmp_max_threads, available_cpus, default_threads, tables_built)")
    c.set_defaults(func=_cmd_config)
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``mjfast`` command; returns the exit status.

    When the reader of the output goes away (``mjfast simulate | head -1``), the command stops
    quietly with status 141 (128 + SIGPIPE, what a shell reports for ``yes | head``): no
    traceback, and no "Exception ignored" message when the interpreter flushes stdout on exit.
    """
    _seed_note.clear()
    try:
        try:
            return _main(argv)
        finally:        # a closed pipe shows here at the latest (--help, --version: SystemExit), not at exit
            for stream in (sys.stdout, sys.stderr):
                if stream is not None:
                    stream.flush()
    except BrokenPipeError:
        _quiet_broken_pipe()
        return EXIT_BROKEN_PIPE


def _quiet_broken_pipe() -> None:
    """After a BrokenPipeError: point the closed stream(s) at /dev/null, so that the flush of
    the data still buffered when the interpreter exits cannot fail (Python's own recipe)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        for stream in (sys.stdout, sys.stderr):
            try:
                fd = stream.fileno()
            except (AttributeError, ValueError, OSError):   # replaced by a non-file (tests' capture)
                continue
            try:
                stream.flush()   # an open stream keeps what it holds (stdout to a file, stderr to a terminal)
            except OSError:
                os.dup2(devnull, fd)
                continue
            if stream is sys.stdout:   # nothing more is printed there
                os.dup2(devnull, fd)
    finally:
        os.close(devnull)


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command in ("demo", "deal-stats") and args.n <= 0:
        parser.error("-n must be a positive number")
    if args.command == "simulate" and args.games <= 0:
        parser.error("--games must be a positive number")
    if getattr(args, "scheduler", None) and args.backend != "dask":
        parser.error("--scheduler needs --backend dask")
    if getattr(args, "exact", False) and args.backend == "dask":
        parser.error("--exact is computed here; it does not use --backend dask")
    if args.command == "odds-table" and (args.games <= 0 or (args.n is not None and args.n <= 0)):
        parser.error("-n and --games must be positive numbers")
    try:
        return args.func(args)
    except (ValueError, TypeError) as exc:
        _seed_note.clear()    # an argument error: no run to repeat
        print(f"mjfast: error: {exc}", file=sys.stderr)
        return 2
    except (NotImplementedError, ImportError) as exc:
        _seed_note.clear()
        print(f"mjfast: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        _announce_seed()
        print("mjfast: interrupted", file=sys.stderr)
        return 130
    finally:
        _announce_seed()      # a run that started names its seed, even if it broke off


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
