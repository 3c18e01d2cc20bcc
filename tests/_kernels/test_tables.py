"""The generated lookup tables: pinned checksums, sizes, lazy thread-safe build."""
from __future__ import annotations

import sys

import numpy as np

import _proc
from mjfast._kernels import tables as _tables

# sha256 of each table's bytes. A change here means the tables changed: re-derive and check
# against the reference (tests/hands/test_shanten.py) before updating.
CHECKSUMS = {
    "suit_win": "fb83bb6ed466f151612c4c0f37a15c252ab46c218c67560934eddf3007a699a9",
    "suit_win_lo": "45363db7269a2a4006906c6a969ae508209c14a24e9074703400f4940a043033",
    "suit_win_hi": "8c8a7d8b5c5ea808b9b0983b9597c3e93cf2475ad2ba69cc6fe350980c43c89c",
    "honor_win": "64222405f3755f199bb2dfaebb111ced098e45e705d1f3255ac4bcf763f777f7",
    "suit_class": "9e4125f803f71a2a838d84a7b303a2ca647e271af99de7b9c9d9f1d311037619",
    "honor_class": "51c640b5ecb4a1d0e3a9e9380cc5cb87dd1182a7a52d937091491e9d98c47e50",
    "pair_mp": "1e492765efdc17ef7fffb54d03b8adfc6a4acf1992afd3f17a3b6a038faf1f48",
    "pair_sz": "b3b927d0ce4723319f4613da5c3302e3aeeea3f536f2faac2d18d79f4db957b8",
    "final": "125a4c019e52f68d955f86aa7e77278f46b8e4c5f425584f4aec06000a608e0a",
    "suit_vectors": "f5a02b4c32aaf025ebbdc393a881e7907add8ce45fb17153b6b84e68d913ea81",
    "honor_vectors": "f3d912f1b51908d550db99fa00cb0c09a3177ab4913187d7c25b36db16c7c0ad",
}


def test_checksums_pinned():
    assert _tables.checksums() == CHECKSUMS


def test_table_shapes_and_class_counts():
    t = _tables.get_tables()
    assert t["suit_class"].shape == (5**9,) and t["honor_class"].shape == (5**7,)
    # distinct distance vectors among the patterns of at most 14 tiles
    assert len(t["suit_vectors"]) == 126 and len(t["honor_vectors"]) == 55
    assert t["pair_mp"].shape == (126, 126) and t["pair_sz"].shape == (126, 55)
    assert t["final"].shape[2] == 8
    hot = sum(t[k].nbytes for k in ("suit_class", "honor_class", "pair_mp", "pair_sz", "final"))
    assert hot < 2.4e6  # what the shanten loop touches at most; random hands touch far less
    assert all(not a.flags.writeable for a in t.values())


def _win_values() -> np.ndarray:
    sw = _tables.get_tables()["suit_win"]
    codes = np.arange(5**9)
    return (sw[codes >> 2] >> ((codes & 3) * 2).astype(np.uint8)) & 3


def test_factored_win_table_equals_the_full_table():
    """Every one of the 5**9 suit codes: the two small tables give the 2-bit value of suit_win."""
    t = _tables.get_tables()
    lo, hi = t["suit_win_lo"], t["suit_win_hi"]
    assert lo.shape == (5**6,) and hi.size % 125 == 0 and lo.max() < hi.size // 125
    assert lo.nbytes + hi.nbytes < 32 * 1024   # fits a 32 KB L1 data cache with room to spare
    codes = np.arange(5**9)
    factored = hi[lo[codes % 5**6].astype(np.int64) * 125 + codes // 5**6]
    np.testing.assert_array_equal(factored, _win_values())


def test_win_values_equal_an_enumeration_of_sets():
    """Independent of the distance vectors: the suits complete as sets (1) or sets + a pair (2)
    are exactly those built from at most four pungs / chows (plus one pair), four copies at most."""
    melds = [tuple(3 if j == i else 0 for j in range(9)) for i in range(9)]
    melds += [tuple(1 if i <= j <= i + 2 else 0 for j in range(9)) for i in range(7)]
    level, sets_only = {(0,) * 9}, {(0,) * 9}
    for _ in range(4):
        level = {tuple(a + b for a, b in zip(s, m)) for s in level for m in melds}
        level = {s for s in level if max(s) <= 4}
        sets_only |= level
    with_pair = {s[:i] + (s[i] + 2,) + s[i + 1:] for s in sets_only for i in range(9)
                 if s[i] <= 2 and sum(s) <= 12}

    def codes(patterns):
        return sorted(sum(c * 5**i for i, c in enumerate(p)) for p in patterns)

    value = _win_values()
    assert np.flatnonzero(value == 1).tolist() == codes(sets_only)
    assert np.flatnonzero(value == 2).tolist() == codes(with_pair)


def test_vectors_are_consistent():
    """d(k, p) grows with k and p, and d(0, 0) = 0 for every class."""
    for name in ("suit_vectors", "honor_vectors"):
        v = _tables.get_tables()[name].astype(int)
        assert (v[:, 0] == 0).all()
        assert (np.diff(v[:, 0::2], axis=1) >= 0).all() and (v[:, 1::2] >= v[:, 0::2]).all()


def test_build_is_lazy_and_thread_safe():
    code = (
        "import threading, mjfast, mjfast._kernels.tables as T\n"
        "assert T._TABLES is None, 'tables built at import'\n"
        "res = []\n"
        "def work():\n"
        "    res.append(id(T.get_tables()))\n"
        "ts = [threading.Thread(target=work) for _ in range(8)]\n"
        "[t.start() for t in ts]; [t.join() for t in ts]\n"
        "assert len(set(res)) == 1, res\n"
        "print(mjfast.shanten('123m456p789s1122z'))\n"
    )
    out = _proc.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "0"


def test_import_is_fast():
    code = "import time; t = time.perf_counter(); import mjfast; print(time.perf_counter() - t)"
    times = []
    for _ in range(3):
        out = _proc.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        times.append(float(out.stdout))
    assert min(times) < 1.0
