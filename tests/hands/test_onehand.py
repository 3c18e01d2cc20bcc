"""The one-hand paths (mjfast._kernels.onehand): shanten, is_winning and mcr.fan of one hand, and
lists of texts, give exactly the general path's results and raise exactly its errors."""
from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mjfast
from conftest import random_hands
from mjfast import mcr, tiles
from mjfast._kernels import onehand
from mjfast.hands import _functions as hand_functions
from mjfast.mcr import _fan as mcr_scores
from oracles import mcr_hands

RULES = (None, "classical", "basic", "mcr")
FORMS = ("all", "standard", "seven_pairs", "thirteen_orphans")


def _general(monkeypatch):
    """Make every one-hand entry point decline: the callers take their general paths."""
    monkeypatch.setattr(onehand, "shanten_one", lambda *a: None)
    monkeypatch.setattr(onehand, "winning_one", lambda *a: None)
    monkeypatch.setattr(onehand, "fan_call", lambda *a: None)


def _outcome(fn, *args, **kw):
    try:
        return ("ok", fn(*args, **kw))
    except (ValueError, TypeError) as exc:
        return (type(exc).__name__, str(exc))


def _hands_of_every_size():
    out = [random_hands(150, s, seed=70 + s) for s in range(1, 15)]
    out.append(random_hands(100, 13, seed=90, suits="m"))
    out.append(random_hands(100, 14, seed=91, suits="pz"))
    return np.concatenate(out)


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("form", FORMS)
def test_one_hand_equals_the_batch_on_every_size(form, rules):
    """Every input form of one hand (uint8 / int64 / strided arrays, lists, tuples, text) gives
    the batch kernel's result, or the batch's error for that hand."""
    hs = _hands_of_every_size()
    sizes = hs.sum(axis=1)
    ok = (sizes % 3 != 0)
    if form != "standard" and form != "all":
        ok &= (sizes == 13) | (sizes == 14)
    batch_s = mjfast.shanten(hs[ok], form=form, rules=rules)
    batch_w = mjfast.is_winning(hs[ok], form=form, rules=rules)
    wide = np.zeros((len(hs), 68), np.uint8)
    wide[:, ::2] = hs
    for i in np.flatnonzero(ok)[::3]:
        j = int(np.sum(ok[:i]))
        h = hs[i]
        for hand in (h, h.astype(np.int64), h.astype(np.int16), wide[i, ::2], h.tolist(), tuple(h.tolist()),
                     tiles.format_hand(h)):
            assert mjfast.shanten(hand, form=form, rules=rules) == batch_s[j]
            assert mjfast.is_winning(hand, form=form, rules=rules) == batch_w[j]
        assert type(mjfast.shanten(h, form=form, rules=rules)) is int
        assert type(mjfast.is_winning(h, form=form, rules=rules)) is bool


def test_the_fast_reader_agrees_with_the_kernels_directly():
    """onehand.shanten_one / winning_one against the batch kernels on 20,000 hands per size."""
    from mjfast import _core

    for size in (13, 14):
        hs = random_hands(20_000, size, seed=size)
        for rules in RULES:
            bits, sizes = hand_functions._one_hand("all", rules)
            s = np.empty(len(hs), np.int8)
            w = np.empty(len(hs), np.uint8)
            _core.shanten_counts_batch(hs, bits, s, 1)
            _core.winning_counts_batch(hs, bits, w, 1)
            assert [onehand.shanten_one(h, bits, sizes) for h in hs] == s.tolist()
            assert [onehand.winning_one(h, bits, sizes) for h in hs] == w.astype(bool).tolist()


BAD_HANDS = [
    "", "123m456p789s11222", "12 3m", "123m 0p", "8z", "123m456p789s11111z", "123m456p789s1122zz",
    "123m456p789s1122z j", "123m456p789s1122z f1", "f1 123m", "123m [456p] [456p] [456p] [456p] 11z",
    "11112222333344445m", "123M", "１２３m", "123m\u00a0456p789s1122z", "[123m", "123m]", "(111z)", "[1235m]",
    "[12m]", "[111z] (2222z) [333z] [444z] 11z", "123m456p789s 1z [111z]", "1111m [111m]", "123m456p789s1122z 5p",
    [0] * 34, [5] + [0] * 33, [-1] + [1] * 13 + [0] * 20, [1] * 14 + [0] * 20, [True] * 14 + [False] * 20,
    [1.0] * 14 + [0.0] * 20, [1] * 33, np.full(34, 5, np.uint8), np.array([4] * 4 + [0] * 30, np.int64),
    np.array([-1] * 34), np.zeros(34, bool), np.zeros(34, np.float64), np.zeros(35, np.uint8),
    np.zeros((1, 34), np.uint8), np.array([2 ** 40] + [0] * 33), np.zeros(34, ">i4"), b"\x01" * 34, None, 5,
    np.uint64(3), [2 ** 70] + [0] * 33,
]


@pytest.mark.parametrize("fn", [mjfast.shanten, mjfast.is_winning])
@pytest.mark.parametrize("hand", BAD_HANDS, ids=range(len(BAD_HANDS)))
def test_odd_and_bad_hands_give_the_general_paths_result_or_error(fn, hand, monkeypatch):
    for form, rules in (("all", None), ("standard", "classical"), ("all", "mcr"), ("seven_pairs", None)):
        fast = _outcome(fn, hand, form=form, rules=rules)
        with monkeypatch.context() as m:
            _general(m)
            slow = _outcome(fn, hand, form=form, rules=rules)
        assert _same(fast, slow), (hand, form, rules, fast, slow)


def _same(a, b) -> bool:
    if a[0] != b[0]:
        return False
    if a[0] == "ok" and isinstance(a[1], np.ndarray):
        return np.array_equal(a[1], b[1])
    if a[0] == "ok" and isinstance(a[1], tuple):
        return all(np.array_equal(x, y) for x, y in zip(a[1], b[1]))
    return a == b


def test_bad_form_rules_and_threads_are_named_first():
    with pytest.raises(ValueError, match="unknown form"):
        mjfast.shanten("123m456p789s1122z", form="nope")
    with pytest.raises(ValueError, match="unknown rules"):
        mjfast.is_winning("123m456p789s11222z", rules="nope")
    with pytest.raises(ValueError, match="threads"):
        mjfast.shanten("123m456p789s1122z", threads=0)
    with pytest.raises(TypeError, match="threads"):
        mjfast.is_winning([1] * 14 + [0] * 20, threads="2")


ALPHABET = "0123456789mpszfj[]() \tx"


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=40))
def test_the_text_reader_reads_what_parse_tiles_reads(text):
    """Every text the reader takes gives parse_tiles' concealed and called tiles; the texts it
    declines go to parse_tiles (which reads or rejects them)."""
    counts = np.zeros((1, 34), np.uint8)
    called = np.zeros((1, 34), np.uint8)
    slow = onehand.text_rows([text], counts, called)
    if slow:
        return
    p = tiles.parse_tiles(text)
    assert not p.bonus.any() and not p.jokers
    assert np.array_equal(counts[0], p.concealed)
    assert np.array_equal(called[0], p.counts_all() - p.concealed)


def _random_text(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(1, 6)):
        r = rng.random()
        if r < 0.6:
            suit = rng.choice("mpsz")
            parts.append("".join(rng.choice("1234567" if suit == "z" else "123456789")
                                 for _ in range(rng.randint(1, 4))) + suit)
        elif r < 0.75:
            k = rng.randrange(34)
            name = tiles.tile_name(k)
            parts.append(f"[{name[0] * 3}{name[1]}]")
        elif r < 0.85:
            s, start = rng.choice("mps"), rng.randint(1, 7)
            digits = [str(start + i) for i in range(3)]
            rng.shuffle(digits)
            parts.append(f"[{''.join(digits)}{s}]")
        elif r < 0.92:
            name = tiles.tile_name(rng.randrange(34))
            parts.append(rng.choice(["[%s]", "(%s)"]) % (name[0] * 4 + name[1]))
        else:
            parts.append(rng.choice(["f1", "12f", "f8", "j", "5f"]))
    rng.shuffle(parts)
    return rng.choice([" ", "", "  "]).join(parts)


def test_lists_of_texts_equal_single_calls_and_name_the_first_bad_row(monkeypatch):
    rng = random.Random(5)
    texts = [_random_text(rng) for _ in range(3000)]
    good = [t for t in texts if _outcome(mjfast.shanten, t)[0] == "ok"]
    assert len(good) > 300
    batch = mjfast.shanten(good)
    assert batch.tolist() == [mjfast.shanten(t) for t in good]
    assert mjfast.is_winning(good).tolist() == [mjfast.is_winning(t) for t in good]
    with monkeypatch.context() as m:
        m.setattr(onehand, "text_rows", lambda flat, counts, called: list(range(len(flat))))
        assert np.array_equal(mjfast.shanten(good), batch)
    for start in range(0, 3000, 100):         # the first bad text's error, as with every text read by parse_tiles
        chunk = texts[start:start + 100]
        fast = _outcome(mjfast.shanten, chunk)
        with monkeypatch.context() as m:
            m.setattr(onehand, "text_rows", lambda flat, counts, called: list(range(len(flat))))
            slow = _outcome(mjfast.shanten, chunk)
        assert _same(fast, slow), (fast, slow)


def _fan_case_text(case) -> str | None:
    counts = list(case["hand"])
    counts[case["win_tile"]] += 1
    parts = [tiles.format_hand(counts)]
    for kind, t, supplier in case["melds"]:
        if not supplier and kind != "kong":
            return None
        c = [0] * 34
        for k in ([t, t + 1, t + 2] if kind == "chow" else [t] * (4 if kind == "kong" else 3)):
            c[k] += 1
        parts.append(("[%s]" if supplier else "(%s)") % tiles.format_hand(c))
    return " ".join(parts)


@pytest.mark.parametrize("kind", sorted(mcr_hands.GENERATORS))
def test_fan_of_one_hand_equals_the_general_path(kind, monkeypatch):
    cases = mcr_hands.GENERATORS[kind](300, 77)
    rng = random.Random(kind)
    for case in cases:
        kw = {k: bool(case.get(k, False)) for k in ("self_drawn", "fourth_tile", "kong", "last_of_wall")}
        kw.update(seat_wind=rng.choice([case.get("seat_wind", 0), "ESWN"[case.get("seat_wind", 0)]]),
                  prevalent_wind=case.get("prevalent_wind", 0),
                  win_tile=rng.choice([case["win_tile"], tiles.tile_name(case["win_tile"])]))
        text = _fan_case_text(case)
        calls = [(np.asarray(case["hand"], np.int64), dict(kw, flowers=case.get("flowers", 0), melds=[
            (k, t, "exposed" if s else "concealed") for k, t, s in case["melds"]]))]
        if text is not None:
            fl = "".join(f"f{i + 1}" for i in range(case.get("flowers", 0)))
            calls.append((text + (" " + fl if fl else ""), dict(kw)))
            calls.append((text, dict(kw, flowers=case.get("flowers", 0))))
        for hand, k in calls:
            fast = _outcome(mcr.fan, hand, **k)
            with monkeypatch.context() as m:
                _general(m)
                slow = _outcome(mcr.fan, hand, **k)
            assert fast == slow, (hand, k)
            assert fast[0] == "ok" or kind == "near_miss"


FAN_BAD = [
    ("123m456p789s1111z", "1z", {}), ("123m456p789s112z", "2z", {}), ("123m456p789s1122z", "9z", {}),
    ("123m456p789s1122z", "2z", {"seat_wind": "X"}), ("123m456p789s1122z", "2z", {"flowers": 9}),
    ("123m456p789s1122z", "2z", {"flowers": True}), ("123m456p789s1122z j", "2z", {}),
    ("123m456p789s1z", "2z", {"melds": [("pung", "1z", "hidden")]}),
    ("123m456p789s1z", "2z", {"melds": [("chow", "8m", "exposed")]}),
    ("123m456p789s1z", "2z", {"melds": [("pair", "1z", "exposed")]}),
    ("123m456p789s1z", "2z", {"melds": [("pung", 27, 4)]}), ("123m456p789s1z", "2z", {"melds": [("pung", 34)]}),
    ("123m456p789s1122z", "2z", {"self_drawn": 1}), ("123m456p789s1122z", 2.0, {}),
    ("123m456p789s1122z", "2z", {"prevalent_wind": 4}), ("123m456p789s1122z", -1, {}),
    ("123m456p789s1z [111z]", "1z", {}), ("[111m][222m][333m][444m][555m] 1z", "1z", {}),
    ("123m456p789s1122z f1f1", "2z", {}), (np.array([4] * 3 + [1] + [0] * 30), "1m", {}),
    ([1] * 13 + [0] * 21, 0, {}), ([1.0] * 13 + [0] * 21, 0, {}), ("11m 99p", "9p", {"melds": "[234p] 11m"}),
    ("11m 99p", "9p", {"melds": ["[234p]", "[555s]", "(7777z)", "[111m]"]}), ("11m99p", "9p", {"melds": 5}),
]


@pytest.mark.parametrize("hand,win,kw", FAN_BAD, ids=range(len(FAN_BAD)))
def test_fan_errors_are_the_general_paths(hand, win, kw, monkeypatch):
    fast = _outcome(mcr.fan, hand, win_tile=win, **kw)
    with monkeypatch.context() as m:
        _general(m)
        slow = _outcome(mcr.fan, hand, win_tile=win, **kw)
    assert fast == slow


def test_fan_takes_sets_as_text():
    """melds=["[789s]"] reads as the hand text and the command line read it."""
    ref = mcr.fan("11m 99p [234p] [555s] (7777z)", win_tile="9p", seat_wind="S")
    assert ref.total == 5
    for melds in (["[234p]", "[555s]", "(7777z)"], ["[234p] [555s]", "(7777z)"], "[234p] [555s] (7777z)",
                  ("[234p]", ("pung", "5s", "exposed"), tiles.Meld("kong", (33,) * 4, concealed=True))):
        assert mcr.fan("11m 99p", melds=melds, win_tile="9p", seat_wind="S") == ref
    with pytest.raises(ValueError, match="brackets"):
        mcr.fan("11m 99p [555s] (7777z)", melds=["234p"], win_tile="9p")
    with pytest.raises(ValueError, match="is not a valid set"):
        mcr.fan("11m 99p [555s] (7777z)", melds=["[235p]"], win_tile="9p")
    with pytest.raises(ValueError, match="at most 4 sets"):
        mcr.fan("11m", melds=["[234p] [555s] (7777z) [999p] [111s]"], win_tile="1m")


@pytest.mark.parametrize("tile", ["f1", "j", "8f"])
def test_a_set_of_bonus_tiles_or_jokers_is_a_value_error(tile):
    """A set named by a bonus tile or the joker raised IndexError from deep inside mcr.fan."""
    with pytest.raises(ValueError, match="a meld's tile is a tile name or kind 0-33"):
        mcr.fan("123m456p789s1z", melds=[("pung", tile)], win_tile="1z")


def test_fan_result_is_the_dataclass():
    r = mcr.fan("123456789m123p55p", win_tile="5p")
    same = mcr.FanResult(r.total, r.fans, r.is_win, r.flowers)
    assert r == same and vars(r) == vars(same) and repr(r) == repr(same) and hash(r.fans) == hash(same.fans)
    with pytest.raises(AttributeError):
        r.total = 3


def test_fan_batch_empty_batch():
    """An empty batch gives empty results (the empty list of winning tiles is
    not refused as a float array)."""
    total, counts = mcr.fan_batch(np.zeros((0, 34), np.uint8), [])
    assert total.shape == (0,) and counts.shape == (0, 82)
    total, counts = mcr.fan_batch(np.zeros((0, 34), np.int64), np.zeros(0, np.int64), melds=np.zeros((0, 4, 3), np.int64))
    assert total.shape == (0,)


def _batch_errors(hands, win, **kw):
    return _outcome(mcr.fan_batch, hands, win, **kw)


def test_fan_batch_checked_in_the_kernel_names_the_same_row(monkeypatch):
    """Every kind of bad row, alone or after good rows, raises the message the
    numpy checks raise (the kernel only flags it)."""
    cases = mcr_hands.GENERATORS["melded"](200, 3)
    n = len(cases)
    hands = np.zeros((n, 34), np.uint8)
    melds = np.zeros((n, 4, 3), np.uint8)
    win = np.zeros(n, np.int64)
    for i, c in enumerate(cases):
        hands[i] = c["hand"]
        win[i] = c["win_tile"]
        for j, (k, t, s) in enumerate(c["melds"]):
            melds[i, j] = ({"chow": 1, "pung": 2, "kong": 3}[k], t, 1 if s else 0)
    base_total, base_counts = mcr.fan_batch(hands, win, melds=melds)
    with monkeypatch.context() as m:
        m.setattr(mcr_scores, "_batch_rows", lambda *a: None)
        slow_total, slow_counts = mcr.fan_batch(hands, win, melds=melds)
    assert np.array_equal(base_total, slow_total) and np.array_equal(base_counts, slow_counts)

    def damaged(what, row):
        h, m, w = hands.copy(), melds.copy(), win.copy()
        kw: dict = {}
        if what == "count":
            h[row, 5] = 7
        elif what == "size":
            h[row, int(np.flatnonzero(h[row])[0])] -= 1
        elif what == "copies":          # four of a kind in hand, the fifth the winning tile (size kept)
            k = int(np.flatnonzero(h[row])[0])
            add = 4 - int(h[row, k])
            h[row, k] = 4
            for j in np.flatnonzero(h[row])[::-1]:
                take = 0 if j == k else min(add, int(h[row, j]))
                h[row, j] -= take
                add -= take
            w[row] = k
        elif what == "kind":
            m[row, 0, 0] = 4
        elif what == "tile":
            m[row, 0, 1] = 40
        elif what == "chow":
            m[row, 0] = (1, 8, 1)
        elif what == "exposed":
            m[row, 3, 2] = 2
        elif what == "win":
            w[row] = 34
        elif what == "wind":
            kw["seat_wind"] = np.where(np.arange(n) == row, 4, 0)
        elif what == "flowers":
            kw["flowers"] = np.where(np.arange(n) == row, 9, 0)
        elif what == "flag":
            kw["kong"] = np.where(np.arange(n) == row, 2, 0)
        return h, m, w, kw

    for what in ("count", "size", "copies", "kind", "tile", "chow", "exposed", "win", "wind", "flowers", "flag"):
        for row in (0, 57, n - 1):
            h, m, w, kw = damaged(what, row)
            fast = _batch_errors(h, w, melds=m, **kw)
            with monkeypatch.context() as mp:
                mp.setattr(mcr_scores, "_batch_rows", lambda *a: None)
                slow = _batch_errors(h, w, melds=m, **kw)
            assert fast[0] == "ValueError" and _same(fast, slow), (what, row, fast, slow)
            assert f"row {row}" in fast[1], (what, fast)


def test_fan_batch_kernel_check_agrees_with_the_numpy_checks_row_by_row(monkeypatch):
    """Random rows, valid or damaged in one or two places (counts up to 255, any set byte, any
    flag): the kernel's check flags exactly the rows the numpy checks refuse."""
    from mjfast import _core
    from mjfast._kernels import mcr_fan

    _core.ensure_tables()
    rng = np.random.default_rng(9)
    cases = mcr_hands.GENERATORS["melded"](400, 4) + mcr_hands.GENERATORS["random_weighted"](400, 5)
    seen = {True: 0, False: 0}
    for case in cases:
        h = np.array(case["hand"], np.uint8)
        m = np.zeros((4, 3), np.uint8)
        for j, (k, t, s) in enumerate(case["melds"]):
            m[j] = ({"chow": 1, "pung": 2, "kong": 3}[k], t, 1 if s else 0)
        f = np.array([case["win_tile"]] + [int(case.get(k, 0)) for k in
                     ("self_drawn", "fourth_tile", "kong", "last_of_wall", "seat_wind", "prevalent_wind", "flowers")],
                     np.int32)
        for _ in range(int(rng.integers(0, 3))):
            what = rng.integers(0, 4)
            if what == 0:
                h[rng.integers(34)] = rng.choice([0, 1, 3, 4, 5, 6, 60, 63, 64, 65, 120, 127, 128, 200, 255])
            elif what == 1:
                m[rng.integers(4), rng.integers(3)] = rng.choice([0, 1, 2, 3, 4, 7, 26, 27, 33, 34, 63, 64, 255])
            elif what == 2:
                f[rng.integers(8)] = rng.choice([-1, 0, 1, 2, 3, 4, 8, 9, 33, 34, 2 ** 31 - 1, -(2 ** 31)])
            else:
                k = rng.integers(34)
                h[k] = max(0, int(h[k]) - 1)
                h[rng.integers(34)] += 1
        cols = dict(melds=m[None], self_drawn=f[1:2], fourth_tile=f[2:3], kong=f[3:4], last_of_wall=f[4:5],
                    seat_wind=f[5:6], prevalent_wind=f[6:7], flowers=f[7:8])
        with monkeypatch.context() as mp:
            mp.setattr(mcr_scores, "_batch_rows", lambda *a: None)     # the numpy checks
            slow = _batch_errors(h[None], f[:1], **cols)
        fast = _batch_errors(h[None], f[:1], **cols)
        assert _same(fast, slow), (h, m, f, fast, slow)
        valid = slow[0] == "ok"
        flags_ok = 0 <= f[0] <= 33 and all(0 <= v <= 1 for v in f[1:5]) and 0 <= f[5] <= 3 and 0 <= f[6] <= 3 \
            and 0 <= f[7] <= 8
        if flags_ok:          # the kernel's own check (the wrapper checks the flag columns)
            total = np.zeros(1, np.int32)
            counts = np.zeros((1, 82), np.int8)
            ok = mcr_fan.fan_batch_checked(h[None], m.reshape(1, 12), f[None], total, counts, 1)
            assert ok == valid, (h, m, f)
            if valid:
                assert total[0] == slow[1][0][0]
        seen[valid] += 1
    assert seen[True] > 200 and seen[False] > 200
