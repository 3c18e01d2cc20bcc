"""Thin adapters around the competitor libraries used by the benchmarks and the agreement check.

Each competitor is described by a :class:`Competitor`: ``prepare`` turns an (N, 34) uint8 count
batch into the per-hand input the library takes fastest (done once, outside the timed region),
and ``forms[form](prepared)`` runs the library over every hand and returns mjfast-style shanten
numbers (-1 = complete, 0 = tenpai) as an int8 array.

``xiangting`` (Rust core, PyO3 bindings; version 6)
    ``calculate_replacement_number(hand, PlayerCount.FOUR)`` returns the *replacement number*
    = shanten + 1, always the minimum over standard, seven pairs and thirteen orphans. There is
    no per-form switch and no batch / numpy entry point, so xiangting only has ``form="all"``
    rows, timed as a Python-level ``map`` over per-hand calls. Of the inputs it accepts
    (list of ints, ``bytes``, numpy row), ``bytes`` of the 34 counts is by far the cheapest to
    pass (about 5x faster than a list on our machine), so that is what ``prepare`` builds.
``mahjong`` (pure Python)
    ``Shanten.calculate_shanten(counts)`` (all three forms) and
    ``Shanten.calculate_shanten_for_regular_hand(counts)`` (standard form), on Python lists.

:func:`load_competitors` skips a library that is not installed and says why.
"""
from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable

import numpy as np


@dataclasses.dataclass(frozen=True)
class Competitor:
    name: str
    version: str
    input_note: str
    prepare: Callable[[np.ndarray], list]
    forms: dict[str, Callable[[list], np.ndarray]]


def _version(dist: str) -> str:
    try:
        from importlib.metadata import version

        return version(dist)
    except Exception:  # pragma: no cover - metadata missing
        return "?"


def rows_as_bytes(hands: np.ndarray) -> list[bytes]:
    """(N, 34) uint8 counts -> N ``bytes`` objects of 34 counts each."""
    hands = np.ascontiguousarray(hands, dtype=np.uint8)
    width = hands.shape[1]
    raw = hands.tobytes()
    return [raw[i : i + width] for i in range(0, len(raw), width)]


def rows_as_lists(hands: np.ndarray) -> list[list]:
    """(N, 34) counts -> N lists of 34 Python ints."""
    return np.ascontiguousarray(hands).tolist()


def load_xiangting() -> Competitor | None:
    try:
        import xiangting
    except ImportError:
        return None
    rn = xiangting.calculate_replacement_number
    four = xiangting.PlayerCount.FOUR

    def run_all(prepared: list) -> np.ndarray:
        out = np.fromiter(map(rn, prepared, itertools.repeat(four)), dtype=np.int8, count=len(prepared))
        out -= 1  # replacement number -> shanten
        return out

    return Competitor(
        name="xiangting",
        version=_version("xiangting"),
        input_note="per-hand calls over bytes rows (no batch API)",
        prepare=rows_as_bytes,
        forms={"all": run_all},
    )


def load_mahjong() -> Competitor | None:
    try:
        from mahjong.shanten import Shanten
    except ImportError:
        return None
    regular = Shanten.calculate_shanten_for_regular_hand
    every = Shanten.calculate_shanten

    def run_standard(prepared: list) -> np.ndarray:
        return np.fromiter(map(regular, prepared), dtype=np.int8, count=len(prepared))

    def run_all(prepared: list) -> np.ndarray:
        return np.fromiter(map(every, prepared), dtype=np.int8, count=len(prepared))

    return Competitor(
        name="mahjong",
        version=_version("mahjong"),
        input_note="per-hand calls over lists (pure Python)",
        prepare=rows_as_lists,
        forms={"standard": run_standard, "all": run_all},
    )


def load_competitors() -> tuple[list[Competitor], list[str]]:
    """The installed competitors and a note for each missing one."""
    found, notes = [], []
    for name, loader in (("xiangting", load_xiangting), ("mahjong", load_mahjong)):
        comp = loader()
        if comp is None:
            notes.append(f"{name} is not installed (pip install -e '.[bench]'); its rows are skipped")
        else:
            found.append(comp)
    return found, notes
