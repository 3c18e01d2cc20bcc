"""The compiled reader of Botzone's text logs (``_kernels/botzone_text``) against the Python
reader (``read_logs``): the same layout arrays, the same decisions, the same errors."""
from __future__ import annotations

import io
import pathlib
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mjfast
from mjfast import botzone
from mjfast.botzone import _decisions as bzd
from mjfast.botzone import _logs

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from _decisions_digest import digest  # noqa: E402

HANDS_TXT = pathlib.Path(__file__).resolve().parents[1] / "data" / "botzone" / "hands.txt"


def _games(flowers: bool, n: int = 4) -> bytes:
    buf = io.StringIO()
    botzone.write_logs([mjfast.replay(g, 3, rules="mcr", flowers=flowers) for g in range(n)], buf)
    return buf.getvalue().encode()


SOURCES = {"flowers=False": lambda: _games(False), "flowers=True": lambda: _games(True),
           "hands.txt": lambda: HANDS_TXT.read_bytes()}


def _arrays_of_hands(hands: list) -> dict:
    """The arrays layout_hands takes, as _decisions builds them from Hand records."""
    kind, player, code, deals, deal_len, quan, scores, result = [], [], [], [], [], [], [], []
    for h in hands:
        for a in h.actions:
            kind.append(bzd._KIND_INDEX[a.kind])
            player.append(a.player)
            code.append(bzd._CODE[a.tile])
        for d in h.deals:
            deals += [bzd._CODE[t] for t in d]
            deal_len.append(len(d))
        quan.append(h.quan)
        scores.append(h.scores)
        result.append(bzd._RESULT.get(h.result, 0))
    starts = np.cumsum([0] + [len(h.actions) for h in hands])
    return {"kind": kind, "player": player, "code": code, "act_start": starts.tolist(), "deals": deals,
            "deal_len": deal_len, "quan": quan, "scores": scores, "result": result}


def _arrays_compiled(data: bytes) -> dict:
    p = bzd._Piece(data, 0, len(data), 10**6, 1)
    assert p.ok[:p.n].all()
    kind, player, code, act_start, deals, deal_start, deal_len, quan, scores = bzd._merge([p])
    return {"kind": kind.tolist(), "player": player.tolist(), "code": code.tolist(), "act_start": act_start.tolist(),
            "deals": deals.tolist(), "deal_len": deal_len.reshape(-1).tolist(), "quan": quan.tolist(),
            "scores": scores.tolist(), "result": p.result[:p.n].tolist()}


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_the_compiled_arrays_are_the_python_readers(name):
    data = SOURCES[name]()
    hands = list(botzone.read_logs(io.BytesIO(data), progress=False))
    assert hands
    assert _arrays_compiled(data) == _arrays_of_hands(hands)


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_decisions_of_a_path_are_those_of_the_hands(name, tmp_path):
    path = tmp_path / "log.txt"
    path.write_bytes(SOURCES[name]())
    for n_tables in (3, 256):
        got = botzone.decisions(str(path), n_tables=n_tables, progress=False)
        want = botzone.decisions(list(botzone.read_logs(path, progress=False)), n_tables=n_tables, progress=False)
        assert len(got) > 0 and digest(got) == digest(want) and got.skipped == want.skipped


def test_the_reader_starts_again_at_hand_boundaries(monkeypatch):
    """Small reads: hands cut across buffers, chunks of hands across parses."""
    data = _games(True, 3)
    monkeypatch.setattr(bzd, "_READ", 700)
    got = botzone.decisions(io.BytesIO(data), n_tables=5, progress=False)
    want = botzone.decisions(list(botzone.read_logs(io.BytesIO(data), progress=False)), n_tables=5, progress=False)
    assert digest(got) == digest(want)


def _outcome(fn):
    try:
        d = fn()
    except ValueError as exc:
        return ("error", type(exc).__name__, str(exc))
    return ("ok", digest(d), tuple(d.skipped))


def _both(data: bytes):
    fast = _outcome(lambda: botzone.decisions(io.BytesIO(data), n_tables=4, progress=False))
    slow = _outcome(lambda: botzone.decisions(list(botzone.read_logs(io.BytesIO(data), progress=False)),
                                              n_tables=4, progress=False))
    return fast, slow


def test_a_malformed_line_gives_the_python_readers_error():
    lines = _games(False, 1).split(b"\n")
    lines[9] = lines[9].replace(b"Play", b"Plya")
    data = b"\n".join(lines)
    fast, slow = _both(data)
    assert fast == slow and fast[0] == "error" and "line 10" in fast[2]
    with pytest.raises(ValueError, match="line 10"):
        botzone.decisions(io.BytesIO(data), progress=False)


def test_not_utf8_gives_the_python_readers_error():
    lines = _games(False, 1).split(b"\n")
    lines[7] += b" \xff"
    fast, slow = _both(b"\n".join(lines))
    assert fast == slow and "line 8: not UTF-8" in fast[2]


def test_white_space_is_pythons():
    """The reader's white space (ASCII, and the code points it leaves to Python) is str.isspace()'s."""
    ws = [c for c in range(0x110000) if chr(c).isspace()]
    assert [c for c in ws if c < 128] == [9, 10, 11, 12, 13, 28, 29, 30, 31, 32]
    assert [c for c in ws if c >= 128] == [0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028, 0x2029, 0x202F,
                                           0x205F, 0x3000]


def test_a_line_of_other_white_space_separates_hands_as_in_python():
    # a line holding only U+00A0 is blank to the Python reader (str.strip): between two hands,
    # or after the last, it ends a hand; the compiled reader leaves it to Python and the same
    # hands come out (found by the perturbation test below)
    for where in ("between", "end"):
        lines = _games(True, 1).split(b"\n")
        blanks = [i for i, ln in enumerate(lines) if not ln.strip()]
        i = blanks[0] if where == "between" else blanks[-1]
        lines[i] = b"\xc2\xa0"
        fast, slow = _both(b"\n".join(lines))
        assert fast == slow and fast[0] == "ok", where


_TOKENS = [b"W1", b"H3", b"J4", b"X9", b"None", b"Play", b"PLAY", b"Deal", b"Match", b"Huang", b"Fan", b"Score", b"7",
           b"-3", b"+2", b"", b"1_0", b"\xc2\xa0", b"\xe4\xb8\x80", b"Ignore", b"Peng", b"Hu", b"4", b"0", b"\xff"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_perturbed_logs_read_as_the_python_reader_reads_them(data):
    lines = _PERTURB_BASE.split(b"\n")
    i = data.draw(st.integers(0, len(lines) - 1))
    if data.draw(st.booleans()):
        del lines[i]
    else:
        toks = lines[i].split(b" ")
        k = data.draw(st.integers(0, len(toks) - 1))
        toks[k] = data.draw(st.sampled_from(_TOKENS))
        lines[i] = b" ".join(toks)
    fast, slow = _both(b"\n".join(lines))
    assert fast == slow


_PERTURB_BASE = _games(True, 1)


def test_json_and_text_files_still_go_to_read_logs():
    assert bzd._text_file(io.BytesIO(b'  {"logs": []}')) is None
    assert bzd._text_file(io.StringIO("Match m\n")) is None
    assert bzd._text_file(io.BytesIO(b"Match m\n")) is not None
    assert _logs.read_logs is botzone.read_logs
