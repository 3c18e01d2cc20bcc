"""Event logs: a game's header (what re-runs it) and its events as JSON-ready dicts.

Reading a log (:func:`read_log`: a GameLog, its JSON-lines text or lines, or a file), checking
its events' shape (:func:`check_events`), and naming the first place where a log and its
replay differ (:func:`first_difference`) are here too; :mod:`.runner` plays the games.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from typing import Any

from .._display import Display, Displayed, Table, frame
from .._kernels import engine as _engine

#: Event-log header version. 2: the Chinese options hold refill_dead_wall and added_kong
#: (mjfast 0.2); a version-1 header lacks them and was played under these readings:
LOG_VERSION = 2
V1_OPTIONS = {"refill_dead_wall": True, "added_kong": "any"}
#: an "mcr" header without the fan options (mjfast 0.2 before fans) was played without fans
PRE_FAN_MCR_OPTIONS = {"scoring": "basic", "min_fan": 0}
#: every event type of every family (the engine's names)
EVENT_TYPES = frozenset(_engine.EVENTS.values())


class Events(list):
    """A game's events: a plain list of JSON-ready dicts (one per event, in order), with
    :meth:`to_pandas`.

    Examples
    --------
    >>> import mjfast
    >>> ev = mjfast.replay(1, 0).events
    >>> ev[0]
    {'hand': 0, 'type': 'hand', 'seat': 0, 'dealer': 0, 'dice': [7, 10]}
    >>> ev == list(ev)
    True
    """

    attrs: dict

    def __init__(self, events=(), attrs: dict | None = None):
        super().__init__(events)
        self.attrs = dict(attrs or {})

    def to_pandas(self) -> Any:
        """The events as a pandas DataFrame: one row per event, the columns ``hand``,
        ``type``, ``seat`` and then every other field in the order it first appears (a field an
        event type does not have is missing: ``<NA>``); a list field (a hand's ``dice``) gives
        one column per item (``dice_0``, ``dice_1``). ``df.attrs`` holds the game's rules,
        seed, game index and policies. Needs pandas (``pip install "mjfast[pandas]"``).

        Examples
        --------
        >>> import mjfast
        >>> df = mjfast.replay(1, 0).events.to_pandas()          # doctest: +SKIP
        >>> df.loc[df["type"] == "discard", ["seat", "tile"]].head(2)   # doctest: +SKIP
           seat tile
        54     0   9s
        56     1   2z
        """
        columns: list[str] = ["hand", "type", "seat"]
        rows = []
        for e in self:
            row = {}
            for k, v in e.items():
                if isinstance(v, list):
                    row.update({f"{k}_{i}": x for i, x in enumerate(v)})
                else:
                    row[k] = v
            for k in row:
                if k not in columns:
                    columns.append(k)
            rows.append(row)
        return frame(columns, [[r.get(c) for c in columns] for r in rows], what="GameLog.events.to_pandas()",
                     attrs=self.attrs)


@dataclasses.dataclass(frozen=True, repr=False)
class GameLog(Displayed):
    """Every event of one game, as JSON-ready dicts (see :func:`mjfast.replay`).

    ``header`` holds what is needed to re-run the game (:func:`mjfast.rerun`): seed, game
    index, rules and options, policies, each hand's wall order (physical tile ids) and dice,
    and for a game played with a card the card itself (``card``, an ``mjfast-card/1``
    mapping) and its content hash (``card_sha256``); then the final ``scores``. ``events``
    is a list of dicts (:class:`~mjfast.game.log.Events`: ``events.to_pandas()`` gives a DataFrame).

    ``repr`` (and Jupyter's HTML) show a summary: one row per hand (dealer, winner, how, the
    points each seat won or lost) and the final scores; ``to_jsonl()`` gives the whole log.

    Examples
    --------
    >>> import mjfast
    >>> log = mjfast.replay(1, 0)
    >>> mjfast.GameLog.from_jsonl(log.to_jsonl()) == log
    True
    >>> print(repr(log).splitlines()[0])
    GameLog: rules=classical, seed=1, game 0, 4 hands, 444 events
    """

    header: dict
    events: list

    def __post_init__(self) -> None:
        if not isinstance(self.header, dict):
            raise TypeError(f"GameLog: header must be a dict, not {type(self.header).__name__}")
        if not isinstance(self.events, list):
            raise TypeError(f"GameLog: events must be a list of dicts, not {type(self.events).__name__}")
        if not isinstance(self.events, Events):
            h = self.header
            attrs = {k: h.get(k) for k in ("rules", "seed", "game_index", "policies") if k in h}
            object.__setattr__(self, "events", Events(self.events, attrs))

    def to_jsonl(self) -> str:
        """The log as JSON lines: the header first, then one event per line."""
        return "\n".join([json.dumps({"type": "header", **self.header})] + [json.dumps(e) for e in self.events]) + "\n"

    @classmethod
    def from_jsonl(cls, text: str) -> GameLog:
        """Read a log from its JSON-lines text (as :meth:`to_jsonl` writes it).

        Raises ``ValueError`` naming the line that is not JSON, not an object, or nested too
        deeply, and when the first line is not the header.
        """
        if not isinstance(text, str):
            raise TypeError(f"an event log is JSON-lines text, not {type(text).__name__}")
        lines = []
        for no, x in enumerate(text.splitlines(), 1):
            if not x.strip():
                continue
            try:
                obj = json.loads(x)
            except RecursionError:
                raise ValueError(f"not an mjfast event log: line {no} is nested too deeply") from None
            except ValueError as exc:
                raise ValueError(f"not an mjfast event log: line {no} is not JSON ({exc})") from None
            if not isinstance(obj, dict):
                raise ValueError(f"not an mjfast event log: line {no} is not a JSON object; the log is JSON lines "
                                 "of objects, starting with the header line")
            lines.append(obj)
        if not lines or lines[0].get("type") != "header":
            raise ValueError("not an mjfast event log: it is JSON lines of objects, starting with the header line")
        header = dict(lines[0])
        header.pop("type")
        return cls(header, lines[1:])

    # ------------------------------------------------------------------ display
    def _hands(self) -> list:
        """Per hand: (hand, dealer, winner, how, discarder, fan, [delta per seat])."""
        rows: dict[int, list] = {}

        def row(e) -> list:
            h = e.get("hand")
            if not isinstance(h, int):
                h = -1
            return rows.setdefault(h, [h, None, None, "drawn", None, None, [0, 0, 0, 0]])

        for e in self.events:
            if not isinstance(e, dict):
                continue
            t, seat = e.get("type"), e.get("seat")
            r = row(e)
            if t == "hand":
                r[1] = e.get("dealer", seat)
            elif t == "win" and r[2] is None:
                r[2], r[3], r[4] = seat, "self-drawn" if e.get("self_drawn") else "discard", e.get("discarder")
            elif t == "fan" and isinstance(e.get("value"), int) and isinstance(e.get("count"), int):
                r[5] = (r[5] or 0) + e["value"] * e["count"]
            elif t == "score" and isinstance(seat, int) and 0 <= seat < 4 and isinstance(e.get("delta"), int):
                r[6][seat] += e["delta"]
        return [rows[h] for h in sorted(rows)]

    def _display(self) -> Display:
        h = self.header
        seed = h.get("seed")
        where = [f"rules={h.get('rules')}"]
        if seed is not None:
            where.append(f"seed={json.dumps(seed)}")
        if h.get("game_index") is not None:
            where.append(f"game {h['game_index']}")
        hands = self._hands()
        where += [f"{len(hands):,} hands", f"{len(self.events):,} events"]
        fans = any(r[5] is not None for r in hands)
        cols = ("hand", "dealer", "winner", "how", "discarder") + (("fan",) if fans else ()) + tuple(
            f"seat {s}" for s in range(4))
        rows = [tuple(r[:5]) + ((r[5],) if fans else ()) + tuple(r[6]) for r in hands]
        notes = []
        pols = h.get("policies")
        if isinstance(pols, list):
            notes.append("policies: " + ", ".join(map(str, pols)))
        if isinstance(h.get("card"), dict) or "card" in (h.get("options") or {}):
            card = h.get("card") if isinstance(h.get("card"), dict) else h["options"]["card"]
            notes.append(f"card: {card.get('name')!r}" if isinstance(card, dict) else "card")
        if isinstance(h.get("scores"), list):
            notes.append("final scores: " + ", ".join(f"{v:,}" if isinstance(v, int) else str(v) for v in h["scores"]))
        notes.append(".events: the events (.events.to_pandas() for a DataFrame); .to_jsonl(): the whole log")
        return Display("GameLog: " + ", ".join(where), [Table(cols, rows, "points won or lost per hand")], notes)


# ---------------------------------------------------------------------------------------------
# reading and checking logs

def read_log(log: Any, where: str = "rerun") -> GameLog:
    """A GameLog from what :func:`mjfast.rerun` accepts: a GameLog, its JSON-lines text, a list
    of its lines, or the path (str or os.PathLike) of a file holding that text."""
    if isinstance(log, GameLog):
        return log
    if isinstance(log, os.PathLike):
        return GameLog.from_jsonl(_read_file(os.fspath(log)))
    if isinstance(log, (list, tuple)) and all(isinstance(x, str) for x in log):
        return GameLog.from_jsonl("\n".join(log))
    if not isinstance(log, str):
        raise TypeError(f"{where} expects a GameLog, its JSON-lines text or lines, or the path of a log file, "
                        f"not {type(log).__name__}")
    if log.lstrip().startswith("{"):
        return GameLog.from_jsonl(log)
    if "\n" not in log.strip() and os.path.isfile(log):
        return GameLog.from_jsonl(_read_file(log))
    shown = log if len(log) <= 60 else log[:57] + "..."
    raise ValueError(f"{where}: {shown!r} is not an mjfast event log (JSON lines starting with the header object) "
                     "nor the path of an existing file")


def _read_file(path: str) -> str:
    if os.path.isdir(path):
        raise IsADirectoryError(f"{path} is a directory, not an event log file")
    with open(path, "rb") as fh:
        raw = fh.read()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path} is not an mjfast event log: not UTF-8 text ({exc})") from None


def _where(i: int) -> str:
    return f"event {i} (line {i + 2} of the log)"


def check_events(events: list, hands: int | None = None) -> None:
    """Refuse malformed events with ``ValueError`` naming the event: each is a JSON object with
    a known ``type`` (not a second header), an integer ``hand`` (below ``hands`` when given)
    that never goes back, and a ``seat`` 0-3. Their other fields are checked by comparing with
    a replay (:func:`first_difference`)."""
    last = 0
    for i, e in enumerate(events):
        if not isinstance(e, dict):
            raise ValueError(f"{_where(i)} is malformed: an event is a JSON object, not {type(e).__name__}")
        t = e.get("type")
        if t == "header":
            raise ValueError(f"{_where(i)} is malformed: a second header line (a log has one, first)")
        if not isinstance(t, str) or t not in EVENT_TYPES:
            raise ValueError(f"{_where(i)} is malformed: unknown event type {t!r}" if "type" in e
                             else f"{_where(i)} is malformed: it has no 'type'")
        for field, hi in (("hand", hands), ("seat", 4)):
            v = e.get(field)
            if field not in e:
                raise ValueError(f"{_where(i)} ({t!r}) is malformed: it has no {field!r}")
            if isinstance(v, bool) or not isinstance(v, int) or v < 0 or (hi is not None and v >= hi):
                bound = f"0-{hi - 1}" if hi is not None else "0 or more"
                raise ValueError(f"{_where(i)} ({t!r}) is malformed: {field!r} must be an integer {bound}, "
                                 f"not {v!r}")
        if e["hand"] < last:
            raise ValueError(f"{_where(i)} ({t!r}) is malformed: hand {e['hand']} after hand {last} "
                             "(events are in order)")
        last = e["hand"]


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON values of the same kinds (2.0 is not 2, true is not 1)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return bool(a == b)


def _show(e: dict) -> str:
    text = json.dumps(e)
    return text if len(text) <= 200 else text[:197] + "..."


def first_difference(logged: GameLog, replayed: GameLog) -> str | None:
    """Where a log and its replay first differ, in words (None if they agree): the event's
    index, the field, the logged and the replayed value; or a log that ends early or goes on
    after the game's end; or the header's final ``scores`` (and counters, ``out``)."""
    ev, new = logged.events, replayed.events
    for i, (a, b) in enumerate(zip(ev, new)):
        if _same(a, b):
            continue
        for k in list(b) + [k for k in a if k not in b]:
            if k not in a:
                return (f"{_where(i)} differs from the replay: it lacks the field {k!r} (replayed {b[k]!r}); "
                        f"replayed event: {_show(b)}")
            if k not in b:
                return (f"{_where(i)} differs from the replay: field {k!r} is {a[k]!r} in the log, absent from the "
                        f"replayed event {_show(b)}")
            if not _same(a[k], b[k]):
                return (f"{_where(i)} differs from the replay: field {k!r} is {a[k]!r} in the log, {b[k]!r} in the "
                        f"replay; replayed event: {_show(b)}")
    if len(ev) > len(new):
        return (f"{_where(len(new))} is not in the replay: the game ended after {len(new):,} events, the log goes on "
                f"with {len(ev) - len(new):,} more, starting {_show(ev[len(new)])}")
    if len(ev) < len(new):
        return (f"the log ends after {len(ev):,} events; the replay goes on with {len(new) - len(ev):,} more, "
                f"starting with {_where(len(ev))} {_show(new[len(ev)])}")
    for k in ("scores", "out"):
        if k in logged.header and not _same(logged.header[k], replayed.header.get(k)):
            return f"the header's {k!r} are {logged.header[k]!r}; the replay's are {replayed.header.get(k)!r}"
    return None


def card_sha256(card) -> str:
    """The hex SHA-256 of a card's content: its ``mjfast-card/1`` mapping (:meth:`Card.to_dict`)
    as compact JSON with sorted keys, so the same card from a file or a mapping hashes alike."""
    text = json.dumps(card.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def decode(events, fields) -> list:
    """The engine's (m, 5) event rows (type, hand, seat, a, b) as dicts; ``fields(name, seat,
    a, b)`` gives each event type's own fields (the rule family's)."""
    out = []
    for typ, hand, seat, a, b in events.tolist():
        name = _engine.EVENTS[typ]
        e = {"hand": hand, "type": name, "seat": seat}
        e.update(fields(name, seat, a, b))
        out.append(e)
    return out

