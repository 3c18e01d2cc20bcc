"""Docstring examples run as tests; the command line works and prints what it says."""
from __future__ import annotations

import doctest
import json
import pathlib
import subprocess
import sys

import pytest

import mjfast
from mjfast import cli

MODULES = ["mjfast", "mjfast.hands", "mjfast.tiles", "mjfast._config", "mjfast._random_hands", "mjfast.wall", "mjfast.deals", "mjfast.stats", "mjfast.sim"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    mod = __import__(name, fromlist=["_"])
    res = doctest.testmod(mod, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert res.failed == 0
    assert res.attempted > 0


def test_readme_examples():
    readme = pathlib.Path(__file__).resolve().parents[1] / "README.md"
    res = doctest.testfile(str(readme), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert res.failed == 0 and res.attempted > 5


def test_every_public_function_has_an_example():
    for name in mjfast.__all__:
        obj = getattr(mjfast, name)
        if callable(obj) and not isinstance(obj, type):
            assert "Examples" in (obj.__doc__ or ""), name


def test_cli_demo_json(capsys):
    assert cli.main(["demo", "-n", "20000", "--seed", "3", "--format", "json", "--threads", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["n"] == 20000 and data["seed"] == 3
    for form in ("standard", "seven_pairs", "thirteen_orphans", "all"):
        assert sum(data["shanten"][form].values()) == 20000
    hands = mjfast._random_hands.random_hands(20000, 14, seed=3)
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
    out = subprocess.run([sys.executable, "-m", "mjfast", "shanten", "19m19p19s1234567z"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "waits     1m 9m 1p 9p 1s 9s 1z 2z 3z 4z 5z 6z 7z" in out.stdout
