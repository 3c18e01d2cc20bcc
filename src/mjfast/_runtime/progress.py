"""Progress bars of long runs (drawn by tqdm on stderr), the global progress setting, one bar
shared by nested calls (exact odds), and chunked run helpers.

Whether a run draws a bar is decided, in this order, by:

1. the call: ``progress=False`` draws nothing;
2. :func:`mjfast.set_options` ``(progress=...)`` (also a context manager);
3. the environment variable ``MJFAST_PROGRESS``;
4. the default, ``"auto"``.

The settings are ``"auto"`` (a bar when stderr is a terminal or a Jupyter kernel's stream;
nothing into a file or a pipe, so logs stay free of ``\\r`` frames), ``"always"`` (a bar into
files and pipes too) and ``"never"``; ``MJFAST_PROGRESS`` also takes ``1``/``on``/``true``
for "always" and ``0``/``off``/``false`` for "never". A bar appears only once the run has
taken half a second, so short runs print nothing whatever the setting.
"""
from __future__ import annotations

import contextlib
import contextvars
import os
import sys
import threading
import time
import warnings

from .validation import check_flag

MODES = ("auto", "always", "never")
#: seconds a run goes before its bar appears (shorter runs print nothing)
DELAY = 0.5
ENV_VAR = "MJFAST_PROGRESS"
_ENV_WORDS = {"auto": "auto", "": "auto",
              "always": "always", "1": "always", "on": "always", "true": "always", "yes": "always",
              "never": "never", "0": "never", "off": "never", "false": "never", "no": "never"}

#: the setting of set_options(progress=...); None: MJFAST_PROGRESS, else "auto"
_option: list[str | None] = [None]
_warned_env: set[str] = set()


def check_mode(value) -> str | None:
    """A progress setting: "auto", "always", "never", True ("always"), False ("never") or
    None (back to ``MJFAST_PROGRESS``, else "auto")."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "always" if value else "never"
    if isinstance(value, str) and value in MODES:
        return value
    raise ValueError(f"progress must be one of {MODES}, True, False or None; got {value!r}")


def set_mode(value) -> None:
    _option[0] = check_mode(value)


def option() -> str | None:
    """The value of ``set_options(progress=...)`` (None when not set)."""
    return _option[0]


def mode() -> str:
    """The progress setting in force: set_options, else MJFAST_PROGRESS, else "auto"."""
    if _option[0] is not None:
        return _option[0]
    raw = os.environ.get(ENV_VAR)
    if raw is None:
        return "auto"
    word = _ENV_WORDS.get(raw.strip().lower())
    if word is None:
        if raw not in _warned_env:
            _warned_env.add(raw)
            warnings.warn(f"{ENV_VAR}={raw!r} is not a progress setting (auto, always or 1, never or 0); "
                          "using auto", RuntimeWarning, stacklevel=3)
        return "auto"
    return word


def interactive(stream) -> bool:
    """A terminal, or the output stream of a Jupyter kernel (it renders ``\\r`` redraws)."""
    try:
        if stream.isatty():
            return True
    except (AttributeError, ValueError, OSError):
        return False
    return type(stream).__module__.split(".")[0] == "ipykernel"


def shows(enabled: bool, stream=None) -> bool:
    """Whether a run with ``progress=enabled`` draws a bar on ``stream`` (default stderr)."""
    if not enabled:
        return False
    m = mode()
    if m == "never":
        return False
    if m == "always":
        return True
    return interactive(sys.stderr if stream is None else stream)


_bar_class = None


def _tqdm_class():
    """tqdm's bar without its monitor thread (no thread outlives a run) and with a thread lock
    (tqdm's default also takes a multiprocessing lock)."""
    global _bar_class
    if _bar_class is None:
        from tqdm import tqdm

        class Bar(tqdm):
            monitor_interval = 0
            _lock = threading.RLock()

            @staticmethod
            def format_meter(*args, **kwargs):
                # units are given as " games" (rate "1.2k games/s"); a slow rate "2.00s/games", not "2.00s/ games"
                return tqdm.format_meter(*args, **kwargs).replace("s/ ", "s/")

        _bar_class = Bar
    return _bar_class


def _columns(stream) -> int | None:
    """None (tqdm follows the terminal's width) on a terminal that reports one, else 80 columns
    (a file, a pipe, a notebook, a terminal of width 0)."""
    try:
        if os.get_terminal_size(stream.fileno()).columns > 0:
            return None
    except (AttributeError, ValueError, OSError):
        pass
    return 80


class Progress:
    """Progress of a run of ``total`` ``unit`` (games, deals, hands, samples, ...).

    :meth:`update` takes the number done so far. Nothing is drawn unless :func:`shows` says
    so and the run has taken ``delay`` seconds (default :data:`DELAY`); then tqdm redraws the
    bar at most every ``interval`` seconds, with the rate in ``unit`` per second.
    ``enabled=False`` (the call's ``progress=False``) draws nothing.
    """

    def __init__(self, total: int | None, *, label: str = "", unit: str = "it", enabled: bool = True,
                 delay: float | None = None, interval: float = 0.2, stream=None):
        # None: a total not known in advance (a count and a rate, no percentage)
        self.total = None if total is None else max(int(total), 1)
        self.label = label
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = shows(bool(enabled), self.stream)
        self.start = time.perf_counter()
        self.done = 0
        self._bar = None
        if self.enabled:
            width = _columns(self.stream)
            self._bar = _tqdm_class()(
                total=self.total, desc=label, unit=" " + unit, unit_scale=(self.total or 10_000) >= 10_000,
                file=self.stream,
                delay=DELAY if delay is None else delay, mininterval=interval, ncols=width,
                dynamic_ncols=width is None, leave=True, smoothing=0.1)

    def update(self, done: int) -> None:
        """``done`` units are finished (a running total, not an increment)."""
        step = int(done) - self.done
        self.done = int(done)
        if self._bar is not None and step:
            self._bar.update(step)

    def set_total(self, total: int) -> None:
        """The run turned out to be ``total`` units long (a total known only as it goes)."""
        self.total = max(int(total), 1)
        if self._bar is not None:
            self._bar.total = self.total

    def close(self) -> None:
        """Draw the final state (if the bar showed) and end its line. Safe to call twice."""
        if self._bar is not None:
            bar, self._bar = self._bar, None
            bar.close()


# -- one bar for nested calls ------------------------------------------------------------------
# An exact computation is one call that makes others (a table of forms calls the odds of each
# form, the command line asks for both seats, an odds table for every rule set): the outermost
# call opens the bar, in steps, and the calls inside it advance that bar instead of opening
# their own.

_SHARED: contextvars.ContextVar = contextvars.ContextVar("mjfast_shared_bar", default=None)


@contextlib.contextmanager
def shared_bar(progress, label: str, steps: int):
    """The bar of the computation in progress: the caller's if one is open (a table, the command
    line), else a new one of ``steps`` steps, closed afterwards. ``progress`` is the call's
    argument (checked: True or False)."""
    check_flag("progress", progress)
    outer = _SHARED.get()
    if outer is not None:
        yield outer
        return
    bar = Progress(steps, label=label, unit="steps", enabled=bool(progress))
    token = _SHARED.set(bar)
    try:
        yield bar
    finally:
        _SHARED.reset(token)
        bar.close()


def add_steps(n: int) -> None:
    """The step in progress of the shared bar turns out to be ``n + 1`` steps (the Chinese
    Official "all" form of exact odds goes through its thresholds one by one)."""
    bar = _SHARED.get()
    if bar is not None:
        bar.set_total(bar.total + n)


def step() -> None:
    """One step of the shared bar is done (nothing when no bar is open)."""
    bar = _SHARED.get()
    if bar is not None:
        bar.update(bar.done + 1)


def exact_odds_label(rules_label) -> str:
    """The label of the bar of exact deal odds under ``rules_label`` (a rule-set name or None)."""
    return "exact deal odds" + (f" {rules_label}" if rules_label else "")


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
