"""The ``mjfast-card/1`` pattern language: parse one line's pattern and expand it.

Private: :mod:`mjfast.card` calls :func:`compile_line` for every line of a card file.

Kinds are the American 36-kind model: 0-33 the standard kinds (``1m``-``9m``, ``1p``-``9p``,
``1s``-``9s``, East South West North White Green Red), 34 the flower (the 8 bonus tiles are one
kind) and 35 the joker.

A pattern is groups separated by spaces; ``|`` separates alternatives of one group. Inside a
group each maximal run of one symbol is one *set* whose size is the run length (1 single ...
6 sextet). Symbols: digits ``1``-``9`` (ranks in the group's suit), ``D`` (the dragon of the
group's suit: craks (m) red, bams (s) green, dots (p) white; without a suit letter any one
dragon), ``0`` (the white dragon, "zero", suitless), ``X``/``Y`` followed by an offset digit
(a rank variable: ``XX1`` is a pair of rank X+1), ``N E W S`` winds, ``Z`` any one wind, ``R``
and ``G`` the red and green dragons, ``F`` flowers, and ``K`` followed by an index digit
(structural: the kinds of ``K0``, ``K1`` ... are distinct and arbitrary; only the beginner hand
``KKKK0 KKKK1 KKKK2 KK3`` is supported). A trailing ``a``, ``b`` or ``c`` is the group's suit
variable; different letters are different suits.
"""
from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from typing import Any

N_CARD_KINDS = 36
FLOWER = 34
JOKER = 35
WHITE, GREEN, RED = 31, 32, 33
_WINDS = {"E": 27, "S": 28, "W": 29, "N": 30}
_FIXED = {**_WINDS, "R": RED, "G": GREEN, "0": WHITE, "F": FLOWER}
_SUIT_BASE = {"m": 0, "p": 9, "s": 18}
_SUIT_DRAGON = {"m": RED, "s": GREEN, "p": WHITE}
_SUITS = "mps"
COPIES = (4,) * 34 + (8,)
MAX_SET = 6
SET_NAMES = {1: "single", 2: "pair", 3: "pung", 4: "kong", 5: "quint", 6: "sextet"}
BEGINNER = "KKKK0 KKKK1 KKKK2 KK3"


class CardError(ValueError):
    """A card file or pattern that cannot be compiled (names the line id and the column)."""


CardError.__module__ = "mjfast.card"


@dataclasses.dataclass(frozen=True)
class Item:
    """One set of a group before expansion."""
    symbol: str          # digit, "D", "X"/"Y", "K", or an honour letter / "0" / "F" / "Z"
    value: int           # rank (digit), offset (X/Y/K), 0 otherwise
    size: int            # 1..6
    suit: str            # "a"/"b"/"c" or "" (suitless)
    column: int          # 1-based column of the set's first symbol in the pattern string


def kind_text(kind: int) -> str:
    """Short display name of a 36-model kind: ``1m`` ... ``7z``, ``f`` (any flower), ``j`` (joker)."""
    if kind == FLOWER:
        return "f"
    if kind == JOKER:
        return "j"
    return f"{kind % 9 + 1}{'mpsz'[kind // 9]}"


def _err(line_id: str, col: int | None, msg: str, alt: int | None = None) -> CardError:
    where = f"line {line_id!r}"
    if alt is not None:
        where += f", pattern {alt + 1}"
    if col is not None:
        where += f", column {col}"
    return CardError(f"{where}: {msg}")


def parse_group(text: str, start_col: int, line_id: str, alt: int | None) -> list[Item]:
    """Parse one group alternative (no spaces, no ``|``) into its sets."""
    suit = ""
    body = text
    if body and body[-1] in "abc":
        suit, body = body[-1], body[:-1]
    if not body:
        raise _err(line_id, start_col, f"group {text!r} has no tiles", alt)
    items: list[Item] = []
    i = 0
    while i < len(body):
        ch, col = body[i], start_col + i
        j = i
        while j < len(body) and body[j] == ch:
            j += 1
        run = j - i
        if ch in "XYK":
            if j >= len(body) or not body[j].isdigit():
                raise _err(line_id, col, f"{ch} needs an offset digit after it ({ch * run}0, {ch * run}1, ...)",
                           alt)
            value = int(body[j])
            if ch in "XY" and value > 8:
                raise _err(line_id, col, f"offset {value} of {ch} is larger than 8", alt)
            j += 1
            items.append(Item(ch, value, run, suit, col))
        elif ch in "123456789":
            items.append(Item("digit", int(ch), run, suit, col))
        elif ch == "D":
            items.append(Item("D", 0, run, suit, col))
        elif ch in _FIXED or ch == "Z":
            items.append(Item(ch, 0, run, "", col))
        elif ch in "abc":
            raise _err(line_id, col, f"suit letter {ch!r} must end its group", alt)
        else:
            raise _err(line_id, col, f"unknown symbol {ch!r} (expected 1-9, 0, D, X/Y + offset, "
                                     "N E W S Z R G F, a trailing a/b/c)", alt)
        if run > MAX_SET:
            raise _err(line_id, col, f"a run of {run} {ch!r} is longer than a sextet (6)", alt)
        i = j
    suited = [it for it in items if it.symbol in ("digit", "X", "Y") or (it.symbol == "D" and suit)]
    needs_suit = [it for it in items if it.symbol in ("digit", "X", "Y")]
    if needs_suit and not suit:
        raise _err(line_id, needs_suit[0].column, f"group {text!r} has ranks but no suit letter (a, b or c) "
                                                  "at its end", alt)
    if suit and not suited:
        raise _err(line_id, start_col + len(text) - 1, f"suit letter {suit!r} on a group without suited "
                                                       f"tiles ({text!r})", alt)
    return items


def parse_pattern(pattern: str, line_id: str, alt: int | None = None) -> list[list[list[Item]]]:
    """Groups of one pattern string: each group is a list of alternatives, each a list of sets."""
    if not isinstance(pattern, str):
        raise TypeError(f"line {line_id!r}: a pattern must be a str, not {type(pattern).__name__}")
    groups: list[list[list[Item]]] = []
    i, n = 0, len(pattern)
    while i < n:
        if pattern[i].isspace() or pattern[i] in "+=-":     # decorative math signs are ignored
            i += 1
            continue
        j = i
        while j < n and not pattern[j].isspace() and pattern[j] not in "+=-":
            j += 1
        token = pattern[i:j]
        alts = []
        col = i + 1
        for part in token.split("|"):
            if not part:
                raise _err(line_id, col, f"empty alternative in {token!r}", alt)
            alts.append(parse_group(part, col, line_id, alt))
            col += len(part) + 1
        groups.append(alts)
        i = j
    if not groups:
        raise _err(line_id, None, "empty pattern", alt)
    return groups


def _is_beginner(sets: Sequence[Item]) -> bool:
    shape = sorted((it.value, it.size) for it in sets)
    return shape == [(0, 4), (1, 4), (2, 4), (3, 2)]


@dataclasses.dataclass
class CompiledLine:
    """A line's concrete variations: each a sorted tuple of ``(kind, size)`` sets."""
    variations: list[tuple[tuple[int, int], ...]]
    alternative: list[int]          # which pattern string (of a list) each variation came from
    structural: bool                # the beginner hand (not expanded)


def _domain(line_id: str, var: str, offsets: set[int], given: Any) -> list[int]:
    lo, hi = 1, 9 - max(offsets)
    if given is None:
        values = list(range(lo, hi + 1))
        if not values:
            raise _err(line_id, None, f"no value of {var} keeps every {var}+offset within 1-9")
        return values
    if isinstance(given, (str, bytes)) or not isinstance(given, Sequence):
        raise CardError(f"line {line_id!r}: vars.{var} must be a list of ranks 1-9")
    values = []
    for v in given:
        if isinstance(v, bool) or not isinstance(v, int):
            raise CardError(f"line {line_id!r}: vars.{var} holds {v!r}; ranks are integers 1-9")
        if not lo <= v <= hi:
            raise CardError(f"line {line_id!r}: vars.{var} = {v} puts {var}+{max(offsets)} = {v + max(offsets)} "
                            "outside the ranks 1-9")
        if v not in values:
            values.append(v)
    if not values:
        raise CardError(f"line {line_id!r}: vars.{var} is empty (a variable needs at least one value)")
    return values


def _kinds(it: Item, suits: dict[str, str], xv: dict[str, int]) -> list[int]:
    """The kinds one set can be, given the suit letters' suits and the variables' values."""
    if it.symbol == "digit":
        return [_SUIT_BASE[suits[it.suit]] + it.value - 1]
    if it.symbol in ("X", "Y"):
        return [_SUIT_BASE[suits[it.suit]] + xv[it.symbol] + it.value - 1]
    if it.symbol == "D":
        return [_SUIT_DRAGON[suits[it.suit]]] if it.suit else [WHITE, GREEN, RED]
    if it.symbol == "Z":
        return list(_WINDS.values())
    return [_FIXED[it.symbol]]


def compile_line(line_id: str, patterns: Sequence[str], vars_: dict | None, *, all_joker_sets: bool,
                 jokers: int = 8, limit: int = 250_000) -> CompiledLine:
    """Expand a line's patterns into its distinct concrete variations (validated)."""
    if vars_ is not None and not isinstance(vars_, dict):
        raise CardError(f"line {line_id!r}: vars must be a mapping like {{X: [2, 4]}}")
    vars_ = dict(vars_ or {})
    for name in vars_:
        if name not in ("X", "Y"):
            raise CardError(f"line {line_id!r}: unknown variable {name!r} in vars (the variables are X and Y)")
    seen: dict[tuple, int] = {}
    alternative: list[int] = []
    structural = False
    used_vars: set[str] = set()
    for a, pattern in enumerate(patterns):
        alt = a if len(patterns) > 1 else None
        groups = parse_pattern(pattern, line_id, alt)
        for choice in itertools.product(*groups):
            sets = [it for g in choice for it in g]
            total = sum(it.size for it in sets)
            if total != 14:
                raise _err(line_id, None, f"{total} tiles, not 14 ({' '.join(_item_text(it) for it in sets)})", alt)
            ks = [it for it in sets if it.symbol == "K"]
            if ks:
                if len(ks) != len(sets) or not _is_beginner(ks) or len(patterns) > 1:
                    raise _err(line_id, ks[0].column, "K (structural kinds) is supported only as the whole "
                                                      f"beginner hand {BEGINNER!r}", alt)
                structural = True
                continue
            letters = sorted({it.suit for it in sets if it.suit})
            offsets: dict[str, set[int]] = {}
            for it in sets:
                if it.symbol in ("X", "Y"):
                    offsets.setdefault(it.symbol, set()).add(it.value)
            used_vars |= set(offsets)
            domains = {v: _domain(line_id, v, offs, vars_.get(v)) for v, offs in offsets.items()}
            names = sorted(domains)
            for perm in itertools.permutations(_SUITS, len(letters)):
                suits = dict(zip(letters, perm))
                for values in itertools.product(*(domains[v] for v in names)):
                    xv = dict(zip(names, values))
                    for kinds in itertools.product(*(_kinds(it, suits, xv) for it in sets)):
                        key = tuple(sorted(zip(kinds, (it.size for it in sets))))
                        if key in seen:
                            continue
                        _check_copies(line_id, key, sets, kinds, all_joker_sets, alt, jokers)
                        seen[key] = len(seen)
                        alternative.append(a)
                        if len(seen) > limit:
                            raise _err(line_id, None, f"expands to more than {limit:,} variations", alt)
    for name in vars_:
        if name not in used_vars:
            raise CardError(f"line {line_id!r}: vars.{name} is given but the pattern has no {name}")
    if structural and seen:
        raise _err(line_id, None, "mixes the structural beginner hand with other patterns")
    return CompiledLine(list(seen), alternative, structural)


def _item_text(it: Item) -> str:
    sym = {"digit": str(it.value)}.get(it.symbol, it.symbol)
    if it.symbol in ("X", "Y", "K"):
        return sym * it.size + str(it.value) + it.suit
    return sym * it.size + it.suit


def _check_copies(line_id: str, key: tuple, sets: Sequence[Item], kinds: Sequence[int], all_joker_sets: bool,
                  alt: int | None, jokers: int) -> None:
    natural: dict[int, int] = {}
    total: dict[int, int] = {}
    for k, size in key:
        natural[k] = natural.get(k, 0) + (size if size < 3 else (0 if all_joker_sets else 1))
        total[k] = total.get(k, 0) + size
    need = sum(max(0, t - COPIES[k]) for k, t in total.items())
    if need > jokers:
        k = max(total, key=lambda kk: total[kk] - COPIES[kk])
        col = next(it.column for it, kk in zip(sets, kinds) if kk == k)
        raise _err(line_id, col, f"needs {need} jokers beyond the copies of its tiles; the set has {jokers} "
                                 "(load_card(..., jokers=N) for a larger set)", alt)
    for k, n in natural.items():
        if n > COPIES[k]:
            col = next(it.column for it, kk in zip(sets, kinds) if kk == k)
            raise _err(line_id, col, f"needs {n} natural {kind_text(k)} (singles and pairs take no jokers"
                                     f"{'' if all_joker_sets else ', and each set of three or more keeps one natural tile'}"
                                     f"); there are only {COPIES[k]}", alt)


def beginner_variations() -> list[tuple[tuple[int, int], ...]]:
    """The beginner hand written out: 3 kongs + a pair of 4 distinct kinds of 35 (209,440 variations).

    Used by the tests to check the structural kernel against the generic one.
    """
    out = []
    for trio in itertools.combinations(range(35), 3):
        for p in range(35):
            if p not in trio:
                out.append(tuple(sorted([(trio[0], 4), (trio[1], 4), (trio[2], 4), (p, 2)])))
    return out
