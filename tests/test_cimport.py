"""Other Cython code can cimport the per-hand kernels from mjfast/_core.pxd and call them nogil."""
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

SETUP = textwrap.dedent(
    """
    import numpy as np, mjfast, os
    from setuptools import setup, Extension
    from Cython.Build import cythonize
    inc = os.path.dirname(os.path.dirname(mjfast.__file__))
    setup(ext_modules=cythonize([Extension("user_ext", ["user_ext.pyx"], include_dirs=[np.get_include()])],
                                include_path=[inc], quiet=True),
          script_args=["build_ext", "--inplace"])
    """
)


@pytest.mark.slow
def test_cimport_from_other_cython_module(tmp_path: pathlib.Path):
    (tmp_path / "user_ext.pyx").write_text(PYX)
    (tmp_path / "setup.py").write_text(SETUP)
    pkg_root = str(pathlib.Path(mjfast.__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), pkg_root, os.environ.get("PYTHONPATH", "")]))
    build = _proc.run([sys.executable, "setup.py"], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=600)
    assert build.returncode == 0, build.stderr[-3000:]
    code = (
        "import mjfast, user_ext\n"
        "print(user_ext.run(mjfast.parse_hand('19m19p19s1234567z')), user_ext.run(mjfast.parse_hand('123m456p789s11222z')))"
    )
    out = _proc.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "(0, 8, False) (-1, -1, True)"
