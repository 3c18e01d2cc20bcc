"""How many threads each environment step uses: fixed when the caller says, else chosen by
measurement (one thread, or as many as the step may use, whichever has been faster lately).

Why measure: a parallel step pays only when the other cores are free. On a machine kept busy by
other work, OpenMP's worker threads wait for a CPU at every step's barrier (and spin while they
wait), and a step of 1,024 tables ran 8-18 times slower on two threads than on one; on a quiet
machine the same step runs nearly twice as fast on two. Which holds changes while a program
runs, so the chooser keeps timing the steps it makes on the setting in use and, now and then
(ever more rarely while it keeps losing), a couple of steps on the other one, and switches when
the other has been clearly faster. Results never depend on the thread count, only speed does.
"""
from __future__ import annotations

import time
from collections import deque

TABLES_PER_THREAD = 256     # a step uses at most one thread per this many tables
FIRST_PROBE = 16            # steps on the setting in use before the first try of the other
MAX_INTERVAL = 4096         # ... and at most this many between tries while the other keeps losing
PROBE_STEPS = 2             # steps on the other setting per try (its first may wake sleeping threads)
MARGIN = 0.9                # the other setting must take under 90 % of the time to win


class StepThreads:
    """The thread count of each step of ``n_tables`` tables: ``threads`` (resolved) at most,
    one per :data:`TABLES_PER_THREAD` tables; ``adaptive`` (the default of ``threads=None``)
    picks between one thread and that most by measured step time.

    Use ``with chooser.timed() as t:`` around each step (``t`` is the thread count to pass);
    :attr:`current` is the setting in use for other passes (which are not timed).
    """

    def __init__(self, threads: int, n_tables: int, adaptive: bool):
        self.most = max(1, min(int(threads), n_tables // TABLES_PER_THREAD))
        self.adaptive = bool(adaptive) and self.most > 1
        self.current = 1 if self.adaptive else self.most    # (one thread first: the safe side on a busy machine)
        self._recent = {1: deque(maxlen=3), self.most: deque(maxlen=3)}
        self._interval = FIRST_PROBE
        self._until_probe = FIRST_PROBE
        self._probing = 0

    def next(self) -> int:
        """The thread count of the next timed step."""
        if not self.adaptive:
            return self.most
        if self._probing:
            return self._other()
        return self.current

    def record(self, threads: int, seconds: float) -> None:
        """The wall time of a timed step made on ``threads`` threads."""
        if not self.adaptive:
            return
        self._recent[threads].append(seconds)
        if self._probing:
            self._probing -= 1
            if self._probing == 0:
                self._decide()
            return
        self._until_probe -= 1
        if self._until_probe <= 0:
            self._probing = PROBE_STEPS

    def timed(self):
        return _Timed(self)

    def _other(self) -> int:
        return 1 if self.current == self.most else self.most

    def _decide(self) -> None:
        other = self._other()
        mine, theirs = _median(self._recent[self.current]), _median(self._recent[other])
        if theirs < MARGIN * mine:
            self.current = other
            self._interval = FIRST_PROBE
        else:
            self._interval = min(2 * self._interval, MAX_INTERVAL)
        self._until_probe = self._interval


class _Timed:
    def __init__(self, chooser: StepThreads):
        self.chooser = chooser

    def __enter__(self) -> int:
        self.threads = self.chooser.next()
        self.t0 = time.perf_counter()
        return self.threads

    def __exit__(self, exc_type, *exc) -> None:
        if exc_type is None:
            self.chooser.record(self.threads, time.perf_counter() - self.t0)


def _median(xs) -> float:
    s = sorted(xs)
    return s[len(s) // 2] if s else float("inf")
