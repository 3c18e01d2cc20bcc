"""Build the Cython extensions; OpenMP when the compiler supports it, serial otherwise.

Everything else (metadata, dependencies) lives in pyproject.toml.
Compiler flags (gcc/clang): -O3 -Wall and -g0 (no debug info in the extension modules; it
comes after the interpreter's own -g, so it wins). The build is free of warnings at -Wall: keep
it so (a warning in generated code that is not ours gets a targeted flag and a comment here).
Environment switches:
  MJFAST_NO_OPENMP=1     build without OpenMP even if the compiler supports it
  MJFAST_CYTHON_DEBUG=1  turn bounds/wraparound checks back on, and keep debug info (no -g0)
  MJFAST_NATIVE=1        add -march=native (not portable; for local benchmarking only)
"""
import os
import sys
import tempfile
import textwrap
import warnings

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# (module, source): the required hand-kernel module at its place, the rest under _kernels/
MODULES = [("mjfast._core", "src/mjfast/_core.pyx")] + [
    (f"mjfast._kernels.{name}", f"src/mjfast/_kernels/{name}.pyx")
    for name in ("tablegen", "hand_tables", "deal", "engine", "chinese_game", "american_batch", "winturn", "american_game",
                 "chinese_env", "american_env", "mcr_fan", "card", "exact_pairs", "onehand",
                 "worlds", "botzone_text")
]

_OMP_TEST = textwrap.dedent(
    """
    #include <omp.h>
    int main(void) {
        int n = 0;
        #pragma omp parallel reduction(+:n)
        n += 1;
        return omp_get_max_threads() > 0 && n > 0 ? 0 : 1;
    }
    """
)


def _omp_flags(compiler):
    """Return (compile_args, link_args) for OpenMP, or None if a test program fails to compile and link."""
    if os.environ.get("MJFAST_NO_OPENMP"):
        return None
    if compiler.compiler_type == "msvc":
        candidates = [(["/openmp"], [])]
    elif sys.platform == "darwin":
        candidates = [(["-Xpreprocessor", "-fopenmp"], ["-lomp"]), (["-fopenmp"], ["-fopenmp"])]
    else:
        candidates = [(["-fopenmp"], ["-fopenmp"])]
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "omp_test.c")
        with open(src, "w") as f:
            f.write(_OMP_TEST)
        for cflags, lflags in candidates:
            try:
                objs = compiler.compile([src], output_dir=tmp, extra_postargs=cflags)
                compiler.link_executable(objs, "omp_test", output_dir=tmp, extra_postargs=lflags)
            except Exception:  # noqa: BLE001 - any compiler/linker failure means "no OpenMP"
                continue
            return cflags, lflags
    return None


def _flag_ok(compiler, flag):
    """Whether the compiler takes `flag` without a diagnostic (an unknown warning option is an
    error under -Werror for gcc and clang alike)."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "flag_test.c")
        with open(src, "w") as f:
            f.write("int main(void) { return 0; }\n")
        try:
            compiler.compile([src], output_dir=tmp, extra_postargs=["-Werror", flag])
        except Exception:  # noqa: BLE001 - any failure means "not this flag"
            return False
    return True


def _cflags(compiler, openmp):
    """Optimisation, warning and debug-info flags for this compiler."""
    if compiler.compiler_type == "msvc":
        return ["/O2"]                  # MSVC writes no debug info without /Zi
    flags = ["-O3", "-Wall"]
    if not debug:
        flags.append("-g0")             # after the interpreter's CFLAGS (-g on most builds of CPython)
    if not openmp and _flag_ok(compiler, "-Wno-unused-but-set-variable"):
        # Cython's prange code stores the chunksize in a temporary that only the `#pragma omp`
        # line reads: without OpenMP that pragma is compiled out and gcc/clang -Wall flag the
        # temporary (generated code, not ours; the OpenMP build needs no flag)
        flags.append("-Wno-unused-but-set-variable")
    if os.environ.get("MJFAST_NATIVE"):
        flags.append("-march=native")
    return flags


class BuildExt(build_ext):
    def build_extensions(self):
        flags = _omp_flags(self.compiler)
        if flags is None:
            warnings.warn(
                "mjfast: OpenMP not available (or MJFAST_NO_OPENMP set); building serial kernels. "
                "mjfast.show_config() will report openmp=False."
            )
        cflags = _cflags(self.compiler, openmp=flags is not None)
        for ext in self.extensions:
            ext.extra_compile_args += cflags
            if flags is not None:
                ext.extra_compile_args += flags[0]
                ext.extra_link_args += flags[1]
            ext.define_macros.append(("MJFAST_HAVE_OPENMP", "1" if flags else "0"))
        super().build_extensions()


debug = bool(os.environ.get("MJFAST_CYTHON_DEBUG"))
directives = {
    "language_level": 3,
    "boundscheck": debug,
    "wraparound": debug,
    "initializedcheck": debug,
    "cdivision": True,
    "embedsignature": True,
}
extensions = [
    Extension(
        name,
        [source],
        include_dirs=[np.get_include(), "src/mjfast/_kernels"],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=[],          # BuildExt adds the flags of the compiler in use
        extra_link_args=[],
    )
    for name, source in MODULES
]

setup(
    ext_modules=cythonize(extensions, compiler_directives=directives, include_path=["src"]),
    cmdclass={"build_ext": BuildExt},
)
