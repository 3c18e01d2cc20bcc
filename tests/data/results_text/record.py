"""Record the text of simulation results (``to_dict`` JSON, ``table()``, ``repr``, HTML, pandas)
for ``tests/test_results_text.py``: the guard that results keep their text byte for byte.

Recorded from main before results moved to composition (issue 26); re-record only on a change
that alters the text on purpose: ``PYTHONPATH=src python tests/data/results_text/record.py``.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import pickle
import sys

import mjfast
from mjfast.card import toy_card

HERE = os.path.dirname(os.path.abspath(__file__))
PATH = os.path.join(HERE, "expected.json")
MIXED = {"american": ["greedy", "random", "greedy", "random"]}


def _mixed(rules: str) -> list:
    return MIXED.get(rules, ["greedy", "random", "defensive", "greedy"])


def results() -> dict:
    """The results whose text is recorded, by name."""
    out = {}
    for rules in mjfast.rules.names():
        out[f"{rules} greedy"] = mjfast.simulate(24, rules=rules, seed=5, threads=1, progress=False)
        mixed = mjfast.simulate(20, rules=rules, policies=_mixed(rules), seed=6, threads=1, progress=False)
        out[f"{rules} mixed"] = mixed
        out[f"{rules} duplicate"] = mjfast.simulate(6, rules=rules, seed=7, threads=1, progress=False, duplicate=True)
        out[f"{rules} merged"] = mixed + mjfast.simulate(8, rules=rules, policies=_mixed(rules), seed=8, threads=1,
                                                         progress=False)
        c = mjfast.compare("greedy", "random", 5, rules=rules, seed=9, threads=1, progress=False)
        out[f"{rules} compare"] = c
        out[f"{rules} compare a"] = c.a
        out[f"{rules} compare b"] = c.b
    out["mcr basic scoring"] = mjfast.simulate(12, rules="mcr", scoring="basic", min_fan=0, seed=3, threads=1,
                                               progress=False)
    out["mcr min_fan 4"] = mjfast.simulate(12, rules="mcr", scoring="basic", min_fan=4, seed=3, threads=1,
                                           progress=False)
    toy = toy_card()
    card = mjfast.simulate(16, rules="american", card=toy, seed=4, threads=1, progress=False)
    out["american card"] = card
    out["american card merged"] = card + mjfast.simulate(6, rules="american", card=toy, seed=2, threads=1,
                                                         progress=False)
    out["american card duplicate"] = mjfast.simulate(4, rules="american", card=toy, seed=4, threads=1,
                                                     progress=False, duplicate=True)
    out["american rounds 2"] = mjfast.simulate(6, rules="american", rounds=2, start_points=500, seed=4, threads=1,
                                               progress=False)
    eff = mjfast.charleston_effect(6, seed=2, threads=1, progress=False)
    for name, e in eff.items():
        out[f"pass effect {name}"] = e
        out[f"pass effect {name} on"] = e.on
    return out


def _pandas_text(df) -> str:
    buf = io.StringIO()
    df.to_csv(buf)
    return buf.getvalue() + "\n" + repr(dict(df.dtypes.astype(str))) + "\n" + json.dumps(df.attrs, default=repr)


def _calls(res) -> dict:
    """Values of the result's statistics methods, as text."""
    calls: dict[str, object] = {}
    kinds = ("seat", "policy")
    for name in ("win_rate", "self_draw_share", "discard_win_share", "deal_in_rate", "mean_points",
                 "claims_per_hand", "jokerless_share", "dead_hand_rate"):
        if not hasattr(res, name):
            continue
        for kind in kinds:
            keys = range(4) if kind == "seat" else sorted(res.by_policy)
            for k in keys:
                calls[f"{name}({kind}={k!r})"] = getattr(res, name)(**{kind: k})
    for name in ("exhaustive_draw_rate", "mean_turns", "wall_game_rate", "second_charleston_rate"):
        if hasattr(res, name):
            calls[f"{name}()"] = getattr(res, name)()
    if hasattr(res, "mean_distance"):
        for when in ("before", "after"):
            calls[f"mean_distance({when!r})"] = res.mean_distance(when)
            calls[f"distance_distribution({when!r}, 1)"] = res.distance_distribution(when, 1)
            for s in range(4):
                calls[f"mean_distance({when!r}, {s})"] = res.mean_distance(when, s)
    for name in ("jokerless_wins", "dead_hands", "distance_before", "distance_after", "second_charlestons",
                 "courtesy_tiles", "discard_wins", "wins", "claims", "points_sq", "points_hist", "turns_sq_per_game"):
        if hasattr(res, name):
            v = getattr(res, name)
            calls[name] = v.tolist() if hasattr(v, "tolist") else v
    calls["fans is None"] = getattr(res, "fans", None) is None
    calls["lines is None"] = getattr(res, "lines", None) is None
    return {k: repr(v) for k, v in calls.items()}


def texts(obj) -> dict:
    """Every text form of one result."""
    kinds = [k for k in ("SimResult", "AmericanSimResult", "Comparison", "PassEffect")
             if isinstance(obj, getattr(mjfast, k))]
    out = {"type": " ".join(kinds), "repr": repr(obj), "html": obj._repr_html_(),
           "to_dict": json.dumps(obj.to_dict())}
    if hasattr(obj, "table"):
        out["table"] = obj.table()
    if isinstance(obj, mjfast.SimResult):
        out["to_pandas seat"] = _pandas_text(obj.to_pandas())
        out["to_pandas policy"] = _pandas_text(obj.to_pandas(by="policy"))
        out["calls"] = _calls(obj)
        out["pickled"] = repr(pickle.loads(pickle.dumps(obj))) == repr(obj)
        for ext in ("fans", "lines"):
            e = getattr(obj, ext, None)
            if e is not None:
                out[ext] = {"repr": repr(e), "html": e._repr_html_(), "to_dict": json.dumps(e.to_dict()),
                            "table": e.table(), "to_pandas": _pandas_text(e.to_pandas())}
    else:
        out["to_pandas"] = _pandas_text(obj.to_pandas())
    return out


#: the forms kept as text in expected.json (readable diffs); the others are kept as hashes
FULL = ("type", "repr", "table")


def _flat(d: dict, prefix: str = "") -> dict:
    out = {}
    for k, v in d.items():
        if isinstance(v, dict) and k != "calls":
            out.update(_flat(v, f"{prefix}{k}."))
        else:
            out[prefix + k] = v
    return out


def compute() -> dict:
    """{result name: {form: its text (FULL) or the sha256 of its text}}."""
    data = {}
    for name, obj in results().items():
        row = {}
        for k, v in _flat(texts(obj)).items():
            text = v if isinstance(v, str) else json.dumps(v) if isinstance(v, dict) else repr(v)
            row[k] = text if k in FULL else hashlib.sha256(text.encode()).hexdigest()[:20]
        data[name] = row
    return data


if __name__ == "__main__":
    data = compute()
    with open(PATH, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, ensure_ascii=False, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(data)} results to {PATH}", file=sys.stderr)
