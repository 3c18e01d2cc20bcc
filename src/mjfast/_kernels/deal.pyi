"""Type stubs for the deal kernels (private; the public API is mjfast.deals)."""
import numpy as np
import numpy.typing as npt

N_SHANTEN_BINS: int
N_COUNT_BINS: int

def deal_batch(n: int, start: int, k0: int, k1: int, n_tiles: int, replace: bool, hands: npt.NDArray[np.uint8],
               bonus: npt.NDArray[np.uint8], jokers: npt.NDArray[np.uint8], ids: npt.NDArray[np.uint8] | None,
               threads: int, zeroed: bool = ...) -> None: ...
def stats_row_size(n_forms: int) -> int: ...
def stats_batch(n: int, start: int, k0: int, k1: int, n_tiles: int, replace: bool, form_bits: npt.NDArray[np.intc],
                american: bool, hist: npt.NDArray[np.int64], threads: int, all_joker_sets: bool = ...) -> None: ...
def _set_prepared_values(n: int) -> int: ...
