"""Compile a small C program against the kernels' headers and run it (the headers' portable
paths are checked against their SIMD paths this way)."""
from __future__ import annotations

import pathlib
import shutil

import pytest

import _proc

#: the kernels' C headers
HEADER_DIR = pathlib.Path(__file__).resolve().parents[1] / "src" / "mjfast" / "_kernels"


def compiler() -> str:
    """A C compiler on PATH (the test is skipped without one)."""
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler")
    return cc


def build_and_run(program: str, tmp: pathlib.Path, name: str, flags: list[str], *, build_timeout: float,
                  run_timeout: float) -> str:
    """Compile ``program`` (C99, -O2, the headers on the include path, ``flags``) into
    ``tmp/name``, run it and return its standard output, stripped."""
    src = tmp / f"{name}.c"
    src.write_text(program)
    exe = tmp / name
    _proc.run([compiler(), "-O2", "-std=c99", *flags, f"-I{HEADER_DIR}", str(src), "-o", str(exe)],
              check=True, capture_output=True, timeout=build_timeout)
    return _proc.run([str(exe)], check=True, capture_output=True, text=True, timeout=run_timeout).stdout.strip()
