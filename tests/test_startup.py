"""Start-up: ``import mjfast`` imports its names on first use, and a fresh
process reads the lookup tables from the on-disk cache instead of building them."""
from __future__ import annotations

import os
import subprocess
import sys

import _proc
import mjfast


def _run(code: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return _proc.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)


def test_import_mjfast_imports_no_submodule_until_used():
    out = _run("import sys, mjfast\n"
               "print(sorted(m for m in sys.modules if m.startswith('mjfast')))\n"
               "print('numpy' in sys.modules)\n"
               "mjfast.shanten('123m456p789s1122z')\n"
               "print('mjfast.game' in sys.modules, 'mjfast.hands' in sys.modules)\n")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "['mjfast', 'mjfast._version']"
    assert lines[1] == "False"
    assert lines[2] == "False True"


def test_every_public_name_resolves_and_star_import_works():
    out = _run("import mjfast\n"
               "ns = {}\n"
               "exec('from mjfast import *', ns)\n"
               "missing = [n for n in mjfast.__all__ if n not in ns]\n"
               "print(missing, all(n in dir(mjfast) for n in mjfast.__all__))\n")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[] True"
    for name in mjfast.__all__:
        assert getattr(mjfast, name) is not None
    assert mjfast.shanten is mjfast.hands.shanten and mjfast.Meld is mjfast.tiles.Meld


def test_unknown_attribute_is_an_attribute_error():
    import pytest

    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        mjfast.nope  # noqa: B018


def test_card_option_imports_the_card_module_itself(tmp_path):
    """The rule sets relied on the package importing mjfast.card: a card given by path to a
    fresh process's rules works without importing mjfast.card first."""
    import json

    path = tmp_path / "card.json"
    path.write_text(json.dumps(mjfast.card.toy_card().to_dict()))
    out = _run(f"from mjfast import rules\nr = rules.get('american', card={str(path)!r})\nprint(type(r.card).__name__)")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "Card"


def test_a_fresh_process_reads_the_tables_from_the_cache(tmp_path):
    env = dict(os.environ, MJFAST_TABLE_CACHE=str(tmp_path))
    code = ("import time, mjfast\n"
            "from mjfast._kernels import tables, table_cache\n"
            "t = time.perf_counter(); tables.get_tables(); dt = time.perf_counter() - t\n"
            "print(table_cache.load(tables.NAMES) is not None, mjfast.shanten('123m456p789s1122z'))\n")
    first = _run(code, env)
    assert first.returncode == 0, first.stderr
    files = list(tmp_path.iterdir())
    assert len(files) == 1 and first.stdout.split() == ["True", "0"]
    stamp = files[0].stat().st_mtime_ns
    second = _run(code, env)
    assert second.returncode == 0 and second.stdout == first.stdout
    assert files[0].stat().st_mtime_ns == stamp          # read, not written again
