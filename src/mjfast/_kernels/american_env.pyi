"""Type stubs for the American family's batched environment kernel (private; see mjfast.env)."""
from typing import Any

from mjfast._kernels.engine import Tables

ACTIONS: int
PLANES: int
SCALARS: int
KINDS: int
DERIVED_PLANES: int
PRIVILEGED_PLANES: int
CONTEXTS: tuple[str, ...]
ACTION_IDS: dict[str, int]

def table_bytes(rules: dict[str, Any]) -> int: ...

class AmericanVec(Tables):
    def __init__(self, rules: dict[str, Any], n: int, skip_forced: bool = ..., derived: bool = ...,
                 privileged: bool = ...) -> None: ...
    def pass_state(self, i: int) -> tuple[int, int, int, list[int]]: ...
