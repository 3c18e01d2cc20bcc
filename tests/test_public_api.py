"""One home per name: every public name is defined once and exported from there.

- Each name in the ``__all__`` of mjfast and of every public module (no path component starting
  with an underscore) is what its defining module defines (``obj.__module__`` for functions and
  classes), under the same name, and it is exported only along that module's own package path
  (``mjfast.game`` re-exports ``mjfast.game.runner.simulate``, ``mjfast`` re-exports both; no
  module re-exports a name of another branch, as the compatibility modules did).
- No module under src/ (nor a test, a tutorial or a benchmark) imports a deprecated path: the
  deleted compatibility modules or the deprecated aliases of mjfast/__init__.py, whose own block
  is the one place they appear (tests/test_deprecation.py pins them).
"""
from __future__ import annotations

import ast
import importlib
import inspect
import pathlib
import pkgutil
import re
import sys

import pytest

import mjfast

ROOT = pathlib.Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "mjfast"

#: modules that are gone (their names have one home each now) and the deprecated aliases
DEPRECATED_MODULES = {"mjfast.sim", "mjfast.amsim", "mjfast.odds", "mjfast.winturn", "mjfast.analysis.plot",
                      "mjfast.env.encodings"}
DEPRECATED_NAMES = {"game_rules", "american_rules", "GameRules", "am_tile_index", "am_tile_name"}
#: public modules that need an optional dependency to import
OPTIONAL = {"mjfast.env.gym": "gymnasium", "mjfast.env.aec": "pettingzoo", "mjfast.env.parallel": "pettingzoo"}


def _public_module_names() -> list[str]:
    names = ["mjfast"]
    for info in pkgutil.walk_packages(mjfast.__path__, "mjfast."):
        parts = info.name.split(".")
        if any(p.startswith("_") for p in parts[1:]):      # private modules (and __main__, which runs the CLI)
            continue
        names.append(info.name)
    return names


PUBLIC = _public_module_names()


def _import(name: str):
    if name in OPTIONAL:
        pytest.importorskip(OPTIONAL[name])
    return importlib.import_module(name)


def test_the_public_modules_are_found():
    for name in ("mjfast.hands", "mjfast.game", "mjfast.game.runner", "mjfast.plot", "mjfast.analysis.odds",
                 "mjfast.rules", "mjfast.env", "mjfast.cli", "mjfast.mcr"):
        assert name in PUBLIC
    assert not [n for n in PUBLIC if n in DEPRECATED_MODULES]


@pytest.mark.parametrize("name", [n for n in PUBLIC if n != "mjfast.cli" and not n.startswith("mjfast.cli.")])
def test_every_public_package_has_all(name):
    mod = _import(name)
    if hasattr(mod, "__path__") or name == "mjfast.plot":      # a package face, or the plot module
        assert isinstance(getattr(mod, "__all__", None), (list, tuple)), f"{name} has no __all__"


@pytest.mark.parametrize("name", PUBLIC)
def test_each_exported_name_has_one_defining_module(name):
    mod = _import(name)
    for export in getattr(mod, "__all__", ()):
        if export == "__version__":
            continue
        obj = getattr(mod, export)
        if inspect.ismodule(obj):        # a subpackage or module of this package, exported by its parent only
            assert obj.__name__ == f"{name}.{export}", f"{name}.{export} is the module {obj.__name__}"
            continue
        if not (inspect.isclass(obj) or inspect.isfunction(obj) or inspect.isbuiltin(obj)):
            continue
        home = obj.__module__
        assert obj.__name__ == export, f"{name}.{export} is an alias of {home}.{obj.__name__}"
        assert getattr(sys.modules[home], export, None) is obj, f"{home} does not define {export}"
        assert home == name or home.startswith(name + "."), (
            f"{name} exports {export}, defined in {home}: a second home (export it from {home}'s package)")


def _exports() -> dict:
    """id(object) -> (the object, the public modules whose __all__ holds it)."""
    out: dict = {}
    for name in PUBLIC:
        if name in OPTIONAL and importlib.util.find_spec(OPTIONAL[name]) is None:
            continue
        mod = importlib.import_module(name)
        for export in getattr(mod, "__all__", ()):
            obj = getattr(mod, export)
            if inspect.ismodule(obj) or isinstance(obj, (str, int, float, bool, type(None))):
                continue
            out.setdefault(id(obj), (obj, set()))[1].add(name)
    return out


def test_no_two_public_modules_outside_one_package_path_export_the_same_object():
    """Constants too (a tuple of names, a dict): exported by one module and its parent packages."""
    for obj, where in _exports().values():
        deepest = max(where, key=len)
        strays = [w for w in where if not (deepest == w or deepest.startswith(w + "."))]
        assert not strays, f"{obj!r:.60} is exported by {sorted(where)}: two homes"


def test_the_canonical_homes():
    """The homes the issue names: play_walls from mjfast (defined in mjfast.game), american_distance
    public in mjfast.hands, the American kind names in mjfast.tiles, plot a module of its own."""
    assert mjfast.play_walls is mjfast.game.play_walls and "play_walls" in mjfast.__all__
    assert "american_distance" in mjfast.hands.__all__
    assert callable(mjfast.tiles.american_kind_index) and callable(mjfast.tiles.american_kind_name)
    plot = importlib.import_module("mjfast.plot")
    assert plot.__file__.endswith("plot.py") and plot.win_by_turn.__module__ == "mjfast.plot"


# -- the source -----------------------------------------------------------------------------------

def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _absolute(module: str, is_package: bool, level: int, name: str | None) -> str:
    if level == 0:
        return name or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


SOURCES = sorted(SRC.rglob("*.py"))
MODULES = {_module_name(p): p for p in SOURCES}


def _imports(path: pathlib.Path, module: str):
    """(line, imported module, imported name or None) of every import in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield node.lineno, a.name, None
        elif isinstance(node, ast.ImportFrom):
            src = _absolute(module, path.name == "__init__.py", node.level, node.module)
            for a in node.names:
                yield node.lineno, src, a.name


def _deprecated_uses(path: pathlib.Path, module: str) -> list[str]:
    found = []
    for line, src, name in _imports(path, module):
        full = f"{src}.{name}" if name else src
        if src in DEPRECATED_MODULES or full in DEPRECATED_MODULES or name in DEPRECATED_NAMES:
            found.append(f"{path.name}:{line} imports {full}")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        word = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
        if word in DEPRECATED_NAMES:
            found.append(f"{path.name}:{node.lineno} uses {word}")
        if isinstance(node, ast.Attribute) and ast.unparse(node) in {m.replace("mjfast.", "mjfast.", 1)
                                                                     for m in DEPRECATED_MODULES}:
            found.append(f"{path.name}:{node.lineno} uses {ast.unparse(node)}")
    return found


@pytest.mark.parametrize("path", [p for p in SOURCES if p != SRC / "__init__.py"], ids=lambda p: _module_name(p))
def test_no_module_under_src_imports_a_deprecated_path(path):
    assert _deprecated_uses(path, _module_name(path)) == []


def test_the_deprecated_aliases_are_defined_in_one_block_of_the_package_face():
    text = (SRC / "__init__.py").read_text(encoding="utf-8")
    block = text[text.index("# -- deprecated aliases"):]
    for name in DEPRECATED_NAMES - {"am_tile_index", "am_tile_name"}:
        assert name in block and name not in text[: text.index("# -- deprecated aliases")].replace(
            "_DEPRECATED_CLASSES", ""), name


def test_no_test_tutorial_or_benchmark_uses_a_deprecated_path():
    here = pathlib.Path(__file__).resolve()
    allowed = {here, here.parent / "test_deprecation.py"}
    found = []
    for path in sorted((ROOT / "tests").rglob("*.py")) + sorted((ROOT / "bench").rglob("*.py")):
        if path not in allowed:
            found += _deprecated_uses(path, "tests")
    pattern = re.compile(r"\bmjfast\.(sim|amsim|odds|winturn|analysis\.plot|env\.encodings)\b|"
                         r"\b(game_rules|american_rules|GameRules|am_tile_index|am_tile_name)\b")
    for page in sorted((ROOT / "docs" / "tutorials").glob("*.md")) + sorted(p for p in (ROOT / "docs" / "api").glob("*") if p.is_file()):
        for i, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                found.append(f"{page.name}:{i}: {line.strip()}")
    assert found == []
