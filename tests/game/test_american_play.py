"""American play: every rule path on scripted decks, invariants, the distance kernel vs its
reference, and the built-in greedy policy reproduced by a plain Python policy."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mjfast
from mjfast._kernels import american_batch as _american_batch
from mjfast.game import AmericanPolicy, play_walls
from mjfast.hands import american_distance
from mjfast.tiles import american_kind_index, american_kind_name
from oracles import american_reference as _amreference

SCRIPT = dict(second_charleston=False, courtesy=False)     # scripted decks: first Charleston only


# ---------------------------------------------------------------------------------------------
# helpers: scripted walls and policies

def kinds(text: str) -> list:
    """'5p5p5p j f 7s' -> kinds (spaces optional): standard names, f = flower, j = joker."""
    out, i = [], 0
    text = text.replace(" ", "")
    while i < len(text):
        if text[i] in "fj":
            out.append(american_kind_index(text[i]))
            i += 1
        else:
            out.append(american_kind_index(text[i:i + 2]))
            i += 2
    return out


def make_wall(hands: list, draws: str = "", jokers: int = 8) -> np.ndarray:
    """A wall (physical ids) dealing hands[0] (14 tiles) to the dealer, hands[1..3] (13 each)
    to the next seats, then ``draws`` in draw order; the rest of the set follows."""
    pools = {k: list(range(4 * k, 4 * k + 4)) for k in range(34)}
    pools[34] = list(range(136, 144))
    pools[35] = list(range(144, 144 + jokers))
    seq = []
    assert len(kinds(hands[0])) == 14 and all(len(kinds(h)) == 13 for h in hands[1:])
    for part in list(hands) + [draws]:
        for k in kinds(part):
            seq.append(pools[k].pop(0))
    rest = sorted(i for p in pools.values() for i in p)
    wall = np.array(seq + rest, dtype=np.int64)
    assert np.array_equal(np.sort(wall), np.arange(144 + jokers))
    return wall[None, :]


class Script(AmericanPolicy):
    """Keeps the multiset ``keep`` and gives up anything else: passes and discards the surplus
    (lowest kind first; when there is none, the drawn tile). Claims/own turn as configured."""

    def __init__(self, keep: str = "", call=(), exchange=False, false_win_turn=None, passes=None,
                 vote=None, offer=None, order=()):
        self.keep = Counter(kinds(keep))
        self.order = list(order)
        self.call = set(kinds(" ".join(call))) if call else set()
        self.exchange = exchange
        self.false_win_turn = false_win_turn
        self.passes = passes or {}
        self.vote = vote
        self.offer = offer
        self.seen = []               # (event, tile, options)
        self.views = []

    def surplus(self, view) -> list:
        left = Counter(self.keep)
        out = []
        for k in range(36):
            for _ in range(int(view.hand[k])):
                if left[k] > 0:
                    left[k] -= 1
                else:
                    out.append(k)
        return out

    def discard(self, view):
        self.views.append(view)
        while self.order:
            t = self.order.pop(0)
            if view.hand[american_kind_index(t)]:
                return t
        s = self.surplus(view)
        if s:
            return american_kind_name(s[0])
        return view.drawn

    def claim(self, view, tile, options):
        self.seen.append(("claim", tile, tuple(options)))
        if "win" in options:
            return "win"
        if "quad" in options and american_kind_index(tile) in self.call:
            return "quad"
        return None

    def own_turn(self, view, options):
        self.seen.append(("own", view.drawn, tuple(options)))
        if self.false_win_turn is not None and view.turn >= self.false_win_turn:
            return "win"
        if "win" in options:
            return "win"
        if self.exchange:
            ex = [o for o in options if o.startswith("exchange")]
            if ex:
                return ex[0]
        return None

    def charleston(self, view, direction, blind):
        self.seen.append(("pass", direction, blind))
        if direction in self.passes:
            return self.passes[direction]
        return [american_kind_name(k) for k in self.surplus(view)[:3]]

    def second_charleston(self, view):
        return self.vote

    def courtesy_offer(self, view):
        return self.offer

    def courtesy(self, view, n):
        return [american_kind_name(k) for k in self.surplus(view)[:n]]


def events(log, typ=None, hand=None):
    return [e for e in log.events if (typ is None or e["type"] == typ) and (hand is None or e["hand"] == hand)]


# ---------------------------------------------------------------------------------------------
# the distance kernel against the reference

def test_distance_reference_literals():
    h = np.zeros(36, int)
    h[0] = 4; h[1] = 4; h[2] = 4; h[3] = 2                         # noqa: E702
    assert _amreference.distance(h) == 0 and _amreference.is_complete(h)
    h[3] = 1; h[35] = 1                                             # a joker never fills the pair
    assert _amreference.distance(h) == 1
    h = np.zeros(36, int); h[34] = 8; h[35] = 6       # one set of flowers; jokers fill 3 per other set, no pair
    assert _amreference.distance(h) == 14 - (4 + 3 + 3)
    h = np.zeros(36, int); h[5] = 2                                  # three exposed sets: only the pair is left
    assert _amreference.distance(h, (0, 1, 2)) == 0
    h[5] = 1; h[35] = 1
    assert _amreference.distance(h, (0, 1, 2)) == 1
    h = np.zeros(36, int); h[0] = 3; h[1] = 4                        # an exposed kind's concealed tiles do not count
    assert _amreference.distance(h, (0,)) == 10 - 4


def _random_state(rng):
    n_exp = int(rng.integers(0, 4))
    exposed = [int(k) for k in rng.choice(35, n_exp, replace=False)]
    pool = [k for k in range(34) for _ in range(4)] + [34] * 8 + [35] * 8
    n = 14 - 4 * n_exp - int(rng.integers(0, 2))
    h = np.zeros(36, np.uint8)
    for k in rng.choice(pool, n, replace=False):
        h[k] += 1
    return h, exposed


READINGS = pytest.mark.parametrize("aj", [True, False], ids=["all-joker-sets", "one-natural-per-set"])


def test_distance_reference_readings():
    h = np.zeros(36, int); h[0] = 4; h[1] = 4; h[3] = 2; h[35] = 4      # noqa: E702  a set of four jokers
    assert _amreference.distance(h) == 0 and _amreference.is_complete(h)
    assert _amreference.distance(h, all_joker_sets=False) == 1 and not _amreference.is_complete(h, (), False)
    assert american_distance(h) == 0 and american_distance(h, all_joker_sets=False) == 1
    h = np.zeros(36, int); h[5] = 2; h[35] = 4                           # noqa: E702  two exposed sets
    assert _amreference.distance(h, (0, 1)) == 0 == american_distance(h, [(0, 1), (1, 0)])
    assert _amreference.distance(h, (0, 1), False) == 1 == american_distance(h, [(0, 1), (1, 0)], all_joker_sets=False)


@READINGS
@pytest.mark.parametrize("n", [300, pytest.param(5_000, marks=pytest.mark.slow)])
def test_distance_kernel_matches_reference(n, aj):
    rng = np.random.default_rng(5)
    for _ in range(n):
        h, exposed = _random_state(rng)
        assert (american_distance(h, [(k, 0) for k in exposed], all_joker_sets=aj)
                == _amreference.distance(h, exposed, aj)), (h, exposed)


@READINGS
def test_distance_kernel_matches_reference_on_dense_hands(aj):
    """Hands concentrated on few kinds and many jokers (where the set/pair choice matters)."""
    rng = np.random.default_rng(6)
    for _ in range(1500):
        h = np.zeros(36, np.uint8)
        ks = rng.choice(35, 5, replace=False)
        for k in ks:
            h[k] = rng.integers(0, 9 if k == 34 else 5)
        h[35] = rng.integers(0, 9)
        n_exp = int(rng.integers(0, 4))
        exposed = [int(k) for k in rng.choice([k for k in range(35) if k not in ks], n_exp, replace=False)]
        assert (american_distance(h, [(k, 0) for k in exposed], all_joker_sets=aj)
                == _amreference.distance(h, exposed, aj))


def _partitions(n, largest):
    if n == 0:
        yield []
        return
    for p in range(min(n, largest), 0, -1):
        for rest in _partitions(n - p, p):
            yield [p] + rest


@pytest.mark.slow
@READINGS
def test_distance_kernel_exhaustive_over_count_profiles(aj):
    """The distance depends only on the multiset of counts, the flowers, the jokers and the
    number of exposed sets: every profile of a 13- or 14-tile hand (13 - 4e / 14 - 4e
    concealed tiles), against the reference."""
    checked = 0
    for n_exp in range(4):
        exposed = list(range(30, 30 + n_exp))              # exposed kinds the hand does not hold
        for m in (13 - 4 * n_exp, 14 - 4 * n_exp):
            for jokers in range(0, min(8, m) + 1):
                for flowers in range(0, min(8, m - jokers) + 1):
                    for parts in _partitions(m - jokers - flowers, 4):
                        if len(parts) > 29:
                            continue
                        h = np.zeros(36, np.uint8)
                        for k, c in enumerate(parts):
                            h[k] = c
                        h[34], h[35] = flowers, jokers
                        assert (american_distance(h, [(k, 0) for k in exposed], all_joker_sets=aj)
                                == _amreference.distance(h, exposed, aj))
                        checked += 1
    assert checked > 1000


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 34), max_size=14), st.integers(0, 8), st.sets(st.integers(0, 34), max_size=3),
       st.booleans())
def test_distance_kernel_property(tiles_, jokers, exposed, aj):
    """Random concealed tiles (up to the copies of each kind), jokers and exposed kinds."""
    h = np.zeros(36, np.uint8)
    for k in tiles_:
        if h[k] < (8 if k == 34 else 4):
            h[k] += 1
    h[35] = jokers
    exposed = sorted(exposed)
    assert american_distance(h, [(k, 0) for k in exposed], all_joker_sets=aj) == _amreference.distance(h, exposed, aj)


def test_distance_validation():
    h = np.zeros(36, int)
    h[0] = 5
    with pytest.raises(ValueError, match="at most 4 of a kind"):
        american_distance(h)
    with pytest.raises(ValueError, match="36"):
        american_distance(np.zeros(34, int))
    with pytest.raises(ValueError, match="different kinds"):
        american_distance(np.zeros(36, int), [(1, 0), (1, 0)])


@READINGS
def test_exposure_free_distance_is_the_shared_kernel(aj):
    rng = np.random.default_rng(7)
    hands = np.zeros((500, 36), np.uint8)
    for i in range(500):
        hands[i], _ = _random_state(np.random.default_rng(rng.integers(1 << 30)))
    a = np.zeros(500, np.int32)
    b = np.zeros(500, np.int32)
    _american_batch.distance_batch(hands, np.zeros((500, 35), np.uint8), np.zeros(500, np.int32), a, aj)
    _american_batch.concealed_distance_batch(hands, b, aj)
    assert np.array_equal(a, b)


# ---------------------------------------------------------------------------------------------
# the Charleston

# junk kinds: seats 0 and 2 pass 1m2m3m, seats 1 and 3 pass 4m5m6m; with "pass the surplus"
# every player ends the first Charleston with the kinds she started with (they rotate by two).
BASE = ["1m2m3m 1p1p1p1p 2p2p2p2p 3p3p 4p", "4m5m6m 5p5p5p5p 6p6p6p6p 7p7p",
        "1m2m3m 1s1s1s1s 2s2s2s2s 3s3s", "4m5m6m 5s5s5s5s 6s6s6s6s 7s7s"]
KEEP = ["1p1p1p1p 2p2p2p2p 3p3p 4p", "5p5p5p5p 6p6p6p6p 7p7p", "1s1s1s1s 2s2s2s2s 3s3s", "5s5s5s5s 6s6s6s6s 7s7s"]


def test_first_charleston_right_across_left():
    pols = [Script(k) for k in KEEP]
    log = play_walls(make_wall(BASE, "9s9s9s9s"), rules="american", policies=pols, **SCRIPT)
    for passno, direction in enumerate((1, 2, 3)):
        passed = [sorted(e["tile"] for e in events(log, "pass") if e["pass_number"] == passno and e["seat"] == s)
                  for s in range(4)]
        got = [sorted(e["tile"] for e in events(log, "receive") if e["pass_number"] == passno and e["seat"] == s)
               for s in range(4)]
        for s in range(4):
            assert len(passed[s]) == 3
            assert got[(s + direction) % 4] == passed[s]
    # seat 0 passes its own 1m2m3m right (to seat 1) first
    assert sorted(e["tile"] for e in events(log, "receive") if e["pass_number"] == 0 and e["seat"] == 1) == ["1m", "2m", "3m"]
    assert [e["danced"] for e in events(log, "second_charleston")] == [False]
    assert [x[1] for x in pols[0].seen if x[0] == "pass"] == ["right", "across", "left"]
    assert [x[2] for x in pols[0].seen if x[0] == "pass"] == [False, False, True]   # blind only on the last


def test_second_charleston_left_across_right_and_vote():
    pols = [Script(k, vote=(s == 2)) for s, k in enumerate(KEEP)]        # one player wants it: danced
    log = play_walls(make_wall(BASE, "9s9s9s9s"), rules="american", policies=pols, courtesy=False)
    assert [e["danced"] for e in events(log, "second_charleston")] == [True]
    assert [x[1] for x in pols[1].seen if x[0] == "pass"] == ["right", "across", "left", "left", "across", "right"]
    assert [x[2] for x in pols[1].seen if x[0] == "pass"] == [False, False, True, False, False, True]
    for passno, direction in ((3, 3), (4, 2), (5, 1)):
        for s in range(4):
            passed = sorted(e["tile"] for e in events(log, "pass") if e["pass_number"] == passno and e["seat"] == s)
            got = sorted(e["tile"] for e in events(log, "receive") if e["pass_number"] == passno and e["seat"] == (s + direction) % 4)
            assert passed == got and len(passed) == 3
    pols = [Script(k, vote=False) for k in KEEP]                          # nobody wants it
    log = play_walls(make_wall(BASE, "9s9s9s9s"), rules="american", policies=pols, courtesy=False)
    assert [e["danced"] for e in events(log, "second_charleston")] == [False]
    assert not [e for e in events(log, "pass") if e["pass_number"] >= 3]
    log = play_walls(make_wall(BASE, "9s9s9s9s"), rules="american", policies=[Script(k, vote=False) for k in KEEP],
                     courtesy=False, second_charleston=True)               # the rule forces it
    assert [e["danced"] for e in events(log, "second_charleston")] == [True]


def test_blind_pass_forwards_received_tiles_unseen():
    # last pass of the first Charleston is "left" (seat s -> seat s - 1): seat 1 gives one own
    # tile and blind-passes two: of the three tiles seat 2 passes it keeps the first and the
    # other two go on to seat 0 unseen.
    pols = [Script(k) for k in KEEP]
    pols[1].passes = {"left": ["1m"]}          # after two passes seat 1 holds seat 2's junk kinds
    log = play_walls(make_wall(BASE, "9s9s9s9s"), rules="american", policies=pols, **SCRIPT)
    from_2 = [e["tile"] for e in events(log, "pass") if e["pass_number"] == 2 and e["seat"] == 2]
    kept_1 = [e["tile"] for e in events(log, "receive") if e["pass_number"] == 2 and e["seat"] == 1]
    blind_1 = [e["tile"] for e in events(log, "blind_pass") if e["pass_number"] == 2 and e["seat"] == 1]
    got_0 = [e["tile"] for e in events(log, "receive") if e["pass_number"] == 2 and e["seat"] == 0]
    assert kept_1 == from_2[:1] and blind_1 == from_2[1:]
    assert from_2 == ["4m", "5m", "6m"] and sorted(got_0) == ["1m", "5m", "6m"]
    _check_log(log)
    # every hand holds 14 tiles at its first discard (dealer: after the Charleston; others: after a draw)
    first = [v.views[0] for v in pols]
    assert [int(v.hand.sum()) for v in first] == [14, 14, 14, 14]


def test_blind_pass_only_when_allowed():
    pols = [Script(k) for k in KEEP]
    pols[1].passes = {"right": ["4m"]}                       # blind on the first pass: illegal
    with pytest.raises(mjfast.IllegalActionError, match="seat 1.*3 tiles to pass"):
        play_walls(make_wall(BASE), rules="american", policies=pols, **SCRIPT)
    pols = [Script(k) for k in KEEP]
    pols[1].passes = {"left": ["1m"]}
    with pytest.raises(mjfast.IllegalActionError, match="3 tiles to pass"):
        play_walls(make_wall(BASE), rules="american", policies=pols, blind_pass=False, **SCRIPT)


def test_all_blind_moves_nothing():
    pols = [Script(k, passes={"left": []}) for k in KEEP]
    log = play_walls(make_wall(BASE), rules="american", policies=pols, **SCRIPT)
    assert not [e for e in events(log) if e["type"] in ("pass", "receive", "blind_pass") and e["pass_number"] == 2]


def test_joker_is_never_passed():
    hands = list(BASE)
    hands[1] = "4m5m j 5p5p5p5p 6p6p6p6p 7p7p"
    pols = [Script(k) for k in KEEP]
    pols[1].keep = Counter(kinds("5p5p5p5p 6p6p6p6p 7p7p"))          # its surplus includes the joker
    with pytest.raises(mjfast.IllegalActionError, match="jokers are never passed"):
        play_walls(make_wall(hands), rules="american", policies=pols, **SCRIPT)
    # the built-in policies never pass one (passes in many seeded games)
    for g in range(6):
        for pol in ("greedy", "random"):
            log = mjfast.replay(g, 0, rules="american", policies=pol)
            assert all(e["tile"] != "j" for e in log.events if e["type"] in ("pass", "receive", "blind_pass"))


def test_courtesy_pass_exchanges_the_smaller_offer():
    pols = [Script(k, vote=False, offer=o) for k, o in zip(KEEP, (2, 0, 3, 1))]
    log = play_walls(make_wall(BASE, "9s9s9s9s"), rules="american", policies=pols)
    offers = {e["seat"]: e["tiles"] for e in events(log, "courtesy_offer")}
    assert offers == {0: 2, 1: 0, 2: 3, 3: 1}
    c = [e for e in events(log, "pass") if e["pass_number"] == 6]
    r = [e for e in events(log, "receive") if e["pass_number"] == 6]
    assert sorted(e["seat"] for e in c) == [0, 0, 2, 2]               # min(2, 3) = 2 between seats 0 and 2; none 1-3
    for s in (0, 2):
        assert sorted(e["tile"] for e in c if e["seat"] == s) == sorted(e["tile"] for e in r if e["seat"] == (s + 2) % 4)
    assert play_walls(make_wall(BASE), rules="american", policies=pols, courtesy=False,
                      second_charleston=False).header["out"]["courtesy_tiles"] == 0
    assert log.header["out"]["courtesy_tiles"] == 4
    _check_log(log)


def test_courtesy_offer_checked():
    pols = [Script(k, vote=False, offer=5) for k in KEEP]
    with pytest.raises(mjfast.IllegalActionError, match="courtesy offer"):
        play_walls(make_wall(BASE), rules="american", policies=pols)


# ---------------------------------------------------------------------------------------------
# play: calls, joker exchange, dead hands, scoring


def test_call_for_a_set_of_four_and_turn_order():
    # the dealer discards 4p; seat 3 holds three 4p (naturals first, no joker) and calls; seat 3
    # discards and seat 0 draws next (seats 1 and 2 miss their turn).
    hands = ["1m2m3m 1p1p1p1p 2p2p2p2p 3p3p 4p", "4m5m6m 5p5p5p5p 6p6p6p6p 7p7p",
             "1m2m3m 1s1s1s1s 2s2s2s2s 3s3s", "4m5m6m 4p4p4p 5s5s5s5s 6s6s 7s"]
    keep = list(KEEP)
    keep[0] = "1p1p1p1p 2p2p2p2p 3p3p"
    keep[3] = "4p4p4p 5s5s5s5s 6s6s 7s"
    pols = [Script(k) for k in keep]
    pols[0].order = ["4p"]
    pols[3].call = {american_kind_index("4p")}
    log = play_walls(make_wall(hands, "9s9s9s9s"), rules="american", policies=pols, **SCRIPT)
    first = [e for e in log.events if e["type"] in ("discard", "call", "draw")][:4]
    assert first[0] == {"hand": 0, "type": "discard", "seat": 0, "tile": "4p"}
    assert first[1] == {"hand": 0, "type": "call", "seat": 3, "tile": "4p", "jokers": 0}
    assert first[2]["type"] == "discard" and first[2]["seat"] == 3
    assert first[3]["type"] == "draw" and first[3]["seat"] == 0
    assert ("claim", "4p", ("quad",)) in pols[3].seen
    later = [v for v in pols[0].views if v.turn > 3][0]
    assert later.exposures[3] == (("4p", 0),)
    assert log.header["out"]["calls"][3] == 1


def test_call_with_jokers_and_no_second_call_of_a_kind():
    hands = ["1m2m3m 1p1p1p1p 2p2p2p2p 3p3p 4p", "4m5m6m 5p5p5p5p 6p6p6p6p 7p7p",
             "1m2m3m 1s1s1s1s 2s2s2s2s 3s3s", "4m5m6m 4p j j 5s5s5s5s 6s6s 7s"]
    keep = list(KEEP)
    keep[0] = "1p1p1p1p 2p2p2p2p 3p3p"
    keep[3] = "4p j j 5s5s5s5s 6s6s 7s"
    pols = [Script(k) for k in keep]
    pols[0].order = ["4p"]
    pols[3].call = {american_kind_index("4p")}
    log = play_walls(make_wall(hands, "9s9s9s9s"), rules="american", policies=pols, **SCRIPT)
    call = events(log, "call")[0]
    assert call == {"hand": 0, "type": "call", "seat": 3, "tile": "4p", "jokers": 2}
    # seat 3 is never again offered a call for 4p (its set of 4p is exposed)
    claims = [x for x in pols[3].seen if x[0] == "claim"]
    assert claims[0] == ("claim", "4p", ("quad",))
    assert all(not (x[1] == "4p" and "quad" in x[2]) for x in claims[1:])


FILL = ["1z", "2z", "3z", "4z", "5z", "6z", "7z"] * 4       # honors: higher kinds than the tiles in play


def _timeline(first: dict, n: int) -> str:
    """Draws #1..#n (seats 1, 2, 3, 0, 1, ...), honors except the given {draw number: tile}."""
    f = iter(FILL)
    return " ".join(first.get(i, None) or next(f) for i in range(1, n + 1))


def test_pair_only_for_mahjong():
    # seat 3 gets ready on its third draw (5s x4, 6s x4, 8s 8s 8s j, waiting on 7p for the
    # pair); seat 1 holds a pair of 7p. Seat 0 draws the last 7p (draw #12) and discards it:
    # seat 1 is offered nothing (a pair is called only for Mahjong), seat 3 is offered "win".
    hands = ["1m2m3m 1p1p1p1p 2p2p2p2p 3p3p 4p", "4m5m6m 5p5p5p5p 6p6p6p6p 7p7p",
             "1m2m3m 1s1s1s1s 2s2s2s2s 3s3s", "4m5m6m 5s5s5s5s 6s6s6s6s 8s 7p"]
    keep = list(KEEP)
    keep[3] = "5s5s5s5s 6s6s6s6s 8s8s8s j 7p7p"
    pols = [Script(k) for k in keep]
    log = play_walls(make_wall(hands, _timeline({3: "8s", 7: "8s", 11: "j", 12: "7p"}, 12)), rules="american",
                     policies=pols, **SCRIPT)
    d = [e for e in events(log, "discard") if e["tile"] == "7p"]
    assert d and d[0]["seat"] == 0
    assert not any(x[0] == "claim" and x[1] == "7p" for x in pols[1].seen)
    assert ("claim", "7p", ("win",)) in pols[3].seen
    win = events(log, "win")
    assert [(w["seat"], w["self_drawn"], w["discarder"]) for w in win] == [(3, False, 0)]
    assert {e["seat"]: e["delta"] for e in events(log, "score")} == {0: -50, 1: -50, 2: -50, 3: 150}


@pytest.mark.parametrize("self_draw", [True, False])
@pytest.mark.parametrize("jokerless", [True, False])
def test_scoring_multipliers(self_draw, jokerless):
    # seat 1 completes 5p x4, 6p x4, 8p x4 (or 8p x3 + joker) and the pair 7p 7p: the last 7p
    # comes as its own draw #13 (self-drawn) or as seat 0's discard after draw #16.
    eight = kinds("8p8p8p8p" if jokerless else "8p8p8p j")
    hands = ["1m2m3m 1p1p1p1p 2p2p2p2p 3p3p 4p", "4m5m6m 5p5p5p5p 6p6p6p6p 7p 8p",
             "1m2m3m 1s1s1s1s 2s2s2s2s 3s3s", "4m5m6m 5s5s5s5s 6s6s6s6s 7s7s"]
    keep = list(KEEP)
    keep[1] = "5p5p5p5p 6p6p6p6p 7p7p " + " ".join(american_kind_name(k) for k in eight)
    pols = [Script(k) for k in keep]
    script = {1: american_kind_name(eight[1]), 5: american_kind_name(eight[2]), 9: american_kind_name(eight[3])}
    script[13 if self_draw else 16] = "7p"
    log = play_walls(make_wall(hands, _timeline(script, 16)), rules="american", policies=pols, **SCRIPT)
    win = events(log, "win")
    assert [(w["seat"], w["self_drawn"]) for w in win] == [(1, self_draw)]
    if not self_draw:
        assert win[0]["discarder"] == 0
    pay = 50 * (2 if self_draw else 1) * (2 if jokerless else 1)
    deltas = {e["seat"]: e["delta"] for e in events(log, "score", hand=0)}
    assert deltas == {0: -pay, 1: 3 * pay, 2: -pay, 3: -pay}
    assert sum(log.header["scores"]) == 4 * 650
    out = log.header["out"]
    assert out["jokerless"][1] == int(jokerless) and out["self_drawn"][1] == int(self_draw)
    assert out["deal_ins"][0] == int(not self_draw)


def test_joker_exchange():
    # seat 3 exposes 4p 4p 4p(called) + joker; seat 0 holds the fourth 4p and, on its next
    # draw, swaps it for that joker.
    hands = ["1m2m3m 1p1p1p1p 2p2p2p2p 3p 4p4p", "4m5m6m 5p5p5p5p 6p6p6p6p 7p7p",
             "1m2m3m 1s1s1s1s 2s2s2s2s 3s3s", "4m5m6m 4p4p j 5s5s5s5s 6s6s 7s"]
    keep = list(KEEP)
    keep[0] = "1p1p1p1p 2p2p2p2p 3p 4p"
    keep[3] = "4p4p j 5s5s5s5s 6s6s 7s"
    pols = [Script(k) for k in keep]
    pols[0].order = ["4p"]
    pols[3].call = {american_kind_index("4p")}
    pols[0].exchange = True
    log = play_walls(make_wall(hands, "9s9s9s9s9m9m9m9m"), rules="american", policies=pols, **SCRIPT)
    call = events(log, "call")[0]
    assert (call["seat"], call["tile"], call["jokers"]) == (3, "4p", 1)
    ex = events(log, "joker_exchange")
    assert ex and ex[0]["seat"] == 0 and ex[0]["tile"] == "4p" and ex[0]["owner"] == 3
    assert ("own", "9s", ("exchange:4p:3",)) in pols[0].seen
    v = pols[0].views[-1]
    assert v.exposures[3] == (("4p", 0),)
    # the joker taken is the seat's to keep (exchange happened before its discard)
    assert any(int(w.hand[35]) == 1 for w in pols[0].views[1:])


def test_called_joker_refused():
    # the dealer discards a joker: nobody is asked, seat 1 draws next
    hands = ["1m2m3m 1p1p1p1p 2p2p2p2p 3p3p j", "4m5m6m 5p5p5p5p 6p6p6p6p j j",
             "1m2m3m 1s1s1s1s 2s2s2s2s 3s3s", "4m5m6m 5s5s5s5s 6s6s6s6s 7s7s"]
    keep = list(KEEP)
    keep[0] = "1p1p1p1p 2p2p2p2p 3p3p"
    keep[1] = "5p5p5p5p 6p6p6p6p j j"
    pols = [Script(k) for k in keep]
    pols[0].order = ["j"]
    log = play_walls(make_wall(hands, "9s"), rules="american", policies=pols, **SCRIPT)
    seq = [e for e in log.events if e["type"] in ("discard", "call", "draw", "win")][:2]
    assert seq[0] == {"hand": 0, "type": "discard", "seat": 0, "tile": "j"}
    assert seq[1]["type"] == "draw" and seq[1]["seat"] == 1
    assert not any(x[0] == "claim" and x[1] == "j" for p in pols for x in p.seen)


def test_dead_hand_false_mahjong():
    pols = [Script(k) for k in KEEP]
    pols[2].false_win_turn = 3                   # seat 2 declares Mahjong on its first own turn
    log = play_walls(make_wall(BASE, "9s9s9s9s"), rules="american", policies=pols, **SCRIPT)
    dead = events(log, "dead")
    assert [(e["seat"], e["hand"]) for e in dead] == [(2, 0)]
    i = log.events.index(dead[0])
    later = [e for e in log.events[i:] if e["hand"] == 0 and e["type"] in ("draw", "discard", "call")]
    assert later and all(e["seat"] != 2 for e in later)        # out of the hand; the others play on
    assert len({e["seat"] for e in later}) == 3
    assert log.header["out"]["dead"][2] == 1
    assert sum(log.header["scores"]) == 4 * 650


def test_dead_hand_false_mahjong_on_a_call():
    # seat 3 answers "win" when only a call for a set of four is offered: its hand is dead, the
    # discard is not taken and play goes on with seat 1 (seats 1 and 2 have nothing to call)
    hands = ["1m2m3m 1p1p1p1p 2p2p2p2p 3p3p 4p", "4m5m6m 5p5p5p5p 6p6p6p6p 7p7p",
             "1m2m3m 1s1s1s1s 2s2s2s2s 3s3s", "4m5m6m 4p4p4p 5s5s5s5s 6s6s 7s"]
    keep = list(KEEP)
    keep[0] = "1p1p1p1p 2p2p2p2p 3p3p"
    keep[3] = "4p4p4p 5s5s5s5s 6s6s 7s"
    pols = [Script(k) for k in keep]
    pols[0].order = ["4p"]

    def liar(view, tile, options):
        pols[3].seen.append(("claim", tile, tuple(options)))
        return "win"
    pols[3].claim = liar
    log = play_walls(make_wall(hands, "9s9s9s9s"), rules="american", policies=pols, **SCRIPT)
    assert ("claim", "4p", ("quad",)) in pols[3].seen
    seq = [e for e in log.events if e["type"] in ("discard", "dead", "draw", "call", "win")][:3]
    assert seq[1] == {"hand": 0, "type": "dead", "seat": 3}
    assert seq[2]["type"] == "draw" and seq[2]["seat"] == 1
    assert not [e for e in log.events if e["seat"] == 3 and e["type"] in ("draw", "discard", "call")]


def test_every_hand_dead_ends_the_hand_without_a_winner():
    class Liar(AmericanPolicy):
        def discard(self, view):
            return american_kind_name(int(np.flatnonzero(view.hand)[0]))

        def own_turn(self, view, options):
            return "win"
    log = mjfast.replay(1, 0, rules="american", policies=[Liar() for _ in range(4)])
    for h in range(4):
        assert sorted(e["seat"] for e in events(log, "dead", hand=h)) == [0, 1, 2, 3]
        assert not events(log, "win", hand=h) and not events(log, "wall_game", hand=h)
    assert log.header["scores"] == [650] * 4


def test_a_plain_policy_plays_american():
    class Tsumogiri(mjfast.Policy):
        name = "tsumogiri"

        def discard(self, view):
            return view.drawn or american_kind_name(int(np.flatnonzero(view.hand)[0]))
    res = mjfast.simulate(5, rules="american", policies=[Tsumogiri(), "greedy", "random", "greedy"], seed=1,
                          progress=False)
    assert res.games == 5 and int(res.points.sum()) == 5 * 4 * 650
    assert sorted(res.by_policy) == ["greedy", "random", "tsumogiri"]


def test_compare_american():
    c = mjfast.compare("greedy", "random", 30, rules="american", seed=4, progress=False)
    assert c.wall_sets == 30 and c.points_diff.n == 30 and c.points_diff.mean > 0


def test_dead_hand_rate_in_simulate():
    class Liar(AmericanPolicy):
        name = "liar"

        def discard(self, view):
            return american_kind_name(int(np.flatnonzero(view.hand)[0]))

        def own_turn(self, view, options):
            return "win"
    res = mjfast.simulate(20, rules="american", policies=[Liar(), "greedy", "greedy", "greedy"], seed=3, progress=False)
    assert res.dead_hands[0] == res.hands                       # always dead at its first own turn
    assert res.dead_hand_rate(seat=0).p == 1.0 and res.dead_hands[1:].sum() == 0
    assert res.wins[0] == 0 and int(res.points.sum()) == 20 * 4 * 650


def test_illegal_discard_raises():
    class Bad(AmericanPolicy):
        def discard(self, view):
            return american_kind_name(int(np.flatnonzero(view.hand == 0)[0]))      # a tile not held
    with pytest.raises(mjfast.IllegalActionError, match=r"seat 0 \(python-american\), hand 0, turn 1: .* a tile in hand"):
        mjfast.simulate(1, rules="american", policies=[Bad(), "greedy", "greedy", "greedy"], seed=1, progress=False)


# ---------------------------------------------------------------------------------------------
# invariants

def _complete(hand, exposed, all_joker_sets=True) -> bool:
    """A complete beginner hand, directly: the held natural kinds are one per remaining set plus
    the pair (all_joker_sets: at most that many, a concealed set may be all jokers), none exposed
    already, at most four of each, one of them exactly two (the pair, never a joker); the fixed
    tile count makes the jokers fill the sets exactly. Checked against the reference below; fast
    enough to run after every discard of a game log."""
    need = 3 - len(exposed)
    if int(hand.sum()) != 14 - 4 * len(exposed):
        return False
    kinds = np.flatnonzero(hand[:35])
    if (len(kinds) > need + 1 if all_joker_sets else len(kinds) != need + 1) or not len(kinds):
        return False
    if any(int(k) in exposed for k in kinds) or hand[kinds].max() > 4:
        return False
    return bool((hand[kinds] == 2).any())


@pytest.mark.parametrize("all_joker_sets", [True, False])
def test_direct_completeness_matches_the_reference(all_joker_sets):
    rng = np.random.default_rng(3)
    seen = differ = 0
    for _ in range(3000):
        exposed = [int(k) for k in rng.choice(35, size=rng.integers(0, 4), replace=False)]
        kinds = rng.choice(35, size=4, replace=False)
        hand = np.zeros(36, int)
        for k in kinds:                              # near-complete shapes, then noise
            hand[k] += rng.integers(1, 5)
        hand[35] = rng.integers(0, 5)
        while hand.sum() > 14 - 4 * len(exposed):
            hand[rng.choice(np.flatnonzero(hand))] -= 1
        while hand.sum() < 14 - 4 * len(exposed):
            hand[rng.choice(kinds)] += 1
        want = _amreference.is_complete(hand, exposed, all_joker_sets)
        assert _complete(hand, exposed, all_joker_sets) == want, (hand, exposed)
        seen += want
        differ += _amreference.is_complete(hand, exposed, not all_joker_sets) != want
    assert seen > 50 and differ > 10


def _check_log(log, jokers=8, builtin=False, all_joker_sets=True, wins=None):
    """Replay a log with plain counters: every count stays >= 0, every hand holds 13 tiles
    (exposed sets counted as 4) after each discard and 14 at Mahjong, the winning hand is
    complete by the reference, every tile is accounted for at the end of each hand (hands +
    exposed sets + discards on the table + the wall left = the whole set, kind by kind), and
    the scores move by zero sum. With ``builtin`` (built-in policies only, which never pass a
    win): nobody discards from a complete hand (after a draw, a call or joker exchanges), and a
    discard that a live player can go Mahjong on is won by the first such player in turn order.
    Completeness is read with the game's joker reading ``all_joker_sets``; ``wins`` (a list)
    collects each winning (concealed hand, exposed kinds)."""
    full = np.array([4] * 34 + [8, jokers])
    checked = 0
    for h, wall in enumerate(log.header["wall_ids"]):
        ev = events(log, hand=h)
        if not ev:
            continue
        hand = [np.zeros(36, int) for _ in range(4)]
        exp_tiles = np.zeros(36, int)
        table = np.zeros(36, int)
        exposed = [[] for _ in range(4)]
        dead = [False] * 4
        taken = 0
        last = None
        must_win = None                    # the seat that has to win on the last discard
        for e in ev:
            t, s = e["type"], e["seat"]
            if must_win is not None:
                assert t == "win" and s == must_win, (h, e, must_win)
                must_win = None
            if t == "dead":
                dead[s] = True
            if t in ("deal", "draw"):
                assert e["id"] == wall[taken]                     # tiles come off the wall in order
                hand[s][american_kind_index(e["tile"])] += 1
                taken += 1
            elif t == "pass":
                hand[s][american_kind_index(e["tile"])] -= 1
            elif t == "receive":
                hand[s][american_kind_index(e["tile"])] += 1
            elif t == "discard":
                if builtin:                   # a complete hand is always declared
                    assert not _complete(hand[s], exposed[s], all_joker_sets), (h, e)
                    checked += 1
                last = american_kind_index(e["tile"])
                hand[s][last] -= 1
                table[last] += 1
                assert hand[s].sum() + 4 * len(exposed[s]) == 13
                if builtin and last != 35:
                    for i in range(1, 4):
                        o = (s + i) % 4
                        if dead[o]:
                            continue
                        hand[o][last] += 1
                        won = _complete(hand[o], exposed[o], all_joker_sets)
                        hand[o][last] -= 1
                        if won:
                            must_win = o
                            break
            elif t == "call":
                k = american_kind_index(e["tile"])
                assert k == last and k != 35
                hand[s][k] -= 3 - e["jokers"]
                hand[s][35] -= e["jokers"]
                table[k] -= 1
                exp_tiles[k] += 4 - e["jokers"]
                exp_tiles[35] += e["jokers"]
                exposed[s].append(k)
            elif t == "joker_exchange":
                k = american_kind_index(e["tile"])
                hand[s][k] -= 1
                hand[s][35] += 1
                exp_tiles[k] += 1
                exp_tiles[35] -= 1
            elif t == "win":
                if not e["self_drawn"]:
                    hand[s][last] += 1
                    table[last] -= 1
                assert hand[s].sum() + 4 * len(exposed[s]) == 14
                assert _amreference.is_complete(hand[s], exposed[s], all_joker_sets)
                if wins is not None:
                    wins.append((hand[s].copy(), list(exposed[s])))
            assert min(x.min() for x in hand) >= 0 and table.min() >= 0 and exp_tiles.min() >= 0
        rest = np.zeros(36, int)
        for i in wall[taken:]:
            rest[35 if i >= 144 else 34 if i >= 136 else i // 4] += 1
        assert np.array_equal(sum(hand) + exp_tiles + table + rest, full)
        assert sum(e["delta"] for e in events(log, "score", hand=h)) == 0
    return checked


def test_logs_are_consistent_greedy_and_random():
    for g in range(8):
        for pols in ("greedy", "random", ["greedy", "random", "greedy", "random"]):
            _check_log(mjfast.replay(g, 0, rules="american", policies=pols), builtin=True)
    _check_log(mjfast.replay(3, 1, rules="american", jokers=3), jokers=3)
    blind = 0
    for g in range(8):                     # greedy blind passes now and then: covered above too
        log = mjfast.replay(g, 0, rules="american")
        blind += len(events(log, "blind_pass"))
    assert blind > 0


def test_logs_under_each_joker_reading():
    """Under the default reading players go Mahjong with a concealed set of four jokers (hands
    the other reading does not count complete: found in these games, 1 win in ~1,000 with 10
    jokers); with all_joker_sets=False never. Every log is checked by the reference under its own
    reading (every win complete, every complete hand declared, every Mahjong on a discard taken)."""
    games = [(7, 180), (8, 127), (8, 188)] + [(5, g) for g in range(12)]
    need_all_joker = {}
    for aj in (True, False):
        rules = mjfast.rules.get("american", jokers=10, all_joker_sets=aj)
        wins: list = []
        for seed, g in games:
            _check_log(mjfast.replay(seed, g, rules=rules), jokers=10, builtin=True, all_joker_sets=aj, wins=wins)
        need_all_joker[aj] = [(hd.tolist(), ex) for hd, ex in wins if not _amreference.is_complete(hd, ex, False)]
        assert len(wins) > 40
    assert len(need_all_joker[True]) >= 3 and need_all_joker[False] == []
    hand, exposed = need_all_joker[True][0]
    assert hand[35] >= 4 and len([k for k in range(35) if hand[k]]) + len(exposed) < 4     # a set of jokers only


def test_complete_hands_are_always_declared():
    """Regression: a Mahjong completed by a joker exchange was never declared (the
    shortcut that skips the win check used the distance from before the exchange)."""
    log = mjfast.replay(11, 46, rules="american")
    first = events(log, hand=0)
    i = next(i for i, e in enumerate(first) if e["type"] == "joker_exchange" and e["seat"] == 3
             and e["tile"] == "1p")
    assert first[i + 1]["type"] == "win" and first[i + 1]["seat"] == 3 and first[i + 1]["self_drawn"]
    exchange_wins = 0
    for g in range(40):
        for pols in ("greedy", ["greedy", "random", "greedy", "random"]):
            log = mjfast.replay(5, g, rules="american", policies=pols)
            assert _check_log(log, builtin=True) > 0
            ev = log.events
            exchange_wins += sum(1 for a, b in zip(ev, ev[1:])
                                 if a["type"] == "joker_exchange" and b["type"] == "win")
    assert exchange_wins > 0                # the case the shortcut got wrong was exercised


def test_scores_sum_and_counters():
    res = mjfast.simulate(300, rules="american", policies=["greedy", "random", "greedy", "greedy"], seed=4,
                          progress=False)
    assert int(res.points.sum()) == 300 * 4 * 650
    assert all(sum(v * k for k, v in h.items()) == res.points[s] for s, h in enumerate(res.points_hist))
    assert res.hands == 1200
    assert res.wins.sum() + res.exhaustive_draws == res.hands             # no dead hands with built-ins
    assert res.distance_before.sum() == res.distance_after.sum() == 4 * res.hands
    assert (res.jokerless_wins <= res.wins).all() and (res.self_draw_wins <= res.wins).all()
    assert res.deal_ins.sum() == (res.wins - res.self_draw_wins).sum()


def test_reproducible_across_threads_and_chunks():
    a = mjfast.simulate(200, rules="american", seed=9, threads=1, progress=False)
    b = mjfast.simulate(200, rules="american", seed=9, threads=2, chunk_size=37, progress=False)
    assert a.to_dict() == b.to_dict()
    c = mjfast.simulate(100, rules="american", seed=9, progress=False) + mjfast.simulate(
        100, rules="american", seed=9, progress=False)
    assert c.games == 200
    d = mjfast.simulate(200, rules="american", seed=10, progress=False)
    assert d.to_dict()["seats"] != a.to_dict()["seats"]


def test_replay_matches_simulate_and_reruns():
    res = mjfast.simulate(3, rules="american", seed=11, progress=False, jokers=10)
    logs = [mjfast.replay(11, g, rules="american", jokers=10) for g in range(3)]
    finals = np.array([lg.header["scores"] for lg in logs])
    assert finals.sum(axis=0).tolist() == res.points.tolist()
    assert mjfast.rerun(logs[1].to_jsonl()).events == logs[1].events
    assert len(logs[0].header["wall_ids"][0]) == 154


def test_rules_options_and_validation():
    r = mjfast.rules.get("american")
    assert (r.jokers, r.second_charleston, r.courtesy, r.blind_pass, r.hands_per_game) == (8, "policy", True, True, 4)
    assert mjfast.rules.get("american", rounds=2).hands_per_game == 8
    assert mjfast.rules.get("american", hands_per_game=12).rounds == 3
    with pytest.raises(ValueError, match="hands_per_game"):
        mjfast.rules.get("american", hands_per_game=6)
    with pytest.raises(ValueError, match="jokers"):
        mjfast.rules.get("american", jokers=11)
    with pytest.raises(ValueError, match="second_charleston"):
        mjfast.rules.get("american", second_charleston="maybe")
    with pytest.raises(ValueError, match="unknown rule option 'flowers'"):
        mjfast.rules.get("american", flowers=True)
    with pytest.raises(ValueError, match="defensive"):
        mjfast.simulate(1, rules="american", policies="defensive", progress=False)
    with pytest.raises(ValueError, match="152 tiles"):
        play_walls([np.arange(136)], rules="american")
    assert mjfast.rules.get("american", jokers=0).n_tiles == 144


def test_jokers_option_changes_the_game():
    r0 = mjfast.simulate(300, rules="american", jokers=0, seed=1, progress=False)
    assert r0.jokerless_wins.sum() == r0.wins.sum()                    # no jokers: every win is jokerless
    assert r0.claims[:, 1].sum() == 0


# ---------------------------------------------------------------------------------------------
# the documented greedy rules, in plain Python, reproduce the built-in policy

class PyGreedy(AmericanPolicy):
    name = "py-greedy"
    all_joker_sets = True               # the game's joker reading, read from each view (exposed())

    def dist(self, hand, exposed) -> int:
        return american_distance(np.asarray(hand, dtype=np.int64), [(k, 0) for k in exposed],
                                 all_joker_sets=self.all_joker_sets)

    def exposed(self, view):
        self.all_joker_sets = view.all_joker_sets         # every hook asks for exposures before a distance
        return [american_kind_index(t) for t, _ in view.exposures[view.seat]]

    def pick(self, view, h, exposed, allow_joker):
        best = None
        for k in range(35):
            if h[k]:
                h[k] -= 1
                d = self.dist(h, exposed)
                h[k] += 1
                unseen = (8 if k == 34 else 4) - h[k] - int(view.visible[k])
                key = (d, h[k], unseen, k)
                if best is None or key < best:
                    best = key
        if allow_joker and h[35]:
            h[35] -= 1
            d = self.dist(h, exposed)
            h[35] += 1
            if best is None or d < best[0]:
                return 35, d
        return best[3], best[0]

    def plan(self, view, n):
        h = view.hand.astype(np.int64).copy()
        ex = self.exposed(view)
        before = self.dist(h, ex)
        out = []
        for _ in range(n):
            k, d = self.pick(view, h, ex, False)
            out.append((k, d > before))
            before = d
            h[k] -= 1
        return out

    def discard(self, view):
        h = view.hand.astype(np.int64).copy()
        return american_kind_name(self.pick(view, h, self.exposed(view), True)[0])

    def charleston(self, view, direction, blind):
        p = self.plan(view, 3)
        if blind:
            for i, (_, raises) in enumerate(p):
                if raises:
                    return [american_kind_name(k) for k, _ in p[:i]]
        return [american_kind_name(k) for k, _ in p]

    def second_charleston(self, view):
        return not self.plan(view, 3)[2][1]

    def courtesy_offer(self, view):
        p = self.plan(view, 3)
        return next((i for i, (_, r) in enumerate(p) if r), 3)

    def courtesy(self, view, n):
        return [american_kind_name(k) for k, _ in self.plan(view, n)]

    def claim(self, view, tile, options):
        if "win" in options:
            return "win"
        if "quad" not in options:
            return None
        h = view.hand.astype(np.int64).copy()
        ex = self.exposed(view)
        cur = self.dist(h, ex)
        k = american_kind_index(tile)
        nn = min(int(h[k]), 3)
        h[k] -= nn
        h[35] -= 3 - nn
        _, d = self.pick(view, h, ex + [k], True)
        return "quad" if d < cur else None

    def own_turn(self, view, options):
        if "win" in options:
            return "win"
        h = view.hand.astype(np.int64).copy()
        ex = self.exposed(view)
        d = self.dist(h, ex)
        for o in options:
            if o.startswith("exchange:"):
                k = american_kind_index(o.split(":")[1])
                h[k] -= 1
                h[35] += 1
                d2 = self.dist(h, ex)
                h[k] += 1
                h[35] -= 1
                if d2 <= d:
                    return o
        return None


@pytest.mark.parametrize("game", [0, 1])
def test_python_greedy_reproduces_builtin(game):
    fast = mjfast.replay(21, game, rules="american", policies="greedy")
    slow = mjfast.replay(21, game, rules="american", policies=[PyGreedy() for _ in range(4)])
    assert slow.events == fast.events
    assert any(e["type"] == "call" for e in fast.events) and any(e["type"] == "joker_exchange" for e in fast.events)


@pytest.mark.parametrize("aj", [True, False], ids=["all-joker-sets", "one-natural-per-set"])
@pytest.mark.parametrize("seed,game", [(7, 180), (8, 127)])     # a win with a set of four jokers (default)
def test_python_greedy_reproduces_builtin_each_reading(seed, game, aj):
    rules = mjfast.rules.get("american", jokers=10, all_joker_sets=aj)
    fast = mjfast.replay(seed, game, rules=rules, policies="greedy")
    slow = mjfast.replay(seed, game, rules=rules, policies=[PyGreedy() for _ in range(4)])
    assert slow.events == fast.events


def test_python_greedy_with_python_none_hooks_is_builtin():
    """A Python policy returning None from the Charleston hooks gets the built-in greedy choice."""
    class Hooks(PyGreedy):
        def charleston(self, view, direction, blind):
            return None

        def second_charleston(self, view):
            return None

        def courtesy_offer(self, view):
            return None

        def courtesy(self, view, n):
            return None
    fast = mjfast.replay(5, 0, rules="american", policies="greedy")
    mixed = mjfast.replay(5, 0, rules="american", policies=[Hooks(), "greedy", Hooks(), "greedy"])
    assert mixed.events == fast.events


# ---------------------------------------------------------------------------------------------
# statistics

def test_distance_statistics_and_charleston_effect():
    res = mjfast.simulate(400, rules="american", seed=2, progress=False)
    b, a = res.mean_distance("before"), res.mean_distance("after")
    assert a.high < b.low                               # the greedy Charleston brings hands closer
    dist = res.distance_distribution("after", seat=1)
    assert len(dist) == 15 and sum(e.count for e in dist) == res.hands
    d = res.to_dict()
    for key in ("rules", "games", "seed", "exhaustive_draws", "mean_turns", "jokerless_wins", "dead_hands",
                "distance_before", "distance_after", "wall_game_rate"):
        assert key in d
    for key in ("wins", "self_draw_wins", "discard_wins", "deal_ins", "points", "jokerless_wins", "dead_hands",
                "distance_before", "distance_after"):
        assert key in d["seats"][0]
    eff = mjfast.charleston_effect(200, seed=3, progress=False, options=("courtesy",))
    e = eff["courtesy"]
    assert e.games == 200 and e.distance_after.n == 200
    assert e.on.courtesy_tiles > 0 and e.off.courtesy_tiles == 0
    # common random numbers: the deals are the same, so the distance before the Charleston agrees
    assert np.array_equal(e.on.distance_before, e.off.distance_before)
    assert e.distance_after.mean < 0 and e.distance_after.high < 0


# ---------------------------------------------------------------------------------------------
# command line

def test_cli_simulate_american_json_and_csv(capsys):
    import json

    from mjfast import cli
    assert cli.main(["simulate", "--rules", "american", "--games", "20", "--seed", "2", "--format", "json",
                     "--no-progress", "--jokers", "10", "--second-charleston", "never"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rules"] == "american" and data["games"] == 20 and data["seed"] == 2
    assert data["options"]["jokers"] == 10 and data["options"]["second_charleston"] is False
    assert data["second_charlestons"] == 0
    assert sum(s["points"] for s in data["seats"]) == 20 * 4 * 650
    for s in data["seats"]:
        for key in ("wins", "self_draw_wins", "discard_wins", "deal_ins", "points", "jokerless_wins", "dead_hands"):
            assert isinstance(s[key], int)
        assert sum(s["distance_before"]) == sum(s["distance_after"]) == data["hands"]
    assert cli.main(["simulate", "--rules", "american", "--games", "10", "--seed", "2", "--format", "csv",
                     "--no-progress", "--no-courtesy", "--no-blind-pass"]) == 0
    rows = capsys.readouterr().out.strip().splitlines()
    assert len(rows) == 5 and rows[0].endswith("jokerless_wins,dead_hands,mean_distance_before,mean_distance_after")
    assert cli.main(["simulate", "--rules", "american", "--games", "10", "--seed", "2", "--no-progress"]) == 0
    assert "jokerless share" in capsys.readouterr().out
    assert cli.main(["simulate", "--rules", "american", "--games", "2", "--flowers", "--no-progress"]) == 2
    assert "--flowers does not apply to --rules american" in capsys.readouterr().err
    assert cli.main(["simulate", "--rules", "american", "--games", "10", "--seed", "2", "--charleston-effect",
                     "--format", "json", "--no-progress"]) == 0
    eff = json.loads(capsys.readouterr().out)["effects"]
    assert sorted(eff) == ["blind_pass", "courtesy", "second_charleston"] and eff["courtesy"]["games"] == 10
    assert cli.main(["simulate", "--rules", "american", "--games", "10", "--seed", "2", "--charleston-effect",
                     "--format", "csv", "--no-progress"]) == 0
    rows = capsys.readouterr().out.strip().splitlines()
    assert rows[0].startswith("option,distance_after,") and len(rows) == 4
    assert cli.main(["simulate", "--games", "10", "--charleston-effect", "--no-progress"]) == 2
    capsys.readouterr()
    assert cli.main(["replay", "--rules", "american", "--seed", "1"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert json.loads(first)["rules"] == "american"


def test_duplicate_and_interrupt(monkeypatch):
    res = mjfast.simulate(30, rules="american", policies=["greedy", "random", "greedy", "greedy"], duplicate=True,
                          seed=5, progress=False)
    assert res.games == 120 and res.by_policy["random"]["games"] == 120 and res.by_policy["greedy"]["games"] == 360
    assert res.win_rate(policy="greedy").p > res.win_rate(policy="random").p
    from mjfast.game import runner
    real = runner.simulate_chunk
    sizes = []

    def flaky(*args, **kw):
        if len(sizes) == 2:
            raise KeyboardInterrupt
        sizes.append(args[5])                 # count: the games of this chunk
        return real(*args, **kw)
    monkeypatch.setattr(runner, "simulate_chunk", flaky)
    with pytest.raises(KeyboardInterrupt) as exc:
        mjfast.simulate(50, rules="american", seed=5, chunk_size=10, progress=False)
    part = exc.value.partial
    assert 0 < part.games == sum(sizes) <= 20 and int(part.points.sum()) == part.games * 4 * 650


def test_charleston_effect_switches_each_pass():
    eff = mjfast.charleston_effect(40, seed=6, progress=False)
    sc, bp = eff["second_charleston"], eff["blind_pass"]
    assert sc.on.second_charlestons == sc.on.hands and sc.off.second_charlestons == 0
    assert bp.on.rules.blind_pass and not bp.off.rules.blind_pass
    for e in eff.values():
        assert np.array_equal(e.on.distance_before, e.off.distance_before)      # same deals
        assert set(e.to_dict()) >= {"option", "games", "distance_after", "win_rate", "wall_game_rate", "points"}


def test_compare_and_charleston_effect_in_pieces_same_result(monkeypatch):
    """compare() and charleston_effect() play in pieces of at most runner.COMPARE_CHUNK games
    (bounded memory: they used to hold every game's 640-byte engine row at once, so a large
    run ran out of memory); the pieces do not change any number."""
    from mjfast.game import runner

    whole_c = mjfast.compare("greedy", "random", 23, rules="american", seed=5, progress=False)
    whole_e = mjfast.charleston_effect(23, seed=5, progress=False)
    monkeypatch.setattr(runner, "COMPARE_CHUNK", 5)
    part_c = mjfast.compare("greedy", "random", 23, rules="american", seed=5, progress=False)
    part_e = mjfast.charleston_effect(23, seed=5, progress=False)
    assert part_c.to_dict() == whole_c.to_dict()
    assert part_c.a.to_dict() == whole_c.a.to_dict() and part_c.b.to_dict() == whole_c.b.to_dict()
    for o in whole_e:
        assert part_e[o].to_dict() == whole_e[o].to_dict()
        assert part_e[o].on.to_dict() == whole_e[o].on.to_dict()
        assert part_e[o].off.to_dict() == whole_e[o].off.to_dict()
    with pytest.raises(ValueError, match="games must be at least 1"):     # a run of no games
        mjfast.compare("greedy", "random", 0, rules="american", progress=False)
    with pytest.raises(ValueError, match="games must be at least 1"):
        mjfast.charleston_effect(0, progress=False)
