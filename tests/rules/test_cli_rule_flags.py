"""The command line's rule flags generated from the rule sets' option schema
(``mjfast.rules.add_rule_flags`` / ``rule_options``) give what main's hand-written flags gave
(``tests/data/cli_rule_flags``, recorded from ``cli._add_rule_options``/``cli._rule_options``):
the same flags, dests, choices, defaults and argument types, and for every flag alone and every
pair under every rule set the same options or the same error."""
from __future__ import annotations

import argparse
import importlib.util
import json
import os

import pytest

import mjfast
from mjfast import rules

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "cli_rule_flags")
with open(os.path.join(HERE, "expected.json"), encoding="utf-8") as _f:
    EXPECTED = json.load(_f)
#: the simulate flag checked with the rule flags (the command line passes it as an extra)
CHARLESTON = rules.ExtraFlag("--charleston-effect", ("american",), "the Charleston is American (--rules american)",
                             before="--card")


def _recorder():
    spec = importlib.util.spec_from_file_location("cli_rule_flags_record", os.path.join(HERE, "record.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _options(args):
    return rules.rule_options(args, extra=(CHARLESTON,))


@pytest.fixture(scope="module")
def computed(tmp_path_factory):
    path = tmp_path_factory.mktemp("card") / "toy.json"
    path.write_text(json.dumps(mjfast.card.toy_card().to_dict()), encoding="utf-8")
    return _recorder().compute(rules.add_rule_flags, _options, str(path))


def test_the_same_flags_with_the_same_choices_defaults_and_types(computed):
    keys = ("option_strings", "dest", "nargs", "const", "default", "choices", "required", "metavar", "class", "group")
    # the argument types by their kind: none, or a whole number (main's cli._int, now rules' whole_number)
    got = [{k: a[k] for k in keys} | {"typed": a["type"] is not None} for a in computed["actions"]]
    want = [{k: a[k] for k in keys} | {"typed": a["type"] is not None} for a in EXPECTED["actions"]]
    assert got == want


def test_the_help_names_every_flag_where_it_applies_and_its_default(computed):
    helps = {tuple(a["option_strings"]): a["help"] for a in computed["actions"]}
    assert helps[("--min-fan",)].startswith("mcr, mcr-botzone: ") and "default 8" in helps[("--min-fan",)]
    assert helps[("--quan",)].startswith("mcr-botzone: ") and "default 0" in helps[("--quan",)]
    assert helps[("--jokers",)] == "american: number of jokers (default 8)"
    assert "default 20, american 50" in helps[("--base-points",)]
    assert helps[("--rounds",)] == "deals per seat in a game (default 1)"
    for f in rules.FLAGS:
        assert f.flag in computed["help"]


@pytest.mark.parametrize("case", sorted(EXPECTED["cases"]))
def test_each_flag_and_pair_gives_the_same_options_or_error(computed, case):
    assert computed["cases"][case] == EXPECTED["cases"][case]


def test_a_new_option_flag_appears_with_its_help_and_check():
    flag = rules.Flag("--kong", "kong", "kongs allowed", "American games have no kongs", switch=False,
                      default_text="")
    p = argparse.ArgumentParser()
    p.add_argument("--rules", default="classical")
    rules.add_rule_flags(p, rules.FLAGS + (flag,))
    assert "classical, basic, mcr: kongs allowed" in p.format_help()
    assert rules.rule_options(p.parse_args(["--kong"]), rules.FLAGS + (flag,)) == {"kong": False}
    with pytest.raises(ValueError, match="--kong does not apply to --rules american: American games have no kongs"):
        rules.rule_options(p.parse_args(["--rules", "american", "--kong"]), rules.FLAGS + (flag,))


def test_every_flag_sets_an_option_of_the_schema():
    options = {o for name in rules.names() for o in rules.get(name).OPTIONS}
    assert {f.option for f in rules.FLAGS} <= options
