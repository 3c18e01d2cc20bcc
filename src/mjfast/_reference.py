"""Slow, obviously-correct pure-Python reference implementation ("oracle").

Nothing here is meant to be fast except :func:`shanten_many`, which is only
vectorised enough to test a million hands.  Everything is written from the
definitions below so that the fast kernels can be checked against it.

Conventions
-----------
* 34 tile kinds: 0-8 = 1m..9m, 9-17 = 1p..9p, 18-26 = 1s..9s,
  27-33 = 1z..7z (East, South, West, North, White, Green, Red).
* A hand is a length-34 sequence of counts 0..4 (tuple, list or numpy array).
* Hand sizes n = 3k+1 or 3k+2 with 1 <= n <= 14 and k = n // 3.  The
  standard target has k sets + 1 pair (3k+2 tiles).

Shanten contract
----------------
For a form F, a *target* is a count vector T (each T_i <= 4) that is a
complete hand of form F with 3k+2 tiles.  ``distance(H, F) = min over targets
T of sum_i max(T_i - H_i, 0)`` (tiles still missing) and
``shanten(H, F) = distance - 1``; -1 means complete, 0 means tenpai.

Since every target of a form has the same size |T|, and
``max(T_i - H_i, 0) = T_i - min(T_i, H_i)``, minimising the distance is the
same as maximising the *overlap* ``sum_i min(T_i, H_i)``:
``distance = |T| - max overlap``.  Several docstrings below use this.
"""
from __future__ import annotations

import functools
import itertools

import numpy as np

__all__ = [
    "suit_distances",
    "shanten",
    "shanten_standard",
    "shanten_seven_pairs",
    "shanten_thirteen_orphans",
    "shanten_honors_knitted",
    "shanten_knitted_straight",
    "shanten_many",
    "is_winning",
    "decompose",
    "waits",
    "effective_tiles",
]

NUM_KINDS = 34
HONOR_START = 27
#: (start, stop) of the four "suits": m, p, s, honors.
SUIT_RANGES = ((0, 9), (9, 18), (18, 27), (27, 34))
#: 1m 9m 1p 9p 1s 9s and the seven honors.
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
HONORS = tuple(range(27, 34))
FORMS = ("standard", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight")
RULES = (None, "classical", "basic", "mcr")
#: sizes at which the special (non-standard) forms exist
SPECIAL_SIZES = (13, 14)
MAX_SETS = 4


# ---------------------------------------------------------------------------
# input handling
# ---------------------------------------------------------------------------

def _as_counts(counts) -> tuple:
    """Return the hand as a tuple of 34 ints, checking 0 <= count <= 4."""
    h = tuple(int(c) for c in np.asarray(counts).reshape(-1))
    if len(h) != NUM_KINDS:
        raise ValueError(f"a hand needs 34 counts, got {len(h)}")
    for c in h:
        if c < 0 or c > 4:
            raise ValueError(f"tile counts must be in 0..4, got {c}")
    return h


def _sets_for_size(n: int) -> int:
    """k for a hand of n tiles (n = 3k+1 or 3k+2, 1 <= n <= 14)."""
    if n < 1 or n > 14 or n % 3 == 0:
        raise ValueError(f"hand size must be 3k+1 or 3k+2 between 1 and 14, got {n}")
    return n // 3


def _check_rules(rules):
    if rules not in RULES:
        raise ValueError(f"unknown rules {rules!r}; expected one of {RULES}")


def _forms_for(form: str, rules, n: int) -> list:
    """The list of forms whose minimum is the answer for (form, rules) at size n."""
    _check_rules(rules)
    if form == "all":
        if rules in ("classical", "basic") or n not in SPECIAL_SIZES:
            return ["standard"]
        if rules == "mcr":
            return list(FORMS)
        return ["standard", "seven_pairs", "thirteen_orphans"]
    if form not in FORMS:
        raise ValueError(f"unknown form {form!r}; expected 'all' or one of {FORMS}")
    if form != "standard" and n not in SPECIAL_SIZES:
        raise ValueError(f"form {form!r} needs a hand of 13 or 14 tiles, got {n}")
    return [form]


def _knitted_kinds(perm) -> tuple:
    """The 9 kinds 1-4-7 of suit perm[0], 2-5-8 of perm[1], 3-6-9 of perm[2]."""
    a, b, c = perm
    return tuple(sorted([9 * a + r for r in (0, 3, 6)]
                        + [9 * b + r for r in (1, 4, 7)]
                        + [9 * c + r for r in (2, 5, 8)]))


KNITTED_PERMS = tuple(itertools.permutations(range(3)))


# ---------------------------------------------------------------------------
# per-suit distances (brute force)
# ---------------------------------------------------------------------------

def _set_vectors(width: int, honors: bool) -> list:
    """Every set of one suit as a count vector: pungs, then chows (number suits only)."""
    sets = []
    for r in range(width):
        v = [0] * width
        v[r] = 3
        sets.append(v)
    if not honors:
        for r in range(width - 2):
            v = [0] * width
            v[r] = v[r + 1] = v[r + 2] = 1
            sets.append(v)
    return sets


@functools.lru_cache(maxsize=None)
def _suit_targets(k: int, p: int, honors: bool) -> np.ndarray:
    """All per-suit targets with exactly k sets and p pairs, as an (M, width) int8 array.

    Brute force: every multiset of k sets (combinations with replacement of
    the set list), plus every choice of pair kind if p == 1; vectors with a
    count above 4 are dropped and duplicates (e.g. 123+123+123 == 111+222+333)
    merged, which cannot change a minimum.
    """
    width = 7 if honors else 9
    sets = _set_vectors(width, honors)
    pair_choices = [None] if p == 0 else list(range(width))
    found = set()
    for combo in itertools.combinations_with_replacement(range(len(sets)), k):
        base = [0] * width
        for s in combo:
            for r in range(width):
                base[r] += sets[s][r]
        for pr in pair_choices:
            t = list(base)
            if pr is not None:
                t[pr] += 2
            if max(t) <= 4:
                found.add(tuple(t))
    return np.array(sorted(found), dtype=np.int8).reshape(-1, width)


@functools.lru_cache(maxsize=None)
def _missing_tables(honors: bool):
    """All per-suit targets of every (k, p), laid out for a quick column-wise sum.

    Returns (missing, starts): ``missing[r][v]`` is the int8 vector
    ``max(T[:, r] - v, 0)`` over all targets T (groups (k, p) concatenated in
    the order of entry 2*k + p), and ``starts`` the first row of each group.
    The distance of every target to a suit h is then
    ``sum_r missing[r][h_r]`` -- just sum_r max(T_r - h_r, 0) precomputed
    for the five possible values of h_r.
    """
    groups = [_suit_targets(k, p, honors) for k in range(MAX_SETS + 1) for p in range(2)]
    allt = np.concatenate(groups).astype(np.int16)
    starts = np.cumsum([0] + [len(g) for g in groups[:-1]])
    missing = [[np.ascontiguousarray(np.maximum(allt[:, r] - v, 0).astype(np.int8)) for v in range(5)]
               for r in range(allt.shape[1])]
    return missing, starts


@functools.lru_cache(maxsize=None)
def _suit_distances_cached(h: tuple, honors: bool) -> tuple:
    missing, starts = _missing_tables(honors)
    total = missing[0][h[0]].copy()
    for r in range(1, len(h)):
        total += missing[r][h[r]]
    return tuple(int(x) for x in np.minimum.reduceat(total, starts))


def suit_distances(counts, honors: bool = False) -> tuple:
    """Per-suit distances: entry [2*k + p] = min over per-suit targets with exactly
    k sets (k = 0..4) and p pairs (p = 0, 1) of ``sum_i max(t_i - h_i, 0)``.

    ``counts`` has 9 values for a number suit (sets: chows and pungs) or 7 for
    the honors (``honors=True``, sets: pungs only).  Computed by enumerating
    every per-suit target (:func:`_suit_targets`), memoised on the tuple.
    """
    h = tuple(int(c) for c in counts)
    width = 7 if honors else 9
    if len(h) != width:
        raise ValueError(f"{'honor' if honors else 'number'} suit needs {width} counts, got {len(h)}")
    if any(c < 0 or c > 4 for c in h):
        raise ValueError("tile counts must be in 0..4")
    return _suit_distances_cached(h, bool(honors))


# ---------------------------------------------------------------------------
# shanten per form
# ---------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def _splits(k: int) -> tuple:
    """Every (k_m, k_p, k_s, k_z) of non-negative ints summing to k."""
    return tuple(ks for ks in itertools.product(range(k + 1), repeat=4) if sum(ks) == k)


def _suit_tables(h: tuple) -> list:
    return [suit_distances(h[a:b], honors=(a == HONOR_START)) for a, b in SUIT_RANGES]


def _standard_distance(h: tuple, k: int) -> int:
    tables = _suit_tables(h)
    best = None
    for ks in _splits(k):
        for pair_suit in range(4):
            d = sum(tables[s][2 * ks[s] + (1 if s == pair_suit else 0)] for s in range(4))
            if best is None or d < best:
                best = d
    return best


def shanten_standard(counts) -> int:
    """Shanten for k sets + 1 pair (k = n // 3).

    Why the per-suit split is exact: every set and the pair lie inside one
    suit, so a standard target T is exactly a union of per-suit targets
    (suit s holding k_s sets and p_s pairs, with sum k_s = k and sum p_s = 1),
    and the four-copy limit T_i <= 4 concerns one kind, hence one suit, so T is
    valid iff each per-suit part is.  The distance sum_i max(T_i - H_i, 0) is a
    sum over kinds, hence a sum over suits.  Therefore
    ``distance = min over (k_s), pair suit of sum_s suit_distances(H_s)[2*k_s + p_s]``
    and shanten = distance - 1.
    """
    h = _as_counts(counts)
    k = _sets_for_size(sum(h))
    return _standard_distance(h, k) - 1


def _seven_pairs_distance(h: tuple, kong_as_two_pairs: bool) -> int:
    if not kong_as_two_pairs:
        # Target: 7 distinct kinds with 2 each.  Overlap = sum over the chosen
        # kinds of min(2, H_i); the best choice is the 7 largest values.
        vals = sorted((min(2, c) for c in h), reverse=True)
        return 14 - sum(vals[:7])
    # Target: q kinds with 4 copies and 7 - 2q kinds with 2 copies (q = 0..3).
    # Overlap = sum over 4-kinds of H_i + sum over 2-kinds of min(2, H_i).
    # Only held kinds can gain by being a 4-kind, so try every set of q held
    # kinds as the 4-kinds; then the 2-kinds are the best 7 - 2q of the rest.
    held = [i for i in range(NUM_KINDS) if h[i] > 0]
    best = 0
    for q in range(4):
        for fours in itertools.combinations(held, q):
            rest = sorted((min(2, h[i]) for i in range(NUM_KINDS) if i not in fours), reverse=True)
            overlap = sum(h[i] for i in fours) + sum(rest[:7 - 2 * q])
            best = max(best, overlap)
    return 14 - best


def shanten_seven_pairs(counts, kong_as_two_pairs: bool = False) -> int:
    """Shanten for seven pairs (13 or 14 tiles).

    Default: the target is 2 copies of each of 7 different kinds, so
    distance = 14 - max over 7 kinds of sum min(2, H_i): take the 7 kinds
    with the largest min(2, H_i).  Four of a kind therefore counts as one pair.

    ``kong_as_two_pairs=True`` (MCR): target counts are in {0, 2, 4} summing
    to 14, i.e. q kinds with 4 and 7 - 2q kinds with 2.  For each q and each
    choice of q held kinds as the 4-kinds (an unheld 4-kind overlaps 0, no
    better than a 2-kind) the remaining 2-kinds are the 7 - 2q best by
    min(2, H_i); the best overlap over all those choices gives the distance.
    """
    h = _as_counts(counts)
    n = sum(h)
    _sets_for_size(n)
    if n not in SPECIAL_SIZES:
        raise ValueError(f"form 'seven_pairs' needs a hand of 13 or 14 tiles, got {n}")
    return _seven_pairs_distance(h, kong_as_two_pairs) - 1


def _thirteen_orphans_distance(h: tuple) -> int:
    distinct = sum(1 for i in ORPHANS if h[i] >= 1)
    has_pair = any(h[i] >= 2 for i in ORPHANS)
    return 14 - distinct - (1 if has_pair else 0)


def shanten_thirteen_orphans(counts) -> int:
    """Shanten for thirteen orphans (13 or 14 tiles).

    A target is one of each of the 13 orphan kinds plus one more copy of some
    orphan j.  Its overlap with H is #{orphans held} + [H_j >= 2]; maximising
    over j gives #{orphans held} + [some orphan held twice], and
    distance = 14 - that.
    """
    h = _as_counts(counts)
    n = sum(h)
    _sets_for_size(n)
    if n not in SPECIAL_SIZES:
        raise ValueError(f"form 'thirteen_orphans' needs a hand of 13 or 14 tiles, got {n}")
    return _thirteen_orphans_distance(h) - 1


def _honors_knitted_distance(h: tuple) -> int:
    best = 0
    for perm in KNITTED_PERMS:
        candidates = set(_knitted_kinds(perm)) | set(HONORS)
        held = sum(1 for i in candidates if h[i] >= 1)
        best = max(best, min(14, held))
    return 14 - best


def shanten_honors_knitted(counts) -> int:
    """Shanten for honors and knitted tiles (MCR; 13 or 14 tiles).

    For a permutation, the 16 candidate kinds are the 7 honors and the 9
    knitted kinds; a target is one copy of 14 of them.  Its overlap with H is
    the number of chosen kinds that H holds, so the best target picks all
    held candidates (up to 14): distance = 14 - min(14, #held candidates),
    minimised over the 6 permutations.
    """
    h = _as_counts(counts)
    n = sum(h)
    _sets_for_size(n)
    if n not in SPECIAL_SIZES:
        raise ValueError(f"form 'honors_knitted' needs a hand of 13 or 14 tiles, got {n}")
    return _honors_knitted_distance(h) - 1


def _all_sets_34() -> list:
    """Every set over the 34 kinds as a count vector: 34 pungs, 21 chows."""
    sets = []
    for i in range(NUM_KINDS):
        v = [0] * NUM_KINDS
        v[i] = 3
        sets.append(v)
    for suit in range(3):
        for r in range(7):
            v = [0] * NUM_KINDS
            i = 9 * suit + r
            v[i] = v[i + 1] = v[i + 2] = 1
            sets.append(v)
    return sets


@functools.lru_cache(maxsize=None)
def _knitted_straight_targets() -> np.ndarray:
    """Every knitted-straight target (knitted 9 + one set + one pair, counts <= 4)."""
    found = set()
    sets = _all_sets_34()
    for perm in KNITTED_PERMS:
        knitted = _knitted_kinds(perm)
        for s in sets:
            for pair in range(NUM_KINDS):
                t = list(s)
                for i in knitted:
                    t[i] += 1
                t[pair] += 2
                if max(t) <= 4:
                    found.add(tuple(t))
    return np.array(sorted(found), dtype=np.int8)


def _knitted_straight_distance(h: tuple) -> int:
    targets = _knitted_straight_targets()
    hv = np.array(h, dtype=np.int8)
    return int(np.maximum(targets - hv, 0).sum(axis=1).min())


def shanten_knitted_straight(counts) -> int:
    """Shanten for the knitted straight (MCR; 13 or 14 tiles).

    Literal brute force: every target (6 permutations x 55 sets x 34 pair
    kinds, dropping any with a count above 4, e.g. a pung plus the pair on one
    kind) is enumerated once, and the distance is the minimum over all of them
    of sum max(T_i - H_i, 0).  A knitted kind thus takes one of its four copies,
    so 1m can still carry a pung (4 copies) but not a pair plus a pung.
    """
    h = _as_counts(counts)
    n = sum(h)
    _sets_for_size(n)
    if n not in SPECIAL_SIZES:
        raise ValueError(f"form 'knitted_straight' needs a hand of 13 or 14 tiles, got {n}")
    return _knitted_straight_distance(h) - 1


def _form_distance(h: tuple, k: int, form: str, rules) -> int:
    if form == "standard":
        return _standard_distance(h, k)
    if form == "seven_pairs":
        return _seven_pairs_distance(h, kong_as_two_pairs=(rules == "mcr"))
    if form == "thirteen_orphans":
        return _thirteen_orphans_distance(h)
    if form == "honors_knitted":
        return _honors_knitted_distance(h)
    if form == "knitted_straight":
        return _knitted_straight_distance(h)
    raise AssertionError(form)


def shanten(counts, form: str = "all", rules=None) -> int:
    """Shanten of a hand for ``form`` ("all" or one form) under ``rules``.

    ``form="all"``: rules=None -> min(standard, seven_pairs, thirteen_orphans);
    "classical"/"basic" -> standard; "mcr" -> min over all five forms with
    seven pairs counting a four of a kind as two pairs.  Special forms only
    apply to 13 and 14 tiles; an explicit special form at another size raises
    ValueError.
    """
    h = _as_counts(counts)
    n = sum(h)
    k = _sets_for_size(n)
    forms = _forms_for(form, rules, n)
    return min(_form_distance(h, k, f, rules) for f in forms) - 1


# ---------------------------------------------------------------------------
# vectorised shanten for many hands
# ---------------------------------------------------------------------------

def _decode(code: int, width: int) -> tuple:
    out = []
    for _ in range(width):
        out.append(code % 5)
        code //= 5
    return tuple(out)


#: dense memo of suit_distances for shanten_many, indexed by the base-5 code
#: of a suit (sum h_r * 5**r); a row of -1 means "not computed yet"
_DENSE_TABLES = {}


def _suit_rows(block: np.ndarray, honors: bool) -> np.ndarray:
    """suit_distances of every row of an (N, 9) or (N, 7) block, as a (10, N) int16 array."""
    width = block.shape[1]
    table = _DENSE_TABLES.get(honors)
    if table is None:
        table = _DENSE_TABLES[honors] = np.full((5 ** width, 10), -1, dtype=np.int16)
    codes = block.astype(np.int64) @ (5 ** np.arange(width, dtype=np.int64))
    unknown = codes[table[codes, 0] < 0]
    for code in np.unique(unknown).tolist():
        table[code] = suit_distances(_decode(code, width), honors=honors)
    return np.ascontiguousarray(table[codes].T)


def _suit_distance_arrays(H: np.ndarray) -> list:
    """[D_m, D_p, D_s, D_z]: each (10, N), column j = suit_distances of that suit of row j."""
    return [_suit_rows(H[:, a:b], honors=(a == HONOR_START)) for a, b in SUIT_RANGES]


def _standard_distance_many(D: list, k: int) -> np.ndarray:
    """Vectorised twin of _standard_distance: the same min over (k_s), pair suit."""
    n = D[0].shape[1]
    best = np.full(n, 127, dtype=np.int16)
    total = np.empty(n, dtype=np.int16)
    for ks in _splits(k):
        for pair_suit in range(4):
            rows = [D[s][2 * ks[s] + (1 if s == pair_suit else 0)] for s in range(4)]
            np.add(rows[0], rows[1], out=total)
            total += rows[2]
            total += rows[3]
            np.minimum(best, total, out=best)
    return best


def _seven_pairs_distance_many(H: np.ndarray, kong_as_two_pairs: bool) -> np.ndarray:
    first = np.minimum(H, 2)
    if not kong_as_two_pairs:
        return 14 - np.sort(first, axis=1)[:, -7:].sum(axis=1)
    # Each kind may be used as 0, 1 or 2 "pair units" (target 0, 2, 4); the
    # first unit gains min(2, H_i), the second H_i - min(2, H_i) <= the first,
    # so the best 7 units are the 7 largest of these 68 marginal gains (when a
    # second unit is picked, its kind's first unit is at least as large and is
    # picked too, up to ties).  Independent of the scalar enumeration.
    second = H - first
    gains = np.concatenate([first, second], axis=1)
    return 14 - np.sort(gains, axis=1)[:, -7:].sum(axis=1)


def _thirteen_orphans_distance_many(H: np.ndarray) -> np.ndarray:
    o = H[:, list(ORPHANS)]
    return 14 - (o >= 1).sum(axis=1) - (o >= 2).any(axis=1)


def _honors_knitted_distance_many(H: np.ndarray) -> np.ndarray:
    held = H >= 1
    best = np.zeros(len(H), dtype=np.int16)
    for perm in KNITTED_PERMS:
        cand = list(_knitted_kinds(perm)) + list(HONORS)
        best = np.maximum(best, np.minimum(held[:, cand].sum(axis=1), 14))
    return 14 - best


def _knitted_straight_distance_many(H: np.ndarray, D: list) -> np.ndarray:
    """Vectorised knitted straight, by a different route from the scalar brute force.

    For knitted indicator K (0/1) and set+pair X, min(K_i + X_i, H_i) =
    min(K_i, H_i) + min(X_i, H'_i) with H' = max(H - K, 0).  A set plus a pair
    has X_i <= 3 except a pung and the pair on one kind (5, never allowed), so
    the cap K + X <= 4 is exactly the cap of a standard 1-set+pair target.
    Hence distance = (9 - #knitted kinds held) + standard 1-set distance of H'.
    Suit s with pattern r (ranks r+1, r+4, r+7) is handled once and reused by
    the two permutations that give suit s that pattern.
    """
    held = {}
    resid = {}
    for s in range(3):
        block = H[:, 9 * s:9 * s + 9]
        for r in range(3):
            ranks = [r, r + 3, r + 6]
            held[s, r] = (block[:, ranks] >= 1).sum(axis=1)
            rb = block.copy()
            rb[:, ranks] = np.maximum(rb[:, ranks] - 1, 0)
            resid[s, r] = _suit_rows(rb, honors=False)
    best = np.full(len(H), 127, dtype=np.int16)
    for perm in KNITTED_PERMS:
        # perm = (A, B, C): suit A has pattern 0 (147), B pattern 1, C pattern 2
        pattern = {suit: r for r, suit in enumerate(perm)}
        n_held = sum(held[s, pattern[s]] for s in range(3))
        DR = [resid[s, pattern[s]] for s in range(3)] + [D[3]]
        d = 9 - n_held + _standard_distance_many(DR, 1)
        np.minimum(best, d, out=best)
    return best


def shanten_many(hands, form: str = "all", rules=None) -> np.ndarray:
    """``shanten`` for every row of an (N, 34) array, as int8.

    Rows may have different (valid) sizes.  Per-suit distances come from the
    memoised :func:`suit_distances` (looked up once per distinct suit), the
    split minimisation and the special forms are vectorised with numpy.
    """
    H = np.asarray(hands)
    if H.ndim == 1 and H.size == 0:
        H = H.reshape(0, NUM_KINDS)
    if H.ndim != 2 or H.shape[1] != NUM_KINDS:
        raise ValueError(f"hands must have shape (N, 34), got {H.shape}")
    H = H.astype(np.int16)
    _check_rules(rules)
    if H.size and (H.min() < 0 or H.max() > 4):
        raise ValueError("tile counts must be in 0..4")
    N = len(H)
    out = np.empty(N, dtype=np.int8)
    if N == 0:
        if form != "all" and form not in FORMS:
            raise ValueError(f"unknown form {form!r}; expected 'all' or one of {FORMS}")
        return out
    sizes = H.sum(axis=1)
    for n in np.unique(sizes).tolist():
        _sets_for_size(n)
    # validate form / rules once per size (raises for a special form at a bad size)
    forms_by_size = {n: _forms_for(form, rules, n) for n in np.unique(sizes).tolist()}

    D = _suit_distance_arrays(H)
    for n, forms in forms_by_size.items():
        rows = np.nonzero(sizes == n)[0]
        Hn = H[rows]
        Dn = [d[:, rows] for d in D]
        k = n // 3
        best = np.full(len(rows), 127, dtype=np.int16)
        for f in forms:
            if f == "standard":
                d = _standard_distance_many(Dn, k)
            elif f == "seven_pairs":
                d = _seven_pairs_distance_many(Hn, kong_as_two_pairs=(rules == "mcr"))
            elif f == "thirteen_orphans":
                d = _thirteen_orphans_distance_many(Hn)
            elif f == "honors_knitted":
                d = _honors_knitted_distance_many(Hn)
            else:
                d = _knitted_straight_distance_many(Hn, Dn)
            np.minimum(best, d, out=best)
        out[rows] = best - 1
    return out


# ---------------------------------------------------------------------------
# winning check and decompositions (independent of the distances above)
# ---------------------------------------------------------------------------

def _can_complete(h: list, need_pair: bool) -> bool:
    """Can the tiles of h (mutable list, modified and restored) be split into sets
    (and exactly one pair if need_pair)?  The lowest tile present must start a
    pung, a chow, or be the pair, so trying those three covers every split."""
    i = next((j for j in range(NUM_KINDS) if h[j] > 0), None)
    if i is None:
        return not need_pair
    if h[i] >= 3:
        h[i] -= 3
        ok = _can_complete(h, need_pair)
        h[i] += 3
        if ok:
            return True
    if i < HONOR_START and i % 9 <= 6 and h[i + 1] > 0 and h[i + 2] > 0:
        h[i] -= 1
        h[i + 1] -= 1
        h[i + 2] -= 1
        ok = _can_complete(h, need_pair)
        h[i] += 1
        h[i + 1] += 1
        h[i + 2] += 1
        if ok:
            return True
    if need_pair and h[i] >= 2:
        h[i] -= 2
        ok = _can_complete(h, False)
        h[i] += 2
        if ok:
            return True
    return False


def _is_complete_form(h: tuple, form: str, rules) -> bool:
    n = sum(h)
    if form == "standard":
        return _can_complete(list(h), True)
    if n != 14:
        return False
    if form == "seven_pairs":
        allowed = (0, 2, 4) if rules == "mcr" else (0, 2)
        return all(c in allowed for c in h)
    if form == "thirteen_orphans":
        return all(h[i] >= 1 for i in ORPHANS) and all(
            h[i] == 0 for i in range(NUM_KINDS) if i not in ORPHANS)
    if form == "honors_knitted":
        if any(c > 1 for c in h):
            return False
        for perm in KNITTED_PERMS:
            allowed = set(_knitted_kinds(perm)) | set(HONORS)
            if all(h[i] == 0 for i in range(NUM_KINDS) if i not in allowed):
                return True
        return False
    if form == "knitted_straight":
        for perm in KNITTED_PERMS:
            knitted = _knitted_kinds(perm)
            if all(h[i] >= 1 for i in knitted):
                rest = list(h)
                for i in knitted:
                    rest[i] -= 1
                if _can_complete(rest, True):
                    return True
        return False
    raise AssertionError(form)


def is_winning(counts, form: str = "all", rules=None) -> bool:
    """Is the hand complete?  Recursive decomposition for the standard form,
    direct pattern checks for the special forms; a 3k+1 hand is never complete."""
    h = _as_counts(counts)
    n = sum(h)
    _sets_for_size(n)
    forms = _forms_for(form, rules, n)
    if n % 3 == 1:
        return False
    return any(_is_complete_form(h, f, rules) for f in forms)


def _decompositions(h: list, pair, sets: list, out: set):
    i = next((j for j in range(NUM_KINDS) if h[j] > 0), None)
    if i is None:
        if pair is not None:
            out.add((pair, tuple(sorted(sets))))
        return
    if h[i] >= 3:
        h[i] -= 3
        sets.append(("pung", i))
        _decompositions(h, pair, sets, out)
        sets.pop()
        h[i] += 3
    if i < HONOR_START and i % 9 <= 6 and h[i + 1] > 0 and h[i + 2] > 0:
        for j in (i, i + 1, i + 2):
            h[j] -= 1
        sets.append(("chow", i))
        _decompositions(h, pair, sets, out)
        sets.pop()
        for j in (i, i + 1, i + 2):
            h[j] += 1
    if pair is None and h[i] >= 2:
        h[i] -= 2
        _decompositions(h, i, sets, out)
        h[i] += 2


def decompose(counts) -> list:
    """Every distinct split of a complete standard hand (3k+2 tiles) into k sets and
    one pair, as a sorted list of ``(pair_kind, sets)`` where ``sets`` is a sorted
    tuple of ``("chow", first_kind)`` / ``("pung", kind)``.  [] if not complete."""
    h = _as_counts(counts)
    n = sum(h)
    _sets_for_size(n)
    if n % 3 != 2:
        return []
    out = set()
    _decompositions(list(h), None, [], out)
    return sorted(out)


# ---------------------------------------------------------------------------
# waits and effective tiles
# ---------------------------------------------------------------------------

def _add(h: tuple, t: int, delta: int) -> tuple:
    lst = list(h)
    lst[t] += delta
    return tuple(lst)


def waits(counts, form: str = "all", rules=None) -> list:
    """For a 3k+1 hand: sorted kinds t with counts[t] < 4 such that counts + t
    is complete (by :func:`is_winning`) under form/rules."""
    h = _as_counts(counts)
    n = sum(h)
    _sets_for_size(n)
    if n % 3 != 1:
        raise ValueError(f"waits needs a 3k+1 hand, got {n} tiles")
    return [t for t in range(NUM_KINDS)
            if h[t] < 4 and is_winning(_add(h, t, 1), form=form, rules=rules)]


def effective_tiles(counts, visible=None, form: str = "all", rules=None) -> dict:
    """Tiles that lower the shanten, with their unseen copies.

    3k+1 hand: ``{t: 4 - counts[t] - visible[t]}`` for every kind t with
    counts[t] + visible[t] < 4 and shanten(counts + t) < shanten(counts).
    3k+2 hand: ``{d: effective_tiles(counts - d, visible + d)}`` for every kind d held
    (the discarded copy is in the discard pile, so it counts as visible, not unseen).
    """
    h = _as_counts(counts)
    n = sum(h)
    _sets_for_size(n)
    vis = (0,) * NUM_KINDS if visible is None else tuple(int(v) for v in np.asarray(visible).reshape(-1))
    if len(vis) != NUM_KINDS:
        raise ValueError(f"visible needs 34 counts, got {len(vis)}")
    if any(v < 0 for v in vis) or any(h[i] + vis[i] > 4 for i in range(NUM_KINDS)):
        raise ValueError("visible counts must be >= 0 and counts + visible <= 4")
    if n % 3 == 2:
        return {d: effective_tiles(_add(h, d, -1), _add(vis, d, 1), form=form, rules=rules)
                for d in range(NUM_KINDS) if h[d] > 0}
    base = shanten(h, form=form, rules=rules)
    result = {}
    for t in range(NUM_KINDS):
        if h[t] + vis[t] < 4 and shanten(_add(h, t, 1), form=form, rules=rules) < base:
            result[t] = 4 - h[t] - vis[t]
    return result


# ---------------------------------------------------------------------------
# American beginner hand (rules="american")
#
# Hands are 43 counts (34 standard kinds, f1..f8, jokers; the layout of mjfast.tiles).
# The 8 flowers f1..f8 are one kind, "flower", so there are 35 natural kinds. A target is
# three sets of four of kinds q1, q2, q3 and a pair of kind p, the four kinds different; set i
# holds a_i >= 1 natural tiles of its kind and 4 - a_i jokers, the pair 2 natural tiles (jokers
# never in a pair). As for the other forms, distance = 14 - max over targets of the overlap
# sum over tile types of min(target count, hand count), jokers being one more tile type.
# ---------------------------------------------------------------------------

AMERICAN_KINDS = 35  # 34 standard + flower


def _american_kinds(counts) -> tuple:
    """(35 natural counts with the flowers summed into one kind, jokers) of a 43-count hand."""
    c = [int(x) for x in np.asarray(counts).reshape(-1)]
    if len(c) != 43:
        raise ValueError(f"an American hand needs 43 counts, got {len(c)}")
    return tuple(c[:34]) + (sum(c[34:42]),), c[42]


def _american_overlap(pair_count: int, quad_counts: tuple, jokers: int) -> int:
    """Largest overlap with targets whose pair kind / quad kinds hold these counts.

    Tries every split of each set of four into a >= 1 natural tiles and 4 - a jokers.
    """
    best = 0
    for naturals in itertools.product(range(1, 5), repeat=3):
        jokers_in_target = sum(4 - a for a in naturals)
        ov = (min(2, pair_count) + sum(min(a, c) for a, c in zip(naturals, quad_counts))
              + min(jokers_in_target, jokers))
        best = max(best, ov)
    return best


def american_distance_literal(counts) -> int:
    """Tiles missing for the beginner hand, searching all 35 * C(34, 3) kind choices.

    The literal definition, without any symmetry argument (a few seconds per hand): used to
    check :func:`american_distance`.
    """
    kinds, jokers = _american_kinds(counts)
    seen = set()
    for p in range(AMERICAN_KINDS):
        others = [k for k in range(AMERICAN_KINDS) if k != p]
        for quads in itertools.combinations(others, 3):
            seen.add((kinds[p], tuple(sorted(kinds[q] for q in quads))))
    return 14 - max(_american_overlap(pc, qc, jokers) for pc, qc in seen)


@functools.lru_cache(maxsize=None)
def _american_profile_distance(profile: tuple, jokers: int) -> int:
    # The 35 kinds play identical roles, so only the multiset of counts matters; the kinds
    # not held are interchangeable and a target uses at most 4 of them.
    kinds = list(profile) + [0] * 4
    seen = set()
    for p in range(len(kinds)):
        others = [k for k in range(len(kinds)) if k != p]
        for quads in itertools.combinations(others, 3):
            seen.add((kinds[p], tuple(sorted(kinds[q] for q in quads))))
    return 14 - max(_american_overlap(pc, qc, jokers) for pc, qc in seen)


def american_distance(counts) -> int:
    """Tiles still missing from the American beginner hand (0 = complete; 14-tile target).

    Same definition as :func:`american_distance_literal`, computed on the sorted profile of
    counts (kinds are symmetric; a count above 4 acts as 4, since no target holds more than 4
    of a natural kind) and cached.
    """
    kinds, jokers = _american_kinds(counts)
    profile = tuple(sorted((min(c, 4) for c in kinds if c), reverse=True))
    return _american_profile_distance(profile, jokers)


def american_shanten(counts) -> int:
    """Beginner-hand shanten of a 13- or 14-tile American hand: distance - 1."""
    n = int(np.asarray(counts).sum())
    if n not in (13, 14):
        raise ValueError(f"American hands here hold 13 or 14 tiles, got {n}")
    return american_distance(counts) - 1


def american_is_winning(counts) -> bool:
    """True when a 14-tile hand is a complete beginner hand."""
    if int(np.asarray(counts).sum()) != 14:
        raise ValueError("a complete American hand has 14 tiles")
    return american_distance(counts) == 0


def american_limits(n_jokers: int = 8) -> tuple:
    """Physical copies per kind of the American set: 4 standard, 1 per flower, the jokers."""
    return (4,) * 34 + (1,) * 8 + (n_jokers,)


def american_waits(counts, n_jokers: int = 8) -> list:
    """Kinds (0-42) whose draw completes a 13-tile hand, among those with a copy left."""
    h = tuple(int(x) for x in np.asarray(counts).reshape(-1))
    if sum(h) != 13:
        raise ValueError("waits needs a 13-tile American hand")
    lim = american_limits(n_jokers)
    return [t for t in range(43) if h[t] < lim[t] and american_distance(_add(h, t, 1)) == 0]


def american_effective_tiles(counts, visible=None, n_jokers: int = 8) -> dict:
    """As :func:`effective_tiles`, for the beginner hand on 43 counts (13 or 14 tiles)."""
    h = tuple(int(x) for x in np.asarray(counts).reshape(-1))
    vis = (0,) * 43 if visible is None else tuple(int(v) for v in np.asarray(visible).reshape(-1))
    lim = american_limits(n_jokers)
    if sum(h) == 14:
        return {d: american_effective_tiles(_add(h, d, -1), _add(vis, d, 1), n_jokers)
                for d in range(43) if h[d] > 0}
    base = american_distance(h)
    return {t: lim[t] - h[t] - vis[t] for t in range(43)
            if h[t] + vis[t] < lim[t] and american_distance(_add(h, t, 1)) < base}
