"""Rule paths of the game engine, forced with scripted walls and scripted Python policies.

Every test builds one wall (``play_walls(..., rounds=1)`` with one wall plays hand 0 only, dealt
by seat 0), lets scripted :class:`mjfast.Policy` players act, and asserts the exact sequence of
the relevant events (and, where the rule is about what may be claimed, the exact options the
engine offered).

Wall layout (engine convention, see ``mjfast.play_walls``): the deal takes wall[0:14] for
the dealer (seat 0) and 13 tiles each for seats 1, 2, 3 (wall[14:27], [27:40], [40:53]); live
draws continue at wall[53]; bonus and kong replacements come from wall[-1], wall[-2], ...
"""
from __future__ import annotations

import numpy as np
import pytest

import _referee
import mjfast
from mjfast import tiles
from mjfast.game import IllegalActionError, play_walls

FIRST_BONUS = 136


# ---------------------------------------------------------------------------------------------
# helpers: tile names, walls, compact events, scripted policies

def names(text: str) -> list:
    """'345m 11z f1' -> ['3m', '4m', '5m', '1z', '1z', 'f1'] (order kept)."""
    out, digits = [], ""
    text = text.replace(" ", "")
    i = 0
    while i < len(text):
        c = text[i]
        if c == "f":
            out.append("f" + text[i + 1])
            i += 2
            continue
        if c.isdigit():
            digits += c
        else:
            assert c in "mpsz", text
            out += [d + c for d in digits]
            digits = ""
        i += 1
    assert not digits, text
    return out


class Wall:
    """A scripted wall: ``hands`` (seat -> tiles, dealt in that order), ``live`` (the live draws
    from wall[53] on), ``back`` (wall[-1], wall[-2], ...); every other tile fills the middle."""

    def __init__(self, hands: dict, live: str = "", back: str = "", *, n_tiles: int = 136):
        self.n = n_tiles
        pool = {k: [4 * k + c for c in range(4)] for k in range(34)}
        bonus = list(range(FIRST_BONUS, n_tiles))

        def take(name):
            if name.startswith("f"):
                i = FIRST_BONUS + int(name[1]) - 1
                assert i in bonus, f"{name} used twice or not in a {n_tiles}-tile set"
                bonus.remove(i)
                return i
            k = tiles.tile_index(name)
            assert pool[k], f"more than four {name}"
            return pool[k].pop(0)

        self.hand_ids = {}
        front = []
        for seat in range(4):
            ts = names(hands[seat])
            assert len(ts) == (14 if seat == 0 else 13), (seat, len(ts))
            ids = [take(t) for t in ts]
            self.hand_ids[seat] = ids
            front += ids
        self.live_ids = [take(t) for t in names(live)]
        self.back_ids = [take(t) for t in names(back)]
        rest = [i for k in range(34) for i in pool[k]]
        middle = rest[:30] + bonus + rest[30:]     # spare bonus tiles well inside the live wall
        wall = front + self.live_ids + middle + self.back_ids[::-1]
        assert len(wall) == n_tiles and sorted(wall) == list(range(n_tiles))
        self.ids = np.array(wall)

    def __getitem__(self, i):
        return int(self.ids[i])


def compact(e: dict) -> tuple:
    t = e["type"]
    if t == "hand":
        return (t, e["dealer"])
    if t in ("deal", "draw", "bonus", "replacement"):
        return (t, e["seat"], e["id"])
    if t in ("discard", "pung", "kong", "concealed_kong", "added_kong"):
        return (t, e["seat"], e["tile"])
    if t == "chow":
        return (t, e["seat"], e["tile"], e["set"])
    if t == "win":
        return (t, e["seat"], e["self_drawn"], e["discarder"])
    if t == "score":
        return (t, e["seat"], e["delta"], e["total"])
    return (t, e["seat"])


def play_events(log) -> list:
    """Compact events after the deal (from the first event that is not hand/deal/deal-time
    bonus or replacement, i.e. from the dealer's first action)."""
    ev = [compact(e) for e in log.events]
    i = 0
    while ev[i][0] in ("hand", "deal"):
        i += 1
    # deal-time bonus replacements (all before the dealer's first action)
    while ev[i][0] in ("bonus", "replacement"):
        i += 1
    return ev[i:]


class Scripted(mjfast.Policy):
    """A fully scripted player.

    discards: tile names discarded in order (then the drawn tile, or the highest tile held);
    claims: list of (tile, choice) consumed in order when that tile is discarded (else None);
    own: own-turn labels taken when offered (each once); every other offer is declined,
    wins included (so nothing happens that the test did not ask for).
    Every call is recorded in ``calls`` as (what, turn, tile or None, options or None).
    """

    name = "scripted"

    def __init__(self, discards=(), claims=(), own=(), ready=False):
        self.discards = names(discards) if isinstance(discards, str) else list(discards)
        self.claims = list(claims)
        self.own = list(own)
        self.ready = ready
        self.calls = []
        self.views = []

    def discard(self, view):
        self.calls.append(("discard", view.turn, view.drawn, None))
        self.views.append(("discard", view))
        if self.discards:
            return self.discards.pop(0)
        if view.drawn is not None:
            return view.drawn
        return tiles.tile_name(int(np.flatnonzero(view.hand)[-1]))

    def claim(self, view, tile, options):
        self.calls.append(("claim", view.turn, tile, list(options)))
        self.views.append(("claim", view))
        if self.claims and self.claims[0][0] == tile:
            return self.claims.pop(0)[1]
        return None

    def own_turn(self, view, options):
        self.calls.append(("own_turn", view.turn, view.drawn, list(options)))
        self.views.append(("own_turn", view))
        for o in self.own:
            if o in options:
                self.own.remove(o)
                return o
        return None

    def declare_ready(self, view):
        self.calls.append(("declare_ready", view.turn, None, None))
        return self.ready(view) if callable(self.ready) else bool(self.ready)

    def claim_calls(self):
        return [(tile, opts) for what, _, tile, opts in self.calls if what == "claim"]

    def own_calls(self):
        return [opts for what, _, _, opts in self.calls if what == "own_turn"]


def play(wall: Wall, pols, rules="classical", dice=None, **opts):
    kw = dict(rounds=1)
    if rules == "classical" and "dead_wall" not in opts:
        kw["dead_wall"] = 0          # no dice-sized dead wall unless a test asks for one
    kw.update(opts)
    return play_walls([wall.ids], dice=dice, rules=rules, policies=pols, **kw)


def scripted(**per_seat):
    """Scripted() for seats 0-3 from keyword args s0=..., s1=... (dicts of Scripted args)."""
    return [Scripted(**per_seat.get(f"s{i}", {})) for i in range(4)]


# Background hands: no two seats can interact unless a test puts tiles there on purpose.
# Seat 0 (dealer, 14) discards first; the other seats hold 13.
H0 = "3m 1p9p 1s9s 1234567z 22p"         # 3m to discard first
H1 = "45m 678m 345p 678p 34s"
H2 = "99m 11m 456s 789s 66p 7z"
H3 = "2m 7m 8m 9m 1p 9p 1s 9s 2345z 6z"
H3_NO9P = H3.replace("9p", "8p")   # when another seat holds four 9p


# ---------------------------------------------------------------------------------------------
# 1. claims

def test_background_hands_are_inert():
    """Sanity of the fixtures: with nothing scripted, the dealer's 3m is not claimable and the
    hand runs draw/discard around the table."""
    w = Wall({0: H0, 1: H1.replace("45m", "19m"), 2: H2, 3: H3})
    pols = scripted(s0=dict(discards="3m"))
    log = play(w, pols)
    ev = play_events(log)
    assert ev[:5] == [("discard", 0, "3m"), ("draw", 1, w[53]), ("discard", 1, tiles.tile_name(w[53] // 4)),
                      ("draw", 2, w[54]), ("discard", 2, tiles.tile_name(w[54] // 4))]
    assert not any(c[0] == "claim" and c[1] == 1 for p in pols for c in p.calls)   # nobody was asked
    _referee.check_log(log, builtin=False)


def test_chow_by_next_player():
    w = Wall({0: H0, 1: H1, 2: H2, 3: H3})
    pols = scripted(s0=dict(discards="3m"), s1=dict(claims=[("3m", "chow:345m")], discards="3s"))
    log = play(w, pols)
    ev = play_events(log)
    assert ev[:6] == [
        ("discard", 0, "3m"),
        ("chow", 1, "3m", "345m"),
        ("discard", 1, "3s"),                       # the claimer discards at once, no draw
        ("draw", 2, w[53]),                         # play goes on from the claimer
        ("discard", 2, tiles.tile_name(w[53] // 4)),
        ("draw", 3, w[54]),
    ]
    assert pols[1].claim_calls()[0] == ("3m", ["chow:345m"])
    # the claimer's view after the chow: the set is exposed, nothing was drawn
    kind, view = pols[1].views[1]
    assert kind == "discard" and view.drawn is None
    assert view.melds[1] == (("chow", "3m"),)
    assert int(view.hand.sum()) == 11
    _referee.check_log(log, builtin=False)


def test_chow_offers_every_set_and_the_chosen_one_is_exposed():
    # seat 1 holds 1m 2m 4m 5m: the 3m completes 123m, 234m or 345m; all three are offered
    w = Wall({0: H0, 1: "1m 2m 45m 678m 345p 678p", 2: H2, 3: H3.replace("2m", "5s")})
    pols = scripted(s0=dict(discards="3m"), s1=dict(claims=[("3m", "chow:234m")], discards="1m"))
    log = play(w, pols)
    assert pols[1].claim_calls()[0] == ("3m", ["chow:123m", "chow:234m", "chow:345m"])
    assert play_events(log)[:3] == [("discard", 0, "3m"), ("chow", 1, "3m", "234m"), ("discard", 1, "1m")]
    _referee.check_log(log, builtin=False)


def test_pung_by_any_player_skips_the_turns_in_between():
    w = Wall({0: H0, 1: H1, 2: H2.replace("11m", "33m"), 3: H3})
    pols = scripted(s0=dict(discards="3m"), s1=dict(claims=[("3m", None)]), s2=dict(claims=[("3m", "pung")], discards="7z"))
    log = play(w, pols)
    ev = play_events(log)
    assert ev[:5] == [
        ("discard", 0, "3m"),
        ("pung", 2, "3m"),
        ("discard", 2, "7z"),
        ("draw", 3, w[53]),                         # seat 1's turn was skipped
        ("discard", 3, tiles.tile_name(w[53] // 4)),
    ]
    assert pols[1].claim_calls()[0] == ("3m", ["chow:345m"])   # asked first (turn order), declined
    assert pols[2].claim_calls()[0] == ("3m", ["pung"])
    _referee.check_log(log, builtin=False)


def test_exposed_kong_draws_its_replacement_from_the_back():
    w = Wall({0: H0, 1: H1, 2: H2.replace("11m", "33m").replace("7z", "3m"), 3: H3}, back="5s 6s")
    pols = scripted(s0=dict(discards="3m"), s2=dict(claims=[("3m", "kong")]))
    log = play(w, pols)
    ev = play_events(log)
    assert pols[2].claim_calls()[0] == ("3m", ["kong", "pung"])
    assert ev[:6] == [
        ("discard", 0, "3m"),
        ("kong", 2, "3m"),
        ("replacement", 2, w[w.n - 1]),             # the last wall entry
        ("discard", 2, "5s"),                       # the scripted player discards what it drew
        ("draw", 3, w[53]),
        ("discard", 3, tiles.tile_name(w[53] // 4)),
    ]
    assert w[w.n - 1] // 4 == tiles.tile_index("5s")
    kind, view = pols[2].views[1]
    assert kind == "discard" and view.drawn == "5s" and view.melds[2] == (("kong", "3m"),)
    _referee.check_log(log, builtin=False)


def test_concealed_kong_on_the_dealers_first_turn_and_after_a_draw():
    # dealer holds four 9p; seat 1 holds three 7s and draws the fourth
    w = Wall({0: "9999p 3m 1p 1s9s 123z 567z", 1: "777s 45m 678m 345p 68p", 2: H2.replace("789s", "123p"), 3: H3_NO9P},
             live="7s", back="5s 6s")
    pols = scripted(s0=dict(own=["concealed_kong:9p"], discards="3m"),
                    s1=dict(own=["concealed_kong:7s"]))
    log = play(w, pols)
    ev = play_events(log)
    assert pols[0].own_calls()[0] == ["concealed_kong:9p"]
    assert pols[1].own_calls()[0] == ["concealed_kong:7s"]
    assert ev[:8] == [
        ("concealed_kong", 0, "9p"),
        ("replacement", 0, w[w.n - 1]),
        ("discard", 0, "3m"),
        ("draw", 1, w[53]),
        ("concealed_kong", 1, "7s"),
        ("replacement", 1, w[w.n - 2]),
        ("discard", 1, "6s"),
        ("draw", 2, w[54]),
    ]
    _referee.check_log(log, builtin=False)


def test_keeping_four_tiles_undeclared_is_allowed():
    w = Wall({0: "9999p 3m 1p 1s9s 123z 567z", 1: H1, 2: H2, 3: H3_NO9P})
    pols = scripted(s0=dict(discards="3m"))
    log = play(w, pols)
    assert pols[0].own_calls()[0] == ["concealed_kong:9p"]       # offered, declined
    assert play_events(log)[0] == ("discard", 0, "3m")
    assert not any(e["type"] == "concealed_kong" for e in log.events)


def test_added_kong_only_with_a_drawn_tile_on_own_turn_never_from_a_discard():
    # seat 2 pungs the dealer's 3m; seat 1 holds the fourth 3m and discards it on its turn:
    # seat 2 (next) is offered only its chow, never a kong onto the exposed pung.
    # Seat 2 also pungs the dealer's 7z and then draws the fourth 7z: that one it may add.
    w = Wall({0: "3m 7z 1p9p 1s9s 123456z 22p", 1: "3m 45m 678m 345p 678p 4s", 2: "33m 45m 77z 456s 789s 6p",
              3: "1m 2m 7m 8m 9m 1p 9p 1s 9s 234z 6z"},
             live="5p 6p 2s 5s 1s 7z", back="6s 7s")
    pols = scripted(s0=dict(discards="3m 7z"), s1=dict(discards="3m"),
                    s2=dict(claims=[("3m", "pung"), ("7z", "pung")], discards="6p 9s", own=["added_kong:7z"]))
    log = play(w, pols)
    ev = play_events(log)
    assert ev[:21] == [
        ("discard", 0, "3m"),
        ("pung", 2, "3m"),
        ("discard", 2, "6p"),
        ("draw", 3, w[53]),
        ("discard", 3, "5p"),
        ("draw", 0, w[54]),
        ("discard", 0, "7z"),
        ("pung", 2, "7z"),
        ("discard", 2, "9s"),
        ("draw", 3, w[55]),
        ("discard", 3, "2s"),
        ("draw", 0, w[56]),
        ("discard", 0, "5s"),
        ("draw", 1, w[57]),
        ("discard", 1, "3m"),                      # the fourth 3m: not addable to seat 2's pung
        ("draw", 2, w[58]),                        # seat 2 declined its chow
        ("added_kong", 2, "7z"),                   # the drawn fourth 7z is added on its own turn
        ("replacement", 2, w[w.n - 1]),
        ("discard", 2, "6s"),
        ("draw", 3, w[59]),
        ("discard", 3, tiles.tile_name(w[59] // 4)),
    ]
    # the claims seat 2 was offered: pung 3m, pung 7z, then only the chow for the fourth 3m
    assert pols[2].claim_calls()[:3] == [("3m", ["pung"]), ("7z", ["pung"]), ("3m", ["chow:345m"])]
    assert pols[2].own_calls()[0] == ["added_kong:7z"]
    kind, view = [v for v in pols[2].views if v[0] == "discard"][-1]
    assert view.melds[2] == (("pung", "3m"), ("added_kong", "7z"))
    _referee.check_log(log, builtin=False)


def test_no_kong_offers_when_kongs_are_disabled():
    w = Wall({0: H0, 1: H1, 2: H2.replace("11m", "33m").replace("7z", "3m"), 3: H3})
    pols = scripted(s0=dict(discards="3m"))
    play(w, pols, kong=False)
    assert pols[2].claim_calls()[0] == ("3m", ["pung"])


def test_no_chow_offers_when_chows_are_disabled():
    w = Wall({0: H0, 1: H1, 2: H2, 3: "33m 7m 8m 9m 1p 9p 1s 9s 2345z"})
    pols = scripted(s0=dict(discards="3m"))
    log = play(w, pols, chow=False)
    assert not any(c[0] == "claim" and c[1] == 1 for c in pols[1].calls)     # 45m held, not asked
    assert pols[3].claim_calls()[0] == ("3m", ["pung"])
    assert play_events(log)[:2] == [("discard", 0, "3m"), ("draw", 1, w[53])]


# ---------------------------------------------------------------------------------------------
# 2. bonus tiles

@pytest.mark.parametrize("rules, opts", [("mcr", {}), ("classical", {"flowers": True, "dead_wall": 0}),
                                         ("classical", {"flowers": True, "dead_wall": "dice"})])
def test_bonus_replacement_chains_in_the_deal_and_in_play(rules, opts):
    # dealer: f1 in the deal, its replacement f2 is set aside and replaced again (5s);
    # seat 1: f3 in the deal, replaced by 6s; in play seat 1 draws f4, its replacement f5 is
    # set aside, and 7s replaces it.
    w = Wall({0: "f1 3m 1p9p 1s9s 1234567z 2p", 1: "f3 45m 678m 345p 678p 3s", 2: H2, 3: H3},
             live="f4", back="f2 5s 6s f5 7s", n_tiles=144)
    pols = scripted(s0=dict(discards="3m"))
    log = play_walls([w.ids], rules=rules, policies=pols, rounds=1, **opts)
    ev = [compact(e) for e in log.events]
    deal = [x for x in ev if x[0] == "deal"]
    assert [x[2] for x in deal] == [int(i) for i in w.ids[:53]]
    # a dealt bonus tile is set aside at once
    i = ev.index(("deal", 0, 136))
    assert ev[i + 1] == ("bonus", 0, 136)
    j = ev.index(("deal", 1, 138))
    assert ev[j + 1] == ("bonus", 1, 138)
    last_deal = max(k for k, x in enumerate(ev) if x[0] == "deal")
    assert ev[last_deal + 1:last_deal + 11] == [
        ("bonus", 0, 137),                          # wall[-1] = f2: set aside, replaced again
        ("replacement", 0, w[w.n - 2]),             # 5s
        ("replacement", 1, w[w.n - 3]),             # 6s (dealer first, then seat 1)
        ("discard", 0, "3m"),
        ("draw", 1, 139),                           # f4 from the live wall
        ("bonus", 1, 139),
        ("bonus", 1, 140),                          # wall[-4] = f5
        ("replacement", 1, w[w.n - 5]),             # 7s
        ("discard", 1, "7s"),
        ("draw", 2, w[54]),
    ]
    kind, view = pols[1].views[0]
    assert kind == "claim" and view.bonus == (2, 1, 0, 0)        # asked about the dealer's 3m
    kind, view = pols[1].views[1]
    assert kind == "discard" and view.bonus == (2, 3, 0, 0) and view.drawn == "7s"
    _referee.check_log(log, builtin=False)


def test_kong_replacement_that_is_a_bonus_tile_is_replaced_again():
    w = Wall({0: H0, 1: H1, 2: H2.replace("11m", "33m").replace("7z", "3m"), 3: H3}, back="f8 5s", n_tiles=144)
    pols = scripted(s0=dict(discards="3m"), s2=dict(claims=[("3m", "kong")]))
    log = play_walls([w.ids], rules="mcr", policies=pols, rounds=1)
    assert play_events(log)[:5] == [("discard", 0, "3m"), ("kong", 2, "3m"), ("bonus", 2, 143),
                                    ("replacement", 2, w[w.n - 2]), ("discard", 2, "5s")]
    _referee.check_log(log, builtin=False)


def _swap_to(w: Wall, index: int, tile_id: int) -> None:
    """Move tile_id to wall position index (swapping with the tile there)."""
    ids = [int(i) for i in w.ids]
    j = ids.index(tile_id)
    ids[index], ids[j] = ids[j], ids[index]
    w.ids = np.array(ids)


def _last_live_bonus_wall() -> Wall:
    """mcr (no dead wall): the dealer's deal holds f2-f8, replaced from the back (indices
    143..137), so the live wall ends at index 136, which holds f1. Seat 1 holds three 8p and
    the fourth 8p is the live tile before f1 (index 135, drawn by seat 3)."""
    w = Wall({0: "f2f3f4f5f6f7f8 1234567z", 1: "45m 678m 345p 888p 34s", 2: H2, 3: H3}, n_tiles=144)
    _swap_to(w, 135, next(i for i in range(4 * 16, 4 * 16 + 4) if i not in w.ids[:53]))
    _swap_to(w, 136, 136)
    return w


def test_last_live_bonus_wall_layout():
    """The fixture of the next two tests: without claims the live draws reach index 136 exactly
    (seat 3 draws index 135, seat 0 the f1 at 136)."""
    w = _last_live_bonus_wall()
    assert w[136] == 136 and w[135] // 4 == tiles.tile_index("8p")
    assert sorted(int(i) for i in w.ids[:14])[-7:] == list(range(137, 144))
    log = play_walls([w.ids], rules="mcr", policies=scripted(), rounds=1)
    draws = [e for e in log.events if e["type"] == "draw"]
    assert [e["id"] for e in draws] == [w[i] for i in range(53, 137)]
    assert (draws[-2]["seat"], draws[-1]["seat"]) == (3, 0)
    deal_reps = [e["id"] for e in log.events if e["type"] == "replacement"][:7]
    assert deal_reps == [w[i] for i in range(143, 136, -1)]


def test_bonus_drawn_as_last_live_tile_ends_the_hand():
    w = _last_live_bonus_wall()
    log = play_walls([w.ids], rules="mcr", policies=scripted(), rounds=1)
    ev = play_events(log)
    i = ev.index(("draw", 0, 136))
    # expected: f1 is set aside; no tile is left to replace it: exhaustive draw
    # (actual: ("bonus", 0, 136), ("bonus", 0, 136), ("replacement", 0, w[135]), ("discard", 0, "8p"), ...)
    assert [x[:1] for x in ev[i + 1:]] == [("bonus",), ("exhaustive_draw",)] and ev[i + 1] == ("bonus", 0, 136)


def test_kong_replacement_chain_never_passes_the_front():
    w = _last_live_bonus_wall()
    pols = scripted(s1=dict(claims=[("8p", "kong")]))
    log = play_walls([w.ids], rules="mcr", policies=pols, rounds=1)
    ev = play_events(log)
    i = ev.index(("draw", 3, w[135]))
    assert pols[1].claim_calls()[-1] == ("8p", ["kong", "pung"])
    # expected: discard, kong, f1 set aside, nothing left: exhaustive draw
    # (actual: ... ("bonus", 1, 136), ("replacement", 1, w[135]), ("discard", 1, "8p"), ...)
    assert ev[i + 1:i + 4] == [("discard", 3, "8p"), ("kong", 1, "8p"), ("bonus", 1, 136)]
    assert [x[0] for x in ev[i + 4:]] == ["exhaustive_draw"]


# ---------------------------------------------------------------------------------------------
# 3. simultaneous Mahjong claims

# three 13-tile hands waiting on 5p (only), and inert hands for the other seats
WAIT_5P = ["123m456m789m 11z 46p", "234s567s888s 55p 22z", "111m 777s 333p 222s 5p"]
INERT = {0: "2m 1p9p 1s9s 1234567z 22p", 1: "45m 678m 345p 678p 34s", 2: "99m 55z 456s 789s 66p 7z",
         3: "2m 7m 8m 9m 1p 9p 1s 9s 2345z 6z"}


@pytest.mark.parametrize("discarder, claimers, winner", [
    (0, (1, 2), 1), (0, (2, 3), 2), (0, (3, 1), 1), (0, (1, 2, 3), 1),
    (2, (3, 1), 3), (2, (0, 1), 0), (1, (3, 0), 3), (1, (0, 2), 2), (3, (2, 1), 1), (3, (2, 0), 0),
])
def test_two_mahjong_claims_go_to_the_next_in_turn_order(discarder, claimers, winner):
    hands = dict(INERT)
    for c, h in zip(claimers, WAIT_5P):
        hands[c] = h + (" 6z" if c == 0 else "")        # the dealer holds 14: one tile to discard
    if discarder == 0:
        hands[0] = INERT[0].replace("2m", "5p")
    # seats 1..discarder draw in turn: harmless tiles, then the 5p for the discarder
    live = " ".join(["7p", "8p"][: max(discarder - 1, 0)] + (["5p"] if discarder else []))
    w = Wall(hands, live=live)
    pols = [Scripted(claims=[("5p", "win")] if s in claimers else []) for s in range(4)]
    pols[0].discards = ["5p" if discarder == 0 else ("6z" if 0 in claimers else "2m")]
    log = play(w, pols)
    ev = play_events(log)
    i = ev.index(("discard", discarder, "5p"))
    if discarder:
        before = [("discard", 0, "6z" if 0 in claimers else "2m")]
        for s in range(1, discarder + 1):
            before += [("draw", s, w[52 + s]), ("discard", s, tiles.tile_name(w[52 + s] // 4))]
        assert ev[:i + 1] == before
    else:
        assert i == 0
    assert ev[i + 1:] == [("win", winner, False, discarder)] + \
        [("score", s, 60 if s == winner else -20, 60 if s == winner else -20) for s in range(4)]
    # the winner was offered "win"; claimers after it in turn order were never asked
    assert ("5p", ["win"]) in pols[winner].claim_calls()
    order = [(discarder + k) % 4 for k in range(1, 4)]
    for s in order[order.index(winner) + 1:]:
        assert all(t != "5p" for t, _ in pols[s].claim_calls()), f"seat {s} was asked after the winner"
    _referee.check_log(log, builtin=False)


def test_a_declined_mahjong_passes_to_the_next_claimer():
    hands = {0: "5p 1p9p 1s9s 1234567z 22p", 1: WAIT_5P[0], 2: WAIT_5P[1], 3: "2m 7m 8m 9m 1p 9p 1s 9s 2345z 6z"}
    w = Wall(hands)
    pols = scripted(s0=dict(discards="5p"), s2=dict(claims=[("5p", "win")]))
    log = play(w, pols)
    ev = play_events(log)
    assert ev[:2] == [("discard", 0, "5p"), ("win", 2, False, 0)]
    assert pols[1].claim_calls()[0] == ("5p", ["win"])        # offered first, declined


# ---------------------------------------------------------------------------------------------
# 4. chow only by the next seat; pung beats chow

def test_chow_never_offered_to_a_seat_that_is_not_next():
    # seats 2 and 3 hold 4m5m too, seat 3 also holds a 3m pair: only pung is offered to it
    w = Wall({0: H0, 1: H1, 2: "45m 11m 456s 789s 66p 7z", 3: "33m 45m 9m 1p 9p 1s 9s 234z 6z"})
    pols = scripted(s0=dict(discards="3m"))
    log = play(w, pols)
    assert pols[1].claim_calls()[0] == ("3m", ["chow:345m"])
    assert not any(c[0] == "claim" and c[1] == 1 for c in pols[2].calls)   # no option at all: never asked
    assert pols[3].claim_calls()[0] == ("3m", ["pung"])
    assert play_events(log)[:2] == [("discard", 0, "3m"), ("draw", 1, w[53])]


def test_pung_by_a_later_seat_beats_a_chow_by_the_next_seat():
    w = Wall({0: H0, 1: H1, 2: H2, 3: "33m 7m 8m 9m 1p 9p 1s 9s 2345z"})
    pols = scripted(s0=dict(discards="3m"), s1=dict(claims=[("3m", "chow:345m")]),
                    s3=dict(claims=[("3m", "pung")], discards="2z"))
    log = play(w, pols)
    ev = play_events(log)
    assert ev[:5] == [("discard", 0, "3m"), ("pung", 3, "3m"), ("discard", 3, "2z"),
                      ("draw", 0, w[53]), ("discard", 0, tiles.tile_name(w[53] // 4))]
    assert pols[1].claim_calls()[0] == ("3m", ["chow:345m"])     # it chose the chow, and lost it
    assert pols[3].claim_calls()[0] == ("3m", ["pung"])
    assert not any(e["type"] == "chow" for e in log.events)
    _referee.check_log(log, builtin=False)


def test_kong_by_a_later_seat_beats_a_chow_by_the_next_seat():
    w = Wall({0: H0, 1: H1, 2: H2, 3: "333m 8m 9m 1p 9p 1s 9s 2345z"}, back="5s")
    pols = scripted(s0=dict(discards="3m"), s1=dict(claims=[("3m", "chow:345m")]), s3=dict(claims=[("3m", "kong")]))
    log = play(w, pols)
    assert play_events(log)[:4] == [("discard", 0, "3m"), ("kong", 3, "3m"), ("replacement", 3, w[w.n - 1]),
                                    ("discard", 3, "5s")]


def test_mahjong_beats_pung():
    w = Wall({0: "5p 1p9p 1s9s 1234567z 22p", 1: "55p 45m 678m 345p 78p 4s", 2: H2, 3: WAIT_5P[0]})
    pols = scripted(s0=dict(discards="5p"), s1=dict(claims=[("5p", "pung")]), s3=dict(claims=[("5p", "win")]))
    log = play(w, pols)
    assert play_events(log)[:2] == [("discard", 0, "5p"), ("win", 3, False, 0)]
    assert pols[1].claim_calls() == []             # the win was settled before pungs are asked


# ---------------------------------------------------------------------------------------------
# 5. exhaustive draw and the dead wall

@pytest.mark.parametrize("rules, opts, dice, reserve", [
    ("classical", {"dead_wall": 0}, None, 0),
    ("classical", {"dead_wall": 14}, None, 14),
    ("classical", {"dead_wall": "dice"}, [[3, 9]], 24),
    ("classical", {}, [[2, 2]], 8),                   # the default is the dice
    ("basic", {}, None, 0),
    ("basic", {"dead_wall": 40}, None, 40),
])
def test_exhaustive_draw_and_dead_wall(rules, opts, dice, reserve):
    w = Wall({0: H0, 1: H1, 2: H2, 3: H3})
    pols = scripted()
    log = play_walls([w.ids], dice=dice, rules=rules, policies=pols, rounds=1, **opts)
    ev = play_events(log)
    draws = [x for x in ev if x[0] == "draw"]
    last = w.n - reserve - 1
    assert [x[2] for x in draws] == [w[i] for i in range(53, last + 1)]
    assert [x[1] for x in draws] == [(1 + i) % 4 for i in range(len(draws))]
    nxt = (draws[-1][1] + 1) % 4
    assert ev[-3:] == [draws[-1], ("discard", draws[-1][1], tiles.tile_name(draws[-1][2] // 4)), ("exhaustive_draw", nxt)]
    assert not any(x[0] in ("win", "score") for x in ev)
    assert log.header["scores"] == [0, 0, 0, 0]
    # the last draw saw one live tile left; the dead wall is untouched
    kind, view = [v for v in pols[draws[-1][1]].views if v[0] == "discard"][-1]
    assert view.wall_left == 0
    _referee.check_log(log, builtin=False)


@pytest.mark.parametrize("dead", [0, 1, 10])
@pytest.mark.parametrize("refill", [False, True])
def test_replacements_and_the_live_wall(dead, refill):
    """Two replacements from the back. Seed 000's reading (default): they use up the dead wall
    first, so with a dead wall of 10 the live wall keeps its end; with 1 tile the second
    replacement takes the live wall's last tile; with none both do. With refill_dead_wall=True
    the dead wall keeps its size: each replacement shortens the live wall by one."""
    # the dealer declares a concealed kong, seat 2 an exposed kong: two replacements from the back
    w = Wall({0: "9999p 3m 1p 1s9s 123z 567z", 1: H1, 2: H2.replace("11m", "33m").replace("7z", "3m"), 3: H3_NO9P})
    pols = scripted(s0=dict(own=["concealed_kong:9p"], discards="3m"), s2=dict(claims=[("3m", "kong")]))
    log = play(w, pols, dead_wall=dead, refill_dead_wall=refill)
    ev = play_events(log)
    reps = [x for x in ev if x[0] == "replacement"]
    assert [x[2] for x in reps] == [w[w.n - 1], w[w.n - 2]]
    draws = [x for x in ev if x[0] == "draw"]
    shortened = 2 if refill else max(0, 2 - dead)
    assert draws[-1][2] == w[w.n - dead - 1 - shortened]
    assert [x[2] for x in draws] == [w[i] for i in range(53, w.n - dead - shortened)]
    assert ev[-1][0] == "exhaustive_draw"
    _referee.check_log(log, builtin=False)


def test_exhaustive_draw_with_random_players_and_a_small_live_wall():
    """Built-in random players never claim and (almost) never complete a hand: with a 40-tile
    dead wall every hand of this game ends in an exhaustive draw, each after the live tile just
    before the dead wall (minus the back-end replacements)."""
    log = mjfast.replay(2024, 0, rules="classical", policies="random", dead_wall=40)
    st = _referee.check_log(log)
    assert st.exhaustive == st.hands == 4
    assert not any(e["type"] in ("chow", "pung", "kong", "win", "score") for e in log.events)
    assert log.header["scores"] == [0, 0, 0, 0]
    for h in range(4):
        wall = log.header["wall_ids"][h]
        hand = [e for e in log.events if e["hand"] == h]
        draws = [e for e in hand if e["type"] == "draw"]
        r = sum(1 for e in hand if e["type"] == "replacement")
        assert [e["id"] for e in draws] == wall[53:len(wall) - 40 - r]
        assert hand[-1]["type"] == "exhaustive_draw" and hand[-1]["seat"] == (draws[-1]["seat"] + 1) % 4
        assert hand[-2] == {"hand": h, "type": "discard", "seat": draws[-1]["seat"], "tile": hand[-2]["tile"]}


# ---------------------------------------------------------------------------------------------
# 6. wins and scores

SEAT1_WAITS_5P = "123m456m789m 11z 46p"


@pytest.mark.parametrize("payment", ["each", "discarder"])
@pytest.mark.parametrize("base", [20, 8])
def test_self_drawn_win_scores(payment, base):
    w = Wall({0: H0, 1: SEAT1_WAITS_5P, 2: H2, 3: H3}, live="5p")
    pols = scripted(s0=dict(discards="3m"), s1=dict(own=["win"]))
    log = play(w, pols, payment=payment, base_points=base)
    ev = play_events(log)
    assert ev == [("discard", 0, "3m"), ("draw", 1, w[53]), ("win", 1, True, None),
                  ("score", 0, -base, -base), ("score", 1, 3 * base, 3 * base),
                  ("score", 2, -base, -base), ("score", 3, -base, -base)]
    assert pols[1].own_calls() == [["win"]]
    assert log.header["scores"] == [-base, 3 * base, -base, -base] and sum(log.header["scores"]) == 0
    _referee.check_log(log, builtin=False)


@pytest.mark.parametrize("payment, deltas", [("each", [-20, 60, -20, -20]), ("discarder", [0, 60, 0, -60])])
def test_discard_win_scores(payment, deltas):
    # seat 3 discards the 5p (after seats 0, 1, 2 discarded harmless tiles), seat 1 wins it
    w = Wall({0: H0, 1: SEAT1_WAITS_5P, 2: H2, 3: H3.replace("2m", "5p")}, live="7p 8p 1s")
    pols = scripted(s0=dict(discards="3m"), s1=dict(claims=[("5p", "win")]), s3=dict(discards="5p"))
    log = play(w, pols, payment=payment)
    ev = play_events(log)
    assert ev == [("discard", 0, "3m"), ("draw", 1, w[53]), ("discard", 1, "7p"), ("draw", 2, w[54]),
                  ("discard", 2, "8p"), ("draw", 3, w[55]), ("discard", 3, "5p"), ("win", 1, False, 3)] + \
        [("score", s, d, d) for s, d in enumerate(deltas)]
    assert log.header["scores"] == deltas and sum(deltas) == 0
    _referee.check_log(log, builtin=False)


def test_dealer_can_win_on_the_deal_heavenly_hand_classical():
    w = Wall({0: "123m456m789m 11z 456p", 1: H1, 2: H2, 3: H3})
    pols = scripted(s0=dict(own=["win"]))
    log = play(w, pols)
    assert play_events(log)[:2] == [("win", 0, True, None), ("score", 0, 60, 60)]
    assert pols[0].own_calls() == [["win"]]


def test_builtin_policies_always_take_a_win():
    """Greedy/defensive/random players win on a discard they can win on, and on a complete draw."""
    for pol in ("greedy", "defensive", "random"):
        w = Wall({0: H0, 1: SEAT1_WAITS_5P, 2: H2, 3: H3}, live="5p")
        # seat 0 is scripted so that its discard is known; seat 1 built-in
        log = play(w, [Scripted(discards="3m"), pol, Scripted(), Scripted()])
        assert play_events(log)[:3] == [("discard", 0, "3m"), ("draw", 1, w[53]), ("win", 1, True, None)], pol
        w2 = Wall({0: H0.replace("3m", "5p"), 1: SEAT1_WAITS_5P, 2: H2, 3: H3})
        log = play(w2, [Scripted(discards="5p"), pol, Scripted(), Scripted()])
        assert play_events(log)[:2] == [("discard", 0, "5p"), ("win", 1, False, 0)], pol


def test_scores_over_a_full_game_sum_to_zero_and_rotate_the_deal():
    walls = []
    for _h in range(4):
        w = Wall({0: H0, 1: SEAT1_WAITS_5P, 2: H2, 3: H3}, live="5p")
        walls.append(w.ids)
    log = play_walls(walls, rules="classical", policies="greedy", dead_wall=0)
    hands = [e for e in log.events if e["type"] == "hand"]
    assert [e["dealer"] for e in hands] == [0, 1, 2, 3]
    for h in range(4):
        sc = [e["delta"] for e in log.events if e["type"] == "score" and e["hand"] == h]
        assert sum(sc) == 0
    assert sum(log.header["scores"]) == 0
    _referee.check_log(log)


# ---------------------------------------------------------------------------------------------
# 7. the Stop rule (basic)

def test_basic_no_win_before_declaring_ready():
    # seat 1 is ready after the deal; the dealer discards 5p, seat 1 then draws 5p: no win is
    # offered either time, and seat 1 (declining the declaration) keeps playing
    w = Wall({0: H0.replace("3m", "5p"), 1: SEAT1_WAITS_5P, 2: H2, 3: H3}, live="5p")
    pols = scripted(s0=dict(discards="5p"), s1=dict(discards="5p", ready=False))
    log = play(w, pols, rules="basic")
    ev = play_events(log)
    assert ev[:4] == [("discard", 0, "5p"), ("draw", 1, w[53]), ("discard", 1, "5p"), ("draw", 2, w[54])]
    assert pols[1].claim_calls()[0] == ("5p", ["chow:456p"])           # chow yes, win no
    assert all("win" not in o for o in pols[1].own_calls())
    assert not any(x[0] == "win" and x[1] == 1 for x in ev)
    assert ("declare_ready", 2, None, None) in pols[1].calls              # asked after its discard
    assert not any(x[0] == "ready" for x in ev)
    # the same hand without the rule: seat 1 wins the dealer's 5p at once
    pols = scripted(s0=dict(discards="5p"), s1=dict(claims=[("5p", "win")]))
    log = play(w, pols, rules="basic", ready_declaration=False)
    assert play_events(log)[:2] == [("discard", 0, "5p"), ("win", 1, False, 0)]


def test_basic_after_declaring_ready_drawn_tiles_are_discarded_then_the_win():
    # seat 1: 123m456m789m 11z 46p + draws 9s (discards it: ready), then 1z... 8s (auto
    # discarded), and seat 3 discards a 1z it could pung (not offered: hand fixed); then 5p wins.
    hands = {0: H0, 1: SEAT1_WAITS_5P.replace("11z", "77z"), 2: H2.replace("7z", "5z"), 3: H3}
    live = "9s 1m 7z 2p 8s 3p 4p 6p 5p"      # draws of seats 1, 2, 3, 0, 1, 2, 3, 0, 1
    w = Wall(hands, live=live)
    pols = scripted(s0=dict(discards="3m"), s1=dict(discards="9s", ready=True, own=["win"]))
    log = play(w, pols, rules="basic")
    ev = play_events(log)
    assert ev == [
        ("discard", 0, "3m"),
        ("draw", 1, w[53]), ("discard", 1, "9s"), ("ready", 1),
        ("draw", 2, w[54]), ("discard", 2, "1m"),
        ("draw", 3, w[55]), ("discard", 3, "7z"),            # seat 1 holds 77z but may not pung
        ("draw", 0, w[56]), ("discard", 0, "2p"),
        ("draw", 1, w[57]), ("discard", 1, "8s"),            # drawn, not winning: discarded for it
        ("draw", 2, w[58]), ("discard", 2, "3p"),
        ("draw", 3, w[59]), ("discard", 3, "4p"),
        ("draw", 0, w[60]), ("discard", 0, "6p"),
        ("draw", 1, w[61]), ("win", 1, True, None),
        ("score", 0, -20, -20), ("score", 1, 60, 60), ("score", 2, -20, -20), ("score", 3, -20, -20),
    ]
    # seat 1's policy chose one discard only (the 9s); the 8s went automatically
    assert [c for c in pols[1].calls if c[0] == "discard"] == [("discard", 2, "9s", None)]
    assert all(t != "7z" for t, _ in pols[1].claim_calls())
    assert [c[1] for c in pols[1].calls if c[0] == "claim"] == [1]     # only before the declaration
    assert pols[1].own_calls() == [["win"]]
    _referee.check_log(log, builtin=False)


def test_basic_builtin_players_declare_and_win():
    log = mjfast.replay(5, 0, rules="basic", policies="greedy")
    st = _referee.check_log(log, check_ready=True)
    ready = {(e["hand"], e["seat"]) for e in log.events if e["type"] == "ready"}
    for e in log.events:
        if e["type"] == "win":
            assert (e["hand"], e["seat"]) in ready
    assert st.kinds["ready"] > 0


# ---------------------------------------------------------------------------------------------
# 8. illegal actions

class BadDiscard(Scripted):
    def discard(self, view):
        super().discard(view)
        return "7s"                 # not in the dealer's hand below


class BadClaim(Scripted):
    def claim(self, view, tile, options):
        super().claim(view, tile, options)
        return "pung"               # only the chow is offered


class BadKong(Scripted):
    def own_turn(self, view, options):
        super().own_turn(view, options)
        return "concealed_kong:1m"  # offered: concealed_kong:9p only


class NotAnOption(Scripted):
    def claim(self, view, tile, options):
        super().claim(view, tile, options)
        return "ron"


@pytest.mark.parametrize("seat, bad, hands, pattern", [
    (0, BadDiscard(), {0: H0}, r"seat 0 \(scripted\), hand 0, turn 1: '7s' is not allowed"),
    (1, BadClaim(), {0: H0}, r"seat 1 \(scripted\), hand 0, turn 1: 'pung' is not allowed; choose \['chow:345m', None\]"),
    (1, NotAnOption(), {0: H0}, r"seat 1 \(scripted\), hand 0, turn 1: 'ron' is not allowed"),
    (0, BadKong(), {0: "9999p 3m 1p 1s9s 123z 567z"},
     r"seat 0 \(scripted\), hand 0, turn 1: 'concealed_kong:1m' is not allowed; choose \['concealed_kong:9p', None\]"),
])
def test_illegal_actions_raise_and_leave_the_engine_usable(seat, bad, hands, pattern):
    before = mjfast.simulate(30, seed=77, progress=False)
    w = Wall({0: hands[0], 1: H1, 2: H2, 3: H3_NO9P})
    pols = scripted(s0=dict(discards="3m"))
    pols[seat] = bad
    if seat == 0:
        bad.discards = ["3m"]
    with pytest.raises(IllegalActionError, match=pattern):
        play(w, pols)
    # the same scripted game without the bad player works, and simulate() is unchanged
    ok = scripted(s0=dict(discards="3m"))
    log = play(w, ok)
    _referee.check_log(log, builtin=False)
    after = mjfast.simulate(30, seed=77, progress=False)
    assert after.to_dict() == before.to_dict()
    assert mjfast.replay(77, 3).events == mjfast.replay(77, 3).events


def test_illegal_action_inside_simulate():
    class Bad(mjfast.Policy):
        name = "bad"

        def discard(self, view):
            return 99               # a kind index out of range

    with pytest.raises(IllegalActionError, match=r"seat 2 \(bad\), hand 0, turn \d+: 99 is not allowed"):
        mjfast.simulate(3, policies=["greedy", "greedy", Bad(), "greedy"], seed=1, progress=False)
    res = mjfast.simulate(20, seed=1, progress=False)
    assert res.games == 20 and int(res.points.sum()) == 0


def test_policy_exception_propagates_unchanged():
    class Boom(mjfast.Policy):
        def discard(self, view):
            raise KeyError("boom")

    with pytest.raises(KeyError, match="boom"):
        mjfast.simulate(1, policies=[Boom(), "greedy", "greedy", "greedy"], seed=1, progress=False)
    assert mjfast.simulate(5, seed=1, progress=False).games == 5


# ---------------------------------------------------------------------------------------------
# what a Python player sees

class Recorder(mjfast.Policy):
    """Greedy-ish legal play (first option / highest tile) that records every view it gets."""

    name = "recorder"

    def __init__(self):
        self.views = []

    def discard(self, view):
        self.views.append(view)
        return view.drawn if view.drawn is not None else tiles.tile_name(int(np.flatnonzero(view.hand)[-1]))

    def claim(self, view, tile, options):
        return options[0] if options and options[0] in ("win", "pung", "kong") else None

    def own_turn(self, view, options):
        return options[0] if options else None


def test_seat_views_agree_with_the_event_log():
    """At every discard decision: the hand is the player's concealed tiles per the log (14 with
    kongs counted as 3), `drawn` is held, `discards` and `melds` are the log's so far, visible
    counts discards on the table plus exposed tiles, and `wall_left` is the live wall left."""
    pols = [Recorder() for _ in range(4)]
    log = mjfast.replay(21, 0, rules="classical", policies=pols, flowers=True)
    st = _referee.check_log(log, builtin=False)
    assert st.hands == 4
    # rebuild each seat's state from the log at each of its discards (hand 0..3)
    views = {s: list(p.views) for s, p in enumerate(pols)}
    conc = [[0] * 34 for _ in range(4)]
    discards = [[] for _ in range(4)]
    melds = [[] for _ in range(4)]
    front = back = 0
    reserve = 0
    checked = 0
    for e in log.events:
        t, s = e["type"], e["seat"]
        if t == "hand":
            conc = [[0] * 34 for _ in range(4)]
            discards = [[] for _ in range(4)]
            melds = [[] for _ in range(4)]
            vis = [0] * 34
            n = len(log.header["wall_ids"][e["hand"]])
            front, back = 0, n - 1
            reserve = 2 * sum(e["dice"])
        elif t in ("deal", "draw"):
            front += 1
            if e["id"] < 136:
                conc[s][e["id"] // 4] += 1
        elif t in ("replacement",):
            back -= 1
            conc[s][e["id"] // 4] += 1
        elif t == "bonus":
            prev = log.events[log.events.index(e) - 1]
            if not (prev["type"] in ("deal", "draw") and prev["id"] == e["id"]):
                back -= 1
        elif t == "discard":
            v = views[s].pop(0)
            assert v.hand.tolist() == conc[s]
            assert v.hand.sum() + 3 * len(v.melds[s]) == 14
            assert v.drawn is None or v.hand[tiles.tile_index(v.drawn)] > 0
            assert [list(d) for d in v.discards] == discards
            assert [list(ms) for ms in v.melds] == melds
            assert v.wall_left == min(back, n - 1 - reserve) - front + 1   # seed 000: dead wall first
            assert v.visible.tolist() == vis
            assert v.unseen().min() >= 0 and v.hand_number == e["hand"] and v.dealer == e["hand"] % 4
            checked += 1
            k = tiles.tile_index(e["tile"])
            conc[s][k] -= 1
            vis[k] += 1
            discards[s].append(e["tile"])
        elif t in ("pung", "kong", "chow"):
            k = tiles.tile_index(e["tile"])
            if t == "chow":
                st_ = tiles.tile_index(e["set"][0] + e["set"][-1])
                for j in range(3):
                    if st_ + j != k:
                        conc[s][st_ + j] -= 1
                        vis[st_ + j] += 1
                melds[s].append((t, tiles.tile_name(st_)))
            else:
                conc[s][k] -= 2 if t == "pung" else 3
                vis[k] += 2 if t == "pung" else 3
                melds[s].append((t, e["tile"]))
        elif t == "concealed_kong":
            conc[s][tiles.tile_index(e["tile"])] -= 4
            melds[s].append((t, e["tile"]))
        elif t == "added_kong":
            conc[s][tiles.tile_index(e["tile"])] -= 1
            vis[tiles.tile_index(e["tile"])] += 1           # concealed kongs stay unseen
            melds[s][melds[s].index(("pung", e["tile"]))] = ("added_kong", e["tile"])
    assert checked > 100 and all(not v for v in views.values())
