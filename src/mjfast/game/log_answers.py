"""How a logged game answers the engine's questions, per rule family: the action (in the
family's encoding, ``cn-v0`` or ``am-v0``) that the logged events show a seat took, and whether
the log reveals it (a seat's pass is hidden when another seat's claim took the tile). These
are the families' ``log_reader`` (:class:`mjfast.rules.Family`), read by
:func:`mjfast.env.decisions` on logs.

Each reader takes (core, what, ask, seat, tile, mask, target, i, event codes, log number):
the batched table replaying the log, the question (``engine.ASK`` codes), the asking seat, the
question's tile, its legal-action mask, the logged events as engine rows (type, hand, seat, a,
b), the index of the next one, and returns (action or None, known).
"""
from __future__ import annotations

import numpy as np

#: cn-v0 claims ranked: a win beats a kong or pung, which beat a chow; passing ranks last
_CLAIM_RANK = {73: 3, 38: 2, 37: 2, 34: 1, 35: 1, 36: 1, 74: 0}


def american(core, what, ask, s, tile, mask, target, i, ev, gi):
    """(action, known) of American seat s's question (or pass step) from the logged events
    from index i on; raises ValueError where the log holds a choice am-v0 cannot express."""
    nxt = target[i] if i < len(target) else None
    if what in (ask["pass"], ask["courtesy"]):
        passno = tile if what == ask["pass"] else 6
        mine = []
        for row in target[i:]:
            if row[0] == ev["pass"] and row[4] == passno:
                if row[2] == s:
                    mine.append(row[3])
            elif row[0] in (ev["receive"], ev["blind_pass"]) and row[4] == passno:
                if what == ask["pass"]:
                    break               # the passes of a Charleston pass are all logged first
            else:
                break
        stage, need, blind, chosen = core.pass_state(0)
        if stage == 1:
            return 36 + (3 - len(mine)), True
        if len(chosen) >= len(mine):
            return None, False
        return mine[len(chosen)], True
    if what == ask["second_charleston"]:
        danced = next((row[3] for row in target[i:] if row[0] == ev["second_charleston"]), None)
        if danced is None:
            return None, False
        # "no" is everyone's vote when it was not danced; a yes is only known to be someone's
        return (47, True) if danced == 0 else (44, False)
    if what == ask["courtesy_offer"]:
        if nxt is None or nxt[0] != ev["courtesy_offer"] or nxt[2] != s:
            return None, False
        return 40 + nxt[3], True
    if (nxt is not None and nxt[0] == ev["dead"] and nxt[2] == s and nxt[3] == 2
            and what in (ask["discard"], ask["own_turn"])):
        # card play: the hand went dead at its discard (no line can be completed) and discarded
        # nothing; the environment's teacher records any held tile for it, the first one
        return int(np.flatnonzero(mask[:36])[0]), True
    if nxt is not None and nxt[0] == ev["dead"] and nxt[2] == s:
        raise ValueError(f"log {gi}: seat {s} declared a false Mahjong (its hand went dead), a choice the am-v0 "
                         "actions cannot express")
    if what in (ask["discard"], ask["own_turn"]):
        if nxt is None or nxt[2] != s:
            return None, False
        if nxt[0] == ev["discard"]:
            return nxt[3], True
        if nxt[0] == ev["joker_exchange"]:
            return 48 + nxt[3], True
        if nxt[0] == ev["win"]:
            return 46, True
        return None, False
    # a call window: Mahjong (the nearest) beats the first call in turn order
    taker, took = None, 47
    if nxt is not None and nxt[0] == ev["win"] and nxt[3] == 0:
        taker, took = nxt[2], 46
    elif nxt is not None and nxt[0] == ev["call"]:
        taker, took = nxt[2], 45
    if taker == s:
        return took, True
    if taker is None:
        return 47, True
    j = i - 1
    while j >= 0 and target[j][0] != ev["discard"]:
        j -= 1
    discarder = target[j][2]
    nearer = (s - discarder) % 4 < (taker - discarder) % 4
    legal = {int(a) for a in np.flatnonzero(mask)} - {47}
    if took == 45:
        # s did not take it: nearer, s neither called nor won; farther, s did not win (a call of
        # s would have lost to the earlier one)
        known = nearer or 45 not in legal
    else:
        # a Mahjong by a farther seat: s answered neither Mahjong (s would have won) nor, unless
        # it could not, a call (pre-empted either way)
        known = 45 not in legal
    return 47, bool(known)


def chinese(core, what, ask, s, tile, mask, target, i, ev_codes, gi):
    """(action, whether the log reveals it) for seat s's question, from the logged events
    from index i on."""
    fan = ev_codes.get("fan")
    while i < len(target) and target[i][0] == fan:     # (a win's fans come before its event)
        i += 1
    nxt = target[i] if i < len(target) else None
    if what in (ask["discard"], ask["own_turn"]):
        if nxt is None or nxt[2] != s:
            return None, False
        typ = nxt[0]
        if typ == ev_codes["discard"]:
            return nxt[3], True
        if typ in (ev_codes["concealed_kong"], ev_codes["added_kong"]):
            return 39 + nxt[3], True
        if typ == ev_codes["win"]:
            return 73, True
        return None, False
    if what == ask["ready"]:
        declared = nxt is not None and nxt[0] == ev_codes["ready"] and nxt[2] == s
        return (75 if declared else 74), True
    # a claim window: who took the discard, and with what
    taker, took = None, 74
    if nxt is not None:
        typ = nxt[0]
        if typ == ev_codes["win"] and nxt[3] == 0:
            taker, took = nxt[2], 73
        elif typ == ev_codes["pung"]:
            taker, took = nxt[2], 37
        elif typ == ev_codes["kong"]:
            taker, took = nxt[2], 38
        elif typ == ev_codes["chow"]:
            taker, took = nxt[2], 34 + (nxt[3] - nxt[4])
    if taker == s:
        return took, True
    if taker is None:
        return 74, True
    # another seat took it: s's answer is known only when every claim s had would have won
    # over the taker's (then s passed); else it is unknown (pass keeps the game the same)
    legal = [a for a in np.flatnonzero(mask) if a != 74]
    beats = all(_CLAIM_RANK[int(a)] > _CLAIM_RANK[took] or
                (_CLAIM_RANK[int(a)] == 3 and took == 73 and _nearer(s, taker, target, i)) for a in legal)
    return 74, bool(beats)


def _nearer(s, taker, target, i) -> bool:
    """Whether seat s is nearer than `taker` after the discarder (the last discard event, or
    the added kong a Chinese Official win robs)."""
    j = i - 1
    while j >= 0 and target[j][0] not in (6, 11):     # EV_DISCARD, EV_ADDED_KONG
        j -= 1
    discarder = target[j][2]
    return (s - discarder) % 4 < (taker - discarder) % 4
