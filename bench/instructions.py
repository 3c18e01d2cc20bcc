"""Instruction counts of the headline kernels under valgrind: a regression guard that does not
depend on the clock.

    python bench/instructions.py                      # measure, compare with the baseline (exit 1 on a regression)
    python bench/instructions.py --tolerance 0.05     # a tighter bound (default 0.10: +10 %)
    python bench/instructions.py --rows simulate      # only the rows whose name contains "simulate"
    python bench/instructions.py --write --reason "why the counts changed"   # rewrite the baseline

The script re-executes itself under ``valgrind --tool=callgrind`` with collection off
(``--collect-atstart=no``) and switched on only inside each kernel's Cython entry point
(``--toggle-collect=__pyx_pw_...``: the ``def`` wrapper, so a row counts the wrapper's argument
handling, a fixed cost per call, and everything the kernel calls; not the Python layer's
validation or array set-up). All workloads run in that one process, because the lookup tables
are built at run time in every process (``_core.ensure_tables()``, ~20 s under valgrind). The
inner process (``--inner``) calls a marker after each row's preparation and after each row (an
empty call of ``american_batch.concealed_distance_batch``, which nothing in mjfast calls), and
``--dump-before`` on the marker writes one callgrind part per interval: part 2k holds row k's
instructions exactly. Every row runs on one thread (``threads=1``); the units are what the
workload processed (hands, deals, turns read from the SimResult, decisions), so a row is
instructions per unit, the same on every machine with the same build, compiler and libraries.

The baseline (``instructions_baseline.json``, committed next to this file) holds each row's
instructions per unit, with the reason for its last update, the date and the commit it was
measured at. A row more than ``--tolerance`` above its baseline fails the run (exit status 1),
as do rows missing on either side and a baseline whose counts changed since the previous commit
without a new reason. ``--write`` records the current counts; it needs ``--reason``.
"""
from __future__ import annotations

import argparse
import dataclasses
import datetime
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BASELINE = os.path.join(HERE, "instructions_baseline.json")

# The kernels' Cython entry points: (module, regular expression of the C symbol). Cython numbers
# a module's functions (the digits before a name change when functions are added), so the exact
# names are read from the extension modules' symbol tables before each run and given to
# callgrind in full. (Callgrind's function patterns live in a trie that mishandles wildcards: of
# "...deal_*deal_batch" and "...deal_*stats_batch", which share the text before the "*", the
# second silently never matched in valgrind 3.19.)
_PW = r"__pyx_pw_6mjfast_"
KERNELS = {
    "shanten": ("mjfast._core", _PW + r"5_core_\d+shanten_counts_checked"),
    "is_winning": ("mjfast._core", _PW + r"5_core_\d+winning_counts_checked"),
    "american": ("mjfast._kernels.american_batch", _PW + r"8_kernels_14american_batch_\d+shanten_counts_batch"),
    "deal": ("mjfast._kernels.deal", _PW + r"8_kernels_4deal_\d+deal_batch"),
    "deal_stats": ("mjfast._kernels.deal", _PW + r"8_kernels_4deal_\d+stats_batch"),
    "chinese_game": ("mjfast._kernels.chinese_game", _PW + r"8_kernels_12chinese_game_\d+simulate_batch"),
    "american_game": ("mjfast._kernels.american_game", _PW + r"8_kernels_13american_game_\d+simulate_batch"),
    "fan": ("mjfast._kernels.mcr_fan", _PW + r"8_kernels_7mcr_fan_\d+fan_batch_checked"),
    "env_step": ("mjfast._kernels.engine", _PW + r"8_kernels_6engine_6Tables_\d+step"),
    "env_start": ("mjfast._kernels.engine", _PW + r"8_kernels_6engine_6Tables_\d+start"),
    "card": ("mjfast._kernels.card", _PW + r"8_kernels_4card_\d+line_distance_batch"),
}
#: --dump-before target, called between rows only (with an empty batch; nothing in mjfast calls it)
MARKER = ("mjfast._kernels.american_batch", _PW + r"8_kernels_14american_batch_\d+concealed_distance_batch")


def resolve_symbols() -> dict[str, str]:
    """The exact C symbol of each KERNELS entry (and "marker"), read from the string tables of the
    built extension modules; exits when a symbol is missing or ambiguous (a stripped build, a
    renamed function)."""
    import importlib

    found = {}
    cache: dict[str, bytes] = {}
    for key, (module, pattern) in {**KERNELS, "marker": MARKER}.items():
        path = str(importlib.import_module(module).__file__)
        if path not in cache:
            with open(path, "rb") as f:
                cache[path] = f.read()
        names = sorted({m.group(1).decode() for m in re.finditer(rb"(" + pattern.encode() + rb")\x00", cache[path])})
        if len(names) != 1:
            sys.exit(f"instructions.py: {len(names)} symbols match {pattern!r} in {path} ({names}): a stripped build "
                     "or a renamed kernel; update KERNELS")
        found[key] = names[0]
    return found


# ------------------------------------------------------------------------------------------------
# the workloads (inner process)

@dataclasses.dataclass
class Row:
    name: str
    unit: str
    kernels: tuple[str, ...]          # KERNELS keys whose instructions the row counts
    prepare: Callable[[], Callable[[], dict]]   # untimed set-up; returns the counted run


def _hand_rows(n: int) -> list[Row]:
    import numpy as np

    import mjfast
    from mjfast.hands._random import random_hands

    def hands():
        return random_hands(n, 14, seed=1401)      # _hands.py's "random14" set

    def shanten(form: str, rules: str | None = None):
        def prepare():
            h = hands()
            mjfast.shanten(h[:100], form=form, rules=rules, threads=1)

            def run():
                mjfast.shanten(h, form=form, rules=rules, threads=1)
                return {"units": n}
            return run
        return prepare

    def winning(form: str):
        def prepare():
            h = hands()
            mjfast.is_winning(h[:100], form=form, threads=1)

            def run():
                mjfast.is_winning(h, form=form, threads=1)
                return {"units": n}
            return run
        return prepare

    def american():
        d = mjfast.deal(n, rules="american", seed=1, threads=1)
        rows = np.ascontiguousarray(np.concatenate([d.hands[:, 0], d.bonus[:, 0], d.jokers[:, 0, None]], axis=1))
        mjfast.shanten(rows[:100], rules="american", threads=1)

        def run():
            mjfast.shanten(rows, rules="american", threads=1)
            return {"units": n}
        return run

    return [
        Row("shanten standard", "hand", ("shanten",), shanten("standard")),
        Row("shanten all (classical: 3 forms)", "hand", ("shanten",), shanten("all")),
        Row("shanten all (mcr: 5 forms)", "hand", ("shanten",), shanten("all", "mcr")),
        Row("shanten seven_pairs", "hand", ("shanten",), shanten("seven_pairs")),
        Row("shanten thirteen_orphans", "hand", ("shanten",), shanten("thirteen_orphans")),
        Row("is_winning standard", "hand", ("is_winning",), winning("standard")),
        Row("is_winning all", "hand", ("is_winning",), winning("all")),
        Row("american distance (shanten, dealt 14)", "hand", ("american",), american),
    ]


def _deal_rows(n: int) -> list[Row]:
    import mjfast

    def deal(rules: str):
        def prepare():
            mjfast.deal(100, rules=rules, seed=1, threads=1)

            def run():
                mjfast.deal(n, rules=rules, seed=1, threads=1)
                return {"units": n}
            return run
        return prepare

    def stats():
        mjfast.deal_stats(100, seed=1, threads=1, progress=False)

        def run():
            st = mjfast.deal_stats(n, seed=1, threads=1, progress=False)
            return {"units": st.n}
        return run

    return [
        Row("deal classical", "deal", ("deal",), deal("classical")),
        Row("deal american", "deal", ("deal",), deal("american")),
        Row("deal_stats classical (3 forms)", "deal", ("deal_stats",), stats),
    ]


def _sim_rows(games: int) -> list[Row]:
    import mjfast

    def sim(rules: str, n: int):
        def prepare():
            mjfast.simulate(8, rules=rules, policies="greedy", seed=2, threads=1, progress=False)

            def run():
                res = mjfast.simulate(n, rules=rules, policies="greedy", seed=1, threads=1, progress=False)
                return {"units": res.turns, "games": res.games, "hands": res.hands}
            return run
        return prepare

    return [
        Row(f"simulate {rules} greedy", "turn", (kern,), sim(rules, games))
        for rules, kern in (("classical", "chinese_game"), ("basic", "chinese_game"), ("mcr", "chinese_game"),
                            ("american", "american_game"))
    ]


def _fan_rows(n: int) -> list[Row]:
    sys.path.insert(0, HERE)
    import _mcr
    from mjfast import mcr

    def fan(name: str):
        def prepare():
            gen, seed, _ = _mcr.MCR_SETS[name]
            cases = gen(n, seed)
            rows = _mcr.to_arrays(cases)
            melds = rows["melds"].reshape(n, 4, 3)
            cols = {k: rows["flags"][:, 1 + i].copy() for i, k in enumerate(_mcr.FLAGS)}
            for k in _mcr.BOOL_FLAGS:
                cols[k] = cols[k].astype(bool)
            hands, win = rows["hands"], rows["flags"][:, 0].copy()
            total = mcr.fan_batch(hands[:50], win[:50], melds=melds[:50], threads=1,
                                  **{k: v[:50] for k, v in cols.items()})[0]
            if not (total > 0).all():
                raise RuntimeError(f"fan set {name}: a hand that is not a win")

            def run():
                mcr.fan_batch(hands, win, melds=melds, threads=1, **cols)
                return {"units": n}
            return run
        return prepare

    return [Row(f"fan {name}", "hand", ("fan",), fan(name)) for name in _mcr.MCR_SETS]


def _env_rows(tables: int, steps: int) -> list[Row]:
    def env(rules: str):
        def prepare():
            import numpy as np

            from mjfast.env import VecTables

            e = VecTables(tables, rules=rules, seed=1, threads=1)
            obs, _ = e.reset()
            rng = np.random.default_rng(0)

            def pick(mask):                 # env_timing.py's random legal action
                r = rng.integers(1, 256, size=mask.shape, dtype=np.uint8)
                r *= mask
                return r.argmax(1)

            for _ in range(3):
                obs, *_ = e.step(pick(obs["action_mask"]))

            def run():
                nonlocal obs
                for _ in range(steps):
                    obs, *_ = e.step(pick(obs["action_mask"]))
                return {"units": steps * tables, "steps": steps, "tables": tables}
            return run
        return prepare

    return [Row(f"env step {rules} (4 learners, random legal)", "decision", ("env_step", "env_start"), env(rules))
            for rules in ("classical", "american")]


def _card_rows(n: int, games: int) -> list[Row]:
    import numpy as np

    import mjfast
    from mjfast.card import load_card

    path = os.path.join(ROOT, "tests", "data", "cards", "invented-large.json")
    small = os.path.join(ROOT, "tests", "data", "cards", "invented-small.json")

    def distance(card_path=path):
        def prepare():
            card = load_card(card_path)
            d = mjfast.deal(n, rules="american", seed=1, threads=1)
            rows = np.ascontiguousarray(np.concatenate([d.hands[:, 0], d.bonus[:, 0], d.jokers[:, 0, None]], axis=1))
            card.distance(rows[:100], threads=1)

            def run():
                card.distance(rows, threads=1)
                return {"units": n}
            return run
        return prepare

    def play():
        card = load_card(path)
        mjfast.simulate(4, rules="american", card=card, seed=2, threads=1, progress=False)

        def run():
            res = mjfast.simulate(games, rules="american", card=card, seed=1, threads=1, progress=False)
            return {"units": res.turns, "games": res.games, "hands": res.hands}
        return run

    return [Row("card distance (958 variations, dealt 14)", "hand", ("card",), distance(path)),
            Row("card distance (129 variations, dealt 14)", "hand", ("card",), distance(small)),
            Row("simulate american card greedy (958 variations)", "turn", ("american_game",), play)]


def all_rows(quick: bool = False) -> list[Row]:
    s = 10 if quick else 1
    return (_hand_rows(20_000 // s) + _deal_rows(20_000 // s) + _sim_rows(300 // s) + _fan_rows(2_000 // s)
            + _env_rows(256, 100 // s) + _card_rows(2_000 // s, 100 // s))


def _marker() -> Callable[[], None]:
    import numpy as np

    from mjfast._kernels import american_batch

    hands, out = np.zeros((0, 36), np.uint8), np.zeros(0, np.int32)
    return lambda: american_batch.concealed_distance_batch(hands, out)


def inner(manifest: str, only: list[str], quick: bool) -> None:
    """Run the workloads (under callgrind): mark, prepare, mark, run, per row."""
    from mjfast import _core

    _core.ensure_tables()
    mark = _marker()
    done = []
    for row in all_rows(quick):
        if only and not any(s in row.name for s in only):
            continue
        run = row.prepare()
        mark()                              # part 2k-1: the set-up (dropped)
        info = run()
        mark()                              # part 2k: the row
        done.append({"row": row.name, "unit": row.unit, "kernels": list(row.kernels), **info})
    with open(manifest, "w") as f:
        json.dump(done, f)


# ------------------------------------------------------------------------------------------------
# the outer process: valgrind, the callgrind parts, the baseline

def read_part(path: str) -> tuple[int, set[str]]:
    """(instructions, names of the functions with costs) of one callgrind part."""
    total, names = None, set()
    with open(path) as f:
        for line in f:
            if line.startswith(("summary:", "totals:")):
                total = int(line.split()[1])
            elif line.startswith("fn="):
                m = re.match(r"fn=(?:\(\d+\))?\s*(.*)", line.rstrip("\n"))
                if m and m.group(1):
                    names.add(m.group(1))
    if total is None:
        raise RuntimeError(f"{path}: no summary line")
    return total, names


def measure(only: list[str], quick: bool, keep: str | None) -> tuple[list[dict], dict]:
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        sys.exit("instructions.py: valgrind not found (apt-get install valgrind); the guard needs callgrind")
    tmp = keep or tempfile.mkdtemp(prefix="mjfast-callgrind-")
    os.makedirs(tmp, exist_ok=True)
    for old in glob.glob(os.path.join(tmp, "callgrind.out*")):
        os.remove(old)
    out, manifest, log = (os.path.join(tmp, x) for x in ("callgrind.out", "manifest.json", "valgrind.log"))
    syms = resolve_symbols()
    cmd = [valgrind, "--tool=callgrind", "--collect-atstart=no", f"--dump-before={syms['marker']}",
           f"--callgrind-out-file={out}", f"--log-file={log}", "--dump-line=no", "--compress-strings=no"]
    cmd += [f"--toggle-collect={syms[k]}" for k in KERNELS]
    cmd += [sys.executable, os.path.abspath(__file__), "--inner", manifest]
    cmd += [x for s in only for x in ("--rows", s)] + (["--quick"] if quick else [])
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONHASHSEED="0")
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env)
    seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        with open(log) as f:
            sys.stderr.write(f.read()[-4000:])
        sys.exit(f"instructions.py: the run under valgrind failed (status {proc.returncode}); log: {log}")
    with open(manifest) as f:
        rows = json.load(f)
    parts = {int(p.rsplit(".", 1)[1]): p for p in glob.glob(out + ".*")}
    if sorted(parts) != list(range(1, 2 * len(rows) + 1)):
        sys.exit(f"instructions.py: {len(parts)} callgrind parts for {len(rows)} rows (expected {2 * len(rows)}): "
                 "something else calls the marker function, or valgrind did not dump; see " + tmp)
    last, _ = read_part(out)
    if last:
        print(f"note: {last:,} instructions collected after the last row (not counted)")
    for k, row in enumerate(rows, 1):
        ir, names = read_part(parts[2 * k])
        kernel = syms[row["kernels"][0]]
        if kernel not in names or ir == 0:
            sys.exit(f"instructions.py: row {row['row']!r}: its kernel {kernel} collected nothing: "
                     "the API no longer calls it (update KERNELS / the row)")
        row["instructions"] = ir
        row["per_unit"] = ir / row["units"]
    if not keep:
        shutil.rmtree(tmp, ignore_errors=True)
    return rows, {"seconds": seconds}


def _git(*args: str) -> str | None:
    try:
        r = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return r.stdout if r.returncode == 0 else None


def _versions() -> dict:
    import numpy

    import mjfast

    vg = subprocess.run(["valgrind", "--version"], capture_output=True, text=True).stdout.strip()
    return {"mjfast": mjfast.__version__, "python": sys.version.split()[0], "numpy": numpy.__version__, "valgrind": vg}


def reason_problem(base: dict) -> str | None:
    """A message when the baseline's counts differ from the previous committed version's but
    its reason does not (the file was edited by hand, or --write was bypassed)."""
    rel = os.path.relpath(BASELINE, ROOT)
    head = _git("show", f"HEAD:{rel}")
    if head is None:
        return None                                  # not in git, or not committed yet
    with open(BASELINE) as f:
        text = f.read()
    prev_text = head if text != head else _git("show", f"HEAD~1:{rel}")
    if prev_text is None:
        return None                                  # first version, or a shallow clone
    prev = json.loads(prev_text)
    counts = {k: v["per_unit"] for k, v in base["rows"].items()}
    prev_counts = {k: v["per_unit"] for k, v in prev.get("rows", {}).items()}
    if counts != prev_counts and base.get("reason") == prev.get("reason"):
        return (f"{rel}: the counts changed in this commit but the reason did not; rewrite it with "
                "python bench/instructions.py --write --reason \"...\"")
    return None


def write_baseline(rows: list[dict], reason: str, seconds: float) -> None:
    old = {}
    if os.path.exists(BASELINE):
        with open(BASELINE) as f:
            old = json.load(f)
    history = old.get("history", [])
    if old.get("reason"):
        history = [{k: old.get(k) for k in ("date", "commit", "reason")}] + history
    commit = (_git("rev-parse", "HEAD") or "unknown").strip()
    # tracked files changed since that commit in what builds or drives the kernels (src/, setup.py)
    dirty = sorted(line[3:] for line in (_git("status", "--porcelain", "--untracked-files=no", "--", "src",
                                              "setup.py", "pyproject.toml") or "").splitlines())
    data = {
        "about": "Instructions per unit of the headline kernels under valgrind (callgrind, collection only inside each "
                 "kernel's Cython entry point, threads=1); bench/instructions.py compares runs with these rows and "
                 "fails above +10 %. 'commit' is the commit the counts were measured on (the parent of the commit "
                 "that records them; '+dirty': with the uncommitted changes to src/, setup.py or pyproject.toml listed in "
                 "'dirty_files').",
        "reason": reason,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit + ("+dirty" if dirty else ""),
        "dirty_files": dirty,
        "environment": _versions(),
        "seconds": round(seconds),
        "rows": {r["row"]: {"unit": r["unit"], "units": r["units"], "instructions": r["instructions"],
                            "per_unit": round(r["per_unit"], 2), "kernels": r["kernels"]} for r in rows},
        "history": history,
    }
    with open(BASELINE, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    print(f"wrote {os.path.relpath(BASELINE)} ({len(rows)} rows)")


def report(rows: list[dict], base: dict | None, tolerance: float) -> list[str]:
    """Print the table; return the failure messages."""
    brows = (base or {}).get("rows", {})
    failures = []
    print("| row | units | instructions per unit | baseline | ratio |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for r in rows:
        b = brows.get(r["row"])
        units = f"{r['units']:,} {r['unit']}s"
        if b is None:
            print(f"| {r['row']} | {units} | {r['per_unit']:,.1f} | (none) | |")
            failures.append(f"{r['row']}: no baseline row (run --write --reason ...)")
            continue
        ratio = r["per_unit"] / b["per_unit"]
        flag = " **REGRESSION**" if ratio > 1 + tolerance else ""
        print(f"| {r['row']} | {units} | {r['per_unit']:,.1f} | {b['per_unit']:,.1f} | {ratio:.3f}{flag} |")
        if ratio > 1 + tolerance:
            failures.append(f"{r['row']}: {r['per_unit']:,.1f} instructions per {r['unit']}, baseline "
                            f"{b['per_unit']:,.1f} (+{100 * (ratio - 1):.1f} %, tolerance +{100 * tolerance:g} %)")
    return failures


def main(argv: list[str] | None = None) -> int:
    global BASELINE
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tolerance", type=float, default=0.10, help="allowed growth per row (default 0.10 = +10 %%)")
    ap.add_argument("--baseline", default=BASELINE, help="baseline file (default: bench/instructions_baseline.json)")
    ap.add_argument("--rows", action="append", default=[], metavar="TEXT",
                    help="only the rows whose name contains TEXT (repeatable)")
    ap.add_argument("--write", action="store_true", help="rewrite the baseline with this run's counts")
    ap.add_argument("--reason", help="why the baseline changes (required with --write)")
    ap.add_argument("--keep", metavar="DIR", help="keep the callgrind parts and the log in DIR")
    ap.add_argument("--quick", action="store_true", help="a tenth of every workload (a smoke test; not comparable)")
    ap.add_argument("--inner", metavar="MANIFEST", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.inner:
        inner(args.inner, args.rows, args.quick)
        return 0
    BASELINE = os.path.abspath(args.baseline)
    if args.write and not (args.reason or "").strip():
        ap.error("--write needs --reason \"...\" (stored in the baseline with the date and the commit)")
    if args.write and (args.rows or args.quick):
        ap.error("--write records every row at full size: drop --rows / --quick")
    t0 = time.perf_counter()
    rows, meta = measure(args.rows, args.quick, args.keep)
    if args.write:
        write_baseline(rows, args.reason.strip(), meta["seconds"])
    base = None
    if os.path.exists(BASELINE):
        with open(BASELINE) as f:
            base = json.load(f)
    failures = report(rows, base, args.tolerance)
    print(f"\n{len(rows)} rows, {time.perf_counter() - t0:.0f} s (valgrind {meta['seconds']:.0f} s)")
    if base is None:
        print(f"no baseline at {BASELINE}: run with --write --reason \"...\"")
        return 1
    if args.quick:
        print("--quick: a smoke test, not compared")
        return 0
    if not args.rows:
        gone = sorted(set(base["rows"]) - {r["row"] for r in rows})
        failures += [f"{name}: in the baseline but not measured (renamed or removed? run --write)" for name in gone]
        problem = reason_problem(base)
        if problem:
            failures.append(problem)
    if failures:
        print("\nFAILED: instruction counts above the baseline + tolerance (or baseline problems):", file=sys.stderr)
        for msg in failures:
            print(f"  - {msg}", file=sys.stderr)
        print("If the growth is intended, record it: python bench/instructions.py --write --reason \"...\" and commit "
              "bench/instructions_baseline.json with the change.", file=sys.stderr)
        return 1
    print(f"OK: every row within +{100 * args.tolerance:g} % of the baseline "
          f"({base.get('date')}, {base.get('commit', '?')[:12]}: {base.get('reason')})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
