"""Botzone logs to training arrays: decisions per second, per stage, one thread.

    PYTHONPATH=src python bench/botzone_decisions.py [--games 100] [--repeats 5] [--flowers]
        [--base OTHER/src]

Writes mjfast's own ``mcr`` games (greedy bots, no flowers; ``--flowers`` with them) in
Botzone's text format, then times each stage as the median of the repeats, in CPU seconds of
this process (``time.process_time``: the machine is shared, and every stage runs on one
thread), with the wall-clock median beside it:

- ``read_logs (text)``: the text to Hand records;
- ``layout (walls, scripts)``: the Hand records laid out on mjfast's wall and turned into
  scripts (the compiled layout, ``chinese_env.layout_hands``, with the Python that feeds it);
- ``engine (laid-out hands)``: the engine plays the scripts and writes the cn-v0 rows;
- ``botzone.decisions from Hand records``: the whole call on Hand records read already (the
  issue's figure: >= 0.5 M decisions/s per thread);
- ``botzone.decisions from the text``: the whole call on the text (a text file object: the
  Python reader ``read_logs``), reading included;
- ``botzone.decisions from the text file (compiled reader)``: the whole call on a path, read
  by the compiled reader (``_kernels/botzone_text``), reading included;
- ``Python layout (prepare, reference)``: the Python layout of every hand
  (``_decisions.prepare``), which the compiled layout replaces (it stays as the reference and
  for the hands the compiled layout leaves);

and, as peers in the same run, ``env.decisions`` on the same games as mjfast GameLogs and on
the built-in policies playing them (no log). ``--base OTHER/src`` also times the whole call from
Hand records with another source tree (its extensions built in place, e.g. an older commit's
``git archive``), in a child process per round, interleaved with this tree's rounds: the A/B of
bench/README.md's Botzone row.
"""
from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import time

import mjfast
from mjfast import rules
from mjfast.botzone import _decisions as bzd
from mjfast.botzone import read_logs, write_logs
from mjfast.env import decisions as env_decisions
from mjfast.env._collect import Collector
from mjfast.game import chinese


def _median(fn, repeats: int) -> tuple[float, float, object]:
    cpu, wall, out = [], [], None
    for _ in range(repeats):
        out = None
        c, t = time.process_time(), time.perf_counter()
        out = fn()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - t)
    return statistics.median(cpu), statistics.median(wall), out


_CHILD = """
import io, json, sys, time
import mjfast
from mjfast.botzone import decisions, read_logs, write_logs
games, flowers, repeats = int(sys.argv[1]), sys.argv[2] == "1", int(sys.argv[3])
buf = io.StringIO()
write_logs([mjfast.replay(g, 7, rules="mcr", flowers=flowers) for g in range(games)], buf)
hands = list(read_logs(io.StringIO(buf.getvalue()), progress=False))
decisions(hands[:8], progress=False)
out = []
for _ in range(repeats):
    c = time.process_time()
    n = len(decisions(hands, progress=False))
    out.append(time.process_time() - c)
print(json.dumps({"cpu": out, "n": n}))
"""


def _ab(base: str, games: int, flowers: bool, rounds: int) -> None:
    """Interleaved rounds: the whole call from Hand records in a child on each tree."""
    import json
    import os as _os
    here = str(__import__("pathlib").Path(mjfast.__file__).resolve().parents[1])
    res: dict = {"base": [], "this": []}
    for _ in range(rounds):
        for side, src in (("base", base), ("this", here)):
            env = dict(_os.environ, PYTHONPATH=src)
            out = subprocess.run([sys.executable, "-c", _CHILD, str(games), "1" if flowers else "0", "3"], env=env,
                                 capture_output=True, text=True, timeout=600, check=True)
            d = json.loads(out.stdout.strip().splitlines()[-1])
            res[side].append(statistics.median(d["cpu"]))
            n = d["n"]
    b, t = statistics.median(res["base"]), statistics.median(res["this"])
    print(f"A/B, whole call from Hand records, {rounds} interleaved rounds (median of 3 each), {n} decisions: "
          f"base {b:.3f} s ({n / b / 1e3:.1f} k/s), this tree {t:.3f} s ({n / t / 1e3:.1f} k/s), ratio {b / t:.2f}x")


def _collector() -> Collector:
    probe = chinese.ENGINE.vec(rules.get("mcr").kernel(), 1, False, False, False)
    return Collector(probe.n_planes, probe.n_scalars, 4096, probe.kinds, probe.n_actions)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--flowers", action="store_true")
    ap.add_argument("--base", help="another source tree (its src folder) to time against, interleaved")
    args = ap.parse_args()
    if args.base:
        _ab(args.base, args.games, args.flowers, args.repeats)
    logs = [mjfast.replay(g, 7, rules="mcr", flowers=args.flowers) for g in range(args.games)]
    buf = io.StringIO()
    write_logs(logs, buf)
    text = buf.getvalue()
    r = args.repeats
    t_read = _median(lambda: list(read_logs(io.StringIO(text), progress=False)), r)
    hands = t_read[2]
    items = list(enumerate(hands))
    chunk = 256

    def layout():
        run = bzd._Hands(_collector(), False, False, [], False)
        return run, [run.layout(items[i:i + chunk]) for i in range(0, len(items), chunk)]

    t_lay = _median(layout, r)

    def engine():
        run, laid = layout()          # (laid out again for a fresh collector; timed apart below)
        c, t = time.process_time(), time.perf_counter()
        for x in laid:
            if x is not None:
                run.play(x)
        return time.process_time() - c, time.perf_counter() - t, run.col.m

    plays = [engine() for _ in range(r)]
    t_play = (statistics.median(p[0] for p in plays), statistics.median(p[1] for p in plays), plays[0][2])
    t_hands = _median(lambda: bzd.decisions(hands, progress=False), r)
    t_text = _median(lambda: bzd.decisions(io.StringIO(text), progress=False), r)
    import tempfile
    with tempfile.NamedTemporaryFile("wb", suffix=".txt", delete=False) as fh:
        fh.write(text.encode("utf-8"))
    try:
        t_file = _median(lambda: bzd.decisions(fh.name, progress=False), r)
    finally:
        os.unlink(fh.name)
    t_prep = _median(lambda: [bzd.prepare(h) for h in hands], max(1, r // 2))
    t_log = _median(lambda: env_decisions(logs, progress=False), 1)
    t_sim = _median(lambda: env_decisions(args.games, rules="mcr", flowers=args.flowers, seed=7, threads=1,
                                          progress=False), r)
    n = len(t_hands[2])
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{len(hands)} hands, {n} decisions ({t_play[2]} rows from the engine stage); "
          f"medians of {r}; load average {load:.2f}")
    rows = [("read_logs (text)", t_read, n), ("layout (walls, scripts)", t_lay, n),
            ("engine (laid-out hands)", t_play, n), ("botzone.decisions from Hand records", t_hands, n),
            ("botzone.decisions from the text", t_text, n),
            ("botzone.decisions from the text file (compiled)", t_file, n), ("Python layout (prepare, reference)", t_prep, n),
            ("env.decisions from mjfast GameLogs (peer)", t_log, len(t_log[2])),
            ("env.decisions, greedy playing (peer)", t_sim, len(t_sim[2]))]
    print(f"  {'stage':42s} {'cpu s':>8s} {'k dec/s (cpu)':>14s} {'us/hand':>8s} {'wall s':>8s}")
    for name, (cpu, wall, _), k in rows:
        print(f"  {name:42s} {cpu:8.3f} {k / cpu / 1e3:14.1f} {cpu / len(hands) * 1e6:8.0f} {wall:8.3f}")


if __name__ == "__main__":
    main()
