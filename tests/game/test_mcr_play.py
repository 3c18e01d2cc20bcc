"""Chinese Official (MCR) play with fan scoring, checked by the independent referee
(tests/_referee.py): every win's fans against the plain-Python specification
(tests/oracles/mcr_fan.py) from a context rebuilt from the events alone, the 8-fan minimum,
robbing an added kong, out on a kong's replacement, the last tile of the wall, the fourth
tile, the dealer's first turn, false wins and the payments.

Two kinds of tests: games of the built-in policies (whatever they play, the referee must
accept every game and the counts are invariants, never numbers that depend on how the bots
play), and scripted walls played by scripted Python players (mjfast.play_walls), which
reach each situation whatever the built-in policies do.
"""
from __future__ import annotations

import copy

import numpy as np
import pytest

import _referee
import mjfast
from _referee import RefereeError, check_log
from mjfast import tiles
from oracles import mcr_fan as MF

SEED = 20240611
MAX_GAMES = 600          # the search for rare situations stops here (each is found far sooner)


def _fans_of_wins(log):
    """[(win event, [fan events])] of a log."""
    out, fans = [], []
    for e in log.events:
        if e["type"] == "fan":
            fans.append(e)
        elif e["type"] == "win":
            out.append((e, fans))
            fans = []
        else:
            assert not fans, f"fan events not followed by a win: {fans}"
    return out


def _scores_after(log, i):
    """The four score events after event i."""
    ev = [e for e in log.events[i + 1:] if e["type"] == "score"][:4]
    assert [e["seat"] for e in ev] == [0, 1, 2, 3]
    return [e["delta"] for e in ev]


# ---------------------------------------------------------------------------------------------
# games of the built-in policies (and of Python players that take every pung and kong)

class KongHappy(mjfast.Policy):
    """Takes every win, kong and pung it is offered and declares every kong; discards the kind
    it holds fewest of, honors and terminals first (so it keeps pairs and pungs). Its added
    kongs give the built-in players at the table chances to rob them."""

    name = "kong_happy"

    def discard(self, view):
        h = view.hand.astype(int)
        return tiles.tile_name(int(min(np.flatnonzero(h), key=lambda k: (
            h[k], 0 if k >= 27 else min(k % 9, 8 - k % 9) + 1, k))))

    def claim(self, view, tile, options):
        return next((o for o in ("win", "kong", "pung") if o in options), None)

    def own_turn(self, view, options):
        return next((o for o in options if o == "win"), None) or next((o for o in options if "kong" in o), None)


@pytest.fixture(scope="module")
def searched():
    """Games until the referee has seen robbed kongs, wins on a kong's replacement, last-tile
    wins and fourth-tile wins (a log of each kept). Built-in tables, and tables where two
    Python players take every kong (the built-in policies may rarely add to a pung)."""
    st = _referee.Stats()
    found = {}
    tables = ["greedy", ["greedy", "defensive", "greedy", "random"], lambda: ["greedy", KongHappy(), "greedy", KongHappy()]]
    g = 0
    while g < MAX_GAMES:
        table = tables[g % len(tables)]
        table = table() if callable(table) else table
        log = mjfast.replay(SEED, g, rules="mcr", policies=table)
        try:
            one = check_log(log)
        except RefereeError as exc:
            raise AssertionError(f"replay({SEED}, {g}, rules='mcr', policies={table!r}): {exc}") from None
        st += one
        for key, n in (("rob", one.robbed_kongs), ("replacement", one.replacement_wins),
                       ("last", one.last_tile_wins), ("fourth", one.fourth_tile_wins)):
            if n and key not in found:
                found[key] = log
        g += 1
        if len(found) == 4 and g >= 60:
            break
    return st, found, g


def test_referee_checks_every_fan_win(searched):
    st, _, games = searched
    assert st.hands == 4 * games
    assert st.wins > 0 and st.fan_wins == st.wins          # every win's fans were checked
    assert st.wins + st.exhaustive == st.hands and st.false_wins == 0
    assert st.wins == st.self_drawn + st.discard_wins
    assert st.kinds["fan"] >= st.wins and st.kinds["win"] == st.wins
    assert st.rob_chances == st.robbed_kongs               # every player here takes every valid win
    assert st.kinds["bonus"] > 0 and st.fans["Flower Tiles"] > 0


def test_fan_wins_meet_the_minimum_and_pay_eight_plus_fan(searched):
    """Straight from the events: every win has at least 8 fan without flowers, and the payments
    are 8 + F (self-drawn: from each; on a discard: from the discarder, 8 from the others)."""
    _, found, _ = searched
    n = 0
    for log in found.values():
        for e, fans in _fans_of_wins(log):
            assert fans and all(f["seat"] == e["seat"] for f in fans)
            F = sum(f["count"] * f["value"] for f in fans)
            flowers = sum(f["count"] for f in fans if f["fan"] == "Flower Tiles")
            assert F - flowers >= 8
            i = log.events.index(e)
            want = [0] * 4
            for s in range(4):
                if s != e["seat"]:
                    want[s] = -(8 + F) if e["self_drawn"] or s == e["discarder"] else -8
            want[e["seat"]] = -sum(want)
            assert _scores_after(log, i) == want
            n += 1
    assert n > 0


def test_robbed_kongs(searched):
    st, found, games = searched
    assert st.robbed_kongs > 0, f"no robbed kong in {games} games"
    assert st.fans["Robbing The Kong"] == st.robbed_kongs
    log = found["rob"]
    ev = log.events
    robbed = 0
    for i, e in enumerate(ev):
        if e["type"] != "added_kong":
            continue
        j = i + 1
        while ev[j]["type"] == "fan":
            j += 1
        if ev[j]["type"] == "win":
            # a discard-like win on the added tile; the owner pays as the discarder; no replacement
            assert ev[j]["discarder"] == e["seat"] and not ev[j]["self_drawn"] and ev[j]["seat"] != e["seat"]
            assert "Robbing The Kong" in [f["fan"] for f in ev[i + 1:j]]
            assert ev[j + 1:j + 5] and all(x["type"] == "score" for x in ev[j + 1:j + 5])
            robbed += 1
        else:
            assert ev[j]["type"] in ("bonus", "replacement", "exhaustive_draw") and ev[j]["seat"] == e["seat"]
    assert robbed > 0


def test_wins_on_a_kongs_replacement(searched):
    st, found, games = searched
    assert st.replacement_wins > 0, f"no win on a kong's replacement in {games} games"
    assert st.fans["Out with Replacement Tile"] == st.replacement_wins
    ev = found["replacement"].events
    seen = 0
    for i, e in enumerate(ev):
        if e["type"] == "win" and e["self_drawn"]:
            j = i - 1
            while ev[j]["type"] == "fan":
                j -= 1
            names = [x["fan"] for x in ev[j + 1:i]]
            if "Out with Replacement Tile" in names:
                assert ev[j]["type"] == "replacement"
                while ev[j]["type"] in ("replacement", "bonus"):
                    j -= 1
                assert ev[j]["type"] in ("kong", "concealed_kong", "added_kong")   # a kong, bonus tiles between
                seen += 1
    assert seen > 0


def test_last_tile_and_fourth_tile_wins(searched):
    st, _, games = searched
    assert st.last_tile_wins > 0, f"no win on the last live tile in {games} games"
    assert st.fans["Last Tile Draw"] + st.fans["Last Tile Claim"] == st.last_tile_wins
    assert st.fourth_tile_wins > 0, f"no fourth-tile win in {games} games"
    # Last Tile counts on the fourth tile unless the win robs a kong (the calculator drops it)
    assert 0 < st.fans["Last Tile"] <= st.fourth_tile_wins


@pytest.mark.parametrize("opts", [
    {"dead_wall": 16}, {"dead_wall": 16, "refill_dead_wall": True}, {"flowers": False}, {"rounds": 2},
    {"min_fan": 0}, {"min_fan": 16}, {"added_kong": "drawn"},
])
def test_referee_accepts_fan_games_with_options(opts):
    st = _referee.Stats()
    for g in range(16):
        table = ["greedy", "defensive", "greedy", "random"] if g % 2 else "greedy"
        log = mjfast.replay(SEED + 1, g, rules="mcr", policies=table, **opts)
        try:
            st += check_log(log)
        except RefereeError as exc:
            raise AssertionError(f"replay({SEED + 1}, {g}, rules='mcr', policies={table!r}, **{opts}): {exc}") from None
    assert st.wins > 0 and st.fan_wins == st.wins
    assert st.wins + st.exhaustive == st.hands == 16 * 4 * opts.get("rounds", 1)


def test_flat_scoring_without_minimum_has_no_fans_and_no_robbing():
    """scoring="basic", min_fan=0 is the engine before fan scoring: no fan events, any complete
    hand wins base_points from each loser, an added kong is never robbed."""
    st = _referee.Stats()
    for g in range(30):
        log = mjfast.replay(SEED, g, rules="mcr", policies="greedy", scoring="basic", min_fan=0)
        st += check_log(log)
        ev = log.events
        assert not any(e["type"] in ("fan", "false_win") for e in ev)
        for i, e in enumerate(ev):
            if e["type"] == "added_kong":
                assert ev[i + 1]["type"] in ("bonus", "replacement", "exhaustive_draw")
            if e["type"] == "score":
                assert e["delta"] % 20 == 0
    assert st.wins > 0 and st.fan_wins == 0 and st.kinds["added_kong"] > 0


def test_flat_scoring_with_a_minimum_counts_fans_but_pays_flat():
    st = _referee.Stats()
    for g in range(20):
        log = mjfast.replay(SEED, g, rules="mcr", policies="greedy", scoring="basic", min_fan=8, base_points=7,
                            payment="discarder")
        st += check_log(log)
        ev = log.events
        for i, e in enumerate(ev):
            if e["type"] == "added_kong":
                assert ev[i + 1]["type"] in ("bonus", "replacement", "exhaustive_draw")   # no robbing
            if e["type"] == "score":
                assert e["delta"] % 7 == 0
    assert st.wins > 0 and st.fan_wins == st.wins


def test_simulate_counts_equal_the_replayed_mcr_logs():
    pols = ["greedy", "defensive", "random", "greedy"]
    games = 24
    res = mjfast.simulate(games, rules="mcr", policies=pols, seed=SEED, progress=False)
    wins, self_wins, deal_ins, points = (np.zeros(4, int) for _ in range(4))
    claims = np.zeros((4, 5), int)
    for g in range(games):
        log = mjfast.replay(SEED, g, rules="mcr", policies=pols)
        check_log(log)
        points += log.header["scores"]
        for e in log.events:
            if e["type"] == "win":
                wins[e["seat"]] += 1
                if e["self_drawn"]:
                    self_wins[e["seat"]] += 1
                else:
                    deal_ins[e["discarder"]] += 1           # a robbed kong's owner deals in
            elif e["type"] in mjfast.game.CLAIM_KINDS:
                claims[e["seat"], mjfast.game.CLAIM_KINDS.index(e["type"])] += 1
    assert np.array_equal(res.wins, wins) and np.array_equal(res.self_draw_wins, self_wins)
    assert np.array_equal(res.deal_ins, deal_ins) and np.array_equal(res.claims, claims)
    assert np.array_equal(res.points, points) and int(points.sum()) == 0


@pytest.mark.parametrize("policies", [["greedy", "defensive", "random", "greedy"], "python"])
def test_simulate_fan_statistics_equal_the_replayed_logs(policies):
    """SimResult.fans (fan counts, hand and paid fan sums, histogram, false wins) is exactly
    what the fan events of replay(seed, g) show, the referee accepting every game."""
    games = 16
    pols = (lambda: ["greedy", AlwaysWin(), "greedy", KongHappy()]) if policies == "python" else (lambda: policies)
    res = mjfast.simulate(games, rules="mcr", policies=pols(), seed=SEED, progress=False, threads=1)
    f = getattr(res, "fans", None)
    if f is None:
        pytest.skip("SimResult.fans is not available")
    counts = np.zeros(len(MF.FANS), int)
    hist = np.zeros(len(f.hist), int)
    fan_sum = paid_sum = fan_sq = paid_sq = wins = 0
    false_wins = np.zeros(4, int)
    names = [n for n, _, _ in mjfast.mcr.FANS]
    for g in range(games):
        log = mjfast.replay(SEED, g, rules="mcr", policies=pols())
        check_log(log)
        for _win, fans in _fans_of_wins(log):
            paid = sum(x["count"] * x["value"] for x in fans)
            hand = paid - sum(x["count"] for x in fans if x["fan"] == "Flower Tiles")
            for x in fans:
                counts[names.index(x["fan"])] += 1
            fan_sum, fan_sq, paid_sum, paid_sq = fan_sum + hand, fan_sq + hand * hand, paid_sum + paid, paid_sq + paid * paid
            hist[min(hand, len(hist) - 1)] += 1
            wins += 1
        for e in log.events:
            if e["type"] == "false_win":
                false_wins[e["seat"]] += 1
    assert f.wins == wins == int(res.wins.sum()) and f.min_fan == 8
    assert np.array_equal(f.counts, counts) and np.array_equal(f.hist, hist)
    assert (f.fan_sum, f.fan_sq, f.paid_sum, f.paid_sq) == (fan_sum, fan_sq, paid_sum, paid_sq)
    assert np.array_equal(f.false_wins, false_wins)
    assert (false_wins.sum() > 0) == (policies == "python")


# ---------------------------------------------------------------------------------------------
# the referee rejects broken fan logs

@pytest.fixture(scope="module")
def fan_log():
    for g in range(100):
        log = mjfast.replay(SEED, g, rules="mcr", policies="greedy")
        st = check_log(log)
        if st.discard_wins and st.self_drawn and st.fans["Flower Tiles"] and st.below_min:
            return log
    raise AssertionError("no sample game")   # pragma: no cover


def _tampered(log, change, header=None):
    events = copy.deepcopy(log.events)
    change(events)
    h = copy.deepcopy(log.header)
    if header:
        h["options"].update(header)
    return mjfast.GameLog(h, events)


def _first(events, pred):
    return next(i for i, e in enumerate(events) if pred(e))


@pytest.mark.parametrize("what", ["drop_fan", "fan_count", "fan_value", "extra_fan", "other_fan", "fan_seat",
                                  "discarder_pays_8", "min_fan_88", "min_fan_0", "flat_scoring", "no_fans"])
def test_referee_rejects_tampered_fan_logs(fan_log, what):
    log = fan_log
    check_log(log)

    def first_fan(ev):
        return _first(ev, lambda e: e["type"] == "fan")

    def discarder_pays_8(ev):
        i = _first(ev, lambda e: e["type"] == "win" and not e["self_drawn"])
        d = ev[i]["discarder"]
        j = _first(ev[i:], lambda e: e["type"] == "score" and e["seat"] == d) + i
        ev[j]["delta"] = -8                         # as if F were 0 (running totals then differ too)

    def drop_all_fans(ev):
        ev[:] = [e for e in ev if e["type"] != "fan"]

    def other_fan(ev):
        i = first_fan(ev)
        name = next(f.name for f in MF.FANS if f.value == ev[i]["value"] and f.name != ev[i]["fan"])
        ev[i].update(fan=name, chinese=MF.FAN_BY_NAME[name].chinese)

    T = {
        "drop_fan": lambda ev: ev.pop(first_fan(ev)),
        "fan_count": lambda ev: ev[first_fan(ev)].update(count=ev[first_fan(ev)]["count"] + 1),
        "fan_value": lambda ev: ev[first_fan(ev)].update(value=ev[first_fan(ev)]["value"] + 1),
        "extra_fan": lambda ev: ev.insert(first_fan(ev), dict(ev[first_fan(ev)])),
        "other_fan": other_fan,
        "fan_seat": lambda ev: ev[first_fan(ev)].update(seat=(ev[first_fan(ev)]["seat"] + 1) % 4),
        "discarder_pays_8": discarder_pays_8,
        "no_fans": drop_all_fans,
    }
    header = {"min_fan_88": {"min_fan": 88}, "min_fan_0": {"min_fan": 0},
              "flat_scoring": {"scoring": "basic"}}.get(what)
    bad = _tampered(log, T.get(what, lambda ev: None), header)
    with pytest.raises(RefereeError):
        check_log(bad)


def test_referee_rejects_a_win_moved_off_a_robbed_kong(searched):
    _, found, _ = searched
    log = found["rob"]
    ev = log.events
    i = next(i for i, e in enumerate(ev) if e["type"] == "win" and not e["self_drawn"]
             and ev[_last_non_fan(ev, i)]["type"] == "added_kong")
    others = [s for s in range(4) if s not in (ev[i]["seat"], ev[i]["discarder"])]
    for s in others:
        def change(events, s=s):
            for e in events[_last_non_fan(events, i) + 1:i + 1]:
                e["seat"] = s
        with pytest.raises(RefereeError):
            check_log(_tampered(log, change))


def _last_non_fan(ev, i):
    j = i - 1
    while ev[j]["type"] == "fan":
        j -= 1
    return j


# ---------------------------------------------------------------------------------------------
# scripted walls and Python players: each situation on purpose

def make_wall(hands, draws=(), back=(), seed=0, flowers=False):
    """The wall ids of one hand dealt by seat 0: ``hands[s]`` as text (None: random standard
    tiles), then the live draws ``draws`` in order, the rest shuffled (bonus tiles included
    with ``flowers``), and ``back`` at the back end (``back[0]`` is the first replacement).
    Bonus tiles are named f1-f8."""
    rng = np.random.default_rng(seed)
    pool = {k: [4 * k + i for i in range(4)] for k in range(34)}
    bonus = list(range(136, 144 if flowers else 136))

    def take(name):
        if name.startswith("f"):
            return bonus.pop(bonus.index(135 + int(name[1:])))
        return pool[tiles.tile_index(name)].pop()

    def ids(text):
        c = tiles.parse_hand(text)
        return [take(tiles.tile_name(k)) for k in range(34) for _ in range(int(c[k]))]

    dealt = [ids(h) if h is not None else None for h in hands]
    fixed_draws = [take(t) for t in draws]
    fixed_back = [take(t) for t in back]
    rest = [int(x) for x in rng.permutation([t for k in range(34) for t in pool[k]])]
    for s, h in enumerate(dealt):
        if h is None:
            dealt[s] = [rest.pop() for _ in range(14 if s == 0 else 13)]
    assert [len(h) for h in dealt] == [14, 13, 13, 13]
    rest = [int(x) for x in rng.permutation(rest + bonus)]
    return np.array([t for h in dealt for t in h] + fixed_draws + rest + fixed_back[::-1], dtype=np.int64)


class Script(mjfast.Policy):
    """Discards ``discards`` first, then the tile just drawn (else its first tile); claims and
    own-turn answers from the given functions (default: never)."""

    name = "script"

    def __init__(self, discards=(), claim=None, own=None):
        self.discards = list(discards)
        self._claim, self._own = claim, own

    def discard(self, view):
        if self.discards:
            return self.discards.pop(0)
        return view.drawn or tiles.tile_name(int(np.flatnonzero(view.hand)[0]))

    def claim(self, view, tile, options):
        return self._claim(view, tile, options) if self._claim else None

    def own_turn(self, view, options):
        return self._own(view, options) if self._own else None


def take_win(view, *args):
    return "win" if "win" in args[-1] else None


def _play(wall, policies, **opts):
    opts.setdefault("flowers", False)
    log = mjfast.play_walls([wall], [[3, 4]], rules="mcr", policies=policies, **opts)
    st = check_log(log, builtin=False)
    (win, fans), = _fans_of_wins(log)
    return log, st, win, {f["fan"]: f["count"] for f in fans}


def test_scripted_robbing_the_kong():
    """Seat 1 pungs the dealer's 5s and adds the fourth 5s, seat 2 (closed wait on 5s) robs it:
    seat 1 pays 8 + F as the discarder, the others 8; the kong is not completed."""
    def rob(view, tile, options):
        robbing = any(("added_kong", tile) in m for m in view.melds)
        return "win" if "win" in options and robbing else None
    wall = make_wall(["5s1m1m9m9m1p1p9p9p7z7z6z6z3z", "5s5s2m2m8m8m2p2p8p8p2s8s3z", "123m456m789p11z46s",
                      "1234m5678p6789s5z"], draws=["1z", "2z", "4z", "5s"])
    pung_then_kong = Script(["3z"], claim=lambda v, t, o: "pung" if t == "5s" and "pung" in o else None,
                            own=lambda v, o: "added_kong:5s" if "added_kong:5s" in o else None)
    log, st, win, fans = _play(wall, [Script(["5s"]), pung_then_kong, Script(claim=rob, own=take_win), Script()])
    assert st.robbed_kongs == 1 and st.replacement_wins == 0
    assert (win["seat"], win["discarder"], win["self_drawn"]) == (2, 1, False)
    assert fans["Robbing The Kong"] == 1 and "Last Tile" not in fans
    F = sum(MF.FAN_BY_NAME[n].value * c for n, c in fans.items())
    assert _scores_after(log, log.events.index(win)) == [-8, -(8 + F), 16 + 8 + F, -8]
    # under flat scoring there is no robbing: seat 1 draws its replacement
    flat = mjfast.play_walls([wall], [[3, 4]], rules="mcr", scoring="basic", flowers=False, policies=[
        Script(["5s"]), Script(["3z"], claim=lambda v, t, o: "pung" if t == "5s" and "pung" in o else None,
                               own=lambda v, o: "added_kong:5s" if "added_kong:5s" in o else None),
        Script(claim=rob, own=take_win), Script()])
    i = next(i for i, e in enumerate(flat.events) if e["type"] == "added_kong")
    assert flat.events[i + 1]["type"] in ("replacement", "bonus") and flat.events[i + 1]["seat"] == 1
    check_log(flat, builtin=False)


@pytest.mark.parametrize("back", [["5p"], ["f1", "5p"], ["f1", "f2", "5p"]])
def test_scripted_out_on_a_kongs_replacement(back):
    """The dealer declares a concealed kong of East on its first turn; its replacement (after
    bonus tiles, if any) completes the hand: Out with Replacement Tile."""
    kong = lambda v, o: "win" if "win" in o else ("concealed_kong:1z" if "concealed_kong:1z" in o else None)
    wall = make_wall(["1111z123456789m5p", None, None, None], back=back, flowers=True)
    log, st, win, fans = _play(wall, [Script(own=kong), Script(), Script(), Script()], flowers=True)
    assert win["seat"] == 0 and win["self_drawn"] and st.replacement_wins == 1
    assert fans["Out with Replacement Tile"] == 1 and "Self-Drawn" not in fans
    assert fans.get("Flower Tiles", 0) == len(back) - 1


def test_scripted_bonus_replacement_is_not_a_kong_replacement():
    """A drawn bonus tile's replacement completes the hand: self-drawn, with the flower, but no
    Out with Replacement Tile (the kong flag only follows kongs)."""
    wall = make_wall(["1m1m9m9m1p1p9p9p7z7z6z6z3z4z", "123456789m111z5p", None, None], draws=["f2"], back=["5p"],
                     flowers=True)
    log, st, win, fans = _play(wall, [Script(["4z"]), Script(own=take_win), Script(), Script()], flowers=True)
    assert win["seat"] == 1 and win["self_drawn"] and st.replacement_wins == 0
    assert "Out with Replacement Tile" not in fans and fans["Flower Tiles"] == 1


def test_scripted_last_tile_draw_and_claim():
    # 136 tiles, no claims: the 83 live draws go to seats 1, 2, 3, 0, ...: seat 3 draws the last
    wall = make_wall(["1m1m9m9m1p1p9p9p7z7z6z6z3z5p", "5p2m2m8m8m2p2p8p8p2s8s3z4z", None, "123456789m111z5p"],
                     back=["5p"])
    log, st, win, fans = _play(wall, [Script(["3z"]), Script(), Script(), Script(own=take_win)])
    assert win["seat"] == 3 and win["self_drawn"] and st.last_tile_wins == 1
    assert fans["Last Tile Draw"] == 1 and "Self-Drawn" not in fans
    assert not any(e["type"] == "draw" for e in log.events[log.events.index(win):])
    # seat 3 discards the last tile and the dealer wins on it
    wall = make_wall(["123456789m111z5p4z", "5p2m2m8m8m2p2p8p8p2s8s3z4z", "5p3s3s7s7s1p1p9p9p2s8s5z6z", None],
                     back=["5p"])
    log, st, win, fans = _play(wall, [Script(["4z"], claim=take_win), Script(), Script(), Script()])
    assert (win["seat"], win["discarder"]) == (0, 3) and st.last_tile_wins == 1
    assert fans["Last Tile Claim"] == 1


def test_scripted_fourth_tile():
    """Seats 1, 2 and 0 draw and discard three 5p (seat 3 declines the wins on them); seat 3
    self-draws the fourth on a closed wait: Last Tile."""
    wall = make_wall(["1m1m9m9m1p1p9p9p7z7z6z6z3z4z", None, None, "123456789m11z46p"],
                     draws=["5p", "5p", "1s", "5p", "2s", "3s", "5p"])
    log, st, win, fans = _play(wall, [Script(["4z"]), Script(), Script(), Script(own=take_win)])
    assert win["seat"] == 3 and win["self_drawn"] and st.fourth_tile_wins == 1
    assert fans["Last Tile"] == 1


def test_dealer_first_turn_wins():
    """The dealer's 14 dealt tiles are complete: no tile was drawn, the winning tile is the held
    kind that scores most (the first such kind on a tie); a hand below 8 fan is played on."""
    from conftest import complete_hands
    st = _referee.Stats()
    hands = [tiles.format_hand(h) for h in complete_hands(40, 14, seed=5)]
    hands += ["22334455667788p", "19m19p19s12345677z", "147m258p369s12345z", "11223399m445566p"]
    for i, text in enumerate(hands):
        log = mjfast.play_walls([make_wall([text, None, None, None], seed=i)], [[3, 4]], rules="mcr",
                                    policies="greedy", flowers=False)
        st += check_log(log)
    assert st.dealer_first_turn_wins > 0
    assert st.dealer_first_turn_wins + st.below_min >= len(hands)


# ---------------------------------------------------------------------------------------------
# false wins

class AlwaysWin(mjfast.Policy):
    """Declares a win whenever it is asked anything but its discard."""

    name = "always_win"

    def discard(self, view):
        return view.drawn or tiles.tile_name(int(np.flatnonzero(view.hand)[0]))

    def claim(self, view, tile, options):
        return "win"

    def own_turn(self, view, options):
        return "win"


def test_false_wins_pay_the_penalty():
    st = _referee.Stats()
    seen = []
    for g in range(12):
        log = mjfast.replay(SEED, g, rules="mcr", policies=["greedy", AlwaysWin(), "greedy", "greedy"])
        st += check_log(log)
        for i, e in enumerate(log.events):
            if e["type"] == "false_win":
                assert e["seat"] == 1 and e["min_fan"] == 8 and 0 <= e["fan"] < 8
                assert _scores_after(log, i) == [10, -30, 10, 10]
                assert log.events[i + 5:i + 6] == [] or log.events[i + 5]["type"] == "hand"   # the hand ends
                seen.append(e)
    assert st.false_wins == len(seen) > 0
    assert st.wins + st.exhaustive + st.false_wins == st.hands


def test_false_win_error_raises():
    with pytest.raises(mjfast.IllegalActionError, match="false win"):
        mjfast.simulate(4, rules="mcr", policies=[AlwaysWin(), "greedy", "greedy", "greedy"], false_win="error",
                        seed=SEED, progress=False)
    # the same players under the penalty play every game to the end, zero-sum
    res = mjfast.simulate(4, rules="mcr", policies=[AlwaysWin(), "greedy", "greedy", "greedy"], seed=SEED,
                          progress=False)
    assert int(res.points.sum()) == 0 and res.points[0] < 0


class DeclineThenDeclare(mjfast.Policy):
    """Passes an offered win on a discard, then answers "win" to the set-claim question on the
    same discard."""

    name = "decline_then_declare"

    def __init__(self):
        self.declined = None

    def discard(self, view):
        return view.drawn or tiles.tile_name(int(np.flatnonzero(view.hand)[0]))

    def claim(self, view, tile, options):
        if "win" in options:
            self.declined = (view.hand_number, view.turn, tile)
            return None
        return "win" if self.declined == (view.hand_number, view.turn, tile) else None


def test_a_valid_win_declined_then_declared_is_an_illegal_action():
    """Passing the offered win and then answering "win" to the set-claim question on the same
    discard is not a false win (the hand is valid): the engine refuses it."""
    wall = make_wall(["5p1s2s3s4s5s6s7s8s9s1z2z3z4z", "123456789m11p55p", None, None], seed=1)
    with pytest.raises(mjfast.IllegalActionError, match="a win declared after declining it on the same tile"):
        mjfast.play_walls([wall], [[3, 4]], rules="mcr", flowers=False,
                              policies=[Script(["5p"]), DeclineThenDeclare(), "greedy", "greedy"])


def _always(view, *args):
    return "win"


def test_scripted_false_wins_below_the_minimum():
    """Complete hands below min_fan declared anyway: on the own turn (a self-drawn closed wait)
    and robbing a kong (min_fan=16): the event carries the hand's fan without flowers."""
    wall = make_wall(["1m1m9m9m1p1p9p9p7z7z6z6z3z4z", "123m456m777p11z46s", None, None], draws=["5s"])
    log = mjfast.play_walls([wall], [[3, 4]], rules="mcr", flowers=False,
                                policies=[Script(["4z"]), Script(own=_always), Script(), Script()])
    st = check_log(log, builtin=False)
    fw = [e for e in log.events if e["type"] == "false_win"]
    assert st.false_wins == 1 and st.wins == 0 and fw[0]["seat"] == 1 and 0 < fw[0]["fan"] < 8
    assert log.events[log.events.index(fw[0]) - 1]["type"] == "draw"

    def rob_any(view, tile, options):
        return "win" if any(("added_kong", tile) in m for m in view.melds) else None
    wall = make_wall(["5s1m1m9m9m1p1p9p9p7z7z6z6z3z", "5s5s2m2m8m8m2p2p8p8p2s8s3z", "123m456m777p11z46s",
                      "1234m5678p6789s5z"], draws=["1z", "2z", "4z", "5s"])
    pung_then_kong = Script(["3z"], claim=lambda v, t, o: "pung" if t == "5s" and "pung" in o else None,
                            own=lambda v, o: "added_kong:5s" if "added_kong:5s" in o else None)
    log = mjfast.play_walls([wall], [[3, 4]], rules="mcr", flowers=False, min_fan=16,
                                policies=[Script(["5s"]), pung_then_kong, Script(claim=rob_any), Script()])
    st = check_log(log, builtin=False)
    fw = [e for e in log.events if e["type"] == "false_win"]
    assert st.false_wins == 1 and fw[0]["seat"] == 2 and 8 < fw[0]["fan"] < 16 and fw[0]["min_fan"] == 16
    assert log.events[log.events.index(fw[0]) - 1]["type"] == "added_kong"
