"""Tests of mjfast.tiles: notation, count vectors, packing."""

import ast
import doctest
import importlib
import inspect
import pkgutil
import re
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import mjfast.tiles
from mjfast import tiles
from mjfast.tiles import (
    Meld,
    ParsedHand,
    format_hand,
    format_tiles,
    pack,
    parse_hand,
    parse_tiles,
    tile_index,
    tile_name,
    unpack,
)

PROPS = settings(
    max_examples=300,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def counts_of(*names):
    c = np.zeros(34, dtype=np.uint8)
    for n in names:
        c[tile_index(n)] += 1
    return c


def reference_pack(counts):
    """Straightforward loop version of the documented layout."""
    counts = [int(x) for x in counts]
    words = [0, 0, 0, 0]
    for k in range(34):
        w, r = (k // 9, k % 9) if k < 27 else (3, k - 27)
        words[w] |= counts[k] << (3 * r)
    if len(counts) == 43:
        w4 = counts[42] << 8
        for i in range(8):
            w4 |= counts[34 + i] << i
        words.append(w4)
    return words


# ---------------------------------------------------------------------------
# module hygiene and constants


def _tiles_modules():
    """The package face and its private modules."""
    return [mjfast.tiles] + [importlib.import_module(f"mjfast.tiles.{m.name}")
                             for m in pkgutil.iter_modules(mjfast.tiles.__path__)]


def test_module_imports_only_stdlib_and_numpy():
    roots = set()
    for mod in _tiles_modules():
        for node in ast.walk(ast.parse(inspect.getsource(mod))):
            if isinstance(node, ast.Import):
                roots.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and not node.level:     # a sibling of the package is fine
                roots.add(node.module.split(".")[0])
    assert roots <= {"__future__", "dataclasses", "operator", "re", "typing", "numpy"}, roots


def test_doctests_pass():
    results = [doctest.testmod(mod, optionflags=doctest.ELLIPSIS) for mod in _tiles_modules()]
    assert sum(r.failed for r in results) == 0
    assert sum(r.attempted for r in results) >= 40


def test_every_public_function_has_examples():
    for name in tiles.__all__:
        obj = getattr(tiles, name)
        if callable(obj):
            assert "Examples\n" in (obj.__doc__ or ""), name


def test_constants():
    assert (tiles.N_KINDS, tiles.N_EXTENDED, tiles.N_COPIES) == (34, 43, 4)
    assert (tiles.SUITS, tiles.HONOR, tiles.BONUS_FIRST, tiles.JOKER) == ("mps", "z", 34, 42)
    assert len(tiles.KIND_NAMES) == 34
    assert tiles.KIND_NAMES[:3] == ("1m", "2m", "3m")
    assert tiles.KIND_NAMES[13] == "5p" and tiles.KIND_NAMES[26] == "9s"
    assert tiles.KIND_NAMES[-1] == "7z"
    assert tiles.HONOR_NAMES == ("East", "South", "West", "North", "White", "Green", "Red")
    names = [tiles.KIND_NAMES[k] for k in tiles.TERMINALS_AND_HONORS]
    assert names == ["1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"]


def test_tile_index_and_name_round_trip():
    for k in range(43):
        assert tile_index(tile_name(k)) == k
    assert tile_name(np.int64(13)) == "5p"
    assert [tile_name(k) for k in (0, 27, 33, 34, 41, 42)] == ["1m", "1z", "7z", "f1", "f8", "j"]
    assert tile_index("5f") == tile_index("f5") == 38
    assert tile_index(" 9s ") == 26


@pytest.mark.parametrize("bad", ["0m", "8z", "f9", "f0", "9f", "10m", "", "m", "5x", "jj", "5P"])
def test_tile_index_rejects(bad):
    with pytest.raises(ValueError, match="is not a tile name"):
        tile_index(bad)


def test_tile_helpers_type_and_range_errors():
    with pytest.raises(TypeError):
        tile_index(5)
    with pytest.raises(TypeError):
        tile_name("5p")
    with pytest.raises(TypeError):
        tile_name(True)
    with pytest.raises(ValueError, match="out of range"):
        tile_name(43)
    with pytest.raises(ValueError, match="out of range"):
        tile_name(-1)


# ---------------------------------------------------------------------------
# parse_hand / format_hand


def test_parse_hand_counts():
    c = parse_hand("123m456p789s1122z")
    assert c.shape == (34,) and c.dtype == np.uint8
    expected = counts_of("1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "2z", "2z")
    np.testing.assert_array_equal(c, expected)


def test_parse_hand_whitespace_order_and_repeated_suits():
    a = parse_hand(" 1122z\t789s\n456p 321m ")
    b = parse_hand("12m3m456p789s2121z")
    np.testing.assert_array_equal(a, b)
    assert format_hand(a) == "123m456p789s1122z"


def test_parse_hand_empty_is_zeros():
    for text in ("", "   "):
        c = parse_hand(text)
        assert c.shape == (34,) and not c.any()
    assert format_hand(parse_hand("")) == ""


def test_parse_hand_limits_are_inclusive():
    assert int(parse_hand("1111m").sum()) == 4
    assert int(parse_hand("11112222333344m").sum()) == 14
    full = parse_hand("1111m 2222p 3333s 44z")
    assert int(full.sum()) == 14 and int(full[27 + 3]) == 2


PARSE_ERRORS = [
    ("12x", r"unknown character 'x' at position 2 of '12x'"),
    ("1m!", r"unknown character '!'"),
    ("123M", r"unknown character 'M'.*lower case"),
    ("0m", r"rank 0 in '0m'"),
    ("1230p", r"rank 0 in '1230p'"),
    ("8z", r"rank 8 in '8z'.*1z-7z"),
    ("129z", r"rank 9 in '129z'"),
    ("123", r"digits '123' at position 0 .*have no suit letter"),
    ("1m 23", r"digits '23' at position 3 .*have no suit letter"),
    ("12 m", r"digits '12' .* no suit letter"),
    ("m", r"suit letter 'm' at position 0 .*has no rank digits"),
    ("11111m", r"5 copies of 1m; only 4 exist"),
    ("111m 11m", r"5 copies of 1m"),
    ("123456789m123456p", r"15 tiles; at most max_tiles=14"),
]


@pytest.mark.parametrize("text, message", PARSE_ERRORS)
def test_parse_hand_errors(text, message):
    with pytest.raises(ValueError, match=message):
        parse_hand(text)


@pytest.mark.parametrize("text, what", [
    ("123m [456p]", r"called set '\[456p\]'"),
    ("123m (1111z)", r"declared kong '\(1111z\)'"),
    ("123m f1", r"bonus tile 'f1'"),
    ("123m 12f", r"bonus tiles '12f'"),
    ("123m j", r"joker 'j'"),
])
def test_parse_hand_points_to_parse_tiles(text, what):
    with pytest.raises(ValueError, match=what + r".*use parse_tiles"):
        parse_hand(text)


@pytest.mark.parametrize("func", [parse_hand, parse_tiles])
@pytest.mark.parametrize("bad", [None, 123, b"123m", ["1m"]])
def test_parsers_reject_non_str(func, bad):
    with pytest.raises(TypeError, match="expects a str"):
        func(bad)


def test_format_hand_canonical_examples():
    assert format_hand(parse_hand("1122z 789s 456p 123m")) == "123m456p789s1122z"
    assert format_hand(counts_of("9p", "1p", "7z")) == "19p7z"
    assert format_hand([0] * 34) == ""
    assert format_hand(np.full(34, 4, dtype=np.int64)).startswith("111122223333")  # no tile limit


def test_format_hand_extended():
    ext = np.zeros(43, dtype=np.uint8)
    ext[tile_index("5s")] = 2
    ext[tile_index("f2")] = ext[tile_index("f8")] = 1
    ext[tiles.JOKER] = 3
    text = format_hand(ext)
    assert text == "55sf2f8jjj"
    h = parse_tiles(text)
    assert h.bonus.tolist() == [0, 1, 0, 0, 0, 0, 0, 1] and h.jokers == 3
    assert int(h.concealed[tile_index("5s")]) == 2


@pytest.mark.parametrize("value, exc, message", [
    (np.zeros(33, np.uint8), ValueError, r"shape \(34,\) or \(43,\), got \(33,\)"),
    (np.zeros((2, 34), np.uint8), ValueError, r"got \(2, 34\)"),
    (np.r_[np.zeros(33, np.int64), -1], ValueError, r"count -1 for 7z \(index 33\)"),
    (np.r_[5, np.zeros(33, np.int64)], ValueError, r"count 5 for 1m \(index 0\) is out of range 0-4"),
    (np.r_[np.zeros(34, np.int64), 2, np.zeros(8, np.int64)], ValueError, r"count 2 for f1"),
    (np.zeros(34, np.float64), TypeError, r"integer count vector"),
    (np.zeros(34, bool), TypeError, r"integer count vector"),
    ("123m", TypeError, r"format_tiles\(parse_tiles"),
])
def test_format_hand_errors(value, exc, message):
    with pytest.raises(exc, match=message):
        format_hand(value)


@st.composite
def small_count_vectors(draw):
    idx = draw(st.lists(st.integers(0, 33), max_size=14))
    c = np.bincount(np.array(idx, dtype=np.int64), minlength=34)
    assume(c.max(initial=0) <= 4)
    return c.astype(np.uint8)


@PROPS
@given(small_count_vectors())
def test_property_count_vectors_round_trip(c):
    text = format_hand(c)
    np.testing.assert_array_equal(parse_hand(text), c)
    assert " " not in text
    # canonical: re-formatting the parse is a fixed point, and so is a shuffled spelling
    assert format_hand(parse_hand(text)) == text
    groups = re.findall(r"\d+[mpsz]", text)
    shuffled = " ".join(g[-2::-1] + g[-1] for g in reversed(groups))  # "123m" -> "321m"
    assert format_hand(parse_hand(shuffled)) == text
    np.testing.assert_array_equal(unpack(pack(c)), c)
    assert pack(c).tolist() == reference_pack(c)


def _check_text_outcome(func, text):
    try:
        result = func(text)
    except ValueError:
        return None
    if func is parse_hand:
        again = format_hand(result)
        np.testing.assert_array_equal(parse_hand(again), result)
    else:
        again = format_tiles(result)
        assert parse_tiles(again) == result
        assert str(result) == again
    return result


@PROPS
@given(st.text())
def test_property_arbitrary_text_only_value_error(text):
    _check_text_outcome(parse_hand, text)
    _check_text_outcome(parse_tiles, text)


NOTATION_TOKENS = [
    "1m", "23p", "789s", "5z", "11z", "4444m", "0", "8z", " ", "\t", "x", "j", "2j", "f3", "4f",
    "f12", "[123m]", "[546p]", "[555z]", "[2222m]", "[12m]", "(1111s)", "(111s)", "[", "]", "(",
]
notation_like = st.one_of(
    st.text(alphabet="0123456789mpszfj[]() \t", max_size=30),
    st.lists(st.sampled_from(NOTATION_TOKENS), max_size=8).map("".join),
)


@PROPS
@given(notation_like)
def test_property_notation_like_text(text):
    h = _check_text_outcome(parse_tiles, text)
    c = _check_text_outcome(parse_hand, text)
    if c is not None:
        # a text parse_hand accepts parses the same way as a plain hand in parse_tiles
        assert h is not None and not h.melds and h.jokers == 0 and not h.bonus.any()
        np.testing.assert_array_equal(h.concealed, c)


# ---------------------------------------------------------------------------
# parse_tiles / Meld / ParsedHand / format_tiles


def test_parse_tiles_full_example():
    h = parse_tiles("1m1z [546p] [2222z] (7777p) 2f f1 jj")
    assert isinstance(h, ParsedHand)
    np.testing.assert_array_equal(h.concealed, counts_of("1m", "1z"))
    assert [m.kind for m in h.melds] == ["chow", "kong", "kong"]
    assert h.melds[0] == Meld("chow", (12, 13, 14))
    assert h.melds[1].tiles == (28, 28, 28, 28) and not h.melds[1].concealed
    assert h.melds[2].concealed and h.melds[2].tiles == (15,) * 4
    assert h.bonus.tolist() == [1, 1, 0, 0, 0, 0, 0, 0]
    assert h.jokers == 2
    assert h.n_tiles == 2 + 2 + 3 * 3  # concealed + jokers + 3 per set (kongs too)
    assert format_tiles(h) == "1m1z [456p] [2222z] (7777p) f1f2 jj"
    assert str(h) == format_tiles(h)


def test_parse_tiles_meld_kinds_and_order_normalised():
    h = parse_tiles("(1111m) [999s] [987s] 5z")
    assert [str(m) for m in h.melds] == ["[789s]", "[999s]", "(1111m)"]
    assert [m.kind for m in h.melds] == ["chow", "pung", "kong"]
    assert parse_tiles("[999s] (1111m) 5z [798s]") == h


def test_parse_tiles_plain_hand_matches_parse_hand():
    h = parse_tiles("123m456p789s1122z")
    np.testing.assert_array_equal(h.concealed, parse_hand("123m456p789s1122z"))
    assert h.melds == () and h.jokers == 0 and not h.bonus.any()
    assert parse_tiles("") == ParsedHand(np.zeros(34, np.uint8))
    assert str(parse_tiles("")) == ""


def test_parse_tiles_limits():
    # four kongs + pair: 3*4 + 2 = 14 tiles, kongs count 3
    h = parse_tiles("[1111m] [2222p] (3333s) [4444z] 55z")
    assert h.n_tiles == 14
    assert int(h.counts_all().sum()) == 18
    with pytest.raises(ValueError, match="15 tiles"):
        parse_tiles("[1111m] [2222p] (3333s) [4444z] 555z")
    with pytest.raises(ValueError, match="15 tiles"):
        parse_tiles("123456789m12345p j")  # jokers count toward the 14
    assert parse_tiles("j" * 8).jokers == 8
    with pytest.raises(ValueError, match="9 jokers; at most max_jokers=8"):
        parse_tiles("j" * 9)
    assert parse_tiles("jjj", max_jokers=3).jokers == 3
    with pytest.raises(ValueError, match="max_jokers=2"):
        parse_tiles("jjj", max_jokers=2)


def test_max_tiles_keyword():
    table = "1111m 2222p 3333s 4444z 55z [666z] (7777z)"  # e.g. all tiles seen on a table
    h = parse_tiles(table, max_tiles=None)
    assert h.n_tiles == 18 + 6 and int(h.counts_all().sum()) == 25
    with pytest.raises(ValueError, match=r"24 tiles .*max_tiles=14"):
        parse_tiles(table)
    with pytest.raises(ValueError, match=r"24 tiles .*max_tiles=20"):
        parse_tiles(table, max_tiles=20)
    assert int(parse_hand("1111m 2222p 3333s 4444z", max_tiles=None).sum()) == 16
    with pytest.raises(ValueError, match=r"4 tiles; at most max_tiles=3"):
        parse_hand("1234m", max_tiles=3)
    with pytest.raises(TypeError):
        parse_hand("1m", max_tiles=True)
    # ParsedHand itself holds any size; only the copy limit is physical
    big = ParsedHand(parse_hand("1111m2222p3333s4444z", max_tiles=None))
    assert big.n_tiles == 16 and parse_tiles(str(big), max_tiles=None) == big


TILES_ERRORS = [
    ("[457p]", r"'\[457p\]' at position 0 .* is not a valid set"),
    ("1m [89m1p]", r"'\[89m1p\]' at position 3 .* not a valid set"),
    ("[123z]", r"'\[123z\]' .* not a valid set"),
    ("[11m]", r"'\[11m\]' .* not a valid set"),
    ("[11111m]", r"'\[11111m\]' .* not a valid set"),
    ("[]", r"'\[\]' .* not a valid set"),
    ("[123m 456m]", r"not a valid set"),
    ("(123m)", r"'\(123m\)' .* is not a concealed kong"),
    ("(111m)", r"'\(111m\)' .* is not a concealed kong"),
    ("[456p", r"set opened with '\[' is never closed"),
    ("456p]", r"'\]' at position 4 .* closes a set that was never opened"),
    ("[[1m]]", r"sets cannot be nested"),
    ("[1111m)", r"'\)' at position 6 .* does not match the '\['"),
    ("[12f3m]", r"bonus tiles '12f' .* cannot be part of a set"),
    ("[f1]", r"bonus tile 'f1' .* cannot be part of a set"),
    ("[jj1m]", r"joker 'j' .* cannot be part of a set"),
    ("f9", r"bonus tile 'f9' .* does not exist"),
    ("9f", r"rank 9 in '9f'"),
    ("0f", r"rank 0 in '0f'"),
    ("f", r"'f' at position 0 .* must be followed by a bonus number"),
    ("fm", r"'f' at position 0"),
    ("f12", r"ambiguous bonus token 'f12'"),
    ("2j", r"jokers take no number: '2j'"),
    ("f1 1f", r"bonus tile f1 appears twice"),
    ("1m (1111m)", r"5 copies of 1m \(1 concealed, 4 in sets\)"),
    ("[111z] [111z]", r"6 copies of 1z \(0 concealed, 6 in sets\)"),
    ("123m ;", r"unknown character ';'"),
]


@pytest.mark.parametrize("text, message", TILES_ERRORS)
def test_parse_tiles_errors(text, message):
    with pytest.raises(ValueError, match=message):
        parse_tiles(text)


def test_long_text_error_message_omits_text():
    text = "1m " * 40 + "x"
    with pytest.raises(ValueError, match=r"unknown character 'x' at position 120$"):
        parse_tiles(text)


def test_meld_validation():
    assert Meld("pung", [5, 5, 5]).tiles == (5, 5, 5)
    assert str(Meld("kong", (27,) * 4)) == "[1111z]"
    assert str(Meld("kong", (27,) * 4, concealed=True)) == "(1111z)"
    assert Meld("chow", (np.int64(20), 18, 19)).tiles == (18, 19, 20)
    with pytest.raises(ValueError, match="only a kong can be concealed"):
        Meld("pung", (5, 5, 5), concealed=True)
    with pytest.raises(ValueError, match="8m 9m 1p is not a chow"):
        Meld("chow", (7, 8, 9))
    with pytest.raises(ValueError, match="is not a pung"):
        Meld("pung", (5, 5, 5, 5))
    with pytest.raises(ValueError, match="meld kind"):
        Meld("pair", (5, 5))
    with pytest.raises(ValueError, match="not a standard tile"):
        Meld("pung", (42, 42, 42))
    with pytest.raises(TypeError):
        Meld("pung", ("1m", "1m", "1m"))


def test_parsed_hand_is_immutable_and_hashable():
    h = parse_tiles("123m [456p] f3 j")
    with pytest.raises(ValueError):
        h.concealed[0] = 3  # read-only array
    with pytest.raises(Exception):
        h.jokers = 2  # frozen dataclass
    same = parse_tiles("j 3f [654p] 321m")
    assert h == same and hash(h) == hash(same)
    assert h != parse_tiles("123m [456p] f3")
    assert len({h, same}) == 1
    assert repr(h) == "<ParsedHand '123m [456p] f3 j'>"


def test_parsed_hand_direct_construction_validates():
    c = np.zeros(34, np.int64)
    c[0] = 1
    h = ParsedHand(c, melds=(Meld("pung", (0, 0, 0)),))
    assert h.concealed.dtype == np.uint8 and h.n_tiles == 4
    np.testing.assert_array_equal(h.counts_all(), counts_of("1m", "1m", "1m", "1m"))
    c[0] = 3
    with pytest.raises(ValueError, match="6 copies of 1m"):
        ParsedHand(c, melds=(Meld("pung", (0, 0, 0)),))
    with pytest.raises(ValueError, match=r"bonus\[2\] = 2"):
        ParsedHand(np.zeros(34, np.uint8), bonus=[0, 0, 2, 0, 0, 0, 0, 0])
    with pytest.raises(ValueError, match="shape"):
        ParsedHand(np.zeros(35, np.uint8))
    with pytest.raises(TypeError):
        ParsedHand(np.zeros(34, np.uint8), melds=("[123m]",))
    with pytest.raises(ValueError, match="jokers must be >= 0"):
        ParsedHand(np.zeros(34, np.uint8), jokers=-1)


def test_counts_all_is_a_fresh_array():
    h = parse_tiles("11z (2222z)")
    all_counts = h.counts_all()
    assert all_counts.tolist()[27:29] == [2, 4]
    all_counts[0] = 1
    assert int(h.concealed[0]) == 0


def test_format_tiles_type_error():
    with pytest.raises(TypeError, match="expects a ParsedHand"):
        format_tiles("123m")


ALL_MELDS = (
    [Meld("chow", (b + r, b + r + 1, b + r + 2)) for b in (0, 9, 18) for r in range(7)]
    + [Meld("pung", (k,) * 3) for k in range(34)]
    + [Meld("kong", (k,) * 4) for k in range(34)]
    + [Meld("kong", (k,) * 4, concealed=True) for k in range(34)]
)


@st.composite
def parsed_hands(draw):
    melds = draw(st.lists(st.sampled_from(ALL_MELDS), max_size=4))
    idx = draw(st.lists(st.integers(0, 33), max_size=14 - 3 * len(melds)))
    conc = np.bincount(np.array(idx, dtype=np.int64), minlength=34)
    bonus = draw(st.lists(st.integers(0, 1), min_size=8, max_size=8))
    jokers = draw(st.integers(0, 14 - 3 * len(melds) - len(idx)))
    try:
        return ParsedHand(conc, bonus, jokers, tuple(melds))
    except ValueError:
        assume(False)


@PROPS
@given(parsed_hands())
def test_property_parsed_hands_round_trip(h):
    text = format_tiles(h)
    back = parse_tiles(text, max_jokers=14)
    assert back == h
    assert format_tiles(back) == text
    assert back.n_tiles == h.n_tiles <= 14
    np.testing.assert_array_equal(back.counts_all(), h.counts_all())


# ---------------------------------------------------------------------------
# pack / unpack


def test_pack_bit_layout_literals():
    assert pack(parse_hand("1m")).tolist() == [1, 0, 0, 0]
    assert pack(parse_hand("9m")).tolist() == [1 << 24, 0, 0, 0]
    assert pack(parse_hand("7777z")).tolist() == [0, 0, 0, 4 << 18]
    assert pack(parse_hand("1p")).tolist() == [0, 1, 0, 0]
    assert pack(parse_hand("22s")).tolist() == [0, 0, 2 << 3, 0]
    assert pack(parse_hand("1111z")).tolist() == [0, 0, 0, 4]
    ext = np.zeros(43, np.uint8)
    ext[tile_index("f1")] = ext[tile_index("f8")] = 1
    ext[tiles.JOKER] = 255
    assert pack(ext).tolist() == [0, 0, 0, 0, (255 << 8) | 0x81]


def test_pack_dtype_shape_and_contiguity():
    c = parse_hand("123m456p789s1122z")
    w = pack(c)
    assert w.shape == (4,) and w.dtype == np.uint32
    b = pack(np.stack([c, c, c]))
    assert b.shape == (3, 4) and b.dtype == np.uint32 and b.flags.c_contiguous
    assert (b == w).all()
    assert pack(np.zeros((0, 34), np.uint8)).shape == (0, 4)
    assert pack(np.zeros((0, 43), np.uint8)).shape == (0, 5)
    assert unpack(np.zeros((0, 4), np.uint32)).shape == (0, 34)
    assert unpack(np.zeros((0, 5), np.uint32)).shape == (0, 43)
    # any integer dtype and plain lists
    for dt in (np.int8, np.uint16, np.int32, np.int64, np.uint64):
        assert pack(c.astype(dt)).tolist() == w.tolist()
    assert pack(c.tolist()).tolist() == w.tolist()


def test_pack_unpack_random_batches_against_reference():
    rng = np.random.default_rng(12345)
    n = 70_000  # more than one internal block
    c = rng.integers(0, 5, size=(n, 34), dtype=np.uint8)
    w = pack(c)
    assert w.shape == (n, 4)
    np.testing.assert_array_equal(unpack(w), c)
    rows = rng.choice(n, 300, replace=False)
    assert w[rows].tolist() == [reference_pack(c[r]) for r in rows]
    pad = w & np.array([~((1 << 27) - 1)] * 3 + [~((1 << 21) - 1)], dtype=np.int64).astype(np.uint32)
    assert not pad.any()
    # single rows agree with the batch
    assert pack(c[17]).tolist() == w[17].tolist()
    np.testing.assert_array_equal(unpack(w[17]), c[17])


def test_pack_unpack_extended_random_batch():
    rng = np.random.default_rng(7)
    n = 40_000
    e = np.zeros((n, 43), dtype=np.uint8)
    e[:, :34] = rng.integers(0, 5, size=(n, 34))
    e[:, 34:42] = rng.integers(0, 2, size=(n, 8))
    e[:, 42] = rng.integers(0, 256, size=n)
    w = pack(e)
    assert w.shape == (n, 5) and w.dtype == np.uint32
    np.testing.assert_array_equal(unpack(w), e)
    assert not (w[:, 4] >> 16).any()
    assert w[:50].tolist() == [reference_pack(row) for row in e[:50]]
    np.testing.assert_array_equal(unpack(w[:, :4]), e[:, :34])


@pytest.mark.parametrize("value, exc, message", [
    (np.zeros(33, np.uint8), ValueError, r"pack expects shape"),
    (np.zeros((2, 3, 34), np.uint8), ValueError, r"pack expects shape"),
    (np.zeros(34, np.float32), TypeError, r"integer array"),
    (np.zeros(34, bool), TypeError, r"integer array"),
    (np.r_[5, np.zeros(33, np.uint8)].astype(np.uint8), ValueError,
     r"^hand: count 5 for 1m \(index 0\) is out of range 0-4"),
    (np.r_[np.zeros(33, np.int64), -2], ValueError, r"^hand: count -2 for 7z"),
    (np.r_[np.zeros(34, np.int64), np.zeros(7, np.int64), 2, 0], ValueError, r"count 2 for f8"),
    (np.r_[np.zeros(42, np.int64), 256], ValueError, r"count 256 for j \(index 42\)"),
])
def test_pack_errors(value, exc, message):
    with pytest.raises(exc, match=message):
        pack(value)


def test_pack_error_names_first_bad_row_across_blocks():
    c = np.zeros((100_000, 34), np.uint8)
    c[40_001, 30] = 5
    c[90_000, 0] = 7
    with pytest.raises(ValueError, match=r"^hand 40001: count 5 for 4z"):
        pack(c)


def test_unpack_errors():
    w = pack(np.zeros((100_000, 34), np.uint8))
    bad = w.copy()
    bad[50_000, 0] = 5  # 1m field holds 5
    bad[60_000, 3] = 1 << 21  # padding
    bad[40_000, 3] = 6 << 18  # 7z field holds 6
    with pytest.raises(ValueError, match=r"^packed hand 40000: field of 7z holds 6"):
        unpack(bad)
    bad[40_000, 3] = 0
    with pytest.raises(ValueError, match=r"^packed hand 50000: field of 1m holds 5"):
        unpack(bad)
    bad[50_000, 0] = 0
    bad[50_001, 0] = 1 << 30  # padding before the next bad field
    bad[50_002, 1] = 5 << 3
    with pytest.raises(ValueError, match=r"^packed hand 50001: word 0 \(m\) .* nonzero padding"):
        unpack(bad)
    bad[50_001, 0] = 0
    bad[50_002, 1] = 0
    with pytest.raises(ValueError, match=r"^packed hand 60000: word 3 \(z\) .* nonzero padding"):
        unpack(bad)
    with pytest.raises(ValueError, match=r"^packed hand: word 1 \(p\) .* padding bits above bit 26"):
        unpack(np.array([0, 1 << 31, 0, 0], np.uint32))
    with pytest.raises(ValueError, match=r"^packed hand: field of 9s holds 7"):
        unpack(np.array([0, 0, 7 << 24, 0], np.uint32))
    with pytest.raises(ValueError, match=r"word 4 \(bonus/joker\)"):
        unpack(np.array([0, 0, 0, 0, 1 << 16], np.uint32))
    with pytest.raises(ValueError, match=r"^packed hand 1: word 2 = -1 does not fit"):
        unpack(np.array([[0, 0, 0, 0], [0, 0, -1, 0]], np.int64))
    mixed = np.zeros((3, 4), np.int64)
    mixed[1, 0] = 5
    mixed[2, 0] = -5
    with pytest.raises(ValueError, match=r"^packed hand 1: field of 1m holds 5"):
        unpack(mixed)
    with pytest.raises(ValueError, match=r"word 0 = 4294967296 does not fit"):
        unpack(np.array([1 << 32, 0, 0, 0], np.uint64))
    with pytest.raises(ValueError, match="unpack expects shape"):
        unpack(np.zeros(34, np.uint32))
    with pytest.raises(TypeError, match="integer array"):
        unpack(np.zeros(4, np.float64))


def test_unpack_accepts_other_integer_dtypes():
    c = parse_hand("19m19p19s1234567z5p")
    w = pack(c)
    for dt in (np.int64, np.uint64, np.int32):
        np.testing.assert_array_equal(unpack(w.astype(dt)), c)
    np.testing.assert_array_equal(unpack([int(x) for x in w]), c)


@PROPS
@given(st.lists(st.integers(0, 2**32 - 1), min_size=4, max_size=4),
       st.integers(0, 2**32 - 1))
def test_property_unpack_arbitrary_words(words, extra):
    for w in (np.array(words, np.uint32), np.array(words + [extra], np.uint32)):
        try:
            c = unpack(w)
        except ValueError as e:
            assert str(e).startswith("packed hand: ")
            continue
        assert c.max() <= 255
        assert pack(c).tolist() == w.tolist()
        assert reference_pack(c) == w.tolist()


@pytest.mark.slow
def test_pack_unpack_ten_million_hands_fast():
    rng = np.random.default_rng(0)
    c = rng.integers(0, 5, size=(10_000_000, 34), dtype=np.uint8)
    t0 = time.perf_counter()
    w = pack(c)
    t_pack = time.perf_counter() - t0
    t0 = time.perf_counter()
    back = unpack(w)
    t_unpack = time.perf_counter() - t0
    assert np.array_equal(back, c)
    assert t_pack < 3.0 and t_unpack < 3.0, (t_pack, t_unpack)
