"""Reading ``mjfast-card/1`` files (JSON, TOML, YAML) into a validated mapping (private)."""
from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from ._pattern import CardError

FORMAT = "mjfast-card/1"
_CARD_KEYS = {"format", "name", "jokerless_multiplier", "all_joker_sets", "lines"}
_LINE_KEYS = {"id", "section", "pattern", "points", "concealed", "vars", "jokerless_bonus"}


def read(source: Any) -> dict:
    """The card mapping from a path (by suffix: .json, .toml, .yaml/.yml) or a mapping."""
    if isinstance(source, Mapping):
        return dict(source)
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"load_card takes a file path or a mapping, not {type(source).__name__}")
    path = os.fspath(source)
    ext = os.path.splitext(path)[1].lower()
    if ext not in (".json", ".toml", ".yaml", ".yml"):
        raise ValueError(f"{path}: a card file must end in .json, .toml, .yaml or .yml")
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except FileNotFoundError:
        raise FileNotFoundError(f"card file not found: {path}") from None
    try:
        if ext == ".json":
            data = json.loads(raw.decode("utf-8"))
        elif ext == ".toml":
            try:
                import tomllib
            except ImportError:                                   # Python 3.10
                import tomli as tomllib  # type: ignore[no-redef]
            data = tomllib.loads(raw.decode("utf-8"))
        else:
            try:
                import yaml  # type: ignore[import-untyped]
            except ImportError:
                raise ImportError(f"{path}: reading YAML cards needs PyYAML: pip install 'mjfast[yaml]'") from None
            data = yaml.safe_load(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:                # JSONDecodeError, TOMLDecodeError
        raise CardError(f"{path}: not valid {ext[1:].upper()}: {exc}") from None
    except Exception as exc:                                       # yaml.YAMLError
        if type(exc).__module__.startswith("yaml"):
            raise CardError(f"{path}: not valid YAML: {exc}") from None
        raise
    if not isinstance(data, dict):
        raise CardError(f"{path}: a card file holds a mapping (format, name, lines), not {type(data).__name__}")
    return data


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise CardError(f"{what} must be true or false, not {value!r}")
    return value


def check_card(data: dict) -> dict:
    """Validate the card-level keys and each line's keys and types; return a normalised copy."""
    fmt = data.get("format")
    if not isinstance(fmt, str) or fmt != FORMAT:
        raise CardError(f"format must be {FORMAT!r}" + (f", not {fmt!r}" if fmt is not None else " (missing)"))
    unknown = sorted(set(data) - _CARD_KEYS)
    if unknown:
        raise CardError(f"unknown card key(s) {', '.join(map(repr, unknown))}; the keys are "
                        f"{', '.join(sorted(_CARD_KEYS))}")
    name = data.get("name", "")
    if not isinstance(name, str):
        raise CardError(f"name must be text, not {name!r}")
    mult = data.get("jokerless_multiplier", 2)
    if isinstance(mult, bool) or not isinstance(mult, int) or mult < 1:
        raise CardError(f"jokerless_multiplier must be a whole number of at least 1, not {mult!r}")
    all_joker = _bool(data.get("all_joker_sets", True), "all_joker_sets")
    lines = data.get("lines")
    if not isinstance(lines, list) or not lines:
        raise CardError("lines must be a non-empty list of lines")
    out_lines = []
    ids: set[str] = set()
    for i, line in enumerate(lines):
        if not isinstance(line, dict):
            raise CardError(f"line {i + 1} must be a mapping (id, pattern, points, ...), not {type(line).__name__}")
        lid = line.get("id")
        if not isinstance(lid, str) or not lid:
            raise CardError(f"line {i + 1}: id must be non-empty text" + (f", not {lid!r}" if lid is not None else ""))
        if lid in ids:
            raise CardError(f"line {lid!r}: duplicate id (ids must be unique)")
        ids.add(lid)
        unknown = sorted(set(line) - _LINE_KEYS)
        if unknown:
            raise CardError(f"line {lid!r}: unknown key(s) {', '.join(map(repr, unknown))}; a line has "
                            f"{', '.join(sorted(_LINE_KEYS))}")
        pattern = line.get("pattern")
        if isinstance(pattern, str):
            patterns = [pattern]
        elif isinstance(pattern, list) and pattern and all(isinstance(p, str) for p in pattern):
            patterns = list(pattern)
        else:
            raise CardError(f"line {lid!r}: pattern must be text or a non-empty list of texts, not {pattern!r}")
        points = line.get("points")
        if isinstance(points, bool) or not isinstance(points, int) or points <= 0:
            raise CardError(f"line {lid!r}: points must be a positive whole number, not {points!r}")
        section = line.get("section", "")
        if not isinstance(section, str):
            raise CardError(f"line {lid!r}: section must be text, not {section!r}")
        out_lines.append({
            "id": lid, "section": section, "pattern": patterns, "points": points,
            "concealed": _bool(line.get("concealed", False), f"line {lid!r}: concealed"),
            "vars": line.get("vars"),
            "jokerless_bonus": _bool(line.get("jokerless_bonus", True), f"line {lid!r}: jokerless_bonus"),
        })
    return {"format": FORMAT, "name": name, "jokerless_multiplier": mult, "all_joker_sets": all_joker,
            "lines": out_lines}
