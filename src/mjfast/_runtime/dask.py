"""The Dask backend: run a pure chunk function as Dask tasks and merge the exact counts.

``deal_stats(..., backend="dask")`` and ``simulate(..., backend="dask")`` cut their run into
pieces of ``chunk_size`` units (deals, games or game rotations). Piece k covers units
``k * chunk_size ..`` and its counts are a pure function of (seed key, piece bounds), computed
by the same chunk function the local loop uses. Every task has a key made of the entry point,
the piece index and a token of its arguments, so a task lost with a worker is recomputed
elsewhere with the identical result. Counts are integers merged by addition, so the order in
which tasks finish does not matter: the result is bit-identical to the local run.

``distributed`` is imported only when the Dask backend is used (``pip install "mjfast[dask]"``).
"""
from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable

from .progress import attach_partial

BACKENDS = ("local", "dask")
INSTALL_HINT = 'backend="dask" needs Dask distributed; install it with: pip install "mjfast[dask]"'


def import_distributed():
    """The ``distributed`` module, or an ImportError that says how to install it."""
    try:
        import distributed
    except ImportError as exc:
        raise ImportError(INSTALL_HINT) from exc
    return distributed


def check_backend(backend, client) -> str:
    """Validate ``backend`` and ``client`` of a public entry point; returns the backend name."""
    if not isinstance(backend, str):
        raise TypeError(f"backend must be one of {BACKENDS}, not {type(backend).__name__}")
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose one of {BACKENDS}")
    if backend == "local":
        if client is not None:
            raise ValueError("client= is only used with backend='dask'")
        return backend
    distributed = import_distributed()
    if client is not None and not isinstance(client, (str, distributed.Client)):
        raise TypeError("client must be a distributed.Client, a scheduler address such as "
                        f"'tcp://scheduler:8786', or None (the current client); got {type(client).__name__}")
    return backend


@contextlib.contextmanager
def _connected(client):
    distributed = import_distributed()
    if isinstance(client, str):
        try:
            c = distributed.Client(client, set_as_default=False)  # connect timeout: Dask's config
        except OSError as exc:
            raise ValueError(f"cannot connect to the Dask scheduler at {client!r}: {exc}") from exc
        try:
            yield c
        finally:
            c.close()
        return
    if client is None:
        try:
            client = distributed.get_client()  # the default client, or the worker's inside a task
        except ValueError:
            raise ValueError("backend='dask' found no Dask client: create one first, e.g. "
                             "distributed.Client('tcp://scheduler:8786') (or Client() for a local cluster), "
                             "or pass client= (a Client or a scheduler address)") from None
    if getattr(client, "asynchronous", False):
        raise ValueError("backend='dask' needs a synchronous Client (this one was made with asynchronous=True)")
    if client.status not in ("running", "connecting", "newly-created"):
        raise ValueError(f"the Dask client is not running (status {client.status!r})")
    yield client


def run_chunks(client, fn: Callable, pieces: Iterable, name: str, bar, finish: Callable, acc, add: Callable,
               window: int | None = None):
    """Run ``fn(*args)`` for every ``(args, units)`` of ``pieces`` as Dask tasks; merge exactly.

    ``acc = add(acc, result)`` folds each finished piece in (integer counts: any order gives
    the same value); ``finish(acc, units_done)`` builds the returned object. At most ``window``
    tasks (default: twice the cluster's worker threads, at least 8) are in flight, so the
    scheduler never holds more than that however long the run, and the progress bar advances
    as tasks finish. On Ctrl-C (or any error) the outstanding tasks are cancelled; a
    KeyboardInterrupt carries the statistics of the finished pieces as ``exc.partial``.
    """
    distributed = import_distributed()
    from dask.base import tokenize

    with _connected(client) as c:
        if window is None:
            window = max(8, 2 * sum(c.nthreads().values()))
        todo = iter(enumerate(pieces))
        live: dict = {}
        ac = distributed.as_completed()
        done = 0

        def submit_next() -> bool:
            try:
                k, (args, units) = next(todo)
            except StopIteration:
                return False
            fut = c.submit(fn, *args, key=f"{name}-{k}-{tokenize(fn.__name__, *args)}", pure=True)
            live[fut.key] = (fut, units)
            ac.add(fut)
            return True

        try:
            while len(live) < window and submit_next():
                pass
            for fut in ac:
                result = fut.result()
                _, units = live.pop(fut.key)
                fut.release()
                acc = add(acc, result)
                done += units
                bar.update(done)
                submit_next()
        except BaseException as exc:
            c.cancel([f for f, _ in live.values()])
            bar.close()
            if isinstance(exc, KeyboardInterrupt):
                attach_partial(exc, finish(acc, done))
            raise
        bar.close()
        return finish(acc, done)
