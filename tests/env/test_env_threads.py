"""How the environments choose their step's thread count: the chooser's logic
on synthetic step times (no timed assertions: bench/env_threads.py measures the real thing),
and results that do not depend on the choice."""
from __future__ import annotations

import numpy as np
import pytest

from mjfast.env import VecTables, decisions
from mjfast.env import _threads as th
from mjfast.env._threads import StepThreads


def _run(chooser: StepThreads, cost, steps: int) -> list:
    """Feed the chooser ``steps`` steps whose time is ``cost(step, threads)``; the thread
    counts it chose."""
    used = []
    for i in range(steps):
        t = chooser.next()
        used.append(t)
        chooser.record(t, cost(i, t))
    return used


def test_a_fixed_thread_count_is_kept():
    c = StepThreads(4, 4096, adaptive=False)
    assert c.most == 4 and c.current == 4
    assert set(_run(c, lambda i, t: 1.0 / t, 100)) == {4}
    assert StepThreads(8, 300, adaptive=True).most == 1          # one thread per 256 tables at most
    assert not StepThreads(1, 4096, adaptive=True).adaptive
    assert StepThreads(8, 300, adaptive=True, per_thread=64).most == 4


def test_parallel_steps_are_taken_when_faster():
    c = StepThreads(2, 1024, adaptive=True)
    used = _run(c, lambda i, t: 1.0 if t == 1 else 0.55, 2000)
    assert used[0] == 1                                            # one thread first
    assert used.index(2) == th.FIRST_PROBE                          # the first try wins
    assert used[th.FIRST_PROBE:].count(1) <= 8                     # then one-thread tries, rarely


def test_parallel_steps_are_tried_ever_more_rarely_when_slower():
    """A busy machine: a parallel step ten times slower. The tries cost under 0.5 % of the
    steps' time over 20,000 steps, and the chooser never settles on them."""
    c = StepThreads(2, 1024, adaptive=True)
    cost = lambda i, t: 1.0 if t == 1 else 10.0
    used = _run(c, cost, 20000)
    tries = used.count(2)
    assert 3 <= tries <= 9
    assert 9 * tries / len(used) < 0.005                           # the extra time the tries cost
    assert c.current == 1


def test_parallel_steps_that_slow_down_are_left_at_once():
    """Quiet, then another program takes the cores: parallel steps slow down tenfold; the
    chooser goes back to one thread within a few steps, and takes parallel steps again once
    the machine is quiet again (tries come at most 4,096 steps apart)."""
    busy = range(1000, 3000)
    cost = lambda i, t: (1.0 if t == 1 else (10.0 if i in busy else 0.55))
    c = StepThreads(2, 1024, adaptive=True)
    used = _run(c, cost, 8000)
    assert used[900] == 2
    assert used[1000:1010].count(2) <= 5 and used[1010:3000].count(2) <= 10
    assert used[-1] == 2                                            # back to parallel (tries every <= 4096)


def test_noisy_times_do_not_switch_on_a_single_outlier_of_the_setting_in_use():
    rng = np.random.default_rng(0)
    noise = rng.lognormal(0, 0.2, 10000)
    c = StepThreads(2, 1024, adaptive=True)
    used = _run(c, lambda i, t: noise[i] * (1.0 if t == 1 else 10.0), 10000)
    assert used.count(2) <= 10


@pytest.mark.parametrize("threads", [None, 1, 2])
def test_results_do_not_depend_on_the_thread_setting(threads):
    env = VecTables(600, seed=3, threads=threads)
    ref = VecTables(600, seed=3, threads=1)
    a, _ = env.reset()
    b, _ = ref.reset()
    for _ in range(60):
        acts = ref.expert_actions("greedy")
        assert (env.expert_actions("greedy") == acts).all()
        a, ra, *_ = env.step(acts)
        b, rb, *_ = ref.step(acts)
        for k in a:
            np.testing.assert_array_equal(a[k], b[k])
        np.testing.assert_array_equal(ra, rb)
    d1 = decisions(3, seed=5, threads=threads, progress=False, n_tables=130)
    d2 = decisions(3, seed=5, threads=1, progress=False, n_tables=130)
    for k, v in d1.arrays().items():
        np.testing.assert_array_equal(v, d2.arrays()[k])
