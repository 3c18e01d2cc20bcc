"""American beginner hand (rules="american"): kernels against the reference, edge cases, input."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mjfast
from mjfast.tiles import parse_tiles, tile_index, tile_name
from oracles import reference as ref


def vec(text: str) -> np.ndarray:
    """43 counts of an American hand given as text."""
    p = parse_tiles(text, max_jokers=16, max_tiles=None)
    row = np.zeros(43, dtype=np.uint8)
    row[:34] = p.concealed
    row[34:42] = p.bonus
    row[42] = p.jokers
    return row


def random_american(n: int, size: int, seed: int, joker_heavy: bool = False) -> np.ndarray:
    """n random 43-count hands of `size` tiles drawn from the 152-tile set (or joker/flower heavy)."""
    rng = np.random.default_rng(seed)
    out = np.zeros((n, 43), dtype=np.uint8)
    world = np.array([k for k in range(34) for _ in range(4)] + list(range(34, 42)) + [42] * 8)
    for i in range(n):
        if joker_heavy:
            j = int(rng.integers(0, size + 1))
            f = int(rng.integers(0, min(8, size - j) + 1))
            out[i, 42] = j
            out[i, 34 + rng.choice(8, f, replace=False)] = 1
            # the rest from a few kinds, so that sets of four are common
            kinds = rng.choice(34, 5, replace=False)
            for _ in range(size - j - f):
                free = [k for k in kinds if out[i, k] < 4]
                if not free:
                    free = [k for k in range(34) if out[i, k] < 4]
                out[i, rng.choice(free)] += 1
        else:
            np.add.at(out[i], world[rng.choice(len(world), size, replace=False)], 1)
    return out


# ---------------------------------------------------------------------------
# hand-crafted cases (expected values worked out by hand in the comments)

CASES = [
    # text, tiles missing under the default reading (a concealed set of four may be all jokers),
    # tiles missing when each set keeps a natural tile (all_joker_sets=False)
    ("1111m2222p3333s44z", 0, 0),              # three sets of four + a pair
    ("1m jjj 2p jjj 3s jjj 44z", 0, 0),        # each set all jokers but one natural tile
    ("f1f2f3f4 1111m 2222p 33s", 0, 0),        # flowers as a set of four
    ("f1f5 1111m 2222p 3333s", 0, 0),          # flowers as the pair
    ("f2f4f6 j 1111m 2222p 33s", 0, 0),        # flower set of three + a joker
    ("1111m2222p3333s4z j", 1, 1),             # a joker never completes the pair
    ("jjjj 1111m 2222p 44z", 0, 1),            # a set of four jokers; else one natural still missing
    ("1111m2222p44z jjjj", 0, 1),              # same with the jokers written last
    ("f1f2f3f4f5 1111m 2222p 3s", 1, 1),       # a fifth flower is a surplus tile
    ("f1f2f3f4f5f6f7f8 1111m 22p", 4, 4),      # flowers 4 + 1111m + pair 22p; a fourth kind missing
    ("jjjjjjjjjjjjjj", 2, 5),                  # 14 jokers: 12 fill the sets (else 9, 3 per set); the pair 2
    ("1m2p3s4z f1f2f3f4 jjjjjj", 1, 1),        # flower set, two sets 1+3j, pair 4z short of one
    ("1111m 1111p 1111s 1z j", 1, 1),          # pair 1z short one (the joker cannot help)
    ("1111m 2222p jjjjj 4z", 1, 2),            # a set of four jokers and a spare; the pair short one
    ("123456789m12345p", 10, 10),              # 14 singles: 4 useful naturals
    ("11m22p33s44z55z66z7z", 6, 6),            # 13 tiles: pair 2 + sets 2+2+2 = 8 of 14
    ("1111m2222p3333s", None, None),           # 12 tiles: refused (see test_case_list_is_checked)
]
KEEP_ONE = mjfast.rules.get("american", all_joker_sets=False)


@pytest.mark.parametrize("text,missing,missing_one", [c for c in CASES if vec(c[0]).sum() in (13, 14)])
def test_hand_crafted(text, missing, missing_one):
    h = vec(text)
    assert ref.american_distance(h) == missing
    assert ref.american_distance_literal(h) == missing
    assert mjfast.shanten(text, rules="american") == missing - 1
    assert mjfast.shanten(h, rules="american", form="beginner") == missing - 1
    assert mjfast.shanten(mjfast.pack(h), rules="american") == missing - 1
    if h.sum() == 14:
        assert mjfast.is_winning(text, rules="american") == (missing == 0)
        assert mjfast.is_winning(mjfast.pack(h)[None, :], rules="american").tolist() == [missing == 0]


@pytest.mark.parametrize("text,missing,missing_one", [c for c in CASES if vec(c[0]).sum() in (13, 14)])
def test_hand_crafted_one_natural_per_set(text, missing, missing_one):
    h = vec(text)
    assert ref.american_distance(h, all_joker_sets=False) == missing_one
    assert ref.american_distance_literal(h, all_joker_sets=False) == missing_one
    assert mjfast.shanten(text, rules=KEEP_ONE) == missing_one - 1
    assert mjfast.shanten(mjfast.pack(h), rules=KEEP_ONE) == missing_one - 1
    if h.sum() == 14:
        assert mjfast.is_winning(text, rules=KEEP_ONE) == (missing_one == 0)
        assert mjfast.is_winning(mjfast.pack(h)[None, :], rules=KEEP_ONE).tolist() == [missing_one == 0]


def test_case_list_is_checked():
    # every case above has 13 or 14 tiles except the last (12 tiles), which the API refuses
    assert [vec(t).sum() for t, _, _ in CASES].count(12) == 1
    with pytest.raises(ValueError, match="has 12 tiles; American hands here hold 13 or 14"):
        mjfast.shanten("1111m2222p3333s", rules="american")


def test_waits_joker_reading():
    # a set of four jokers completes the hand under the default reading only
    assert mjfast.waits("1111m 2222p jjjj 4z", rules="american") == ["4z"]
    assert mjfast.waits("1111m 2222p jjjj 4z", rules=KEEP_ONE) == []
    # three jokers: any natural tile not of the other kinds makes a set with them; a fourth joker
    # only under the default reading
    default, one = mjfast.waits("1111m 2222p jjj 44z", rules="american"), mjfast.waits("1111m 2222p jjj 44z",
                                                                                       rules=KEEP_ONE)
    assert default == one + ["j"] and "5m" in one and "1m" not in one and len(one) == 31 + 8   # f1-f8 each


def test_waits():
    assert mjfast.waits("1111m2222p3333s4z", rules="american") == ["4z"]
    # a set of three waits on its fourth tile or a joker; the pair kind 4z is not a wait
    assert mjfast.waits("1111m2222p333s44z", rules="american") == ["3s", "j"]
    assert mjfast.waits("1111m2222p333s44z", rules="american", jokers=0) == ["3s"]
    # flowers: any flower not held (or a joker) completes the flower set
    assert mjfast.waits("f1f2f3 1111m2222p44z", rules="american") == ["f4", "f5", "f6", "f7", "f8", "j"]
    # 8 jokers used: the set has no 9th joker, unless it holds 10
    assert mjfast.waits("1m2p3s44z jjjjjjjj", rules="american") == ["1m", "2p", "3s"]
    assert mjfast.waits("1m2p3s44z jjjjjjjj", rules="american", jokers=10) == ["1m", "2p", "3s", "j"]
    assert mjfast.waits("1111m2222p33s4z5z j", rules="american") == []
    with pytest.raises(ValueError, match="13"):
        mjfast.waits("1111m2222p3333s44z", rules="american")
    with pytest.raises(ValueError, match="only 8 exist|the set has 8"):
        mjfast.waits("1m2p3s4z jjjjjjjjj", rules="american")


@pytest.mark.parametrize("aj", [True, False], ids=["all-joker-sets", "one-natural-per-set"])
@pytest.mark.parametrize("seed", range(4))
def test_waits_and_effective_tiles_equal_reference(seed, aj):
    rs = "american" if aj else KEEP_ONE
    hands13 = np.concatenate([random_american(15, 13, seed, joker_heavy=True), random_american(10, 13, seed + 50)])
    for h in hands13:
        if h[42] > 8:
            continue
        want = [tile_name(k) for k in ref.american_waits(h, all_joker_sets=aj)]
        assert mjfast.waits(h, rules=rs) == want
        imp = mjfast.effective_tiles(h, rules=rs)
        ref_imp = ref.american_effective_tiles(h, all_joker_sets=aj)
        assert imp.shanten == ref.american_shanten(h, aj)
        assert imp.tiles == {tile_name(k): v for k, v in ref_imp.items()}
        assert imp.count == sum(ref_imp.values())
    h14 = random_american(3, 14, seed, joker_heavy=True)
    for h in h14:
        if h[42] > 8:
            continue
        imps = mjfast.effective_tiles(h, rules=rs)
        ref_imps = ref.american_effective_tiles(h, all_joker_sets=aj)
        assert {i.discard for i in imps} == {tile_name(k) for k in ref_imps}
        for i in imps:
            r = ref_imps[tile_index(i.discard)]
            assert i.tiles == {tile_name(k): v for k, v in r.items()}
        keys = [(i.shanten, -i.count) for i in imps]
        assert keys == sorted(keys)


def test_effective_tiles_visible():
    imp = mjfast.effective_tiles("1111m2222p333s44z", "3s [111z] f8 jj", rules="american")
    # 3s: 4 - 3 held - 1 visible = 0 left, so only the jokers: 8 - 0 held - 2 visible
    assert imp.shanten == 0 and imp.tiles == {"j": 6} and imp.count == 6
    with pytest.raises(ValueError, match="only 4 exist"):
        mjfast.effective_tiles("1111m2222p333s44z", "1m", rules="american")
    with pytest.raises(ValueError, match="only 1 exist"):
        mjfast.effective_tiles("f1 1111m2222p33s44z", "f1", rules="american")


# ---------------------------------------------------------------------------
# kernels against the reference

READINGS = pytest.mark.parametrize("aj", [True, False], ids=["all-joker-sets", "one-natural-per-set"])


def _rules(aj: bool):
    return "american" if aj else KEEP_ONE


@READINGS
@pytest.mark.parametrize("size", [13, 14])
@pytest.mark.parametrize("heavy", [False, True])
def test_random_hands_equal_reference(size, heavy, aj):
    hands = random_american(3000, size, seed=size + 100 * heavy, joker_heavy=heavy)
    want = np.array([ref.american_distance(h, aj) - 1 for h in hands], dtype=np.int8)
    r = _rules(aj)
    assert (mjfast.shanten(hands, rules=r) == want).all()
    assert (mjfast.shanten(mjfast.pack(hands), rules=r) == want).all()
    assert (mjfast.shanten(hands.astype(np.int64), rules=r, threads=1) == want).all()
    if size == 14:
        assert (mjfast.is_winning(hands, rules=r) == (want == -1)).all()
        assert (mjfast.is_winning(mjfast.pack(hands), rules=r) == (want == -1)).all()
    if heavy:
        assert (want == (-1 if size == 14 else 0)).any() and (want >= 3).any()
        other = np.array([ref.american_distance(h, not aj) - 1 for h in hands], dtype=np.int8)
        assert (want != other).any()                       # the joker-heavy hands tell the readings apart


@READINGS
def test_dealt_hands_equal_reference(aj):
    d = mjfast.deal(2000, rules="american", seed=11)
    for seat, size in ((0, 14), (1, 13)):
        rows = np.concatenate([d.hands[:, seat], d.bonus[:, seat], d.jokers[:, seat, None]], axis=1)
        assert (rows.sum(axis=1) == size).all()
        want = np.array([ref.american_distance(h, aj) - 1 for h in rows], dtype=np.int8)
        assert (mjfast.shanten(rows, rules=_rules(aj)) == want).all()
        assert (mjfast.shanten(d, rules=_rules(aj))[:, seat] == want).all()


def test_big_batch_threads_agree():
    hands = np.tile(random_american(2_000, 14, seed=5, joker_heavy=True), (20, 1))
    packed = mjfast.pack(hands)
    one = mjfast.shanten(hands, rules="american", threads=1)
    assert (mjfast.shanten(hands, rules="american", threads=2) == one).all()
    assert (mjfast.shanten(packed, rules="american", threads=2) == one).all()
    assert (mjfast.is_winning(packed, rules="american", threads=2) == (one == -1)).all()


@READINGS
def test_profile_reference_equals_literal_definition(aj):
    """The cached reference (sorted profile + 4 unheld kinds) equals the full 35-kind search."""
    hands = np.concatenate([random_american(6, 14, seed=7, joker_heavy=True), random_american(4, 13, seed=8)])
    for h in hands:
        assert ref.american_distance(h, aj) == ref.american_distance_literal(h, aj)


def _profiles(total: int, max_parts: int = 34):
    """Every multiset of standard-kind counts (1..4 each) adding up to `total`."""
    def rec(left, top, parts):
        if left == 0:
            yield ()
            return
        if parts == 0:
            return
        for c in range(min(top, left), 0, -1):
            for rest in rec(left - c, c, parts - 1):
                yield (c,) + rest
    yield from rec(total, 4, max_parts)


@READINGS
def test_exhaustive_profiles(aj):
    """Every hand shape: standard counts profile x flowers 0-8 x jokers, 13 and 14 tiles, under
    each joker reading.

    The distance depends only on the multiset of kind counts and the joker count (the 35 kinds
    are symmetric), so this covers every American hand up to relabelling the kinds.
    """
    r = _rules(aj)
    rows = []
    for size in (13, 14):
        for f in range(9):
            for j in range(size - f + 1):
                for prof in _profiles(size - f - j):
                    h = np.zeros(43, np.uint8)
                    h[: len(prof)] = prof
                    h[34:34 + f] = 1
                    h[42] = j
                    rows.append(h)
    rows = np.array(rows)
    want = np.array([ref.american_distance(h, aj) - 1 for h in rows], dtype=np.int8)
    assert len(rows) > 1500
    assert (mjfast.shanten(rows, rules=r) == want).all()
    assert (mjfast.shanten(mjfast.pack(rows), rules=r) == want).all()
    # and the same profiles spread over other kinds (honors, last kinds of each word)
    perm = np.random.default_rng(1).permutation(34)
    moved = rows.copy()
    moved[:, perm] = rows[:, :34]
    assert (mjfast.shanten(moved, rules=r) == want).all()
    assert (mjfast.shanten(mjfast.pack(moved), rules=r) == want).all()
    win = rows.sum(axis=1) == 14
    assert (mjfast.is_winning(rows[win], rules=r) == (want[win] == -1)).all()


@st.composite
def american_hands(draw):
    size = draw(st.sampled_from([13, 14]))
    jokers = draw(st.integers(0, size))
    flowers = draw(st.lists(st.integers(0, 7), unique=True, max_size=min(8, size - jokers)))
    kinds = draw(st.lists(st.integers(0, 33), min_size=size - jokers - len(flowers),
                          max_size=size - jokers - len(flowers)))
    h = np.zeros(43, np.uint8)
    h[42] = jokers
    for f in flowers:
        h[34 + f] = 1
    for k in kinds:  # a fifth copy moves on to the next kind with room
        while h[k] == 4:
            k = (k + 1) % 34
        h[k] += 1
    return h


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(american_hands(), st.booleans())
def test_hypothesis_equals_reference(h, aj):
    want = ref.american_distance(h, aj) - 1
    r = _rules(aj)
    assert mjfast.shanten(h, rules=r) == want
    assert mjfast.shanten(mjfast.pack(h), rules=r) == want
    assert mjfast.shanten(mjfast.format_hand(h), rules=r) == want
    if h.sum() == 14:
        assert mjfast.is_winning(h, rules=r) == (want == -1)


# ---------------------------------------------------------------------------
# input forms and validation

def test_input_forms():
    text = "1111m2222p3333s44z"
    std = mjfast.parse_hand(text)
    assert mjfast.is_winning(std, rules="american") is True                      # (34,) counts
    assert mjfast.is_winning(mjfast.pack(std)[None, :], rules="american").tolist() == [True]  # (N, 4)
    assert mjfast.shanten(np.zeros((0, 43), np.uint8), rules="american").shape == (0,)
    assert mjfast.shanten("f1 f2 f3 f4 1111m 2222p 33s", rules="american", form="all") == -1
    assert mjfast.shanten("1111m 2222p 33s 4f3f2f1f", rules="american") == -1


def test_validation():
    with pytest.raises(ValueError, match="unknown form 'seven_pairs' for rules='american'"):
        mjfast.shanten("1111m2222p3333s44z", rules="american", form="seven_pairs")
    with pytest.raises(ValueError, match="needs rules='american'"):
        mjfast.is_winning("1111m2222p3333s44z", form="beginner", rules="mcr")
    with pytest.raises(ValueError, match="has 13 tiles; American hands here hold 14"):
        mjfast.is_winning("1111m2222p3333s4z", rules="american")
    with pytest.raises(ValueError, match="has 15 tiles"):
        mjfast.shanten("1111m2222p3333s44z j", rules="american")
    with pytest.raises(ValueError, match="called sets"):
        mjfast.shanten("1111m2222p3s44z [333s]", rules="american")
    h = vec("1111m2222p3333s44z")
    bad = np.stack([h, h])
    bad[1, 35] = 2
    bad[1, 0] -= 1
    with pytest.raises(ValueError, match="hand 1 holds 2 copies of f2; each flower f1-f8 exists once"):
        mjfast.shanten(bad, rules="american")
    bad = np.stack([h, h]).astype(np.int16)
    bad[1, 0] = 5
    bad[1, 27] = 1
    with pytest.raises(ValueError, match="hand 1 holds 5 copies of 1m"):
        mjfast.shanten(bad, rules="american")
    bad[1, 0] = 300
    with pytest.raises(ValueError, match="hand 1 holds 300 copies of 1m"):
        mjfast.shanten(bad, rules="american")
    with pytest.raises(TypeError, match="uint32"):
        mjfast.shanten(mjfast.pack(h).astype(np.int64), rules="american")
    w = mjfast.pack(h).copy()
    w[4] |= 1 << 20
    with pytest.raises(ValueError, match="outside the count fields"):
        mjfast.shanten(w, rules="american")
    with pytest.raises(ValueError, match="43 counts"):
        mjfast.shanten(np.zeros(42, np.uint8), rules="american")
    with pytest.raises(TypeError, match="integer"):
        mjfast.shanten(h.astype(float), rules="american")
    with pytest.raises(ValueError, match="jokers is an option of rules='american' only"):
        mjfast.waits("123m456p789s1122z", jokers=8)
    with pytest.raises(ValueError, match="between 0 and 16"):
        mjfast.waits("1111m2222p3333s4z", rules="american", jokers=17)


def test_cli_shanten_american(capsys):
    from mjfast import cli

    assert cli.main(["shanten", "1111m", "2222p", "333s", "44z", "--rules", "american", "--visible", "3s j"]) == 0
    out = capsys.readouterr().out
    assert "shanten   0" in out and "waits     3s j" in out and "7 unseen tiles: jx7" in out
    assert cli.main(["shanten", "1111m 2222p 33s 4z 5z jj", "--rules", "american"]) == 0
    out = capsys.readouterr().out
    assert "  4z           0       9  5zx3 jx6" in out
    assert cli.main(["shanten", "1111m2222p3333s44z", "--rules", "american", "--form", "standard"]) == 2


@pytest.mark.slow
def test_million_dealt_hands_equal_reference():
    """1,000,000 dealt American hands per seat (jokers=10 to reach more joker counts)."""
    for start in range(0, 1_000_000, 250_000):
        d = mjfast.deal(250_000, rules="american", jokers=10, seed=12, start=start)
        for seat in (0, 1):
            rows = np.concatenate([d.hands[:, seat], d.bonus[:, seat], d.jokers[:, seat, None]], axis=1)
            want = np.array([ref.american_distance(h) - 1 for h in rows], dtype=np.int8)
            assert (mjfast.shanten(rows, rules="american") == want).all()
            assert (mjfast.shanten(mjfast.pack(rows), rules="american", threads=2) == want).all()


@pytest.mark.slow
def test_literal_reference_on_many_hands():
    hands = np.concatenate([random_american(100, 14, seed=21, joker_heavy=True), random_american(100, 13, seed=22)])
    for h in hands:
        assert ref.american_distance(h) == ref.american_distance_literal(h)
