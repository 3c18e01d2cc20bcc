"""One Botzone hand (a match of the Chinese-Standard-Mahjong game) as data: the prevalent
wind, the tiles each player drew in the deal, the actions in order and the result.

The same record serves every direction: mjfast's engine events become one (:class:`EventReader`),
a bot's request history becomes one (:func:`from_requests`), and the log readers produce
them; :func:`turns` renders the judge's requests from one.

Players are Botzone player ids 0-3 (0 is East and deals); tiles are Botzone names (``W5``,
``J1``), ``None`` where a tile is not known (another player's draws, a concealed kong seen
through the protocol).
"""
from __future__ import annotations

import dataclasses
from typing import NamedTuple

from .._kernels import engine as _engine
from . import _tiles

DRAW, BUHUA, PLAY, CHI, PENG, GANG, ANGANG, BUGANG, HU = (
    "Draw", "BuHua", "Play", "Chi", "Peng", "Gang", "AnGang", "BuGang", "Hu")
ACTION_KINDS = (DRAW, BUHUA, PLAY, CHI, PENG, GANG, ANGANG, BUGANG, HU)


class Action(NamedTuple):
    """One action of a hand: ``kind`` (Draw, BuHua, Play, Chi, Peng, Gang, AnGang, BuGang, Hu),
    the Botzone ``player`` id and its ``tile`` (a Botzone name or None when unknown): the tile
    drawn, the flower, the discard, the chow's middle tile, the claimed tile (Peng, Gang), the
    kong's tile (AnGang, BuGang), the winning tile (Hu). ``line``: where a log holds it."""

    kind: str
    player: int
    tile: str | None
    line: int = 0


@dataclasses.dataclass
class Hand:
    """One Botzone hand: what a match-data line group, a JSON match log or a bot's request
    history says.

    Attributes
    ----------
    match : str or None
        The Botzone match id (the ``Match`` line).
    quan : int
        The prevalent wind, 0-3 (East, South, West, North).
    deals : list of 4 lists
        The tiles each player drew in the deal, in order, flowers (``H1``-``H8``) included:
        13 tiles that are not flowers each (player 0's 14th tile is its first ``Draw``).
        Unknown tiles are None.
    actions : list of Action
        Every action after the deal, in order (a Chi or Peng is followed by the claimer's Play).
    result : {"hu", "huang", "penalty"} or None
        How the hand ended (None: not known).
    fan : int or None
        The winner's fan total, flowers included (the ``Fan`` line).
    fans : list of (str, int)
        The fans counted, by the judge's Chinese name, with how many times each counts.
    scores : list of 4 int or None
        Each player's score (the ``Score`` line).
    walls : list of 4 lists or None
        Each player's wall (its tiles, the last drawn first), when the source has it (JSON logs).
    line : int
        Line of the source where the hand starts (0: not from a file).
    penalty : (str, int) or None
        A penalty ending: the judge's verdict (``"WA"``, ``"WH"``, ``"TLE"``, ...) and the
        player penalised (JSON logs; an mjfast false win: ``("WH", player)``).
    """

    match: str | None = None
    quan: int = 0
    deals: list = dataclasses.field(default_factory=lambda: [[], [], [], []])
    actions: list = dataclasses.field(default_factory=list)
    result: str | None = None
    fan: int | None = None
    fans: list = dataclasses.field(default_factory=list)
    scores: list | None = None
    walls: list | None = None
    line: int = 0
    penalty: tuple | None = None

    @property
    def winner(self) -> int | None:
        """The player who won (None: no win)."""
        last = self.actions[-1] if self.actions else None
        return last.player if last is not None and last.kind == HU else None

    def flowers(self, player: int) -> list:
        """The flowers ``player`` set aside in the deal."""
        return [t for t in self.deals[player] if t is not None and _tiles.is_flower(t)]


# ---------------------------------------------------------------------------------------------
# the judge's requests

class Turn(NamedTuple):
    """One request of the judge (to all four players): ``kind`` (init, deal, draw, buhua, play,
    peng, chi, gang, bugang), the acting ``player`` (None for init and deal), the tiles it
    names (``tile``: the tile drawn, the flower, the discard, the added kong's tile; ``middle``:
    a chow's middle tile), the index of the hand's action it ends (-1 for init and deal), and
    the previous discard (the tile a Peng, Chi or Gang claimed; a kong's tile for BuGang)."""

    kind: str
    player: int | None
    tile: str | None
    middle: str | None
    action: int
    claimed: str | None


def turns(hand: Hand, start: int = 0, done: list | None = None) -> list:
    """The judge's requests for the hand's actions ``start`` on (the init and deal requests
    first when ``start`` is 0): a list of :class:`Turn`. A trailing Chi or Peng waits for its
    Play (it is one request); ``done`` (a one-item list) receives the index of the first action
    not used."""
    out: list = []
    if start == 0:
        out.append(Turn("init", None, None, None, -1, None))
        out.append(Turn("deal", None, None, None, -1, None))
    acts = hand.actions
    i = start
    last_discard: str | None = None
    for j in range(start - 1, -1, -1):            # the discard a claim at `start` would take
        if acts[j].kind in (PLAY, BUGANG):
            last_discard = acts[j].tile
            break
    while i < len(acts):
        a = acts[i]
        k = a.kind
        if k == DRAW:
            out.append(Turn("draw", a.player, a.tile, None, i, None))
        elif k == BUHUA:
            out.append(Turn("buhua", a.player, a.tile, None, i, None))
        elif k == PLAY:
            out.append(Turn("play", a.player, a.tile, None, i, None))
            last_discard = a.tile
        elif k in (CHI, PENG):
            if i + 1 >= len(acts):
                break                               # its discard is not known yet
            nxt = acts[i + 1]
            if nxt.kind != PLAY or nxt.player != a.player:
                raise ValueError(f"a {k} must be followed by the same player's Play (action {i + 1} is {nxt.kind})")
            if k == CHI:
                out.append(Turn("chi", a.player, nxt.tile, a.tile, i + 1, last_discard))
            else:
                out.append(Turn("peng", a.player, nxt.tile, None, i + 1, last_discard))
            last_discard = nxt.tile
            i += 1
        elif k in (GANG, ANGANG):
            out.append(Turn("gang", a.player, None, None, i, last_discard if k == GANG else None))
        elif k == BUGANG:
            out.append(Turn("bugang", a.player, a.tile, None, i, a.tile))
            last_discard = a.tile
        elif k == HU:
            i += 1
            break
        i += 1
    if done is not None:
        done[:] = [i]
    return out


def request(hand: Hand, turn: Turn, me: int) -> str:
    """The text of ``turn``'s request to player ``me``."""
    k, p = turn.kind, turn.player
    if k == "init":
        return f"0 {me} {hand.quan}"
    if k == "deal":
        flowers = [hand.flowers(q) for q in range(4)]
        own = [t for t in hand.deals[me] if t is not None and not _tiles.is_flower(t)]
        if len(own) != 13 or any(t is None for t in hand.deals[me]):
            raise ValueError(f"player {me}'s deal is not 13 known tiles besides flowers: {hand.deals[me]}")
        return " ".join(["1"] + [str(len(f)) for f in flowers] + own + [t for f in flowers for t in f])
    if k == "draw":
        if p == me:
            if turn.tile is None:
                raise ValueError(f"player {me}'s own draw is not known")
            return f"2 {turn.tile}"
        return f"3 {p} DRAW"
    if k == "buhua":
        return f"3 {p} BUHUA {turn.tile}"
    if k == "play":
        return f"3 {p} PLAY {turn.tile}"
    if k == "peng":
        return f"3 {p} PENG {turn.tile}"
    if k == "chi":
        return f"3 {p} CHI {turn.middle} {turn.tile}"
    if k == "gang":
        return f"3 {p} GANG"
    if k == "bugang":
        return f"3 {p} BUGANG {turn.tile}"
    raise ValueError(f"unknown turn {k!r}")


# ---------------------------------------------------------------------------------------------
# requests -> a hand (what a bot knows)

class RequestError(ValueError):
    """A request that is not one of the protocol's, or that contradicts the ones before it."""


def _tile(tok: str, what: str) -> str:
    if tok not in _tiles.TILES:
        raise RequestError(f"{what}: {tok!r} is not a Botzone tile")
    return tok


def _player(tok: str, what: str) -> int:
    if tok not in ("0", "1", "2", "3"):
        raise RequestError(f"{what}: {tok!r} is not a player id 0-3")
    return int(tok)


def from_requests(requests: list, responses: list) -> tuple[Hand, int]:
    """(the hand as far as ``requests`` tell it, the player's own id) from a bot's request
    history and its own responses (its concealed kongs' tiles come from those). Others'
    draws and concealed kongs are None. Raises :class:`RequestError` naming the request."""
    if not requests:
        raise RequestError("no request")
    hand = Hand()
    me = -1
    for n, text in enumerate(requests):
        what = f"request {n + 1} ({text!r})"
        if not isinstance(text, str):
            raise RequestError(f"request {n + 1} is not a string")
        tok = text.split(" ")
        if n == 0:
            if len(tok) != 3 or tok[0] != "0":
                raise RequestError(f"{what}: the first request is '0 playerID quan'")
            me = _player(tok[1], what)
            if tok[2] not in ("0", "1", "2", "3"):
                raise RequestError(f"{what}: quan {tok[2]!r} is not 0-3")
            hand.quan = int(tok[2])
            continue
        if n == 1:
            if tok[0] != "1" or len(tok) < 18:
                raise RequestError(f"{what}: the second request is '1 hua0 hua1 hua2 hua3' and 13 tiles")
            try:
                hua = [int(x) for x in tok[1:5]]
            except ValueError:
                raise RequestError(f"{what}: the flower counts are not integers") from None
            if any(h < 0 for h in hua) or len(tok) != 18 + sum(hua):
                raise RequestError(f"{what}: 13 tiles and {sum(hua)} flowers expected after the counts")
            own = [_tile(t, what) for t in tok[5:18]]
            if any(_tiles.is_flower(t) for t in own):
                raise RequestError(f"{what}: a flower among the 13 dealt tiles")
            fl = [_tile(t, what) for t in tok[18:]]
            if not all(_tiles.is_flower(t) for t in fl):
                raise RequestError(f"{what}: the flowers listed after the 13 tiles are not all H tiles")
            at = 0
            for q in range(4):
                mine = fl[at:at + hua[q]]
                at += hua[q]
                hand.deals[q] = (own if q == me else [None] * 13) + mine
            continue
        if tok[0] == "2" and len(tok) == 2:
            t = _tile(tok[1], what)
            if _tiles.is_flower(t):
                raise RequestError(f"{what}: a flower is never drawn (it is a BUHUA)")
            hand.actions.append(Action(DRAW, me, t))
            continue
        if tok[0] != "3" or len(tok) < 3:
            raise RequestError(f"{what}: not a request of the protocol")
        p = _player(tok[1], what)
        verb, args = tok[2], tok[3:]
        nargs = {"DRAW": 0, "BUHUA": 1, "PLAY": 1, "PENG": 1, "CHI": 2, "GANG": 0, "BUGANG": 1}.get(verb)
        if nargs is None or len(args) != nargs:
            raise RequestError(f"{what}: not a request of the protocol")
        args = [_tile(t, what) for t in args]
        prev = hand.actions[-1] if hand.actions else None
        if verb == "DRAW":
            if p == me:
                raise RequestError(f"{what}: a player's own draw comes as '2 tile'")
            hand.actions.append(Action(DRAW, p, None))
        elif verb == "BUHUA":
            if not _tiles.is_flower(args[0]):
                raise RequestError(f"{what}: BUHUA names a flower (H1-H8)")
            hand.actions.append(Action(BUHUA, p, args[0]))
        elif verb == "PLAY":
            hand.actions.append(Action(PLAY, p, args[0]))
        elif verb == "PENG":
            claimed = _last_discard(hand, what)
            hand.actions += [Action(PENG, p, claimed), Action(PLAY, p, args[0])]
        elif verb == "CHI":
            _last_discard(hand, what)
            hand.actions += [Action(CHI, p, args[0]), Action(PLAY, p, args[1])]
        elif verb == "GANG":
            if prev is not None and prev.kind == DRAW and prev.player == p:
                tile = None
                if p == me:                       # my own concealed kong: my answer named it
                    ans = responses[n - 1] if n - 1 < len(responses) else ""
                    parts = ans.split(" ")
                    tile = parts[1] if len(parts) == 2 and parts[0] == "GANG" and parts[1] in _tiles.KIND_OF else None
                    if tile is None:
                        raise RequestError(f"{what}: my concealed kong, but my answer to the draw was {ans!r}")
                hand.actions.append(Action(ANGANG, p, tile))
            else:
                hand.actions.append(Action(GANG, p, _last_discard(hand, what)))
        elif verb == "BUGANG":
            hand.actions.append(Action(BUGANG, p, args[0]))
    return hand, me


def _last_discard(hand: Hand, what: str) -> str:
    prev = hand.actions[-1] if hand.actions else None
    if prev is None or prev.kind != PLAY:
        raise RequestError(f"{what}: a claim that does not follow a discard")
    return prev.tile


# ---------------------------------------------------------------------------------------------
# mjfast engine events -> a hand

_EV = {name: code for code, name in _engine.EVENTS.items()}


def _name(tile_id: int) -> str:
    return _tiles.BONUS_NAMES[tile_id - 136] if tile_id >= 136 else _tiles.KIND_NAMES[tile_id >> 2]


class EventReader:
    """Reads the engine's events of one hand (rows ``(type, hand, seat, a, b)``) into a
    :class:`Hand`, player ids counted from the dealer. Feed it with :meth:`feed`; the deal is
    complete (:meth:`end_deal`) once the dealer acts, which is the first question of the hand."""

    def __init__(self, hand_no: int, dealer: int):
        self.hand_no = hand_no
        self.dealer = dealer
        self.hand = Hand(quan=(hand_no >> 2) & 3)
        self.received: list = [[], [], [], []]      # per mjfast seat, during the deal: tile ids
        self.in_deal = True
        self.last_draw: list = [None, None, None, None]   # per seat: a flower id just drawn (its bonus event follows)
        self.ended: str | None = None               # "hu", "huang", "false_win"
        self.fan_rows: list = []

    def player(self, seat: int) -> int:
        return (seat - self.dealer) & 3

    def end_deal(self) -> None:
        """The deal is over: each player's Botzone deal, and the dealer's 14th tile as its first Draw."""
        if not self.in_deal:
            return
        self.in_deal = False
        for seat in range(4):
            got = self.received[seat]
            p = self.player(seat)
            if p != 0:
                self.hand.deals[p] = [_name(t) for t in got]
                continue
            # the dealer: the tiles up to its 13th that is not a flower, then the rest as draws
            plain = [j for j, t in enumerate(got) if t < 136]
            cut = plain[12] + 1 if len(plain) >= 13 else len(got)
            self.hand.deals[0] = [_name(t) for t in got[:cut]]
            rest = [Action(BUHUA if t >= 136 else DRAW, 0, _name(t)) for t in got[cut:]]
            self.hand.actions[:0] = rest

    def feed(self, typ: int, seat: int, a: int, b: int) -> None:
        h = self.hand
        if self.in_deal:
            if typ == _EV["deal"]:
                self.received[seat].append(a)
                if a >= 136:
                    self.last_draw[seat] = a
                return
            if typ == _EV["bonus"]:
                if self.last_draw[seat] == a:         # the flower just dealt
                    self.last_draw[seat] = None
                else:
                    self.received[seat].append(a)     # a flower drawn as a replacement
                return
            if typ == _EV["replacement"]:
                self.received[seat].append(a)
                return
            self.end_deal()
        p = self.player(seat)
        if typ == _EV["draw"]:
            if a >= 136:
                self.last_draw[seat] = a
                h.actions.append(Action(BUHUA, p, _name(a)))
            else:
                h.actions.append(Action(DRAW, p, _name(a)))
        elif typ == _EV["bonus"]:
            if self.last_draw[seat] == a:
                self.last_draw[seat] = None
            else:
                h.actions.append(Action(BUHUA, p, _name(a)))
        elif typ == _EV["replacement"]:
            h.actions.append(Action(DRAW, p, _name(a)))
        elif typ == _EV["discard"]:
            h.actions.append(Action(PLAY, p, _tiles.KIND_NAMES[a]))
        elif typ == _EV["chow"]:
            h.actions.append(Action(CHI, p, _tiles.KIND_NAMES[b + 1]))
        elif typ == _EV["pung"]:
            h.actions.append(Action(PENG, p, _tiles.KIND_NAMES[a]))
        elif typ == _EV["kong"]:
            h.actions.append(Action(GANG, p, _tiles.KIND_NAMES[a]))
        elif typ == _EV["concealed_kong"]:
            h.actions.append(Action(ANGANG, p, _tiles.KIND_NAMES[a]))
        elif typ == _EV["added_kong"]:
            h.actions.append(Action(BUGANG, p, _tiles.KIND_NAMES[a]))
        elif typ == _EV["fan"]:
            self.fan_rows.append((a, b))
        elif typ == _EV["win"]:
            h.result = "hu"
            self.ended = "hu"
            h.actions.append(Action(HU, p, self._win_tile(p, bool(a))))
        elif typ == _EV["score"]:
            if h.scores is None:
                h.scores = [0, 0, 0, 0]
            h.scores[p] += a
        elif typ == _EV["exhaustive_draw"]:
            h.result = "huang"
            self.ended = "huang"
        elif typ == _EV["false_win"]:
            self.ended = "false_win"
            h.result = "penalty"
            h.penalty = ("WH", p)

    def _win_tile(self, p: int, self_drawn: bool) -> str | None:
        for act in reversed(self.hand.actions):
            if self_drawn and act.kind == DRAW and act.player == p:
                return act.tile
            if not self_drawn and act.kind in (PLAY, BUGANG):
                return act.tile
        if self_drawn:                    # the dealer's first turn: its 14th tile
            return None
        return None
