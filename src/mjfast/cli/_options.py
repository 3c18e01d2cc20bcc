"""The options the subcommands share, as argparse sees them: the types of run sizes, seeds and
numbers, the actions that remember a spelling or note a deprecated one, the adders of
``--format``, ``--seed``, ``--threads``, ``--progress``, ``--policies``, ``--rules``, HAND and the
Dask options, the help formatter, and the game-rule flags of simulate and compare
(:func:`add_rule_options` and :func:`rule_options`, the one place that knows them).
"""
from __future__ import annotations

import argparse
from typing import Any

from .. import rules as _rules
from ._common import inapplicable, load_card_file, note


class Deprecated(argparse.Action):
    """An earlier spelling of an option: hidden from --help, stores into the new option's
    ``dest`` and leaves a one-line note that names the new spelling."""

    def __init__(self, option_strings, dest, use: str = "", **kwargs):
        kwargs.setdefault("default", argparse.SUPPRESS)
        super().__init__(option_strings, dest, help=argparse.SUPPRESS, **kwargs)
        self.use = use

    def __call__(self, parser, namespace, values, option_string=None):
        note(f"mjfast: note: {option_string} is deprecated; use {self.use} (the same meaning)")
        setattr(namespace, self.dest, values)
        namespace.given = getattr(namespace, "given", {}) | {self.dest: option_string}


class Spelled(argparse._StoreAction):
    """A store action that remembers which of its spellings was given (``-n`` or ``--games``)."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, values)
        namespace.given = getattr(namespace, "given", {}) | {self.dest: option_string}


def given_spelling(args, dest: str, default: str) -> str:
    """The spelling the user gave for option ``dest`` (for messages)."""
    return getattr(args, "given", {}).get(dest, default)


def positive_count(text: str) -> int:
    """A positive whole number (commas and underscores allowed: 1,000,000)."""
    try:
        v = int(text.replace(",", "").replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a positive whole number, got {text!r}") from None
    if v <= 0:
        raise argparse.ArgumentTypeError(f"a positive whole number, got {text!r}")
    return v


def run_size(limit: int, what: str, why: str = ""):
    """The type of a run-size option (``-n``): a positive whole number below ``limit``, checked
    as the arguments are parsed, so a size the run would refuse is an argument error (exit status
    2) before anything starts or a fresh seed is announced."""
    def parse(text: str) -> int:
        v = positive_count(text)
        if v >= limit:
            raise argparse.ArgumentTypeError(f"at most {limit - 1:,} {what}{why}, got {text!r}")
        return v
    return parse


#: the largest -n of each kind of run: games (a game's index keys its random stream: below 2**40),
#: deals and samples (2**62), and the hands of mjfast demo, which holds them all in memory
GAMES = run_size(2**40, "games")
WALL_SETS = run_size(2**40, "wall sets")
DEALS = run_size(2**62, "deals")
DEMO_MAX_HANDS = 100_000_000
DEMO_HANDS = run_size(DEMO_MAX_HANDS + 1, "hands", " (the demo holds every hand in memory, about 40 bytes each)")


def seed_value(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number 0 or more, got {text!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"a whole number 0 or more, got {text!r}")
    return v


def whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number, got {text!r}") from None


def positive_seconds(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of seconds, got {text!r}") from None
    if not v > 0 or v != v or v == float("inf"):
        raise argparse.ArgumentTypeError(f"a positive number of seconds, got {text!r}")
    return v


def add_backend_args(parser) -> None:
    parser.add_argument("--backend", choices=["local", "dask"], default="local",
                        help="local threads (default) or a Dask cluster (pip install \"mjfast[dask]\")")
    parser.add_argument("--scheduler", metavar="ADDRESS", default=None,
                        help="--backend dask: address of a running Dask scheduler, e.g. tcp://host:8786 "
                             "(default: DASK_SCHEDULER_ADDRESS, else a local cluster)")
    parser.add_argument("--connect-timeout", metavar="SECONDS", type=positive_seconds, default=None,
                        help="--backend dask with --scheduler: seconds to wait for the scheduler before "
                             "failing (default 5)")


def rules_arg(value: str):
    return None if value in ("none", "default") else value


FORMAT_HELP = {"table": "a table for people (default)", "json": "one JSON object", "csv": "CSV rows",
                "markdown": "a Markdown table", "jsonl": "JSON lines"}


def add_format(parser, choices, default="table", extra: str = "") -> None:
    parser.add_argument("--format", choices=choices, default=default,
                        help="; ".join(f"{c}: {FORMAT_HELP[c]}" for c in choices) + (f". {extra}" if extra else ""))


def add_seed(parser, help: str = "seed of the random numbers (default: fresh entropy, printed on stderr so "
                                  "that the run can be repeated)", **kwargs) -> None:
    parser.add_argument("--seed", type=seed_value, metavar="S", help=help, **kwargs)


def add_threads(parser) -> None:
    parser.add_argument("--threads", type=int, metavar="T", default=None,
                        help="threads of the kernels (default: OMP_NUM_THREADS, else all CPUs; -1 = all CPUs)")


def add_progress(parser, when: str = "") -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--progress", dest="progress", action="store_true", default=None,
                       help="draw the progress bar even when stderr is not a terminal (a log file, a pipe)" + when)
    group.add_argument("--no-progress", dest="progress", action="store_false",
                       help="no progress bar (default: a bar on a terminal for runs over half a second; "
                            "MJFAST_PROGRESS=0 turns bars off everywhere)" + when)


def add_policies(parser, kinds: str = "", alias: bool = True) -> None:
    parser.add_argument("--policies", metavar="P[,P1,P2,P3]", default=None,
                        help=kinds + "the policy of every seat, or four comma-separated names (seats 0 to 3): "
                             "random, greedy, defensive or greedy_blind (american: random or greedy; default greedy)")
    if alias:
        parser.add_argument("--policy", dest="policies", action=Deprecated, use="--policies")


def add_rules(parser, default="classical", names=None, help: str | None = None) -> None:
    names = list(_rules.names()) if names is None else names
    parser.add_argument("--rules", default=default, choices=names,
                        help=help or f"the rule set: {', '.join(names)} (default {default})")


def add_hand(parser, example: str) -> None:
    """The HAND argument: one hand, whose text may come as one quoted word or as several words
    (``mjfast shanten 123m 456p 789s 1122z``), joined with spaces."""
    action = parser.add_argument("hand", nargs="+", metavar="HAND",
                                 help=f"one hand ({example}); unquoted, its words are joined with spaces")
    action.one_text = True      # usage: HAND, not HAND [HAND ...] (see Formatter)


class Formatter(argparse.HelpFormatter):
    """argparse's help, except that an argument given as several words of one text (the HAND of
    shanten, analyze, fan and card) shows as one ``HAND``: ``HAND [HAND ...]`` reads as several
    hands."""

    def _format_args(self, action, default_metavar):
        if getattr(action, "one_text", False):
            return self._metavar_formatter(action, default_metavar)(1)[0]
        return super()._format_args(action, default_metavar)


# ---------------------------------------------------------------- the game-rule flags

#: the game-rule options of simulate and compare: (option, dest, rule option, the rule sets it
#: applies to, why not elsewhere). A later option (say --card) adds a row here and to
#: add_rule_options.
RULE_OPTIONS = (
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


def add_rule_options(parser) -> None:
    """The game-rule flags of simulate and compare (the table :data:`RULE_OPTIONS` says which
    rule sets each applies to)."""
    g = parser.add_argument_group("rule options (each applies to the rule sets it names; elsewhere it is an error)")
    g.add_argument("--flowers", action="store_true", help="classical, basic: play with the 8 bonus tiles")
    g.add_argument("--no-flowers", action="store_true", help="mcr: play without the 8 bonus tiles (136 tiles)")
    g.add_argument("--payment", choices=["each", "discarder"], default=None,
                   help="classical, basic, mcr: every loser pays the winner (each) or only the discarder")
    g.add_argument("--rounds", type=whole_number, default=None, metavar="R", help="deals per seat in a game (default 1)")
    g.add_argument("--base-points", type=whole_number, default=None, metavar="P",
                   help="points a winner collects from each loser (1 to 1,000,000; default 20, american 50)")
    g.add_argument("--refill-dead-wall", action="store_true",
                   help="classical, basic, mcr: the dead wall keeps its size, every replacement shortening the "
                        "live wall (default: replacements use up the dead wall first, as seed 000 reads)")
    g.add_argument("--added-kong", choices=["any", "drawn"], default=None,
                   help="classical, basic, mcr: which copy may be added to an exposed pung: any held copy "
                        "(default) or only the tile just drawn")
    g.add_argument("--min-fan", type=whole_number, default=None, metavar="F",
                   help="mcr: fan a win needs, flowers not counted (default 8; 0: any complete hand)")
    g.add_argument("--scoring", choices=["fan", "basic"], default=None,
                   help="mcr: 'fan' pays 8 + fan as the competition does (default), 'basic' flat base points")
    g.add_argument("--false-win", choices=["penalty", "error"], default=None,
                   help="mcr: a Python policy's false win costs 30 (default) or is an error")
    g.add_argument("--jokers", type=whole_number, default=None, metavar="J", help="american: number of jokers (default 8)")
    g.add_argument("--second-charleston", choices=["policy", "always", "never"], default=None,
                   help="american: second Charleston when a player wants it (default), always or never")
    g.add_argument("--no-courtesy", action="store_true", help="american: no courtesy pass")
    g.add_argument("--no-blind-pass", action="store_true", help="american: no blind passes")
    g.add_argument("--card", default=None, metavar="FILE",
                   help="american: play a card of hands (an mjfast-card/1 file: .json, .toml, .yaml; see "
                        "docs/american-cards.md): Mahjong on its lines, paid their points, with per-line statistics")
    g.add_argument("--discarder-pays-double", action="store_true",
                   help="american: on a win by discard the discarder pays double, the others single")


def rule_options(args) -> dict:
    """The rule options of the game-rule flags given, each checked to apply to ``--rules``."""
    given = {dest for _, dest, _, _, _ in RULE_OPTIONS
             if getattr(args, dest, None) is not None and getattr(args, dest, None) is not False}
    for option, dest, _, applies, why in RULE_OPTIONS:
        if dest in given and args.rules not in applies:
            raise inapplicable(option, f"--rules {args.rules}", why)
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
        opts["card"] = load_card_file(args.card, args.jokers)
    if args.discarder_pays_double:
        opts["discarder_pays_double"] = True
    return opts

