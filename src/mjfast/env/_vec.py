"""VecTables: N tables stepped without the GIL, one decision per table per step."""
from __future__ import annotations

import numbers
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import rules as _rules
from .._core import ensure_tables
from .._runtime.seeding import root_key
from .._runtime.threads import resolve_threads
from ..game import encodings
from ..game.batch import EXTERNAL, ST, builtin_policies, core_class, encoding_name
from ..game.policy import SEARCH, BatchPolicy, IllegalActionError, search_layer
from . import _memory
from ._threads import StepThreads

MAX_TABLES = 1 << 26           # table t's game g is game index (t << 32) | g: 64 bits hold it
AUTORESET_MODES = ("same_step", "next_step", "disabled")
OUT_KEYS = {"observation": ("_obs", np.uint8), "scalars": ("_scal", np.float32),     # step(out=...): the buffers
            "action_mask": ("_mask", np.uint8), "rewards": ("_rew", np.float32)}


def action_ids(actions, shape: tuple) -> np.ndarray:
    """``actions`` as an int64 array of ``shape``: integers (numpy's too), or floats holding
    whole numbers; anything else (5.9, "5", True) raises TypeError, a wrong shape ValueError."""
    a = np.asarray(actions)
    if a.shape != shape:
        if not shape:
            raise ValueError(f"action must be one action id (an integer); got an array of shape {a.shape}")
        raise ValueError(f"actions must have shape {shape}, one per table; got {a.shape}")
    if a.dtype.kind not in "iu":
        if a.dtype.kind == "f" and np.all(np.mod(a, 1) == 0):
            return a.astype(np.int64)
        if not shape:
            raise TypeError(f"action must be an integer action id; got {actions!r} ({type(actions).__name__})")
        raise TypeError(f"actions must be integers (action ids); got dtype {a.dtype}")
    return a.astype(np.int64, copy=False)


def check_seats(learners, where: str = "learners") -> tuple:
    if isinstance(learners, numbers.Integral) and not isinstance(learners, bool):
        learners = (learners,)
    try:
        seats = tuple(learners)
    except TypeError:
        raise TypeError(f"{where} must be a sequence of seats 0-3, not {type(learners).__name__}") from None
    for s in seats:
        if isinstance(s, (bool, np.bool_)) or not isinstance(s, numbers.Integral):
            raise TypeError(f"{where} must be seats 0-3 (integers); got {s!r} ({type(s).__name__}) in {learners!r}")
    seats = tuple(int(s) for s in seats)
    if not seats:
        raise ValueError(f"{where} must name at least one seat (0-3); the environment has nobody to ask")
    if any(s not in (0, 1, 2, 3) for s in seats) or len(set(seats)) != len(seats):
        raise ValueError(f"{where} must be distinct seats 0-3; got {learners!r}")
    return seats


def batch_opponents(learners: tuple, opponents) -> list:
    """[(policy, roles)]: the BatchPolicy opponents ("search": one default SearchPolicy for
    the seats so named) and the seats (roles) each plays."""
    opp = [opponents] * 4 if isinstance(opponents, (str, BatchPolicy)) else list(opponents)
    if len(opp) != 4:
        return []
    bot = None
    out: dict = {}
    for s in range(4):
        if s in learners:
            continue
        p = opp[s]
        if isinstance(p, str) and p == SEARCH:
            if bot is None:
                bot = search_layer().SearchPolicy()
            p = bot
        if isinstance(p, BatchPolicy):
            out.setdefault(id(p), (p, []))[1].append(s)
    return [(p, np.array(roles, np.int64)) for p, roles in out.values()]


def seat_codes(family: str, learners: tuple, opponents) -> np.ndarray:
    """Policy codes of the four seats: external for learners and BatchPolicy opponents
    ("search"), the opponents' built-ins else."""
    builtin = builtin_policies(family)
    opp = [opponents] * 4 if isinstance(opponents, (str, BatchPolicy)) else list(opponents)
    if len(opp) != 4:
        raise ValueError("opponents must be one built-in policy name or a list of 4 (one per seat)")
    codes = np.empty(4, np.intc)
    for s in range(4):
        if s in learners or isinstance(opp[s], BatchPolicy) or (isinstance(opp[s], str) and opp[s] == SEARCH):
            codes[s] = EXTERNAL         # (a BatchPolicy opponent is asked by the environment's step)
            continue
        if not isinstance(opp[s], str) or opp[s] not in builtin:
            raise ValueError(f"opponents: {opp[s]!r} is not a built-in policy of the {family} rules "
                             f"({', '.join(builtin)}), 'search' or a mjfast.BatchPolicy")
        codes[s] = builtin[opp[s]]
    return codes


class VecTables:
    """N mahjong tables stepped together without the GIL: a batched environment for training
    agents, one decision per table per step.

    Each step answers the pending question of every table with the action you give, plays on
    (seats not in ``learners`` are built-in bots, played inside the step) to the next
    question of a learner seat, and returns that seat's observation and legal-action mask.
    After a discard every seat with a legal claim answers in turn; the answers stay hidden
    until all have answered, then the rule set's priority decides. Questions with a single
    legal action are answered inside the step (``skip_forced=False`` shows them).

    Parameters
    ----------
    n_tables : int
        Tables stepped together (1 .. 2**26). The memory they need (about 5-6 kB per table,
        more with a large card or float32 planes) is estimated first: a count beyond the
        machine's memory raises ValueError giving the bytes.
    rules : str or RuleSet
        Any rule set (see :mod:`mjfast.rules`); rule options may be given as keywords
        (``rules="american", card=...`` plays an American card's lines: docs/environments.md).
    learners : sequence of int
        Seats whose decisions the caller makes (default all four: self-play); integers 0-3.
    opponents : str, BatchPolicy or list of 4
        Policy of the other seats: a built-in name ("greedy", "defensive", "random"),
        ``"search"`` (:class:`mjfast.search.SearchPolicy`) or a :class:`mjfast.BatchPolicy`,
        which the environment asks inside :meth:`step` (the learners see only their own
        questions).
    episode : {"hand", "game"}
        An episode is one hand (the table then deals the game's next hand) or a whole game.
    obs : str or None
        The encoding; None (default) is the rule family's: ``"cn-v0"`` for the Chinese rule
        sets, ``"am-v0"`` for American (see :mod:`mjfast.game.encodings`). Naming the other
        family's encoding raises ValueError.
    seed : seed-like
        Table t's g-th game is a pure function of (seed, t, g) and the policies, whatever the
        thread count (``reset(seed=...)`` re-keys; :attr:`seed` says the seed in use).
    threads : int or None
        Threads stepping the tables, at most one per 256 tables (smaller batches gain nothing
        from more). None (default): one thread or all CPUs, whichever the steps measure faster
        (a parallel step pays only while the other cores are free: on a machine busy with other
        work one thread is faster; the choice is re-measured as the run goes on); an int: that
        many, always.
    autoreset : {"same_step", "next_step", "disabled"}
        What happens when an episode ends (Gymnasium's modes; also in
        ``metadata["autoreset_mode"]``). same_step: the step returns the next episode's first
        observation and puts the terminal one in ``info["final_obs"]`` (rows flagged in
        ``info["_final_obs"]``); next_step: the step returns the terminal observation and the
        next step (whose action for that table is ignored) starts the next episode;
        disabled: a finished table idles until ``reset(options={"reset_mask": ...})``.
    skip_forced : bool
        Answer questions with one legal action inside the step.
    derived : bool
        Append planes mjfast computes cheaply (shanten after each discard, unseen effective
        tiles per discard, waits) and the own shanten as a scalar.
    privileged : bool
        Append the other seats' concealed hands (for centralised critics; never an agent's
        input at play time).
    dtype : {"uint8", "float32"}
        dtype of the returned planes.
    duplicate : bool
        Tables 4j .. 4j+3 play the same walls, the players' places rotated by t % 4
        (``info["role"]`` says which player of ``learners``/``opponents`` sits at the seat).
    copy : bool
        Return fresh arrays each step (default: the same buffers, overwritten by the next
        step; copy them to keep them).

    Attributes
    ----------
    n_actions, observation_shape, scalars_shape : the sizes of the encoding.
    encoding : :class:`~mjfast.game.encodings.Encoding`

    Examples
    --------
    >>> import numpy as np
    >>> from mjfast.env import VecTables
    >>> env = VecTables(8, rules="classical", seed=1)
    >>> obs, info = env.reset()
    >>> obs["observation"].shape, obs["action_mask"].shape, info["seat"].shape
    ((8, 48, 34), (8, 76), (8,))
    >>> rng = np.random.default_rng(0)
    >>> for _ in range(50):
    ...     acts = [rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]]
    ...     obs, rewards, terminated, truncated, info = env.step(acts)
    >>> rewards.shape, float(rewards.sum())
    ((8, 4), 0.0)
    """

    rules: _rules.RuleSet
    encoding: encodings.Encoding
    learners: tuple
    n_tables: int
    episode: str
    autoreset: str
    metadata: dict
    threads: int
    duplicate: bool
    copy: bool
    dtype: np.dtype
    core: Any
    n_actions: int
    observation_shape: tuple
    scalars_shape: tuple
    _obs: np.ndarray
    _obs_f: np.ndarray | None
    _scal: np.ndarray
    _mask: np.ndarray
    _seat: np.ndarray
    _rew: np.ndarray
    _status: np.ndarray
    _acts: np.ndarray
    _rows: np.ndarray
    _pending: np.ndarray
    _done: np.ndarray
    _table_hi: np.ndarray
    _rot: np.ndarray
    _batch: list
    _policies: np.ndarray
    _game_no: np.ndarray
    _game_id: np.ndarray
    _hand_no: np.ndarray
    _key: Any
    _seed: Any
    opponents: Any
    _codes: np.ndarray
    _stepping: StepThreads

    def __init__(self, n_tables: int, *, rules: str | _rules.RuleSet = "classical",
                 learners: Sequence[int] = (0, 1, 2, 3), opponents="greedy", episode: str = "hand",
                 obs: str | None = None, seed=None, threads: int | None = None, autoreset: str = "same_step",
                 skip_forced: bool = True, derived: bool = False, privileged: bool = False, dtype: str = "uint8",
                 duplicate: bool = False, copy: bool = False, **rule_options):
        if isinstance(n_tables, bool) or not isinstance(n_tables, numbers.Integral):
            raise TypeError(f"n_tables must be an int, not {type(n_tables).__name__}")
        if not 1 <= n_tables <= MAX_TABLES:
            raise ValueError(f"n_tables must be 1 .. {MAX_TABLES}; got {n_tables}")
        self.rules = _rules.get(rules, **rule_options)
        fam = self.rules.family
        enc = encoding_name(fam)
        if obs is not None and obs != enc:
            known = ", ".join(encodings.ENCODINGS)
            raise ValueError(f"obs={obs!r}: the {self.rules.name} rules are encoded as {enc!r} (known encodings: {known})")
        self.encoding = encodings.get(enc)
        self.learners = check_seats(learners)
        self.opponents = opponents
        self._codes = seat_codes(fam, self.learners, opponents)
        self._batch = batch_opponents(self.learners, opponents)
        if episode not in ("hand", "game"):
            raise ValueError(f"episode must be 'hand' or 'game'; got {episode!r}")
        if autoreset not in AUTORESET_MODES:
            raise ValueError(f"autoreset must be one of {', '.join(AUTORESET_MODES)}; got {autoreset!r}")
        if dtype not in ("uint8", "float32"):
            raise ValueError(f"dtype must be 'uint8' or 'float32'; got {dtype!r}")
        for name, flag in (("skip_forced", skip_forced), ("derived", derived), ("privileged", privileged),
                           ("duplicate", duplicate), ("copy", copy)):
            if not isinstance(flag, (bool, np.bool_)):
                raise TypeError(f"{name} must be True or False, not {type(flag).__name__}")
        self.n_tables = int(n_tables)
        self.episode = episode
        self.autoreset = autoreset
        self.metadata = {"autoreset_mode": autoreset}
        self.threads = resolve_threads(threads)
        self._stepping = StepThreads(self.threads, int(n_tables), adaptive=threads is None)
        self.duplicate = bool(duplicate)
        self.copy = bool(copy)
        self.dtype = np.dtype(dtype)
        self._seed = seed
        self._key = None
        ensure_tables()
        n = self.n_tables
        enc = self.encoding
        kern = self.rules.kernel()
        n_planes = (enc.planes + (len(enc.extra_planes["derived"]) if derived else 0)
                    + (len(enc.extra_planes["privileged"]) if privileged else 0))
        n_scalars = enc.scalars + (len(enc.extra_planes["derived_scalars"]) if derived else 0)
        per_table = _memory.table_bytes(core_class(fam), kern, n_planes, enc.kinds, n_scalars, enc.n_actions,
                                        self.dtype == np.float32)
        need = _memory.check(f"VecTables({n:,})", n, per_table, "Use fewer tables (or several VecTables).")
        with _memory.explained(f"VecTables({n:,})", need):
            self._allocate(n, kern, fam, skip_forced, derived, privileged)

    def _allocate(self, n: int, kern: dict, fam: str, skip_forced, derived, privileged) -> None:
        """The engine's tables and the buffers every step writes."""
        self.core = core_class(fam)(kern, n, bool(skip_forced), bool(derived), bool(privileged))
        kinds = self.encoding.kinds
        self.n_actions = self.encoding.n_actions
        self.observation_shape = (self.core.n_planes, kinds)
        self.scalars_shape = (self.core.n_scalars,)
        # the buffers every step writes
        self._obs = np.zeros((n, self.core.n_planes, kinds), np.uint8)
        self._obs_f = np.zeros(self._obs.shape, np.float32) if self.dtype == np.float32 else None
        self._scal = np.zeros((n, self.core.n_scalars), np.float32)
        self._mask = np.zeros((n, self.n_actions), np.uint8)
        self._seat = np.zeros(n, np.int8)
        self._rew = np.zeros((n, 4), np.float32)
        self._status = np.full(n, ST["idle"], np.uint8)
        self._acts = np.full(n, -2, np.int64)
        self._rows = np.arange(n, dtype=np.int64)
        self._pending = np.zeros(n, bool)          # next_step: tables to restart at the next step
        self._done = np.zeros(n, bool)             # disabled: finished tables
        # the games: table t's g-th game has index (t << 32) | g (duplicate: (t // 4) << 32 | g)
        table_key = (self._rows // 4) if self.duplicate else self._rows
        self._table_hi = table_key.astype(np.uint64) << np.uint64(32)
        self._rot = (self._rows % 4) if self.duplicate else np.zeros(n, np.int64)
        self._policies = np.ascontiguousarray(
            [[self._codes[(s - r) % 4] for s in range(4)] for r in range(4)], dtype=np.intc)[self._rot]
        self._game_no = np.zeros(n, np.uint64)
        self._game_id = np.zeros(n, np.uint64)
        self._hand_no = np.zeros(n, np.int32)

    # ------------------------------------------------------------------------------------
    # Gymnasium-style API

    def reset(self, seed=None, options: dict | None = None):
        """Start every table on a new episode (a new game): returns ``(obs, info)``.

        ``seed`` re-keys the run (table t's g-th game then depends on (seed, t, g)); without
        it the first reset uses the constructor's seed and later ones go on to each table's
        next game. ``options={"reset_mask": bool array (N,)}`` restarts only those tables.
        """
        rows = self._rows
        if options:
            unknown = set(options) - {"reset_mask"}
            if unknown:
                raise ValueError(f"reset options: unknown {', '.join(sorted(unknown))} (known: reset_mask)")
            m = np.asarray(options["reset_mask"])
            if m.shape != (self.n_tables,) or m.dtype != bool:
                raise ValueError(f"reset_mask must be a bool array of shape ({self.n_tables},)")
            rows = np.flatnonzero(m).astype(np.int64)
        if seed is not None or self._key is None:
            self._key = root_key(self._seed if seed is None else seed)
            self._game_no[:] = 0
            new = rows
        else:
            # a table between two hands of its game goes on to the next hand; the others start
            # their next game
            new = rows[self._status[rows] != ST["hand_end"]]
            self._game_no[new] += np.uint64(1)
        self._start(new)
        rew = np.zeros((self.n_tables, 4), np.float32)
        self._restart(rows, rew)
        self._pending[rows] = False
        self._done[rows] = False
        return self._obs_dict(), self._info()

    def step(self, actions, out: dict | None = None):
        """Answer every table's pending question; returns ``(obs, rewards, terminated,
        truncated, info)``.

        Parameters
        ----------
        actions : array_like of int, shape (N,)
            A legal action id per table (its ``action_mask`` row says which). Tables whose
            action is ignored (a finished table under autoreset "next_step" or "disabled")
            may hold anything.
        out : dict, optional
            Arrays to write into instead of the environment's buffers, from this step on: any
            of "observation", "scalars", "action_mask" (bool or uint8), "rewards", each
            C-contiguous, writeable, of the shape and dtype returned, no two sharing memory.
            Every entry is checked before anything happens: on a ValueError or TypeError no
            table was stepped and no array adopted.

        Returns
        -------
        obs : dict
            "observation" (N, C, K), "scalars" (N, S) float32, "action_mask" (N, A) bool.
        rewards : ndarray (N, 4) float32
            Score changes of the four seats during the step (zero-sum).
        terminated, truncated : ndarray (N,) bool
            An episode ended at the table (truncated is always False).
        info : dict
            "seat" (N,) int8 the acting seat, "game_id" (N,) uint64 the game index of the
            table's current game (:func:`mjfast.replay` rebuilds it), "hand_number" (N,);
            "role" with duplicate; same-step autoreset adds "final_obs" and "_final_obs".
        """
        if self._key is None:
            raise RuntimeError("call reset() before step()")
        a = self._check_actions(actions)
        if out is not None:
            self._adopt_out(self._check_out(out))     # (every entry checked first: nothing adopted on error)
        n = self.n_tables
        skip = self._pending | self._done
        acts = np.where(skip, -2, a) if skip.any() else a
        rew = self._advance(acts)
        term = (self._status == ST["hand_end"]) | (self._status == ST["game_end"])
        if self.autoreset == "next_step":
            restart = np.flatnonzero(self._pending).astype(np.int64)
            term &= ~self._pending
            if restart.size:
                self._restart(restart, rew)
            self._pending = term.copy()
        elif self.autoreset == "disabled":
            term &= ~self._done
            self._done |= term
        info_extra = {}
        if self.autoreset == "same_step" and term.any():
            rows = np.flatnonzero(term).astype(np.int64)
            final = {k: v.copy() for k, v in self._obs_dict(fresh=False).items()}
            info_extra = {"final_obs": final, "_final_obs": term.copy()}
            self._restart(rows, rew)
        info = self._info()
        info.update(info_extra)
        trunc = np.zeros(n, bool)
        self._rew[...] = rew            # the buffer (or out["rewards"]) holds what the step returns
        return self._obs_dict(), (rew.copy() if self.copy else rew), term, trunc, info

    def expert_actions(self, policy: str = "greedy") -> np.ndarray:
        """The action a built-in policy would take at each table's pending question (-1 where
        a table is not deciding): teacher labels at the learner's own states (DAgger).
        Querying "random" draws from the table's policy stream.

        Examples
        --------
        >>> from mjfast.env import VecTables
        >>> env = VecTables(4, seed=3)
        >>> obs, info = env.reset()
        >>> a = env.expert_actions("greedy")
        >>> bool(obs["action_mask"][range(4), a].all())
        True
        """
        builtin = builtin_policies(self.rules.family)
        if policy not in builtin:
            raise ValueError(f"policy must be a built-in policy ({', '.join(builtin)}); got {policy!r}")
        out = np.empty(self.n_tables, np.int64)
        codes = np.full((self.n_tables, 4), builtin[policy], np.intc)
        self.core.expert(codes, out, self._step_threads())
        return out

    def close(self) -> None:
        """Nothing to release (the tables are freed with the object)."""

    @property
    def seed(self):
        """What to pass as ``seed`` to play the same games again (the run's seed; drawn from
        fresh entropy when none was given), or None before the first reset."""
        return None if self._key is None else self._key.seed_value()

    @property
    def game_id(self) -> np.ndarray:
        """(N,) uint64: the game index of each table's current game."""
        return self._game_id

    # ------------------------------------------------------------------------------------
    # internals

    def _step_threads(self) -> int:
        return self._stepping.current       # (passes other than the step: the step's setting in use)

    def _start(self, rows: np.ndarray) -> None:
        gi = self._table_hi[rows] | self._game_no[rows]
        self._game_id[rows] = gi
        self.core.start(rows, np.ascontiguousarray(gi), self._key.k0, self._key.k1,
                        np.ascontiguousarray(self._policies[rows]), self.episode == "hand")

    def _advance(self, acts: np.ndarray) -> np.ndarray:
        """One kernel pass (acts: -2 leaves a table alone); returns a copy of the rewards."""
        st = self._stepping
        if not st.adaptive:
            self.core.step(acts, self._obs, self._scal, self._mask, self._seat, self._rew, self._status, st.current)
            self._opponents_play()
            return self._rew.copy()
        threads = st.next()
        t0 = time.perf_counter()
        self.core.step(acts, self._obs, self._scal, self._mask, self._seat, self._rew, self._status, threads)
        st.record(threads, time.perf_counter() - t0)
        self._opponents_play()
        return self._rew.copy()

    def _opponents_play(self) -> None:
        """Tables whose question belongs to a BatchPolicy opponent: ask it and step them again,
        until every table waits for a learner (or ended); the rewards of the pass add up."""
        if not self._batch:
            return
        total = None
        while True:
            dec = self._status == ST["decide"]
            if not dec.any():
                break
            role = (self._seat.astype(np.int64) - self._rot) % 4
            acts = np.full(self.n_tables, -2, np.int64)
            for pol, roles in self._batch:
                sel = np.flatnonzero(dec & np.isin(role, roles))
                if sel.size:
                    acts[sel] = self._ask(pol, sel)
            if (acts == -2).all():
                break
            if total is None:
                total = self._rew.copy()
            self.core.step(acts, self._obs, self._scal, self._mask, self._seat, self._rew, self._status,
                           self._step_threads())
            moved = acts != -2
            total[moved] += self._rew[moved]
        if total is not None:
            self._rew[...] = total

    def _ask(self, pol, sel: np.ndarray) -> np.ndarray:
        from ..game.batch import _takes_scalars
        m = self._mask[sel].view(bool)
        kw: dict = {"scalars": self._scal[sel].copy()} if _takes_scalars(pol) else {}
        if getattr(pol, "wants_states", False):
            kw["states"] = search_layer("_states").save_rows(self.rules, self.core, sel)
        a = np.asarray(pol.act(self._obs[sel].copy(), m.copy(), self._seat[sel].copy(), **kw))
        if a.shape != (sel.size,) or a.dtype.kind not in "iu":
            raise TypeError(f"opponent {getattr(pol, 'name', type(pol).__name__)}.act must return {sel.size} integer "
                            f"action ids; got an array of shape {a.shape} and dtype {a.dtype}")
        ok = (a >= 0) & (a < m.shape[1])
        ok[ok] = m[np.flatnonzero(ok), a[ok]]
        if not ok.all():
            j = int(np.flatnonzero(~ok)[0])
            raise IllegalActionError(f"opponent {getattr(pol, 'name', type(pol).__name__)} at table {int(sel[j])}: "
                                     f"action {int(a[j])} is not legal")
        return a.astype(np.int64)

    def _restart(self, rows: np.ndarray, rew: np.ndarray) -> None:
        """Tables `rows` (just started, or at the end of an episode) play to their next
        decision: the game's next hand, or the table's next game after the last; score
        changes on the way are added to rew."""
        while rows.size:
            over = rows[self._status[rows] == ST["game_end"]]
            if over.size:
                self._game_no[over] += np.uint64(1)
                self._start(over)
            acts = np.full(self.n_tables, -2, np.int64)
            acts[rows] = -1
            self.core.step(acts, self._obs, self._scal, self._mask, self._seat, self._rew, self._status,
                           self._step_threads())
            self._opponents_play()
            rew[rows] += self._rew[rows]
            rows = rows[self._status[rows] != ST["decide"]]

    def _check_actions(self, actions) -> np.ndarray:
        a = action_ids(actions, (self.n_tables,))
        live = (self._status == ST["decide"]) & ~self._pending & ~self._done
        safe = np.clip(a, 0, self.n_actions - 1)
        bad = live & ((a < 0) | (a >= self.n_actions) | (self._mask[self._rows, safe] == 0))
        if bad.any():
            t = int(np.flatnonzero(bad)[0])
            raise IllegalActionError(self._illegal_message(t, int(a[t]), int(bad.sum())))
        return a

    def _illegal_message(self, t: int, act: int, n_bad: int) -> str:
        enc = self.encoding
        what = enc.action_names[act] if 0 <= act < enc.n_actions else f"not an id of {enc.name}"
        legal = ", ".join(f"{i} ({enc.action_names[i]})" for i in np.flatnonzero(self._mask[t]))
        more = f" ({n_bad - 1} other tables also got illegal actions)" if n_bad > 1 else ""
        return (f"table {t}, seat {int(self._seat[t])}: action {act} ({what}) is not legal now; "
                f"legal: {legal}{more}. No table was stepped.")

    def _check_out(self, out) -> list:
        """The (attribute, array) pairs ``out`` gives, every entry checked (shape, dtype,
        C-contiguous, writeable, no two sharing memory) before any is adopted."""
        if not isinstance(out, dict):
            raise TypeError(f"out must be a dict of arrays, not {type(out).__name__}")
        unknown = set(out) - set(OUT_KEYS)
        if unknown:
            raise ValueError(f"out: unknown keys {', '.join(sorted(map(repr, unknown)))} "
                             f"(known: {', '.join(OUT_KEYS)})")
        take: list[tuple[str, str, np.ndarray]] = []
        for key, (attr, dtype) in OUT_KEYS.items():
            if key not in out:
                continue
            arr = out[key]
            cur = getattr(self, attr)
            if key == "observation" and self._obs_f is not None:
                cur, attr, dtype = self._obs_f, "_obs_f", np.float32
            want = f"a C-contiguous, writeable {np.dtype(dtype).name} array of shape {cur.shape}"
            if key == "action_mask":
                want = want.replace("uint8 array", "bool (or uint8) array")
            if not isinstance(arr, np.ndarray):
                raise TypeError(f"out[{key!r}] must be {want}; got {type(arr).__name__}")
            if arr.shape != cur.shape:
                raise ValueError(f"out[{key!r}] must be {want}; got shape {arr.shape}")
            if key == "action_mask" and arr.dtype == bool:
                arr = arr.view(np.uint8)
            if arr.dtype != dtype:
                raise ValueError(f"out[{key!r}] must be {want}; got dtype {out[key].dtype}")
            if not arr.flags.c_contiguous:
                raise ValueError(f"out[{key!r}] must be {want}; got a non-contiguous array")
            if not arr.flags.writeable:
                raise ValueError(f"out[{key!r}] must be {want}; got a read-only array")
            for other_key, _, other in take:
                if np.may_share_memory(arr, other):
                    raise ValueError(f"out[{key!r}] and out[{other_key!r}] share memory; give separate arrays")
            take.append((key, attr, arr))
        return [(attr, arr) for _, attr, arr in take]

    def _adopt_out(self, pairs: list) -> None:
        for attr, arr in pairs:
            if attr == "_mask":
                arr[...] = self._mask          # the pending questions' masks (legality checks read them)
            setattr(self, attr, arr)

    def _obs_dict(self, fresh: bool | None = None) -> dict:
        planes = self._obs
        if self._obs_f is not None:
            np.copyto(self._obs_f, self._obs)
            planes = self._obs_f
        d = {"observation": planes, "scalars": self._scal, "action_mask": self._mask.view(bool)}
        if self.copy if fresh is None else fresh:
            d = {k: v.copy() for k, v in d.items()}
        return d

    def _info(self) -> dict:
        self.core.hand_numbers(self._hand_no)
        info = {"seat": self._seat.copy() if self.copy else self._seat, "game_id": self._game_id.copy(),
                "hand_number": self._hand_no.copy()}
        if self.duplicate:
            info["role"] = ((self._seat.astype(np.int64) - self._rot) % 4).astype(np.int8)
        return info

    def __repr__(self) -> str:
        return (f"VecTables({self.n_tables}, rules={self.rules.name!r}, learners={self.learners}, "
                f"opponents={self.opponents!r}, episode={self.episode!r}, obs={self.encoding.name!r})")

    # ------------------------------------------------------------------------------------
    # table states (issue 27; mjfast.search)

    def _state_rows(self, rows, where: str) -> np.ndarray:
        if rows is None:
            return self._rows.copy()
        r = np.asarray(rows)
        if r.dtype == bool:
            if r.shape != (self.n_tables,):
                raise ValueError(f"{where}: a boolean rows mask must have shape ({self.n_tables},); got {r.shape}")
            return np.flatnonzero(r).astype(np.int64)
        if r.ndim == 0:
            r = r.reshape(1)
        if r.ndim != 1 or (r.size and r.dtype.kind not in "iu"):
            raise TypeError(f"{where}: rows must be None, table indices (ints) or a boolean mask; got {rows!r}")
        r = r.astype(np.int64)
        if r.size and (r.min() < 0 or r.max() >= self.n_tables):
            raise ValueError(f"{where}: rows must be tables 0 .. {self.n_tables - 1}; got {int(r.min())} .. "
                             f"{int(r.max())}")
        if np.unique(r).size != r.size:
            raise ValueError(f"{where}: rows must be distinct tables; got a repeated row")
        return r

    def save(self, rows=None):
        """The state of tables ``rows`` (default: all), from which they continue bit for bit.

        Parameters
        ----------
        rows : None, int, sequence of int or bool array (N,)
            The tables to save, in that order.

        Returns
        -------
        mjfast.search.TableStates
            One record per table (see its docs for the size): the engine's state, the random
            streams' positions, the game's counters and this environment's bookkeeping.

        Examples
        --------
        >>> import numpy as np
        >>> from mjfast.env import VecTables
        >>> env = VecTables(2, rules="classical", seed=5)
        >>> obs, info = env.reset()
        >>> saved = env.save()
        >>> a = np.argmax(obs["action_mask"], axis=1)
        >>> first = env.step(a)[1].copy()
        >>> obs2, info2 = env.load(saved)            # back to where we saved
        >>> bool((obs2["observation"] == obs["observation"]).all())
        True
        >>> bool((env.step(a)[1] == first).all())
        True
        """
        from ..search._states import F_DONE, F_PENDING, PY_BYTES, TableStates, make_header
        if self._key is None:
            raise RuntimeError("call reset() before save(): the tables have no state yet")
        r = self._state_rows(rows, "VecTables.save")
        hdr = make_header(self.rules, self.core)
        data = np.zeros((r.size, hdr["record_bytes"]), np.uint8)
        self.core.save_states(r, data)
        py = np.zeros((r.size, 2), np.uint64)
        py[:, 0] = self._game_no[r]
        py[:, 1] = (np.where(self._pending[r], F_PENDING, 0) | np.where(self._done[r], F_DONE, 0)).astype(np.uint64)
        data[:, -PY_BYTES:] = py.view(np.uint8).reshape(r.size, PY_BYTES)
        return TableStates(hdr, self.rules, data)

    def load(self, states, rows=None):
        """Put saved states on tables ``rows`` (default: all, in order); returns ``(obs,
        info)`` as :meth:`reset` does. Each table then continues exactly as the saved one did
        (the same draws, bot choices, rewards and events) through the rest of its game; its
        next game is this environment's next game of that table (its seed and game number).

        Everything is checked before any table is written: a state of other rules (or
        options, card), another encoding or engine layout, a corrupted record, a scripted-wall
        table, or one whose seats are played by other policies than this environment's
        (learners and opponents) raises ValueError naming the difference.

        Parameters
        ----------
        states : mjfast.search.TableStates
            From :meth:`save` (of this or another environment of the same rules).
        rows : None, int, sequence of int or bool array (N,)
            The tables to write, one per state.

        Examples
        --------
        >>> from mjfast.env import VecTables
        >>> a, b = VecTables(3, rules="mcr", seed=1), VecTables(3, rules="mcr", seed=2)
        >>> obs_a, _ = a.reset()
        >>> _ = b.reset()
        >>> obs, info = b.load(a.save(rows=[2]), rows=[0])
        >>> bool((obs["observation"][0] == obs_a["observation"][2]).all())
        True
        """
        from ..search._states import F_DONE, F_PENDING, check_states, layout_of
        if self._key is None:
            self.reset()
        check_states(states, self.rules, self.core, "VecTables.load")
        r = self._state_rows(rows, "VecTables.load")
        if r.size != len(states):
            raise ValueError(f"VecTables.load: {len(states)} states for {r.size} rows; give one row per state")
        lay = layout_of(self.core)
        book = states._book(lay)
        if (book[:, 5] != 0).any():
            raise ValueError("VecTables.load: a state of a table playing scripted walls (a replayed log) carries "
                             "only its current hand; play it with mjfast.search.rollout(..., until='hand')")
        at = int(lay["policy_at"])
        pol = states.data[:, at:at + 16].copy().view(np.int32)
        idle = book[:, 0] == ST["idle"]
        mismatch = ~idle & (pol != self._policies[r]).any(axis=1)
        if mismatch.any():
            j = int(np.flatnonzero(mismatch)[0])
            raise ValueError(f"VecTables.load: state {j} was saved with seat policy codes {pol[j].tolist()}, this "
                             f"environment plays row {int(r[j])} with {self._policies[r[j]].tolist()} (learners "
                             f"{self.learners}, opponents {self.opponents!r}); load it into an environment of the "
                             "same learners and opponents")
        n_engine = int(lay["record"])
        self.core.load_states(r, np.ascontiguousarray(states.data[:, :n_engine]), None,
                              1 if self.episode == "hand" else 0)
        py = states._py()
        self._game_no[r] = py[:, 0]
        self._pending[r] = (py[:, 1] & np.uint64(F_PENDING)) != 0
        self._done[r] = (py[:, 1] & np.uint64(F_DONE)) != 0
        for i in r:
            self._game_id[i] = self.core.game_index(int(i))
        self._status[r] = book[:, 0]
        self._seat[r] = book[:, 1]
        # the observations: deciding tables re-ask their pending question (no side effects),
        # the others show the last actor's view
        acts = np.full(self.n_tables, -2, np.int64)
        deciding = r[book[:, 0] == ST["decide"]]
        acts[deciding] = -1
        if deciding.size:
            self.core.step(acts, self._obs, self._scal, self._mask, self._seat, self._rew, self._status,
                           self._step_threads())
        for i in r[book[:, 0] != ST["decide"]]:
            self._mask[i] = 0
            self.core.observe(int(i), int(self._seat[i]), self._obs[i], self._scal[i])
        return self._obs_dict(), self._info()
