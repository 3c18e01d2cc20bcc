"""Progress bars: tqdm on stderr, units that fit what is counted, nothing into a file or a
pipe unless asked, ``progress=False`` per call and a global switch (``mjfast.set_options``,
``MJFAST_PROGRESS``)."""
from __future__ import annotations

import io
import os
import sys
import warnings

import pytest

import _proc
import mjfast
from mjfast._runtime import progress as _progress
from mjfast.exact import _deal_odds, _thresholds


@pytest.fixture
def no_delay(monkeypatch):
    """Bars appear at once (the default waits half a second), and the setting is restored."""
    monkeypatch.setattr(_progress, "DELAY", 0.0)
    monkeypatch.delenv(_progress.ENV_VAR, raising=False)
    with mjfast.set_options(progress=None):
        yield


def _bar_into(stream, units=5, **kwargs):
    bar = _progress.Progress(units, label="test run", unit="deals", stream=stream, interval=0, **kwargs)
    for i in range(1, units + 1):
        bar.update(i)
    bar.close()
    return stream.getvalue()


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_no_frames_into_a_file_or_pipe_by_default(no_delay):
    assert _bar_into(io.StringIO()) == ""                        # not a terminal: nothing
    out = _bar_into(_Terminal())                                 # a terminal: tqdm's bar
    assert "test run" in out and "5/5" in out and "deals/s" in out and out.endswith("\n")


def test_global_switch_and_precedence(no_delay, monkeypatch):
    with mjfast.set_options(progress="always"):
        assert mjfast.get_options() == {"progress": "always"}
        assert "5/5" in _bar_into(io.StringIO())                 # asked for: into a file too
        assert _bar_into(io.StringIO(), enabled=False) == ""     # the call's progress=False wins
    with mjfast.set_options(progress=False):
        assert mjfast.get_options() == {"progress": "never"}
        assert _bar_into(_Terminal()) == ""
    assert mjfast.get_options() == {"progress": "auto"}          # a with block restores
    for value, mode in (("0", "never"), ("off", "never"), ("1", "always"), ("always", "always"), ("auto", "auto")):
        monkeypatch.setenv("MJFAST_PROGRESS", value)
        assert mjfast.get_options()["progress"] == mode
    monkeypatch.setenv("MJFAST_PROGRESS", "0")
    assert _bar_into(_Terminal()) == ""
    with mjfast.set_options(progress="always"):                   # set_options beats the environment
        assert "5/5" in _bar_into(io.StringIO())
    monkeypatch.setenv("MJFAST_PROGRESS", "sometimes")
    with pytest.warns(RuntimeWarning, match="MJFAST_PROGRESS"):
        assert mjfast.get_options()["progress"] == "auto"
    with pytest.raises(ValueError, match="progress must be one of"):
        mjfast.set_options(progress="loud")
    old = mjfast.get_options()
    mjfast.set_options()                                          # nothing given: nothing changes
    assert mjfast.get_options() == old


def test_session_setting(no_delay):
    mjfast.set_options(progress="never")
    try:
        assert mjfast.get_options()["progress"] == "never" and _bar_into(_Terminal()) == ""
    finally:
        mjfast.set_options(progress=None)
    assert mjfast.get_options()["progress"] == "auto"


def test_jupyter_stream_counts_as_interactive():
    Stream = type("OutStream", (io.StringIO,), {"__module__": "ipykernel.iostream"})
    assert _progress.interactive(Stream()) and not _progress.interactive(io.StringIO())


def test_short_runs_print_nothing(monkeypatch):
    monkeypatch.delenv(_progress.ENV_VAR, raising=False)
    with mjfast.set_options(progress="always"):
        assert _bar_into(_Terminal(), delay=30) == ""


@pytest.mark.parametrize("call,unit", [
    ("mjfast.deal_stats(400_000, seed=1, threads=1, chunk_size=20_000)", "deals/s"),
    ("mjfast.simulate(300, seed=1, threads=1, chunk_size=20)", "games/s"),
    ("mjfast.compare('greedy', 'random', 60, seed=1, threads=1)", "games/s"),
    ("mjfast.win_by_turn('147m258p369s1234z', draws=3, method='monte_carlo', samples=40_000, seed=1, threads=1)",
     "samples/s"),
    ("mjfast.win_by_turn_random(100_000, draws=3, seed=1, threads=1)", "hands/s"),
    ("mjfast.exact_deal_odds('mcr', 14, 'all', suits='mz')", "steps/s"),
    ("mjfast.deal(300_000, seed=1, threads=1)", "deals/s"),
    ("mjfast.win_by_turn('123m456p789s1357z', draws=18, method='exact')", "states"),      # the exact search
])
def test_units_fit_what_is_counted(call, unit, no_delay):
    err = io.StringIO()
    with mjfast.set_options(progress="always"):
        sys_stderr, sys.stderr = sys.stderr, err
        try:
            eval(call)
        finally:
            sys.stderr = sys_stderr
    text = err.getvalue()
    assert unit in text and "M/s" not in text, text[-300:]
    last = text.replace("\r", "\n").strip().splitlines()[-1]
    assert "100%" in last or unit == "states", last               # the bar ends full (a search: no total)
    with mjfast.set_options(progress="always"):                    # progress=False: nothing
        sys_stderr, sys.stderr = sys.stderr, err
        err.seek(0)
        err.truncate()
        try:
            eval(call.replace(")", ", progress=False)", 1) if call.endswith(")") else call)
        finally:
            sys.stderr = sys_stderr
    assert err.getvalue() == ""


def test_exact_mcr_odds_count_thresholds(no_delay):
    """Exact MCR odds of all five forms go through thresholds: one step each, announced as
    they are found (the bar's total grows), and the bar ends at its total."""
    _thresholds._distance_counts_by_threshold.cache_clear()
    _deal_odds._odds.cache_clear()
    err = _Terminal()
    sys_stderr, sys.stderr = sys.stderr, err
    try:
        table = mjfast.exact_deal_odds_table("mcr", 13, suits="mz")
    finally:
        sys.stderr = sys_stderr
    last = err.getvalue().replace("\r", "\n").strip().splitlines()[-1]
    done, total = last.split("| ")[1].split(" ")[0].split("/")
    assert done == total and int(total) > len(table), last       # more steps than forms: thresholds
    assert "exact deal odds mcr" in last


SCRIPT = ("import mjfast; mjfast.deal_stats(3_000_000, seed=1, threads=1, chunk_size=100_000); "
          "mjfast.simulate(400, seed=1, threads=1, chunk_size=20)")


def _run(code: str, env_extra: dict) -> str:
    env = dict(os.environ, **env_extra)
    out = _proc.run([sys.executable, "-c", "import mjfast._runtime.progress as p; p.DELAY = 0.0; " + code],
                    capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stderr


def test_subprocess_stderr_a_pipe():
    assert _run(SCRIPT, {"MJFAST_PROGRESS": "auto"}) == ""           # a pipe: no frames
    err = _run(SCRIPT, {"MJFAST_PROGRESS": "1"})                      # asked for
    assert err.count("deal-stats classical:") > 1 and "deals/s" in err and "games/s" in err   # frames
    assert _run(SCRIPT.replace("chunk_size=20)", "chunk_size=20, progress=False)"), {"MJFAST_PROGRESS": "1"}).count(
        "games/s") == 0
    assert _run(SCRIPT, {"MJFAST_PROGRESS": "0"}) == ""


def test_cli_progress_flags():
    """--progress draws into a pipe, --no-progress wins over MJFAST_PROGRESS=always, and the
    default draws nothing into a pipe (the bar's half-second delay set to 0 here, so that the
    test does not depend on the machine's speed)."""
    code = ("import sys, mjfast._runtime.progress as p, mjfast.cli as c; p.DELAY = 0.0; "
            "sys.exit(c.main(['deal-stats', '-n', '200000', '--seed', '1', '--threads', '1', '--format', 'json'] + "
            "sys.argv[1:]))")
    env = {k: v for k, v in os.environ.items() if k != "MJFAST_PROGRESS"}

    def cli(*flags, **extra):
        return _proc.run([sys.executable, "-c", code, *flags], capture_output=True, text=True,
                         env=dict(env, **extra), timeout=300)

    quiet = cli()
    assert quiet.returncode == 0 and quiet.stderr == ""              # stderr is a pipe: no bar
    shown = cli("--progress")
    assert shown.returncode == 0 and "deals/s" in shown.stderr and "100%" in shown.stderr
    assert cli(MJFAST_PROGRESS="always").stderr.count("deal-stats classical:") >= 1
    off = cli("--no-progress", MJFAST_PROGRESS="always")
    assert off.returncode == 0 and off.stderr == ""
    both = cli("--progress", "--no-progress")
    assert both.returncode == 2 and "not allowed with" in both.stderr


def test_warnings_are_not_errors_elsewhere():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert mjfast.get_options()["progress"] in _progress.MODES
