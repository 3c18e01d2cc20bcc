"""mjfast.botzone.decisions, the compiled path: Botzone hands laid out and scripted by
chinese_env.layout_hands and played by ChineseVec.play_scripts (the engine answers every
question itself). The rows must be those of the first converter, which stepped the engine from
Python at every question and played the hands before a prevalent wind: its digests on fixed
hands are in tests/data/botzone/decisions_digest.json (recorded by _decisions_digest.py)."""
from __future__ import annotations

import dataclasses
import io
import json

import numpy as np
import pytest
from _decisions_digest import DIGEST, digest, sources

from mjfast import botzone, rules
from mjfast.botzone import _decisions as bzd
from mjfast.botzone import read_logs
from mjfast.env._collect import Collector
from mjfast.game import chinese

SOURCES = sources()
RECORDED = json.loads(DIGEST.read_text())


@pytest.mark.parametrize("name", sorted(SOURCES))
@pytest.mark.parametrize("derived", [False, True])
def test_rows_are_the_python_stepped_converters(name, derived):
    """Observations, masks, actions, seats, rewards, game ids, hand numbers and the hands left
    out: identical to the recorded run of the Python-stepped converter (mjfast's own games with
    and without flowers, the same hands under every prevalent wind, the hand-written logs, a
    hand the engine refuses)."""
    d = botzone.decisions(io.StringIO(SOURCES[name]), derived=derived, privileged=derived, progress=False)
    assert digest(d) == RECORDED[f"{name} derived={derived} privileged={derived}"]


def _hands(name: str) -> list:
    return list(read_logs(io.StringIO(SOURCES[name]), progress=False))


def _python_route(hands: list):
    """The Python layout (prepare) of every hand, played one at a time."""
    probe = chinese.ENGINE.vec(rules.get("mcr").kernel(), 1, False, False, False)
    col = Collector(probe.n_planes, probe.n_scalars, 64, probe.kinds, probe.n_actions)
    skipped: list = []
    for ep, h in enumerate(hands):
        why = botzone.unsupported(h)
        if why:
            skipped.append((ep, bzd._where(h), "; ".join(why)))
            continue
        try:
            p = bzd.prepare(h)
        except ValueError as exc:
            skipped.append((ep, bzd._where(h), str(exc)))
            continue
        bzd.play([(ep, p)], col, failures=skipped)
    out = col.result("cn-v0")
    object.__setattr__(out, "skipped", sorted(skipped))
    return out


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_the_compiled_layout_is_the_python_layout(name):
    """Every hand these sources hold is laid out by the compiled layout (none left to the
    Python one), with the Python layout's wall, dead wall and script."""
    hands = _hands(name)
    run = bzd._Hands(None, False, False, [], False)
    laid = run.layout(list(enumerate(hands)))
    _, episode, quan, act_start, out, walls, s_seat, s_act, s_claim, ok = laid
    assert len(episode) == len(hands)
    for j, h in enumerate(hands):
        try:
            p = bzd.prepare(h)
        except ValueError:
            assert not ok[j]            # (the hands refused by the Python layout are left to it)
            continue
        assert ok[j], (name, j)
        n_tiles, dead = p.key
        assert (int(out[j, 1]), int(out[j, 2])) == (n_tiles, dead)
        assert walls[j, :n_tiles].tobytes() == p.wall
        lo, k = int(act_start[j]), int(out[j, 3])
        assert s_seat[lo:lo + k].tolist() == p.seat
        assert s_act[lo:lo + k].tolist() == p.action
        assert s_claim[lo:lo + k].astype(bool).tolist() == p.claim
        assert int(quan[j]) == p.quan


def test_hands_the_compiled_layout_leaves_go_to_the_python_one():
    """A concealed kong of an unknown tile (its player's tiles unknown too: the Python layout
    picks a kind and plays the hand), a penalty ending, a hand whose dealer's first draw is
    missing: the compiled layout leaves them (status 1), and decisions() gives what the Python
    layout gives for them, beside the hands it lays out itself."""
    hands = _hands("hands.txt")
    kong = next(h for h in hands if any(a.kind == "AnGang" for a in h.actions))
    p = next(a.player for a in kong.actions if a.kind == "AnGang")
    acts = [a._replace(tile=None) if a.kind == "AnGang" or (a.kind == "Draw" and a.player == p and i > 0) else a
            for i, a in enumerate(kong.actions)]
    hidden = dataclasses.replace(kong, actions=acts, deals=[[None] * len(d) if q == p else list(d)
                                                            for q, d in enumerate(kong.deals)])
    penalty = dataclasses.replace(hands[0], result="penalty")
    no_draw = dataclasses.replace(hands[0], actions=hands[0].actions[1:])
    mixed = [hands[0], hidden, penalty, no_draw, hands[1]]
    run = bzd._Hands(None, False, False, [], False)
    left: list = []
    run.slow = lambda ep, h: left.append(ep)
    run.layout(list(enumerate(mixed)))
    assert left == [1, 2, 3]
    got = botzone.decisions(mixed, progress=False)
    want = _python_route(mixed)
    assert digest(got) == digest(want)
    assert set(got.game_id.tolist()) == {0, 4}
    assert [s[0] for s in got.skipped] == [1, 2, 3]
    assert "is not legal there" in got.skipped[0][2]           # (played: the kind picked is not the hand's)
    assert got.skipped[1][2] == "the hand ended with a penalty"
    assert got.skipped[2][2].endswith("the dealer's first draw is missing")


@pytest.mark.parametrize("name", ["mjfast-flowers-True", "mjfast-winds", "refused"])
def test_the_compiled_path_is_the_python_layout_played(name):
    """The same rows through the Python layout, one hand at a time (chunks, keys and row
    reservations play no part in the result)."""
    hands = _hands(name)
    assert digest(botzone.decisions(hands, n_tables=7, progress=False)) == digest(_python_route(hands))


def test_a_prevalent_wind_out_of_range_is_refused():
    (h,) = _hands("hands.txt")[:1]
    bad = dataclasses.replace(h, quan=5)
    d = botzone.decisions([bad, h], progress=False)
    assert [s[0] for s in d.skipped] == [0] and "prevalent wind" in d.skipped[0][2]
    assert set(d.game_id.tolist()) == {1}


def test_rows_of_many_chunks_and_a_growing_collector():
    """More hands than a chunk, from a generator (no size known: the rows grow by doubling)
    and from a list (the rows reserved once): the same arrays."""
    hands = _hands("mjfast-flowers-False")
    a = botzone.decisions(hands, n_tables=5, progress=False)
    b = botzone.decisions(iter(hands), n_tables=3, progress=False)
    assert len(a) > 1000 and digest(a) == digest(b)
    assert np.array_equal(np.sort(np.unique(a.game_id)), np.arange(len(hands)))
