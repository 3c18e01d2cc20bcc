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
import itertools
from collections.abc import Iterable, Iterator

import numpy as np

from .. import _core
from .. import rules as _rules
from .._runtime.progress import Progress
from ..env._collect import Collector
from ..game import chinese as _chinese
from . import _tiles
from ._hand import ANGANG, BUGANG, BUHUA, CHI, DRAW, GANG, HU, PENG, PLAY, Hand
from ._judge import _flowers, _last_tile, _where, unsupported
from ._table import A_CHOW, A_KONG, A_OWN_KONG, A_PUNG, A_WIN, Layout, ScriptError
from ._tiles import KIND_OF

MAX_SCRIPT = 512                 # decisions of one hand at most (a Botzone hand has far fewer)
CLAIMS = (CHI, PENG, GANG)


@dataclasses.dataclass
class Prepared:
    """A hand ready for the engine: its wall, its script and where it is from."""

    key: tuple                   # (n_tiles, dead_wall): hands of one key share an engine
    wall: bytes                  # (n_tiles,) tile ids: the wall of the engine's hand 4 * quan
    quan: int                    # the prevalent wind (the engine's hand number is 4 * quan)
    seat: list                   # the player of each scripted decision
    action: list                 # its action id
    claim: list                  # a claim on a discard (others' passes then not shown)
    scores: np.ndarray           # (4,) float32: each player's score change
    where: str


def prepare(hand: Hand) -> Prepared:
    """The hand's wall and script; ValueError when it cannot be played on mjfast's engine."""
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
    kind_of = KIND_OF
    for i, a in enumerate(hand.actions):
        k = a.kind
        if k == PLAY:
            last = kind_of[a.tile]
            seats.append(a.player)
            acts.append(last)
            claims.append(False)
        elif k == DRAW or k == BUHUA:
            continue
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
    scores = np.asarray(hand.scores if hand.scores is not None else [0, 0, 0, 0], np.float32)
    return Prepared((n_tiles, dead), wall.tobytes(), hand.quan, seats, acts, claims, scores, _where(hand))


def _kind(name) -> int:
    return _tiles.kind(name)


class _Engine:
    """One table of the engine for hands of one key (the engine plays their scripts itself)."""

    def __init__(self, key: tuple, derived: bool, privileged: bool):
        n_tiles, dead = key
        r = _rules.get("mcr", flowers=n_tiles == 144)
        kern = r.kernel()
        kern["dead_wall"] = int(dead)
        _core.ensure_tables()
        self.core = _chinese.ENGINE.vec(kern, 1, False, bool(derived), bool(privileged))
        self.n_tiles = n_tiles


def _reserve(col, need: int) -> None:
    """Room in the collector for ``need`` more rows (its arrays double as they fill)."""
    cap = col.arrays["action"].shape[0]
    if col.m + need <= cap:
        return
    bigger = col._alloc(max(2 * cap, col.m + need))
    for name, arr in col.arrays.items():
        bigger[name][:col.m] = arr[:col.m]
    col.arrays = bigger


def _run(e: _Engine, batch: list, col, fail) -> int:
    """Play the prepared hands ``batch`` [(episode, Prepared)] on engine e into col; returns
    the hands that ended as they show."""
    n = len(batch)
    walls = np.frombuffer(b"".join(p.wall for _, p in batch), np.uint8).reshape(n, e.n_tiles)
    quan = np.fromiter((p.quan for _, p in batch), np.int32, n)
    lengths = np.fromiter((len(p.action) for _, p in batch), np.int64, n)
    starts = np.zeros(n + 1, np.int64)
    np.cumsum(lengths, out=starts[1:])
    s_seat = np.fromiter(itertools.chain.from_iterable(p.seat for _, p in batch), np.int8, int(starts[-1]))
    s_act = np.fromiter(itertools.chain.from_iterable(p.action for _, p in batch), np.int16, int(starts[-1]))
    s_claim = np.fromiter(itertools.chain.from_iterable(p.claim for _, p in batch), np.uint8, int(starts[-1]))
    episode = np.fromiter((ep for ep, _ in batch), np.int64, n)
    result = np.zeros((n, 5), np.int32)
    j = 0
    while j < n:
        # (rows: about 1.2 per scripted decision; the engine stops before a hand whose bound,
        # 4 per scripted decision + 8, does not fit, and the arrays grow)
        _reserve(col, int(lengths[j:].sum()) * 3 // 2 + 4 * int(lengths[j:].max()) + 8)
        a = col.arrays
        j, col.m = e.core.play_scripts(walls, quan, starts, s_seat, s_act, s_claim, episode, j, a["observation"],
                                       a["scalars"], a["action_mask"].view(np.uint8), a["action"], a["seat"],
                                       a["hand_number"], a["game_id"], a["episode"], col.m, result)
    ended = 0
    for j, (ep, p) in enumerate(batch):
        code, ptr, seat, claim_q = (int(x) for x in result[j, :4])
        if code == 0:
            col.episode_rewards[ep] = p.scores
            ended += 1
            continue
        k = len(p.action)
        if code == 1:
            what = "the hand has no more decisions" if ptr >= k else (
                f"its decision {ptr} (action id {p.action[ptr]} by player {p.seat[ptr]}) is not legal there")
            why = f"mjfast's engine asks player {seat} to {'claim' if claim_q else 'play'}, but {what}"
        elif code == 2:
            why = f"the hand ends on mjfast's engine after {ptr} of its {k} decisions"
        else:
            why = "mjfast's engine refused an answer of the hand"
        fail(ep, p, why)
    return ended


def play(prepared: Iterable, col, *, n_tables: int = 256, derived: bool = False, privileged: bool = False,
         failures: list | None = None, bar: Progress | None = None) -> int:
    """Play prepared hands ``(episode, Prepared)`` into the collector ``col`` (rows of the
    decisions the hands show, in hand order; each finished hand's scores in
    ``col.episode_rewards``), ``n_tables`` hands of one key handed to the engine at a time.
    A hand the engine does not follow goes to ``failures`` (episode, where, why), or raises
    ValueError when ``failures`` is None. Returns the hands played."""
    engines: dict = {}
    queues: dict = {}
    done = 0

    def fail(ep: int, p: Prepared, why: str) -> None:
        if failures is None:
            raise ValueError(f"{p.where}: {why}")
        failures.append((ep, p.where, why))

    for ep, p in prepared:
        q = queues.get(p.key)
        if q is None:
            engines[p.key] = _Engine(p.key, derived, privileged)
            q = queues[p.key] = []
        q.append((ep, p))
        if len(q) >= n_tables:
            done += _run(engines[p.key], q, col, fail)
            q.clear()
            if bar is not None:
                bar.update(done)
    for key, q in queues.items():
        if q:
            done += _run(engines[key], q, col, fail)
            q.clear()
    if bar is not None:
        bar.update(done)
    return done


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
    probe = _chinese.ENGINE.vec(_rules.get("mcr").kernel(), 1, False, bool(derived), bool(privileged))
    col = Collector(probe.n_planes, probe.n_scalars, 4096, probe.kinds, probe.n_actions)
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
