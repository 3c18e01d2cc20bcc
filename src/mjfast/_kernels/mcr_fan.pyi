"""Type stubs for the MCR fan kernel (private; see mjfast.mcr)."""
import numpy as np
import numpy.typing as npt

FAN_VALUES: list[int]

def fan_batch(hand: npt.NDArray[np.uint8], melds: npt.NDArray[np.uint8], flags: npt.NDArray[np.int32],
              total: npt.NDArray[np.int32], counts: npt.NDArray[np.int8], threads: int) -> None: ...
def fan_one(hand: bytes, melds: bytes, win: int, self_drawn: int, fourth_tile: int, kong: int, last_of_wall: int,
            seat_wind: int, prevalent_wind: int, flowers: int, judge2018: int = 0) -> tuple[int, list[tuple[int, int]]]: ...
def fan_batch_checked(hand: npt.NDArray[np.uint8], melds: npt.NDArray[np.uint8], flags: npt.NDArray[np.int32],
                      total: npt.NDArray[np.int32], counts: npt.NDArray[np.int8], threads: int) -> bool: ...
