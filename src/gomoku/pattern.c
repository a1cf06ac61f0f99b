/*
 * Line patterns and the incremental search board of the Gomoku engine
 * (see pattern.h for the representation).
 */
#include "gomoku/pattern.h"

#include <string.h>

#if defined(__SSE2__) && !defined(RV_NO_SIMD)
#include <emmintrin.h>
#define GB_SSE2 1
#else
#define GB_SSE2 0
#endif

#include "gomoku/line_table.h"
#include "gomoku/lines.h"

#include "renversi/core.h"

const int gb_dir[4] = {1, GB_STRIDE, GB_STRIDE + 1, GB_STRIDE - 1};

int gb_class_of(int combo) {
    int d[4];
    gb_combo_kinds(combo, d);
    for (int i = 1; i < 4; i++) /* descending */
        for (int j = i; j > 0 && d[j] > d[j - 1]; j--) {
            int x = d[j];
            d[j] = d[j - 1], d[j - 1] = x;
        }
    /* a >= b >= c >= d  <->  a+3 > b+2 > c+1 > d: the combinatorial number system,
       C(a+3, 4) + C(b+2, 3) + C(c+1, 2) + d (each product is 0 when n < k) */
    int a = d[0] + 3, b = d[1] + 2, c = d[2] + 1;
    return a * (a - 1) * (a - 2) * (a - 3) / 24 + b * (b - 1) * (b - 2) / 6 + c * (c - 1) / 2 + d[3];
}

int gb_eval_rule_index(rv_gomoku_rule rule) {
    switch (rule) {
    case RV_RULE_STANDARD:
    case RV_RULE_STANDARD_CARO: return 1;
    case RV_RULE_RENJU: return 2;
    default: return 0;
    }
}

void gb_tables_set_eval(gb_tables *t, const gb_eval_weights *w) {
    for (int i = 0; i < GB_COMBOS; i++) {
        int k = gb_class_of(i);
        for (int c = 0; c < 2; c++)
            for (int r = 0; r < 2; r++) t->combo[c][i].ev[r] = w->cls[c][r][k];
    }
    memcpy(t->extra, w->extra, sizeof t->extra);
}

void gb_tables_set_moves(gb_tables *t, const gb_move_weights *w) {
    for (int i = 0; i < GB_COMBOS; i++) {
        int k = gb_class_of(i);
        for (int c = 0; c < 2; c++) t->ms[c][0][i] = w->own[c][k], t->ms[c][1][i] = w->opp[c][k];
    }
    for (int c = 0; c < 2; c++) t->ms[c][0][GB_COMBO_NONE] = t->ms[c][1][GB_COMBO_NONE] = 0;
    memcpy(t->ms_pair, w->pair, sizeof t->ms_pair);
}

void gb_eval_hand(rv_gomoku_rule rule, gb_eval_weights *w) {
    int renju = rule == RV_RULE_RENJU;
    for (int i = 0; i < GB_COMBOS; i++) {
        int k4[4];
        gb_combo_kinds(i, k4);
        for (int c = 0; c < 2; c++) {
            int16_t v;
            uint8_t tl;
            gb_combo_eval(k4, renju, c + 1, &v, &tl);
            w->cls[c][GB_TO_MOVE][gb_class_of(i)] = w->cls[c][GB_WAITING][gb_class_of(i)] = v;
        }
    }
    for (int c = 0; c < 2; c++) {
        w->extra[c][GB_X_TEMPO] = 10;
        w->extra[c][GB_X_FOUR3] = 5000;
        w->extra[c][GB_X_THREE3] = 2000;
        w->extra[c][GB_X_FOUR3W] = 300;
    }
}

/* Could a point whose black line patterns are k4 be forbidden to black under Renju? Only
   where black makes no five and makes an overline, an open four, or an open three or more
   on two lines (the exact verdict: gb_forbidden). */
static int combo_may_be_forbidden(const int *k4) {
    int n = 0, hard = 0;
    for (int d = 0; d < 4; d++) {
        if (k4[d] == PAT_FIVE) return 0;
        if (k4[d] == PAT_OVERLINE || k4[d] == PAT_FLEX4) hard = 1;
        if (k4[d] >= PAT_FLEX3) n++;
    }
    return hard || n >= 2;
}

void gb_tables_build(gb_tables *t, rv_gomoku_rule rule, uint64_t seed) {
    if (t->ready && t->rule == rule) return;
    t->pat = gb_pat_tab[gb_pat_rule_index(rule)];
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < GB_COMBOS; i++) {
            int k4[4];
            gb_combo_kinds(i, k4);
            gb_combo_eval(k4, rule == RV_RULE_RENJU, c + 1, &t->combo[c][i].val,
                          &t->combo[c][i].tl);
            t->combo[c][i].maybe_forbidden = (uint8_t)(c == 0 && combo_may_be_forbidden(k4));
        }
    memset(t->combo[0] + GB_COMBO_NONE, 0, sizeof t->combo[0][0]); /* TL_NONE, no value */
    memset(t->combo[1] + GB_COMBO_NONE, 0, sizeof t->combo[1][0]);
    gb_tables_set_eval(t, &gb_eval_fitted[gb_eval_rule_index(rule)]);
    gb_tables_set_moves(t, &gb_move_fitted[gb_eval_rule_index(rule)]);
    rv_rng r;
    rv_rng_seed(&r, seed);
    for (int c = 0; c < 2; c++)
        for (int p = 0; p < GB_CELLS; p++) t->zob[c][p] = rv_rng_next(&r);
    t->rule = rule;
    t->ready = 1;
}

/* ------------------------------------------------------------------ point values */

static const int16_t pat_value[PB_N] = {
    [PB_NONE] = 0,   [PB_FLEX1] = 2,   [PB_BLOCK2] = 3,  [PB_FLEX2] = 10,  [PB_BLOCK3] = 8,
    [PB_FLEX3] = 40, [PB_BLOCK4] = 36, [PB_FLEX4] = 400, [PB_FIVE] = 4000, [PB_OVERLINE] = 0};

void gb_combo_eval(const int *k4, int renju, int c, int16_t *val, uint8_t *tl) {
    int n4 = 0, n3 = 0, five = 0, flex4 = 0, over = 0, v = 0, n2 = 0;
    for (int d = 0; d < 4; d++) {
        int k = gb_kind_base(k4[d]);
        v += pat_value[k];
        if (k == PB_FIVE)
            five = 1;
        else if (k == PB_FLEX4)
            flex4++, n4++;
        else if (k == PB_BLOCK4)
            n4++;
        else if (k == PB_FLEX3)
            n3++;
        else if (k == PB_FLEX2)
            n2++;
        else if (k == PB_OVERLINE)
            over = 1;
    }
    int level;
    if (five)
        level = TL_FIVE;
    else if (renju && c == RV_BLACK && (over || n4 >= 2 || n3 >= 2 || flex4)) {
        /* probably forbidden (the exact verdict is the rules module's): worthless to black,
           except a lone open four, which is only forbidden with a same-line double four */
        if (flex4 == 1 && n4 == 1 && n3 <= 1 && !over)
            level = TL_FLEX4;
        else
            level = TL_NONE, v = 0;
    } else if (flex4 || n4 >= 2)
        level = TL_FLEX4;
    else if (n4 && n3)
        level = TL_FOUR3;
    else if (n3 >= 2)
        level = TL_THREE3;
    else if (n4)
        level = TL_FOUR;
    else if (n3)
        level = TL_THREE;
    else
        level = TL_NONE;
    if (level == TL_FOUR3)
        v += 300;
    else if (level == TL_THREE3)
        v += 120;
    else if (level == TL_FLEX4 && !flex4)
        v += 400;
    else if (n3 && n2)
        v += 15;
    *val = (int16_t)v;
    *tl = (uint8_t)level;
}

/* Gives the point the values and threat level (colour index c) of combo i in the sums s
   (the board's, copied to a local by update_patterns and written back once),
   in place of those of its combo so far (GB_COMBO_NONE after a stone: not counted). */
static inline void rescore_in(gboard *b, const gb_tables *t, gb_sums *s, int c, int p, int i) {
    const gb_combo_info *o = &t->combo[c][b->combo[c][p]], *n = &t->combo[c][i];
    if (o->tl != n->tl) s->cnt[c][o->tl]--, s->cnt[c][n->tl]++;
    s->etot[c][0] += n->ev[0] - o->ev[0];
    s->etot[c][1] += n->ev[1] - o->ev[1];
    b->combo[c][p] = (uint16_t)i;
    b->tl[c][p] = n->tl;
}

static inline void sums_get(const gboard *b, gb_sums *s) {
    memcpy(s->etot, b->etot, sizeof s->etot);
    memcpy(s->cnt, b->cnt, sizeof s->cnt);
}

static inline void sums_put(gboard *b, const gb_sums *s) {
    memcpy(b->etot, s->etot, sizeof s->etot);
    memcpy(b->cnt, s->cnt, sizeof s->cnt);
}

/* Looks every line pattern of the empty point up again (it was just emptied, or loaded). */
static void refresh_point(gboard *b, int p) {
    gb_sums s;
    sums_get(b, &s);
    for (int c = 0; c < 2; c++) {
        uint8_t *k = b->pc[c][p];
        for (int d = 0; d < 4; d++) k[d] = b->t->pat[c][gb_key_kept(b, c, d, p)];
        rescore_in(b, b->t, &s, c, p, gb_combo(k[0], k[1], k[2], k[3]));
    }
    sums_put(b, &s);
}

/* Takes the point out of the sums (a stone is placed on it). */
static inline void clear_in(gboard *b, gb_sums *s, int p) {
    for (int c = 0; c < 2; c++) {
        rescore_in(b, b->t, s, c, p, GB_COMBO_NONE);
        s->cnt[c][TL_NONE]--; /* a stone is not counted */
    }
}
static void clear_point(gboard *b, int p) {
    gb_sums s;
    sums_get(b, &s);
    clear_in(b, &s, p);
    sums_put(b, &s);
}

/* Saves the state of colour c at point p into entry e of a move's undo log. */
static inline void log_point(const gboard *b, gb_saved *e, int c, int p) {
    e->at = (uint16_t)(c * GB_CELLS + p);
    e->tl = b->tl[c][p];
    e->combo = b->combo[c][p];
    memcpy(e->pc, b->pc[c][p], 4);
}

/* The key of an 11-point window whose own stones are the bits of own and whose
   opponent stones and off-board points are the bits of oth (the centre, bit 5, is
   ignored). */
static inline int window_key(uint64_t own, uint64_t oth) {
    return rv_line_tern[own & 0x7FF] + 2 * rv_line_tern[oth & 0x7FF];
}

int gb_key(const gboard *b, int c, int d, int p) {
    int l = gb_line_of(p, d), sh = gb_line_pos(p, d) - 5;
    uint64_t off = b->line[2][d][l];
    return window_key(b->line[c][d][l] >> sh, (b->line[1 - c][d][l] | off) >> sh);
}

/* A stone's weight in the keys of the points k = -5..5 from it on a line: it is at bit
   5 - k of their windows, whose weight in base 3 is rv_line_tern's (3^i below the centre,
   3^(i-1) above; a point's own key leaves it out). Own stones count it once, the
   opponent's twice (window_key). The keys are kept in pairs (black's, white's) per point
   (gboard's key): [colour of the stone - 1][2 * (k + 5) + colour index]; lanes 22-23
   (beyond the window) add 0. */
#define KS(k, own, oth) own * (k), oth * (k)
#define KEY_STEP(own, oth)                                                                    \
    {KS(19683, own, oth), KS(6561, own, oth), KS(2187, own, oth), KS(729, own, oth),          \
     KS(243, own, oth),   KS(0, own, oth),    KS(81, own, oth),   KS(27, own, oth),           \
     KS(9, own, oth),     KS(3, own, oth),    KS(1, own, oth),    0, 0}
static const uint16_t key_step[2][24] = {KEY_STEP(1, 2), KEY_STEP(2, 1)};
#undef KEY_STEP
#undef KS

#if defined(__GNUC__)
#define GB_INLINE inline __attribute__((always_inline))
#else
#define GB_INLINE inline
#endif

/* Puts (set 1) or takes away (set 0) a stone of colour c at position pos of line l in
   direction d: its bit, and its weight in the keys of the points around it. */
static GB_INLINE void flip_dir(gboard *b, int d, int l, int pos, int c, int set) {
    uint64_t bit = (uint64_t)1 << pos;
    uint64_t *w = &b->line[c - 1][d][l];
    *w = set ? *w | bit : *w & ~bit;
    uint16_t *k = b->key[d] + 2 * (l * GB_STRIDE + pos - 5);
    const uint16_t *st = key_step[c - 1];
#if GB_SSE2
#define KEY_ADD(i)                                                                            \
    do {                                                                                      \
        __m128i v = _mm_loadu_si128((const __m128i *)(k + (i))),                             \
                e = _mm_loadu_si128((const __m128i *)(st + (i)));                             \
        v = set ? _mm_add_epi16(v, e) : _mm_sub_epi16(v, e);                                  \
        _mm_storeu_si128((__m128i *)(k + (i)), v);                                            \
    } while (0)
    KEY_ADD(0); /* the 24 lanes as 3 adds (unrolled) */
    KEY_ADD(8);
    KEY_ADD(16);
#undef KEY_ADD
#else
    for (int i = 0; i < 22; i++) k[i] = (uint16_t)(set ? k[i] + st[i] : k[i] - st[i]);
#endif
}

/* Puts (set 1) or takes away (set 0) a stone of colour c at p in its 4 lines. */
static GB_INLINE void flip_lines(gboard *b, int p, int c, int set) {
    int x = p % GB_STRIDE, y = p / GB_STRIDE; /* gb_line_of, gb_line_pos */
    flip_dir(b, 0, y, x, c, set);
    flip_dir(b, 1, x, y, c, set);
    flip_dir(b, 2, x - y + GB_STRIDE - 1, y, c, set);
    flip_dir(b, 3, x + y, y, c, set);
}

/* update_patterns' work on the line l in direction d through p (at position pos): the
   line patterns of its empty points within 5 of p are looked up again, and the points
   whose pattern changed re-scored (logged first when log is not NULL). Inlined into one
   copy per direction (d, its step and its digit are constants there). */
static GB_INLINE int update_dir(gboard *b, const gb_tables *t, gb_sums *s, gb_saved *log, int nl,
                             int p, int d, int l, int pos) {
    static const int digit[4] = {GB_KINDS * GB_KINDS * GB_KINDS, GB_KINDS * GB_KINDS, GB_KINDS,
                                 1}; /* d's digit in a combo */
    const uint8_t *pat0 = t->pat[0], *pat1 = t->pat[1];
    int step = gb_dir[d], weight = digit[d];
    /* the empty points at k = -5..5 as bits k + 5 (p itself, bit 5, left out) */
    unsigned empty =
        (unsigned)(~(b->line[0][d][l] | b->line[1][d][l] | b->line[2][d][l]) >> (pos - 5)) & 0x7DFu;
    const uint16_t *key = b->key[d] + 2 * (l * GB_STRIDE + pos - 5);
    while (empty) {
        int i = __builtin_ctz(empty), q = p + (i - 5) * step;
        empty &= empty - 1;
        int np0 = pat0[key[2 * i]], np1 = pat1[key[2 * i + 1]];
        int op0 = b->pc[0][q][d], op1 = b->pc[1][q][d];
        if (np0 != op0) {
            if (log) log_point(b, &log[nl++], 0, q);
            rescore_in(b, t, s, 0, q, b->combo[0][q] + (np0 - op0) * weight);
            b->pc[0][q][d] = (uint8_t)np0;
        }
        if (np1 != op1) {
            if (log) log_point(b, &log[nl++], 1, q);
            rescore_in(b, t, s, 1, q, b->combo[1][q] + (np1 - op1) * weight);
            b->pc[1][q][d] = (uint8_t)np1;
        }
    }
    return nl;
}

/* After a change of the stone at p (flip_lines): the line patterns of the empty points
   within 5 of p on its 4 lines are looked up again and the points whose pattern changed
   re-scored in the sums s; the state of each before goes to log (when not NULL), whose
   entry count is returned. Only the line through p changed at each point: one lookup per
   colour (its key is kept by flip_lines), and the point is re-scored only when that
   line's pattern changed; stones have no patterns, so only the empty points of the window
   are visited. The sums are a local copy and the log's count a local (a byte store
   through b may alias anything, so what is read through b is read again after each). */
static GB_INLINE int update_in(gboard *b, gb_sums *s, int p, gb_saved *log) {
    const gb_tables *t = b->t;
    int nl = 0;
    int x = p % GB_STRIDE, y = p / GB_STRIDE; /* gb_line_of, gb_line_pos */
    nl = update_dir(b, t, s, log, nl, p, 0, y, x);
    nl = update_dir(b, t, s, log, nl, p, 1, x, y);
    nl = update_dir(b, t, s, log, nl, p, 2, x - y + GB_STRIDE - 1, y);
    nl = update_dir(b, t, s, log, nl, p, 3, x + y, y);
    return nl;
}

/* update_in with a log (gb_play's first GB_LOG_PLIES moves) and without (the rest). */
static int update_logged(gboard *b, gb_sums *s, int p, gb_saved *log) {
    return update_in(b, s, p, log);
}
static void update_patterns(gboard *b, int p) {
    gb_sums s;
    sums_get(b, &s);
    update_in(b, &s, p, NULL);
    sums_put(b, &s);
}

/* Adds delta (+1 / -1) to near[] on the 5x5 square around p: per row one 8-byte add whose
   5 low bytes are delta (a count stays in 0..25, so no byte carries or borrows into the
   next; the 3 high bytes add 0). */
static void add_near(gboard *b, int p, int delta) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t five = 0x0000000101010101ull;
    for (int dy = -2; dy <= 2; dy++) {
        uint8_t *row = b->near + p + dy * GB_STRIDE - 2;
        uint64_t v;
        memcpy(&v, row, sizeof v);
        v = delta > 0 ? v + five : v - five;
        memcpy(row, &v, sizeof v);
    }
#else
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++) b->near[p + dy * GB_STRIDE + dx] += (uint8_t)delta;
#endif
}

/* *to: the box from (the box before) and the stone at p (branch-free: an empty box's x0, y0
   are above and x1, y1 below any stone's) */
static inline void box_grow(gb_box *to, const gb_box *from, int p) {
    int x = p % GB_STRIDE, y = p / GB_STRIDE;
    to->x0 = (uint8_t)(from->x0 < x ? from->x0 : x), to->x1 = (uint8_t)(from->x1 > x ? from->x1 : x);
    to->y0 = (uint8_t)(from->y0 < y ? from->y0 : y), to->y1 = (uint8_t)(from->y1 > y ? from->y1 : y);
}

void gb_load(gboard *b, const gb_tables *t, const rv_gomoku *g) {
    b->t = t;
    b->w = rv_gomoku_width(g);
    b->h = rv_gomoku_height(g);
    b->renju = rv_gomoku_get_rule(g) == RV_RULE_RENJU;
    b->stm = rv_gomoku_to_move(g);
    b->g = *g;
    b->nstones = 0;
    b->mirrored = b->nmirror = 0;
    b->hash = 0;
    b->box[0] = (gb_box){UINT8_MAX, 0, UINT8_MAX, 0};
    memset(b->cell, 3, sizeof b->cell);
    memset(b->tl, 0, sizeof b->tl);
    memset(b->etot, 0, sizeof b->etot);
    for (int c = 0; c < 2; c++)
        for (int p = 0; p < GB_CELLS; p++) b->combo[c][p] = GB_COMBO_NONE;
    memset(b->cnt, 0, sizeof b->cnt);
    memset(b->near, 0, sizeof b->near);
    for (int y = 0; y < b->h; y++)
        for (int x = 0; x < b->w; x++) b->cell[gb_index(x, y)] = 0;
    /* the lines of the empty board: every point off the board is marked */
    memset(b->line, 0, sizeof b->line);
    for (int p = 0; p < GB_CELLS; p++)
        if (b->cell[p] == 3)
            for (int d = 0; d < 4; d++)
                b->line[2][d][gb_line_of(p, d)] |= (uint64_t)1 << gb_line_pos(p, d);
    /* the keys of the empty board's points (the stones below add to them) */
    memset(b->key, 0, sizeof b->key);
    for (int y = 0; y < b->h; y++)
        for (int x = 0; x < b->w; x++)
            for (int c = 0; c < 2; c++)
                for (int d = 0; d < 4; d++) {
                    int p = gb_index(x, y);
                    b->key[d][2 * (gb_line_of(p, d) * GB_STRIDE + gb_line_pos(p, d)) + c] =
                        (uint16_t)gb_key(b, c, d, p);
                }
    b->nempty = b->w * b->h;
    b->cnt[0][TL_NONE] = b->cnt[1][TL_NONE] = b->nempty;
    for (int y = 0; y < b->h; y++)
        for (int x = 0; x < b->w; x++) refresh_point(b, gb_index(x, y));
    for (int y = 0; y < b->h; y++)
        for (int x = 0; x < b->w; x++) {
            rv_color c = rv_gomoku_at(g, x, y);
            if (c == RV_EMPTY) continue;
            int p = gb_index(x, y);
            clear_point(b, p);
            b->cell[p] = (uint8_t)c;
            b->hash ^= t->zob[c - 1][p];
            b->nempty--;
            flip_lines(b, p, c, 1);
            update_patterns(b, p);
            add_near(b, p, 1);
            box_grow(&b->box[0], &b->box[0], p);
        }
    if (b->stm == RV_WHITE) b->hash = ~b->hash;
}

void gb_play(gboard *b, int p) {
    int c = b->stm, ply = b->nstones;
    const gb_tables *t = b->t;
    gb_sums s; /* the sums, in a local until the end */
    sums_get(b, &s);
    b->stack[b->nstones++] = (uint16_t)p;
    box_grow(&b->box[ply + 1], &b->box[ply], p);
    gb_saved *log = NULL;
    if (ply < GB_LOG_PLIES) {
        log = b->log[ply];
        b->sums[ply] = s;
        log_point(b, &log[0], 0, p);
        log_point(b, &log[1], 1, p);
    }
    clear_in(b, &s, p); /* the point leaves the sums */
    b->cell[p] = (uint8_t)c;
    b->hash ^= t->zob[c - 1][p];
    b->hash = ~b->hash;
    b->nempty--;
    flip_lines(b, p, c, 1);
    if (log)
        b->nlog[ply] = (uint8_t)(update_logged(b, &s, p, log + 2) + 2);
    else
        update_in(b, &s, p, NULL);
    sums_put(b, &s);
    add_near(b, p, 1);
    b->stm = 3 - c;
}

void gb_undo(gboard *b) {
    int p = b->stack[--b->nstones];
    int c = b->cell[p];
    b->cell[p] = 0;
    b->hash ^= b->t->zob[c - 1][p];
    b->hash = ~b->hash;
    b->nempty++;
    int ply = b->nstones;
    flip_lines(b, p, c, 0);
    if (ply < GB_LOG_PLIES) {
        /* every re-scored point and the sums from the log */
        const gb_saved *log = b->log[ply];
        uint8_t *tl = &b->tl[0][0], *pc = &b->pc[0][0][0];
        uint16_t *combo = &b->combo[0][0];
        for (const gb_saved *e = log + b->nlog[ply]; e-- != log;) {
            size_t at = e->at;
            tl[at] = e->tl;
            combo[at] = e->combo;
            memcpy(pc + 4 * at, e->pc, 4);
        }
        sums_put(b, &b->sums[ply]);
    } else {
        update_patterns(b, p);
        /* the point is counted again (as nothing yet: refresh_point moves it to its level) */
        b->cnt[0][TL_NONE]++, b->cnt[1][TL_NONE]++;
        refresh_point(b, p);
    }
    add_near(b, p, -1);
    /* the Renju mirror is behind from here on (gb_mirror) */
    if (b->mirrored > b->nstones) b->mirrored = b->nstones;
    b->stm = c;
}

/* Brings the Renju mirror b->g up to the board: the stones it holds beyond the moves
   both share are taken off, the board's moves after those put on. */
static void sync_mirror(gboard *b) {
    int k = b->mirrored;
    while (b->nmirror > k) {
        int q = b->mstack[--b->nmirror];
        rv_line_put(&b->g, gb_x(q), gb_y(q), RV_EMPTY);
    }
    for (; k < b->nstones; k++) {
        int q = b->stack[k];
        rv_line_put(&b->g, gb_x(q), gb_y(q), (rv_color)b->cell[q]);
        b->mstack[b->nmirror++] = (uint16_t)q;
    }
    b->mirrored = b->nstones;
}

rv_forbid_kind gb_forbidden(gboard *b, int p) {
    if (b->mirrored != b->nstones || b->nmirror != b->nstones) sync_mirror(b);
    return rv_gomoku_forbidden(&b->g, gb_x(p), gb_y(p));
}

int gb_tl_if_blocked(const gboard *b, int c, int q, int p) {
    /* the direction of the line through q and p from their coordinates (the divisions
       by the constant stride are multiplications) */
    int dx = p % GB_STRIDE - q % GB_STRIDE, dy = p / GB_STRIDE - q / GB_STRIDE, d;
    if (dx < -5 || dx > 5 || dy < -5 || dy > 5 || (dx == 0 && dy == 0)) return b->tl[c - 1][q];
    if (dy == 0)
        d = 0;
    else if (dx == 0)
        d = 1;
    else if (dx == dy)
        d = 2;
    else if (dx == -dy)
        d = 3;
    else
        return b->tl[c - 1][q];
    /* the other colour's stone at p joins the opponent's side of q's window */
    int ci = c - 1;
    uint8_t pc[4];
    memcpy(pc, b->pc[ci][q], 4);
    int l = gb_line_of(q, d), sh = gb_line_pos(q, d) - 5;
    uint64_t oth = b->line[1 - ci][d][l] | b->line[2][d][l] | (uint64_t)1 << gb_line_pos(p, d);
    pc[d] = b->t->pat[ci][window_key(b->line[ci][d][l] >> sh, oth >> sh)];
    return b->t->combo[ci][gb_combo(pc[0], pc[1], pc[2], pc[3])].tl;
}

int gb_collect(const gboard *b, int c, int lvl, int *out, int max) {
    int n = 0;
    for (int y = 0; y < b->h; y++)
        for (int x = 0; x < b->w; x++) {
            int p = gb_index(x, y);
            if (b->cell[p] == 0 && b->tl[c - 1][p] >= lvl && n < max) out[n++] = p;
        }
    return n;
}

int gb_collect_fives_through(const gboard *b, int c, int p, int *out, int max) {
    int n = 0;
    for (int d = 0; d < 4; d++) {
        /* a five point made by p lies on a line where p made a four (gb_play keeps a
           stone's line patterns as they were when it was played) */
        int k4 = b->pc[c - 1][p][d];
        if (k4 < PAT_BLOCK4 || k4 > PAT_FIVE) continue;
        for (int k = -4; k <= 4; k++) {
            int q = p + k * gb_dir[d];
            if (k == 0 || b->cell[q] != 0 || b->tl[c - 1][q] != TL_FIVE || n >= max) continue;
            /* in board order, as gb_collect gives them */
            int j = n++;
            while (j > 0 && out[j - 1] > q) out[j] = out[j - 1], j--;
            out[j] = q;
        }
    }
    return n;
}
