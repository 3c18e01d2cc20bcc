"""Running games for every rule family: simulate, compare, replay, rerun, play_walls.

The families' adapters (:mod:`mjfast.game.chinese`, :mod:`mjfast.game.american`) say what
differs: the engine, the built-in policies, the bridge to Python policies, the output columns
and the events. Everything else is written once here: play units and duplicate rotations,
time-sized chunks, threads, the Dask pieces, partial results on Ctrl-C, paired comparisons,
event logs and their headers.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from .. import _core, tiles
from .. import rules as _rules
from .._kernels import engine as _engine
from .._runtime import dask as _dask
from .._runtime.progress import Progress, attach_partial, timed_chunks
from .._runtime.seeding import root_key, seed_to_json
from .._runtime.threads import resolve_threads
from .._runtime.validation import check_flag, check_games
from ..stats import Mean
from .accumulate import Accumulator
from .batch import play_batch, play_batch_logged
from .log import (
    LOG_VERSION,
    GameLog,
    card_sha256,
    check_events,
    decode,
    first_difference,
    read_log,
)
from .policy import BatchPolicy, Policy, policy_name, resolve_policies
from .results import Comparison, SimResult

FAMILIES = _rules.FAMILIES      # (the command line reads it here until it reads mjfast.rules.family)
COMPARE_CHUNK = 4096      # at most this many wall sets per engine call in compare()
_LOG_CAPACITY = 65536     # events a game's log holds


def check_run_games(games, name: str = "games") -> int:
    """The size of a run of games: an int from 1 to below 2**40 (a run of no games has no
    statistics to give, so 0 is refused as the CLI refuses ``-n 0``)."""
    g = check_games(games, name)
    if g == 0:
        raise ValueError(f"{name} must be at least 1 (a run of no games has no statistics), got {games}")
    return g


def family(rules: _rules.RuleSet) -> _rules.Family:
    """The record of the rule family that plays ``rules``."""
    return _rules.family(rules)


def resolve(fam: _rules.Family, policies) -> list:
    return resolve_policies(policies, tuple(fam.builtin), fam.where)


def policy_codes(fam: _rules.Family, policies: list) -> np.ndarray:
    ext = _engine.POLICY_CODES["external"]
    return np.array([fam.builtin[p] if isinstance(p, str) else ext for p in policies], dtype=np.intc)


def out_width(fam: _rules.Family, kern: dict) -> int:
    """Columns of a game's output row (the American engine adds per-line columns with a card)."""
    return fam.out_width(kern)


def play_games(rules: _rules.RuleSet, policies: list, game_index: np.ndarray, k0: int, k1: int,
               threads: int) -> np.ndarray:
    """The engine's output rows of games ``game_index`` with the policies in seat order
    (built-in policies on ``threads`` threads; Python policies one game after another)."""
    fam = family(rules)
    kern = rules.kernel()
    gi = np.ascontiguousarray(game_index, dtype=np.uint64)
    codes = np.ascontiguousarray(np.tile(policy_codes(fam, policies), (len(gi), 1)), dtype=np.intc)
    out = np.zeros((len(gi), out_width(fam, kern)), np.int32)
    if "card" in kern and not all(isinstance(p, str) for p in policies):
        raise ValueError("play with a card supports the built-in policies ('greedy', 'random') only; "
                         "Python and batch policies see the beginner hand's views")
    if any(isinstance(p, BatchPolicy) for p in policies):
        return play_batch(rules, policies, gi, k0, k1, threads)
    if any(isinstance(p, Policy) for p in policies):
        bridge = fam.bridge(policies, rules)
        if _engine.run_games(fam.table(kern, bridge), gi, k0, k1, codes, out, bridge) >= 0:
            raise bridge.error
    else:
        fam.play_batch(kern, gi, k0, k1, codes, out, threads)
    return out


def simulate_chunk(rules: _rules.RuleSet, policies: list, k0: int, k1: int, start: int, count: int,
                   duplicate: bool, threads: int = 1) -> Accumulator:
    """Exact counters of play units ``start .. start+count-1`` of the run keyed (k0, k1).

    A unit is game g (``duplicate=False``), or game g = u // 4 played with the policies rotated
    by u % 4 (``duplicate=True``). A pure function of its arguments whatever ``threads`` is:
    the local loop and every Dask task call it, and the counters of disjoint pieces merge
    exactly (:meth:`Accumulator.merge`).
    """
    _core.ensure_tables()
    fam = family(rules)
    units = np.arange(start, start + count, dtype=np.uint64)
    if duplicate:
        gi, rot = units // np.uint64(4), (units % np.uint64(4)).astype(np.int64)
    else:
        gi, rot = units, np.zeros(count, dtype=np.int64)
    names = np.array([policy_name(p) for p in policies], dtype=object)
    seat_pol = (np.arange(4)[None, :] - rot[:, None]) % 4          # policy index at each seat
    out = np.zeros((len(gi), out_width(fam, rules.kernel())), np.int32)
    for r in np.unique(rot):
        sel = np.flatnonzero(rot == r)
        out[sel] = play_games(rules, [policies[(s - r) % 4] for s in range(4)], gi[sel], k0, k1, threads)
    acc = Accumulator(fam.counters)
    acc.add(out, names[seat_pol])
    return acc


def simulate(games: int, *, rules: str | _rules.RuleSet = "classical", policies="greedy", seed=None,
             threads: int | None = None, duplicate: bool = False, progress: bool = True,
             chunk_size: int = 4096, backend: str = "local", client=None, **rule_options) -> SimResult:
    """Simulate complete games of four-player mahjong and collect win-rate statistics.

    Parameters
    ----------
    games : int
        Games to play, at least 1 (``duplicate=True``: wall sets, each played 4 times).
    rules : {"classical", "basic", "mcr", "american"} or RuleSet
        The rule set (see :mod:`mjfast.rules`); its options (``flowers``, ``special_forms``,
        ``dead_wall``, ``ready_declaration``, ``base_points``, ``payment``, ``rounds``,
        ``chow``, ``kong``, ``refill_dead_wall``, ``added_kong``; American: ``jokers``,
        ``second_charleston``, ``courtesy``, ``blind_pass``, ``start_points``, ...) may be
        given as keywords. American games return a SimResult with the American statistics (``stats["american"]``).
    policies : str, Policy, or a list of 4
        "random", "greedy", "defensive" (not American) or a :class:`Policy` instance, for
        every seat or per seat.
    seed : None, int, sequence of ints, SeedSequence, BitGenerator or Generator
        Game g is a pure function of (seed, g) and the policies, whatever ``threads`` is.
    threads : int or None
        Threads for built-in policies (Python policies run on one thread).
    duplicate : bool
        Play every set of walls once per rotation of the policies around the table (common
        random numbers: each policy meets the same tiles from every seat).
    progress : bool
        Progress bar on stderr for runs longer than half a second (on a terminal; see
        :func:`mjfast.set_options`).
    chunk_size : int
        At most this many games (duplicate: game rotations) per engine call; calls are also
        sized to take about 0.1 s so that Ctrl-C stops quickly. With ``backend="dask"``,
        exactly the games per Dask task. Never changes the result.
    backend : {"local", "dask"}
        ``"local"`` runs on this machine's threads; ``"dask"`` runs chunks of ``chunk_size``
        games as Dask tasks keyed by (seed, chunk) and merges their exact counters: the result
        is bit-identical to the local run with the same seed (needs
        ``pip install "mjfast[dask]"``; ``threads`` is then the threads per task, default 1;
        Python policies are pickled to the workers).
    client : distributed.Client, str or None
        ``backend="dask"`` only: the client (None = the current one) or a scheduler address.

    Returns
    -------
    SimResult

    Raises
    ------
    ValueError
        ``games`` below 1 (or from 2**40), an unknown rule set, option or policy.
    IllegalActionError
        A Python policy chose an action the rules do not allow.
    KeyboardInterrupt
        On Ctrl-C, after the current chunk (well under a second); the statistics so far are in
        ``exc.partial`` (Dask backend: outstanding tasks are cancelled).

    Examples
    --------
    >>> import mjfast
    >>> res = mjfast.simulate(200, seed=1, progress=False)
    >>> res.games, res.hands, int(res.points.sum())
    (200, 800, 0)
    >>> w = res.win_rate(seat=0)
    >>> w.low < w.p < w.high
    True
    >>> am = mjfast.simulate(100, rules="american", seed=1, progress=False)
    >>> am.hands, int(am.points.sum()) == 100 * 4 * 650
    (400, True)
    """
    games = check_run_games(games, "games")
    chunk_size = check_games(chunk_size, "chunk_size")
    if chunk_size == 0:
        raise ValueError("chunk_size must be positive")
    check_flag("progress", progress)
    r = _rules.get(rules, **rule_options)
    fam = family(r)
    pols = resolve(fam, policies)
    duplicate = check_flag("duplicate", duplicate)
    backend = _dask.check_backend(backend, client)
    key = root_key(seed)
    units = 4 * games if duplicate else games
    if backend == "dask":
        bar = Progress(units, label=f"simulate {r.name}", unit="games", enabled=bool(progress))
        threads = 1 if threads is None else resolve_threads(threads)
        pieces = (((r, pols, key.k0, key.k1, lo, min(chunk_size, units - lo), duplicate, threads),
                   min(chunk_size, units - lo)) for lo in range(0, units, chunk_size))
        return _dask.run_chunks(client, simulate_chunk, pieces, f"mjfast-simulate-{r.name}", bar,
                                lambda acc, done: acc.result(r, pols, duplicate, key.seed_value()),
                                Accumulator(fam.counters), Accumulator.merge)
    threads = resolve_threads(threads)
    acc = Accumulator(fam.counters)
    local_bar: Progress | None = None
    try:
        _core.ensure_tables()      # before the bar starts: its rate and ETA must not count the one-time build
        local_bar = Progress(units, label=f"simulate {r.name}", unit="games", enabled=bool(progress))
        for lo, m in timed_chunks(0, units, chunk_size, 2 * threads):
            acc.merge(simulate_chunk(r, pols, key.k0, key.k1, lo, m, duplicate, threads))
            local_bar.update(acc.games)
    except KeyboardInterrupt as exc:
        if local_bar is not None:
            local_bar.close()
        attach_partial(exc, acc.result(r, pols, duplicate, key.seed_value()))
        raise
    local_bar.close()
    return acc.result(r, pols, duplicate, key.seed_value())


def compare(policy_a, policy_b, games: int, *, rules: str | _rules.RuleSet = "classical", seed=None,
            threads: int | None = None, progress: bool = True, **rule_options) -> Comparison:
    """Compare two policies with common random numbers.

    For every wall set g and seat r, policy A plays seat r against three copies of B, and the
    same walls are also played by four copies of B. The difference in seat r's points (and in
    hands won) between the two tables is paired: walls, dice and seat are identical, so most of
    the luck cancels. Differences are averaged over the four seats of a wall set, and the mean
    and standard error are taken over wall sets. ``games`` (wall sets) must be at least 1.

    Examples
    --------
    >>> import mjfast
    >>> c = mjfast.compare("greedy", "random", 50, seed=3, progress=False)
    >>> c.points_diff.mean > 0
    True
    >>> c = mjfast.compare("greedy", "random", 40, rules="american", seed=3, progress=False)
    >>> c.points_diff.mean > 0 and c.win_rate_diff.low > 0
    True
    """
    games = check_run_games(games, "games")
    check_flag("progress", progress)
    r = _rules.get(rules, **rule_options)
    fam = family(r)
    a, b = resolve(fam, [policy_a] * 4)[0], resolve(fam, [policy_b] * 4)[0]
    key = root_key(seed)
    threads = resolve_threads(threads)
    _core.ensure_tables()
    diffs = np.zeros(games)
    wdiffs = np.zeros(games)
    acc_a, acc_b = Accumulator(fam.counters), Accumulator(fam.counters)
    bar = Progress(5 * games, label=f"compare {r.name}", unit="games", enabled=bool(progress))
    base_pols = [b, b, b, b]
    sc, wi, hands = fam.out["score"], fam.out["wins"], fam.out["hands"]
    try:
        # pieces of ~0.1 s (at most COMPARE_CHUNK wall sets): bounded engine output, quick
        # Ctrl-C; game g is a pure function of (seed, g), so the pieces do not change the result
        for lo, m in timed_chunks(0, games, COMPARE_CHUNK, 2 * threads):
            gi = np.arange(lo, lo + m, dtype=np.uint64)
            out_b = play_games(r, base_pols, gi, key.k0, key.k1, threads)
            acc_b.add(out_b, np.array([[policy_name(b)] * 4] * m, dtype=object))
            for seat in range(4):
                pols = [a if s == seat else b for s in range(4)]
                out_a = play_games(r, pols, gi, key.k0, key.k1, threads)
                acc_a.add(out_a, np.array([[policy_name(p) for p in pols]] * m, dtype=object))
                diffs[lo : lo + m] += (out_a[:, sc + seat].astype(np.float64) - out_b[:, sc + seat]) / 4
                wdiffs[lo : lo + m] += ((out_a[:, wi + seat].astype(np.float64) - out_b[:, wi + seat])
                                        / out_a[:, hands] / 4)
            bar.update(5 * (lo + m))
    finally:
        bar.close()
    return Comparison(policy_name(a), policy_name(b), games, Mean.of_sample(diffs), Mean.of_sample(wdiffs),
                      acc_a.result(r, [a, b, b, b], True, key.seed_value()),
                      acc_b.result(r, base_pols, False, key.seed_value()))


# ---------------------------------------------------------------------------------------------
# event logs

def _play_logged(r: _rules.RuleSet, pols: list, gi: int, k0: int, k1: int, walls=None, dice=None):
    """Play one game with its event log (scripted walls and dice, or the game's shuffles):
    (events, walls, dice, out); raises the policy error that stopped it."""
    fam = family(r)
    kern = r.kernel()
    if walls is not None:
        kern["hands_per_game"] = len(walls)
    if any(isinstance(p, BatchPolicy) for p in pols):
        t = fam.table(kern, None, 0)
        t.start(gi, k0, k1, policy_codes(fam, ["random"] * 4), walls, dice)
        walls, dice = t.hand_walls()
        ev, out = play_batch_logged(r, pols, gi, k0, k1, _LOG_CAPACITY, walls, dice)
        return ev, walls, dice, out
    bridge = fam.bridge(pols, r) if any(isinstance(p, Policy) for p in pols) else None
    t = fam.table(kern, bridge, _LOG_CAPACITY)
    t.start(gi, k0, k1, policy_codes(fam, pols), walls, dice)
    walls, dice = t.hand_walls()
    if bridge is None:
        t.advance()
    elif t.run(bridge) != _engine.ADVANCE["done"]:
        raise bridge.error
    return t.events(), walls, dice, t.out


def _header(r, fam, pols, walls, dice, seed, gi) -> dict:
    h = {"version": LOG_VERSION, "seed": seed, "game_index": gi, "rules": r.name, "options": r.to_dict(),
         "policies": [policy_name(p) for p in pols],
         "walls": [[tiles.physical_tile_name(int(i)) for i in w] for w in walls], "wall_ids": np.asarray(walls).tolist()}
    if fam.dice:
        h["dice"] = np.asarray(dice).tolist()
    card = getattr(r, "card", None)
    if card is not None:               # the card itself (the log re-runs alone) and its content hash
        h["card"] = card.to_dict()
        h["card_sha256"] = card_sha256(card)
    return h


def _finish(r, fam, header: dict, ev, out, named_out: bool = False) -> GameLog:
    """The log: the header with the final scores (and the game's counters by name, when
    ``named_out`` or the header had them), the events decoded."""
    header = dict(header, scores=out[fam.out["score"]:fam.out["score"] + 4].tolist())
    if (named_out or "out" in header) and fam.named_out is not None:
        header["out"] = fam.named_out(out)
    return GameLog(header, decode(ev, fam.event_fields))


def replay(seed, game_index: int, *, rules: str | _rules.RuleSet = "classical", policies="greedy",
           **rule_options) -> GameLog:
    """Re-play game ``game_index`` of a run and return its full event log.

    The game is the same one :func:`simulate` played with this seed (the seed of a run is in
    ``SimResult.seeds``; a run seeded with None prints or stores it).

    Examples
    --------
    >>> import mjfast
    >>> log = mjfast.replay(1, 0)
    >>> log.events[0]["type"], sum(e["delta"] for e in log.events if e["type"] == "score")
    ('hand', 0)
    >>> mjfast.rerun(log).events == log.events
    True
    >>> sum(e["delta"] for e in mjfast.replay(1, 0, rules="american").events if e["type"] == "score")
    0
    """
    r = _rules.get(rules, **rule_options)
    fam = family(r)
    pols = resolve(fam, policies)
    gi = check_games(game_index, "game_index")
    key = root_key(seed)
    _core.ensure_tables()
    ev, walls, dice, out = _play_logged(r, pols, gi, key.k0, key.k1)
    header = _header(r, fam, pols, walls, dice, seed_to_json(key.seed_value()), gi)
    return _finish(r, fam, header, ev, out)


def play_walls(walls, dice=None, *, rules: str | _rules.RuleSet = "classical", policies="greedy",
               **rule_options) -> GameLog:
    """Play one game on scripted walls: the event log of exactly what a table would do.

    Parameters
    ----------
    walls : array_like of shape (hands, n_tiles)
        Each hand's wall as physical tile ids (0-135: kind = id // 4; 136-143 bonus tiles;
        American: 144.. jokers), a permutation of the set, in draw order: the deal and live
        draws take tiles from the front, replacements from the back. ``hands`` is
        ``4 * rounds`` (the game's hands), or fewer: the game then stops after those hands.
    dice : array_like of shape (hands, 2), optional
        Dice totals (they size the dead wall under ``dead_wall="dice"``); default (2, 2).
        American games deal without dice (the dealer takes the first 14 tiles, then 13 to each
        next seat).

    Returns
    -------
    GameLog

    Examples
    --------
    >>> import numpy as np, mjfast
    >>> log = mjfast.play_walls([np.arange(136)], rules="basic", rounds=1)
    >>> log.events[1]
    {'hand': 0, 'type': 'deal', 'seat': 0, 'tile': '1m', 'id': 0}
    >>> mjfast.play_walls([np.arange(152)], rules="american").events[1]["tile"]
    '1m'
    """
    r = _rules.get(rules, **rule_options)
    fam = family(r)
    if not fam.dice and dice is not None:
        raise ValueError(f"rules={r.name!r} deals without dice")
    w = check_walls(walls, r)
    pols = resolve(fam, policies)
    if fam.dice:
        dice = np.full((w.shape[0], 2), 2, np.int32) if dice is None else check_dice(dice, w.shape[0])
    k0, k1 = _scripted_key(fam)
    return _play_scripted(r, fam, w, dice, pols, k0, k1, 0, None, None)


def _scripted_key(fam) -> tuple:
    """The built-in policies' key of play_walls games (no seed): the family's constant."""
    if fam.scripted_seed is None:
        return 0, 0
    key = root_key(fam.scripted_seed)
    return key.k0, key.k1


def _play_scripted(r, fam, w, d, pols, k0, k1, gi, seed, game_index, header=None) -> GameLog:
    """Play game ``gi`` on the checked walls ``w`` (and dice ``d``), the built-in policies keyed
    by (k0, k1); a game of fewer walls than the rules' hands is played with the rounds they
    fill. ``header``: a re-run's (kept, with the new scores), else play_walls' own."""
    rounds = -(-w.shape[0] // 4)
    if rounds < r.hands_per_game // 4:
        r = r.replace(rounds=rounds)
    _core.ensure_tables()
    ev, walls, dice, out = _play_logged(r, pols, gi, k0, k1, np.ascontiguousarray(w, dtype=np.uint8),
                                        None if d is None else np.ascontiguousarray(d, dtype=np.int32))
    if header is None:
        return _finish(r, fam, _header(r, fam, pols, walls, dice, seed, game_index), ev, out,
                       named_out=fam.named_out_in_scripted_logs)
    return _finish(r, fam, header, ev, out)


def check_walls(walls, r, field: str = "walls") -> np.ndarray:
    """Scripted walls as an (hands, n_tiles) int array, each row a permutation of the tile ids."""
    try:
        w = np.asarray(walls)
    except (TypeError, ValueError):
        raise ValueError(f"{field} must be a (hands, tiles) array of integer tile ids") from None
    if w.dtype.kind not in "iu":
        raise TypeError(f"{field} must hold integer tile ids")
    if w.ndim != 2:
        raise ValueError(f"{field} must have shape (hands, tiles), got {w.shape}")
    if w.shape[1] != r.n_tiles:
        extra = f" with {r.tile_set.jokers} jokers" if r.tile_set.jokers else ""
        raise ValueError(f"each wall in {field} must hold the {r.n_tiles} tiles of rules={r.name!r}{extra}, "
                         f"got {w.shape[1]}")
    if not 1 <= w.shape[0] <= r.hands_per_game:
        raise ValueError(f"{field}: give 1 to {r.hands_per_game} walls, got {w.shape[0]}")
    for i, row in enumerate(w):
        if not np.array_equal(np.sort(row), np.arange(r.n_tiles)):
            raise ValueError(f"wall {i} of {field} is not a permutation of the tile ids 0..{r.n_tiles - 1}")
    return w


def check_dice(dice, hands: int, field: str = "dice") -> np.ndarray:
    """Dice as an (hands, 2) int32 array of totals 2-12 (whole numbers: 2.5 is refused, not
    truncated)."""
    try:
        d = np.asarray(dice)
    except (TypeError, ValueError):
        d = None
    if d is None or d.dtype.kind not in "iu" or d.shape != (hands, 2) or d.min() < 2 or d.max() > 12:
        raise ValueError(f"{field} must be one (total, total) pair per wall, each total a whole number 2-12")
    return d.astype(np.int32)


def rerun(log, *, policies=None, card=None, verify: bool = True) -> GameLog:
    """Re-run a logged game from its header, check it against the log's events, and return
    the new log (equal to the old one).

    The game is played on the header's walls (``wall_ids``) and dice, with the header's rules,
    options, card and policies; the header's seed and game index key the built-in policies'
    random choices. The replayed events are then compared with the logged ones: the first
    difference (an edited discard, a missing or extra event, an edited final score in the
    header) raises ``ValueError`` naming the event's index and line, the field, and the
    logged and replayed values.

    Parameters
    ----------
    log : GameLog, str, os.PathLike or list of str
        The log, its JSON-lines text (:meth:`GameLog.to_jsonl`), the list of those lines, or
        the path of a file holding that text (a str that is neither a log nor an existing
        file raises ``ValueError``).
    policies : str, Policy, or a list of 4, optional
        Must be given when the logged game used Python policies (they are logged by name only).
    card : Card, str, os.PathLike or mapping, optional
        The card of a game played with one (a :class:`~mjfast.card.Card`, its file or
        mapping). A log's header holds its card (``card``) and the card's content hash
        (``card_sha256``), so it re-runs alone; pass ``card=`` for a log whose ``card`` was
        removed (to share the log without the card) or written before mjfast kept it. A card
        whose name or content (hash) differs from the logged one is refused.
    verify : bool, default True
        Compare the replay with the log's events. A log of only its header line has nothing
        to compare: with ``verify=True`` it is refused. ``verify=False`` plays the game the
        header describes without looking at the events, e.g. a header whose walls or dice
        were edited (a what-if), or a header alone.

    Returns
    -------
    GameLog
        The replayed log; it keeps the given header (with the final scores of the replay).

    Raises
    ------
    ValueError
        A header that contradicts itself (``walls`` naming other tiles than ``wall_ids``), an
        unknown ``version``, malformed walls or dice (naming the field); a malformed event
        (naming it); a replay that differs from the log (naming the first difference); a
        header-only log with ``verify=True``; a missing or mismatched card.

    Examples
    --------
    >>> import mjfast
    >>> text = mjfast.replay(7, 3, rules="basic").to_jsonl()
    >>> mjfast.rerun(text).to_jsonl() == text
    True
    >>> header = text.splitlines()[0]
    >>> mjfast.rerun(header)
    Traceback (most recent call last):
    ...
    ValueError: this log holds its header only (no events), ...; pass verify=False to play the game its header describes
    >>> len(mjfast.rerun(header, verify=False).events)
    504
    """
    verify = check_flag("verify", verify)
    log = read_log(log, "rerun")
    g = logged_game(log, policies, "rerun", card=card, cards=True)
    if verify:
        if not log.events:
            raise ValueError("this log holds its header only (no events), so there is nothing to check the replay "
                             "against; pass verify=False to play the game its header describes")
        check_events(log.events, g.walls.shape[0])
    header = dict(g.header, policies=[policy_name(p) for p in g.policies])
    new = _play_scripted(g.rules, family(g.rules), g.walls, g.dice, g.policies, g.k0, g.k1, g.game_index or 0,
                         g.seed, g.game_index, header)
    if verify:
        diff = first_difference(log, new)
        if diff is not None:
            raise ValueError(f"rerun: the log does not match its replay: {diff}")
    return new


@dataclasses.dataclass(frozen=True)
class LoggedGame:
    """What a log's header says about its game, checked (see :func:`logged_game`)."""

    header: dict
    rules: _rules.RuleSet
    walls: np.ndarray
    dice: np.ndarray | None
    policies: list
    k0: int
    k1: int
    seed: object
    game_index: int | None


def logged_game(log, policies=None, where: str = "rerun", *, card=None, cards: bool = False) -> LoggedGame:
    """Read and check a log's header: rules and options (and the card, see :func:`rerun`),
    walls and dice, policies, and the built-in policies' key. ``log`` is what :func:`rerun`
    accepts. Raises ValueError naming the field that is wrong.

    A log of a game played with a card is refused (by ``where``'s name) unless the caller
    plays cards (``cards=True``): the engine's card scratch must be allocated by whatever
    plays the game (the batched environments behind ``decisions`` do not yet)."""
    log = read_log(log, where)
    h = log.header
    missing = [k for k in ("version", "seed", "game_index", "rules", "options", "policies", "wall_ids")
               if k not in h]
    if missing or not isinstance(h.get("options"), dict):
        raise ValueError(f"this event log header lacks {missing or ['options']}; it cannot be re-run")
    if h["version"] not in (1, LOG_VERSION):
        raise ValueError(f"the header's 'version' is {h['version']!r}; this mjfast reads event logs of "
                         f"versions 1 and {LOG_VERSION}")
    seed, gi = h["seed"], h["game_index"]
    if seed is None and gi is not None:
        raise ValueError("this log has no seed (the run was seeded from a Generator); it cannot be re-run")
    if gi is not None:
        gi = check_games(gi, "the header's 'game_index'")
    base = _rules.get(h["rules"])
    opts = {k: v for k, v in h["options"].items() if k not in ("name", "tiles", "card")}
    if "special_forms" in opts:
        opts["special_forms"] = tuple(opts["special_forms"])
    opts = {**_rules.family(base).log_defaults(h["version"], base, opts), **opts}   # older logs' defaults
    r = base.replace(**opts)
    if "card" in h["options"] and not cards:
        name = h["options"]["card"].get("name") if isinstance(h["options"]["card"], dict) else None
        raise ValueError(f"{where}: this log's game was played with the card {name!r}; {where} does not take logs "
                         "of card games (mjfast.rerun does)")
    if "card" in h["options"] or card is not None:
        r = _logged_card(h, r, card, where)
    fam = family(r)
    if h["options"].get("tiles", r.n_tiles) != r.n_tiles:
        raise ValueError(f"the header's options say 'tiles': {h['options']['tiles']!r}, but its rules use {r.n_tiles}")
    w = check_walls(h["wall_ids"], r, "the header's 'wall_ids'")
    if "walls" in h and h["walls"] != [[tiles.physical_tile_name(int(i)) for i in row] for row in w]:
        raise ValueError("the header's 'walls' (tile names) do not match its 'wall_ids'")
    pols = resolve(fam, policies if policies is not None else h["policies"])
    d = None
    if fam.dice:
        if "dice" not in h:
            raise ValueError("this event log header lacks ['dice']; it cannot be re-run")
        d = check_dice(h["dice"], w.shape[0], "the header's 'dice'")
    if seed is None:
        k0, k1 = _scripted_key(fam)
    else:
        key = root_key(seed)
        k0, k1 = key.k0, key.k1
    return LoggedGame(h, r, w, d, pols, k0, k1, seed, gi)


def _logged_card(h: dict, r: _rules.RuleSet, card, where: str) -> _rules.RuleSet:
    """The rules ``r`` with the logged game's card: ``card`` if given, else the header's own;
    refused unless its name (and its content hash, or for a log without one its line ids) is
    the logged card's."""
    meta = h["options"].get("card")
    if meta is None:
        raise ValueError(f"{where}: card= was given, but this log's game was played without a card")
    if not (isinstance(meta, dict) and isinstance(meta.get("name"), str) and isinstance(meta.get("lines"), list)):
        raise ValueError("the header's options hold a malformed 'card' (it names the card: {'name': ..., "
                         "'lines': [line ids]})")
    logged_hash = h.get("card_sha256")
    if logged_hash is not None and not isinstance(logged_hash, str):
        raise ValueError(f"the header's 'card_sha256' must be a hex string, not {type(logged_hash).__name__}")
    named = f"the card {meta['name']!r}" + (f" (sha256 {logged_hash})" if logged_hash else "")
    if card is None:
        if "card" not in h:
            raise ValueError(f"this log's game was played with {named}, which the log does not hold (its header "
                             f"has no 'card'); pass card= (the Card, its file or mapping) to {where} it")
        if not isinstance(h["card"], dict):
            raise ValueError(f"the header's 'card' must be an mjfast-card/1 mapping, not {type(h['card']).__name__}")
        try:
            played = r.replace(card=h["card"])
        except ValueError as exc:
            raise ValueError(f"the header's 'card' is not a valid card: {exc}") from None
        what = "the header's 'card'"
    else:
        played = r.replace(card=card)
        what = "card="
    assert isinstance(played, _rules.AmericanRules)         # (only American rule sets take a card)
    c = played.card
    if c.name != meta["name"]:
        raise ValueError(f"{what} is the card {c.name!r}, but this log's game was played with {named}")
    if logged_hash is not None:
        got = card_sha256(c)
        if got != logged_hash:
            raise ValueError(f"{what} is not the card this log's game was played with: both are named {c.name!r}, "
                             f"but its content hash (sha256 {got}) is not the header's 'card_sha256' ({logged_hash})")
    elif list(c.ids) != meta["lines"]:
        raise ValueError(f"{what} is not the card this log's game was played with: both are named {c.name!r}, but "
                         f"its line ids {list(c.ids)} are not the logged ones {meta['lines']}")
    return played
