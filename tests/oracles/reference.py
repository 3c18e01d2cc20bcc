"""Slow, obviously-correct pure-Python reference implementation ("oracle").

Nothing here is meant to be fast except :func:`shanten_many`, which is only
vectorised enough to test a million hands.  Everything is written from the
definitions below so that the fast kernels can be checked against it.

Conventions
-----------
* 34 tile kinds: 0-8 = 1m..9m, 9-17 = 1p..9p, 18-26 = 1s..9s,
  27-33 = 1z..7z (East, South, West, North, White, Green, Red).
* A hand is a length-34 sequence of counts 0..4 (tuple, list or numpy array)
  of its *concealed* tiles.
* Hand sizes n = 3k+1 or 3k+2 with 1 <= n <= 14 and k = n // 3.  The
  standard target has k sets + 1 pair (3k+2 tiles); the 4 - k other sets of a
  full hand are called sets (or kongs), which are not part of the counts.
* ``called`` (optional keyword, default None = no called sets): 34 counts of
  the tiles in the hand's own called sets and kongs (a kong counts 4).  Those
  copies are held by the hand, so only ``4 - called_i`` copies of kind i are
  left for the concealed part: every target must have ``T_i <= 4 - called_i``
  (instead of ``T_i <= 4``).  ``concealed_i + called_i > 4`` raises
  ValueError.  An all-zero ``called`` is the same as None.  ``called`` is
  only a copy budget: the oracle does not check that it splits into sets or
  that it fits the hand size (4 - k sets), and the cap applies to every form.

Forms and sizes
---------------
* standard: every size.
* seven pairs, thirteen orphans, honors and knitted tiles: closed hands of 13
  or 14 tiles only.
* knitted straight (MCR): 147 of one suit, 258 of another, 369 of the third
  (the knitted 9; six assignments) + one set + one pair.  The set may be a
  called set, so the form exists at 13/14 concealed tiles (targets: knitted 9
  + one set + one pair, 14 tiles) and at 10/11 concealed tiles (targets:
  knitted 9 + one pair, 11 tiles; the set is outside the counts).

Shanten contract
----------------
For a form F, a *target* is a count vector T (each T_i <= 4 - called_i) that
is a complete concealed part of form F with 3k+2 tiles.
``distance(H, F) = min over targets T of sum_i max(T_i - H_i, 0)`` (tiles
still missing) and ``shanten(H, F) = distance - 1``; -1 means complete, 0
means tenpai.  A form with no target at all (possible only when ``called``
holds most copies of many kinds) is skipped by ``form="all"``; when no form
is left, or an explicit form has no target, the shanten functions raise
ValueError.

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
#: sizes at which the closed special forms (seven pairs, thirteen orphans,
#: honors and knitted) exist
SPECIAL_SIZES = (13, 14)
#: sizes at which the knitted straight exists: 13/14 (knitted 9 + set + pair)
#: and 10/11 (knitted 9 + pair, the set being a called set)
KNITTED_STRAIGHT_SIZES = (10, 11, 13, 14)
#: hand sizes of each non-standard form (the standard form exists at every size)
FORM_SIZES = {
    "seven_pairs": SPECIAL_SIZES,
    "thirteen_orphans": SPECIAL_SIZES,
    "honors_knitted": SPECIAL_SIZES,
    "knitted_straight": KNITTED_STRAIGHT_SIZES,
}
MAX_SETS = 4
#: distance standing for "this form has no target within the copy limits";
#: larger than any real distance (at most 14) and than any sum of real ones
NO_TARGET = 1000


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


def _as_called(called, h: tuple):
    """The hand's called-set copies as a tuple of 34 ints, or None for no called
    sets (None or all zeros); checks 0 <= called_i and h_i + called_i <= 4."""
    if called is None:
        return None
    c = tuple(int(x) for x in np.asarray(called).reshape(-1))
    if len(c) != NUM_KINDS:
        raise ValueError(f"called needs 34 counts, got {len(c)}")
    for i, x in enumerate(c):
        if x < 0:
            raise ValueError(f"called counts must be >= 0, got {x}")
        if h[i] + x > 4:
            raise ValueError(f"kind {i}: {h[i]} concealed + {x} called copies exceed 4")
    return c if any(c) else None


def _caps(called) -> tuple:
    """Per-kind limit of a target: 4 - called_i (None when nothing is called: 4 each)."""
    return None if called is None else tuple(4 - x for x in called)


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
        if rules in ("classical", "basic"):
            candidates = ["standard"]
        elif rules == "mcr":
            candidates = list(FORMS)
        else:
            candidates = ["standard", "seven_pairs", "thirteen_orphans"]
        return [f for f in candidates if f == "standard" or n in FORM_SIZES[f]]
    if form not in FORMS:
        raise ValueError(f"unknown form {form!r}; expected 'all' or one of {FORMS}")
    if form != "standard" and n not in FORM_SIZES[form]:
        raise ValueError(f"form {form!r} needs a hand of {_sizes_text(FORM_SIZES[form])} tiles, got {n}")
    return [form]


def _sizes_text(sizes) -> str:
    """(10, 11, 13, 14) -> '10, 11, 13 or 14'."""
    return ", ".join(str(x) for x in sizes[:-1]) + f" or {sizes[-1]}"


def _finish(d: int, what: str) -> int:
    """shanten = distance - 1, or ValueError when no target exists."""
    if d >= NO_TARGET:
        raise ValueError(f"no complete hand of {what} fits in the copies left by the called sets")
    return d - 1


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


@functools.cache
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


@functools.cache
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


@functools.cache
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


@functools.cache
def _suit_distances_capped(h: tuple, cap: tuple, honors: bool) -> tuple:
    """:func:`suit_distances` with the extra condition ``t_r <= cap_r`` on every
    per-suit target: the same enumerated targets (:func:`_suit_targets`), those
    above the cap dropped; NO_TARGET for a (k, p) with no target left."""
    hv = np.array(h, dtype=np.int16)
    cv = np.array(cap, dtype=np.int16)
    out = []
    for k in range(MAX_SETS + 1):
        for p in range(2):
            T = _suit_targets(k, p, honors).astype(np.int16)
            T = T[(T <= cv).all(axis=1)]
            out.append(int(np.maximum(T - hv, 0).sum(axis=1).min()) if len(T) else NO_TARGET)
    return tuple(out)


# ---------------------------------------------------------------------------
# shanten per form
# ---------------------------------------------------------------------------

@functools.cache
def _splits(k: int) -> tuple:
    """Every (k_m, k_p, k_s, k_z) of non-negative ints summing to k."""
    return tuple(ks for ks in itertools.product(range(k + 1), repeat=4) if sum(ks) == k)


def _suit_tables(h: tuple, cap=None) -> list:
    """suit_distances of the four suits; with per-kind caps (``cap`` = 34 limits)
    a suit whose limits are all 4 uses the plain table (every target already has
    t_r <= 4), any other suit the capped one."""
    tables = []
    for a, b in SUIT_RANGES:
        honors = a == HONOR_START
        if cap is None or all(c == 4 for c in cap[a:b]):
            tables.append(suit_distances(h[a:b], honors=honors))
        else:
            tables.append(_suit_distances_capped(h[a:b], tuple(cap[a:b]), honors))
    return tables


def _standard_distance(h: tuple, k: int, cap=None) -> int:
    tables = _suit_tables(h, cap)
    best = None
    for ks in _splits(k):
        for pair_suit in range(4):
            d = sum(tables[s][2 * ks[s] + (1 if s == pair_suit else 0)] for s in range(4))
            if best is None or d < best:
                best = d
    return min(best, NO_TARGET)


def shanten_standard(counts, called=None) -> int:
    """Shanten for k sets + 1 pair (k = n // 3).

    Why the per-suit split is exact: every set and the pair lie inside one
    suit, so a standard target T is exactly a union of per-suit targets
    (suit s holding k_s sets and p_s pairs, with sum k_s = k and sum p_s = 1),
    and the four-copy limit T_i <= 4 concerns one kind, hence one suit, so T is
    valid iff each per-suit part is.  The distance sum_i max(T_i - H_i, 0) is a
    sum over kinds, hence a sum over suits.  Therefore
    ``distance = min over (k_s), pair suit of sum_s suit_distances(H_s)[2*k_s + p_s]``
    and shanten = distance - 1.

    With ``called``, the limit T_i <= 4 - called_i is again a per-kind, hence
    per-suit, condition: each suit's targets are the same enumeration with the
    ones above the limit dropped (:func:`_suit_distances_capped`), and the
    split argument is unchanged.
    """
    h = _as_counts(counts)
    k = _sets_for_size(sum(h))
    cap = _caps(_as_called(called, h))
    return _finish(_standard_distance(h, k, cap), "the standard form")


def _seven_pairs_distance(h: tuple, kong_as_two_pairs: bool, cap=None) -> int:
    cap = (4,) * NUM_KINDS if cap is None else cap
    # a kind can hold a pair (T_i = 2) only if cap_i >= 2, four (T_i = 4) only if cap_i == 4
    two_ok = [i for i in range(NUM_KINDS) if cap[i] >= 2]
    if not kong_as_two_pairs:
        # Target: 7 distinct kinds with 2 each.  Overlap = sum over the chosen
        # kinds of min(2, H_i); the best choice is the 7 largest values.
        if len(two_ok) < 7:
            return NO_TARGET
        vals = sorted((min(2, h[i]) for i in two_ok), reverse=True)
        return 14 - sum(vals[:7])
    # Target: q kinds with 4 copies and 7 - 2q kinds with 2 copies (q = 0..3).
    # Overlap = sum over 4-kinds of H_i + sum over 2-kinds of min(2, H_i).
    # Try every set of q kinds as the 4-kinds among the held kinds with cap 4;
    # then the 2-kinds are the best 7 - 2q of the rest.  An unheld 4-kind
    # overlaps 0, and can be swapped for two 2-kinds (itself and one more) at
    # no loss whenever 8 kinds can be pairs; with fewer (only when ``called``
    # holds most copies of 27+ kinds) up to 3 unheld 4-kinds are tried too
    # (which unheld kinds does not matter: they overlap 0 wherever they go).
    four_ok = [i for i in range(NUM_KINDS) if cap[i] == 4 and h[i] > 0]
    if len(two_ok) < 8:
        four_ok += [i for i in range(NUM_KINDS) if cap[i] == 4 and h[i] == 0][:3]
    best = None
    for q in range(4):
        for fours in itertools.combinations(four_ok, q):
            rest = sorted((min(2, h[i]) for i in two_ok if i not in fours), reverse=True)
            if len(rest) < 7 - 2 * q:
                continue
            overlap = sum(h[i] for i in fours) + sum(rest[:7 - 2 * q])
            if best is None or overlap > best:
                best = overlap
    return NO_TARGET if best is None else 14 - best


def _check_special_size(h: tuple, form: str) -> None:
    n = sum(h)
    _sets_for_size(n)
    if n not in FORM_SIZES[form]:
        raise ValueError(f"form {form!r} needs a hand of {_sizes_text(FORM_SIZES[form])} tiles, got {n}")


def shanten_seven_pairs(counts, kong_as_two_pairs: bool = False, called=None) -> int:
    """Shanten for seven pairs (13 or 14 tiles).

    Default: the target is 2 copies of each of 7 different kinds, so
    distance = 14 - max over 7 kinds of sum min(2, H_i): take the 7 kinds
    with the largest min(2, H_i).  Four of a kind therefore counts as one pair.

    ``kong_as_two_pairs=True`` (MCR): target counts are in {0, 2, 4} summing
    to 14, i.e. q kinds with 4 and 7 - 2q kinds with 2.  For each q and each
    choice of q held kinds as the 4-kinds (an unheld 4-kind overlaps 0, no
    better than a 2-kind) the remaining 2-kinds are the 7 - 2q best by
    min(2, H_i); the best overlap over all those choices gives the distance.

    With ``called`` only kinds with 4 - called_i >= 2 can be a pair and only
    kinds with called_i = 0 a four.
    """
    h = _as_counts(counts)
    _check_special_size(h, "seven_pairs")
    cap = _caps(_as_called(called, h))
    return _finish(_seven_pairs_distance(h, kong_as_two_pairs, cap), "form 'seven_pairs'")


def _thirteen_orphans_distance(h: tuple, cap=None) -> int:
    if cap is not None:
        # every orphan needs one copy, and the doubled orphan j two
        if any(cap[i] < 1 for i in ORPHANS) or not any(cap[j] >= 2 for j in ORPHANS):
            return NO_TARGET
    distinct = sum(1 for i in ORPHANS if h[i] >= 1)
    # H_j >= 2 implies called_j <= 2, i.e. cap_j >= 2: a held pair can always be the double
    has_pair = any(h[i] >= 2 for i in ORPHANS)
    return 14 - distinct - (1 if has_pair else 0)


def shanten_thirteen_orphans(counts, called=None) -> int:
    """Shanten for thirteen orphans (13 or 14 tiles).

    A target is one of each of the 13 orphan kinds plus one more copy of some
    orphan j.  Its overlap with H is #{orphans held} + [H_j >= 2]; maximising
    over j gives #{orphans held} + [some orphan held twice], and
    distance = 14 - that.  With ``called``, no target exists when an orphan
    has no copy left or no orphan has two left.
    """
    h = _as_counts(counts)
    _check_special_size(h, "thirteen_orphans")
    cap = _caps(_as_called(called, h))
    return _finish(_thirteen_orphans_distance(h, cap), "form 'thirteen_orphans'")


def _honors_knitted_distance(h: tuple, cap=None) -> int:
    best = None
    for perm in KNITTED_PERMS:
        candidates = set(_knitted_kinds(perm)) | set(HONORS)
        if cap is not None:
            candidates = {i for i in candidates if cap[i] >= 1}
            if len(candidates) < 14:
                continue
        held = sum(1 for i in candidates if h[i] >= 1)
        if best is None or min(14, held) > best:
            best = min(14, held)
    return NO_TARGET if best is None else 14 - best


def shanten_honors_knitted(counts, called=None) -> int:
    """Shanten for honors and knitted tiles (MCR; 13 or 14 tiles).

    For a permutation, the 16 candidate kinds are the 7 honors and the 9
    knitted kinds; a target is one copy of 14 of them.  Its overlap with H is
    the number of chosen kinds that H holds, so the best target picks all
    held candidates (up to 14): distance = 14 - min(14, #held candidates),
    minimised over the 6 permutations.  With ``called``, candidates with no
    copy left are dropped (a held kind always has one), and a permutation
    with fewer than 14 candidates left has no target.
    """
    h = _as_counts(counts)
    _check_special_size(h, "honors_knitted")
    cap = _caps(_as_called(called, h))
    return _finish(_honors_knitted_distance(h, cap), "form 'honors_knitted'")


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


@functools.cache
def _knitted_straight_targets(with_set: bool = True) -> np.ndarray:
    """Every knitted-straight target, counts <= 4: knitted 9 + one set + one pair
    (``with_set``, 14 tiles) or knitted 9 + one pair (11 tiles)."""
    found = set()
    sets = _all_sets_34() if with_set else [[0] * NUM_KINDS]
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


def _knitted_straight_distance(h: tuple, k: int, cap=None) -> int:
    if k not in (3, 4):
        raise AssertionError(k)
    targets = _knitted_straight_targets(with_set=(k == 4))
    if cap is not None:
        targets = targets[(targets <= np.array(cap, dtype=np.int8)).all(axis=1)]
        if len(targets) == 0:
            return NO_TARGET
    hv = np.array(h, dtype=np.int8)
    return int(np.maximum(targets - hv, 0).sum(axis=1).min())


def shanten_knitted_straight(counts, called=None) -> int:
    """Shanten for the knitted straight (MCR; 10, 11, 13 or 14 tiles).

    Literal brute force: every target is enumerated once and the distance is
    the minimum over all of them of sum max(T_i - H_i, 0).  At 13/14 tiles a
    target is the knitted 9 + one set + one pair (6 permutations x 55 sets x
    34 pair kinds, dropping any with a count above 4, e.g. a pung plus the
    pair on one kind); a knitted kind thus takes one of its four copies, so 1m
    can still carry a pung (4 copies) but not a pair plus a pung.  At 10/11
    tiles the set is a called one, outside the counts, and a target is the
    knitted 9 + one pair (6 x 34).  With ``called``, the targets with some
    T_i > 4 - called_i are dropped, e.g. a called kong of 1m removes every
    permutation with 147 in characters.
    """
    h = _as_counts(counts)
    _check_special_size(h, "knitted_straight")
    cap = _caps(_as_called(called, h))
    return _finish(_knitted_straight_distance(h, sum(h) // 3, cap), "form 'knitted_straight'")


def _form_distance(h: tuple, k: int, form: str, rules, cap=None) -> int:
    if form == "standard":
        return _standard_distance(h, k, cap)
    if form == "seven_pairs":
        return _seven_pairs_distance(h, kong_as_two_pairs=(rules == "mcr"), cap=cap)
    if form == "thirteen_orphans":
        return _thirteen_orphans_distance(h, cap)
    if form == "honors_knitted":
        return _honors_knitted_distance(h, cap)
    if form == "knitted_straight":
        return _knitted_straight_distance(h, k, cap)
    raise AssertionError(form)


def shanten(counts, form: str = "all", rules=None, called=None) -> int:
    """Shanten of a hand for ``form`` ("all" or one form) under ``rules``.

    ``form="all"``: rules=None -> min(standard, seven_pairs, thirteen_orphans);
    "classical"/"basic" -> standard; "mcr" -> min over all five forms with
    seven pairs counting a four of a kind as two pairs.  Seven pairs,
    thirteen orphans and honors-and-knitted only apply to 13 and 14 tiles,
    the knitted straight to 10, 11, 13 and 14 tiles; "all" leaves out the
    forms that do not exist at the hand's size, and an explicit form at
    another size raises ValueError.

    ``called``: 34 counts of the tiles in the hand's called sets; targets
    then satisfy T_i <= 4 - called_i (see the module docstring).
    """
    h = _as_counts(counts)
    n = sum(h)
    k = _sets_for_size(n)
    forms = _forms_for(form, rules, n)
    cap = _caps(_as_called(called, h))
    return _finish(min(_form_distance(h, k, f, rules, cap) for f in forms), f"form {form!r}")


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


def _suit_rows_capped(block: np.ndarray, capblock, honors: bool) -> np.ndarray:
    """:func:`_suit_rows` with per-row limits (``capblock`` of the same shape, or
    None for 4 everywhere): rows whose limits are not all 4 are looked up once
    per distinct (suit, limits) in :func:`_suit_distances_capped`."""
    out = _suit_rows(block, honors)
    if capblock is None:
        return out
    rows = np.nonzero((capblock < 4).any(axis=1))[0]
    if len(rows):
        width = block.shape[1]
        keys = np.concatenate([block[rows], capblock[rows]], axis=1).astype(np.int16)
        uniq, inv = np.unique(keys, axis=0, return_inverse=True)
        vals = np.array([_suit_distances_capped(tuple(u[:width]), tuple(u[width:]), honors)
                         for u in uniq.tolist()], dtype=np.int16)
        out[:, rows] = vals[inv.reshape(-1)].T
    return out


def _suit_distance_arrays(H: np.ndarray, C=None) -> list:
    """[D_m, D_p, D_s, D_z]: each (10, N), column j = suit_distances of that suit of
    row j (under the limits of row j of C when C is given)."""
    return [_suit_rows_capped(H[:, a:b], None if C is None else C[:, a:b], honors=(a == HONOR_START))
            for a, b in SUIT_RANGES]


def _standard_distance_many(D: list, k: int) -> np.ndarray:
    """Vectorised twin of _standard_distance: the same min over (k_s), pair suit."""
    n = D[0].shape[1]
    best = np.full(n, NO_TARGET, dtype=np.int16)
    total = np.empty(n, dtype=np.int16)
    for ks in _splits(k):
        for pair_suit in range(4):
            rows = [D[s][2 * ks[s] + (1 if s == pair_suit else 0)] for s in range(4)]
            np.add(rows[0], rows[1], out=total)
            total += rows[2]
            total += rows[3]
            np.minimum(best, total, out=best)
    return best


def _seven_pairs_distance_many(H: np.ndarray, kong_as_two_pairs: bool, C=None) -> np.ndarray:
    first = np.minimum(H, 2)
    if C is not None:
        # a kind without two copies left cannot be a pair: its unit is never worth taking
        first = np.where(C >= 2, first, -NO_TARGET)
    if not kong_as_two_pairs:
        return np.minimum(14 - np.sort(first, axis=1)[:, -7:].sum(axis=1), NO_TARGET)
    # Each kind may be used as 0, 1 or 2 "pair units" (target 0, 2, 4); the
    # first unit gains min(2, H_i), the second H_i - min(2, H_i) <= the first,
    # so the best 7 units are the 7 largest of these 68 marginal gains (when a
    # second unit is picked, its kind's first unit is at least as large and is
    # picked too, up to ties).  Independent of the scalar enumeration.  With
    # limits, a second unit needs all four copies (C_i == 4, which allows the
    # first unit too); a unit that is not allowed gains -NO_TARGET.
    second = H - np.minimum(H, 2)
    if C is not None:
        second = np.where(C == 4, second, -NO_TARGET)
    gains = np.concatenate([first, second], axis=1)
    return np.minimum(14 - np.sort(gains, axis=1)[:, -7:].sum(axis=1), NO_TARGET)


def _thirteen_orphans_distance_many(H: np.ndarray, C=None) -> np.ndarray:
    o = H[:, list(ORPHANS)]
    d = 14 - (o >= 1).sum(axis=1) - (o >= 2).any(axis=1)
    if C is not None:
        oc = C[:, list(ORPHANS)]
        d = np.where((oc >= 1).all(axis=1) & (oc >= 2).any(axis=1), d, NO_TARGET)
    return d


def _honors_knitted_distance_many(H: np.ndarray, C=None) -> np.ndarray:
    held = H >= 1
    best = np.full(len(H), -NO_TARGET, dtype=np.int16)
    for perm in KNITTED_PERMS:
        cand = list(_knitted_kinds(perm)) + list(HONORS)
        value = np.minimum(held[:, cand].sum(axis=1), 14)
        if C is not None:
            value = np.where((C[:, cand] >= 1).sum(axis=1) >= 14, value, -NO_TARGET)
        best = np.maximum(best, value)
    return np.minimum(14 - best, NO_TARGET)


def _knitted_straight_distance_many(H: np.ndarray, k: int, C=None) -> np.ndarray:
    """Vectorised knitted straight, by a different route from the scalar brute force.

    A target is K + X: K the knitted indicator (0/1) of a permutation, X a
    standard target with k - 3 sets and a pair (a set and a pair at 13/14
    tiles, a pair alone at 10/11).  min(K_i + X_i, H_i) =
    min(K_i, H_i) + min(X_i, H'_i) with H' = max(H - K, 0), and the limit
    K + X <= cap (cap = 4 - called) is X <= cap - K: a standard target of H'
    under the limits cap - K (none if some cap - K < 0, e.g. a called kong of
    a knitted kind).  Hence distance = (9 - #knitted kinds held) + standard
    (k - 3)-set distance of H' under those limits.  Without ``called`` the
    limits cap - K (3 on the knitted kinds) never bind: X_i <= 3 for a set
    plus a pair, except a pung and the pair on one kind (5, never allowed),
    so the plain tables are used.  Suit s with pattern r (ranks r+1, r+4, r+7)
    is handled once and reused by the two permutations that give suit s that
    pattern.
    """
    held = {}
    resid = {}
    feasible = {}
    for s in range(3):
        block = H[:, 9 * s:9 * s + 9]
        cblock = None if C is None else C[:, 9 * s:9 * s + 9]
        for r in range(3):
            ranks = [r, r + 3, r + 6]
            held[s, r] = (block[:, ranks] >= 1).sum(axis=1)
            rb = block.copy()
            rb[:, ranks] = np.maximum(rb[:, ranks] - 1, 0)
            if cblock is None:
                feasible[s, r] = np.ones(len(H), dtype=bool)
                resid[s, r] = _suit_rows(rb, honors=False)
            else:
                cb = cblock.copy()
                cb[:, ranks] -= 1
                feasible[s, r] = (cb >= 0).all(axis=1)
                resid[s, r] = _suit_rows_capped(rb, np.maximum(cb, 0), honors=False)
    DZ = _suit_rows_capped(H[:, HONOR_START:], None if C is None else C[:, HONOR_START:], honors=True)
    best = np.full(len(H), NO_TARGET, dtype=np.int16)
    for perm in KNITTED_PERMS:
        # perm = (A, B, C): suit A has pattern 0 (147), B pattern 1, C pattern 2
        pattern = {suit: r for r, suit in enumerate(perm)}
        n_held = sum(held[s, pattern[s]] for s in range(3))
        DR = [resid[s, pattern[s]] for s in range(3)] + [DZ]
        d = 9 - n_held + _standard_distance_many(DR, k - 3)
        ok = feasible[0, pattern[0]] & feasible[1, pattern[1]] & feasible[2, pattern[2]]
        np.minimum(best, np.where(ok, d, NO_TARGET), out=best)
    return np.minimum(best, NO_TARGET)


def _called_rows(called, H: np.ndarray):
    """Limits 4 - called for every row of H, as (N, 34) int16, or None for no called sets.

    ``called`` is None, one 34-vector for every row, or an (N, 34) array."""
    if called is None:
        return None
    c = np.asarray(called)
    if c.ndim == 1:
        c = np.broadcast_to(c, (len(H), c.shape[0]))
    if c.ndim != 2 or c.shape != (len(H), NUM_KINDS):
        raise ValueError(f"called must have shape (34,) or ({len(H)}, 34), got {np.shape(called)}")
    c = c.astype(np.int16)
    if c.size and c.min() < 0:
        raise ValueError("called counts must be >= 0")
    if c.size and (H + c).max() > 4:
        raise ValueError("concealed + called copies of a kind exceed 4")
    if not c.any():
        return None
    return 4 - c


def shanten_many(hands, form: str = "all", rules=None, called=None) -> np.ndarray:
    """``shanten`` for every row of an (N, 34) array, as int8.

    Rows may have different (valid) sizes.  Per-suit distances come from the
    memoised :func:`suit_distances` (looked up once per distinct suit), the
    split minimisation and the special forms are vectorised with numpy.
    ``called`` is None, a 34-vector applying to every row, or an (N, 34)
    array of each row's called-set copies (see :func:`shanten`).
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
    C = _called_rows(called, H)
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

    D = _suit_distance_arrays(H, C)
    for n, forms in forms_by_size.items():
        rows = np.nonzero(sizes == n)[0]
        Hn = H[rows]
        Cn = None if C is None else C[rows]
        Dn = [d[:, rows] for d in D]
        k = n // 3
        best = np.full(len(rows), NO_TARGET, dtype=np.int16)
        for f in forms:
            if f == "standard":
                d = _standard_distance_many(Dn, k)
            elif f == "seven_pairs":
                d = _seven_pairs_distance_many(Hn, kong_as_two_pairs=(rules == "mcr"), C=Cn)
            elif f == "thirteen_orphans":
                d = _thirteen_orphans_distance_many(Hn, Cn)
            elif f == "honors_knitted":
                d = _honors_knitted_distance_many(Hn, Cn)
            else:
                d = _knitted_straight_distance_many(Hn, k, Cn)
            np.minimum(best, d, out=best)
        if (best >= NO_TARGET).any():
            j = int(rows[np.argmax(best >= NO_TARGET)])
            raise ValueError(f"row {j}: no complete hand of form {form!r} fits in the copies "
                             "left by the called sets")
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
    if form == "knitted_straight":
        # 14 tiles: knitted 9 + set + pair; 11 tiles: knitted 9 + pair (the set is called)
        if n not in (11, 14):
            return False
        for perm in KNITTED_PERMS:
            knitted = _knitted_kinds(perm)
            if all(h[i] >= 1 for i in knitted):
                rest = list(h)
                for i in knitted:
                    rest[i] -= 1
                if _can_complete(rest, True):
                    return True
        return False
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
    raise AssertionError(form)


def is_winning(counts, form: str = "all", rules=None, called=None) -> bool:
    """Is the hand complete?  Recursive decomposition for the standard form,
    direct pattern checks for the special forms; a 3k+1 hand is never complete.

    The knitted straight is complete at 14 tiles (knitted 9 + set + pair) and
    at 11 tiles (knitted 9 + pair, its set being a called one).  ``called``
    is only checked (concealed + called <= 4 per kind): the concealed tiles
    are in the hand, so whether they form a complete shape does not depend on
    the called sets."""
    h = _as_counts(counts)
    n = sum(h)
    _sets_for_size(n)
    _as_called(called, h)
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


def waits(counts, form: str = "all", rules=None, called=None) -> list:
    """For a 3k+1 hand: sorted kinds t with counts[t] + called[t] < 4 (a copy
    exists outside the hand) such that counts + t is complete (by
    :func:`is_winning`) under form/rules."""
    h = _as_counts(counts)
    n = sum(h)
    _sets_for_size(n)
    if n % 3 != 1:
        raise ValueError(f"waits needs a 3k+1 hand, got {n} tiles")
    c = _as_called(called, h) or (0,) * NUM_KINDS
    return [t for t in range(NUM_KINDS)
            if h[t] + c[t] < 4 and is_winning(_add(h, t, 1), form=form, rules=rules, called=called)]


def effective_tiles(counts, visible=None, form: str = "all", rules=None, called=None) -> dict:
    """Tiles that lower the shanten, with their unseen copies.

    3k+1 hand: ``{t: 4 - counts[t] - called[t] - visible[t]}`` for every kind t
    with counts[t] + called[t] + visible[t] < 4 and
    shanten(counts + t) < shanten(counts) (both with ``called``).
    3k+2 hand: ``{d: effective_tiles(counts - d, visible + d)}`` for every kind d held
    (the discarded copy is in the discard pile, so it counts as visible, not unseen).
    ``visible`` are tiles seen outside the hand (it must not repeat the hand's
    own called tiles, which are ``called``); counts + called + visible <= 4.
    """
    h = _as_counts(counts)
    n = sum(h)
    _sets_for_size(n)
    c = _as_called(called, h) or (0,) * NUM_KINDS
    vis = (0,) * NUM_KINDS if visible is None else tuple(int(v) for v in np.asarray(visible).reshape(-1))
    if len(vis) != NUM_KINDS:
        raise ValueError(f"visible needs 34 counts, got {len(vis)}")
    if any(v < 0 for v in vis) or any(h[i] + c[i] + vis[i] > 4 for i in range(NUM_KINDS)):
        raise ValueError("visible counts must be >= 0 and counts + called + visible <= 4")
    if n % 3 == 2:
        return {d: effective_tiles(_add(h, d, -1), _add(vis, d, 1), form=form, rules=rules, called=called)
                for d in range(NUM_KINDS) if h[d] > 0}
    base = shanten(h, form=form, rules=rules, called=called)
    result = {}
    for t in range(NUM_KINDS):
        if h[t] + c[t] + vis[t] < 4 and shanten(_add(h, t, 1), form=form, rules=rules, called=called) < base:
            result[t] = 4 - h[t] - c[t] - vis[t]
    return result


# ---------------------------------------------------------------------------
# American beginner hand (rules="american")
#
# Hands are 43 counts (34 standard kinds, f1..f8, jokers; the layout of mjfast.tiles).
# The 8 flowers f1..f8 are one kind, "flower", so there are 35 natural kinds. A target is
# three sets of four of kinds q1, q2, q3 and a pair of kind p, the four kinds different; set i
# holds a_i natural tiles of its kind and 4 - a_i jokers, the pair 2 natural tiles (jokers
# never in a pair). The joker reading ``all_joker_sets`` (the rules' option) bounds a_i:
# True (the default, the common NMJL reading): a_i >= 0, a concealed set may be all jokers;
# False: a_i >= 1, each set keeps a natural tile. As for the other forms, distance = 14 - max
# over targets of the overlap sum over tile types of min(target count, hand count), jokers
# being one more tile type.
# ---------------------------------------------------------------------------

AMERICAN_KINDS = 35  # 34 standard + flower


def _american_kinds(counts) -> tuple:
    """(35 natural counts with the flowers summed into one kind, jokers) of a 43-count hand."""
    c = [int(x) for x in np.asarray(counts).reshape(-1)]
    if len(c) != 43:
        raise ValueError(f"an American hand needs 43 counts, got {len(c)}")
    return tuple(c[:34]) + (sum(c[34:42]),), c[42]


def _american_overlap(pair_count: int, quad_counts: tuple, jokers: int, all_joker_sets: bool = True) -> int:
    """Largest overlap with targets whose pair kind / quad kinds hold these counts.

    Tries every split of each set of four into a natural tiles and 4 - a jokers: a >= 0 with
    ``all_joker_sets`` (a set may be all jokers), a >= 1 without.
    """
    best = 0
    for naturals in itertools.product(range(0 if all_joker_sets else 1, 5), repeat=3):
        jokers_in_target = sum(4 - a for a in naturals)
        ov = (min(2, pair_count) + sum(min(a, c) for a, c in zip(naturals, quad_counts))
              + min(jokers_in_target, jokers))
        best = max(best, ov)
    return best


def american_distance_literal(counts, all_joker_sets: bool = True) -> int:
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
    return 14 - max(_american_overlap(pc, qc, jokers, all_joker_sets) for pc, qc in seen)


@functools.cache
def _american_profile_distance(profile: tuple, jokers: int, all_joker_sets: bool = True) -> int:
    # The 35 kinds play identical roles, so only the multiset of counts matters; the kinds
    # not held are interchangeable and a target uses at most 4 of them.
    kinds = list(profile) + [0] * 4
    seen = set()
    for p in range(len(kinds)):
        others = [k for k in range(len(kinds)) if k != p]
        for quads in itertools.combinations(others, 3):
            seen.add((kinds[p], tuple(sorted(kinds[q] for q in quads))))
    return 14 - max(_american_overlap(pc, qc, jokers, all_joker_sets) for pc, qc in seen)


def american_distance(counts, all_joker_sets: bool = True) -> int:
    """Tiles still missing from the American beginner hand (0 = complete; 14-tile target).

    Same definition as :func:`american_distance_literal`, computed on the sorted profile of
    counts (kinds are symmetric; a count above 4 acts as 4, since no target holds more than 4
    of a natural kind) and cached.
    """
    kinds, jokers = _american_kinds(counts)
    profile = tuple(sorted((min(c, 4) for c in kinds if c), reverse=True))
    return _american_profile_distance(profile, jokers, bool(all_joker_sets))


def american_shanten(counts, all_joker_sets: bool = True) -> int:
    """Beginner-hand shanten of a 13- or 14-tile American hand: distance - 1."""
    n = int(np.asarray(counts).sum())
    if n not in (13, 14):
        raise ValueError(f"American hands here hold 13 or 14 tiles, got {n}")
    return american_distance(counts, all_joker_sets) - 1


def american_is_winning(counts, all_joker_sets: bool = True) -> bool:
    """True when a 14-tile hand is a complete beginner hand."""
    if int(np.asarray(counts).sum()) != 14:
        raise ValueError("a complete American hand has 14 tiles")
    return american_distance(counts, all_joker_sets) == 0


def american_limits(n_jokers: int = 8) -> tuple:
    """Physical copies per kind of the American set: 4 standard, 1 per flower, the jokers."""
    return (4,) * 34 + (1,) * 8 + (n_jokers,)


def american_waits(counts, n_jokers: int = 8, all_joker_sets: bool = True) -> list:
    """Kinds (0-42) whose draw completes a 13-tile hand, among those with a copy left."""
    h = tuple(int(x) for x in np.asarray(counts).reshape(-1))
    if sum(h) != 13:
        raise ValueError("waits needs a 13-tile American hand")
    lim = american_limits(n_jokers)
    return [t for t in range(43) if h[t] < lim[t] and american_distance(_add(h, t, 1), all_joker_sets) == 0]


def american_effective_tiles(counts, visible=None, n_jokers: int = 8, all_joker_sets: bool = True) -> dict:
    """As :func:`effective_tiles`, for the beginner hand on 43 counts (13 or 14 tiles)."""
    h = tuple(int(x) for x in np.asarray(counts).reshape(-1))
    vis = (0,) * 43 if visible is None else tuple(int(v) for v in np.asarray(visible).reshape(-1))
    lim = american_limits(n_jokers)
    if sum(h) == 14:
        return {d: american_effective_tiles(_add(h, d, -1), _add(vis, d, 1), n_jokers, all_joker_sets)
                for d in range(43) if h[d] > 0}
    base = american_distance(h, all_joker_sets)
    return {t: lim[t] - h[t] - vis[t] for t in range(43)
            if h[t] + vis[t] < lim[t] and american_distance(_add(h, t, 1), all_joker_sets) < base}
