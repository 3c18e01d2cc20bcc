"""The --help text of ``mjfast`` and of every subcommand, compared with the text recorded in
tests/golden/cli_help.json: a refactor of the command line keeps its help word for word.

argparse's wording changes between Python versions, so the record holds one text per Python
minor version; a version with no record is skipped. A change to the help on purpose
re-records it: ``python tests/cli/test_cli_help.py --write`` (with ``PYTHONPATH=src``), and the
diff shows what changed.
"""
from __future__ import annotations

import json
import os
import sys

import pytest

from mjfast import cli

RECORD = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "golden", "cli_help.json")
#: the terminal width the texts are wrapped at (argparse reads COLUMNS)
COLUMNS = "100"
PYTHON = f"{sys.version_info.major}.{sys.version_info.minor}"


def _subparsers(parser) -> dict:
    (action,) = [a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"]
    return dict(action.choices)


def help_texts() -> dict[str, str]:
    """``{"mjfast": top-level help, "mjfast SUBCOMMAND": its help}``, wrapped at COLUMNS."""
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = COLUMNS
    try:
        top = cli.build_parser()
        texts = {"mjfast": top.format_help()}
        for name, sub in _subparsers(top).items():
            texts[f"mjfast {name}"] = sub.format_help()
        return texts
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old


def _record() -> dict:
    with open(RECORD, encoding="utf-8") as f:
        return json.load(f)


def test_every_help_text_is_as_recorded():
    recorded = _record().get(PYTHON)
    if recorded is None:
        pytest.skip(f"no --help texts recorded for Python {PYTHON} (python tests/cli/test_cli_help.py --write)")
    texts = help_texts()
    assert sorted(texts) == sorted(recorded), "the subcommands differ from the recorded ones"
    for name, text in texts.items():
        assert text == recorded[name], f"{name} --help differs from tests/golden/cli_help.json"


def test_the_record_covers_this_python_or_says_so():
    # the record is a JSON object of Python versions, each with the top-level help and one per subcommand
    record = _record()
    assert record and all(isinstance(v, dict) and "mjfast" in v for v in record.values())
    for texts in record.values():
        assert "mjfast simulate" in texts and "mjfast fan" in texts


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: PYTHONPATH=src python tests/cli/test_cli_help.py --write")
    data = _record() if os.path.exists(RECORD) else {}
    data[PYTHON] = help_texts()
    with open(RECORD, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, ensure_ascii=False, sort_keys=True)
        f.write("\n")
    print(f"recorded {len(data[PYTHON])} help texts for Python {PYTHON} in {RECORD}")
