"""The command line as a Unix tool: quiet on a closed pipe, --version, --format json on every
subcommand, and the fresh-seed line only once the arguments are valid."""
from __future__ import annotations

import argparse
import io
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import time

import pytest

import _proc
import _strict_json
import mjfast
from mjfast import cli, hands
from mjfast._runtime.threads import config

SEED_LINE = re.compile(r"mjfast: no --seed given; using --seed (\d+)\n")
MJFAST = [sys.executable, "-m", "mjfast"]


def _env(unbuffered: bool = False) -> dict:
    """The environment of a user's shell: stdout block-buffered into a pipe, unless ``unbuffered``."""
    env = dict(os.environ)
    env.pop("PYTHONUNBUFFERED", None)
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    return env


def _run_into_closed_pipe(argv: list[str], unbuffered: bool = False) -> tuple[int, str]:
    """Run ``mjfast argv`` with stdout a pipe whose reader is already gone (every write fails
    with EPIPE, whatever the timing); the exit status and stderr."""
    r, w = os.pipe()
    os.close(r)
    try:
        p = _proc.start(MJFAST + argv, stdout=w, stderr=subprocess.PIPE, text=True, env=_env(unbuffered))
    finally:
        os.close(w)
    with p:
        _, err = p.communicate(timeout=300)
    return p.returncode, err


def _only_seed_line(err: str) -> bool:
    return err == "" or SEED_LINE.fullmatch(err) is not None


# ---------------------------------------------------------------- 1. closed pipes

CLOSED_PIPE_COMMANDS = {
    "simulate": ["simulate", "--games", "200", "--no-progress"],               # no --seed: the seed line
    "simulate-json": ["simulate", "--games", "100", "--seed", "1", "--format", "json", "--no-progress"],
    "simulate-csv": ["simulate", "--games", "100", "--seed", "1", "--format", "csv", "--no-progress"],
    "charleston-effect": ["simulate", "--rules", "american", "--games", "20", "--charleston-effect", "--no-progress"],
    "replay": ["replay", "--seed", "1"],
    "deal-stats": ["deal-stats", "-n", "20000", "--no-progress"],
    "deal-stats-exact": ["deal-stats", "--exact"],
    "demo": ["demo", "-n", "2000"],
    "shanten": ["shanten", "123m456p789s11223z"],
    "shanten-json": ["shanten", "123m456p789s1122z", "--format", "json"],
    "analyze": ["analyze", "123m456p789s11223z"],
    "fan": ["fan", "123456789m123p55p", "--win", "5p"],
    "odds-table": ["odds-table", "win-rate", "--games", "20", "--no-progress"],
    "config": ["config"],
    "version": ["--version"],
    "help": ["--help"],
    "subcommand-help": ["simulate", "--help"],
}


@pytest.mark.parametrize("name", sorted(CLOSED_PIPE_COMMANDS))
def test_closed_pipe_exits_quietly(name):
    code, err = _run_into_closed_pipe(CLOSED_PIPE_COMMANDS[name])
    assert code == cli.EXIT_BROKEN_PIPE, err
    assert _only_seed_line(err), err          # no traceback, no "Exception ignored in ..."


@pytest.mark.parametrize("name", ["simulate", "replay", "shanten", "help"])
def test_closed_pipe_unbuffered(name):
    """PYTHONUNBUFFERED=1: each print is its own write. argparse ignores a failed write of
    --help itself (exit 0); everything else stops with 141, quietly."""
    code, err = _run_into_closed_pipe(CLOSED_PIPE_COMMANDS[name], unbuffered=True)
    assert code in ((0, cli.EXIT_BROKEN_PIPE) if name == "help" else (cli.EXIT_BROKEN_PIPE,)), err
    assert _only_seed_line(err), err


def _shell(pipeline: str, unbuffered: bool = False) -> subprocess.CompletedProcess:
    """Run ``pipeline`` in bash; its exit status is that of the pipeline's first command."""
    return _proc.run(["bash", "-c", pipeline + '; exit "${PIPESTATUS[0]}"'], capture_output=True, text=True,
                     env=_env(unbuffered), timeout=300)


def _mjfast_cmd() -> str:
    """The console script next to this Python if installed, else ``python -m mjfast``."""
    script = shutil.which("mjfast", path=os.path.dirname(sys.executable))
    return shlex.quote(script) if script else " ".join(shlex.quote(a) for a in MJFAST)


@pytest.mark.slow   # (the default run stays under ten minutes; .ci/run runs the slow tier)
@pytest.mark.skipif(shutil.which("bash") is None or shutil.which("head") is None, reason="needs bash and head")
@pytest.mark.parametrize("unbuffered", [False, True])
def test_shell_pipe_into_head(unbuffered):
    # 188 kB of output: more than a pipe holds, so writes fail once head has its line
    out = _shell(f"{_mjfast_cmd()} replay --seed 1 --rules american --format json | head -1", unbuffered)
    assert out.stdout == "{\n"
    assert out.returncode == cli.EXIT_BROKEN_PIPE and out.stderr == "", out.stderr
    # a small table fits in the pipe before head exits (status 0) or not (141): quiet either way
    for argv in ("simulate --games 300 --no-progress", "analyze 123m456p789s11223z", "demo -n 5000",
                 "odds-table deal", "deal-stats --exact --rules american", "shanten 123m456p789s11223z"):
        out = _shell(f"{_mjfast_cmd()} {argv} | head -1", unbuffered)
        assert out.returncode in (0, cli.EXIT_BROKEN_PIPE), (argv, out.stderr)
        assert out.stdout.count("\n") == 1 and _only_seed_line(out.stderr), (argv, out.stderr)


@pytest.mark.parametrize("argv", [
    ["simulate", "--games", str(10**9), "--progress"],                # seed line, then the progress bar
    ["deal-stats", "-n", str(10**13), "--seed", "1", "--progress"],   # the progress bar only
])
def test_progress_bar_into_closed_pipe(argv):
    """``mjfast simulate --progress 2>&1 | head -c N``: the progress bar on stderr (asked for:
    stderr is a pipe) meets the closed pipe mid-run; the run stops at once with 141 instead of
    a traceback (or running on for hours)."""
    r, w = os.pipe()
    p = _proc.start(MJFAST + argv, stdout=w, stderr=w, env=_env())
    os.close(w)
    try:
        first = _proc.read_until(r, (b"\n", b"["), timeout=120)    # the seed line, or the start of the bar
        assert first.endswith((b"\n", b"[")), f"the command ended early: {first!r}"
        os.close(r)
        r = -1
        t = time.perf_counter()
        code = p.wait(timeout=120)
        latency = time.perf_counter() - t
    finally:
        if r >= 0:
            os.close(r)
        _proc.stop(p)
    assert code == cli.EXIT_BROKEN_PIPE
    assert latency < 30, latency
    if "--seed" not in argv:
        assert SEED_LINE.fullmatch(first.decode()), first      # the seed precedes the progress bar


def test_closed_stdout_in_process(monkeypatch, capsys):
    """main() turns a BrokenPipeError of the output into 141 (no dup2 when stdout is not a file)."""

    class ClosedPipe(io.StringIO):
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    assert cli.main(["shanten", "123m456p789s11223z"]) == cli.EXIT_BROKEN_PIPE
    assert cli.main(["simulate", "--games", "10", "--seed", "1", "--no-progress"]) == cli.EXIT_BROKEN_PIPE
    monkeypatch.undo()
    assert capsys.readouterr().err == ""


# ---------------------------------------------------------------- 2. --version

def test_version():
    out = _proc.run(MJFAST + ["--version"], capture_output=True, text=True, timeout=120)
    assert (out.returncode, out.stdout, out.stderr) == (0, f"mjfast {mjfast.__version__}\n", "")


def test_version_in_process(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out == f"mjfast {mjfast.__version__}\n"


# ---------------------------------------------------------------- 3. --format json

def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = cli.build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def _leaf_parsers() -> dict[str, argparse.ArgumentParser]:
    """Every subcommand's parser; a subcommand with subcommands of its own (botzone judge,
    botzone decisions) counts each of them."""
    out = {}
    for name, sub in _subparsers().items():
        nested = [a for a in sub._actions if isinstance(a, argparse._SubParsersAction)]
        if nested:
            out.update({f"{name} {k}": p for k, p in nested[0].choices.items()})
        else:
            out[name] = sub
    return out


def test_every_subcommand_has_format_json():
    for name, sub in _leaf_parsers().items():
        fmt = [a for a in sub._actions if "--format" in a.option_strings]
        assert fmt and "json" in fmt[0].choices, name
        assert "json" in sub.format_help(), name


JSON_RUNS = {
    "simulate": ["simulate", "--games", "20", "--seed", "1", "--no-progress"],
    "replay": ["replay", "--seed", "1"],
    "deal-stats": ["deal-stats", "-n", "2000", "--seed", "1", "--no-progress"],
    "demo": ["demo", "-n", "2000"],
    "shanten": ["shanten", "123m456p789s11223z"],
    "analyze": ["analyze", "123m456p789s11223z"],
    "fan": ["fan", "123456789m123p55p", "--win", "5p"],
    "odds-table": ["odds-table", "win-by-turn", "--hand", "123m456p789s1122z", "--draws", "3"],
    "config": ["config"],
    "compare": ["compare", "greedy", "random", "-n", "30", "--seed", "1", "--no-progress"],
    "card": ["card", str(pathlib.Path(__file__).parents[1] / "data" / "cards" / "invented-large.json"),
             "111m 444p 777s 4z jj 5z 9p"],
    "calibration": ["calibration", "-n", "40", "--seed", "1", "--no-progress"],
    "advise": ["advise", str(pathlib.Path(__file__).parents[1] / "data" / "game-classical-seed1.jsonl"), "--at", "80",
               "--worlds", "8", "--seed", "1"],
    "botzone": ["botzone", "judge", str(pathlib.Path(__file__).parents[1] / "data" / "botzone" / "hands.txt"),
                "--no-progress"],
}


def test_json_runs_cover_every_subcommand():
    assert set(JSON_RUNS) == set(_subparsers())


@pytest.mark.parametrize("name", sorted(JSON_RUNS))
def test_format_json_parses(name, capsys):
    assert cli.main(JSON_RUNS[name] + ["--format", "json"]) == 0
    data = _strict_json.loads(capsys.readouterr().out)
    assert isinstance(data, dict) and data


def _shanten_json(capsys, *argv) -> dict:
    assert cli.main(["shanten", *argv, "--format", "json"]) == 0
    return _strict_json.loads(capsys.readouterr().out)


def test_shanten_json_13_tiles(capsys):
    d = _shanten_json(capsys, "123m456p789s1122z", "--visible", "1z")
    assert d == {"hand": "123m456p789s1122z", "shanten": 0, "form": "all", "rules": None, "visible": "1z",
                 "waits": ["1z", "2z"], "effective_tiles": {"count": 3, "tiles": {"1z": 1, "2z": 2}}}
    d = _shanten_json(capsys, "147m258p369s1234z")         # not tenpai: no waits
    assert d["shanten"] == hands.shanten("147m258p369s1234z") and d["waits"] == []
    imp = hands.effective_tiles("147m258p369s1234z")
    assert d["effective_tiles"] == {"count": imp.count, "tiles": imp.tiles}


def test_shanten_json_14_tiles(capsys):
    d = _shanten_json(capsys, "123m456p789s11223z", "--rules", "mcr")
    assert (d["shanten"], d["rules"], d["decompositions"]) == (0, "mcr", [])
    expect = hands.effective_tiles("123m456p789s11223z", rules="mcr")
    assert d["discards"] == [{"discard": i.discard, "shanten": i.shanten, "count": i.count, "tiles": i.tiles}
                             for i in expect]
    d = _shanten_json(capsys, "123m", "456p", "789s", "11222z")   # complete: decompositions, no discard rows
    assert d["shanten"] == -1 and d["discards"] == []
    assert d["decompositions"] == [["11z", "123m", "456p", "789s", "222z"]]
    d = _shanten_json(capsys, "123m456p789s11222z", "--rules", "american")
    assert "decompositions" not in d and d["shanten"] == hands.shanten("123m456p789s11222z", rules="american")
    assert [r["discard"] for r in d["discards"]] == [i.discard for i in hands.effective_tiles(
        "123m456p789s11222z", rules="american")]


def test_shanten_table_unchanged(capsys):
    assert cli.main(["shanten", "123m456p789s1122z", "--visible", "1z"]) == 0
    assert capsys.readouterr().out == ("hand      123m456p789s1122z\n"
                                       "shanten   0  (form=all, rules=None)\n"
                                       "waits     1z 2z\n"
                                       "improve   3 unseen tiles: 1zx1 2zx2\n")
    assert cli.main(["shanten", "123m456p789s11223z"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2:5] == ["discard   shanten  unseen  tiles", "  3z           0       4  1zx2 2zx2",
                          "  1m           1      11  1mx3 4mx4 1zx2 2zx2"]
    assert cli.main(["shanten", "123m456p789s11222z"]) == 0
    assert capsys.readouterr().out.splitlines()[2:] == ["decomp    11z 123m 456p 789s 222z"]


def test_config_json(capsys):
    assert cli.main(["config", "--format", "json"]) == 0
    d = _strict_json.loads(capsys.readouterr().out)
    facts = config()
    assert list(d) == list(facts) and d["mjfast"] == mjfast.__version__
    assert {k: v for k, v in d.items() if k != "tables_built"} == {k: v for k, v in facts.items()
                                                                     if k != "tables_built"}
    assert cli.main(["config"]) == 0                       # the table: the same facts, one per line
    table = capsys.readouterr().out
    for key, value in d.items():
        assert re.search(rf"^{key}\s+", table, re.M), key
        if key != "tables_built":
            assert re.search(rf"^{key}\s+{re.escape(str(value))}$", table, re.M), key


def test_replay_json(capsys):
    assert cli.main(["replay", "--seed", "2", "--game", "3"]) == 0
    lines = capsys.readouterr().out
    assert cli.main(["replay", "--seed", "2", "--game", "3", "--format", "json"]) == 0
    d = _strict_json.loads(capsys.readouterr().out)
    assert set(d) == {"header", "events"}
    assert mjfast.GameLog(d["header"], d["events"]) == mjfast.GameLog.from_jsonl(lines)


# ---------------------------------------------------------------- 4. the seed line

BAD_ARGUMENTS = [
    ["simulate", "--games", "5", "--policy", "smart"],
    ["simulate", "--games", "5", "--threads", "0"],
    ["simulate", "--games", "5", "--rules", "american", "--policy", "defensive"],
    ["simulate", "--games", "5", "--rules", "american", "--charleston-effect", "--policy", "defensive"],
    ["simulate", "--games", "5", "--charleston-effect"],
    ["deal-stats", "-n", "5", "--threads", "0"],
    ["deal-stats", "-n", "5", "--rules", "american", "--jokers", "99"],
    ["analyze", "19m19p19s1234z", "--draws", "500"],
    ["odds-table", "win-rate", "--games", "5", "--policies", "smart"],
    ["odds-table", "win-rate", "--games", "5", "--rules", "classical,foo", "--no-progress"],   # foo after a run
    ["odds-table", "mcr-fans", "--games", "5", "--rules", "classical", "--no-progress"],
    ["odds-table", "mcr-ready", "-n", "5", "--rules", "classical"],
    ["odds-table", "deal", "--method", "monte_carlo", "-n", "5", "--threads", "0"],
    ["odds-table", "win-by-turn", "-n", "5", "--draws", "0"],
    ["odds-table", "win-by-turn", "-n", "5", "--method", "exact"],
]


@pytest.mark.parametrize("argv", BAD_ARGUMENTS, ids=lambda a: " ".join(a))
def test_no_seed_line_before_an_argument_error(argv, capsys):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("mjfast: error: ") and "--seed" not in err, err


def test_no_seed_line_on_a_parser_error(capsys):
    with pytest.raises(SystemExit):
        cli.main(["simulate", "--games", "0"])
    assert "no --seed" not in capsys.readouterr().err


TIMING = ("seconds", "games_per_second", "turns_per_second")


@pytest.mark.parametrize("argv", [
    ["simulate", "--games", "60", "--no-progress"],
    ["simulate", "--rules", "american", "--games", "10", "--charleston-effect", "--no-progress"],
    ["deal-stats", "-n", "5000", "--no-progress"],
    ["odds-table", "win-rate", "--games", "20", "--no-progress"],
    ["analyze", "145m4479p14s1247z", "--draws", "5"],                       # 5-shanten: Monte Carlo
    ["odds-table", "win-by-turn", "--hand", "145m4479p14s1247z", "--draws", "5", "-n", "3000", "--no-progress"],
])
def test_seed_line_once_and_it_repeats_the_run(argv, capsys):
    assert cli.main(argv + ["--format", "json"]) == 0
    out, err = capsys.readouterr()
    m = SEED_LINE.fullmatch(err)
    assert m, err
    assert cli.main(argv + ["--format", "json", "--seed", m.group(1)]) == 0
    again, err = capsys.readouterr()
    assert err == ""

    def strip(text):
        return {k: v for k, v in _strict_json.loads(text).items() if k not in TIMING}

    assert strip(again) == strip(out)


@pytest.mark.parametrize("argv", [
    ["analyze", "123m456p789s1123z", "--draws", "3"],                       # 1-shanten: exact, no seed used
    ["odds-table", "win-by-turn", "--hand", "123m456p789s1122z", "--draws", "3"],
    ["odds-table", "deal"],
    ["simulate", "--games", "20", "--seed", "4", "--no-progress"],
])
def test_no_seed_line_when_nothing_is_random(argv, capsys):
    assert cli.main(argv) == 0
    assert capsys.readouterr().err == ""


def test_a_wrong_dask_scheduler_fails_within_the_connect_timeout():
    """--backend dask with an address nobody listens on: a clear error within a few seconds
    (--connect-timeout, default 5 s; Dask's own default waits 30 s)."""
    import time

    pytest.importorskip("distributed")
    cmd = [sys.executable, "-m", "mjfast", "simulate", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:9",
           "--games", "10", "--seed", "1", "--no-progress"]
    t = time.perf_counter()
    r = _proc.run(cmd + ["--connect-timeout", "1"], capture_output=True, text=True, timeout=60)
    assert time.perf_counter() - t < 20
    assert r.returncode == 2 and "cannot connect to the Dask scheduler tcp://127.0.0.1:9 within 1 s" in r.stderr
    assert "Traceback" not in r.stderr
    bad = _proc.run(cmd + ["--connect-timeout", "0"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "a positive number of seconds" in bad.stderr
