"""The ``mjfast`` command line.

``mjfast simulate``   win rates of simulated games (the README's first command)
``mjfast compare A B`` policy A against policy B on the same walls (paired differences)
``mjfast replay``     the event log of one simulated game, as JSON lines
``mjfast deal-stats`` odds of dealt hands
``mjfast demo``       classify a batch of random hands and report how fast
``mjfast shanten H``  shanten, waits and effective tiles of one hand
``mjfast analyze H``  one hand as a table: shanten per form, waits, each discard's effective tiles
                     (--rules mcr: the fans of each wait, on a discard and self-drawn)
``mjfast fan H``      the Chinese Official fans of a winning hand
``mjfast card F H``   an American hand against a card of hands: the nearest lines
``mjfast odds-table`` deal odds, win-by-turn curves, win rates, MCR ready deals and fans, American
                     card lines as a table (and a plot)
``mjfast config``     how mjfast was built (OpenMP or not) and what it will use

One vocabulary across the subcommands (see :data:`VOCABULARY`): ``-n`` is the size of a run,
spelled out as ``--games`` (simulate, compare, odds-table win-rate and mcr-fans), ``--deals``
(deal-stats, odds-table deal, mcr-ready and american-lines), ``--samples`` (odds-table win-by-turn) or
``--hands`` (demo); ``--policies`` the four seats' policies (one name or four comma-separated),
``--draw-policy`` the drawing policy of win-by-turn odds; ``--seed``, ``--threads``,
``--format``, ``--rules``, ``--backend``; ``--progress``/``--no-progress``. Earlier spellings
(``--policy``) still work, with a one-line note on stderr. An option that does not apply to
the subcommand, the rule set or the odds-table kind is an error that names it.

Every subcommand takes ``--format json`` (``replay`` prints JSON lines by default): strict JSON,
a value that is not a number (the standard error of one game) written as null (:func:`_json`).
``mjfast --version`` prints the version; ``mjfast --progress`` / ``--no-progress`` before the
subcommand set its progress bars. Output into a pipe that closes early (``mjfast simulate |
head``) ends the command quietly with status 141 (128 + SIGPIPE), as other Unix tools end; a
fresh seed is announced on stderr only once the arguments have been checked (run sizes are
checked as they are parsed); Ctrl-C ends a run with status 130, after the table of what
``simulate`` or ``deal-stats`` finished. On a stdout that cannot write Chinese (cp1252) the fan
tables leave the Chinese names out and nothing fails on a character the console lacks.
The subcommands and their examples: docs/cli.md.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import re
import sys
import time
from typing import Any

import numpy as np

from . import rules as _rules
from ._version import __version__

#: exit status after the reader of stdout (or stderr) went away: 128 + SIGPIPE, as a shell
#: reports a tool that SIGPIPE ended (``yes | head``)
EXIT_BROKEN_PIPE = 141


#: the words of the command line (old spelling -> new one); the old ones keep working, with a
#: note on stderr
VOCABULARY = {
    "simulate --policy": "--policies",
    "replay --policy": "--policies",
    "odds-table --policy": "--draw-policy",
}

#: one-line notes of this run (deprecated spellings), printed once the arguments are checked
_notes: list[str] = []


def _note(text: str) -> None:
    if text not in _notes:
        _notes.append(text)


class _Deprecated(argparse.Action):
    """An earlier spelling of an option: hidden from --help, stores into the new option's
    ``dest`` and leaves a one-line note that names the new spelling."""

    def __init__(self, option_strings, dest, use: str = "", **kwargs):
        kwargs.setdefault("default", argparse.SUPPRESS)
        super().__init__(option_strings, dest, help=argparse.SUPPRESS, **kwargs)
        self.use = use

    def __call__(self, parser, namespace, values, option_string=None):
        _note(f"mjfast: note: {option_string} is deprecated; use {self.use} (the same meaning)")
        setattr(namespace, self.dest, values)
        namespace.given = getattr(namespace, "given", {}) | {self.dest: option_string}


class _Spelled(argparse._StoreAction):
    """A store action that remembers which of its spellings was given (``-n`` or ``--games``)."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, values)
        namespace.given = getattr(namespace, "given", {}) | {self.dest: option_string}


def _given(args, dest: str, default: str) -> str:
    """The spelling the user gave for option ``dest`` (for messages)."""
    return getattr(args, "given", {}).get(dest, default)


def _count(text: str) -> int:
    """A positive whole number (commas and underscores allowed: 1,000,000)."""
    try:
        v = int(text.replace(",", "").replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a positive whole number, got {text!r}") from None
    if v <= 0:
        raise argparse.ArgumentTypeError(f"a positive whole number, got {text!r}")
    return v


def _size(limit: int, what: str, why: str = ""):
    """The type of a run-size option (``-n``): a positive whole number below ``limit``, checked
    as the arguments are parsed, so a size the run would refuse is an argument error (exit status
    2) before anything starts or a fresh seed is announced."""
    def parse(text: str) -> int:
        v = _count(text)
        if v >= limit:
            raise argparse.ArgumentTypeError(f"at most {limit - 1:,} {what}{why}, got {text!r}")
        return v
    return parse


#: the largest -n of each kind of run: games (a game's index keys its random stream: below 2**40),
#: deals and samples (2**62), and the hands of mjfast demo, which holds them all in memory
_GAMES = _size(2**40, "games")
_WALL_SETS = _size(2**40, "wall sets")
_DEALS = _size(2**62, "deals")
DEMO_MAX_HANDS = 100_000_000
_DEMO_HANDS = _size(DEMO_MAX_HANDS + 1, "hands", " (the demo holds every hand in memory, about 40 bytes each)")


def _seed(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number 0 or more, got {text!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"a whole number 0 or more, got {text!r}")
    return v


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number, got {text!r}") from None


def _finite(obj):
    """The data with every non-finite float as None: JSON has no NaN or Infinity (strict parsers,
    such as JavaScript's ``JSON.parse``, refuse the bare tokens), and a statistic with no value (the
    standard error of one game, the mean fan of a run without wins) is null."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v) for v in obj]
    return obj


def _json(obj, indent: int | None = 2, ensure_ascii: bool | None = None) -> str:
    """Strict JSON text of ``obj`` (every JSON output of the command line goes through here):
    non-finite floats become null, and ``allow_nan=False`` makes any that slipped through an
    error rather than a bare ``NaN`` token. Text that stdout cannot encode (the Chinese fan names
    on a cp1252 console) is written as ``\\u`` escapes, which every JSON reader decodes."""
    if ensure_ascii is None:
        ensure_ascii = not _stdout_takes_unicode()
    return json.dumps(_finite(obj), indent=indent, allow_nan=False, ensure_ascii=ensure_ascii)


def _stdout_takes_unicode() -> bool:
    """Whether stdout's encoding can write Chinese characters (UTF-8 can; cp1252 cannot)."""
    return _encodable("\u4e2d\u6587")


def _encodable(text: str) -> bool:
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _inapplicable(option: str, where: str, why: str):
    """The error of an option that does not apply: it names the option, where it does not
    apply, and why."""
    return ValueError(f"{option} does not apply to {where}: {why}")


def _progress(args) -> bool:
    """The ``progress`` argument of the library call: False with --no-progress. --progress
    (a bar even into a file or pipe) is set for the run by :func:`_main`."""
    return getattr(args, "progress", None) is not False


#: library parameter names -> the options that set them (for messages the library words)
_OPTION_OF = {"min_fan": "--min-fan", "base_points": "--base-points", "game_index": "--game", "samples": "-n",
              "games": "-n", "draws": "--draws", "jokers": "--jokers", "rounds": "--rounds", "threads": "--threads",
              "seed": "--seed", "flowers": "--flowers", "seat_wind": "--seat-wind",
              "prevalent_wind": "--prevalent-wind", "policies": "--policies", "visible": "--visible",
              "form": "--form", "method": "--method", "rules": "--rules", "win_tile": "--win", "payment": "--payment",
              "added_kong": "--added-kong", "scoring": "--scoring", "false_win": "--false-win",
              "second_charleston": "--second-charleston", "n": "-n"}


def _user_words(message: str) -> str:
    """A library error message in the words of the command line: parameter names become the
    options that set them (``min_fan`` -> ``--min-fan``, ``rules='mcr'`` -> ``--rules mcr``),
    Python tuples and lists of names become plain lists, ``10**6`` becomes 1,000,000."""
    def opt(name: str) -> str:
        return _OPTION_OF.get(name, name)

    def assign(m):
        name, value = m.group(1), m.group(3)
        if name not in _OPTION_OF:
            return m.group(0)
        return f"{opt(name)} {'none' if value == 'None' else value}"

    msg = re.sub(r"\b([a-z_]+)=(['\"]?)([^,;:)'\" ]*)\2", assign, message)
    msg = re.sub(r"^([a-z_]+)(?= must | is an option | applies to | is more than )",
                 lambda m: opt(m.group(1)), msg)
    msg = re.sub(r"\bkind '([a-z_]+)'", lambda m: "odds-table " + m.group(1).replace("_", "-"), msg)
    msg = re.sub(r"[(\[]((?:'[^']*'(?:, )?)+),?[)\]]", lambda m: ", ".join(re.findall(r"'([^']*)'", m.group(1))), msg)
    msg = msg.replace(", or pass a mjfast.Policy instance", "")
    msg = re.sub(r"\ban int\b", "a whole number", msg)
    msg = re.sub(r"\bNone\b", "none", msg)
    msg = re.sub(r"\b(10|2)\*\*(\d+)\b", lambda m: f"{int(m.group(1)) ** int(m.group(2)):,}", msg)
    return msg


def _cmd_demo(args) -> int:
    from . import hands
    from ._runtime import threads as _config
    from .hands._random import random_hands

    _check_run_args(args)
    threads = _config.resolve_threads(args.threads)
    n = args.hands
    seed = 1 if args.seed is None else args.seed
    t0 = time.perf_counter()
    batch = random_hands(n, args.tiles, seed=seed)
    t_gen = time.perf_counter() - t0
    hands.shanten(batch[:1])  # build the lookup tables outside the timings
    rows = []
    for form in ("standard", "seven_pairs", "thirteen_orphans", "all"):
        t = time.perf_counter()
        s = hands.shanten(batch, form=form, threads=threads)
        dt = time.perf_counter() - t
        rows.append((form, np.bincount(s + 1, minlength=15), dt))
    t = time.perf_counter()
    win = hands.is_winning(batch, threads=threads) if args.tiles % 3 == 2 else np.zeros(n, bool)
    dt_win = time.perf_counter() - t
    if args.format == "json":
        print(_json({
            "n": n, "tiles": args.tiles, "seed": seed, "threads": threads,
            "shanten": {f: {str(k - 1): int(c) for k, c in enumerate(h) if c} for f, h, _ in rows},
            "ns_per_hand": {f: dt / n * 1e9 for f, _, dt in rows} | {"is_winning": dt_win / n * 1e9},
            "complete": int(win.sum()),
        }))
        return 0
    print(f"mjfast demo: {n:,} random {args.tiles}-tile hands from the 136-tile set "
          f"(seed {seed}, {threads} thread{'s' if threads > 1 else ''}; dealt in {t_gen:.2f} s)\n")
    print("shanten distribution (share of hands)")
    print("  " + "shanten".ljust(9) + "".join(f"{f:>18}" for f, _, _ in rows))
    for k in range(15):
        if not any(h[k] for _, h, _ in rows):
            continue
        print("  " + str(k - 1).ljust(9) + "".join(f"{h[k] / n:>18.6f}" for _, h, _ in rows))
    print()
    print("speed (ns per hand, whole batch)")
    for form, _, dt in rows:
        print(f"  shanten form={form:<18}{dt / n * 1e9:8.1f} ns   ({n / dt / 1e6:6.1f} M hands/s)")
    if args.tiles % 3 == 2:
        print(f"  is_winning form=all{'':<13}{dt_win / n * 1e9:8.1f} ns   ({n / dt_win / 1e6:6.1f} M hands/s)")
        print(f"\ncomplete hands: {int(win.sum())} of {n:,}")
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
        print(_json(data))
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


def _announce_notes() -> None:
    """Print the pending notes (deprecated spellings), once."""
    while _notes:
        print(_notes.pop(0), file=sys.stderr)


def _announce_seed() -> None:
    """Print the pending notes and "no --seed given" line, once."""
    _announce_notes()
    while _seed_note:
        print(_seed_note.pop(), file=sys.stderr)


def _policies(text: str, rules=None, option: str = "--policies"):
    """The policies of ``--policies``: one built-in name for every seat, or four comma-separated
    names (seat 0 to 3), checked against the rule set's built-in policies."""
    from .game.runner import FAMILIES

    names = [p.strip() for p in text.split(",")]
    if len(names) not in (1, 4) or not all(names):
        raise ValueError(f"{option} takes one policy name for every seat or four comma-separated names "
                         f"(seats 0 to 3); got {text!r}")
    fam = FAMILIES[getattr(rules, "family", None) or ("american" if rules == "american" else "chinese")]
    for name in names:
        if name not in fam.BUILTIN and name != "search":          # "search": mjfast.search.SearchPolicy
            where = f" with --rules {getattr(rules, 'name', rules)}" if fam.NAME == "american" else ""
            raise ValueError(f"{option}: unknown policy {name!r}{where}; choose from {', '.join(fam.BUILTIN)}, "
                             "search")
    return names[0] if len(names) == 1 else names


def _check_run_args(args, rules=None, policies=None) -> None:
    """Raise now, before the seed is announced and the work (or a Dask cluster) starts, the
    errors for bad ``--policies`` (for ``rules``) or ``--threads``."""
    from ._runtime.threads import resolve_threads

    if rules is not None:
        from .game.runner import family, resolve

        resolve(family(rules), policies)
    if args.threads == 0:
        raise ValueError("--threads takes a positive number of threads, or a negative one to count back from all "
                         "CPUs (-1 = all); got 0")
    if getattr(args, "backend", "local") == "local" or args.threads is not None:  # dask: None = 1 per task
        resolve_threads(args.threads)


def _exact_shape(rules: str, flowers, jokers, progress: bool = True) -> dict:
    """Exact deal odds in the JSON shape of DealStats.to_dict, "num/den" strings for counts."""
    from . import exact
    from .deals import deal_spec

    spec = deal_spec(rules, flowers=flowers, jokers=jokers)
    out: dict[str, Any] = {"rules": rules, "exact": True, "options": spec.options, "forms": list(spec.forms) + ["all"]}
    extra: dict[str, Any] = {"jokers": spec.jokers} if spec.american else {}
    # one progress bar for both seats (the Chinese Official "all" form takes seconds)
    with exact._progress_bar(progress, exact._bar_label(rules), 2 * (len(exact._check_rules(rules)[1]) + 1)):
        for seat, tiles in (("dealer", 14), ("non_dealer", 13)):
            table = exact.exact_deal_odds_table(rules=rules, tiles=tiles, jokers=extra.get("jokers"))
            out[seat] = _exact_seat(table, spec, tiles)
    return out


def _exact_seat(table: dict, spec, tiles: int) -> dict:
    sh = {}
    any_res = None
    for form, res in table.items():
        sh[form] = {str(k): f"{v.numerator}/{v.denominator}" for k, v in sorted(res["shanten"].items())}
        any_res = res
    if "all" not in sh and len(spec.forms) == 1:
        sh["all"] = sh[spec.forms[0]]
    final = table.get("all") or any_res
    assert final is not None and any_res is not None  # the table has a row per form of the rule set
    seat_data: dict[str, Any] = {
        "tiles": tiles,
        "shanten": sh,
        "complete": _frac(final["complete"]),
        "tenpai": _frac(final["tenpai"]),
        "four_of_a_kind": _frac(any_res["four_of_a_kind"]),
    }
    if spec.american:  # the exact flower and joker distributions, as DealStats gives them
        for key in ("bonus_tiles", "jokers"):
            seat_data[key] = {str(k): _frac(v) for k, v in final[key].items()}
    return seat_data


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
    timeout = 5.0 if args.connect_timeout is None else args.connect_timeout
    try:
        client = (distributed.Client(args.scheduler, timeout=timeout) if args.scheduler
                  else distributed.Client())
    except OSError as exc:
        raise ValueError(f"cannot connect to the Dask scheduler {args.scheduler or ''} within "
                         f"{timeout:g} s (--connect-timeout): {exc}") from exc
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
    parser.add_argument("--connect-timeout", metavar="SECONDS", type=_positive_seconds, default=None,
                        help="--backend dask with --scheduler: seconds to wait for the scheduler before "
                             "failing (default 5)")


def _cmd_deal_stats(args) -> int:
    from .deals import deal_spec, deal_stats

    _check_deal_stats(args)
    if args.exact:
        _announce_notes()
        data = _exact_shape(args.rules, args.flowers or None, args.jokers, progress=_progress(args))
        if args.format == "json":
            print(_json(data))
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
            st = deal_stats(args.deals, rules=args.rules, seed=seed, threads=args.threads,
                            progress=_progress(args), flowers=args.flowers or None, jokers=args.jokers,
                            backend=args.backend, client=client)
    except KeyboardInterrupt as exc:      # the deals made so far: their table, then exit status 130
        part = getattr(exc, "partial", None)
        if part is not None and part.n:
            _print_deal_stats(part, args, time.perf_counter() - t0)
        print(f"mjfast: interrupted after {part.n if part else 0:,} deals"
              + (" (the table above covers them)" if part is not None and part.n else ""), file=sys.stderr)
        return 130
    _print_deal_stats(st, args, time.perf_counter() - t0)
    return 0


def _print_deal_stats(st, args, dt: float) -> None:
    """The result of mjfast deal-stats (or the part dealt before Ctrl-C) in the chosen format."""
    import csv

    if args.format == "json":
        data = st.to_dict()
        data["seconds"] = dt
        print(_json(data))
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
        print(f"\n{st.n:,} deals in {dt:.2f} s ({st.n / dt / 1e6:.1f} M deals/s, "
              f"{2 * st.n / dt / 1e6:.1f} M hands classified/s)")


def _check_deal_stats(args) -> None:
    """Options that do not apply to the rule set, or to --exact."""
    american = args.rules == "american"
    if args.flowers and american:
        raise _inapplicable("--flowers", "--rules american", "American sets always hold the 8 flowers")
    if args.jokers is not None and not american:
        raise _inapplicable("--jokers", f"--rules {args.rules}", "jokers are in American sets only (--rules american)")
    if args.exact:
        for option, given in (("-n/--deals", args.deals is not None), ("--seed", args.seed is not None),
                              ("--threads", args.threads is not None), ("--backend", args.backend != "local")):
            if given:
                raise _inapplicable(option, "deal-stats --exact", "the odds are computed exactly, with no random deals")
    elif args.deals is None:
        args.deals = 10_000_000


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


#: the game-rule options of simulate and compare: (option, dest, rule option, the rule sets it
#: applies to, why not elsewhere). A later option (say --card) adds a row here and to
#: _add_rule_options.
_RULE_OPTIONS = (
    ("--flowers", "flowers", "flowers", ("classical", "basic", "mcr"), "American sets always hold the 8 flowers"),
    ("--no-flowers", "no_flowers", "flowers", ("classical", "basic", "mcr"), "American sets always hold the 8 flowers"),
    ("--payment", "payment", "payment", ("classical", "basic", "mcr"), "American games pay as the card says"),
    ("--rounds", "rounds", "rounds", ("classical", "basic", "mcr", "american"), ""),
    ("--base-points", "base_points", "base_points", ("classical", "basic", "mcr", "american"), ""),
    ("--refill-dead-wall", "refill_dead_wall", "refill_dead_wall", ("classical", "basic", "mcr"),
     "American games have no dead wall"),
    ("--added-kong", "added_kong", "added_kong", ("classical", "basic", "mcr"), "American games have no kongs"),
    ("--min-fan", "min_fan", "min_fan", ("mcr",), "fans are scored under the Chinese Official rules (--rules mcr)"),
    ("--scoring", "scoring", "scoring", ("mcr",), "fan scoring is of the Chinese Official rules (--rules mcr)"),
    ("--false-win", "false_win", "false_win", ("mcr",), "false-win penalties are of the Chinese Official rules "
                                                         "(--rules mcr)"),
    ("--jokers", "jokers", "jokers", ("american",), "jokers are in American sets only (--rules american)"),
    ("--second-charleston", "second_charleston", "second_charleston", ("american",),
     "the Charleston is American (--rules american)"),
    ("--no-courtesy", "no_courtesy", "courtesy", ("american",), "the courtesy pass is American (--rules american)"),
    ("--no-blind-pass", "no_blind_pass", "blind_pass", ("american",), "blind passes are American (--rules american)"),
    ("--charleston-effect", "charleston_effect", None, ("american",), "the Charleston is American (--rules american)"),
    ("--card", "card", "card", ("american",), "cards of hands are American (--rules american)"),
    ("--discarder-pays-double", "discarder_pays_double", "discarder_pays_double", ("american",),
     "it is an American payment convention (--rules american)"),
)


def _load_card(path: str, jokers: int | None = None):
    """A card file as the command line names it (errors in the user's words)."""
    from .card import load_card

    try:
        return load_card(path, jokers=8 if jokers is None else jokers)
    except FileNotFoundError:
        raise ValueError(f"--card: no such file: {path}") from None
    except IsADirectoryError:
        raise ValueError(f"--card: {path} is a directory, not a card file") from None


def _rule_options(args) -> dict:
    """The rule options of the game-rule flags given, each checked to apply to ``--rules``."""
    given = {dest for _, dest, _, _, _ in _RULE_OPTIONS
             if getattr(args, dest, None) is not None and getattr(args, dest, None) is not False}
    for option, dest, _, applies, why in _RULE_OPTIONS:
        if dest in given and args.rules not in applies:
            raise _inapplicable(option, f"--rules {args.rules}", why)
    if args.flowers and args.no_flowers:
        raise ValueError("--flowers and --no-flowers contradict each other")
    opts: dict[str, Any] = {}
    for dest in ("payment", "rounds", "base_points", "added_kong", "min_fan", "scoring", "false_win", "jokers"):
        if dest in given:
            opts[dest] = getattr(args, dest)
    if args.flowers:
        opts["flowers"] = True
    if args.no_flowers:
        opts["flowers"] = False
    if args.refill_dead_wall:
        opts["refill_dead_wall"] = True
    if args.second_charleston is not None:
        opts["second_charleston"] = {"policy": "policy", "always": True, "never": False}[args.second_charleston]
    if args.no_courtesy:
        opts["courtesy"] = False
    if args.no_blind_pass:
        opts["blind_pass"] = False
    if args.card is not None:
        opts["card"] = _load_card(args.card, args.jokers)
    if args.discarder_pays_double:
        opts["discarder_pays_double"] = True
    return opts


def _cmd_simulate(args) -> int:
    from . import _core
    from .sim import game_rules, simulate

    opts = _rule_options(args)
    rules = game_rules(args.rules, **opts)
    if args.charleston_effect:
        for option, given in (("--duplicate", args.duplicate), ("--backend", args.backend != "local")):
            if given:
                raise _inapplicable(option, "simulate --charleston-effect",
                                    "it plays its own paired games, on this machine")
    policies = _policies(args.policies or "greedy", rules)
    _check_run_args(args, rules, policies)
    if args.charleston_effect:
        return _charleston_effect(args, opts, policies)
    seed = _seed_or_fresh(args.seed)
    _core.ensure_tables()
    t0 = time.perf_counter()
    try:
        with _backend_client(args) as client:
            _announce_seed()  # the arguments are valid and the cluster (if any) is up
            res = simulate(args.games, rules=rules, policies=policies, seed=seed, threads=args.threads,
                           duplicate=args.duplicate, progress=_progress(args), backend=args.backend,
                           client=client)
    except KeyboardInterrupt as exc:      # the games played so far: their table, then exit status 130
        part = getattr(exc, "partial", None)
        if part is not None and part.games:
            _print_simulate(part, args, time.perf_counter() - t0)
        print(f"mjfast: interrupted after {part.games if part else 0:,} games"
              + (" (the table above covers them)" if part is not None and part.games else ""), file=sys.stderr)
        return 130
    _print_simulate(res, args, time.perf_counter() - t0)
    return 0


def _print_simulate(res, args, dt: float) -> None:
    """The result of mjfast simulate (or the part played before Ctrl-C) in the chosen format."""
    import csv

    from .game import AmericanSimResult

    american = isinstance(res, AmericanSimResult)
    if args.format == "json":
        data = res.to_dict()
        data["seconds"] = dt
        data["games_per_second"] = res.games / dt
        data["turns_per_second"] = res.turns / dt
        print(_json(data))
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
                      repr(res.mean_distance("after", s).mean)] if american else [])
            w.writerow([s, pol, res.hands, int(res.wins[s]), int(res.self_draw_wins[s]), int(res.discard_wins[s]),
                        int(res.deal_ins[s]), repr(e.p), repr(e.low), repr(e.high), repr(d.p), repr(m.mean), repr(m.se)]
                       + extra)
        print(buf.getvalue(), end="")
    else:
        print(res.table())
        print(f"\n{res.games:,} games ({res.hands:,} hands, {res.turns:,} turns) in {dt:.2f} s: "
              f"{res.games / dt:,.0f} games/s, {res.hands / dt:,.0f} hands/s, {res.turns / dt / 1e6:.2f} M turns/s")


def _charleston_effect(args, opts: dict, policies) -> int:
    from .game import charleston_effect
    from .stats import Z95

    seed = _seed_or_fresh(args.seed)
    _announce_seed()  # _cmd_simulate checked the policies and threads
    t0 = time.perf_counter()
    eff = charleston_effect(args.games, policies=policies, seed=seed, threads=args.threads,
                            progress=_progress(args), **opts)
    dt = time.perf_counter() - t0
    if args.format == "json":
        print(_json({"rules": "american", "games": args.games, "seed": seed, "seconds": dt,
                     "effects": {k: e.to_dict() for k, e in eff.items()}}))
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


def _cmd_compare(args) -> int:
    from . import _core
    from .game import compare
    from .sim import game_rules

    opts = _rule_options(args)
    rules = game_rules(args.rules, **opts)
    pair = []
    for name, which in ((args.policy_a, "A"), (args.policy_b, "B")):
        if "," in name:
            raise ValueError(f"policy {which}: compare takes one policy name for A and one for B; got {name!r}")
        pair.append(_policies(name, rules, option=f"policy {which}"))
    _check_run_args(args)
    seed = _seed_or_fresh(args.seed)
    _core.ensure_tables()
    _announce_seed()
    t0 = time.perf_counter()
    try:
        c = compare(pair[0], pair[1], args.games, rules=rules, seed=seed, threads=args.threads,
                    progress=_progress(args))
    except KeyboardInterrupt:
        print("mjfast: interrupted", file=sys.stderr)
        return 130
    dt = time.perf_counter() - t0

    def side(res, name):
        w, d, m = res.win_rate(policy=name), res.deal_in_rate(policy=name), res.mean_points(policy=name)
        return {"policy": name, "hands": w.n, "win_rate": w.p, "win_rate_ci95": [w.low, w.high],
                "deal_in_rate": d.p, "mean_points": m.mean, "mean_points_se": m.se}

    from ._runtime.seeding import seed_to_json

    data = {"rules": rules.name, "options": rules.to_dict(), "seed": seed_to_json(seed)} | c.to_dict()
    data |= {"games": 5 * c.wall_sets, "a": side(c.a, c.policy_a), "b": side(c.b, c.policy_b), "seconds": dt}
    if args.format == "json":
        print(_json(data))
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
    start = c.a._points_start()      # the table shows points won or lost per game (American players start at 650)
    for label, d in (("A " + c.policy_a, data["a"]), ("B " + c.policy_b, data["b"])):
        print(f"{label:<20}{d['win_rate']:>10.4f}{d['deal_in_rate']:>14.4f}{d['mean_points'] - start:>+13.2f}")
    print(f"\n{data['games']:,} games in {dt:.2f} s")
    return 0


def _cmd_replay(args) -> int:
    from .sim import replay

    policies = _policies(args.policies or "greedy", args.rules)
    _announce_notes()
    log = replay(args.seed, args.game, rules=args.rules, policies=policies)
    if args.format == "json":
        print(_json({"header": log.header, "events": log.events}))
    else:       # the lines of log.to_jsonl(), written strictly
        for line in [{"type": "header", **log.header}] + list(log.events):
            print(_json(line, indent=None, ensure_ascii=True))
    return 0


def _cmd_analyze(args) -> int:
    from .analysis import analyze

    text = " ".join(args.hand)
    mcr_kw = {k: v for k, v in (("min_fan", args.min_fan), ("seat_wind", args.seat_wind),
                                ("prevalent_wind", args.prevalent_wind)) if v is not None}   # --rules mcr only
    if mcr_kw and args.rules != "mcr":
        raise _inapplicable(next(o for o, d in (("--min-fan", "min_fan"), ("--seat-wind", "seat_wind"),
                                                 ("--prevalent-wind", "prevalent_wind")) if d in mcr_kw),
                            f"--rules {args.rules or 'none'}", "fans are scored under the Chinese Official rules "
                                                                "(--rules mcr)")
    if args.draws is None:
        for option, given in (("--seed", args.seed is not None), ("--draw-policy", args.draw_policy is not None),
                              ("--progress/--no-progress", args.progress is not None)):
            if given:
                raise _inapplicable(option, "analyze without --draws",
                                    "it is an option of the win-by-turn odds that --draws T adds")
    res = analyze(text, visible=args.visible, rules=args.rules, **mcr_kw)
    odds = None
    if args.draws is not None:
        from .winturn import win_by_turn

        seed = _seed_or_fresh(args.seed)   # announced below if the curve is Monte Carlo (auto's choice)
        odds = win_by_turn(text, draws=args.draws, visible=args.visible, rules=args.rules, seed=seed,
                           policy=args.draw_policy or "greedy", progress=_progress(args))
        if odds.method != "monte_carlo":   # an exact curve uses no seed
            _seed_note.clear()
    _announce_seed()
    if args.format == "json":
        data = res.to_dict()
        if odds is not None:
            data["win_by_turn"] = odds.to_dict()
        print(_json(data))
    else:
        print(res.table())
        if odds is not None:
            print()
            print(odds.table())
    return 0


def _cmd_card(args) -> int:
    card = _load_card(args.file, args.jokers)
    hand = " ".join(args.hand)
    exposures = args.exposures or None
    if args.top is not None and args.top < 1:
        raise ValueError(f"--top must be at least 1, got {args.top}")
    rows = card.best(hand, None if args.all else (args.top or 5), exposures=exposures, visible=args.visible,
                     jokers=args.jokers)
    match = None
    counted, _single, exps, _n, _j, _u = card._prepare(hand, exposures, None, args.jokers, "hand")
    n_tiles = int(counted[0, :36].sum()) + int(exps[0, 1::2].sum())
    if n_tiles == 14:
        match = card.match(hand, exposures)
    if args.format == "json":
        print(_json({"card": card.name, "hand": hand, "exposures": list(args.exposures or []),
                     "visible": args.visible, "lines": [r.to_dict() for r in rows],
                     "match": None if match is None else match.to_dict()}))
        return 0
    print(f"card: {card.name or args.file} ({len(card.ids)} lines, {len(card.variations)} variations)")
    head = f"{'line':<14} {'section':<14} {'points':>6} {'distance':>8} {'jokers':>6}  missing / nearest variation"
    print(head)
    for r in rows:
        dist = "dead" if r.dead else str(r.distance)
        extra = "" if r.dead else f"{r.missing or '-'}   [{r.variation}]"
        flag = " (concealed)" if r.concealed else ""
        print(f"{r.id:<14} {r.section[:14]:<14} {r.points:>6} {dist:>8} {r.jokers_used:>6}  {extra}{flag}")
    if match is not None:
        print(f"Mahjong: {match.id} for {match.points} points"
              + (", jokerless: worth " + str(match.value) if match.jokerless and match.value != match.points else "")
              + f"  [{match.variation}]")
    return 0


def _cmd_fan(args) -> int:
    from . import mcr, tiles
    from ._runtime.display import _width

    min_fan = mcr._min_fan(args.min_fan)     # the check of every min_fan of the fan functions
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
        print(_json(dict(res.to_dict(), reaches_min_fan=res.reaches(min_fan), min_fan=min_fan)))
        return 0
    if not res.is_win:
        print("not a win: the winning tile does not complete the hand")
        return 0
    # the Chinese names where stdout can write them (a cp1252 console cannot), aligned by the
    # columns they take (two per character)
    chinese = _encodable("".join(f.chinese for f in res.fans))
    cwidth = max([_width(f.chinese) for f in res.fans] + [0]) if chinese else 0

    def cells(name: str, zh: str, value: str, times: str, fans: str) -> str:
        zh_col = f"  {zh}{' ' * (cwidth - _width(zh))}" if chinese else ""
        return f"{name:<{width}}{zh_col}  {value:>2}{times:>4}  {fans:>3}"

    width = max(len(f.name) for f in res.fans)
    for f in res.fans:
        print(cells(f.name, f.chinese, str(f.value), f" x{f.count}" if f.count > 1 else "", str(f.fans)))
    print(cells("total", "", "", "", str(res.total)))
    valid = "a valid win" if res.reaches(min_fan) else "not a valid win"
    print(f"{res.total_without_flowers} fan without flowers: {valid} at a minimum of {min_fan}")
    return 0


#: odds-table options and the kinds they apply to
_KIND_OPTIONS = (
    ("--method", "method", ("deal", "win_by_turn", "mcr_ready")),
    ("--hand", "hand", ("win_by_turn",)),
    ("--draws", "draws", ("win_by_turn",)),
    ("--draw-policy", "draw_policy", ("win_by_turn",)),
    ("--min-fan", "min_fan", ("mcr_ready",)),
    ("--policies", "policies", ("win_rate", "mcr_fans")),
    ("--by", "by", ("win_rate",)),
    ("--plot", "plot", ("deal", "win_by_turn", "win_rate")),
    ("--card", "card", ("american_lines",)),
)
#: what -n counts for each kind, and its long spelling
_KIND_COUNTS = {"deal": "--deals", "mcr_ready": "--deals", "win_by_turn": "--samples", "win_rate": "--games",
                "mcr_fans": "--games", "american_lines": "--deals"}


def _kind_name(kind: str) -> str:
    return "odds-table " + kind.replace("_", "-")


def _check_odds_table(args, kind: str, rules: list) -> None:
    """Options that do not apply to the kind (or to its exact method), and rule sets it has no
    numbers for."""
    for option, dest, kinds in _KIND_OPTIONS:
        if getattr(args, dest) is not None and kind not in kinds:
            given = _given(args, dest, option)
            raise _inapplicable(given, _kind_name(kind),
                                f"it is an option of {' and '.join(_kind_name(k) for k in kinds)}")
    if args.n is not None:
        spelled = _given(args, "n", "-n")
        if spelled != "-n" and spelled != _KIND_COUNTS[kind]:
            raise _inapplicable(spelled, _kind_name(kind), f"it counts {_KIND_COUNTS[kind][2:]} "
                                                           f"(-n or {_KIND_COUNTS[kind]})")
    for r in rules:
        if r is None and kind != "win_by_turn":
            raise ValueError(f"--rules none is for win-by-turn odds only; {_kind_name(kind)} needs a rule set: "
                             f"{', '.join(_rules.names())}")
        if r is not None and r not in _rules.names():
            raise ValueError(f"--rules: unknown rule set {r!r}; choose from {', '.join(_rules.names())}"
                             + (" or none" if kind == "win_by_turn" else ""))
        if kind in ("mcr_ready", "mcr_fans") and r != "mcr":
            raise ValueError(f"{_kind_name(kind)} is of the Chinese Official rules: it needs --rules mcr, "
                             f"not --rules {r or 'none'}")
        if kind == "american_lines" and r != "american":
            raise ValueError(f"{_kind_name(kind)} is of the American rules: it needs --rules american, "
                             f"not --rules {r or 'none'}")
    if kind == "american_lines" and args.card is None:
        raise ValueError("odds-table american-lines needs --card FILE (the card whose lines it covers)")
    exact = (kind == "deal" and args.method in (None, "exact")) or (kind == "win_by_turn" and args.method == "exact")
    if kind == "win_by_turn" and not args.hand and args.method not in (None, "monte_carlo"):
        raise ValueError(f"--method {args.method}: win-by-turn odds of random hands are Monte Carlo only; "
                         "give --hand HAND for exact curves")
    if kind == "mcr_ready" and args.method not in (None, "monte_carlo"):
        raise ValueError(f"--method {args.method}: odds-table mcr-ready is Monte Carlo only")
    if kind == "deal" and args.method == "auto":
        raise ValueError("--method auto: odds-table deal takes exact (the default) or monte_carlo")
    if exact:
        where = _kind_name(kind) + (" (exact by default)" if kind == "deal" and args.method is None
                                    else " --method exact")
        why = ("exact odds use no random deals; add --method monte_carlo for a Monte Carlo table"
               if kind == "deal" else "the curves are computed exactly, with no random samples")
        for option, dest in ((_given(args, "n", "-n"), "n"), ("--seed", "seed"), ("--threads", "threads")):
            if getattr(args, dest) is not None:
                raise _inapplicable(option, where, why)


def _cmd_odds_table(args) -> int:
    from .analysis.odds import SIZE_OF_KIND, odds_table

    kind = args.kind.replace("-", "_")
    rules = ([_rules_arg(r) for r in args.rules.split(",")] if args.rules
             else [{"mcr_ready": "mcr", "mcr_fans": "mcr", "american_lines": "american"}.get(kind, "classical")])
    _check_odds_table(args, kind, rules)
    policies = _policies(args.policies or "greedy", rules[0] if len(rules) == 1 else None)
    if args.threads is not None:
        _check_run_args(args)
    if args.plot:
        from .analysis.plot import _HINT

        try:                          # before the work: a missing matplotlib says how to install it
            import matplotlib.figure  # noqa: F401
        except ImportError as exc:
            raise ImportError(_HINT) from exc
    needs_seed = (kind in ("win_rate", "mcr_ready", "mcr_fans", "american_lines")
                  or (kind == "deal" and args.method == "monte_carlo")
                  or (kind == "win_by_turn" and (not args.hand or args.method == "monte_carlo")))
    # win-by-turn curves of given hands, method auto: exact or Monte Carlo, whichever is estimated cheaper
    may_need_seed = kind == "win_by_turn" and bool(args.hand) and args.method in (None, "auto")
    seed = _seed_or_fresh(args.seed) if needs_seed or may_need_seed else args.seed
    kw: dict[str, Any] = {}
    if args.n is not None:
        kw[SIZE_OF_KIND[kind]] = args.n     # deals, samples or games, as -n is spelled for the kind
    if args.min_fan is not None:
        kw["min_fan"] = args.min_fan
    if args.card is not None:
        kw["card"] = _load_card(args.card)
    _announce_notes()
    try:
        table = odds_table(kind, rules=rules if len(rules) > 1 else rules[0], method=args.method,
                           hands=args.hand or None, draws=18 if args.draws is None else args.draws,
                           policies=policies, policy=args.draw_policy or "greedy", by=args.by or "seat", seed=seed,
                           threads=args.threads, progress=_progress(args), **kw)
    except KeyboardInterrupt:
        _announce_seed()
        print("mjfast: interrupted", file=sys.stderr)
        return 130
    # odds_table checks some arguments only as it goes (each rule set in turn): the seed is
    # announced once the table is built
    if not needs_seed and not any(row.get("method") == "monte_carlo" for row in table.rows):
        _seed_note.clear()
    _announce_seed()
    columns = None
    if (not args.output and args.format != "json" and "chinese" in table.columns
            and not _encodable("".join(str(r.get("chinese") or "") for r in table.rows))):
        # a console that cannot write Chinese (cp1252): the table without its Chinese names
        columns = [c for c in table.columns if c != "chinese"]
        print(f"mjfast: note: the chinese column is left out: stdout's encoding ({sys.stdout.encoding}) cannot "
              "write it (--output FILE writes UTF-8; so does stdout with PYTHONIOENCODING=utf-8)", file=sys.stderr)
    text = {"table": table.table, "json": table.to_json, "csv": table.to_csv,
            "markdown": table.to_markdown}[args.format](**({} if columns is None else {"columns": columns}))
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text if text.endswith("\n") else text + "\n")
    else:
        print(text, end="" if text.endswith("\n") else "\n")
    if args.plot:
        import warnings

        from .plot import plot_table

        with warnings.catch_warnings(record=True) as caught:    # groups too small to draw: a note each
            warnings.simplefilter("always")
            plot_table(table, args.plot)
        for w in caught:
            note = str(w.message).replace(" (min_hands)", "").replace("pass a smaller min_hands to draw them",
                                                                       "a larger -n draws them")
            print(f"mjfast: note: {note}", file=sys.stderr)
        print(f"mjfast: plot written to {args.plot}", file=sys.stderr)
    return 0


def _cmd_config(args) -> int:
    from ._runtime.threads import config, show_config

    if args.format == "json":
        print(_json(config()))
    else:
        print(show_config())
    return 0


def _rules_arg(value: str):
    return None if value in ("none", "default") else value


_FORMAT_HELP = {"table": "a table for people (default)", "json": "one JSON object", "csv": "CSV rows",
                "markdown": "a Markdown table", "jsonl": "JSON lines"}


def _add_format(parser, choices, default="table", extra: str = "") -> None:
    parser.add_argument("--format", choices=choices, default=default,
                        help="; ".join(f"{c}: {_FORMAT_HELP[c]}" for c in choices) + (f". {extra}" if extra else ""))


def _add_seed(parser, help: str = "seed of the random numbers (default: fresh entropy, printed on stderr so "
                                  "that the run can be repeated)", **kwargs) -> None:
    parser.add_argument("--seed", type=_seed, metavar="S", help=help, **kwargs)


def _add_threads(parser) -> None:
    parser.add_argument("--threads", type=int, metavar="T", default=None,
                        help="threads of the kernels (default: OMP_NUM_THREADS, else all CPUs; -1 = all CPUs)")


def _add_progress(parser, when: str = "") -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--progress", dest="progress", action="store_true", default=None,
                       help="draw the progress bar even when stderr is not a terminal (a log file, a pipe)" + when)
    group.add_argument("--no-progress", dest="progress", action="store_false",
                       help="no progress bar (default: a bar on a terminal for runs over half a second; "
                            "MJFAST_PROGRESS=0 turns bars off everywhere)" + when)


def _add_policies(parser, kinds: str = "", alias: bool = True) -> None:
    parser.add_argument("--policies", metavar="P[,P1,P2,P3]", default=None,
                        help=kinds + "the policy of every seat, or four comma-separated names (seats 0 to 3): "
                             "random, greedy, defensive or greedy_blind (american: random or greedy; default greedy)")
    if alias:
        parser.add_argument("--policy", dest="policies", action=_Deprecated, use="--policies")


def _add_rules(parser, default="classical", names=None, help: str | None = None) -> None:
    names = list(_rules.names()) if names is None else names
    parser.add_argument("--rules", default=default, choices=names,
                        help=help or f"the rule set: {', '.join(names)} (default {default})")


def _add_rule_options(parser) -> None:
    """The game-rule flags of simulate and compare (the table :data:`_RULE_OPTIONS` says which
    rule sets each applies to)."""
    g = parser.add_argument_group("rule options (each applies to the rule sets it names; elsewhere it is an error)")
    g.add_argument("--flowers", action="store_true", help="classical, basic: play with the 8 bonus tiles")
    g.add_argument("--no-flowers", action="store_true", help="mcr: play without the 8 bonus tiles (136 tiles)")
    g.add_argument("--payment", choices=["each", "discarder"], default=None,
                   help="classical, basic, mcr: every loser pays the winner (each) or only the discarder")
    g.add_argument("--rounds", type=_int, default=None, metavar="R", help="deals per seat in a game (default 1)")
    g.add_argument("--base-points", type=_int, default=None, metavar="P",
                   help="points a winner collects from each loser (1 to 1,000,000; default 20, american 50)")
    g.add_argument("--refill-dead-wall", action="store_true",
                   help="classical, basic, mcr: the dead wall keeps its size, every replacement shortening the "
                        "live wall (default: replacements use up the dead wall first, as seed 000 reads)")
    g.add_argument("--added-kong", choices=["any", "drawn"], default=None,
                   help="classical, basic, mcr: which copy may be added to an exposed pung: any held copy "
                        "(default) or only the tile just drawn")
    g.add_argument("--min-fan", type=_int, default=None, metavar="F",
                   help="mcr: fan a win needs, flowers not counted (default 8; 0: any complete hand)")
    g.add_argument("--scoring", choices=["fan", "basic"], default=None,
                   help="mcr: 'fan' pays 8 + fan as the competition does (default), 'basic' flat base points")
    g.add_argument("--false-win", choices=["penalty", "error"], default=None,
                   help="mcr: a Python policy's false win costs 30 (default) or is an error")
    g.add_argument("--jokers", type=_int, default=None, metavar="J", help="american: number of jokers (default 8)")
    g.add_argument("--second-charleston", choices=["policy", "always", "never"], default=None,
                   help="american: second Charleston when a player wants it (default), always or never")
    g.add_argument("--no-courtesy", action="store_true", help="american: no courtesy pass")
    g.add_argument("--no-blind-pass", action="store_true", help="american: no blind passes")
    g.add_argument("--card", default=None, metavar="FILE",
                   help="american: play a card of hands (an mjfast-card/1 file: .json, .toml, .yaml; see "
                        "docs/american-cards.md): Mahjong on its lines, paid their points, with per-line statistics")
    g.add_argument("--discarder-pays-double", action="store_true",
                   help="american: on a win by discard the discarder pays double, the others single")


def _add_hand(parser, example: str) -> None:
    """The HAND argument: one hand, whose text may come as one quoted word or as several words
    (``mjfast shanten 123m 456p 789s 1122z``), joined with spaces."""
    action = parser.add_argument("hand", nargs="+", metavar="HAND",
                                 help=f"one hand ({example}); unquoted, its words are joined with spaces")
    action.one_text = True      # usage: HAND, not HAND [HAND ...] (see _Formatter)


class _Formatter(argparse.HelpFormatter):
    """argparse's help, except that an argument given as several words of one text (the HAND of
    shanten, analyze, fan and card) shows as one ``HAND``: ``HAND [HAND ...]`` reads as several
    hands."""

    def _format_args(self, action, default_metavar):
        if getattr(action, "one_text", False):
            return self._metavar_formatter(action, default_metavar)(1)[0]
        return super()._format_args(action, default_metavar)


def _kind(text: str) -> str:
    return text.replace("_", "-")       # the Python names (win_by_turn) are accepted too


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="mjfast", description="Very fast mahjong hands, deals and simulations.",
        epilog="The same words everywhere: -n N is the size of a run (--games, --deals, --samples or --hands, as "
               "the subcommand counts), --policies the four seats' policies, --draw-policy the drawing policy of "
               "win-by-turn odds; --seed, --threads, --format, --rules, --backend, --progress/--no-progress. "
               "An option that does not apply is an error. mjfast SUBCOMMAND --help for the details.")
    p.add_argument("--version", action="version", version=f"mjfast {__version__}",
                   help="print the version and exit")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--progress", dest="global_progress", action="store_true", default=None,
                       help="progress bars even when stderr is not a terminal, for the subcommand that follows "
                            "(the same as its own --progress)")
    group.add_argument("--no-progress", dest="global_progress", action="store_false",
                       help="no progress bars for the subcommand that follows")
    sub = p.add_subparsers(dest="command", required=True, metavar="SUBCOMMAND",
                           help="what to do (mjfast SUBCOMMAND --help lists its options)")

    sm = sub.add_parser("simulate", help="simulate complete games and print win rates with intervals",
                        description="Simulate complete games and print win rates with 95% intervals.")
    _add_rules(sm)
    sm.add_argument("-n", "--games", type=_GAMES, default=100_000, metavar="N",
                    help="games to play (default 100,000; --duplicate: wall sets, each played 4 times)")
    _add_policies(sm)
    _add_seed(sm)
    _add_threads(sm)
    _add_format(sm, ["table", "json", "csv"])
    sm.add_argument("--duplicate", action="store_true", help="play each wall set once per seat rotation")
    sm.add_argument("--charleston-effect", action="store_true",
                    help="american: play the games with each optional pass on and off (same walls) "
                         "and print the paired differences")
    _add_progress(sm)
    _add_rule_options(sm)
    _add_backend_args(sm)
    sm.set_defaults(func=_cmd_simulate)

    cp = sub.add_parser("compare", help="policy A against policy B on the same walls: paired differences",
                        description="Compare two policies with common random numbers (mjfast.compare): every "
                                    "wall set is played with A in each seat against three B, and by four B; "
                                    "the differences in points and win rate of the same seat on the same walls "
                                    "are averaged over wall sets.")
    cp.add_argument("policy_a", metavar="A", help="policy A: random, greedy, defensive or greedy_blind "
                                                  "(american: random or greedy)")
    cp.add_argument("policy_b", metavar="B", help="policy B, the baseline (the same names)")
    _add_rules(cp)
    cp.add_argument("-n", "--games", type=_WALL_SETS, default=10_000, metavar="N",
                    help="wall sets to play (default 10,000; each is played 5 times)")
    _add_seed(cp)
    _add_threads(cp)
    _add_format(cp, ["table", "json", "csv"],
                extra="json: rules, options, seed, policy_a, policy_b, wall_sets, games, points_diff and "
                      "win_rate_diff {mean, se, n, ci95}, a and b {policy, hands, win_rate, win_rate_ci95, "
                      "deal_in_rate, mean_points, mean_points_se}, seconds")
    _add_progress(cp)
    _add_rule_options(cp)
    cp.set_defaults(func=_cmd_compare)

    rp = sub.add_parser("replay", help="event log of one simulated game (JSON lines)",
                        description="The event log of game --game of the run seeded --seed (the same game "
                                    "mjfast simulate played).")
    _add_seed(rp, help="the seed of the run (required)", required=True)
    rp.add_argument("--game", type=_int, default=0, metavar="G", help="game index within the run (default 0)")
    _add_rules(rp)
    _add_policies(rp)
    _add_format(rp, ["jsonl", "json"], default="jsonl",
                extra='jsonl (default): the header line, then one event per line; json: one object '
                      '{"header": {...}, "events": [...]} (the same header and events)')
    rp.set_defaults(func=_cmd_replay)

    ds = sub.add_parser("deal-stats", help="odds of dealt hands: shanten per form, complete, tenpai, bonus tiles",
                        description="Odds of dealt hands, Monte Carlo (default) or exact (--exact).")
    _add_rules(ds)
    ds.add_argument("-n", "--deals", type=_DEALS, default=None, metavar="N",
                    help="number of deals (default 10,000,000; not with --exact)")
    _add_seed(ds)
    _add_threads(ds)
    _add_format(ds, ["table", "json", "csv"])
    ds.add_argument("--exact", action="store_true", help="exact probabilities instead of Monte Carlo")
    ds.add_argument("--flowers", action="store_true", help="classical, basic, mcr: the 144-tile set with the 8 "
                                                           "bonus tiles (replaced as they are dealt)")
    ds.add_argument("--jokers", type=_int, default=None, metavar="J", help="american: number of jokers (default 8)")
    _add_progress(ds)
    _add_backend_args(ds)
    ds.set_defaults(func=_cmd_deal_stats)

    d = sub.add_parser("demo", help="classify a batch of random hands and report how fast")
    d.add_argument("-n", "--hands", type=_DEMO_HANDS, default=1_000_000, metavar="N",
                   help=f"number of hands (default 1,000,000; at most {DEMO_MAX_HANDS:,})")
    d.add_argument("--tiles", type=int, default=14, choices=[1, 2, 4, 5, 7, 8, 10, 11, 13, 14],
                   help="tiles per hand (default 14)")
    _add_seed(d, help="seed of the random hands (default 1)")
    _add_threads(d)
    _add_format(d, ["table", "json"])
    d.set_defaults(func=_cmd_demo)

    s = sub.add_parser("shanten", help="shanten, waits and effective tiles of one hand")
    _add_hand(s, 'e.g. "123m456p789s1122z"')
    s.add_argument("--form", default="all",
                   help="the winning shape: all (default: the best of the rule set's forms), standard, "
                        "seven_pairs, thirteen_orphans, honors_knitted, knitted_straight (mcr) or beginner "
                        "(american)")
    s.add_argument("--rules", type=_rules_arg, default=None, help="none (default), classical, basic, mcr or american")
    s.add_argument("--visible", default=None, help="tiles seen elsewhere, e.g. 1z5p")
    _add_format(s, ["table", "json"],
                extra="json: one object with hand, shanten, form, rules, visible; for 3k+1 "
                      "tiles waits (empty unless tenpai) and effective_tiles {count, tiles}; for 3k+2 tiles "
                      "discards [{discard, shanten, count, tiles}] (empty for a complete hand) and, except "
                      "under rules american, decompositions (lists of sets; empty unless complete). tiles "
                      "maps each tile to its unseen copies")
    s.set_defaults(func=_cmd_shanten)

    an = sub.add_parser("analyze", help="one hand as a table: shanten per form, waits, effective tiles per discard")
    _add_hand(an, 'e.g. "123m456p789s1122z" or "123m456p1z [555z]"')
    an.add_argument("--visible", default=None, help="tiles seen elsewhere (discards, exposures), e.g. 1z5p")
    an.add_argument("--rules", type=_rules_arg, default="classical", help="classical (default), basic, mcr or none")
    _add_format(an, ["table", "json"])
    an.add_argument("--draws", type=_int, default=None, metavar="T",
                    help="also the win-by-turn odds over T draws (exact when cheaper than Monte Carlo, e.g. up to "
                         "4-shanten)")
    _add_seed(an, help="--draws: seed of a Monte Carlo win-by-turn run (default: fresh entropy, printed on stderr)")
    an.add_argument("--draw-policy", choices=["greedy", "first", "greedy_swap"], default=None,
                    help="--draws: the drawing policy of the win-by-turn odds (default greedy; see mjfast.winturn)")
    _add_progress(an, when="; with --draws")
    an.add_argument("--min-fan", type=_int, default=None, metavar="F",
                    help="--rules mcr: the minimum of a valid win, fans without flowers (default 8)")
    an.add_argument("--seat-wind", default=None, choices=["E", "S", "W", "N"], help="--rules mcr: default E")
    an.add_argument("--prevalent-wind", default=None, choices=["E", "S", "W", "N"], help="--rules mcr: default E")
    an.set_defaults(func=_cmd_analyze)

    fa = sub.add_parser("fan", help="Chinese Official (MCR) fans of a winning hand")
    _add_hand(fa, 'e.g. "123456789m123p55p" or "11m99p [234p] (7777z) f1"')
    fa.add_argument("--win", required=True, help="the winning tile, e.g. 5p")
    fa.add_argument("--melds", nargs="*", default=None, help="more sets, e.g. [456p] (2222z)")
    fa.add_argument("--self-drawn", action="store_true", help="won on a tile from the wall (default: on a discard)")
    fa.add_argument("--fourth-tile", action="store_true", help="the winning tile is the last copy (Last Tile)")
    fa.add_argument("--kong", action="store_true",
                    help="self-drawn: a kong's replacement tile; on a discard: robbing a kong")
    fa.add_argument("--last-of-wall", action="store_true", help="the last tile of the live wall")
    fa.add_argument("--seat-wind", default="E", choices=["E", "S", "W", "N"], help="the winner's seat wind (default E)")
    fa.add_argument("--prevalent-wind", default="E", choices=["E", "S", "W", "N"],
                    help="the prevalent (round) wind (default E)")
    fa.add_argument("--flowers", type=_int, default=None, metavar="K",
                    help="flower tiles (default: those in the hand text)")
    fa.add_argument("--min-fan", type=_int, default=8, metavar="F", help="the minimum for a valid win (default 8)")
    _add_format(fa, ["table", "json"])
    fa.set_defaults(func=_cmd_fan)

    cd = sub.add_parser("card", help="an American hand against a card of hands: the nearest lines",
                        description="The lines of an American card (an mjfast-card/1 file you own; see "
                                    "docs/american-cards.md) nearest to a hand: tiles still needed, the tiles "
                                    "missing, jokers used, dead lines; a complete hand's Mahjong line.")
    cd.add_argument("file", metavar="FILE", help="the card file (.json, .toml, .yaml)")
    _add_hand(cd, 'the concealed tiles, e.g. "111m 444p 777s 4z jj 5z 9p" (f1-f8, j)')
    cd.add_argument("--exposures", nargs="*", default=None, metavar="SET",
                    help="exposed sets, e.g. 4444p 777sj (a j is a joker in the set)")
    cd.add_argument("--visible", default=None, metavar="TILES",
                    help="tiles seen outside the hand and its exposures (discards, other exposures): lines "
                         "they make impossible are dead")
    cd.add_argument("--top", type=_int, default=None, metavar="K", help="the K nearest lines (default 5)")
    cd.add_argument("--all", action="store_true", help="every line of the card")
    cd.add_argument("--jokers", type=_int, default=None, metavar="J", help="jokers in the set (default 8)")
    _add_format(cd, ["table", "json"])
    cd.set_defaults(func=_cmd_card)

    ot = sub.add_parser("odds-table", help="standard odds tables: deal odds, win-by-turn curves, win rates per seat, "
                                           "Chinese Official ready deals and fans, American card lines",
                        description="Standard odds tables (mjfast.odds_table). Each option applies to the kinds "
                                    "it names; -n counts what the kind counts: deals (deal, mcr-ready, "
                                    "american-lines), samples "
                                    "(win-by-turn) or games (win-rate, mcr-fans).")
    ot.add_argument("kind", type=_kind,
                    choices=["deal", "win-by-turn", "win-rate", "mcr-ready", "mcr-fans", "american-lines"],
                    help="deal: shanten odds of the dealt hand; win-by-turn: P(tenpai) and P(won) by each draw; "
                         "win-rate: win rates of simulated games; mcr-ready: Chinese Official deals one tile from "
                         "a valid win; mcr-fans: the fans of Chinese Official wins; american-lines: per line of "
                         "an American card (--card), P(the dealt hand is within d tiles of it)")
    ot.add_argument("--rules", default=None,
                    help="rule set or comma-separated list (default classical; mcr for mcr-ready and mcr-fans; "
                         "none for win-by-turn without a rule set's forms)")
    ot.add_argument("-n", "--games", "--deals", "--samples", dest="n", action=_Spelled, type=_count, default=None,
                    metavar="N", help="Monte Carlo size: deals (--deals) for deal --method monte_carlo (default "
                                      "1,000,000), mcr-ready and american-lines (100,000), samples (--samples) for "
                                      "win-by-turn (100,000), games (--games) for win-rate and mcr-fans (2,000)")
    ot.add_argument("--method", choices=["exact", "monte_carlo", "auto"], default=None,
                    help="deal: exact (default) or monte_carlo; win-by-turn with --hand: auto (default), exact, "
                         "monte_carlo; mcr-ready: monte_carlo")
    ot.add_argument("--hand", action="append", default=None, help="win-by-turn: a hand (repeat for several)")
    ot.add_argument("--draws", type=_int, default=None, metavar="T", help="win-by-turn: number of draws (default 18)")
    ot.add_argument("--draw-policy", dest="draw_policy", action=_Spelled, choices=["greedy", "first", "greedy_swap"],
                    default=None, help="win-by-turn: the drawing policy (default greedy; see mjfast.winturn)")
    ot.add_argument("--policy", dest="draw_policy", action=_Deprecated, use="--draw-policy",
                    choices=["greedy", "first", "greedy_swap"])
    ot.add_argument("--min-fan", type=_int, default=None, metavar="F",
                    help="mcr-ready: the minimum of a valid win (default 8)")
    _add_policies(ot, kinds="win-rate, mcr-fans: ", alias=False)
    ot.add_argument("--by", choices=["seat", "policy"], default=None,
                    help="win-rate: rows per seat (default) or per policy")
    ot.add_argument("--card", default=None, metavar="FILE",
                    help="american-lines: the card (an mjfast-card/1 file: .json, .toml, .yaml)")
    _add_seed(ot)
    _add_threads(ot)
    _add_format(ot, ["table", "json", "csv", "markdown"])
    ot.add_argument("--output", default=None, metavar="PATH", help="write the table to this file instead of stdout")
    ot.add_argument("--plot", default=None, metavar="PATH",
                    help="deal, win-by-turn, win-rate: also draw the table to an image (needs mjfast[plot])")
    _add_progress(ot)
    ot.set_defaults(func=_cmd_odds_table)

    c = sub.add_parser("config", help="show build configuration (OpenMP, threads)")
    _add_format(c, ["table", "json"],
                extra="json: one object with the same facts (mjfast, python, numpy, openmp, "
                      "openmp_max_threads, available_cpus, default_threads, tables_built)")
    c.set_defaults(func=_cmd_config)
    for parser in sub.choices.values():
        parser.formatter_class = _Formatter
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``mjfast`` command; returns the exit status.

    When the reader of the output goes away (``mjfast simulate | head -1``), the command stops
    quietly with status 141 (128 + SIGPIPE, what a shell reports for ``yes | head``): no
    traceback, and no "Exception ignored" message when the interpreter flushes stdout on exit.
    """
    _seed_note.clear()
    _notes.clear()
    try:
        try:
            with _unencodable_escaped():
                return _main(argv)
        finally:        # a closed pipe shows here at the latest (--help, --version: SystemExit), not at exit
            for stream in (sys.stdout, sys.stderr):
                if stream is not None:
                    stream.flush()
    except BrokenPipeError:
        _quiet_broken_pipe()
        return EXIT_BROKEN_PIPE


@contextlib.contextmanager
def _unencodable_escaped():
    """On a stdout whose encoding cannot write every character (a cp1252 console), characters it
    cannot write come out as backslash escapes for the command, never as an error. (The
    commands that print Chinese fan names leave them out there, or escape them in JSON.)"""
    out = sys.stdout
    if (not isinstance(out, io.TextIOWrapper) or out.errors != "strict" or _stdout_takes_unicode()):
        yield
        return
    out.reconfigure(errors="backslashreplace")
    try:
        yield
    finally:
        with contextlib.suppress(ValueError, OSError):     # a stream closed meanwhile
            out.reconfigure(errors="strict")


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
    from ._runtime import progress as _progress_mod

    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "scheduler", None) and args.backend != "dask":
        parser.error("--scheduler needs --backend dask")
    if getattr(args, "connect_timeout", None) is not None and not args.scheduler:
        parser.error("--connect-timeout needs --backend dask with --scheduler ADDRESS")
    old_mode = _progress_mod.option()
    # --progress: a bar even into a file or a pipe; --no-progress: none. The subcommand's own
    # flag wins over the one before it (mjfast --progress simulate --no-progress: no bar).
    flag = getattr(args, "progress", None)
    if flag is None:
        flag = args.global_progress
    if flag is not None:
        _progress_mod.set_mode("always" if flag else "never")
    try:
        return args.func(args)
    except (ValueError, TypeError, NotImplementedError, ImportError) as exc:
        _seed_note.clear()    # an argument error: no run to repeat
        print(f"mjfast: error: {_user_words(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        _announce_seed()
        print("mjfast: interrupted", file=sys.stderr)
        return 130
    except MemoryError as exc:     # a run too large for this machine: a message, not a traceback
        detail = str(exc) or type(exc).__name__
        print(f"mjfast: error: not enough memory ({detail}); a smaller -n needs less", file=sys.stderr)
        return 1
    finally:
        _progress_mod.set_mode(old_mode)
        _announce_seed()      # a run that started names its seed, even if it broke off; the notes


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
