"""A small progress bar on stderr for long runs (no dependency), and chunked run helpers."""
from __future__ import annotations

import sys
import time


class Progress:
    """Progress of a run of ``total`` units, drawn on stderr.

    Nothing is drawn until the run has taken ``delay`` seconds (short runs stay silent), then
    the bar is redrawn at most every ``interval`` seconds. ``enabled=False`` draws nothing.
    """

    def __init__(self, total: int, *, label: str = "", enabled: bool = True, delay: float = 0.5,
                 interval: float = 0.2, stream=None):
        self.total = max(int(total), 1)
        self.label = label
        self.enabled = enabled
        self.delay = delay
        self.interval = interval
        self.stream = stream if stream is not None else sys.stderr
        self.start = time.perf_counter()
        self.last = 0.0
        self.shown = False
        self.done = 0

    def update(self, done: int) -> None:
        self.done = done
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.start < self.delay or (self.shown and now - self.last < self.interval):
            return
        self.last = now
        self.shown = True
        frac = min(done / self.total, 1.0)
        elapsed = now - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - done) / rate if rate > 0 else float("inf")
        width = 30
        bar = "#" * int(frac * width) + "-" * (width - int(frac * width))
        eta_txt = f"{eta:5.0f}s" if eta != float("inf") else "    ?"
        self.stream.write(f"\r{self.label} [{bar}] {frac * 100:5.1f}%  {done:,}/{self.total:,}  "
                          f"{rate / 1e6:6.2f} M/s  eta {eta_txt}")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled and self.shown:
            self.last = 0.0
            self.update(self.done)
            self.stream.write("\n")
            self.stream.flush()


def timed_chunks(start: int, stop: int, cap: int, first: int, target: float = 0.1):
    """Yield ``(lo, count)`` pieces covering ``[start, stop)`` in order, sized by time.

    Each piece holds at most ``cap`` units. The first holds ``first``; later ones are sized
    from the measured speed (the time between yielding a piece and being resumed) so that one
    piece takes about ``target`` seconds, growing at most 4x per step. Kernels run without the
    GIL and Ctrl-C is only seen between pieces, so this bounds the Ctrl-C latency whatever the
    cost of one unit. The pieces never change a result: unit i depends only on (seed, i).
    """
    size = max(1, min(cap, first))
    lo = start
    while lo < stop:
        m = min(size, stop - lo)
        t = time.perf_counter()
        yield lo, m
        dt = time.perf_counter() - t
        lo += m
        if m == size:
            rate = m / max(dt, 1e-6)
            size = int(max(1, min(cap, 4 * size, rate * target)))


def attach_partial(exc: BaseException, partial: object) -> None:
    """Attach the result of the work finished before an interruption to ``exc`` as
    ``exc.partial`` (how every long run hands back its statistics on Ctrl-C)."""
    setattr(exc, "partial", partial)  # noqa: B010 - mypy: BaseException declares no `partial`
