"""mjfast.botzone: tile names, Botzone logs read and written, hands judged again on the engine,
mjfast as a Botzone bot (Bot, python -m mjfast.botzone) and Botzone bots as seats (Program)."""
from __future__ import annotations

import io
import json
import os
import pathlib
import re
import sys
import time

import numpy as np
import pytest

import _proc
import mjfast
from mjfast import botzone
from mjfast.botzone import LogError, Program, read_logs, write_logs
from mjfast.botzone._bot import Bot
from mjfast.game.policy import IllegalActionError

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "botzone"
HANDS = DATA / "hands.txt"
SRC = str(pathlib.Path(mjfast.__file__).resolve().parents[1])


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (SRC, env.get("PYTHONPATH")) if p)
    return env


def _hands(text: str) -> list:
    return list(read_logs(io.StringIO(text), progress=False))


# ------------------------------------------------------------------ tile names

def test_tile_names_round_trip_and_the_dragons_run_the_other_way():
    assert len(botzone.TILES) == 42
    for b, m in botzone.TILES.items():
        assert botzone.to_botzone(m) == b and botzone.from_botzone(b) == m
    assert (botzone.from_botzone("J1"), botzone.from_botzone("J2"), botzone.from_botzone("J3")) == ("7z", "6z", "5z")
    assert botzone.to_botzone(0) == "W1" and botzone.to_botzone(9) == "B1" and botzone.to_botzone(18) == "T1"
    for bad, exc in ((34, ValueError), (True, TypeError), ("8z", ValueError), (1.0, TypeError)):
        with pytest.raises(exc):
            botzone.to_botzone(bad)
    with pytest.raises(ValueError, match="not a Botzone tile"):
        botzone.from_botzone("J4")


# ------------------------------------------------------------------ the text format

def test_hands_written_by_hand_read_and_judged_again():
    hands = list(read_logs(HANDS, progress=False))
    assert [h.match for h in hands] == ["hand-1", "hand-2", "hand-3"]
    assert [h.quan for h in hands] == [0, 1, 0]
    assert [h.winner for h in hands] == [0, 1, 0]
    assert [h.fan for h in hands] == [23, 12, 17]
    assert hands[0].line == 1 and hands[1].line == 20
    # a self-drawn win: the Hu line shows the last discard, the winning tile is the draw before it
    assert hands[0].actions[-1] == botzone.Action("Hu", 0, "T5", 16)
    # a chow names its middle tile; the claimed tile is the discard before it
    assert ("Chi", 1, "W2") in [(a.kind, a.player, a.tile) for a in hands[1].actions]
    for h in hands:
        j = botzone.judge(h)
        assert j.differences == [] and j.agrees
        assert (j.winner, j.fan, sorted(j.fans), j.scores) == (h.winner, h.fan, sorted(h.fans), h.scores)
    # the South prevalent wind has no mcr game log of its own; the East hands do
    assert botzone.judge(hands[1]).log is None
    log = botzone.to_gamelog(hands[0])
    assert log.header["botzone"] == {"match": "hand-1", "quan": 0, "line": 1}
    assert sum(e["delta"] for e in log.events if e["type"] == "score") == 0
    with pytest.raises(ValueError, match="prevalent wind is South"):
        botzone.to_gamelog(hands[1])


def test_the_json_match_log_reads_as_its_text_hand():
    (j,) = list(read_logs(DATA / "hand2.json", progress=False))
    t = list(read_logs(HANDS, progress=False))[1]
    assert j.quan == t.quan == 1
    assert j.deals == t.deals
    assert [(a.kind, a.player, a.tile) for a in j.actions] == [(a.kind, a.player, a.tile) for a in t.actions]
    assert (j.result, j.fan, sorted(j.fans), j.scores) == (t.result, t.fan, sorted(t.fans), t.scores)
    assert botzone.judge(j).agrees
    # several matches: one a line, or in a list
    one = json.dumps(json.loads((DATA / "hand2.json").read_text()))
    assert len(_hands(one + "\n" + one + "\n")) == 2
    assert len(_hands("[" + one + ",\n" + one + "]")) == 2


def test_a_disagreement_names_the_line():
    text = HANDS.read_text().split("\n\n")[0]
    wrong_score = text.replace("Score 93 -31 -31 -31", "Score 90 -30 -30 -30")
    (d,) = botzone.judge(_hands(wrong_score)[0]).differences
    assert "the Score line" in d and "[93, -31, -31, -31]" in d
    wrong_fan = text.replace("Fan 23 清龙*1+不求人*1+平和*1+单钓将*1", "Fan 24 清龙*1+不求人*1+平和*1+单钓将*1+自摸*1")
    diffs = botzone.judge(_hands(wrong_fan)[0]).differences
    assert any("24 fan" in d for d in diffs) and any("自摸*1->0" in d for d in diffs)
    # a claimed winner whose hand does not win
    lines = text.split("\n")
    fake = "\n".join(lines[:14] + ["Player 0 Hu W9", "Fan 8 无番和*1", "Score 24 -8 -8 -8"])   # waits on T5, not W9
    j = botzone.judge(_hands(fake)[0])
    assert j.winner is None and j.scores == [-30, 10, 10, 10]      # the judge's WH
    d = j.differences
    assert "line 15" in d[0] and "nobody" in d[0] and "the Score line" in d[1]


@pytest.mark.parametrize("line_no, new, message", [
    (1, "Mtch hand-1", "starts with 'Match"),
    (2, "Wind 4", "Wind <0-3>"),
    (3, "Player 0 Deal W1 W2", "13 tiles"),
    (4, "Player 1 Deal B1 B1 B5 B6 B7 T1 T2 T3 F2 F2 J1 J1 X5", "'X5' is not a Botzone tile"),
    (7, "Player 0 Fly F1", "not an action"),
    (8, "Player 0 Peng F1", "does not follow a discard"),
    (17, "Fan x 清龙*1", "not an integer"),
    (17, "Fan 23 清龙", "is not '<fan name>*<count>'"),
    (18, "Score 93 -31 -31", "four integers"),
    (16, "Player 0 Hu W9 Ignore Player 2", "each Ignore part"),
])
def test_malformed_lines_are_refused_with_their_number(line_no, new, message):
    lines = HANDS.read_text().split("\n")
    lines[line_no - 1] = new
    with pytest.raises(LogError, match=f"line {line_no}: .*{re.escape(message)}"):
        _hands("\n".join(lines))


def test_malformed_json_is_refused_with_its_line():
    one = json.dumps(json.loads((DATA / "hand2.json").read_text()))
    with pytest.raises(LogError, match="line 2: not JSON"):
        _hands(one + '\n{"logs": [}\n')
    with pytest.raises(LogError, match="line 1 .*'logs' list"):
        _hands('{"log": []}\n')
    with pytest.raises(LogError, match="no DEAL"):
        _hands('{"logs": []}\n')
    with pytest.raises(ValueError, match="format must be"):
        next(read_logs(io.StringIO(""), format="xml"))
    with pytest.raises(TypeError, match="path or a file object"):
        next(read_logs(42))


def test_a_large_file_streams(tmp_path):
    block = HANDS.read_text().rstrip("\n") + "\n\n"
    path = tmp_path / "many.txt"
    path.write_text(block * 3000)                 # 9000 hands, about 5 MB
    size = path.stat().st_size
    with open(path, "rb") as fh:
        it = read_logs(fh, progress=False)
        first = next(it)
        assert first.match == "hand-1"
        assert fh.tell() < size // 50             # only the first hand's lines (and a read buffer) were read
        assert sum(1 for _ in it) == 8999


# ------------------------------------------------------------------ mjfast games in the text format

@pytest.mark.parametrize("flowers", [False, True])
def test_mjfast_games_written_read_and_judged_again(flowers):
    logs = [mjfast.replay(g, 5, rules="mcr", flowers=flowers) for g in range(3)]
    buf = io.StringIO()
    n = write_logs(logs, buf)
    hands = _hands(buf.getvalue())
    assert n == len(hands) == 12                  # mjfast's built-in bots make no false wins
    assert ("BuHua" in buf.getvalue()) == flowers
    wins = [(h.winner, h.fan) for h in hands]
    want = []
    for log in logs:
        for hand_no in range(4):
            ev = [e for e in log.events if e["hand"] == hand_no]
            dealer = next(e["dealer"] for e in ev if e["type"] == "hand")
            win = [e for e in ev if e["type"] == "win"]
            fan = sum(mjfast.mcr.FANS[next(i for i, f in enumerate(mjfast.mcr.FANS) if f[0] == e["fan"])][2]
                      * e["count"] for e in ev if e["type"] == "fan")
            want.append(((win[0]["seat"] - dealer) & 3, fan) if win else (None, None))
    assert wins == want
    judged = 0
    for h in hands:
        if botzone.unsupported(h):
            continue
        j = botzone.judge(h)
        judged += 1
        if not j.agrees:
            # the one known difference: the judge's Last Tile is the end of the next player's own
            # wall (four walls of 34 or 36 tiles), mjfast's the end of its one wall
            diff = {n for n in set(dict(j.fans)) ^ set(dict(h.fans))}
            assert diff <= {"海底捞月", "妙手回春"} and diff, j.differences
    assert judged >= 8
    # the Hand records themselves write back to the same text
    buf2 = io.StringIO()
    write_logs(hands, buf2)
    assert buf2.getvalue() == buf.getvalue()


def test_write_logs_refuses_other_rules():
    with pytest.raises(ValueError, match="Chinese Official"):
        write_logs(mjfast.replay(0, 1, rules="classical"), io.StringIO())
    with pytest.raises(TypeError):
        write_logs([1], io.StringIO())


# ------------------------------------------------------------------ mjfast as a Botzone bot

DEAL0 = "1 0 0 0 0 W1 W2 W3 W5 W7 B2 B4 B6 T1 T3 T9 F1 J2"


class _DrawnDiscarder(mjfast.Policy):
    """Discards the tile it has just drawn (view.drawn)."""

    name = "drawn"

    def discard(self, view):
        return view.drawn

    def claim(self, view, tile, options):
        return None


def test_the_dealers_first_tile_is_its_drawn_tile():
    """On Botzone the dealer's 14th tile is a draw (mjfast deals it): the policy sees it drawn."""
    bot = Bot(_DrawnDiscarder())
    assert bot.respond(["0 0 0", DEAL0, "2 J3"], ["PASS", "PASS"]) == "PLAY J3"
    assert bot.respond(["0 0 0", DEAL0, "2 W9"], ["PASS", "PASS"]) == "PLAY W9"


def test_the_bot_answers_requests():
    bot = Bot("greedy")
    assert bot.respond(["0 1 2"], []) == "PASS"
    assert bot.respond(["0 1 2", DEAL0], ["PASS"]) == "PASS"
    assert bot.respond(["0 1 2", DEAL0, "3 0 DRAW"], ["PASS", "PASS"]) == "PASS"
    greedy = bot.respond(["0 0 0", DEAL0, "2 J3"], ["PASS", "PASS"])
    assert greedy.startswith("PLAY ") and greedy[5:] in DEAL0.split()[5:] + ["J3"]
    # a pair of W1 in hand and player 0 discards W1: greedy may pung; its answer is one the judge takes
    deal = "1 0 0 0 0 W1 W1 W9 B1 B5 B9 T1 T5 T9 F1 F2 F3 J1"
    ans = bot.respond(["0 1 0", deal, "3 0 DRAW", "3 0 PLAY W1"], ["PASS", "PASS", "PASS"])
    assert ans == "PASS" or (ans.startswith("PENG ") and ans.split()[1] in deal.split()[5:])
    with pytest.raises(ValueError, match="not a Botzone tile"):
        bot.respond(["0 0 0", "1 0 0 0 0 W1 W2 W3 W5 W7 B2 B4 B6 T1 T3 T9 F1 X9", "2 J3"], ["PASS", "PASS"])
    with pytest.raises(ValueError, match="responses"):
        bot.respond(["0 0 0", DEAL0, "2 J3"], ["PASS"])


def test_python_m_mjfast_botzone_in_every_input_form():
    cmd = [sys.executable, "-m", "mjfast.botzone", "--policy", "greedy"]
    simple = "3\n0 1 0\nPASS\n" + DEAL0 + "\nPASS\n3 0 DRAW\n"
    out = _proc.run(cmd + ["--no-keep-running"], input=simple, capture_output=True, text=True, timeout=120,
                    env=_env())
    assert out.returncode == 0, out.stderr
    assert out.stdout == "PASS\n"
    js = json.dumps({"requests": ["0 1 0", DEAL0, "3 0 DRAW"], "responses": ["PASS", "PASS"]}) + "\n"
    out = _proc.run(cmd + ["--no-keep-running"], input=js, capture_output=True, text=True, timeout=120, env=_env())
    assert json.loads(out.stdout) == {"response": "PASS"}
    # keep-running: the first turn in full, then one request a line, the marker after each answer
    out = _proc.run(cmd, input="1\n0 1 0\n" + DEAL0 + "\n3 0 DRAW\n", capture_output=True, text=True,
                    timeout=120, env=_env())
    marker = "\n\n>>>BOTZONE_REQUEST_KEEP_RUNNING<<<\n"
    assert out.returncode == 0 and out.stdout == ("PASS" + marker) * 3
    bad = _proc.run(cmd + ["--no-keep-running"], input="1\n0 7 0\n", capture_output=True, text=True, timeout=120,
                    env=_env())
    assert bad.returncode == 1 and "not a player id" in bad.stderr
    nopol = _proc.run([sys.executable, "-m", "mjfast.botzone", "--policy", "nosuch"], input="", capture_output=True,
                      text=True, timeout=120, env=_env())
    assert nopol.returncode == 2 and "MODULE:CLASS" in nopol.stderr


# ------------------------------------------------------------------ Botzone bots as seats

def _sim(policies, **kw):
    return mjfast.simulate(1, rules="mcr", policies=policies, seed=3, progress=False, **kw)


def _all_children() -> list:
    psutil = pytest.importorskip("psutil")
    return [p for p in psutil.Process().children(recursive=True) if p.status() != psutil.STATUS_ZOMBIE]


_STARTED = [0.0]     # when the current test started (children from before it belong to other tests)


@pytest.fixture(autouse=True)
def _test_start():
    _STARTED[0] = time.time() - 0.5
    yield


def _children() -> list:
    """The children started during this test (the bots' processes), not any an earlier test left."""
    return [p for p in _all_children() if p.create_time() >= _STARTED[0]]


@pytest.mark.slow   # (the default run stays under ten minutes; .ci/run runs the slow tier)
def test_mjfast_bot_through_program_plays_as_the_policy_itself():
    """mjfast's Botzone bot, run through Program (keep-running, then JSON input), plays exactly
    as the built-in policy at the table does."""
    want = _sim(["greedy"] * 4)
    for io_mode in ("simple", "json"):
        with Program([sys.executable, "-m", "mjfast.botzone", "--policy", "greedy"], io=io_mode,
                     env=_env()) as bot:
            got = _sim([bot, "greedy", bot, "greedy"])
            assert bot.violations == []
        assert np.array_equal(got.points, want.points), io_mode
        assert np.array_equal(got.wins, want.wins)
    assert _children() == []


@pytest.mark.slow   # (the default run stays under ten minutes; .ci/run runs the slow tier)
def test_simple_and_keep_running_bots_agree():
    runs = []
    for argv, keep in ((["tsumogiri.py"], False), (["tsumogiri_keep.py"], True)):
        with Program([sys.executable, str(DATA / argv[0])], keep_running=keep) as bot:
            runs.append(_sim([bot, "greedy", "greedy", "greedy"]).points)
    assert all(np.array_equal(r, runs[0]) for r in runs)
    # keep_running=True with a bot that exits after each turn is an error
    with Program([sys.executable, str(DATA / "tsumogiri.py")], keep_running=True) as bot:
        with pytest.raises(botzone.BotFailure, match="left keep-running mode"):
            _sim([bot, "greedy", "greedy", "greedy"])
    assert _children() == []


@pytest.mark.parametrize("mode, error, match, verdict", [
    ("crash", botzone.BotFailure, "exited with status 3.*crashing on purpose", "RE"),
    ("sleep", botzone.BotFailure, "no complete response within 1 s", "TLE"),
    ("silent", botzone.BotFailure, "printed no response", "NR"),
    ("garbage", botzone.BotFailure, "not UTF-8", "RE"),
    ("claim", IllegalActionError, "response 'PENG W1'.*WA", "WA"),
    ("lower", IllegalActionError, "response '(pass|play [A-Z][1-9])'.*WA", "WA"),
])
def test_a_misbehaving_bot_is_named(mode, error, match, verdict):
    with Program([sys.executable, str(DATA / "misbehave.py"), mode, "4"], keep_running=False, timeout=1) as bot:
        with pytest.raises(error, match=match) as info:
            _sim(["greedy", bot, "greedy", "greedy"])
        msg = str(info.value)
        assert "seat 1" in msg and "request '" in msg
        if error is botzone.BotFailure:
            assert info.value.seat == 1 and info.value.verdict == verdict
        else:
            assert bot.violations[-1].verdict == verdict and bot.violations[-1].action == "error"
    assert _children() == []


@pytest.mark.slow   # (the default run stays under ten minutes; .ci/run runs the slow tier)
def test_a_false_win_is_the_judges_penalty():
    with Program([sys.executable, str(DATA / "misbehave.py"), "hu-pung", "3"], keep_running=False) as bot:
        res = _sim(["greedy", bot, "greedy", "greedy"])
    wh = [v for v in bot.violations if v.verdict == "WH"]
    assert wh and all(v.action == "penalty" and v.response == "HU" for v in wh)
    assert res.games == 1


def test_program_checks_its_arguments():
    with pytest.raises(TypeError):
        Program([])
    with pytest.raises(ValueError, match="keep_running"):
        Program("bot", keep_running="yes")
    with pytest.raises(ValueError, match="timeout"):
        Program("bot", timeout=0)
    with pytest.raises(ValueError, match="io"):
        Program("bot", io="xml")
    assert Program("python3 my_bot.py").name == "my_bot.py"


# ------------------------------------------------------------------ decisions

def test_decisions_from_botzone_hands():
    from mjfast.env import decisions as env_decisions
    hands = list(read_logs(HANDS, progress=False))
    d = botzone.decisions(hands, progress=False)
    assert d.encoding == "cn-v0" and d.skipped == []
    assert bool(d.action_mask[np.arange(len(d)), d.action].all())
    assert (d.action_mask.sum(axis=1) > 1).all()                  # forced questions are left out
    gid = d.game_id.astype(int)
    for g, h in enumerate(hands):
        rows = gid == g
        assert np.array_equal(d.reward[rows], np.asarray(h.scores, np.float32)[d.seat[rows]])
        # the hand's own decisions (discards, claims, kongs, the win), in order, each by its player
        mine = rows & (d.action != 74)
        want = []
        last = None
        for a in h.actions:
            k = botzone._hand.ACTION_KINDS.index(a.kind)
            if a.kind in ("Play", "BuGang"):
                last = botzone._tiles.kind(a.tile)
            if a.kind == "Play":
                want.append((a.player, last))
            elif a.kind == "Chi":
                want.append((a.player, 34 + last - (botzone._tiles.kind(a.tile) - 1)))
            elif a.kind == "Peng":
                want.append((a.player, 37))
            elif a.kind == "Gang":
                want.append((a.player, 38))
            elif a.kind in ("AnGang", "BuGang"):
                want.append((a.player, 39 + botzone._tiles.kind(a.tile)))
            elif a.kind == "Hu":
                want.append((a.player, 73))
            assert k >= 0
        got = list(zip(d.seat[mine].tolist(), d.action[mine].tolist()))
        # a discard with one legal choice left is not a decision (none in these hands)
        assert got == want, g
    # hand 2: player 2 also wanted to pung player 0's J1 (Ignore): its answer is not shown, and
    # nobody's pass on a discard somebody claimed is
    same = env_decisions(read_logs(HANDS, progress=False), progress=False)
    assert np.array_equal(same.action, d.action) and np.array_equal(same.observation, d.observation)


def test_decisions_skip_what_mjfast_cannot_play():
    text = HANDS.read_text().split("\n\n")[0]
    lines = text.split("\n")
    fake = "\n".join(lines[:14] + ["Player 0 Hu W9", "Fan 8 无番和*1", "Score 24 -8 -8 -8"])
    both = _hands(fake + "\n\n" + text)
    d = botzone.decisions(both, progress=False)
    assert set(d.game_id.tolist()) == {1}
    (skip,) = d.skipped
    assert skip[0] == 0 and "not legal" in skip[2]
    with pytest.raises(ValueError, match="hand-1"):
        botzone.decisions(both, errors="raise", progress=False)
    with pytest.raises(ValueError, match="errors"):
        botzone.decisions(both, errors="ignore")


# ------------------------------------------------------------------ the botzone subcommand

def test_the_botzone_subcommand(tmp_path, capsys):
    from mjfast.cli import main
    assert main(["botzone", "judge", str(HANDS), "--no-progress"]) == 0
    assert "3 hands: 3 of 3 judged again agree" in capsys.readouterr().out
    bad = tmp_path / "bad.txt"
    bad.write_text(HANDS.read_text().replace("Score 93 -31 -31 -31", "Score 90 -30 -30 -30"))
    assert main(["botzone", "judge", str(bad), "--no-progress"]) == 1
    assert "hand-1 (line 1), the Score line" in capsys.readouterr().out
    broken = tmp_path / "broken.txt"
    broken.write_text(HANDS.read_text().replace("Wind 1", "Wind 9"))
    assert main(["botzone", "judge", str(broken), "--no-progress"]) == 2
    assert "line 21" in capsys.readouterr().err
    out = tmp_path / "d.npz"
    assert main(["botzone", "decisions", str(HANDS), "--out", str(out), "--no-progress"]) == 0
    z = np.load(out)
    assert z["observation"].shape[1:] == (48, 34) and len(z["action"]) == 27
