"""Win-by-turn odds of one hand: the chance to be tenpai and to have won by each draw.

The model
---------
One player alone with the wall, no calls and no other players' discards:

* the unseen tiles are the 136 standard tiles minus the player's hand (concealed tiles and
  called sets) minus ``visible``; they lie in the wall in uniformly random order (bonus
  tiles are left out: they would be replaced at once and never change the hand);
* the player draws one tile per turn, ``draws`` times (t = 1..T). After each draw: a complete
  hand wins at once; otherwise the policy chooses a discard, and the discard leaves play;
* a 3k+2 starting hand (e.g. 14 tiles) first discards by the same policy's choice of discard
  (lowest shanten, most unseen effective tiles, lowest index), or has won at t = 0 if complete.

Policies
--------
``"greedy"``
    Keep the drawn tile only when it lowers the shanten (an effective tile); then discard,
    among the tiles whose discard leaves that lower shanten, the one leaving the most unseen
    effective tiles (unseen = still in the wall, as the player sees it: 4 minus the copies in
    hand, visible or discarded), the lowest tile index on ties. Otherwise discard the drawn
    tile at once. It never trades tiles at equal shanten to widen its waits (the game
    engine's greedy bot does): this keeps the exact computation tractable.
``"first"``
    The same, but among the lowest-shanten discards always the lowest tile index.
``"greedy_swap"``
    The game engine's greedy discard after every draw: among all 14 discards (the drawn tile
    included) the lowest shanten, then the most unseen effective tiles, then the lowest index,
    so it also trades tiles at equal shanten to widen its waits. Monte Carlo only (its hand
    can wander through too many states for the exact recursion).

Reported per draw t: ``win[t]`` = P(the hand is complete after at most t draws) and
``tenpai[t]`` = P(shanten <= 0 after the t-th draw and its discard, or won), both
non-decreasing in t (the policy never raises the shanten).

Two methods give the same numbers: ``"monte_carlo"`` plays ``samples`` random walls in the
nogil kernel (:mod:`mjfast._winturn`; sample i is a pure function of (seed, i)), and reports
an :class:`~mjfast.stats.Estimate` per draw; ``"exact"`` computes the probabilities by a
memoised recursion over (hand, draws left, remaining counts of the tile kinds that can still
matter). Exactness: the policy's choices and the hands it can reach from a hand H only involve
a closed set S(H) of kinds (the effective tiles of H and of every hand it can move to, found
by search); draws of the other kinds are discarded at once and never matter again, so they are
lumped into one "other" outcome with probability (tiles left - remaining S-tiles) / tiles left.
At tenpai the policy only waits, and P(win within m draws) = 1 - C(N - w, m) / C(N, m) with
w live winning tiles among N. With ``exact="fraction"`` the arithmetic is in
:class:`fractions.Fraction` (tests compare it with a brute-force enumeration of draw
sequences). The state space stays small up to 3-shanten (hundreds of reachable hands) and
grows about tenfold per shanten beyond; ``max_states`` bounds it, and ``method="auto"``
(see :func:`win_by_turn`) runs it only where it is estimated cheaper than Monte Carlo. Both
methods report :class:`~mjfast.stats.Probability` values (exact ones with se 0).
"""
from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from typing import Any

import numpy as np

from .. import _core, tiles
from .._display import Display, Displayed, Table, frame, interval
from .._kernels import winturn as _winturn
from .._runtime.progress import Progress, attach_partial
from .._runtime.seeding import root_key, seed_to_json
from .._runtime.threads import resolve_threads
from .._runtime.validation import check_choice, check_count
from ..hands._standard import form_bits
from ..stats import Estimate, Probability
from .hand import check_rules, read_hand, rules_label

POLICIES = {"greedy": 0, "first": 1, "greedy_swap": 2}
EXACT_POLICIES = ("greedy", "first")
METHODS = ("auto", "exact", "monte_carlo")
N_STANDARD = 136


def _shanten_rows(rows: np.ndarray, bits: int) -> np.ndarray:
    out = np.empty(len(rows), np.int8)
    _core.shanten_counts_batch(np.ascontiguousarray(rows, dtype=np.uint8), bits, out, 1)
    return out


class _HandInfo:
    """Pool-independent facts about a 3k+1 hand: shanten, effective kinds, transitions."""

    __slots__ = ("s", "eff", "win", "cands", "S")

    def __init__(self, s, eff, win, cands):
        self.s = s                # shanten
        self.eff = eff            # kinds whose draw lowers the shanten (regardless of the pool)
        self.win = win            # subset of eff completing the hand
        self.cands = cands        # x -> list of (discard d, next hand key) reaching the lowest shanten
        self.S = None             # closure: kinds that can matter from here (sorted tuple)


class _OverBudget(Exception):
    """The exact method's work passed its budget (``method="auto"`` then runs Monte Carlo)."""


#: Work of the exact method, in about microseconds of one core (measured on random 13-tile
#: hands): the transitions of one reachable hand (kernel calls), one memoised state (its
#: arithmetic: Fractions cost about ten times floats).
EXACT_HAND_COST = 80.0
EXACT_STATE_COST = {"float": 25.0, "fraction": 300.0}
#: Monte Carlo work per sample (one core, 18 draws; same units) by starting shanten 0, 1,
#: ..., 8 (+11 per shanten beyond): the kernel weighs more discards from farther hands.
MC_SAMPLE_COST = (0.5, 1.1, 3.4, 6.1, 11.0, 14.0, 22.0, 32.0, 43.0)


def mc_cost(shanten: int, draws: int, samples: int) -> float:
    """Estimated Monte Carlo work (about microseconds of one core) of ``samples`` samples
    (a little less with fewer draws: most samples of a far hand use them all)."""
    s = max(shanten, 0)
    per = MC_SAMPLE_COST[min(s, 8)] + 11.0 * max(s - 8, 0)
    return samples * per * (0.75 + draws / 72)


def exact_cost(shanten: int, exact: str = "float") -> float:
    """Typical work (about microseconds of one core) of the exact method from a hand at
    ``shanten``: the median over random 13-tile hands (18 draws) grows about tenfold per
    shanten, from 40 ms at 3-shanten (0.4 s at 4, 4 s at 5); with Fractions about 8 times
    more."""
    return 40_000.0 * 10.0 ** (max(shanten, 0) - 3) * (8.0 if exact == "fraction" else 1.0)


class ExactSolver:
    """Exact win-by-turn probabilities in the model of this module (see the module docstring).

    ``number`` is ``float`` or ``Fraction``. Hands are keyed by their 34 count bytes.
    ``budget`` (optional): raise :class:`_OverBudget` once the work counted in reachable hands
    and memoised states (:data:`EXACT_HAND_COST`, :data:`EXACT_STATE_COST`) passes it --
    deterministic, unlike a timer.
    """

    def __init__(self, bits: int, policy: str, pool: np.ndarray, draws: int, number=float,
                 max_states: int = 300_000, budget: float | None = None):
        self.budget = budget
        self.work = 0.0
        self.state_cost = EXACT_STATE_COST["fraction" if number is Fraction else "float"]
        self.bits = bits
        self.policy = policy
        self.pool0 = [int(c) for c in pool]
        self.N0 = sum(self.pool0)
        self.T = draws
        self.num = number
        self.max_states = max_states
        self.info_memo: dict = {}
        self.memo: dict = {}
        self.bar: Progress | None = None     # a bar in states (hands and memo entries), when set
        self.zero = number(0)
        self.one = number(1)

    def _spend(self, cost: float) -> None:
        self.work += cost
        if self.budget is not None and self.work > self.budget:
            raise _OverBudget

    # -- hands -------------------------------------------------------------------------
    def info(self, key: bytes) -> _HandInfo:
        got = self.info_memo.get(key)
        if got is not None:
            return got
        if len(self.info_memo) >= self.max_states:
            raise MemoryError(f"exact win-by-turn: more than max_states={self.max_states:,} reachable hands; "
                              "use method='monte_carlo' or raise max_states")
        self._spend(EXACT_HAND_COST)
        h = np.frombuffer(key, np.uint8)
        s = int(_shanten_rows(h[None, :], self.bits)[0])
        addable = np.flatnonzero(h < 4)
        plus = np.repeat(h[None, :], len(addable), axis=0)
        plus[np.arange(len(addable)), addable] += 1
        after = _shanten_rows(plus, self.bits)
        eff = [int(x) for x, a in zip(addable, after) if a < s]
        win = {int(x) for x, a in zip(addable, after) if a == -1}
        cands: dict = {}
        rest = [x for x in eff if x not in win]
        if rest:
            rows, meta = [], []
            for x in rest:
                h14 = h.copy()
                h14[x] += 1
                for d in np.flatnonzero(h14).tolist():
                    r = h14.copy()
                    r[d] -= 1
                    rows.append(r)
                    meta.append((x, d))
            sh = _shanten_rows(np.array(rows), self.bits)
            best: dict = {}
            for (x, _d), v in zip(meta, sh.tolist()):
                best[x] = min(best.get(x, 99), v)
            for (x, d), r, v in zip(meta, rows, sh.tolist()):
                if v == best[x]:
                    cands.setdefault(x, []).append((d, r.tobytes()))
        got = _HandInfo(s, tuple(eff), win, cands)
        self.info_memo[key] = got
        self._tick()
        return got

    def _tick(self) -> None:
        if self.bar is not None:
            self.bar.update(len(self.info_memo) + len(self.memo))

    def closure(self, key: bytes) -> tuple:
        inf = self.info(key)
        if inf.S is None:
            S = set(inf.eff)
            if inf.s > 0:
                for lst in inf.cands.values():
                    for _, nk in lst:
                        S.update(self.closure(nk))
            inf.S = tuple(sorted(S))
        return inf.S

    def effective_unseen(self, key: bytes, pool: list) -> int:
        return sum(pool[e] for e in self.info(key).eff)

    def choose(self, inf: _HandInfo, x: int, pool: list):
        """Next hand after keeping x (pool already without x): the policy's discard."""
        lst = inf.cands[x]
        if self.policy == "first" or len(lst) == 1:
            return lst[0][1]
        best_u, best_key = -1, None
        for _d, nk in lst:             # in increasing d: strict > keeps the lowest index on ties
            u = self.effective_unseen(nk, pool)
            if u > best_u:
                best_u, best_key = u, nk
        return best_key

    # -- probabilities -----------------------------------------------------------------
    def run(self, key: bytes, m: int, pool: list) -> tuple:
        """(win, tenpai): lists of length m, P(won / tenpai within j+1 draws), j = 0..m-1."""
        inf = self.info(key)
        zero, num = self.zero, self.num
        if m == 0:
            return [], []
        if inf.s > m:                  # cannot even reach tenpai
            return [zero] * m, [zero] * m
        N = self.N0 - (self.T - m)
        if inf.s == 0:
            w = sum(pool[k] for k in inf.eff)
            win, surv = [], self.one
            for j in range(m):
                surv = surv * num(N - w - j) / num(N - j) if N - j > 0 else zero
                win.append(self.one - surv)
            return win, [self.one] * m
        S = self.closure(key)
        mkey = (key, m, tuple(pool[k] for k in S))
        got = self.memo.get(mkey)
        if got is not None:
            return got
        if len(self.memo) >= self.max_states:
            raise MemoryError(f"exact win-by-turn: more than max_states={self.max_states:,} states; "
                              "use method='monte_carlo' or raise max_states")
        self._spend(self.state_cost)
        win = [zero] * m
        ten = [zero] * m
        in_S = 0
        for x in S:
            c = pool[x]
            if not c:
                continue
            in_S += c
            p = num(c) / num(N)
            pool[x] -= 1
            if x in inf.win:
                for j in range(m):
                    win[j] += p
                    ten[j] += p
            elif x in inf.cands:
                nk = self.choose(inf, x, pool)
                sw, st = self.run(nk, m - 1, pool)
                now_tenpai = self.info(nk).s <= 0
                if now_tenpai:
                    ten[0] += p
                for j in range(1, m):
                    win[j] += p * sw[j - 1]
                    ten[j] += p if now_tenpai else p * st[j - 1]
            else:
                sw, st = self.run(key, m - 1, pool)
                for j in range(1, m):
                    win[j] += p * sw[j - 1]
                    ten[j] += p * st[j - 1]
            pool[x] += 1
        other = N - in_S
        if other > 0:
            p = num(other) / num(N)
            sw, st = self.run(key, m - 1, pool)
            for j in range(1, m):
                win[j] += p * sw[j - 1]
                ten[j] += p * st[j - 1]
        self.memo[mkey] = (win, ten)
        self._tick()
        return win, ten


def _policy_code(policy: str) -> int:
    if not isinstance(policy, str) or policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; choose one of {tuple(POLICIES)}")
    return POLICIES[policy]


@dataclasses.dataclass(frozen=True, repr=False)
class WinByTurn(Displayed):
    """Result of :func:`win_by_turn`; the same type, with values of the same type, whichever
    method ran.

    Attributes
    ----------
    hand : str
        The hand as given; ``start`` the 3k+1 concealed hand the draws start from.
    discard : str or None
        The starting discard of a 3k+2 hand.
    rules, policy : str
    method : {"exact", "monte_carlo"}
        The method that ran (``method="auto"`` resolved).
    draws : int
        T; ``win[t-1]`` / ``tenpai[t-1]`` refer to draw t.
    shanten : int
        Shanten of the starting 3k+1 hand (-1 if a 3k+2 hand was already complete).
    unseen : int
        Tiles in the wall at the start (N).
    win, tenpai : tuple of Probability
        Per draw t = 1..T: P(won by t) and P(tenpai or won by t), each a
        :class:`~mjfast.stats.Probability`: a float that also carries ``se``, ``low``,
        ``high`` (95% interval), ``count`` and ``n`` -- se 0 and a zero-width interval when
        exact, a Monte Carlo estimate otherwise. With ``exact="fraction"`` the exact values
        are :class:`fractions.Fraction` instead.
    samples : int or None
        Monte Carlo sample count (None for exact).
    seed
        What to pass as ``seed`` to repeat a Monte Carlo run.

    ``repr`` (and Jupyter) show the curve; ``win_p``/``tenpai_p`` are float arrays,
    ``rows()`` tidy records, ``to_pandas()`` a DataFrame, ``to_dict()`` JSON.
    """

    hand: str
    start: str
    discard: str | None
    rules: str | None
    policy: str
    method: str
    draws: int
    shanten: int
    unseen: int
    win: tuple
    tenpai: tuple
    samples: int | None = None
    seed: Any = None

    @staticmethod
    def _p(v) -> float:
        return float(v)

    @staticmethod
    def _se(v) -> float:
        return float(getattr(v, "se", 0.0))

    @staticmethod
    def _band(v) -> tuple:
        if isinstance(v, (Probability, Estimate)):
            return float(v.low), float(v.high)
        return float(v), float(v)

    @property
    def win_p(self) -> np.ndarray:
        """P(won by t), t = 1..T, as floats."""
        return np.array([self._p(v) for v in self.win], dtype=np.float64)

    @property
    def tenpai_p(self) -> np.ndarray:
        """P(tenpai or won by t), t = 1..T, as floats."""
        return np.array([self._p(v) for v in self.tenpai], dtype=np.float64)

    def rows(self) -> list:
        """One record per draw: t, win, win_se, win_low, win_high, tenpai, ... (tidy rows)."""
        out = []
        for t in range(1, self.draws + 1):
            r: dict[str, float] = {"t": t}
            for name, v in (("win", self.win[t - 1]), ("tenpai", self.tenpai[t - 1])):
                r[name] = self._p(v)
                r[f"{name}_se"] = self._se(v)
                r[f"{name}_low"], r[f"{name}_high"] = self._band(v)
            out.append(r)
        return out

    def to_dict(self) -> dict:
        d = {k: getattr(self, k) for k in ("hand", "start", "discard", "rules", "policy", "method", "draws",
                                             "shanten", "unseen", "samples")}
        d["seed"] = seed_to_json(self.seed)
        if self.method == "exact":
            d["win"] = [float(v) for v in self.win]
            d["tenpai"] = [float(v) for v in self.tenpai]
            if self.win and isinstance(self.win[0], Fraction):
                d["win_exact"] = [f"{v.numerator}/{v.denominator}" for v in self.win]
                d["tenpai_exact"] = [f"{v.numerator}/{v.denominator}" for v in self.tenpai]
        else:
            d["win"] = [v.to_dict() for v in self.win]
            d["tenpai"] = [v.to_dict() for v in self.tenpai]
        return d

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)

    def _attrs(self) -> dict:
        return {k: getattr(self, k) for k in ("hand", "start", "discard", "rules", "policy", "method", "draws",
                                             "shanten", "unseen", "samples")} | {"seed": seed_to_json(self.seed)}

    def to_pandas(self):
        """The curve as a DataFrame: one row per draw ``t`` (int64) with ``win``,
        ``win_se``, ``win_low``, ``win_high``, ``tenpai``, ... (float64; se 0 and a zero-width
        interval when exact). ``df.attrs`` holds the hand, rules, policy, method, shanten,
        unseen tiles, samples and seed (needs pandas).

        Examples
        --------
        >>> import mjfast
        >>> df = mjfast.win_by_turn("123m456p789s1122z", draws=3).to_pandas()   # doctest: +SKIP
        >>> df["t"].tolist(), df.attrs["method"], str(df["win"].dtype)   # doctest: +SKIP
        ([1, 2, 3], 'exact', 'float64')
        """
        cols = ("t", "win", "win_se", "win_low", "win_high", "tenpai", "tenpai_se", "tenpai_low", "tenpai_high")
        return frame(cols, self.rows(), what="WinByTurn.to_pandas()", attrs=self._attrs())

    def _display(self) -> Display:
        mc = self.method == "monte_carlo"
        head = ("t", "P(tenpai)", "P(win)") + (("95% interval of P(win)",) if mc else ())
        rows = [(r["t"], r["tenpai"], r["win"]) + ((interval(r["win_low"], r["win_high"]),) if mc else ())
                for r in self.rows()]
        title = (f"WinByTurn: {self.hand}" + (f" (discard {self.discard})" if self.discard else "")
                 + f", shanten {self.shanten}, {self.unseen} unseen tiles, rules={self.rules}, policy={self.policy}, "
                 + (f"Monte Carlo ({self.samples:,} samples, seed={seed_to_json(self.seed)})" if mc else "exact"))
        return Display(title, [Table(head, rows)])

    def table(self) -> str:
        head = (f"win by turn: {self.hand}" + (f" (discard {self.discard})" if self.discard else "")
                + f"  shanten {self.shanten}, {self.unseen} unseen tiles, rules={self.rules}, "
                f"policy={self.policy}, {self.method}" + (f" ({self.samples:,} samples)" if self.samples else ""))
        lines = [head]
        mc = self.method == "monte_carlo"
        lines.append(f"  {'t':>3} {'P(tenpai)':>10} {'P(win)':>10}" + (f" {'95% interval of P(win)':>26}" if mc else ""))
        for r in self.rows():
            line = f"  {r['t']:>3} {r['tenpai']:>10.5f} {r['win']:>10.5f}"
            if mc:
                line += f"   [{r['win_low']:.5f}, {r['win_high']:.5f}]"
            lines.append(line)
        return "\n".join(lines)

    __str__ = table


def choose_method(shanten: int, draws: int, samples: int, policy: str, exact: str = "float") -> str:
    """What ``method="auto"`` tries first for a starting hand at ``shanten``: "exact" when the
    policy allows it and its typical cost (:func:`exact_cost`) is at most the Monte Carlo cost
    (:func:`mc_cost`), or when the hand cannot reach tenpai within ``draws`` (every
    probability is 0); else "monte_carlo". (The exact run may still give way to Monte Carlo
    when its counted work passes the Monte Carlo cost.)

    Examples
    --------
    >>> [choose_method(s, 18, 100_000, "greedy") for s in (0, 3, 4, 5)]
    ['exact', 'exact', 'exact', 'monte_carlo']
    >>> choose_method(4, 18, 1_000, "greedy"), choose_method(2, 18, 100_000, "greedy_swap")
    ('monte_carlo', 'monte_carlo')
    """
    if policy not in EXACT_POLICIES:
        return "monte_carlo"
    if shanten > draws or exact_cost(shanten, exact) <= mc_cost(shanten, draws, samples):
        return "exact"
    return "monte_carlo"


def _start(h, bits: int, policy: str, pool: np.ndarray):
    """3k+1 starting hand and discard (None) for a 3k+2 hand; complete -> (None, None)."""
    conc = h.concealed.copy()
    if int(conc.sum()) % 3 == 1:
        return conc, None
    if int(_shanten_rows(conc[None, :], bits)[0]) == -1:
        return None, None

    d, _ = _winturn.choose_discard_py(conc, pool.astype(np.intc), bits, POLICIES[policy])
    conc[d] -= 1
    return conc, tiles.tile_name(int(d))


def win_by_turn(hand: Any, *, draws: int = 18, visible: Any = None, rules: str | None = "classical",
                policy: str = "greedy", method: str = "auto", samples: int = 100_000, seed=None,
                threads: int | None = None, progress: bool = True, exact: str = "float",
                max_states: int = 300_000) -> WinByTurn:
    """Probability of being tenpai and of having won by each future draw t = 1..draws.

    The model and the policies are stated in :mod:`mjfast.analysis.winturn`: one player drawing from
    the unseen tiles in random order, no calls, discards leave play; with the default
    "greedy" policy the drawn tile is kept only when it lowers the shanten.

    Parameters
    ----------
    hand : str or array_like of shape (34,)
        3k+1 tiles (e.g. 13) or 3k+2 (e.g. 14: the policy discards first); called sets in text
        (``[555z]``) stay fixed and count as seen.
    draws : int, default 18
        T, the number of draws (about what one player gets in a four-player hand).
    visible : str or array_like of shape (34,), optional
        Tiles seen elsewhere: they are not in the wall.
    rules : {"classical", "basic", "mcr", None}
        Which forms win (as :func:`mjfast.shanten`).
    policy : {"greedy", "first", "greedy_swap"}
        See :mod:`mjfast.analysis.winturn`; "greedy_swap" (the game engine's discard rule) is Monte Carlo only.
    method : {"auto", "exact", "monte_carlo"}
        "auto" runs whichever is cheaper by an estimate of each method's work (one core's
        time, measured on random hands; see Notes): in practice the exact method up to
        4-shanten and Monte Carlo from 5-shanten with the default 100,000 samples, and the
        "greedy_swap" policy always Monte Carlo. Either way the result has the same type,
        with values of the same type (:class:`~mjfast.stats.Probability`).
    samples : int, default 100,000
        Monte Carlo samples.
    seed : None, int, SeedSequence or Generator
        Monte Carlo: sample i is a pure function of (seed, i), whatever ``threads``.
    threads : int or None
    progress : bool
        Progress bar on stderr for runs longer than half a second (Monte Carlo: in samples;
        exact: the states explored so far); see :func:`mjfast.set_options`.
    exact : {"float", "fraction"}
        Number type of the exact method (Fractions are slower and exact to the last digit).
    max_states : int, default 300,000
        Bound on the exact method's memo (about 1 KB per state; MemoryError beyond it). Typical
        counts over 18 draws: about 20 states at 1-shanten, 100-300 at 2-shanten, 1,000-3,000
        at 3-shanten.

    Returns
    -------
    WinByTurn
        ``method`` says which method ran; ``win[t-1]`` and ``tenpai[t-1]`` are floats that
        carry their uncertainty (``se``, ``low``, ``high``: 0 and a zero-width interval when
        exact), so code reading them works whichever method ran.

    Raises
    ------
    ValueError
        Bad hand or visible tiles (e.g. a fifth copy), draws outside 1..unseen tiles, unknown
        policy, method or rules, samples or max_states below 1 or from 2**62 on.
    TypeError
        draws, samples or max_states not an int.
    KeyboardInterrupt
        Monte Carlo: on Ctrl-C, after the current chunk of 65,536 samples; the result of the
        samples finished so far is attached as ``exc.partial``.

    Notes
    -----
    How ``method="auto"`` chooses. Both costs are estimated in microseconds of one core
    (:func:`mc_cost`, :func:`exact_cost`, from measurements on random 13-tile hands):

    * Monte Carlo: ``samples`` times a cost per sample that grows with the starting shanten
      s (0.5, 1.1, 3.4, 6.1, 11, 14, 22, 32, 43 us for s = 0..8; a little less with fewer
      draws);
    * exact: typically 40 ms x 10**(s - 3) (0.4 s at 4-shanten, 4 s at 5-shanten; eight
      times more with ``exact="fraction"``), but hands of one shanten vary tenfold.

    The exact method runs when its typical cost is at most the Monte Carlo cost (or when the
    hand cannot reach tenpai within ``draws``), with the Monte Carlo cost as its budget: its
    work is counted as it goes (80 us per reachable hand, 25 us per memoised state, 300 with
    Fractions) and, past the budget (or ``max_states``), it is abandoned for Monte Carlo. So
    "auto" never costs much more than Monte Carlo alone, and the choice depends only on the
    arguments, never on the machine, the threads or its load: the same call gives the same
    result everywhere.

    Examples
    --------
    >>> import mjfast
    >>> mjfast.win_by_turn("1239m1p12477s122z", draws=18).method   # 3-shanten: exact is cheaper
    'exact'
    >>> r = mjfast.win_by_turn("123m456p789s1122z", draws=3, method="exact")
    >>> [round(p, 6) for p in r.win]                 # 4 winning tiles among 123 unseen
    [0.03252, 0.064241, 0.095175]
    >>> mc = mjfast.win_by_turn("123m456p789s1122z", draws=3, method="monte_carlo", samples=20000, seed=1, progress=False)
    >>> w = mc.win[2]
    >>> w.n, abs(w.p - r.win[2]) < 4 * w.se
    (20000, True)
    """
    rules = check_rules(rules)
    code = _policy_code(policy)
    check_choice("method", method, METHODS)
    if not isinstance(exact, str) or exact not in ("float", "fraction"):
        raise ValueError(f"exact must be 'float' or 'fraction', not {exact!r}")
    if isinstance(draws, bool) or not isinstance(draws, (int, np.integer)):
        raise TypeError(f"draws must be an int, not {type(draws).__name__}")
    samples = check_count(samples, "samples", 1)
    max_states = check_count(max_states, "max_states", 1)
    h = read_hand(hand, visible)
    bits = form_bits("all", rules)
    pool = h.unseen                  # the wall: every tile not in the hand, its sets or visible
    N = int(pool.sum())
    if not 1 <= int(draws) <= N:
        raise ValueError(f"draws must be between 1 and the {N} unseen tiles, got {draws}")
    draws = int(draws)
    _core.ensure_tables()
    start, discard = _start(h, bits, policy, pool)
    if start is None:  # a complete 3k+2 hand: won before the first draw
        one = Fraction(1) if exact == "fraction" else Probability.exact(1.0)
        vals = tuple([one] * draws) if method != "monte_carlo" else tuple(
            [Probability.from_estimate(Estimate.from_counts(samples, samples))] * draws)
        return WinByTurn(h.text, h.text, None, rules_label(rules), policy, "exact" if method != "monte_carlo" else method,
                         draws, -1, N, vals, vals, None if method != "monte_carlo" else samples)
    s0 = int(_shanten_rows(start[None, :], bits)[0])
    start_text = tiles.format_hand(start) + "".join(" " + str(m) for m in h.melds)
    budget = None
    if method == "auto":
        method = choose_method(s0, draws, samples, policy, exact)
        budget = None if s0 > draws else mc_cost(s0, draws, samples)
    if method == "exact":
        if policy not in EXACT_POLICIES:
            raise ValueError(f"the exact method supports the policies {EXACT_POLICIES}; use method='monte_carlo' "
                             f"for {policy!r}")
        number = Fraction if exact == "fraction" else float
        solver = ExactSolver(bits, policy, pool, draws, number, max_states, budget)
        # far from tenpai the exact search takes seconds: a bar of the states it has explored
        bar = solver.bar = Progress(None, label="win-by-turn exact", unit="states", enabled=bool(progress))
        try:
            win, ten = solver.run(start.tobytes(), draws, [int(c) for c in pool])
        except (_OverBudget, MemoryError):
            if budget is None:       # method="exact": the user's bound (MemoryError) stands
                raise
            method = "monte_carlo"   # "auto": past the Monte Carlo cost, Monte Carlo is cheaper
        else:
            wrap = (lambda v: v) if number is Fraction else Probability.exact
            return WinByTurn(h.text, start_text, discard, rules_label(rules), policy, "exact", draws, s0, N,
                             tuple(wrap(v) for v in win), tuple(wrap(v) for v in ten))
        finally:
            bar.close()
    key = root_key(seed)
    threads = resolve_threads(threads)

    def result(win_c, ten_c, n):
        return WinByTurn(h.text, start_text, discard, rules_label(rules), policy, "monte_carlo", draws, s0, N,
                         tuple(Probability.from_estimate(Estimate.from_counts(c, n)) for c in win_c),
                         tuple(Probability.from_estimate(Estimate.from_counts(c, n)) for c in ten_c), n,
                         key.seed_value())

    try:
        win_c, ten_c = _mc_counts(start, pool, draws, bits, code, int(samples), key, threads, progress)
    except KeyboardInterrupt as exc:
        part = getattr(exc, "partial_counts", None)
        if part is not None:
            attach_partial(exc, result(*part))
        raise
    return result(win_c, ten_c, int(samples))


def _cumulative(turns: np.ndarray, draws: int) -> np.ndarray:
    """Counts of samples with turn <= t for t = 1..draws (turn = draws + 1: never)."""
    h = np.bincount(turns.astype(np.int64), minlength=draws + 2)
    return np.cumsum(h)[1:draws + 1]


def _mc_counts(start, pool, draws, bits, code, n, key, threads, progress, chunk=1 << 16):
    hand = np.ascontiguousarray(start, np.uint8)
    pool_c = np.ascontiguousarray(pool, np.intc)
    win_c = np.zeros(draws, np.int64)
    ten_c = np.zeros(draws, np.int64)
    w = np.empty(min(chunk, n), np.int16)
    t = np.empty(min(chunk, n), np.int16)
    bar = Progress(n, label="win-by-turn", unit="samples", enabled=bool(progress))
    done = 0
    try:
        while done < n:
            m = min(chunk, n - done)
            _winturn.winturn_batch(m, done, key.k0, key.k1, hand, pool_c, draws, bits, code, w, t, threads)
            win_c += _cumulative(w[:m], draws)
            ten_c += _cumulative(t[:m], draws)
            done += m
            bar.update(done)
    except KeyboardInterrupt as exc:   # stop after the current chunk; keep what is done
        exc.partial_counts = (win_c, ten_c, done)
        raise
    finally:
        bar.close()
    return win_c, ten_c


@dataclasses.dataclass(frozen=True, repr=False)
class WinByTurnByShanten(Displayed):
    """Result of :func:`win_by_turn_random`: curves per starting shanten of random hands.

    ``win[s][t-1]`` / ``tenpai[s][t-1]``: :class:`~mjfast.stats.Estimate` of P(won / tenpai by
    draw t | starting shanten s); ``rows()`` tidy records, ``to_pandas()`` a DataFrame,
    ``to_dict()`` JSON; ``repr`` (and Jupyter) show P(win by t) per starting shanten.
    """

    rules: str | None
    policy: str
    draws: int
    samples: int
    hand_tiles: int
    shanten_counts: dict     # starting shanten -> number of samples
    win: dict                # starting shanten -> tuple of Estimate per t
    tenpai: dict
    seed: Any = None

    def rows(self) -> list:
        out = []
        for s in sorted(self.win):
            for t in range(1, self.draws + 1):
                r = {"start_shanten": s, "hands": self.shanten_counts[s], "t": t}
                for name, e in (("win", self.win[s][t - 1]), ("tenpai", self.tenpai[s][t - 1])):
                    r[name], r[f"{name}_se"], r[f"{name}_low"], r[f"{name}_high"] = e.p, e.se, e.low, e.high
                out.append(r)
        return out

    def _attrs(self) -> dict:
        return {"rules": self.rules, "policy": self.policy, "draws": self.draws, "samples": self.samples,
                "hand_tiles": self.hand_tiles, "seed": seed_to_json(self.seed)}

    def to_dict(self) -> dict:
        """JSON-ready: the run's arguments, ``shanten_counts`` (starting shanten -> hands) and
        ``win`` / ``tenpai`` (starting shanten -> one estimate dict per draw).

        Examples
        --------
        >>> import mjfast
        >>> d = mjfast.win_by_turn_random(2000, draws=4, seed=1, progress=False).to_dict()
        >>> sum(d["shanten_counts"].values()), len(d["win"]["2"])
        (2000, 4)
        """
        return self._attrs() | {
            "shanten_counts": {str(s): int(n) for s, n in self.shanten_counts.items()},
            "win": {str(s): [e.to_dict() for e in v] for s, v in self.win.items()},
            "tenpai": {str(s): [e.to_dict() for e in v] for s, v in self.tenpai.items()}}

    def to_pandas(self):
        """The curves as a tidy DataFrame: one row per starting shanten and draw
        (``start_shanten``, ``hands``, ``t`` as int64; ``win``, ``win_se``, ``win_low``,
        ``win_high``, ``tenpai``, ... as float64); ``df.attrs`` holds the run's arguments
        (needs pandas).

        Examples
        --------
        >>> import mjfast
        >>> df = mjfast.win_by_turn_random(2000, draws=4, seed=1, progress=False).to_pandas()   # doctest: +SKIP
        >>> list(df.columns[:4]), str(df["hands"].dtype)   # doctest: +SKIP
        (['start_shanten', 'hands', 't', 'win'], 'int64')
        """
        cols = ("start_shanten", "hands", "t", "win", "win_se", "win_low", "win_high", "tenpai", "tenpai_se",
                "tenpai_low", "tenpai_high")
        return frame(cols, self.rows(), what="WinByTurnByShanten.to_pandas()", attrs=self._attrs())

    def _display(self) -> Display:
        shanten = sorted(self.win)
        head = ("t",) + tuple(f"P(win | {s})" for s in shanten)
        rows = [(t,) + tuple(self.win[s][t - 1].p for s in shanten) for t in range(1, self.draws + 1)]
        counts = ", ".join(f"{s}: {self.shanten_counts[s]:,}" for s in shanten)
        return Display(f"WinByTurnByShanten: {self.samples:,} random {self.hand_tiles}-tile hands, rules={self.rules}, "
                       f"policy={self.policy}, seed={seed_to_json(self.seed)}",
                       [Table(head, rows)], [f"hands by starting shanten: {counts}",
                                             "95% intervals: .to_pandas() or .rows()"])


def win_by_turn_random(samples: int = 100_000, *, draws: int = 18, rules: str | None = "classical",
                       policy: str = "greedy", seed=None, threads: int | None = None,
                       progress: bool = True, hand_tiles: int = 13) -> WinByTurnByShanten:
    """Win-by-turn curves of random starting hands, grouped by their starting shanten.

    Each sample deals ``hand_tiles`` random tiles from the 136 and then plays ``draws`` draws
    from the rest in the model of :mod:`mjfast.analysis.winturn` (no visible tiles). Sample i is a pure
    function of (seed, i).

    Parameters
    ----------
    samples : int
    draws : int, default 18
    rules, policy, seed, threads, progress
        As for :func:`win_by_turn`.
    hand_tiles : int, default 13
        Size of the starting hand (3k+1).

    Returns
    -------
    WinByTurnByShanten
        ``win[s][t-1]``: Estimate of P(won by draw t | starting shanten s), likewise ``tenpai``.

    Examples
    --------
    >>> import mjfast
    >>> r = mjfast.win_by_turn_random(5000, draws=12, seed=1, progress=False)
    >>> sum(r.shanten_counts.values())
    5000
    >>> r.win[1][-1].p > r.win[3][-1].p              # closer hands win more often
    True
    """
    rules = check_rules(rules)
    code = _policy_code(policy)
    samples = check_count(samples, "samples", 1)
    if isinstance(hand_tiles, bool) or not isinstance(hand_tiles, (int, np.integer)):
        raise TypeError(f"hand_tiles must be an int, not {type(hand_tiles).__name__}")
    if hand_tiles not in (1, 4, 7, 10, 13):
        raise ValueError(f"hand_tiles must be 1, 4, 7, 10 or 13, got {hand_tiles}")
    hand_tiles = int(hand_tiles)
    if isinstance(draws, bool) or not isinstance(draws, (int, np.integer)) or not 1 <= draws <= N_STANDARD - hand_tiles:
        raise ValueError(f"draws must be an int between 1 and {N_STANDARD - hand_tiles}, got {draws!r}")

    bits = form_bits("all", rules)
    key = root_key(seed)
    threads = resolve_threads(threads)
    _core.ensure_tables()
    n = int(samples)
    chunk = 1 << 16
    s_out = np.empty(min(chunk, n), np.int8)
    w = np.empty(min(chunk, n), np.int16)
    t = np.empty(min(chunk, n), np.int16)
    counts: dict = {}
    win_c: dict = {}
    ten_c: dict = {}
    bar = Progress(n, label="win-by-turn random hands", unit="hands", enabled=bool(progress))
    done = 0
    try:
        while done < n:
            m = min(chunk, n - done)
            _winturn.random_start_batch(m, done, key.k0, key.k1, hand_tiles, int(draws), bits, code,
                                        s_out, w, t, threads)
            for s in np.unique(s_out[:m]).tolist():
                sel = s_out[:m] == s
                counts[s] = counts.get(s, 0) + int(sel.sum())
                win_c[s] = win_c.get(s, 0) + _cumulative(w[:m][sel], draws)
                ten_c[s] = ten_c.get(s, 0) + _cumulative(t[:m][sel], draws)
            done += m
            bar.update(done)
    except KeyboardInterrupt as exc:   # stop after the current chunk, statistics so far in exc.partial
        attach_partial(exc, _by_shanten(rules, policy, draws, done, hand_tiles, counts, win_c, ten_c, key))
        raise
    finally:
        bar.close()
    return _by_shanten(rules, policy, draws, n, hand_tiles, counts, win_c, ten_c, key)


def _by_shanten(rules, policy, draws, n, hand_tiles, counts, win_c, ten_c, key) -> WinByTurnByShanten:
    win = {s: tuple(Estimate.from_counts(c, counts[s]) for c in win_c[s]) for s in sorted(counts)}
    ten = {s: tuple(Estimate.from_counts(c, counts[s]) for c in ten_c[s]) for s in sorted(counts)}
    return WinByTurnByShanten(rules_label(rules), policy, int(draws), n, hand_tiles, dict(sorted(counts.items())), win, ten,
                              key.seed_value())
