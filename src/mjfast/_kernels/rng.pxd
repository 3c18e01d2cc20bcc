# Counter-based stream setup + xoshiro256** generator, all inline and nogil.
#
# Every random unit of work (one deal, one game) gets its own stream: the 128-bit root key
# (k0, k1) from numpy's SeedSequence and the unit's index are mixed by splitmix64 into the
# 256-bit xoshiro state. Unit i therefore depends only on (seed, i): never on the thread
# that runs it, the chunk it falls in, or the backend.
#
# xoshiro256** (Blackman & Vigna, 2018) passes BigCrush and PractRand; bounded integers use
# Lemire's multiply-shift method with rejection (exactly uniform, no modulo bias), two 32-bit
# draws per 64-bit output.
from libc.stdint cimport uint32_t, uint64_t

ctypedef struct rng_t:
    uint64_t s[4]
    uint64_t spare      # unused bits of the last 64-bit output (32- or 16-bit draws)
    int have_spare      # 32-bit halves left in `spare` (rng_next32)
    int left16          # 16-bit quarters left in `spare` (rng_next16)


cdef inline uint64_t _rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t splitmix64(uint64_t* x) noexcept nogil:
    x[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline void rng_seed_stream(rng_t* r, uint64_t k0, uint64_t k1, uint64_t stream) noexcept nogil:
    """State of stream `stream` under root key (k0, k1)."""
    cdef uint64_t a = k0 ^ (stream * 0xD1B54A32D192ED03ULL)
    cdef uint64_t b = k1 + stream
    cdef uint64_t m = splitmix64(&b)
    a ^= m
    r.s[0] = splitmix64(&a)
    r.s[1] = splitmix64(&a)
    r.s[2] = splitmix64(&a) ^ m
    r.s[3] = splitmix64(&a)
    if (r.s[0] | r.s[1] | r.s[2] | r.s[3]) == 0:   # the one forbidden state
        r.s[0] = 1
    r.spare = 0          # never read before it is drawn; set so that no field of a stream is undefined
    r.have_spare = 0
    r.left16 = 0


cdef inline uint64_t rng_next(rng_t* r) noexcept nogil:
    """xoshiro256**: next 64-bit output."""
    cdef uint64_t result = _rotl(r.s[1] * 5, 7) * 9
    cdef uint64_t t = r.s[1] << 17
    r.s[2] ^= r.s[0]
    r.s[3] ^= r.s[1]
    r.s[1] ^= r.s[2]
    r.s[0] ^= r.s[3]
    r.s[2] ^= t
    r.s[3] = _rotl(r.s[3], 45)
    return result


cdef inline uint32_t rng_next32(rng_t* r) noexcept nogil:
    cdef uint64_t x
    if r.have_spare:
        r.have_spare = 0
        return <uint32_t>r.spare
    x = rng_next(r)
    r.spare = x >> 32
    r.have_spare = 1
    return <uint32_t>x


cdef inline uint32_t rng_bounded(rng_t* r, uint32_t n) noexcept nogil:
    """Uniform integer in [0, n), n >= 1 (Lemire 2019, with rejection)."""
    cdef uint64_t m = <uint64_t>rng_next32(r) * n
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t threshold
    if low < n:
        threshold = (<uint32_t>(-n)) % n
        while low < threshold:
            m = <uint64_t>rng_next32(r) * n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef inline uint32_t rng_threshold(uint32_t n) noexcept nogil:
    """2**32 mod n: Lemire's rejection threshold for a fixed bound n (compute once per run)."""
    return (<uint32_t>(-n)) % n


cdef inline uint32_t rng_bounded_fixed(rng_t* r, uint32_t n, uint32_t threshold) noexcept nogil:
    """Uniform integer in [0, n) with a precomputed ``rng_threshold(n)`` (no division)."""
    cdef uint64_t m = <uint64_t>rng_next32(r) * n
    while <uint32_t>m < threshold:
        m = <uint64_t>rng_next32(r) * n
    return <uint32_t>(m >> 32)


cdef inline uint32_t rng_next16(rng_t* r) noexcept nogil:
    """16 random bits (a 64-bit output serves four calls). Do not mix with rng_next32 on one stream."""
    cdef uint32_t v
    if r.left16 == 0:
        r.spare = rng_next(r)
        r.left16 = 4
    v = <uint32_t>(r.spare & 0xFFFF)
    r.spare >>= 16
    r.left16 -= 1
    return v


cdef inline uint32_t rng_bounded16(rng_t* r, uint32_t n) noexcept nogil:
    """Uniform integer in [0, n) for 1 <= n <= 65536 (Lemire with rejection, 16-bit draws).

    Used to shuffle tile sets (n <= 192): rejection happens with probability below 0.3%.
    """
    cdef uint32_t m = rng_next16(r) * n
    cdef uint32_t threshold
    if (m & 0xFFFF) < n:
        threshold = (65536 - n) % n
        while (m & 0xFFFF) < threshold:
            m = rng_next16(r) * n
    return m >> 16
