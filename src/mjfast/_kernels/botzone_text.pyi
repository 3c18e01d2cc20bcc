"""Type stubs for the Botzone text reader kernel (private; the public API is mjfast.botzone.decisions)."""
import numpy as np
import numpy.typing as npt

def parse(data: bytes, pos: int, end: int, max_hands: int, line: int, codes: npt.NDArray[np.int8],
          kind: npt.NDArray[np.int8], player: npt.NDArray[np.int8], code: npt.NDArray[np.int8],
          act_start: npt.NDArray[np.int64], deals: npt.NDArray[np.int8], deal_start: npt.NDArray[np.int64],
          deal_len: npt.NDArray[np.int32], result: npt.NDArray[np.int8], quan: npt.NDArray[np.int32],
          scores: npt.NDArray[np.int64], ok: npt.NDArray[np.uint8],
          span: npt.NDArray[np.int64]) -> tuple[int, int, int]: ...
