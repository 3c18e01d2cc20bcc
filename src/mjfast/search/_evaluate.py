"""evaluate: every legal action of the acting seat, played forward in sampled worlds."""
from __future__ import annotations

import dataclasses

import numpy as np

from .._runtime.seeding import root_key
from .._runtime.threads import resolve_threads
from ..game import encodings
from ._common import check_states_arg, count_arg, deciding_seats, memory_arg
from ._rollout import policy_codes, run_rollouts
from ._states import TableStates, new_core
from ._worlds import redraw_worlds

MAX_ROWS = 1 << 26


def legal_masks(states: TableStates) -> np.ndarray:
    """(n, A) bool: the legal actions of each table's pending question (the step's encoding)."""
    n = len(states)
    core = new_core(states.rules, n)
    rec = int(core.state_layout()["record"])
    core.load_states(np.arange(n, dtype=np.int64), np.ascontiguousarray(states.data[:, :rec]), None, 1)
    obs = np.zeros((n, core.n_planes, core.kinds), np.uint8)
    sc = np.zeros((n, core.n_scalars), np.float32)
    mask = np.zeros((n, core.n_actions), np.uint8)
    seat = np.zeros(n, np.int8)
    rew = np.zeros((n, 4), np.float32)
    status = np.zeros(n, np.uint8)
    core.step(np.full(n, -1, np.int64), obs, sc, mask, seat, rew, status, 1)   # re-asks the pending question
    return mask.astype(bool)


@dataclasses.dataclass(frozen=True)
class ActionValues:
    """Action values of :func:`evaluate`: one row per (table, legal action).

    Attributes
    ----------
    table, action : ndarray (m,) int64
        The table (index into the states) and the action id (the family's encoding).
    name : list of str
        The action's name (``"discard 5p"``, ``"pung"``, ...).
    seat : ndarray (m,) int8
        The deciding seat.
    points, points_se : ndarray (m,) float64
        Expected score change of the seat to the end of the hand (or game), and its standard
        error over the worlds.
    p_win, p_win_se, p_deal_in, p_deal_in_se : ndarray (m,) float64
        Probability that the seat wins the hand / deals in, with standard errors.
    worlds : int
        Worlds per table (every action of a table is played in the same worlds with the same
        random streams: differences between actions are paired).
    """

    table: np.ndarray
    action: np.ndarray
    name: list
    seat: np.ndarray
    points: np.ndarray
    points_se: np.ndarray
    p_win: np.ndarray
    p_win_se: np.ndarray
    p_deal_in: np.ndarray
    p_deal_in_se: np.ndarray
    worlds: int
    samples: np.ndarray = dataclasses.field(repr=False)     # (m, worlds) score changes

    def __len__(self) -> int:
        return int(self.table.shape[0])

    def best(self) -> np.ndarray:
        """(n,) the action id with the highest expected points at each table."""
        n = int(self.table.max()) + 1 if len(self) else 0
        out = np.full(n, -1, np.int64)
        best = np.full(n, -np.inf)
        for i in range(len(self)):
            t = int(self.table[i])
            if self.points[i] > best[t]:
                best[t] = self.points[i]
                out[t] = self.action[i]
        return out

    def to_dict(self) -> dict:
        """Plain JSON-able lists, one entry per row."""
        return {"worlds": self.worlds, "rows": [
            {"table": int(self.table[i]), "seat": int(self.seat[i]), "action": int(self.action[i]),
             "name": self.name[i], "points": float(self.points[i]), "points_se": float(self.points_se[i]),
             "p_win": float(self.p_win[i]), "p_win_se": float(self.p_win_se[i]),
             "p_deal_in": float(self.p_deal_in[i]), "p_deal_in_se": float(self.p_deal_in_se[i])}
            for i in range(len(self))]}

    def to_pandas(self):
        """A pandas DataFrame of the rows."""
        import pandas as pd

        return pd.DataFrame(self.to_dict()["rows"])

    def _lines(self) -> list:
        rows = sorted(range(len(self)), key=lambda i: (int(self.table[i]), -float(self.points[i])))
        out = [f"{'table':>5} {'seat':>4} {'action':<16} {'points':>14} {'P(win)':>14} {'P(deal-in)':>14}"]
        for i in rows:
            out.append(f"{int(self.table[i]):>5} {int(self.seat[i]):>4} {self.name[i]:<16} "
                       f"{self.points[i]:>+8.2f} ±{1.96 * self.points_se[i]:<5.2f}"
                       f"{self.p_win[i]:>8.3f} ±{1.96 * self.p_win_se[i]:<5.3f}"
                       f"{self.p_deal_in[i]:>8.3f} ±{1.96 * self.p_deal_in_se[i]:<5.3f}")
        return out

    def __repr__(self) -> str:
        return f"ActionValues({self.worlds} worlds; ± = 95 % interval)\n" + "\n".join(self._lines())

    def _repr_html_(self) -> str:
        return self.to_pandas().to_html(index=False, float_format=lambda v: f"{v:.3f}")


def _mean_se(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    w = x.shape[1]
    mean = x.mean(axis=1)
    se = x.std(axis=1, ddof=1) / np.sqrt(w) if w > 1 else np.zeros_like(mean)
    return mean, se


def evaluate(states: TableStates, *, worlds: int = 32, policies="greedy", seed, seat=None, until: str = "hand",
             threads: int | None = None, candidates=None) -> ActionValues:
    """Every legal action of the acting seat: expected score change, P(win), P(deal-in).

    Each table's hidden tiles are redrawn ``worlds`` times from the acting seat's view
    (:func:`sample_worlds`); every legal action is played in every world, then the hand is
    played out by ``policies`` (:func:`rollout`). The same worlds and the same random streams
    serve every action of a table (common random numbers), so differences between actions are
    measured with far less noise than the values themselves.

    Parameters
    ----------
    states : TableStates
        Tables waiting for a decision.
    worlds : int
        Worlds per table.
    policies : str or list of 4 str
        Built-in policies playing every seat after the action (the deciding seat included).
    seed : seed-like
        Worlds and streams are a pure function of (states, worlds, seed): the result does not
        depend on the thread count.
    seat : None
        Reserved: the acting seat decides (a table without a pending decision is refused).
    until : {"hand", "game"}
        Count the score change to the end of the hand or of the game.
    threads : int or None
        Threads for the rollouts (None: all CPUs).
    candidates : None or (n, A) bool array
        Evaluate only these actions (each must be legal); None: every legal action.

    Returns
    -------
    ActionValues

    Examples
    --------
    >>> from mjfast.env import VecTables
    >>> from mjfast.search import evaluate
    >>> env = VecTables(1, rules="mcr", seed=3)
    >>> obs, info = env.reset()
    >>> v = evaluate(env.save(), worlds=8, seed=1)
    >>> int(obs["action_mask"][0].sum()) == len(v)
    True
    >>> bool(obs["action_mask"][0][v.best()[0]])
    True
    """
    where = "evaluate"
    states = check_states_arg(states, where)
    w = count_arg(worlds, "worlds", where)
    if seat is not None:
        raise ValueError(f"{where}: seat must be None (the seat to act decides)")
    codes = policy_codes(states.rules.family, policies, where)
    if until not in ("hand", "game"):
        raise ValueError(f"{where}: until must be 'hand' or 'game'; got {until!r}")
    seats = deciding_seats(states, None, where)
    masks = legal_masks(states)
    if candidates is not None:
        c = np.asarray(candidates)
        if c.shape != masks.shape or c.dtype != bool:
            raise ValueError(f"{where}: candidates must be a bool array of shape {masks.shape}")
        if (c & ~masks).any():
            raise ValueError(f"{where}: candidates name an action that is not legal")
        masks = c
    tab, act = np.nonzero(masks)
    m = tab.size
    rows = m * w
    if rows > MAX_ROWS:
        raise ValueError(f"{where}: {m:,} actions x {w:,} worlds = {rows:,} rollouts; at most {MAX_ROWS:,} per call")
    memory_arg(len(states) * w + rows, states.record_bytes, f"evaluate({len(states):,} tables x {w:,} worlds)")
    nthreads = resolve_threads(threads)
    key = root_key(seed)
    world = np.repeat(states.data, w, axis=0)
    redraw_worlds(states, world, np.repeat(seats, w), key.k0, key.k1)
    # row (i, k): action i of the list in world k of its table
    src = (tab[:, None] * w + np.arange(w)[None, :]).ravel()
    data = world[src]
    first = np.repeat(act.astype(np.int64), w)
    res = run_rollouts(states, first, codes, until == "hand", nthreads, data)
    s = np.repeat(seats[tab], w).astype(np.int64)
    idx = np.arange(rows)
    score = res[idx, 0 + s].reshape(m, w).astype(np.float64)
    win = (res[idx, 4 + s] > 0).reshape(m, w).astype(np.float64)
    dealin = (res[idx, 8 + s] > 0).reshape(m, w).astype(np.float64)
    pts, pts_se = _mean_se(score)
    pw, pw_se = _mean_se(win)
    pd_, pd_se = _mean_se(dealin)
    names = encodings.get(states.header["encoding"]).action_names
    return ActionValues(table=tab.astype(np.int64), action=act.astype(np.int64), name=[names[a] for a in act],
                        seat=seats[tab].astype(np.int8), points=pts, points_se=pts_se, p_win=pw, p_win_se=pw_se,
                        p_deal_in=pd_, p_deal_in_se=pd_se, worlds=w, samples=score)
