"""The on-disk cache of the lookup tables: missing, corrupted, off, unwritable, concurrent."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from test_tables import CHECKSUMS

import _proc
from mjfast._kernels import table_cache, tables


def _sums(t: dict) -> dict:
    import hashlib

    import numpy as np

    return {k: hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest() for k, a in t.items()}


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A private cache directory for the test (the user's cache is never touched)."""
    monkeypatch.setenv(table_cache.ENV_VAR, str(tmp_path / "c"))
    return tmp_path / "c"


def test_path_names_version_format_and_generator(cache):
    from mjfast._version import __version__

    path = table_cache.cache_path()
    name = os.path.basename(path)
    assert os.path.dirname(path) == str(cache)
    assert name.startswith(f"tables-{__version__}-f{table_cache.TABLE_FORMAT}-") and name.endswith(".bin")


def test_missing_cache_is_built_and_written(cache):
    path = table_cache.cache_path()
    assert not os.path.exists(path)
    t = tables._load_or_build()
    assert _sums(t) == CHECKSUMS
    assert os.path.exists(path)
    loaded = table_cache.load(tables.NAMES)
    assert loaded is not None and _sums(loaded) == CHECKSUMS
    assert all(not a.flags.writeable for a in loaded.values())
    assert [p.name for p in cache.iterdir()] == [os.path.basename(path)]   # no temporary file left


@pytest.mark.parametrize("damage", ["flip_payload", "flip_header", "truncate", "empty", "garbage", "extra_bytes"])
def test_corrupted_cache_is_ignored_and_rewritten(cache, damage):
    tables._load_or_build()
    path = table_cache.cache_path()
    with open(path, "rb") as f:
        data = bytearray(f.read())
    if damage == "flip_payload":
        data[-1000] ^= 0x10
    elif damage == "flip_header":
        data[len(b"mjfast-tables\n") + 12] ^= 0x01
    elif damage == "truncate":
        data = data[: len(data) // 2]
    elif damage == "empty":
        data = bytearray()
    elif damage == "garbage":
        data = bytearray(b"\x00\xff" * 5000)
    else:
        data += b"\x00"
    with open(path, "wb") as f:
        f.write(data)
    assert table_cache.load(tables.NAMES) is None
    t = tables._load_or_build()                # rebuilt, and the file written again
    assert _sums(t) == CHECKSUMS
    again = table_cache.load(tables.NAMES)
    assert again is not None and _sums(again) == CHECKSUMS


def test_a_file_of_other_tables_is_not_read(cache):
    import numpy as np

    t = dict(tables._load_or_build())
    t["final"] = np.zeros(3, np.uint8)          # intact, but not the layout this build needs
    os.makedirs(cache, exist_ok=True)
    with open(table_cache.cache_path(), "wb") as f:
        f.write(table_cache.encode({k: t[k] for k in tables.NAMES[:-1]}))
    assert table_cache.load(tables.NAMES) is None


@pytest.mark.parametrize("value", ["off", "0", "False", "no"])
def test_env_var_turns_the_cache_off(tmp_path, monkeypatch, value):
    monkeypatch.setenv(table_cache.ENV_VAR, value)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    assert table_cache.cache_dir() is None and table_cache.cache_path() is None
    assert _sums(tables._load_or_build()) == CHECKSUMS
    assert table_cache.store(tables.get_tables()) is None
    assert list(tmp_path.iterdir()) == []


def test_default_directory_follows_xdg(tmp_path, monkeypatch):
    monkeypatch.delenv(table_cache.ENV_VAR, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert table_cache.cache_dir() == str(tmp_path / "xdg" / "mjfast")


def test_unwritable_cache_is_harmless(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_bytes(b"not a directory")
    monkeypatch.setenv(table_cache.ENV_VAR, str(blocker / "sub"))
    assert table_cache.store(tables.get_tables()) is None
    assert _sums(tables._load_or_build()) == CHECKSUMS
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_concurrent_processes_build_and_read_safely(cache):
    """Four processes start on an empty cache at once: each gets the pinned tables, and the
    file left behind is whole."""
    code = ("import hashlib, numpy as np\n"
            "from mjfast._kernels import tables\n"
            "t = tables.get_tables()\n"
            "print(hashlib.sha256(b''.join(np.ascontiguousarray(t[k]).tobytes() for k in tables.NAMES)).hexdigest())\n")
    env = dict(os.environ, **{table_cache.ENV_VAR: str(cache)})
    procs = []
    try:
        for _ in range(4):
            procs.append(_proc.start([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, env=env))
        outs = [p.communicate(timeout=120) for p in procs]
    finally:
        for p in procs:
            _proc.stop(p)
    assert all(p.returncode == 0 for p in procs), [e for _, e in outs]
    assert len({o.strip() for o, _ in outs}) == 1
    loaded = table_cache.load(tables.NAMES)
    assert loaded is not None and _sums(loaded) == CHECKSUMS
    assert [p.name for p in cache.iterdir()] == [os.path.basename(table_cache.cache_path())]
