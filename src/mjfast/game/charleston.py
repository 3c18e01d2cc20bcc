"""The effect of each optional pass of the American Charleston, with common random numbers."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import rules as _rules
from .._runtime.progress import Progress, timed_chunks
from .._runtime.seeding import root_key
from .._runtime.threads import resolve_threads
from ..stats import Mean
from . import american, runner
from .accumulate import Accumulator
from .policy import policy_name
from .results import N_DIST, PassEffect

OPTIONAL_PASSES = ("second_charleston", "courtesy", "blind_pass")


def _game_stats(out: np.ndarray) -> dict:
    """Per game: mean distance after the Charleston, share of hands won, wall games, turns per
    hand and each player's points."""
    o = out.astype(np.float64)
    c = american.OUT
    hands = o[:, c["hands"]]
    d = np.arange(N_DIST)
    da, wi, sc = c["distance_after"], c["wins"], c["score"]
    after = o[:, da:da + 4 * N_DIST].reshape(-1, 4, N_DIST)
    return {"distance_after": (after * d).sum(axis=(1, 2)) / after.sum(axis=(1, 2)),
            "win_rate": o[:, wi:wi + 4].sum(axis=1) / hands, "wall_game_rate": o[:, c["draws"]] / hands,
            "mean_turns": o[:, c["turns"]] / hands, "points": o[:, sc:sc + 4]}


def charleston_effect(games: int, *, options: Sequence[str] = OPTIONAL_PASSES, policies="greedy", seed=None,
                      threads: int | None = None, progress: bool = True, **rule_options) -> dict:
    """Effect of each optional pass of the Charleston, with common random numbers.

    For each option in ``options`` ("second_charleston", "courtesy", "blind_pass"; a list, or
    one name) the same
    ``games`` (same walls, same policy random streams, same seats) are played with that pass
    on (``second_charleston=True``: always danced) and off, the other options as in
    ``rule_options``. Per-game differences are paired, so most of the luck of the deal cancels.
    ``games`` must be at least 1.

    Returns
    -------
    dict of option name -> PassEffect

    Examples
    --------
    >>> import mjfast
    >>> eff = mjfast.charleston_effect(300, seed=2, progress=False)
    >>> sorted(eff)
    ['blind_pass', 'courtesy', 'second_charleston']
    >>> d = eff["second_charleston"].distance_after
    >>> d.mean < 0 and d.high < 0       # a second Charleston brings hands closer to Mahjong
    True
    """
    games = runner.check_run_games(games, "games")
    base = _rules.get("american", **rule_options)
    pols = runner.resolve(base_family := _rules.family(base), policies)
    if isinstance(options, str):
        options = (options,)
    if not isinstance(options, (list, tuple)):
        raise TypeError(f"options must be a list of optional pass names, not {type(options).__name__}")
    opts = list(options)
    for o in opts:
        if not isinstance(o, str) or o not in OPTIONAL_PASSES:
            raise ValueError(f"unknown optional pass {o!r}; choose from {OPTIONAL_PASSES}")
    key = root_key(seed)
    threads = resolve_threads(threads)
    bar = Progress(2 * len(opts) * games, label="charleston effect", unit="games", enabled=bool(progress))
    result = {}
    done = 0
    stat_names = ("distance_after", "win_rate", "wall_game_rate", "mean_turns")
    try:
        for o in opts:
            rules_of = {flag: base.replace(**{o: flag}) for flag in (True, False)}
            accs = {True: Accumulator(base_family.counters), False: Accumulator(base_family.counters)}
            diff = {name: np.zeros(games) for name in stat_names}
            diff["points"] = np.zeros((games, 4))
            # pieces of ~0.1 s (at most COMPARE_CHUNK games): bounded engine output; game g is a pure function
            # of (seed, g), so the pieces do not change the result
            for lo, m in timed_chunks(0, games, runner.COMPARE_CHUNK, 2 * threads):
                gi = np.arange(lo, lo + m, dtype=np.uint64)
                names = np.array([[policy_name(p) for p in pols]] * m, dtype=object)
                stats = {}
                for flag in (True, False):
                    out = runner.play_games(rules_of[flag], pols, gi, key.k0, key.k1, threads)
                    accs[flag].add(out, names)
                    stats[flag] = _game_stats(out)
                    done += m
                    bar.update(done)
                for name in diff:
                    diff[name][lo : lo + m] = stats[True][name] - stats[False][name]
            runs = {flag: accs[flag].result(rules_of[flag], pols, False, key.seed_value()) for flag in (True, False)}
            d_after, win, wall, turns = (Mean.of_sample(diff[name]) for name in stat_names)
            on, off = runs[True], runs[False]
            result[o] = PassEffect(o, games, d_after, win, wall, turns,
                                   tuple(Mean.of_sample(diff["points"][:, s]) for s in range(4)), on, off)
    finally:
        bar.close()
    return result
