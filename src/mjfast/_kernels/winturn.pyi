"""Type stubs for the win-by-turn kernels (private; the public API is mjfast.analysis.winturn)."""
import numpy as np
import numpy.typing as npt

def winturn_batch(n: int, start: int, k0: int, k1: int, hand: npt.NDArray[np.uint8], pool: npt.NDArray[np.intc],
                  n_draws: int, forms: int, policy: int, win_turn: npt.NDArray[np.int16],
                  tenpai_turn: npt.NDArray[np.int16], threads: int) -> None: ...
def random_start_batch(n: int, start: int, k0: int, k1: int, hand_size: int, n_draws: int, forms: int, policy: int,
                       start_shanten: npt.NDArray[np.int8], win_turn: npt.NDArray[np.int16],
                       tenpai_turn: npt.NDArray[np.int16], threads: int) -> None: ...
def play_walls(hand: npt.NDArray[np.uint8], pool: npt.NDArray[np.intc], draws: npt.NDArray[np.uint8], forms: int,
               policy: int, win_turn: npt.NDArray[np.int16], tenpai_turn: npt.NDArray[np.int16]) -> None: ...
def choose_discard_py(hand: npt.NDArray[np.uint8], pool: npt.NDArray[np.intc], forms: int,
                      policy: int) -> tuple[int, int]: ...
