"""How many threads each environment step uses: fixed when the caller says, else chosen by
measurement (one thread, or as many as the step may use, whichever has been faster lately).

Why measure: a parallel step pays only when the other cores are free. On a machine kept busy by
other work, OpenMP's worker threads wait for a CPU at every step's barrier (and spin while they
wait), and a step of 1,024 tables ran 8-18 times slower on two threads than on one; on a quiet
machine the same step runs nearly twice as fast on two. Which holds changes while a program
runs, so the chooser times every step: it makes them on the setting in use and, now and then,
one on the other setting (ever more rarely while the other keeps losing; at once when parallel
steps slow down twofold), and switches when that one was clearly faster. Results never
depend on the thread count, only speed does.
"""
from __future__ import annotations

from collections import deque

TABLES_PER_THREAD = 256     # a step uses at most one thread per this many tables
FIRST_PROBE = 16            # steps on the setting in use before it tries the other (a single step)
GROWTH = 4                  # each try the other setting loses makes the next one this much later
MAX_INTERVAL = 4096         # ... up to this many steps apart
MARGIN = 0.9                # the other setting wins when its step takes under 90 % of the time
SLOWDOWN = 2.0              # parallel steps this much slower than when chosen: try one thread now


class StepThreads:
    """The thread count of each step of ``n_tables`` tables: ``threads`` (resolved) at most,
    one per ``per_thread`` tables (default :data:`TABLES_PER_THREAD`); ``adaptive`` (the default of ``threads=None``)
    picks between one thread and that most by measured step time, starting with one.

    Each step: ``t = chooser.next()``, the step on ``t`` threads, ``chooser.record(t, seconds)``
    (only when :attr:`adaptive`: a fixed count needs no timing); :attr:`current` is the setting
    in use, for the other passes (which are not timed).
    """

    def __init__(self, threads: int, n_tables: int, adaptive: bool, per_thread: int = TABLES_PER_THREAD):
        self.most = max(1, min(int(threads), n_tables // per_thread))
        self.adaptive = bool(adaptive) and self.most > 1
        self.current = 1 if self.adaptive else self.most    # (one thread first: the safe side on a busy machine)
        self._recent: deque = deque(maxlen=3)     # the setting in use: its latest step times
        self._ref: float | None = None            # ... their median when it was chosen
        self._interval = self._until = FIRST_PROBE
        self._probe = False

    def next(self) -> int:
        """The thread count of the next timed step."""
        if self._probe:
            return 1 if self.current == self.most else self.most
        return self.current

    def record(self, threads: int, seconds: float) -> None:
        """The wall time of the timed step just made on ``threads`` threads."""
        if not self.adaptive:
            return
        if self._probe:                            # the other setting's try
            self._probe = False
            if seconds < MARGIN * _median(self._recent):
                self.current = threads
                self._recent.clear()
                self._recent.append(seconds)
                self._interval = FIRST_PROBE
            else:
                self._interval = min(GROWTH * self._interval, MAX_INTERVAL)
            self._until = self._interval
            self._ref = None
            return
        self._recent.append(seconds)
        full = len(self._recent) == self._recent.maxlen
        if self._ref is None and full:
            self._ref = _median(self._recent)
        self._until -= 1
        # (a parallel step that slows down may have lost its cores to other work: try one thread now;
        # a slower one-thread step says the same of the cores, and a parallel one would not help)
        slowed = full and self._ref is not None and _median(self._recent) > SLOWDOWN * self._ref
        if self._until <= 0 or (slowed and self.current > 1):
            self._probe = True


def _median(xs) -> float:
    s = sorted(xs)
    return s[len(s) // 2] if s else float("inf")
