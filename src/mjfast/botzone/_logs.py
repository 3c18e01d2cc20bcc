"""Botzone's logs: the match-data text format (``Match``, ``Wind``, ``Player N ...``, ``Fan``,
``Score`` lines) and the platform's JSON match logs, read as :class:`Hand` records one at a
time; mjfast games written in the text format."""
from __future__ import annotations

import io
import json
import os
import re
from collections.abc import Iterable, Iterator

from .._runtime.progress import Progress
from ..game.log import GameLog
from ..mcr import FANS
from . import _tiles
from ._hand import ANGANG, BUGANG, BUHUA, CHI, DRAW, GANG, HU, PENG, PLAY, Action, EventReader, Hand

#: the judge's (2018 calculator's) Chinese name of each mjfast fan, by index
JUDGE_NAMES: tuple = tuple({"独听・边张": "边张", "独听・嵌张": "嵌张", "独听・单钓": "单钓将"}.get(zh, zh)
                           for _, zh, _ in FANS)
FAN_INDEX: dict = {name: i for i, name in enumerate(JUDGE_NAMES)}
FAN_VALUE: dict = {name: FANS[i][2] for i, name in enumerate(JUDGE_NAMES)}

_VERBS = {"Draw": DRAW, "Play": PLAY, "Chi": CHI, "Peng": PENG, "Gang": GANG, "AnGang": ANGANG, "BuGang": BUGANG,
          "Hu": HU, "BuHua": BUHUA}
_VERB_OF = {v.lower(): k for k, v in _VERBS.items()}
_FAN_ITEM = re.compile(r"^(.+)\*(\d+)$")


class LogError(ValueError):
    """A log that does not follow its format (the message names the source and the line)."""


# ---------------------------------------------------------------------------------------------
# reading: sources

class _Source:
    """Lines (or text) of a path or file object, with the bytes read for the progress bar."""

    def __init__(self, source):
        self.close_me = None
        if isinstance(source, (str, os.PathLike)):
            path = os.fspath(source)
            if os.path.isdir(path):
                raise IsADirectoryError(f"{path} is a directory, not a log file")
            self.fh = open(path, "rb")          # noqa: SIM115 - closed by close()
            self.close_me = self.fh
            self.name = path
            self.size = os.path.getsize(path)
        elif hasattr(source, "read"):
            self.fh = source
            self.name = getattr(source, "name", None) or "<file>"
            self.name = self.name if isinstance(self.name, str) else "<file>"
            self.size = None
            try:
                pos = source.tell()
                end = source.seek(0, os.SEEK_END)
                source.seek(pos)
                self.size = end - pos if not isinstance(source, io.TextIOBase) else None
            except (OSError, AttributeError, ValueError):
                self.size = None
        else:
            raise TypeError(f"read_logs takes a path or a file object, not {type(source).__name__}")
        self.done = 0

    def lines(self) -> Iterator[tuple[int, str]]:
        for no, raw in enumerate(self.fh, 1):
            if isinstance(raw, bytes):
                self.done += len(raw)
                try:
                    raw = raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise LogError(f"{self.name}, line {no}: not UTF-8 text") from None
            else:
                self.done += len(raw)
            yield no, raw.rstrip("\r\n")

    def close(self) -> None:
        if self.close_me is not None:
            self.close_me.close()


def read_logs(source, *, format: str = "auto", progress: bool = True) -> Iterator[Hand]:
    """Read Botzone Chinese-Standard-Mahjong logs, one hand at a time.

    Two formats: the match-data text format of the IJCAI competitions (hands of ``Match``,
    ``Wind``, ``Player N Deal/Draw/Play/Chi/Peng/Gang/AnGang/BuGang/Hu``, then ``Fan ...`` or
    ``Huang``, then ``Score``, separated by empty lines; mjfast also writes and reads
    ``Player N BuHua H1`` for flowers) and the platform's JSON match logs (an object with
    ``initdata`` and ``logs`` per match: one a line, one after the other, or in a list).

    The file is read as it goes: memory holds one hand whatever the file's size.

    Parameters
    ----------
    source : str, os.PathLike or file object
        The log file (a file object may be text or binary).
    format : {"auto", "text", "json"}
        ``"auto"`` looks at the first character that is not white space (``{`` or ``[``: JSON).
    progress : bool
        A progress bar (bytes read) on long reads (see :func:`mjfast.set_options`).

    Yields
    ------
    Hand
        Each hand: its match id, prevalent wind (``quan``), deals, actions, result, fans
        and scores, and the line it starts at.

    Raises
    ------
    ValueError
        A line (or JSON value) that does not follow the format, naming the file and the line.

    Examples
    --------
    >>> import io
    >>> from mjfast.botzone import read_logs
    >>> text = '''Match m1
    ... Wind 0
    ... Player 0 Deal W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9
    ... Player 1 Deal B1 B2 B3 B4 B5 B6 B7 B8 B9 T1 T2 T3 T4
    ... Player 2 Deal T5 T6 T7 T8 T9 F1 F2 F3 F4 J1 J2 J3 B1
    ... Player 3 Deal B2 B3 B4 B5 B6 B7 B8 B9 T1 T2 T3 T4 T5
    ... Player 0 Draw W5
    ... Player 0 Hu W5
    ... Fan 89 九莲宝灯*1+自摸*1
    ... Score -97 -97 291 -97
    ... '''
    >>> hand = next(read_logs(io.StringIO(text), progress=False))
    >>> hand.match, hand.quan, hand.winner, hand.fan, hand.actions[0]
    ('m1', 0, 0, 89, Action(kind='Draw', player=0, tile='W5', line=7))
    """
    if format not in ("auto", "text", "json"):
        raise ValueError(f"format must be 'auto', 'text' or 'json', got {format!r}")
    src = _Source(source)
    bar = Progress(src.size, label="read_logs", unit="B", enabled=bool(progress))
    try:
        lines = src.lines()
        first = None
        for no, line in lines:
            if line.strip():
                first = (no, line)
                break
        if first is None:
            return
        fmt = format
        if fmt == "auto":
            fmt = "json" if first[1].lstrip().startswith(("{", "[")) else "text"
        reader = _read_json if fmt == "json" else _read_text
        for hand in reader(src.name, first, lines):
            bar.update(src.done)
            yield hand
        bar.update(src.done)
    finally:
        bar.close()
        src.close()


# ---------------------------------------------------------------------------------------------
# the text format

def _bad(name: str, no: int, line: str, why: str) -> LogError:
    shown = line if len(line) <= 120 else line[:117] + "..."
    return LogError(f"{name}, line {no}: {why}: {shown!r}")


def _read_text(name: str, first, lines) -> Iterator[Hand]:
    pending = [first]
    group: list = []

    def all_lines():
        yield from pending
        yield from lines

    for no, line in all_lines():
        if not line.strip():
            if group:
                yield _text_hand(name, group)
                group = []
            continue
        if line.startswith("Match") and group:
            yield _text_hand(name, group)
            group = []
        group.append((no, line))
    if group:
        yield _text_hand(name, group)


def _tile_tok(name, no, line, tok: str) -> str:
    if tok not in _tiles.TILES:
        raise _bad(name, no, line, f"{tok!r} is not a Botzone tile")
    return tok


def _int_tok(name, no, line, tok: str, what: str) -> int:
    try:
        return int(tok)
    except ValueError:
        raise _bad(name, no, line, f"{what} {tok!r} is not an integer") from None


def _text_hand(name: str, group: list) -> Hand:
    it = iter(group)
    no, line = next(it)
    tok = line.split()
    if len(tok) != 2 or tok[0] != "Match":
        raise _bad(name, no, line, "a hand starts with 'Match <id>'")
    hand = Hand(match=tok[1], line=no)
    try:
        no, line = next(it)
    except StopIteration:
        raise _bad(name, no, line, "the hand ends after its Match line") from None
    tok = line.split()
    if len(tok) != 2 or tok[0] != "Wind" or tok[1] not in ("0", "1", "2", "3"):
        raise _bad(name, no, line, "the second line of a hand is 'Wind <0-3>'")
    hand.quan = int(tok[1])
    for p in range(4):
        try:
            no, line = next(it)
        except StopIteration:
            raise _bad(name, no, line, "the hand ends before its four Deal lines") from None
        tok = line.split()
        if len(tok) < 3 or tok[:3] != ["Player", str(p), "Deal"]:
            raise _bad(name, no, line, f"line {3 + p} of a hand is 'Player {p} Deal <tiles>'")
        deal = [_tile_tok(name, no, line, t) for t in tok[3:]]
        if sum(not _tiles.is_flower(t) for t in deal) != 13:
            raise _bad(name, no, line, "a deal holds 13 tiles besides flowers")
        hand.deals[p] = deal
    last_discard = None
    ended: bool | str = False
    for no, line in it:
        tok = line.split()
        if ended:
            if tok and tok[0] == "Score":
                if len(tok) != 5:
                    raise _bad(name, no, line, "'Score' takes four integers")
                hand.scores = [_int_tok(name, no, line, t, "a score") for t in tok[1:]]
                ended = "scored"
                continue
            raise _bad(name, no, line, "only a Score line may follow the Fan or Huang line"
                       if ended is True else "a line after the hand's Score line")
        if tok == ["Huang"]:
            if hand.actions and hand.actions[-1].kind == HU:
                raise _bad(name, no, line, "Huang after a win")
            hand.result = "huang"
            ended = True
            continue
        if tok and tok[0] == "Fan":
            if not hand.actions or hand.actions[-1].kind != HU:
                raise _bad(name, no, line, "a Fan line follows the Hu line")
            if len(tok) != 3:
                raise _bad(name, no, line, "'Fan <total> <name>*<count>+...'")
            hand.fan = _int_tok(name, no, line, tok[1], "the fan total")
            for item in tok[2].split("+"):
                m = _FAN_ITEM.match(item)
                if m is None:
                    raise _bad(name, no, line, f"{item!r} is not '<fan name>*<count>'")
                hand.fans.append((m.group(1), int(m.group(2))))
            hand.result = "hu"
            ended = True
            continue
        if len(tok) < 4 or tok[0] != "Player" or tok[1] not in ("0", "1", "2", "3"):
            raise _bad(name, no, line, "not a line of the format (Player <0-3> <action> <tile>, Fan, Huang, Score)")
        p = int(tok[1])
        verb = _VERB_OF.get(tok[2].lower())
        if verb is None or verb == "Deal":
            raise _bad(name, no, line, f"{tok[2]!r} is not an action (Draw, Play, Chi, Peng, Gang, AnGang, BuGang, Hu)")
        kind = _VERBS[verb]
        if hand.actions and hand.actions[-1].kind == HU:
            raise _bad(name, no, line, "an action after the win")
        rest = tok[3:]
        if len(rest) > 1 and rest[1] != "Ignore":
            raise _bad(name, no, line, "one tile, then optionally 'Ignore Player <j> <Action> <tile>' ...")
        if len(rest) > 1:
            if kind not in (PENG, GANG, HU):
                raise _bad(name, no, line, "only Peng, Gang and Hu lines have Ignore parts")
            ign = rest[1:]
            if len(ign) % 5:
                raise _bad(name, no, line, "each Ignore part is 'Ignore Player <j> <Action> <tile>'")
            for j in range(0, len(ign), 5):
                if ign[j] != "Ignore" or ign[j + 1] != "Player" or ign[j + 2] not in ("0", "1", "2", "3"):
                    raise _bad(name, no, line, "each Ignore part is 'Ignore Player <j> <Action> <tile>'")
                _tile_tok(name, no, line, ign[j + 4])
        tile = rest[0]
        prev = hand.actions[-1] if hand.actions else None
        if prev is not None and prev.kind in (CHI, PENG) and (kind != PLAY or p != prev.player):
            raise _bad(name, no, line, f"a {prev.kind} line is followed by the same player's Play")
        if kind == HU:
            if tile != "None":
                _tile_tok(name, no, line, tile)
            if prev is not None and prev.kind == DRAW and prev.player == p:
                tile = prev.tile                  # self-drawn: the line shows the last discard, not the tile drawn
            else:
                tile = last_discard
            hand.actions.append(Action(HU, p, tile, no))
            continue
        _tile_tok(name, no, line, tile)
        if kind in (CHI, PENG, GANG):
            if last_discard is None or prev is None or prev.kind != PLAY:
                raise _bad(name, no, line, f"a {verb} that does not follow a discard")
        if kind in (PENG, GANG) and tile != last_discard:
            raise _bad(name, no, line, f"the {verb} names {tile}, the discard was {last_discard}")
        if kind == CHI and (tile not in _tiles.KIND_OF or _tiles.KIND_OF[tile] >= 27):
            raise _bad(name, no, line, "a chow's middle tile is a number tile")
        if kind == BUHUA and not _tiles.is_flower(tile):
            raise _bad(name, no, line, "BuHua names a flower (H1-H8)")
        if kind in (DRAW, PLAY, CHI, PENG, GANG, ANGANG, BUGANG) and _tiles.is_flower(tile):
            raise _bad(name, no, line, f"a flower in a {verb} line")
        if kind in (PLAY, BUGANG):
            last_discard = tile
        hand.actions.append(Action(kind, p, tile, no))
    if ended != "scored":
        raise _bad(name, group[-1][0], group[-1][1], "the hand ends without its Fan or Huang line and Score line")
    return hand


def format_hand(hand: Hand) -> str:
    """The hand in the text format (its lines, ending with a newline)."""
    out = [f"Match {hand.match or 'unknown'}", f"Wind {hand.quan}"]
    for p in range(4):
        if any(t is None for t in hand.deals[p]):
            raise ValueError(f"player {p}'s deal is not known")
        out.append(f"Player {p} Deal " + " ".join(hand.deals[p]))
    last = "None"
    for a in hand.actions:
        if a.kind == HU:
            out.append(f"Player {a.player} Hu {last}")
            continue
        if a.tile is None:
            raise ValueError(f"the tile of a {a.kind} by player {a.player} is not known")
        out.append(f"Player {a.player} {a.kind} {a.tile}")
        if a.kind in (PLAY, BUGANG):
            last = a.tile
    if hand.result == "hu":
        out.append(f"Fan {hand.fan} " + "+".join(f"{n}*{c}" for n, c in hand.fans))
    elif hand.result == "huang":
        out.append("Huang")
    else:
        raise ValueError("only hands that end with a win or an exhaustive draw are written (not penalties)")
    out.append("Score " + " ".join(str(s) for s in (hand.scores or [0, 0, 0, 0])))
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------
# the JSON match logs

def _read_json(name: str, first, lines) -> Iterator[Hand]:
    dec = json.JSONDecoder()
    buf = first[1] + "\n"
    line_no = first[0]            # the line where buf starts
    count = 0
    depth_list = False
    eof = False
    while True:
        i = 0
        while i < len(buf) and (buf[i].isspace() or buf[i] in ",[]"):
            if buf[i] == "[":
                if depth_list:
                    raise LogError(f"{name}, line {line_no + buf.count(chr(10), 0, i)}: a list inside the list of "
                                   "matches (each match is an object)")
                depth_list = True
            i += 1
        line_no += buf.count("\n", 0, i)
        buf = buf[i:]
        if not buf:
            if eof:
                return
            got = next(lines, None)
            if got is None:
                eof = True
                continue
            buf = got[1] + "\n"
            line_no = got[0]
            continue
        try:
            obj, end = dec.raw_decode(buf)
        except json.JSONDecodeError as exc:
            got = None if eof else next(lines, None)
            if got is None:
                raise LogError(f"{name}, line {line_no + buf.count(chr(10), 0, exc.pos)}: not JSON ({exc.msg})") from None
            buf += got[1] + "\n"
            continue
        except RecursionError:
            raise LogError(f"{name}, line {line_no}: a JSON value nested too deeply") from None
        count += 1
        yield _json_hand(obj, f"{name}, line {line_no} (match {count})", line_no)
        line_no += buf.count("\n", 0, end)
        buf = buf[end:]


def _json_hand(obj, where: str, line: int) -> Hand:
    def bad(why: str) -> LogError:
        return LogError(f"{where}: {why}")

    if not isinstance(obj, dict) or not isinstance(obj.get("logs"), list):
        raise bad("a match log is an object with a 'logs' list")
    init = obj.get("initdata")
    if isinstance(init, str):
        try:
            init = json.loads(init) if init.strip() else {}
        except ValueError:
            raise bad("its 'initdata' string is not JSON") from None
    hand = Hand(line=line, match=str(obj["_id"]) if isinstance(obj.get("_id"), (str, int)) else None)
    if isinstance(init, dict) and isinstance(init.get("quan"), int) and 0 <= init["quan"] <= 3:
        hand.quan = init["quan"]
    if isinstance(init, dict) and isinstance(init.get("walltiles"), str) and init["walltiles"].strip():
        wall = init["walltiles"].split()
        part = len(wall) // 4
        hand.walls = [wall[part * i:part * (i + 1)] for i in range(4)]
    last_discard = None
    dealt = False
    for n, entry in enumerate(obj["logs"]):
        out = entry.get("output") if isinstance(entry, dict) else None
        d = out.get("display") if isinstance(out, dict) else None
        if not isinstance(d, dict):
            continue
        act = d.get("action")
        if not isinstance(act, str):
            raise bad(f"log entry {n}: a display without an 'action'")
        p = d.get("player")
        tile = d.get("tile")

        def tile_of(value, what="tile", n=n, act=act):
            if not isinstance(value, str) or value not in _tiles.TILES:
                raise bad(f"log entry {n} ({act}): {what} {value!r} is not a Botzone tile")
            return value

        if act == "INIT":
            if isinstance(d.get("quan"), int) and 0 <= d["quan"] <= 3:
                hand.quan = d["quan"]
            continue
        if act == "DEAL":
            deals = d.get("hand")
            if not (isinstance(deals, list) and len(deals) == 4 and all(isinstance(x, list) for x in deals)):
                raise bad(f"log entry {n} (DEAL): 'hand' is four lists of tiles")
            hand.deals = [[tile_of(t) for t in x] for x in deals]
            dealt = True
            continue
        if act in ("HUANG",):
            hand.result = "huang"
            hand.scores = [0, 0, 0, 0]
            break
        if not dealt:
            raise bad(f"log entry {n} ({act}) comes before the deal")
        if not (isinstance(p, int) and 0 <= p <= 3):
            raise bad(f"log entry {n} ({act}): 'player' must be 0-3")
        prev = hand.actions[-1] if hand.actions else None
        if act == "DRAW":
            hand.actions.append(Action(DRAW, p, tile_of(tile)))
        elif act == "BUHUA":
            hand.actions.append(Action(BUHUA, p, tile_of(tile)))
        elif act == "PLAY":
            hand.actions.append(Action(PLAY, p, tile_of(tile)))
            last_discard = tile
        elif act == "PENG":
            hand.actions += [Action(PENG, p, last_discard), Action(PLAY, p, tile_of(tile))]
            last_discard = tile
        elif act == "CHI":
            hand.actions += [Action(CHI, p, tile_of(d.get("tileCHI"), "tileCHI")), Action(PLAY, p, tile_of(tile))]
            last_discard = tile
        elif act == "GANG":
            own = prev is not None and prev.kind == DRAW and prev.player == p
            hand.actions.append(Action(ANGANG if own else GANG, p, tile_of(tile) if tile is not None else
                                       (None if own else last_discard)))
        elif act == "BUGANG":
            hand.actions.append(Action(BUGANG, p, tile_of(tile)))
            last_discard = tile
        elif act == "HU":
            win = prev.tile if prev is not None and prev.kind == DRAW and prev.player == p else last_discard
            hand.actions.append(Action(HU, p, win))
            hand.result = "hu"
            if isinstance(d.get("fanCnt"), int):
                hand.fan = d["fanCnt"]
            for f in d.get("fan") or []:
                if isinstance(f, dict) and isinstance(f.get("name"), str) and isinstance(f.get("cnt"), int):
                    hand.fans.append((f["name"], f["cnt"]))
            if isinstance(d.get("score"), list) and len(d["score"]) == 4:
                hand.scores = list(d["score"])
            break
        else:                                  # WA, WH, TLE, ...: a penalty ends the match
            hand.result = "penalty"
            hand.penalty = (act, p)
            if isinstance(d.get("score"), list) and len(d["score"]) == 4:
                hand.scores = list(d["score"])
            break
    if not dealt:
        raise bad("no DEAL in the log")
    return hand


# ---------------------------------------------------------------------------------------------
# mjfast games -> hands, and writing

_EVENT_CODES = None


def _event_codes() -> dict:
    global _EVENT_CODES
    if _EVENT_CODES is None:
        from .._kernels import engine as _engine
        _EVENT_CODES = {n: c for c, n in _engine.EVENTS.items()}
    return _EVENT_CODES


def _row(e: dict) -> tuple:
    """(type, seat, a, b) of an mjfast event dict (the fields EventReader reads)."""
    from .. import tiles

    ev = _event_codes()
    t = e["type"]
    if t in ("deal", "draw", "bonus", "replacement"):
        return ev[t], e["seat"], e["id"], 0
    if t in ("discard", "pung", "kong", "concealed_kong", "added_kong"):
        return ev[t], e["seat"], tiles.tile_index(e["tile"]), 0
    if t == "chow":
        return ev[t], e["seat"], tiles.tile_index(e["tile"]), tiles.tile_index(e["set"][0] + e["set"][-1])
    if t == "win":
        return ev[t], e["seat"], int(e["self_drawn"]), -1 if e["discarder"] is None else e["discarder"]
    if t == "score":
        return ev[t], e["seat"], e["delta"], e["total"]
    if t == "fan":
        idx = next(i for i, f in enumerate(FANS) if f[0] == e["fan"])
        return ev[t], e["seat"], idx, e["count"]
    return ev.get(t, -1), e["seat"], 0, 0


def hands_of(log: GameLog) -> list:
    """The hands of an mjfast game (Chinese rules with fans: ``mcr``) as Botzone records:
    player ids counted from each hand's dealer, the hand's prevalent wind, the fans by the
    judge's names. A hand that ended with a false win has ``result`` "penalty"."""
    if not isinstance(log, GameLog):
        raise TypeError(f"expected a GameLog, not {type(log).__name__}")
    h = log.header
    if h.get("rules") != "mcr" and not (h.get("options") or {}).get("scoring") == "fan":
        raise ValueError(f"the Botzone text format is Chinese Official's: this log's rules are {h.get('rules')!r}, "
                         "not 'mcr'")
    out: list = []
    reader = None
    ev_hand = _event_codes()["hand"]
    for e in log.events:
        typ, seat, a, b = _row(e)
        if typ == ev_hand:
            if reader is not None:
                out.append(_finish(reader, log, len(out)))
            reader = EventReader(e["hand"], e["dealer"])
            continue
        if reader is not None:
            reader.feed(typ, seat, a, b)
    if reader is not None:
        out.append(_finish(reader, log, len(out)))
    return out


def _finish(reader: EventReader, log: GameLog, k: int) -> Hand:
    reader.end_deal()
    hand = reader.hand
    h = log.header
    seed = h.get("seed")
    tag = "x" if seed is None else re.sub(r"[^0-9A-Za-z_.-]", "", json.dumps(seed).replace(",", "_"))
    hand.match = f"mjfast-{tag}-{h.get('game_index', 0)}-{reader.hand_no}"
    if h.get("rules") == "mcr-botzone":         # the match's prevalent wind, not the hand number's
        hand.quan = int((h.get("options") or {}).get("quan", 0))
    if hand.result == "hu":
        hand.fans = [(JUDGE_NAMES[i], c) for i, c in reader.fan_rows]
        hand.fan = sum(FANS[i][2] * c for i, c in reader.fan_rows)
    if hand.result == "huang":
        hand.scores = [0, 0, 0, 0]
    return hand


def write_logs(games, target) -> int:
    """Write games in Botzone's match-data text format (one hand a group of lines, an empty
    line after each).

    Parameters
    ----------
    games : GameLog, Hand, or an iterable of them
        mjfast games played with ``rules="mcr"`` (each hand is one Botzone match: player ids
        count from the hand's dealer, the prevalent wind is the hand's) or ``"mcr-botzone"``
        (the prevalent wind is the game's ``quan``), or hands read by :func:`read_logs`.
    target : str, os.PathLike or text file object

    Returns
    -------
    int
        The hands written. A hand that ended with a false win is left out (the format holds
        wins and exhaustive draws only, as the published data does).

    Notes
    -----
    The match id of an mjfast hand is ``mjfast-<seed>-<game index>-<hand>``. Flowers are
    written as ``Player N BuHua H1`` lines (the published data has no flowers; :func:`read_logs`
    reads them). A ``Hu`` line shows the last tile discarded or added to a kong, as the
    published data does (for a self-drawn win the winning tile is the line before).

    Examples
    --------
    >>> import io, mjfast
    >>> from mjfast.botzone import read_logs, write_logs
    >>> buf = io.StringIO()
    >>> write_logs(mjfast.replay(1, 0, rules="mcr", flowers=False), buf)
    4
    >>> [h.quan for h in read_logs(io.StringIO(buf.getvalue()), progress=False)]
    [0, 0, 0, 0]
    """
    if isinstance(games, (GameLog, Hand)):
        games = [games]
    close = None
    if isinstance(target, (str, os.PathLike)):
        fh = open(os.fspath(target), "w", encoding="utf-8", newline="\n")     # noqa: SIM115
        close = fh
    elif hasattr(target, "write"):
        fh = target
    else:
        raise TypeError(f"write_logs writes to a path or a text file object, not {type(target).__name__}")
    n = 0
    try:
        for g in _hands(games):
            if g.result not in ("hu", "huang"):
                continue
            fh.write(format_hand(g) + "\n")
            n += 1
    finally:
        if close is not None:
            close.close()
    return n


def _hands(games: Iterable) -> Iterator[Hand]:
    for g in games:
        if isinstance(g, Hand):
            yield g
        elif isinstance(g, GameLog):
            yield from hands_of(g)
        else:
            raise TypeError(f"write_logs takes GameLogs and Hands, not {type(g).__name__}")
