# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Botzone's match-data text format, read straight into the flat arrays of
``chinese_env.layout_hands`` (private; the public reader is mjfast.botzone.read_logs, the
user of this one mjfast.botzone.decisions).

The reader accepts exactly the hands it is sure of: every line as ``_logs._text_hand`` reads
it, ASCII tokens, integers of at most 15 digits. Any other hand (a malformed line, an unknown
tile, a token it does not know exactly, text it cannot split as Python splits it) is marked
(``ok[j] = 0``) with the bytes and the line where it starts, for the Python reader to read (or
to refuse with its message). Lines are grouped into hands as the Python reader groups them: a
hand ends at a blank line or before a line that starts with ``Match``.
"""
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t

# action kinds: mjfast.botzone._hand.ACTION_KINDS
DEF K_DRAW = 0
DEF K_BUHUA = 1
DEF K_PLAY = 2
DEF K_CHI = 3
DEF K_PENG = 4
DEF K_GANG = 5
DEF K_ANGANG = 6
DEF K_BUGANG = 7
DEF K_HU = 8
DEF MAXTOK = 64


cdef inline bint _ws(uint8_t c) nogil:
    # the ASCII characters Python's str.split() and str.strip() take as white space
    return c == 32 or (9 <= c <= 13) or (28 <= c <= 31)


cdef inline bint _uws(int cp) nogil:
    # the other code points str.isspace() takes as white space (Python 3.11)
    return (cp == 0x85 or cp == 0xA0 or cp == 0x1680 or (0x2000 <= cp <= 0x200A) or cp == 0x2028
            or cp == 0x2029 or cp == 0x202F or cp == 0x205F or cp == 0x3000)


cdef int _scan(const uint8_t* s, Py_ssize_t n) nogil:
    """The line's class: 0 blank, 1 text (ASCII white space only), 2 text with other white
    space or characters the reader leaves to Python, 3 not UTF-8 (strictly, as Python decodes)."""
    cdef Py_ssize_t i = 0
    cdef int cp, k, j, nonws = 0, other = 0
    cdef uint8_t c
    while i < n:
        c = s[i]
        if c < 0x80:
            if not _ws(c):
                nonws = 1
            i += 1
            continue
        if 0xC2 <= c <= 0xDF:
            k = 1
            cp = c & 0x1F
        elif 0xE0 <= c <= 0xEF:
            k = 2
            cp = c & 0x0F
        elif 0xF0 <= c <= 0xF4:
            k = 3
            cp = c & 0x07
        else:
            return 3
        for j in range(1, k + 1):
            if i + j >= n or (s[i + j] & 0xC0) != 0x80:
                return 3
            cp = (cp << 6) | (s[i + j] & 0x3F)
        if (k == 2 and (cp < 0x800 or 0xD800 <= cp <= 0xDFFF)) or (k == 3 and (cp < 0x10000 or cp > 0x10FFFF)):
            return 3
        if _uws(cp):
            other = 1
        else:
            nonws = 1
        i += k + 1
    if not nonws:
        return 2 if other else 0
    return 2 if other else 1


cdef int _split(const uint8_t* s, Py_ssize_t n, Py_ssize_t* a, Py_ssize_t* b) nogil:
    """Tokens of the line (ASCII white space): their bounds in a, b; -1 when more than MAXTOK."""
    cdef Py_ssize_t i = 0
    cdef int t = 0
    while True:
        while i < n and _ws(s[i]):
            i += 1
        if i >= n:
            return t
        if t == MAXTOK:
            return -1
        a[t] = i
        while i < n and not _ws(s[i]):
            i += 1
        b[t] = i
        t += 1


cdef inline bint _is(const uint8_t* s, Py_ssize_t a, Py_ssize_t b, const char* w) nogil:
    cdef Py_ssize_t i = 0
    while a + i < b:
        if w[i] == 0 or <uint8_t>w[i] != s[a + i]:
            return False
        i += 1
    return w[i] == 0


cdef inline int _digit03(const uint8_t* s, Py_ssize_t a, Py_ssize_t b) nogil:
    if b - a == 1 and 48 <= s[a] <= 51:
        return s[a] - 48
    return -1


cdef inline int _tile(const uint8_t* s, Py_ssize_t a, Py_ssize_t b, const int8_t[:, ::1] codes) nogil:
    """The tile code (kind 0-33, bonus 34-41) of a Botzone tile name; -2 when it is not one."""
    if b - a != 2 or not (65 <= s[a] <= 90) or not (48 <= s[a + 1] <= 57):
        return -2
    return codes[s[a] - 65, s[a + 1] - 48]


cdef inline bint _int(const uint8_t* s, Py_ssize_t a, Py_ssize_t b, int64_t* v) nogil:
    """An integer as [+-]?[0-9]{1,15}."""
    cdef int64_t x = 0
    cdef bint neg = False
    if a < b and (s[a] == 45 or s[a] == 43):
        neg = s[a] == 45
        a += 1
    if b - a < 1 or b - a > 15:
        return False
    while a < b:
        if not (48 <= s[a] <= 57):
            return False
        x = x * 10 + (s[a] - 48)
        a += 1
    v[0] = -x if neg else x
    return True


cdef int _verb(const uint8_t* s, Py_ssize_t a, Py_ssize_t b) nogil:
    """The action kind of a verb (ASCII, any case as the reader's str.lower()); -1 otherwise."""
    cdef char w[8]
    cdef Py_ssize_t i, n = b - a
    cdef uint8_t c
    if n < 2 or n > 6:
        return -1
    for i in range(n):
        c = s[a + i]
        if 65 <= c <= 90:
            c += 32
        w[i] = <char>c
    w[n] = 0
    if _is(<const uint8_t*>w, 0, n, b"draw"): return K_DRAW
    if _is(<const uint8_t*>w, 0, n, b"play"): return K_PLAY
    if _is(<const uint8_t*>w, 0, n, b"chi"): return K_CHI
    if _is(<const uint8_t*>w, 0, n, b"peng"): return K_PENG
    if _is(<const uint8_t*>w, 0, n, b"gang"): return K_GANG
    if _is(<const uint8_t*>w, 0, n, b"angang"): return K_ANGANG
    if _is(<const uint8_t*>w, 0, n, b"bugang"): return K_BUGANG
    if _is(<const uint8_t*>w, 0, n, b"hu"): return K_HU
    if _is(<const uint8_t*>w, 0, n, b"buhua"): return K_BUHUA
    return -1


cdef bint _fan_items(const uint8_t* s, Py_ssize_t a, Py_ssize_t b) nogil:
    """'<name>*<count>+...': every item a name then '*' then 1-15 ASCII digits."""
    cdef Py_ssize_t i = a, j, k, star
    while True:
        j = i
        while j < b and s[j] != 43:
            j += 1
        star = -1
        for k in range(i, j):
            if s[k] == 42:
                star = k
        if star <= i or j - star - 1 < 1 or j - star - 1 > 15:
            return False
        for k in range(star + 1, j):
            if not (48 <= s[k] <= 57):
                return False
        if j >= b:
            return True
        i = j + 1



cdef struct st_t:
    # the parse of one hand
    int lines               # lines of the hand so far
    int bad
    int ended               # 0, 1 after Fan/Huang, 2 after Score
    int last_discard        # code, -1 none
    int64_t a0              # its first action
    int64_t d0              # its first deal tile
    int64_t j               # its index


cdef int _line(const uint8_t* s, Py_ssize_t ls, Py_ssize_t le, st_t* st, const int8_t[:, ::1] codes,
               int8_t* kind, int8_t* player, int8_t* code, int64_t* na, int8_t* deals, int64_t* nd,
               int32_t* deal_len, int8_t* result, int32_t* quan, int64_t* scores, int64_t* span) nogil:
    """One line of the hand (its st.lines-th); returns 1 when the hand is not as the reader
    knows it exactly."""
    cdef Py_ssize_t a[MAXTOK]
    cdef Py_ssize_t b[MAXTOK]
    cdef int nt = _split(s + ls, le - ls, a, b)
    cdef int i, p, k, c, nf, pk, pp, pc
    cdef int64_t v
    cdef const uint8_t* x = s + ls
    if nt < 1:
        return 1
    if st.lines == 0:                                            # Match <id>
        if nt != 2 or not _is(x, a[0], b[0], b"Match"):
            return 1
        span[3] = ls + a[1]
        span[4] = ls + b[1]
        return 0
    if st.lines == 1:                                            # Wind <0-3>
        if nt != 2 or not _is(x, a[0], b[0], b"Wind"):
            return 1
        p = _digit03(x, a[1], b[1])
        if p < 0:
            return 1
        quan[0] = p
        return 0
    if st.lines <= 5:                                            # Player p Deal tiles
        p = st.lines - 2
        if nt < 3 or not _is(x, a[0], b[0], b"Player") or _digit03(x, a[1], b[1]) != p or not _is(x, a[2], b[2], b"Deal"):
            return 1
        nf = 0
        for i in range(3, nt):
            c = _tile(x, a[i], b[i], codes)
            if c < 0:
                return 1
            if c < 34:
                nf += 1
            deals[nd[0]] = <int8_t>c
            nd[0] += 1
        if nf != 13:
            return 1
        deal_len[p] = nt - 3
        return 0
    if st.ended:
        if not _is(x, a[0], b[0], b"Score") or nt != 5 or st.ended == 2:
            return 1
        for i in range(4):
            if not _int(x, a[i + 1], b[i + 1], &v):
                return 1
            scores[i] = v
        st.ended = 2
        return 0
    pk = kind[na[0] - 1] if na[0] > st.a0 else -1
    pp = player[na[0] - 1] if na[0] > st.a0 else -1
    pc = code[na[0] - 1] if na[0] > st.a0 else -1
    if nt == 1 and _is(x, a[0], b[0], b"Huang"):
        if pk == K_HU:
            return 1
        result[0] = 2
        st.ended = 1
        return 0
    if _is(x, a[0], b[0], b"Fan"):
        if pk != K_HU or nt != 3 or not _int(x, a[1], b[1], &v) or not _fan_items(x, a[2], b[2]):
            return 1
        result[0] = 1
        st.ended = 1
        return 0
    if nt < 4 or not _is(x, a[0], b[0], b"Player"):
        return 1
    p = _digit03(x, a[1], b[1])
    k = _verb(x, a[2], b[2])
    if p < 0 or k < 0 or pk == K_HU:
        return 1
    if nt > 4:                                                   # Ignore Player j Action tile ...
        if not (k == K_PENG or k == K_GANG or k == K_HU) or (nt - 4) % 5:
            return 1
        for i in range(4, nt, 5):
            if (not _is(x, a[i], b[i], b"Ignore") or not _is(x, a[i + 1], b[i + 1], b"Player")
                    or _digit03(x, a[i + 2], b[i + 2]) < 0 or _tile(x, a[i + 4], b[i + 4], codes) < 0):
                return 1
    if (pk == K_CHI or pk == K_PENG) and (k != K_PLAY or p != pp):
        return 1
    if k == K_HU:
        if not _is(x, a[3], b[3], b"None") and _tile(x, a[3], b[3], codes) < 0:
            return 1
        c = pc if (pk == K_DRAW and pp == p) else st.last_discard
    else:
        c = _tile(x, a[3], b[3], codes)
        if c < 0:
            return 1
        if (k == K_CHI or k == K_PENG or k == K_GANG) and (st.last_discard < 0 or pk != K_PLAY):
            return 1
        if (k == K_PENG or k == K_GANG) and c != st.last_discard:
            return 1
        if k == K_CHI and c >= 27:
            return 1
        if (k == K_BUHUA) != (c >= 34):
            return 1
        if k == K_PLAY or k == K_BUGANG:
            st.last_discard = c
    kind[na[0]] = <int8_t>k
    player[na[0]] = <int8_t>p
    code[na[0]] = <int8_t>c
    na[0] += 1
    return 0


cdef Py_ssize_t _close(Py_ssize_t nh, st_t* st, int64_t* na, int64_t* nd, int64_t[::1] act_start,
                       int64_t[::1] deal_start, uint8_t[::1] ok) noexcept nogil:
    """The hand nh ends: ok when it is whole (six lines, scored), else its actions and deals
    taken back. Returns the hands so far."""
    if st.bad or st.lines < 6 or st.ended != 2:
        ok[nh] = 0
        na[0] = st.a0
        nd[0] = st.d0
    else:
        ok[nh] = 1
    act_start[nh + 1] = na[0]
    deal_start[nh] = st.d0
    return nh + 1


def parse(const uint8_t[::1] data, Py_ssize_t pos, Py_ssize_t end, Py_ssize_t max_hands, int64_t line,
          const int8_t[:, ::1] codes, int8_t[::1] kind, int8_t[::1] player, int8_t[::1] code, int64_t[::1] act_start,
          int8_t[::1] deals, int64_t[::1] deal_start, int32_t[:, ::1] deal_len, int8_t[::1] result,
          int32_t[::1] quan, int64_t[:, ::1] scores, uint8_t[::1] ok, int64_t[:, ::1] span):
    """Hands of data[pos:end] (its first line is line ``line``), at most max_hands. Hand j:
    actions act_start[j]..act_start[j+1] (kind, player, code), its deals from deal_start[j]
    (4 x deal_len[j]), result (1 hu, 2 huang), quan, scores, ok (0: for the Python reader),
    span[j] = (first byte, end byte of its lines, its first line, match id's first and end
    byte). The arrays have room for every line of the range (actions and hands, one more
    hand) and a third of its bytes plus 4 (deal tiles). A hand not ok has no actions or
    deals here. Returns (hands, the position after them, the line there)."""
    cdef const uint8_t* s = &data[0] if data.shape[0] else NULL
    cdef Py_ssize_t le, nh = 0
    cdef int cls
    cdef int64_t na = 0, nd = 0
    cdef bint in_hand = False
    cdef st_t st
    act_start[0] = 0
    with nogil:
        while pos < end:
            le = pos
            while le < end and s[le] != 10:
                le += 1
            cls = _scan(s + pos, le - pos)
            if cls == 0:                                         # blank: ends the hand
                if in_hand:
                    nh = _close(nh, &st, &na, &nd, act_start, deal_start, ok)
                    in_hand = False
                pos = le + 1 if le < end else le
                line += 1
                if nh >= max_hands:
                    break
                continue
            if in_hand and cls != 3 and le - pos >= 5 and _is(s + pos, 0, 5, b"Match"):
                nh = _close(nh, &st, &na, &nd, act_start, deal_start, ok)
                in_hand = False
                if nh >= max_hands:
                    break
            if not in_hand:
                in_hand = True
                st.lines = 0
                st.bad = 0
                st.ended = 0
                st.last_discard = -1
                st.a0 = na
                st.d0 = nd
                span[nh, 0] = pos
                span[nh, 2] = line
                span[nh, 3] = pos
                span[nh, 4] = pos
                result[nh] = 0
                quan[nh] = 0
                deal_start[nh] = nd
            span[nh, 1] = le
            if not st.bad:
                st.bad = 1 if cls != 1 else _line(s, pos, le, &st, codes, &kind[0], &player[0], &code[0], &na,
                                                  &deals[0], &nd, &deal_len[nh, 0], &result[nh], &quan[nh],
                                                  &scores[nh, 0], &span[nh, 0])
            st.lines += 1
            line += 1
            pos = le + 1 if le < end else le
        if in_hand:
            nh = _close(nh, &st, &na, &nd, act_start, deal_start, ok)
    return nh, pos, line


