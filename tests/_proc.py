"""Child processes for the tests: every process a test starts goes through here.

A child must be stoppable and every wait on it bounded, whatever the test run was started
under. A shell script's ``pytest &`` (or ``nohup pytest &``) starts pytest with SIGINT
ignored, and an ignored signal stays ignored across ``exec``: a child that a test means to
stop with Ctrl-C would run on (``deal_stats(10**12)``) while the test waited for it forever.
So each child here

- gets the default SIGINT and SIGTERM dispositions back (and unblocked) before it runs;
- runs in a session of its own (``start_new_session``), so that the whole group it starts
  (a shell pipeline, dask workers, a pytest's own children) is killed with it, and no
  terminal job control can stop it;
- is killed, group and all, when the test leaves it (``finally``, a timeout, an error,
  pytest-timeout's per-test limit);
- is waited on with a timeout only: ``run`` needs one, ``read_until`` / ``read_line`` read a
  pipe with one, and ``Popen.wait`` / ``communicate`` take theirs.

``run`` is ``subprocess.run`` with the above; ``start`` is ``subprocess.Popen`` with the above,
used as a context manager (leaving the block stops the child); ``local_cluster`` is a Dask
LocalCluster closed within a bound. tests/test_child_processes.py checks that no test starts
a process any other way.
"""
from __future__ import annotations

import contextlib
import io
import os
import select
import signal
import subprocess
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

RESTORED = (signal.SIGINT, signal.SIGTERM)
REAP_SECONDS = 10.0  # a SIGKILLed child is gone at once; this bounds the wait for it all the same


def _child_setup(then: Callable[[], object] | None) -> Callable[[], None]:
    def setup() -> None:  # runs in the child, between fork and exec
        for sig in RESTORED:
            signal.signal(sig, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, RESTORED)
        if then is not None:
            then()
    return setup


class Child(subprocess.Popen):
    """A ``Popen`` whose ``with`` block ends by killing its process group (never an unbounded wait)."""

    def __exit__(self, *exc: object) -> None:
        stop(self)


def start(args: Sequence[str] | str, *, preexec_fn: Callable[[], object] | None = None, **kwargs: Any) -> Child:
    """Start a child as ``subprocess.Popen(args, **kwargs)`` does, with the default SIGINT and
    SIGTERM handlers, in a session of its own; ``preexec_fn`` (if any) runs after that (a test
    may ignore SIGINT again in a child on purpose). Use it as ``with start(...) as p:``, or call
    ``stop(p)`` in a ``finally``."""
    if "start_new_session" in kwargs or "process_group" in kwargs:
        raise TypeError("start() always gives the child a session of its own")
    return Child(args, preexec_fn=_child_setup(preexec_fn), start_new_session=True, **kwargs)


def stop(p: subprocess.Popen) -> None:
    """Kill the child's whole process group (SIGKILL), reap the child within a bound, close its pipes.
    Harmless on a child that has already ended."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(p.pid, signal.SIGKILL)   # its session id is its pid (start_new_session)
    with contextlib.suppress(subprocess.TimeoutExpired):
        p.wait(timeout=REAP_SECONDS)
    for f in (p.stdin, p.stdout, p.stderr):
        if f is not None:
            with contextlib.suppress(OSError):
                f.close()


def run(args: Sequence[str] | str, *, timeout: float, input: str | bytes | None = None, check: bool = False,
        capture_output: bool = False, **kwargs: Any) -> subprocess.CompletedProcess:
    """``subprocess.run`` for tests: ``timeout`` is required, the child starts as ``start`` starts
    it, and its process group is killed however the call ends (``subprocess.TimeoutExpired`` past
    ``timeout``, with the output read until then)."""
    if capture_output:
        kwargs["stdout"] = kwargs["stderr"] = subprocess.PIPE
    if input is not None:
        kwargs["stdin"] = subprocess.PIPE
    with start(args, **kwargs) as p:
        try:
            out, err = p.communicate(input, timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(p.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):  # what it wrote before the kill
                exc.output, exc.stderr = p.communicate(timeout=REAP_SECONDS)
            raise
        code = p.poll()
    assert code is not None
    if check and code:
        raise subprocess.CalledProcessError(code, args, out, err)
    return subprocess.CompletedProcess(args, code, out, err)


def read_until(stream: io.IOBase | int, end: str | bytes | tuple, timeout: float) -> Any:
    """Read a child's pipe until the text read ends with ``end`` (or one of a tuple of endings) or
    the child closes it; ``TimeoutError`` after ``timeout`` seconds. ``stream`` is a pipe of a
    ``Popen`` (the text comes back as ``str`` if it is a text stream, else ``bytes``) or a file
    descriptor. It reads the descriptor one byte at a time, so nothing past ``end`` is taken:
    ``communicate`` reads the rest later. Never read the stream with its own methods first (its
    buffer would hold what this does not see)."""
    fd = stream if isinstance(stream, int) else stream.fileno()
    encoding = getattr(stream, "encoding", None) if isinstance(stream, io.TextIOBase) else None
    ends = end if isinstance(end, tuple) else (end,)
    want = tuple(e.encode(encoding) if isinstance(e, str) else e for e in ends) if encoding else ends
    got = bytearray()
    deadline = time.monotonic() + timeout
    while not got.endswith(want):
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"the child wrote no {end!r} within {timeout} s; it wrote {bytes(got)[-2000:]!r}")
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            continue
        chunk = os.read(fd, 1)
        if not chunk:
            break  # the child closed its end
        got += chunk
    return got.decode(encoding, errors="replace") if encoding else bytes(got)


def read_line(stream: io.IOBase | int, timeout: float) -> Any:
    """One line of a child's pipe (with its newline; shorter if the child closed the pipe) within ``timeout`` seconds."""
    return read_until(stream, "\n" if isinstance(stream, io.TextIOBase) else b"\n", timeout)


@contextlib.contextmanager
def local_cluster(close_timeout: float = 60, **kwargs: Any) -> Iterator[Any]:
    """A ``distributed.LocalCluster(**kwargs)`` closed on the way out within ``close_timeout``
    seconds; any worker process it started that is still there after that is killed."""
    import multiprocessing

    import distributed

    before = {c.pid for c in multiprocessing.active_children()}
    cluster = distributed.LocalCluster(**kwargs)
    try:
        yield cluster
    finally:
        try:
            cluster.close(timeout=close_timeout)
        finally:
            for c in multiprocessing.active_children():  # our own unreaped children only: their pids are ours
                if c.pid not in before:
                    c.kill()
                    c.join(REAP_SECONDS)
