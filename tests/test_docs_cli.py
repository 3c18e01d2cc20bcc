"""Docstring examples run as tests; the command line works and prints what it says."""
from __future__ import annotations

import doctest
import math
import pathlib
import sys

import pytest

import _proc
import _strict_json
import mjfast
from mjfast import cli

MODULES = ["mjfast", "mjfast.hands", "mjfast.tiles", "mjfast._runtime.threads", "mjfast._runtime.seeding",
           "mjfast._runtime.options",
           "mjfast.hands._random", "mjfast.wall", "mjfast.deals", "mjfast.stats", "mjfast.exact", "mjfast.rules",
           "mjfast.game", "mjfast.game.runner", "mjfast.game.policy", "mjfast.game.log", "mjfast.game.charleston",
           "mjfast.hands._american", "mjfast.hands._functions", "mjfast.game.encodings", "mjfast.env._vec",
           "mjfast.env._decisions", "mjfast.mcr", "mjfast.mcr._fan",
           "mjfast.game.extensions"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    mod = __import__(name, fromlist=["_"])
    res = doctest.testmod(mod, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert res.failed == 0
    assert res.attempted > 0


@pytest.mark.parametrize("name,needs", [("mjfast.env.gym", "gymnasium"), ("mjfast.env.aec", "pettingzoo")])
def test_optional_docstring_examples(name, needs):
    pytest.importorskip(needs)
    mod = __import__(name, fromlist=["_"])
    res = doctest.testmod(mod, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert res.failed == 0
    assert res.attempted > 0


def test_readme_examples():
    readme = pathlib.Path(__file__).resolve().parents[1] / "README.md"
    res = doctest.testfile(str(readme), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert res.failed == 0 and res.attempted > 5


def test_american_cards_page_examples():
    page = pathlib.Path(__file__).resolve().parents[1] / "docs" / "american-cards.md"
    res = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert res.failed == 0 and res.attempted >= 3


GUIDE = pathlib.Path(__file__).resolve().parents[1] / "docs" / "guide"
#: the user guide's pages with Python examples (each page is one doctest namespace, so each
#: imports what it uses); the others show code that needs a cluster or a compiler
GUIDE_EXAMPLES = sorted(p.name for p in GUIDE.glob("*.md") if ">>> " in p.read_text(encoding="utf-8"))


def test_the_guide_has_examples():
    assert {"tiles.md", "hands.md", "deals.md", "rule-sets.md", "simulate.md", "analysis.md", "mcr.md",
            "american.md", "environments.md", "robustness.md", "building.md"} <= set(GUIDE_EXAMPLES)


@pytest.mark.parametrize("name", GUIDE_EXAMPLES)
def test_guide_page_examples(name):
    res = doctest.testfile(str(GUIDE / name), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert res.failed == 0 and res.attempted >= 1


def test_every_public_function_has_an_example():
    for name in mjfast.__all__:
        obj = getattr(mjfast, name)
        if callable(obj) and not isinstance(obj, type):
            assert "Examples" in (obj.__doc__ or ""), name


def test_cli_demo_json(capsys):
    assert cli.main(["demo", "-n", "20000", "--seed", "3", "--format", "json", "--threads", "1"]) == 0
    data = _strict_json.loads(capsys.readouterr().out)
    assert data["n"] == 20000 and data["seed"] == 3
    for form in ("standard", "seven_pairs", "thirteen_orphans", "all"):
        assert sum(data["shanten"][form].values()) == 20000
    hands = mjfast.hands._random.random_hands(20000, 14, seed=3)
    assert int(mjfast.is_winning(hands).sum()) == data["complete"]
    expected = {str(k): int(v) for k, v in zip(*__import__("numpy").unique(mjfast.shanten(hands), return_counts=True))}
    assert data["shanten"]["all"] == expected


def test_cli_demo_table(capsys):
    assert cli.main(["demo", "-n", "5000", "--tiles", "13"]) == 0
    out = capsys.readouterr().out
    assert "shanten distribution" in out and "ns" in out


def test_cli_shanten(capsys):
    assert cli.main(["shanten", "123m456p789s1122z", "--visible", "1z"]) == 0
    out = capsys.readouterr().out
    assert "shanten   0" in out and "waits     1z 2z" in out and "3 unseen" in out
    assert cli.main(["shanten", "123m456p789s11223z"]) == 0
    assert "3z" in capsys.readouterr().out
    assert cli.main(["shanten", "11111m"]) == 2
    assert "5 copies of 1m" in capsys.readouterr().err


def test_cli_errors_and_config(capsys):
    with pytest.raises(SystemExit):
        cli.main(["demo", "-n", "0"])
    assert cli.main(["config"]) == 0
    assert "openmp" in capsys.readouterr().out


def test_console_script_entry_point():
    out = _proc.run([sys.executable, "-m", "mjfast", "shanten", "19m19p19s1234567z"],
                    capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "waits     1m 9m 1p 9p 1s 9s 1z 2z 3z 4z 5z 6z 7z" in out.stdout


def test_cli_deal_stats_json_and_exact(capsys):
    assert cli.main(["deal-stats", "-n", "200000", "--seed", "5", "--format", "json", "--no-progress"]) == 0
    data = _strict_json.loads(capsys.readouterr().out)
    assert data["rules"] == "classical" and data["n"] == 200000 and data["seed"] == 5
    assert set(data["dealer"]["shanten"]) == {"standard", "all"}
    assert sum(data["non_dealer"]["shanten"]["all"].values()) == 200000
    assert cli.main(["deal-stats", "--exact", "--format", "json"]) == 0
    exact = _strict_json.loads(capsys.readouterr().out)
    from fractions import Fraction
    for seat in ("dealer", "non_dealer"):
        dist = {k: Fraction(v) for k, v in exact[seat]["shanten"]["all"].items()}
        assert sum(dist.values()) == 1
        # the Monte Carlo counts sit within 4 standard errors of the exact probabilities
        n = data["n"]
        for k, p in dist.items():
            count = data[seat]["shanten"]["all"].get(k, 0)
            se = math.sqrt(float(p) * (1 - float(p)) / n)
            assert abs(count / n - float(p)) <= 4 * se + 1e-12, (seat, k)
    assert cli.main(["deal-stats", "--exact"]) == 0
    assert "1 in" in capsys.readouterr().out
    assert cli.main(["deal-stats", "--exact", "--rules", "american"]) == 0
    assert "form=beginner" in capsys.readouterr().out


def test_cli_simulate_json_schema(capsys):
    assert cli.main(["simulate", "--games", "300", "--seed", "2", "--format", "json", "--no-progress"]) == 0
    data = _strict_json.loads(capsys.readouterr().out)
    for key in ("rules", "games", "seed", "exhaustive_draws", "mean_turns", "seats"):
        assert key in data
    assert data["games"] == 300 and data["seed"] == 2 and len(data["seats"]) == 4
    for seat in data["seats"]:
        for key in ("wins", "self_draw_wins", "discard_wins", "deal_ins", "points"):
            assert isinstance(seat[key], int)
        assert seat["wins"] == seat["self_draw_wins"] + seat["discard_wins"]
    assert sum(s["points"] for s in data["seats"]) == 0
    assert cli.main(["simulate", "--games", "50", "--seed", "2", "--policy", "greedy,random,defensive,greedy",
                     "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "seat 1 random" in out and "turns/s" in out
    assert cli.main(["simulate", "--games", "20", "--seed", "2", "--format", "csv", "--no-progress"]) == 0
    rows = capsys.readouterr().out.strip().splitlines()
    assert rows[0].startswith("seat,policy,hands,wins") and len(rows) == 5
    assert cli.main(["replay", "--seed", "2", "--game", "3"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert _strict_json.loads(lines[0])["type"] == "header" and _strict_json.loads(lines[1])["type"] == "hand"
    assert cli.main(["simulate", "--games", "5", "--policy", "smart"]) == 2
