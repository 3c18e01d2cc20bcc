"""The MCR fan kernel and mjfast.mcr against the plain-Python specification (tests/oracles/mcr_fan.py,
itself checked against PyMahjongGB 1.4.0 in test_mcr_fan_reference.py), and the wrappers' checks."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjfast import mcr, tiles
from oracles import mcr_fan as O
from oracles import mcr_hands as H

MK = {"chow": 1, "pung": 2, "kong": 3}
FLAGS = ("self_drawn", "fourth_tile", "kong", "last_of_wall", "seat_wind", "prevalent_wind", "flowers")


def _arrays(cases):
    n = len(cases)
    hands = np.zeros((n, 34), np.int64)
    melds = np.zeros((n, 4, 3), np.int64)
    cols = {k: np.zeros(n, np.int64) for k in FLAGS}
    win = np.zeros(n, np.int64)
    for i, c in enumerate(cases):
        hands[i] = c["hand"]
        win[i] = c["win_tile"]
        for j, (kind, t, sup) in enumerate(c["melds"]):
            melds[i, j] = (MK[kind], t, 1 if sup else 0)
        for k in FLAGS:
            cols[k][i] = int(c.get(k, 0))
    return hands, win, melds, cols


def _oracle(c):
    return O.fan(c["hand"], c["melds"], c["win_tile"], **{k: c[k] for k in FLAGS if k in c})


def _agree(cases, threads=1):
    hands, win, melds, cols = _arrays(cases)
    total, counts = mcr.fan_batch(hands, win, melds=melds, threads=threads, **cols)
    for i, c in enumerate(cases):
        r = _oracle(c)
        if r is None:
            assert total[i] == 0 and not counts[i].any(), c
            continue
        mine = sorted((mcr.FAN_NAMES[j], int(counts[i, j])) for j in np.flatnonzero(counts[i]))
        assert (int(total[i]), mine) == (r.total, sorted(r.fans)), c
    return total


@pytest.mark.parametrize("kind", sorted(H.GENERATORS))
def test_kernel_agrees_with_the_specification(kind):
    cases = H.GENERATORS[kind](1500, 101)
    total = _agree(cases, threads=2)
    assert len(total) == len(cases)


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(H.GENERATORS))
def test_kernel_agrees_with_the_specification_slow(kind):
    for seed in (1, 2, 3):
        _agree(H.GENERATORS[kind](20000, 1000 + seed), threads=2)


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False))
def test_kernel_agrees_on_random_hands_with_random_situations(rnd):
    kind = rnd.choice(sorted(H.GENERATORS))
    _agree(H.GENERATORS[kind](3, rnd.randrange(1 << 30)))


def test_threads_do_not_change_results():
    cases = H.random_weighted(4000, 7)
    hands, win, melds, cols = _arrays(cases)
    a = mcr.fan_batch(hands, win, melds=melds, threads=1, **cols)
    b = mcr.fan_batch(hands, win, melds=melds, threads=2, **cols)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])


def test_every_fan_occurs_in_the_generated_hands():
    seen = np.zeros(82, bool)
    for gen in H.GENERATORS.values():
        hands, win, melds, cols = _arrays(gen(1500, 5))
        seen |= (mcr.fan_batch(hands, win, melds=melds, **cols)[1] != 0).any(axis=0)
    assert seen.all(), [mcr.FAN_NAMES[i] for i in np.flatnonzero(~seen)]


# ---------------------------------------------------------------------------------------------
# the scalar front

def test_fan_text_forms_agree_with_counts_and_melds():
    by_text = mcr.fan("11m [234p] [555s] (7777z) 99p", win_tile="9p", seat_wind="S")
    counts = tiles.parse_hand("11m99p")
    by_counts = mcr.fan(counts, melds=[("chow", "2p", "exposed"), ("pung", "5s", "exposed"),
                                       ("kong", "7z", "concealed")], win_tile="9p", seat_wind=1)
    assert by_text == by_counts
    ref = O.fan(tiles.parse_hand("11m99p"), [("chow", 10, 1), ("pung", 22, 1), ("kong", 33, 0)], 17, seat_wind=1)
    assert by_text.total == ref.total and [(f.name, f.count) for f in by_text.fans] == list(ref.fans)


def test_the_winning_tile_may_be_in_the_hand_or_not():
    with_it = mcr.fan("123456789m123p55p", win_tile="5p")
    without = mcr.fan("123456789m123p5p", win_tile="5p")
    assert with_it == without and with_it.total == 23


def test_flowers_from_the_text_count_but_not_towards_the_minimum():
    r = mcr.fan("123m456p789s1122z f1f2f3", win_tile="2z")
    assert r.flowers == 3 and r.count("Flower Tiles") == 3 and r.total == r.total_without_flowers + 3
    assert mcr.fan("123m456p789s1122z f1f2f3", win_tile="2z", flowers=0).flowers == 0


def test_not_a_win_is_a_result_not_an_error():
    r = mcr.fan("123m456p789s1123z", win_tile="4z")
    assert not r.is_win and r.total == 0 and r.fans == () and not r.reaches(0)
    assert str(r) == "not a win"


@pytest.mark.parametrize("text,win,kw,match", [
    ("123m456p789s1111z", "1z", {}, "5 copies of 1z"),
    ("123m456p789s112z", "2z", {}, "concealed tiles"),
    ("123m456p789s1122z", "9z", {}, "tile"),
    ("123m456p789s1122z", "2z", {"seat_wind": "X"}, "seat_wind"),
    ("123m456p789s1122z", "2z", {"flowers": 9}, "flowers"),
    ("123m456p789s1122z j", "2z", {}, "jokers"),
    ("123m456p789s1z", "2z", {"melds": [("pung", "1z", "hidden")]}, "exposed"),
    ("123m456p789s1z", "2z", {"melds": [("chow", "8m", "exposed")]}, "not a chow"),
    ("123m456p789s1z", "2z", {"melds": [("pair", "1z", "exposed")]}, "kind"),
])
def test_bad_input_raises_value_errors(text, win, kw, match):
    with pytest.raises(ValueError, match=match):
        mcr.fan(text, win_tile=win, **kw)


def test_flags_must_be_bools():
    with pytest.raises(TypeError, match="self_drawn"):
        mcr.fan("123m456p789s1122z", win_tile="2z", self_drawn=1)


def test_fan_batch_names_the_bad_row():
    hands = np.stack([tiles.parse_hand("123456789m123p5p"), tiles.parse_hand("123456789m123p55p")])
    with pytest.raises(ValueError, match="row 1"):
        mcr.fan_batch(hands, [13, 13])
    h5 = np.stack([tiles.parse_hand("123456789m123p5p"), tiles.parse_hand("11112345678m99p")])
    with pytest.raises(ValueError, match="row 1"):
        mcr.fan_batch(h5, [13, 0])
    with pytest.raises(ValueError, match="seat_wind"):
        mcr.fan_batch(hands[:1], [13], seat_wind=[5])


def test_result_helpers():
    r = mcr.fan("123456789m123p55p", win_tile="5p")
    assert r.count("Pure Straight") == 1 and r.count("Seven Pairs") == 0
    with pytest.raises(ValueError, match="unknown fan"):
        r.count("Dora")
    d = r.to_dict()
    assert d["total"] == 23 and {f["name"] for f in d["fans"]} >= {"Pure Straight"}
    assert "total 23" in str(r)
    assert len(mcr.FANS) == 82 and mcr.FAN_NAMES[mcr.FLOWER_COLUMN] == "Flower Tiles"


# ---------------------------------------------------------------------------------------------
# the command line

def test_cli_fan_table_and_json(capsys):
    import json

    from mjfast import cli

    assert cli.main(["fan", "123456789m123p55p", "--win", "5p"]) == 0
    out = capsys.readouterr().out
    assert "Pure Straight" in out and "total" in out and "23" in out and "a valid win" in out
    assert cli.main(["fan", "11m99p", "--melds", "[234p]", "[555s]", "(7777z)", "--win", "9p", "--seat-wind", "S",
                     "--flowers", "2", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["total"] == 7 and data["flowers"] == 2 and data["reaches_min_fan"] is False
    assert cli.main(["fan", "123m456p789s1123z", "--win", "4z"]) == 0
    assert "not a win" in capsys.readouterr().out
    assert cli.main(["fan", "123m456p789s1111z", "--win", "1z"]) != 0
    assert "copies" in capsys.readouterr().err


def test_meld_supplier_as_pymahjonggb_offer():
    """A set's third field may be who supplied the claimed tile (PyMahjongGB's offer 1-3):
    exposed either way, and no fan depends on which."""
    import pytest

    from mjfast import mcr
    melds = [("chow", "2p"), ("pung", "5s"), ("kong", "7z", "concealed")]
    base = mcr.fan("11m99p", melds=melds, win_tile="9p")
    assert base.is_win
    for offer in (1, 2, 3):
        r = mcr.fan("11m99p", melds=[("chow", "2p", offer), ("pung", "5s", offer), melds[2]], win_tile="9p")
        assert (r.total, r.fans) == (base.total, base.fans)
    with pytest.raises(ValueError, match="supplier is 1-3"):
        mcr.fan("11m99p", melds=[("chow", "2p", 4), melds[1], melds[2]], win_tile="9p")
