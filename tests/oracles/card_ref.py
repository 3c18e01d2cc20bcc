"""Slow, obviously right reference for American cards (``mjfast.card``), used by the tests only.

Nothing here uses ``mjfast.card`` or the kernel's counting formula:

* :func:`expand` writes a pattern of the toy card's language out by brute force (every
  assignment of distinct suits to the letters ``a b c``, every value of ``X`` in its domain,
  every choice of the ``|`` alternatives), each variation a sorted tuple of ``(kind, size)`` sets;
* a hand's distance to a variation is ``slots - maximum matching`` between the hand's tiles (one
  node per tile, jokers included) and the variation's 14 slots (one node per tile place), found by
  augmenting paths (Kuhn's algorithm); exposures first remove the set they equal;
* a variation is dead when the hand plus the unseen tiles cannot fill all its slots (the same
  matching with the unseen tiles added to the supply);
* match, waits, callable and the Charleston choice try every tile or every subset.

Kinds are the American 36-kind model: 0-33 standard (``1m``..``9m``, ``1p``..``9p``, ``1s``..``9s``,
E S W N, white green red), 34 flower (8 copies), 35 joker. Hands are 36 counts.

Joker rule: a joker may stand only in a set of three or more, never in a single or a pair.
The reading ``all_joker_sets`` (a card's option): True (the default, the common NMJL reading),
a concealed set of three or more may be all jokers; False, each set of three or more keeps one
place for a natural tile. Exposures are given with their jokers and hold at least one natural
tile (the called one) in both readings; :meth:`RefCard.calls` offers only such exposures.
"""
from __future__ import annotations

from itertools import combinations, permutations, product

FLOWER, JOKER = 34, 35
DEAD = 127
COPIES = [4] * 34 + [8]
SUIT_BASE = {"m": 0, "p": 9, "s": 18}
SUIT_DRAGON = {"m": 33, "s": 32, "p": 31}          # craks red, bams green, dots white
HONOURS = {"E": 27, "S": 28, "W": 29, "N": 30, "0": 31, "G": 32, "R": 33, "F": FLOWER}

# The toy card of the design note (american-card.md §7), typed in again here.
TOY_LINES = [
    dict(id="toy-1", pattern="1111a 4444b 7777c NN", points=25),
    dict(id="toy-2", pattern="FF XXXX0a XXX0b XXX0c DDa", points=25),
    dict(id="toy-3", pattern="FFF XXXXX0a XX1b XXXX2c", points=35),
    dict(id="toy-4", pattern="NEWS XXXX0a XXXX0b 00", points=30),
    dict(id="toy-5", pattern="11a 22a 33b 44b 55c 66c DDa", points=50, concealed=True, jokerless_bonus=False),
    dict(id="toy-6", pattern="XXXXXX0a 9999b FFFF", points=40),
    dict(id="toy-7", pattern="2222a DDDDb 8888a FF", points=25),
    dict(id="toy-8", pattern="FF XXX0a XXX2a XXX4a DDDb", points=30, vars={"X": [2, 4]}),
    dict(id="toy-9", pattern="FFFF 3333a|6666a 9999b 3c 6c", points=30),
    dict(id="toy-10", pattern="123456789a FFFFF", points=50, concealed=True),
]
TOY_COUNTS = {"toy-1": 6, "toy-2": 27, "toy-3": 42, "toy-4": 27, "toy-5": 6, "toy-6": 54, "toy-7": 6,
              "toy-8": 12, "toy-9": 12, "toy-10": 3}


# ---------------------------------------------------------------------------------- expansion

def _alt_sets(alt: str, suits: dict, x: int | None) -> list[tuple[int, int]]:
    """The concrete sets of one group alternative like ``XXXX0a``, ``NEWS`` or ``123456789a``."""
    suit = suits[alt[-1]] if alt[-1] in "abc" else None
    body = alt[:-1] if suit else alt
    out = []
    i = 0
    while i < len(body):
        ch = body[i]
        j = i
        while j < len(body) and body[j] == ch:
            j += 1
        size = j - i
        if ch == "X":
            offset = int(body[j])                   # the offset digit follows the run of X
            j += 1
            kind = SUIT_BASE[suit] + x + offset - 1
        elif ch in "123456789":
            kind = SUIT_BASE[suit] + int(ch) - 1
        elif ch == "D":
            kind = SUIT_DRAGON[suit]
        else:
            kind = HONOURS[ch]
        out.append((kind, size))
        i = j
    return out


def expand(pattern: str, vars: dict | None = None) -> set[tuple[tuple[int, int], ...]]:
    """Every concrete variation of a pattern string (duplicates merged)."""
    groups = [tok.split("|") for tok in pattern.split()]
    letters = sorted({alt[-1] for alts in groups for alt in alts if alt[-1] in "abc"})
    offsets = [int(alt[i + 1]) for alts in groups for alt in alts for i in range(len(alt) - 1)
               if alt[i] == "X" and alt[i + 1] != "X"]
    if offsets:
        domain = list((vars or {}).get("X", range(1, 10 - max(offsets))))
    else:
        domain = [None]
    out = set()
    for perm in permutations("mps", len(letters)):
        suits = dict(zip(letters, perm))
        for x in domain:
            for choice in product(*groups):
                sets = [s for alt in choice for s in _alt_sets(alt, suits, x)]
                assert sum(size for _, size in sets) == 14, (pattern, sets)
                out.add(tuple(sorted(sets)))
    return out


class RefCard:
    """A card as lines of variations (``lines``: dicts with id, points, concealed,
    jokerless_bonus and ``variations``, a list of sorted set tuples)."""

    def __init__(self, lines, all_joker_sets: bool = True, jokerless_multiplier: int = 2):
        self.lines = []
        for line in lines:
            d = {"concealed": False, "jokerless_bonus": True, "vars": None, **line}
            if "variations" not in d:
                d["variations"] = sorted(expand(d["pattern"], d["vars"]))
            self.lines.append(d)
        self.ids = [d["id"] for d in self.lines]
        self.all_joker_sets = all_joker_sets
        self.jokerless_multiplier = jokerless_multiplier

    # ------------------------------------------------------------------ distances
    def line_distances(self, hand, exposures=(), unseen=None, cache=None) -> list[int]:
        """Per line: the smallest distance over its (live) variations, DEAD when none is left.

        ``exposures`` are ``(kind, size)`` or ``(kind, size, jokers)``; ``unseen`` (36 counts incl.
        unseen jokers) enables the dead check.
        """
        exp = [(int(e[0]), int(e[1])) for e in exposures]
        out = []
        for line in self.lines:
            if line["concealed"] and exp:
                out.append(DEAD)
                continue
            best = DEAD
            for v in line["variations"]:
                rest = remove_exposed(v, exp)
                if rest is None:
                    continue
                if cache is not None:
                    kinds = sorted({k for k, _ in rest})
                    key = (rest, tuple(hand[k] for k in kinds), hand[JOKER])
                    d = cache.get(key)
                    if d is None:
                        d = cache[key] = variation_distance(hand, rest, self.all_joker_sets)
                else:
                    d = variation_distance(hand, rest, self.all_joker_sets)
                if d >= best:
                    continue
                if unseen is not None and not feasible(hand, rest, unseen, self.all_joker_sets):
                    continue
                best = d
            out.append(best)
        return out

    def match(self, hand, exposures=()):
        """(id, points, jokerless, value) of the highest-scoring complete line (first on ties), or None."""
        assert sum(hand) + sum(e[1] for e in exposures) == 14
        dist = self.line_distances(hand, exposures)
        done = [i for i, d in enumerate(dist) if d == 0]
        if not done:
            return None
        best = done[0]
        for i in done:
            if self.lines[i]["points"] > self.lines[best]["points"]:
                best = i
        line = self.lines[best]
        jokerless = hand[JOKER] == 0 and all(len(e) < 3 or e[2] == 0 for e in exposures)
        value = line["points"] * (self.jokerless_multiplier if jokerless and line["jokerless_bonus"] else 1)
        return line["id"], line["points"], jokerless, value

    def waits(self, hand, exposures=(), n_jokers: int = 8) -> dict[int, list[str]]:
        """{kind: line ids} of every kind whose draw completes a 13-tile hand (a copy must be left)."""
        left = unseen_counts(hand, exposures, None, n_jokers)
        out = {}
        for k in range(36):
            if left[k] <= 0:
                continue
            h = list(hand)
            h[k] += 1
            done = [self.ids[i] for i, d in enumerate(self.line_distances(h, exposures)) if d == 0]
            if done:
                out[k] = done
        return out

    def calls(self, hand, kind: int, exposures=()):
        """{size: (best distance, [jokers giving it], lines)} for the exposures of a discarded
        ``kind`` some line can use, and the lines a Mahjong by it completes."""
        exp = [tuple(e) for e in exposures]
        sets = {}
        if len(exp) < 4:
            for size in range(3, 7):
                results = []
                for nat in range(0, min(hand[kind], size - 1) + 1):
                    jk = size - 1 - nat
                    if jk > hand[JOKER]:
                        continue
                    h = list(hand)
                    h[kind] -= nat
                    h[JOKER] -= jk
                    dist = self.line_distances(h, exp + [(kind, size, jk)])
                    alive = [self.ids[i] for i, d in enumerate(dist) if d != DEAD]
                    if alive:
                        results.append((min(d for d in dist if d != DEAD), jk, alive))
                if results:
                    best = min(r[0] for r in results)
                    sets[size] = (best, [r[1] for r in results if r[0] == best], results[0][2])
        h = list(hand)
        h[kind] += 1
        mahjong = [self.ids[i] for i, d in enumerate(self.line_distances(h, exp)) if d == 0]
        return sets, mahjong

    def charleston(self, hand, take: int) -> tuple[int, ...]:
        """The kinds of the ``take`` tiles to pass: every choice of ``take`` non-joker tiles of the
        hand is tried; the one whose per-line distances, sorted ascending, are lexicographically
        smallest wins, ties to the smallest sorted tuple of kinds."""
        tiles = [k for k in range(JOKER) for _ in range(hand[k])]
        choices = sorted({tuple(sorted(tiles[i] for i in idx)) for idx in combinations(range(len(tiles)), take)})
        cache: dict = {}
        best_key, best = None, None
        for c in choices:
            h = list(hand)
            for k in c:
                h[k] -= 1
            key = (sorted(self.line_distances(h, (), None, cache)), c)
            if best_key is None or key < best_key:
                best_key, best = key, c
        return best


# ---------------------------------------------------------------------------------- matching

def remove_exposed(sets, exposures):
    """The variation's sets left after the exposures, or None when some exposure is not one of
    its sets of three or more (each set used once)."""
    rest = list(sets)
    for k, s in exposures:
        if (k, s) not in rest or s < 3:
            return None
        rest.remove((k, s))
    return tuple(rest)


def slots(sets, all_joker_sets: bool) -> list[tuple[int, bool]]:
    """One ``(kind, joker_ok)`` place per tile of the sets."""
    out = []
    for k, s in sets:
        if s < 3:
            out += [(k, False)] * s
        elif all_joker_sets:
            out += [(k, True)] * s
        else:
            out += [(k, False)] + [(k, True)] * (s - 1)
    return out


def max_matching(tiles, places) -> int:
    """Maximum bipartite matching: tile t (a kind, 35 = joker) fits place (k, joker_ok) when t == k,
    or t is a joker and joker_ok. Kuhn's augmenting paths, one search per tile."""
    owner = [-1] * len(places)
    fits = [[j for j, (k, ok) in enumerate(places) if t == k or (t == JOKER and ok)] for t in tiles]

    def augment(i, seen):
        for j in fits[i]:
            if j not in seen:
                seen.add(j)
                if owner[j] < 0 or augment(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    return sum(1 for i in range(len(tiles)) if fits[i] and augment(i, set()))


def variation_distance(hand, sets, all_joker_sets: bool) -> int:
    """Places of ``sets`` that the hand (36 counts) cannot fill."""
    places = slots(sets, all_joker_sets)
    tiles = [k for k in range(36) for _ in range(hand[k])]
    return len(places) - max_matching(tiles, places)


def feasible(hand, sets, unseen, all_joker_sets: bool) -> bool:
    """Whether the hand's tiles plus the unseen ones (36 counts) can fill every place of ``sets``.

    The supply of each kind is cut to the number of places it could take (more identical tiles
    cannot change the matching) to keep the search small."""
    places = slots(sets, all_joker_sets)
    room = [0] * 36
    for k, ok in places:
        room[k] += 1
        room[JOKER] += ok
    tiles = [k for k in range(36) for _ in range(min(hand[k] + unseen[k], room[k]))]
    return max_matching(tiles, places) == len(places)


def unseen_counts(hand, exposures=(), visible=None, n_jokers: int = 8) -> list[int]:
    """36 counts of the tiles not in the hand, not in its exposures ``(kind, size[, jokers])`` and
    not visible; raises AssertionError if more copies are used than exist."""
    out = COPIES + [n_jokers]
    out = [c - h for c, h in zip(out, hand)]
    for e in exposures:
        jk = e[2] if len(e) > 2 else 0
        out[e[0]] -= e[1] - jk
        out[JOKER] -= jk
    if visible is not None:
        out = [o - v for o, v in zip(out, visible)]
    assert min(out) >= 0, out
    return out
