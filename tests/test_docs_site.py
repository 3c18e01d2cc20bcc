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
            if "monte_carlo" in call or any(k in call for k in ("simulate", "compare", "deal_stats", "win_rate", "samples")):
                assert "progress=False" in call, (page.name, call)


def test_reference_pages_are_in_a_toctree():
    index = (DOCS / "index.md").read_text()
    for page in ("rules", "environments", "mcr", "api/index", "tutorials/index"):
        assert re.search(rf"^(\S.* <)?{re.escape(page)}>?$", index, re.M), page


def test_readme_links_to_the_documentation():
    readme = (DOCS.parent / "README.md").read_text()
    assert "](docs/index.md)" in readme
    first_block = re.search(r"```bash\n(.*?)```", readme, re.S).group(1)
    assert len(first_block.strip().splitlines()) == 2          # the README's front page stays two commands


def test_landing_page_example():
    res = doctest.testfile(str(DOCS / "index.md"), module_relative=False)
    assert res.failed == 0 and res.attempted >= 3
