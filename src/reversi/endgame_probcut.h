/*
 * The exact solver's ProbCut model (its selective passes, endgame.c): the
 * exact final score of a position predicted from a midgame search of depth d
 * as shallow + rv_eg_pc_bias[d], with residual standard deviation
 * rv_eg_pc_sigma[d] (both in centidiscs, side to move).  The table
 * (endgame_probcut.c) is written by `rv-train eg-probcut-fit`
 * (scripts/fit-eg-probcut.sh); it only decides how much the selective passes
 * prune, never a solver's result.
 */
#ifndef RV_REVERSI_ENDGAME_PROBCUT_H
#define RV_REVERSI_ENDGAME_PROBCUT_H

#define RV_EG_PC_DEPTHS 9 /* shallow depths 0..8 */

extern const int rv_eg_pc_bias[RV_EG_PC_DEPTHS];
extern const int rv_eg_pc_sigma[RV_EG_PC_DEPTHS];

#endif
