import numpy as np

NO_PATTERN: np.uint64

def distance_vectors(n_kinds: int, numbers: bool) -> np.ndarray: ...
