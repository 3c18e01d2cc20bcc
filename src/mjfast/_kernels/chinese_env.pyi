"""Type stubs for the Chinese family's batched environment kernel (private; see mjfast.env)."""
from typing import Any

from mjfast._kernels.engine import Tables

ACTIONS: int
PLANES: int
SCALARS: int
DERIVED_PLANES: int
PRIVILEGED_PLANES: int
CONTEXTS: tuple[str, ...]
ACTION_IDS: dict[str, int]
PLANE_IDS: dict[str, int]
SCALAR_IDS: dict[str, int]

def table_bytes(rules: dict[str, Any]) -> int: ...

class ChineseVec(Tables):
    def __init__(self, rules: dict[str, Any], n: int, skip_forced: bool = ..., derived: bool = ...,
                 privileged: bool = ...) -> None: ...
    def play_scripts(self, walls: Any, quan: Any, starts: Any, s_seat: Any, s_act: Any, s_claim: Any, episode: Any,
                     first: int, obs: Any, scal: Any, mask: Any, act: Any, seat: Any, hand_no: Any, gid: Any,
                     ep_out: Any, m: int, result: Any) -> tuple[int, int]: ...

def layout_hands(kind: Any, player: Any, code: Any, act_start: Any, deals: Any, deal_start: Any, deal_len: Any,
                 result: Any, walls: Any, out: Any, s_seat: Any, s_act: Any, s_claim: Any, max_script: int) -> None: ...
