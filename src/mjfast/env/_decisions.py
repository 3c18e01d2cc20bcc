"""Teacher data: the decisions built-in policies take, or the decisions logged games show, as
arrays of (observation, mask, action, seat, reward)."""
from __future__ import annotations

import functools
import numbers
import time
from collections.abc import Iterable

import numpy as np

from .. import _core
from .. import rules as _rules
from .._runtime.progress import Progress, attach_partial
from .._runtime.seeding import root_key
from .._runtime.threads import resolve_threads
from .._runtime.validation import check_games
from ..game import encodings
from ..game.batch import EXTERNAL, ST, builtin_policies, core_class, encoding_name
from ..game.log import GameLog
from ..game.policy import SEARCH, search_layer
from ._collect import FIRST_ROWS, Collector, Decisions
from ._threads import StepThreads


def _is_botzone_input(games) -> bool:
    """Botzone hands (mjfast.botzone.read_logs: its generator, a Hand, or a list of Hands)."""
    import types

    from ..botzone._hand import Hand
    if isinstance(games, (Hand, types.GeneratorType)):
        return True
    return isinstance(games, (list, tuple)) and len(games) > 0 and all(isinstance(g, Hand) for g in games)


def _is_log_input(games) -> bool:
    if isinstance(games, (GameLog, str)):
        return True
    return isinstance(games, (list, tuple)) and len(games) > 0 and all(isinstance(g, (GameLog, str)) for g in games)


def decisions(games, *, rules: str | _rules.RuleSet = "classical", policies="greedy", seed=None,
              episode: str = "hand", threads: int | None = None, skip_forced: bool = True, derived: bool = False,
              privileged: bool = False, n_tables: int = 1024, progress: bool = True, **rule_options) -> Decisions:
    """Every decision the given built-in policies take in ``games`` games, as arrays; or every
    decision a game log shows.

    The games are those :func:`mjfast.simulate` plays with the same seed (game g here is
    game g there, and :func:`mjfast.replay` rebuilds it). The questions and the encoding are
    :class:`VecTables`' (every seat with a claim answers in turn after a discard; questions
    with one legal action are skipped unless ``skip_forced=False``).

    Parameters
    ----------
    games : int, or GameLog / JSON-lines text / a list of them, or Botzone hands
        Games to play, or logs of one rule family to read (then ``rules``, ``policies`` and
        ``seed`` come from the logs' headers). Botzone hands (what
        :func:`mjfast.botzone.read_logs` yields: the generator itself, a Hand or a list of them)
        go to :func:`mjfast.botzone.decisions`. From a log, a decision the log does not reveal
        is left out: a claim answer outranked by another seat's claim, and an American vote for
        the second Charleston when it was danced (the log holds only the outcome). An American
        log holding a false Mahjong raises ValueError (am-v0 cannot express it).
    rules : str or RuleSet
    policies : str or list of 4 str
        Built-in policies ("greedy", "defensive", "random"), one for all seats or per seat;
        ``"search"`` seats are played and labelled by a default
        :class:`mjfast.search.SearchPolicy` (search-labelled teacher data; much slower).
    seed : seed-like
    episode : {"hand", "game"}
        What ``reward`` sums over.
    threads : int or None
        As for :class:`VecTables` (None: one thread or all CPUs, whichever the steps measure
        faster; an int: at most that many, one per 64 tables).
    skip_forced, derived, privileged : bool
        As for :class:`VecTables`.
    n_tables : int
        Games played side by side (memory: about 2 kB per table).
    progress : bool
        Progress bar for long runs; Ctrl-C returns what was finished in ``exc.partial``.

    Returns
    -------
    Decisions

    Examples
    --------
    >>> from mjfast.env import decisions
    >>> d = decisions(2, rules="classical", policies="greedy", seed=1, progress=False)
    >>> d.observation.shape[1:], bool(d.action_mask[range(len(d)), d.action].all())
    ((48, 34), True)
    """
    if _is_botzone_input(games):
        from ..botzone._decisions import decisions as _botzone_decisions
        return _botzone_decisions(games, derived=derived, privileged=privileged, progress=progress)
    if _is_log_input(games):
        return _from_logs(games, episode=episode, skip_forced=skip_forced, derived=derived, privileged=privileged)
    r = _rules.get(rules, **rule_options)
    fam = r.family
    builtin = builtin_policies(fam)
    pols = [policies] * 4 if isinstance(policies, str) else list(policies)
    if len(pols) != 4 or not all(isinstance(p, str) and (p in builtin or p == SEARCH) for p in pols):
        raise ValueError(f"policies must be built-in policy names ({', '.join(builtin)}) or 'search', one or a list "
                         f"of 4; got {policies!r}")
    search = None          # issue 27: "search" seats are labelled (and played) by a SearchPolicy
    if SEARCH in pols:
        search = (search_layer().SearchPolicy(), r, np.array([s for s in range(4) if pols[s] == SEARCH], np.int8))
        pols = [search[0].rollout_policy if p == SEARCH else p for p in pols]
    if episode not in ("hand", "game"):
        raise ValueError(f"episode must be 'hand' or 'game'; got {episode!r}")
    n_games = check_games(games, "games")
    n_tables = check_games(n_tables, "n_tables")
    if n_tables < 1:
        raise ValueError("n_tables must be at least 1")
    adaptive = threads is None
    threads = resolve_threads(threads)
    key = root_key(seed)
    _core.ensure_tables()
    n = max(1, min(n_games, n_tables))
    codes = np.array([builtin[p] for p in pols], np.intc)
    core = core_class(fam)(r.kernel(), n, bool(skip_forced), bool(derived), bool(privileged))
    core.set_teacher(np.tile(codes, (n, 1)))
    enc = encodings.get(encoding_name(fam))
    col = Collector(core.n_planes, core.n_scalars, min(FIRST_ROWS, 256 * n_games), enc.kinds, enc.n_actions)
    if n_games == 0:
        return col.result(enc.name)
    bar = Progress(n_games, label=f"decisions {r.name}", unit="games", enabled=bool(progress))
    try:
        _play(core, n, n_games, key, codes, episode, StepThreads(threads, n, adaptive, per_thread=64), col, bar,
              search)
    except KeyboardInterrupt as exc:
        bar.close()
        attach_partial(exc, col.result(enc.name))
        raise
    bar.close()
    return col.result(enc.name)


def _play(core, n, n_games, key, codes, episode, stepping, col, bar, search=None) -> None:
    obs = np.zeros((n, core.n_planes, col.kinds), np.uint8)
    scal = np.zeros((n, core.n_scalars), np.float32)
    mask = np.zeros((n, col.n_actions), np.uint8)
    seat = np.zeros(n, np.int8)
    rew = np.zeros((n, 4), np.float32)
    status = np.zeros(n, np.uint8)
    hand = np.zeros(n, np.int32)
    acts = np.zeros(n, np.int64)
    ext = np.full((n, 4), EXTERNAL, np.intc)
    teacher = np.tile(codes, (n, 1)).astype(np.intc)
    rows = np.arange(n, dtype=np.int64)
    gid = rows.astype(np.uint64)
    core.start(rows, gid, key.k0, key.k1, ext, episode == "hand")
    next_game = n
    active = np.ones(n, bool)
    ep = rows.copy()                     # each table's current episode
    ep_rew = np.zeros((n, 4), np.float32)
    n_eps = n
    finished = 0
    acts[:] = -1
    ep_final: dict = col.episode_rewards
    while active.any():
        step_threads = stepping.next()
        t0 = time.perf_counter()
        core.step(acts, obs, scal, mask, seat, rew, status, step_threads)
        stepping.record(step_threads, time.perf_counter() - t0)
        ep_rew += rew
        dec = active & (status == ST["decide"])
        end = active & ((status == ST["hand_end"]) | (status == ST["game_end"]))
        if end.any():
            for t in np.flatnonzero(end):
                ep_final[int(ep[t])] = ep_rew[t].copy()
                ep_rew[t] = 0
                ep[t] = n_eps
                n_eps += 1
            over = np.flatnonzero(active & (status == ST["game_end"]))
            finished += over.size
            bar.update(finished)
            if over.size:
                take = over[: max(0, min(over.size, n_games - next_game))]
                if take.size:
                    gi = np.arange(next_game, next_game + take.size, dtype=np.uint64)
                    next_game += take.size
                    core.start(take.astype(np.int64), gi, key.k0, key.k1, np.ascontiguousarray(ext[take]),
                               episode == "hand")
                    gid[take] = gi
                active[over[take.size:]] = False
        core.expert(teacher, acts, stepping.current)
        if search is not None and dec.any():
            pol, rules, seats = search
            sel = np.flatnonzero(dec & np.isin(seat, seats))
            if sel.size:
                from ..search._states import save_rows
                acts[sel] = pol.act(obs[sel], mask[sel].view(bool), seat[sel], states=save_rows(rules, core, sel))
        if dec.any():
            core.hand_numbers(hand)
            idx = np.flatnonzero(dec) if not dec.all() else slice(None)
            col.add(idx, obs, scal, mask, acts, seat, gid, hand, ep)
        acts[~dec] = -1
        acts[~active] = -2
    col.episode_rewards = ep_final


# ------------------------------------------------------------------------------------------
# from game logs

def _logs(games) -> list:
    if isinstance(games, (GameLog, str)):
        games = [games]
    out = []
    for i, g in enumerate(games):
        try:
            out.append(GameLog.from_jsonl(g) if isinstance(g, str) else g)
        except RecursionError:
            raise ValueError(f"decisions(): log {i} holds a JSON value nested too deeply to be an event") from None
    return out


def _from_logs(games, *, episode, skip_forced, derived, privileged) -> Decisions:
    from ..game.runner import logged_game

    col: Collector | None = None
    enc = "cn-v0"
    core = None
    eps = 0
    finals: dict = {}
    for gi, log in enumerate(_logs(games)):
        _check_header_dice(log, gi)
        g = logged_game(log, None, "decisions", cards=True)
        fam = g.rules.family
        e = encodings.get(encoding_name(fam))
        if col is not None and e.name != enc:
            raise ValueError(f"decisions(): log {gi} is {e.name} ({g.rules.name}), the ones before it {enc}; "
                             "give logs of one rule family")
        enc = e.name
        core = core_class(fam)(g.rules.kernel(), 1, bool(skip_forced), bool(derived), bool(privileged))
        if col is None:
            col = Collector(core.n_planes, core.n_scalars, 4096, e.kinds, e.n_actions)
            finals = col.episode_rewards
        eps = _replay_log(core, g, log, gi, episode, col, eps, finals, e)
    if col is None:
        raise ValueError("decisions(): no logs given")
    return col.result(enc)


def _check_header_dice(log, gi: int) -> None:
    """The header's dice are integers (a float such as 2.5 would be read as 2)."""
    dice = log.header.get("dice") if isinstance(log.header, dict) else None
    if isinstance(dice, list):
        for row in dice:
            vals = row if isinstance(row, list) else [row]
            if any(isinstance(x, bool) or not isinstance(x, numbers.Integral) for x in vals):
                raise ValueError(f"log {gi}: the header's 'dice' must be integer totals 2-12; got {row!r}")


def _replay_log(core, g, log, gi, episode, col, eps, finals, enc) -> int:
    """Play logged game g on its walls, answering each question with what the log shows; add
    the decisions the log reveals. Returns the episode counter."""
    from .._kernels import engine as _engine

    ask = _engine.ASK
    ev_codes = {v: k for k, v in _engine.EVENTS.items()}
    # the logged events, as engine rows (type, hand, seat, a, b)
    read = _rules.FAMILIES[enc.family].log_reader      # the family's reading of a log (game/log_answers.py)
    try:
        target = encode_events(log.events, ev_codes)
    except ValueError as exc:
        raise ValueError(f"log {gi}: {exc}") from None
    core.set_log(0, len(target) + 16)
    ext = np.full((1, 4), EXTERNAL, np.intc)
    d = g.dice if g.dice is not None else np.zeros((g.walls.shape[0], 2), np.int32)
    core.start(np.zeros(1, np.int64), np.array([g.game_index or 0], np.uint64), g.k0, g.k1, ext,
               episode == "hand", g.walls, d)
    obs = np.zeros((1, core.n_planes, enc.kinds), np.uint8)
    scal = np.zeros((1, core.n_scalars), np.float32)
    mask = np.zeros((1, enc.n_actions), np.uint8)
    seat = np.zeros(1, np.int8)
    rew = np.zeros((1, 4), np.float32)
    status = np.zeros(1, np.uint8)
    hand = np.zeros(1, np.int32)
    act = np.full(1, -1, np.int64)
    ep_rew = np.zeros(4, np.float32)
    gid = np.array([gi], np.uint64)
    checked = 0
    while True:
        core.step(act, obs, scal, mask, seat, rew, status, 1)
        ep_rew += rew[0]
        st = int(status[0])
        if st in (ST["hand_end"], ST["game_end"]):
            finals[eps] = ep_rew.copy()
            ep_rew[:] = 0
            eps += 1
            if st == ST["game_end"]:
                break
            act[0] = -1
            continue
        if st != ST["decide"]:
            raise ValueError(f"log {gi}: the engine stopped (status {st}); the log does not match its rules")
        checked = check_events(core, target, checked, log.events, gi)
        n_done = checked
        s, what, tile, options = core.request(0)
        a, known = read(core, what, ask, s, tile, mask[0], target, n_done, ev_codes, gi)
        if a is None or not mask[0, a]:
            raise ValueError(f"log {gi}: cannot read seat {s}'s decision at event {n_done} from the log")
        if known:
            core.hand_numbers(hand)
            act[0] = a
            col.add(slice(None), obs, scal, mask, act, seat, gid, hand, np.array([eps]))
        act[0] = a
    checked = check_events(core, target, checked, log.events, gi)   # the events after the last decision
    if len(target) > checked:
        raise ValueError(f"log {gi}: event {checked} ({log.events[checked].get('type')}) comes after the end of "
                         "the game its header plays")
    return eps


def check_events(core, target: list, checked: int, events: list, gi: int) -> int:
    """Compare the events the engine has logged since ``checked`` with the log's; returns the
    count checked. ValueError names the first that differs (or the log's end)."""
    n_done = core.n_events(0)
    if n_done <= checked:
        return checked
    played = core.events(0)[checked:n_done].tolist()
    if played != target[checked:n_done]:
        j = checked + next((i for i, (x, y) in enumerate(zip(played, target[checked:])) if x != y),
                           len(target) - checked)
        if j >= len(target):
            raise ValueError(f"log {gi}: the log ends at event {len(target)}; the game its header plays goes on")
        raise ValueError(f"log {gi}: event {j} ({events[j].get('type')}) differs from the game its header plays")
    return n_done


def _event_int(e: dict, i: int, field: str, optional: bool = False):
    """Field ``field`` of event i, an integer (not a bool, not a float holding one)."""
    if field not in e:
        if optional:
            return None
        raise ValueError(f"event {i} ({e['type']}): missing field {field!r}")
    v = e[field]
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        raise ValueError(f"event {i} ({e['type']}): {field!r} must be an integer; got {v!r}")
    return int(v)


def _event_field(e: dict, i: int, field: str, types: tuple, what: str):
    if field not in e:
        raise ValueError(f"event {i} ({e['type']}): missing field {field!r}")
    v = e[field]
    if not isinstance(v, types):
        raise ValueError(f"event {i} ({e['type']}): {field!r} must be {what}; got {v!r}")
    return v


def _event_kind(e: dict, i: int, field: str) -> int:
    """Field ``field`` of event i, a tile name, as its kind (the standard names, and American
    flowers and jokers)."""
    from .. import tiles

    v = _event_field(e, i, field, (str,), "a tile name")
    try:
        return tiles.american_kind_index(v)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"event {i} ({e['type']}): {field!r}: {exc}") from None


def encode_events(events: Iterable[dict], ev_codes: dict) -> list:
    """The engine rows (type, hand, seat, a, b) of logged events (either family); a malformed
    event (not an object, an unknown type, a missing field, a value of the wrong type) raises
    ValueError naming its index and type."""
    from .. import tiles
    from ..mcr import FANS

    fan_index = {f[0]: i for i, f in enumerate(FANS)}
    rows = []
    for i, e in enumerate(events):
        if not isinstance(e, dict):
            raise ValueError(f"event {i}: an event is a JSON object, not {type(e).__name__}")
        name = e.get("type")
        if not isinstance(name, str) or name not in ev_codes:
            raise ValueError(f"event {i}: unknown event type {name!r} (known: {', '.join(ev_codes)})")
        typ = ev_codes[name]
        hand, seat = _event_int(e, i, "hand"), _event_int(e, i, "seat")
        if not 0 <= seat <= 3:
            raise ValueError(f"event {i} ({name}): 'seat' must be 0-3; got {seat}")
        kind = functools.partial(_event_kind, e, i)
        a = b = 0
        if name in ("deal", "draw", "bonus", "replacement"):
            a = _event_int(e, i, "id")
        elif name in ("discard", "pung", "kong", "concealed_kong", "added_kong"):
            a = kind("tile")
        elif name == "chow":
            a = kind("tile")
            chow = _event_field(e, i, "set", (str,), "the chow's tiles (e.g. '345m')")
            try:
                b = tiles.american_kind_index(chow[:1] + chow[-1:])
            except (TypeError, ValueError) as exc:
                raise ValueError(f"event {i} ({name}): 'set': {exc}") from None
        elif name in ("pass", "receive", "blind_pass"):
            a, b = kind("tile"), _event_int(e, i, "pass_number")
        elif name == "call":
            size = _event_int(e, i, "size", optional=True)    # (card play logs the exposure's size)
            a, b = kind("tile"), _event_int(e, i, "jokers") + 256 * (size or 0)
        elif name == "joker_exchange":
            a, b = kind("tile"), _event_int(e, i, "owner")
        elif name == "second_charleston":
            a = int(_event_field(e, i, "danced", (bool,), "true or false"))
        elif name == "courtesy_offer":
            a = _event_int(e, i, "tiles")
        elif name == "dead":
            a = 2 if "reason" in e else 1                     # (card play: no line can be completed)
        elif name == "win":
            a = int(_event_field(e, i, "self_drawn", (bool,), "true or false"))
            d = _event_field(e, i, "discarder", (int, type(None)), "a seat or null")
            if isinstance(d, bool):
                raise ValueError(f"event {i} ({name}): 'discarder' must be a seat or null; got {d!r}")
            b = -1 if d is None else d
        elif name == "score":
            a, b = _event_int(e, i, "delta"), _event_int(e, i, "total")
        elif name == "fan":
            fan = _event_field(e, i, "fan", (str,), "a fan's name")
            if fan not in fan_index:
                raise ValueError(f"event {i} ({name}): unknown fan {fan!r}")
            a, b = fan_index[fan], _event_int(e, i, "count")
        elif name == "false_win":
            a, b = _event_int(e, i, "fan"), _event_int(e, i, "min_fan")
        elif name == "hand" and "dice" in e:
            dice = e["dice"]
            if (not isinstance(dice, list) or len(dice) != 2
                    or any(isinstance(x, bool) or not isinstance(x, numbers.Integral) for x in dice)):
                raise ValueError(f"event {i} ({name}): 'dice' must be two integers; got {dice!r}")
            a, b = int(dice[0]), int(dice[1])
        rows.append([typ, hand, seat, a, b])
    return rows
