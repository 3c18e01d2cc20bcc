"""Game logs: card games re-run from their log; rerun checks the replay against
the logged events and refuses malformed or edited logs; rerun reads files and lines;
GameLog's short repr, HTML and events.to_pandas(); runs of no games are refused;
IllegalActionError names tiles."""
from __future__ import annotations

import html.parser
import json
import pickle
import re
import sys

import numpy as np
import pytest

import mjfast
from mjfast.card import toy_card
from mjfast.game import log as _log
from mjfast.game import runner as _runner


def card_sha256(card):
    return _log.card_sha256(card)


@pytest.fixture(scope="module")
def log():
    return mjfast.replay(3, 5)


@pytest.fixture(scope="module")
def card_log():
    return mjfast.replay(1, 0, rules="american", card=toy_card())


def _lines(log) -> list:
    return log.to_jsonl().splitlines()


def _edit(lines: list, i: int, edit) -> list:
    """The log's lines with line i (0 = header) changed by ``edit(dict)``."""
    obj = json.loads(lines[i])
    edit(obj)
    out = list(lines)
    out[i] = json.dumps(obj)
    return out


# ---------------------------------------------------------------------------------------------
# card games

def test_card_log_holds_its_card_and_reruns_alone(card_log):
    """The header kept only the card's name: rerun failed inside load_card with "format must
    be 'mjfast-card/1' (missing)"."""
    card = toy_card()
    h = card_log.header
    assert h["card"] == card.to_dict() and h["card_sha256"] == card_sha256(card)
    assert re.fullmatch("[0-9a-f]{64}", h["card_sha256"])
    assert h["options"]["card"]["name"] == card.name                   # the options' summary is unchanged
    again = mjfast.rerun(card_log.to_jsonl())
    assert again.events == card_log.events and again.header == card_log.header
    assert any(e["type"] == "call" and "size" in e for e in again.events)    # card play (the exposure's size)


def test_card_hash_is_the_content_not_the_source(tmp_path):
    card = toy_card()
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card.to_dict()))
    assert card_sha256(mjfast.load_card(path)) == card_sha256(card) == card_sha256(mjfast.load_card(card.to_dict()))
    other = card.to_dict()
    other["lines"][0]["points"] += 1
    assert card_sha256(mjfast.load_card(other)) != card_sha256(card)


def test_rerun_takes_card_for_a_log_without_it(card_log, tmp_path):
    card = toy_card()
    h = {k: v for k, v in card_log.header.items() if k != "card"}      # shared without the card
    bare = mjfast.GameLog(h, card_log.events)
    with pytest.raises(ValueError, match=r"played with the card 'mjfast toy card.*sha256 [0-9a-f]{64}.*pass card="):
        mjfast.rerun(bare)
    path = tmp_path / "toy.json"
    path.write_text(json.dumps(card.to_dict()))
    for given in (card, card.to_dict(), path, str(path)):
        assert mjfast.rerun(bare, card=given).events == card_log.events
    assert mjfast.rerun(card_log, card=card).events == card_log.events     # card= and the header's agree


def test_a_mismatched_card_is_refused_by_name_and_hash(card_log):
    card = toy_card()
    renamed = dict(card.to_dict(), name="another card")
    with pytest.raises(ValueError, match=r"card= is the card 'another card', but this log's game was played with "
                                         r"the card 'mjfast toy card"):
        mjfast.rerun(card_log, card=renamed)
    richer = card.to_dict()
    richer["lines"][0]["points"] += 5                                    # same name, other content
    with pytest.raises(ValueError, match=r"both are named 'mjfast toy card.*content hash \(sha256 [0-9a-f]{64}\) "
                                         r"is not the header's 'card_sha256'"):
        mjfast.rerun(card_log, card=richer)
    # the header's own card edited (its hash no longer matches)
    edited = _edit(_lines(card_log), 0, lambda h: h["card"].update(jokerless_multiplier=3))
    with pytest.raises(ValueError, match="the header's 'card' is not the card this log's game was played with"):
        mjfast.rerun(edited)
    broken = _edit(_lines(card_log), 0, lambda h: h["card"].pop("format"))
    with pytest.raises(ValueError, match="the header's 'card' is not a valid card: format must be"):
        mjfast.rerun(broken)
    with pytest.raises(ValueError, match="card= was given, but this log's game was played without a card"):
        mjfast.rerun(mjfast.replay(1, 0, rules="american"), card=card)


def test_card_logs_from_before_the_card_was_kept(card_log):
    """A log written before the header held the card (no 'card', no 'card_sha256') re-runs with
    card=, checked by name and line ids."""
    h = {k: v for k, v in card_log.header.items() if k not in ("card", "card_sha256")}
    old = mjfast.GameLog(h, card_log.events)
    assert mjfast.rerun(old, card=toy_card()).events == card_log.events
    fewer = toy_card().to_dict()
    fewer["lines"] = fewer["lines"][:-1]
    with pytest.raises(ValueError, match="its line ids .* are not the logged ones"):
        mjfast.rerun(old, card=fewer)


def test_card_logs_are_refused_where_cards_are_not_played(card_log):
    """decisions() replays logs on the batched environments, which hold no card scratch:
    with the card now read from the header, a card log would reach them (a crash); refused."""
    with pytest.raises(ValueError, match="decisions: this log's game was played with the card 'mjfast toy card"):
        _runner.logged_game(card_log, None, "decisions")


# ---------------------------------------------------------------------------------------------
# rerun compares the replay with the logged events

def test_a_header_only_log_is_refused_unless_verify_is_off(log):
    header = _lines(log)[0]
    with pytest.raises(ValueError, match="holds its header only .* pass verify=False"):
        mjfast.rerun(header)                         # it returned a 534-event game
    alone = mjfast.rerun(header, verify=False)
    assert alone.events == log.events and len(alone.events) == 534
    with pytest.raises(TypeError, match="verify must be True or False"):
        mjfast.rerun(log, verify="no")


def test_an_edited_discard_is_named(log):
    lines = _lines(log)
    i = next(k for k, x in enumerate(lines) if json.loads(x)["type"] == "discard")
    tile = json.loads(lines[i])["tile"]
    other = "7z" if tile != "7z" else "1m"
    edited = _edit(lines, i, lambda e: e.update(tile=other))
    msg = rf"event {i - 1} \(line {i + 1} of the log\) differs from the replay: field 'tile' is '{other}' in the " \
          rf"log, '{tile}' in the replay"
    with pytest.raises(ValueError, match=msg):
        mjfast.rerun(edited)
    with pytest.raises(ValueError, match=msg):
        mjfast.rerun(mjfast.GameLog.from_jsonl("\n".join(edited)))


def test_added_missing_and_retyped_events_are_named(log):
    lines = _lines(log)
    n = len(log.events)
    extra = lines + [json.dumps({"hand": 3, "type": "discard", "seat": 0, "tile": "1m"})]
    with pytest.raises(ValueError, match=rf"event {n} \(line {n + 2} of the log\) is not in the replay: the game "
                                         rf"ended after {n} events"):
        mjfast.rerun(extra)
    with pytest.raises(ValueError, match=rf"the log ends after {n - 5} events; the replay goes on with 5 more"):
        mjfast.rerun(lines[:-5])
    # 2.0 for 2 and true for 1 are other values (JSON kinds), not silently equal
    as_float = _edit(lines, 1, lambda e: e.update(dice=[float(e["dice"][0]), e["dice"][1]]))
    with pytest.raises(ValueError, match=r"event 0 .* field 'dice' is \[\d+\.0, \d+\] in the log, \[\d+, \d+\]"):
        mjfast.rerun(as_float)
    i = next(k for k, x in enumerate(lines) if json.loads(x)["type"] == "win")
    as_int = _edit(lines, i, lambda e: e.update(self_drawn=int(e["self_drawn"])))
    with pytest.raises(ValueError, match="field 'self_drawn' is [01] in the log, (True|False) in the replay"):
        mjfast.rerun(as_int)
    dropped = _edit(lines, i, lambda e: e.pop("discarder"))
    with pytest.raises(ValueError, match="it lacks the field 'discarder'"):
        mjfast.rerun(dropped)
    added = _edit(lines, i, lambda e: e.update(bonus=1))
    with pytest.raises(ValueError, match="field 'bonus' is 1 in the log, absent from the replayed event"):
        mjfast.rerun(added)


def test_edited_final_scores_are_named(log):
    lines = _lines(log)
    edited = _edit(lines, 0, lambda h: h.update(scores=[60, -20, -20, -20]))
    with pytest.raises(ValueError, match=r"the header's 'scores' are \[60, -20, -20, -20\]; the replay's are"):
        mjfast.rerun(edited)
    last = len(lines) - 1
    score = next(k for k in range(last, 0, -1) if json.loads(lines[k])["type"] == "score")
    edited = _edit(lines, score, lambda e: e.update(total=e["total"] + 100))
    with pytest.raises(ValueError, match=rf"event {score - 1} .* field 'total'"):
        mjfast.rerun(edited)
    am = mjfast.play_walls([np.random.default_rng(4).permutation(152)], rules="american", policies="random")
    out = _edit(am.to_jsonl().splitlines(), 0, lambda h: h["out"].update(hands=9))
    with pytest.raises(ValueError, match="the header's 'out' are"):
        mjfast.rerun(out)


@pytest.mark.parametrize("edit, message", [
    (lambda e: e.update(type="bogus"), r"event 2 \(line 4 of the log\) is malformed: unknown event type 'bogus'"),
    (lambda e: e.pop("type"), "event 2 .* is malformed: it has no 'type'"),
    (lambda e: e.update(type="header"), "event 2 .* is malformed: a second header line"),
    (lambda e: e.pop("seat"), r"event 2 .* \('deal'\) is malformed: it has no 'seat'"),
    (lambda e: e.update(seat="2"), "event 2 .* 'seat' must be an integer 0-3, not '2'"),
    (lambda e: e.update(seat=4), "event 2 .* 'seat' must be an integer 0-3, not 4"),
    (lambda e: e.update(seat=True), "event 2 .* 'seat' must be an integer 0-3, not True"),
    (lambda e: e.update(hand=2.5), "event 2 .* 'hand' must be an integer 0-3, not 2.5"),
    (lambda e: e.update(hand=7), "event 2 .* 'hand' must be an integer 0-3, not 7"),
])
def test_malformed_events_are_refused_by_name(log, edit, message):
    with pytest.raises(ValueError, match=message):
        mjfast.rerun(_edit(_lines(log), 3, edit))


def test_more_malformed_logs(log):
    lines = _lines(log)
    last = len(lines) - 1
    back = _edit(lines, last, lambda e: e.update(hand=0))
    with pytest.raises(ValueError, match=rf"event {last - 1} .* hand 0 after hand 3"):
        mjfast.rerun(back)
    with pytest.raises(ValueError, match="event 1 .* is malformed: an event is a JSON object, not list"):
        mjfast.rerun(mjfast.GameLog(log.header, [log.events[0], [1, 2]]))
    deep = list(lines)
    deep[5] = "[" * 100_000 + "]" * 100_000                 # raised RecursionError
    with pytest.raises(ValueError, match="line 6 is nested too deeply"):
        mjfast.rerun(deep)
    deep[5] = "[1]"
    with pytest.raises(ValueError, match="line 6 is not a JSON object"):
        mjfast.rerun(deep)
    deep[5] = "{oops"
    with pytest.raises(ValueError, match="line 6 is not JSON"):
        mjfast.rerun(deep)


def test_dice_are_whole_numbers():
    """Dice of 2.5 were truncated to 2 (in a header and in play_walls)."""
    log = mjfast.replay(1, 0)
    half = _edit(_lines(log), 0, lambda h: h["dice"].__setitem__(0, [2.5, 7]))
    with pytest.raises(ValueError, match="the header's 'dice' must be .* a whole number 2-12"):
        mjfast.rerun(half, verify=False)
    wall = np.random.default_rng(3).permutation(136)
    with pytest.raises(ValueError, match="dice must be .* a whole number 2-12"):
        mjfast.play_walls([wall], [[2.5, 7]], rules="basic", rounds=1)
    with pytest.raises(ValueError, match="dice must be"):
        mjfast.play_walls([wall], [[2**70, 7]], rules="basic", rounds=1)
    assert mjfast.play_walls([wall], np.array([[3, 7]], np.uint8), rules="basic", rounds=1).header["dice"] == [[3, 7]]


# ---------------------------------------------------------------------------------------------
# 16: rerun(path)

def test_rerun_reads_a_path_or_lines(log, tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_text(log.to_jsonl(), encoding="utf-8")
    for source in (path, str(path), _lines(log), tuple(_lines(log)), log.to_jsonl()):
        assert mjfast.rerun(source).to_jsonl() == log.to_jsonl()
    with pytest.raises(ValueError, match=r"'no/such/game.jsonl' is not an mjfast event log .* nor the path of an "
                                         "existing file"):
        mjfast.rerun("no/such/game.jsonl")
    with pytest.raises(FileNotFoundError):
        mjfast.rerun(tmp_path / "missing.jsonl")
    with pytest.raises(IsADirectoryError, match="is a directory"):
        mjfast.rerun(tmp_path)
    (tmp_path / "bin.jsonl").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ValueError, match="not UTF-8"):
        mjfast.rerun(tmp_path / "bin.jsonl")
    with pytest.raises(TypeError, match="GameLog, its JSON-lines text or lines, or the path"):
        mjfast.rerun(3.5)


# ---------------------------------------------------------------------------------------------
# 14: repr, HTML, to_pandas

class _Tags(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.open: list = []
        self.seen: set = set()

    def handle_starttag(self, tag, attrs):
        if tag != "br":
            self.open.append(tag)
        self.seen.add(tag)

    def handle_endtag(self, tag):
        assert self.open and self.open.pop() == tag, tag


@pytest.mark.parametrize("rules, opts", [("classical", {}), ("mcr", {}), ("american", {"rounds": 2}),
                                         ("american", {"card": "toy"})])
def test_repr_is_a_short_summary(rules, opts):
    opts = {k: toy_card() if v == "toy" else v for k, v in opts.items()}
    log = mjfast.replay(3, 5, rules=rules, **opts)
    text = repr(log)
    assert len(text) < 2000, len(text)                          # was the dataclass repr: 33,884+ characters
    lines = text.splitlines()
    assert lines[0] == f"GameLog: rules={rules}, seed=3, game 5, {log.header['options']['rounds'] * 4} hands, " \
                       f"{len(log.events):,} events"
    # the per-hand table: each seat's points per hand add up to its final score
    start = log.header["options"].get("start_points", 0)
    hands = [ln.split() for ln in lines[3:3 + 4 * log.header["options"]["rounds"]]]
    for s in range(4):
        assert start + sum(int(h[-4 + s].replace(",", "")) for h in hands) == log.header["scores"][s]
    assert ("fan" in lines[2].split()) == (rules == "mcr")
    assert f"final scores: {', '.join(f'{v:,}' for v in log.header['scores'])}" in text
    assert ("card: 'mjfast toy card" in text) == ("card" in opts)
    assert str(log) == text


def test_html_for_jupyter(log):
    out = log._repr_html_()
    tags = _Tags()
    tags.feed(out)
    assert not tags.open and "table" in tags.seen
    assert "GameLog" in out and len(out) < 5000


def test_events_to_pandas(log):
    pd = pytest.importorskip("pandas")
    df = log.events.to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == len(log.events)
    assert list(df.columns[:3]) == ["hand", "type", "seat"]
    assert {"tile", "id", "dice_0", "dice_1", "delta", "total", "discarder"} <= set(df.columns)
    assert not [c for c in df.columns if df[c].dtype == object], df.dtypes
    assert str(df["hand"].dtype) == "int64" and str(df["id"].dtype) == "Int64"
    discards = df[df["type"] == "discard"]
    assert discards["tile"].tolist() == [e["tile"] for e in log.events if e["type"] == "discard"]
    assert df.loc[df["type"] == "hand", "dice_0"].tolist() == [d[0] for d in log.header["dice"]]
    assert df.attrs == {"rules": "classical", "seed": 3, "game_index": 5, "policies": ["greedy"] * 4}
    json.dumps(df.attrs)
    am = mjfast.replay(1, 0, rules="american").events.to_pandas()
    assert {"pass_number", "direction", "jokers"} <= set(am.columns)


def test_events_to_pandas_without_pandas(log, monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r'GameLog.events.to_pandas\(\) needs pandas.*pip install "mjfast\[pandas\]"'):
        log.events.to_pandas()


def test_events_stay_a_list(log):
    again = mjfast.GameLog.from_jsonl(log.to_jsonl())
    assert again == log and again.events == list(log.events) and list(log.events) == again.events
    assert json.loads(json.dumps(log.events)) == log.events
    back = pickle.loads(pickle.dumps(log))
    assert back == log and back.events.attrs == log.events.attrs
    with pytest.raises(TypeError, match="header must be a dict"):
        mjfast.GameLog([], [])
    with pytest.raises(TypeError, match="events must be a list"):
        mjfast.GameLog({}, "events")


# ---------------------------------------------------------------------------------------------
# 5: a run of no games

@pytest.mark.parametrize("call", [
    lambda: mjfast.simulate(0, progress=False),
    lambda: mjfast.simulate(0, rules="american", progress=False),
    lambda: mjfast.simulate(0, duplicate=True, progress=False),
    lambda: mjfast.compare("greedy", "random", 0, progress=False),
    lambda: mjfast.charleston_effect(0, progress=False),
])
def test_no_games_is_refused(call):
    """simulate(0) returned an empty result of NaN rates, though the CLI refuses -n 0."""
    with pytest.raises(ValueError, match="games must be at least 1"):
        call()


def test_no_games_is_refused_with_dask():
    pytest.importorskip("dask")
    with pytest.raises(ValueError, match="games must be at least 1"):
        mjfast.simulate(0, backend="dask", progress=False)


# ---------------------------------------------------------------------------------------------
# 16: IllegalActionError names tiles

class _Absent(mjfast.Policy):
    name = "absent"

    def discard(self, view):
        return next(k for k in range(33, -1, -1) if view.hand[k] == 0)      # a kind index not in hand


class _AbsentAmerican(mjfast.AmericanPolicy):
    name = "absent"

    def discard(self, view):
        return next(k for k in range(35, -1, -1) if view.hand[k] == 0)


def test_illegal_action_names_the_tile():
    with pytest.raises(mjfast.IllegalActionError, match=r"seat 0 \(absent\), hand 0, turn 1: 33 \(7z\) is not "
                                                         r"allowed; choose a tile in hand: \w+"):
        mjfast.simulate(1, policies=[_Absent(), "greedy", "greedy", "greedy"], seed=1, progress=False)
    with pytest.raises(mjfast.IllegalActionError, match=r"seat 0 \(absent\), hand 0, turn 1: 35 \(j\) is not "
                                                         r"allowed; choose a tile in hand: [0-9mpszfj]+$"):
        mjfast.simulate(1, rules="american", policies=[_AbsentAmerican(), "greedy", "greedy", "greedy"], seed=1,
                        progress=False)
