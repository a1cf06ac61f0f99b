/*
 * The pattern evaluation's features (internal).  A pattern is a set of up to
 * ten squares; its configuration (each square empty, the mover's or the
 * other side's) is a base-3 index into a table of weights.  Every pattern is
 * used in all the places the eight symmetries of the board carry it to
 * ("instances"), sharing one table, and each weight table is itself
 * symmetric, so the evaluation is exactly the same for a position and its
 * mirror images.
 *
 * An instance is evaluated on a transformed board: rv_pat_transform(b, k)
 * moves the instance's squares onto the pattern's canonical squares, and the
 * digits are read in ascending canonical square order (digit 0 = the lowest
 * square, weight 3^0).  The instance list, the base-3 conversion table and the
 * weights are generated at build time (tools/gen_eval_tables.c) from the
 * definitions below and from the fitted weights (eval_weights.bin), which
 * the project's own tool fits (tools/othello_train.c, `make weights`).
 *
 * Feature groups, in this order within the weights of one stage:
 *   the RV_PAT_TYPES patterns (3^size weights each),
 *   mobility of the side to move (RV_PAT_MOB entries, capped),
 *   mobility of the other side (RV_PAT_MOB entries),
 *   the number of empty squares within the stage (RV_PAT_BIAS entries).
 * A stage covers four numbers of empty squares: stage = min(empties / 4, 14).
 */
#ifndef RV_REVERSI_PATTERN_H
#define RV_REVERSI_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#define RV_PAT_TYPES 11
#define RV_PAT_INSTANCES 46
#define RV_PAT_STAGES 15
#define RV_PAT_MOB 34  /* mobility 0..33 */
#define RV_PAT_BIAS 5  /* empties - 4 * stage: 0..4 */
#define RV_PAT_GROUPS (RV_PAT_TYPES + 3)
/* Features of one position: one per instance, then the three extra groups. */
#define RV_PAT_FEATURES (RV_PAT_INSTANCES + 3)
/* Weights are stored in 1/RV_PAT_SCALE discs. */
#define RV_PAT_SCALE 128

/* The canonical squares of each pattern type (bit i = square i, a1 = 0). */
#define RV_PAT_MASKS                                                                     \
    {                                                                                    \
        0x00000000000042FFULL, /* edge + 2 X-squares (10) */                             \
        0x0000000000070707ULL, /* corner 3x3 (9) */                                      \
        0x0000000000001F1FULL, /* corner 2x5 (10) */                                     \
        0x000000000000FF00ULL, /* second line (8) */                                     \
        0x0000000000FF0000ULL, /* third line (8) */                                      \
        0x00000000FF000000ULL, /* fourth line (8) */                                     \
        0x8040201008040201ULL, /* main diagonal (8) */                                   \
        0x0080402010080402ULL, /* diagonal of 7 */                                       \
        0x0000804020100804ULL, /* diagonal of 6 */                                       \
        0x0000008040201008ULL, /* diagonal of 5 */                                       \
        0x0000000080402010ULL, /* diagonal of 4 */                                       \
    }

static inline int rv_pat_stage(int empties) { return empties / 4 < 14 ? empties / 4 : 14; }

/* The board b under symmetry k (0..7): bit 0 of k flips the rows, bit 1 the
 * columns, bit 2 then transposes (a1-h8 diagonal). */
static inline uint64_t rv_pat_transform(uint64_t b, int k) {
    if (k & 1) b = __builtin_bswap64(b);
    if (k & 2) {
        b = ((b >> 1) & 0x5555555555555555ULL) | ((b & 0x5555555555555555ULL) << 1);
        b = ((b >> 2) & 0x3333333333333333ULL) | ((b & 0x3333333333333333ULL) << 2);
        b = ((b >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((b & 0x0F0F0F0F0F0F0F0FULL) << 4);
    }
    if (k & 4) {
        uint64_t t;
        t = 0x0F0F0F0F00000000ULL & (b ^ (b << 28));
        b ^= t ^ (t >> 28);
        t = 0x3333000033330000ULL & (b ^ (b << 14));
        b ^= t ^ (t >> 14);
        t = 0x5500550055005500ULL & (b ^ (b << 7));
        b ^= t ^ (t >> 7);
    }
    return b;
}

/* ---- generated at build time (build/generated/eval_tables.c) ---- */

/* Pattern type and board symmetry of each instance. */
extern const uint8_t rv_pat_inst_type[RV_PAT_INSTANCES];
extern const uint8_t rv_pat_inst_sym[RV_PAT_INSTANCES];
/* The canonical mask of each type (RV_PAT_MASKS). */
extern const uint64_t rv_pat_mask[RV_PAT_TYPES];
/* Offset of each feature group within a stage's weights; [RV_PAT_GROUPS] is
 * the number of weights of a stage. */
extern const uint32_t rv_pat_offset[RV_PAT_GROUPS + 1];
/* rv_pat_b3[bits] = the bits read as base-3 digits (0/1): 10-bit patterns. */
extern const uint16_t rv_pat_b3[1024];
/* The instances that read square x: rv_pat_sq_refs[x][0 .. rv_pat_sq_n[x] - 1],
 * each with the power of 3 of x's digit in that instance's index. */
#define RV_PAT_SQ_MAX 12
typedef struct rv_pat_sq_ref {
    uint8_t inst;
    uint16_t pow3;
} rv_pat_sq_ref;
extern const uint8_t rv_pat_sq_n[64];
extern const rv_pat_sq_ref rv_pat_sq_refs[64][RV_PAT_SQ_MAX];
/* The same as one vector per square: rv_pat_sq_delta[x][i] is the power of 3
 * of x's digit in instance i's index, 0 where instance i does not read x
 * (and in the padding, entries RV_PAT_INSTANCES .. RV_PAT_IDX_N - 1). */
#define RV_PAT_IDX_N 48
extern const uint16_t rv_pat_sq_delta[64][RV_PAT_IDX_N];
/* rv_pat_offset[] of each instance's pattern type. */
extern const uint32_t rv_pat_inst_offset[RV_PAT_INSTANCES];
/* The weights: RV_PAT_STAGES blocks of rv_pat_offset[RV_PAT_GROUPS] int16
 * values, little-endian bytes (a string literal compiles fast). */
extern const unsigned char rv_pat_weight_bytes[];

/* Weight i of the whole table w (rv_pat_weight_bytes, the built-in weights,
 * or weights an engine loaded: the same layout). */
static inline int rv_pat_weight(const unsigned char *w, uint32_t i) {
    const unsigned char *b = w + 2 * (size_t)i;
    return (int16_t)(uint16_t)(b[0] | b[1] << 8);
}

/* ---- pattern.c ---- */

/*
 * The features of (P, O), P to move: out[i] is the index of the weight used
 * by feature i within its stage (instances first, then mobility, the other
 * side's mobility, the empties-in-stage bias).  Used by the trainer.
 */
void rv_pat_features(uint64_t P, uint64_t O, uint32_t out[RV_PAT_FEATURES]);

/*
 * Incremental feature indices, for a search that makes moves: idx[0] holds
 * each instance's base-3 index (without its type's offset) with the side to
 * move's discs as digit 1 and the other side's as 2; idx[1] the same with the
 * sides' roles exchanged.  Kept up to date by rv_pat_state_move() and
 * rv_pat_state_pass(), it gives the same evaluation as rv_pat_eval().
 */
typedef struct rv_pat_state {
    uint16_t idx[2][RV_PAT_IDX_N]; /* entries from RV_PAT_INSTANCES on are 0 */
} rv_pat_state;

/* The state of (P, O), P to move. */
void rv_pat_state_init(rv_pat_state *s, uint64_t P, uint64_t O);
/* The same with the pext instruction (CPUs with BMI2; as rv_pat_eval_bmi2). */
void rv_pat_state_init_bmi2(rv_pat_state *s, uint64_t P, uint64_t O);

/* out = the state after the side to move of s plays sq flipping flips (out
 * is then for the other side to move); out must not be s.  Whole vectors of
 * instances at a time (the loops have a fixed length; compilers vectorize
 * them): the placed disc adds its powers of 3 (empty -> mine: digit 0 -> 1,
 * empty -> other: 0 -> 2), each flipped disc moves its digits 2 -> 1 for
 * the mover and 1 -> 2 for the other side. */
static inline void rv_pat_state_move(const rv_pat_state *s, rv_pat_state *out, int sq,
                                     uint64_t flips) {
    uint16_t f[RV_PAT_IDX_N] = {0};
    for (; flips; flips &= flips - 1) {
        const uint16_t *d = rv_pat_sq_delta[__builtin_ctzll(flips)];
        for (int i = 0; i < RV_PAT_IDX_N; i++) f[i] = (uint16_t)(f[i] + d[i]);
    }
    const uint16_t *d = rv_pat_sq_delta[sq];
    for (int i = 0; i < RV_PAT_IDX_N; i++) {
        out->idx[1][i] = (uint16_t)(s->idx[0][i] + d[i] - f[i]);
        out->idx[0][i] = (uint16_t)(s->idx[1][i] + 2 * d[i] + f[i]);
    }
}

/* out = s with the turn passed to the other side. */
static inline void rv_pat_state_pass(const rv_pat_state *s, rv_pat_state *out) {
    for (int i = 0; i < RV_PAT_IDX_N; i++) {
        uint16_t t = s->idx[0][i];
        out->idx[0][i] = s->idx[1][i];
        out->idx[1][i] = t;
    }
}

/* The pattern evaluation with the weights w of (P, O), whose state is s, in
 * 1/RV_PAT_SCALE discs for P to move (the same value as rv_pat_eval(w, P, O));
 * mob is P's number of legal moves when the caller has counted them (the
 * search orders moves by it), else -1; omob the same for O's (the exact
 * solver's ordering keys count both). */
int rv_pat_eval_state(const unsigned char *w, const rv_pat_state *s, uint64_t P, uint64_t O,
                      int mob, int omob);
/* The same with AVX2 (the weights read by vector gathers) and BMI2: only on
 * CPUs that have them (rv_reversi_simd_best() is not RV_REVERSI_SIMD_PLAIN). */
int rv_pat_eval_state_bmi2(const unsigned char *w, const rv_pat_state *s, uint64_t P, uint64_t O,
                           int mob, int omob);

/* The pattern evaluation with the weights w of (P, O) in 1/RV_PAT_SCALE discs
 * for P to move. */
int rv_pat_eval(const unsigned char *w, uint64_t P, uint64_t O);
/* The same with BMI2 (pext) and AVX2: only on CPUs that have them
 * (rv_reversi_simd_best() is not RV_REVERSI_SIMD_PLAIN). */
int rv_pat_eval_bmi2(const unsigned char *w, uint64_t P, uint64_t O);

/* ---- the weights file (eval_weights.bin), all little-endian ----
 *   "RVEW"  u32 version (1)  u32 stages  u32 weights per stage
 *   u32 FNV-1a hash of the weight bytes, then the int16 weights. */
#define RV_PAT_FILE_MAGIC "RVEW"
#define RV_PAT_FILE_VERSION 1
#define RV_PAT_FILE_HEADER 20

/* ---- a refit's changes (eval_weights_rN.delta), all little-endian ----
 *   "RVED"  u32 version (1)  u32 stages  u32 weights per stage
 *   u32 number of changed weights  u32 FNV-1a hash of the weight bytes after
 *   the change, then per changed weight two unsigned LEB128 varints: the
 *   distance from the previous changed weight minus 1 (the first: its index
 *   in the whole table) and the change, zigzag-coded (0, -1, 1, -2, ...).
 * The build applies the deltas listed in CMakeLists.txt to eval_weights.bin
 * in order, so a refit adds only what changed to the repository. */
#define RV_PAT_DELTA_MAGIC "RVED"
#define RV_PAT_DELTA_VERSION 1
#define RV_PAT_DELTA_HEADER 24

/* The weights file's checksum: FNV-1a (32 bits) of n bytes. */
static inline uint32_t rv_pat_file_hash(const unsigned char *p, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
    return h;
}

#endif
