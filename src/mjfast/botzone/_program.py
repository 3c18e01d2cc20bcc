"""Botzone bots as mjfast seats: :class:`Program`, a Policy that runs a program speaking the
Chinese-Standard-Mahjong protocol."""
from __future__ import annotations

import json
import os
import shlex
from collections.abc import Sequence
from typing import NamedTuple

from .. import tiles
from ..game import chinese as _chinese
from ..game.policy import IllegalActionError, Policy
from . import _tiles
from ._hand import CHI, GANG, HU, PENG, EventReader, Turn, request, turns
from ._process import BotProcess, Timeout

_EV_HAND = next(c for c, n in _chinese._engine.EVENTS.items() if n == "hand")
#: the judge's penalty: the offender pays 30, each other player gets 10
PENALTY = "-30 to it, +10 to each other player"


class BotFailure(RuntimeError):
    """A Botzone bot crashed, ran out of time or printed no response.

    Attributes: ``seat`` (mjfast seat), ``player`` (Botzone player id), ``hand`` (hand of the
    game), ``request`` (the request it was answering), ``verdict`` (the platform's word:
    ``"TLE"``, ``"RE"``, ``"NR"`` for no response)."""

    def __init__(self, message: str, seat: int, player: int, hand: int, request: str, verdict: str):
        super().__init__(message)
        self.seat, self.player, self.hand, self.request, self.verdict = seat, player, hand, request, verdict


class Violation(NamedTuple):
    """A response the Botzone judge rejects: the ``seat`` (mjfast) and Botzone ``player``, the
    ``hand`` of the game, the ``request``, the ``response``, the judge's ``verdict`` (``"WA"``
    wrong answer, ``"WH"`` false win), the ``reason``, and what mjfast did (``action``:
    ``"penalty"``, the false-win penalty of the rules; ``"error"``, the run stopped)."""

    seat: int
    player: int
    hand: int
    request: str
    response: str
    verdict: str
    reason: str
    action: str


class _Seat:
    """One seat's bot: its process, this hand's history, what it saved."""

    def __init__(self):
        self.proc: BotProcess | None = None
        self.kept = False
        self.requests: list = []
        self.responses: list = []
        self.data = ""
        self.globaldata = ""
        self.sent = 0                 # turns of the hand sent
        self.discard: tuple | None = None   # (kind, request, response) of the discard its last answer named
        self.discard_at = -1          # ... valid while the hand has this many turns

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc = None
        self.kept = False


class Program(Policy):
    """A bot program speaking Botzone's Chinese-Standard-Mahjong protocol, as an mjfast seat.

    The program gets the judge's requests for everything that happens at the table (its seat
    and the prevalent wind, its deal and every player's flowers, its draws, the other players'
    draws, flowers, discards, chows, pungs and kongs) and its responses (``PASS``, ``PLAY``,
    ``GANG``, ``BUGANG``, ``CHI``, ``PENG``, ``HU``) become the seat's answers. Each hand of an
    mjfast game is one Botzone match: player ids count from the hand's dealer (player 0 is
    East) and the prevalent wind is the hand's. Works in :func:`mjfast.simulate`,
    :func:`mjfast.compare`, :func:`mjfast.replay` and :func:`mjfast.rerun` with the Chinese
    rule sets (the protocol is Chinese Official's: use ``rules="mcr"``).

    Parameters
    ----------
    argv : str or sequence of str
        The command that runs the bot (a string is split as a shell would, without a shell).
    keep_running : "auto", True or False
        ``"auto"`` (the platform's behaviour): each hand starts the program with the whole
        history on standard input; a program whose output ends with the keep-running marker
        (``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<``) keeps running and gets one request a turn,
        one that exits is started again with the whole history. ``False``: a new process every
        turn (the simple interaction), whatever it prints. ``True``: the program must keep
        running (a turn that ends without the marker is an error).
    timeout : float
        Seconds per turn (the first turn of each hand gets twice as long, as on the platform).
        The default, 6, is the platform's limit for Python bots; C++ bots get 1.
    io : {"simple", "json"}
        The input form: Botzone's simple interaction (lines) or its JSON interaction.
    name : str, optional
        Shown in results (default: the program's file name).
    cwd, env : optional
        The program's working directory and environment.

    Attributes
    ----------
    violations : list of Violation
        Every response the judge would reject, with what mjfast did about it.

    Notes
    -----
    A false ``HU`` (a hand that is not complete or below 8 fan) is the judge's ``WH``: when
    mjfast asked the seat (a claim, or its own turn with a win or kong option) the rules'
    false-win penalty applies (``mcr``: -30, +10 to each other player, the hand ends: the
    judge's); any other rejected response (the judge's ``WA``, and a false ``HU`` mjfast
    cannot take at that point) raises :class:`~mjfast.IllegalActionError` naming the seat, the
    request and the response, and the run stops. Responses to requests mjfast did not ask the
    seat about are checked as the judge checks them (``PASS`` where only ``PASS`` is allowed;
    no claim the seat cannot make), when mjfast next hears from the seat. A program that
    crashes, exceeds its time or prints no response raises :class:`BotFailure`. Every process
    is killed (its process group) at the end of its hand, by :meth:`close`, when the Program
    is collected, and at exit.

    Examples
    --------
    >>> import sys, mjfast
    >>> from mjfast.botzone import Program
    >>> bot = Program([sys.executable, "-m", "mjfast.botzone", "--policy", "greedy"])   # doctest: +SKIP
    >>> res = mjfast.simulate(1, rules="mcr", policies=[bot, "greedy", "greedy", "greedy"],
    ...                       seed=1, progress=False)                                    # doctest: +SKIP
    >>> bot.close()                                                                      # doctest: +SKIP
    """

    def __init__(self, argv, *, keep_running="auto", timeout: float = 6.0, io: str = "simple",
                 name: str | None = None, cwd=None, env=None):
        if isinstance(argv, str):
            argv = shlex.split(argv)
        if isinstance(argv, (bytes, os.PathLike)) or not isinstance(argv, Sequence) or not argv or not all(
                isinstance(a, (str, os.PathLike)) for a in argv):
            raise TypeError("argv must be a command: a string or a non-empty sequence of strings")
        if keep_running not in ("auto", True, False):
            raise ValueError(f"keep_running must be 'auto', True or False, got {keep_running!r}")
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout <= 3600:
            raise ValueError(f"timeout must be a number of seconds above 0 (at most 3600), got {timeout!r}")
        if io not in ("simple", "json"):
            raise ValueError(f"io must be 'simple' or 'json', got {io!r}")
        self.argv = [os.fspath(a) for a in argv]
        self.keep_running = keep_running
        self.timeout = float(timeout)
        self.io = io
        self.name = name if name is not None else _default_name(self.argv)
        self.cwd, self.env = cwd, env
        self.violations: list = []
        self._reset()

    # ------------------------------------------------------------------ state
    def _reset(self) -> None:
        self._seats = [_Seat() for _ in range(4)]
        self._game = None
        self._reader: EventReader | None = None
        self._n_ev = 0
        self._turns: list = []
        self._next = 0               # first action of the hand not yet in turns

    def __getstate__(self):
        state = {k: v for k, v in self.__dict__.items() if not k.startswith("_")}
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._reset()

    def close(self) -> None:
        """Kill every process this Program runs (they are also killed at the end of each hand)."""
        for s in self._seats:
            s.stop()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Program({self.argv!r}, keep_running={self.keep_running!r}, timeout={self.timeout}, io={self.io!r})"

    # ------------------------------------------------------------------ following the game
    def follow_events(self, game, events, seats, final) -> None:
        """The engine's events of the game so far (the hook :class:`mjfast.game.chinese.Bridge`
        calls; ``final``: None during the game, True/False when it ended well or stopped)."""
        if game != self._game:
            self._end_hand(seats, ok=False)
            self._reset_game(game)
        for row in events[self._n_ev:].tolist():
            typ, hand, seat, a, b = row
            if typ == _EV_HAND:
                self._end_hand(seats, ok=True)
                self._reader = EventReader(hand, seat)
                self._turns, self._next = [], 0
                for s in self._seats:
                    s.sent, s.requests, s.responses, s.discard = 0, [], [], None
            elif self._reader is not None:
                self._reader.feed(typ, seat, a, b)
        self._n_ev = len(events)
        if final is not None:
            self._end_hand(seats, ok=bool(final))
            self._reader = None

    def _reset_game(self, game) -> None:
        for s in self._seats:
            s.stop()
            s.sent, s.requests, s.responses, s.discard = 0, [], [], None
        self._game = game
        self._reader = None
        self._n_ev = 0
        self._turns, self._next = [], 0

    def _sync(self) -> None:
        """The hand's turns, up to date."""
        r = self._reader
        if r is None:
            return
        r.end_deal()
        done = [self._next]
        self._turns += turns(r.hand, self._next, done)
        self._next = done[0]

    def _end_hand(self, seats, ok: bool) -> None:
        """The hand is over: the requests it still owes the bots (their answers checked), then
        the processes stop."""
        try:
            if ok and self._reader is not None:
                self._sync()
                for seat in seats:
                    self._catch_up(seat, len(self._turns))
        finally:
            for seat in seats:
                self._seats[seat].stop()

    # ------------------------------------------------------------------ talking to the bot
    def _player(self, seat: int) -> int:
        return self._reader.player(seat) if self._reader is not None else seat

    def _hand(self):
        if self._reader is None:
            raise RuntimeError("internal: no hand is being followed")
        return self._reader.hand

    def _hand_no(self) -> int:
        return self._reader.hand_no if self._reader is not None else 0

    def _fail(self, seat: int, req: str, verdict: str, what: str, proc: BotProcess | None = None):
        tail = proc.stderr_tail() if proc is not None else ""
        msg = (f"Botzone bot {self.name!r} at seat {seat} (player {self._player(seat)}), hand {self._hand_no()}: "
               f"request {req!r}: {what}" + (f"; its standard error ends: {tail}" if tail else ""))
        return BotFailure(msg, seat, self._player(seat), self._hand_no(), req, verdict)

    def _exchange(self, seat: int, req: str) -> str:
        """Send one request to the seat's bot; its response."""
        s = self._seats[seat]
        s.requests.append(req)
        first = len(s.requests) == 1
        limit = self.timeout * (2 if first else 1)
        if s.proc is not None and s.kept:
            data = (json.dumps(req) if self.io == "json" else req) + "\n"
        else:
            s.stop()
            try:
                s.proc = BotProcess(self.argv, self.cwd, self.env, close_input=self.keep_running is False)
            except OSError as exc:
                raise self._fail(seat, req, "RE", f"the program could not start ({exc})") from None
            data = self._full_input(s)
        proc = s.proc
        try:
            out, kept = proc.exchange(data.encode("utf-8"), limit)
        except Timeout as exc:
            err = self._fail(seat, req, "TLE", f"no complete response within {limit:g} s (it wrote "
                             f"{exc.output[-200:]!r})", proc)
            s.stop()
            raise err from None
        if not kept:
            code = proc.wait(1.0)
            if code is None:
                err = self._fail(seat, req, "TLE", "its output ended but it did not exit (a keep-running bot must "
                                 "print the keep-running marker after each response)", proc)
                s.stop()
                raise err
            if code != 0:
                err = self._fail(seat, req, "RE", f"it exited with status {code}", proc)
                s.stop()
                raise err
            s.stop()
            if self.keep_running is True and not first:
                raise self._fail(seat, req, "RE", "it left keep-running mode (keep_running=True needs the marker "
                                 "after every response)", proc)
        elif self.keep_running is False:
            s.stop()
        else:
            s.kept = True
        try:
            text = out.decode("utf-8")
        except UnicodeDecodeError:
            err = self._fail(seat, req, "RE", f"its output is not UTF-8 text: {out[:200]!r}", proc)
            s.stop()
            raise err from None
        resp = self._parse_output(seat, req, text, kept, proc)
        s.responses.append(resp)
        return resp

    def _full_input(self, s: _Seat) -> str:
        n = len(s.requests)
        if self.io == "json":
            obj = {"requests": s.requests, "responses": s.responses}
            if s.data:
                obj["data"] = s.data
            if s.globaldata:
                obj["globaldata"] = s.globaldata
            return json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"
        lines = [str(n)]
        for i in range(n):
            lines.append(s.requests[i])
            if i < n - 1:
                lines.append(s.responses[i])
        if s.data or s.globaldata:
            lines.append(s.data)
            lines.append(s.globaldata)
        return "\n".join(lines) + "\n"

    def _parse_output(self, seat: int, req: str, text: str, kept: bool, proc) -> str:
        s = self._seats[seat]
        if self.io == "json":
            line = next((x for x in text.splitlines() if x.strip()), "")
            try:
                obj = json.loads(line)
            except ValueError:
                obj = None
            if not isinstance(obj, dict) or not isinstance(obj.get("response"), str):
                raise self._fail(seat, req, "NR", f"its output is not a JSON object with a 'response' string: "
                                 f"{text[:200]!r}", proc)
            if not kept:
                s.data = obj.get("data", s.data) if isinstance(obj.get("data", ""), str) else s.data
                s.globaldata = obj.get("globaldata", s.globaldata) if isinstance(
                    obj.get("globaldata", ""), str) else s.globaldata
            return obj["response"]
        lines = text.split("\n")
        if not text or (len(lines) == 1 and not lines[0]):
            raise self._fail(seat, req, "NR", "it printed no response", proc)
        if not kept:
            if len(lines) > 2:
                s.data = lines[2].rstrip("\r")
            if len(lines) > 3:
                s.globaldata = "\n".join(lines[3:]).rstrip("\n")
        return lines[0].rstrip("\r")

    # ------------------------------------------------------------------ the judge's checks
    def _violation(self, seat: int, req: str, resp: str, verdict: str, reason: str, action: str) -> Violation:
        v = Violation(seat, self._player(seat), self._hand_no(), req, resp, verdict, reason, action)
        self.violations.append(v)
        return v

    def _reject(self, seat: int, req: str, resp: str, verdict: str, reason: str) -> IllegalActionError:
        self._violation(seat, req, resp, verdict, reason, "error")
        word = "WA, a wrong answer" if verdict == "WA" else "WH, a false win"
        return IllegalActionError(
            f"Botzone bot {self.name!r} at seat {seat} (player {self._player(seat)}), hand {self._hand_no()}: "
            f"request {req!r}: response {resp!r}: {reason}; the judge rejects it ({word}: {PENALTY})")

    def _catch_up(self, seat: int, upto: int) -> None:
        """Send the seat the turns before ``upto`` it has not had, checking each answer as the
        judge checks an answer mjfast did not ask for."""
        s = self._seats[seat]
        while s.sent < upto:
            t = self._turns[s.sent]
            req = request(self._hand(), t, self._player(seat))
            s.sent += 1
            ans = self._exchange(seat, req)
            if ans != "PASS":
                self._check_unasked(seat, t, req, ans)

    def _check_unasked(self, seat: int, t: Turn, req: str, ans: str) -> None:
        me = self._player(seat)
        acts = self._hand().actions
        if t.kind in ("play", "peng", "chi", "bugang") and t.player is not None and t.player != me:
            nxt = acts[t.action + 1] if t.action + 1 < len(acts) else None
            order = (me - t.player) & 3
            win = nxt.player if nxt is not None and nxt.kind == HU else None
            if ans == "HU":
                if win is not None and (win - t.player) & 3 < order:
                    return                          # an earlier player's win ended the match first
                raise self._reject(seat, req, ans, "WH", "a win mjfast did not offer (the hand is not complete, "
                                   "or below the minimum)" if t.kind != "bugang" else "robbing a kong it cannot win on")
            if win is not None:
                return                              # the win ends the match before claims are read
            if t.kind == "bugang":
                raise self._reject(seat, req, ans, "WA", "only PASS or HU answer an added kong")
            claimer = nxt.player if nxt is not None and nxt.kind in (PENG, GANG, CHI) else None
            if len(ans.split(" ")) != 3:            # read with the pungs and kongs, in player order
                if nxt is not None and nxt.kind in (PENG, GANG) and claimer is not None and claimer < me:
                    return
                raise self._reject(seat, req, ans, "WA", "a claim this player cannot make" if ans.startswith(
                    ("PENG ", "GANG")) else "not a response to a discard")
            if nxt is not None and nxt.kind in (PENG, GANG):
                return                              # chows are read only when nobody pungs or kongs
            if nxt is not None and nxt.kind == CHI and claimer is not None and claimer < me:
                return
            raise self._reject(seat, req, ans, "WA", "a chow this player cannot make" if ans.startswith("CHI ")
                               else "not a response to a discard")
        raise self._reject(seat, req, ans, "WA", "only PASS answers this request")

    def _current(self, seat: int, kind: str) -> tuple[str, str]:
        """Send the seat its pending turns; the last (the one mjfast asks about now) and the answer."""
        self._sync()
        n = len(self._turns)
        if n == 0:
            raise RuntimeError("internal: a question before the hand's deal")
        t = self._turns[-1]
        me = self._player(seat)
        if kind == "draw" and not (t.kind == "draw" and t.player == me):
            raise RuntimeError(f"internal: seat {seat}'s turn, but the last request is {t}")
        if kind == "claim" and not (t.kind in ("play", "peng", "chi", "bugang") and t.player != me):
            raise RuntimeError(f"internal: seat {seat} claims, but the last request is {t}")
        self._catch_up(seat, n - 1)
        s = self._seats[seat]
        req = request(self._hand(), t, me)
        s.sent = n
        s.discard = None
        return req, self._exchange(seat, req)

    def _tile(self, seat: int, req: str, ans: str, name: str) -> int:
        k = _tiles.KIND_OF.get(name)
        if k is None:
            raise self._reject(seat, req, ans, "WA", f"{name!r} is not a tile")
        return k

    # ------------------------------------------------------------------ the Policy interface
    def own_turn(self, view, options):
        seat = view.seat
        req, ans = self._current(seat, "draw")
        tok = ans.split(" ")
        if ans == "HU":
            if "win" not in options:
                self._violation(seat, req, ans, "WH", "a false win", "penalty")
            return "win"
        if len(tok) == 2 and tok[0] == "PLAY":
            self._remember(seat, req, ans, tok[1])
            return None
        if len(tok) == 2 and tok[0] in ("GANG", "BUGANG"):
            k = self._tile(seat, req, ans, tok[1])
            label = ("concealed_kong:" if tok[0] == "GANG" else "added_kong:") + tiles.tile_name(k)
            if label in options:
                return label
            raise self._reject(seat, req, ans, "WA", f"no {'concealed' if tok[0] == 'GANG' else 'added'} kong of "
                               f"{tok[1]} is possible")
        raise self._reject(seat, req, ans, "WA", "not a response to a draw (PLAY, GANG, BUGANG or HU)")

    def discard(self, view):
        seat = view.seat
        s = self._seats[seat]
        self._sync()
        if s.discard is not None and s.discard_at == len(self._turns):
            k, req, ans = s.discard
            s.discard = None
        else:
            req, ans = self._current(seat, "draw")
            tok = ans.split(" ")
            if ans == "HU":
                raise self._reject(seat, req, ans, "WH", "a false win (mjfast asks this seat only for a discard)")
            if not (len(tok) == 2 and tok[0] == "PLAY"):
                if len(tok) == 2 and tok[0] in ("GANG", "BUGANG"):
                    raise self._reject(seat, req, ans, "WA", f"no kong of {tok[1]} is possible")
                raise self._reject(seat, req, ans, "WA", "not a response to a draw (PLAY, GANG, BUGANG or HU)")
            k = self._tile(seat, req, ans, tok[1])
        if view.hand[k] == 0:
            raise self._reject(seat, req, ans, "WA", f"it does not hold {_tiles.KIND_NAMES[k]}")
        return tiles.tile_name(k)

    def _remember(self, seat: int, req: str, ans: str, name: str) -> None:
        s = self._seats[seat]
        s.discard = (self._tile(seat, req, ans, name), req, ans)
        s.discard_at = len(self._turns)

    def claim(self, view, tile, options):
        seat = view.seat
        req, ans = self._current(seat, "claim")
        tok = ans.split(" ")
        if ans == "PASS":
            return None
        if ans == "HU":
            if "win" not in options:
                self._violation(seat, req, ans, "WH", "a false win", "penalty")
            return "win"
        if ans == "GANG":
            if "kong" in options:
                return "kong"
            raise self._reject(seat, req, ans, "WA", "an exposed kong it cannot make")
        if len(tok) == 2 and tok[0] == "PENG":
            if "pung" not in options:
                raise self._reject(seat, req, ans, "WA", "a pung it cannot make")
            self._remember(seat, req, ans, tok[1])
            return "pung"
        if len(tok) == 3 and tok[0] == "CHI":
            m = self._tile(seat, req, ans, tok[1])
            label = None
            if m < 27 and m % 9 not in (0, 8):
                label = "chow:" + _chinese._chow_tiles(m - 1)
            if label not in options:
                raise self._reject(seat, req, ans, "WA", f"a chow around {tok[1]} it cannot make")
            self._remember(seat, req, ans, tok[2])
            return label
        raise self._reject(seat, req, ans, "WA", "not a response to a discard (PASS, HU, PENG, GANG or CHI)")




def _default_name(argv: list) -> str:
    """A short name for a command: its program, or the script or module a Python runs."""
    prog = os.path.basename(argv[0])
    if prog.startswith("python") and len(argv) > 1:
        if argv[1] == "-m" and len(argv) > 2:
            return argv[2]
        return os.path.basename(argv[1])
    return prog
