/*
 * Internal to the Gomoku engine: line patterns and the incremental search board.
 *
 * The board keeps each line as bit masks (black stones, white stones, points off
 * the board). For each colour and each of the 4 directions, the 5 points on either
 * side of an empty point make a key (base 3: empty, own stone, other = opponent
 * stone or off the board), read from the masks. A per-engine table maps a key to
 * the pattern that colour would make there by playing the point (five, open four,
 * four, open three, ...); every empty point caches its patterns, re-derived for
 * the points whose lines a move changes, so the whole board's threats are known at
 * every node.
 *
 * These patterns are the engine's evaluation, not the rules: legality (Renju
 * forbidden points) is always decided by rv_gomoku_forbidden on a mirror board
 * kept up to date only when a verdict is asked (gb_forbidden).
 * Caro's "not blocked at both ends" treats the board edge like a stone here
 * (a slight misjudgement at the edge; the referee is the rules module).
 */
#ifndef RV_GOMOKU_PATTERN_H
#define RV_GOMOKU_PATTERN_H

#include "renversi/gomoku.h"

#define GB_PAD 5
#define GB_STRIDE (RV_GOMOKU_MAX_SIZE + 2 * GB_PAD)
#define GB_CELLS (GB_STRIDE * GB_STRIDE)
#define PAT_KEYS 59049 /* 3^10 */
#define GB_LINES (2 * GB_STRIDE - 1) /* lines of one direction through the padded board */

/* What a colour makes on one line by playing the point (ordered by strength). The twos
   and the open threes are told apart by how many points make them one step stronger (the
   more, the harder to defend); the base pattern is gb_kind_base's. */
enum {
    PAT_NONE,
    PAT_FLEX1,
    PAT_BLOCK2,
    PAT_FLEX2,   /* a two: one more stone gives an open three, at 2 points or fewer (X..X) */
    PAT_FLEX2_3, /* ... at 3 points (X.X) */
    PAT_FLEX2_4, /* ... at 4 or more (XX) */
    PAT_BLOCK3,
    PAT_FLEX3,   /* an open three: one more stone gives an open four, at 1 point (X.XX) */
    PAT_FLEX3_2, /* ... at 2 or more points (.XXX.) */
    PAT_BLOCK4,  /* a four with one completion */
    PAT_FLEX4,   /* two or more completions on the line (open four) */
    PAT_FIVE,    /* a winning row */
    PAT_OVERLINE, /* Renju black: six or more (no win) */
    GB_KINDS      /* the number of line kinds: a combo's digits are base GB_KINDS */
};

/* The base patterns: the line kinds without the splits (the hand-set values and threat
   levels are theirs). */
enum {
    PB_NONE,
    PB_FLEX1,
    PB_BLOCK2,
    PB_FLEX2,
    PB_BLOCK3,
    PB_FLEX3,
    PB_BLOCK4,
    PB_FLEX4,
    PB_FIVE,
    PB_OVERLINE,
    PB_N
};

/* The base pattern (PB_*) of a line kind (PAT_*). */
static inline int gb_kind_base(int k) {
    static const uint8_t base[GB_KINDS] = {
        [PAT_NONE] = PB_NONE,       [PAT_FLEX1] = PB_FLEX1,   [PAT_BLOCK2] = PB_BLOCK2,
        [PAT_FLEX2] = PB_FLEX2,     [PAT_FLEX2_3] = PB_FLEX2, [PAT_FLEX2_4] = PB_FLEX2,
        [PAT_BLOCK3] = PB_BLOCK3,   [PAT_FLEX3] = PB_FLEX3,   [PAT_FLEX3_2] = PB_FLEX3,
        [PAT_BLOCK4] = PB_BLOCK4,   [PAT_FLEX4] = PB_FLEX4,   [PAT_FIVE] = PB_FIVE,
        [PAT_OVERLINE] = PB_OVERLINE};
    return base[k];
}

/* A point's threat level for one colour (combining its 4 lines). */
enum {
    TL_NONE,
    TL_THREE,  /* one open three */
    TL_FOUR,   /* one four */
    TL_THREE3, /* two open threes */
    TL_FOUR3,  /* a four and an open three */
    TL_FLEX4,  /* an open four or two fours: wins next move */
    TL_FIVE,   /* wins now */
    TL_N
};

/* A point's combo: its 4 line patterns (directions 0..3) as the digits of a base-GB_KINDS
   number, direction 0 the most significant. */
#define GB_COMBOS (GB_KINDS * GB_KINDS * GB_KINDS * GB_KINDS)
static inline int gb_combo(int k0, int k1, int k2, int k3) {
    return ((k0 * GB_KINDS + k1) * GB_KINDS + k2) * GB_KINDS + k3;
}
/* The 4 line patterns of combo i (i < GB_COMBOS). */
static inline void gb_combo_kinds(int i, int *k4) {
    for (int d = 3; d >= 0; d--) k4[d] = i % GB_KINDS, i /= GB_KINDS;
}

/* Point classes: the 4 line patterns of a point as a multiset (order of the
   directions does not matter), C(GB_KINDS + 4 - 1, 4) of them (1820 for 13 kinds). */
#define GB_CLASSES (GB_KINDS * (GB_KINDS + 1) * (GB_KINDS + 2) * (GB_KINDS + 3) / 24)

/* Roles in the fitted evaluation: the colour whose points are scored is to move or waits. */
enum { GB_TO_MOVE, GB_WAITING };

/* Extra terms of the fitted evaluation (per side-to-move colour). */
enum {
    GB_X_TEMPO,  /* constant: the side to move's edge */
    GB_X_FOUR3,  /* the side to move has a four-three and the opponent no four */
    GB_X_THREE3, /* ... a double three, the opponent no four nor open four */
    GB_X_FOUR3W, /* ... a four-three while the opponent has a four-three only */
    GB_X_N
};

/* One rule's fitted evaluation tables, in the search's score units (eval_weights.c). */
typedef struct gb_eval_weights {
    int16_t cls[2][2][GB_CLASSES]; /* [colour - 1][role][class] */
    int16_t extra[2][GB_X_N];      /* [side to move - 1][term] */
} gb_eval_weights;

/* The fitted tables: [0] freestyle (and Caro), [1] exact five (and standard Caro), [2] Renju. */
extern const gb_eval_weights gb_eval_fitted[3];

/* Index into gb_eval_fitted for a rule. */
int gb_eval_rule_index(rv_gomoku_rule rule);

/* The class (0..GB_CLASSES-1) of a combo (0..GB_COMBOS-1). */
int gb_class_of(int combo);

/* The combo of a point that holds a stone (not in the evaluation's sums). */
#define GB_COMBO_NONE GB_COMBOS
_Static_assert(GB_COMBO_NONE <= 0xFFFF, "a combo is kept in 16 bits");

/* What a point's combo (its 4 line patterns) is worth to one colour: all a re-scored
   point needs, in 8 bytes. */
typedef struct gb_combo_info {
    int16_t val;             /* hand-set value: move ordering */
    uint8_t tl;              /* threat level (TL_*) */
    uint8_t maybe_forbidden; /* black's combo: gb_black_may_be_forbidden's test (any rule) */
    int16_t ev[2];           /* [role]: the fitted evaluation's value */
} gb_combo_info;

/*
 * One rule's fitted move scores (move_weights.c): how likely an empty point is the move
 * a deeper search plays, in GB_MS_UNIT per logit, as the sum of what the side to move
 * makes there (its class), what the opponent would make there (its class: what the point
 * blocks) and the two threat levels together.
 */
#define GB_MS_UNIT 64
typedef struct gb_move_weights {
    int16_t own[2][GB_CLASSES];  /* [side to move - 1][the side to move's class at the point] */
    int16_t opp[2][GB_CLASSES];  /* [side to move - 1][the opponent's class at the point] */
    int16_t pair[2][TL_N][TL_N]; /* [side to move - 1][own threat level][opponent's] */
} gb_move_weights;

/* The fitted move scores: [0] freestyle (and Caro), [1] exact five, [2] Renju. */
extern const gb_move_weights gb_move_fitted[3];

/* Per-engine tables: patterns for the rule in use, Zobrist keys. */
/* The patterns of every key, per rule ([0] freestyle, [1] exact five, [2] Renju, [3] Caro,
   [4] standard Caro: gb_pat_rule_index) and colour, computed at build time
   (tools/gen_pattern_table.c, from pattern_classify.h). */
extern const uint8_t gb_pat_tab[5][2][PAT_KEYS];

/* Index into gb_pat_tab for a rule. */
static inline int gb_pat_rule_index(rv_gomoku_rule rule) {
    switch (rule) {
    case RV_RULE_STANDARD: return 1;
    case RV_RULE_RENJU: return 2;
    case RV_RULE_CARO: return 3;
    case RV_RULE_STANDARD_CARO: return 4;
    default: return 0;
    }
}

typedef struct gb_tables {
    rv_gomoku_rule rule;
    int ready;
    const uint8_t (*pat)[PAT_KEYS]; /* [colour - 1][key]: gb_pat_tab of the rule */
    /* [colour - 1][combo: the 4 line patterns]; GB_COMBO_NONE (a stone) is worth nothing */
    gb_combo_info combo[2][GB_COMBO_NONE + 1];
    int16_t extra[2][GB_X_N]; /* [side to move - 1][term] */
    /* move scores by combo: [side to move - 1][0: its own combo, 1: the opponent's]
       (GB_COMBO_NONE: 0), and [side to move - 1][own level][opponent's level] */
    int16_t ms[2][2][GB_COMBO_NONE + 1];
    int16_t ms_pair[2][TL_N][TL_N];
    uint64_t zob[2][GB_CELLS];
} gb_tables;

/* Puts evaluation tables w into t (gb_tables_build puts the fitted ones for t's rule). */
void gb_tables_set_eval(gb_tables *t, const gb_eval_weights *w);

/* Puts move-score tables w into t (gb_tables_build puts the fitted ones for t's rule). */
void gb_tables_set_moves(gb_tables *t, const gb_move_weights *w);

/* The hand-set evaluation tables for a rule: each class worth its move-ordering value in
   both roles, tempo 10, threat terms 5000 / 2000 / 300 (the fit's starting point). */
void gb_eval_hand(rv_gomoku_rule rule, gb_eval_weights *w);

/* Hand-set value and threat level of colour c (1/2) making line patterns k4[0..3] at a
   point under Renju (renju 1) or another rule: the move-ordering values. */
void gb_combo_eval(const int *k4, int renju, int c, int16_t *val, uint8_t *tl);

/* What gb_play changed, so gb_undo can put it back without looking patterns up again. */
#define GB_LOG_PLIES 160 /* moves after gb_load that keep an undo log (later ones recompute) */
#define GB_LOG_PER_PLY 82 /* points re-scored by one move: 2 colours x 40, and the point */
typedef struct gb_saved {
    uint16_t at; /* colour index c and point p as c * GB_CELLS + p: the point's place in
                    gboard's pc, tl and combo read as one array each */
    uint16_t combo;
    uint8_t pc[4];
    uint8_t tl;
} gb_saved;
_Static_assert(2 * GB_CELLS <= 0xFFFF, "a colour and point are kept in 16 bits");
typedef struct gb_sums {
    int32_t etot[2][2];
    int cnt[2][TL_N];
} gb_sums;

/* The rectangle holding the stones in padded columns x0..x1 and rows y0..y1 (p % GB_STRIDE,
   p / GB_STRIDE; x1 < x0 when there is no stone) */
typedef struct gb_box {
    uint8_t x0, x1, y0, y1;
} gb_box;

#define GB_KEY_PAD 16 /* see gboard's key */
typedef struct gboard {
    const gb_tables *t;
    int w, h;
    int renju; /* rule is Renju: black has forbidden points */
    int stm;   /* side to move: RV_BLACK or RV_WHITE */
    int nstones, nempty;
    uint64_t hash;
    uint8_t cell[GB_CELLS]; /* 0 empty, 1 black, 2 white, 3 off the board */
    uint64_t line[3][4][GB_LINES]; /* [black, white, off the board][direction][line]: bit
                                      gb_line_pos of each point (padded board) */
    /* [direction]: the keys (gb_key) of every point of every line, black's and white's
       side by side at 2 * (line * GB_STRIDE + the point's position on it (gb_line_pos)) +
       colour index, kept up to date by adding a stone's weight to the 10 windows it
       enters (the keys of points off the board: unused); GB_KEY_PAD more entries so that
       a window's 24 can be read from its start */
    uint16_t key[4][2 * GB_LINES * GB_STRIDE + GB_KEY_PAD];
    uint8_t pc[2][GB_CELLS][4]; /* pattern of each line at empty points (cached lookups) */
    uint8_t tl[2][GB_CELLS];    /* threat level per colour (TL_*) */
    uint16_t combo[2][GB_CELLS];  /* the 4 line patterns as a combo (GB_COMBO_NONE on
                                     stones and off the board), per colour */
    int32_t etot[2][2];         /* [colour - 1][role]: sum of the fitted values over empty points */
    int cnt[2][TL_N];           /* number of empty points at each threat level */
    uint8_t near[GB_CELLS];     /* stones within 2 points (5x5 square around) */
    uint16_t stack[RV_GOMOKU_MAX_POINTS];
    gb_box box[RV_GOMOKU_MAX_POINTS + 1]; /* [n]: of the loaded stones and stack[0..n) */
    uint8_t nlog[GB_LOG_PLIES];                    /* entries logged by each move */
    gb_saved log[GB_LOG_PLIES][GB_LOG_PER_PLY]; /* the points' state before each move */
    gb_sums sums[GB_LOG_PLIES];                    /* the sums before each move */
    /* The position for rv_gomoku_forbidden (Renju), kept up to date only when asked
       (gb_forbidden): it holds the loaded position and the moves mstack[0..nmirror),
       of which the first `mirrored` are the board's stack[0..mirrored) still. */
    rv_gomoku g;
    int mirrored, nmirror;
    uint16_t mstack[RV_GOMOKU_MAX_POINTS];
} gboard;

extern const int gb_dir[4];

/* Fills t for the rule (no-op when already built for it). */
void gb_tables_build(gb_tables *t, rv_gomoku_rule rule, uint64_t seed);

/* Loads position g into b (tables t must be built for g's rule). */
void gb_load(gboard *b, const gb_tables *t, const rv_gomoku *g);

/* Places a stone of the side to move at padded index p / takes back the last. */
void gb_play(gboard *b, int p);
void gb_undo(gboard *b);

static inline int gb_index(int x, int y) { return (y + GB_PAD) * GB_STRIDE + x + GB_PAD; }
static inline int gb_x(int p) { return p % GB_STRIDE - GB_PAD; }
static inline int gb_y(int p) { return p / GB_STRIDE - GB_PAD; }

/* The line through padded index p in direction d, and p's bit on it (the bit grows
   with the step gb_dir[d]). */
static inline int gb_line_of(int p, int d) {
    int x = p % GB_STRIDE, y = p / GB_STRIDE;
    return d == 0 ? y : d == 1 ? x : d == 2 ? x - y + GB_STRIDE - 1 : x + y;
}
static inline int gb_line_pos(int p, int d) { return d == 0 ? p % GB_STRIDE : p / GB_STRIDE; }

/* The key of colour index c (0 black, 1 white) at p in direction d: the 5 points on
   either side in base 3 (own stone 1, opponent's or off the board 2; lines.h's
   rv_line_tern weights). */
int gb_key(const gboard *b, int c, int d, int p);

/* The same key as kept by the board (gboard's key; read by update_patterns). */
static inline int gb_key_kept(const gboard *b, int c, int d, int p) {
    return b->key[d][2 * (gb_line_of(p, d) * GB_STRIDE + gb_line_pos(p, d)) + c];
}

/* The hand-set value (move ordering) of colour index c (0 black, 1 white) playing the
   empty point p: its combo's (0 on a stone). */
static inline int gb_val(const gboard *b, int c, int p) {
    return b->t->combo[c][b->combo[c][p]].val;
}

/* Pattern of colour c (1/2) at p in direction d. */
static inline int gb_pat(const gboard *b, int c, int p, int d) { return b->pc[c - 1][p][d]; }

/* Could the empty point p be forbidden to black under Renju, by black's line patterns
   there? Only where black makes no five and makes an overline, an open four, or an open
   three or more on two lines (the exact verdict: gb_forbidden). */
static inline int gb_black_may_be_forbidden(const gboard *b, int p) {
    return b->t->combo[RV_BLACK - 1][b->combo[RV_BLACK - 1][p]].maybe_forbidden;
}

/* rv_gomoku_forbidden for black at the empty point p of the board (Renju): the mirror
   position b->g is brought up to date first. */
rv_forbid_kind gb_forbidden(gboard *b, int p);

/* True when the side to move may play the point p: empty, and under Renju not forbidden
   to black. */
static inline int gb_legal(gboard *b, int p) {
    if (b->cell[p] != 0) return 0;
    if (!b->renju || b->stm != RV_BLACK) return 1;
    return !gb_black_may_be_forbidden(b, p) || gb_forbidden(b, p) == RV_FORBID_NONE;
}

/* True when colour c playing p would make a four (or five) on some line. */
static inline int gb_makes_four(const gboard *b, int c, int p) {
    for (int d = 0; d < 4; d++) {
        int k = gb_pat(b, c, p, d);
        if (k >= PAT_BLOCK4 && k <= PAT_FIVE) return 1;
    }
    return 0;
}

/*
 * The threat term of the fitted evaluation that applies for the side to move
 * (GB_X_FOUR3, GB_X_THREE3, GB_X_FOUR3W), or GB_X_TEMPO when none does: threats it
 * can cash before the opponent answers (with no four to play back, a four-three
 * wins and a double open three nearly always does).
 */
static inline int gb_threat_term(const gboard *b) {
    int us = b->stm - 1, them = 1 - us;
    int their_fours = b->cnt[them][TL_FOUR] + b->cnt[them][TL_FOUR3];
    if (b->cnt[us][TL_FOUR3] && !their_fours) return GB_X_FOUR3;
    if (b->cnt[us][TL_THREE3] && !their_fours && !b->cnt[them][TL_FLEX4]) return GB_X_THREE3;
    if (b->cnt[us][TL_FOUR3] && !b->cnt[them][TL_FOUR]) return GB_X_FOUR3W;
    return GB_X_TEMPO;
}

/*
 * The fitted move score of the empty point p for the side to move: the log-odds, in
 * GB_MS_UNIT per logit, that p is the move a deeper search plays here, from both
 * colours' line patterns at p (what the side to move makes, what it blocks, and both
 * threat levels together). Compare points of one position; higher is likelier. The
 * Renju forbidden check is not in it (gb_legal).
 */
static inline int gb_move_score(const gboard *b, int p) {
    int us = b->stm - 1, them = 1 - us;
    const gb_tables *t = b->t;
    return t->ms[us][0][b->combo[us][p]] + t->ms[us][1][b->combo[them][p]] +
           t->ms_pair[us][b->tl[us][p]][b->tl[them][p]];
}

/* The threat level colour c (1/2) would have at the empty point q if the other colour
   held the empty point p: q's line through p is looked up again (p off q's lines, or
   more than 5 points away: q's level as it is). For the search's exact defences. */
int gb_tl_if_blocked(const gboard *b, int c, int q, int p);

/* Collects the empty points where colour c has threat level >= lvl (at most max). */
int gb_collect(const gboard *b, int c, int lvl, int *out, int max);

/* gb_collect's five points of colour c, looking only along the lines through p (within 4
   points) where p made a four: the same answer when p is the last stone gb_play placed,
   it is c's, and c had no five point before it. */
int gb_collect_fives_through(const gboard *b, int c, int p, int *out, int max);

#endif
