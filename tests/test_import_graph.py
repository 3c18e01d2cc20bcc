"""The import graph of the package has no cycle, and the rules stay data.

The graph is read from the source (``ast``): every ``import`` and ``from ... import`` of a
module, at module level or inside a function, resolved to the package's modules (``from . import
x`` names the submodule x when there is one). A cycle, even through a lazy import, means two
modules cannot be read (or loaded) one after the other. ``mjfast.rules`` is the bottom floor:
rule sets are values that every layer reads, so it imports nothing of the package but itself
(and the compiled ``_core`` for the kernels' form bits); the rule families' records name their
engine adapters by import path (``Family.adapter``), read on first use.
"""
from __future__ import annotations

import ast
import pathlib

SRC = pathlib.Path(__file__).resolve().parent.parent / "src"
PKG = "mjfast"


def _modules() -> dict:
    """module name -> path of every .py module of the package."""
    out = {}
    for path in (SRC / PKG).rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _is_package(path: pathlib.Path) -> bool:
    return path.name == "__init__.py"


def _compiled() -> set:
    """The compiled modules (Cython): names only, their imports are not read here."""
    return {".".join(p.relative_to(SRC).with_suffix("").parts) for p in (SRC / PKG).rglob("*.pyx")}


def graph() -> dict:
    """module -> set of the package's modules it imports (anywhere in its code). An ``import
    mjfast`` of the package face (a late lookup of the public namespace, which imports every
    layer) is not an edge, nor an import for type annotations only (``if TYPE_CHECKING:``)."""
    mods = _modules()
    edges: dict[str, set] = {m: set() for m in mods}
    known = set(mods) | _compiled()
    for name, path in mods.items():
        package = name if _is_package(path) else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If)
                       and ast.unparse(block.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")
                       for n in ast.walk(block)}
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[:len(base) - node.level + 1]
                    stem = ".".join(base + ([node.module] if node.module else []))
                else:
                    stem = node.module or ""
                targets = [f"{stem}.{a.name}" if f"{stem}.{a.name}" in known else stem for a in node.names]
            for t in targets:
                while t and t not in known:          # a name inside a module: the module
                    t = t.rpartition(".")[0]
                if t and t not in (name, PKG):
                    edges[name].add(t)
    for deps in list(edges.values()):
        for t in deps:
            edges.setdefault(t, set())
    return edges


def _cycle(edges: dict) -> list | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list | None:
        state[m] = 1
        stack.append(m)
        for n in sorted(edges[m]):
            if state.get(n) == 1:
                return stack[stack.index(n):] + [n]
            if n not in state:
                found = visit(n)
                if found:
                    return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(edges):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def test_the_import_graph_has_no_cycle():
    edges = graph()
    assert sum(len(v) for v in edges.values()) > 100          # (the graph was read)
    assert _cycle(edges) is None, " -> ".join(_cycle(edges) or [])


def test_the_cycle_check_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_the_rules_import_nothing_above_them():
    edges = graph()
    for m, deps in edges.items():
        if m == "mjfast.rules" or m.startswith("mjfast.rules."):
            above = {d for d in deps if not (d == "mjfast.rules" or d.startswith("mjfast.rules.")
                                             or d == "mjfast._core")}
            assert not above, f"{m} imports {sorted(above)}"


def test_the_family_registry_is_read_not_repeated():
    """One registry of rule families (mjfast.rules._family): no other module builds a table
    keyed by family name, and the runner, the batch driver and the environments' log reading
    do not import the family adapters to pick one."""
    edges = graph()
    for m in ("mjfast.game.runner", "mjfast.game.batch", "mjfast.env._decisions"):
        assert not {"mjfast.game.chinese", "mjfast.game.american"} & edges[m], m
    for name, path in _modules().items():
        text = path.read_text(encoding="utf-8")
        if name != "mjfast.rules._family":
            assert "m.NAME: m for m in" not in text and '{"chinese": ' not in text, name


def test_every_family_adapter_gives_its_engine_parts():
    """Each record's adapter module exports ENGINE, an EngineParts whose parts agree with the
    record (the record is the whole contract: nothing registers itself at import time)."""
    import importlib

    import mjfast

    for fam in mjfast.rules.FAMILIES.values():
        parts = importlib.import_module(fam.adapter).ENGINE
        assert isinstance(parts, mjfast.rules.EngineParts)
        assert fam.engine is parts.engine and set(fam.builtin) == set(parts.builtin)
        assert tuple(e.key for e in fam.counters.extensions) == fam.extensions
        for name in mjfast.rules.names():
            r = mjfast.rules.get(name)
            if r.family == fam.name:
                assert r.hand_model == fam.hand_model and mjfast.rules.family(r) is fam
