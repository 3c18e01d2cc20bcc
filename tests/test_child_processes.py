"""The tests' own child processes: they stop when told, whatever the run was started under.

``pytest &`` in a shell script (or ``nohup pytest &``) starts pytest with SIGINT ignored, and
every child inherits that: the Ctrl-C tests' children used to run on for ever
(``deal_stats(10**12)``) while the test read their pipe with no timeout. tests/_proc.py gives
each child the default SIGINT back, bounds every wait and kills the child's process group when
the test leaves it; pytest-timeout (pyproject) ends any test that still hangs.
"""
from __future__ import annotations

import ast
import os
import pathlib
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import _proc
import mjfast

ROOT = pathlib.Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"


def _env(with_tests: bool = False) -> dict:
    """A child imports this same mjfast (PYTHONPATH=src or the installed one), and with
    ``with_tests`` the tests' own modules (_proc)."""
    env = dict(os.environ)
    here = str(pathlib.Path(mjfast.__file__).resolve().parents[1])
    first = [str(TESTS)] if with_tests else []
    env["PYTHONPATH"] = os.pathsep.join(p for p in (*first, here, env.get("PYTHONPATH")) if p)
    return env


def _ignore_sigint() -> None:  # what `pytest &` in a script (or nohup ... &) does to pytest
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# The Ctrl-C tests: each starts a child, waits for it to be busy, sends SIGINT and waits for it
# to stop. Run with SIGINT ignored, each used to hang (the child ignored the signal).
CTRL_C_TESTS = [
    "tests/game/test_long_runs.py::test_sigint_stops_within_a_second[deal_stats]",
    "tests/game/test_long_runs.py::test_cli_sigint_exit_130",
    "tests/test_deals.py::test_ctrl_c_stops_cleanly",
]
BOUND = 180  # seconds; the three take ~10 s together on a quiet machine


def test_ctrl_c_tests_pass_when_the_run_ignores_sigint():
    pytest.importorskip("psutil")  # test_long_runs.py needs it
    t = time.perf_counter()
    try:
        out = _proc.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *CTRL_C_TESTS],
                        cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=BOUND,
                        preexec_fn=_ignore_sigint)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"the Ctrl-C tests hung when started with SIGINT ignored (> {BOUND} s):\n{exc.output}")
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert f"{len(CTRL_C_TESTS)} passed" in out.stdout, out.stdout[-2000:]
    print(f"the Ctrl-C tests with SIGINT ignored: {time.perf_counter() - t:.1f} s")


# ------------------------------------------------------------------ the helper itself

def test_a_child_gets_the_default_sigint_back():
    """Started with SIGINT ignored (inherited from the test run or set on purpose), the child has
    it at its default again: Python installs its KeyboardInterrupt handler."""
    code = "import signal; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"
    assert _proc.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60).stdout == "True\n"
    # the wrapper's preexec_fn runs after the restore: a test can still ignore SIGINT on purpose
    out = _proc.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, preexec_fn=_ignore_sigint)
    assert out.stdout == "False\n"
    # and a child of a child that ignores SIGINT, started through the wrapper, has it back
    inner = ("import sys, _proc; print(_proc.run([sys.executable, '-c', " + repr(code) + "], capture_output=True, "
             "text=True, timeout=60).stdout, end='')")
    out = _proc.run([sys.executable, "-c", inner], capture_output=True, text=True, timeout=120, env=_env(True),
                    preexec_fn=_ignore_sigint)
    assert out.stdout == "True\n", out.stderr


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    with open(f"/proc/{pid}/stat") as f:  # still listed: only a zombie waiting for its parent counts as gone
        return f.read().rsplit(")", 1)[1].split()[0] == "Z"


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
def test_timeouts_kill_the_whole_group():
    """A timeout kills the child and what it started (a grandchild reading nothing, sleeping)."""
    code = ("import subprocess, sys, time\n"
            "g = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])\n"
            "print(g.pid, flush=True)\n"
            "time.sleep(600)\n")
    with _proc.start([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True) as p:
        grandchild = int(_proc.read_line(p.stdout, timeout=60))
        with pytest.raises(TimeoutError, match="no 'never' within 0.2 s"):
            _proc.read_until(p.stdout, "never", timeout=0.2)
    assert p.returncode == -signal.SIGKILL
    deadline = time.monotonic() + 10
    while not _gone(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _gone(grandchild)
    t = time.perf_counter()
    with pytest.raises(subprocess.TimeoutExpired) as info:
        _proc.run([sys.executable, "-c", "import time; print('started', flush=True); time.sleep(600)"],
                  capture_output=True, text=True, timeout=3)
    assert time.perf_counter() - t < 30
    assert info.value.output == "started\n"          # what it wrote before the timeout is kept


def test_read_until_leaves_the_rest_for_communicate():
    with _proc.start([sys.executable, "-c", "print('ready'); print('a'); print('b')"], stdout=subprocess.PIPE,
                     text=True) as p:
        assert _proc.read_line(p.stdout, timeout=60) == "ready\n"
        assert p.communicate(timeout=60)[0] == "a\nb\n"
    r, w = os.pipe()
    os.write(w, b"x [y")
    os.close(w)
    assert _proc.read_until(r, (b"\n", b"["), timeout=5) == b"x ["
    assert _proc.read_until(r, b"\n", timeout=5) == b"y"       # the writer closed: what there is
    os.close(r)


# ------------------------------------------------------------------ the per-test safety net

HANGING = '''
import os, subprocess, sys, time
import _proc

def test_hangs_on_a_child():
    with _proc.start([sys.executable, "-c", "import time; print('up', flush=True); time.sleep(600)"],
                     stdout=subprocess.PIPE, text=True) as p:
        open(os.environ["CHILD_PID_FILE"], "w").write(str(p.pid))
        time.sleep(600)           # a wait with no bound: only the per-test timeout ends it

def test_after():
    pass
'''


def test_per_test_timeout_ends_a_hang_and_the_run_goes_on(tmp_path):
    """pyproject's pytest-timeout settings (method "signal"): a hanging test fails, its ``finally``
    runs (the child it started is killed) and the next test runs."""
    pytest.importorskip("pytest_timeout")
    (tmp_path / "test_hang.py").write_text(textwrap.dedent(HANGING))
    pid_file = tmp_path / "pid"
    env = dict(_env(True), CHILD_PID_FILE=str(pid_file))
    out = _proc.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", str(ROOT / "pyproject.toml"),
                     "--rootdir", str(tmp_path), "-o", "timeout=3", str(tmp_path / "test_hang.py")],
                    cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert "1 failed, 1 passed" in out.stdout, out.stdout[-3000:] + out.stderr[-2000:]
    assert "Timeout" in out.stdout, out.stdout[-3000:]
    assert _gone(int(pid_file.read_text()))


def test_timeout_settings_and_marker(pytestconfig):
    """The safety net is configured (when the plugin is there) and the marker is registered,
    so that ``@pytest.mark.timeout`` passes ``--strict-markers`` even without the plugin."""
    assert any(m.split(":")[0].startswith("timeout") for m in pytestconfig.getini("markers"))
    if pytestconfig.pluginmanager.hasplugin("timeout"):
        assert float(pytestconfig.getini("timeout")) == 300
        assert pytestconfig.getini("timeout_method") == "signal"


# ------------------------------------------------------------------ no other way to start a process

# calls that start a process; through tests/_proc.py only
FORBIDDEN = {
    "subprocess": {"run", "Popen", "call", "check_call", "check_output", "getoutput", "getstatusoutput"},
    "os": {"system", "popen", "fork", "forkpty", "posix_spawn", "posix_spawnp", "spawnl", "spawnle", "spawnlp",
           "spawnlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe", "execv", "execve", "execl", "execle", "execlp",
           "execlpe", "execvp", "execvpe"},
    "multiprocessing": {"Process", "Pool", "get_context"},
    "pty": {"fork", "spawn"},
    "pexpect": {"spawn", "run"},
    "distributed": {"LocalCluster"},
    "concurrent.futures": {"ProcessPoolExecutor"},
    "asyncio": {"create_subprocess_exec", "create_subprocess_shell"},
}


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return ""


def _starts(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in FORBIDDEN:
            found += [(node.lineno, f"from {node.module} import {a.name}") for a in node.names
                      if a.name in FORBIDDEN[node.module]]
        elif isinstance(node, ast.Call):
            name = _dotted(node.func)
            mod, _, attr = name.rpartition(".")
            if attr in FORBIDDEN.get(mod, ()) or name in ("LocalCluster", "ProcessPoolExecutor"):
                found.append((node.lineno, name))
    return sorted(found)


def test_no_test_starts_a_process_but_through_proc():
    files = sorted(p for d in (TESTS, ROOT / "bench") for p in d.rglob("*.py")
                   if p.name.startswith(("test_", "conftest")) or d == TESTS)
    bad = [f"{p.relative_to(ROOT)}:{line}: {what}" for p in files if p.name != "_proc.py"
           for line, what in _starts(ast.parse(p.read_text(), str(p)))]
    assert not bad, "start child processes with tests/_proc.py (run / start / local_cluster):\n" + "\n".join(bad)


def test_the_scan_sees_process_starts():
    tree = ast.parse("import subprocess, os\nfrom subprocess import Popen\nsubprocess.run(['x'])\nos.fork()\n"
                     "p = subprocess.PIPE\nimport distributed\ndistributed.LocalCluster()\n")
    assert [w for _, w in _starts(tree)] == ["from subprocess import Popen", "subprocess.run", "os.fork",
                                             "distributed.LocalCluster"]
