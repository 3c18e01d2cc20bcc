"""The hands tests/botzone/test_decisions.py turns into decisions, and a digest of the arrays
(rows in hand order: stable by game_id), recorded from the first (Python-stepped) converter in
tests/data/botzone/decisions_digest.json by ``PYTHONPATH=src python tests/botzone/_decisions_digest.py``."""
from __future__ import annotations

import hashlib
import io
import json
import pathlib

import numpy as np

import mjfast
from mjfast import botzone

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "botzone"
DIGEST = DATA / "decisions_digest.json"
FIELDS = ("observation", "scalars", "action_mask", "action", "seat", "reward", "game_id", "hand_number")


def sources() -> dict:
    """name -> Botzone text: mjfast's own games (with and without flowers), the hand-written logs."""
    out = {}
    for flowers in (False, True):
        buf = io.StringIO()
        botzone.write_logs([mjfast.replay(g, 11, rules="mcr", flowers=flowers) for g in range(6)], buf)
        out[f"mjfast-flowers-{flowers}"] = buf.getvalue()
    hands = list(botzone.read_logs(io.StringIO(out["mjfast-flowers-True"]), progress=False))
    for i, h in enumerate(hands):
        h.quan = i % 4                              # the hands before a prevalent wind: on the engine
    buf = io.StringIO()
    botzone.write_logs(hands, buf)
    out["mjfast-winds"] = buf.getvalue()
    text = (DATA / "hands.txt").read_text()
    out["hands.txt"] = text
    lines = text.split("\n\n")[0].split("\n")                 # a hand the engine refuses, then the hands
    out["refused"] = "\n".join(lines[:14] + ["Player 0 Hu W9", "Fan 8 无番和*1", "Score 24 -8 -8 -8"]) + "\n\n" + text
    return out


def digest(d, **options) -> dict:
    order = np.argsort(d.game_id, kind="stable")
    out = {name: hashlib.sha256(np.ascontiguousarray(getattr(d, name)[order]).tobytes()).hexdigest()[:24]
           for name in FIELDS}
    out["rows"] = len(d)
    out["skipped"] = [list(s) for s in d.skipped]
    return out


def record() -> dict:
    res = {}
    for name, text in sources().items():
        for derived, privileged in ((False, False), (True, True)):
            d = botzone.decisions(io.StringIO(text), derived=derived, privileged=privileged, progress=False)
            res[f"{name} derived={derived} privileged={privileged}"] = digest(d)
    return res


if __name__ == "__main__":
    DIGEST.write_text(json.dumps(record(), indent=1, ensure_ascii=False) + "\n")
    print(DIGEST.read_text())
