"""The Dask backend on a real LocalCluster (worker processes on loopback).

Results must equal the local threaded run bit for bit (whatever the chunk size, the threads
per task and the order in which tasks finish), survive a worker killed mid-run, report
progress as tasks finish, cancel outstanding tasks on Ctrl-C, and reject bad arguments with
clear messages. Skipped when ``distributed`` is not installed (``pip install "mjfast[dask]"``).
"""
from __future__ import annotations

import os
import signal
import sys
import time

import numpy as np
import pytest

import _proc
import mjfast
from mjfast._runtime import progress as _progress

distributed = pytest.importorskip("distributed", reason='the Dask backend needs pip install "mjfast[dask]"')


@pytest.fixture(scope="module")
def cluster():
    # Worker processes inherit the environment (PYTHONPATH=src or the editable install), so
    # they import the same mjfast as the test process.
    with _proc.local_cluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                             dashboard_address=None, silence_logs=40) as cl:
        yield cl


@pytest.fixture(scope="module")
def client(cluster):
    with distributed.Client(cluster) as c:
        c.wait_for_workers(2, timeout=120)
        yield c


def same_deal_stats(a, b) -> bool:
    return a.to_dict() == b.to_dict() and a.n == b.n


def same_sim(a, b) -> bool:
    return (a.to_dict() == b.to_dict() and a.turns_sq_per_game == b.turns_sq_per_game
            and np.array_equal(a.points_sq, b.points_sq))


@pytest.mark.parametrize("rules,kw", [("classical", {}), ("mcr", {}), ("american", {"jokers": 4}),
                                      ("classical", {"flowers": True})])
def test_deal_stats_equal_local(client, rules, kw):
    local = mjfast.deal_stats(120_001, rules=rules, seed=11, progress=False, **kw)
    for chunk, threads in ((40_000, None), (7_919, 2)):
        res = mjfast.deal_stats(120_001, rules=rules, seed=11, progress=False, backend="dask", client=client,
                                chunk_size=chunk, threads=threads, **kw)
        assert same_deal_stats(res, local), (rules, chunk, threads)
    assert res.seeds == (11,)


def test_deal_stats_current_client_and_forms(client):
    forms = ("standard", "seven_pairs", "thirteen_orphans")
    local = mjfast.deal_stats(30_000, seed=np.random.SeedSequence(5), forms=forms, progress=False)
    res = mjfast.deal_stats(30_000, seed=np.random.SeedSequence(5), forms=forms, progress=False,
                            backend="dask", chunk_size=4_000)  # client=None: the current client
    assert same_deal_stats(res, local)
    assert mjfast.deal_stats(0, backend="dask", progress=False).n == 0


@pytest.mark.parametrize("duplicate", [False, True])
def test_simulate_equal_local(client, duplicate):
    local = mjfast.simulate(300, seed=3, progress=False, duplicate=duplicate)
    for chunk in (64, 1000):
        res = mjfast.simulate(300, seed=3, progress=False, duplicate=duplicate, backend="dask", client=client,
                              chunk_size=chunk)
        assert same_sim(res, local), chunk


@pytest.mark.parametrize("duplicate", [False, True])
def test_simulate_american_equal_local(client, duplicate):
    kw = dict(rules="american", policies=["greedy", "random", "greedy", "greedy"], jokers=6)
    local = mjfast.simulate(150, seed=21, progress=False, duplicate=duplicate, threads=2, **kw)
    for chunk in (37, 1000):
        res = mjfast.simulate(150, seed=21, progress=False, duplicate=duplicate, backend="dask", client=client,
                              chunk_size=chunk, **kw)
        assert same_sim(res, local), chunk
        assert np.array_equal(res.distance_after, local.distance_after)
        assert np.array_equal(res.jokerless_wins, local.jokerless_wins)
    small = mjfast.simulate(150, seed=21, progress=False, duplicate=duplicate, chunk_size=7, **kw)
    assert same_sim(small, local)          # the local chunk size never changes results either


def test_simulate_mixed_policies_and_options(client):
    kw = dict(rules="basic", policies=["greedy", "random", "defensive", "greedy"], rounds=2, payment="discarder")
    local = mjfast.simulate(120, seed=8, progress=False, threads=1, **kw)
    res = mjfast.simulate(120, seed=8, progress=False, backend="dask", client=client, chunk_size=17, **kw)
    assert same_sim(res, local)


class Tsumogiri(mjfast.Policy):
    name = "tsumogiri"

    def discard(self, view):
        return view.drawn or next(t for t in mjfast.tiles.KIND_NAMES if view.hand[mjfast.tiles.tile_index(t)])


def test_simulate_python_policy(client):
    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers cannot import this test file
    try:
        pols = [Tsumogiri(), "greedy", "greedy", "greedy"]
        local = mjfast.simulate(24, seed=2, progress=False, policies=pols)
        res = mjfast.simulate(24, seed=2, progress=False, policies=pols, backend="dask", client=client, chunk_size=5)
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    assert same_sim(res, local)


def test_scheduler_address(client):
    local = mjfast.deal_stats(20_000, seed=4, progress=False)
    res = mjfast.deal_stats(20_000, seed=4, progress=False, backend="dask", client=client.scheduler.address,
                            chunk_size=6_000)
    assert same_deal_stats(res, local)


def test_progress_reported_as_tasks_finish(client, monkeypatch):
    seen = []
    orig = _progress.Progress.update

    def record(self, done):
        seen.append(done)
        orig(self, done)

    monkeypatch.setattr(_progress.Progress, "update", record)
    mjfast.deal_stats(50_000, seed=1, backend="dask", client=client, chunk_size=5_000)
    assert seen == sorted(seen) and len(seen) == 10 and seen[-1] == 50_000 and seen[0] == 5_000
    seen.clear()
    mjfast.simulate(90, seed=1, backend="dask", client=client, chunk_size=30)
    assert seen == [30, 60, 90]


def _worker_pids(client) -> dict:
    return client.run(os.getpid)


def test_worker_killed_mid_run(cluster, client, monkeypatch):
    """A worker process dies while it runs tasks: they are recomputed elsewhere, same result."""
    n, chunk = 600_000, 20_000
    local = mjfast.deal_stats(n, rules="mcr", seed=21, progress=False)
    before = _worker_pids(client)
    killed = {}
    orig = _progress.Progress.update

    def kill_once(self, done):
        busy = {w: keys for w, keys in client.processing().items() if keys and w in before}
        if not killed and busy:
            addr = next(iter(busy))
            killed["addr"], killed["pid"], killed["tasks"] = addr, before[addr], list(busy[addr])
            os.kill(before[addr], signal.SIGKILL)
        orig(self, done)

    monkeypatch.setattr(_progress.Progress, "update", kill_once)
    res = mjfast.deal_stats(n, rules="mcr", seed=21, progress=False, backend="dask", client=client,
                            chunk_size=chunk)
    assert killed and killed["tasks"], "a worker was killed while it ran tasks"
    assert same_deal_stats(res, local)
    # the process is really gone (the nanny starts a fresh one)
    with pytest.raises(OSError):
        for _ in range(50):
            os.kill(killed["pid"], 0)
            time.sleep(0.1)
    client.wait_for_workers(2, timeout=60)


def test_ctrl_c_cancels_outstanding_tasks(client, monkeypatch):
    calls = []
    orig = _progress.Progress.update

    def interrupt(self, done):
        calls.append(done)
        orig(self, done)
        if len(calls) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(_progress.Progress, "update", interrupt)
    with pytest.raises(KeyboardInterrupt) as info:
        mjfast.deal_stats(2_000_000, seed=1, progress=False, backend="dask", client=client, chunk_size=20_000)
    part = info.value.partial
    assert part.n == calls[-1] and int(part.shanten["dealer"]["standard"].sum()) == part.n
    calls.clear()
    with pytest.raises(KeyboardInterrupt) as info:
        mjfast.simulate(2000, seed=1, progress=False, backend="dask", client=client, chunk_size=10)
    assert info.value.partial.games == 20
    # nothing of ours is left on the cluster
    deadline = time.time() + 10
    while time.time() < deadline:
        left = [k for k in client.run_on_scheduler(lambda dask_scheduler: list(dask_scheduler.tasks))
                if str(k).startswith("mjfast-")]
        if not left:
            break
        time.sleep(0.1)
    assert not left


def test_bad_backend_and_client(client):
    with pytest.raises(ValueError, match="unknown backend 'spark'"):
        mjfast.deal_stats(10, backend="spark")
    with pytest.raises(TypeError, match="backend must be"):
        mjfast.simulate(10, backend=1)
    with pytest.raises(ValueError, match="client= is only used with backend='dask'"):
        mjfast.deal_stats(10, client=client)
    with pytest.raises(TypeError, match="client must be a distributed.Client"):
        mjfast.simulate(10, backend="dask", client=42)
    import dask

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        with pytest.raises(ValueError, match="cannot connect to the Dask scheduler"):
            mjfast.deal_stats(10, backend="dask", client="tcp://127.0.0.1:1", progress=False)


def test_no_current_client_message():
    code = ("import mjfast\n"
            "try:\n"
            "    mjfast.deal_stats(10, backend='dask', progress=False)\n"
            "except ValueError as e:\n"
            "    print(e)\n")
    out = _proc.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "found no Dask client" in out.stdout, out.stderr


def test_missing_distributed_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now raises ImportError
    for call in (lambda: mjfast.deal_stats(10, backend="dask"), lambda: mjfast.simulate(10, backend="dask")):
        with pytest.raises(ImportError, match=r'pip install "mjfast\[dask\]"'):
            call()


def _cli_json(argv, capsys) -> dict:
    import json

    from mjfast.cli import main

    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    data.pop("seconds", None)
    data.pop("games_per_second", None)
    data.pop("turns_per_second", None)
    return data


def test_cli_backend_dask_scheduler(client, capsys):
    addr = client.scheduler.address
    base = ["deal-stats", "-n", "30000", "--seed", "3", "--format", "json", "--no-progress"]
    assert _cli_json(base + ["--backend", "dask", "--scheduler", addr], capsys) == _cli_json(base, capsys)
    base = ["simulate", "--games", "60", "--seed", "3", "--format", "json", "--no-progress", "--duplicate"]
    assert _cli_json(base + ["--backend", "dask", "--scheduler", addr], capsys) == _cli_json(base, capsys)


@pytest.mark.slow   # (the default run stays under ten minutes; .ci/run runs the slow tier)
def test_cli_backend_errors(capsys):
    from mjfast.cli import main

    with pytest.raises(SystemExit) as info:
        main(["deal-stats", "-n", "10", "--scheduler", "tcp://127.0.0.1:8786"])
    assert info.value.code == 2 and "--scheduler needs --backend dask" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["simulate", "--backend", "spark"])
    import dask

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        code = main(["deal-stats", "-n", "10", "--seed", "1", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:1"])
    assert code == 2 and "cannot connect to the Dask scheduler" in capsys.readouterr().err
