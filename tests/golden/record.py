"""Hashes of full results through the public API: the guard that a refactor keeps behaviour.

``compute(tier)`` runs a fixed set of calls (simulate for every rule set and table kind on 1
and 2 threads, replay logs, deals and deal statistics, exact deal odds, the hand functions on
fixed hand sets for every form and rule set, analyze and win-by-turn) and returns
``{name: sha256 of the result's canonical JSON}``. ``tests/test_golden.py`` compares them with
``hashes.json``; a change that alters results on purpose re-records them and says which
changed and why (``python tests/golden/record.py --write``, ``--diff`` to list changes).

Only public entry points are used, so the same script runs against any build of mjfast.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys

import numpy as np

import mjfast

HERE = os.path.dirname(os.path.abspath(__file__))
HASHES = os.path.join(HERE, "hashes.json")

CHINESE = ("classical", "basic", "mcr")
RULES = CHINESE + ("american",)


def _canon(x):
    """A JSON-ready, deterministic form of a result (arrays by dtype, shape and bytes)."""
    if isinstance(x, np.ndarray):
        return {"dtype": str(x.dtype), "shape": list(x.shape),
                "sha": hashlib.sha256(np.ascontiguousarray(x).tobytes()).hexdigest()}
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, dict):
        return {str(k): _canon(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_canon(v) for v in x]
    if isinstance(x, float) and x != x:
        return "nan"
    return x


def digest(x) -> str:
    text = json.dumps(_canon(x), sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _tables(rules: str):
    if rules == "american":
        return {"greedy": "greedy", "random": "random", "mixed": ["greedy", "random", "greedy", "random"]}
    return {"greedy": "greedy", "defensive": "defensive", "random": "random",
            "mixed": ["greedy", "random", "defensive", "greedy"]}


def _hand_sets():
    """Fixed random hands per size: (N, 34) counts (four-copy limit kept)."""
    rng = np.random.default_rng(20261201)
    out = {}
    for size in (1, 2, 4, 5, 7, 8, 10, 11, 13, 14):
        wall = np.repeat(np.arange(34), 4)
        rows = np.zeros((400, 34), np.uint8)
        for i in range(400):
            for k in rng.choice(wall, size, replace=False):
                rows[i, k] += 1
        out[size] = rows
    # hands drawn near the special shapes too
    specials = ["19m19p19s1234567z", "19m19p19s123456z", "147m258p369s1234z", "147m258p369s12345z",
                "1122m3344p5566s77z", "1122m3344p5566s7z", "147m258p36s12345z", "2458m369s147p", "24458m369s147p"]
    out["special"] = np.stack([mjfast.parse_hand(h) for h in specials])
    return out


def compute(tier: str = "default") -> dict:
    h: dict[str, str] = {}
    # -- simulate ---------------------------------------------------------------------------
    for rules in RULES:
        games = 120 if rules == "american" else 200
        for name, table in _tables(rules).items():
            for threads in (1, 2):
                r = mjfast.simulate(games, rules=rules, policies=table, seed=11, threads=threads, progress=False)
                h[f"simulate/{rules}/{name}/t{threads}"] = digest(r.to_dict())
            r = mjfast.simulate(games // 2, rules=rules, policies=table, seed=12, duplicate=True, progress=False,
                                threads=2)
            h[f"simulate/{rules}/{name}/duplicate"] = digest(r.to_dict())
    for rules, opts in (("classical", {"flowers": True, "rounds": 2, "payment": "discarder"}),
                        ("classical", {"special_forms": ("seven_pairs", "thirteen_orphans"), "dead_wall": 6}),
                        ("basic", {"chow": False, "kong": False}), ("mcr", {"dead_wall": 16}),
                        ("mcr", {"scoring": "basic", "min_fan": 0}), ("mcr", {"flowers": False, "min_fan": 16}),
                        ("american", {"jokers": 3, "second_charleston": True, "courtesy": False}),
                        ("mcr-botzone", {}), ("mcr-botzone", {"quan": 2, "rounds": 2})):
        r = mjfast.simulate(100, rules=rules, seed=13, progress=False, **opts)
        h[f"simulate/{rules}/options/{json.dumps(opts, sort_keys=True)}"] = digest(r.to_dict())
    r = mjfast.simulate(100, rules="mcr", policies=["greedy_blind", "greedy", "defensive", "greedy_blind"],
                        seed=14, progress=False)
    h["simulate/mcr/greedy_blind"] = digest(r.to_dict())
    c = mjfast.compare("greedy", "random", 60, rules="classical", seed=3, progress=False)
    h["compare/classical"] = digest([c.a.to_dict(), c.b.to_dict()] if hasattr(c, "a") else repr(c))
    # -- replay -----------------------------------------------------------------------------
    for rules in RULES:
        for name, table in _tables(rules).items():
            for gi in (0, 5):
                h[f"replay/{rules}/{name}/{gi}"] = digest(mjfast.replay(21, gi, rules=rules, policies=table).to_jsonl())
    # -- deals ------------------------------------------------------------------------------
    for rules in RULES:
        d = mjfast.deal(3000, rules=rules, seed=5, ids=True)
        h[f"deal/{rules}"] = digest({k: getattr(d, k) for k in ("hands", "bonus", "jokers", "ids", "dealer")})
        st = mjfast.deal_stats(100_000, rules=rules, seed=6, progress=False)
        h[f"deal_stats/{rules}"] = digest(st.to_dict())
    # -- exact deal odds --------------------------------------------------------------------
    for rules in RULES:
        for tiles in ((13, 14) if rules == "american" else (5, 8, 11, 13, 14)):
            if rules == "mcr" and tiles == 14 and tier != "slow":
                continue
            h[f"exact/{rules}/{tiles}"] = digest(mjfast.exact_deal_odds(rules, tiles=tiles))
    if tier == "slow":
        h["exact_table/classical/14"] = digest(mjfast.exact_deal_odds_table("classical", tiles=14))
    # -- hand functions ---------------------------------------------------------------------
    forms = ("all", "standard", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight")
    for size, hands in _hand_sets().items():
        for rules in (None,) + CHINESE:
            for form in forms:
                try:
                    sh = mjfast.shanten(hands, form=form, rules=rules, threads=1)
                    win = mjfast.is_winning(hands, form=form, rules=rules, threads=2)
                    val = [sh, win]
                except (ValueError, TypeError) as exc:
                    val = f"error: {type(exc).__name__}"
                h[f"hands/{size}/{rules}/{form}"] = digest(val)
        texts = [mjfast.format_hand(r) for r in hands[:60]]
        for rules in (None, "mcr"):
            vals = []
            for t in texts:
                try:
                    vals.append([mjfast.waits(t, rules=rules), repr(mjfast.effective_tiles(t, rules=rules))])
                except ValueError as exc:
                    vals.append(f"error: {exc}")
            h[f"waits_effective/{size}/{rules}"] = digest(vals)
    am = np.zeros((300, 43), np.uint8)
    rng = np.random.default_rng(7)
    for i in range(300):
        ids = rng.choice(152, 14, replace=False)
        for t in ids:
            am[i, 42 if t >= 144 else 34 + (t - 136) // 1 if t >= 136 else t // 4] += 1
    try:
        h["hands/american"] = digest([mjfast.shanten(am, rules="american"), mjfast.is_winning(am, rules="american")])
    except (ValueError, TypeError) as exc:
        h["hands/american"] = digest(f"error: {exc}")
    # -- analysis ---------------------------------------------------------------------------
    for rules in ("classical", "mcr"):
        vals = []
        for row in _hand_sets()[14][:40]:
            a = mjfast.analyze(mjfast.format_hand(row), rules=rules)
            vals.append(a.to_dict() if hasattr(a, "to_dict") else repr(a))
        h[f"analyze/{rules}"] = digest(vals)
    wb = mjfast.win_by_turn("123m456p789s1123z", draws=10, samples=4000, seed=2, method="monte_carlo", progress=False)
    h["win_by_turn/sample"] = digest(wb.to_dict())
    wb = mjfast.win_by_turn("123m456p78s11234z", draws=6, method="exact", progress=False)
    h["win_by_turn/exact"] = digest(wb.to_dict())
    # -- environments (mjfast 0.2+): encodings are versioned, so these must never change -------
    try:
        from mjfast.env import VecTables, decisions
    except ImportError:
        return h
    for rules in RULES:
        d = decisions(3, rules=rules, policies=["greedy", "random", "greedy", "random"], seed=31, progress=False)
        h[f"env/decisions/{rules}"] = digest(d.arrays())
        env = VecTables(6, rules=rules, learners=(0, 1, 2), opponents="greedy", seed=32, threads=2, derived=True,
                        privileged=True)
        obs, info = env.reset()
        traj = [obs, info]
        for _ in range(150):          # the lowest legal id at every table
            obs, rew, term, trunc, info = env.step(obs["action_mask"].argmax(axis=1))
            traj.append([obs, rew, term, info])
        h[f"env/vectables/{rules}"] = digest(traj)
    return h


def main(argv):
    tier = "slow" if "--slow" in argv else "default"
    got = compute(tier)
    if "--write" in argv:
        stored = json.load(open(HASHES)) if os.path.exists(HASHES) else {}
        stored.update(got)
        with open(HASHES, "w") as f:
            json.dump(stored, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"wrote {len(got)} hashes to {HASHES}")
    elif "--diff" in argv:
        stored = json.load(open(argv[argv.index("--diff") + 1]))
        changed = sorted(k for k in got if stored.get(k) != got[k])
        print(f"{len(changed)} of {len(got)} changed")
        for k in changed:
            print("  ", k)
    else:
        json.dump(got, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main(sys.argv[1:])
