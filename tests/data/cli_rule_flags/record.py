"""Record the command line's rule flags (``mjfast simulate`` / ``compare``) as main builds them by
hand (``cli._add_rule_options``, ``cli._rule_options``): the help text, every argparse action,
and the options (or the error) of each flag alone and of each pair of flags under every rule set.
``tests/test_cli_rule_flags.py`` checks that the flags generated from the rule sets' option
schema (``mjfast.rules.cli_flags``) give the same. Recorded from main before the generation
(issue 26); ``PYTHONPATH=src python tests/data/cli_rule_flags/record.py`` on a tree whose cli.py
still has ``_add_rule_options``."""
from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PATH = os.path.join(HERE, "expected.json")
CARD = "CARD.json"          # replaced by a real card file when run

#: each flag with a value to give it (switches: none)
FLAGS = [("--flowers",), ("--no-flowers",), ("--payment", "discarder"), ("--rounds", "2"), ("--base-points", "30"),
         ("--refill-dead-wall",), ("--added-kong", "drawn"), ("--min-fan", "4"), ("--scoring", "basic"),
         ("--false-win", "error"), ("--jokers", "10"), ("--second-charleston", "never"), ("--no-courtesy",),
         ("--no-blind-pass",), ("--charleston-effect",), ("--card", CARD), ("--discarder-pays-double",)]
#: arguments argparse refuses, and other values
ODD = [("--rounds", "x"), ("--payment", "both"), ("--second-charleston", "sometimes"), ("--min-fan", "1.5"),
       ("--base-points", "-3"), ("--added-kong", "any"), ("--second-charleston", "always"),
       ("--second-charleston", "policy"), ("--scoring", "fan"), ("--jokers", "0"), ("--false-win", "penalty")]


def parser(add_flags) -> argparse.ArgumentParser:
    """The part of ``mjfast simulate``'s parser that the rule flags meet: --rules, the
    --charleston-effect switch, and the rule flags' group."""
    import mjfast

    p = argparse.ArgumentParser(prog="mjfast simulate")
    p.add_argument("--rules", default="classical", choices=list(mjfast.rules.names()))
    p.add_argument("--charleston-effect", action="store_true", help="american: ...")
    add_flags(p)
    return p


def _action(a) -> dict:
    return {"option_strings": a.option_strings, "dest": a.dest, "nargs": a.nargs, "const": a.const,
            "default": a.default, "type": getattr(a.type, "__name__", None), "choices": a.choices,
            "required": a.required, "help": a.help, "metavar": a.metavar, "class": type(a).__name__,
            "group": next((g.title for g in PARSER_GROUPS if a in g._group_actions), None)}


PARSER_GROUPS: list = []


def _normal(opts: dict) -> dict:
    out = {}
    for k, v in opts.items():
        out[k] = f"<card {v.name!r}>" if k == "card" and not isinstance(v, str) else v
    return out


def outcome(add_flags, rule_options, args: list, card_path: str) -> str:
    """What the flags give: the options (a card as its name) or the error, as text."""
    import mjfast

    p = parser(add_flags)
    argv = [card_path if a == CARD else a for a in args]
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            ns = p.parse_args(argv)
    except SystemExit as exc:
        return f"exit {exc.code}: {err.getvalue().strip().splitlines()[-1]}"
    try:
        opts = rule_options(ns)
    except (ValueError, TypeError) as exc:
        return f"{type(exc).__name__}: {exc}"
    if "card" in opts and isinstance(opts["card"], str):
        opts["card"] = mjfast.card.load_card(opts["card"], jokers=opts.get("jokers") or 8)
    return json.dumps(_normal(opts), sort_keys=True, default=repr)


def cases() -> list:
    import mjfast

    out = []
    for rules in mjfast.rules.names():
        for f in FLAGS + ODD:
            out.append(["--rules", rules, *f])
        for a, b in itertools.combinations(FLAGS, 2):
            out.append(["--rules", rules, *a, *b])
    return out


def compute(add_flags, rule_options, card_path: str) -> dict:
    os.environ["COLUMNS"] = "100"
    p = parser(add_flags)
    PARSER_GROUPS[:] = p._action_groups
    return {"help": p.format_help(), "actions": [_action(a) for a in p._actions],
            "cases": {" ".join(c): outcome(add_flags, rule_options, c, card_path) for c in cases()}}


def main() -> None:
    import tempfile

    import mjfast
    from mjfast import cli

    with tempfile.TemporaryDirectory() as tmp:
        card_path = os.path.join(tmp, "toy.json")
        with open(card_path, "w", encoding="utf-8") as f:
            json.dump(mjfast.card.toy_card().to_dict(), f)
        data = compute(cli._add_rule_options, cli._rule_options, card_path)
    with open(PATH, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(data['cases'])} cases to {PATH}", file=sys.stderr)


if __name__ == "__main__":
    main()
