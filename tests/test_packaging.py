"""Packaging (issue 19): the sdist builds, and the wheel built from it ships what users need and
nothing else, with clean metadata, no debug info, and no warnings on the way.

One module-scoped build (slow tier: about two minutes on two cores): the source tree is copied
(without build products), an sdist is made from the copy, and a wheel is built from the unpacked
sdist, the path ``python -m build`` takes. The build uses this environment's setuptools, Cython
and numpy (``--no-build-isolation``: the ``test`` extra holds them), so no download is needed.
"""
from __future__ import annotations

import email.parser
import os
import pathlib
import re
import shutil
import struct
import subprocess
import sys
import tarfile
import zipfile

import pytest

import _proc
import mjfast

ROOT = pathlib.Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "mjfast"

pytestmark = pytest.mark.slow

_BUILD_PRODUCTS = shutil.ignore_patterns("*.so", "*.pyd", "*.c", "*.html", "*.o", "__pycache__", "*.egg-info",
                                         "_build", "generated", ".hypothesis", ".pytest_cache")


def _run(cmd, cwd, log):
    env = {k: v for k, v in os.environ.items() if not k.startswith("MJFAST_") and k not in ("CFLAGS", "LDFLAGS")}
    proc = _proc.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=1200)
    log.write_text(proc.stdout)
    assert proc.returncode == 0, f"{' '.join(map(str, cmd))} failed (log: {log}):\n{proc.stdout[-4000:]}"
    return proc.stdout


@pytest.fixture(scope="module")
def build(tmp_path_factory):
    for mod in ("setuptools", "Cython", "numpy"):
        pytest.importorskip(mod)
    if not (ROOT / "setup.py").is_file():
        pytest.skip("not a source tree")
    work = tmp_path_factory.mktemp("packaging")
    tree = work / "tree"
    tree.mkdir()
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE", "CHANGELOG.md"):
        shutil.copy2(ROOT / name, tree / name)
    for name in ("src", "tests", "docs"):
        shutil.copytree(ROOT / name, tree / name, ignore=_BUILD_PRODUCTS)
    dist = work / "dist"
    sdist_log = _run([sys.executable, "-c", f"from setuptools import build_meta as b; b.build_sdist({str(dist)!r})"],
                     tree, work / "sdist.log")
    (sdist,) = dist.glob("mjfast-*.tar.gz")
    with tarfile.open(sdist) as tar:
        sdist_names = [m.name.split("/", 1)[1] for m in tar.getmembers() if "/" in m.name and m.isfile()]
        tar.extractall(work / "unpacked", **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    (unpacked,) = (work / "unpacked").iterdir()
    wheel_log = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-v", "-w", str(dist),
                      str(unpacked)], work, work / "wheel.log")
    (wheel,) = dist.glob("mjfast-*.whl")
    return {"work": work, "sdist_names": sdist_names, "sdist_log": sdist_log, "wheel": wheel, "wheel_log": wheel_log}


def test_sdist_has_the_sources_not_the_generated_c(build):
    names = set(build["sdist_names"])
    pyx = {str(p.relative_to(ROOT)) for ext in ("*.pyx", "*.pxi", "*.pxd") for p in SRC.rglob(ext)}
    assert pyx and pyx <= names, sorted(pyx - names)            # a build from the sdist needs them
    assert not [n for n in names if n.endswith((".c", ".so", ".pyd", ".o"))]
    assert {"pyproject.toml", "setup.py", "LICENSE", "README.md", "tests/conftest.py", "docs/conf.py"} <= names


def _compiler_warnings(log):
    # gcc/clang ("file.c:12:3: warning: ...") and Cython ("warning: file.pyx:12:3: ...") diagnostics
    return [line for line in log.splitlines() if re.search(r"\.(c|h|pyx|pxd|pxi):\d+(:\d+)?: warning:|warning: \S+\.(pyx|pxd):", line)]


def test_build_without_compiler_or_deprecation_warnings(build):
    log = build["wheel_log"]
    assert re.search(r"\s-Wall\b", log) and re.search(r"\s-g0\b", log)    # the flags did reach the compiler
    assert _compiler_warnings(log) == []
    for text in (build["sdist_log"], log):
        assert "SetuptoolsDeprecationWarning" not in text
        assert not [line for line in text.splitlines() if "Deprecat" in line and "pip" not in line.lower()]


def test_wheel_files(build):
    names = zipfile.ZipFile(build["wheel"]).namelist()
    pkg = [n for n in names if not n.startswith("mjfast-")]
    assert all(n.startswith("mjfast/") for n in pkg), pkg
    # no generated C, no build leftovers
    assert not [n for n in pkg if n.endswith((".c", ".html", ".o"))]
    # no test-only modules (the pure-Python oracles, the referee, test files live in tests/)
    assert not [n for n in pkg if re.search(r"(^|/)(tests?|oracles?|conftest|test_\w+|_referee|_fuzz\w*)(/|\.py$)", n)]
    # every Python module of the package, every compiled kernel next to its .pyx, the cimport API
    py = {"mjfast/" + str(p.relative_to(SRC)) for p in SRC.rglob("*.py")}
    assert py <= set(pkg), sorted(py - set(pkg))
    for pyx in SRC.rglob("*.pyx"):
        stem = "mjfast/" + str(pyx.relative_to(SRC).with_suffix(""))
        assert stem + ".pyx" in pkg
        assert [n for n in pkg if n.startswith(stem + ".") and n.endswith((".so", ".pyd"))], stem
    assert {"mjfast/py.typed", "mjfast/__init__.pxd", "mjfast/_core.pxd", "mjfast/_core.pyi", "mjfast/_kernels/hand.pxd",
            "mjfast/_kernels/hand_types.pxd", "mjfast/_kernels/bits.h"} <= set(pkg)


def _metadata(build):
    zf = zipfile.ZipFile(build["wheel"])
    (meta,) = [n for n in zf.namelist() if n.endswith(".dist-info/METADATA")]
    return email.parser.Parser().parsestr(zf.read(meta).decode()), zf


def test_wheel_metadata(build):
    msg, zf = _metadata(build)
    assert tuple(int(x) for x in msg["Metadata-Version"].split(".")) >= (2, 4)
    assert msg["License-Expression"] == "MIT"                           # SPDX (PEP 639)
    assert msg.get_all("License-File") == ["LICENSE"]
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in zf.namelist())
    assert msg["License"] is None                                        # not the deprecated free-text field
    assert not [c for c in msg.get_all("Classifier") or [] if c.startswith("License ::")]
    urls = dict(u.split(", ", 1) for u in msg.get_all("Project-URL"))
    assert set(urls) == {"Homepage", "Documentation", "Source", "Issues"}
    ns = {}
    exec((SRC / "_version.py").read_text(), ns)
    assert msg["Version"] == ns["__version__"] == mjfast.__version__      # one source of the version
    assert msg["Name"] == "mjfast" and msg["Requires-Python"] == ">=3.10"
    (ep,) = [n for n in zf.namelist() if n.endswith(".dist-info/entry_points.txt")]
    assert "mjfast = mjfast.cli:main" in zf.read(ep).decode()


def elf_section_names(data: bytes) -> list[str] | None:
    """Section names of an ELF file (None if `data` is not ELF)."""
    if data[:4] != b"\x7fELF":
        return None
    is64, e = data[4] == 2, "<" if data[5] == 1 else ">"
    if is64:
        (shoff,) = struct.unpack_from(e + "Q", data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from(e + "HHH", data, 0x3A)
    else:
        (shoff,) = struct.unpack_from(e + "I", data, 0x20)
        shentsize, shnum, shstrndx = struct.unpack_from(e + "HHH", data, 0x2E)

    def header(i):   # (name offset, file offset, size)
        fields = struct.unpack_from(e + ("IIQQQQ" if is64 else "IIIIII"), data, shoff + i * shentsize)
        return fields[0], fields[4], fields[5]

    _, off, size = header(shstrndx)
    strtab = data[off:off + size]
    return [strtab[n:strtab.index(b"\0", n)].decode() for n, _, _ in map(header, range(shnum))]


def test_extension_modules_have_no_debug_info(build):
    zf = zipfile.ZipFile(build["wheel"])
    mods = [n for n in zf.namelist() if n.endswith((".so", ".pyd"))]
    assert mods
    for name in mods:
        sections = elf_section_names(zf.read(name))
        if sections is None:
            pytest.skip("not an ELF platform")
        assert ".text" in sections
        assert not [s for s in sections if s.startswith((".debug", ".zdebug"))], name


def test_wheel_imports_and_runs(build, tmp_path):
    site = tmp_path / "site"
    zipfile.ZipFile(build["wheel"]).extractall(site)
    code = ("import mjfast, sys; assert mjfast.__file__.startswith(sys.argv[1]), mjfast.__file__; "
            "print(mjfast.__version__, mjfast.shanten('123m456p789s1122z'), mjfast.deal(2, seed=1).hands.shape)")
    out = _proc.run([sys.executable, "-c", code, str(site)], cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(site)},
                    capture_output=True, text=True, check=True, timeout=120).stdout
    assert out.split() == [mjfast.__version__, "0", "(2,", "4,", "34)"]
