/*
 * Build-time generator of the pattern evaluation's tables (run by CMake,
 * output in the build tree).
 * Usage: gen_eval_tables [--smooth FROM] WEIGHTS.bin [DELTA...] OUTPUT.c
 * (each DELTA, a refit's changes, is applied in order; see pattern.h; with
 * --smooth, each stage from FROM on is then averaged with half of each
 * neighbouring stage from FROM on: see smooth_stages()).
 *
 * From the pattern masks of src/reversi/pattern.h it derives the instances
 * (each distinct image of a pattern under the eight board symmetries, with
 * the symmetry that carries it back), the offsets of the feature groups and
 * the base-3 table, the instances each square belongs to (for the
 * incremental update of the feature indices); it checks the weights file (tools/othello_train.c writes
 * it) against them and emits the weights as a string literal.
 */
#include "reversi/pattern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t rd32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Reads an unsigned LEB128 varint from *p (below end); -1 if cut short. */
static int rd_varint(const unsigned char **p, const unsigned char *end, uint32_t *v) {
    uint32_t x = 0;
    for (int shift = 0; shift < 32; shift += 7) {
        if (*p >= end) return -1;
        unsigned char c = *(*p)++;
        x |= (uint32_t)(c & 0x7F) << shift;
        if (!(c & 0x80)) {
            *v = x;
            return 0;
        }
    }
    return -1;
}

/* Applies the delta file at path to the weight bytes w (nw weights a stage). */
static int apply_delta(const char *path, unsigned char *w, uint32_t nw) {
    FILE *in = fopen(path, "rb");
    if (!in) {
        perror(path);
        return 1;
    }
    size_t total = (size_t)nw * RV_PAT_STAGES, cap = RV_PAT_DELTA_HEADER + 10 * total + 1;
    unsigned char *buf = malloc(cap);
    if (!buf) return 1;
    size_t got = fread(buf, 1, cap, in);
    fclose(in);
    const unsigned char *p = buf + RV_PAT_DELTA_HEADER, *end = buf + got;
    int bad = got < RV_PAT_DELTA_HEADER || got == cap || memcmp(buf, RV_PAT_DELTA_MAGIC, 4) ||
              rd32(buf + 4) != RV_PAT_DELTA_VERSION || rd32(buf + 8) != RV_PAT_STAGES ||
              rd32(buf + 12) != nw;
    uint32_t n = bad ? 0 : rd32(buf + 16);
    size_t idx = (size_t)-1;
    for (uint32_t k = 0; k < n && !bad; k++) {
        uint32_t gap, z;
        if (rd_varint(&p, end, &gap) || rd_varint(&p, end, &z)) {
            bad = 1;
            break;
        }
        idx += (size_t)gap + 1;
        if (idx >= total) {
            bad = 1;
            break;
        }
        int32_t d = (int32_t)(z >> 1) ^ -(int32_t)(z & 1);
        int v = (int16_t)(uint16_t)(w[2 * idx] | w[2 * idx + 1] << 8) + d;
        if (v < -32767 || v > 32767) {
            bad = 1;
            break;
        }
        w[2 * idx] = (unsigned char)((uint16_t)v & 0xFF);
        w[2 * idx + 1] = (unsigned char)((uint16_t)v >> 8);
    }
    if (bad || p != end) {
        fprintf(stderr,
                "gen_eval_tables: %s is not a weights delta for the patterns of "
                "src/reversi/pattern.h (%u stages of %u weights); refit with `make weights`\n",
                path, (unsigned)RV_PAT_STAGES, (unsigned)nw);
        free(buf);
        return 1;
    }
    if (rv_pat_file_hash(w, 2 * total) != rd32(buf + 20)) {
        fprintf(stderr, "gen_eval_tables: %s does not apply to these weights (checksum)\n", path);
        free(buf);
        return 1;
    }
    free(buf);
    return 0;
}

/*
 * Each stage s >= from becomes (2 w[s] + w[s-1] + w[s+1]) / 4, a neighbour
 * below from or past the last stage left out ((2 w[s] + w[s+1]) / 3 at s =
 * from), rounded to nearest, from the unsmoothed values.  The stages are
 * fitted separately, each on its own positions: averaging neighbours trades a
 * little of the stage's own shape for much less noise (docs/engine-othello.md).
 */
static int smooth_stages(unsigned char *w, uint32_t nw, int from) {
    size_t total = (size_t)nw * RV_PAT_STAGES;
    int16_t *v = malloc(total * sizeof *v);
    if (!v) return 1;
    for (size_t i = 0; i < total; i++) v[i] = (int16_t)(uint16_t)(w[2 * i] | w[2 * i + 1] << 8);
    for (int s = from; s < RV_PAT_STAGES; s++) {
        int lo = s > from, hi = s + 1 < RV_PAT_STAGES, den = 2 + lo + hi;
        for (uint32_t i = 0; i < nw; i++) {
            long sum = 2L * v[(size_t)s * nw + i];
            if (lo) sum += v[(size_t)(s - 1) * nw + i];
            if (hi) sum += v[(size_t)(s + 1) * nw + i];
            long q = sum >= 0 ? (2 * sum + den) / (2 * den) : -((-2 * sum + den) / (2 * den));
            uint16_t u = (uint16_t)(int16_t)q;
            w[2 * ((size_t)s * nw + i)] = (unsigned char)(u & 0xFF);
            w[2 * ((size_t)s * nw + i) + 1] = (unsigned char)(u >> 8);
        }
    }
    free(v);
    return 0;
}

/* The squares whose discs symmetry k moves onto mask m. */
static uint64_t preimage(uint64_t m, int k) {
    uint64_t s = 0;
    for (int p = 0; p < 64; p++)
        if (rv_pat_transform(1ULL << p, k) & m) s |= 1ULL << p;
    return s;
}

int main(int argc, char **argv) {
    int smooth_from = -1;
    if (argc > 2 && !strcmp(argv[1], "--smooth")) {
        char *end;
        long v = strtol(argv[2], &end, 10);
        if (end == argv[2] || *end || v < 0 || v >= RV_PAT_STAGES) {
            fprintf(stderr, "gen_eval_tables: --smooth wants a stage 0..%d\n", RV_PAT_STAGES - 1);
            return 2;
        }
        smooth_from = (int)v;
        argv += 2;
        argc -= 2;
    }
    if (argc < 3) {
        fprintf(stderr, "usage: gen_eval_tables [--smooth FROM] WEIGHTS.bin [DELTA...] OUTPUT.c\n");
        return 2;
    }
    const char *out_path = argv[argc - 1];
    static const uint64_t masks[RV_PAT_TYPES] = RV_PAT_MASKS;
    uint8_t itype[64], isym[64];
    int ni = 0;
    uint32_t off[RV_PAT_GROUPS + 1];
    uint32_t o = 0;
    for (int t = 0; t < RV_PAT_TYPES; t++) {
        uint64_t seen[8];
        int ns = 0;
        for (int k = 0; k < 8; k++) {
            uint64_t s = preimage(masks[t], k);
            int dup = 0;
            for (int j = 0; j < ns; j++) dup |= seen[j] == s;
            if (dup) continue;
            seen[ns++] = s;
            itype[ni] = (uint8_t)t;
            isym[ni++] = (uint8_t)k;
        }
        off[t] = o;
        uint32_t n = 1;
        for (int b = __builtin_popcountll(masks[t]); b > 0; b--) n *= 3;
        o += n;
        if (__builtin_popcountll(masks[t]) > 10) {
            fprintf(stderr, "gen_eval_tables: pattern %d has more than 10 squares\n", t);
            return 1;
        }
    }
    off[RV_PAT_TYPES] = o;
    o += RV_PAT_MOB;
    off[RV_PAT_TYPES + 1] = o;
    o += RV_PAT_MOB;
    off[RV_PAT_TYPES + 2] = o;
    o += RV_PAT_BIAS;
    off[RV_PAT_GROUPS] = o;
    if (ni != RV_PAT_INSTANCES) {
        fprintf(stderr, "gen_eval_tables: %d instances, pattern.h says %d\n", ni, RV_PAT_INSTANCES);
        return 1;
    }

    /* The weights file. */
    FILE *in = fopen(argv[1], "rb");
    if (!in) {
        perror(argv[1]);
        return 1;
    }
    size_t want = (size_t)o * RV_PAT_STAGES * 2, cap = want + RV_PAT_FILE_HEADER + 1;
    unsigned char *buf = malloc(cap);
    if (!buf) return 1;
    size_t got = fread(buf, 1, cap, in);
    fclose(in);
    if (got != want + RV_PAT_FILE_HEADER || memcmp(buf, RV_PAT_FILE_MAGIC, 4) ||
        rd32(buf + 4) != RV_PAT_FILE_VERSION || rd32(buf + 8) != RV_PAT_STAGES ||
        rd32(buf + 12) != o) {
        fprintf(stderr,
                "gen_eval_tables: %s does not match the patterns of src/reversi/pattern.h "
                "(%u stages of %u weights expected); refit with `make weights`\n",
                argv[1], (unsigned)RV_PAT_STAGES, (unsigned)o);
        return 1;
    }
    if (rv_pat_file_hash(buf + RV_PAT_FILE_HEADER, want) != rd32(buf + 16)) {
        fprintf(stderr, "gen_eval_tables: %s is damaged (checksum)\n", argv[1]);
        return 1;
    }

    for (int a = 2; a < argc - 1; a++)
        if (apply_delta(argv[a], buf + RV_PAT_FILE_HEADER, o)) return 1;
    if (smooth_from >= 0 && smooth_stages(buf + RV_PAT_FILE_HEADER, o, smooth_from)) return 1;

    FILE *f = fopen(out_path, "w");
    if (!f) {
        perror(out_path);
        return 1;
    }
    fprintf(f, "/* Generated by tools/gen_eval_tables.c at build time: do not edit. */\n"
               "#include \"reversi/pattern.h\"\n\n");
    fprintf(f, "const uint8_t rv_pat_inst_type[RV_PAT_INSTANCES] = {");
    for (int i = 0; i < ni; i++) fprintf(f, "%s%u", i ? "," : "", itype[i]);
    fprintf(f, "};\nconst uint8_t rv_pat_inst_sym[RV_PAT_INSTANCES] = {");
    for (int i = 0; i < ni; i++) fprintf(f, "%s%u", i ? "," : "", isym[i]);
    fprintf(f, "};\nconst uint64_t rv_pat_mask[RV_PAT_TYPES] = RV_PAT_MASKS;\n");
    fprintf(f, "const uint32_t rv_pat_offset[RV_PAT_GROUPS + 1] = {");
    for (int g = 0; g <= RV_PAT_GROUPS; g++) fprintf(f, "%s%u", g ? "," : "", off[g]);
    fprintf(f, "};\nconst uint16_t rv_pat_b3[1024] = {");
    for (unsigned b = 0; b < 1024; b++) {
        unsigned v = 0, w = 1;
        for (int j = 0; j < 10; j++, w *= 3)
            if (b >> j & 1) v += w;
        fprintf(f, "%s%u", b ? (b % 16 ? "," : ",\n") : "\n", v);
    }
    fprintf(f, "};\n");
    /* Per square: the instances reading it and the power of 3 of its digit. */
    int sq_n[64] = {0};
    unsigned sq_inst[64][RV_PAT_SQ_MAX], sq_pow[64][RV_PAT_SQ_MAX];
    for (int i = 0; i < ni; i++) {
        uint64_t m = masks[itype[i]];
        unsigned pw = 1;
        for (; m; m &= m - 1, pw *= 3) {
            int c = __builtin_ctzll(m), x = -1;
            for (int p = 0; p < 64; p++)
                if (rv_pat_transform(1ULL << p, isym[i]) == 1ULL << c) x = p;
            if (x < 0 || sq_n[x] >= RV_PAT_SQ_MAX) {
                fprintf(stderr, "gen_eval_tables: square %d is in more than %d instances\n", x,
                        RV_PAT_SQ_MAX);
                return 1;
            }
            sq_inst[x][sq_n[x]] = (unsigned)i;
            sq_pow[x][sq_n[x]++] = pw;
        }
    }
    fprintf(f, "const uint8_t rv_pat_sq_n[64] = {");
    for (int x = 0; x < 64; x++) fprintf(f, "%s%d", x ? "," : "", sq_n[x]);
    fprintf(f, "};\nconst rv_pat_sq_ref rv_pat_sq_refs[64][RV_PAT_SQ_MAX] = {\n");
    for (int x = 0; x < 64; x++) {
        fprintf(f, "  {");
        for (int j = 0; j < sq_n[x]; j++) fprintf(f, "%s{%u,%u}", j ? "," : "", sq_inst[x][j], sq_pow[x][j]);
        fprintf(f, "},\n");
    }
    fprintf(f, "};\n_Alignas(32) const uint16_t rv_pat_sq_delta[64][RV_PAT_IDX_N] = {\n");
    for (int x = 0; x < 64; x++) {
        unsigned row[RV_PAT_IDX_N] = {0};
        for (int j = 0; j < sq_n[x]; j++) row[sq_inst[x][j]] = sq_pow[x][j];
        fprintf(f, "  {");
        for (int i = 0; i < RV_PAT_IDX_N; i++) fprintf(f, "%s%u", i ? "," : "", row[i]);
        fprintf(f, "},\n");
    }
    fprintf(f, "};\nconst uint32_t rv_pat_inst_offset[RV_PAT_INSTANCES] = {");
    for (int i = 0; i < ni; i++) fprintf(f, "%s%u", i ? "," : "", off[itype[i]]);
    fprintf(f, "};\nconst unsigned char rv_pat_weight_bytes[] =\n");
    for (size_t i = 0; i < want; i++) {
        if (i % 48 == 0) fprintf(f, "%s\"", i ? "\"\n" : "");
        fprintf(f, "\\%o", buf[RV_PAT_FILE_HEADER + i]);
    }
    fprintf(f, "\";\n");
    free(buf);
    if (fclose(f) != 0) {
        fprintf(stderr, "gen_eval_tables: error writing %s\n", out_path);
        return 1;
    }
    return 0;
}
