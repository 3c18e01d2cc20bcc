"""The dealing kernel's plain C path (deal136.h without SSE2, as on non-x86 machines) gives
exactly the results of the SSE2 path the x86-64 build uses: both built from the header with
the C compiler and run on the same random values (rejections and running out included)."""
from __future__ import annotations

from _c_check import build_and_run

PROGRAM = r"""
#include <stdio.h>
#include <stdint.h>
#include "deal136.h"

static uint64_t state = 0x9E3779B97F4A7C15ULL;
static uint64_t next(void) {             /* splitmix64: test values only */
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

int main(void) {
    uint8_t kinds[136], counts[136];
    uint16_t v[64];
    uint64_t words[10], h = 1469598103934665603ULL;
    int d, j, r;
    for (j = 0; j < 136; j++) kinds[j] = (uint8_t)(j & ~3);
    for (d = 0; d < 200000; d++) {
        for (j = 0; j < 16; j++) mj_store_quarters(v + 4 * j, next());
        if (d % 7 == 0) for (j = 0; j < 64; j += 5) v[j] = (uint16_t)(j & 3);  /* force rejections */
        for (j = 0; j < 136; j++) counts[j] = 0xAA;
        r = mj_deal136_counts(v, d % 3 ? 56 : 53, kinds, d % 2 ? 4 : 2, counts);
        h = (h ^ (uint64_t)(r + 7)) * 1099511628211ULL;
        for (j = 0; j < 136; j++) h = (h ^ counts[j]) * 1099511628211ULL;
        for (j = 0; j < 10; j++) words[j] = 0x5555;
        r = mj_deal136_words(v, d % 3 ? 28 : 27, kinds, words);
        h = (h ^ (uint64_t)(r + 7)) * 1099511628211ULL;
        for (j = 0; j < 10; j++) h = (h ^ words[j]) * 1099511628211ULL;
    }
    mj_deal_values(12345, 678, 9, 16, v);
    for (j = 0; j < 64; j++) h = (h ^ v[j]) * 1099511628211ULL;
    printf("%016llx\n", (unsigned long long)h);
    return 0;
}
"""


def test_portable_path_matches_sse2(tmp_path):
    default = build_and_run(PROGRAM, tmp_path, "default", [], build_timeout=300, run_timeout=60)
    portable = build_and_run(PROGRAM, tmp_path, "portable", ["-DMJ_DEAL136_PORTABLE"], build_timeout=300,
                             run_timeout=60)
    assert len(default) == 16
    assert default == portable
