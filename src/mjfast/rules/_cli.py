"""The command line's rule flags, generated from the rule sets' option schema.

Each flag is a :class:`Flag`: the rule option it sets (``RuleSet.OPTIONS``), the value a switch
gives or how an argument's text becomes a value, and why it does not apply elsewhere. Which
rule sets a flag applies to is not written down: it is every preset that accepts the option
(:func:`applies`). :func:`add_rule_flags` adds the flags to an argparse parser, with help
naming where they apply and each preset's default; :func:`rule_options` turns the parsed
arguments into rule options, refusing a flag given with a rule set it does not apply to.

Examples
--------
>>> import argparse
>>> from mjfast import rules
>>> p = argparse.ArgumentParser(prog="mjfast simulate")
>>> _ = p.add_argument("--rules", default="classical")
>>> rules.add_rule_flags(p)
>>> rules.rule_options(p.parse_args(["--rules", "mcr", "--min-fan", "4", "--no-flowers"]))
{'flowers': False, 'min_fan': 4}
>>> rules.rule_options(p.parse_args(["--jokers", "10"]))
Traceback (most recent call last):
...
ValueError: --jokers does not apply to --rules classical: jokers are in American sets only (--rules american)
"""
from __future__ import annotations

import argparse
import dataclasses
import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ._base import RuleSet

#: the title of the flags' group in the help
GROUP = "rule options (each applies to the rule sets it names; elsewhere it is an error)"


def whole_number(text: str) -> int:
    """argparse type: an int, or the error "a whole number, got '1.5'"."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number, got {text!r}") from None


@dataclasses.dataclass(frozen=True)
class Flag:
    """A command-line flag that sets one rule option.

    Attributes
    ----------
    flag : str
        The flag (``--min-fan``); its argparse dest is the flag without dashes, in snake case.
    option : str
        The rule option it sets (a key of ``RuleSet.OPTIONS``).
    help : str
        What it does (the presets it applies to are added in front, the defaults behind).
    why_not : str
        Why it does not apply to the other rule sets (the error's reason).
    switch : object
        For a switch (no argument): the value it sets; ``None``: the flag takes an argument.
    choices : mapping of str -> object, or None
        An argument's words and the values they stand for (``None``: a whole number, or text
        when ``metavar`` is ``"FILE"``).
    metavar : str or None
        The argument's name in the help.
    default_text : str or None
        The defaults as the help says them (None: read from the presets).
    """

    flag: str
    option: str
    help: str
    why_not: str
    switch: Any = None
    choices: Mapping[str, Any] | None = None
    metavar: str | None = None
    default_text: str | None = None

    @property
    def dest(self) -> str:
        return self.flag.lstrip("-").replace("-", "_")


#: the flags, in the order of the help (and of the errors when several do not apply)
FLAGS: tuple[Flag, ...] = (
    Flag("--flowers", "flowers", "play with the 8 bonus tiles", "American sets always hold the 8 flowers",
         switch=True, default_text=""),
    Flag("--no-flowers", "flowers", "play without the 8 bonus tiles (136 tiles)",
         "American sets always hold the 8 flowers", switch=False, default_text=""),
    Flag("--payment", "payment", "every loser pays the winner (each) or only the discarder",
         "American games pay as the card says", choices={"each": "each", "discarder": "discarder"},
         default_text=""),
    Flag("--rounds", "rounds", "deals per seat in a game", "", metavar="R"),
    Flag("--base-points", "base_points", "points a winner collects from each loser (1 to 1,000,000)", "",
         metavar="P"),
    Flag("--refill-dead-wall", "refill_dead_wall", "the dead wall keeps its size, every replacement shortening "
         "the live wall (default: replacements use up the dead wall first, as seed 000 reads)",
         "American games have no dead wall", switch=True, default_text=""),
    Flag("--added-kong", "added_kong", "which copy may be added to an exposed pung: any held copy or only the tile "
         "just drawn", "American games have no kongs", choices={"any": "any", "drawn": "drawn"}),
    Flag("--min-fan", "min_fan", "fan a win needs, flowers not counted (0: any complete hand)",
         "fans are scored under the Chinese Official rules (--rules mcr)", metavar="F"),
    Flag("--scoring", "scoring", "'fan' pays 8 + fan as the competition does, 'basic' flat base points",
         "fan scoring is of the Chinese Official rules (--rules mcr)", choices={"fan": "fan", "basic": "basic"}),
    Flag("--false-win", "false_win", "a Python policy's false win costs 30 (penalty) or is an error",
         "false-win penalties are of the Chinese Official rules (--rules mcr)",
         choices={"penalty": "penalty", "error": "error"}),
    Flag("--quan", "quan", "the prevalent wind of every hand: 0 East, 1 South, 2 West, 3 North",
         "quan is the Botzone judge's prevalent wind (--rules mcr-botzone)", metavar="Q"),
    Flag("--jokers", "jokers", "number of jokers", "jokers are in American sets only (--rules american)",
         metavar="J"),
    Flag("--second-charleston", "second_charleston", "second Charleston when a player wants it (policy), always "
         "or never", "the Charleston is American (--rules american)",
         choices={"policy": "policy", "always": True, "never": False}),
    Flag("--no-courtesy", "courtesy", "no courtesy pass", "the courtesy pass is American (--rules american)",
         switch=False, default_text=""),
    Flag("--no-blind-pass", "blind_pass", "no blind passes", "blind passes are American (--rules american)",
         switch=False, default_text=""),
    Flag("--card", "card", "play a card of hands (an mjfast-card/1 file: .json, .toml, .yaml; see "
         "docs/american-cards.md): Mahjong on its lines, paid their points, with per-line statistics",
         "cards of hands are American (--rules american)", metavar="FILE", default_text=""),
    Flag("--discarder-pays-double", "discarder_pays_double", "on a win by discard the discarder pays double, the "
         "others single", "it is an American payment convention (--rules american)", switch=True,
         default_text=""),
)


@dataclasses.dataclass(frozen=True)
class ExtraFlag:
    """A flag of a command (not a rule option) that applies to some rule sets only, checked with
    the rule flags: ``dest`` set (true) means given; checked just before the flag ``before``."""

    flag: str
    applies: tuple[str, ...]
    why_not: str
    before: str | None = None

    @property
    def dest(self) -> str:
        return self.flag.lstrip("-").replace("-", "_")


def _presets() -> tuple[RuleSet, ...]:
    rules = importlib.import_module("mjfast.rules")
    return tuple(rules.get(n) for n in rules.names())


def applies(flag: Flag) -> tuple[str, ...]:
    """The presets that accept the flag's option (a family's option, and for options of one
    preset only, that preset)."""
    return tuple(r.name for r in _presets() if r.accepts(flag.option))


def _help(flag: Flag) -> str:
    where = applies(flag)
    presets = _presets()
    text = flag.help
    if len(where) < len(presets):
        text = f"{', '.join(where)}: {text}"
    if flag.default_text is None:
        values: dict[Any, list[str]] = {}
        for r in presets:
            if r.name in where:
                v = getattr(r, flag.option)
                shown = next((k for k, x in (flag.choices or {}).items() if x == v), v)
                values.setdefault(shown, []).append(r.name)
        parts = [f"{v}" if i == 0 else f"{' '.join(names)} {v}" for i, (v, names) in enumerate(values.items())]
        text += f" (default {', '.join(parts)})"
    elif flag.default_text:
        text += f" ({flag.default_text})"
    return text


def add_rule_flags(parser: argparse.ArgumentParser, flags: Sequence[Flag] = FLAGS) -> None:
    """Add the rule flags to ``parser`` in one argument group: switches, words (``choices``)
    and whole numbers, each with its help (where it applies, and the presets' defaults)."""
    g = parser.add_argument_group(GROUP)
    for f in flags:
        if f.switch is not None:
            g.add_argument(f.flag, action="store_true", help=_help(f))
        elif f.choices is not None:
            g.add_argument(f.flag, choices=list(f.choices), default=None, help=_help(f))
        elif f.metavar == "FILE":
            g.add_argument(f.flag, default=None, metavar=f.metavar, help=_help(f))
        else:
            g.add_argument(f.flag, type=whole_number, default=None, metavar=f.metavar, help=_help(f))


def _given(args: argparse.Namespace, dest: str) -> bool:
    v = getattr(args, dest, None)
    return v is not None and v is not False


def rule_options(args: argparse.Namespace, flags: Sequence[Flag] = FLAGS, extra: Sequence[ExtraFlag] = (),
                 load_card: Callable[[str, int | None], Any] | None = None) -> dict:
    """The rule options of the flags given in ``args`` (whose ``rules`` names the rule set):
    ValueError names a flag given with a rule set it does not apply to (in the flags' order,
    ``extra`` flags checked where they say), and two switches that set one option both ways.
    ``--card`` is read with ``load_card(path, jokers)`` (default: :func:`mjfast.card.load_card`
    with the jokers given, else 8)."""
    order: list[tuple[str, str, tuple[str, ...], str]] = []
    for f in flags:
        order += [(e.flag, e.dest, e.applies, e.why_not) for e in extra if e.before == f.flag]
        order.append((f.flag, f.dest, applies(f), f.why_not))
    order += [(e.flag, e.dest, e.applies, e.why_not) for e in extra if e.before not in {f.flag for f in flags}]
    for flag, dest, where, why in order:
        if _given(args, dest) and args.rules not in where:
            raise ValueError(f"{flag} does not apply to --rules {args.rules}: {why}")
    opts: dict[str, Any] = {}
    setters: dict[str, str] = {}
    for f in flags:
        if not _given(args, f.dest):
            continue
        if f.switch is not None:
            if f.option in setters:
                raise ValueError(f"{setters[f.option]} and {f.flag} contradict each other")
            setters[f.option] = f.flag
            opts[f.option] = f.switch
        elif f.option == "card":
            continue
        else:
            v = getattr(args, f.dest)
            opts[f.option] = f.choices[v] if f.choices is not None else v
    card = getattr(args, "card", None)
    if card is not None:
        opts["card"] = (load_card or _load_card)(card, getattr(args, "jokers", None))
    return opts


def _load_card(path: str, jokers: int | None = None):
    """A card file as the command line names it (errors in the user's words)."""
    try:
        return importlib.import_module("mjfast.card").load_card(path, jokers=8 if jokers is None else jokers)
    except FileNotFoundError:
        raise ValueError(f"--card: no such file: {path}") from None
    except IsADirectoryError:
        raise ValueError(f"--card: {path} is a directory, not a card file") from None
