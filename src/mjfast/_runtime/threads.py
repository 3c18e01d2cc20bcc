"""Thread-count normalisation and build/runtime configuration report."""
from __future__ import annotations

import numbers
import os
import sys

import numpy as np

from .. import _core
from .._version import __version__

_CPUS: list[int] = []   # available_cpus(), read once per process (a system call of ~5 us otherwise)
_DEFAULT: dict[str, int] = {}   # OMP_NUM_THREADS value -> default thread count


def _forget_cpus() -> None:
    _CPUS.clear()
    _DEFAULT.clear()    # its values come from available_cpus()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_cpus)   # a forked worker may run with another affinity


def available_cpus() -> int:
    """CPUs this process may run on (affinity-aware), at least 1; read once per process."""
    if not _CPUS:
        try:
            _CPUS.append(max(1, len(os.sched_getaffinity(0))))
        except (AttributeError, OSError):  # pragma: no cover - non-Linux
            _CPUS.append(max(1, os.cpu_count() or 1))
    return _CPUS[0]


def default_threads() -> int:
    """Threads used for ``threads=None``: ``OMP_NUM_THREADS`` if set, else all available CPUs.

    Read on every call (a program may change the variable), from a cache keyed by its value:
    a batch call of one hand pays well under a microsecond for it."""
    raw = os.environ.get("OMP_NUM_THREADS", "")
    n = _DEFAULT.get(raw)
    if n is None:
        env = raw.split(",")[0].strip()
        n = min(int(env), max_threads()) if env.isdigit() and int(env) > 0 else available_cpus()
        _DEFAULT[raw] = n
    return n


def _openmp_enabled() -> bool:
    return bool(_core.openmp_enabled())


_OPENMP = [_openmp_enabled()]   # a build fact: read once

MAX_THREADS = 1024  # more threads than this (or than the CPUs, if more) is refused: OpenMP would crash


def max_threads() -> int:
    """Largest ``threads`` accepted: the larger of 1024 and the available CPUs."""
    return max(MAX_THREADS, available_cpus())


def resolve_threads(threads) -> int:
    """Normalise a user ``threads`` argument to a positive count.

    ``None`` = :func:`default_threads`; a positive int is used as given; a negative int counts
    down from the CPU count (``-1`` = all, ``-2`` = all but one, never below 1). Without OpenMP
    every value gives 1. Results never depend on this number, only speed does. Counts above
    :func:`max_threads` raise ValueError (OpenMP cannot start, say, 100,000 threads: it
    crashed the interpreter).
    """
    if threads is None:
        n = default_threads()
    elif isinstance(threads, bool) or not isinstance(threads, numbers.Integral):
        raise TypeError(f"threads must be an int or None, not {type(threads).__name__}")
    elif threads == 0:
        raise ValueError("threads must be a positive int, a negative int (-1 = all CPUs) or None; got 0")
    elif threads < 0:
        n = max(1, available_cpus() + 1 + int(threads))
    else:
        n = int(threads)
        if n > max_threads():
            raise ValueError(f"threads={n} is more than mjfast allows ({max_threads()}); "
                             f"this machine has {available_cpus()} CPUs")
    return n if _OPENMP[0] else 1


def config() -> dict:
    """Build and runtime facts as a dict (see :func:`mjfast.show_config`)."""
    from .._kernels import table_cache as _table_cache
    from .._kernels import tables as _tables

    return {
        "mjfast": __version__,
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "openmp": _core.openmp_enabled(),
        "openmp_max_threads": _core.omp_max_threads(),
        "available_cpus": available_cpus(),
        "default_threads": resolve_threads(None),
        "tables_built": _tables.is_built(),
        "table_cache": _table_cache.cache_path() or f"off ({_table_cache.ENV_VAR})",
        "simd": "{} (best on this CPU: {})".format(*_core.simd_level()),
    }


class BuildConfig(dict):
    """The facts :func:`show_config` reports: a plain dict (``cfg["openmp"]``, ``json.dumps(cfg)``)
    whose ``repr`` and ``str`` are the aligned text, one fact per line, so that a REPL or a
    notebook shows it once, as text."""

    def __str__(self) -> str:
        width = max(len(k) for k in self)
        return "\n".join(f"{key:<{width}}  {value}" for key, value in self.items())

    __repr__ = __str__

    def _repr_pretty_(self, p, cycle) -> None:     # IPython's display: the same text
        p.text(str(self))


def show_config() -> BuildConfig:
    """How mjfast was built and what it will use at run time.

    Reports whether the kernels were compiled with OpenMP (otherwise every batch call runs on
    one thread), the default thread count, whether the lookup tables are built yet, the file
    that caches them between processes (``table_cache``: in the user's cache directory; the
    environment variable ``MJFAST_TABLE_CACHE`` names another directory, or ``off`` turns the
    cache off), and the instruction set of the kernels chosen at run time (``simd``:
    "baseline", "avx2" or "avx512"; the environment variable ``MJFAST_SIMD`` can ask for a
    lower one, and every level gives the same results).

    It prints nothing: the result shows itself as the aligned text in a REPL or a notebook,
    ``print(mjfast.show_config())`` prints it from a program, and ``mjfast config`` from the
    command line.

    Returns
    -------
    BuildConfig
        A dict of the facts (``cfg["openmp"]``) whose ``repr`` is the text, one fact a line.

    Examples
    --------
    >>> import mjfast
    >>> cfg = mjfast.show_config()
    >>> cfg                                 # doctest: +ELLIPSIS
    mjfast ...
    openmp ...
    >>> isinstance(cfg["openmp"], bool), isinstance(cfg, dict)
    (True, True)
    """
    return BuildConfig(config())
