"""TableStates: the engine state of many tables as one numpy-backed value (save, load, slice,
concatenate, pickle), with the header that says which rules and layout the records follow."""
from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import rules as _rules
from ..game.batch import core_class, encoding_name

FORMAT = 1                 # the record format; bumped whenever a record's meaning changes
PY_BYTES = 16              # the Python block after the engine's record: game number (uint64), flags (uint64)
F_PENDING, F_DONE = 1, 2   # VecTables' autoreset bookkeeping of the table


def _card_digest(rules: _rules.RuleSet) -> str | None:
    card = getattr(rules, "card", None)
    if card is None:
        return None
    h = hashlib.sha256()
    tables = card.kernel_tables()
    for key in sorted(tables):
        v = tables[key]
        h.update(key.encode())
        h.update(np.ascontiguousarray(v).tobytes() if isinstance(v, np.ndarray) else repr(v).encode())
    return h.hexdigest()[:16]


def _options_digest(rules: _rules.RuleSet) -> str:
    opts = rules.to_dict()
    opts.pop("name", None)
    blob = json.dumps(opts, sort_keys=True, default=str) + "|" + str(_card_digest(rules))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _layout_digest(layout: dict) -> str:
    return hashlib.sha256(json.dumps(layout, sort_keys=True).encode()).hexdigest()[:16]


def layout_of(core) -> dict:
    """The record layout of a batched-table kernel object (ChineseVec / AmericanVec)."""
    return dict(core.state_layout())


def make_header(rules: _rules.RuleSet, core) -> dict:
    layout = layout_of(core)
    return {"format": FORMAT, "family": rules.family, "rules": rules.name, "options": _options_digest(rules),
            "card": _card_digest(rules), "encoding": encoding_name(rules.family), "layout": _layout_digest(layout),
            "record_bytes": int(layout["record"]) + PY_BYTES}


_MULT = None


def checksums(data: np.ndarray) -> np.ndarray:
    """A 64-bit checksum per record (row of ``data``, uint8, width a multiple of 8): a keyed
    polynomial over the record's words; any change of one word changes it."""
    global _MULT
    words = data.view(np.uint64)
    m = words.shape[1]
    if _MULT is None or _MULT.shape[0] < m:
        g = np.random.Generator(np.random.PCG64(0x5EA2C4))
        _MULT = g.integers(0, 2**63, size=max(m, 1024), dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    mixed = words ^ (words >> np.uint64(29))
    with np.errstate(over="ignore"):
        return (mixed * _MULT[:m]).sum(axis=1, dtype=np.uint64) ^ np.uint64(m)


class TableStates:
    """The engine state of ``n`` tables: everything a table needs to continue bit for bit
    (walls, hands, exposures, discards, scores, the phase and pending question, the random
    streams' positions, the game's counters), one fixed-size record per table.

    Made by :meth:`mjfast.env.VecTables.save`; read back by :meth:`~mjfast.env.VecTables.load`,
    :func:`mjfast.search.sample_worlds`, :func:`mjfast.search.rollout` and
    :func:`mjfast.search.evaluate`. A value: picklable (send it to Dask workers), sliceable
    (``states[2:5]``, ``states[[0, 3]]``), concatenable (:meth:`concat`); ``len(states)`` tables.

    Memory: :attr:`record_bytes` per table (3,928 bytes for the Chinese rule sets, of which 920
    are the game's counters; 2,960 for American, more with a card, whose scratch is part of
    the state: 6,736 with the toy card) plus 8 bytes of checksum; :attr:`nbytes` in all.

    Attributes
    ----------
    header : dict
        ``format`` (record format version), ``family``, ``rules`` (name), ``options`` (digest
        of the rule options and card), ``card`` (digest of the card's tables or None),
        ``encoding`` (the observation/action encoding), ``layout`` (digest of the engine's
        struct sizes) and ``record_bytes``. Loading refuses a state whose header differs from
        the tables'.
    rules : RuleSet
        The rule set the tables played.
    data : ndarray (n, record_bytes) uint8
        The records (private layout).

    Notes
    -----
    Event logs are output, not state: a loaded table's log starts empty. Tables playing
    scripted walls (a log replayed by :func:`mjfast.replay`) carry only their current hand:
    their later hands' walls are not in the state, so such states play to the end of the hand
    (``until="hand"``) and cannot be loaded into a :class:`~mjfast.env.VecTables`.

    Examples
    --------
    >>> from mjfast.env import VecTables
    >>> from mjfast.search import TableStates
    >>> env = VecTables(4, rules="mcr", seed=1)
    >>> obs, info = env.reset()
    >>> s = env.save()
    >>> len(s), s.header["rules"], s.nbytes == len(s) * (s.record_bytes + 8)
    (4, 'mcr', True)
    >>> len(TableStates.concat([s[:1], s[2:]]))
    3
    """

    __slots__ = ("header", "rules", "data", "checksum")

    def __init__(self, header: dict, rules: _rules.RuleSet, data: np.ndarray, checksum: np.ndarray | None = None):
        self.header = dict(header)
        self.rules = rules
        self.data = np.ascontiguousarray(data, dtype=np.uint8)
        if self.data.ndim != 2 or self.data.shape[1] != self.header["record_bytes"]:
            raise ValueError(f"TableStates: data must have shape (n, {self.header['record_bytes']}); "
                             f"got {self.data.shape}")
        self.checksum = checksums(self.data) if checksum is None else np.ascontiguousarray(checksum, np.uint64)

    # -- the value --------------------------------------------------------------------------
    def __len__(self) -> int:
        return int(self.data.shape[0])

    @property
    def record_bytes(self) -> int:
        """Bytes of one table's record."""
        return int(self.header["record_bytes"])

    @property
    def nbytes(self) -> int:
        """Bytes held: the records and their checksums."""
        return int(self.data.nbytes + self.checksum.nbytes)

    def __getitem__(self, key) -> TableStates:
        if isinstance(key, (int, np.integer)) and not isinstance(key, bool):
            n = len(self)
            if not -n <= key < n:
                raise IndexError(f"table {key} out of range for {n} states")
            key = slice(key % n, key % n + 1)
        if isinstance(key, slice):
            return TableStates(self.header, self.rules, self.data[key], self.checksum[key])
        idx = np.asarray(key)
        if idx.dtype == bool:
            if idx.shape != (len(self),):
                raise IndexError(f"a boolean index must have shape ({len(self)},)")
        elif idx.dtype.kind not in "iu":
            raise TypeError(f"TableStates index must be an int, a slice, or an array of ints or bools; got {key!r}")
        return TableStates(self.header, self.rules, self.data[idx], self.checksum[idx])

    @classmethod
    def concat(cls, parts: Sequence[TableStates]) -> TableStates:
        """One TableStates of ``parts`` in order (every part of the same rules and layout)."""
        parts = list(parts)
        if not parts:
            raise ValueError("TableStates.concat: nothing to concatenate (an empty list)")
        for p in parts:
            if not isinstance(p, TableStates):
                raise TypeError(f"TableStates.concat takes TableStates, not {type(p).__name__}")
        first = parts[0]
        for p in parts[1:]:
            diff = header_difference(first.header, p.header)
            if diff:
                raise ValueError(f"TableStates.concat: the states differ in {diff}")
        return cls(first.header, first.rules, np.concatenate([p.data for p in parts]),
                   np.concatenate([p.checksum for p in parts]))

    def __reduce__(self):
        return (TableStates, (self.header, self.rules, self.data, self.checksum))

    def __eq__(self, other: Any) -> bool:
        if not isinstance(other, TableStates):
            return NotImplemented
        return self.header == other.header and np.array_equal(self.data, other.data)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"TableStates({len(self)} tables, rules={self.header['rules']!r}, "
                f"{self.record_bytes:,} bytes per table)")

    # -- reading the records ----------------------------------------------------------------
    def _book(self, layout: dict) -> np.ndarray:
        at = int(layout["book_at"])
        return self.data[:, at:at + 32].copy().view(np.int32)

    def _py(self) -> np.ndarray:
        return self.data[:, -PY_BYTES:].copy().view(np.uint64)

    def verify(self) -> None:
        """Raise ValueError when a record's checksum does not match (a corrupted buffer)."""
        bad = np.flatnonzero(checksums(self.data) != self.checksum)
        if bad.size:
            raise ValueError(f"TableStates: record {int(bad[0])} is corrupted (its checksum does not match; "
                             f"{bad.size} record(s) in all)")


def header_difference(want: dict, got: dict) -> str:
    """'' when two headers match, else what differs, in words."""
    names = {"format": "format version", "family": "rule family", "rules": "rule set", "options": "rule options",
             "card": "card", "encoding": "encoding version", "layout": "engine layout (struct sizes)",
             "record_bytes": "record size"}
    out = []
    for key, what in names.items():
        if want.get(key) != got.get(key):
            out.append(f"{what} ({got.get(key)!r}, expected {want.get(key)!r})")
    return "; ".join(out)


def check_states(states, rules: _rules.RuleSet, core, where: str) -> None:
    """Everything about ``states`` checked against tables ``core`` of ``rules`` (header,
    checksums, engine invariants); raises TypeError/ValueError naming the problem."""
    if not isinstance(states, TableStates):
        raise TypeError(f"{where}: states must be a mjfast.search.TableStates (from VecTables.save), "
                        f"not {type(states).__name__}")
    want = make_header(rules, core)
    diff = header_difference(want, states.header)
    if diff:
        raise ValueError(f"{where}: the states do not fit these tables: {diff}")
    states.verify()
    n_engine = int(layout_of(core)["record"])
    codes = core.check_states(np.ascontiguousarray(states.data[:, :n_engine]))
    bad = np.flatnonzero(codes)
    if bad.size:
        msgs = family_module(rules.family).STATE_ERRORS
        raise ValueError(f"{where}: record {int(bad[0])} is not a valid table state: "
                         f"{msgs.get(int(codes[bad[0]]), 'invalid')}")


def family_module(family: str):
    from .._kernels import american_env, chinese_env
    return chinese_env if family == "chinese" else american_env


def new_core(rules: _rules.RuleSet, n: int, *, skip_forced: bool = True):
    return core_class(rules.family)(rules.kernel(), n, skip_forced, False, False)


def save_rows(rules: _rules.RuleSet, core, rows: np.ndarray) -> TableStates:
    """The states of rows ``rows`` of a batched-table kernel object (no Python bookkeeping)."""
    hdr = make_header(rules, core)
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    data = np.zeros((rows.size, hdr["record_bytes"]), np.uint8)
    core.save_states(rows, data)
    return TableStates(hdr, rules, data)
