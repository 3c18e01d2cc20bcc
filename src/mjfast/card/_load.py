"""Reading ``mjfast-card/1`` files (JSON, TOML, YAML) into a validated mapping (private)."""
from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from ._pattern import CardError, show_value

FORMAT = "mjfast-card/1"
_CARD_KEYS = {"format", "name", "jokerless_multiplier", "all_joker_sets", "lines"}
_LINE_KEYS = {"id", "section", "pattern", "points", "concealed", "vars", "jokerless_bonus"}


#: The most one line may be worth: its points, times the card's jokerless multiplier unless the
#: line is exempt. The game engine pays in C ``int``: a winner takes at most 6 x the value a hand
#: (self-drawn: each of three pays double; a discard with ``discarder_pays_double``: 2 + 1 + 1),
#: a game is at most 64 hands (``rounds`` <= 16) from at most 10**6 start points, so a score
#: stays within 10**6 + 64 * 6 * 5,000,000 = 1,921,000,000 < 2**31 - 1 = 2,147,483,647 (the
#: exact limit would be 5,589,879).
MAX_LINE_VALUE = 5_000_000
#: lists and tables nested deeper than this are reported at their place when a parser gives up
_MAX_DEPTH = 100


def _nesting_place(text: str, ext: str) -> tuple[int, int] | None:
    """(line, column) of the first ``[`` or ``{`` nested deeper than :data:`_MAX_DEPTH`, skipping
    quoted text (and comments in TOML and YAML); None if there is none."""
    depth, line, col = 0, 1, 0
    quote = ""
    comments = ext != ".json"
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        col += 1
        if ch == "\n":
            line, col = line + 1, 0
        elif quote:
            if ch == "\\" and quote == '"':
                i += 1
                col += 1
            elif ch == quote:
                quote = ""
        elif ch == '"' or (ch == "'" and comments):
            quote = ch
        elif ch == "#" and comments:
            while i + 1 < n and text[i + 1] != "\n":
                i += 1
        elif ch in "[{":
            depth += 1
            if depth > _MAX_DEPTH:
                return line, col
        elif ch in "]}":
            depth -= 1
        i += 1
    return None


def _too_deep(path: str, text: str, ext: str) -> CardError:
    place = _nesting_place(text, ext)
    where = f"{path}, line {place[0]}, column {place[1]}" if place else path
    return CardError(f"{where}: lists or tables nested too deeply to read (more than {_MAX_DEPTH} levels; a card "
                     "uses 5)")


def _yaml_load(text: str, path: str) -> Any:
    try:
        import yaml  # type: ignore[import-untyped]
    except ImportError:
        raise ImportError(f"{path}: reading YAML cards needs PyYAML: pip install 'mjfast[yaml]'") from None
    loader = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader      # libyaml's parser when PyYAML has it
    try:
        return yaml.load(text, Loader=loader)  # noqa: S506 (a safe loader)
    except yaml.YAMLError as exc:
        raise CardError(f"{path}: not valid YAML: {exc}") from None


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
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CardError(f"{path}: not valid {ext[1:].upper()}: not UTF-8 text: {exc}") from None
    try:
        if ext == ".json":
            data = json.loads(text)
        elif ext == ".toml":
            try:
                import tomllib
            except ImportError:                                   # Python 3.10
                import tomli as tomllib  # type: ignore[no-redef]
            data = tomllib.loads(text)
        else:
            data = _yaml_load(text, path)
    except RecursionError:
        raise _too_deep(path, text, ext) from None
    except CardError:
        raise
    except ValueError as exc:                                      # JSONDecodeError, TOMLDecodeError
        raise CardError(f"{path}: not valid {ext[1:].upper()}: {exc}") from None
    if not isinstance(data, dict):
        raise CardError(f"{path}: a card file holds a mapping (format, name, lines), not {type(data).__name__}")
    return data


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise CardError(f"{what} must be true or false, not {show_value(value)}")
    return value


def check_card(data: dict) -> dict:
    """Validate the card-level keys and each line's keys and types; return a normalised copy."""
    fmt = data.get("format")
    if not isinstance(fmt, str) or fmt != FORMAT:
        raise CardError(f"format must be {FORMAT!r}" + (f", not {show_value(fmt)}" if fmt is not None else " (missing)"))
    unknown = sorted(set(data) - _CARD_KEYS)
    if unknown:
        raise CardError(f"unknown card key(s) {', '.join(map(show_value, unknown))}; the keys are "
                        f"{', '.join(sorted(_CARD_KEYS))}")
    name = data.get("name", "")
    if not isinstance(name, str):
        raise CardError(f"name must be text, not {show_value(name)}")
    mult = data.get("jokerless_multiplier", 2)
    if isinstance(mult, bool) or not isinstance(mult, int) or not 1 <= mult <= MAX_LINE_VALUE:
        raise CardError(f"jokerless_multiplier must be a whole number from 1 to {MAX_LINE_VALUE:,} (a line's "
                        f"value, points x multiplier, is at most {MAX_LINE_VALUE:,}), not {show_value(mult)}")
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
            raise CardError(f"line {i + 1}: id must be non-empty text"
                            + (f", not {show_value(lid)}" if lid is not None else ""))
        if lid in ids:
            raise CardError(f"line {lid!r}: duplicate id (ids must be unique)")
        ids.add(lid)
        unknown = sorted(set(line) - _LINE_KEYS)
        if unknown:
            raise CardError(f"line {lid!r}: unknown key(s) {', '.join(map(show_value, unknown))}; a line has "
                            f"{', '.join(sorted(_LINE_KEYS))}")
        pattern = line.get("pattern")
        if isinstance(pattern, str):
            patterns = [pattern]
        elif isinstance(pattern, list) and pattern and all(isinstance(p, str) for p in pattern):
            patterns = list(pattern)
        else:
            raise CardError(f"line {lid!r}: pattern must be text or a non-empty list of texts, not {show_value(pattern)}")
        points = line.get("points")
        if isinstance(points, bool) or not isinstance(points, int) or not 1 <= points <= MAX_LINE_VALUE:
            raise CardError(f"line {lid!r}: points must be a positive whole number, at most {MAX_LINE_VALUE:,} (so that "
                            f"no payment or score of a game can overflow), not {show_value(points)}")
        bonus = _bool(line.get("jokerless_bonus", True), f"line {lid!r}: jokerless_bonus")
        if bonus and points * mult > MAX_LINE_VALUE:
            raise CardError(f"line {lid!r}: points x jokerless_multiplier = {points:,} x {mult:,} = {points * mult:,}; "
                            f"a line's value is at most {MAX_LINE_VALUE:,} (so that no payment or score of a game "
                            "can overflow; a line with jokerless_bonus = false is not multiplied)")
        section = line.get("section", "")
        if not isinstance(section, str):
            raise CardError(f"line {lid!r}: section must be text, not {show_value(section)}")
        out_lines.append({
            "id": lid, "section": section, "pattern": patterns, "points": points,
            "concealed": _bool(line.get("concealed", False), f"line {lid!r}: concealed"),
            "vars": line.get("vars"),
            "jokerless_bonus": bonus,
        })
    return {"format": FORMAT, "name": name, "jokerless_multiplier": mult, "all_joker_sets": all_joker,
            "lines": out_lines}
