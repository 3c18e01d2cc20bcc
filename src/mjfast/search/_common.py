"""Checks shared by the search functions (validated once here; the kernels trust their input)."""
from __future__ import annotations

import numbers

import numpy as np

from ..env import _memory
from ..game.batch import ST
from ._states import TableStates, family_module, new_core

AM_CHARLESTON = (1, 2, 3, 4)       # american_game.pxd PH_PASS .. PH_COURTESY


def check_states_arg(states, where: str) -> TableStates:
    if not isinstance(states, TableStates):
        raise TypeError(f"{where}: states must be a mjfast.search.TableStates (from VecTables.save), "
                        f"not {type(states).__name__}")
    if len(states) == 0:
        raise ValueError(f"{where}: the batch of states is empty")
    states.verify()
    core = new_core(states.rules, 1)
    from ._states import header_difference, make_header
    diff = header_difference(make_header(states.rules, core), states.header)
    if diff:
        raise ValueError(f"{where}: the states do not fit this build of mjfast: {diff}")
    n_engine = int(core.state_layout()["record"])
    codes = core.check_states(np.ascontiguousarray(states.data[:, :n_engine]))
    bad = np.flatnonzero(codes)
    if bad.size:
        msgs = family_module(states.rules.family).STATE_ERRORS
        raise ValueError(f"{where}: record {int(bad[0])} is not a valid table state: "
                         f"{msgs.get(int(codes[bad[0]]), 'invalid')}")
    return states


def count_arg(n, name: str, where: str) -> int:
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"{where}: {name} must be an int, not {type(n).__name__}")
    if n < 1:
        raise ValueError(f"{where}: {name} must be at least 1; got {n}")
    return int(n)


def memory_arg(rows: int, per_row: int, where: str) -> None:
    _memory.check(where, rows, per_row, "Use fewer worlds or fewer tables per call.")


def book(states: TableStates) -> np.ndarray:
    """(n, 8) int32: status, acting seat, ... of each record (states.pxd BOOK_*)."""
    lay = new_core(states.rules, 1).state_layout()
    return states._book(lay)


def phases(states: TableStates) -> np.ndarray:
    """(n,) int32: the engine phase of each record (table_t.phase)."""
    lay = new_core(states.rules, 1).state_layout()
    at = int(lay["policy_at"]) + 16 + 12           # policy[4], hands_per_game, hand_no, dealer, turn, phase
    return states.data[:, at + 4:at + 8].copy().view(np.int32).ravel()


def deciding_seats(states: TableStates, seat, where: str) -> np.ndarray:
    """The viewing seat of every table: ``seat`` (an int or one per table) or the acting seat,
    refusing tables without a hand in progress (or, seat=None, without a decision)."""
    b = book(states)
    status = b[:, 0]
    n = len(states)
    if seat is None:
        bad = np.flatnonzero(status != ST["decide"])
        if bad.size:
            t = int(bad[0])
            raise ValueError(f"{where}: table {t} has no decision to make (status "
                             f"{_status_name(int(status[t]))}); give seat= to view it from a seat")
        seats = b[:, 1].astype(np.int8)
    else:
        arr = np.asarray(seat)
        if arr.dtype == bool or arr.dtype.kind not in "iu":
            raise TypeError(f"{where}: seat must be a seat 0-3 (an int) or one per table; got {seat!r}")
        seats = np.broadcast_to(arr, (n,)).astype(np.int8) if arr.ndim == 0 else arr.astype(np.int8)
        if seats.shape != (n,):
            raise ValueError(f"{where}: seat must be one int or {n} of them (one per table); got shape {arr.shape}")
        if ((seats < 0) | (seats > 3)).any():
            raise ValueError(f"{where}: seats are 0-3; got {seat!r}")
        bad = np.flatnonzero((status != ST["decide"]) & (status != ST["hand_end"]))
        if bad.size:
            t = int(bad[0])
            raise ValueError(f"{where}: table {t} has no hand in progress (status {_status_name(int(status[t]))})")
    if states.rules.family == "american":
        ch = np.flatnonzero(np.isin(phases(states), AM_CHARLESTON))
        if ch.size:
            raise ValueError(f"{where}: table {int(ch[0])} is in the Charleston; worlds are sampled from the first "
                             "discard on (the passes' hidden tiles are not modelled yet)")
    return np.ascontiguousarray(seats)


def _status_name(code: int) -> str:
    return {v: k for k, v in ST.items()}.get(code, str(code))
