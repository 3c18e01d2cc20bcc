"""Botzone logs to training arrays: decisions per second, per stage, one thread.

    PYTHONPATH=src python bench/botzone_decisions.py [--games 100] [--repeats 3]

Writes mjfast's own ``mcr`` games (greedy bots, no flowers) in Botzone's text format, then
times, each as the median of the repeats: reading the text (``read_logs``), preparing the
hands (walls and scripts, ``_decisions.prepare``), playing the prepared hands on the engine
(``_decisions.play``), and the whole of ``mjfast.botzone.decisions`` from the text. Also
``env.decisions`` on the same games as mjfast GameLogs (the log path it already has) and on
the built-in policies playing (no log), as peers in the same run.
"""
from __future__ import annotations

import argparse
import io
import statistics
import time

import mjfast
from mjfast.botzone import _decisions as bzd
from mjfast.botzone import read_logs, write_logs
from mjfast.env import decisions as env_decisions
from mjfast.env._collect import Collector


def _median(fn, repeats: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    logs = [mjfast.replay(g, 7, rules="mcr", flowers=False) for g in range(args.games)]
    buf = io.StringIO()
    write_logs(logs, buf)
    text = buf.getvalue()
    t_read, hands = _median(lambda: list(read_logs(io.StringIO(text), progress=False)), args.repeats)
    t_prep, prepared = _median(lambda: [(i, bzd.prepare(h)) for i, h in enumerate(hands)], args.repeats)

    def engine():
        from mjfast import rules
        from mjfast.game import chinese
        probe = chinese.ENGINE.vec(rules.get("mcr").kernel(), 1, False, False, False)
        col = Collector(probe.n_planes, probe.n_scalars, 4096, probe.kinds, probe.n_actions)
        bzd.play(prepared, col, n_tables=256)
        return col.m

    t_play, m = _median(engine, args.repeats)
    t_all, d = _median(lambda: bzd.decisions(io.StringIO(text), progress=False), args.repeats)
    t_log, dl = _median(lambda: env_decisions(logs, progress=False), 1)
    t_sim, ds = _median(lambda: env_decisions(args.games, rules="mcr", flowers=False, seed=7, threads=1,
                                              progress=False), args.repeats)
    n = len(d)
    print(f"{len(hands)} hands, {n} decisions ({m} rows from the engine stage)")
    rows = [("read_logs (text)", t_read, n), ("prepare (walls, scripts)", t_prep, n),
            ("engine (prepared hands)", t_play, n), ("botzone.decisions, end to end", t_all, n),
            ("env.decisions from mjfast GameLogs (peer)", t_log, len(dl)),
            ("env.decisions, greedy playing (peer)", t_sim, len(ds))]
    for name, t, k in rows:
        print(f"  {name:45s} {t:8.3f} s  {k / t / 1e3:9.1f} k decisions/s  {t / len(hands) * 1e6:8.0f} us/hand")


if __name__ == "__main__":
    main()
