"""American play with a card: every game replayed from its event log by a referee that keeps
each player's tiles and checks the rules with the card's own queries (mjfast.card, itself
checked against the plain-Python reference in test_card_reference.py)."""
from __future__ import annotations

import pathlib

import numpy as np
import pytest

import mjfast
from mjfast import tiles
from mjfast.card import DEAD, load_card, toy_card

CARD = toy_card()
LARGE = load_card(pathlib.Path(__file__).parents[1] / "data" / "cards" / "invented-large.json")
KIND = {tiles.american_kind_name(k): k for k in range(36)}


def _row43(h36: np.ndarray) -> np.ndarray:
    row = np.zeros(43, np.int64)
    row[:34] = h36[:34]
    row[34:34 + int(h36[34])] = 1
    row[42] = h36[35]
    return row


def _exposures(exps):
    return [(k, size, jokers) for k, size, jokers in exps]


def referee(log, rules):
    """Replay the events; assert the rules; return the number of wins checked."""
    card = rules.card
    hand = [np.zeros(36, np.int64) for _ in range(4)]
    exps: list[list] = [[] for _ in range(4)]
    visible = np.zeros(36, np.int64)
    score = [rules.start_points] * 4
    wins = 0
    last_discard = None
    dead = [False] * 4
    pending: dict = {}
    for e in log.events:
        t, s = e["type"], e.get("seat")
        if t == "hand":
            hand = [np.zeros(36, np.int64) for _ in range(4)]
            exps = [[] for _ in range(4)]
            visible[:] = 0
            dead = [False] * 4
        elif t in ("deal", "draw"):
            k = tiles.tile_index(e["tile"]) if not e["tile"].startswith(("f", "j")) else (34 if e["tile"].startswith("f") else 35)
            hand[s][k if k < 34 or k in (34, 35) else 34] += 1
        elif t in ("pass", "blind_pass"):
            if t == "pass":
                hand[s][KIND[e["tile"]]] -= 1
                assert e["tile"] != "j", "a joker was passed"
        elif t == "receive":
            hand[s][KIND[e["tile"]]] += 1
        elif t == "discard":
            k = KIND[e["tile"]]
            hand[s][k] -= 1
            visible[k] += 1
            last_discard = (s, k)
            assert not dead[s]
        elif t == "call":
            k, size, jk = KIND[e["tile"]], e["size"], e["jokers"]
            assert last_discard is not None and last_discard[1] == k
            nat = size - 1 - jk
            hand[s][k] -= nat
            hand[s][35] -= jk
            visible[k] += nat
            visible[35] += jk
            exps[s].append([k, size, jk])
            # the exposure must be a whole set of some open line (with the earlier exposures)
            h43 = _row43(hand[s] + np.eye(36, dtype=np.int64)[k] * 0)
            d = card.distance(h43, exposures=_exposures(exps[s]))
            open_ = [i for i, ln in enumerate(card.lines) if not ln.concealed]
            assert min(int(d[i]) for i in open_) < DEAD, f"call {e} fits no line"
        elif t == "joker_exchange":
            k, owner = KIND[e["tile"]], e["owner"]
            for x in exps[owner]:
                if x[0] == k and x[2] > 0:
                    x[2] -= 1
                    break
            else:
                raise AssertionError(f"exchange without a joker: {e}")
            hand[s][k] -= 1
            hand[s][35] += 1
            visible[k] += 1
            visible[35] -= 1
        elif t == "win":
            if not e["self_drawn"]:
                hand[s][last_discard[1]] += 1
                visible[last_discard[1]] -= 1
            m = card.match(_row43(hand[s]), exposures=_exposures(exps[s]))
            assert m is not None, f"win on an incomplete hand: {hand[s]} {exps[s]}"
            value = m.value * (2 if e["self_drawn"] else 1)
            pending = {"winner": s, "value": value, "discarder": e["discarder"]}
            wins += 1
        elif t == "score":
            if pending:
                w, v, dis = pending["winner"], pending["value"], pending["discarder"]
                if s == w:
                    pass
                else:
                    mult = 2 if rules.discarder_pays_double and dis == s else 1
                    assert e["delta"] == -v * mult, (e, pending)
                score[s] += e["delta"]
                if s == 3:
                    pending = {}
        elif t == "dead":
            dead[s] = True
            # every line is out of reach given what this player has not seen
            h43 = _row43(hand[s])
            vis = visible.copy()
            for k, size, jk in exps[s]:        # visible= is what lies outside the own hand and exposures
                vis[k] -= size - jk
                vis[35] -= jk
            d = card.distance(h43, exposures=_exposures(exps[s]) or None, visible=vis, jokers=rules.jokers)
            assert (d == DEAD).all(), f"dead hand with a live line: {d}"
        for p in range(4):
            assert (hand[p] >= 0).all(), f"negative count after {e}"
    return wins


@pytest.mark.parametrize("game", range(6))
def test_referee_greedy(game):
    rules = mjfast.rules.get("american", card=CARD)
    log = mjfast.replay(7, game, rules=rules)
    referee(log, rules)


@pytest.mark.parametrize("game", range(4))
def test_referee_large_card(game):
    rules = mjfast.rules.get("american", card=LARGE)
    referee(mjfast.replay(11, game, rules=rules), rules)


@pytest.mark.slow
def test_referee_many_games():
    for card, seed in ((CARD, 21), (LARGE, 22)):
        rules = mjfast.rules.get("american", card=card)
        for game in range(60):
            referee(mjfast.replay(seed, game, rules=rules), rules)


def test_referee_discarder_pays_double_and_random():
    rules = mjfast.rules.get("american", card=CARD, discarder_pays_double=True)
    n = 0
    for game in range(6):
        n += referee(mjfast.replay(9, game, rules=rules, policies=["greedy", "random", "greedy", "random"]), rules)
    assert n > 0


def test_line_statistics_add_up():
    r = mjfast.simulate(300, rules="american", card=CARD, seed=5, progress=False)
    st = r.lines
    assert int(st.wins.sum()) == int(r.wins.sum())
    assert int(st.jokerless.sum()) == int(r.jokerless_wins.sum())
    assert st.hands == r.hands
    d = r.to_dict()
    assert [x["id"] for x in d["lines"]["lines"]] == list(CARD.ids)
    # the same games on 1 and 2 threads, and in chunks, give the same counters
    r2 = mjfast.simulate(300, rules="american", card=CARD, seed=5, progress=False, threads=1, chunk_size=64)
    assert (r2.lines.sums == st.sums).all() and (r2.wins == r.wins).all()


def test_card_options_rejected_where_they_do_not_apply():
    with pytest.raises(ValueError, match="card"):
        mjfast.simulate(10, rules="classical", card=CARD, progress=False)
    beginner = mjfast.card.Card({"format": "mjfast-card/1",
                                 "lines": [{"id": "b", "pattern": "KKKK0 KKKK1 KKKK2 KK3", "points": 50}]})
    with pytest.raises(ValueError, match="beginner"):
        mjfast.simulate(10, rules="american", card=beginner, progress=False)

    class Mine(mjfast.AmericanPolicy):
        pass

    with pytest.raises(ValueError, match="built-in policies"):
        mjfast.simulate(4, rules="american", card=CARD, policies=[Mine(), "greedy", "greedy", "greedy"],
                        progress=False)


def test_without_card_results_unchanged():
    """The beginner game's JSON has no card keys (the golden hashes check the numbers)."""
    r = mjfast.simulate(20, rules="american", seed=1, progress=False)
    assert "lines" not in r.to_dict() and "card" not in r.to_dict()["options"]
    assert r.lines is None


def test_odds_table_american_lines():
    t = mjfast.odds_table("american_lines", card=CARD, samples=3000, seed=4, progress=False)
    assert t.kind == "american_lines" and len(t) == 2 * 10 * 15
    rows = [r for r in t.rows if r["seat"] == "dealer" and r["line"] == "toy-2"]
    ps = [r["p"] for r in rows]
    assert ps == sorted(ps) and ps[-1] == 1.0 and all(r["n"] == 3000 for r in rows)
    # the same deals whatever the threads, and equal to counting the deals by hand
    t1 = mjfast.odds_table("american_lines", card=CARD, samples=3000, seed=4, progress=False, threads=1)
    assert t1.rows == t.rows
    d = mjfast.deal(3000, rules="american", seed=4)
    h = np.concatenate([d.hands[:, 0], d.bonus[:, 0], d.jokers[:, 0, None]], axis=1)
    dist = CARD.distance(h)[:, CARD.line_index("toy-2")]
    assert [r["count"] for r in rows] == [int((dist <= a).sum()) for a in range(15)]


def test_odds_table_american_lines_errors():
    with pytest.raises(ValueError, match="needs a card"):
        mjfast.odds_table("american_lines", progress=False)
    with pytest.raises(ValueError, match="card"):
        mjfast.odds_table("deal", card=CARD, progress=False)
    with pytest.raises(ValueError, match="american"):
        mjfast.odds_table("american_lines", card=CARD, rules="classical", progress=False)


def test_line_stats_display_and_pandas():
    r = mjfast.simulate(40, rules="american", card=CARD, seed=6, progress=False)
    text, html = repr(r.lines), r.lines._repr_html_()
    assert "toy-10" in text and "<table" in html and "toy-10" in repr(r)
    pd = pytest.importorskip("pandas")
    df = r.lines.to_pandas()
    assert list(df.index) == list(CARD.ids) and df["wins"].dtype == "int64"
    assert df["wins"].sum() == int(r.wins.sum()) and isinstance(df, pd.DataFrame)
    assert (r.lines + r.lines).hands == 2 * r.hands


def test_cli_card(tmp_path, capsys):
    import json

    from mjfast import cli

    path = tmp_path / "toy.json"
    path.write_text(json.dumps(mjfast.card._card.TOY_CARD))
    assert cli.main(["card", str(path), "111m 444p 777s 4z jj 5z 9p", "--top", "2"]) == 0
    out = capsys.readouterr().out
    assert "toy-1" in out and "toy-4" in out and "1m 4p 7s 4z" in out
    assert cli.main(["card", str(path), "1111m", "4444p", "7777s", "44z", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["match"]["id"] == "toy-1" and data["match"]["value"] == 50 and len(data["lines"]) == 5
    assert cli.main(["card", str(path), "1111m 7777s 44z", "--exposures", "444p", "--all", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {r["id"]: r["dead"] for r in data["lines"]}["toy-1"] is True and len(data["lines"]) == 10
    assert cli.main(["card", str(tmp_path / "missing.json"), "1m"]) == 2
    assert "no such file" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "mjfast-card/1", "lines": [{"id": "x", "pattern": "1111a QQ", "points": 5}]}))
    assert cli.main(["card", str(bad), "1m"]) == 2
    assert "line 'x', column 7: unknown symbol 'Q'" in capsys.readouterr().err


def test_cli_simulate_and_odds_table_with_a_card(tmp_path, capsys):
    import json

    from mjfast import cli

    path = tmp_path / "toy.toml"
    lines = "\n".join(f'[[lines]]\nid = "{ln["id"]}"\npattern = "{ln["pattern"]}"\npoints = {ln["points"]}\n'
                      + ("concealed = true\n" if ln.get("concealed") else "")
                      + ("jokerless_bonus = false\n" if ln.get("jokerless_bonus") is False else "")
                      + (f"vars = {{ X = {ln['vars']['X']} }}\n" if ln.get("vars") else "")
                      for ln in mjfast.card._card.TOY_CARD["lines"])
    path.write_text('format = "mjfast-card/1"\nname = "toy"\n\n' + lines)
    assert cli.main(["simulate", "--rules", "american", "--card", str(path), "-n", "40", "--seed", "3",
                     "--format", "json", "--no-progress", "--discarder-pays-double"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [x["id"] for x in data["lines"]["lines"]] == list(CARD.ids)
    assert data["options"]["discarder_pays_double"] is True
    r = mjfast.simulate(40, rules="american", card=CARD, seed=3, progress=False, discarder_pays_double=True)
    def key(rows):
        return [(x["id"], x["wins"], x["jokerless_wins"], x["mean_distance_after"]["mean"]) for x in rows]
    assert key(data["lines"]["lines"]) == key(r.to_dict()["lines"]["lines"])
    assert cli.main(["simulate", "--rules", "classical", "--card", str(path), "-n", "4"]) == 2
    assert "--card does not apply to --rules classical" in capsys.readouterr().err
    assert cli.main(["odds-table", "american-lines", "--card", str(path), "-n", "500", "--seed", "2",
                     "--format", "json", "--no-progress"]) == 0
    rows = json.loads(capsys.readouterr().out)
    rows = rows["rows"] if isinstance(rows, dict) else rows
    assert len(rows) == 300 and rows[0]["line"] == "toy-1"
    assert cli.main(["odds-table", "american-lines", "-n", "10", "--seed", "1"]) == 2
    assert "needs --card" in capsys.readouterr().err
    assert cli.main(["odds-table", "deal", "--card", str(path)]) == 2
    assert "--card does not apply" in capsys.readouterr().err
