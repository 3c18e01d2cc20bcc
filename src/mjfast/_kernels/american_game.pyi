"""Type stubs for the American family's engine (private; the public API is mjfast.game)."""
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from .engine import Table

OUT_WIDTH: int
OUT_COLUMNS: dict[str, int]
CARD_COLUMNS: tuple[str, ...]
ILLEGAL: dict[int, str]

class AmericanTable(Table):
    def __init__(self, rules: dict, capacity: int = ...) -> None: ...
    def set_quiet(self, quiet: Sequence[int]) -> None: ...

def out_width(rules: dict) -> int: ...

def simulate_batch(rules: dict, game_index: npt.NDArray[np.uint64], k0: int, k1: int, policies: npt.NDArray[np.intc],
                   out: npt.NDArray[np.int32], threads: int) -> None: ...
