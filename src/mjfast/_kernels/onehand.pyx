# cython: language_level=3
"""One hand per call, without the general wrappers (private; the fronts are mjfast.hands and
mjfast.mcr).

Bots and notebooks call the hand functions one hand at a time, where the general path (turn the
input into a batch, check it with numpy, run a batch kernel, unwrap the result) costs several
microseconds for a kernel of tens of nanoseconds. The entry points here read ONE hand straight
from the Python object -- a str in mjfast's notation, a 1-D integer array of 34 counts, or a list
or tuple of 34 ints -- check it, and call the hand kernels of ``hand.pxd`` or the fan kernel.

They take only input they can read completely and that is valid; for anything else (another
input form, a malformed text, a fifth copy, a wrong size, jokers...) they return None, and the
caller takes its general path, which reads the same input again and raises its usual error.
So every error message stays what it was, and a result from here is always the general path's
result (the tests compare them on random hands of every size, form and rule set).

The text reader takes the notation of ``mjfast.tiles`` (digit runs each closed by a suit letter,
whitespace between groups, called sets ``[...]``, concealed kongs ``(....)``, bonus tiles
``f1``/``12f`` where asked for) in ASCII; it returns "not taken" for jokers, any other
character and any text ``tiles.parse_tiles`` would reject.
"""
from cpython.long cimport PyLong_AsLongAndOverflow, PyLong_CheckExact
from cpython.unicode cimport PyUnicode_1BYTE_KIND, PyUnicode_DATA, PyUnicode_GET_LENGTH, PyUnicode_KIND
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

cimport numpy as cnp

from mjfast._kernels.hand_types cimport FORM_STANDARD, mj_tables_t
from mjfast._kernels.hand_tables cimport c_tables
from mjfast._kernels.hand cimport shanten_counts, standard_winning_counts, winning_counts
from mjfast._kernels.mcr_fan cimport N_FANS, fan_in_t, fan_out_t, mcr_fan

cnp.import_array()


ctypedef struct meld_t:
    uint8_t code        # 1 chow, 2 pung, 3 kong (fan_batch's codes)
    uint8_t tile        # the lowest tile kind
    uint8_t exposed     # 0 for a concealed kong "(....)"


ctypedef struct scan_t:
    uint8_t concealed[40]   # counts of kinds 0-33, zero padding after (the kernels load 8-byte words)
    uint8_t total[34]       # concealed + the tiles of the sets
    int n_concealed
    int n_melds
    meld_t melds[4]         # in parse_tiles' canonical order: exposed first, then by tiles
    int n_bonus


cdef inline bint is_digit(unsigned char c) noexcept nogil:
    return 48 <= c <= 57


cdef inline int set_tiles(const meld_t* m, uint8_t* t) noexcept nogil:
    """The sorted tiles of a set; returns their number."""
    if m.code == 1:
        t[0] = m.tile
        t[1] = m.tile + 1
        t[2] = m.tile + 2
        return 3
    t[0] = t[1] = t[2] = t[3] = m.tile
    return 4 if m.code == 3 else 3


cdef inline bint meld_before(const meld_t* a, const meld_t* b) noexcept nogil:
    """parse_tiles' order of sets: (concealed, sorted tiles) -- exposed before concealed kongs,
    then the tile tuples compared (a shorter prefix first: a pung before the kong of its kind)."""
    cdef uint8_t ta[4]
    cdef uint8_t tb[4]
    cdef int na = set_tiles(a, ta), nb = set_tiles(b, tb), i
    if a.exposed != b.exposed:
        return a.exposed > b.exposed
    for i in range(na if na < nb else nb):
        if ta[i] != tb[i]:
            return ta[i] < tb[i]
    return na < nb


cdef int close_set(scan_t* s, const uint8_t* g, int ng, bint concealed) noexcept nogil:
    """Record the set of the ``ng`` tiles of a bracket; 0 when they are no set (or a 5th set)."""
    cdef uint8_t t[4]
    cdef int i, j, code
    cdef uint8_t x
    if ng < 3 or s.n_melds == 4:
        return 0
    for i in range(ng):             # insertion sort of at most 4 tiles
        t[i] = g[i]
        j = i
        while j > 0 and t[j - 1] > t[j]:
            x = t[j]
            t[j] = t[j - 1]
            t[j - 1] = x
            j -= 1
    if ng == 4 and t[0] == t[3]:
        code = 3
    elif ng == 3 and t[0] == t[2]:
        code = 2
    elif ng == 3 and t[0] < 27 and t[1] == t[0] + 1 and t[2] == t[0] + 2 and t[0] // 9 == t[2] // 9:
        code = 1
    else:
        return 0
    if concealed and code != 3:
        return 0
    s.melds[s.n_melds].code = <uint8_t>code
    s.melds[s.n_melds].tile = t[0]
    s.melds[s.n_melds].exposed = 0 if concealed else 1
    s.n_melds += 1
    return 1


cdef int scan_text(str text, scan_t* s, int max_tiles, bint allow_bonus):
    """Read ``text`` as ``tiles.parse_tiles(text, max_tiles=...)`` would (max_tiles < 0: no
    limit) into ``s``; 1 when taken, 0 when not (any text parse_tiles rejects, jokers, bonus
    tiles unless ``allow_bonus``, characters outside ASCII letters, digits, brackets and
    plain whitespace)."""
    cdef const unsigned char* p
    cdef Py_ssize_t n, i = 0, j, run = -1
    cdef unsigned char c, d, group = 0
    cdef uint8_t g[4]
    cdef int ng = 0, base, top, r, k, bonus = 0, bit
    cdef meld_t tmp
    memset(s, 0, sizeof(scan_t))
    if PyUnicode_KIND(text) != PyUnicode_1BYTE_KIND:
        return 0
    p = <const unsigned char*>PyUnicode_DATA(text)
    n = PyUnicode_GET_LENGTH(text)
    while i < n:
        c = p[i]
        if is_digit(c):
            if run < 0:
                run = i
            i += 1
            continue
        if c == 109 or c == 112 or c == 115 or c == 122 or c == 102:   # m p s z f
            if run < 0:                      # no digits before: only the bonus form "f1"-"f8"
                if c != 102 or not allow_bonus or group or i + 1 >= n:
                    return 0
                d = p[i + 1]
                if d < 49 or d > 56 or (i + 2 < n and is_digit(p[i + 2])):
                    return 0
                bit = 1 << (d - 49)
                if bonus & bit:
                    return 0
                bonus |= bit
                i += 2
                continue
            if c == 102:                     # "12f": bonus tiles f1, f2
                if not allow_bonus or group:
                    return 0
                for j in range(run, i):
                    r = p[j] - 48
                    if r < 1 or r > 8 or bonus & (1 << (r - 1)):
                        return 0
                    bonus |= 1 << (r - 1)
            else:
                base = 0 if c == 109 else 9 if c == 112 else 18 if c == 115 else 27
                top = 7 if c == 122 else 9
                for j in range(run, i):
                    r = p[j] - 48
                    if r < 1 or r > top:
                        return 0
                    k = base + r - 1
                    if group:
                        if ng == 4:          # five tiles in a bracket: no set
                            return 0
                        g[ng] = <uint8_t>k
                        ng += 1
                    else:
                        if s.concealed[k] == 4:
                            return 0
                        s.concealed[k] += 1
                        s.n_concealed += 1
            run = -1
            i += 1
            continue
        if run >= 0:                         # digits with no suit letter
            return 0
        if c == 32 or 9 <= c <= 13:          # whitespace between groups
            pass
        elif c == 91 or c == 40:             # "[" "("
            if group:
                return 0
            group = c
            ng = 0
        elif c == 93 or c == 41:             # "]" ")"
            if not group or (c == 93) != (group == 91):
                return 0
            if not close_set(s, g, ng, group == 40):
                return 0
            group = 0
        else:                                # jokers, other letters, anything else
            return 0
        i += 1
    if run >= 0 or group:
        return 0
    memcpy(s.total, s.concealed, 34)
    for k in range(s.n_melds):
        base = s.melds[k].tile
        if s.melds[k].code == 1:
            s.total[base] += 1
            s.total[base + 1] += 1
            s.total[base + 2] += 1
        else:
            s.total[base] += 4 if s.melds[k].code == 3 else 3
    for k in range(34):
        if s.total[k] > 4:
            return 0
    if max_tiles >= 0 and s.n_concealed + 3 * s.n_melds > max_tiles:
        return 0
    while bonus:
        s.n_bonus += bonus & 1
        bonus >>= 1
    for k in range(1, s.n_melds):            # canonical order (insertion sort of at most 4)
        j = k
        while j > 0 and meld_before(&s.melds[j], &s.melds[j - 1]):
            tmp = s.melds[j]
            s.melds[j] = s.melds[j - 1]
            s.melds[j - 1] = tmp
            j -= 1
    return 1


cdef int read_counts(object hand, uint8_t* out, int* n) except -1:
    """34 counts 0-4 from a 1-D integer ndarray of 34 (any integer dtype, any stride, native
    byte order) or a list / tuple of 34 ints into ``out``; 1 when taken, 0 when not."""
    cdef cnp.ndarray arr
    cdef int i, t, size, total = 0, overflow
    cdef Py_ssize_t stride
    cdef const char* data
    cdef long v
    cdef uint64_t u
    cdef int64_t x
    if cnp.PyArray_CheckExact(hand):
        arr = <cnp.ndarray>hand
        if cnp.PyArray_NDIM(arr) != 1 or cnp.PyArray_DIM(arr, 0) != 34 or not cnp.PyArray_ISNOTSWAPPED(arr):
            return 0
        t = cnp.PyArray_TYPE(arr)
        size = cnp.PyArray_ITEMSIZE(arr)
        stride = cnp.PyArray_STRIDE(arr, 0)
        data = cnp.PyArray_BYTES(arr)
        if t == cnp.NPY_UBYTE or t == cnp.NPY_USHORT or t == cnp.NPY_UINT or t == cnp.NPY_ULONG or t == cnp.NPY_ULONGLONG:
            for i in range(34):             # unsigned: only the upper bound
                u = read_unsigned(data + i * stride, size)
                if u > 4:
                    return 0
                out[i] = <uint8_t>u
                total += <int>u
        elif t == cnp.NPY_BYTE or t == cnp.NPY_SHORT or t == cnp.NPY_INT or t == cnp.NPY_LONG or t == cnp.NPY_LONGLONG:
            for i in range(34):
                x = read_signed(data + i * stride, size)
                if x < 0 or x > 4:
                    return 0
                out[i] = <uint8_t>x
                total += <int>x
        else:                                # bools, floats, objects...: the general path's errors
            return 0
        n[0] = total
        return 1
    if type(hand) is list or type(hand) is tuple:
        if len(hand) != 34:
            return 0
        for i in range(34):
            item = hand[i]
            if not PyLong_CheckExact(item):  # (bools, numpy ints, floats: the general path)
                return 0
            v = PyLong_AsLongAndOverflow(item, &overflow)
            if overflow or v < 0 or v > 4:
                return 0
            out[i] = <uint8_t>v
            total += <int>v
        n[0] = total
        return 1
    return 0


cdef inline uint64_t read_unsigned(const char* p, int size) noexcept nogil:
    """The unsigned integer of ``size`` bytes (1, 2, 4 or 8, native order) at ``p``, any alignment."""
    cdef uint8_t a
    cdef uint16_t b
    cdef uint32_t c
    cdef uint64_t d
    if size == 1:
        memcpy(&a, p, 1)
        return a
    if size == 2:
        memcpy(&b, p, 2)
        return b
    if size == 4:
        memcpy(&c, p, 4)
        return c
    memcpy(&d, p, 8)
    return d


cdef inline int64_t read_signed(const char* p, int size) noexcept nogil:
    """The signed integer of ``size`` bytes (1, 2, 4 or 8, native order) at ``p``, any alignment."""
    cdef int8_t a
    cdef int16_t b
    cdef int32_t c
    cdef int64_t d
    if size == 1:
        memcpy(&a, p, 1)
        return a
    if size == 2:
        memcpy(&b, p, 2)
        return b
    if size == 4:
        memcpy(&c, p, 4)
        return c
    memcpy(&d, p, 8)
    return d


cdef int read_hand(object hand, scan_t* s, bint melds_ok) except -1:
    """One hand for the hand functions (text of at most 14 tiles without bonus tiles or jokers,
    or 34 counts) into ``s`` (concealed counts; a text's sets too); 1 when taken."""
    if type(hand) is str:
        if not scan_text(<str>hand, s, 14, False):
            return 0
        return 1 if melds_ok or s.n_melds == 0 else 0
    memset(s, 0, sizeof(scan_t))
    return read_counts(hand, s.concealed, &s.n_concealed)


def shanten_one(object hand, int forms, uint64_t sizes):
    """Shanten of one hand (text without called sets, or 34 counts) over the forms ``forms``,
    whose tile total must be in the bit set ``sizes``; None when not taken."""
    cdef scan_t s
    if not read_hand(hand, &s, False):
        return None
    if s.n_concealed >= 64 or not (sizes >> s.n_concealed) & 1:
        return None
    cdef const mj_tables_t* t = c_tables()
    return shanten_counts(s.concealed, forms, t)


def winning_one(object hand, int forms, uint64_t sizes):
    """Whether one hand (text, its called sets left aside as the general path leaves them, or 34
    counts) is complete in one of ``forms``; None when not taken."""
    cdef scan_t s
    if not read_hand(hand, &s, True):
        return None
    if s.n_concealed >= 64 or not (sizes >> s.n_concealed) & 1:
        return None
    cdef const mj_tables_t* t = c_tables()
    if forms == FORM_STANDARD:
        return True if standard_winning_counts(s.concealed, t) else False
    return True if winning_counts(s.concealed, forms, t) else False


def text_rows(list texts, uint8_t[:, ::1] counts, uint8_t[:, ::1] called):
    """Read each text (hands of at most 14 tiles, no bonus tiles or jokers) into its row of
    ``counts`` (concealed tiles) and ``called`` (the tiles of its sets); returns the indices of
    the texts not taken, in order (the caller reads those with parse_tiles)."""
    cdef Py_ssize_t i, n = len(texts)
    cdef scan_t s
    cdef int k
    slow = []
    for i in range(n):
        item = texts[i]
        if type(item) is not str or not scan_text(<str>item, &s, 14, False):
            slow.append(i)
            continue
        memcpy(&counts[i, 0], s.concealed, 34)
        for k in range(34):
            called[i, k] = s.total[k] - s.concealed[k]
    return slow


cdef int meld_of(object m, dict kinds, dict codes, object meld_type, uint8_t* out) except -1:
    """One set of mcr.fan's ``melds`` as (code, lowest tile, exposed) in ``out``; 1 when taken: a
    tiles.Meld, or a tuple (kind, tile) / (kind, tile, state) with kind "chow" / "pung" / "kong",
    tile an int 0-33 or a tile name, state "exposed", "concealed" or a supplier 1-3."""
    cdef int code, tile, exposed = 1, overflow
    cdef long v
    if type(m) is meld_type:
        c = codes.get(m.kind)
        if c is None:
            return 0
        code = c
        tile = min(m.tiles)
        exposed = 0 if m.concealed else 1
    elif type(m) is tuple and (len(m) == 2 or len(m) == 3):
        c = codes.get(m[0]) if type(m[0]) is str else None
        if c is None:
            return 0
        code = c
        t = m[1]
        if type(t) is str:
            t = kinds.get(t)
            if t is None:
                return 0
        elif not PyLong_CheckExact(t):
            return 0
        v = PyLong_AsLongAndOverflow(t, &overflow)
        if overflow or v < 0 or v >= 34:
            return 0
        tile = <int>v
        if len(m) == 3:
            state = m[2]
            if type(state) is str:
                if state == "exposed":
                    exposed = 1
                elif state == "concealed":
                    exposed = 0
                else:
                    return 0
            elif PyLong_CheckExact(state):
                v = PyLong_AsLongAndOverflow(state, &overflow)
                if overflow or v < 1 or v > 3:
                    return 0
            else:
                return 0
    else:
        return 0
    if code == 1 and (tile >= 27 or tile % 9 > 6):
        return 0
    out[0] = <uint8_t>code
    out[1] = <uint8_t>tile
    out[2] = <uint8_t>exposed
    return 1


cdef inline int flag_of(object v) noexcept:
    """0 / 1 for False / True (exactly the bools), -1 for anything else."""
    if v is True:
        return 1
    if v is False:
        return 0
    return -1


cdef int wind_of(object w, dict winds) except -2:
    """0-3 for a wind name of ``winds`` or an int 0-3; -1 for anything else."""
    cdef int overflow
    cdef long v
    if type(w) is str:
        x = winds.get(w)
        return -1 if x is None else <int>x
    if PyLong_CheckExact(w):
        v = PyLong_AsLongAndOverflow(w, &overflow)
        return <int>v if not overflow and 0 <= v <= 3 else -1
    return -1


cdef int score_hand(object hand, const uint8_t* extra, int n_extra, int win, int self_drawn, int fourth_tile,
                    int kong, int last_of_wall, int seat_wind, int prevalent_wind, int flowers, fan_out_t* out,
                    int* flowers_used) except -2:
    """Score one hand for mcr.fan: ``hand`` text (sets, concealed kongs and bonus tiles allowed)
    or 34 counts; ``extra``: (code, lowest tile, exposed) of ``n_extra`` more sets, checked by
    the caller, after those of the text; ``flowers`` < 0: those of the text. Returns the total
    (``out`` holds the fan counts), or -1 when the hand is not taken (its size, copies or sets
    are not those of a valid call, or its text is not one the reader takes)."""
    cdef scan_t s
    cdef fan_in_t x
    cdef uint8_t total[34]
    cdef int i, m, need, n, tile
    if type(hand) is str:
        if not scan_text(<str>hand, &s, -1, True):
            return -1
    else:
        memset(&s, 0, sizeof(scan_t))
        if not read_counts(hand, s.concealed, &s.n_concealed):
            return -1
    if s.n_melds + n_extra > 4:
        return -1
    memset(&x, 0, sizeof(fan_in_t))
    memcpy(x.hand, s.concealed, 34)
    m = 0
    for i in range(s.n_melds):
        x.meld_kind[m] = s.melds[i].code - 1
        x.meld_tile[m] = s.melds[i].tile
        x.meld_exposed[m] = s.melds[i].exposed
        m += 1
    for i in range(n_extra):
        x.meld_kind[m] = extra[3 * i] - 1
        x.meld_tile[m] = extra[3 * i + 1]
        x.meld_exposed[m] = extra[3 * i + 2]
        m += 1
    x.n_melds = m
    need = 13 - 3 * m
    n = s.n_concealed
    if n == need + 1:
        if x.hand[win] == 0:
            return -1
        x.hand[win] -= 1
    elif n != need:
        return -1
    memcpy(total, x.hand, 34)
    total[win] += 1
    for i in range(m):
        tile = x.meld_tile[i]
        if x.meld_kind[i] == 0:
            total[tile] += 1
            total[tile + 1] += 1
            total[tile + 2] += 1
        else:
            total[tile] += 4 if x.meld_kind[i] == 2 else 3
    for i in range(34):
        if total[i] > 4:
            return -1
    x.win = win
    x.self_drawn = self_drawn
    x.fourth_tile = fourth_tile
    x.kong = kong
    x.last_of_wall = last_of_wall
    x.seat_wind = seat_wind
    x.prevalent_wind = prevalent_wind
    x.flowers = s.n_bonus if flowers < 0 else flowers
    flowers_used[0] = x.flowers
    cdef const mj_tables_t* t = c_tables()
    return mcr_fan(&x, out, t)


# mcr.fan's tables and types, set once by mjfast.mcr (fan_setup): tile names, winds, set kinds, the
# Meld type, the cache of fan lists, the builder of a fan list, and FanResult
cdef dict _KINDS = {}
cdef dict _WINDS = {}
cdef dict _CODES = {}
cdef object _MELD = None
cdef dict _FANS_OF = {}
cdef object _MAKE_FANS = None
cdef object _RESULT = None


def fan_setup(dict kinds, dict winds, dict codes, object meld_type, dict fans_of, object make_fans, object result_type):
    """Called by mjfast.mcr at import: ``kinds`` tile name -> kind, ``winds`` wind name -> 0-3,
    ``codes`` "chow" / "pung" / "kong" -> fan_batch's set codes, the tiles.Meld type, the dict
    of fan lists by their 82 counts (bytes) and the function that makes a missing one
    (``make_fans(counts)``, which stores it), and the FanResult type."""
    global _KINDS, _WINDS, _CODES, _MELD, _FANS_OF, _MAKE_FANS, _RESULT
    _KINDS, _WINDS, _CODES, _MELD, _FANS_OF, _MAKE_FANS, _RESULT = (kinds, winds, codes, meld_type, fans_of,
                                                                     make_fans, result_type)


cdef object fan_result(int total, const int8_t* counts, int flowers):
    """FanResult(total, fans, total > 0, flowers) without its dataclass __init__ (frozen: four
    object.__setattr__ calls); the class has no __post_init__ and no slots (tests compare the
    two). The fans come from the dict of fan lists, made on a miss."""
    cdef object fans = ()
    if total > 0:
        key = (<const char*>counts)[:N_FANS]
        fans = _FANS_OF.get(key)
        if fans is None:
            fans = _MAKE_FANS(key)
    else:
        flowers = 0
    r = _RESULT.__new__(_RESULT)
    d = r.__dict__
    d["total"] = total
    d["fans"] = fans
    d["is_win"] = total > 0
    d["flowers"] = flowers
    return r


def fan_call(object hand, object melds, object win_tile, object self_drawn, object fourth_tile, object kong,
             object last_of_wall, object seat_wind, object prevalent_wind, object flowers):
    """mcr.fan of arguments as it takes them, for the common types: ``hand`` text or counts,
    ``melds`` a list / tuple of tiles.Meld or tuples, ``win_tile`` a tile name or 0-33, the four
    flags bools, the winds names or 0-3, ``flowers`` None or 0-8 (see fan_setup). Returns the
    FanResult, or None when not taken (other types, or input with a problem)."""
    cdef uint8_t row[12]
    cdef int n_extra = 0, win, sd, ft, kg, lw, seat, prevalent, nf, overflow
    cdef long v
    cdef fan_out_t out
    if _RESULT is None:
        return None
    if type(win_tile) is str:
        x = _KINDS.get(win_tile)
        if x is None:
            return None
        win = <int>x
    elif PyLong_CheckExact(win_tile):
        v = PyLong_AsLongAndOverflow(win_tile, &overflow)
        if overflow or v < 0 or v >= 34:
            return None
        win = <int>v
    else:
        return None
    sd = flag_of(self_drawn)
    ft = flag_of(fourth_tile)
    kg = flag_of(kong)
    lw = flag_of(last_of_wall)
    seat = wind_of(seat_wind, _WINDS)
    prevalent = wind_of(prevalent_wind, _WINDS)
    if sd < 0 or ft < 0 or kg < 0 or lw < 0 or seat < 0 or prevalent < 0:
        return None
    if flowers is None:
        nf = -1
    elif PyLong_CheckExact(flowers):
        v = PyLong_AsLongAndOverflow(flowers, &overflow)
        if overflow or v < 0 or v > 8:
            return None
        nf = <int>v
    else:
        return None
    memset(row, 0, 12)
    if type(melds) is list or type(melds) is tuple:
        if len(melds) > 4:
            return None
        for m in melds:
            if not meld_of(m, _KINDS, _CODES, _MELD, &row[3 * n_extra]):
                return None
            n_extra += 1
    else:
        return None
    cdef int used = 0
    cdef int total = score_hand(hand, row, n_extra, win, sd, ft, kg, lw, seat, prevalent, nf, &out, &used)
    if total < 0:
        return None
    return fan_result(total, out.count, used)
