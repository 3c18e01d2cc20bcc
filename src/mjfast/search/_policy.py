"""SearchPolicy: a batch policy that evaluates its candidate actions in sampled worlds."""
from __future__ import annotations

import numpy as np

from .._runtime.seeding import root_key
from ..game.batch import builtin_policies
from ..game.policy import BatchPolicy
from ._common import AM_CHARLESTON, phases
from ._rollout import policy_codes, run_rollouts
from ._states import TableStates, new_core
from ._worlds import BELIEFS, redraw_worlds, weights_arg

CN_SHANTEN_AFTER, CN_EFFECTIVE = 48, 49     # cn-v0 derived planes (after the 48 base planes)
AM_DISTANCE_AFTER = 28                      # am-v0 derived plane (after the 28 base planes)
WIN_ACTION = {76: 73, 83: 46}               # the encodings' win: cn-v0 "win", am-v0 "Mahjong" (by action count)


def table_keys(seed: int, checksum: np.ndarray) -> list:
    """(k0, k1) of each table's worlds: a pure function of (seed, the table's state)."""
    out = []
    for c in checksum.tolist():
        k = root_key(np.random.SeedSequence([seed, c & 0xFFFFFFFF, c >> 32]))
        out.append((k.k0, k.k1))
    return out


def paired_samples(states: TableStates, masks: np.ndarray, worlds: int, codes: np.ndarray, threads: int,
                   keys: list, first_world: int = 0, belief: str | None = None) -> tuple:
    """Every candidate action (``masks``, (n, A) bool) of every table played in the same
    ``worlds`` worlds of that table (table t's worlds ``first_world ..`` and their streams from
    ``keys[t]``; the other seats' hands drawn under ``belief``: None uniform), all tables in
    one rollout call. Returns (table, action, score (m, worlds)) for
    the acting seat."""
    n, w = len(states), worlds
    core = new_core(states.rules, 1)
    lay = core.state_layout()
    bk = states._book(lay)
    seats = bk[:, 1].astype(np.int8)
    data = np.repeat(states.data, w, axis=0)
    seats_w = np.ascontiguousarray(np.repeat(seats, w))
    wts = None if belief is None else weights_arg(states, belief, "SearchPolicy")
    for t in range(n):
        k0, k1 = keys[t]
        redraw_worlds(states, data[t * w:(t + 1) * w], seats_w[t * w:(t + 1) * w], k0, k1,
                      None if wts is None else wts[t:t + 1], w, first_world, "SearchPolicy", lay)
    tab, act = np.nonzero(masks)
    m = tab.size
    src = (tab[:, None] * w + np.arange(w)[None, :]).ravel()
    res = run_rollouts(states, np.repeat(act.astype(np.int64), w), codes, True, threads, data[src])
    s = np.repeat(seats[tab], w).astype(np.int64)
    score = res[np.arange(m * w), s].reshape(m, w).astype(np.float64)
    return tab, act, score


def switch_to(diff: np.ndarray, margin: float) -> int:
    """The candidate (row of ``diff``, its score minus the rollout policy's choice's in each
    world) to play instead of the rollout policy's choice, or -1 to keep it. A candidate
    qualifies when its mean difference is positive and it wins more worlds than it loses by
    more than ``margin`` standard deviations of a fair sign test (worlds with a difference
    only): hand scores are rare and large, so one lucky world must not carry the decision (a
    t-test on a single non-zero world reads t = 1). The qualified candidate with the best mean
    is taken."""
    pos = (diff > 0).sum(axis=1)
    neg = (diff < 0).sum(axis=1)
    mean = diff.mean(axis=1)
    ok = (mean > 0) & ((pos - neg) > margin * np.sqrt(pos + neg))
    if not ok.any():
        return -1
    return int(np.flatnonzero(ok)[np.argmax(mean[ok])])


class SearchPolicy(BatchPolicy):
    """Decide by look-ahead: at each question, the candidate actions are played forward in
    ``worlds`` worlds sampled from the seat's view, with ``rollout_policy`` playing every seat
    afterwards, and scored by the seat's score change to the end of the hand.

    The rollout policy's own choice is kept unless another candidate is clearly better in the
    same worlds with the same random streams (``margin``), and a legal win is always taken.
    Hand scores are large and rare (a win, a deal-in), so with a few worlds the estimated best
    action is mostly noise; and worlds redraw the other seats' hands uniformly, which makes
    them slower than real opponents (bench/search.md).

    Plays wherever a :class:`mjfast.BatchPolicy` plays (:func:`mjfast.simulate`,
    :func:`mjfast.compare`, :func:`mjfast.replay`, :func:`mjfast.rerun`,
    :class:`mjfast.env.VecTables` ``opponents``), also by the name ``"search"`` (default
    settings; :func:`mjfast.env.decisions` labels its seats with it), deciding for every table asked at once: all the tables'
    candidates x worlds rollouts go to the engine in one call, without the GIL.

    Parameters
    ----------
    worlds : int
        Worlds per decision (more: stronger and slower).
    rollout_policy : str
        The built-in policy of the rollouts (and the choice kept without clear evidence).
    candidates : int
        Discards considered: the best ``candidates`` by shanten after the discard, then
        effective tiles (Chinese), or by distance after the discard (American); other questions
        (claims, kongs, wins): every legal action. 0: every legal action.
    seed : int
        Each decision is a pure function of (seed, the table's state): the same whatever
        thread count or batch it is decided in.
    threads : int
        Threads of the rollouts.
    margin : float
        Evidence a candidate needs to replace the rollout policy's choice: it must win more of
        the worlds where the two differ than it loses by more than ``margin`` standard
        deviations of a fair sign test, with a positive mean difference (:func:`switch_to`).
    max_worlds : int or None
        Adaptive look-ahead: a candidate that looks better but is not yet proven is played in
        twice as many worlds again (new worlds, still paired with the rollout policy's choice),
        up to ``max_worlds`` worlds in all; None: ``worlds`` (one look).
    belief : None or str
        How the other seats' concealed tiles are drawn in the worlds: None (default) uniformly
        over what the seat has not seen; ``"discards"``: weighted by the built-in belief
        :func:`mjfast.search.belief` (kinds an opponent discarded less likely in its hand, the
        suits it claimed sets of more likely; :func:`mjfast.search.sample_worlds` ``weights``).
        Measured against greedy on 500 wall sets, it changes the strength by less than the
        intervals (bench/search.md).

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

    def __init__(self, worlds: int = 16, rollout_policy: str = "greedy", candidates: int = 3, seed: int = 0,
                 threads: int = 1, margin: float = 2.0, max_worlds: int | None = None, belief: str | None = None):
        max_worlds = worlds if max_worlds is None else max_worlds
        for label, v in (("worlds", worlds), ("candidates", candidates), ("threads", threads), ("seed", seed),
                         ("max_worlds", max_worlds)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise TypeError(f"SearchPolicy: {label} must be an int, not {type(v).__name__}")
        if worlds < 1 or threads < 1 or candidates < 0:
            raise ValueError("SearchPolicy: worlds and threads must be at least 1, candidates at least 0")
        if max_worlds < worlds:
            raise ValueError(f"SearchPolicy: max_worlds ({max_worlds}) must be at least worlds ({worlds})")
        if seed < 0:
            raise ValueError("SearchPolicy: seed must be a non-negative int")
        if not isinstance(rollout_policy, str):
            raise TypeError("SearchPolicy: rollout_policy must be a built-in policy name")
        if not any(rollout_policy in builtin_policies(f) and rollout_policy != "external"
                   for f in ("chinese", "american")):
            raise ValueError(f"SearchPolicy: {rollout_policy!r} is not a built-in policy")
        if isinstance(margin, bool) or not isinstance(margin, (int, float, np.integer, np.floating)):
            raise TypeError(f"SearchPolicy: margin must be a number, not {type(margin).__name__}")
        if not np.isfinite(margin) or margin < 0:
            raise ValueError("SearchPolicy: margin must be a finite number >= 0")
        if belief is not None and belief not in BELIEFS:
            raise ValueError(f"SearchPolicy: belief must be None or one of {BELIEFS}; got {belief!r}")
        self.belief = belief
        self.worlds = int(worlds)
        self.rollout_policy = rollout_policy
        self.candidates = int(candidates)
        self.seed = int(seed)
        self.threads = int(threads)
        self.margin = float(margin)
        self.max_worlds = int(max_worlds)
        self._calls = 0
        self.extra = 0               # second looks (more worlds for a promising candidate)
        self.searched = 0            # decisions searched (two or more candidates)
        self.decided = 0             # decisions asked

    def __repr__(self) -> str:
        return (f"SearchPolicy(worlds={self.worlds}, rollout_policy={self.rollout_policy!r}, "
                f"candidates={self.candidates}, seed={self.seed}, threads={self.threads}, margin={self.margin}, "
                f"max_worlds={self.max_worlds}, belief={self.belief!r})")

    def _candidates(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        if self.candidates == 0:
            return mask
        if mask.shape[1] == 76 and observation.shape[1] > CN_EFFECTIVE:
            sh = observation[:, CN_SHANTEN_AFTER, :].astype(np.int64)
            eff = observation[:, CN_EFFECTIVE, :].astype(np.int64)
            tiles = 34
        elif mask.shape[1] == 83 and observation.shape[1] > AM_DISTANCE_AFTER:
            sh = observation[:, AM_DISTANCE_AFTER, :].astype(np.int64)
            eff = np.zeros_like(sh)
            tiles = 36
        else:
            return mask
        out = mask.copy()
        for i in range(mask.shape[0]):
            disc = np.flatnonzero(mask[i, :tiles])
            if disc.size <= self.candidates or not sh[i, disc].any():
                continue
            order = sorted(disc, key=lambda k: (sh[i, k], -eff[i, k], k))
            out[i, order[self.candidates:]] = False
        return out

    def act(self, observation, action_mask, seat, states: TableStates | None = None, **_):
        if states is None:
            raise TypeError("SearchPolicy needs the tables' states: play it through mjfast.simulate, compare, "
                            "replay or rerun")
        self._calls += 1
        mask = np.asarray(action_mask, bool)
        n = len(states)
        teacher = self._teacher(states)
        out = teacher.copy()
        cand = self._candidates(np.asarray(observation), mask)
        cand[np.arange(n), teacher] = True
        # a legal win is always taken: worlds redraw the other seats' hands uniformly, which makes
        # them slower than real opponents (late in a hand most of all), so declining a win for a
        # bigger one later looks far better in the worlds than it is (bench/search.md)
        win = WIN_ACTION.get(mask.shape[1], -1)
        wins = mask[:, win] if win >= 0 else np.zeros(n, bool)
        out[wins] = win
        look = (cand.sum(axis=1) >= 2) & ~wins
        if states.rules.family == "american":
            look &= ~np.isin(phases(states), AM_CHARLESTON)      # the passes: the rollout policy's choice
        rows = np.flatnonzero(look)
        self.decided += n
        self.searched += rows.size
        if rows.size == 0:
            return out
        sub = states[rows]
        codes = policy_codes(states.rules.family, self.rollout_policy, "SearchPolicy")
        keys = table_keys(self.seed, sub.checksum)
        cand = cand[rows]
        base = teacher[rows]
        samples: list = [[] for _ in rows]           # per table: (actions, score blocks)
        live = np.arange(rows.size)
        done_w, w = 0, self.worlds
        while live.size:
            tab, act, score = paired_samples(sub[live], cand[live], w, codes, self.threads,
                                             [keys[j] for j in live], done_w, self.belief)
            done_w += w
            more = []
            for jj, j in enumerate(live.tolist()):
                idx = np.flatnonzero(tab == jj)
                acts = act[idx]
                if samples[j]:
                    prev_acts, prev = samples[j]
                    keep = np.isin(prev_acts, acts)
                    x = np.concatenate([prev[keep], score[idx]], axis=1)
                else:
                    x = score[idx]
                samples[j] = (acts, x)
                b = int(np.flatnonzero(acts == base[j])[0])
                diff = x - x[b]
                k = switch_to(diff, self.margin)
                if k >= 0:
                    out[rows[j]] = acts[k]
                    continue
                # worth more worlds: better on average and in more worlds than not
                hope = (diff.mean(axis=1) > 0) & ((diff > 0).sum(axis=1) > (diff < 0).sum(axis=1))
                if done_w < self.max_worlds and hope.any():
                    cand[j] = False
                    cand[j, acts[hope]] = True
                    cand[j, base[j]] = True
                    more.append(j)
            live = np.array(more, np.int64)
            w = min(done_w, self.max_worlds - done_w)      # double the worlds of the survivors
            self.extra += live.size
        return out

    def _teacher(self, states: TableStates) -> np.ndarray:
        n = len(states)
        core = new_core(states.rules, n)
        rec = int(core.state_layout()["record"])
        core.load_states(np.arange(n, dtype=np.int64), np.ascontiguousarray(states.data[:, :rec]), None, 1)
        out = np.empty(n, np.int64)
        code = builtin_policies(states.rules.family)[self.rollout_policy]
        core.expert(np.full((n, 4), code, np.intc), out, 1)
        return out
