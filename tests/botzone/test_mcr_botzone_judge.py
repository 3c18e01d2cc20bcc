"""mjfast.botzone.judge(hand, rules="mcr-botzone"): the hand-written Botzone logs played again
on the judge's own walls, seat 0 dealing and the match's prevalent wind, with nothing laid out
to fake mcr's single wall (tests/data/botzone)."""
import io
import pathlib

import mjfast
from mjfast import botzone
from mjfast.botzone import read_logs, write_logs

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "botzone"


def test_hand_written_logs_judged_on_the_judges_walls():
    hands = list(read_logs(DATA / "hands.txt", progress=False))
    for h in hands:
        j = botzone.judge(h, rules="mcr-botzone")
        assert j.differences == [] and j.agrees
        assert (j.winner, j.fan, sorted(j.fans), j.scores) == (h.winner, h.fan, sorted(h.fans), h.scores)
        # a log of its own for every hand, the South one included (mcr has none for it)
        assert j.log is not None and j.log.header["rules"] == "mcr-botzone"
        assert j.log.header["options"]["quan"] == h.quan
    assert botzone.judge(hands[1], rules="mcr-botzone").log.header["options"]["quan"] == 1
    assert botzone.judge(hands[1]).log is None


def test_the_layout_is_the_judges_order():
    # every tile a player received sits in its own part of the wall, from the end
    (h,) = list(read_logs(DATA / "hands.txt", progress=False))[:1]
    from mjfast.botzone._table import _CODE, Replay
    rp = Replay(h, rules="mcr-botzone")
    name_of = {c: n for n, c in _CODE.items() if n is not None}
    names = [name_of.get(c) for c in rp.layout.pos]       # (the layout holds tile codes)
    for p in range(4):
        assert [names[34 * p + 33 - j] for j in range(13)] == h.deals[p]
    draws = [[a.tile for a in h.actions if a.kind in ("Draw", "BuHua") and a.player == p] for p in range(4)]
    for p in range(4):
        assert [names[34 * p + 20 - k] for k in range(len(draws[p]))] == draws[p]


def test_mcr_botzone_games_written_read_and_judged_again():
    # mjfast's own mcr-botzone games in the text format, read back and judged again on the
    # judge's walls: the same winner, fans and scores
    buf = io.StringIO()
    logs = [mjfast.replay(3, gi, rules="mcr-botzone") for gi in range(6)]
    write_logs(logs, buf)
    hands = list(read_logs(io.StringIO(buf.getvalue()), progress=False))
    assert len(hands) == 6
    for h in hands:
        j = botzone.judge(h, rules="mcr-botzone")
        assert j.agrees, j.differences


def test_mcr_botzone_games_keep_their_prevalent_wind_in_the_text_format():
    # the match's quan is the game's option, not the hand number's wind (which is East for
    # every one-hand game); judged again with it, the fans (Prevalent Wind among them) agree
    buf = io.StringIO()
    logs = [mjfast.replay(5, gi, rules="mcr-botzone", quan=q) for gi, q in enumerate((1, 2, 3))]
    write_logs(logs, buf)
    hands = list(read_logs(io.StringIO(buf.getvalue()), progress=False))
    assert [h.quan for h in hands] == [1, 2, 3]
    for h in hands:
        j = botzone.judge(h, rules="mcr-botzone")
        assert j.agrees, j.differences
