"""mjfast.analyze: the same numbers as the batch kernels and the reference; readable output; errors."""
from __future__ import annotations

import json

import numpy as np
import pytest

import mjfast
from mjfast import cli
from mjfast.analysis import analyze
from oracles import reference as _reference


def _random_hand(rng, size: int) -> np.ndarray:
    tiles = rng.permutation(136)[:size] // 4
    return np.bincount(tiles, minlength=34).astype(np.uint8)


def _random_visible(rng, hand: np.ndarray, k: int) -> np.ndarray:
    left = np.repeat(np.arange(34), 4 - hand.astype(int))
    pick = rng.permutation(left)[:k]
    return np.bincount(pick, minlength=34)


@pytest.mark.parametrize("rules", [None, "classical", "basic", "mcr"])
@pytest.mark.parametrize("size", [13, 14, 10, 11])
def test_same_numbers_as_the_batch_functions(rules, size):
    rng = np.random.default_rng(size * 7 + len(str(rules)))
    for _ in range(25):
        h = _random_hand(rng, size)
        vis = _random_visible(rng, h, int(rng.integers(0, 30)))
        a = analyze(h, visible=vis, rules=rules)
        assert a.shanten == mjfast.shanten(h, rules=rules)
        for form, s in a.shanten_by_form.items():
            assert s == mjfast.shanten(h, form=form, rules=rules)
        assert a.tiles == size and a.concealed == size
        if size % 3 == 1:
            imp = mjfast.effective_tiles(h, vis, rules=rules)
            assert (a.effective, a.effective_count) == (imp.tiles, imp.count)
            assert a.waits == (mjfast.waits(h, rules=rules) if a.shanten == 0 else [])
            assert a.discards == []
        else:
            imps = mjfast.effective_tiles(h, vis, rules=rules)
            assert [(o.discard, o.shanten, o.tiles, o.count) for o in a.discards] == \
                   [(i.discard, i.shanten, i.tiles, i.count) for i in imps]
            for o in a.discards:
                left = h.copy()
                left[mjfast.tiles.tile_index(o.discard)] -= 1
                assert o.waits == (mjfast.waits(left, rules=rules) if o.shanten == 0 else [])
            assert a.complete == (a.shanten == -1)


def test_effective_tiles_against_the_reference():
    rng = np.random.default_rng(1)
    for size in (13, 14):
        h = _random_hand(rng, size)
        vis = _random_visible(rng, h, 12)
        a = analyze(h, visible=vis, rules=None)
        rows = [(None, h)] if size == 13 else [(k, h - np.eye(34, dtype=np.uint8)[k]) for k in np.flatnonzero(h)]
        expected = []
        for d, r in rows:
            base = _reference.shanten(r, rules=None)
            seen = vis + (np.eye(34, dtype=int)[d] if d is not None else 0)
            eff = {}
            for k in range(34):
                unseen = 4 - int(r[k]) - int(seen[k])
                if unseen > 0:
                    r2 = r.copy()
                    r2[k] += 1
                    if _reference.shanten(r2, rules=None) < base:
                        eff[mjfast.tiles.tile_name(k)] = unseen
            expected.append((d, base, eff))
        if size == 13:
            assert (a.shanten, a.effective) == expected[0][1:]
        else:
            got = {o.discard: (o.shanten, o.tiles) for o in a.discards}
            for d, base, eff in expected:
                assert got[mjfast.tiles.tile_name(int(d))] == (base, eff)
            keys = [(o.shanten, -o.count) for o in a.discards]
            assert keys == sorted(keys)        # best first


def test_called_sets_and_visible_tiles():
    a = analyze("123m456p1z [555z]", visible="1z")
    assert a.tiles == 10 and a.concealed == 7 and [str(m) for m in a.melds] == ["[555z]"]
    assert a.shanten == 0 and a.waits == ["1z"] and a.effective == {"1z": 2}
    assert a.visible == {"1z": 1, "5z": 3}
    b = analyze("23m456p789s11z (1111p)")
    assert b.waits == ["1m", "4m"] and b.effective == {"1m": 4, "4m": 4}
    assert b.visible == {"1p": 4}
    c = analyze("123m456p11z [555z]")          # 3k+2 with a called set: complete
    assert c.complete and c.decompositions == [("11z", "123m", "456p")]
    assert c.best.discard in {"1m", "4p", "6p"} and c.best.shanten == 0


def test_complete_and_special_forms():
    a = analyze("1122m3344p5566s77z", rules=None)
    assert a.complete and a.shanten == -1 and a.shanten_by_form["seven_pairs"] == -1
    assert a.decompositions == []          # no standard decomposition
    b = analyze("1122m3344p5566s77z")      # classical: standard only
    assert not b.complete and b.shanten_by_form == {"standard": mjfast.shanten("1122m3344p5566s77z", form="standard")}
    c = analyze("147m258p369s12345z", rules="mcr")
    assert set(c.shanten_by_form) == set(mjfast.rules.FORMS)
    assert c.shanten_by_form["honors_knitted"] == -1 and c.complete and c.decompositions == []


def test_output_formats():
    a = analyze("123m456p789s11223z", visible="3z")
    text = str(a)
    assert "discard" in text and "3z" in text and "waits 1z 2z" in text
    d = json.loads(a.to_json())
    assert d["shanten"] == 0 and d["discards"][0]["discard"] == "3z" and d["discards"][0]["waits"] == ["1z", "2z"]
    assert d["visible"] == {"3z": 1}
    assert a.best == a.discards[0] and analyze("123m456p789s1122z").best is None


def test_bad_input_is_rejected():
    with pytest.raises(ValueError, match="only 4 exist"):
        analyze("123m456p789s1122z", visible="111z")
    with pytest.raises(ValueError, match="only 4 exist"):
        analyze("123m456p11z [555z]", visible="55z")     # 3 in the pung + 2 visible
    with pytest.raises(ValueError, match="american"):
        analyze("123m456p789s1122z", rules="american")
    with pytest.raises(ValueError, match="unknown rules"):
        analyze("123m456p789s1122z", rules="riichi")
    with pytest.raises(ValueError, match="12 tiles"):
        analyze("123m456p789s111z")
    with pytest.raises(ValueError):
        analyze("123m456p789s1122z", visible=np.zeros(33, int))
    with pytest.raises(TypeError):
        analyze("123m456p789s1122z", visible=np.zeros(34))
    with pytest.raises(ValueError, match="bonus"):
        analyze("123m456p789s1122z f1")


def test_cli_analyze(capsys):
    assert cli.main(["analyze", "123m456p789s11223z", "--visible", "3z"]) == 0
    out = capsys.readouterr().out
    assert "shanten   0" in out and "waits 1z 2z" in out
    assert cli.main(["analyze", "123m456p1z", "[555z]", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["waits"] == ["1z"] and data["melds"] == ["[555z]"]
    assert cli.main(["analyze", "123m456p789s1122z", "--visible", "111z"]) == 2
    assert "only 4 exist" in capsys.readouterr().err
    assert cli.main(["analyze", "1122m3344p5566s77z", "--rules", "none"]) == 0
    assert "complete" in capsys.readouterr().out
    assert cli.main(["analyze", "12m456p789s11z34p5z", "--draws", "6"]) == 0
    out = capsys.readouterr().out
    assert "win by turn" in out and "exact" in out
    assert cli.main(["analyze", "12m456p789s11z34p5z", "--draws", "3", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["win_by_turn"]["method"] == "exact" and len(data["win_by_turn"]["win"]) == 3


@pytest.mark.parametrize("name", ["mjfast.analysis.hand", "mjfast.analysis.winturn", "mjfast.analysis.odds",
                                  "mjfast.plot"])
def test_docstring_examples_of_the_analysis_modules(name):
    import doctest

    mod = __import__(name, fromlist=["_"])
    res = doctest.testmod(mod, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert res.failed == 0 and res.attempted > 0
