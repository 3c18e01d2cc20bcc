"""The on-disk cache of the shanten lookup tables (one file per build of the generator).

Building the tables takes a few tenths of a second of CPU in every new process; a command that
scores one hand would spend most of its time there. So the first process writes them to the
user's cache directory and later ones read them back (a few milliseconds):

- **Where.** ``$MJFAST_TABLE_CACHE`` if set to a directory; otherwise the platform's user cache
  directory: ``$XDG_CACHE_HOME/mjfast`` (default ``~/.cache/mjfast``) on Linux and other Unix
  systems, ``~/Library/Caches/mjfast`` on macOS, ``%LOCALAPPDATA%\\mjfast\\Cache`` on Windows.
  ``MJFAST_TABLE_CACHE=off`` (or ``0``, ``false``, ``no``) turns the cache off: every process
  builds the tables itself and nothing is written.
- **Which file.** The name holds the mjfast version, the table format and a digest of the
  generator's code (this package's ``tables.py`` and the compiled ``tablegen`` module), so a
  file written by another version or build is never read: it simply is not the file looked for.
- **Trust.** The file carries the sha256 of its contents and the list of its arrays (names,
  dtypes, shapes). A file that is missing, truncated, corrupted, of another format or that
  cannot be read is ignored and rebuilt; the tables are then written again.
- **Concurrency.** A writer writes a temporary file in the same directory and renames it over
  the target (an atomic replacement on POSIX and Windows): a reader sees a whole old file, a
  whole new one or none, never a part. Two processes building at once both write whole files;
  the last rename wins and both are identical.
- **Failures.** An unwritable or missing directory, a full disk, a read-only file system: the
  tables are used from memory and nothing is reported (the cache only saves time).
"""
from __future__ import annotations

import hashlib
import json
import os
import sys

import numpy as np

# (os.path, not pathlib, and tempfile only when writing: this module is on the start-up path
# of every command, and those imports cost more than reading the tables)

ENV_VAR = "MJFAST_TABLE_CACHE"
#: bumped when the tables' layout, names or meaning change
TABLE_FORMAT = 1
_MAGIC = b"mjfast-tables\n"
_OFF = ("0", "off", "false", "no", "none")
_DIGEST: list[str] = []   # the generator's digest, computed once per process


def cache_dir() -> str | None:
    """The directory of the table cache, or None when ``MJFAST_TABLE_CACHE`` turns it off."""
    raw = os.environ.get(ENV_VAR, "").strip()
    if raw.lower() in _OFF:
        return None
    if raw:
        return os.path.expanduser(raw)
    home = os.path.expanduser("~")
    if sys.platform == "win32":    # pragma: no cover - not the test platform
        return os.path.join(os.environ.get("LOCALAPPDATA") or os.path.join(home, "AppData", "Local"), "mjfast", "Cache")
    if sys.platform == "darwin":   # pragma: no cover - not the test platform
        return os.path.join(home, "Library", "Caches", "mjfast")
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    return os.path.join(xdg if os.path.isabs(xdg) else os.path.join(home, ".cache"), "mjfast")


def _generator_digest() -> str:
    """sha256 (16 hex digits) of the code that builds the tables: ``tables.py`` and the compiled
    ``tablegen`` module (a rebuilt or edited generator gets a file of its own)."""
    if not _DIGEST:
        from . import tablegen

        h = hashlib.sha256()
        # tables.py by its path (it imports this module: reading its file needs no import of it)
        for path in (os.path.join(os.path.dirname(os.path.abspath(__file__)), "tables.py"),
                     getattr(tablegen, "__file__", None)):
            try:
                with open(str(path), "rb") as f:
                    h.update(f.read())
            except (OSError, TypeError):     # no file (a frozen or zipped install): the version decides
                h.update(b"?")
        _DIGEST.append(h.hexdigest()[:16])
    return _DIGEST[0]


def cache_path() -> str | None:
    """The cache file of this build's tables (it may not exist yet), or None when the cache is off."""
    d = cache_dir()
    if d is None:
        return None
    from .._version import __version__

    return os.path.join(d, f"tables-{__version__}-f{TABLE_FORMAT}-{_generator_digest()}.bin")


def _layout(tables: dict) -> list:
    return [[name, arr.dtype.str, list(arr.shape)] for name, arr in tables.items()]


def encode(tables: dict) -> bytes:
    """The bytes of a cache file holding ``tables`` (name -> array)."""
    payload = b"".join(np.ascontiguousarray(a).tobytes() for a in tables.values())
    header = json.dumps({"format": TABLE_FORMAT, "arrays": _layout(tables),
                         "sha256": hashlib.sha256(payload).hexdigest()}).encode()
    return _MAGIC + len(header).to_bytes(8, "little") + header + payload


def decode(data: bytes) -> dict | None:
    """The tables of a cache file's bytes, read-only; None when the bytes are not a whole, intact
    file of this format (wrong magic, truncated, checksum mismatch, inconsistent layout)."""
    try:
        if not data.startswith(_MAGIC):
            return None
        start = len(_MAGIC) + 8
        size = int.from_bytes(data[len(_MAGIC):start], "little")
        header = json.loads(data[start:start + size])
        if header.get("format") != TABLE_FORMAT:
            return None
        payload = memoryview(data)[start + size:]
        if hashlib.sha256(payload).hexdigest() != header.get("sha256"):
            return None
        tables, offset = {}, 0
        for name, dtype, shape in header["arrays"]:
            dt = np.dtype(dtype)
            count = int(np.prod(shape, dtype=np.int64))
            arr = np.frombuffer(payload, dtype=dt, count=count, offset=offset).reshape(shape)
            offset += count * dt.itemsize
            tables[name] = arr
        if offset != len(payload):
            return None
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError):   # a malformed header
        return None
    for arr in tables.values():
        arr.setflags(write=False)
    return tables


def load(names: tuple) -> dict | None:
    """The cached tables if the cache is on and holds an intact file with exactly ``names``
    (in that order); else None."""
    path = cache_path()
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    tables = decode(data)
    if tables is None or tuple(tables) != tuple(names):
        return None
    return tables


def store(tables: dict) -> str | None:
    """Write ``tables`` to the cache file atomically (a temporary file in the same directory,
    then a rename); returns the path written, or None (cache off, or any OS error: nothing is
    left behind and nothing is raised)."""
    path = cache_path()
    if path is None:
        return None
    import tempfile

    tmp = None
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tables-", suffix=".tmp", dir=os.path.dirname(path))
        with os.fdopen(fd, "wb") as f:
            f.write(encode(tables))
        os.replace(tmp, path)
        return path
    except OSError:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        return None
