"""mjfast.rules: rule sets as data, accepted by every function that takes rules=."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import mjfast
from mjfast import rules as R


def test_names_and_presets():
    assert R.names() == ("classical", "basic", "mcr", "mcr-botzone", "american")
    for name in R.names():
        r = R.get(name)
        assert r.name == name and r is R.get(name)           # presets are shared values
        assert hash(r) == hash(R.get(name)) and repr(r).startswith(f"{type(r).__name__}(name={name!r}, ")
        assert all(f"{k}=" in repr(r) for k in type(r).OPTIONS)
        with pytest.raises(dataclasses.FrozenInstanceError):
            r.name = "x"
    assert R.get("classical").forms == ("standard",) and R.get("mcr").forms == R.FORMS
    assert R.get("mcr").kong_two_pairs and not R.get("classical").kong_two_pairs
    assert R.get("american").forms == ("beginner",) and R.get("american").hand_model == "american"
    assert R.get("classical").n_tiles == 136 and R.get("mcr").n_tiles == 144 and R.get("american").n_tiles == 152
    assert {R.get(n).family for n in R.names()} == {"chinese", "american"}


def test_options_and_errors_name_the_valid_values():
    r = R.get("classical", flowers=True, special_forms=("seven_pairs",), rounds=2)
    assert r.n_tiles == 144 and r.forms == ("standard", "seven_pairs") and r.hands_per_game == 8
    assert r.replace(rounds=1) == R.get("classical", flowers=True, special_forms=("seven_pairs",))
    assert R.get(r) is r and R.get(r, payment="discarder").payment == "discarder"
    with pytest.raises(ValueError, match=r"unknown rules 'riichi'; choose one of \('classical', 'basic', 'mcr', 'mcr-botzone', 'american'\)"):
        R.get("riichi")
    with pytest.raises(ValueError, match=r"unknown rule option 'flower'; options are \['added_kong', .*'flowers'"):
        R.get("classical", flower=True)
    with pytest.raises(ValueError, match="unknown rule option 'flowers' for rules='american'"):
        R.get("american", flowers=True)
    with pytest.raises(TypeError, match="rules must be a str or a mjfast.rules.RuleSet"):
        R.get(3)
    with pytest.raises(ValueError, match="always allows its special forms"):
        R.get("mcr", special_forms=())
    assert R.get("mcr", flowers=False).n_tiles == 136          # Chinese Official: flowers an option
    for opt, bad in (("base_points", 0), ("rounds", 17), ("dead_wall", 41), ("payment", "all"), ("added_kong", "x")):
        with pytest.raises(ValueError, match=opt):
            R.get("classical", **{opt: bad})
    assert set(R.ChineseRules.OPTIONS) == set(R.get("mcr-botzone").to_dict()) - {"name", "tiles"}
    assert set(R.ChineseRules.OPTIONS) - {"quan"} == set(R.get("mcr").to_dict()) - {"name", "tiles"}
    assert set(R.ChineseRules.OPTIONS) - set(R.ChineseRules.MCR_ONLY) - {"quan"} == set(R.get("basic").to_dict()) - {"name", "tiles"}


def test_fan_options_belong_to_mcr():
    m = R.get("mcr")
    assert (m.scoring, m.min_fan, m.false_win) == ("fan", 8, "penalty")
    assert m.kernel()["fan_scoring"] == 1 and m.kernel()["min_fan"] == 8
    old = R.get("mcr", scoring="basic", min_fan=0)
    assert old.kernel()["fan_scoring"] == 0 and not old.uses_fans and old.base_points == 20
    assert R.get("mcr", scoring="basic", base_points=8).base_points == 8
    for opt, val in (("min_fan", 8), ("scoring", "fan"), ("false_win", "error")):
        with pytest.raises(ValueError, match=rf"{opt} applies to rules='mcr'"):
            R.get("classical", **{opt: val})
    with pytest.raises(ValueError, match="base_points applies to scoring='basic'"):
        R.get("mcr", base_points=10)
    with pytest.raises(ValueError, match="payment applies to scoring='basic'"):
        R.get("mcr", payment="discarder")
    for opt, bad in (("min_fan", -1), ("min_fan", 89), ("scoring", "flat"), ("false_win", "ignore")):
        with pytest.raises(ValueError, match=opt):
            R.get("mcr", **{opt: bad})
    assert all(o.doc for cls in (R.ChineseRules, R.AmericanRules) for o in cls.OPTIONS.values())


def test_jokers_in_play_and_in_tile_sets():
    """Play takes 0-10 jokers (the sets sold hold 8 or 10); deal statistics and exact odds
    take tile sets of up to 16 through their own jokers argument."""
    assert R.MAX_PLAY_JOKERS == 10 and R.TileSet.MAX_JOKERS == 16
    with pytest.raises(ValueError, match="jokers must be an int from 0 to 10"):
        R.get("american", jokers=11)
    assert mjfast.deal(2, rules="american", jokers=16, seed=1).options["tiles"] == 160
    assert mjfast.exact_deal_odds("american", 14, jokers=16)["options"]["jokers"] == 16


def test_the_top_level_rule_set_class_is_the_rules_one():
    """(The deprecated aliases game_rules, american_rules and GameRules: tests/test_deprecation.py.)"""
    assert mjfast.AmericanRules is R.AmericanRules
    assert isinstance(R.get("mcr"), R.ChineseRules)


def test_every_rules_argument_takes_a_rule_set():
    """A RuleSet works wherever a name does, with the same answers; a RuleSet with other
    options carries them (classical with seven pairs wins on seven pairs)."""
    hand = "1122m3344p5566s77z"
    for name in ("classical", "mcr"):
        r = R.get(name)
        assert mjfast.shanten(hand, rules=r) == mjfast.shanten(hand, rules=name)
        assert mjfast.is_winning(hand, rules=r) == mjfast.is_winning(hand, rules=name)
        assert mjfast.waits("1122m3344p5566s7z", rules=r) == mjfast.waits("1122m3344p5566s7z", rules=name)
        assert repr(mjfast.effective_tiles("123m456p789s1122z", rules=r)) == \
            repr(mjfast.effective_tiles("123m456p789s1122z", rules=name))
        a, b = mjfast.analyze("123m456p789s1122z", rules=r), mjfast.analyze("123m456p789s1122z", rules=name)
        assert a.to_dict() == b.to_dict()
        assert mjfast.exact_deal_odds(r, 5) == mjfast.exact_deal_odds(name, 5)
        assert np.array_equal(mjfast.deal(5, rules=r, seed=2).hands, mjfast.deal(5, rules=name, seed=2).hands)
        assert mjfast.deal_stats(500, rules=r, seed=2, progress=False).to_dict() == \
            mjfast.deal_stats(500, rules=name, seed=2, progress=False).to_dict()
        assert mjfast.simulate(20, rules=r, seed=2, progress=False).to_dict() == \
            mjfast.simulate(20, rules=name, seed=2, progress=False).to_dict()
        assert mjfast.replay(2, 1, rules=r).events == mjfast.replay(2, 1, rules=name).events
        w = mjfast.win_by_turn("123m456p789s1123z", draws=4, rules=r, method="exact", progress=False)
        assert w.to_dict() == mjfast.win_by_turn("123m456p789s1123z", draws=4, rules=name, method="exact",
                                                 progress=False).to_dict()
    am = R.get("american")
    assert mjfast.shanten("1111m 2222p 333s 44z j", rules=am) == -1
    assert mjfast.simulate(5, rules=am, seed=1, progress=False).hands == 20
    seven = R.get("classical", special_forms=("seven_pairs",))
    assert not mjfast.is_winning(hand, rules="classical") and mjfast.is_winning(hand, rules=seven)
    assert mjfast.shanten("1122m3344p5566s7z", rules=seven) == 0
    assert list(mjfast.exact_deal_odds_table(seven, 14)) == ["standard", "seven_pairs", "all"]
    assert mjfast.deal_stats(200, rules=seven, seed=3, progress=False).forms == ("standard", "seven_pairs")
    with pytest.raises(ValueError, match="not supported by hand analysis"):
        mjfast.analyze("1111m 2222p 333s 44z j", rules=am)
