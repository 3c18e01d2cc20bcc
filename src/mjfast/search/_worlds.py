"""sample_worlds: the hidden tiles of many tables redrawn from one seat's view."""
from __future__ import annotations

import numpy as np

from .._kernels import worlds as _kw
from .._runtime.seeding import root_key
from ._common import check_states_arg, count_arg, deciding_seats, memory_arg
from ._states import TableStates, new_core

AMERICAN_KINDS = 36             # 34 = flowers, 35 = jokers (Chinese: the 34 kinds)
BELIEFS = ("discards",)


def sample_worlds(states: TableStates, n: int, *, seed, seat=None, weights=None,
                  threads: int | None = None) -> TableStates:
    """``n`` worlds per table, each consistent with what one seat has seen.

    In every world, what the seat has not seen is redrawn: the other seats' concealed tiles and
    the order of the live and dead walls. Everything it has seen stays: its own hand, every
    discard, exposure and bonus tile, each seat's tile count, the wall lengths (its observation
    is identical in every world). The draw is uniform over the consistent assignments of tile
    ids to the hidden places (no bonus tile in a concealed hand where bonus tiles are set aside
    at once). Each world's random streams (its later hands' shuffles and the built-in bots'
    choices) are re-keyed from ``(seed, world)``, so worlds differ in what happens next too.

    Parameters
    ----------
    states : TableStates
        Tables with a hand in progress (:meth:`mjfast.env.VecTables.save`).
    n : int
        Worlds per table (>= 1).
    seed : seed-like
        The worlds are a pure function of (states, n, seed, seat).
    seat : None, int or array of int
        The seat whose view is kept; None (default): the seat to act at each table (a table
        without a pending decision is then refused).
    weights : None, "discards" or array of float
        A belief about the other seats' concealed hands. None (default): uniform, as above.
        An array of shape ``(len(states), 4, K)`` or ``(4, K)`` (the same for every table), K
        the tile kinds (34 Chinese, 36 American: 34 flowers, 35 jokers): the relative
        likelihood of each kind in each seat's concealed hand (finite, >= 0; the viewing seat's
        row is unused). The hands are then filled seat by seat (ascending), tile by tile, each
        next tile drawn among the unseen tiles not yet placed with probability proportional to
        its kind's weight for that seat (weighted sampling without replacement); the walls get
        the rest in a uniform order. ``"discards"``: the built-in belief :func:`belief`.
    threads : unused (accepted for symmetry with the other search functions).

    Returns
    -------
    TableStates
        ``len(states) * n`` states, table-major: world k of table t is row ``t * n + k``.

    Notes
    -----
    With weights, the draw is no longer uniform over consistent assignments: that is the point
    (a world where an opponent holds kinds it is believed to hold is more likely). Facts taken
    as certain: what the seat saw. Not modelled (soft facts, or not yet): a
    declared ready hand (basic's Stop) is redrawn like any other hand; answers other seats gave
    in an open claim window before the seat's own question are dropped (they are hidden);
    American tiles passed in the Charleston are not kept with their receiver, and tables still
    in the Charleston are refused.

    Examples
    --------
    >>> from mjfast.env import VecTables
    >>> from mjfast.search import sample_worlds
    >>> env = VecTables(2, rules="mcr", seed=4)
    >>> obs, info = env.reset()
    >>> w = sample_worlds(env.save(), 8, seed=1)
    >>> len(w)
    16
    >>> w = sample_worlds(env.save(), 8, seed=1, weights="discards")
    >>> len(w)
    16
    """
    where = "sample_worlds"
    states = check_states_arg(states, where)
    n = count_arg(n, "n", where)
    seats = deciding_seats(states, seat, where)
    memory_arg(len(states) * n, states.record_bytes, f"sample_worlds({len(states):,} tables x {n:,} worlds)")
    wts = weights_arg(states, weights, where)
    key = root_key(seed)
    data = np.repeat(states.data, n, axis=0)
    seats_w = np.repeat(seats, n)
    redraw_worlds(states, data, seats_w, key.k0, key.k1, wts, n)
    return TableStates(states.header, states.rules, data)


def belief(states: TableStates, kind: str = "discards") -> np.ndarray:
    """A built-in belief about every seat's concealed hand, from what everyone saw it do: the
    weights :func:`sample_worlds` takes.

    ``"discards"``: a kind the seat discarded is less likely in its hand (weight 0.3: it let
    one go); Chinese, a suited kind next to one of its first six discards a little less (0.7:
    an early discard is an isolated tile) and every kind of a suit it claimed a set of (chow,
    pung, exposed kong) more likely (x1.5: it is building there); other kinds 1.

    Parameters
    ----------
    states : TableStates
        Tables with a hand in progress.
    kind : str
        The belief: ``"discards"`` (the only one so far).

    Returns
    -------
    numpy.ndarray
        float32 of shape ``(len(states), 4, K)``, K = 34 (Chinese) or 36 (American).

    Examples
    --------
    >>> from mjfast.env import VecTables
    >>> from mjfast.search import belief
    >>> env = VecTables(2, rules="mcr", seed=4)
    >>> obs, info = env.reset()
    >>> belief(env.save()).shape
    (2, 4, 34)
    """
    where = "belief"
    states = check_states_arg(states, where)
    if kind not in BELIEFS:
        raise ValueError(f"{where}: kind must be one of {BELIEFS}; got {kind!r}")
    fam = states.rules.family
    full = _kw.belief_discards(np.ascontiguousarray(states.data), fam == "chinese")
    return np.ascontiguousarray(full[:, :, :n_kinds(fam)])


def n_kinds(family: str) -> int:
    """Tile kinds a concealed hand of the family can hold (the weights' last axis)."""
    return AMERICAN_KINDS if family == "american" else 34


def weights_arg(states: TableStates, weights, where: str) -> np.ndarray | None:
    """The weights (None, a belief name or an array) as float32 (tables, 4, 48), or None."""
    if weights is None:
        return None
    fam = states.rules.family
    if isinstance(weights, str):
        if weights not in BELIEFS:
            raise ValueError(f"{where}: weights must be None, an array or one of {BELIEFS}; got {weights!r}")
        return _kw.belief_discards(np.ascontiguousarray(states.data), fam == "chinese")
    k = n_kinds(fam)
    try:
        arr = np.asarray(weights)
    except Exception as e:
        raise TypeError(f"{where}: weights must be an array of numbers; got {type(weights).__name__}") from e
    if arr.dtype == bool or arr.dtype.kind not in "iuf":
        raise TypeError(f"{where}: weights must be an array of numbers (relative likelihoods); got dtype {arr.dtype}")
    n = len(states)
    if arr.shape == (4, k):
        arr = np.broadcast_to(arr, (n, 4, k))
    if arr.shape != (n, 4, k):
        raise ValueError(f"{where}: weights must have shape ({n}, 4, {k}) or (4, {k}) (tables, seats, kinds); "
                         f"got {arr.shape}")
    if not np.isfinite(arr).all() or (arr < 0).any():
        raise ValueError(f"{where}: weights must be finite and >= 0")
    out = np.ones((n, 4, 48), np.float32)
    out[:, :, :k] = arr
    return out


def redraw_worlds(states: TableStates, data: np.ndarray, seats: np.ndarray, k0: int, k1: int,
                  weights: np.ndarray | None = None, per: int = 1, stream0: int = 0,
                  where: str = "sample_worlds", lay: dict | None = None) -> None:
    """The redraw and re-keying of records ``data`` in place (row j: stream stream0 + j of the
    key; weights (tables, 4, 48) or None, row j using table j // per)."""
    if lay is None:
        lay = new_core(states.rules, 1).state_layout()
    fam = states.rules.family
    if fam == "chinese":
        bad, excluded = _kw.sample_chinese(data, int(lay["book_at"]), seats,
                                            {"botzone": bool(getattr(states.rules, "botzone", False))},
                                            k0, k1, stream0, 1, weights, per)
    else:
        scratch_at = int(lay["game"] + 7) // 8 * 8 + int(lay["slot"])
        bad, excluded = _kw.sample_american(data, int(lay["book_at"]), scratch_at, seats, states.rules.kernel(),
                                            k0, k1, stream0, 1, weights, per)
    if bad:
        raise ValueError(f"{where}: {bad} table state(s) are inconsistent (a hand holds tiles the wall "
                         "never gave)")
    if excluded:
        raise ValueError(f"{where}: the weights leave no tile for a concealed hand in {excluded} world(s) "
                         "(every unseen tile has weight 0 for that seat)")
    _kw.rekey(data, k0, k1, stream0, _kw.SALTS[fam])
