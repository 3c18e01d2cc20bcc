"""Cards against hostile input: bounded line values (payments in C int), bounded
compiling (combinations per line and per card, ids stored once per line), parsing corners
(deep nesting, non-ASCII digits) with CardError and a place, the YAML C loader, the odds
table's message without a card, and the command line's clean errors."""
from __future__ import annotations

import json

import numpy as np
import pytest

import mjfast
from mjfast import cli
from mjfast.card import CardError, _load, _pattern, load_card, toy_card
from mjfast.card._card import TOY_CARD


def one(pattern, **kw) -> dict:
    return {"format": "mjfast-card/1", "lines": [{"id": "x1", "pattern": pattern, "points": 25, **kw}]}


def toy_with(**line_keys) -> dict:
    return dict(TOY_CARD, lines=[dict(line, **line_keys) for line in TOY_CARD["lines"]])


# ------------------------------------------------------------------------------------------ line values

def test_the_bound_is_what_the_engine_can_pay():
    # a winner takes at most 6 x the value a hand, 64 hands a game, from at most 10**6 points
    assert _load.MAX_LINE_VALUE == 5_000_000
    assert 10**6 + 64 * 6 * _load.MAX_LINE_VALUE < 2**31


@pytest.mark.parametrize("points", [2**28, 2**31, 5_000_001])
def test_points_above_the_bound_are_refused(points):
    with pytest.raises(CardError, match=r"line 'toy-1': points .* at most 5,000,000 .*overflow.*" + str(points)):
        load_card(toy_with(points=points))


@pytest.mark.parametrize("data,words", [
    ({**one("1111a 4444b 7777c NN"), "jokerless_multiplier": 10**7}, ["jokerless_multiplier", "5,000,000"]),
    ({**one("1111a 4444b 7777c NN", points=3_000_000)}, ["'x1'", "3,000,000 x 2 = 6,000,000", "5,000,000"]),
    ({**one("1111a 4444b 7777c NN", points=25), "jokerless_multiplier": 200_001},
     ["'x1'", "25 x 200,001 = 5,000,025"]),
])
def test_values_above_the_bound_are_refused(data, words):
    with pytest.raises(CardError) as info:
        load_card(data)
    for w in words:
        assert w in str(info.value), (w, str(info.value))


def test_values_at_the_bound_load():
    assert load_card(one("1111a 4444b 7777c NN", points=2_500_000)).lines[0].points == 2_500_000
    assert load_card(one("1111a 4444b 7777c NN", points=5_000_000, jokerless_bonus=False)).lines[0].points == 5_000_000
    assert load_card({**one("1111a 4444b 7777c NN", points=1), "jokerless_multiplier": 5_000_000}).jokerless_multiplier \
        == 5_000_000


def test_games_at_the_bound_keep_exact_zero_sum_scores():
    # the worst case the bound allows: 16 rounds, 10**6 start points, the discarder pays double
    card = load_card(toy_with(points=2_500_000))                       # x 2 jokerless = 5,000,000
    r = mjfast.simulate(6, rules="american", card=card, seed=1, progress=False, rounds=16, start_points=10**6,
                        discarder_pays_double=True)
    assert int(r.points.sum()) == 6 * 4 * 10**6
    assert int(r.wins.sum()) > 0 and int(np.abs(r.points).max()) > 10**7


def test_the_command_line_says_so_without_a_traceback(tmp_path, capsys):
    path = tmp_path / "big.json"
    path.write_text(json.dumps(toy_with(points=2**31)))
    assert cli.main(["simulate", "--rules", "american", "--card", str(path), "-n", "3", "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mjfast: error:") and "5,000,000" in err and "Traceback" not in err


# ------------------------------------------------------------------------------------------ compiling cost

def test_identical_alternatives_are_expanded_once():
    plain = " ".join(["F"] * 8 + [f"{r}a" for r in range(1, 7)])
    many = " ".join(["F|F|F"] * 8 + [f"{r}a|{r}a|{r}a" for r in range(1, 7)])   # 3**14 x 3 choices written out
    pl = _pattern.parse_line("x1", [many], None)
    assert pl.choices == 3                                              # one per suit of a
    a, b = load_card(one(plain)), load_card(one(many))
    assert a.variations["text"].tolist() == b.variations["text"].tolist() and len(a.variations) == 3


def test_the_count_is_the_enumeration():
    # the count of combinations, made without enumerating them, equals the combinations written out
    for pattern, vars_, want in [("1111a 4444b 7777c NN", None, 6), ("FF XXXX0a XXX0b XXX0c DDa", None, 54),
                                 ("FF XXXX0a XXX0b XXX0c DDa", {"X": [1, 2]}, 12),
                                 ("D DD Z ZZ 1111a 2b 333c", None, 6 * 3 * 3 * 4 * 4),
                                 ("XXXX0a|XXXX2a YYYY0b|XXXX1b 7777c|XXXX3c DD|ZZ", None, 11718)]:
        assert _pattern.parse_line("x1", [pattern], vars_).choices == want, pattern


def test_a_line_above_the_bound_is_refused_before_expanding():
    pattern = "XX0a YY0b XX1c YY1a Z Z D Z Z F"                          # 6 x 8 x 8 x 4 x 4 x 3 x 4 x 4 = 294,912
    with pytest.raises(CardError, match=r"line 'x1': expands to 294,912 combinations .* at most 250,000"):
        load_card(one(pattern))


def test_a_card_above_the_bound_is_refused_before_expanding():
    line = "XX0a YY0b XX1c YY1a D Z D Z Z F"                             # 221,184 combinations each
    lines = [{"id": f"big-{i}", "pattern": line, "points": 25} for i in range(3)]
    with pytest.raises(CardError, match=r"line 'big-2': .* expand to 663,552, more than the 500,000 a card"):
        load_card({"format": "mjfast-card/1", "lines": lines})


def test_line_ids_are_stored_once_per_line():
    long_id = "x" * 100_000
    card = load_card({"format": "mjfast-card/1", "lines": [
        {"id": long_id, "pattern": "1111a 4444b 7777c NN", "points": 25},
        {"id": "many", "pattern": "FF XXXX0a XXX0b XXX0c DDa", "points": 25}]})
    var = card.variations
    assert len(var) == 33 and var.nbytes < 100_000                      # not 33 x 400 kB
    assert (var["id"] == "many").sum() == 27 and (var["id"] == long_id).sum() == 6


# ------------------------------------------------------------------------------------------ parsing

def _deep(tmp_path, ext: str, depth: int = 100_000):
    nest = "[" * depth + "]" * depth
    text = {".json": '{"format": "mjfast-card/1",\n "name": ' + nest + ', "lines": []}',
            ".toml": 'format = "mjfast-card/1"\nname = ' + nest + "\n",
            ".yaml": "format: mjfast-card/1\nname: " + nest + "\n"}[ext]
    path = tmp_path / f"deep{ext}"
    path.write_text(text)
    return path


@pytest.mark.parametrize("ext,where", [(".json", "line 2, column 109"), (".toml", "line 2, column 108")])
def test_deep_nesting_is_a_card_error_with_its_place(tmp_path, ext, where):
    with pytest.raises(CardError, match=f"deep{ext}, {where}: lists or tables nested too deeply"):
        load_card(_deep(tmp_path, ext))


def test_deep_yaml_is_a_card_error_with_its_place(tmp_path, monkeypatch):
    yaml = pytest.importorskip("yaml")
    with pytest.raises(CardError, match=r"(?s)deep\.yaml: not valid YAML: .*line 2, column \d+"):
        load_card(_deep(tmp_path, ".yaml"))
    monkeypatch.delattr(yaml, "CSafeLoader", raising=False)             # the pure-Python loader recurses
    with pytest.raises(CardError, match=r"deep\.yaml, line 2, column 107: lists or tables nested too deeply"):
        load_card(_deep(tmp_path, ".yaml"))


def test_deep_values_in_a_mapping_are_shown_short():
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    for data, words in [({**one("1111a 4444b 7777c NN"), "name": deep}, "name must be text, not [[[["),
                        (one(deep), "pattern must be text"), (one("1111a 4444b 7777c NN", points=deep), "points"),
                        (one("FF XXXX0a XXX0b XXX0c DDa", vars={"X": [deep]}), "vars.X holds [[[[")]:
        with pytest.raises(CardError, match=r"line|name") as info:
            load_card(data)
        assert words in str(info.value) and len(str(info.value)) < 400


def test_deep_card_file_on_the_command_line(tmp_path, capsys):
    assert cli.main(["card", str(_deep(tmp_path, ".json")), "1111m 4444p 7777s 4z"]) == 2
    err = capsys.readouterr().err
    assert "line 2, column 109" in err and "Traceback" not in err


@pytest.mark.parametrize("pattern,column", [("XXX١a 4444b 7777c NN", 1), ("XXX²a 4444b 7777c NN", 1),
                                            ("1111a 4444b 7777c YY٣", 19), ("1111a 4444b 7777c K٠", 19)])
def test_offsets_are_ascii_digits(pattern, column):
    with pytest.raises(CardError, match=f"line 'x1', column {column}: . needs an offset digit 0-9 after it"):
        load_card(one(pattern))


# ------------------------------------------------------------------------------------------ YAML reading and odds tables without a card

def test_yaml_cards_use_the_c_loader_when_there_is_one(tmp_path, monkeypatch):
    yaml = pytest.importorskip("yaml")
    if not hasattr(yaml, "CSafeLoader"):
        pytest.skip("PyYAML without libyaml")
    used = []

    class Spy(yaml.CSafeLoader):
        def __init__(self, stream):
            used.append(type(self).__mro__[1])
            super().__init__(stream)

    monkeypatch.setattr(yaml, "CSafeLoader", Spy)
    (tmp_path / "toy.yaml").write_text(yaml.safe_dump(toy_card().to_dict()))
    card = load_card(tmp_path / "toy.yaml")
    assert used and card.ids == toy_card().ids
    monkeypatch.delattr(yaml, "CSafeLoader")                            # PyYAML without libyaml: the same card
    assert load_card(tmp_path / "toy.yaml").variations["text"].tolist() == card.variations["text"].tolist()


def test_yaml_errors_still_name_their_place(tmp_path):
    pytest.importorskip("yaml")
    (tmp_path / "bad.yaml").write_text("format: mjfast-card/1\nlines: [\n  {id: a\n")
    with pytest.raises(CardError, match=r"(?s)bad\.yaml: not valid YAML: .*line \d+, column \d+"):
        load_card(tmp_path / "bad.yaml")


def test_odds_table_without_a_card_says_how_to_give_one():
    with pytest.raises(ValueError, match=r"odds_table\('american_lines'\) needs a card.*card=.*load_card") as info:
        mjfast.odds_table("american_lines")
    assert "toy_card()" in str(info.value)
    with pytest.raises(ValueError, match="card is an option of kind 'american_lines' only, not of kind 'deal'"):
        mjfast.odds_table("deal", card=toy_card())
