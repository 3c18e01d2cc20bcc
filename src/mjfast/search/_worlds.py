"""sample_worlds: the hidden tiles of many tables redrawn from one seat's view."""
from __future__ import annotations

import numpy as np

from .._kernels import worlds as _kw
from .._runtime.seeding import root_key
from ._common import check_states_arg, count_arg, deciding_seats, memory_arg
from ._states import TableStates, new_core


def sample_worlds(states: TableStates, n: int, *, seed, seat=None, threads: int | None = None) -> TableStates:
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
    threads : unused (accepted for symmetry with the other search functions).

    Returns
    -------
    TableStates
        ``len(states) * n`` states, table-major: world k of table t is row ``t * n + k``.

    Notes
    -----
    Facts taken as certain: what the seat saw. Not modelled (soft facts, or not yet): a
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
    """
    where = "sample_worlds"
    states = check_states_arg(states, where)
    n = count_arg(n, "n", where)
    seats = deciding_seats(states, seat, where)
    memory_arg(len(states) * n, states.record_bytes, f"sample_worlds({len(states):,} tables x {n:,} worlds)")
    key = root_key(seed)
    data = np.repeat(states.data, n, axis=0)
    seats_w = np.repeat(seats, n)
    redraw_worlds(states, data, seats_w, key.k0, key.k1)
    return TableStates(states.header, states.rules, data)


def redraw_worlds(states: TableStates, data: np.ndarray, seats: np.ndarray, k0: int, k1: int) -> None:
    """The redraw and re-keying of records ``data`` in place (row j: stream j of the key)."""
    core = new_core(states.rules, 1)
    lay = core.state_layout()
    fam = states.rules.family
    if fam == "chinese":
        bad = _kw.sample_chinese(data, int(lay["book_at"]), seats, {}, k0, k1, 0, 1)
    else:
        scratch_at = int(lay["game"] + 7) // 8 * 8 + int(lay["slot"])
        bad = _kw.sample_american(data, int(lay["book_at"]), scratch_at, seats, states.rules.kernel(), k0, k1, 0, 1)
    if bad:
        raise ValueError(f"sample_worlds: {bad} table state(s) are inconsistent (a hand holds tiles the wall "
                         "never gave)")
    _kw.rekey(data, k0, k1, 0, _kw.SALTS[fam])
