"""Advice on a real position (issue 27 item 6): mjfast.search.advise and ``mjfast advise``."""
from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np
import pytest

import _proc
import mjfast
from mjfast import tiles
from mjfast.card import toy_card
from mjfast.cli import _advise as cli_advise
from mjfast.cli import main as cli_main
from mjfast.game import play_walls
from mjfast.search import Advice, advise
from mjfast.search._advise import DEFAULT_WORLDS

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
RULES = ["classical", "basic", "mcr", "american", "american-card"]


def _log(rules: str, seed: int = 6):
    if rules == "american-card":
        return mjfast.replay(seed, 0, rules=mjfast.rules.get("american", card=toy_card()))
    return mjfast.replay(seed, 0, rules=rules)


def _discards(log) -> list:
    return [i for i, e in enumerate(log.events) if e["type"] == "discard"]


def _check_table(adv: Advice) -> None:
    assert len(adv) == len(adv.actions) == len(adv.action_ids) >= 1
    assert len(set(adv.actions)) == len(adv.actions)
    assert list(adv.points) == sorted(adv.points, reverse=True)
    for mean, lo, hi in ((adv.points, adv.points_low, adv.points_high), (adv.p_win, adv.p_win_low, adv.p_win_high),
                         (adv.p_deal_in, adv.p_deal_in_low, adv.p_deal_in_high)):
        assert np.all(np.isfinite(mean)) and np.all(lo <= mean) and np.all(mean <= hi)
    for lo, hi in ((adv.p_win_low, adv.p_win_high), (adv.p_deal_in_low, adv.p_deal_in_high)):
        assert np.all((0 <= lo) & (hi <= 1))
        assert np.all(hi > lo)                    # Wilson: never an empty interval, even at 0 or 1
    assert np.allclose(adv.points, adv.samples.mean(axis=1))
    d = adv.to_dict()
    text = json.dumps(d, allow_nan=False)        # strict JSON
    assert json.loads(text)["actions"][0]["action"] == adv.actions[0]
    assert [r["action"] for r in d["actions"]] == adv.actions
    df = adv.to_pandas()
    assert len(df) == len(adv) and df["played"].sum() == int(adv.is_played.sum())
    assert df.attrs["event"] == adv.event
    assert adv.best() == adv.actions[0]
    assert "<table" in adv._repr_html_() and adv.actions[-1] in repr(adv)


@pytest.mark.parametrize("rules", RULES)
def test_advice_on_discards_of_every_rule_set(rules):
    log = _log(rules)
    for event in _discards(log)[20:22]:
        e = log.events[event]
        adv = advise(log, event, worlds=8, seed=1, threads=1)
        _check_table(adv)
        assert adv.event == event and adv.seat == e["seat"] and adv.hand == e["hand"]
        assert adv.rules == log.header["rules"]
        want = f"discard {e['tile'] if e['tile'] not in ('f', 'j') else e['tile']}"
        assert adv.played == want and want in adv.actions
        assert adv.is_played.sum() == 1 and adv.actions[int(np.flatnonzero(adv.is_played)[0])] == want
        assert "* " + want in repr(adv)
        # a discard question offers every kind in the hand (and, on the seat's own turn, maybe a kong or a win)
        held = {f"discard {tiles.american_kind_name(k)}"
                for k in np.flatnonzero(_counts(adv.hand_tiles, rules.startswith("american")))}
        assert held == {a for a in adv.actions if a.startswith("discard ")}


def _counts(text: str, american: bool) -> np.ndarray:
    c = np.zeros(36, np.int64)
    n_f, n_j = text.count("f"), text.count("j")
    std = text.replace("f", "").replace("j", "")
    if std:
        c[:34] = mjfast.tiles.parse_hand(std, max_tiles=None)[:34]
    c[34], c[35] = n_f, n_j
    return c


def test_the_seat_hand_is_the_logged_one():
    """The rebuilt table holds the seat's hand as the log shows it: the deal and draws, less
    its discards (before any claim of the hand)."""
    log = _log("classical", seed=8)
    ev = log.events
    first_claim = next(i for i, e in enumerate(ev) if e["type"] in ("chow", "pung", "kong", "concealed_kong"))
    checked = 0
    for event in _discards(log):
        if event >= first_claim:
            break
        s = ev[event]["seat"]
        held: list = []
        for e in ev[:event]:
            if e["seat"] != s:
                continue
            if e["type"] in ("deal", "draw", "replacement"):
                held.append(e["tile"])
            elif e["type"] in ("discard", "bonus"):
                held.remove(e["tile"])
        adv = advise(log, event, worlds=1, seed=0, threads=1)
        want = tiles.format_hand(mjfast.tiles.parse_hand("".join(held), max_tiles=None)[:34])
        assert adv.hand_tiles == want
        checked += 1
    assert checked >= 4


def test_claim_window_seats_and_an_unrevealed_answer():
    log = _log("classical")
    # event 177: seat 2 pungs the 8m that seat 0 could have chowed
    assert log.events[177]["type"] == "pung" and log.events[177]["seat"] == 2
    adv = advise(log, 177, worlds=8, seed=2, threads=1)
    assert adv.seat == 2 and adv.question == "claim 8m" and adv.played == "pung 8m"
    assert set(adv.actions) >= {"pung 8m", "pass"}
    _check_table(adv)
    other = advise(log, 177, seat=0, worlds=8, seed=2, threads=1)
    assert other.seat == 0 and "chow 678m" in other.actions and "pass" in other.actions
    assert other.played is None and not other.is_played.any()      # a pung outranks the chow: unknown
    assert "does not show" in repr(other)
    _check_table(other)
    with pytest.raises(ValueError, match=r"seat 1 has no decision at event 177 .*seats 0, 2 are asked there"):
        advise(log, 177, seat=1, seed=1)


def _public(events, s):
    """The events as seat s saw them: the other seats' deals and draws without their tiles."""
    return [(e["type"], e["seat"]) if e["type"] in ("deal", "draw", "replacement") and e["seat"] != s else e
            for e in events]


@pytest.mark.parametrize("rules", ["classical", "mcr", "american"])
def test_hidden_tiles_do_not_leak(rules):
    """Two games identical in what the seat saw up to the event, different in hidden tiles (an
    opponent holds another tile, the wall holds the first): the same advice, row for row."""
    log = mjfast.replay(5, 0, rules=rules)
    ev = log.events
    event = [i for i in _discards(log) if ev[i]["hand"] == 0][12]
    s = ev[event]["seat"]
    walls = np.array(log.header["wall_ids"])
    opts = {k: v for k, v in log.header["options"].items() if k not in ("name", "tiles")}
    kw = {"dice": log.header["dice"]} if "dice" in log.header else {}
    game_a = play_walls(walls, rules=rules, **kw, **opts)
    assert _public(game_a.events[:event + 1], s) == _public(ev[:event + 1], s)
    seen = {e["id"] for e in ev[:event] if "id" in e}
    undrawn = [int(i) for i in walls[0] if int(i) not in seen and i < 136]
    game_b = None
    for o in (o for o in range(4) if o != s):
        gone = {e.get("tile") for e in ev[:event] if e["seat"] == o and e["type"] not in ("deal", "draw")}
        held = [e["id"] for e in ev[:event] if e["type"] in ("deal", "draw") and e["seat"] == o and e["id"] < 136
                and e["tile"] not in gone]
        for x in held:
            for y in undrawn[-12:]:
                if x // 4 == y // 4:
                    continue
                w2 = walls.copy()
                a, b = np.flatnonzero(w2[0] == x)[0], np.flatnonzero(w2[0] == y)[0]
                w2[0, a], w2[0, b] = y, x
                cand = play_walls(w2, rules=rules, **kw, **opts)
                if _public(cand.events[:event + 1], s) == _public(game_a.events[:event + 1], s):
                    game_b = cand
                    break
            if game_b is not None:
                break
        if game_b is not None:
            break
    assert game_b is not None
    assert game_b.events[:event] != game_a.events[:event]       # the hidden tiles differ
    a = advise(game_a, event, worlds=24, seed=3, threads=1)
    b = advise(game_b, event, worlds=24, seed=3, threads=1)
    assert a.to_dict() == b.to_dict()
    np.testing.assert_array_equal(a.samples, b.samples)


def test_threads_and_seed():
    log = _log("mcr")
    event = _discards(log)[15]
    a = advise(log, event, worlds=12, seed=7, threads=1)
    b = advise(log, event, worlds=12, seed=7, threads=2)
    assert a.to_dict() == b.to_dict()
    c = advise(log, event, worlds=12, seed=8, threads=1)
    assert not np.array_equal(a.samples, c.samples)
    assert a.seed == 7 and a.worlds == 12 and a.policies == ["greedy"] * 4


def test_log_forms(tmp_path):
    log = _log("basic")
    event = _discards(log)[3]
    want = advise(log, event, worlds=4, seed=1, threads=1).to_dict()
    path = tmp_path / "game.jsonl"
    path.write_text(log.to_jsonl())
    assert advise(log.to_jsonl(), event, worlds=4, seed=1, threads=1).to_dict() == want
    assert advise(str(path), event, worlds=4, seed=1, threads=1).to_dict() == want
    assert advise(path, event, worlds=4, seed=1, threads=1).to_dict() == want


def test_bad_input():
    log = _log("classical")
    n = len(log.events)
    with pytest.raises(ValueError, match=rf"event {n} is out of range: the log has {n:,} events"):
        advise(log, n, seed=1)
    with pytest.raises(ValueError, match="out of range"):
        advise(log, -1, seed=1)
    with pytest.raises(TypeError, match="event index"):
        advise(log, 3.0, seed=1)
    with pytest.raises(TypeError, match="event index"):
        advise(log, True, seed=1)
    first = _discards(log)[0]
    with pytest.raises(ValueError, match=rf"event 0 \(hand seat 0\) is not a decision point; decision points near "
                                         rf"it: {first}, "):
        advise(log, 0, seed=1)
    after = first + 1                   # the next seat's draw: nobody decides there
    assert log.events[after]["type"] == "draw"
    with pytest.raises(ValueError, match=rf"event {after} \(draw seat 1 .*\) is not a decision point; decision "
                                         rf"points near it: .*{first}"):
        advise(log, after, seed=1)
    with pytest.raises(ValueError, match="worlds must be at least 1"):
        advise(log, first, worlds=0, seed=1)
    with pytest.raises(ValueError, match="seats are 0-3"):
        advise(log, first, seat=4, seed=1)
    with pytest.raises(TypeError, match="seat must be"):
        advise(log, first, seat="0", seed=1)
    with pytest.raises(ValueError, match="not a built-in policy"):
        advise(log, first, worlds=2, policies="nosuch", seed=1)
    with pytest.raises(ValueError, match="not an mjfast event log"):
        advise("hello", 3, seed=1)
    header_only = log.to_jsonl().splitlines()[0]
    with pytest.raises(ValueError, match="no events"):
        advise(header_only, 0, seed=1)
    # a log whose events do not follow from its header: the replay names the difference
    lines = log.to_jsonl().splitlines()
    ev = json.loads(lines[1 + first])
    ev["tile"] = "9s" if ev["tile"] != "9s" else "1m"
    lines[1 + first] = json.dumps(ev)
    with pytest.raises(ValueError, match=r"does not match the game its header plays: event .* differs|cannot read"):
        advise("\n".join(lines), first + 4, seed=1)


def test_american_charleston_is_refused_with_the_first_decisions_after_it():
    log = _log("american")
    passes = [i for i, e in enumerate(log.events) if e["type"] == "pass"]
    first = _discards(log)[0]
    with pytest.raises(ValueError, match=rf"is in the Charleston; advice is given from the first discard on.*"
                                         rf"decision points near it: {first}, "):
        advise(log, passes[0], seed=1)


# -------------------------------------------------------------------------------------------
# the command line

def _parser():
    p = argparse.ArgumentParser(prog="mjfast")
    cli_advise.add_parser(p.add_subparsers(dest="command", required=True))
    return p


def _run(argv, capsys):
    code = cli_main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_line_default_is_advise_s():
    assert cli_advise.DEFAULT_WORLDS == DEFAULT_WORLDS


def _strict(text: str):
    def bad(token):
        raise ValueError(f"non-strict JSON token {token}")
    return json.loads(text, parse_constant=bad)


def test_cli_table_and_json(tmp_path, capsys):
    log = _log("mcr")
    path = tmp_path / "g.jsonl"
    path.write_text(log.to_jsonl())
    event = _discards(log)[10]
    code, out, err = _run(["advise", str(path), "--at", str(event), "--worlds", "8", "--seed", "3",
                           "--threads", "1"], capsys)
    assert code == 0 and err == ""
    assert out.startswith(f"Advice: rules=mcr, event {event}") and "* discard" in out
    code, out, err = _run(["advise", str(path), "--at", str(event), "--worlds", "8", "--seed", "3",
                           "--format", "json"], capsys)
    assert code == 0
    data = _strict(out)
    assert data == json.loads(json.dumps(advise(log, event, worlds=8, seed=3).to_dict()))
    assert sum(r["played"] for r in data["actions"]) == 1
    code, out, err = _run(["advise", str(path), "--at", str(event), "--worlds", "2", "--format", "json"], capsys)
    assert code == 0 and "no --seed given; using --seed" in err
    seed = int(err.split("using --seed ")[1].split()[0])
    assert _strict(out)["seed"] == seed


def test_cli_errors(tmp_path, capsys):
    log = _log("classical")
    path = tmp_path / "g.jsonl"
    path.write_text(log.to_jsonl())
    code, out, err = _run(["advise", str(path), "--at", "0", "--seed", "1"], capsys)
    assert code == 2 and out == ""
    assert err.startswith("mjfast: error: --at 0: event 0 (hand seat 0) is not a decision point; decision points")
    code, out, err = _run(["advise", str(tmp_path / "nope.jsonl"), "--at", "5"], capsys)
    assert code == 2 and "no such file" in err
    code, out, err = _run(["advise", str(path), "--at", "177", "--seat", "1", "--seed", "1"], capsys)
    assert code == 2 and "seat 1 has no decision at event 177" in err
    (tmp_path / "bad.jsonl").write_text("not a log\n")
    code, out, err = _run(["advise", str(tmp_path / "bad.jsonl"), "--at", "5"], capsys)
    assert code == 2 and "not an mjfast event log" in err
    with pytest.raises(SystemExit):
        _parser().parse_args(["advise", str(path), "--at", "5", "--worlds", "0"])
    with pytest.raises(SystemExit):
        _parser().parse_args(["advise", str(path), "--at", "5", "--seat", "4"])
    with pytest.raises(SystemExit):
        _parser().parse_args(["advise", str(path)])          # --at is required


def test_cli_in_a_process(tmp_path):
    log = _log("american")
    path = tmp_path / "g.jsonl"
    path.write_text(log.to_jsonl())
    event = _discards(log)[5]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (SRC, env.get("PYTHONPATH")) if p)
    out = _proc.run([sys.executable, "-m", "mjfast", "advise", str(path), "--at", str(event),
                     "--worlds", "4", "--seed", "1", "--format", "json"], capture_output=True, text=True,
                    timeout=240, env=env)
    assert out.returncode == 0, out.stderr
    data = _strict(out.stdout)
    assert data["event"] == event and data["rules"] == "american" and data["played"].startswith("discard ")
    bad = _proc.run([sys.executable, "-m", "mjfast", "advise", str(path), "--at", "999999"],
                    capture_output=True, text=True, timeout=240, env=env)
    assert bad.returncode == 2 and "out of range" in bad.stderr and bad.stdout == ""


def test_the_search_page_runs_and_is_listed():
    import doctest
    import pathlib

    docs = pathlib.Path(__file__).resolve().parents[2] / "docs"
    res = doctest.testfile(str(docs / "search.md"), module_relative=False)
    assert res.failed == 0 and res.attempted >= 15
    assert "\nLook-ahead <search>\n" in (docs / "index.md").read_text()
    assert "\nadvice\n" in (docs / "tutorials" / "index.md").read_text()
