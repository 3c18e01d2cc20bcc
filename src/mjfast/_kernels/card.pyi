"""Type stubs for the card kernels (private; the public API is mjfast.card)."""
import numpy as np
import numpy.typing as npt

class CardBlocks:
    data: npt.NDArray[np.uint8]
    kind16: npt.NDArray[np.uint16]
    off: npt.NDArray[np.int32]
    nvar: int
    nblocks: int
    def __init__(self, rows: npt.NDArray[np.uint8], line_start: npt.NDArray[np.int32]) -> None: ...

def line_distance_batch(rows: npt.NDArray[np.uint8], line_start: npt.NDArray[np.int32], flags: npt.NDArray[np.uint8],
                        xk: npt.NDArray[np.int8], xs: npt.NDArray[np.int8], hands: npt.NDArray[np.uint8],
                        exps: npt.NDArray[np.int8], n_exp: npt.NDArray[np.int8], unseen: npt.NDArray[np.uint8],
                        all_joker_sets: bool, out: npt.NDArray[np.int8], arg: npt.NDArray[np.int32],
                        threads: int, blocks: CardBlocks | None = None) -> None: ...
