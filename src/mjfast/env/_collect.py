"""Decisions as arrays: the result of :func:`mjfast.env.decisions` and the rows it gathers
(also gathered by :func:`mjfast.botzone.decisions` from Botzone hands)."""
from __future__ import annotations

import dataclasses

import numpy as np

from .._kernels.engine import copy_rows


@dataclasses.dataclass(frozen=True)
class Decisions:
    """Decisions as arrays, one row each (behaviour-cloning data).

    Attributes
    ----------
    observation : ndarray (M, C, K) uint8
        The deciding seat's observation (the encoding of :attr:`encoding`).
    scalars : ndarray (M, S) float32
    action_mask : ndarray (M, A) bool
        The legal actions.
    action : ndarray (M,) int16
        The action taken.
    seat : ndarray (M,) int8
        The deciding seat.
    reward : ndarray (M,) float32
        The deciding seat's score change over the episode (the hand, or the game with
        ``episode="game"``) the decision belongs to.
    game_id : ndarray (M,) uint64
        The game index (:func:`mjfast.replay` with the same seed rebuilds the game; for logs,
        the position of the log in the input).
    hand_number : ndarray (M,) int16
    encoding : str
    """

    observation: np.ndarray
    scalars: np.ndarray
    action_mask: np.ndarray
    action: np.ndarray
    seat: np.ndarray
    reward: np.ndarray
    game_id: np.ndarray
    hand_number: np.ndarray
    encoding: str

    def __len__(self) -> int:
        return int(self.action.shape[0])

    def arrays(self) -> dict:
        """The arrays by name (for ``np.savez``, a DataFrame, a data loader)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "encoding"}


FIRST_ROWS = 1 << 14     # decisions(): rows reserved at first (they grow by doubling as rows come)


class Collector:
    """Rows of decisions gathered step by step, with each row's episode, written straight into
    arrays that grow as needed (np.empty: pages that are never written cost no memory)."""

    FIELDS = ("observation", "scalars", "action_mask", "action", "seat", "game_id", "hand_number", "episode")

    def __init__(self, n_planes: int, n_scalars: int, capacity: int = 4096, kinds: int = 34, n_actions: int = 76):
        self.n_planes, self.n_scalars, self.kinds, self.n_actions = n_planes, n_scalars, kinds, n_actions
        self.m = 0
        self.arrays = self._alloc(max(capacity, 16))
        self.episode_rewards: dict = {}        # episode -> (4,) score changes, once it has ended

    def _alloc(self, cap: int) -> dict:
        return {"observation": np.empty((cap, self.n_planes, self.kinds), np.uint8),
                "scalars": np.empty((cap, self.n_scalars), np.float32),
                "action_mask": np.empty((cap, self.n_actions), bool), "action": np.empty(cap, np.int16),
                "seat": np.empty(cap, np.int8), "game_id": np.empty(cap, np.uint64),
                "hand_number": np.empty(cap, np.int16), "episode": np.empty(cap, np.int64)}

    def add(self, rows, obs, scal, mask, act, seat, gid, hand, ep) -> None:
        k = obs[rows].shape[0] if isinstance(rows, slice) else len(rows)
        cap = self.arrays["action"].shape[0]
        if self.m + k > cap:
            bigger = self._alloc(max(2 * cap, self.m + k))
            for name, arr in self.arrays.items():
                bigger[name][:self.m] = arr[:self.m]
            self.arrays = bigger
        lo, hi = self.m, self.m + k
        a = self.arrays
        for src, name in ((obs, "observation"), (scal, "scalars"), (mask, "action_mask")):
            dst = a[name][lo:hi]
            copy_rows(src.reshape(src.shape[0], -1).view(np.uint8), rows, dst.reshape(k, -1).view(np.uint8))
        a["action"][lo:hi] = act[rows]
        a["seat"][lo:hi] = seat[rows]
        a["game_id"][lo:hi] = gid[rows]
        a["hand_number"][lo:hi] = hand[rows]
        a["episode"][lo:hi] = ep[rows]
        self.m = hi

    def result(self, encoding: str) -> Decisions:
        m = self.m
        cat = {name: arr[:m] for name, arr in self.arrays.items()}
        ep = cat.pop("episode")
        size = int(max(ep.max(initial=-1), max(self.episode_rewards, default=-1))) + 1
        ep_rew = np.zeros((size, 4), np.float32)
        ended = np.zeros(size, bool)
        for e, r in self.episode_rewards.items():
            ep_rew[e] = r
            ended[e] = True
        done = ended[ep]                            # decisions of finished episodes only
        if not done.all():
            cat = {name: arr[done] for name, arr in cat.items()}
            ep = ep[done]
        reward = ep_rew[ep, cat["seat"].astype(np.int64)]
        return Decisions(cat["observation"], cat["scalars"], cat["action_mask"], cat["action"], cat["seat"],
                         reward, cat["game_id"], cat["hand_number"], encoding)
