"""Win-by-turn odds (compatibility module): they live in :mod:`mjfast.analysis.winturn`."""
from .analysis.winturn import (  # noqa: F401
    EXACT_POLICIES,
    METHODS,
    POLICIES,
    WinByTurn,
    WinByTurnByShanten,
    win_by_turn,
    win_by_turn_random,
)
