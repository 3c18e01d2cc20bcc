"""Print the requirements of one of pyproject's extras, one per line, with mjfast's own extras
("mjfast[plot,pandas]") expanded: CI installs an extra's tools with `pip install -r <(...)`
without building and installing the package again (each `pip install -e ".[extra]"` rebuilds
every extension module from scratch, minutes each)."""
import re
import sys
from pathlib import Path

import tomllib

extras = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())["project"][
    "optional-dependencies"]


def expand(name: str, seen: set[str]) -> list[str]:
    if name in seen:
        return []
    seen.add(name)
    out = []
    for req in extras[name]:
        own = re.fullmatch(r"mjfast\[([\w,\s-]+)\]", req.strip())
        if own:
            for sub in own.group(1).split(","):
                out += expand(sub.strip(), seen)
        else:
            out.append(req)
    return out


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in extras:
        sys.exit(f"usage: python .ci/extra_requirements.py EXTRA (one of {', '.join(extras)})")
    print("\n".join(dict.fromkeys(expand(sys.argv[1], set()))))
