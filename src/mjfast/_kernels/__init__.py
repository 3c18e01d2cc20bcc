"""Everything compiled (private): the nogil kernels and their C-level helpers.

Design: the kernels know nothing of Python objects; they take typed memoryviews or C pointers
and trust their input (the Python layer validates once). Each module has one job:

- ``bits.h``/``bits.pxd`` SWAR helpers on count bytes and packed words; ``omp.pxd`` the only
  file that touches OpenMP; ``rng.pxd`` the counter-based random streams.
- ``hand.pxd`` the inline per-hand shanten and winning-check kernels (``mjfast._core`` wraps
  them in batch loops and exports the C API); ``tablegen.pyx`` and ``tables.py`` build the
  per-suit class tables lazily.
- ``hand_masks.h`` (whole-hand SIMD masks: the validation fused into the kernels' pass and the
  winning filter) and ``shanten_rows.h``: the public batch loops of the winning check and of
  shanten, once per instruction-set level (baseline, AVX2, AVX-512BW) and chosen at run time
  (``_core.simd_level``; ``MJFAST_SIMD`` asks for a lower level).
- ``american.pxd``, ``american_batch.pyx``: the American beginner hand.
- ``deal.pyx``/``deal136.h``: batched deals and deal statistics.
- ``engine.pxd``: the game engines' shared skeleton; ``chinese_game.pyx`` (classical, basic,
  Chinese Official) and ``american_game.pyx`` (+ ``american_play.pxd``): the turn logic and
  built-in policies of each rule family.
- ``winturn.pyx``: win-by-turn Monte Carlo.
- ``exact_pairs.pyx``: the pair loops of the exact deal odds (``mjfast.exact``).
"""
