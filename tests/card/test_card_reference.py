"""mjfast.card against the plain-Python reference (tests/oracles/card_ref.py) on the toy card.

The reference expands the toy card's patterns itself and computes distances by maximum bipartite
matching between tiles and tile places (not the kernel's counting formula); match, waits,
callable and the Charleston choice are brute force over tiles and subsets.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import mjfast
from mjfast.card import DEAD, load_card, toy_card
from mjfast.tiles import tile_index
from oracles import card_ref as ref

JOKER, FLOWER = ref.JOKER, ref.FLOWER
WALL0 = tuple(ref.COPIES) + (8,)            # the American set in the 36-kind model (8 jokers)

# both joker readings: the default (a concealed set of 3+ may be all jokers) and all_joker_sets=False
# (each set of 3+ keeps a natural tile), each against the reference built with the same reading
CARD = toy_card()
REF = ref.RefCard(ref.TOY_LINES, all_joker_sets=True)
ONE_CARD = load_card({"format": "mjfast-card/1", "name": "toy, a natural tile per set", "all_joker_sets": False,
                      "lines": [dict(line) for line in ref.TOY_LINES]})
ONE_REF = ref.RefCard(ref.TOY_LINES, all_joker_sets=False)
HYP = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


# ------------------------------------------------------------------------------------------ helpers

def to43(h36) -> np.ndarray:
    """43 counts (f1..f8 one each, jokers last) of a 36-kind hand."""
    row = np.zeros(43, np.uint8)
    row[:34] = h36[:34]
    row[34:34 + h36[FLOWER]] = 1
    row[42] = h36[JOKER]
    return row


def h36(text: str) -> list[int]:
    from mjfast.tiles import parse_tiles
    p = parse_tiles(text, max_jokers=16, max_tiles=None)
    return [int(c) for c in p.concealed] + [int(p.bonus.sum()), int(p.jokers)]


def kind_of(name: str) -> int:
    return FLOWER if name.startswith("f") else JOKER if name == "j" else tile_index(name)


def text_sets(text: str) -> tuple:
    """The sets of a variation's ``text`` (``"1111m 4444p 7777s 44z"``, flowers ``fff``)."""
    out = []
    for tok in text.split():
        if tok[0] == "f":
            out.append((FLOWER, len(tok)))
        else:
            out.append(("mpsz".index(tok[-1]) * 9 + int(tok[0]) - 1, len(tok) - 1))
    return tuple(sorted(out))


class Case(NamedTuple):
    hand: list            # 36 counts (concealed)
    exposures: list       # (kind, size, jokers)
    visible: list | None  # 36 counts or None


def _draw(rng, wall, jokers=True) -> int:
    kinds = [k for k in range(36) if wall[k] and (jokers or k != JOKER)]
    w = np.array([wall[k] for k in kinds], float)
    k = kinds[int(rng.choice(len(kinds), p=w / w.sum()))]
    wall[k] -= 1
    return k


def _random_exposure(rng, wall, exp_jokers):
    for _ in range(30):
        k, s = int(rng.integers(35)), int(rng.integers(3, 7))
        if not wall[k] or (not exp_jokers and wall[k] < s):
            continue
        nat = int(rng.integers(1, min(wall[k], s) + 1)) if exp_jokers else s
        if s - nat > wall[JOKER]:
            continue
        wall[k] -= nat
        wall[JOKER] -= s - nat
        return (k, s, s - nat)
    return None


def near_case(rng, card: ref.RefCard, size: int, *, exposures=True, exp_jokers=True, visible=False,
              wrong=0.3) -> Case:
    """A hand near a random variation of the card: its sets (some places filled by jokers),
    possibly some of its sets of 3+ exposed (sometimes replaced by a random exposure), a few
    tiles swapped for random ones, then trimmed or filled to ``size`` tiles with the exposures."""
    wall = list(WALL0)
    line = card.lines[int(rng.integers(len(card.lines)))]
    v = line["variations"][int(rng.integers(len(line["variations"])))]
    p_joker = float(rng.choice([0.0, 0.2, 0.5]))
    groups = []
    for k, s in v:
        tiles = []
        for i in range(s):
            flexible = s >= 3 and (i > 0 or card.all_joker_sets)
            if flexible and wall[JOKER] and rng.random() < p_joker:
                t = JOKER
            elif wall[k]:
                t = k
            elif flexible and wall[JOKER]:
                t = JOKER
            else:
                continue
            wall[t] -= 1
            tiles.append(t)
        groups.append((k, s, tiles))
    exps = []
    if exposures and rng.random() < 0.6:
        cands = [g for g in groups if g[1] >= 3 and len(g[2]) == g[1] and g[0] in g[2]
                 and (exp_jokers or JOKER not in g[2])]
        for i in rng.permutation(len(cands))[:int(rng.integers(1, 4))]:
            g = cands[int(i)]
            groups.remove(g)
            exps.append((g[0], g[1], g[2].count(JOKER)))
        if exps and rng.random() < wrong:
            k, s, j = exps.pop()
            wall[k] += s - j
            wall[JOKER] += j
            new = _random_exposure(rng, wall, exp_jokers)
            if new is None:
                wall[k] -= s - j
                wall[JOKER] -= j
                new = (k, s, j)
            exps.append(new)
    while sum(e[1] for e in exps) > size:
        k, s, j = exps.pop()
        wall[k] += s - j
        wall[JOKER] += j
    concealed = [t for g in groups for t in g[2]]
    for _ in range(int(rng.integers(0, 4))):
        if concealed:
            wall[concealed.pop(int(rng.integers(len(concealed))))] += 1
        concealed.append(_draw(rng, wall))
    while len(concealed) + sum(e[1] for e in exps) > size:
        wall[concealed.pop(int(rng.integers(len(concealed))))] += 1
    while len(concealed) + sum(e[1] for e in exps) < size:
        concealed.append(_draw(rng, wall))
    hand = [0] * 36
    for t in concealed:
        hand[t] += 1
    vis = None
    if visible:
        vis = [0] * 36
        for _ in range(int(rng.integers(0, 70))):
            vis[_draw(rng, wall)] += 1
    return Case(hand, exps, vis)


def uniform_case(rng, size: int, visible=False) -> Case:
    """``size`` tiles from the 152-tile set, 0-4 of them jokers."""
    wall = list(WALL0)
    hand = [0] * 36
    j = int(rng.integers(0, 5))
    hand[JOKER], wall[JOKER] = j, wall[JOKER] - j
    for _ in range(size - j):
        hand[_draw(rng, wall, jokers=False)] += 1
    vis = None
    if visible:
        vis = [0] * 36
        for _ in range(int(rng.integers(0, 70))):
            vis[_draw(rng, wall)] += 1
    return Case(hand, [], vis)


def ref_distances(rc: ref.RefCard, case: Case) -> list[int]:
    unseen = None if case.visible is None else ref.unseen_counts(case.hand, case.exposures, case.visible)
    return rc.line_distances(case.hand, case.exposures, unseen)


def kernel_distances(card, case: Case, **kw) -> list[int]:
    vis = None if case.visible is None else np.array(case.visible, np.int64)
    return card.distance(to43(case.hand), exposures=list(case.exposures), visible=vis, **kw).tolist()


def explain(case: Case) -> str:
    names = [("f" if k == FLOWER else "j" if k == JOKER else f"{k % 9 + 1}{'mpsz'[k // 9]}") + f"x{n}"
             for k, n in enumerate(case.hand) if n]
    return f"hand {' '.join(names)}, exposures {case.exposures}, visible {case.visible}"


def check_cases(card, rc, cases):
    """Kernel = reference for every case, one hand at a time and as batches (threads 1 and 2)."""
    want = [ref_distances(rc, c) for c in cases]
    for c, w in zip(cases, want):
        assert kernel_distances(card, c) == w, explain(c)
    for with_vis in (False, True):
        idx = [i for i, c in enumerate(cases) if (c.visible is not None) == with_vis]
        if not idx:
            continue
        hands = np.array([to43(cases[i].hand) for i in idx])
        exps = [list(cases[i].exposures) for i in idx]
        vis = np.array([cases[i].visible for i in idx], np.int64) if with_vis else None
        one = card.distance(hands, exposures=exps, visible=vis, threads=1)
        two = card.distance(hands, exposures=exps, visible=vis, threads=2)
        assert one.shape == (len(idx), len(card.lines)) and one.dtype == np.int8
        assert np.array_equal(one, two)
        assert one.tolist() == [want[i] for i in idx]


# ------------------------------------------------------------------------------------------ the card

def test_reference_card_is_the_toy_card():
    assert CARD.ids == tuple(line["id"] for line in ref.TOY_LINES)
    for line, r in zip(CARD.lines, REF.lines):
        assert line.pattern == (r["pattern"],)
        assert (line.points, line.concealed, line.jokerless_bonus) == (r["points"], r["concealed"], r["jokerless_bonus"])
        assert line.vars == r["vars"]


def test_readings():
    assert CARD.all_joker_sets and REF.all_joker_sets            # the default reading
    assert not ONE_CARD.all_joker_sets and not ONE_REF.all_joker_sets


@pytest.mark.parametrize("card,rc", [(CARD, REF), (ONE_CARD, ONE_REF)], ids=["toy", "one-natural-per-set"])
def test_expansion_equals_reference(card, rc):
    var = card.variations
    assert len(var) == 195
    for li, r in enumerate(rc.lines):
        rows = var[var["line"] == li]
        assert len(r["variations"]) == ref.TOY_COUNTS[r["id"]]
        assert sorted(text_sets(t) for t in rows["text"]) == sorted(r["variations"]), r["id"]
        assert set(rows["id"]) == {r["id"]}
        for row in rows:
            nat, flex = [0] * 36, [0] * 36
            for k, ok in ref.slots(text_sets(row["text"]), rc.all_joker_sets):
                (flex if ok else nat)[k] += 1
            assert row["natural"].tolist() == nat and row["flexible"].tolist() == flex, row["text"]


# ------------------------------------------------------------------------------------------ distances

@pytest.mark.parametrize("seed", range(4))
def test_random_hands_without_exposures(seed):
    rng = np.random.default_rng(1700 + seed)
    cases = [uniform_case(rng, int(rng.choice([13, 14]))) for _ in range(25)]
    cases += [near_case(rng, REF, int(rng.choice([13, 14])), exposures=False) for _ in range(35)]
    check_cases(CARD, REF, cases)


@pytest.mark.parametrize("seed", range(4))
def test_random_hands_with_exposures(seed):
    rng = np.random.default_rng(1800 + seed)
    cases = [near_case(rng, REF, int(rng.choice([13, 14]))) for _ in range(60)]
    assert sum(1 for c in cases if c.exposures) > 20
    check_cases(CARD, REF, cases)


@pytest.mark.parametrize("seed", range(4))
def test_random_hands_with_visible_tiles(seed):
    rng = np.random.default_rng(1900 + seed)
    cases = [uniform_case(rng, int(rng.choice([13, 14])), visible=True) for _ in range(15)]
    cases += [near_case(rng, REF, int(rng.choice([13, 14])), visible=True) for _ in range(45)]
    check_cases(CARD, REF, cases)
    assert any(DEAD in ref_distances(REF, c) and c.visible and not c.exposures for c in cases)


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("card,rc", [(CARD, REF), (ONE_CARD, ONE_REF)], ids=["all-joker-sets", "one-natural-per-set"])
def test_random_hands_each_reading(seed, card, rc):
    rng = np.random.default_rng(2000 + seed)
    cases = [near_case(rng, rc, int(rng.choice([13, 14])), visible=bool(i % 2))
             for i in range(50)]
    check_cases(card, rc, cases)


@pytest.mark.parametrize("seed", range(2))
def test_readings_differ_exactly_on_all_joker_sets(seed):
    """Hands whose sets are all jokers: the default reading counts them, the other does not;
    and no distance is larger under the default (it only adds places a joker may take)."""
    rng = np.random.default_rng(2100 + seed)
    cases = [near_case(rng, REF, int(rng.choice([13, 14])), visible=bool(i % 2)) for i in range(80)]
    a, b = _batch(CARD, cases), _batch(ONE_CARD, cases)
    assert (a <= b).all()
    assert (a < b).any()
    check_cases(ONE_CARD, ONE_REF, cases)
    assert CARD.distance("1111m 4444p jjjj 44z")[0] == 0           # toy-1 with a kong of four jokers
    assert ONE_CARD.distance("1111m 4444p jjjj 44z")[0] == 1


@pytest.mark.parametrize("seed", range(3))
def test_random_hands_of_any_size(seed):
    rng = np.random.default_rng(2100 + seed)
    cases = [near_case(rng, REF, int(rng.integers(0, 15)), visible=bool(i % 3 == 0))
             for i in range(40)]
    check_cases(CARD, REF, cases)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(20))
def test_random_hands_many(seed):
    rng = np.random.default_rng(5000 + seed)
    cases = [near_case(rng, REF, int(rng.choice([12, 13, 14])), visible=bool(i % 2))
             for i in range(150)]
    cases += [uniform_case(rng, 14, visible=bool(i % 2)) for i in range(50)]
    check_cases(CARD, REF, cases)


# ------------------------------------------------------------------------------------------ input forms

def _deal_h36(d, i: int, seat: int) -> list[int]:
    """36 counts of a dealt American hand: its standard tiles, its flowers (one kind), its jokers."""
    return [int(c) for c in d.hands[i, seat]] + [int(d.bonus[i, seat].sum()), int(d.jokers[i, seat])]


def test_every_input_form_of_dealt_hands_equals_the_reference():
    # a deal's hands with their flowers and jokers, in every form distance()
    # reads, one hand at a time and as batches of leading shape (n, 4), against the reference
    n = 6
    d = mjfast.deal(n, rules="american", seed=1)
    want = np.array([[REF.line_distances(_deal_h36(d, i, s)) for s in range(4)] for i in range(n)])
    assert want[2, 0, :2].tolist() == [10, 8]                        # the figures
    h36 = np.array([[_deal_h36(d, i, s) for s in range(4)] for i in range(n)], np.uint8)
    h43 = np.array([[to43(h36[i, s]) for s in range(4)] for i in range(n)])
    texts = [[d.hand_text(i, s) for s in range(4)] for i in range(n)]
    packed = mjfast.pack(h43.reshape(-1, 43)).reshape(n, 4, 5)
    arrays = {"36 counts": h36, "43 counts": h43, "43 counts, int64": h43.astype(np.int64), "packed": packed,
              "text array": np.array(texts)}
    for form, hands in [("Deals", d), ("texts", texts), *arrays.items()]:
        got = CARD.distance(hands)
        assert got.shape == (n, 4, len(CARD.ids)) and got.dtype == np.int8, form
        assert np.array_equal(got, want), form
    for form, hands in [("texts", texts[1]), *((f, a[1]) for f, a in arrays.items())]:
        assert np.array_equal(CARD.distance(hands), want[1]), form    # one deal's four hands: shape (4, L)
    for i, s in [(0, 0), (2, 0), (3, 1), (5, 3)]:
        for one in (texts[i][s], h36[i, s], h36[i, s].tolist(), h43[i, s], packed[i, s]):
            assert CARD.distance(one).tolist() == want[i, s].tolist(), (i, s, one)
    assert CARD.distance(h36.reshape(-1, 36)).tolist() == want.reshape(-1, len(CARD.ids)).tolist()


def test_one_hand_queries_read_36_counts_as_the_other_forms():
    d = mjfast.deal(4, rules="american", seed=2)
    for i in range(4):
        row = np.array(_deal_h36(d, i, 0), np.uint8)                   # the dealer: 14 tiles
        text = d.hand_text(i, 0)
        assert CARD.best(row, k=None) == CARD.best(text, k=None) == CARD.best(to43(row), k=None)
        assert CARD.match(row) == CARD.match(text)
        names = CARD.charleston(text)
        got = CARD.charleston(row)                                     # flowers named "f": 36 counts do not say which
        assert sorted(kind_of(t) for t in got) == sorted(kind_of(t) for t in names)
        assert all(t == "f" for t in got if t.startswith("f"))
        h13 = row.copy()
        h13[int(np.flatnonzero(h13[:JOKER])[0])] -= 1
        assert CARD.waits(h13) == CARD.waits(to43(h13))
        k = int(np.flatnonzero(h13[:FLOWER])[0])
        if h13[k] < 4:
            assert CARD.callable(h13, k) == CARD.callable(to43(h13), k)
    h = np.array(h36("1111m 4444p 7777s f1 f2"), np.uint8)
    assert CARD.charleston("1111m 4444p 7777s f2 f5") == ["1m", "f2", "f5"] and CARD.charleston(h) == ["1m", "f", "f"]


def test_dealt_hands_with_exposures_and_visible_of_the_batch_shape():
    d = mjfast.deal(3, rules="american", seed=5)
    h36 = np.array([[_deal_h36(d, i, s) for s in range(4)] for i in range(3)], np.uint8)
    trimmed = h36.copy()
    trimmed[..., :34] = 0                                            # keep flowers and jokers only ...
    trimmed[..., FLOWER] = np.minimum(trimmed[..., FLOWER], 2)
    trimmed[..., JOKER] = np.minimum(trimmed[..., JOKER], 2)
    exps = np.zeros((3, 4, 1, 2), np.int64)
    exps[..., 0, 0], exps[..., 0, 1] = 27, 3                         # ... and expose a pung of East winds
    vis = np.zeros((3, 4, 36), np.int64)
    vis[..., 30] = 4                                                 # every North is seen
    got = CARD.distance(trimmed, exposures=exps, visible=vis)
    assert got.shape == (3, 4, len(CARD.ids))
    for i in range(3):
        for s in range(4):
            hand = trimmed[i, s].tolist()
            unseen = ref.unseen_counts(hand, [(27, 3)], vis[i, s].tolist())
            assert got[i, s].tolist() == REF.line_distances(hand, [(27, 3)], unseen), (i, s)
    flat = CARD.distance(trimmed.reshape(12, 36), exposures=exps.reshape(12, 1, 2), visible=vis.reshape(12, 36))
    assert np.array_equal(flat.reshape(3, 4, -1), got)


def test_standard_counts_and_other_deals_are_refused():
    d = mjfast.deal(5, rules="american", seed=1)
    for hands in (d.hands[2, 0], d.hands, d.hands[0, 0].astype(np.int64), mjfast.pack(d.hands[0])):
        with pytest.raises(ValueError, match=r"no flowers or jokers.*pass the Deals itself, not its \.hands"):
            CARD.distance(hands)
    with pytest.raises(ValueError, match="American deals"):
        CARD.distance(mjfast.deal(2, rules="classical", seed=1))
    bad = np.zeros((2, 36), np.uint8)
    bad[1, 3] = 5
    with pytest.raises(ValueError, match="hand 1 holds 5 4m"):
        CARD.distance(bad)
    bad[1, 3], bad[0, FLOWER] = 0, 9
    with pytest.raises(ValueError, match="hand 0 holds 9 flowers"):
        CARD.distance(bad)


def test_a_deal_with_more_jokers_is_read_with_its_set():
    d = mjfast.deal(10, rules="american", seed=3, jokers=12)
    assert d.jokers.max() >= 1
    vis = np.zeros(36, np.int64)
    vis[JOKER] = 8                                                   # eight jokers seen elsewhere
    got = CARD.distance(d, visible=vis)                              # jokers=None: the deal's 12
    assert np.array_equal(got, CARD.distance(d, visible=vis, jokers=12))
    with pytest.raises(ValueError, match="the set has 8"):
        CARD.distance(d, visible=vis, jokers=8)


def test_batches_are_thread_count_independent():
    # batches of 64 or more hands run in parallel (smaller ones on one thread)
    rng = np.random.default_rng(2050)
    for with_vis in (False, True):
        cases = [near_case(rng, REF, int(rng.integers(10, 15)), visible=with_vis)
                 for _ in range(300)]
        hands = np.array([to43(c.hand) for c in cases])
        exps = [list(c.exposures) for c in cases]
        vis = np.array([c.visible for c in cases], np.int64) if with_vis else None
        one = CARD.distance(hands, exposures=exps, visible=vis, threads=1)
        for threads in (2, 4, None):
            assert np.array_equal(CARD.distance(hands, exposures=exps, visible=vis, threads=threads), one)
        single = [CARD.distance(to43(c.hand), exposures=list(c.exposures),
                                visible=None if c.visible is None else np.array(c.visible)) for c in cases]
        assert np.array_equal(np.array(single), one)
        for i in rng.choice(len(cases), 40, replace=False):       # and a sample against the reference
            assert one[i].tolist() == ref_distances(REF, cases[i]), explain(cases[i])


def test_visible_with_other_joker_counts():
    rng = np.random.default_rng(2060)
    for _ in range(60):
        c = near_case(rng, REF, int(rng.choice([13, 14])), visible=True)
        used = c.hand[JOKER] + c.visible[JOKER] + sum(e[2] for e in c.exposures)
        n = int(rng.integers(used, 17))
        got = CARD.distance(to43(c.hand), exposures=list(c.exposures), visible=np.array(c.visible), jokers=n)
        unseen = ref.unseen_counts(c.hand, c.exposures, c.visible, n_jokers=n)
        assert got.tolist() == REF.line_distances(c.hand, c.exposures, unseen), (n, explain(c))


@st.composite
def hypothesis_cases(draw, rc=REF):
    """A variation's tiles, some places turned into jokers, 0-2 of its sets of 3+ exposed, a few
    tiles replaced by arbitrary kinds, maybe one removed, and some visible tiles."""
    line = rc.lines[draw(st.integers(0, len(rc.lines) - 1))]
    v = line["variations"][draw(st.integers(0, len(line["variations"]) - 1))]
    groups = []
    for k, s in v:
        j = draw(st.integers(0, s if rc.all_joker_sets else s - 1)) if s >= 3 and draw(st.booleans()) else 0
        groups.append((k, s, [k] * (s - j) + [JOKER] * j))
    big = [i for i, (k, s, tiles) in enumerate(groups) if s >= 3 and k in tiles]     # an exposure holds a natural
    exposed = draw(st.lists(st.sampled_from(big), max_size=2, unique=True)) if big else []
    exps = [(groups[i][0], groups[i][1], groups[i][2].count(JOKER)) for i in exposed]
    tiles = [t for i, g in enumerate(groups) if i not in exposed for t in g[2]]
    for pos, kind in draw(st.lists(st.tuples(st.integers(0, 13), st.integers(0, 35)), max_size=4)):
        if tiles:
            tiles[pos % len(tiles)] = kind
    if tiles and draw(st.booleans()):
        tiles.pop(draw(st.integers(0, len(tiles) - 1)))
    hand = [tiles.count(k) for k in range(36)]
    wall = list(WALL0)
    for k in range(36):
        wall[k] -= hand[k]
    for k, s, j in exps:
        wall[k] -= s - j
        wall[JOKER] -= j
    assume(min(wall) >= 0)
    vis = None
    if draw(st.booleans()):
        vis = [0] * 36
        for k in draw(st.lists(st.integers(0, 35), max_size=60)):
            if wall[k] > vis[k]:
                vis[k] += 1
    return Case(hand, exps, vis)


@HYP
@given(hypothesis_cases())
def test_hypothesis_near_hands(case):
    assert kernel_distances(CARD, case) == ref_distances(REF, case), explain(case)


@HYP
@given(st.integers(0, 4), st.lists(st.integers(0, 34), min_size=14, max_size=14), st.booleans())
def test_hypothesis_uniform_hands(jokers, kinds, thirteen):
    hand = [0] * 36
    for k in kinds[:(13 if thirteen else 14) - jokers]:
        hand[k] += 1
    hand[JOKER] = jokers
    assume(all(h <= c for h, c in zip(hand, WALL0)))
    case = Case(hand, [], None)
    assert kernel_distances(CARD, case) == ref_distances(REF, case), explain(case)


@HYP
@given(hypothesis_cases(rc=ONE_REF))
def test_hypothesis_one_natural_per_set(case):
    assert kernel_distances(ONE_CARD, case) == ref_distances(ONE_REF, case), explain(case)


@HYP
@given(st.integers(0, 8), st.lists(st.integers(0, 34), min_size=14, max_size=14), st.booleans())
def test_hypothesis_uniform_hands_one_natural_per_set(jokers, kinds, thirteen):
    hand = [0] * 36
    for k in kinds[:(13 if thirteen else 14) - jokers]:
        hand[k] += 1
    hand[JOKER] = jokers
    assume(all(h <= c for h, c in zip(hand, WALL0)))
    case = Case(hand, [], None)
    assert kernel_distances(ONE_CARD, case) == ref_distances(ONE_REF, case), explain(case)


def test_visible_with_jokers_in_an_exposure():
    # one natural 4p and three jokers exposed as a kong; the other three 4p are visible: 4 in all
    d = CARD.distance("1111m 7777s 44z", exposures=["4pjjj"], visible="444p")
    case = Case(h36("1111m 7777s 44z"), [(12, 4, 3)], h36("444p"))
    assert d.tolist() == ref_distances(REF, case)
    assert d[0] == 0


# ------------------------------------------------------------------------------------------ properties

def _batch(card, cases) -> np.ndarray:
    """Kernel distances of cases that all have visible tiles or all have none, as one batch."""
    hands = np.array([to43(c.hand) for c in cases])
    vis = None if cases[0].visible is None else np.array([c.visible for c in cases], np.int64)
    return card.distance(hands, exposures=[list(c.exposures) for c in cases], visible=vis).astype(np.int64)


def _property_cases(seed, n=240):
    rng = np.random.default_rng(seed)
    cases = [near_case(rng, REF, int(rng.integers(3, 15)), visible=bool(i % 2))
             for i in range(n)]
    cases += [uniform_case(rng, int(rng.integers(3, 15)), visible=bool(i % 2)) for i in range(n // 4)]
    return [[c for c in cases if c.visible is None], [c for c in cases if c.visible is not None]]


@pytest.mark.parametrize("seed", range(2))
def test_adding_a_joker_never_increases_a_distance(seed):
    for cases in _property_cases(2600 + seed):
        cases = [c for c in cases if len(c.exposures) < 4 and sum(c.hand) + sum(e[1] for e in c.exposures) < 14
                 and c.hand[JOKER] + sum(e[2] for e in c.exposures) + (c.visible or [0] * 36)[JOKER] < 8]
        plus = [Case([h + (k == JOKER) for k, h in enumerate(c.hand)], c.exposures, c.visible) for c in cases]
        before, after = _batch(CARD, cases), _batch(CARD, plus)
        assert (after <= before).all()
        assert (after < before).any()


@pytest.mark.parametrize("seed", range(2))
def test_removing_a_tile_never_decreases_a_distance(seed):
    for cases in _property_cases(2700 + seed, 120):
        base, less = [], []
        for c in cases:
            for k in range(36):
                if c.hand[k]:
                    h = list(c.hand)
                    h[k] -= 1
                    vis = None
                    if c.visible is not None:       # the tile is discarded: now it is visible
                        vis = list(c.visible)
                        vis[k] += 1
                    base.append(c)
                    less.append(Case(h, c.exposures, vis))
        before, after = _batch(CARD, base), _batch(CARD, less)
        assert (after >= before).all()
        assert (after > before).any()


@pytest.mark.parametrize("seed", range(2))
def test_distance_zero_exactly_when_match_finds_a_line(seed):
    rng = np.random.default_rng(2800 + seed)
    cases = [near_case(rng, REF, 14, wrong=0.1) for _ in range(150)]
    cases += [near_case(rng, REF, 14, exposures=False) for _ in range(30)]   # more all-joker sets
    check_zero_iff_match(CARD, cases)
    check_zero_iff_match(ONE_CARD, cases)           # all-joker sets: places this reading refuses


def check_zero_iff_match(card, cases):
    d = _batch(card, cases)
    complete = 0
    for c, row in zip(cases, d):
        m = card.match(to43(c.hand), exposures=list(c.exposures))
        assert (m is not None) == (row == 0).any(), explain(c)
        if m is not None:
            complete += 1
            zero = [i for i in range(len(row)) if row[i] == 0]
            assert row[card.line_index(m.id)] == 0
            assert m.points == max(card.lines[i].points for i in zero)
            assert m.id == next(card.ids[i] for i in zero if card.lines[i].points == m.points)
    assert 20 <= complete < len(cases)


# ------------------------------------------------------------------------------------------ match

def _match_tuple(m):
    return None if m is None else (m.id, m.points, m.jokerless, m.value)


@pytest.mark.parametrize("seed", range(2))
def test_match_against_reference(seed):
    rng = np.random.default_rng(2200 + seed)
    found = 0
    for _ in range(60):
        c = near_case(rng, REF, 14)
        m = CARD.match(to43(c.hand), exposures=list(c.exposures))
        assert _match_tuple(m) == REF.match(c.hand, c.exposures), explain(c)
        found += m is not None
    assert found >= 5


# ------------------------------------------------------------------------------------------ waits

def _waits_kinds(w: dict) -> dict:
    return {kind_of(name): ids for name, ids in w.items()}


@pytest.mark.parametrize("seed", range(3))
def test_waits_against_brute_force(seed):
    rng = np.random.default_rng(2300 + seed)
    nonempty = 0
    for _ in range(12):
        c = near_case(rng, REF, 13, wrong=0.1)
        got = _waits_kinds(CARD.waits(to43(c.hand), exposures=list(c.exposures)))
        assert got == REF.waits(c.hand, c.exposures), explain(c)
        nonempty += bool(got)
    assert nonempty >= 1


def test_waits_with_visible_leaves_out_dead_tiles():
    hand = "1111m 4444p 7777s 4z"
    assert CARD.waits(hand) == {"4z": ["toy-1"]}
    assert CARD.waits(hand, visible="444z") == {}
    assert CARD.waits(hand, visible="44z") == {"4z": ["toy-1"]}


# ------------------------------------------------------------------------------------------ callable

@pytest.mark.parametrize("seed", range(3))
def test_callable_against_brute_force(seed):
    rng = np.random.default_rng(2400 + seed)
    seen_kinds = set()
    for _ in range(6):
        c = near_case(rng, REF, 13, wrong=0.1)
        if len(c.exposures) >= 3:
            continue
        held = [k for k in range(35) if c.hand[k]]
        extra = [int(k) for k in rng.choice(35, 3, replace=False)]
        left = ref.unseen_counts(c.hand, c.exposures)
        for kind in sorted(set(held[:6] + extra)):
            if not left[kind]:                  # every copy is in the hand or its exposures: no such discard
                with pytest.raises(ValueError, match="would be copy"):
                    CARD.callable(to43(c.hand), kind, exposures=list(c.exposures))
                continue
            got = CARD.callable(to43(c.hand), kind, exposures=list(c.exposures))
            sets, mahjong = REF.calls(c.hand, kind, c.exposures)
            calls = [x for x in got if x.kind != "mahjong"]
            assert {x.size: (x.distance, x.lines) for x in calls} == \
                {s: (d, tuple(lines)) for s, (d, _, lines) in sets.items()}, (kind, explain(c))
            for x in calls:
                assert x.jokers in sets[x.size][1]
                assert x.kind == {3: "pung", 4: "kong", 5: "quint", 6: "sextet"}[x.size]
                seen_kinds.add(x.kind)
            mj = [x for x in got if x.kind == "mahjong"]
            assert (mj[0].lines if mj else ()) == tuple(mahjong)
    assert {"pung", "kong"} <= seen_kinds


# ------------------------------------------------------------------------------------------ Charleston

def _charleston_cases(seed, count):
    rng = np.random.default_rng(seed)
    for i in range(count):
        size = int(rng.choice([13, 14]))
        c = near_case(rng, REF, size, exposures=False) if i % 3 else uniform_case(rng, size)
        yield c.hand


@pytest.mark.parametrize("blind", [0, 1, 2])
def test_charleston_against_exhaustive(blind):
    for hand in _charleston_cases(2500 + blind, 8):
        got = CARD.charleston(to43(hand), 3, blind=blind)
        assert JOKER not in [kind_of(t) for t in got] and len(got) == 3 - blind
        row = to43(hand)
        for name in set(got):                              # the hand's own tiles (flowers by their own name)
            assert got.count(name) <= row[tile_index(name)], (name, got)
        assert tuple(sorted(kind_of(t) for t in got)) == REF.charleston(hand, 3 - blind), hand


@pytest.mark.slow
@pytest.mark.parametrize("blind", [0, 1, 2])
def test_charleston_against_exhaustive_many(blind):
    for hand in _charleston_cases(6500 + blind, 60):
        got = CARD.charleston(to43(hand), 3, blind=blind)
        assert tuple(sorted(kind_of(t) for t in got)) == REF.charleston(hand, 3 - blind), hand


def test_charleston_with_many_jokers_never_passes_one():
    hand = h36("jjjjjjj 1m 5p 9s 1z 7z f1 f2")
    got = CARD.charleston(to43(hand))
    assert "j" not in got and tuple(sorted(kind_of(t) for t in got)) == REF.charleston(hand, 3)
    hand = h36("jjjjjjjj 1m 5p 9s 1z 2z 7z")
    got = CARD.charleston(to43(hand))
    assert "j" not in got and tuple(sorted(kind_of(t) for t in got)) == REF.charleston(hand, 3)
    assert CARD.charleston("jjjjjjjj 1m 5p 9s") == ["1m", "5p", "9s"]
