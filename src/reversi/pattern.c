/*
 * The pattern evaluation: the sum of one fitted weight per pattern instance,
 * per mobility count of each side and per number of empty squares (see
 * pattern.h).  Reading an instance's configuration is two bit gathers (pext)
 * and two lookups in the base-3 table; CPUs with BMI2 get a copy that uses
 * the pext instruction and AVX2 mobility counts, chosen at run time
 * (rv_pat_eval_bmi2, on CPUs with AVX2: rv_reversi_simd_best() is not PLAIN).
 * The search's evaluation from the incremental indices (rv_pat_eval_state)
 * is 46 weight reads scattered over a stage's 330 KB of weights; its AVX2
 * copy reads them with six vector gathers (the same sum, exactly).
 */
#include "reversi/pattern.h"

#include "renversi/reversi.h"
#include "reversi/ai_internal.h"

#include "reversi/bitboard_simd.h"

#include <string.h>

#if RV_REVERSI_X86_SIMD
#define PAT_HAVE_BMI2 1
#endif

/* The bits of b under mask m, packed to the low end (pext in plain C). */
static inline uint64_t pext_soft(uint64_t b, uint64_t m) {
    uint64_t r = 0, bit = 1;
    for (; m; m &= m - 1, bit <<= 1)
        if (b & m & -m) r |= bit;
    return r;
}

/* The eight symmetric images of b, in rv_pat_transform() order. */
static inline void images(uint64_t b, uint64_t out[8]) {
    out[0] = b;
    out[1] = rv_pat_transform(b, 1);
    out[2] = rv_pat_transform(b, 2);
    out[3] = rv_pat_transform(out[1], 2);
    for (int k = 0; k < 4; k++) out[k + 4] = rv_pat_transform(out[k], 4);
}

static inline int mob_count(int n) { return n < RV_PAT_MOB ? n : RV_PAT_MOB - 1; }
static inline int mob_index(uint64_t moves) { return mob_count(bit_count(moves)); }

/* The images-and-gather loop shared by PAT_FEATURES and PAT_STATE_INIT: for
 * each instance i_ (type t_), a_ and b_ are the base-3 indices of P's and
 * O's discs on its squares; the statements after PEXT run with them. */
#define PAT_FOR_INSTANCES(P, O, PEXT, ...)                                                 \
    do {                                                                                   \
        uint64_t tp_[8], to_[8];                                                           \
        images(P, tp_);                                                                    \
        images(O, to_);                                                                    \
        for (int i_ = 0; i_ < RV_PAT_INSTANCES; i_++) {                                    \
            int t_ = rv_pat_inst_type[i_], k_ = rv_pat_inst_sym[i_];                       \
            uint64_t m_ = rv_pat_mask[t_];                                                 \
            uint32_t a_ = rv_pat_b3[PEXT(tp_[k_], m_)], b_ = rv_pat_b3[PEXT(to_[k_], m_)]; \
            __VA_ARGS__                                                                    \
        }                                                                                  \
    } while (0)

/* Fills idx[] (feature indices within a stage) with the given gather; E is
 * the number of empty squares. */
#define PAT_FEATURES(P, O, E, PEXT, MOVES, idx)                                                   \
    do {                                                                                   \
        PAT_FOR_INSTANCES(P, O, PEXT, (idx)[i_] = rv_pat_offset[t_] + a_ + 2u * b_;);      \
        (idx)[RV_PAT_INSTANCES] =                                                          \
            rv_pat_offset[RV_PAT_TYPES] + (uint32_t)mob_index(MOVES(P, O));                \
        (idx)[RV_PAT_INSTANCES + 1] =                                                      \
            rv_pat_offset[RV_PAT_TYPES + 1] + (uint32_t)mob_index(MOVES(O, P));            \
        (idx)[RV_PAT_INSTANCES + 2] =                                                      \
            rv_pat_offset[RV_PAT_TYPES + 2] + (uint32_t)((E) - 4 * rv_pat_stage(E));        \
    } while (0)

void rv_pat_features(uint64_t P, uint64_t O, uint32_t out[RV_PAT_FEATURES]) {
    int e = bit_count(~(P | O));
    PAT_FEATURES(P, O, e, pext_soft, rv_reversi_moves_bb, out);
}

/* The sum of the weights of idx[] in the stage of e empty squares. */
static inline int sum_weights(const unsigned char *w, int e, const uint32_t idx[RV_PAT_FEATURES]) {
    uint32_t base = (uint32_t)rv_pat_stage(e) * rv_pat_offset[RV_PAT_GROUPS];
    int s = 0;
    for (int i = 0; i < RV_PAT_FEATURES; i++) s += rv_pat_weight(w, base + idx[i]);
    return s;
}

/* The state of (P, O): the symmetric images of each side once, one gather
 * per side and instance, each index with the sides in both roles (the
 * mobility and empties features of PAT_FEATURES are not part of a state). */
#define PAT_STATE_INIT(s, P, O, PEXT)                                                     \
    memset((s), 0, sizeof *(s));                                                          \
    PAT_FOR_INSTANCES(P, O, PEXT, {                                                       \
        uint32_t o_ = rv_pat_offset[t_] - rv_pat_inst_offset[i_];                         \
        (s)->idx[0][i_] = (uint16_t)(o_ + a_ + 2u * b_);                                  \
        (s)->idx[1][i_] = (uint16_t)(o_ + b_ + 2u * a_);                                  \
    })

void rv_pat_state_init(rv_pat_state *s, uint64_t P, uint64_t O) {
    PAT_STATE_INIT(s, P, O, pext_soft);
}

#ifdef PAT_HAVE_BMI2
RV_TARGET_AVX2 void rv_pat_state_init_bmi2(rv_pat_state *s, uint64_t P, uint64_t O) {
    PAT_STATE_INIT(s, P, O, _pext_u64);
}
#else
void rv_pat_state_init_bmi2(rv_pat_state *s, uint64_t P, uint64_t O) {
    rv_pat_state_init(s, P, O);
}
#endif

/* The sum of the weights of the state s of (P, O). */
#define PAT_EVAL_STATE(w, s, P, O, MOB, OMOB, MOVES)                                                         \
    do {                                                                                          \
        int e_ = bit_count(~((P) | (O)));                                                         \
        uint32_t base_ = (uint32_t)rv_pat_stage(e_) * rv_pat_offset[RV_PAT_GROUPS];               \
        int v_ = 0;                                                                               \
        for (int i_ = 0; i_ < RV_PAT_INSTANCES; i_++)                                             \
            v_ += rv_pat_weight((w), base_ + rv_pat_inst_offset[i_] + (s)->idx[0][i_]);                \
        v_ += rv_pat_weight((w), base_ + rv_pat_offset[RV_PAT_TYPES] +                                 \
                            (uint32_t)((MOB) >= 0 ? mob_count(MOB) : mob_index(MOVES(P, O)))); \
        v_ += rv_pat_weight((w), base_ + rv_pat_offset[RV_PAT_TYPES + 1] +                             \
                            (uint32_t)((OMOB) >= 0 ? mob_count(OMOB) : mob_index(MOVES(O, P)))); \
        v_ += rv_pat_weight((w), base_ + rv_pat_offset[RV_PAT_TYPES + 2] +                             \
                            (uint32_t)(e_ - 4 * rv_pat_stage(e_)));                               \
        return v_;                                                                                \
    } while (0)

int rv_pat_eval_state(const unsigned char *w, const rv_pat_state *s, uint64_t P, uint64_t O,
                      int mob, int omob) {
    PAT_EVAL_STATE(w, s, P, O, mob, omob, rv_reversi_moves_bb);
}

#ifdef PAT_HAVE_BMI2
/* Eight instances' weights at once: lanes of idx (uint16, from s) plus the
 * instances' offsets off, read as 32 bits at byte 2 * (base + off + idx) of w
 * (a pattern weight is always followed by more weights of its stage, so the
 * read stays inside the table) and sign-extended from the low 16 bits. */
static RV_TARGET_AVX2 inline __m256i gather8(const unsigned char *wb, const uint16_t *idx,
                                            const uint32_t *off, __m256i mask) {
    __m256i ix = _mm256_add_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)idx)),
                                  _mm256_loadu_si256((const __m256i *)off));
    __m256i g = _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), (const int *)wb, ix, mask, 2);
    return _mm256_srai_epi32(_mm256_slli_epi32(g, 16), 16);
}

RV_TARGET_AVX2 int rv_pat_eval_state_bmi2(const unsigned char *w, const rv_pat_state *s, uint64_t P,
                                          uint64_t O, int mob, int omob) {
    int e = bit_count(~(P | O));
    uint32_t base = (uint32_t)rv_pat_stage(e) * rv_pat_offset[RV_PAT_GROUPS];
    const unsigned char *wb = w + 2 * (size_t)base;
    const __m256i all = _mm256_set1_epi32(-1);
    const uint16_t *ix = s->idx[0];
    const uint32_t *off = rv_pat_inst_offset;
    __m256i acc = gather8(wb, ix, off, all);
    acc = _mm256_add_epi32(acc, gather8(wb, ix + 8, off + 8, all));
    acc = _mm256_add_epi32(acc, gather8(wb, ix + 16, off + 16, all));
    acc = _mm256_add_epi32(acc, gather8(wb, ix + 24, off + 24, all));
    acc = _mm256_add_epi32(acc, gather8(wb, ix + 32, off + 32, all));
    /* the last instances 40 .. RV_PAT_INSTANCES - 1, as the top lanes of a
     * group that ends at the last instance (its first lanes are masked off:
     * the group before read them) */
    _Static_assert(RV_PAT_INSTANCES > 40 && RV_PAT_INSTANCES <= 48, "six groups of eight");
    const __m256i tail = _mm256_cmpgt_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                                            _mm256_set1_epi32(48 - RV_PAT_INSTANCES - 1));
    const int last = RV_PAT_INSTANCES - 8;
    acc = _mm256_add_epi32(acc, gather8(wb, ix + last, off + last, tail));
    __m128i x = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
    x = _mm_add_epi32(x, _mm_unpackhi_epi64(x, x));
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 1));
    int v = _mm_cvtsi128_si32(x);
    uint32_t mp = (uint32_t)(mob >= 0 ? mob_count(mob) : mob_index(rv_reversi_moves_avx2(P, O)));
    uint32_t mo = (uint32_t)(omob >= 0 ? mob_count(omob) : mob_index(rv_reversi_moves_avx2(O, P)));
    v += rv_pat_weight(w, base + rv_pat_offset[RV_PAT_TYPES] + mp);
    v += rv_pat_weight(w, base + rv_pat_offset[RV_PAT_TYPES + 1] + mo);
    v += rv_pat_weight(w, base + rv_pat_offset[RV_PAT_TYPES + 2] + (uint32_t)(e - 4 * rv_pat_stage(e)));
    return v;
}
#else
int rv_pat_eval_state_bmi2(const unsigned char *w, const rv_pat_state *s, uint64_t P, uint64_t O,
                           int mob, int omob) {
    return rv_pat_eval_state(w, s, P, O, mob, omob);
}
#endif

int rv_pat_eval(const unsigned char *w, uint64_t P, uint64_t O) {
    uint32_t idx[RV_PAT_FEATURES];
    int e = bit_count(~(P | O));
    PAT_FEATURES(P, O, e, pext_soft, rv_reversi_moves_bb, idx);
    return sum_weights(w, e, idx);
}

#ifdef PAT_HAVE_BMI2
RV_TARGET_AVX2 int rv_pat_eval_bmi2(const unsigned char *w, uint64_t P, uint64_t O) {
    uint32_t idx[RV_PAT_FEATURES];
    int e = bit_count(~(P | O));
    PAT_FEATURES(P, O, e, _pext_u64, rv_reversi_moves_avx2, idx);
    return sum_weights(w, e, idx);
}
#else
int rv_pat_eval_bmi2(const unsigned char *w, uint64_t P, uint64_t O) { return rv_pat_eval(w, P, O); }
#endif
