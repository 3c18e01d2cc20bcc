"""Exact deal odds: the shanten distribution of a freshly dealt hand, as exact fractions.

A seat's standard tiles after bonus tiles are replaced are a uniform random subset of the
136 standard tiles (bonus tiles only delay the deal), so the odds below hold for the 144-tile
sets too. A count vector ``c`` of ``n`` tiles has probability
``prod_i C(4, c_i) / C(136, n)``.

Method
------
No whole hand is ever enumerated. Each suit (9 number kinds, or the 7 honors) is enumerated
on its own (at most 405,350 count patterns of 14 tiles or fewer), every pattern is reduced
to the *features* the chosen forms need, and patterns with equal (size, features) are merged,
their weights ``prod_r C(4, c_r)`` (the number of physical tile choices) added up. The suits
are then combined as ``(m + p) + (s + z)``: a merge pairs every state of one side with every
state of the other whose size fits, combines the features, and again merges equal states; the
last merge keeps only the shanten of each pair. Weights are exact integers (int64: every
weight counts tile subsets of at most 14 tiles, below 2**63) until the final division.

The features, per form (``k = n // 3`` sets, target ``3k + 2`` tiles):

standard
    the suit's distance vector (tiles missing to hold ``k'`` sets plus ``p`` pairs in that
    suit, the class vectors of :mod:`mjfast._tables`). Two suits merge by min-plus
    convolution, and the whole hand's distance is the entry for ``k`` sets + 1 pair.
seven pairs
    ``a`` = kinds held at least twice and ``b`` = kinds held once; the distance is
    ``14 - 2 min(a, 7) - min(b, 7 - min(a, 7))``. Under ``rules="mcr"`` a four-of-a-kind
    is two pairs: a kind held 4 times adds 2 to ``a``, one held 3 times adds 1 to ``a`` and
    1 to ``b``.
thirteen orphans
    the number of orphan kinds held and whether one is held twice.
honors and knitted tiles (MCR)
    for each pattern ``r`` (147 / 258 / 369) of a number suit, how many of its three kinds
    are held (honors: how many honor kinds). Suits that took patterns ``U`` keep the best
    count over the ways to give them distinct patterns, one value per ``U``.
knitted straight (MCR)
    per pattern ``r`` of a number suit, ``3 - held`` plus the distance vector (up to one set
    and one pair) of the suit minus one copy of each knitted kind; merged per used-pattern
    set ``U`` by min-plus convolution and an element-wise minimum over the assignments.

Every merged feature is bounded (vectors are capped, counters saturate where the distance
stops changing), so the number of states stays in the thousands. For ``form="all"`` the
features of all allowed forms are carried jointly and the shanten of a hand is the minimum.
Vectors are first capped at 11; if some hand reaches the cap the computation is redone
uncapped, so the cap never changes a result.

Merges are evaluated per block of states of one size on each side: each form's merge (or
pass test) is tabulated once per pair of *distinct* feature values, every feature replaced
by a small id, and the loop over the pairs of states only looks those tables up (the Cython
kernel :mod:`mjfast._kernels.exact_pairs`, which groups the merged states in a hash table,
or sums the weights of the passing pairs with bit sets). All of it is exact int64.

MCR ``form="all"`` (five forms jointly) would need millions of joint states, so it goes
through thresholds instead: the number of hands with shanten >= t - 1 is the number with
*every* form at distance >= t, for t = 1 up to the largest distance of min(standard, seven
pairs, thirteen orphans) (the five-form minimum is never larger). For one t, vectors are
capped at t and each form's feature of a group of suits is replaced by a representative of
its class: two values are equivalent when they pass the test (distance >= t) against exactly
the same feature values of the complementary group (all of those, from that form's own DP);
values that never pass drop the state. The test is an AND over the forms and merging respects
the classes, so the counts stay exact, with thousands of states instead of millions.

American beginner hand (``rules="american"``): the hand is drawn from the American set
(4 copies of each standard kind, the 8 flowers f1-f8, ``jokers`` jokers; nothing is replaced).
Its distance depends only on the four largest natural counts (the 8 flowers count as one kind;
counts capped at 4) and the joker count, so one DP over the kinds carries (tiles, sorted capped
top four, "a standard kind held four times") with weights prod C(4, c) * C(8, f) * C(J, j):
a few thousand states, a few hundredths of a second.

Definitions used in the results: ``"complete"`` is P(shanten == -1), ``"tenpai"`` is
P(shanten == 0) exactly (a complete hand is *not* counted as tenpai), and
``"four_of_a_kind"`` is P(some kind is held four times).

Layout: the features of each form in ``_features``, the states and their merges in ``_merge``,
the thresholds of the joint MCR forms in ``_thresholds``, the American hand in ``_american``,
the public functions in ``_deal_odds``.

Examples
--------
>>> exact_deal_odds(tiles=2, suits="z")["complete"]  # 2 of the 28 honor tiles make a pair
Fraction(1, 9)
"""

from ._deal_odds import RULES, TABLE_FORMS, exact_deal_odds, exact_deal_odds_table

__all__ = ["exact_deal_odds", "exact_deal_odds_table", "RULES", "TABLE_FORMS"]
