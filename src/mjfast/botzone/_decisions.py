"""Botzone hands as training arrays: every decision a hand shows, with the deciding player's
``cn-v0`` observation and legal-action mask.

Each hand is laid out as :mod:`._table` lays it out (every tile where the player drew it; the
hand is the engine's hand ``4 x quan``, the hands before it skipped) and turned into a script:
the action id of each decision the hand shows (a discard, a chow, a pung, a kong, a win), in
order, with the player who takes it. The engine plays the scripts itself, without the GIL
(``ChineseVec.play_scripts``): at every question the answer is the script's next action when
the question is that player's, else a pass. Forced questions are asked too (so the script
stays in step) and left out of the rows, as :func:`mjfast.env.decisions` leaves them out.

Hands go a chunk at a time: the compiled layout (``chinese_env.layout_hands``) lays out and
scripts the common hands; a hand it leaves (a concealed kong of an unknown tile, a hand that
cannot be played) goes to the Python layout (:func:`prepare`), which plays it or says why not.
Both give the same walls and scripts (tests/botzone/test_decisions.py).
"""
from __future__ import annotations

import dataclasses
import itertools
import operator
from collections.abc import Iterable

import numpy as np

from .. import _core
from .. import rules as _rules
from .._kernels import botzone_text as _text_kernel
from .._kernels import chinese_env as _env_kernel
from .._runtime.progress import Progress
from ..env._collect import Collector
from ..game import chinese as _chinese
from . import _logs, _tiles
from ._hand import ACTION_KINDS, ANGANG, BUGANG, BUHUA, CHI, DRAW, GANG, HU, PENG, PLAY, Hand
from ._judge import _flowers, _last_tile, _where, unsupported
from ._table import _CODE, A_CHOW, A_KONG, A_OWN_KONG, A_PUNG, A_WIN, Layout, ScriptError
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
    if type(hand.quan) is not int or not 0 <= hand.quan <= 3:
        raise ValueError(f"{_where(hand)}: the prevalent wind is 0-3 (East, South, West, North), not {hand.quan!r}")
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


def _play_scripts(e: _Engine, walls, quan, starts, lengths, s_seat, s_act, s_claim, episode, col) -> np.ndarray:
    """Play hands (arrays as ChineseVec.play_scripts takes them) on engine e into col; returns
    each hand's result row (code, script position, asked seat, claim question, rows)."""
    n = len(episode)
    result = np.zeros((n, 5), np.int32)
    j = 0
    while j < n:
        # rows: about 1.2 per scripted decision; the engine stops before a hand whose bound (4
        # per scripted decision + 8) does not fit, and the arrays grow
        rest = lengths[j:]
        _reserve(col, int(rest.sum()) * 3 // 2 + 4 * int(rest.max()) + 8)
        a = col.arrays
        j, col.m = e.core.play_scripts(walls, quan, starts, lengths, s_seat, s_act, s_claim, episode, j,
                                       a["observation"], a["scalars"], a["action_mask"].view(np.uint8), a["action"],
                                       a["seat"], a["hand_number"], a["game_id"], a["episode"], col.m, result)
    return result


def _why(code: int, ptr: int, seat: int, claim_q: int, k: int, s_act, s_seat) -> str:
    """The failure of a hand on the engine (play_scripts' result row), in words."""
    if code == 1:
        what = "the hand has no more decisions" if ptr >= k else (
            f"its decision {ptr} (action id {int(s_act[ptr])} by player {int(s_seat[ptr])}) is not legal there")
        return f"mjfast's engine asks player {seat} to {'claim' if claim_q else 'play'}, but {what}"
    if code == 2:
        return f"the hand ends on mjfast's engine after {ptr} of its {k} decisions"
    return "mjfast's engine refused an answer of the hand"


def _run(e: _Engine, batch: list, col, fail) -> int:
    """Play the prepared hands ``batch`` [(episode, Prepared)] on engine e into col; returns
    the hands that ended as they show."""
    n = len(batch)
    walls = np.frombuffer(b"".join(p.wall for _, p in batch), np.uint8).reshape(n, e.n_tiles)
    quan = np.fromiter((p.quan for _, p in batch), np.int32, n)
    lengths = np.fromiter((len(p.action) for _, p in batch), np.int64, n)
    starts = np.zeros(n, np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    total = int(lengths.sum())
    s_seat = np.fromiter(itertools.chain.from_iterable(p.seat for _, p in batch), np.int8, total)
    s_act = np.fromiter(itertools.chain.from_iterable(p.action for _, p in batch), np.int16, total)
    s_claim = np.fromiter(itertools.chain.from_iterable(p.claim for _, p in batch), np.uint8, total)
    episode = np.fromiter((ep for ep, _ in batch), np.int64, n)
    result = _play_scripts(e, walls, quan, starts, lengths, s_seat, s_act, s_claim, episode, col)
    ended = 0
    for j, (ep, p) in enumerate(batch):
        code, ptr, seat, claim_q = (int(x) for x in result[j, :4])
        if code == 0:
            col.episode_rewards[ep] = p.scores
            ended += 1
        else:
            fail(ep, p, _why(code, ptr, seat, claim_q, len(p.action), p.action, p.seat))
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


_KIND_INDEX = {k: i for i, k in enumerate(ACTION_KINDS)}
_RESULT = {"hu": 1, "huang": 2}


class _Hands:
    """Botzone hands to decisions, a chunk at a time: laid out and scripted by the compiled
    layout (chinese_env.layout_hands), a hand it leaves (status 1) by :func:`prepare` (which
    says why it cannot be played, or plays it), each key's hands on its engine."""

    def __init__(self, col, derived: bool, privileged: bool, skipped: list, raising: bool, expect: int | None = None):
        self.col, self.derived, self.privileged = col, derived, privileged
        self.skipped, self.raising = skipped, raising
        self.engines: dict = {}
        self.done = 0
        self.seen = 0
        self.expect = expect                        # the hands to come, when known (rows reserved once)

    def engine(self, key: tuple) -> _Engine:
        e = self.engines.get(key)
        if e is None:
            e = self.engines[key] = _Engine(key, self.derived, self.privileged)
        return e

    def skip(self, ep: int, where: str, why: str) -> None:
        if self.raising:
            raise ValueError(f"{where}: {why}")
        self.skipped.append((ep, where, why))

    def chunk(self, items: list) -> None:
        """Decisions of hands [(episode, Hand)] into the collector."""
        laid = self.layout(items)
        if laid is not None:
            self.play(laid)
        self.seen += len(items)
        if self.expect is not None and self.seen and self.col.m:
            # the rows of all the hands, reserved at once from the first chunk's rows per hand
            # (instead of doubling: each doubling copies every row so far)
            rest = max(self.expect - self.seen, 0)
            _reserve(self.col, -(-self.col.m * rest * 9 // (8 * self.seen)))
            self.expect = None

    def layout(self, items: list):
        """Hands [(episode, Hand)] laid out and scripted (the compiled layout); the hands it
        leaves go to :meth:`slow` at once. None when none is left."""
        fast = [(ep, h) for ep, h in items if len(h.deals) == 4 and type(h.quan) is int and 0 <= h.quan <= 3]
        if len(fast) < len(items):
            keep = {id(h) for _, h in fast}
            for ep, h in items:
                if id(h) not in keep:
                    self.slow(ep, h)
        if not fast:
            return None
        n = len(fast)
        hands = [h for _, h in fast]
        n_acts = np.fromiter(map(len, (h.actions for h in hands)), np.int64, n)
        act_start = np.zeros(n + 1, np.int64)
        np.cumsum(n_acts, out=act_start[1:])
        acts = list(itertools.chain.from_iterable(h.actions for h in hands))
        no = itertools.repeat(_BAD3)                # (codes the compiled layout leaves to the Python one)
        packed = np.frombuffer(b"".join(map(_ACTION_BYTES.get, map(_KPT, acts), no)) or _BAD3, np.int8).reshape(-1, 3)
        kind, player, code = (np.ascontiguousarray(packed[:, i]) for i in range(3))
        no = itertools.repeat(_BAD)
        deal_lists = [d for h in hands for d in h.deals]
        deal_len = np.fromiter(map(len, deal_lists), np.int32, 4 * n).reshape(n, 4)
        deal_start = np.zeros(n, np.int64)
        np.cumsum(deal_len.sum(axis=1)[:-1], out=deal_start[1:])
        deals = np.frombuffer(b"".join(map(_CODE_BYTE.get, itertools.chain.from_iterable(deal_lists), no)) or b"\0",
                              np.int8)
        result = np.fromiter(map(_RESULT.get, (h.result for h in hands), itertools.repeat(0)), np.int8, n)
        episode = np.fromiter((ep for ep, _ in fast), np.int64, n)
        quan = np.fromiter((h.quan for h in hands), np.int32, n)
        scores = np.asarray([h.scores if h.scores is not None else [0, 0, 0, 0] for h in hands], np.float32)
        return self.lay(episode, kind, player, code, act_start, deals, deal_start, deal_len, result, quan, scores,
                        hands.__getitem__)

    def lay(self, episode, kind, player, code, act_start, deals, deal_start, deal_len, result, quan, scores, hand_of):
        """Hands as layout_hands' arrays (``hand_of(j)``: hand j as a Hand, for the hands the
        compiled layout leaves and for messages) laid out and scripted."""
        n = len(episode)
        total = int(act_start[-1])
        walls = np.empty((n, 144), np.uint8)
        out = np.zeros((n, 4), np.int32)
        s_seat = np.empty(max(total, 1), np.int8)
        s_act = np.empty(max(total, 1), np.int16)
        s_claim = np.empty(max(total, 1), np.uint8)
        _env_kernel.layout_hands(kind, player, code, act_start, deals if len(deals) else np.zeros(1, np.int8),
                                 deal_start, deal_len, result, walls, out, s_seat, s_act, s_claim, MAX_SCRIPT)
        ok = out[:, 0] == 0
        for j in np.flatnonzero(~ok).tolist():
            self.slow(int(episode[j]), hand_of(j))
        return (hand_of, scores), episode, quan, act_start, out, walls, s_seat, s_act, s_claim, ok

    def play(self, laid: tuple) -> None:
        """Play hands laid out (:meth:`layout`) into the collector."""
        (hand_of, scores), episode, quan, act_start, out, walls, s_seat, s_act, s_claim, ok = laid
        keys = out[:, 1].astype(np.int64) * 1000 + out[:, 2]
        for key in np.unique(keys[ok]).tolist():
            idx = np.flatnonzero(ok & (keys == key))
            e = self.engine((key // 1000, key % 1000))
            starts, lengths = act_start[idx], out[idx, 3].astype(np.int64)
            res = _play_scripts(e, walls[idx], quan[idx], starts, lengths, s_seat, s_act, s_claim, episode[idx],
                                self.col)
            rewards = self.col.episode_rewards
            for j, (c, ptr, seat, claim_q) in zip(idx.tolist(), res[:, :4].tolist()):
                if c == 0:
                    rewards[int(episode[j])] = scores[j]
                    self.done += 1
                else:
                    lo = int(act_start[j])
                    k = int(out[j, 3])
                    self.skip(int(episode[j]), _where(hand_of(j)), _why(c, ptr, seat, claim_q, k, s_act[lo:lo + k],
                                                                        s_seat[lo:lo + k]))

    def slow(self, ep: int, h: Hand) -> None:
        """A hand the compiled layout left: the Python layout's verdict (and play)."""
        why = unsupported(h)
        if why:
            self.skip(ep, _where(h), "; ".join(why))
            return
        try:
            p = prepare(h)
        except ValueError as exc:
            self.skip(ep, _where(h), str(exc))
            return
        self.done += _run(self.engine(p.key), [(ep, p)], self.col, lambda ep, p, why: self.skip(ep, p.where, why))


_BAD = bytes([256 - 9])
_BAD3 = _BAD * 3
_CODE_BYTE = {k: bytes([v & 255]) for k, v in _CODE.items()}
#: (kind, player, tile) of an Action -> its three bytes for the compiled layout
_ACTION_BYTES = {(k, p, t): bytes([i, p, c & 255]) for k, i in _KIND_INDEX.items() for p in range(4)
                 for t, c in _CODE.items()}
_KPT = operator.itemgetter(0, 1, 2)


_TILE_CODES = np.full((26, 10), -2, np.int8)      # Botzone tile name (letter, digit) -> code; -2 none
for _name, _c in _CODE.items():
    if _name is not None:
        _TILE_CODES[ord(_name[0]) - 65, int(_name[1])] = _c
_READ = 1 << 20                                  # bytes read at a time from a text log


class _Piece:
    """Hands of one parse of a text buffer (botzone_text.parse)."""

    def __init__(self, data: bytes, pos: int, end: int, max_hands: int, line: int):
        lines = data.count(b"\n", pos, end) + 1
        cap = min(max_hands, lines) + 1
        self.data = data
        self.kind, self.player, self.code = (np.empty(lines, np.int8) for _ in range(3))
        self.act_start = np.empty(cap + 1, np.int64)
        self.deals = np.empty((end - pos) // 3 + 4, np.int8)
        self.deal_start = np.empty(cap, np.int64)
        self.deal_len = np.empty((cap, 4), np.int32)
        self.result = np.empty(cap, np.int8)
        self.quan = np.empty(cap, np.int32)
        self.scores = np.empty((cap, 4), np.int64)
        self.ok = np.empty(cap, np.uint8)
        self.span = np.empty((cap, 5), np.int64)
        self.n, self.pos, self.line = _text_kernel.parse(
            data, pos, end, max_hands, line, _TILE_CODES, self.kind, self.player, self.code, self.act_start,
            self.deals, self.deal_start, self.deal_len, self.result, self.quan, self.scores, self.ok, self.span)

    def lines(self, j: int, name: str, text: bool) -> list:
        """Hand j's lines [(line number, text)] as the Python reader reads them."""
        a, b, no = (int(x) for x in self.span[j, :3])
        out = []
        for i, raw in enumerate(self.data[a:b].split(b"\n")):
            try:
                line = raw.decode("utf-8", "surrogatepass" if text else "strict")
            except UnicodeDecodeError:
                raise _logs.LogError(f"{name}, line {no + i}: not UTF-8 text") from None
            out.append((no + i, line.rstrip("\r\n")))
        return out


def _merge(pieces: list) -> tuple:
    """layout_hands' arrays (and quan, scores, spans) of the hands of several pieces, in order."""
    if len(pieces) == 1:
        p = pieces[0]
        n, na = p.n, int(p.act_start[p.n])
        nd = int(p.deal_start[n - 1] + p.deal_len[n - 1].sum()) if n else 0
        return (p.kind[:na], p.player[:na], p.code[:na], p.act_start[:n + 1], p.deals[:nd], p.deal_start[:n],
                p.deal_len[:n], p.quan[:n], p.scores[:n])
    parts = [_merge([p]) for p in pieces]
    act_start = [parts[0][3]]
    deal_start = [parts[0][5]]
    na = int(parts[0][3][-1])
    nd = len(parts[0][4])
    for q in parts[1:]:
        act_start.append(q[3][1:] + na)
        deal_start.append(q[5] + nd)
        na += int(q[3][-1])
        nd += len(q[4])
    cat = np.concatenate
    return (cat([q[0] for q in parts]), cat([q[1] for q in parts]), cat([q[2] for q in parts]), cat(act_start),
            cat([q[4] for q in parts]), cat(deal_start), cat([q[6] for q in parts]), cat([q[7] for q in parts]),
            cat([q[8] for q in parts]))


def _text_file(source):
    """(binary file, name, close, size) for the compiled reader, or None: a path or a seekable
    binary file object whose first text is not JSON (anything else goes to read_logs)."""
    import io
    import os
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if not os.path.isfile(path):
            return None
        fh = open(path, "rb")                   # noqa: SIM115 - closed by the caller
        close, name, size = True, path, os.path.getsize(path)
    elif isinstance(source, (io.BufferedIOBase, io.RawIOBase)) and source.seekable():
        fh, close, size = source, False, None
        name = getattr(source, "name", None)
        name = name if isinstance(name, str) else "<file>"
    else:
        return None
    start = fh.tell()
    head = fh.read(4096)
    fh.seek(start)
    first = head.lstrip(b" \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f")[:1]
    if not isinstance(head, bytes) or first in (b"{", b"[") or (first and first[0] >= 0x80) or (
            not first and len(head) == 4096):
        if close:
            fh.close()
        return None
    return fh, name, close, size


def _boundary(data: bytes) -> int:
    """A position of data where the reader may stop and start again (after a blank line, or at
    a line starting with Match whose line is UTF-8); 0 when there is none."""
    i, j = data.rfind(b"\n\n"), data.rfind(b"\n\r\n")
    if i >= 0 or j >= 0:
        return max(i + 2 if i >= 0 else 0, j + 3 if j >= 0 else 0)
    i = data.rfind(b"\nMatch")
    while i >= 0:
        e = data.find(b"\n", i + 1)
        try:
            data[i + 1:e if e >= 0 else len(data)].decode("utf-8")
            return i + 1
        except UnicodeDecodeError:
            i = data.rfind(b"\nMatch", 0, i)
    return 0


def _read_text_fast(fh, name: str, run: _Hands, n_tables: int, bar) -> None:
    """The hands of a Botzone text log (binary file fh) into run, n_tables at a time, parsed
    by the compiled reader; a hand it does not read exactly is read by the Python reader."""
    data, pos, end, line, eof = b"", 0, 0, 1, False
    done_bytes = 0
    ep = 0
    pieces: list = []
    have = 0
    while True:
        if pos >= end and not eof:
            done_bytes += end
            chunk = fh.read(_READ)
            if not chunk:
                eof = True
                data, end = data[pos:], len(data) - pos
            else:
                data = data[pos:] + chunk
                cut = _boundary(data)
                while not cut:
                    more = fh.read(_READ)
                    if not more:
                        eof = True
                        break
                    data += more
                    cut = _boundary(data)
                end = len(data) if eof else cut
            pos = 0
            if bar is not None:
                bar.update(done_bytes)
        if pos >= end and eof and not pieces:
            return
        if pos < end:
            p = _Piece(data, pos, end, n_tables - have, line)
            pos, line = p.pos, p.line
            if p.n:
                pieces.append(p)
                have += p.n
        if have >= n_tables or (eof and pos >= end and pieces):
            ep += _flush(run, pieces, ep, name)
            pieces, have = [], 0


def _flush(run: _Hands, pieces: list, ep0: int, name: str) -> int:
    """A chunk of hands (pieces of parses) into run: the compiled arrays when every hand was
    read exactly, else every hand as the Python reader reads it (a hand it refuses raises).
    Returns the hands it gave run."""
    if all(p.ok[:p.n].all() for p in pieces):
        kind, player, code, act_start, deals, deal_start, deal_len, quan, scores = _merge(pieces)
        n = len(quan)
        refs = [(p, j) for p in pieces for j in range(p.n)]
        result = np.concatenate([p.result[:p.n] for p in pieces])

        def hand_of(j: int) -> Hand:
            p, k = refs[j]
            return _logs._text_hand(name, p.lines(k, name, False))

        laid = run.lay(np.arange(ep0, ep0 + n, dtype=np.int64), kind, player, code, act_start, deals, deal_start,
                       deal_len, result, quan, scores.astype(np.float32), hand_of)
        run.play(laid)
        run.seen += n
        return n
    items: list = []
    for p in pieces:
        for k in range(p.n):
            # the Python reader's grouping of these lines: a line of white space other than
            # ASCII (which the compiled reader leaves to Python) may end a hand, or be all of it
            ls = p.lines(k, name, False)
            for h in _logs._read_text(name, ls[0], iter(ls[1:])) if ls else ():
                items.append((ep0 + len(items), h))
    run.chunk(items)
    return len(items)


def decisions(hands, *, n_tables: int = 256, derived: bool = False, privileged: bool = False,
              errors: str = "skip", progress: bool = True):
    """Every decision Botzone hands show, as training arrays (``cn-v0``).

    Parameters
    ----------
    hands : path, file object, or iterable of Hand
        Botzone logs (read with :func:`read_logs`) or the hands it yields.
    n_tables : int
        Hands laid out and played at a time (a chunk).
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
    skipped: list = []
    probe = _chinese.ENGINE.vec(_rules.get("mcr").kernel(), 1, False, bool(derived), bool(privileged))
    col = Collector(probe.n_planes, probe.n_scalars, 4096, probe.kinds, probe.n_actions)
    text = None
    if isinstance(hands, Hand):
        hands = [hands]
    elif not isinstance(hands, Iterable) or isinstance(hands, (str, bytes)) or hasattr(hands, "read"):
        text = _text_file(hands)
        if text is None:
            hands = read_logs(hands, progress=progress)
    if text is not None:
        fh, name, close, size = text
        bar = Progress(size, label="read_logs", unit="B", enabled=bool(progress))
        try:
            _read_text_fast(fh, name, _Hands(col, derived, privileged, skipped, errors == "raise"), n_tables, bar)
        finally:
            bar.close()
            if close:
                fh.close()
        out = col.result("cn-v0")
        object.__setattr__(out, "skipped", sorted(skipped))
        return out
    run = _Hands(col, derived, privileged, skipped, errors == "raise",
                 len(hands) if isinstance(hands, (list, tuple)) else None)
    items: list = []
    for ep, h in enumerate(hands):
        if not isinstance(h, Hand):
            raise TypeError(f"expected Botzone Hands (mjfast.botzone.read_logs), got {type(h).__name__}")
        items.append((ep, h))
        if len(items) >= n_tables:
            run.chunk(items)
            items = []
    if items:
        run.chunk(items)
    out = col.result("cn-v0")
    object.__setattr__(out, "skipped", sorted(skipped))
    return out
