"""Botzone hands judged again by mjfast's engine, and as mjfast GameLogs.

:func:`judge` plays a hand (from :func:`read_logs`) on mjfast's engine under a rule set,
every tile where the hand drew it and every answer the hand's, and compares the engine's
verdict (winner, fans, scores) with the hand's ``Hu``, ``Fan`` and ``Score`` lines. Today
the rule set is ``mcr`` (a Botzone hand's prevalent wind, wall ends and last tiles are set
up for it: see :mod:`._table`; what it cannot do: :func:`unsupported`); the judge's own
rules (``mcr-botzone``: per-player walls, the match's prevalent wind, no claims on a wall's
last tile, ...) slot in as another ``rules`` value.
"""
from __future__ import annotations

import dataclasses

from .. import rules as _rules
from .. import tiles
from ..game import chinese as _chinese
from ..game.log import LOG_VERSION, GameLog, decode
from . import _tiles
from ._bot import walls_left
from ._hand import ANGANG, BUGANG, BUHUA, DRAW, GANG, HU, PLAY, Hand
from ._logs import FANS, JUDGE_NAMES
from ._table import FalseWin, Replay, ScriptError

MAX_DEAD_WALL = 40                  # the largest dead wall the mcr rule set takes
WINDS = ("East", "South", "West", "North")


def _flowers(hand: Hand) -> bool:
    return any(_tiles.is_flower(t) for d in hand.deals for t in d if t is not None) or any(
        a.kind == BUHUA for a in hand.actions)


def _last_tile(hand: Hand) -> bool:
    """Whether the judge's wall ends with the hand: an exhaustive draw, or a win after which
    the next player has no tile (the judge's Last Tile Draw / Claim)."""
    if hand.result == "huang":
        return True
    acts = hand.actions
    if not acts or acts[-1].kind != HU:
        return False
    w = acts[-1].player
    left = walls_left(hand, _flowers(hand))
    prev = acts[-2] if len(acts) > 1 else None
    if prev is not None and prev.kind == DRAW and prev.player == w:
        return left[(w + 1) & 3] == 0
    if prev is not None and prev.kind == PLAY:
        return left[(prev.player + 1) & 3] == 0
    return False                    # robbing a kong


def unsupported(hand: Hand, rules: str = "mcr") -> list:
    """Why ``rules`` cannot judge ``hand`` again as the judge did (an empty list: it can).
    ``mcr-botzone`` (the judge's own walls, seat 0 dealing, the match's prevalent wind) judges
    every hand whose end is a win or an exhaustive draw. For ``mcr``:

    - a hand that ended with a penalty, or whose end is not known;
    - a win on the dealer's first draw (``mcr``'s dealer holds 14 dealt tiles and wins on the
      kind that scores most, the judge on the tile drawn);
    - an exhaustive draw at a kong's replacement draw (``mcr`` still has tiles at the back).
    """
    if rules not in ("mcr", "mcr-botzone"):
        raise ValueError(f"rules={rules!r}: hands are judged again under 'mcr' or 'mcr-botzone'")
    why = []
    if hand.result not in ("hu", "huang"):
        why.append("the hand ended with a penalty" if hand.result == "penalty" else "the hand's end is not known")
    if rules == "mcr-botzone":
        return why                  # the judge's walls, deal and winds: nothing else to fake
    acts = hand.actions
    if acts and acts[-1].kind == HU and not any(a.kind not in (DRAW, BUHUA) for a in acts[:-1]):
        why.append("a win on the dealer's first draw (mcr's dealer wins on its 14 dealt tiles)")
    if hand.result == "huang" and acts and acts[-1].kind in (GANG, ANGANG, BUGANG):
        why.append("an exhaustive draw at a kong's replacement (mcr's wall still has tiles at the back)")
    return why


def _no_log(hand: Hand, dead_wall: int) -> str | None:
    """Why the hand has no mjfast GameLog of its own (its rules cannot be written in an
    ``mcr`` header), or None."""
    if hand.quan != 0:
        return (f"the prevalent wind is {WINDS[hand.quan]}: an mcr game's first hand has East (mcr-botzone will take "
                "the match's prevalent wind)")
    if dead_wall > MAX_DEAD_WALL:
        return (f"the judge's walls end {dead_wall} tiles before mjfast's wall does (mcr's dead_wall holds at most "
                f"{MAX_DEAD_WALL}; mcr-botzone will have the judge's walls)")
    return None


@dataclasses.dataclass
class Judgement:
    """A Botzone hand judged again.

    Attributes
    ----------
    hand : Hand
    log : GameLog or None
        The hand as an mjfast game log (one hand, rules ``mcr`` with the ``dead_wall`` that ends
        the live wall where the judge's walls end; the header's ``botzone`` field holds the
        match id, the prevalent wind and the line); None when ``mcr`` cannot write the hand's
        rules in a header (``no_log`` says why).
    winner : int or None
        The engine's winner (Botzone player id); None also when the hand's ``Hu`` is not a win
        on the engine (then ``scores`` are the judge's WH penalty: -30 to that player, +10 to
        each other one).
    fan : int or None
        The engine's fan total, flowers included.
    fans : list of (str, int)
        The engine's fans, by the judge's names.
    scores : list of 4 int
        The engine's scores by Botzone player.
    differences : list of str
        Where the engine and the hand disagree, each naming the line of the hand's source.
    """

    hand: Hand
    log: GameLog | None
    winner: int | None
    fan: int | None
    fans: list
    scores: list
    differences: list
    no_log: str | None = None

    @property
    def agrees(self) -> bool:
        """Whether the engine's winner, fans and scores are the hand's."""
        return not self.differences


def judge(hand: Hand, *, rules: str = "mcr") -> Judgement:
    """Play a Botzone hand again on mjfast's engine and compare the verdicts.

    Every tile goes where the hand drew it (``rules="mcr"``: mjfast's single wall is laid out so
    that each player draws what it drew on Botzone; ``rules="mcr-botzone"``: each player's own
    wall holds its tiles in the judge's order, and the log is an ``mcr-botzone`` game with the
    match's ``quan``), every question of the engine gets the hand's answer, and the engine
    scores the end. Raises ``ValueError`` when ``rules`` cannot judge the hand
    (:func:`unsupported` says why) or when the hand contradicts itself (a tile discarded that
    was never drawn, a fifth copy, ...), naming the action.

    Examples
    --------
    >>> import io, mjfast
    >>> from mjfast.botzone import read_logs, write_logs, judge
    >>> buf = io.StringIO()
    >>> _ = write_logs(mjfast.replay(2, 0, rules="mcr", flowers=False), buf)
    >>> hands = list(read_logs(io.StringIO(buf.getvalue()), progress=False))
    >>> all(judge(h).agrees for h in hands)
    True
    """
    why = unsupported(hand, rules)
    if why:
        raise ValueError(f"{_where(hand)}: {rules} cannot judge this hand again: " + "; ".join(why))
    botzone = rules == "mcr-botzone"
    last = False if botzone else _last_tile(hand)
    try:
        rp = Replay(hand, last_tile=last, rules=rules)
        rp.run(stop_at_end=False)
    except FalseWin as exc:
        # the judge's WH: the hand ends, the player pays 30 and each other player gets 10
        scores = [-30 if p == exc.player else 10 for p in range(4)]
        return Judgement(hand, None, None, None, [], scores, _compare(hand, None, None, [], scores),
                         "the hand's Hu is not a win")
    except ScriptError as exc:
        raise ValueError(f"{_where(hand)}: {exc}") from None
    d = rp.rules.n_tiles - rp.layout.front if last else 0
    rows = rp.events()
    events = decode(rows, _chinese.event_fields)
    winner = fan = None
    fans: list = []
    scores = [0, 0, 0, 0]
    dealer = 0
    for e in events:
        t = e["type"]
        if t == "win":
            winner = (e["seat"] - dealer) & 3
        elif t == "fan":
            i = next(j for j, f in enumerate(FANS) if f[0] == e["fan"])
            fans.append((JUDGE_NAMES[i], e["count"]))
        elif t == "score":
            scores[(e["seat"] - dealer) & 3] += e["delta"]
    if winner is not None:
        fan = sum(FANS[next(j for j, f in enumerate(FANS) if JUDGE_NAMES[j] == n)][2] * c for n, c in fans)
    no_log = None if botzone else _no_log(hand, d)
    log = None
    if no_log is None:
        r = rp.rules if botzone else _rules.get("mcr", flowers=rp.rules.n_tiles == 144, dead_wall=d, rounds=1)
        wall = rp.walls[-1]
        header = {"version": LOG_VERSION, "seed": None, "game_index": None, "rules": r.name, "options": r.to_dict(),
                  "policies": ["botzone"] * 4, "walls": [[tiles.physical_tile_name(int(i)) for i in wall]],
                  "wall_ids": [wall.tolist()], "dice": [[2, 2]], "scores": scores,
                  "botzone": {"match": hand.match, "quan": hand.quan, "line": hand.line}}
        log = GameLog(header, events)
    return Judgement(hand, log, winner, fan, fans, scores, _compare(hand, winner, fan, fans, scores), no_log)


def to_gamelog(hand: Hand, *, rules: str = "mcr") -> GameLog:
    """The hand as an mjfast :class:`~mjfast.GameLog` (its events those of mjfast's engine
    playing it again: :func:`judge`'s ``log``); ValueError when the rule set cannot write the
    hand's rules in a log header (a prevalent wind other than East, under ``mcr``)."""
    j = judge(hand, rules=rules)
    if j.log is None:
        raise ValueError(f"{_where(hand)}: no mjfast log of this hand under {rules}: {j.no_log}")
    return j.log


def _where(hand: Hand) -> str:
    return f"match {hand.match}" + (f" (line {hand.line})" if hand.line else "")


def _compare(hand: Hand, winner, fan, fans, scores) -> list:
    out = []
    acts = hand.actions
    hu = acts[-1] if acts and acts[-1].kind == HU else None
    line_hu = f"line {hu.line}" if hu is not None and hu.line else "its Hu"
    base = _where(hand)
    if (hu.player if hu is not None else None) != winner:
        out.append(f"{base}, {line_hu}: the hand's winner is "
                   f"{'player ' + str(hu.player) if hu else 'nobody'}, mjfast's engine says "
                   f"{'player ' + str(winner) if winner is not None else 'nobody (no valid win)'}")
        if hand.scores is not None and list(hand.scores) != scores:
            out.append(f"{base}, the Score line: the hand says {hand.scores}, mjfast's engine {scores}")
        return out
    if hu is not None:
        if hand.fan is not None and hand.fan != fan:
            out.append(f"{base}, the Fan line: the hand says {hand.fan} fan, mjfast's engine {fan}")
        if hand.fans and sorted(hand.fans) != sorted(fans):
            mine, theirs = dict(fans), dict(hand.fans)
            diff = [f"{n}*{theirs.get(n, 0)}->{mine.get(n, 0)}" for n in sorted(set(mine) | set(theirs))
                    if mine.get(n, 0) != theirs.get(n, 0)]
            out.append(f"{base}, the Fan line: the fans differ ({', '.join(diff)}: the hand's count -> mjfast's)")
    if hand.scores is not None and list(hand.scores) != scores:
        out.append(f"{base}, the Score line: the hand says {hand.scores}, mjfast's engine {scores}")
    return out
