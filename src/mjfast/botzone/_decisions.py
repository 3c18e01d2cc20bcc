"""Botzone hands as training arrays: every decision a hand shows, with the deciding player's
``cn-v0`` observation and legal-action mask, many hands side by side on the engine.

Each hand is laid out as :mod:`._table` lays it out (every tile where the player drew it, the
hands before its prevalent wind ending at once) and turned into a script: the action id of
each decision the hand shows (a discard, a chow, a pung, a kong, a win), in order, with the
player who takes it. Tables of one engine play many hands at once; at every question the
answer is the script's next action when the question is that player's, else a pass. Forced
questions are asked too (so the script stays in step) and left out of the rows, as
:func:`mjfast.env.decisions` leaves them out.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator

import numpy as np

from .. import _core
from .. import rules as _rules
from .._runtime.progress import Progress
from ..game import chinese as _chinese
from ._hand import ANGANG, BUGANG, CHI, GANG, HU, PENG, PLAY, Hand
from ._judge import _flowers, _last_tile, unsupported
from ._table import A_CHOW, A_KONG, A_OWN_KONG, A_PASS, A_PUNG, A_WIN, EXTERNAL, ST, Layout, ScriptError, dummy_wall

MAX_SCRIPT = 512                 # decisions of one hand at most (a Botzone hand has far fewer)
CLAIMS = (CHI, PENG, GANG)


@dataclasses.dataclass
class Prepared:
    """A hand ready for the engine: its walls, its script and where it is from."""

    key: tuple                   # (n_tiles, dead_wall): hands of one key share an engine
    walls: np.ndarray            # (4 * quan + 1, n_tiles) tile ids
    first_hand: int              # the engine's hand number of the real hand (4 * quan)
    seat: np.ndarray             # (k,) int8: the player of each scripted decision
    action: np.ndarray           # (k,) int16: its action id
    claim: np.ndarray            # (k,) bool: a claim on a discard (others' passes then not shown)
    scores: np.ndarray           # (4,) float32: each player's score change
    where: str


def prepare(hand: Hand) -> Prepared:
    """The hand's walls and script; ValueError when it cannot be played on mjfast's engine."""
    from ._judge import _where

    why = unsupported(hand)
    if why:
        raise ValueError(f"{_where(hand)}: " + "; ".join(why))
    flowers = _flowers(hand)
    n_tiles = 144 if flowers else 136
    try:
        lay = Layout(hand, n_tiles)
        lay.fill()
        wall = lay.ids()
    except ScriptError as exc:
        raise ValueError(f"{_where(hand)}: {exc}") from None
    dead = n_tiles - lay.front if _last_tile(hand) else 0
    seats: list = []
    acts: list = []
    claims: list = []
    last = -1
    for i, a in enumerate(hand.actions):
        k = a.kind
        if k == PLAY:
            last = _kind(a.tile)
            seats.append(a.player)
            acts.append(last)
            claims.append(False)
        elif k == CHI:
            m = _kind(a.tile)
            if not (last >= 0 and last < 27 and m // 9 == last // 9 and abs(m - last) <= 1 and m % 9 not in (0, 8)):
                raise ValueError(f"{_where(hand)}: action {i}: a chow around {a.tile} cannot take the last discard")
            seats.append(a.player)
            acts.append(A_CHOW + last - (m - 1))
            claims.append(True)
        elif k in (PENG, GANG):
            seats.append(a.player)
            acts.append(A_PUNG if k == PENG else A_KONG)
            claims.append(True)
        elif k in (ANGANG, BUGANG):
            kind = lay.kong_kind.get(i) if a.tile is None else _kind(a.tile)
            if kind is None:
                raise ValueError(f"{_where(hand)}: action {i}: a concealed kong whose tile is not known")
            seats.append(a.player)
            acts.append(A_OWN_KONG + kind)
            claims.append(False)
            if k == BUGANG:
                last = kind
        elif k == HU:
            prev = hand.actions[i - 1] if i else None
            on_discard = prev is not None and (prev.kind in (PLAY, BUGANG) and prev.player != a.player)
            seats.append(a.player)
            acts.append(A_WIN)
            claims.append(on_discard)
    if len(acts) > MAX_SCRIPT:
        raise ValueError(f"{_where(hand)}: more than {MAX_SCRIPT} decisions in one hand")
    q = hand.quan
    walls = np.stack([dummy_wall(n_tiles, h & 3) for h in range(4 * q)] + [wall])
    scores = np.asarray(hand.scores if hand.scores is not None else [0, 0, 0, 0], np.float32)
    return Prepared((n_tiles, dead), walls, 4 * q, np.asarray(seats, np.int8), np.asarray(acts, np.int16),
                    np.asarray(claims, bool), scores, _where(hand))


def _kind(name) -> int:
    from . import _tiles
    return _tiles.kind(name)


class _Engine:
    """One engine of ``n`` tables for hands of one key, refilled as hands end."""

    def __init__(self, key: tuple, n: int, derived: bool, privileged: bool):
        n_tiles, dead = key
        r = _rules.get("mcr", flowers=n_tiles == 144)
        kern = r.kernel()
        kern["dead_wall"] = int(dead)
        _core.ensure_tables()
        self.core = _chinese.VEC(kern, n, False, bool(derived), bool(privileged))
        self.n = n
        c = self.core
        self.obs = np.zeros((n, c.n_planes, c.kinds), np.uint8)
        self.scal = np.zeros((n, c.n_scalars), np.float32)
        self.mask = np.zeros((n, c.n_actions), np.uint8)
        self.seat = np.zeros(n, np.int8)
        self.rew = np.zeros((n, 4), np.float32)
        self.status = np.zeros(n, np.uint8)
        self.hand_no = np.zeros(n, np.int32)
        self.act = np.full(n, -1, np.int64)
        self.s_seat = np.full((n, MAX_SCRIPT + 1), -1, np.int8)
        self.s_act = np.full((n, MAX_SCRIPT + 1), A_PASS, np.int64)
        self.s_claim = np.zeros((n, MAX_SCRIPT + 1), bool)
        self.length = np.zeros(n, np.int64)
        self.ptr = np.zeros(n, np.int64)
        self.first = np.zeros(n, np.int32)
        self.episode = np.full(n, -1, np.int64)
        self.live = np.zeros(n, bool)
        self.codes = np.full((1, 4), EXTERNAL, np.intc)
        self.items: list = [None] * n

    def load(self, i: int, p: Prepared, episode: int) -> None:
        k = len(p.action)
        self.s_seat[i, :k] = p.seat
        self.s_seat[i, k:] = -1
        self.s_act[i, :k] = p.action
        self.s_act[i, k:] = A_PASS
        self.s_claim[i, :k] = p.claim
        self.s_claim[i, k:] = False
        self.length[i] = k
        self.ptr[i] = 0
        self.first[i] = p.first_hand
        self.episode[i] = episode
        self.items[i] = p
        self.live[i] = True
        self.act[i] = -1
        self.core.start(np.array([i], np.int64), np.zeros(1, np.uint64), 0, 0, self.codes, True, p.walls,
                        np.full((p.walls.shape[0], 2), 2, np.int32))


def play(prepared: Iterable, col, *, n_tables: int = 256, derived: bool = False, privileged: bool = False,
         failures: list | None = None, bar: Progress | None = None) -> int:
    """Play prepared hands ``(episode, Prepared)`` into the collector ``col`` (rows of the
    decisions the hands show; each finished hand's scores in ``col.episode_rewards``).
    A hand the engine does not follow goes to ``failures`` (episode, where, why), or raises
    ValueError when ``failures`` is None. Returns the hands played."""
    engines: dict = {}
    queues: dict = {}
    done = 0

    def engine(key):
        if key not in engines:
            engines[key] = _Engine(key, n_tables, derived, privileged)
            queues[key] = []
        return engines[key]

    def fail(e: _Engine, i: int, why: str) -> None:
        p = e.items[i]
        e.live[i] = False
        if failures is None:
            raise ValueError(f"{p.where}: {why}")
        failures.append((int(e.episode[i]), p.where, why))

    def run(e: _Engine, queue: list, drain: bool) -> int:
        """Step engine e while it is full (or, draining, until its hands are done)."""
        finished = 0
        while True:
            free = np.flatnonzero(~e.live)
            for i in free:
                if not queue:
                    break
                ep, p = queue.pop()
                e.load(int(i), p, ep)
            if not e.live.any() or (not drain and (~e.live).any()):
                return finished
            finished += _step(e, col, fail)

    for ep, p in prepared:
        e = engine(p.key)
        q = queues[p.key]
        q.append((ep, p))
        if len(q) >= n_tables:
            done += run(e, q, drain=False)
        if bar is not None:
            bar.update(done)
    for key, e in engines.items():
        done += run(e, queues[key], drain=True)
        if bar is not None:
            bar.update(done)
    return done


def _step(e: _Engine, col, fail) -> int:
    """One step of every live table; returns the hands that ended."""
    live = e.live.copy()
    e.act[~live] = -2                       # tables without a hand: left alone
    e.core.step(e.act, e.obs, e.scal, e.mask, e.seat, e.rew, e.status, 1)
    st = e.status
    finished = 0
    for i in np.flatnonzero(live & (st == ST["error"])):
        fail(e, int(i), "mjfast's engine refused an answer of the hand")
    ended = live & (st == ST["game_end"])
    for i in np.flatnonzero(ended):
        if e.ptr[i] != e.length[i]:
            fail(e, int(i), f"the hand ends on mjfast's engine after {e.ptr[i]} of its {e.length[i]} decisions")
        else:
            col.episode_rewards[int(e.episode[i])] = e.items[i].scores
            e.live[i] = False
            finished += 1
    between = live & (st == ST["hand_end"])
    e.act[between] = -1
    decide = live & (st == ST["decide"])
    if not decide.any():
        return finished
    e.core.hand_numbers(e.hand_no)
    rows = np.flatnonzero(decide)
    dummy = e.hand_no[rows] < e.first[rows]
    e.act[rows[dummy]] = A_WIN
    rows = rows[~dummy]
    if not len(rows):
        return finished
    ptr = e.ptr[rows]
    s_seat = e.s_seat[rows, ptr]
    s_act = e.s_act[rows, ptr]
    seat = e.seat[rows]
    claim_q = e.mask[rows, A_PASS].astype(bool)
    mine = s_seat == seat
    # a claim question: the script's action if it is this player's claim (or win), else pass
    take = mine & (~claim_q | e.s_claim[rows, ptr])
    act = np.where(take, s_act, A_PASS)
    bad = ~claim_q & ~mine
    legal = e.mask[rows, act].astype(bool)
    bad |= ~legal
    for j in np.flatnonzero(bad).tolist():
        r = int(rows[j])
        what = "the hand has no more decisions" if ptr[j] >= e.length[r] else (
            f"its decision {ptr[j]} (action id {s_act[j]} by player {s_seat[j]}) is not legal there")
        fail(e, r, f"mjfast's engine asks player {seat[j]} to {'claim' if claim_q[j] else 'play'}, but {what}")
        e.act[r] = -2
    ok = ~bad
    rows, act, take, claim_q, ptr = rows[ok], act[ok], take[ok], claim_q[ok], ptr[ok]
    e.act[rows] = act
    e.ptr[rows] += take
    # rows: more than one legal action, and not a pass the hand does not show (another claimed)
    choices = e.mask[rows].sum(axis=1) > 1
    shown = take | ~e.s_claim[rows, ptr]
    keep = rows[choices & shown]
    if len(keep):
        col.add(keep, e.obs, e.scal, e.mask, e.act, e.seat, e.episode.astype(np.uint64), e.hand_no, e.episode)
    return finished


def _numbered(hands: Iterable, skipped: list) -> Iterator:
    for ep, h in enumerate(hands):
        if not isinstance(h, Hand):
            raise TypeError(f"expected Botzone Hands (mjfast.botzone.read_logs), got {type(h).__name__}")
        why = unsupported(h)
        if why:
            skipped.append((ep, _where_of(h), "; ".join(why)))
            continue
        try:
            yield ep, prepare(h)
        except ValueError as exc:
            skipped.append((ep, _where_of(h), str(exc)))


def _where_of(h: Hand) -> str:
    from ._judge import _where
    return _where(h)


def decisions(hands, *, n_tables: int = 256, derived: bool = False, privileged: bool = False,
              errors: str = "skip", progress: bool = True):
    """Every decision Botzone hands show, as training arrays (``cn-v0``).

    Parameters
    ----------
    hands : path, file object, or iterable of Hand
        Botzone logs (read with :func:`read_logs`) or the hands it yields.
    n_tables : int
        Hands played side by side.
    derived, privileged : bool
        As for :class:`mjfast.env.VecTables`.
    errors : {"skip", "raise"}
        A hand mjfast cannot play again (a penalty ending, a win on the dealer's first draw,
        a hand that contradicts itself): left out and listed in ``skipped``, or ValueError.
    progress : bool

    Returns
    -------
    Decisions
        As :func:`mjfast.env.decisions` returns them: ``game_id`` is the hand's position in
        the input, ``seat`` the Botzone player, ``reward`` the player's score in the hand.
        ``hand_number`` is the engine's (4 x the prevalent wind: see :mod:`._table`). The hands
        left out are in its ``skipped`` attribute: (position, where, why). The observation is
        mjfast's table's: one wall (its tiles left are not the judge's four walls).

    Examples
    --------
    >>> import io, mjfast
    >>> from mjfast.botzone import decisions, write_logs
    >>> buf = io.StringIO()
    >>> _ = write_logs(mjfast.replay(0, 1, rules="mcr", flowers=False), buf)
    >>> d = decisions(io.StringIO(buf.getvalue()), progress=False)
    >>> d.observation.shape[1:], bool(d.action_mask[range(len(d)), d.action].all()), d.skipped
    ((48, 34), True, [])
    """
    from ..env._decisions import _Collector
    from ._logs import read_logs

    if errors not in ("skip", "raise"):
        raise ValueError(f"errors must be 'skip' or 'raise', got {errors!r}")
    if isinstance(n_tables, bool) or not isinstance(n_tables, int) or n_tables < 1:
        raise ValueError(f"n_tables must be a positive integer, got {n_tables!r}")
    if isinstance(hands, Hand):
        hands = [hands]
    elif not isinstance(hands, Iterable) or isinstance(hands, (str, bytes)) or hasattr(hands, "read"):
        hands = read_logs(hands, progress=progress)
    skipped: list = []
    failures: list | None = skipped if errors == "skip" else None
    probe = _chinese.VEC(_rules.get("mcr").kernel(), 1, False, bool(derived), bool(privileged))
    col = _Collector(probe.n_planes, probe.n_scalars, 4096, probe.kinds, probe.n_actions)
    numbered = _numbered(hands, skipped)
    if errors == "raise":
        numbered = _raising(numbered, skipped)
    play(numbered, col, n_tables=n_tables, derived=derived, privileged=privileged, failures=failures)
    out = col.result("cn-v0")
    object.__setattr__(out, "skipped", sorted(skipped))
    return out


def _raising(numbered: Iterator, skipped: list) -> Iterator:
    for item in numbered:
        if skipped:
            raise ValueError(f"{skipped[0][1]}: {skipped[0][2]}")
        yield item
    if skipped:
        raise ValueError(f"{skipped[0][1]}: {skipped[0][2]}")
