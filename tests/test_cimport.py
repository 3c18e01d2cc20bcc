"""Other Cython code can cimport the per-hand kernels and call them nogil: through the public
surface (``cimport mjfast``, mjfast/__init__.pxd) and through mjfast/_core.pxd, which stays."""
from __future__ import annotations

import os
import pathlib
import sys
import textwrap

import pytest

import _proc
import mjfast

PYX = textwrap.dedent(
    """
    # cython: language_level=3
    from libc.stdint cimport uint8_t
    from mjfast._core cimport mj_tables_t, mj_get_tables, mj_shanten, mj_is_winning, FORMS_DEFAULT, FORM_STANDARD

    def run(const uint8_t[::1] counts):
        cdef const mj_tables_t* t = mj_get_tables()
        cdef int s, s_std
        cdef bint w
        with nogil:
            s = mj_shanten(&counts[0], FORMS_DEFAULT, t)
            s_std = mj_shanten(&counts[0], FORM_STANDARD, t)
            w = mj_is_winning(&counts[0], FORMS_DEFAULT, t)
        return s, s_std, w
    """
)

# the same through the package's own cimport surface, both spellings
PYX_PKG = textwrap.dedent(
    """
    # cython: language_level=3
    from libc.stdint cimport uint8_t, uint32_t
    cimport mjfast
    from mjfast cimport mj_shanten_packed, FORM_THIRTEEN_ORPHANS

    def run(const uint8_t[::1] counts, const uint32_t[::1] words):
        cdef const mjfast.mj_tables_t* t = mjfast.mj_get_tables()
        cdef int s, s_std, s_packed, s_special
        cdef bint w
        with nogil:
            s = mjfast.mj_shanten(&counts[0], mjfast.FORMS_DEFAULT, t)
            s_std = mjfast.mj_shanten(&counts[0], mjfast.FORM_STANDARD, t)
            s_packed = mj_shanten_packed(&words[0], mjfast.FORMS_DEFAULT, t)
            s_special = mjfast.mj_shanten(&counts[0], FORM_THIRTEEN_ORPHANS, t)
            w = mjfast.mj_is_winning(&counts[0], mjfast.FORMS_DEFAULT, t)
        return s, s_std, s_packed, s_special, w
    """
)

SETUP = textwrap.dedent(
    """
    import numpy as np, mjfast, os
    from setuptools import setup, Extension
    from Cython.Build import cythonize
    inc = os.path.dirname(os.path.dirname(mjfast.__file__))
    setup(ext_modules=cythonize([Extension(m, [m + ".pyx"], include_dirs=[np.get_include()]) for m in ("user_ext", "user_pkg")],
                                include_path=[inc], quiet=True),
          script_args=["build_ext", "--inplace"])
    """
)


@pytest.mark.slow
def test_cimport_from_other_cython_module(tmp_path: pathlib.Path):
    (tmp_path / "user_ext.pyx").write_text(PYX)
    (tmp_path / "user_pkg.pyx").write_text(PYX_PKG)
    (tmp_path / "setup.py").write_text(SETUP)
    pkg_root = str(pathlib.Path(mjfast.__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), pkg_root, os.environ.get("PYTHONPATH", "")]))
    build = _proc.run([sys.executable, "setup.py"], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=600)
    assert build.returncode == 0, build.stderr[-3000:]
    code = (
        "import mjfast, mjfast.tiles, user_ext, user_pkg\n"
        "a, b = mjfast.parse_hand('19m19p19s1234567z'), mjfast.parse_hand('123m456p789s11222z')\n"
        "print(user_ext.run(a), user_ext.run(b))\n"
        "print(user_pkg.run(a, mjfast.tiles.pack(a)), user_pkg.run(b, mjfast.tiles.pack(b)))\n"
        "print(mjfast.shanten(a, form='thirteen_orphans'), mjfast.shanten(b, form='thirteen_orphans'))"
    )
    out = _proc.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    core, pkg, special = out.stdout.strip().splitlines()
    assert core == "(0, 8, False) (-1, -1, True)"
    # thirteen orphans tenpai; a complete standard hand; the thirteen-orphans figure checked by the Python API
    sa, sb = (int(x) for x in special.split())
    assert pkg == f"(0, 8, 0, {sa}, False) (-1, -1, -1, {sb}, True)"
