/*
 * Multi-ProbCut (internal): the midgame search cuts a node of depth d when a
 * shallow search of the same position, to depth rv_pc_shallow(d), predicts
 * with enough confidence that the deep search would fall outside the window.
 * The prediction is the linear regression deep = a * shallow + b, whose
 * residuals have standard deviation sigma, fitted per stage (empties / 4)
 * and depth on the project's own positions by `rv-train probcut-fit`
 * (tools/othello_train.c; refit with scripts/fit-probcut.sh, see
 * docs/engine-othello.md).  The fitted numbers are in probcut_table.c.
 */
#ifndef RV_REVERSI_PROBCUT_H
#define RV_REVERSI_PROBCUT_H

#define RV_PC_MIN_DEPTH 3  /* shallowest depth that is cut */
#define RV_PC_MAX_DEPTH 11 /* deepest calibrated depth (deeper nodes use it too) */
#define RV_PC_STAGES 16    /* stage = empties / 4 (0..15) */

typedef struct rv_pc_param {
    float a, b, sigma; /* deep = a * shallow + b, residual sd; centidiscs */
} rv_pc_param;

/* [stage][depth]; entries with sigma <= 0 are not used. */
extern const rv_pc_param rv_pc_table[RV_PC_STAGES][RV_PC_MAX_DEPTH + 1];

/* The depth of the shallow search that predicts a search of depth d (same
 * parity as d: Othello scores alternate with the parity of the depth). */
static inline int rv_pc_shallow(int d) { return 2 * (d / 4) + (d & 1); }

/* The calibration of depth d at e empties. */
static inline const rv_pc_param *rv_pc_get(int e, int d) {
    int st = e / 4 < RV_PC_STAGES ? e / 4 : RV_PC_STAGES - 1;
    if (d > RV_PC_MAX_DEPTH) d = RV_PC_MAX_DEPTH - ((d - RV_PC_MAX_DEPTH) & 1);
    return &rv_pc_table[st][d];
}

#endif
