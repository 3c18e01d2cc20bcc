"""rollout: play many table states to the end of the hand (or game) with built-in policies,
without the GIL, on every core."""
from __future__ import annotations

import dataclasses

import numpy as np

from .._runtime.seeding import root_key
from .._runtime.threads import resolve_threads
from ..game.batch import EXTERNAL, ST, builtin_policies
from ._common import book, check_states_arg
from ._states import TableStates, family_module, new_core

CHUNK = 4096            # tables per kernel call (Ctrl-C is seen between calls)
_RO = {"score": 0, "wins": 4, "deal_ins": 8, "turns": 12, "hands": 13, "status": 14}


@dataclasses.dataclass(frozen=True)
class RolloutResult:
    """What :func:`rollout` returns: per table, per seat.

    Attributes
    ----------
    score : ndarray (n, 4) int32
        Score change of each seat from the state to the end.
    wins, deal_ins : ndarray (n, 4) int32
        Hands won; discards won on (by someone else).
    turns : ndarray (n,) int32
        Turns played (a draw or a claim, then a discard).
    hands : ndarray (n,) int32
        Hands finished.
    """

    score: np.ndarray
    wins: np.ndarray
    deal_ins: np.ndarray
    turns: np.ndarray
    hands: np.ndarray

    def __len__(self) -> int:
        return int(self.turns.shape[0])


def policy_codes(family: str, policies, where: str) -> np.ndarray:
    builtin = builtin_policies(family)
    pols = [policies] * 4 if isinstance(policies, str) else policies
    try:
        pols = list(pols)
    except TypeError:
        raise TypeError(f"{where}: policies must be a built-in policy name or a list of 4; got {policies!r}") from None
    if len(pols) != 4:
        raise ValueError(f"{where}: policies must be one built-in policy name or a list of 4 (one per seat)")
    for p in pols:
        if not isinstance(p, str):
            raise TypeError(f"{where}: rollouts play built-in policies ({', '.join(n for n in builtin if n != 'external')}) "
                            f"by name; got {type(p).__name__}")
        if p not in builtin or p == "external":
            raise ValueError(f"{where}: {p!r} is not a built-in policy of the {family} rules "
                             f"({', '.join(n for n in builtin if n != 'external')})")
    return np.array([builtin[p] for p in pols], np.intc)


def run_rollouts(states: TableStates, first: np.ndarray, codes: np.ndarray, until_hand: bool, threads: int,
                 data: np.ndarray | None = None) -> np.ndarray:
    """(n, 16) int32 rollout rows of ``data`` (default the states' records), first actions
    ``first`` (-1: none), built-in codes (4,) for every seat; tables are loaded in chunks."""
    data = states.data if data is None else data
    n = data.shape[0]
    fam = states.rules.family
    width = family_module(fam).ROLLOUT_WIDTH
    res = np.zeros((n, width), np.int32)
    m = min(n, CHUNK)
    core = new_core(states.rules, m, skip_forced=True)
    lay = core.state_layout()
    n_engine = int(lay["record"])
    at = int(lay["book_at"])
    for lo in range(0, n, m):
        hi = min(n, lo + m)
        k = hi - lo
        if k != m:
            core = new_core(states.rules, k, skip_forced=True)
        chunk = data[lo:hi]
        bk = chunk[:, at:at + 32].copy().view(np.int32)
        pol = np.tile(codes, (k, 1)).astype(np.intc)
        deciding = bk[:, 0] == ST["decide"]
        # the seat with a pending question stays external (answered as codes say, by the step's path)
        pol[np.flatnonzero(deciding), bk[deciding, 1]] = EXTERNAL
        core.load_states(np.arange(k, dtype=np.int64), np.ascontiguousarray(chunk[:, :n_engine]), pol, 1)
        f = np.ascontiguousarray(first[lo:hi], dtype=np.int64)
        core.rollout(f, np.ascontiguousarray(np.tile(codes, (k, 1)), dtype=np.intc), until_hand, res[lo:hi], threads)
    return res


def rollout(states: TableStates, policies="greedy", *, seed, until: str = "hand",
            threads: int | None = None) -> RolloutResult:
    """Play every state to the end of its hand (or game) with built-in policies.

    Runs without the GIL on ``threads`` cores; the results do not depend on the thread count.

    Parameters
    ----------
    states : TableStates
        From :meth:`mjfast.env.VecTables.save` or :func:`sample_worlds`.
    policies : str or list of 4 str
        The built-in policy of every seat (or one per seat): "greedy", "defensive", "random"
        (Chinese also "greedy_blind").
    seed : seed-like or None
        None: every table plays on with its own random streams (exactly as the saved table
        would); otherwise each table's streams (the bots' choices, later hands' shuffles) are
        re-keyed from ``(seed, table)``. The current hand's wall is part of the state either way
        (redraw it with :func:`sample_worlds`).
    until : {"hand", "game"}
        Play to the end of the hand in progress, or of the game.
    threads : int or None
        Threads (None: all CPUs).

    Returns
    -------
    RolloutResult
        ``score``, ``wins``, ``deal_ins`` (n, 4) and ``turns``, ``hands`` (n,).

    Examples
    --------
    >>> from mjfast.env import VecTables
    >>> from mjfast.search import rollout
    >>> env = VecTables(3, rules="classical", seed=2)
    >>> obs, info = env.reset()
    >>> r = rollout(env.save(), "greedy", seed=None)
    >>> r.score.shape, bool((r.score.sum(axis=1) == 0).all()), bool((r.hands == 1).all())
    ((3, 4), True, True)
    """
    where = "rollout"
    states = check_states_arg(states, where)
    codes = policy_codes(states.rules.family, policies, where)
    if until not in ("hand", "game"):
        raise ValueError(f"{where}: until must be 'hand' or 'game'; got {until!r}")
    if until == "game" and (book(states)[:, 5] != 0).any():
        raise ValueError(f"{where}: a state of a table playing scripted walls carries only its current hand; "
                         "use until='hand'")
    nthreads = resolve_threads(threads)
    data = states.data
    if seed is not None:
        from .._kernels import worlds as _kw
        key = root_key(seed)
        data = states.data.copy()
        _kw.rekey(data, key.k0, key.k1, 0, _kw.SALTS[states.rules.family])
    first = np.full(len(states), -1, np.int64)
    res = run_rollouts(states, first, codes, until == "hand", nthreads, data)
    return RolloutResult(score=res[:, 0:4].copy(), wins=res[:, 4:8].copy(), deal_ins=res[:, 8:12].copy(),
                         turns=res[:, 12].copy(), hands=res[:, 13].copy())
