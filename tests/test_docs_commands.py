"""Every shell example of the README and the documentation pages runs.

The Python examples of the pages are doctests (tests/test_docs_cli.py, tests/test_docs_site.py)
and the tutorials run on every documentation build; this file runs the other kind: the
commands in the pages' ```bash, ```sh, ```shell and ```console blocks (a console block's
commands are its lines that start with ``$ ``). Each ``mjfast ...`` or ``python -m mjfast ...``
command runs in a subprocess (``python -m mjfast`` of the interpreter running the tests, so the
tree under test) with a bounded timeout, in a temporary directory, and must exit with status 0;
its JSON output (``--format json``, replay's JSON lines) must parse as strict JSON. Leading
``NAME=value`` words of a command (``MJFAST_PROGRESS=0 mjfast ...``) are set in its environment.

Two documented departures from the page, so that the examples run in seconds:

* **Smaller runs.** Every run-size option (``-n``, ``--games``, ``--deals``, ``--samples``,
  ``--hands``) is capped at :data:`SMALL` for what the run counts, and a Monte Carlo run that
  gives no size gets ``-n`` with that size (the subcommands' defaults are sized for real use:
  100,000 games, 10,000,000 deals). Nothing else of a command changes.
* **Files the commands need** (:data:`FILES`, such as the card file ``my-card.toml``) are
  written into the temporary directory from the page's own example of that file.

Commands that are not mjfast's (``pip install``, ``pytest``) are not run: :data:`NOT_RUN` says
why, and any other command in a page fails this test until it is runnable or listed there.
"""
from __future__ import annotations

import dataclasses
import os
import pathlib
import re
import shlex
import sys

import pytest

import _proc
import _strict_json

ROOT = pathlib.Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md")) + sorted((ROOT / "docs" / "guide").glob("*.md")) \
    + sorted((ROOT / "docs" / "tutorials").glob("*.md"))
SHELL = ("bash", "sh", "shell", "console")

#: what each sized run counts: per subcommand, or per odds-table kind
COUNTS = {"simulate": "games", "compare": "wall sets", "deal-stats": "deals", "demo": "hands"}
KIND_COUNTS = {"deal": "deals", "mcr-ready": "deals", "american-lines": "deals", "win-by-turn": "samples",
               "win-rate": "games", "mcr-fans": "games"}
#: the run size the tests use at most, per thing counted
SMALL = {"games": 60, "wall sets": 30, "deals": 20_000, "samples": 5_000, "hands": 20_000}
SIZE_OPTIONS = ("-n", "--games", "--deals", "--samples", "--hands")

#: files the commands name: written from the first block of that language on that page
FILES = {"my-card.toml": ("docs/american-cards.md", "toml"), "matches.txt": ("docs/cli.md", "none")}
#: files the commands name that a command of the pages writes (``mjfast replay --seed 1 >
#: game.jsonl``): made by the same call here (the test runs no shell redirections)
MADE = {"game.jsonl": lambda: __import__("mjfast").replay(1, 0).to_jsonl()}

#: commands of the pages that are not run here, and why
NOT_RUN = {"pip": "installs the package (the tests run against the tree under test)",
           "pytest": "runs the test suite itself",
           # docs/development.md: the repository's own tools, each minutes long
           "python": "a repository script of docs/development.md (benchmarks, the golden recorder)",
           ".ci/run": "CI itself",
           "sphinx-build": "builds the documentation site (a job of .ci/run)",
           "git": "clones the repository"}

TIMEOUT = 180        # seconds per command: a Python start, the lookup tables and a small run


@dataclasses.dataclass
class Command:
    page: str
    line: int
    argv: list          # the command as the page writes it, without "mjfast" / "python -m mjfast"
    stdout_to: str | None = None    # "> FILE"
    env: dict = dataclasses.field(default_factory=dict)     # "NAME=value mjfast ...": set for the run

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: mjfast {shlex.join(self.argv)}"


def _blocks(text: str):
    """(language, first line number, body) of each fenced block."""
    for m in re.finditer(r"^```([\w{}-]*)[^\n]*\n(.*?)^```", text, re.M | re.S):
        yield m.group(1), text.count("\n", 0, m.start(2)) + 1, m.group(2)


def _lines(lang: str, start: int, body: str):
    """(line number, command text) of a shell block: continuation lines joined, comments and
    (in a console block) output lines dropped."""
    pending, first = "", None
    for i, raw in enumerate(body.splitlines()):
        line = raw.rstrip()
        if lang == "console" and not pending:
            if not line.startswith("$ "):
                continue
            line = line[2:]
        if first is None:
            first = start + i
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        text, pending = pending + line, ""
        if text.strip():
            yield first, text
        first = None


def _segments(text: str) -> list:
    """The simple commands of a line: split at ``&&``, ``||``, ``;`` and ``|`` (the part after a
    pipe is a Unix tool reading mjfast's output, e.g. ``head``), comments removed."""
    lex = shlex.shlex(text, posix=True, punctuation_chars=True)
    lex.whitespace_split = True
    lex.commenters = "#"
    out: list[list[str]] = [[]]
    for tok in lex:
        if tok in ("&&", "||", ";", "|"):
            out.append([])
        else:
            out[-1].append(tok)
    return [s for s in out if s]


def page_commands() -> tuple[list, list]:
    """(the mjfast commands of every page, the other commands found)."""
    found, other = [], []
    for page in PAGES:
        name = str(page.relative_to(ROOT))
        for lang, start, body in _blocks(page.read_text(encoding="utf-8")):
            if lang not in SHELL:
                continue
            for line, text in _lines(lang, start, body):
                for seg in _segments(text):
                    stdout_to, env = None, {}
                    if ">" in seg:
                        k = seg.index(">")
                        seg, stdout_to = seg[:k], seg[k + 1]
                    while len(seg) > 1 and re.fullmatch(r"[A-Za-z_]\w*=\S*", seg[0]):   # NAME=value before the command
                        key, _, value = seg.pop(0).partition("=")
                        env[key] = value
                    if seg[0] == "mjfast":
                        found.append(Command(name, line, seg[1:], stdout_to, env))
                    elif seg[:3] in (["python", "-m", "mjfast"], ["python3", "-m", "mjfast"]):
                        found.append(Command(name, line, seg[3:], stdout_to, env))
                    else:
                        other.append((f"{name}:{line}", seg[0]))
    return found, other


COMMANDS, OTHER = page_commands()
#: page commands of 10 s or more even at the small sizes (exact MCR deal odds): in the slow tier
SLOW_COMMANDS = ("deal-stats --exact --rules mcr", "odds-table deal --rules classical,mcr")


def _option(argv: list, names) -> str | None:
    for i, a in enumerate(argv):
        for n in names:
            if a == n and i + 1 < len(argv):
                return argv[i + 1]
            if n.startswith("--") and a.startswith(n + "="):
                return a.split("=", 1)[1]
    return None


def counted(argv: list) -> str | None:
    """What the run counts (a key of SMALL), or None when it is not a sized Monte Carlo run."""
    if not argv:
        return None
    sub = argv[0]
    if sub == "deal-stats" and "--exact" in argv:
        return None
    if sub == "odds-table":
        kind = argv[1].replace("_", "-") if len(argv) > 1 else ""
        method = _option(argv, ("--method",))
        if (kind == "deal" and method != "monte_carlo") or (kind == "win-by-turn" and method == "exact"):
            return None
        return KIND_COUNTS.get(kind)
    return COUNTS.get(sub)


def shrink(argv: list) -> list:
    """The command with its run size capped at SMALL (documented above)."""
    what = counted(argv)
    if what is None:
        return list(argv)
    out, small, sized = list(argv), SMALL[what], False
    for i, a in enumerate(out):
        if a in SIZE_OPTIONS and i + 1 < len(out):
            out[i + 1] = str(min(int(out[i + 1].replace(",", "").replace("_", "")), small))
            sized = True
    return out if sized else out + ["-n", str(small)]


def _page_file(page: str, lang: str) -> str:
    blocks = [body for lg, _, body in _blocks((ROOT / page).read_text(encoding="utf-8")) if lg == lang]
    assert blocks, f"{page} shows no ```{lang} block"
    return blocks[0]


def test_the_pages_have_commands_and_only_known_others():
    pages = {c.page for c in COMMANDS}
    assert {"docs/cli.md", "docs/american-cards.md", "README.md", "docs/guide/simulate.md"} <= pages, pages
    assert len(COMMANDS) >= 25
    unknown = [(where, word) for where, word in OTHER if word not in NOT_RUN]
    assert unknown == [], f"commands in the pages that this test does not run: {unknown}"


def test_shrink_is_what_the_docstring_says():
    assert shrink(["simulate"]) == ["simulate", "-n", "60"]
    assert shrink(["simulate", "-n", "10000", "--seed", "1"]) == ["simulate", "-n", "60", "--seed", "1"]
    assert shrink(["deal-stats", "--exact"]) == ["deal-stats", "--exact"]
    assert shrink(["odds-table", "deal", "--rules", "mcr"]) == ["odds-table", "deal", "--rules", "mcr"]
    assert shrink(["odds-table", "american-lines", "--deals", "100000"]) == ["odds-table", "american-lines",
                                                                            "--deals", "20000"]
    assert shrink(["shanten", "123m"]) == ["shanten", "123m"]


@pytest.mark.parametrize("cmd", [pytest.param(c, marks=pytest.mark.slow) if any(x in str(c) for x in SLOW_COMMANDS) else c
                                 for c in COMMANDS], ids=str)
def test_page_command_runs(cmd, tmp_path):
    for name, (page, lang) in FILES.items():
        (tmp_path / name).write_text(_page_file(page, lang), encoding="utf-8")
    for name, make in MADE.items():
        (tmp_path / name).write_text(make(), encoding="utf-8")
    argv = shrink(cmd.argv)
    out = _proc.run([sys.executable, "-m", "mjfast", *argv], capture_output=True, timeout=TIMEOUT,
                    cwd=tmp_path, env={**_proc_env(), **cmd.env})
    stdout = out.stdout.decode("utf-8")
    assert out.returncode == 0, f"{cmd} (run as {shlex.join(argv)}) exited {out.returncode}:\n" \
                                f"{out.stderr.decode('utf-8', 'replace')[-3000:]}"
    files = [p for p in tmp_path.iterdir() if p.name not in FILES and p.name not in MADE and p.stat().st_size]   # --output, --plot
    assert stdout.strip() or files, f"{cmd} printed and wrote nothing"
    if _option(argv, ("--format",)) == "json":
        _strict_json.loads(stdout)
    elif argv and argv[0] == "replay":
        for line in stdout.splitlines():
            _strict_json.loads(line)


def _proc_env() -> dict:
    env = dict(os.environ)
    env.setdefault("OMP_NUM_THREADS", "2")      # a shared machine: no more threads than the tests' share
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def test_page_files_are_the_pages_examples(tmp_path):
    """The card of docs/american-cards.md (what the card commands read) loads, with the lines it shows."""
    from mjfast.card import load_card

    path = tmp_path / "my-card.toml"
    path.write_text(_page_file(*FILES["my-card.toml"]), encoding="utf-8")
    card = load_card(path)
    assert list(card.ids) == ["kongs-1", "evens-1", "pairs-1", "mixed-1"]
