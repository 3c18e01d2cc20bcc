"""Botzone logs to training arrays: decisions per second, per stage, one thread.

    PYTHONPATH=src python bench/botzone_decisions.py [--games 100] [--repeats 5]

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
- ``botzone.decisions from the text``: the whole call on the text, reading included;
- ``Python layout (prepare, reference)``: the Python layout of every hand
  (``_decisions.prepare``), which the compiled layout replaces (it stays as the reference and
  for the hands the compiled layout leaves);

and, as peers in the same run, ``env.decisions`` on the same games as mjfast GameLogs and on
the built-in policies playing them (no log).
"""
from __future__ import annotations

import argparse
import io
import os
import statistics
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


def _collector() -> Collector:
    probe = chinese.ENGINE.vec(rules.get("mcr").kernel(), 1, False, False, False)
    return Collector(probe.n_planes, probe.n_scalars, 4096, probe.kinds, probe.n_actions)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--flowers", action="store_true")
    args = ap.parse_args()
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
            ("botzone.decisions from the text", t_text, n), ("Python layout (prepare, reference)", t_prep, n),
            ("env.decisions from mjfast GameLogs (peer)", t_log, len(t_log[2])),
            ("env.decisions, greedy playing (peer)", t_sim, len(t_sim[2]))]
    print(f"  {'stage':42s} {'cpu s':>8s} {'k dec/s (cpu)':>14s} {'us/hand':>8s} {'wall s':>8s}")
    for name, (cpu, wall, _), k in rows:
        print(f"  {name:42s} {cpu:8.3f} {k / cpu / 1e3:14.1f} {cpu / len(hands) * 1e6:8.0f} {wall:8.3f}")


if __name__ == "__main__":
    main()
