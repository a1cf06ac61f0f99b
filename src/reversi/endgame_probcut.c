/*
 * The exact solver's ProbCut model (endgame_probcut.h): exact = shallow + bias,
 * residual sd sigma, in centidiscs, per shallow depth 0..8.  Written by
 * `rv-train eg-probcut-fit` from 1200 positions solved exactly
 * (scripts/fit-eg-probcut.sh).
 */
#include "reversi/endgame_probcut.h"

const int rv_eg_pc_bias[RV_EG_PC_DEPTHS] = {42, 86, 128, -21, 125, -30, 106, -38, 89};
const int rv_eg_pc_sigma[RV_EG_PC_DEPTHS] = {868, 799, 717, 682, 623, 602, 551, 520, 481};
