"""Sphinx configuration of the mjfast documentation.

Build (from the repository root, with the package and the ``docs`` extra installed)::

    pip install -e ".[docs]"
    sphinx-build -W --keep-going -b html docs docs/_build/html

The tutorials in ``docs/tutorials/`` are MyST notebooks: they run on every build (myst-nb),
so a tutorial that raises fails the build. ``MJFAST_DOCS_EXECUTE=cache`` reuses the outputs of
unchanged notebooks between local builds (``off``: do not run them at all, for quick layout
work; CI always runs them).
"""
from __future__ import annotations

import importlib
import os
import pkgutil

import mjfast

project = "mjfast"
author = "the mjfast developers"
copyright = "the mjfast developers"
release = mjfast.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_nb",          # MyST Markdown pages (the reference pages) and executed MyST notebooks (tutorials)
]

templates_path = ["_templates"]
exclude_patterns = ["_build", "jupyter_execute", "**.ipynb_checkpoints", "Thumbs.db", ".DS_Store"]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb"}
root_doc = "index"

# -- API reference: autosummary stubs (generated on every build into api/generated/, not committed)
autosummary_generate = True
autosummary_imported_members = False
autosummary_ignore_module_all = False   # a module's __all__ says what its page lists


def _shared_with_top_level() -> dict[str, list[str]]:
    """Per public submodule, the members that are the very objects mjfast exports at the top
    level: its page (templates/autosummary/module-page.rst) leaves them out, they have theirs."""
    out = {}
    for info in pkgutil.iter_modules(mjfast.__path__, "mjfast."):
        if not info.name.rpartition(".")[2].startswith("_"):
            mod = importlib.import_module(info.name)
            out[info.name] = [n for n in vars(mod) if n in mjfast.__all__ and getattr(mod, n) is getattr(mjfast, n)]
    return out


autosummary_context = {"shared_with_top_level": _shared_with_top_level()}
autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "none"            # the numpydoc Parameters sections say the types
numpydoc_show_class_members = False   # the class template lists the members (autodoc :members:)
numpydoc_class_members_toctree = False
numpydoc_attributes_as_param_list = False

# -- MyST and the executed tutorials
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
nb_execution_mode = os.environ.get("MJFAST_DOCS_EXECUTE", "force")
if nb_execution_mode == "off":
    suppress_warnings = ["myst-nb.lexer"]   # cells that never ran carry no language metadata
nb_execution_timeout = 300            # seconds per cell; every tutorial runs in seconds
nb_execution_raise_on_error = True    # a tutorial that raises fails the build
nb_execution_show_tb = True           # ... and shows its traceback in the log
nb_merge_streams = True

# -- HTML: the PyData theme (numpy, pandas, scipy, scikit-learn, Dask's docs)
html_theme = "pydata_sphinx_theme"
html_title = f"mjfast {release}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
}
html_show_sourcelink = False
