"""Type stubs for the Chinese family's engine (private; the public API is mjfast.game)."""
import numpy as np
import numpy.typing as npt

from .engine import Table

OUT_WIDTH: int
OUT_COLUMNS: dict[str, int]
MELD_NAMES: tuple[str, ...]
ILLEGAL: dict[int, str]
FALSE_WIN_ANSWER: int
FAN_HIST_BINS: int

class ChineseTable(Table):
    def __init__(self, rules: dict, capacity: int = ...) -> None: ...

def simulate_batch(rules: dict, game_index: npt.NDArray[np.uint64], k0: int, k1: int, policies: npt.NDArray[np.intc],
                   out: npt.NDArray[np.int32], threads: int) -> None: ...
def _set_wait_shortcut(on: bool) -> None: ...
def _greedy_scores_of(rules: dict, hand: npt.NDArray[np.uint8],
                      visible: npt.NDArray[np.uint8]) -> tuple[list[int], list[int], int]: ...
