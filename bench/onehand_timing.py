"""One hand per call and one-hand commands: mjfast beside xiangting,
PyMahjongGB and mahjong, in the same run.

Part ``calls``: microseconds per call of the one-hand entry points, each over the same fixed hands
(a different hand every call, so no cache helps), one thread, CPU time of the calling thread,
rows interleaved round by round; the table gives the median and best round and the ratio of
each row's median to its peer's (xiangting's ``calculate_replacement_number`` for shanten and the
winning check, PyMahjongGB's ``MahjongFanCalculator`` for fans). Results are checked against the
peers before timing.

Part ``fanbatch``: ``mcr.fan_batch`` on a million hands against its raw kernel (CPU seconds, one
thread) and the public call's peak of traced memory (its checks run in the
kernel's pass).

Part ``startup``: wall seconds of a fresh process for one-hand commands (``mjfast fan``,
``mjfast analyze``, ``mjfast shanten``, a one-line script) and of the peers' one-hand scripts,
commands interleaved round by round; Python's bytecode cache on (in a private directory, as an
installed package has it), mjfast's table cache warm in a private directory, plus one row with
the table cache off (every process builds the tables).

``--base DIR`` adds the same rows for another source tree (e.g. the main branch's ``src``), run
in their own processes, interleaved with this tree's: before/after in one run. The per-call part
then runs every round in a fresh process per tree.

Usage::

    PYTHONPATH=src python bench/onehand_timing.py [--part calls|startup|fanbatch|all] [--rounds 7]
        [--hands 20000] [--batch-hands 1000000] [--base /path/to/other/src]
"""
from __future__ import annotations

import argparse
import collections
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "src")

XT_BYTES = "xiangting replacement number (bytes)"
XT_ARRAY = "xiangting replacement number (array)"
GB = "PyMahjongGB MahjongFanCalculator"
#: the calls part's rows: (row, peer rows whose median time the ratios divide by the row's): the
#: peer's fastest input (xiangting: bytes) and, where there is one, the same input as the row's
CALL_ROWS = (
    ("shanten(array (34,) uint8)", (XT_BYTES, XT_ARRAY)),
    ("shanten(array (34,) int64)", (XT_BYTES, XT_ARRAY)),
    ("shanten(text)", (XT_BYTES,)),
    ("is_winning(array (34,) uint8)", (XT_BYTES, XT_ARRAY)),
    ("is_winning(text)", (XT_BYTES,)),
    ("shanten(list of 1,000 texts), per hand", (XT_BYTES,)),
    (XT_BYTES, ()),
    ("xiangting replacement number (list)", ()),
    (XT_ARRAY, ()),
    ("mahjong Shanten.calculate_shanten (list)", (XT_BYTES,)),
    ("mcr.fan(counts, melds=tuples)", (GB,)),
    ("mcr.fan(text with called sets)", (GB,)),
    ("mcr.fan(concealed text)", (GB + " (concealed)",)),
    (GB, ()),
    (GB + " (concealed)", ()),
)


# --------------------------------------------------------------------------------------------
# the calls part (runs in the process whose mjfast is timed)


def _fan_text(case: dict) -> str | None:
    """The hand text (concealed tiles with the winning tile, then the sets) of a fan case; None
    when a set is a concealed chow or pung (no text notation for it)."""
    from mjfast import tiles

    counts = list(case["hand"])
    counts[case["win_tile"]] += 1
    parts = [tiles.format_hand(counts)]
    for kind, t, supplier in case["melds"]:
        if not supplier and kind != "kong":
            return None
        body = {"chow": [t, t + 1, t + 2], "pung": [t] * 3, "kong": [t] * 4}[kind]
        c = [0] * 34
        for k in body:
            c[k] += 1
        parts.append(("[{}]" if supplier else "({})").format(tiles.format_hand(c)))
    return " ".join(parts)


def _call_rows(n: int) -> dict:
    """name -> (run(), count): every row's callable (one pass over its hands) and hands per pass."""
    import numpy as np

    sys.path.insert(0, HERE)
    import mjfast
    from mjfast import mcr, tiles
    from mjfast.hands._random import random_hands

    rows: dict = {}
    hands = random_hands(n, 14, seed=2501)
    arrays = [np.ascontiguousarray(h) for h in hands]
    arrays64 = [h.astype(np.int64) for h in hands]
    texts = [tiles.format_hand(h) for h in hands]
    shanten, is_winning = mjfast.shanten, mjfast.is_winning
    expect = mjfast.shanten(hands)

    def consume(it) -> None:
        collections.deque(it, maxlen=0)

    rows["shanten(array (34,) uint8)"] = (lambda: consume(map(shanten, arrays)), n)
    rows["shanten(array (34,) int64)"] = (lambda: consume(map(shanten, arrays64)), n)
    rows["shanten(text)"] = (lambda: consume(map(shanten, texts)), n)
    rows["is_winning(array (34,) uint8)"] = (lambda: consume(map(is_winning, arrays)), n)
    rows["is_winning(text)"] = (lambda: consume(map(is_winning, texts)), n)
    chunks = [texts[i:i + 1000] for i in range(0, n, 1000)]
    rows["shanten(list of 1,000 texts), per hand"] = (lambda: consume(map(shanten, chunks)), n)
    assert [shanten(a) for a in arrays[:2000]] == expect[:2000].tolist()
    assert [shanten(t) for t in texts[:2000]] == expect[:2000].tolist()
    assert np.array_equal(np.concatenate([shanten(c) for c in chunks]), expect)
    assert [is_winning(t) for t in texts[:2000]] == mjfast.is_winning(hands[:2000]).tolist()
    try:
        import xiangting
    except ImportError:
        xiangting = None
    if xiangting is not None:
        rn, four = xiangting.calculate_replacement_number, xiangting.PlayerCount.FOUR
        as_bytes = [bytes(h) for h in hands]
        as_lists = hands.tolist()
        assert [rn(b, four) - 1 for b in as_bytes[:2000]] == expect[:2000].tolist()
        rows["xiangting replacement number (bytes)"] = (lambda: consume(map(rn, as_bytes, itertools.repeat(four))), n)
        rows["xiangting replacement number (list)"] = (lambda: consume(map(rn, as_lists, itertools.repeat(four))), n)
        rows["xiangting replacement number (array)"] = (lambda: consume(map(rn, arrays, itertools.repeat(four))), n)
    try:
        from mahjong.shanten import Shanten
    except ImportError:
        Shanten = None
    if Shanten is not None:
        mj_calc = Shanten.calculate_shanten
        few = hands[: max(1, n // 20)].tolist()
        rows["mahjong Shanten.calculate_shanten (list)"] = (lambda: consume(map(mj_calc, few)), len(few))

    from _mcr import load_mahjonggb, make_mcr_hands

    melded = make_mcr_hands("melded", n)
    calls = melded.calls
    fan = mcr.fan
    rows["mcr.fan(counts, melds=tuples)"] = (lambda: consume(fan(c, **kw) for c, kw in calls), len(calls))
    text_calls, text_ref = [], []
    for case, ref in zip(melded.cases, melded.reference):
        text = _fan_text(case)
        if text is None:
            continue
        kw = {k: case.get(k, False) for k in ("self_drawn", "fourth_tile", "kong", "last_of_wall")}
        kw.update(seat_wind="ESWN"[case.get("seat_wind", 0)], prevalent_wind="ESWN"[case.get("prevalent_wind", 0)],
                  flowers=case.get("flowers", 0), win_tile=tiles.tile_name(case["win_tile"]))
        text_calls.append((text, kw))
        text_ref.append(ref)
    rows["mcr.fan(text with called sets)"] = (lambda: consume(fan(t, **kw) for t, kw in text_calls), len(text_calls))
    concealed = make_mcr_hands("concealed", n)
    conc_calls = []
    for case in concealed.cases:
        kw = {k: case.get(k, False) for k in ("self_drawn", "fourth_tile", "kong", "last_of_wall")}
        kw.update(seat_wind=case.get("seat_wind", 0), prevalent_wind=case.get("prevalent_wind", 0),
                  flowers=case.get("flowers", 0), win_tile=tiles.tile_name(case["win_tile"]))
        conc_calls.append((_fan_text(case), kw))
    rows["mcr.fan(concealed text)"] = (lambda: consume(fan(t, **kw) for t, kw in conc_calls), len(conc_calls))
    ref = load_mahjonggb()
    if ref is not None:
        calc = ref[0]
        totals = [sum(v for v, _ in calc(*a)) for a in text_ref[:2000]]
        assert totals == [fan(t, **kw).total for t, kw in text_calls[:2000]]
        assert totals == [fan(c, **kw).total for (c, kw), case in zip(calls, melded.cases)
                          if _fan_text(case) is not None][:2000]
        rows["PyMahjongGB MahjongFanCalculator"] = (
            lambda: consume(itertools.starmap(calc, text_ref)), len(text_ref))
        rows["PyMahjongGB MahjongFanCalculator (concealed)"] = (
            lambda: consume(itertools.starmap(calc, concealed.reference)), len(concealed.reference))
    return rows


def calls_round(rows: dict) -> dict:
    """One round: microseconds per call of every row (CPU time of this thread)."""
    out = {}
    for name, (run, count) in rows.items():
        t = time.thread_time()
        run()
        out[name] = (time.thread_time() - t) / count * 1e6
    return out


def _calls_child(n: int) -> None:
    """One round in this process (for --base): JSON of the row times on stdout."""
    rows = _call_rows(n)
    for run, _ in rows.values():        # warm-up (tables, caches of the interpreter)
        run()
    print(json.dumps(calls_round(rows)))


# --------------------------------------------------------------------------------------------
# the fan_batch part (H9: the checks of a batch against its kernel)


def _fanbatch_child(n: int) -> None:
    """One round of fan_batch in this process: JSON of seconds (CPU, one thread) of the public
    call (new outputs each call, as users get them) and of the raw kernel into outputs already
    written once, on the same n hands (20,000 melded hands repeated), and the public call's peak
    of traced memory in bytes."""
    import tracemalloc

    import numpy as np

    sys.path.insert(0, HERE)
    from _mcr import make_mcr_hands
    from mjfast import _core, mcr
    from mjfast._kernels import mcr_fan

    h = make_mcr_hands("melded", 20_000)
    reps = max(1, n // 20_000)
    hands, win, kw = h.batch
    hands, win = np.tile(hands, (reps, 1)), np.tile(win, reps)
    kw = {k: (np.tile(v, (reps, 1, 1)) if v.ndim == 3 else np.tile(v, reps)) for k, v in kw.items()}
    rows = {k: np.tile(v, (reps, 1)) for k, v in h.rows.items()}
    _core.ensure_tables()
    total = np.zeros(len(hands), np.int32)
    counts = np.zeros((len(hands), 82), np.int8)
    mcr_fan.fan_batch(rows["hands"], rows["melds"], rows["flags"], total, counts, 1)    # (outputs' pages touched)
    t = time.thread_time()
    mcr_fan.fan_batch(rows["hands"], rows["melds"], rows["flags"], total, counts, 1)
    kernel = time.thread_time() - t
    t = time.thread_time()
    got = mcr.fan_batch(hands, win, threads=1, **kw)[0]
    public = time.thread_time() - t
    assert np.array_equal(got, total)
    tracemalloc.start()
    mcr.fan_batch(hands, win, threads=1, **kw)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(json.dumps({"public": public, "kernel": kernel, "peak": peak, "input": int(hands.nbytes), "n": len(hands)}))


def fanbatch(rounds: int, n: int, base: str | None) -> None:
    trees = {"this tree": SRC} | ({"base": base} if base else {})
    res: dict = {label: [] for label in trees}
    for _ in range(rounds):
        for label, src in trees.items():
            out = subprocess.run([sys.executable, os.path.abspath(__file__), "--child-fanbatch", str(n)],
                                 env=dict(os.environ, PYTHONPATH=src), capture_output=True, text=True, check=True,
                                 timeout=1800)
            res[label].append(json.loads(out.stdout.strip().splitlines()[-1]))
    print(f"mcr.fan_batch: {res['this tree'][0]['n']:,} melded hands (uint8 counts and sets, int32 / bool columns, "
          f"as _mcr.py prepares them), one thread, CPU seconds, {rounds} rounds interleaved, a fresh process each")
    print()
    print("| tree | public fan_batch s | raw kernel s | public / kernel | peak traced memory MB | input MB |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for label, rs in res.items():
        pub = statistics.median(r["public"] for r in rs)
        ker = statistics.median(r["kernel"] for r in rs)
        print(f"| {label} | {pub:.3f} | {ker:.3f} | {pub / ker:.2f} | {rs[0]['peak'] / 1e6:,.0f} | "
              f"{rs[0]['input'] / 1e6:,.0f} |")
    print()


# --------------------------------------------------------------------------------------------
# the start-up part (fresh processes)

FAN_HAND = ("567p345s6z6z [456m] [123p]", "6z")


def startup_commands(src: str) -> dict:
    py = sys.executable
    mj = [py, "-m", "mjfast"]
    return {
        "python -c pass": [py, "-c", "pass"],
        "python -c 'import numpy'": [py, "-c", "import numpy"],
        "python -c 'import mjfast'": [py, "-c", "import mjfast"],
        "mjfast fan HAND --win 6z": mj + ["fan", FAN_HAND[0], "--win", FAN_HAND[1]],
        "mjfast analyze 123m456p789s11223z": mj + ["analyze", "123m456p789s11223z"],
        "mjfast shanten 123m456p789s11223z": mj + ["shanten", "123m456p789s11223z"],
        "script: mjfast.shanten(text)": [py, "-c", "import mjfast; print(mjfast.shanten('123m456p789s11223z'))"],
        "script: mcr.fan(text)": [py, "-c", "from mjfast import mcr; print(mcr.fan({!r}, win_tile={!r}).total)".format(*FAN_HAND)],
        "mjfast fan HAND (table cache off)": mj + ["fan", FAN_HAND[0], "--win", FAN_HAND[1]],
    }


PEER_COMMANDS = {
    "xiangting script: one hand": [sys.executable, "-c",
                                   "import xiangting; print(xiangting.calculate_replacement_number("
                                   "bytes([1,1,1,0,0,0,0,0,0, 0,0,0,1,1,1,0,0,0, 0,0,0,0,0,0,1,1,1, 2,2,1,0,0,0,0]),"
                                   " xiangting.PlayerCount.FOUR))"],
    "PyMahjongGB script: one hand": [sys.executable, "-c",
                                     "from MahjongGB import MahjongFanCalculator as F; print(F((('CHI','W5',1),"
                                     "('CHI','B2',1)), ('B5','B6','B7','T3','T4','T5','J3'), 'J3', 0, False, False,"
                                     " False, False, 0, 0))"],
}


def _peer_ok(cmd: list) -> bool:
    return subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60).returncode == 0


def startup(rounds: int, base: str | None) -> None:
    trees = {"this tree": SRC} | ({"base": base} if base else {})
    work = tempfile.mkdtemp(prefix="mjfast-startup-")
    runs: dict = {}
    for label, src in trees.items():
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(PYTHONPATH=src, PYTHONPYCACHEPREFIX=os.path.join(work, "pyc-" + label.replace(" ", "_")),
                   MJFAST_TABLE_CACHE=os.path.join(work, "tables-" + label.replace(" ", "_")),
                   MJFAST_PROGRESS="0")
        for name, cmd in startup_commands(src).items():
            e = dict(env, MJFAST_TABLE_CACHE="off") if "cache off" in name else env
            runs[label, name] = (cmd, e)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = os.path.join(work, "pyc-peers")
    for name, cmd in PEER_COMMANDS.items():
        if _peer_ok(cmd):
            runs["peer", name] = (cmd, env)
    for cmd, e in runs.values():         # warm-up: bytecode and table caches written
        subprocess.run(cmd, env=e, stdout=subprocess.DEVNULL, check=True, timeout=120)
    times: dict = {key: [] for key in runs}
    for _ in range(rounds):
        for key, (cmd, e) in runs.items():
            t = time.perf_counter()
            subprocess.run(cmd, env=e, stdout=subprocess.DEVNULL, check=True, timeout=120)
            times[key].append(time.perf_counter() - t)
    print(f"start-up: wall seconds per fresh process, {rounds} rounds interleaved")
    print()
    print("| tree | command | median s | best s |")
    print("| --- | --- | ---: | ---: |")
    for (label, name), v in times.items():
        print(f"| {label} | {name} | {statistics.median(v):.3f} | {min(v):.3f} |")
    print()


def calls(rounds: int, n: int, base: str | None) -> None:
    if base is None:
        rows = _call_rows(n)
        for run, _ in rows.values():
            run()
        per_round = [calls_round(rows) for _ in range(rounds)]
        results = {"this tree": per_round}
    else:
        results = {"this tree": [], "base": []}
        for _ in range(rounds):
            for label, src in (("this tree", SRC), ("base", base)):
                env = dict(os.environ, PYTHONPATH=src)
                out = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", str(n)], env=env,
                                     capture_output=True, text=True, check=True, timeout=1200)
                results[label].append(json.loads(out.stdout.strip().splitlines()[-1]))
    print(f"one hand per call: microseconds per call, {n:,} different hands per row, {rounds} rounds interleaved, "
          "one thread, CPU time")
    print()
    print("| tree | row | median us | best us | x faster than the peer (peer median / row median) |")
    print("| --- | --- | ---: | ---: | --- |")
    for label, per_round in results.items():
        med = {k: statistics.median(r[k] for r in per_round) for k in per_round[0]}
        for name, peers in CALL_ROWS:
            if name not in med:
                continue
            ratio = "; ".join(f"{med[p] / med[name]:.2f}x {p}" for p in peers if p in med) or "-"
            best = min(r[name] for r in per_round)
            print(f"| {label} | {name} | {med[name]:.3f} | {best:.3f} | {ratio} |")
    print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--part", choices=("calls", "startup", "fanbatch", "all"), default="all")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--base", default=None, help="another source tree (its src directory) timed alongside")
    ap.add_argument("--batch-hands", type=int, default=1_000_000, help="hands of the fanbatch part")
    ap.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--child-fanbatch", type=int, default=None, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child is not None:
        _calls_child(a.child)
        return
    if a.child_fanbatch is not None:
        _fanbatch_child(a.child_fanbatch)
        return
    if a.part in ("calls", "all"):
        calls(a.rounds, a.hands, a.base)
    if a.part in ("startup", "all"):
        startup(a.rounds, a.base)
    if a.part in ("fanbatch", "all"):
        fanbatch(max(1, a.rounds // 2), a.batch_hands, a.base)


if __name__ == "__main__":
    main()
