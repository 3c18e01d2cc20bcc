"""The fan scores (private; :mod:`mjfast.mcr` is the public face): the table of the 82 fans,
the results, :func:`fan` for one hand and :func:`fan_batch` for arrays of hands, and
:func:`win_fans`, the fans of wins on given tiles that the hand analyses show beside their waits."""
from __future__ import annotations

import dataclasses
import functools
import numbers
from collections.abc import Sequence

import numpy as np

from .. import _core, tiles
from .._display import Display, Displayed, Table, frame
from .._kernels import mcr_fan as _kernel
from .._kernels import onehand as _onehand
from .._runtime.threads import resolve_threads
from ._input import KIND, MELD_CODE, WINDS, check_flag, check_min_fan, check_wind, expand_melds, prepare, prepare_text

#: (English name, Chinese name, value) of every fan, in the kernel's column order: the 80 hand
#: fans of the Chinese Official rules, Flower Tiles, and "Concealed Kong and Melded Kong".
FANS: tuple = (
    ("Big Four Winds", "大四喜", 88), ("Big Three Dragons", "大三元", 88), ("All Green", "绿一色", 88),
    ("Nine Gates", "九莲宝灯", 88), ("Four Kongs", "四杠", 88), ("Seven Shifted Pairs", "连七对", 88),
    ("Thirteen Orphans", "十三幺", 88), ("All Terminals", "清幺九", 64), ("Little Four Winds", "小四喜", 64),
    ("Little Three Dragons", "小三元", 64), ("All Honors", "字一色", 64), ("Four Concealed Pungs", "四暗刻", 64),
    ("Pure Terminal Chows", "一色双龙会", 64), ("Quadruple Chow", "一色四同顺", 48),
    ("Four Pure Shifted Pungs", "一色四节高", 48), ("Four Pure Shifted Chows", "一色四步高", 32),
    ("Three Kongs", "三杠", 32), ("All Terminals and Honors", "混幺九", 32), ("Seven Pairs", "七对", 24),
    ("Greater Honors and Knitted Tiles", "七星不靠", 24), ("All Even Pungs", "全双刻", 24),
    ("Full Flush", "清一色", 24), ("Pure Triple Chow", "一色三同顺", 24), ("Pure Shifted Pungs", "一色三节高", 24),
    ("Upper Tiles", "全大", 24), ("Middle Tiles", "全中", 24), ("Lower Tiles", "全小", 24),
    ("Pure Straight", "清龙", 16), ("Three-Suited Terminal Chows", "三色双龙会", 16),
    ("Pure Shifted Chows", "一色三步高", 16), ("All Five", "全带五", 16), ("Triple Pung", "三同刻", 16),
    ("Three Concealed Pungs", "三暗刻", 16), ("Lesser Honors and Knitted Tiles", "全不靠", 12),
    ("Knitted Straight", "组合龙", 12), ("Upper Four", "大于五", 12), ("Lower Four", "小于五", 12),
    ("Big Three Winds", "三风刻", 12), ("Mixed Straight", "花龙", 8), ("Reversible Tiles", "推不倒", 8),
    ("Mixed Triple Chow", "三色三同顺", 8), ("Mixed Shifted Pungs", "三色三节高", 8), ("Chicken Hand", "无番和", 8),
    ("Last Tile Draw", "妙手回春", 8), ("Last Tile Claim", "海底捞月", 8), ("Out with Replacement Tile", "杠上开花", 8),
    ("Robbing The Kong", "抢杠和", 8), ("All Pungs", "碰碰和", 6), ("Half Flush", "混一色", 6),
    ("Mixed Shifted Chows", "三色三步高", 6), ("All Types", "五门齐", 6), ("Melded Hand", "全求人", 6),
    ("Two Concealed Kongs", "双暗杠", 6), ("Two Dragons Pungs", "双箭刻", 6), ("Outside Hand", "全带幺", 4),
    ("Fully Concealed Hand", "不求人", 4), ("Two Melded Kongs", "双明杠", 4), ("Last Tile", "和绝张", 4),
    ("Dragon Pung", "箭刻", 2), ("Prevalent Wind", "圈风刻", 2), ("Seat Wind", "门风刻", 2),
    ("Concealed Hand", "门前清", 2), ("All Chows", "平和", 2), ("Tile Hog", "四归一", 2), ("Double Pung", "双同刻", 2),
    ("Two Concealed Pungs", "双暗刻", 2), ("Concealed Kong", "暗杠", 2), ("All Simples", "断幺", 2),
    ("Pure Double Chow", "一般高", 1), ("Mixed Double Chow", "喜相逢", 1), ("Short Straight", "连六", 1),
    ("Two Terminal Chows", "老少副", 1), ("Pung of Terminals or Honors", "幺九刻", 1), ("Melded Kong", "明杠", 1),
    ("One Voided Suit", "缺一门", 1), ("No Honors", "无字", 1), ("Edge Wait", "独听・边张", 1),
    ("Closed Wait", "独听・嵌张", 1), ("Single Wait", "独听・单钓", 1), ("Self-Drawn", "自摸", 1),
    ("Flower Tiles", "花牌", 1), ("Concealed Kong and Melded Kong", "明暗杠", 5),
)
assert len(FANS) == 82 and [v for _, _, v in FANS] == _kernel.FAN_VALUES
FAN_NAMES: tuple = tuple(n for n, _, _ in FANS)
_INDEX = {n: i for i, n in enumerate(FAN_NAMES)}
FLOWER_COLUMN = _INDEX["Flower Tiles"]


@dataclasses.dataclass(frozen=True)
class Fan:
    """One fan a hand counts: its names, how many times, and its value each time."""

    name: str
    chinese: str
    count: int
    value: int

    @property
    def fans(self) -> int:
        return self.count * self.value


@dataclasses.dataclass(frozen=True, repr=False)
class FanResult(Displayed):
    """The fans of one hand (see :func:`fan`). ``str()`` lists them; ``repr`` (and Jupyter)
    show them as a table; ``to_dict()`` gives JSON, ``to_pandas()`` one row per fan.

    Attributes
    ----------
    total : int
        All fans, flowers included (0 when the hand is not a win).
    fans : tuple of Fan
        The fans counted, in the order of :data:`FANS`.
    is_win : bool
        Whether the winning tile completes the hand.
    flowers : int
    """

    total: int
    fans: tuple
    is_win: bool
    flowers: int

    @property
    def total_without_flowers(self) -> int:
        """The fans that count towards the minimum for a win (flowers never do)."""
        return self.total - self.flowers

    def reaches(self, min_fan: int = 8) -> bool:
        """Whether this is a valid Chinese Official win: complete, with at least ``min_fan``
        fans not counting flowers (``min_fan`` checked as every fan function checks it)."""
        return self.is_win and self.total_without_flowers >= check_min_fan(min_fan)

    def count(self, name: str) -> int:
        """How many times fan ``name`` (English, as in :data:`FAN_NAMES`) counts."""
        if name not in _INDEX:
            raise ValueError(f"unknown fan {name!r}")
        return next((f.count for f in self.fans if f.name == name), 0)

    def to_dict(self) -> dict:
        return {"total": self.total, "is_win": self.is_win, "flowers": self.flowers,
                "fans": [dataclasses.asdict(f) for f in self.fans]}

    def to_pandas(self):
        """One row per fan counted: ``fan``, ``chinese`` (text), ``value``, ``count`` and
        ``fans`` (value x count, int64); ``df.attrs`` holds total, is_win and flowers (needs
        pandas).

        Examples
        --------
        >>> from mjfast import mcr
        >>> df = mcr.fan("123456789m11z [555z]", win_tile="9m").to_pandas()   # doctest: +SKIP
        >>> int(df["fans"].sum()), str(df["value"].dtype)   # doctest: +SKIP
        (24, 'int64')
        """
        rows = [{"fan": f.name, "chinese": f.chinese, "value": f.value, "count": f.count, "fans": f.fans}
                for f in self.fans]
        return frame(("fan", "chinese", "value", "count", "fans"), rows, what="FanResult.to_pandas()",
                     attrs={"total": self.total, "is_win": self.is_win, "flowers": self.flowers},
                     dtypes={"fan": "text", "chinese": "text", "value": "int64", "count": "int64", "fans": "int64"})

    def _display(self) -> Display:
        if not self.is_win:
            return Display("FanResult: not a win (the winning tile does not complete the hand)")
        rows = [(f.name, f.chinese, f.value, f.count, f.fans) for f in self.fans]
        return Display(f"FanResult: {self.total} fans ({self.total_without_flowers} without flowers)",
                       [Table(("fan", "chinese", "value", "count", "fans"), rows)])

    def __str__(self) -> str:
        if not self.is_win:
            return "not a win"
        rows = [f"{f.name} ({f.chinese}) {f.value}" + (f" x{f.count}" if f.count > 1 else "") for f in self.fans]
        return "\n".join(rows + [f"total {self.total}"])


@functools.cache
def _fan_entry(i: int, count: int) -> Fan:
    """The (immutable) Fan of FANS[i] counted `count` times."""
    return Fan(FANS[i][0], FANS[i][1], count, FANS[i][2])


def fan(hand, *, melds: Sequence = (), win_tile, self_drawn: bool = False, fourth_tile: bool = False,
        kong: bool = False, last_of_wall: bool = False, seat_wind="E", prevalent_wind="E",
        flowers: int | None = None) -> FanResult:
    """The Chinese Official fans of a winning hand.

    Parameters
    ----------
    hand : str or array_like (34,)
        The concealed tiles, with or without the winning tile (a hand of 14 tiles, counting 3
        per set, holds it), in mjfast's notation: called sets in brackets (``[456p]``),
        concealed kongs in parentheses (``(2222z)``), flowers ``f1``-``f8``; or 34 counts.
    melds : sequence or str
        More sets (besides those in the text): :class:`mjfast.tiles.Meld`, text in the hand's
        notation (``"[789s]"``, ``"(2222z)"``; one text may hold several sets, as the command
        line's ``--melds`` does, and ``melds`` may be one such text), or tuples
        ``(kind, tile, supplier)``, kind "chow" (tile = its lowest), "pung" or "kong";
        supplier "exposed" (the default), "concealed", or who supplied the claimed tile as
        PyMahjongGB's ``offer`` gives it: 1-3 (for a pung or kong the supplier's seat relative
        to the winner, for a chow which of its tiles was claimed; any of them means exposed,
        and no fan depends on which). A concealed kong is a declared kong; a concealed chow or
        pung (a set declared but not claimed) is accepted as the reference accepts it.
    win_tile : str or int
        The winning tile.
    self_drawn : bool
        Won on a tile drawn from the wall (else on a discard).
    fourth_tile : bool
        The winning tile is the last copy: three are already shown (discards and sets) —
        "Last Tile"; corrected as the reference does (cleared when the hand holds another copy,
        set when the hand's own sets hold three).
    kong : bool
        Self-drawn: the replacement tile of a kong ("Out with Replacement Tile"); on a discard:
        robbing a kong ("Robbing The Kong").
    last_of_wall : bool
        The last tile of the live wall ("Last Tile Draw" / "Last Tile Claim").
    seat_wind, prevalent_wind : {"E", "S", "W", "N"} or 0-3
    flowers : int or None
        Flower tiles (0-8), 1 fan each, never towards the minimum; None: those in the text.

    Returns
    -------
    FanResult
        ``is_win`` False (total 0) when the winning tile does not complete the hand.

    Raises
    ------
    ValueError
        A fifth copy of a kind, a wrong number of tiles, a malformed set or flag.

    Examples
    --------
    >>> r = fan("19m19p19s1234567z", win_tile="1m", self_drawn=True)
    >>> r.total, [f.name for f in r.fans]
    (89, ['Thirteen Orphans', 'Self-Drawn'])
    >>> r = fan("11m [234p] [555s] (7777z) 99p", win_tile="9p", seat_wind="S")
    >>> r.total, r.reaches(8), [f.name for f in r.fans]
    (5, False, ['Dragon Pung', 'Concealed Kong', 'Pung of Terminals or Honors'])
    >>> fan("11m 99p", melds=["[234p]", "[555s] (7777z)"], win_tile="9p", seat_wind="S").total   # sets as text
    5
    """
    one = _onehand.fan_call(hand, melds, win_tile, self_drawn, fourth_tile, kong, last_of_wall, seat_wind,
                            prevalent_wind, flowers)
    if one is not None:                       # one compiled call read, checked and scored it (the common case)
        return one
    as_text = _fan_sets_as_text(hand, melds, win_tile, self_drawn, fourth_tile, kong, last_of_wall, seat_wind,
                                prevalent_wind, flowers)
    if as_text is not None:
        return as_text
    if type(hand) is str and type(melds) in (tuple, list) and not melds and type(win_tile) in (str, int):
        counts_b, row_b, win, text_flowers = prepare_text(hand, win_tile)     # (cached)
    else:
        counts_b, row_b, win, text_flowers = prepare(hand, melds, win_tile)
    nf = text_flowers if flowers is None else flowers
    if not (type(nf) is int and 0 <= nf <= 8):
        if isinstance(nf, bool) or not isinstance(nf, numbers.Integral) or not 0 <= int(nf) <= 8:
            raise ValueError(f"flowers must be 0-8; got {nf!r}")
        nf = int(nf)
    _core.ensure_tables()
    got, fan_counts = _kernel.fan_one(counts_b, row_b, win, check_flag(self_drawn, "self_drawn"),
                                      check_flag(fourth_tile, "fourth_tile"), check_flag(kong, "kong"),
                                      check_flag(last_of_wall, "last_of_wall"), check_wind(seat_wind, "seat_wind"),
                                      check_wind(prevalent_wind, "prevalent_wind"), int(nf))
    return FanResult(got, tuple(_fan_entry(i, c) for i, c in fan_counts), got > 0, int(nf) if got > 0 else 0)


_FANS_OF: dict = {}     # the 82 fan counts as bytes -> FanResult.fans (a few thousand distinct lists)


def _fans_of(counts: bytes) -> tuple:
    """FanResult.fans of the kernel's 82 fan counts (int8 as bytes), kept for the next hand with
    the same fans (the compiled one-hand call looks them up there first)."""
    fans = _FANS_OF.get(counts)
    if fans is None:
        if len(_FANS_OF) >= 1 << 16:       # (a bound for pathological programs; real play has far fewer)
            _FANS_OF.clear()
        fans = _FANS_OF[counts] = tuple(_fan_entry(i, c) for i, c in enumerate(counts) if c)
    return fans


_onehand.fan_setup(KIND, WINDS, MELD_CODE, tiles.Meld, _FANS_OF, _fans_of, FanResult)


def _fan_sets_as_text(hand, melds, win_tile, self_drawn, fourth_tile, kong, last_of_wall, seat_wind, prevalent_wind,
                      flowers) -> FanResult | None:
    """:func:`fan` when ``melds`` gives sets as text: the texts read (cached), then the compiled
    call of :func:`fan` on the sets they hold; None when that does not take it (no text among
    the sets, or invalid input): :func:`fan`'s general path then raises its usual error."""
    if not (type(melds) is str or (type(melds) in (list, tuple) and any(type(m) is str for m in melds))):
        return None
    try:
        sets = expand_melds(melds)
    except ValueError:
        return None
    return _onehand.fan_call(hand, sets, win_tile, self_drawn, fourth_tile, kong, last_of_wall, seat_wind,
                             prevalent_wind, flowers)


def fan_batch(hands, win_tile, *, melds=None, self_drawn=False, fourth_tile=False, kong=False, last_of_wall=False,
              seat_wind=0, prevalent_wind=0, flowers=0, threads: int | None = None) -> tuple:
    """The fans of many hands at once (a nogil kernel on ``threads`` threads).

    Parameters
    ----------
    hands : array_like (N, 34) of int
        The concealed tiles of each hand without its winning tile (13 - 3 * sets tiles).
    win_tile : array_like (N,) of int
        Each hand's winning tile kind.
    melds : array_like (N, 4, 3) of int, optional
        Each hand's sets: (kind, lowest tile, exposed) with kind 1 chow, 2 pung, 3 kong, 0 no
        set; exposed 1 for a claimed set, 0 for a concealed one (a declared kong).
    self_drawn, fourth_tile, kong, last_of_wall : bool or array_like (N,) of bool
    seat_wind, prevalent_wind : int or array_like (N,) of 0-3
    flowers : int or array_like (N,) of 0-8
    threads : int or None

    Returns
    -------
    total : ndarray (N,) int32
        Fans including flowers; 0 for a hand that is not a win.
    counts : ndarray (N, 82) int8
        How many times each fan counts, columns in :data:`FAN_NAMES` order.

    Raises
    ------
    ValueError
        Naming the first row with a wrong tile count, a fifth copy, a malformed set or a flag
        out of range.

    Examples
    --------
    >>> import numpy as np
    >>> from mjfast import tiles
    >>> hands = np.stack([tiles.parse_hand("123456789m123p5p"), tiles.parse_hand("123m456p789s1122z")])
    >>> total, counts = fan_batch(hands, [tiles.tile_index("5p"), tiles.tile_index("2z")])
    >>> total.tolist(), int(counts[0, FAN_NAMES.index("Pure Straight")])
    ([23, 11], 1)
    """
    columns = (("win_tile", win_tile, 0, 33), ("self_drawn", self_drawn, 0, 1), ("fourth_tile", fourth_tile, 0, 1),
               ("kong", kong, 0, 1), ("last_of_wall", last_of_wall, 0, 1), ("seat_wind", seat_wind, 0, 3),
               ("prevalent_wind", prevalent_wind, 0, 3), ("flowers", flowers, 0, 8))
    fused = _batch_rows(hands, melds, columns)
    if fused is not None:        # the kernel checks every row in its own pass (the checks below name a bad one)
        h8, m8, flags8 = fused
        n = len(h8)
        out_total = np.zeros(n, np.int32)
        out_counts = np.zeros((n, 82), np.int8)
        if n == 0:
            return out_total, out_counts
        _core.ensure_tables()
        if _kernel.fan_batch_checked(h8, m8, flags8, out_total, out_counts, resolve_threads(threads)):
            return out_total, out_counts
    h = np.asarray(hands)
    if h.ndim != 2 or h.shape[1] != 34 or h.dtype.kind not in "iu":
        raise ValueError(f"hands must be an (N, 34) integer array of counts; got shape {h.shape}")
    n = h.shape[0]
    if (h < 0).any() or (h > 4).any():
        raise ValueError(f"row {int(np.argwhere((h < 0) | (h > 4))[0, 0])}: counts must be 0-4")
    win = _column(win_tile, n, "win_tile", 0, 33)
    m = np.zeros((n, 4, 3), np.int64) if melds is None else np.asarray(melds)
    if m.shape != (n, 4, 3) or m.dtype.kind not in "iu":
        raise ValueError(f"melds must be an (N, 4, 3) integer array; got shape {m.shape}")
    kind, first, exposed = m[:, :, 0], m[:, :, 1], m[:, :, 2]
    bad = (kind < 0) | (kind > 3) | ((kind > 0) & ((first < 0) | (first > 33))) | ((exposed != 0) & (exposed != 1))
    bad |= (kind == 1) & ((first >= 27) | (first % 9 > 6))
    if bad.any():
        raise ValueError(f"row {int(np.argwhere(bad)[0, 0])}: a malformed set (kind 0-3, a chow's lowest tile 1-7 "
                         "of a suit, exposed 0/1)")
    n_sets = (kind > 0).sum(axis=1)
    sizes = h.sum(axis=1)
    wrong = sizes != 13 - 3 * n_sets
    if wrong.any():
        i = int(np.flatnonzero(wrong)[0])
        raise ValueError(f"row {i}: {int(sizes[i])} concealed tiles with {int(n_sets[i])} sets; a hand holds 13 - 3 "
                         "per set besides its winning tile")
    total = h.astype(np.int64).copy()
    rows = np.arange(n)
    total[rows, win] += 1
    for j in range(4):
        for off in range(3):
            sel = (kind[:, j] == 1)
            np.add.at(total, (rows[sel], np.clip(first[sel, j] + off, 0, 33)), 1)
        sel = kind[:, j] >= 2
        np.add.at(total, (rows[sel], first[sel, j]), np.where(kind[sel, j] == 3, 4, 3))
    if (total > 4).any():
        raise ValueError(f"row {int(np.argwhere(total > 4)[0, 0])}: more than 4 copies of a kind")
    flags = np.stack([win, _column(self_drawn, n, "self_drawn", 0, 1), _column(fourth_tile, n, "fourth_tile", 0, 1),
                      _column(kong, n, "kong", 0, 1), _column(last_of_wall, n, "last_of_wall", 0, 1),
                      _column(seat_wind, n, "seat_wind", 0, 3), _column(prevalent_wind, n, "prevalent_wind", 0, 3),
                      _column(flowers, n, "flowers", 0, 8)], axis=1).astype(np.int32)
    out_total = np.zeros(n, np.int32)
    out_counts = np.zeros((n, 82), np.int8)
    if n:
        _core.ensure_tables()
        _kernel.fan_batch(np.ascontiguousarray(h, dtype=np.uint8), np.ascontiguousarray(m.reshape(n, 12), dtype=np.uint8),
                          np.ascontiguousarray(flags), out_total, out_counts, resolve_threads(threads))
    return out_total, out_counts


def _batch_rows(hands, melds, columns) -> tuple | None:
    """fan_batch's input as the checked kernel reads it -- hands (N, 34) uint8, sets (N, 12) uint8,
    the winning tile and the seven flags (N, 8) int32 -- without int64 copies: arrays already of
    those dtypes are used as they are, others converted once their values are known to fit.
    None when the input is not of a shape and type the kernel takes, or holds values that do
    not fit (fan_batch's checks then raise their error)."""
    h = np.asarray(hands)
    if h.ndim != 2 or h.shape[1] != 34 or h.dtype.kind not in "iu":
        return None
    n = h.shape[0]
    if h.dtype != np.uint8:
        if n and (int(h.min()) < 0 or int(h.max()) > 4):
            return None
        h = h.astype(np.uint8)
    h = np.ascontiguousarray(h)
    if melds is None:
        m = np.zeros((n, 12), np.uint8)
    else:
        m = np.asarray(melds)
        if m.shape != (n, 4, 3) or m.dtype.kind not in "iu":
            return None
        if m.dtype != np.uint8:
            if n and (int(m.min()) < 0 or int(m.max()) > 255):
                return None
            m = m.astype(np.uint8)
        m = np.ascontiguousarray(m).reshape(n, 12)
    flags = np.empty((n, 8), np.int32)
    for j, (_name, v, lo, hi) in enumerate(columns):
        a = np.asarray(v)
        if a.dtype.kind not in "iub" or (a.ndim and a.shape != (n,)) or a.ndim > 1:
            return None
        if a.dtype.kind != "b" and a.size and (int(a.min()) < lo or int(a.max()) > hi):
            return None
        flags[:, j] = a
    return h, m, flags


def win_fans(rows: np.ndarray, wins, melds=None, *, fourth_tile=False, seat_wind=0, prevalent_wind=0,
                threads: int | None = 1) -> tuple:
    """Fans (no flowers) of each row of concealed tiles won on its tile, on a discard and
    self-drawn: two (M,) int32 arrays (0: not a win). ``melds``: one (4, 3) array of sets (see
    :func:`mjfast.mcr._input.melds_array`) shared by every row, or None; ``fourth_tile``: a bool or (M,) bools;
    the winds as :func:`fan` takes them."""
    m = len(rows)
    if m == 0:
        return np.zeros(0, np.int32), np.zeros(0, np.int32)
    wins = np.asarray(wins, np.int64)
    fourth = np.broadcast_to(np.asarray(fourth_tile, bool), (m,))
    both = np.concatenate([rows, rows])
    mel = None if melds is None else np.broadcast_to(np.asarray(melds, np.int64), (2 * m, 4, 3))
    total, _ = fan_batch(both, np.concatenate([wins, wins]), melds=mel, self_drawn=np.repeat(np.array([0, 1]), m),
                         fourth_tile=np.concatenate([fourth, fourth]), seat_wind=check_wind(seat_wind, "seat_wind"),
                         prevalent_wind=check_wind(prevalent_wind, "prevalent_wind"), threads=threads)
    return total[:m], total[m:]


def _column(v, n: int, name: str, lo: int, hi: int) -> np.ndarray:
    a = np.asarray(v)
    if a.dtype == bool or (a.size == 0 and a.dtype.kind == "f"):    # ([] is an empty float array)
        a = a.astype(np.int64)
    if a.dtype.kind not in "iu":
        raise ValueError(f"{name} must be integers (or bools); got dtype {a.dtype}")
    a = np.broadcast_to(a, (n,)) if a.ndim == 0 else a
    if a.shape != (n,):
        raise ValueError(f"{name} must be a scalar or have shape ({n},); got {a.shape}")
    if n and ((a < lo) | (a > hi)).any():
        i = int(np.flatnonzero((a < lo) | (a > hi))[0])
        raise ValueError(f"row {i}: {name} must be {lo}-{hi}; got {int(a[i])}")
    return a.astype(np.int64)
