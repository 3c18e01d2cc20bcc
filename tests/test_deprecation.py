"""The deprecated aliases (msprime's tests/test_deprecation.py pattern): each earlier name still
works, warns with a DeprecationWarning that names its replacement, and gives exactly what the
replacement gives. They live in one labelled block of mjfast/__init__.py; nothing inside the
package uses them (tests/test_public_api.py scans the source)."""
from __future__ import annotations

import pytest

import mjfast
from mjfast import rules


class TestGameRules:
    def test_warns_and_forwards(self):
        with pytest.warns(DeprecationWarning, match=r"mjfast\.game_rules is deprecated; use mjfast\.rules\.get"):
            r = mjfast.game_rules("classical", payment="discarder", rounds=2)
        assert r == rules.get("classical", payment="discarder", rounds=2)

    def test_default_is_classical(self):
        with pytest.warns(DeprecationWarning):
            assert mjfast.game_rules() == rules.get("classical")

    def test_errors_are_the_constructors(self):
        with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="unknown rule option 'flowers'"):
            mjfast.game_rules("american", flowers=True)


class TestAmericanRules:
    def test_warns_and_forwards(self):
        with pytest.warns(DeprecationWarning, match=r"mjfast\.american_rules is deprecated; use mjfast\.rules\.get"):
            r = mjfast.american_rules(jokers=10, second_charleston=False)
        assert r == rules.get("american", jokers=10, second_charleston=False)

    def test_hands_per_game_and_base(self):
        with pytest.warns(DeprecationWarning):
            assert mjfast.american_rules(hands_per_game=8).rounds == 2
        base = rules.get("american", jokers=10)
        with pytest.warns(DeprecationWarning):
            assert mjfast.american_rules(base, courtesy=False) == rules.get(base, courtesy=False)

    def test_base_must_be_american(self):
        with pytest.warns(DeprecationWarning), pytest.raises(TypeError, match="base must be an AmericanRules"):
            mjfast.american_rules(rules.get("classical"))


class TestGameRulesClass:
    def test_warns_and_is_the_chinese_rule_set_class(self):
        with pytest.warns(DeprecationWarning, match=r"mjfast\.GameRules is deprecated; use mjfast\.rules\.ChineseRules"):
            cls = mjfast.GameRules
        assert cls is rules.ChineseRules

    def test_warns_on_every_use(self):
        """Not kept as a plain attribute after the first read: the second read warns too."""
        for _ in range(2):
            with pytest.warns(DeprecationWarning):
                mjfast.GameRules  # noqa: B018

    def test_from_import_warns(self):
        with pytest.warns(DeprecationWarning):
            from mjfast import GameRules
        assert GameRules is rules.ChineseRules


def test_the_aliases_are_not_public_names():
    """Not in __all__ (a star import never warns) and not in any subpackage."""
    for name in ("game_rules", "american_rules", "GameRules"):
        assert name not in mjfast.__all__
        assert not hasattr(mjfast.game, name) and not hasattr(mjfast.rules, name)


@pytest.mark.parametrize("module", ["sim", "amsim", "odds", "winturn"])
def test_the_compatibility_modules_are_gone(module):
    """Their names have one home each now: mjfast.game, mjfast.hands, mjfast.analysis.odds,
    mjfast.analysis.winturn (and mjfast.plot is the plotting module itself)."""
    with pytest.raises(ModuleNotFoundError):
        __import__(f"mjfast.{module}")
    with pytest.raises(AttributeError):
        getattr(mjfast, module)
