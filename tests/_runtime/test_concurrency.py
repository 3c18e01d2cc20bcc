"""Many Python threads calling the batch functions at once get correct, independent results.

The kernels release the GIL and run OpenMP teams of their own, so a program (a bot server, a
notebook with a thread pool, a Dask worker with several threads) may call them from many
threads at once. Every result must equal the same call made alone.
"""
from __future__ import annotations

import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import _proc
import mjfast
from mjfast.hands._random import random_hands


class Discarder(mjfast.Policy):
    """Discards the drawn tile, else its first tile (a Python policy: engine callbacks under the GIL)."""

    name = "discarder"

    def discard(self, view):
        return view.drawn or next(t for t in mjfast.tiles.KIND_NAMES if view.hand[mjfast.tiles.tile_index(t)])


def _jobs():
    """(name, thunk) pairs covering the batch API; each is deterministic."""
    hands14 = random_hands(20_000, 14, seed=1)
    hands13 = random_hands(20_000, 13, seed=2)
    packed = mjfast.pack(hands14)
    jobs = []
    for t in (1, 2):
        jobs += [
            (f"shanten-{t}", lambda t=t: mjfast.shanten(hands14, threads=t)),
            (f"shanten-mcr-{t}", lambda t=t: mjfast.shanten(hands13, rules="mcr", threads=t)),
            (f"packed-{t}", lambda t=t: mjfast.shanten(packed, form="standard", threads=t)),
            (f"winning-{t}", lambda t=t: mjfast.is_winning(hands14, threads=t)),
        ]
    for s in range(3):
        jobs += [
            (f"deal-{s}", lambda s=s: mjfast.deal(3000, seed=s, rules=("classical", "mcr", "american")[s]).hands),
            (f"deal-stats-{s}", lambda s=s: mjfast.deal_stats(60_000, seed=s, progress=False,
                                                              rules=("classical", "mcr", "american")[s]).to_dict()),
            (f"simulate-{s}", lambda s=s: mjfast.simulate(60, seed=s, progress=False, duplicate=bool(s % 2)).to_dict()),
        ]
    jobs += [
        ("python-policy", lambda: mjfast.simulate(6, seed=9, policies=[Discarder(), "greedy", "random", "greedy"],
                                                  progress=False).to_dict()),
        ("pack-unpack", lambda: mjfast.unpack(mjfast.pack(hands13))),
        ("effective", lambda: [mjfast.effective_tiles(h).count for h in hands13[:200]]),
        ("waits", lambda: [tuple(mjfast.waits(h)) for h in hands13[:200]]),
        ("replay", lambda: mjfast.replay(3, 2).events),
    ]
    return jobs


def _same(a, b) -> bool:
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
    return a == b


def test_many_threads_same_results_as_alone():
    jobs = _jobs()
    alone = {name: fn() for name, fn in jobs}
    work = jobs * 3  # every job three times, interleaved
    order = np.random.default_rng(0).permutation(len(work))
    with ThreadPoolExecutor(max_workers=12) as pool:
        futures = [(work[i][0], pool.submit(work[i][1])) for i in order]
        for name, fut in futures:
            assert _same(fut.result(timeout=300), alone[name]), name


def test_concurrent_calls_from_a_cold_start():
    """Lazy tables and engine set-up built by whichever thread comes first: all agree."""
    code = (
        "import threading, json, mjfast\n"
        "out = {}\n"
        "def run(i):\n"
        "    if i % 3 == 0: r = mjfast.shanten('123m456p789s1122z')\n"
        "    elif i % 3 == 1: r = mjfast.deal_stats(20000, seed=1, progress=False).to_dict()['dealer']['shanten']\n"
        "    else: r = mjfast.simulate(10, seed=1, progress=False).to_dict()['seats'][0]['wins']\n"
        "    out[i] = json.dumps(r, sort_keys=True)\n"
        "ts = [threading.Thread(target=run, args=(i,)) for i in range(12)]\n"
        "[t.start() for t in ts]; [t.join() for t in ts]\n"
        "assert all(out[i] == out[i % 3] for i in range(12)), out\n"
        "print('ok', threading.active_count())\n"
    )
    out = _proc.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["ok", "1"]


def test_interleaved_streams_are_independent():
    """Two threads dealing from different seeds in small pieces: each stream is unaffected."""
    want = {s: mjfast.deal(4000, seed=s).hands for s in (5, 6)}
    got = {5: [], 6: []}

    def run(s):
        for start in range(0, 4000, 250):
            got[s].append(mjfast.deal(250, seed=s, start=start, threads=1).hands)

    ts = [threading.Thread(target=run, args=(s,)) for s in (5, 6)]
    [t.start() for t in ts]
    [t.join() for t in ts]
    for s in (5, 6):
        assert np.array_equal(np.concatenate(got[s]), want[s])
