"""Seeded generators of valid MCR fan-calculator inputs (for :mod:`tests.oracles.mcr_fan`).

Every generator ``gen(n, seed)`` returns a list of ``n`` cases; a case is a dict of the keyword arguments
of :func:`mcr_fan.fan` (``hand``, ``melds``, ``win_tile``, the flags, winds and flowers).  Cases are valid
input: 13 tiles counting each meld as 3, at most 4 copies of a kind in total (standing tiles, winning tile
and melds), flowers 0-8.  All of them are wins except those of :func:`near_miss` (mostly not wins).

Kinds (see :data:`GENERATORS`):

* ``random_weighted``: random complete concealed hands, sets drawn with weight = the number of ways to
  draw their tiles from the remaining wall (so about "random 14 tiles that happen to be complete");
* ``uniform``: concealed, each set uniform over the 21 chows and 34 pungs (pung-heavy);
* ``templates``: hands built to realise each fan (see :data:`TEMPLATES`), melded or not at random where the
  fan allows;
* ``melded``: 1-4 declared sets (exposed, sometimes a concealed chow/pung declared with supplier 0);
* ``kongs``: 1-4 kongs, concealed and exposed;
* ``seven_pairs``: seven pairs (quads allowed), sometimes shifted;
* ``special``: thirteen orphans, lesser / greater honors and knitted tiles, knitted straight (concealed or
  with one declared set);
* ``dense``: random 14 tiles of one or two suits that are complete (ambiguous decompositions, ties);
* ``ties``: shapes with several decompositions of equal value (tie-break rules), and ``dense`` hands;
* ``near_miss``: a case of the other kinds with one standing tile or the winning tile changed.

Flags are random: self-drawn, fourth tile, kong, last of wall, winds 0-3, flowers (mostly 0, else 0-8).
"""
from __future__ import annotations

import random

N = 34
CHOWS = [9 * s + r for s in range(3) for r in range(7)]
HONORS = list(range(27, 34))
WINDS = [27, 28, 29, 30]
DRAGONS = [31, 32, 33]
TERMINALS = [0, 8, 9, 17, 18, 26]


def _k(suit: int, rank: int) -> int:
    return 9 * suit + rank - 1


def set_tiles(kind: str, t: int) -> list[int]:
    if kind == "chow":
        return [t, t + 1, t + 2]
    return [t] * (4 if kind == "kong" else 3)


def _flags(rng: random.Random, case: dict) -> dict:
    case.update(
        self_drawn=rng.random() < 0.5,
        fourth_tile=rng.random() < 0.15,
        kong=rng.random() < 0.15,
        last_of_wall=rng.random() < 0.1,
        seat_wind=rng.randrange(4),
        prevalent_wind=rng.randrange(4),
        flowers=rng.randint(0, 8) if rng.random() < 0.3 else 0,
    )
    return case


def _valid(counts: list[int]) -> bool:
    return all(0 <= c <= 4 for c in counts)


def assemble(rng: random.Random, sets: list[tuple[str, int]], pair: int, *, n_melds: int | None = None,
             concealed: bool = False, exposed_p: float = 0.85) -> dict | None:
    """A case from a full hand (4 sets + pair): some sets become melds (``n_melds`` of them, random when
    None, none when ``concealed``; kongs are always melds), the winning tile is a random standing tile.
    None when the hand has more than 4 copies of a kind."""
    total = [0] * N
    for kind, t in sets:
        for x in set_tiles(kind, t):
            total[x] += 1
    total[pair] += 2
    if not _valid(total):
        return None
    order = list(range(len(sets)))
    rng.shuffle(order)
    kongs = [i for i in order if sets[i][0] == "kong"]
    others = [i for i in order if sets[i][0] != "kong"]
    if concealed:
        want = 0
    elif n_melds is None:
        want = rng.choice([0, 0, 1, 2, 3, 4])
    else:
        want = n_melds
    chosen = kongs + others[: max(0, want - len(kongs))]
    melds, hand = [], [0] * N
    for i, (kind, t) in enumerate(sets):
        if i in chosen:
            if kind == "kong" and concealed:
                supplier = 0
            elif kind == "kong":
                supplier = 0 if rng.random() < 0.4 else rng.randint(1, 3)
            else:
                supplier = rng.randint(1, 3) if rng.random() < exposed_p else 0
            melds.append((kind, t, supplier))
        else:
            for x in set_tiles(kind, t):
                hand[x] += 1
    hand[pair] += 2
    tiles = [k for k in range(N) for _ in range(hand[k])]
    win = rng.choice(tiles)
    hand[win] -= 1
    return _flags(rng, {"hand": hand, "melds": melds, "win_tile": win})


def _concealed_case(rng: random.Random, counts: list[int]) -> dict:
    """A case from 14 concealed tiles: a random tile is the winning tile."""
    hand = list(counts)
    tiles = [k for k in range(N) for _ in range(hand[k])]
    win = rng.choice(tiles)
    hand[win] -= 1
    return _flags(rng, {"hand": hand, "melds": [], "win_tile": win})


def _repeat(n: int, seed: int, make) -> list[dict]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        case = make(rng)
        if case is not None:
            out.append(case)
    return out


# ------------------------------------------------------------------------------------------------
# Random complete hands
# ------------------------------------------------------------------------------------------------

def _weighted_set(rng: random.Random, left: list[int]) -> tuple[str, int] | None:
    options, weights = [], []
    for t in range(N):
        if left[t] >= 3:
            options.append(("pung", t))
            weights.append(left[t] * (left[t] - 1) * (left[t] - 2) / 6)
    for t in CHOWS:
        w = left[t] * left[t + 1] * left[t + 2]
        if w:
            options.append(("chow", t))
            weights.append(w)
    return rng.choices(options, weights)[0] if options else None


def _weighted_hand(rng: random.Random, n_sets: int = 4) -> tuple[list[tuple[str, int]], int]:
    while True:
        left = [4] * N
        pair = rng.choices(range(N), [left[t] * (left[t] - 1) for t in range(N)])[0]
        left[pair] -= 2
        sets = []
        for _ in range(n_sets):
            s = _weighted_set(rng, left)
            if s is None:
                break
            for x in set_tiles(*s):
                left[x] -= 1
            sets.append(s)
        if len(sets) == n_sets:
            return sets, pair


def _uniform_set(rng: random.Random) -> tuple[str, int]:
    i = rng.randrange(len(CHOWS) + N)
    return ("chow", CHOWS[i]) if i < len(CHOWS) else ("pung", i - len(CHOWS))


def random_weighted(n: int, seed: int) -> list[dict]:
    def make(rng):
        sets, pair = _weighted_hand(rng)
        return assemble(rng, sets, pair, concealed=True)
    return _repeat(n, seed, make)


def uniform(n: int, seed: int) -> list[dict]:
    def make(rng):
        return assemble(rng, [_uniform_set(rng) for _ in range(4)], rng.randrange(N), concealed=True)
    return _repeat(n, seed, make)


def melded(n: int, seed: int) -> list[dict]:
    def make(rng):
        if rng.random() < 0.5:
            sets, pair = _weighted_hand(rng)
        else:
            sets, pair = [_uniform_set(rng) for _ in range(4)], rng.randrange(N)
        return assemble(rng, sets, pair, n_melds=rng.randint(1, 4))
    return _repeat(n, seed, make)


def kongs(n: int, seed: int) -> list[dict]:
    def make(rng):
        sets, pair = _weighted_hand(rng) if rng.random() < 0.5 else ([_uniform_set(rng) for _ in range(4)],
                                                                      rng.randrange(N))
        n_kongs = rng.randint(1, 4)
        sets = [("kong", rng.randrange(N)) for _ in range(n_kongs)] + sets[n_kongs:]
        return assemble(rng, sets, pair, n_melds=n_kongs + rng.choice([0, 0, 1, 2]))
    return _repeat(n, seed, make)


def seven_pairs(n: int, seed: int) -> list[dict]:
    def make(rng):
        counts = [0] * N
        u = rng.random()
        if u < 0.15:  # seven shifted pairs
            s, r0 = rng.randrange(3), rng.randint(1, 3)
            for r in range(r0, r0 + 7):
                counts[_k(s, r)] = 2
        elif u < 0.5:  # two double chows (aabbcc) + a pair: also a standard hand, often of equal value
            for t in rng.sample(CHOWS[:7], 2) if rng.random() < 0.3 else [rng.choice(CHOWS), rng.choice(CHOWS)]:
                for x in (t, t + 1, t + 2):
                    counts[x] += 2
            counts[rng.randrange(N)] += 2
            if not _valid(counts):
                return None
        else:
            pool = rng.choice([list(range(N)), list(range(9)) + HONORS, list(range(9, 27)), TERMINALS + HONORS,
                               list(range(18, 27)), [1, 3, 5, 7, 10, 12, 14, 16, 19, 21, 23, 25]])
            for _ in range(7):
                counts[rng.choice(pool)] += 2
            if not _valid(counts):
                return None
        return _concealed_case(rng, counts)
    return _repeat(n, seed, make)


def _knitted(rng: random.Random) -> list[int]:
    perm = rng.sample(range(3), 3)
    return [9 * s + r for s in range(3) for r in range(perm[s], 9, 3)]


def special(n: int, seed: int) -> list[dict]:
    def make(rng):
        u = rng.random()
        counts = [0] * N
        if u < 0.2:  # thirteen orphans
            for t in TERMINALS + HONORS:
                counts[t] = 1
            counts[rng.choice(TERMINALS + HONORS)] += 1
            return _concealed_case(rng, counts)
        if u < 0.45:  # honors and knitted tiles: 14 distinct kinds
            knitted = _knitted(rng)
            n_honors = rng.choice([5, 6, 7, 7])
            for t in rng.sample(knitted, 14 - n_honors) + rng.sample(HONORS, n_honors):
                counts[t] = 1
            return _concealed_case(rng, counts)
        return special_knitted(rng)
    return _repeat(n, seed, make)


def dense(n: int, seed: int) -> list[dict]:
    """Random 14 tiles from one or two suits (sometimes with honors) that happen to be complete: many
    decompositions, ties between them, multi-sided waits, seven pairs that are standard hands too."""
    def make(rng):
        suits = rng.sample(range(3), rng.choice([1, 1, 2]))
        kinds = [9 * x + r for x in suits for r in range(9)] + (HONORS if rng.random() < 0.2 else [])
        counts = [0] * N
        for _ in range(14):
            counts[rng.choice(kinds)] += 1
        if not _valid(counts) or not (_complete(counts) or all(c % 2 == 0 for c in counts)):
            return None
        return _concealed_case(rng, counts)
    return _repeat(n, seed, make)


def _complete(counts: list[int]) -> bool:
    """Standard complete (sets + one pair), plain recursion."""
    def rec(c, pair):
        k = next((i for i in range(N) if c[i]), None)
        if k is None:
            return pair
        if not pair and c[k] >= 2:
            c[k] -= 2
            ok = rec(c, True)
            c[k] += 2
            if ok:
                return True
        if c[k] >= 3:
            c[k] -= 3
            ok = rec(c, pair)
            c[k] += 3
            if ok:
                return True
        if k < 27 and k % 9 <= 6 and c[k + 1] and c[k + 2]:
            for x in (k, k + 1, k + 2):
                c[x] -= 1
            ok = rec(c, pair)
            for x in (k, k + 1, k + 2):
                c[x] += 1
            return ok
        return False
    return sum(counts) % 3 == 2 and rec(list(counts), False)


def near_miss(n: int, seed: int) -> list[dict]:
    """A case of another generator with one standing tile or the winning tile changed (mostly not a win)."""
    rng = random.Random(seed)
    base: list[dict] = []
    for gen in (random_weighted, uniform, melded, seven_pairs, special, templates, dense):
        base += gen(max(1, n // 6 + 1), seed + 17)
    out = []
    while len(out) < n:
        case = dict(rng.choice(base))
        hand = list(case["hand"])
        total = list(hand)
        for kind, t, _ in case["melds"]:
            for x in set_tiles(kind, t):
                total[x] += 1
        if rng.random() < 0.5:
            new = rng.randrange(N)
            total[case["win_tile"]] += 1
            if total[new] >= 4 or new == case["win_tile"]:
                continue
            case["win_tile"] = new
        else:
            held = [k for k in range(N) if hand[k]]
            old, new = rng.choice(held), rng.randrange(N)
            total[case["win_tile"]] += 1
            if new == old or total[new] >= 4:
                continue
            hand[old] -= 1
            hand[new] += 1
            case["hand"] = hand
        out.append(case)
    return out


# ------------------------------------------------------------------------------------------------
# Fan templates: each builds (sets, pair, options) for a hand showing the fan (usually)
# ------------------------------------------------------------------------------------------------

def _any_set(rng, kinds=None) -> tuple[str, int]:
    if kinds is None:
        return _uniform_set(rng)
    while True:
        s = _uniform_set(rng)
        if all(x in kinds for x in set_tiles(*s)):
            return s


def _suits3(rng) -> list[int]:
    return rng.sample(range(3), 3)


def _t_big_four_winds(rng):
    return [("pung", w) for w in WINDS], rng.randrange(N), {}


def _t_big_three_dragons(rng):
    return [("pung", d) for d in DRAGONS] + [_any_set(rng)], rng.randrange(N), {}


def _t_all_green(rng):
    green = {19, 20, 21, 23, 25, 32}
    return [_any_set(rng, green) for _ in range(4)], rng.choice(sorted(green)), {}


def _t_four_kongs(rng):
    return [("kong", t) for t in rng.sample(range(N), 4)], rng.randrange(N), {}


def _t_three_kongs(rng):
    return [("kong", t) for t in rng.sample(range(N), 3)] + [_any_set(rng)], rng.randrange(N), {}


def _t_two_kongs(rng):
    return [("kong", t) for t in rng.sample(range(N), 2)] + [_any_set(rng), _any_set(rng)], rng.randrange(N), {}


def _t_all_terminals(rng):
    return [("pung", t) for t in rng.sample(TERMINALS, 4)], rng.choice(TERMINALS), {}


def _t_little_four_winds(rng):
    w = rng.sample(WINDS, 4)
    return [("pung", t) for t in w[:3]] + [_any_set(rng)], w[3], {}


def _t_little_three_dragons(rng):
    d = rng.sample(DRAGONS, 3)
    return [("pung", d[0]), ("pung", d[1]), _any_set(rng), _any_set(rng)], d[2], {}


def _t_all_honors(rng):
    h = rng.sample(HONORS, 5)
    return [("pung", t) for t in h[:4]], h[4], {}


def _t_four_concealed_pungs(rng):
    return [("pung", t) for t in rng.sample(range(N), 4)], rng.randrange(N), {"concealed": True}


def _t_three_concealed_pungs(rng):
    return [("pung", t) for t in rng.sample(range(N), 3)] + [_any_set(rng)], rng.randrange(N), {
        "n_melds": rng.choice([0, 0, 1])}


def _t_pure_terminal_chows(rng):
    s = rng.randrange(3)
    return [("chow", _k(s, 1))] * 2 + [("chow", _k(s, 7))] * 2, _k(s, 5), {}


def _t_quadruple_chow(rng):
    return [("chow", rng.choice(CHOWS))] * 4, rng.randrange(N), {}


def _t_four_pure_shifted_pungs(rng):
    s, r = rng.randrange(3), rng.randint(1, 6)
    return [("pung", _k(s, r + i)) for i in range(4)], rng.randrange(N), {}


def _t_four_pure_shifted_chows(rng):
    s = rng.randrange(3)
    step = rng.choice([1, 2])
    r = rng.randint(1, 7 - 3 * step)
    return [("chow", _k(s, r + step * i)) for i in range(4)], rng.randrange(N), {}


def _t_all_terminals_and_honors(rng):
    pool = TERMINALS + HONORS
    return [("pung", t) for t in rng.sample(pool, 4)], rng.choice(pool), {}


def _t_all_even_pungs(rng):
    even = [_k(s, r) for s in range(3) for r in (2, 4, 6, 8)]
    return [("pung", t) for t in rng.sample(even, 4)], rng.choice(even), {}


def _t_full_flush(rng):
    s = rng.randrange(3)
    kinds = set(range(9 * s, 9 * s + 9))
    return [_any_set(rng, kinds) for _ in range(4)], rng.choice(sorted(kinds)), {}


def _t_half_flush(rng):
    s = rng.randrange(3)
    kinds = set(range(9 * s, 9 * s + 9)) | set(HONORS)
    return [_any_set(rng, kinds) for _ in range(4)], rng.choice(sorted(kinds)), {}


def _t_pure_triple_chow(rng):
    return [("chow", rng.choice(CHOWS))] * 3 + [_any_set(rng)], rng.randrange(N), {}


def _t_pure_shifted_pungs(rng):
    s, r = rng.randrange(3), rng.randint(1, 7)
    return [("pung", _k(s, r + i)) for i in range(3)] + [_any_set(rng)], rng.randrange(N), {}


def _t_rank_range(ranks):
    def build(rng):
        kinds = {_k(s, r) for s in range(3) for r in ranks}
        return [_any_set(rng, kinds) for _ in range(4)], rng.choice(sorted(kinds)), {}
    return build


def _t_pure_straight(rng):
    s = rng.randrange(3)
    return [("chow", _k(s, r)) for r in (1, 4, 7)] + [_any_set(rng)], rng.randrange(N), {}


def _t_three_suited_terminal_chows(rng):
    a, b, c = _suits3(rng)
    return [("chow", _k(a, 1)), ("chow", _k(a, 7)), ("chow", _k(b, 1)), ("chow", _k(b, 7))], _k(c, 5), {}


def _t_pure_shifted_chows(rng):
    s = rng.randrange(3)
    step = rng.choice([1, 2])
    r = rng.randint(1, 7 - 2 * step)
    return [("chow", _k(s, r + step * i)) for i in range(3)] + [_any_set(rng)], rng.randrange(N), {}


def _t_all_five(rng):
    fives = [("chow", _k(s, r)) for s in range(3) for r in (3, 4, 5)] + [("pung", _k(s, 5)) for s in range(3)]
    return [rng.choice(fives) for _ in range(4)], _k(rng.randrange(3), 5), {}


def _t_triple_pung(rng):
    r = rng.randint(1, 9)
    return [("pung", _k(s, r)) for s in range(3)] + [_any_set(rng)], rng.randrange(N), {}


def _t_triple_pung_tie(rng):
    """aaa b c ddd (d = a + 3) in one suit reads aaa+bcd+dd or aa+abc+ddd; pungs of a or d in the other two
    suits make a Triple Pung in one reading only, often at the same total (the reference then prefers it)."""
    x, y, z = _suits3(rng)
    a = rng.randint(1, 6)
    r = rng.choice([a, a + 3])
    return [("pung", _k(x, a)), ("chow", _k(x, a + 1)), ("pung", _k(y, r)), ("pung", _k(z, r))], _k(x, a + 3), {
        "n_melds": rng.choice([0, 0, 0, 1])}


def _t_mixed_shifted_pungs(rng):
    a, b, c = _suits3(rng)
    r = rng.randint(1, 7)
    return [("pung", _k(a, r)), ("pung", _k(b, r + 1)), ("pung", _k(c, r + 2)), _any_set(rng)], rng.randrange(N), {}


def _t_big_three_winds(rng):
    return [("pung", w) for w in rng.sample(WINDS, 3)] + [_any_set(rng)], rng.randrange(N), {}


def _t_mixed_straight(rng):
    a, b, c = _suits3(rng)
    return [("chow", _k(a, 1)), ("chow", _k(b, 4)), ("chow", _k(c, 7)), _any_set(rng)], rng.randrange(N), {}


def _t_reversible(rng):
    rev = {9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31}
    return [_any_set(rng, rev) for _ in range(4)], rng.choice(sorted(rev)), {}


def _t_mixed_triple_chow(rng):
    r = rng.randint(1, 7)
    return [("chow", _k(s, r)) for s in range(3)] + [_any_set(rng)], rng.randrange(N), {}


def _t_mixed_shifted_chows(rng):
    a, b, c = _suits3(rng)
    r = rng.randint(1, 5)
    return [("chow", _k(a, r)), ("chow", _k(b, r + 1)), ("chow", _k(c, r + 2)), _any_set(rng)], rng.randrange(N), {}


def _t_all_types(rng):
    a, b, c = _suits3(rng)
    sets = [_any_set(rng, set(range(9 * a, 9 * a + 9))), _any_set(rng, set(range(9 * b, 9 * b + 9))),
            _any_set(rng, set(range(9 * c, 9 * c + 9)))]
    if rng.random() < 0.5:
        return sets + [("pung", rng.choice(WINDS))], rng.choice(DRAGONS), {}
    return sets + [("pung", rng.choice(DRAGONS))], rng.choice(WINDS), {}


def _t_all_pungs(rng):
    return [("pung", t) for t in rng.sample(range(N), 4)], rng.randrange(N), {}


def _t_melded_hand(rng):
    return [_any_set(rng) for _ in range(4)], rng.randrange(N), {"n_melds": 4}


def _t_two_dragons(rng):
    d = rng.sample(DRAGONS, 2)
    return [("pung", d[0]), ("pung", d[1]), _any_set(rng), _any_set(rng)], rng.randrange(N), {}


def _t_outside(rng):
    outs = [("chow", _k(s, r)) for s in range(3) for r in (1, 7)] + [("pung", t) for t in TERMINALS + HONORS]
    return [rng.choice(outs) for _ in range(4)], rng.choice(TERMINALS + HONORS), {}


def _t_all_chows(rng):
    return [("chow", rng.choice(CHOWS)) for _ in range(4)], rng.randrange(27), {}


def _t_chow_pairs(rng):
    """Two or three related chows (pure/mixed double chow, short straight, two terminal chows)."""
    s, s2 = rng.sample(range(3), 2)
    r = rng.randint(1, 7)
    pick = rng.randrange(4)
    first = ("chow", _k(s, r))
    second = [("chow", _k(s, r)), ("chow", _k(s2, r)), ("chow", _k(s, r + 3 if r <= 4 else r - 3)),
              ("chow", _k(s, 8 - r if r in (1, 7) else 7))][pick]
    return [first, second, _any_set(rng), _any_set(rng)], rng.randrange(N), {}


def _t_double_pung(rng):
    s, s2 = rng.sample(range(3), 2)
    r = rng.randint(1, 9)
    return [("pung", _k(s, r)), ("pung", _k(s2, r)), _any_set(rng), _any_set(rng)], rng.randrange(N), {}


def _t_wind_pungs(rng):
    return [("pung", rng.choice(WINDS)), _any_set(rng), _any_set(rng), _any_set(rng)], rng.randrange(N), {}


def _t_chicken(rng):
    """Exposed chows/pungs of simples in all three suits, an honor pair: often a Chicken Hand."""
    a, b, c = _suits3(rng)
    sets = [("chow", _k(a, rng.randint(2, 6))), ("chow", _k(b, rng.randint(2, 6))),
            ("pung", _k(c, rng.randint(2, 8))), _any_set(rng, set(range(27)) - set(TERMINALS))]
    return sets, rng.choice(WINDS), {"n_melds": rng.randint(1, 3)}


def _t_waits(rng):
    """Concealed hands with an edge, closed or single wait on purpose."""
    s = rng.randrange(3)
    form = rng.randrange(3)
    sets = [_any_set(rng) for _ in range(3)]
    pair = rng.randrange(N)
    if form == 0:
        sets.append(("chow", _k(s, rng.choice([1, 7]))))
    elif form == 1:
        sets.append(("chow", rng.choice(CHOWS)))
    else:
        sets.append(_any_set(rng))
    return sets, pair, {"n_melds": rng.choice([0, 0, 1, 2])}


def _special_counts(kind):
    def build(rng):
        counts = [0] * N
        if kind == "nine_gates":
            s = rng.randrange(3)
            for r, c in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3)):
                counts[9 * s + r] = c
            counts[_k(s, rng.randint(1, 9))] += 1
        elif kind == "thirteen_orphans":
            for t in TERMINALS + HONORS:
                counts[t] = 1
            counts[rng.choice(TERMINALS + HONORS)] += 1
        elif kind == "seven_shifted_pairs":
            s, r0 = rng.randrange(3), rng.randint(1, 3)
            for r in range(r0, r0 + 7):
                counts[_k(s, r)] = 2
        elif kind == "seven_pairs_double_chows":  # aabbcc twice + a pair, most in one or two suits
            first = rng.choice(CHOWS)
            second = rng.choice([c for c in CHOWS if abs(c - first) <= 3] if rng.random() < 0.7 else CHOWS)
            for t in (first, second):
                for x in (t, t + 1, t + 2):
                    counts[x] += 2
            counts[rng.choice([first + rng.randrange(-2, 5), rng.randrange(N)]) % N] += 2
            if not _valid(counts):
                return None
        elif kind == "seven_pairs_tie":  # 445566 in two suits + 55: Seven Pairs and 4 chows can score the same
            x, y = rng.sample(range(3), 2)
            for s in (x, y):
                for r in (4, 5, 6):
                    counts[_k(s, r)] += 2
            counts[_k(rng.randrange(3), 5)] += 2
        elif kind in ("greater_hk", "lesser_hk", "lesser_hk_ks"):
            n_h = {"greater_hk": 7, "lesser_hk": rng.choice([5, 6]), "lesser_hk_ks": 5}[kind]
            for t in rng.sample(_knitted(rng), 14 - n_h) + rng.sample(HONORS, n_h):
                counts[t] = 1
        return counts
    return build


def _t_concealed_declared(rng):
    """A chow declared concealed (supplier 0) sharing the winning tile's kind with a standing pung: the
    reference then keeps that pung concealed on a discard win (Two Concealed Pungs and the like)."""
    t = rng.choice(CHOWS)
    win = t + rng.randrange(3)
    sets = [("pung", win), _any_set(rng), _any_set(rng)]
    pair = rng.randrange(N)
    total = [0] * N
    for kind, x in sets + [("chow", t)]:
        for y in set_tiles(kind, x):
            total[y] += 1
    total[pair] += 2
    if not _valid(total):
        return None
    melds = [("chow", t, 0)] + [(kind, x, rng.randint(0, 3)) for kind, x in sets[1:] if rng.random() < 0.3]
    hand = list(total)
    for kind, x, _ in melds:
        for y in set_tiles(kind, x):
            hand[y] -= 1
    hand[win] -= 1
    case = _flags(rng, {"hand": hand, "melds": melds, "win_tile": win})
    case["self_drawn"] = rng.random() < 0.2
    return case


def _t_knitted_straight(rng):
    return "knitted", None, {}


TEMPLATES = {
    "big_four_winds": _t_big_four_winds,
    "big_three_dragons": _t_big_three_dragons,
    "all_green": _t_all_green,
    "nine_gates": _special_counts("nine_gates"),
    "four_kongs": _t_four_kongs,
    "seven_shifted_pairs": _special_counts("seven_shifted_pairs"),
    "thirteen_orphans": _special_counts("thirteen_orphans"),
    "all_terminals": _t_all_terminals,
    "little_four_winds": _t_little_four_winds,
    "little_three_dragons": _t_little_three_dragons,
    "all_honors": _t_all_honors,
    "four_concealed_pungs": _t_four_concealed_pungs,
    "pure_terminal_chows": _t_pure_terminal_chows,
    "quadruple_chow": _t_quadruple_chow,
    "four_pure_shifted_pungs": _t_four_pure_shifted_pungs,
    "four_pure_shifted_chows": _t_four_pure_shifted_chows,
    "three_kongs": _t_three_kongs,
    "all_terminals_and_honors": _t_all_terminals_and_honors,
    "greater_honors_and_knitted": _special_counts("greater_hk"),
    "all_even_pungs": _t_all_even_pungs,
    "full_flush": _t_full_flush,
    "pure_triple_chow": _t_pure_triple_chow,
    "pure_shifted_pungs": _t_pure_shifted_pungs,
    "upper_tiles": _t_rank_range((7, 8, 9)),
    "middle_tiles": _t_rank_range((4, 5, 6)),
    "lower_tiles": _t_rank_range((1, 2, 3)),
    "pure_straight": _t_pure_straight,
    "three_suited_terminal_chows": _t_three_suited_terminal_chows,
    "pure_shifted_chows": _t_pure_shifted_chows,
    "all_five": _t_all_five,
    "triple_pung": _t_triple_pung,
    "triple_pung_tie": _t_triple_pung_tie,
    "three_concealed_pungs": _t_three_concealed_pungs,
    "lesser_honors_and_knitted": _special_counts("lesser_hk"),
    "lesser_honors_and_knitted_with_straight": _special_counts("lesser_hk_ks"),
    "knitted_straight": _t_knitted_straight,
    "upper_four": _t_rank_range((6, 7, 8, 9)),
    "lower_four": _t_rank_range((1, 2, 3, 4)),
    "big_three_winds": _t_big_three_winds,
    "mixed_straight": _t_mixed_straight,
    "reversible_tiles": _t_reversible,
    "mixed_triple_chow": _t_mixed_triple_chow,
    "mixed_shifted_pungs": _t_mixed_shifted_pungs,
    "all_pungs": _t_all_pungs,
    "half_flush": _t_half_flush,
    "mixed_shifted_chows": _t_mixed_shifted_chows,
    "all_types": _t_all_types,
    "melded_hand": _t_melded_hand,
    "two_kongs": _t_two_kongs,
    "two_dragons_pungs": _t_two_dragons,
    "outside_hand": _t_outside,
    "all_chows": _t_all_chows,
    "chow_pairs": _t_chow_pairs,
    "double_pung": _t_double_pung,
    "wind_pungs": _t_wind_pungs,
    "chicken": _t_chicken,
    "waits": _t_waits,
    "concealed_declared": _t_concealed_declared,
    "seven_pairs_double_chows": _special_counts("seven_pairs_double_chows"),
    "seven_pairs_tie": _special_counts("seven_pairs_tie"),
}
"""Template name -> builder.  A builder returns (sets, pair, options for :func:`assemble`), or 14 concealed
counts, or a finished case, or None (rejected attempt, retried)."""


def template_case(rng: random.Random, name: str) -> dict | None:
    built = TEMPLATES[name](rng)
    if built is None or isinstance(built, dict):  # a finished case (or a rejected attempt)
        return built
    if isinstance(built, list):  # 14 concealed counts
        return _concealed_case(rng, built)
    if built[0] == "knitted":
        return special_knitted(rng)
    sets, pair, options = built
    return assemble(rng, sets, pair, **options)


def special_knitted(rng: random.Random) -> dict | None:
    """Knitted straight + set + pair; the set declared (exposed, concealed, kong) 40 % of the time."""
    counts = [0] * N
    for t in _knitted(rng):
        counts[t] += 1
    s = _uniform_set(rng) if rng.random() < 0.85 else ("kong", rng.randrange(N))
    pair = rng.randrange(N)
    counts[pair] += 2
    melds = []
    if s[0] == "kong" or rng.random() < 0.4:
        melds.append((s[0], s[1], rng.randint(0, 3)))
    else:
        for x in set_tiles(*s):
            counts[x] += 1
    total = list(counts)
    for kind, t, _ in melds:
        for x in set_tiles(kind, t):
            total[x] += 1
    if not _valid(total):
        return None
    tiles = [k for k in range(N) for _ in range(counts[k])]
    win = rng.choice(tiles)
    counts[win] -= 1
    return _flags(rng, {"hand": counts, "melds": melds, "win_tile": win})


def templates(n: int, seed: int, names: list[str] | None = None) -> list[dict]:
    """``n`` cases cycling through the templates (all of them unless ``names``)."""
    names = list(TEMPLATES) if names is None else names
    rng = random.Random(seed)
    out = []
    i = 0
    while len(out) < n:
        case = template_case(rng, names[i % len(names)])
        if case is not None:
            out.append(case)
            i += 1
    return out


TIE_TEMPLATES = ["triple_pung_tie", "pure_triple_chow", "pure_shifted_pungs", "seven_pairs_double_chows",
                 "seven_pairs_tie", "quadruple_chow", "four_pure_shifted_pungs"]


def ties(n: int, seed: int) -> list[dict]:
    """Hands with several decompositions of equal value (tie-breaks), half of them from :func:`dense`."""
    return templates(n - n // 2, seed, names=TIE_TEMPLATES) + dense(n // 2, seed + 1)


GENERATORS = {
    "random_weighted": random_weighted,
    "uniform": uniform,
    "templates": templates,
    "melded": melded,
    "kongs": kongs,
    "seven_pairs": seven_pairs,
    "special": special,
    "dense": dense,
    "ties": ties,
    "near_miss": near_miss,
}
