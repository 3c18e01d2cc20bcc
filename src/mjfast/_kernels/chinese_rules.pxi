# The Chinese family's rules of play: what a seat sees, winning and claims, one hand (deal,
# settle, own-turn actions) and the game as a state machine of phases. Included by
# chinese_game.pyx (one module: the nogil hot paths stay inlined); the bots it calls are in
# chinese_policy.pxi, the state in chinese_game.pxd.

# ------------------------------------------------------------------------------------------
# what a seat sees (for the Python policies and environments)

MELD_NAMES = ("chow", "pung", "kong", "concealed_kong", "added_kong")


cdef object seat_view(game_t* g, int seat):
    """What `seat` can see, as plain Python data (copies: the policy cannot change the game)."""
    cdef int s, j
    cdef player_t* p = &g.p[seat]
    hand = np.empty(34, np.uint8)
    visible = np.empty(34, np.uint8)
    for j in range(34):
        hand[j] = p.hand[j]
        visible[j] = g.visible[j]
    hand.setflags(write=False)
    visible.setflags(write=False)
    melds = []
    discards = []
    for s in range(4):
        melds.append(tuple((MELD_NAMES[g.p[s].meld_type[j]], g.p[s].meld_tile[j]) for j in range(g.p[s].n_melds)))
        discards.append(tuple(g.p[s].discards[j] for j in range(g.p[s].n_discards)))
    view = {
        "seat": seat, "dealer": g.t.dealer, "hand_number": g.t.hand_no, "turn": g.t.turn,
        "hand": hand, "melds": tuple(melds), "discards": tuple(discards), "visible": visible,
        "ready": tuple(bool(g.p[s].ready) for s in range(4)),
        "bonus": tuple(g.p[s].bonus for s in range(4)),
        "wall_left": live_left(g), "drawn": g.drawn_kind if seat == g.cur else -1,
        "scores": tuple(g.t.score[s] for s in range(4)), "hands_per_game": g.t.hands_per_game,
    }
    if g.R.botzone:     # mcr-botzone: the tiles left in each seat's own wall (the judge's tileCnt)
        view["walls_left"] = tuple(g.own_left[s] for s in range(4))
    return view


# ------------------------------------------------------------------------------------------
# claims

cdef bint WAIT_SHORTCUT = True


def _set_wait_shortcut(bint on):
    """Test hook: whether win checks trust wait_sh (the shanten the greedy policy left);
    with it off every check runs in full. Results must not depend on it."""
    global WAIT_SHORTCUT
    WAIT_SHORTCUT = on


cdef int hand_fan(game_t* g, int seat, int win, bint self_drawn, fan_out_t* out, bint plain=False) noexcept nogil:
    """The fans of seat's complete hand (its concealed tiles include the winning tile `win`)
    with every fact of the game: declared sets, self-drawn, the fourth tile (the other three
    copies shown in discards and exposed sets), a kong's replacement or a robbed kong, the
    last tile of the live wall, the winds and the flowers. Returns the total (0: not a win).
    plain: without the fourth-tile, kong and last-tile facts (what the policies remember)."""
    cdef player_t* p = &g.p[seat]
    cdef fan_in_t x
    cdef int j, t
    memcpy(x.hand, p.hand, 34)
    x.hand[win] -= 1
    x.n_melds = 0
    for j in range(p.n_melds):
        if j >= 4:
            break
        t = p.meld_type[j]
        x.meld_kind[j] = MK_CHOW if t == M_CHOW else (MK_PUNG if t == M_PUNG else MK_KONG)
        x.meld_tile[j] = p.meld_tile[j]
        x.meld_exposed[j] = 0 if t == M_KONG_CONCEALED else 1
        x.n_melds += 1
    x.win = win
    x.self_drawn = self_drawn
    # on a discard or a robbed kong the winning tile itself is shown already
    x.fourth_tile = (g.visible[win] - (0 if self_drawn else 1)) == 3
    x.kong = g.after_kong if self_drawn else g.robbing
    x.last_of_wall = wall_last(g, seat, self_drawn) and not g.robbing
    if plain:
        x.fourth_tile = x.kong = x.last_of_wall = 0
    x.seat_wind = (seat - g.t.dealer) & 3
    x.prevalent_wind = g.R.quan if g.R.botzone else (g.t.hand_no >> 2) & 3
    x.flowers = p.bonus if g.R.replace_bonus else 0
    x.judge2018 = g.R.botzone
    return mcr_fan(&x, out, g.T)


cdef int judge_win(game_t* g, int seat, int win, bint self_drawn) noexcept nogil:
    """W_VALID / W_FALSE / W_NONE for seat's concealed tiles (the winning tile `win` among
    them), kept in g.win_ok[seat] (and the fans in g.fan[seat])."""
    cdef player_t* p = &g.p[seat]
    cdef int total, r = W_NONE, known
    if complete(g, p.hand, p.n_hand if self_drawn else p.n_hand + 1):
        r = W_VALID
        if g.R.uses_fans and not self_drawn and not g.robbing and not wall_last(g, seat, False) and g.visible[win] != 4:
            # no situational fact: the ready hand's remembered plain verdict is exact
            p.hand[win] -= 1
            known = remembered(p, win)
            p.hand[win] += 1
            if known == 0:
                g.win_ok[seat] = W_FALSE
                return W_FALSE
        if g.R.uses_fans:
            total = hand_fan(g, seat, win, self_drawn, &g.fan[seat])
            if total == 0:
                r = W_NONE
            elif total - (p.bonus if g.R.replace_bonus else 0) < g.R.min_fan:
                r = W_FALSE
    g.win_ok[seat] = r
    return r


cdef inline bint offers_win(game_t* g, int seat, int status) noexcept nogil:
    """Whether seat is offered a win: only valid ones."""
    return status == W_VALID


cdef inline bint asks_anyway(game_t* g, int seat) noexcept nogil:
    """A Python policy's seat whose hand is complete but below min_fan is asked the question
    even without options: declaring the win anyway (ANSWER_FALSE_WIN) is a false win.
    (Environments offer only valid wins and ask nothing more.)"""
    return g.win_ok[seat] == W_FALSE and g.p[seat].policy == POL_EXTERNAL and g.ask_false_wins


cdef int declare_false(game_t* g, int seat, int tile) noexcept nogil:
    """An external seat declared a win on `tile` that was not offered: the penalty, or
    (false_win="error") an illegal action."""
    if g.win_ok[seat] == W_VALID:
        return illegal(&g.t, 6, tile)          # a valid win it had declined on this tile
    if g.R.false_win_error:
        return illegal(&g.t, 5, tile)
    false_win(g, seat)
    return 0


cdef int can_win_on(game_t* g, int seat, int k) noexcept nogil:
    """The win status (W_*) of seat's hand with discard (or robbed kong tile) k."""
    cdef player_t* p = &g.p[seat]
    cdef int r
    g.win_ok[seat] = W_NONE
    if p.hand[k] >= 4 or (g.R.ready_rule and not p.ready):
        return W_NONE
    if p.wait_sh > 0 and WAIT_SHORTCUT:   # not one tile away: nothing completes the hand
        return W_NONE
    p.hand[k] += 1
    r = judge_win(g, seat, k, False)
    p.hand[k] -= 1
    return r


cdef int chow_options(game_t* g, int seat, int k, int* starts) noexcept nogil:
    """Chow starts (first kind) seat can make with discard k."""
    cdef player_t* p = &g.p[seat]
    cdef int n = 0, r = k % 9
    if k >= 27 or not g.R.allow_chow or p.ready:
        return 0
    if r >= 2 and p.hand[k - 2] and p.hand[k - 1]:
        starts[n] = k - 2
        n += 1
    if 1 <= r <= 7 and p.hand[k - 1] and p.hand[k + 1]:
        starts[n] = k - 1
        n += 1
    if r <= 6 and p.hand[k + 1] and p.hand[k + 2]:
        starts[n] = k
        n += 1
    return n


# ------------------------------------------------------------------------------------------
# one hand

cdef void add_meld(game_t* g, int seat, int typ, int first) noexcept nogil:
    cdef player_t* p = &g.p[seat]
    if p.n_melds < MAX_MELDS:
        p.meld_type[p.n_melds] = <uint8_t>typ
        p.meld_tile[p.n_melds] = <uint8_t>first
        p.n_melds += 1


cdef void shuffle_wall(game_t* g, uint64_t k0, uint64_t k1, uint64_t stream, int* d1, int* d2) noexcept nogil:
    """The wall of one hand (full Fisher-Yates) and its two dice totals, from the hand's stream."""
    cdef rng_t r
    rng_seed_stream(&r, k0, k1, stream)
    shuffle_ids(g.wall, g.n_tiles, &r)
    d1[0] = 2 + <int>rng_bounded16(&r, 6) + <int>rng_bounded16(&r, 6)
    d2[0] = 2 + <int>rng_bounded16(&r, 6) + <int>rng_bounded16(&r, 6)


cdef void deal_hand(game_t* g, int d1, int d2) noexcept nogil:
    """Deal from g.wall (front = live end, back = replacement end), dealer first; replace bonus tiles."""
    cdef int i, s, t, seat, q
    cdef int pending[4]
    g.front = 0
    g.back = g.n_tiles - 1
    g.live_end = g.back - (2 * (d1 + d2) if g.R.dead_wall < 0 else g.R.dead_wall)
    memset(g.visible, 0, 34)
    for s in range(4):
        memset(g.p[s].hand, 0, 34)
        memset(g.p[s].pung_exposed, 0, 34)
        g.p[s].n_hand = 0
        g.p[s].n_melds = 0
        g.p[s].ready = 0
        g.p[s].bonus = 0
        g.p[s].last_claim_kind = -1
        g.p[s].last_claim_turn = -100
        g.p[s].wait_sh = -1
        g.p[s].n_discards = 0
        memset(g.p[s].wv_key, 0, sizeof(g.p[s].wv_key))
    g.t.turn = 0
    g.after_kong = 0
    g.robbing = 0
    log_ev(g, EV_HAND, g.t.dealer, d1, d2)
    if g.R.botzone:
        bz_deal(g)
        return
    for q in range(4):
        seat = (g.t.dealer + q) & 3
        pending[seat] = 0
        for i in range(14 if q == 0 else 13):
            t = g.wall[g.front]
            g.front += 1
            log_ev(g, EV_DEAL, seat, t, 0)
            if t >= FIRST_BONUS and t < FIRST_JOKER and g.R.replace_bonus:
                g.p[seat].bonus += 1
                pending[seat] += 1
                log_ev(g, EV_BONUS, seat, t, 0)
            else:
                g.p[seat].hand[t >> 2] += 1
                g.p[seat].n_hand += 1
    for q in range(4):
        seat = (g.t.dealer + q) & 3
        while pending[seat] > 0 and draw_back(g, seat) >= 0:
            pending[seat] -= 1


cdef void bz_deal(game_t* g) noexcept nogil:
    """The Botzone judge's deal: seats 0..3 in turn take tiles from the end of their own wall
    until they hold 13 (bonus tiles set aside, without replacement from elsewhere); the
    dealer's 14th tile is its first ordinary draw."""
    cdef int s, t
    g.front = 0
    g.back = g.n_tiles - 1
    g.live_end = g.back
    for s in range(4):
        g.own_left[s] = g.n_tiles >> 2
    for s in range(4):
        while g.p[s].n_hand < 13:
            t = bz_pop(g, s)
            if t < 0:
                break
            log_ev(g, EV_DEAL, s, t, 0)
            if t >= FIRST_BONUS and t < FIRST_JOKER and g.R.replace_bonus:
                g.p[s].bonus += 1
                log_ev(g, EV_BONUS, s, t, 0)
            else:
                g.p[s].hand[t >> 2] += 1
                g.p[s].n_hand += 1


cdef void setup_hand(game_t* g, uint64_t k0, uint64_t k1, uint64_t stream) noexcept nogil:
    cdef int d1, d2
    shuffle_wall(g, k0, k1, stream, &d1, &d2)
    deal_hand(g, d1, d2)


cdef void settle(game_t* g, int winner, int self_draw, int discarder, int32_t* score) noexcept nogil:
    cdef int s, pay, base = g.R.base_points, fan = g.fan[winner].total
    cdef int delta[4]
    delta[0] = delta[1] = delta[2] = delta[3] = 0
    for s in range(4):
        if s == winner:
            continue
        if g.R.fan_scoring:
            # the competition's payment: 8 + fan from each on a self-draw; on a discard (or a
            # robbed kong) 8 + fan from the discarder, 8 from the others
            pay = 8 + fan if self_draw or s == discarder else 8
        elif self_draw or g.R.payment == 0:
            pay = base
        else:
            pay = 3 * base if s == discarder else 0
        delta[s] -= pay
        delta[winner] += pay
    for s in range(4):
        score[s] += delta[s]
        log_ev(g, EV_SCORE, s, delta[s], score[s])


cdef inline bint kong_possible(const player_t* p) noexcept nogil:
    """Whether some kind is held four times, or held once with its pung exposed (SWAR over the
    34 count bytes)."""
    cdef int i
    cdef uint64_t w, found = 0
    for i in range(5):
        w = mj_load64(p.hand + WORD_AT[i])
        found |= mj_ones_ge(w, 4) | (mj_load64(p.pung_exposed + WORD_AT[i]) & mj_ones_ge(w, 1))
    return found != 0


cdef inline bint can_add_kong(game_t* g, const player_t* p, int k) noexcept nogil:
    """Whether p may add a tile of kind k to its exposed pung now: it holds one, and under
    ``added_kong="drawn"`` it is the tile just drawn."""
    return p.pung_exposed[k] and p.hand[k] >= 1 and (not g.R.added_kong_drawn or k == g.drawn_kind)


cdef int self_drawn_status(game_t* g, int seat) noexcept nogil:
    """The win status (W_*) of seat's concealed tiles on its own turn: the winning tile is the
    one just drawn (the dealer's first turn: the held kind that scores most)."""
    cdef player_t* p = &g.p[seat]
    cdef int k, r, best = W_NONE, best_total = -1, best_k = -1
    if g.drawn_kind >= 0 or not g.R.uses_fans:
        return judge_win(g, seat, g.drawn_kind if g.drawn_kind >= 0 else 0, True)
    for k in range(34):
        if p.hand[k]:
            r = judge_win(g, seat, k, True)
            if r == W_NONE:
                return W_NONE                  # (completeness does not depend on the tile)
            if g.fan[seat].total > best_total:
                best_total = g.fan[seat].total
                best_k = k
    return judge_win(g, seat, best_k, True)


cdef int own_turn_action(game_t* g, int seat, int* kind) noexcept nogil:
    """After a draw: 0 = discard next, 1 = win (self-drawn), 2 = concealed kong, 3 = added kong;
    SUSPEND when an external seat has not answered yet; -1 for an answer that is not one of
    the options (kind = the answer)."""
    cdef player_t* p = &g.p[seat]
    cdef int k, s, base, n = 0, choice, status = W_NONE
    cdef int opts[40]
    cdef bint win
    # (a drawn tile completes a hand only if the hand before it was one tile away)
    g.win_ok[seat] = W_NONE
    if (p.wait_sh <= 0 or not WAIT_SHORTCUT) and (not g.R.ready_rule or p.ready):
        status = self_drawn_status(g, seat)
    win = status == W_VALID
    if p.policy == POL_EXTERNAL:
        if offers_win(g, seat, status):
            opts[n] = 1000
            n += 1
        if g.R.allow_kong and not p.ready and not kongs_closed(g, seat):
            for k in range(34):
                if p.hand[k] == 4:
                    opts[n] = 2000 + k
                    n += 1
                elif can_add_kong(g, p, k):
                    opts[n] = 3000 + k
                    n += 1
        if n == 0 and not asks_anyway(g, seat):
            return 0
        choice = ask(&g.t, seat, ASK_OWN_TURN, g.drawn_kind, opts, n)
        if choice == SUSPEND:
            return SUSPEND
        if choice == ANSWER_FALSE_WIN:
            return 4
        if choice < 0:
            return 0
        if choice >= n:
            kind[0] = choice
            return -1
        kind[0] = opts[choice] % 1000
        return opts[choice] // 1000
    if win:
        return 1
    if not g.R.allow_kong or p.ready or p.policy == POL_RANDOM or kongs_closed(g, seat):
        return 0
    if not kong_possible(p):
        return 0
    base = best_after_discard(g, p.hand)   # best shanten after a discard
    for k in range(34):
        # a concealed kong sets 4 tiles aside, an added kong 1
        n = 4 if p.hand[k] == 4 else (1 if can_add_kong(g, p, k) else 0)
        if n:
            p.hand[k] -= n
            s = shanten_of(g, p.hand)
            p.hand[k] += n
            if s <= base:
                kind[0] = k
                return 2 if n == 4 else 3
    return 0


cdef int choose_discard(game_t* g, int seat) noexcept nogil:
    """The kind seat discards (SUSPEND: an external seat has not answered yet)."""
    cdef player_t* p = &g.p[seat]
    p.wait_sh = -1                     # (greedy_discard knows it)
    if p.ready and g.drawn_kind >= 0:
        return g.drawn_kind            # a ready hand is fixed: the drawn tile goes
    if p.policy == POL_GREEDY or p.policy == POL_GREEDY_BLIND:
        return greedy_discard(g, seat, False)
    if p.policy == POL_DEFENSIVE:
        return greedy_discard(g, seat, True)
    if p.policy == POL_HUMANLIKE:
        return humanlike_discard(g, seat)
    if p.policy == POL_RANDOM:
        return random_discard(g, seat)
    return ask(&g.t, seat, ASK_DISCARD, g.drawn_kind, NULL, 0)


ILLEGAL = {
    1: "discard of a tile not in hand",
    2: "concealed kong without four tiles of that kind",
    3: "added kong without an exposed pung of that kind and the tile in hand (with added_kong='drawn': "
       "the tile just drawn)",
    4: "an answer that is not one of the options",
    5: "a false win (false_win='error'): the hand is not a win of at least min_fan fan, flowers not counted",
    6: "a win declared after declining it on the same tile",
}
FALSE_WIN_ANSWER = ANSWER_FALSE_WIN


# ------------------------------------------------------------------------------------------
# the game as a state machine: each phase handles one step of the rules and names the next

cdef inline void end_hand(game_t* g) noexcept nogil:
    g.t.out[OUT_HANDS] += 1
    g.t.hand_no += 1
    g.t.phase = PH_HAND
    g.t.hand_over = 1


cdef inline void exhausted(game_t* g, int seat) noexcept nogil:
    log_ev(g, EV_EXHAUSTED, seat, 0, 0)
    g.t.out[OUT_DRAWS] += 1
    end_hand(g)


cdef void count_fans(game_t* g, int winner) noexcept nogil:
    """Log the fans of the win (EV_FAN events) and add them to the output's fan statistics."""
    cdef fan_out_t* f = &g.fan[winner]
    cdef int i, flowers = g.p[winner].bonus if g.R.replace_bonus else 0
    cdef int hand = f.total - flowers
    for i in range(N_FANS):
        if f.count[i]:
            log_ev(g, EV_FAN, winner, i, f.count[i])
            g.t.out[OUT_FAN_COUNTS + i] += 1
    g.t.out[OUT_FAN_SUM] += hand
    g.t.out[OUT_FAN_SQ] += hand * hand
    g.t.out[OUT_FAN_TOTAL] += f.total
    g.t.out[OUT_FAN_TOTAL_SQ] += f.total * f.total
    g.t.out[OUT_FAN_HIST + (hand if hand < FAN_HIST else FAN_HIST - 1)] += 1


cdef void false_win(game_t* g, int seat) noexcept nogil:
    """An external seat declared a win that is not valid (false_win="penalty"): it pays 10 to
    each other player and the hand ends without a winner."""
    cdef int s, d
    cdef int fan = 0
    if g.win_ok[seat] == W_FALSE:
        fan = g.fan[seat].total - (g.p[seat].bonus if g.R.replace_bonus else 0)
    log_ev(g, EV_FALSE_WIN, seat, fan, g.R.min_fan)
    g.t.out[OUT_FALSE_WINS + seat] += 1
    for s in range(4):
        d = -30 if s == seat else 10
        g.t.score[s] += d
        log_ev(g, EV_SCORE, s, d, g.t.score[s])
    end_hand(g)


cdef inline void win_by(game_t* g, int winner, int discarder) noexcept nogil:
    """Score a win (self-drawn when discarder < 0) and end the hand; a declared win that
    judge_win found below min_fan is a false win."""
    if g.win_ok[winner] == W_FALSE:
        false_win(g, winner)
        return
    if g.R.uses_fans:
        count_fans(g, winner)
    log_ev(g, EV_WIN, winner, 1 if discarder < 0 else 0, discarder)
    g.t.out[OUT_WINS + winner] += 1
    if discarder < 0:
        g.t.out[OUT_SELF_DRAWN + winner] += 1
    else:
        g.t.out[OUT_DEAL_INS + discarder] += 1
    settle(g, winner, discarder < 0, discarder, g.t.score)
    end_hand(g)


cdef int ph_hand(game_t* g) noexcept nogil:
    """The next hand: the deal passes after every hand; after the last, the final scores."""
    cdef int h = g.t.hand_no, s
    if h >= g.t.hands_per_game:
        for s in range(4):
            g.t.out[OUT_SCORE + s] = g.t.score[s]
        g.t.phase = PH_OVER
        return ADV_DONE
    g.t.dealer = 0 if g.R.botzone else h & 3
    if g.t.walls != NULL:
        memcpy(g.wall, g.t.walls + h * g.n_tiles, g.n_tiles)
        deal_hand(g, g.t.dice[2 * h], g.t.dice[2 * h + 1])
    else:
        setup_hand(g, g.t.k0, g.t.k1, g.t.game_index * HANDS_STREAM + h)
    g.cur = g.t.dealer
    g.mode = MODE_DRAW if g.R.botzone else MODE_OWN
    g.drawn_kind = -1
    g.t.phase = PH_TURN
    return -1


cdef void ph_turn(game_t* g) noexcept nogil:
    """A turn starts: the player on turn draws (a bonus tile is set aside and replaced) unless
    the turn follows a claim; every turn counts."""
    cdef int cur = g.cur, t, fl
    cdef player_t* p = &g.p[cur]
    if g.mode == MODE_DRAW and g.R.botzone:
        # the Botzone judge: from the drawer's own wall; empty: the hand is drawn
        g.after_kong = 0
        g.drawn_kind = bz_draw(g, cur, EV_DRAW, &fl)
        if g.drawn_kind < 0:
            exhausted(g, cur)
            return
        g.mode = MODE_OWN
    elif g.mode == MODE_DRAW:
        if live_left(g) <= 0:
            exhausted(g, cur)
            return
        t = g.wall[g.front]
        g.front += 1
        g.after_kong = 0
        log_ev(g, EV_DRAW, cur, t, 0)
        if t >= FIRST_BONUS and t < FIRST_JOKER and g.R.replace_bonus:
            p.bonus += 1
            log_ev(g, EV_BONUS, cur, t, 0)
            g.drawn_kind = draw_back(g, cur)
            if g.drawn_kind < 0:
                exhausted(g, cur)
                return
        else:
            p.hand[t >> 2] += 1
            p.n_hand += 1
            g.drawn_kind = t >> 2
        g.mode = MODE_OWN
    g.t.turn += 1
    g.t.out[OUT_TURNS] += 1
    g.t.phase = PH_OWN if g.mode == MODE_OWN else PH_DISCARD


cdef int ph_own(game_t* g) noexcept nogil:
    """Own-turn actions: a self-drawn win, or a kong followed by a replacement (then the phase
    repeats), or on to the discard. SUSPEND while an external seat decides."""
    cdef int cur = g.cur, kind = -1, j, act
    cdef player_t* p = &g.p[cur]
    act = own_turn_action(g, cur, &kind)
    if act == SUSPEND:
        return SUSPEND
    if act == -1:
        return illegal(&g.t, 4, kind)
    if act == 1:
        win_by(g, cur, -1)
        return 0
    if act == 4:
        return declare_false(g, cur, g.drawn_kind)
    if act == 2:
        if p.hand[kind] != 4:
            return illegal(&g.t, 2, kind)
        p.hand[kind] -= 4
        p.n_hand -= 4
        p.wait_sh = -1
        add_meld(g, cur, M_KONG_CONCEALED, kind)
        log_ev(g, EV_CONCEALED_KONG, cur, kind, 0)
        g.t.out[OUT_CLAIMS + cur * 5 + M_KONG_CONCEALED] += 1
    elif act == 3:
        if not can_add_kong(g, p, kind):
            return illegal(&g.t, 3, kind)
        p.hand[kind] -= 1
        p.n_hand -= 1
        p.wait_sh = -1
        p.pung_exposed[kind] = 0
        g.visible[kind] += 1
        for j in range(p.n_melds):
            if p.meld_type[j] == M_PUNG and p.meld_tile[j] == kind:
                p.meld_type[j] = M_KONG_ADDED
        log_ev(g, EV_ADDED_KONG, cur, kind, 0)
        g.t.out[OUT_CLAIMS + cur * 5 + M_KONG_ADDED] += 1
        if g.R.fan_scoring:
            # the others may rob the added tile before the replacement draw
            g.discard = kind
            g.discarder = cur
            g.ci = 1
            g.robbing = 1
            g.t.phase = PH_ROB
            return 0
    else:
        g.t.phase = PH_DISCARD
        return 0
    kong_replacement(g, cur)
    return 0


cdef void kong_replacement(game_t* g, int cur) noexcept nogil:
    """The replacement draw after a kong (the hand ends drawn when the wall is used up)."""
    g.drawn_kind = replacement(g, cur)
    if g.drawn_kind < 0:
        exhausted(g, cur)


cdef int ph_rob(game_t* g) noexcept nogil:
    """Robbing the kong: the seats after the kong's owner, in turn order, may win on the tile
    it added to its pung (the owner pays as the discarder); otherwise the owner draws its
    replacement and its turn goes on."""
    cdef int k = g.discard, s, c
    cdef int opts[2]
    cdef bint win
    while g.ci <= 3:
        s = (g.discarder + g.ci) & 3
        if offers_win(g, s, can_win_on(g, s, k)) or asks_anyway(g, s):
            win = g.win_ok[s] == W_VALID
            if g.p[s].policy == POL_EXTERNAL:
                opts[0] = C_WIN
                opts[1] = C_NONE
                if win:
                    c = ask(&g.t, s, ASK_CLAIM, k, opts, 2)
                else:
                    c = ask(&g.t, s, ASK_CLAIM, k, opts + 1, 1)
                if c == SUSPEND:
                    return SUSPEND
                if c == ANSWER_FALSE_WIN:
                    g.robbing = 0
                    return declare_false(g, s, k)
                win = win and c == 0
            if win:
                g.p[s].hand[k] += 1
                g.p[s].n_hand += 1
                g.visible[k] -= 1
                win_by(g, s, g.discarder)
                g.robbing = 0
                return 0
        g.ci += 1
    g.robbing = 0
    g.t.phase = PH_OWN
    kong_replacement(g, g.cur)
    return 0


cdef int ph_discard(game_t* g) noexcept nogil:
    cdef int cur = g.cur, k
    cdef player_t* p = &g.p[cur]
    k = choose_discard(g, cur)
    if k == SUSPEND:
        return SUSPEND
    if k < 0 or k >= 34 or p.hand[k] == 0:
        return illegal(&g.t, 1, k)
    p.hand[k] -= 1
    p.n_hand -= 1
    g.visible[k] += 1
    if p.n_discards < 64:
        p.discards[p.n_discards] = <uint8_t>k
        p.n_discards += 1
    log_ev(g, EV_DISCARD, cur, k, 0)
    g.discard = k
    g.discarder = cur
    g.drawn_kind = -1
    g.after_kong = 0
    g.ci = 1
    if g.R.ready_rule and not p.ready and shanten_of(g, p.hand) == 0:
        g.t.phase = PH_READY
    else:
        g.t.phase = PH_WINDOW if g.t.collect_claims else PH_WINS
    return 0


cdef int ph_ready(game_t* g) noexcept nogil:
    """Basic's Stop rule: a built-in player with a ready hand declares it; an external one is
    asked."""
    cdef int cur = g.cur, yes = 1
    if g.p[cur].policy == POL_EXTERNAL:
        yes = ask(&g.t, cur, ASK_READY, g.discard, NULL, 0)
        if yes == SUSPEND:
            return SUSPEND
    if yes == 1:
        g.p[cur].ready = 1
        log_ev(g, EV_READY, cur, 0, 0)
    g.t.phase = PH_WINDOW if g.t.collect_claims else PH_WINS
    return 0


cdef int ph_wins(game_t* g) noexcept nogil:
    """Mahjong claims on the discard, in turn order after the discarder: the first who takes it
    wins (built-in policies always do)."""
    cdef int k = g.discard, s, c
    cdef int opts[2]
    cdef bint win
    while g.ci <= 3:
        s = (g.discarder + g.ci) & 3
        if offers_win(g, s, can_win_on(g, s, k)):
            win = True
            if g.p[s].policy == POL_EXTERNAL:
                opts[0] = C_WIN
                opts[1] = C_NONE
                c = ask(&g.t, s, ASK_CLAIM, k, opts, 2)
                if c == SUSPEND:
                    return SUSPEND
                win = c == 0
            if win:
                g.p[s].hand[k] += 1
                g.p[s].n_hand += 1
                g.visible[k] -= 1
                win_by(g, s, g.discarder)
                return 0
        g.ci += 1
    g.ci = 1
    g.claimer = -1
    g.claim = C_NONE
    g.chow_start = -1
    g.t.phase = PH_CLAIMS
    return 0


cdef int ph_claims(game_t* g) noexcept nogil:
    """Kong or pung (any seat) beats chow (the next seat only), asked in turn order after the
    discarder; then the claim is made, or the next player draws."""
    cdef int k = g.discard, s, i, n, j, t, c, choice, claimer, chow_start = -1
    cdef int opts[8]
    cdef int starts[3]
    cdef player_t* p
    while g.ci <= 3:
        i = g.ci
        s = (g.discarder + i) & 3
        p = &g.p[s]
        g.ci += 1
        if p.ready:
            continue
        n = set_claims(g, i, s, k, opts, starts)
        if n == 0 and not asks_anyway(g, s):
            continue
        if p.policy == POL_EXTERNAL:
            opts[n] = C_NONE
            choice = ask(&g.t, s, ASK_CLAIM, k, opts, n + 1)
            if choice == SUSPEND:
                g.ci = i                # ask this seat again
                return SUSPEND
            if choice == ANSWER_FALSE_WIN:
                return declare_false(g, s, k)
            c = opts[choice] if 0 <= choice <= n else C_NONE
            if c >= 100:
                chow_start = c - 100
                c = C_CHOW
        elif p.policy == POL_RANDOM:
            c = C_NONE
        else:
            c = greedy_claim(g, s, k, i == 1, &chow_start)
        if c == C_CHOW:
            g.claimer = s             # kept unless a later seat claims kong or pung
            g.claim = C_CHOW
            g.chow_start = chow_start
        elif c != C_NONE:
            g.claimer = s
            g.claim = c
            break
    return make_claim(g, g.claimer, g.claim, g.chow_start)


cdef int make_claim(game_t* g, int claimer, int claim, int chow_start) noexcept nogil:
    """The claim that won the discard (C_NONE: nobody's; the next player draws)."""
    cdef int k = g.discard, j
    cdef player_t* p
    if claim == C_NONE:
        g.cur = next_seat(g.discarder)
        g.mode = MODE_DRAW
        g.t.phase = PH_TURN
        return 0
    p = &g.p[claimer]
    p.wait_sh = -1
    if claim == C_CHOW:
        for j in range(3):
            if chow_start + j != k:
                p.hand[chow_start + j] -= 1
                p.n_hand -= 1
                g.visible[chow_start + j] += 1
        add_meld(g, claimer, M_CHOW, chow_start)
        log_ev(g, EV_CHOW, claimer, k, chow_start)
        g.t.out[OUT_CLAIMS + claimer * 5 + M_CHOW] += 1
        g.mode = MODE_CLAIMED
    elif claim == C_PUNG:
        p.hand[k] -= 2
        p.n_hand -= 2
        g.visible[k] += 2
        p.pung_exposed[k] = 1
        add_meld(g, claimer, M_PUNG, k)
        log_ev(g, EV_PUNG, claimer, k, 0)
        g.t.out[OUT_CLAIMS + claimer * 5 + M_PUNG] += 1
        g.mode = MODE_CLAIMED
    else:
        p.hand[k] -= 3
        p.n_hand -= 3
        g.visible[k] += 3
        add_meld(g, claimer, M_KONG_EXPOSED, k)
        log_ev(g, EV_KONG, claimer, k, 0)
        g.t.out[OUT_CLAIMS + claimer * 5 + M_KONG_EXPOSED] += 1
        g.drawn_kind = replacement(g, claimer)
        if g.drawn_kind < 0:
            exhausted(g, claimer)
            return 0
        g.mode = MODE_OWN
    p.last_claim_kind = k
    p.last_claim_turn = g.t.turn
    g.cur = claimer
    g.t.phase = PH_TURN
    return 0


cdef int claim_options(game_t* g, int i, int s, int k, int* opts, int* starts) noexcept nogil:
    """The claims seat s (i seats after the discarder) may make on discard k, as option codes
    (C_WIN first, then kong, pung, chows by their first kind); returns how many."""
    cdef int n = 0
    if offers_win(g, s, can_win_on(g, s, k)):
        opts[n] = C_WIN
        n += 1
    if g.p[s].ready:
        return n
    return n + set_claims(g, i, s, k, opts + n, starts)


cdef int set_claims(game_t* g, int i, int s, int k, int* opts, int* starts) noexcept nogil:
    """The set claims (kong, pung, chows by their first kind) seat s, i seats after the
    discarder and without a ready hand, may make on discard k; returns how many."""
    cdef player_t* p = &g.p[s]
    cdef int n = 0, j, t
    if claims_closed(g):
        return 0
    if g.R.allow_kong and p.hand[k] == 3:
        opts[n] = C_KONG
        n += 1
    if p.hand[k] >= 2:
        opts[n] = C_PUNG
        n += 1
    if i == 1:
        j = chow_options(g, s, k, starts)
        for t in range(j):
            opts[n] = 100 + starts[t]
            n += 1
    return n


cdef int ph_window(game_t* g) noexcept nogil:
    """With t.collect_claims: every seat with a claim on the discard answers in turn order
    (built-in policies as they would in PH_WINS and PH_CLAIMS; no one sees another's answer),
    then the rules' priority decides: Mahjong (the first in turn order), kong or pung, chow."""
    cdef int k = g.discard, s, i, n, c, choice, chow_start = -1
    cdef int opts[8]
    cdef int starts[3]
    cdef player_t* p
    while g.ci <= 3:
        i = g.ci
        s = (g.discarder + i) & 3
        p = &g.p[s]
        g.window[s] = C_NONE
        n = claim_options(g, i, s, k, opts, starts)
        if n > 0 or asks_anyway(g, s):
            if p.policy == POL_EXTERNAL:
                opts[n] = C_NONE
                choice = ask(&g.t, s, ASK_CLAIM, k, opts, n + 1)
                if choice == SUSPEND:
                    return SUSPEND
                if choice == ANSWER_FALSE_WIN:
                    g.window[s] = C_FALSE
                    g.ci += 1
                    continue
                if choice < 0 or choice > n:
                    return illegal(&g.t, 4, choice)
                c = opts[choice]
                if c >= 100:
                    chow_start = c - 100
                    c = C_CHOW
            elif opts[0] == C_WIN:
                c = C_WIN                  # built-in policies always take a (valid) win
            elif p.policy == POL_RANDOM or p.ready:
                c = C_NONE
            else:
                c = greedy_claim(g, s, k, i == 1, &chow_start)
            g.window[s] = c
            g.window_chow[s] = chow_start
        g.ci += 1
    for i in range(1, 4):
        s = (g.discarder + i) & 3
        if g.window[s] == C_FALSE:
            return declare_false(g, s, k)
    for i in range(1, 4):
        s = (g.discarder + i) & 3
        if g.window[s] == C_WIN:
            g.p[s].hand[k] += 1
            g.p[s].n_hand += 1
            g.visible[k] -= 1
            win_by(g, s, g.discarder)
            return 0
    for i in range(1, 4):
        s = (g.discarder + i) & 3
        if g.window[s] == C_KONG or g.window[s] == C_PUNG:
            return make_claim(g, s, g.window[s], -1)
    s = (g.discarder + 1) & 3
    if g.window[s] == C_CHOW:
        return make_claim(g, s, C_CHOW, g.window_chow[s])
    return make_claim(g, -1, C_NONE, -1)


cdef int advance(game_t* g) noexcept nogil:
    """Play until an external seat must decide (ADV_DECIDE), the game ends (ADV_DONE) or an
    answer is illegal (ADV_ERROR)."""
    cdef int r
    while True:
        if g.t.phase == PH_TURN:
            ph_turn(g)
            continue
        if g.t.phase == PH_OWN:
            r = ph_own(g)
        elif g.t.phase == PH_DISCARD:
            r = ph_discard(g)
        elif g.t.phase == PH_WINS:
            r = ph_wins(g)
        elif g.t.phase == PH_CLAIMS:
            r = ph_claims(g)
        elif g.t.phase == PH_HAND:
            if g.t.hand_over and g.t.stop_at_hand_end:
                g.t.hand_over = 0
                return ADV_HAND
            g.t.hand_over = 0
            r = ph_hand(g)
            if r == ADV_DONE:
                return ADV_DONE
            continue
        elif g.t.phase == PH_WINDOW:
            r = ph_window(g)
        elif g.t.phase == PH_READY:
            r = ph_ready(g)
        elif g.t.phase == PH_ROB:
            r = ph_rob(g)
        else:
            return ADV_DONE
        if r == SUSPEND:
            return ADV_DECIDE
        if r == ADV_ERROR:
            return ADV_ERROR


cdef void start_game(game_t* g, uint64_t game_index, uint64_t k0, uint64_t k1, const int* policies) noexcept nogil:
    """Reset g for game `game_index` (its out row and log already set in g.t)."""
    cdef int s
    start_table(&g.t, game_index, k0, k1, policies, g.t.out, N_OUT, POLICY_SALT)
    g.t.hands_per_game = g.R.hands_per_game
    for s in range(4):
        g.p[s].policy = policies[s]
    g.t.phase = PH_HAND
