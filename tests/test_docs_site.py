"""The documentation site (docs/) stays complete: every public name is in the API reference,
every page and tutorial is reachable, and the README points to it. The build itself (Sphinx,
warnings as errors, the tutorials executed) runs in .ci/run; these checks need no Sphinx."""
from __future__ import annotations

import doctest
import importlib
import pathlib
import re

import mjfast

DOCS = pathlib.Path(__file__).resolve().parents[1] / "docs"


def _autosummary_entries(text: str) -> set[str]:
    out = set()
    for block in re.findall(r"\.\. autosummary::\n((?:[ \t]+.*\n|\n)+)", text):
        out |= {line.strip() for line in block.splitlines() if line.strip() and not line.strip().startswith(":")}
    return out


def test_every_public_name_is_in_the_api_reference():
    entries = _autosummary_entries((DOCS / "api" / "index.rst").read_text())
    missing = [name for name in mjfast.__all__ if name != "__version__" and name not in entries]
    assert missing == [], f"add them to docs/api/index.rst: {missing}"
    for name in entries - set(mjfast.__all__):     # beyond the exports: public submodules (mjfast.stats)
        assert not name.startswith("_") and importlib.import_module(f"mjfast.{name}"), name


def test_every_tutorial_is_in_the_tutorials_toctree():
    index = (DOCS / "tutorials" / "index.md").read_text()
    (toctree,) = re.findall(r"```\{toctree\}\n(.*?)```", index, re.S)
    listed = {line.strip() for line in toctree.splitlines() if line.strip() and not line.startswith(":")}
    pages = {p.stem for p in (DOCS / "tutorials").glob("*.md") if p.stem != "index"}
    assert pages == listed


def test_tutorials_are_executed_notebooks_with_small_runs():
    for page in (DOCS / "tutorials").glob("*.md"):
        if page.stem == "index":
            continue
        text = page.read_text()
        assert text.startswith("---\nfile_format: mystnb\n"), page.name      # myst-nb runs it on every build
        assert "{code-cell} ipython3" in text, page.name
        # no progress bars in the pages: every call that could draw one says progress=False
        for call in re.findall(r"mjfast\.(?:simulate|compare|deal_stats|odds_table|win_by_turn)\((?:[^()]|\([^()]*\))*\)",
                               text):
            if "monte_carlo" in call or any(k in call for k in ("simulate", "compare", "deal_stats", "win_rate", "samples",
                                                                 "deals")):
                assert "progress=False" in call, (page.name, call)


def test_reference_pages_are_in_a_toctree():
    index = (DOCS / "index.md").read_text()
    for page in ("rules", "environments", "mcr", "cli", "american-cards", "development", "api/index",
                 "tutorials/index", "guide/index"):
        assert re.search(rf"^(\S.* <)?{re.escape(page)}>?$", index, re.M), page


def test_every_guide_page_is_in_the_guide_toctree():
    index = (DOCS / "guide" / "index.md").read_text()
    (toctree,) = re.findall(r"```\{toctree\}\n(.*?)```", index, re.S)
    listed = {line.strip() for line in toctree.splitlines() if line.strip() and not line.startswith(":")}
    pages = {p.stem for p in (DOCS / "guide").glob("*.md") if p.stem != "index"}
    assert pages == listed
    for page in pages:                                  # and the guide's landing page links each
        assert f"]({page}.md)" in index, page


def test_readme_links_to_the_documentation():
    readme = (DOCS.parent / "README.md").read_text()
    assert "](docs/index.md)" in readme
    first_block = re.search(r"```bash\n(.*?)```", readme, re.S).group(1)
    assert first_block.strip().splitlines() == ["pip install . && mjfast simulate",      # .ci/run runs the second
                                                'pip install -e ".[test]" && pytest']
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", readme):
        assert (DOCS.parent / target).exists(), f"README.md links to {target}, which does not exist"


def test_front_pages_stay_short():
    """The README is a front page (the guide is in docs/guide/), the benchmarks' README says how
    to run them and the headline figures (the rest is in bench/RESULTS.md)."""
    assert len((DOCS.parent / "README.md").read_text(encoding="utf-8").splitlines()) <= 200
    assert len((DOCS.parent / "bench" / "README.md").read_text(encoding="utf-8").splitlines()) <= 120


def test_landing_page_example():
    res = doctest.testfile(str(DOCS / "index.md"), module_relative=False)
    assert res.failed == 0 and res.attempted >= 3


def _pages() -> list:
    return sorted(DOCS.glob("*.md")) + sorted(DOCS.glob("*/*.md")) + sorted(DOCS.glob("*/*.rst"))


def test_the_command_line_page_covers_every_subcommand():
    """docs/cli.md has a section per subcommand (its purpose and an example; the examples run in
    tests/test_docs_commands.py), and the landing page links it."""
    import argparse

    from mjfast import cli

    page = (DOCS / "cli.md").read_text(encoding="utf-8")
    parser = cli.build_parser()
    subs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    for name in subs:
        m = re.search(rf"^### `mjfast {re.escape(name)}`: [^\n]+\n(.*?)(?=^#)", page + "\n#", re.M | re.S)
        assert m, f"docs/cli.md has no section for mjfast {name}"
        assert re.search(rf"```bash\n(?:.*\n)*?mjfast {re.escape(name)}\b", m.group(1)), f"no example of mjfast {name}"
    assert "](cli.md)" in (DOCS / "index.md").read_text(encoding="utf-8")


#: what a reader of the documentation site cannot follow: files of the source repository (the
#: site documents the installed package), placeholder addresses, machine paths, and the
#: project's internal words (issue numbers, "the ... issue")
DEAD = {
    "a benchmark or test file of the repository": r"\b(?:bench|tests)/[\w./-]*",
    "a source path": r"\bsrc/mjfast\b",
    "a placeholder address": r"\.invalid\b",
    "a path of one machine": r"(?<![\w.])/(?:work|home|root|Users|tmp)/",
    "an internal word": r"\bissue\b|#\d{2,}\b",
}


#: pages about the repository rather than the installed package: they may name its files
REPOSITORY_PAGES = {"development.md"}


def test_the_pages_have_no_dead_links_or_internal_words():
    found = []
    for page in _pages():
        text = page.read_text(encoding="utf-8")
        for what, pattern in DEAD.items():
            if page.name in REPOSITORY_PAGES and what in ("a benchmark or test file of the repository", "a source path"):
                continue
            for m in re.finditer(pattern, text, re.I):
                found.append(f"{page.relative_to(DOCS)}:{text.count(chr(10), 0, m.start()) + 1}: {what}: {m.group(0)!r}")
    assert found == [], "\n".join(found)


def test_relative_links_of_the_pages_resolve():
    for page in _pages():
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            assert (page.parent / target).exists(), f"{page.relative_to(DOCS)} links to {target}, which does not exist"


def test_no_page_says_fans_are_not_scored():
    """Chinese Official fans are scored in play, the environments and the analysis (they were not
    in early versions, and some pages said so)."""
    stale = re.compile(r"fan scoring is not modelled|not score fans?\b|does not score fan|8-fan minimum is not applied",
                       re.I)
    for page in _pages() + [DOCS.parent / "README.md"]:
        assert not stale.search(page.read_text(encoding="utf-8")), page.name


def test_test_files_name_repository_paths():
    """The oracle and the peer cases' notes name files relative to the repository, not the paths
    of the machine they were written on."""
    for f in (DOCS.parent / "tests" / "oracles" / "mcr_fan.py", DOCS.parent / "tests" / "data" / "peer_cases" / "README.md"):
        text = f.read_text(encoding="utf-8")
        assert not re.search(DEAD["a path of one machine"], text), f
