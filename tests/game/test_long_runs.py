"""Long runs: memory stays flat as n grows; Ctrl-C (SIGINT) stops within a second, cleanly.

Each run happens in a fresh subprocess, so that peak memory is the run's own and a signal
cannot disturb the test process.
"""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest

import _proc

psutil = pytest.importorskip("psutil", reason="psutil checks for stray processes (pip install psutil)")

MEASURE = """
import json, resource, tracemalloc, mjfast
warm = {warm}
warm()
tracemalloc.start()
run = {run}
run({n})
peak = tracemalloc.get_traced_memory()[1]
print(json.dumps({{"traced_peak": peak, "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}}))
"""

CASES = {
    "deal_stats": ("lambda: mjfast.deal_stats(1000, progress=False)",
                   "lambda n: mjfast.deal_stats(n, seed=1, progress=False, chunk_size=1 << 16)", 300_000),
    "deal_stats_mcr": ("lambda: mjfast.deal_stats(1000, rules='mcr', progress=False)",
                       "lambda n: mjfast.deal_stats(n, rules='mcr', seed=1, progress=False, chunk_size=1 << 16)", 200_000),
    "simulate": ("lambda: mjfast.simulate(8, rules='basic', progress=False)",
                 "lambda n: mjfast.simulate(n, rules='basic', seed=1, progress=False, chunk_size=64)", 150),
}


def _measure(warm: str, run: str, n: int) -> dict:
    code = MEASURE.format(warm=warm, run=run, n=n)
    out = _proc.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


DEFAULT_TIER = {"simulate", "deal_stats", "simulate_mcr_long_games"}  # the rest: -m slow (time budget)


def _cases(names):
    return [n if n in DEFAULT_TIER else pytest.param(n, marks=pytest.mark.slow) for n in sorted(names)]


@pytest.mark.parametrize("case", _cases(set(CASES) - {"deal_stats"}) + [pytest.param("deal_stats", marks=pytest.mark.slow)])
def test_memory_flat_ten_times_larger(case):
    """Peak memory of a run 10x larger is no larger: Python/numpy allocations (tracemalloc,
    byte-exact) within 5% + 4 KiB (an index array of 16 bytes per game, as simulate once
    allocated, would exceed it), process peak RSS within 10% + 2 MiB."""
    warm, run, n = CASES[case]
    small, big = _measure(warm, run, n), _measure(warm, run, 10 * n)
    assert big["traced_peak"] <= small["traced_peak"] * 1.05 + 4096, (small, big)
    assert big["maxrss_kb"] <= small["maxrss_kb"] * 1.10 + 2048, (small, big)


INTERRUPT = """
import sys, threading, time, psutil, mjfast
mjfast.deal_stats(1000, progress=False)  # tables built before "ready"
{setup}
print("ready", flush=True)
try:
    {call}
except KeyboardInterrupt as exc:
    part = getattr(exc, "partial", None)
    n = getattr(part, "n", None) if hasattr(part, "n") else getattr(part, "games", None)
    time.sleep(0.05)
    kids = [c.pid for c in psutil.Process().children(recursive=True)]
    names = sorted(t.name for t in threading.enumerate() if t is not threading.main_thread())
    print("interrupted", n, len(kids), "|".join(names), flush=True)
    {teardown}
    sys.exit(3)
print("finished", flush=True)
"""

CALLS = {
    "deal_stats": "mjfast.deal_stats(10**12, seed=1, progress=False)",
    "deal_stats_progress": "mjfast.deal_stats(10**12, rules='american', seed=1, progress=True)",
    "deal_stats_mcr_1thread": "mjfast.deal_stats(10**12, rules='mcr', seed=1, progress=False, threads=1)",
    "simulate": "mjfast.simulate(10**9, seed=1, progress=False)",
    # one mcr game of 16 rounds takes ~6 ms on one thread: a fixed chunk of 4096 games took 25 s
    "simulate_mcr_long_games": "mjfast.simulate(10**9, rules='mcr', rounds=16, seed=1, progress=False, threads=1)",
    "simulate_duplicate_progress": "mjfast.simulate(10**9, seed=1, duplicate=True, progress=True)",
}


def _interrupt(call: str, setup: str = "", teardown: str = "", wait: float = 0.6):
    code = INTERRUPT.format(call=call, setup=setup, teardown=teardown)
    with _proc.start([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as p:
        line = _proc.read_line(p.stdout, timeout=120)
        assert line.strip() == "ready", (line, p.communicate(timeout=60)[1] if p.poll() is not None else "")
        time.sleep(wait)
        assert p.poll() is None, "the run ended before the signal"
        t = time.perf_counter()
        p.send_signal(signal.SIGINT)
        first = _proc.read_line(p.stdout, timeout=60)  # "interrupted ...": printed once the run has stopped
        stopped = time.perf_counter() - t
        rest, err = p.communicate(timeout=60)
        exited = time.perf_counter() - t
    return p.returncode, first + rest, err, (stopped, exited)


@pytest.mark.parametrize("case", _cases(CALLS))
def test_sigint_stops_within_a_second(case):
    code, out, err, (_, latency) = _interrupt(CALLS[case])
    assert code == 3, (out, err)
    words = out.split()
    assert words[0] == "interrupted", out
    assert int(words[1]) > 0  # the statistics of the finished part are attached
    assert words[2] == "0", f"stray child processes: {out}"
    assert len(words) == 3, f"stray Python threads: {words[3:]}"
    assert latency < 1.0, f"took {latency:.2f} s to stop"


def test_sigint_with_a_drawn_bar():
    """The progress bar drawn (tqdm, asked for into the pipe): Ctrl-C still stops within a
    second, the bar leaves no thread (no tqdm monitor) and no process (no multiprocessing lock)."""
    code, out, err, (_, latency) = _interrupt("mjfast.simulate(10**9, seed=1)",
                                              setup="mjfast.set_options(progress='always')", wait=1.2)
    assert code == 3, (out, err)
    words = out.split()
    assert words[0] == "interrupted" and int(words[1]) > 0, out
    assert words[2] == "0" and len(words) == 3, out
    assert "simulate classical:" in err and "games/s" in err, err
    assert latency < 1.0, f"took {latency:.2f} s to stop"


def test_cli_sigint_exit_130():
    # --progress: the bar is drawn although stderr is a pipe (by default it is not)
    with _proc.start([sys.executable, "-m", "mjfast", "deal-stats", "-n", str(10**12), "--seed", "1", "--progress"],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as p:
        # the progress bar shows: the run is going
        seen = _proc.read_until(p.stderr, "deal-stats classical:", timeout=120)
        assert seen.endswith("deal-stats classical:"), f"the command ended early: {seen}"
        t = time.perf_counter()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
        latency = time.perf_counter() - t
    assert p.returncode == 130, seen + err
    assert "mjfast: interrupted after" in err and latency < 1.0, (err, latency)


@pytest.mark.slow
def test_sigint_dask_backend():
    """Ctrl-C on the Dask path: stops within a second, outstanding tasks cancelled; the
    LocalCluster (the user's, so it keeps running until closed) then shuts down cleanly and
    leaves no process behind."""
    pytest.importorskip("distributed")
    setup = ("from distributed import Client, LocalCluster\n"
             "cl = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host='127.0.0.1', "
             "dashboard_address=None, silence_logs=50)\n"
             "client = Client(cl)\n"
             "client.wait_for_workers(2)\n"
             "mjfast.deal_stats(10, backend='dask', progress=False)")
    teardown = ("left = [k for k in client.run_on_scheduler(lambda dask_scheduler: list(dask_scheduler.tasks)) "
                "if str(k).startswith('mjfast-')]\n"
                "    client.close(); cl.close()\n"
                "    kids = []\n"
                "    for _ in range(50):\n"
                "        kids = [c for c in psutil.Process().children(recursive=True)\n"
                "                if 'resource_tracker' not in ' '.join(c.cmdline())]\n"
                "        if not kids: break\n"
                "        time.sleep(0.1)\n"
                "    print('after', len(left), len(kids), [c.cmdline() for c in kids], flush=True)")
    code, out, err, (latency, _) = _interrupt("mjfast.deal_stats(10**12, seed=1, progress=False, backend='dask', "
                                         "chunk_size=200_000)", setup, teardown, wait=3.0)
    assert code == 3, (out, err[-3000:])
    lines = out.strip().splitlines()
    assert lines[0].startswith("interrupted") and int(lines[0].split()[1]) > 0
    assert lines[-1] == "after 0 0 []", out  # (multiprocessing's resource tracker lives until exit)
    assert latency < 1.0, f"took {latency:.2f} s to stop"


def test_time_sized_chunks_cover_the_range_and_never_change_results():
    import numpy as np

    import mjfast
    from mjfast._runtime.progress import timed_chunks

    for start, stop, cap, first in ((0, 0, 5, 1), (3, 1000, 64, 1), (0, 10**6, 1 << 16, 1000), (7, 8, 1, 1)):
        pieces = list(timed_chunks(start, stop, cap, first))
        assert all(1 <= m <= cap for _, m in pieces)
        covered = [i for lo, m in pieces for i in range(lo, lo + m)] if stop - start < 2000 else None
        if covered is not None:
            assert covered == list(range(start, stop))
        assert sum(m for _, m in pieces) == stop - start
    # local runs: chunk size and threads never change a result
    ref = mjfast.deal_stats(5000, rules="mcr", seed=4, progress=False).to_dict()
    for chunk, threads in ((1, 1), (7, 2), (4999, None)):
        assert mjfast.deal_stats(5000, rules="mcr", seed=4, progress=False, chunk_size=chunk, threads=threads).to_dict() == ref
    ref = mjfast.simulate(40, seed=4, progress=False, duplicate=True).to_dict()
    for chunk, threads in ((1, 1), (3, 2), (1000, None)):
        assert mjfast.simulate(40, seed=4, progress=False, duplicate=True, chunk_size=chunk,
                               threads=threads).to_dict() == ref
    d = mjfast.deal(150_000, seed=2, ids=True)
    part = mjfast.deal(1000, seed=2, start=149_000, ids=True)
    assert np.array_equal(d.hands[149_000:], part.hands) and np.array_equal(d.ids[149_000:], part.ids)


def test_compare_in_pieces_same_result():
    """compare() plays in time-sized pieces (bounded memory, quick Ctrl-C): the paired
    differences are per wall set, so thread count and pieces never change the result."""
    import mjfast

    def key(c):
        return (c.points_diff, c.win_rate_diff, c.a.wins.tolist(), c.b.points.tolist(), c.a.turns, c.b.turns_sq_per_game)

    want = key(mjfast.compare("greedy", "defensive", 120, seed=5, progress=False, threads=1))
    assert key(mjfast.compare("greedy", "defensive", 120, seed=5, progress=False, threads=2)) == want
