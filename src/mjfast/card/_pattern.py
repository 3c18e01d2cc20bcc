"""The ``mjfast-card/1`` pattern language: parse one line's pattern and expand it.

Private: :mod:`mjfast.card` calls :func:`parse_line` for every line of a card file, checks the card's
cost bound (:func:`check_card_choices`), then :func:`expand_line`.

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
import reprlib
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
_DIGITS = "0123456789"
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


_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = 60
_REPR.maxlevel = 3


def show_value(value: Any) -> str:
    """A user's value for an error message: repr, shortened (long text, deep or long lists)."""
    return _REPR.repr(value)


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
            if j >= len(body) or body[j] not in _DIGITS:      # ASCII only: str.isdigit() takes '²' and '١'
                raise _err(line_id, col, f"{ch} needs an offset digit 0-9 after it ({ch * run}0, {ch * run}1, ...)"
                           + (f", not {body[j]!r}" if j < len(body) else ""), alt)
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


def _given_values(line_id: str, var: str, given: Any) -> list[int]:
    """A variable's domain as given in ``vars`` (ranks 1-9, duplicates dropped, in order)."""
    if isinstance(given, (str, bytes)) or not isinstance(given, Sequence):
        raise CardError(f"line {line_id!r}: vars.{var} must be a list of ranks 1-9")
    values: list[int] = []
    for v in given:
        if isinstance(v, bool) or not isinstance(v, int):
            raise CardError(f"line {line_id!r}: vars.{var} holds {show_value(v)}; ranks are integers 1-9")
        if not 1 <= v <= 9:
            raise CardError(f"line {line_id!r}: vars.{var} = {v} is not a rank 1-9")
        if v not in values:
            values.append(v)
    if not values:
        raise CardError(f"line {line_id!r}: vars.{var} is empty (a variable needs at least one value)")
    return values


def _domain(line_id: str, var: str, offsets: set[int], given: list[int] | None) -> list[int]:
    """The values of ``var`` in one choice of alternatives: every X+offset stays within 1-9."""
    hi = 9 - max(offsets)
    if given is None:
        return list(range(1, hi + 1))            # offsets are 0-8 (parse_group), so never empty
    for v in given:
        if v > hi:
            raise CardError(f"line {line_id!r}: vars.{var} = {v} puts {var}+{max(offsets)} = {v + max(offsets)} "
                            "outside the ranks 1-9")
    return given


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


#: Bounds on compiling: the combinations a line's patterns enumerate (choices of alternatives x
#: suit assignments x variable values x any-dragon / any-wind kinds) before duplicates are removed,
#: per line and over the whole card, counted before anything is expanded. A published card's line
#: takes a few hundred; at the card's bound compiling takes seconds and the tables (about 0.7 kB
#: per variation) stay below about 400 MB.
MAX_LINE_CHOICES = 250_000
MAX_CARD_CHOICES = 500_000


#: one shared ``(kind, size)`` tuple per pair: a card's variations hold references, not copies
_PAIR = [[(k, size) for size in range(MAX_SET + 1)] for k in range(N_CARD_KINDS)]


def _signature(alt: Sequence[Item]) -> tuple:
    return tuple((it.symbol, it.value, it.size, it.suit) for it in alt)


def _distinct(alts: list[list[Item]]) -> list[list[Item]]:
    """A group's alternatives without repeats (the first of identical alternatives is kept)."""
    seen: set[tuple] = set()
    out = []
    for alt in alts:
        sig = _signature(alt)
        if sig not in seen:
            seen.add(sig)
            out.append(alt)
    return out


def _check_sizes(line_id: str, groups: list[list[list[Item]]], alt: int | None) -> None:
    """Every choice of alternatives must hold 14 tiles; else name the first choice (in the order
    the alternatives are written) that does not."""
    sizes = [[sum(it.size for it in a) for a in g] for g in groups]
    pick = [0] * len(groups)
    if sum(s[0] for s in sizes) == 14:
        differ = [gi for gi, s in enumerate(sizes) if any(x != s[0] for x in s)]
        if not differ:
            return
        gi = differ[-1]
        pick[gi] = next(i for i, x in enumerate(sizes[gi]) if x != sizes[gi][0])
    sets = [it for g, i in zip(groups, pick) for it in g[i]]
    total = sum(it.size for it in sets)
    raise _err(line_id, None, f"{total} tiles, not 14 ({' '.join(_item_text(it) for it in sets)})", alt)


def _count_choices(groups: list[list[list[Item]]], given: dict[str, list[int]]) -> int:
    """How many combinations :func:`compile_line` enumerates for one pattern (before duplicates
    are removed), without enumerating them: a sum over the choices of alternatives, grouped by
    the suit letters and the largest X / Y offsets they use."""
    states: dict[tuple[frozenset, int, int], int] = {(frozenset(), -1, -1): 1}
    for group in groups:
        nxt: dict[tuple[frozenset, int, int], int] = {}
        for a in group:
            letters = frozenset(it.suit for it in a if it.suit)
            mx = max((it.value for it in a if it.symbol == "X"), default=-1)
            my = max((it.value for it in a if it.symbol == "Y"), default=-1)
            ways = 1
            for it in a:
                ways *= 3 if it.symbol == "D" and not it.suit else 4 if it.symbol == "Z" else 1
            for (lt, sx, sy), w in states.items():
                key = (lt | letters, max(sx, mx), max(sy, my))
                nxt[key] = nxt.get(key, 0) + w * ways
        states = nxt
    total = 0
    for (lt, mx, my), w in states.items():
        perms = (1, 3, 6, 6)[len(lt)]                      # ordered choices of len(lt) of the 3 suits
        for var, m in (("X", mx), ("Y", my)):
            if m >= 0:
                w *= len(given[var]) if var in given else 9 - m
        total += w * perms
    return total


@dataclasses.dataclass
class ParsedLine:
    """A line's patterns parsed and checked, with the combinations expanding it will enumerate."""
    line_id: str
    patterns: list[tuple[int, int | None, list[list[list[Item]]]]]   # (index, alt for errors, groups)
    vars: dict[str, Any]
    given: dict[str, list[int]]
    structural: bool
    choices: int


def parse_line(line_id: str, patterns: Sequence[str], vars_: dict | None) -> ParsedLine:
    """Parse and check a line's patterns and count its combinations (choices of alternatives x
    suit assignments x variable values x any-dragon / any-wind kinds), refused above
    :data:`MAX_LINE_CHOICES`. Identical alternatives of a group count once."""
    if vars_ is not None and not isinstance(vars_, dict):
        raise CardError(f"line {line_id!r}: vars must be a mapping like {{X: [2, 4]}}")
    vars_ = dict(vars_ or {})
    for name in vars_:
        if name not in ("X", "Y"):
            raise CardError(f"line {line_id!r}: unknown variable {show_value(name)} in vars (the variables are X and Y)")
    given = {name: _given_values(line_id, name, v) for name, v in vars_.items()}
    structural = False
    parsed = []
    choices = 0
    for a, pattern in enumerate(patterns):
        alt = a if len(patterns) > 1 else None
        groups = [_distinct(g) for g in parse_pattern(pattern, line_id, alt)]
        _check_sizes(line_id, groups, alt)
        ks = [it for g in groups for a_ in g for it in a_ if it.symbol == "K"]
        if ks:
            sets = [it for g in groups for it in g[0]]
            if (len(ks) != len(sets) or any(len(g) > 1 for g in groups) or not _is_beginner(sets)
                    or len(patterns) > 1):
                raise _err(line_id, ks[0].column, "K (structural kinds) is supported only as the whole "
                                                  f"beginner hand {BEGINNER!r}", alt)
            structural = True
            continue
        choices += _count_choices(groups, given)
        parsed.append((a, alt, groups))
    if choices > MAX_LINE_CHOICES:
        raise _err(line_id, None, f"expands to {choices:,} combinations of alternatives, suits and variable values "
                                  f"before duplicates are removed; a line may expand to at most {MAX_LINE_CHOICES:,}")
    return ParsedLine(line_id, parsed, vars_, given, structural, choices)


def check_card_choices(lines: Sequence[ParsedLine]) -> None:
    """Refuse a card whose lines together expand to more than :data:`MAX_CARD_CHOICES` combinations
    (naming the line that passes the bound), before any line is expanded."""
    total = 0
    for pl in lines:
        total += pl.choices
        if total > MAX_CARD_CHOICES:
            rest = sum(p.choices for p in lines)
            raise CardError(f"line {pl.line_id!r}: with this line ({pl.choices:,} combinations of alternatives, suits "
                            f"and variable values) the card's lines expand to {total:,}, more than the "
                            f"{MAX_CARD_CHOICES:,} a card may expand to (all its lines: {rest:,})")


def expand_line(pl: ParsedLine, *, all_joker_sets: bool, jokers: int = 8) -> CompiledLine:
    """The distinct concrete variations of a parsed line, in the order its patterns write them
    (validated against the copies of each kind and the jokers of the set). Choices of
    alternatives holding the same sets are expanded once."""
    line_id, given = pl.line_id, pl.given
    seen: dict[tuple, int] = {}
    alternative: list[int] = []
    used_vars: set[str] = set()
    for a, alt, groups in pl.patterns:
        done: set[tuple] = set()
        for choice in itertools.product(*groups):
            sets = [it for g in choice for it in g]
            sig = tuple(sorted(_signature(sets)))
            if sig in done:                     # the same sets in another order: the same variations
                continue
            done.add(sig)
            letters = sorted({it.suit for it in sets if it.suit})
            offsets: dict[str, set[int]] = {}
            for it in sets:
                if it.symbol in ("X", "Y"):
                    offsets.setdefault(it.symbol, set()).add(it.value)
            used_vars |= set(offsets)
            domains = {v: _domain(line_id, v, offs, given.get(v)) for v, offs in offsets.items()}
            names = sorted(domains)
            sizes = [it.size for it in sets]
            for perm in itertools.permutations(_SUITS, len(letters)):
                suits = dict(zip(letters, perm))
                for values in itertools.product(*(domains[v] for v in names)):
                    xv = dict(zip(names, values))
                    for kinds in itertools.product(*(_kinds(it, suits, xv) for it in sets)):
                        key = tuple(sorted([_PAIR[k][sz] for k, sz in zip(kinds, sizes)]))
                        if key in seen:
                            continue
                        _check_copies(line_id, key, sets, kinds, all_joker_sets, alt, jokers)
                        seen[key] = len(seen)
                        alternative.append(a)
    for name in pl.vars:
        if name not in used_vars:
            raise CardError(f"line {line_id!r}: vars.{name} is given but the pattern has no {name}")
    if pl.structural and seen:
        raise _err(line_id, None, "mixes the structural beginner hand with other patterns")
    return CompiledLine(list(seen), alternative, pl.structural)


def compile_line(line_id: str, patterns: Sequence[str], vars_: dict | None, *, all_joker_sets: bool,
                 jokers: int = 8) -> CompiledLine:
    """Parse, check and expand one line (:func:`parse_line` then :func:`expand_line`)."""
    return expand_line(parse_line(line_id, patterns, vars_), all_joker_sets=all_joker_sets, jokers=jokers)


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
