"""One vocabulary across the subcommands, through subprocesses: every subcommand's JSON
parses, unknown and inapplicable options are rejected with exit 2 and a message that names
them, deprecated spellings still work with a one-line note, errors are in the user's words,
every option has help, and the compare subcommand."""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import _proc
import _strict_json
import mjfast
from mjfast import cli
from mjfast.cli._common import user_words
from mjfast.cli._options import Deprecated

MJFAST = [sys.executable, "-m", "mjfast"]
NOTE = re.compile(r"mjfast: note: (--\S+) is deprecated; use (--\S+) \(the same meaning\)")


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(os.path.dirname(mjfast.__file__))]
                                        + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env.pop("MJFAST_PROGRESS", None)
    return env


def run(*argv: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return _proc.run(MJFAST + list(argv), capture_output=True, text=True, env=_env(), timeout=timeout)


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = cli.build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


# ---------------------------------------------------------------- --format json, everywhere

JSON_RUNS = {
    "simulate": ["simulate", "-n", "20", "--seed", "1"],
    "simulate-charleston-effect": ["simulate", "--rules", "american", "-n", "5", "--seed", "1", "--charleston-effect"],
    "compare": ["compare", "greedy", "random", "-n", "20", "--seed", "1"],
    "replay": ["replay", "--seed", "1"],
    "deal-stats": ["deal-stats", "-n", "2000", "--seed", "1"],
    "deal-stats-exact": ["deal-stats", "--exact"],
    "demo": ["demo", "-n", "2000"],
    "shanten": ["shanten", "123m456p789s11223z"],
    "analyze": ["analyze", "147m258p369s1234z", "--draws", "2", "--seed", "1"],
    "fan": ["fan", "123456789m123p55p", "--win", "5p"],
    "odds-table-deal": ["odds-table", "deal", "--rules", "classical,american"],
    "odds-table-win-by-turn": ["odds-table", "win-by-turn", "-n", "2000", "--draws", "2", "--seed", "1"],
    "odds-table-win-rate": ["odds-table", "win-rate", "-n", "20", "--seed", "1"],
    "odds-table-mcr-ready": ["odds-table", "mcr-ready", "-n", "2000", "--seed", "1"],
    "odds-table-mcr-fans": ["odds-table", "mcr-fans", "-n", "10", "--seed", "1"],
    "config": ["config"],
    "calibration": ["calibration", "-n", "40", "--seed", "1"],
    "advise": ["advise", str(Path(__file__).parents[1] / "data" / "game-classical-seed1.jsonl"), "--at", "80",
               "--worlds", "8", "--seed", "1"],
    "botzone": ["botzone", "judge", str(Path(__file__).parents[1] / "data" / "botzone" / "hands.txt")],
    "card": ["card", str(Path(__file__).parents[1] / "data" / "cards" / "invented-large.json"), "111m 444p 777s 4z jj"],
    "odds-table-american-lines": ["odds-table", "american-lines", "--card",
                                  str(Path(__file__).parents[1] / "data" / "cards" / "invented-large.json"),
                                  "-n", "500", "--seed", "1"],
}


def test_json_runs_cover_every_subcommand():
    assert {argv[0] for argv in JSON_RUNS.values()} == set(_subparsers())


@pytest.mark.parametrize("name", sorted(JSON_RUNS))
def test_every_subcommand_prints_json(name):
    out = run(*JSON_RUNS[name], "--format", "json")
    assert out.returncode == 0, out.stderr
    data = _strict_json.loads(out.stdout)
    assert isinstance(data, dict) and data
    assert out.stderr == "", out.stderr          # seeds given; stderr is a pipe: no progress frames


# ---------------------------------------------------------------- unknown and inapplicable options

UNKNOWN = [
    ["simulate", "--bogus"],
    ["compare", "greedy", "random", "--duplicate"],          # compare is paired by construction
    ["compare", "greedy", "random", "--policies", "greedy"],
    ["config", "--seed", "1"],
    ["shanten", "123m", "--threads", "2"],
    ["demo", "--rules", "mcr"],
]


@pytest.mark.parametrize("argv", UNKNOWN, ids=" ".join)
def test_unknown_options_exit_2(argv):
    out = run(*argv)
    assert out.returncode == 2 and "unrecognized arguments" in out.stderr, out.stderr
    assert "Traceback" not in out.stderr


INAPPLICABLE = [
    # (argv, the option named, where)
    (["simulate", "-n", "5", "--min-fan", "8"], "--min-fan", "--rules classical"),
    (["simulate", "-n", "5", "--scoring", "basic", "--rules", "basic"], "--scoring", "--rules basic"),
    (["simulate", "-n", "5", "--jokers", "6"], "--jokers", "--rules classical"),
    (["simulate", "-n", "5", "--no-courtesy", "--rules", "mcr"], "--no-courtesy", "--rules mcr"),
    (["simulate", "-n", "5", "--second-charleston", "never"], "--second-charleston", "--rules classical"),
    (["simulate", "-n", "5", "--charleston-effect"], "--charleston-effect", "--rules classical"),
    (["simulate", "-n", "5", "--rules", "american", "--flowers"], "--flowers", "--rules american"),
    (["simulate", "-n", "5", "--rules", "american", "--refill-dead-wall"], "--refill-dead-wall", "--rules american"),
    (["simulate", "-n", "5", "--rules", "american", "--payment", "each"], "--payment", "--rules american"),
    (["simulate", "-n", "5", "--rules", "american", "--charleston-effect", "--duplicate"], "--duplicate",
     "simulate --charleston-effect"),
    (["compare", "greedy", "random", "-n", "5", "--rules", "american", "--min-fan", "3"], "--min-fan",
     "--rules american"),
    (["deal-stats", "--jokers", "4"], "--jokers", "--rules classical"),
    (["deal-stats", "--rules", "american", "--flowers"], "--flowers", "--rules american"),
    (["deal-stats", "--exact", "-n", "100"], "-n/--deals", "deal-stats --exact"),
    (["deal-stats", "--exact", "--seed", "1"], "--seed", "deal-stats --exact"),
    (["deal-stats", "--exact", "--threads", "2"], "--threads", "deal-stats --exact"),
    (["analyze", "123m456p789s1122z", "--min-fan", "8"], "--min-fan", "--rules classical"),
    (["analyze", "123m456p789s1122z", "--seed", "3"], "--seed", "analyze without --draws"),
    (["analyze", "123m456p789s1122z", "--draw-policy", "first"], "--draw-policy", "analyze without --draws"),
    (["analyze", "123m456p789s1122z", "--no-progress"], "--progress/--no-progress", "analyze without --draws"),
    (["odds-table", "deal", "--games", "5"], "--games", "odds-table deal"),
    (["odds-table", "win-rate", "--deals", "5"], "--deals", "odds-table win-rate"),
    (["odds-table", "mcr-ready", "--samples", "5"], "--samples", "odds-table mcr-ready"),
    (["odds-table", "deal", "--seed", "1"], "--seed", "odds-table deal (exact by default)"),
    (["odds-table", "deal", "-n", "100"], "-n", "odds-table deal (exact by default)"),
    (["odds-table", "deal", "--threads", "2"], "--threads", "odds-table deal (exact by default)"),
    (["odds-table", "deal", "--min-fan", "8"], "--min-fan", "odds-table deal"),
    (["odds-table", "deal", "--hand", "123m456p789s1122z"], "--hand", "odds-table deal"),
    (["odds-table", "deal", "--draw-policy", "first"], "--draw-policy", "odds-table deal"),
    (["odds-table", "deal", "--policy", "first"], "--policy", "odds-table deal"),       # the old spelling
    (["odds-table", "win-by-turn", "--policies", "random"], "--policies", "odds-table win-by-turn"),
    (["odds-table", "win-by-turn", "--by", "policy"], "--by", "odds-table win-by-turn"),
    (["odds-table", "win-rate", "--draws", "5"], "--draws", "odds-table win-rate"),
    (["odds-table", "mcr-fans", "--method", "monte_carlo"], "--method", "odds-table mcr-fans"),
    (["odds-table", "mcr-ready", "--plot", "x.png"], "--plot", "odds-table mcr-ready"),
    (["odds-table", "win-by-turn", "--hand", "123m456p789s1122z", "--method", "exact", "--seed", "1"], "--seed",
     "odds-table win-by-turn --method exact"),
]


@pytest.mark.parametrize("argv,option,where", INAPPLICABLE, ids=[" ".join(a) for a, _, _ in INAPPLICABLE])
def test_inapplicable_options_are_errors(argv, option, where, capsys):
    code = cli.main(argv)
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(f"mjfast: error: {option} does not apply to {where}: "), err
    assert "no --seed given" not in err


def test_inapplicable_through_a_subprocess():
    out = run("simulate", "-n", "5", "--rules", "classical", "--jokers", "4")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == ("mjfast: error: --jokers does not apply to --rules classical: jokers are in American sets "
                          "only (--rules american)\n")


def test_other_conflicts():
    for argv, text in ((["deal-stats", "-n", "5", "--connect-timeout", "2"], "--connect-timeout needs --backend dask"),
                       (["simulate", "--progress", "--no-progress"], "not allowed with argument"),
                       (["odds-table", "deal", "--rules", "none"], "--rules none is for win-by-turn odds only"),
                       (["odds-table", "mcr-ready", "--rules", "classical"], "needs --rules mcr"),
                       (["odds-table", "win-by-turn", "--method", "exact"], "give --hand HAND for exact curves")):
        out = run(*argv)
        assert out.returncode == 2 and text in out.stderr, (argv, out.stderr)


# ---------------------------------------------------------------- one vocabulary, old spellings kept

def _strip(stdout: str) -> dict:
    data = _strict_json.loads(stdout)
    return {k: v for k, v in data.items() if k not in ("seconds", "games_per_second", "turns_per_second")}


@pytest.mark.parametrize("old,new", [
    (["simulate", "--games", "30", "--policy", "greedy,random,defensive,greedy"],
     ["simulate", "-n", "30", "--policies", "greedy,random,defensive,greedy"]),
    (["replay", "--policy", "random"], ["replay", "--policies", "random"]),
    (["odds-table", "win-by-turn", "--hand", "123m456p789s1122z", "--draws", "3", "--policy", "first"],
     ["odds-table", "win-by-turn", "--hand", "123m456p789s1122z", "--draws", "3", "--draw-policy", "first"]),
])
def test_deprecated_spellings_work_with_a_note(old, new):
    a = run(*old, "--seed", "2", "--format", "json")
    b = run(*new, "--seed", "2", "--format", "json")
    assert a.returncode == b.returncode == 0, a.stderr + b.stderr
    assert _strip(a.stdout) == _strip(b.stdout)
    assert b.stderr == ""
    m = NOTE.fullmatch(a.stderr.rstrip("\n"))                    # exactly one line, naming both spellings
    assert m and m.group(1) == "--policy" and m.group(2) in new, a.stderr


def test_deprecated_spelling_hidden_from_help():
    for name in ("simulate", "replay", "odds-table"):
        help_text = run(name, "--help").stdout
        assert re.search(r"--policy\b(?!-)", help_text.replace("--draw-policy", "")) is None, (name, help_text)


def test_note_after_an_error_line():
    """An argument error comes first on stderr (scripts check it), the note after it."""
    out = run("simulate", "-n", "5", "--policy", "smart")
    lines = out.stderr.splitlines()
    assert out.returncode == 2 and lines[0].startswith("mjfast: error: --policies: unknown policy 'smart'")
    assert NOTE.fullmatch(lines[1]) and len(lines) == 2


@pytest.mark.parametrize("a,b", [
    (["simulate", "-n", "40"], ["simulate", "--games", "40"]),
    (["deal-stats", "-n", "3000"], ["deal-stats", "--deals", "3000"]),
    (["demo", "-n", "3000"], ["demo", "--hands", "3000"]),
    (["compare", "greedy", "random", "-n", "20"], ["compare", "greedy", "random", "--games", "20"]),
    (["odds-table", "win-rate", "-n", "20"], ["odds-table", "win-rate", "--games", "20"]),
    (["odds-table", "deal", "--method", "monte_carlo", "-n", "3000"],
     ["odds-table", "deal", "--method", "monte_carlo", "--deals", "3000"]),
    (["odds-table", "win-by-turn", "-n", "3000", "--draws", "2"],
     ["odds-table", "win-by-turn", "--samples", "3000", "--draws", "2"]),
    (["odds-table", "mcr-ready", "-n", "3000"], ["odds-table", "mcr-ready", "--deals", "3000"]),
])
def test_n_and_its_long_spelling_agree(a, b, capsys):
    keys = ("ns_per_hand", "seconds", "games_per_second", "turns_per_second")
    results = []
    for argv in (a, b):
        assert cli.main(argv + ["--seed", "4", "--format", "json", *(["--no-progress"] if argv[0] not in
                                                                      ("demo",) else [])]) == 0
        out, err = capsys.readouterr()
        assert err == "", err
        results.append({k: v for k, v in _strict_json.loads(out).items() if k not in keys})
    assert results[0] == results[1]


def test_every_option_has_help():
    for name, sub in _subparsers().items():
        for action in sub._actions:
            if isinstance(action, Deprecated) or isinstance(action, argparse._HelpAction):
                continue
            assert action.help and action.help != argparse.SUPPRESS, (name, action.option_strings or action.dest)
    top = cli.build_parser()
    for action in top._actions:
        assert action.help, action.option_strings


def test_the_same_words_everywhere():
    """The run options are spelled the same in every subcommand that has them."""
    seen: dict[str, set] = {}
    for name, sub in _subparsers().items():
        for action in sub._actions:
            for opt in action.option_strings:
                seen.setdefault(opt, set()).add(name)
    for word in ("--seed", "--threads", "--format", "--rules"):
        assert word in seen
    assert seen["--policies"] == {"simulate", "replay", "odds-table", "calibration", "advise"}
    assert seen["--draw-policy"] == {"analyze", "odds-table"}
    assert seen["-n"] == {"simulate", "compare", "deal-stats", "demo", "odds-table", "calibration"}
    assert seen["--games"] == {"simulate", "compare", "odds-table"}
    assert seen["--progress"] == seen["--no-progress"] == {"simulate", "compare", "deal-stats", "analyze",
                                                            "odds-table", "calibration"}
    assert seen["--backend"] == {"simulate", "deal-stats"}
    for opt in seen:                       # no snake_case or --policy/--n spelling is shown
        assert "_" not in opt


# ---------------------------------------------------------------- errors in the user's words

BAD_INPUTS = [
    ["simulate", "-n", "5", "--policies", "smart"],
    ["simulate", "-n", "5", "--rules", "american", "--policies", "defensive"],
    ["simulate", "-n", "5", "--policies", "greedy,random"],
    ["simulate", "-n", "5", "--rounds", "0"],
    ["simulate", "-n", "5", "--base-points", "0"],
    ["simulate", "-n", "5", "--rules", "american", "--jokers", "99"],
    ["simulate", "-n", "5", "--rules", "mcr", "--min-fan", "-1"],
    ["simulate", "-n", "5", "--threads", "0"],
    ["simulate", "-n", "5", "--threads", "99999"],
    ["simulate", "-n", "0"],
    ["simulate", "--seed", "-3"],
    ["compare", "greedy", "smart"],
    ["compare", "greedy,random", "random"],
    ["deal-stats", "-n", "5", "--rules", "american", "--jokers", "99"],
    ["deal-stats", "-n", "5", "--threads", "0"],
    ["demo", "-n", "5", "--threads", "0"],
    ["shanten", "123m", "--form", "foo"],
    ["shanten", "123x"],
    ["shanten", "123m456p789s1122z", "--rules", "foo"],
    ["shanten", "1111m2222p3333s44z", "--rules", "american", "--form", "standard"],
    ["analyze", "123m456p789s1122z", "--rules", "mcr", "--min-fan", "-3"],
    ["analyze", "123m456p789s1122z", "--draws", "0"],
    ["analyze", "123m456p789s1122z", "--rules", "american"],
    ["fan", "123456789m123p55p", "--win", "5x"],
    ["fan", "123456789m123p55p", "--win", "5p", "--flowers", "9"],
    ["replay", "--seed", "1", "--game", "-1"],
    ["replay", "--seed", "1", "--rules", "american", "--policies", "defensive"],
    ["odds-table", "deal", "--rules", "foo"],
    ["odds-table", "win-by-turn", "--rules", "american"],
    ["odds-table", "win-by-turn", "--draws", "0", "-n", "5"],
    ["odds-table", "win-rate", "--policies", "a,b"],
    ["odds-table", "mcr-ready", "--method", "exact"],
    ["odds-table", "deal", "--method", "auto"],
]
LEAKS = [r"\('", r"\['", r"\b[a-z]+_[a-z_]+=", r"\*\*", r"mjfast\.Policy", r"\bNone\b", r"NoneType", r"\ban int\b",
         r"Traceback", r"\brules='", r"\bgame_index\b", r"\bmin_fan\b", r"\bbase_points\b"]


@pytest.mark.parametrize("argv", BAD_INPUTS, ids=" ".join)
def test_errors_in_the_users_words(argv):
    out = run(*argv)
    assert out.returncode == 2, out.stderr
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith(("mjfast: error: ", f"mjfast {argv[0]}: error: ")), out.stderr
    for pattern in LEAKS:
        assert re.search(pattern, out.stderr) is None, (pattern, out.stderr)


def test_user_words_translation():
    w = user_words
    assert w("min_fan is an option of rules='mcr' only") == "--min-fan is an option of --rules mcr only"
    assert w("unknown rules 'foo'; choose one of ('classical', 'basic')") == "unknown rules 'foo'; choose one of classical, basic"
    assert w("base_points must be an int from 1 to 10**6, got 0") == "--base-points must be a whole number from 1 to 1,000,000, got 0"
    assert w("game_index must be between 0 and 2**40, got -1").startswith("--game must be between 0 and 1,099,511,627,776")
    assert w("a hand of 13 tiles") == "a hand of 13 tiles"


# ---------------------------------------------------------------- compare

def test_compare_json_matches_the_library():
    out = run("compare", "defensive", "greedy", "-n", "60", "--seed", "5", "--threads", "1", "--format", "json")
    assert out.returncode == 0 and out.stderr == "", out.stderr
    d = _strict_json.loads(out.stdout)
    c = mjfast.compare("defensive", "greedy", 60, seed=5, progress=False)
    assert (d["policy_a"], d["policy_b"], d["wall_sets"], d["games"], d["seed"], d["rules"]) == (
        "defensive", "greedy", 60, 300, 5, "classical")
    assert d["points_diff"] == c.points_diff.to_dict() and d["win_rate_diff"] == c.win_rate_diff.to_dict()
    assert d["a"]["win_rate"] == c.a.win_rate(policy="defensive").p
    assert d["b"]["mean_points"] == c.b.mean_points(policy="greedy").mean
    two = run("compare", "defensive", "greedy", "-n", "60", "--seed", "5", "--threads", "2", "--format", "json")
    assert {k: v for k, v in _strict_json.loads(two.stdout).items() if k != "seconds"} == {
        k: v for k, v in d.items() if k != "seconds"}                  # threads never change a result


def test_compare_table_csv_seed_and_rules():
    out = run("compare", "greedy", "random", "-n", "40")
    assert out.returncode == 0
    seed = re.fullmatch(r"mjfast: no --seed given; using --seed (\d+)\n", out.stderr).group(1)
    assert "A = greedy against B = random" in out.stdout and "points per game" in out.stdout
    assert f"seed {seed}" in out.stdout
    again = run("compare", "greedy", "random", "-n", "40", "--seed", seed)
    strip = lambda t: "\n".join(ln for ln in t.splitlines() if " s" not in ln[-3:] and "games in" not in ln)
    assert strip(again.stdout) == strip(out.stdout)
    csv_out = run("compare", "greedy", "random", "-n", "10", "--seed", "1", "--format", "csv", "--rules", "american")
    rows = csv_out.stdout.strip().splitlines()
    assert rows[0] == "statistic,mean,se,ci95_low,ci95_high,n" and len(rows) == 3 and rows[1].endswith(",10")
    mcr = run("compare", "greedy", "random", "-n", "10", "--seed", "1", "--rules", "mcr", "--min-fan", "0",
              "--format", "json")
    d = _strict_json.loads(mcr.stdout)
    assert d["options"]["min_fan"] == 0 and d["rules"] == "mcr"
    one = run("compare", "greedy", "random", "-n", "1", "--seed", "1", "--format", "json")
    assert _strict_json.loads(one.stdout)["points_diff"]["se"] is None        # NaN is not JSON: null


def test_compare_progress_when_asked():
    """--progress draws the bar into the pipe (the bar's half-second delay set to 0 here, so
    that a short run shows it whatever the machine's speed)."""
    code = ("import sys, mjfast._runtime.progress as p, mjfast.cli as c; p.DELAY = 0.0; "
            "sys.exit(c.main(['compare', 'greedy', 'random', '-n', '300', '--seed', '1', '--format', 'json'] + "
            "sys.argv[1:]))")
    shown = _proc.run([sys.executable, "-c", code, "--progress"], capture_output=True, text=True, env=_env(),
                      timeout=300)
    assert shown.returncode == 0 and "compare classical:" in shown.stderr and "games/s" in shown.stderr, shown.stderr
    assert _strict_json.loads(shown.stdout)["wall_sets"] == 300
    quiet = _proc.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(), timeout=300)
    assert quiet.returncode == 0 and quiet.stderr == ""        # stderr is a pipe: no bar unless asked
