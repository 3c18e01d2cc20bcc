"""Batch inputs as a numpy user expects: lists of hand texts, any leading batch
shape kept in the output, Deals, and errors that say what is accepted."""
from __future__ import annotations

import numpy as np
import pytest

import mjfast
from mjfast.hands._input import deal_counts

TEXTS = ["123m456p789s1122z", "123m456p789s11222z", "19m19p19s1234567z", "1122m3344p5566s7z", "123m456p1z [555z]",
         "123m456p789s1z [111z]", "1112345678999m"]
AMERICAN = ["1111m 2222p 333s 44z j", "1111m 2222p 3333s 4z j", "f1f2f3f4 1111m 2p jjj 55z", "1111m 2222p 333s 44z"]
RULES = [None, "classical", "basic", "mcr"]


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("fn", [mjfast.shanten, mjfast.is_winning])
def test_list_tuple_and_array_of_texts(fn, rules):
    texts = [t for t in TEXTS if fn is mjfast.shanten or "[" not in t]
    one = [fn(t, rules=rules) for t in texts]
    for batch in (texts, tuple(texts), np.array(texts), np.array(texts, dtype=object)):
        got = fn(batch, rules=rules)
        assert isinstance(got, np.ndarray) and got.shape == (len(texts),)
        assert got.tolist() == one
    assert fn(texts, rules=rules).dtype == (np.int8 if fn is mjfast.shanten else np.bool_)


@pytest.mark.parametrize("fn", [mjfast.shanten, mjfast.is_winning])
def test_american_lists_of_texts(fn):
    texts = [t for t in AMERICAN if fn is mjfast.shanten or mjfast.parse_tiles(t, max_jokers=14).n_tiles == 14]
    got = fn(texts, rules="american")
    assert got.shape == (len(texts),) and got.tolist() == [fn(t, rules="american") for t in texts]


def test_nested_lists_keep_their_shape():
    grid = [[TEXTS[0], TEXTS[1]], [TEXTS[2], TEXTS[3]], [TEXTS[4], TEXTS[6]]]
    got = mjfast.shanten(grid)
    assert got.shape == (3, 2) and got.tolist() == [[mjfast.shanten(t) for t in row] for row in grid]
    assert mjfast.shanten(np.array(grid)).tolist() == got.tolist()


def test_called_sets_in_a_batch_of_texts_count_against_four_copies():
    texts = ["123m456p789s1z [111z]", "123m456p789s1122z", "123m456p1z [555z]"]
    assert mjfast.shanten(texts).tolist() == [1, 0, 0] == [mjfast.shanten(t) for t in texts]


@pytest.mark.parametrize("rules", RULES)
def test_deal_hands_compose(rules):
    d = mjfast.deal(300, seed=4)
    sh = mjfast.shanten(d.hands, rules=rules)
    assert sh.shape == (300, 4) and sh.dtype == np.int8
    flat = mjfast.shanten(d.hands.reshape(-1, 34), rules=rules)
    assert np.array_equal(sh.reshape(-1), flat)
    assert np.array_equal(mjfast.shanten(d, rules=rules), sh)
    win = mjfast.is_winning(d.hands, rules=rules)
    assert win.shape == (300, 4) and np.array_equal(win[:, 1:], np.zeros((300, 3), bool))   # 13 tiles never win
    assert np.array_equal(mjfast.shanten(d.hands[:, 0], rules=rules), sh[:, 0])          # a (n, 34) slice


def test_american_deals_compose():
    d = mjfast.deal(200, rules="american", seed=3)
    full = deal_counts(d)
    assert full.shape == (200, 4, 43) and full.sum(axis=2)[:, 0].tolist() == [14] * 200
    sh = mjfast.shanten(d, rules="american")
    assert sh.shape == (200, 4) and np.array_equal(sh, mjfast.shanten(full, rules="american"))
    assert np.array_equal(sh.reshape(-1), mjfast.shanten(full.reshape(-1, 43), rules="american"))
    assert mjfast.is_winning(full[:, 0], rules="american").shape == (200,)
    # the standard counts alone miss the flowers and jokers: the error says what to pass
    with pytest.raises(ValueError, match=r"hand \(\d+, \d\) has \d+ tiles.*pass the Deals itself"):
        mjfast.shanten(d.hands, rules="american")


def test_any_leading_shape_and_dtype_and_packed_rows():
    d = mjfast.deal(24, seed=1)
    want = mjfast.shanten(d.hands)
    cube = d.hands.reshape(2, 3, 4, 4, 34)
    assert np.array_equal(mjfast.shanten(cube), want.reshape(2, 3, 4, 4))
    assert np.array_equal(mjfast.shanten(cube.astype(np.int64)), want.reshape(2, 3, 4, 4))
    packed = mjfast.pack(d.hands.reshape(-1, 34)).reshape(24, 4, 4)
    assert np.array_equal(mjfast.shanten(packed), want)
    assert np.array_equal(mjfast.is_winning(packed), mjfast.is_winning(d.hands))
    assert np.array_equal(mjfast.shanten(np.asfortranarray(d.hands[:, 0])), want[:, 0])   # non-contiguous
    assert mjfast.shanten(np.zeros((0, 3, 34), np.uint8)).shape == (0, 3)
    assert mjfast.shanten(d.hands.tolist()).shape == (24, 4)                              # nested lists of counts
    # one hand stays a Python scalar
    assert type(mjfast.shanten(d.hands[0, 0])) is int and type(mjfast.is_winning(TEXTS[1])) is bool


def test_one_hand_functions_map_over_a_batch():
    texts = ["123m456p789s1122z", "1112345678999m", "123m456p78s11z [555z]"]
    assert mjfast.waits(texts) == [mjfast.waits(t) for t in texts]
    assert mjfast.waits(tuple(texts), rules="mcr") == [mjfast.waits(t, rules="mcr") for t in texts]
    assert mjfast.effective_tiles(texts, visible="1z") == [mjfast.effective_tiles(t, visible="1z") for t in texts]
    d = mjfast.deal(3, seed=2)
    eff = mjfast.effective_tiles(d.hands)
    assert len(eff) == 3 and len(eff[0]) == 4 and eff[1][2] == mjfast.effective_tiles(d.hands[1, 2])
    assert mjfast.effective_tiles(d) == eff
    comp = ["111222333m789p11z", "123m456p789s11223z"]
    assert mjfast.decompose(comp) == [mjfast.decompose(t) for t in comp]
    am = ["1111m 2222p 333s 44z", "1111m 2222p 3333s 4z"]
    assert mjfast.waits(am, rules="american") == [mjfast.waits(t, rules="american") for t in am]


def test_errors_say_what_is_accepted():
    with pytest.raises(ValueError, match=r"34 counts per hand.*got shape \(2, 35\).*\(\.\.\., 34\)"):
        mjfast.shanten(np.zeros((2, 35), np.uint8))
    with pytest.raises(TypeError, match=r"got dtype float64; accepted: .*list / tuple / array of str.*\(\.\.\., 34\)"):
        mjfast.shanten(np.zeros((2, 34)))
    with pytest.raises(TypeError, match=r"packed hands .* uint32, got int64; accepted"):
        mjfast.is_winning(np.zeros((2, 3, 4), np.int64))
    with pytest.raises(ValueError, match=r"43 counts per hand.*Accepted: .*\(\.\.\., 43\)"):
        mjfast.shanten(np.zeros((3, 42), np.uint8), rules="american")
    with pytest.raises(ValueError, match=r"empty list.*shape \(0, 34\)"):
        mjfast.shanten([])
    with pytest.raises(ValueError, match="scalar"):
        mjfast.shanten(np.uint8(3))
    with pytest.raises(TypeError, match="list, tuple or array of str"):
        mjfast.shanten(["123m456p789s1122z", 3])


def test_errors_name_the_hand_by_its_index_in_the_batch():
    d = mjfast.deal(4, seed=1).hands.copy()
    d[2, 3, np.flatnonzero(d[2, 3])[0]] -= 1         # North of deal 2: 12 tiles
    bad = d.reshape(2, 2, 4, 34)
    with pytest.raises(ValueError, match=r"hands: hand \(1, 0, 3\) has 12 tiles"):
        mjfast.shanten(bad)
    with pytest.raises(ValueError, match=r"hand 1: "):
        mjfast.shanten(["123m456p789s1122z", "123m456p789s1122q"])
    with pytest.raises(ValueError, match=r"hand \(0, 1\) holds 7 copies of 1m"):
        mjfast.shanten(np.array([[mjfast.parse_hand("123m456p789s1122z")] * 2]) * np.array([1, 7])[None, :, None])
    with pytest.raises(ValueError, match=r"hands: hand 1 has 14 tiles"):
        mjfast.waits(["123m456p789s1122z", "123m456p789s11222z"])
    with pytest.raises(ValueError, match="one hand"):
        mjfast.analyze(["123m456p789s1122z"])     # analyze takes one hand
