"""The options the subcommands share, as argparse sees them: the types of run sizes, seeds and
numbers, the actions that remember a spelling or note a deprecated one, the adders of
``--format``, ``--seed``, ``--threads``, ``--progress``, ``--policies``, ``--rules``, HAND and the
Dask options, the help formatter, and the game-rule flags of simulate and compare
(:func:`add_rule_options` and :func:`rule_options`, the one place that knows them).
"""
from __future__ import annotations

import argparse

from .. import rules as _rules
from ._common import load_card_file, note


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

#: simulate's --charleston-effect: not a rule option, but American only, checked with the rule
#: flags (just before --card, where the command line has always named it)
CHARLESTON_EFFECT = _rules.ExtraFlag("--charleston-effect", ("american",),
                                     "the Charleston is American (--rules american)", before="--card")


def add_rule_options(parser) -> None:
    """The game-rule flags of simulate and compare, generated from the rule sets' option schema
    (:func:`mjfast.rules.add_rule_flags`): a new rule option appears here with its help and its
    checks by itself."""
    _rules.add_rule_flags(parser)


def rule_options(args) -> dict:
    """The rule options of the game-rule flags given, each checked to apply to ``--rules``
    (:func:`mjfast.rules.rule_options`; a card file read with the command line's messages)."""
    return _rules.rule_options(args, extra=(CHARLESTON_EFFECT,), load_card=load_card_file)

