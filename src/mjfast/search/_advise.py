"""advise: every legal action of one seat at one event of a game log, valued in worlds sampled
from that seat's view."""
from __future__ import annotations

import dataclasses
import math
import numbers
from typing import Any

import numpy as np

from .. import rules as _rules
from .. import tiles
from .._display import Display, Displayed, Table, frame
from .._kernels import engine as _engine
from .._runtime.seeding import root_key, seed_to_json
from ..game import encodings
from ..game.batch import EXTERNAL, ST, core_class, encoding_name
from ..game.log import GameLog, check_events, read_log
from ._common import AM_CHARLESTON, count_arg, phases
from ._evaluate import evaluate
from ._states import TableStates, save_rows

#: z of a two-sided 95 % interval
Z95 = 1.959963984540054
#: default worlds per action
DEFAULT_WORLDS = 256
#: decision points listed around an event that is not one
NEARBY = 3

CN_CHOW, CN_PUNG, CN_KONG, CN_OWN_KONG, CN_WIN, CN_PASS = 34, 37, 38, 39, 73, 74   # cn-v0 action ids
_AM_CHARLESTON_ASKS = tuple(_engine.ASK[k] for k in ("pass", "courtesy", "second_charleston", "courtesy_offer"))
_AM = {"call": 45, "win": 46, "pass": 47, "exchange": 48}


@dataclasses.dataclass(frozen=True)
class _Point:
    """One question of the replayed game: asked with ``event`` events logged (its answer is
    that event, or a pass that leaves the next event to someone else)."""

    event: int
    seat: int
    what: int
    tile: int
    action: int          # the answer read from the log
    known: bool          # whether the log shows that answer
    charleston: bool
    hand: int
    names: dict          # action id -> name, for the legal actions
    hand_tiles: str
    state: TableStates | None = None


@dataclasses.dataclass(frozen=True, repr=False)
class Advice(Displayed):
    """What :func:`advise` returns: every legal action of one seat at one event of a game,
    best first, valued by rollouts in worlds sampled from that seat's view.

    Attributes
    ----------
    rules : str
        The log's rule set.
    event : int
        The event index the advice is for (the seat's question is asked with ``event``
        events logged: its answer is that event, or a pass).
    hand : int
        The hand of the game (0 first).
    seat : int
        The deciding seat.
    question : str
        What the seat is asked: ``"discard"``, ``"own turn"`` (discard, kong or self-drawn
        win), ``"claim 5p"`` (a discard it may take), ``"call 5p"`` (American), ``"ready"``.
    hand_tiles : str
        The seat's concealed tiles in tile notation.
    played : str or None
        The action the log shows the seat took, by name; None when the log does not reveal it
        (a claim answer outranked by another seat's claim).
    actions : list of str
        The legal actions by name (``"discard 5p"``, ``"pung 7z"``, ``"chow 345m"``,
        ``"kong 5m"``, ``"win"``, ``"pass"``, American ``"call 5p"``, ``"joker exchange 3s"``),
        best expected points first.
    action_ids : ndarray (m,) int64
        The same actions as ids of the rule family's action encoding.
    points, points_se : ndarray (m,) float64
        Expected score change of the seat to the end of the hand, and its standard error.
    points_low, points_high : ndarray (m,) float64
        Its 95 % interval (mean ± 1.96 standard errors).
    p_win, p_deal_in : ndarray (m,) float64
        Probability that the seat wins the hand / deals in (discards the winning tile).
    p_win_low, p_win_high, p_deal_in_low, p_deal_in_high : ndarray (m,) float64
        Their 95 % intervals (Wilson score intervals over the worlds: they hold the estimate,
        stay within [0, 1] and are not empty when every world agrees).
    is_played : ndarray (m,) bool
        True on the row of the action played in the log.
    worlds : int
        Worlds per action (every action is played in the same worlds with the same random
        streams, so differences between rows are measured paired).
    seed : int, dict or None
        The seed (JSON form) that repeats the advice.
    policies : list of str
        The built-in policies that played every seat after the action.
    samples : ndarray (m, worlds) float64
        The seat's score change in each world after each action (rows as :attr:`actions`).
    """

    rules: str
    event: int
    hand: int
    seat: int
    question: str
    hand_tiles: str
    played: str | None
    actions: list
    action_ids: np.ndarray
    points: np.ndarray
    points_se: np.ndarray
    points_low: np.ndarray
    points_high: np.ndarray
    p_win: np.ndarray
    p_win_low: np.ndarray
    p_win_high: np.ndarray
    p_deal_in: np.ndarray
    p_deal_in_low: np.ndarray
    p_deal_in_high: np.ndarray
    is_played: np.ndarray
    worlds: int
    seed: Any
    policies: list
    samples: np.ndarray

    def __len__(self) -> int:
        return len(self.actions)

    def best(self) -> str:
        """The name of the action with the highest expected points."""
        return str(self.actions[0])

    def _rows(self) -> list:
        return [{"action": self.actions[i], "action_id": int(self.action_ids[i]), "played": bool(self.is_played[i]),
                 "points": _num(self.points[i]), "points_low": _num(self.points_low[i]),
                 "points_high": _num(self.points_high[i]), "points_se": _num(self.points_se[i]),
                 "p_win": _num(self.p_win[i]), "p_win_low": _num(self.p_win_low[i]),
                 "p_win_high": _num(self.p_win_high[i]), "p_deal_in": _num(self.p_deal_in[i]),
                 "p_deal_in_low": _num(self.p_deal_in_low[i]), "p_deal_in_high": _num(self.p_deal_in_high[i])}
                for i in range(len(self))]

    def _facts(self) -> dict:
        return {"rules": self.rules, "event": self.event, "hand": self.hand, "seat": self.seat,
                "question": self.question, "hand_tiles": self.hand_tiles, "played": self.played,
                "worlds": self.worlds, "seed": self.seed, "policies": list(self.policies)}

    def to_dict(self) -> dict:
        """The advice as JSON-ready data (no NaN): the facts (``rules``, ``event``, ``hand``,
        ``seat``, ``question``, ``hand_tiles``, ``played``, ``worlds``, ``seed``, ``policies``)
        and ``actions``, one dict per row, best first: ``action`` (name), ``action_id``,
        ``played`` (bool), ``points``, ``points_low``, ``points_high``, ``points_se``,
        ``p_win``, ``p_win_low``, ``p_win_high``, ``p_deal_in``, ``p_deal_in_low``,
        ``p_deal_in_high``."""
        return {**self._facts(), "actions": self._rows()}

    def to_pandas(self):
        """The rows as a pandas DataFrame (best first; the facts in ``df.attrs``). Needs
        pandas."""
        rows = self._rows()
        cols = list(rows[0]) if rows else ["action"]
        return frame(cols, rows, what="Advice.to_pandas()", attrs=self._facts())

    def _display(self) -> Display:
        title = (f"Advice: rules={self.rules}, event {self.event} (hand {self.hand}), seat {self.seat}, "
                 f"{self.question}; hand {self.hand_tiles}")
        rows = [(("* " if self.is_played[i] else "  ") + self.actions[i], round(float(self.points[i]), 2),
                 f"[{_f(self.points_low[i])}, {_f(self.points_high[i])}]", round(float(self.p_win[i]), 3),
                 f"[{_f(self.p_win_low[i], 3)}, {_f(self.p_win_high[i], 3)}]", round(float(self.p_deal_in[i]), 3),
                 f"[{_f(self.p_deal_in_low[i], 3)}, {_f(self.p_deal_in_high[i], 3)}]")
                for i in range(len(self))]
        played = (f"* played in the log: {self.played}" if self.played is not None
                  else "the log does not show this seat's answer (another seat's claim took the tile)")
        notes = [played, f"{self.worlds:,} worlds sampled from seat {self.seat}'s view, the same for every action; "
                 f"then {', '.join(_uniq(self.policies))} to the end of the hand; 95 % intervals"]
        return Display(title, [Table(("action", "points", "95 % interval", "P(win)", "95 % interval",
                                      "P(deal-in)", "95 % interval"), rows)], notes)


def _num(v) -> float | None:
    x = float(v)
    return x if math.isfinite(x) else None


def _f(v, digits: int = 2) -> str:
    return f"{float(v):+.{digits}f}" if digits == 2 else f"{float(v):.{digits}f}"


def _uniq(xs) -> list:
    out: list = []
    for x in xs:
        if x not in out:
            out.append(x)
    return out


def _wilson(p: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * np.sqrt(np.maximum(p * (1 - p), 0.0) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return np.clip(np.minimum(centre - half, p), 0.0, 1.0), np.clip(np.maximum(centre + half, p), 0.0, 1.0)


# ---------------------------------------------------------------------------------------------
# rebuilding the game at an event

def _action_names(fam: str, what: int, tile: int, legal: np.ndarray) -> dict:
    """Names in tile notation of the legal actions of a question (``tile``: the claimed kind)."""
    ask = _engine.ASK
    out = {}
    for a in np.flatnonzero(legal).tolist():
        if fam == "chinese":
            if a < 34:
                name = f"discard {tiles.tile_name(a)}"
            elif CN_CHOW <= a < CN_CHOW + 3:
                low = tile - (a - CN_CHOW)
                name = "chow " + "".join(str(k % 9 + 1) for k in range(low, low + 3)) + "mps"[low // 9]
            elif a == CN_PUNG:
                name = f"pung {tiles.tile_name(tile)}"
            elif a == CN_KONG:
                name = f"kong {tiles.tile_name(tile)}"
            elif CN_OWN_KONG <= a < CN_OWN_KONG + 34:
                name = f"kong {tiles.tile_name(a - CN_OWN_KONG)}"
            elif a == CN_WIN:
                name = "win"
            elif a == CN_PASS:
                name = "pass"
            else:
                name = "declare ready"
        else:
            if a < 36 and what != ask["pass"]:
                name = f"discard {tiles.american_kind_name(a)}"
            elif a == _AM["call"]:
                name = f"call {tiles.american_kind_name(tile)}"
            elif a == _AM["win"]:
                name = "win"
            elif a == _AM["pass"]:
                name = "pass"
            elif a >= _AM["exchange"]:
                name = f"joker exchange {tiles.american_kind_name(a - _AM['exchange'])}"
            else:
                name = encodings.get("am-v0").action_names[a]
        out[a] = name
    return out


def _question(fam: str, what: int, tile: int) -> str:
    ask = _engine.ASK
    if what == ask["discard"]:
        return "discard"
    if what == ask["own_turn"]:
        return "own turn"
    if what == ask["ready"]:
        return "ready"
    if what == ask["claim"]:
        return f"{'claim' if fam == 'chinese' else 'call'} {tiles.american_kind_name(tile)}"
    return {v: k for k, v in ask.items()}.get(what, str(what)).replace("_", " ")


def _hand_text(fam: str, obs: np.ndarray) -> str:
    planes = 4 if fam == "chinese" else 8
    counts = obs[:planes].sum(axis=0).astype(np.int64)
    text = tiles.format_hand(counts[:34]) if counts[:34].any() else ""
    if fam == "american":
        text += "f" * int(counts[34]) + "j" * int(counts[35])
    return text


def _replay(log: GameLog, g, event: int) -> list:
    """Play the logged game on its walls with the log's answers, checking every event the
    engine logs against the log; the questions (with the table's state at those asked with
    ``event`` events logged) up to a few past ``event``."""
    from ..env._decisions import check_events, encode_events

    fam = g.rules.family
    enc = encodings.get(encoding_name(fam))
    ev_codes = {v: k for k, v in _engine.EVENTS.items()}
    try:
        target = encode_events(log.events, ev_codes)
    except ValueError as exc:
        raise ValueError(f"advise: {exc}") from None
    read = _rules.FAMILIES[fam].log_reader
    core = core_class(fam)(g.rules.kernel(), 1, True, False, False)
    core.set_log(0, len(target) + 16)
    d = g.dice if g.dice is not None else np.zeros((g.walls.shape[0], 2), np.int32)
    core.start(np.zeros(1, np.int64), np.array([g.game_index or 0], np.uint64), g.k0, g.k1,
               np.full((1, 4), EXTERNAL, np.intc), True, g.walls, d)
    obs = np.zeros((1, core.n_planes, enc.kinds), np.uint8)
    scal = np.zeros((1, core.n_scalars), np.float32)
    mask = np.zeros((1, enc.n_actions), np.uint8)
    seat = np.zeros(1, np.int8)
    rew = np.zeros((1, 4), np.float32)
    status = np.zeros(1, np.uint8)
    hand = np.zeros(1, np.int32)
    act = np.full(1, -1, np.int64)
    points: list[_Point] = []
    checked = 0
    after = 0
    while True:
        core.step(act, obs, scal, mask, seat, rew, status, 1)
        st = int(status[0])
        if st == ST["game_end"]:
            break
        if st == ST["hand_end"]:
            act[0] = -1
            continue
        if st != ST["decide"]:
            raise ValueError(f"advise: the engine stopped (status {st}); the log does not match its rules")
        try:
            checked = check_events(core, target, checked, log.events, 0)
        except ValueError as exc:
            raise ValueError(f"advise: the log does not match the game its header plays: "
                             f"{str(exc).removeprefix('log 0: ')}") from None
        s, what, tile, _ = core.request(0)
        if checked > event:
            after += not (fam == "american" and what in _AM_CHARLESTON_ASKS)
            if after > NEARBY:
                break
        a, known = read(core, what, _engine.ASK, s, tile, mask[0], target, checked, ev_codes, 0)
        if a is None or not mask[0, a]:
            raise ValueError(f"advise: cannot read seat {s}'s answer at event {checked} from the log")
        core.hand_numbers(hand)
        state = None
        charleston = False
        if checked == event:
            state = save_rows(g.rules, core, np.zeros(1, np.int64))
            charleston = fam == "american" and bool(np.isin(phases(state), AM_CHARLESTON)[0])
        elif fam == "american":
            charleston = what in _AM_CHARLESTON_ASKS
        points.append(_Point(checked, int(s), int(what), int(tile), int(a), bool(known), charleston, int(hand[0]),
                             _action_names(fam, int(what), int(tile), mask[0].astype(bool)), _hand_text(fam, obs[0]),
                             state))
        act[0] = a
    return points


def _nearby(points: list, event: int) -> str:
    pts = sorted({p.event for p in points if not p.charleston})
    if not pts:
        return "the log has no decision points"
    before = [e for e in pts if e < event][-NEARBY:]
    later = [e for e in pts if e > event][:NEARBY]
    near = before + later
    return "decision points near it: " + ", ".join(map(str, near))


def _event_arg(event, n_events: int) -> int:
    if isinstance(event, bool) or not isinstance(event, numbers.Integral):
        raise TypeError(f"advise: event must be an event index (an int), not {type(event).__name__}")
    event = int(event)
    if n_events == 0:
        raise ValueError("advise: the log holds no events (its header only); there is no position to advise on")
    if not 0 <= event < n_events:
        raise ValueError(f"advise: event {event} is out of range: the log has {n_events:,} events "
                         f"(0 to {n_events - 1:,})")
    return event


def _describe(e: dict) -> str:
    t = e.get("type")
    bits = [f"{t!s}"]
    if "seat" in e:
        bits.append(f"seat {e['seat']}")
    if "tile" in e:
        bits.append(str(e["tile"]))
    return " ".join(bits)


def advise(log, event, *, seat=None, worlds: int = DEFAULT_WORLDS, seed, policies="greedy",
           threads: int | None = None) -> Advice:
    """Every legal action of a seat at one event of a game log: expected points, P(win) and
    P(deal-in), with 95 % intervals, from rollouts in worlds sampled from that seat's view.

    The table is rebuilt as the engine had it: the game its header describes is played on the
    log's own walls and dice, every question answered as the log shows (each event the engine
    logs is checked against the log). At the question asked with ``event`` events logged (its
    answer is event ``event``, or a pass), the table's state is saved and what the seat could
    not see (the other seats' concealed tiles, the order of the live and dead walls) is redrawn
    ``worlds`` times (:func:`mjfast.search.sample_worlds`): the real hidden tiles never reach
    the evaluation, so the advice depends only on what the seat saw. Every legal action is then
    played in every world, and ``policies`` play the hand out (:func:`mjfast.search.evaluate`).

    Parameters
    ----------
    log : GameLog, str or os.PathLike
        A game log as :func:`mjfast.rerun` reads it: a :class:`mjfast.GameLog`, its JSON-lines
        text (or a list of its lines), or the path of a file holding it. Every rule set
        (classical, basic, mcr, american, American with a card).
    event : int
        The event index (0: the first event after the header): a decision point, the index of
        the event that answers a seat's question (a discard, a claim, a kong, a win), or of the
        event that follows a claim window a seat passed.
    seat : int or None
        The seat to advise when several seats are asked at that event (a claim window); None:
        the seat of event ``event`` when it was asked there, else the first seat asked.
    worlds : int
        Worlds sampled (each action is played in every one of them).
    seed : seed-like
        The worlds and the rollouts' random streams: the advice is a pure function of (what the
        seat saw, worlds, seed, policies), whatever the thread count.
    policies : str or list of 4 str
        The built-in policies that play every seat after the action (the advised seat too).
    threads : int or None
        Threads of the rollouts (None: all CPUs).

    Returns
    -------
    Advice
        One row per legal action, best first; the action played in the log is marked.

    Raises
    ------
    ValueError
        A log that is not a log, does not match the game its header plays, or an event index
        out of range or not a decision point (the message names the decision points near it);
        a seat that has no decision there; an American event in the Charleston (advice starts
        at the first discard); ``worlds < 1``.

    Examples
    --------
    >>> import mjfast
    >>> from mjfast.search import advise
    >>> log = mjfast.replay(1, 0, rules="mcr")
    >>> first = next(i for i, e in enumerate(log.events) if e["type"] == "discard")
    >>> adv = advise(log, first, worlds=16, seed=1)
    >>> adv.seat, adv.question, adv.played
    (0, 'discard', 'discard 3z')
    >>> "discard 3z" in adv.actions and bool((adv.points_low <= adv.points).all())
    True
    >>> advise(log, 0, seed=1)
    Traceback (most recent call last):
    ...
    ValueError: advise: event 0 (hand seat 0) is not a decision point; decision points near it: 56, 58, 60
    """
    where = "advise"
    from ..game.runner import logged_game

    log = read_log(log, where)
    w = count_arg(worlds, "worlds", where)
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, numbers.Integral)):
        raise TypeError(f"{where}: seat must be a seat 0-3 (an int) or None, not {type(seat).__name__}")
    if seat is not None and not 0 <= int(seat) <= 3:
        raise ValueError(f"{where}: seats are 0-3; got {seat}")
    g = logged_game(log, None, where, cards=True)
    check_events(log.events, g.walls.shape[0])
    event = _event_arg(event, len(log.events))
    points = _replay(log, g, event)
    here = [p for p in points if p.event == event]
    what_is = _describe(log.events[event])
    if not here:
        raise ValueError(f"{where}: event {event} ({what_is}) is not a decision point; {_nearby(points, event)}")
    asked = [p.seat for p in here]
    if seat is None:
        own = log.events[event].get("seat")
        pick = next((p for p in here if p.seat == own), here[0])
    else:
        pick = next((p for p in here if p.seat == seat), None)
        if pick is None:
            raise ValueError(f"{where}: seat {seat} has no decision at event {event} ({what_is}); "
                             f"seat{'s' if len(asked) > 1 else ''} {', '.join(map(str, asked))} "
                             f"{'are' if len(asked) > 1 else 'is'} asked there")
    if pick.charleston:
        raise ValueError(f"{where}: event {event} ({what_is}) is in the Charleston; advice is given from the first "
                         f"discard on (the passes' hidden tiles are not modelled); {_nearby(points, event)}")
    state = pick.state
    assert state is not None
    sv = root_key(seed).seed_value()       # (fresh entropy from seed=None: drawn once, and reported)
    vals = evaluate(state, worlds=w, policies=policies, seed=seed if sv is None else sv, threads=threads)
    order = sorted(range(len(vals)), key=lambda i: (-float(vals.points[i]), int(vals.action[i])))
    idx = np.array(order, np.int64)
    act = vals.action[idx]
    pts, se = vals.points[idx], vals.points_se[idx]
    pw, pd_ = vals.p_win[idx], vals.p_deal_in[idx]
    pw_lo, pw_hi = _wilson(pw, w)
    pd_lo, pd_hi = _wilson(pd_, w)
    played = pick.names.get(pick.action) if pick.known else None
    pols = [policies] * 4 if isinstance(policies, str) else list(policies)
    return Advice(rules=g.rules.name, event=event, hand=pick.hand, seat=pick.seat,
                  question=_question(g.rules.family, pick.what, pick.tile), hand_tiles=pick.hand_tiles,
                  played=played, actions=[pick.names[int(a)] for a in act], action_ids=act.astype(np.int64),
                  points=pts, points_se=se, points_low=pts - Z95 * se, points_high=pts + Z95 * se,
                  p_win=pw, p_win_low=pw_lo, p_win_high=pw_hi, p_deal_in=pd_, p_deal_in_low=pd_lo,
                  p_deal_in_high=pd_hi, is_played=(act == pick.action) & pick.known, worlds=w,
                  seed=seed_to_json(sv), policies=pols, samples=vals.samples[idx])
