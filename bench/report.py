"""Time mjfast and its competitors and print Markdown tables for bench/README.md.

Usage::

    python bench/report.py                 # 1,000,000 hands per set (about a minute)
    python bench/report.py --quick         # 100,000 hands, fewer repeats (a few seconds)
    python bench/report.py --sets random14 --json timings.json

Method
------
* Hand sets: fixed seeds (``bench/_hands.py``): uniform 14-tile, uniform 13-tile and one-suit
  14-tile hands. xiangting runs on the first ``--competitor-hands`` of each set and the
  pure-Python ``mahjong`` package on the first ``--mahjong-hands``.
* Every row is timed ``--repeats`` times after one untimed warm-up call and the **median** is
  reported (the minimum is shown too).
* Single-thread rows (``threads=1`` and the competitors, which are single-threaded Python
  loops) are timed in **CPU time of the calling thread** (``time.thread_time``), which other
  jobs on the machine barely disturb. ``threads=2`` rows have to be timed in **wall time**
  (``time.perf_counter``); on a busy 2-core machine they are the noisiest numbers.
* "vs mjfast t1" = this row's time / ``mjfast.shanten(counts, threads=1)`` (or
  ``mjfast.is_winning``) on the same hands and form: > 1 is slower, < 1 faster.
* Competitor outputs are compared with mjfast's on the timed hands; any disagreement is
  printed under the tables.

A competitor that is not installed is skipped with a note.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
import time

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _HERE)
try:
    import mjfast
except ImportError:  # use the in-place build of a source checkout
    sys.path.insert(0, os.path.join(os.path.dirname(_HERE), "src"))
    import mjfast
from _competitors import load_competitors  # noqa: E402
from _hands import DESCRIPTIONS, HAND_SETS, make_hands, make_packed  # noqa: E402
from _timing import median, repeat_timing  # noqa: E402
from mjfast import _core  # noqa: E402

FORM_BITS = {"standard": 1, "all": 7}


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


class Row(dict):
    pass


def time_row(rows, fn, n, *, what, library, form, layout, threads, set_name, repeats, baseline=False):
    times = repeat_timing(fn, repeats, cpu=(threads == 1))
    med = median(times)
    row = Row(what=what, library=library, form=form, input=layout, threads=threads, hand_set=set_name,
              n_hands=n, repeats=repeats, clock="thread_time" if threads == 1 else "wall",
              ns_median=med / n * 1e9, ns_min=min(times) / n * 1e9, baseline=baseline)
    rows.append(row)
    print(f"  {what:<10} {library:<34} {form:<8} {layout:<8} t{threads}  "
          f"{row['ns_median']:>12,.1f} ns/hand (median of {repeats})", file=sys.stderr)
    return row


def run(args):
    comps, notes = load_competitors()
    _core.ensure_tables()
    rows, disagreements = [], []
    for set_name in args.sets:
        t0 = time.perf_counter()
        counts = make_hands(set_name, args.hands)
        packed = make_packed(counts)
        print(f"{set_name}: {len(counts):,} hands generated in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
        data = {"counts": counts, "packed": packed}
        n = len(counts)
        for form in ("standard", "all"):
            bits = FORM_BITS[form]
            out = np.empty(n, dtype=np.int8)
            for layout in ("counts", "packed"):
                for threads in args.threads:
                    arr = data[layout]
                    time_row(rows, lambda: mjfast.shanten(arr, form=form, threads=threads), n,
                             what="shanten", library="mjfast.shanten", form=form, layout=layout,
                             threads=threads, set_name=set_name, repeats=args.repeats,
                             baseline=(layout == "counts" and threads == 1))
            for layout in ("counts", "packed"):
                kernel = _core.shanten_counts_batch if layout == "counts" else _core.shanten_packed_batch
                for threads in args.threads:
                    arr = data[layout]
                    time_row(rows, lambda: kernel(arr, bits, out, threads), n,
                             what="shanten", library=f"mjfast _core.{kernel.__name__}", form=form,
                             layout=layout, threads=threads, set_name=set_name, repeats=args.repeats)
            ours = mjfast.shanten(counts, form=form, threads=1)
            for comp in comps:
                if form not in comp.forms:
                    continue
                m = min(n, args.mahjong_hands if comp.name == "mahjong" else args.competitor_hands)
                reps = args.mahjong_repeats if comp.name == "mahjong" else args.repeats
                prepared = comp.prepare(counts[:m])
                fn = comp.forms[form]
                result = {}
                time_row(rows, lambda: result.__setitem__("out", fn(prepared)), m,
                         what="shanten", library=f"{comp.name} {comp.version}", form=form,
                         layout="per-hand", threads=1, set_name=set_name, repeats=reps)
                bad = int((result["out"] != ours[:m]).sum())
                if bad:
                    disagreements.append(f"{comp.name} disagrees with mjfast on {bad} of {m:,} "
                                         f"{set_name} hands (form={form})")
            if HAND_SETS[set_name][0] == 14 and not args.no_winning:
                for layout in ("counts", "packed"):
                    for threads in args.threads:
                        arr = data[layout]
                        time_row(rows, lambda: mjfast.is_winning(arr, form=form, threads=threads), n,
                                 what="is_winning", library="mjfast.is_winning", form=form,
                                 layout=layout, threads=threads, set_name=set_name,
                                 repeats=args.repeats, baseline=(layout == "counts" and threads == 1))
        del counts, packed, data
    for r in rows:
        base = [b for b in rows if b["baseline"] and b["hand_set"] == r["hand_set"]
                and b["what"] == r["what"] and b["form"] == r["form"]]
        r["ratio"] = r["ns_median"] / base[0]["ns_median"] if base else None
    return rows, notes, disagreements, comps


def markdown(rows, notes, disagreements, comps, args) -> str:
    lines = []
    today = datetime.date.today().isoformat()
    ncpu = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    lines.append(f"Measured {today} on {cpu_model()} ({ncpu} CPUs), Python {platform.python_version()}, "
                 f"numpy {np.__version__}, mjfast {mjfast.__version__} (OpenMP: {_core.openmp_enabled()})"
                 + "".join(f", {c.name} {c.version}" for c in comps) + ".")
    lines.append(f"mjfast rows: {args.hands:,} hands per set; xiangting: first {args.competitor_hands:,}; "
                 f"mahjong: first {args.mahjong_hands:,}. Median of {args.repeats} runs "
                 f"({args.mahjong_repeats} for mahjong); threads=1 rows in thread CPU time, "
                 "threads=2 rows in wall time.")
    lines.append("")
    for set_name in args.sets:
        sel = [r for r in rows if r["hand_set"] == set_name]
        if not sel:
            continue
        lines.append(f"#### {set_name}: {DESCRIPTIONS[set_name]}")
        lines.append("")
        lines.append("| what | library / entry point | form | input | threads | ns/hand (median) | ns/hand (min) | vs mjfast t1 |")
        lines.append("| --- | --- | --- | --- | ---: | ---: | ---: | ---: |")
        for r in sel:
            ratio = "" if r["ratio"] is None else f"{r['ratio']:.2f}x"
            lines.append(f"| {r['what']} | {r['library']} | {r['form']} | {r['input']} | {r['threads']} | "
                         f"{r['ns_median']:,.1f} | {r['ns_min']:,.1f} | {ratio} |")
        lines.append("")
    for note in notes:
        lines.append(f"- note: {note}")
    if "xiangting" in {c.name for c in comps}:
        lines.append("- xiangting has no form switch (always standard + seven pairs + thirteen orphans) "
                     "and no batch API: its rows are a Python loop of per-hand calls on bytes rows.")
    if disagreements:
        for d in disagreements:
            lines.append(f"- DISAGREEMENT: {d}")
    else:
        lines.append("- every competitor agreed with mjfast on every timed hand.")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Time mjfast vs competitors; print Markdown tables.")
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--competitor-hands", type=int, default=200_000)
    ap.add_argument("--mahjong-hands", type=int, default=2_000)
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--mahjong-repeats", type=int, default=5)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--sets", nargs="+", default=list(HAND_SETS), choices=list(HAND_SETS))
    ap.add_argument("--no-winning", action="store_true", help="skip the is_winning rows")
    ap.add_argument("--quick", action="store_true",
                    help="100,000 hands, 20,000 for xiangting, 500 for mahjong, 5 repeats")
    ap.add_argument("--json", metavar="PATH", help="also write the raw rows as JSON")
    args = ap.parse_args(argv)
    if args.quick:
        args.hands, args.competitor_hands, args.mahjong_hands = 100_000, 20_000, 500
        args.repeats, args.mahjong_repeats = 5, 3
    rows, notes, disagreements, comps = run(args)
    print(markdown(rows, notes, disagreements, comps, args))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": vars(args), "rows": rows, "notes": notes, "disagreements": disagreements},
                      f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
