"""One bot program's process: start it, give it one turn's input, read its output within a
time limit, and kill it (its whole process group) so that nothing outlives the run.

Every child runs in a session of its own (its process group is killed with it), gets the
default SIGINT and SIGTERM handlers back (a run started with SIGINT ignored must not leave a
child that ignores it too), and every wait on it is bounded. Children still alive when the
interpreter exits are killed (atexit).
"""
from __future__ import annotations

import atexit
import contextlib
import os
import select
import signal
import subprocess
import tempfile
import time
import weakref
from collections.abc import Sequence

#: the line a keep-running bot prints after each turn's output
MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
REAP_SECONDS = 10.0                 # a SIGKILLed child is gone at once; this bounds the wait all the same
OUTPUT_LIMIT = 1 << 22              # bytes of output per turn read at most (4 MiB: the platform's limits are far below)
_RESTORED = (signal.SIGINT, signal.SIGTERM)
_LIVE: weakref.WeakSet = weakref.WeakSet()


def _child_setup() -> None:          # runs in the child between fork and exec
    for sig in _RESTORED:
        signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _RESTORED)


def _kill_all() -> None:
    for p in list(_LIVE):
        p.kill()


atexit.register(_kill_all)


class Timeout(Exception):
    """The bot did not finish its turn's output in time (what it wrote is in ``output``)."""

    def __init__(self, output: bytes):
        super().__init__("timeout")
        self.output = output


class BotProcess:
    """A running bot program (``argv``), killed by :meth:`kill` or when collected."""

    def __init__(self, argv: Sequence[str], cwd=None, env=None, close_input: bool = False):
        self._err = tempfile.TemporaryFile()
        self.close_input = close_input
        self.popen = subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._err,
                                      cwd=cwd, env=env, start_new_session=True, preexec_fn=_child_setup)
        self._finalizer = weakref.finalize(self, _kill_group, self.popen, self._err)
        _LIVE.add(self)

    @property
    def pid(self) -> int:
        return self.popen.pid

    def exchange(self, data: bytes, timeout: float) -> tuple[bytes, bool]:
        """Write ``data`` and read the output of one turn: until a line that is the keep-running
        marker (returns (output before it, True)) or the end of the output (the bot exited:
        (output, False)). Raises :class:`Timeout` past ``timeout`` seconds, ``BrokenPipeError``
        when the bot does not read its input and has exited."""
        p = self.popen
        deadline = time.monotonic() + timeout
        out = bytearray()
        to_write = memoryview(data)
        wfd = p.stdin.fileno() if p.stdin is not None else -1
        assert p.stdout is not None
        rfd = p.stdout.fileno()
        if not to_write and self.close_input and p.stdin is not None:
            p.stdin.close()
            wfd = -1
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Timeout(bytes(out))
            wl = [wfd] if wfd >= 0 and to_write else []
            r, w, _ = select.select([rfd], wl, [], left)
            if w:
                try:
                    n = os.write(wfd, to_write[:65536])
                except BrokenPipeError:
                    to_write = memoryview(b"")
                    n = 0
                to_write = to_write[n:]
                if not to_write and self.close_input and p.stdin is not None:
                    p.stdin.close()
                    wfd = -1
            if r:
                chunk = os.read(rfd, 65536)
                if not chunk:
                    return bytes(out), False
                out += chunk
                if len(out) > OUTPUT_LIMIT:
                    return bytes(out[:OUTPUT_LIMIT]), False
                cut = _marker_end(out)
                if cut >= 0:
                    return bytes(out[:cut]), True

    def wait(self, timeout: float) -> int | None:
        """The exit status once the bot has exited within ``timeout`` seconds, else None."""
        try:
            return self.popen.wait(timeout=max(timeout, 0.0))
        except subprocess.TimeoutExpired:
            return None

    def stderr_tail(self, size: int = 600) -> str:
        """The last ``size`` bytes the bot wrote on its standard error."""
        try:
            self._err.flush()
            end = self._err.seek(0, os.SEEK_END)
            self._err.seek(max(0, end - size))
            return self._err.read().decode("utf-8", "replace").strip()
        except (OSError, ValueError):
            return ""

    def kill(self) -> None:
        """Kill the bot's whole process group and reap it (bounded); harmless when it has ended."""
        self._finalizer()
        _LIVE.discard(self)


def _kill_group(p: subprocess.Popen, err) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(p.pid, signal.SIGKILL)      # its session id is its pid (start_new_session)
    with contextlib.suppress(subprocess.TimeoutExpired):
        p.wait(timeout=REAP_SECONDS)
    for f in (p.stdin, p.stdout, err):
        if f is not None:
            with contextlib.suppress(OSError):
                f.close()


def _marker_end(out: bytearray) -> int:
    """Where the output before the keep-running marker line ends (-1: no complete marker line)."""
    i = out.find(MARKER.encode())
    while i >= 0:
        j = i + len(MARKER)
        at_line_start = i == 0 or out[i - 1:i] == b"\n"
        rest = out[j:j + 2]
        if at_line_start and (rest[:1] == b"\n" or rest == b"\r\n"):
            return i
        i = out.find(MARKER.encode(), j)
    return -1
