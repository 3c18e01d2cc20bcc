"""Fixed-seed MCR fan-calculator hand sets and their runners, shared by test_bench_mcr.py,
mcr_timing.py and mcr_fan_hash.py.

The hands come from the seeded generators of the fan tests (tests/oracles/mcr_hands.py), so they are
valid inputs of both calculators, and every hand of these sets is a win:

- ``concealed``: random complete concealed hands (sets drawn by how many ways the wall gives their
  tiles: about "random 14 tiles that happen to be complete"), ``random_weighted``;
- ``melded``: 1-4 declared sets (exposed 85 % of the time), ``melded``;
- ``seven_pairs``: seven pairs, some shifted, some also standard hands, ``seven_pairs``;
- ``knitted``: a knitted straight + a set + a pair (the set declared 40 % of the time),
  ``special_knitted``.

Each set is prepared once, outside the timed region, in the input form each entry point takes
fastest: the kernel's row arrays, ``mcr.fan_batch``'s arrays, ``mcr.fan``'s keyword arguments
(counts as an array, sets as tuples), and PyMahjongGB's positional tuples (``to_reference`` of the
fan oracle, as tests/test_mcr_fan_reference.py converts hands).
"""
from __future__ import annotations

import collections
import dataclasses
import itertools
import os
import random
import sys
from collections.abc import Callable

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
_TESTS = os.path.join(os.path.dirname(_HERE), "tests")
if _TESTS not in sys.path:                      # the fan oracle and the hand generators
    sys.path.insert(0, _TESTS)

from oracles import mcr_fan as oracle  # noqa: E402
from oracles import mcr_hands  # noqa: E402

MK = {"chow": 1, "pung": 2, "kong": 3}          # fan_batch's set codes (0: no set)
FLAGS = ("self_drawn", "fourth_tile", "kong", "last_of_wall", "seat_wind", "prevalent_wind", "flowers")
BOOL_FLAGS = ("self_drawn", "fourth_tile", "kong", "last_of_wall")


def _knitted(n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    out: list[dict] = []
    while len(out) < n:
        case = mcr_hands.special_knitted(rng)
        if case is not None:
            out.append(case)
    return out


#: name -> (generator(n, seed), seed, description)
MCR_SETS: dict[str, tuple[Callable[[int, int], list[dict]], int, str]] = {
    "concealed": (mcr_hands.random_weighted, 8801, "random complete concealed hands"),
    "melded": (mcr_hands.melded, 8802, "1-4 declared sets (exposed 85 %)"),
    "seven_pairs": (mcr_hands.seven_pairs, 8803, "seven pairs"),
    "knitted": (_knitted, 8804, "knitted straight + set + pair"),
}


def to_arrays(cases: list[dict]) -> dict[str, np.ndarray]:
    """The raw kernel's row arrays: hands (N, 34) uint8 (standing tiles without the winning tile),
    melds (N, 12) uint8 (set code, lowest tile, exposed), flags (N, 8) int32 (winning tile, the
    four flags, seat and prevalent wind, flowers)."""
    n = len(cases)
    hands = np.zeros((n, 34), np.uint8)
    melds = np.zeros((n, 12), np.uint8)
    flags = np.zeros((n, 8), np.int32)
    for i, c in enumerate(cases):
        hands[i] = c["hand"]
        for j, (kind, t, supplier) in enumerate(c["melds"]):
            melds[i, 3 * j:3 * j + 3] = (MK[kind], t, 1 if supplier else 0)
        flags[i] = [c["win_tile"]] + [int(c.get(k, 0)) for k in FLAGS]
    return {"hands": hands, "melds": melds, "flags": flags}


def fan_kwargs(case: dict) -> tuple[np.ndarray, dict]:
    """``mcr.fan``'s arguments for one case: counts and keywords."""
    kw = {k: bool(case.get(k, False)) for k in BOOL_FLAGS}
    kw.update(seat_wind=int(case.get("seat_wind", 0)), prevalent_wind=int(case.get("prevalent_wind", 0)),
              flowers=int(case.get("flowers", 0)), win_tile=int(case["win_tile"]),
              melds=[(kind, int(t), "exposed" if supplier else "concealed") for kind, t, supplier in case["melds"]])
    return np.asarray(case["hand"], np.int64), kw


@dataclasses.dataclass
class McrHands:
    """One prepared hand set."""

    name: str
    cases: list[dict]
    rows: dict[str, np.ndarray]            # the raw kernel's input (to_arrays)
    batch: tuple[np.ndarray, np.ndarray, dict]    # mcr.fan_batch(hands, win_tile, **keywords)
    calls: list[tuple[np.ndarray, dict]]   # mcr.fan(counts, **keywords), one per hand
    reference: list[tuple]                 # MahjongGB.MahjongFanCalculator(*args), one per hand

    def __len__(self) -> int:
        return len(self.cases)


def make_mcr_hands(name: str, n: int) -> McrHands:
    gen, seed, _ = MCR_SETS[name]
    cases = gen(n, seed)
    rows = to_arrays(cases)
    melds = rows["melds"].reshape(n, 4, 3)
    cols = {k: rows["flags"][:, 1 + i].copy() for i, k in enumerate(FLAGS)}
    for k in BOOL_FLAGS:
        cols[k] = cols[k].astype(bool)
    batch = (rows["hands"], rows["flags"][:, 0].copy(), dict(melds=melds, **cols))
    return McrHands(name, cases, rows, batch, [fan_kwargs(c) for c in cases],
                    [oracle.to_reference(**c) for c in cases])


# ------------------------------------------------------------------------------------------------
# runners: each returns the totals (int32 array) of the hands it scored


def kernel_runner(h: McrHands, threads: int = 1) -> Callable[[], np.ndarray]:
    """The raw nogil kernel (no validation), outputs allocated once."""
    from mjfast import _core
    from mjfast._kernels import mcr_fan

    _core.ensure_tables()
    n = len(h)
    total = np.zeros(n, np.int32)
    counts = np.zeros((n, 82), np.int8)
    r = h.rows

    def run() -> np.ndarray:
        mcr_fan.fan_batch(r["hands"], r["melds"], r["flags"], total, counts, threads)
        return total
    return run


def api_batch_runner(h: McrHands, threads: int = 1) -> Callable[[], np.ndarray]:
    """``mjfast.mcr.fan_batch`` (validation, new outputs, the kernel)."""
    from mjfast import mcr

    hands, win, kw = h.batch

    def run() -> np.ndarray:
        return mcr.fan_batch(hands, win, threads=threads, **kw)[0]
    return run


def api_call_runner(h: McrHands) -> Callable[[], np.ndarray]:
    """``mjfast.mcr.fan`` once per hand (a Python call each)."""
    from mjfast import mcr

    calls = h.calls
    fan = mcr.fan

    def run() -> np.ndarray:
        return np.fromiter((fan(counts, **kw).total for counts, kw in calls), np.int32, len(calls))
    return run


def load_mahjonggb():
    """(MahjongFanCalculator, version) of PyMahjongGB, or None when it is not installed."""
    try:
        from MahjongGB import MahjongFanCalculator
    except ImportError:
        return None
    try:
        from importlib.metadata import version

        ver = version("pymahjonggb")
    except Exception:  # pragma: no cover - metadata missing
        ver = "?"
    return MahjongFanCalculator, ver


def reference_runner(h: McrHands, calculator) -> Callable[[], None]:
    """PyMahjongGB's ``MahjongFanCalculator`` once per hand, arguments prebuilt as tuples (the
    cheapest loop: ``starmap`` drained by a zero-length deque)."""
    args = h.reference

    def run() -> None:
        collections.deque(itertools.starmap(calculator, args), maxlen=0)
    return run


def reference_totals(h: McrHands, calculator) -> np.ndarray:
    """PyMahjongGB's totals (flowers included) of the set, for the agreement check."""
    return np.array([sum(v for v, _name in calculator(*a)) for a in h.reference], np.int32)
