"""The joker reading: ``all_joker_sets``.

True (the default, the common NMJL reading): a concealed set of three or more may be all jokers.
False (mjfast's earlier reading): each set of three or more keeps a natural tile. In both, an
exposure holds the natural tile it was called with and jokers never fill singles or pairs. The
option is a rule option (the beginner hand: hand functions, play, deal statistics, exact odds)
and a card key (the card's lines, its queries and card play).

The distances themselves are checked against the references under both readings in
test_american_hands.py, test_american_play.py (the beginner hand) and test_card_reference.py
(cards); here: the option's contract, and that ``all_joker_sets=False`` gives exactly what mjfast
gave before the default changed.
"""
from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

import mjfast
from mjfast.card import load_card, toy_card
from mjfast.hands import american_distance

KEEP_ONE = mjfast.rules.get("american", all_joker_sets=False)


# ------------------------------------------------------------------ the option

def test_rules_option_default_and_values():
    r = mjfast.rules.get("american")
    assert r.all_joker_sets is True and "all_joker_sets" in r.OPTIONS
    assert r.kernel()["all_joker_sets"] == 1 and KEEP_ONE.kernel()["all_joker_sets"] == 0
    assert "all_joker_sets" not in r.to_dict()                     # the default keeps results' JSON
    assert KEEP_ONE.to_dict()["all_joker_sets"] is False
    with pytest.raises(TypeError, match="all_joker_sets must be True or False"):
        mjfast.rules.get("american", all_joker_sets=1)
    with pytest.raises(ValueError, match="unknown rule option 'all_joker_sets'"):
        mjfast.rules.get("classical", all_joker_sets=True)


def test_card_key_default_and_values():
    assert toy_card().all_joker_sets is True
    data = toy_card().to_dict()
    assert data["all_joker_sets"] is True
    del data["all_joker_sets"]
    assert load_card(data).all_joker_sets is True                  # the default when the key is absent
    assert load_card({**data, "all_joker_sets": False}).all_joker_sets is False


def test_rules_take_the_cards_reading():
    one = load_card({**toy_card().to_dict(), "all_joker_sets": False})
    assert mjfast.rules.get("american", card=one).all_joker_sets is False         # the card brings its reading
    assert mjfast.rules.get("american", card=toy_card()).all_joker_sets is True
    assert KEEP_ONE.replace(card=toy_card()).all_joker_sets is True
    assert mjfast.rules.get("american", card=one, all_joker_sets=False).card is one
    with pytest.raises(ValueError, match="all_joker_sets=True disagrees with the card"):
        mjfast.rules.get("american", card=one, all_joker_sets=True)
    with pytest.raises(ValueError, match="all_joker_sets=False disagrees with the card"):
        mjfast.rules.get("american", card=toy_card()).replace(all_joker_sets=False)
    with pytest.raises(ValueError, match="disagrees with the card"):
        mjfast.simulate(2, rules="american", card=one, all_joker_sets=True, seed=1, progress=False)


# ------------------------------------------------------------------ what each reading allows

def test_a_concealed_set_of_jokers_only():
    hand = "1111m 2222p jjjj 33s"
    assert mjfast.is_winning(hand, rules="american") is True
    assert mjfast.is_winning(hand, rules=KEEP_ONE) is False
    assert mjfast.shanten(hand, rules=KEEP_ONE) == 0
    card_line = {"format": "mjfast-card/1", "lines": [{"id": "k", "pattern": "1111a 2222b 3333c 44a", "points": 25}]}
    default, one = load_card(card_line), load_card({**card_line, "all_joker_sets": False})
    assert default.distance("1111m 2222p jjjj 44m")[0] == 0 and default.match("1111m 2222p jjjj 44m").id == "k"
    assert one.distance("1111m 2222p jjjj 44m")[0] == 1 and one.match("1111m 2222p jjjj 44m") is None
    # a quint of jokers only (the line's suit letters still take distinct suits)
    quint = {"format": "mjfast-card/1", "lines": [{"id": "q", "pattern": "11111a 222b 3333c NN", "points": 40}]}
    assert load_card(quint).distance("jjjjj 222p 3333s 44z")[0] == 0
    assert load_card({**quint, "all_joker_sets": False}).distance("jjjjj 222p 3333s 44z")[0] == 1


def test_exposures_always_hold_a_natural_tile():
    card = toy_card()
    for reading in (True, False):
        c = load_card({**card.to_dict(), "all_joker_sets": reading})
        with pytest.raises(ValueError, match="holds 0-3 jokers"):
            c.distance("1111m 7777s 44z", exposures=[("4p", 4, 4)])
        with pytest.raises(ValueError, match="must be one kind of tile"):
            c.distance("1111m 7777s 44z", exposures=["jjjj"])
        # every exposure offered for a call holds the called (natural) tile
        for call in c.callable("111m 44p 77s 44z jjjj", "4p"):
            if call.kind != "mahjong":
                assert call.jokers < call.size
    h = np.zeros(36, int)
    h[5] = 2
    with pytest.raises(ValueError, match="holds 0-3 jokers"):
        american_distance(h, [(0, 4), (1, 0), (2, 0)])


def test_default_only_adds_places_for_jokers():
    """Distances under the default never exceed those of the other reading (it only lets jokers
    fill more places), and differ for joker-heavy hands."""
    rng = np.random.default_rng(25)
    rows = np.zeros((4000, 43), np.uint8)
    for i in range(len(rows)):
        size = int(rng.choice([13, 14]))
        rows[i, 42] = j = int(rng.integers(0, 9))
        kinds = rng.choice(34, 4, replace=False)
        left = size - j
        for k in kinds:                             # sets of four first, the rest on the last kind
            rows[i, k] = min(4, left)
            left -= rows[i, k]
        assert left == 0 and rows[i].sum() == size
    a = mjfast.shanten(rows, rules="american")
    b = mjfast.shanten(rows, rules=KEEP_ONE)
    assert (a <= b).all() and (a < b).sum() > 50


# ------------------------------------------------------------------ statistics under each reading

def test_deal_stats_and_exact_odds_under_each_reading():
    st_default = mjfast.deal_stats(20_000, rules="american", seed=3, progress=False)
    st_one = mjfast.deal_stats(20_000, rules=KEEP_ONE, seed=3, progress=False)
    assert "all_joker_sets" not in st_default.options and st_one.options["all_joker_sets"] is False
    with pytest.raises(ValueError, match="different rule sets or options"):
        st_default + st_one
    ex = {aj: mjfast.exact_deal_odds(mjfast.rules.get("american", all_joker_sets=aj), 14) for aj in (True, False)}
    assert ex[True]["complete"] > ex[False]["complete"] > 0
    assert ex[False]["options"]["all_joker_sets"] is False and "all_joker_sets" not in ex[True]["options"]
    assert sum(ex[False]["shanten"].values()) == 1 == sum(ex[True]["shanten"].values())


# ------------------------------------------------------------------ the earlier reading, bit for bit

def _canon(x):
    """A result without its options (the rules' JSON gains ``all_joker_sets: false``)."""
    if isinstance(x, np.ndarray):
        return {"dtype": str(x.dtype), "shape": list(x.shape),
                "sha": hashlib.sha256(np.ascontiguousarray(x).tobytes()).hexdigest()}
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, dict):
        return {str(k): _canon(v) for k, v in x.items() if k != "options"}
    if isinstance(x, (list, tuple)):
        return [_canon(v) for v in x]
    if isinstance(x, float) and x != x:
        return "nan"
    return x


def _digest(x) -> str:
    return hashlib.sha256(json.dumps(_canon(x), sort_keys=True, default=repr).encode()).hexdigest()[:16]


def _results(rules, card) -> dict:
    out = {}
    for name, pol in (("greedy", "greedy"), ("mixed", ["greedy", "random", "greedy", "random"])):
        out[f"simulate/{name}"] = _digest(mjfast.simulate(60, rules=rules, policies=pol, seed=11, threads=1,
                                                          progress=False).to_dict())
    out["simulate/jokers10"] = _digest(mjfast.simulate(40, rules=rules, seed=13, progress=False, jokers=10,
                                                       second_charleston=True).to_dict())
    out["replay/greedy/5"] = _digest([json.loads(line) for line in mjfast.replay(21, 5, rules=rules).to_jsonl()
                                      .splitlines()])
    out["deal_stats"] = _digest(mjfast.deal_stats(50_000, rules=rules, seed=6, progress=False).to_dict())
    for t in (13, 14):
        out[f"exact/{t}"] = _digest(mjfast.exact_deal_odds(rules, tiles=t))
    am = np.zeros((300, 43), np.uint8)
    rng = np.random.default_rng(7)
    for i in range(300):
        for t in rng.choice(152, 14, replace=False):
            am[i, 42 if t >= 144 else 34 + (t - 136) if t >= 136 else t // 4] += 1
    out["hands"] = _digest([mjfast.shanten(am, rules=rules), mjfast.is_winning(am, rules=rules)])
    d = mjfast.deal(500, rules="american", seed=3)
    rows = np.concatenate([d.hands[:, 0], d.bonus[:, 0], d.jokers[:, 0, None]], axis=1)
    out["card/distance"] = _digest(card.distance(rows, threads=1))
    out["card/simulate"] = _digest(mjfast.simulate(60, rules="american", card=card, seed=5, threads=1,
                                                   progress=False).to_dict())
    from mjfast.env import decisions
    out["env/decisions"] = _digest(decisions(2, rules=rules, policies=["greedy", "random", "greedy", "random"],
                                             seed=31, progress=False).arrays())
    return out


#: the same calls with mjfast at commit 5b69be2, before the default changed (each set kept a
#: natural tile then, and cards defaulted to all_joker_sets=False)
EARLIER = {
    "card/distance": "eaccc98806474fd7",
    "card/simulate": "541859a946f97f20",
    "deal_stats": "126bb2c91fbff804",
    "env/decisions": "e46dac796b9cbd2e",
    "exact/13": "0a7dc579b15a0752",
    "exact/14": "5010f3fce48b9c63",
    "hands": "67e806ed7012b357",
    "replay/greedy/5": "d5dda407c42cb50c",
    "simulate/greedy": "ab0d4d2d1c83ea01",
    "simulate/jokers10": "c5950a46edb115e2",
    "simulate/mixed": "aa346b5ac48ed528",
}


def test_all_joker_sets_false_gives_the_earlier_results():
    one_card = load_card({**toy_card().to_dict(), "all_joker_sets": False})
    assert _results(KEEP_ONE, one_card) == EARLIER


def test_the_default_changes_some_results():
    got = _results("american", toy_card())
    changed = sorted(k for k in EARLIER if got[k] != EARLIER[k])
    # exact odds count every hand, joker-heavy ones too; play with 10 jokers and with a card meets
    # sets of jokers only; 8-joker beginner play and dealt hands rarely do (the same here)
    assert changed == ["card/simulate", "exact/13", "exact/14", "simulate/jokers10"]
