"""Type stubs for the pair loops of the exact deal odds (private; the public API is mjfast.exact)."""
import numpy as np
import numpy.typing as npt

def pass_sums(ia: npt.NDArray[np.int32], ib: npt.NDArray[np.int32], tables: npt.NDArray[np.uint8],
              offsets: npt.NDArray[np.int64], strides: npt.NDArray[np.int64], wb: npt.NDArray[np.int64],
              out: npt.NDArray[np.int64]) -> None: ...
def pair_keys(ia: npt.NDArray[np.int32], ib: npt.NDArray[np.int32], tables: npt.NDArray[np.int32],
              offsets: npt.NDArray[np.int64], strides: npt.NDArray[np.int64], radix: npt.NDArray[np.int64],
              wa: npt.NDArray[np.int64], wb: npt.NDArray[np.int64],
              mult: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...
