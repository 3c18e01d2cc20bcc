"""Type stubs for the lookup tables' binding (private; see mjfast._kernels.tables)."""
import numpy as np

def ensure_tables() -> dict[str, np.ndarray]: ...
