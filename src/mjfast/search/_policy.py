"""SearchPolicy: a batch policy that evaluates its candidate actions in sampled worlds."""
from __future__ import annotations

import numpy as np

from ..game.policy import BatchPolicy
from ._evaluate import evaluate
from ._states import TableStates

CN_SHANTEN_AFTER, CN_EFFECTIVE = 48, 49     # cn-v0 derived planes (after the 48 base planes)


class SearchPolicy(BatchPolicy):
    """Decide by look-ahead: at each question, the candidate actions are played forward in
    ``worlds`` worlds sampled from the seat's view, with ``rollout_policy`` playing every seat
    afterwards; the action with the best expected score change is taken (:func:`evaluate`).

    Plays wherever a :class:`mjfast.BatchPolicy` plays (:func:`mjfast.simulate`,
    :func:`mjfast.compare`, :func:`mjfast.replay`), deciding for every table asked at once.

    Parameters
    ----------
    worlds : int
        Worlds per decision (more: stronger and slower).
    rollout_policy : str
        The built-in policy of the rollouts.
    candidates : int
        Discards considered (Chinese: the best by shanten after the discard, then effective
        tiles; other questions: every legal action). 0: every legal action.
    seed : int
        Each decision is a pure function of (seed, the table's state): the same whatever
        thread count or batch it is decided in.
    threads : int
        Threads of the rollouts.
    margin : float
        The rollout policy's own choice is kept unless another candidate beats it by more
        than ``margin`` standard errors of the paired difference (the same worlds).

    Examples
    --------
    >>> import mjfast
    >>> from mjfast.search import SearchPolicy
    >>> res = mjfast.simulate(2, rules="classical", policies=[SearchPolicy(worlds=4), "greedy", "greedy", "greedy"],
    ...                       seed=1, progress=False)
    >>> res.games
    2
    """

    name = "search"
    derived = True
    wants_states = True

    def __init__(self, worlds: int = 6, rollout_policy: str = "greedy", candidates: int = 3, seed: int = 0,
                 threads: int = 1, margin: float = 2.0):
        for label, v in (("worlds", worlds), ("candidates", candidates), ("threads", threads)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise TypeError(f"SearchPolicy: {label} must be an int, not {type(v).__name__}")
        if worlds < 1 or threads < 1 or candidates < 0:
            raise ValueError("SearchPolicy: worlds and threads must be at least 1, candidates at least 0")
        if not isinstance(rollout_policy, str):
            raise TypeError("SearchPolicy: rollout_policy must be a built-in policy name")
        self.worlds = int(worlds)
        self.rollout_policy = rollout_policy
        self.candidates = int(candidates)
        self.seed = int(seed)
        self.threads = int(threads)
        self._calls = 0
        self.margin = float(margin)

    def _candidates(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        if self.candidates == 0 or observation.shape[1] <= CN_EFFECTIVE or mask.shape[1] != 76:
            return mask
        out = mask.copy()
        sh = observation[:, CN_SHANTEN_AFTER, :].astype(np.int64)
        eff = observation[:, CN_EFFECTIVE, :].astype(np.int64)
        for i in range(mask.shape[0]):
            disc = np.flatnonzero(mask[i, :34])
            if disc.size <= self.candidates or not sh[i, disc].any():
                continue
            order = sorted(disc, key=lambda k: (sh[i, k], -eff[i, k], k))
            out[i, order[self.candidates:]] = False
        return out

    def act(self, observation, action_mask, seat, states: TableStates | None = None, **_):
        if states is None:
            raise TypeError("SearchPolicy needs the tables' states: play it through mjfast.simulate, compare or "
                            "replay")
        self._calls += 1
        cand = self._candidates(np.asarray(observation), np.asarray(action_mask, bool))
        teacher = self._teacher(states)
        cand[np.arange(len(states)), teacher] = True
        out = teacher.copy()
        for i in range(len(states)):
            if cand[i].sum() < 2:
                continue
            # each table's worlds from (seed, its state): the same whatever else is decided with it
            c = int(states.checksum[i])
            key = np.random.SeedSequence([self.seed, c & 0xFFFFFFFF, c >> 32])
            v = evaluate(states[i], worlds=self.worlds, policies=self.rollout_policy, seed=key,
                         threads=self.threads, candidates=cand[i:i + 1])
            # leave the rollout policy's own choice only for a clearly better action (paired
            # over the same worlds: the difference's mean beyond `margin` standard errors)
            base = int(np.flatnonzero(v.action == teacher[i])[0])
            diff = v.samples - v.samples[base]
            se = diff.std(axis=1, ddof=1) / np.sqrt(diff.shape[1]) if diff.shape[1] > 1 else np.zeros(len(v))
            gain = diff.mean(axis=1) - self.margin * se
            j = int(np.argmax(gain))
            if gain[j] > 0:
                out[i] = v.action[j]
        return out

    def _teacher(self, states: TableStates) -> np.ndarray:
        from ..game.batch import builtin_policies
        from ._states import new_core
        n = len(states)
        core = new_core(states.rules, n)
        rec = int(core.state_layout()["record"])
        core.load_states(np.arange(n, dtype=np.int64), np.ascontiguousarray(states.data[:, :rec]), None, 1)
        out = np.empty(n, np.int64)
        code = builtin_policies(states.rules.family)[self.rollout_policy]
        core.expert(np.full((n, 4), code, np.intc), out, 1)
        return out
