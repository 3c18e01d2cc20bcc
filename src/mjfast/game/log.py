"""Event logs: a game's header (what re-runs it) and its events as JSON-ready dicts."""
from __future__ import annotations

import dataclasses
import json

from .._kernels import engine as _engine

#: Event-log header version. 2: the Chinese options hold refill_dead_wall and added_kong
#: (mjfast 0.2); a version-1 header lacks them and was played under these readings:
LOG_VERSION = 2
V1_OPTIONS = {"refill_dead_wall": True, "added_kong": "any"}
#: an "mcr" header without the fan options (mjfast 0.2 before fans) was played without fans
PRE_FAN_MCR_OPTIONS = {"scoring": "basic", "min_fan": 0}


@dataclasses.dataclass(frozen=True)
class GameLog:
    """Every event of one game, as JSON-ready dicts (see :func:`mjfast.replay`).

    ``header`` holds what is needed to re-run the game (:func:`mjfast.rerun`): seed, game
    index, rules and options, policies, and each hand's wall order (physical tile ids) and dice.

    Examples
    --------
    >>> import mjfast
    >>> log = mjfast.replay(1, 0)
    >>> mjfast.GameLog.from_jsonl(log.to_jsonl()) == log
    True
    """

    header: dict
    events: list

    def to_jsonl(self) -> str:
        """The log as JSON lines: the header first, then one event per line."""
        return "\n".join([json.dumps({"type": "header", **self.header})] + [json.dumps(e) for e in self.events]) + "\n"

    @classmethod
    def from_jsonl(cls, text: str) -> GameLog:
        if not isinstance(text, str):
            raise TypeError(f"an event log is JSON-lines text, not {type(text).__name__}")
        try:
            lines = [json.loads(x) for x in text.splitlines() if x.strip()]
        except ValueError as exc:
            raise ValueError(f"not an mjfast event log (a line is not JSON: {exc})") from None
        if not lines or not all(isinstance(x, dict) for x in lines) or lines[0].get("type") != "header":
            raise ValueError("not an mjfast event log: it is JSON lines of objects, starting with the header line")
        header = dict(lines[0])
        header.pop("type")
        return cls(header, lines[1:])


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
