"""Everything compiled (private): the nogil kernels and their C-level helpers.

Design: the kernels know nothing of Python objects; they take typed memoryviews or C pointers
and trust their input (the Python layer validates once). Each module has one job:

- ``bits.h``/``bits.pxd`` SWAR helpers on count bytes and packed words; ``omp.pxd`` the only
  file that touches OpenMP, with ``for_blocks``: the one serial/parallel loop every batch kernel
  runs (its body a block function over rows, so no loop is written twice); ``rng.pxd`` the
  counter-based random streams.
- ``hand_types.pxd`` the shared C-level declarations (form bits, ``mj_tables_t``) and
  ``hand_tables.pyx`` their binding; ``mjfast/_core.pxd`` and ``mjfast/__init__.pxd`` re-export
  them as the public cimport surface (``cimport mjfast``).
- ``hand.pxd`` the inline per-hand shanten and winning-check kernels (``mjfast._core`` wraps
  them in batch loops and exports the C API); ``tablegen.pyx`` and ``tables.py`` build the
  per-suit class tables lazily.
- ``hand_masks.h`` (whole-hand SIMD masks: the validation fused into the kernels' pass and the
  winning filter) and ``shanten_rows.h``: the public batch loops of the winning check and of
  shanten, once per instruction-set level (baseline, AVX2, AVX-512BW) and chosen at run time
  (``_core.simd_level``; ``MJFAST_SIMD`` asks for a lower level).
- ``american.pxd``, ``american_batch.pyx``: the American beginner hand.
- ``deal.pyx``/``deal136.h``: batched deals and deal statistics.
- ``engine.pxd``: the game engines' shared skeleton; per rule family (``chinese``: classical,
  basic, Chinese Official; ``american``) the table state in ``<family>_game.pxd``, the built-in
  policies in ``<family>_policy.pxi`` (and ``american_card_policy.pxi``), the rules of play in
  ``<family>_rules.pxi`` and the driver in ``<family>_game.pyx``, which includes the ``.pxi``
  parts: one C module, so the nogil hot paths stay inlined across them.
- ``winturn.pyx``: win-by-turn Monte Carlo.
- ``exact_pairs.pyx``: the pair loops of the exact deal odds (``mjfast.exact``).
"""
