/*
 * renversi — opening rules for Gomoku and Renju, and the engine's opening choices.
 *
 *   free      no opening rule: black simply moves first.
 *   swap2     (Gomoku: any rule) the first player places three stones
 *             (black, white, black); the second player takes black, takes white, or places
 *             two more (white, black) and lets the first player choose the colour.
 *   soosorv8  (Renju, 15x15) the RIF's Soosõrv-8 rule (docs/rules-renju.md): one of the 26
 *             openings (h8, then the central 3x3, then the central 5x5), the other player may
 *             swap; white declares 1..8 fifth moves and plays the 4th anywhere; the other
 *             player may swap; black offers that many fifth moves, no two symmetrical; white
 *             picks one (it becomes move 5) and plays on.
 *
 * An rv_opening is a plain struct beside an rv_gomoku. Stones placed during the opening are
 * ordinary moves of the game, black and white in turn. The machine never knows the players:
 * it says which colour's current holder acts ("the player now holding white chooses"), and
 * a colour choice reports whether the two players exchange colours, which the caller keeps.
 */
#ifndef RENVERSI_OPENING_H
#define RENVERSI_OPENING_H

#include "renversi/common.h"
#include "renversi/gomoku.h"
#include "renversi/gomoku_ai.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RV_OPENING_MAX_OFFERS 8 /* Soosõrv-8: at most 8 fifth moves */

typedef enum rv_opening_rule {
    RV_OPENING_FREE = 0,
    RV_OPENING_SWAP2 = 1,
    RV_OPENING_SOOSORV8 = 2
} rv_opening_rule;

/* What the opening waits for. */
typedef enum rv_opening_step {
    RV_STEP_PLAY = 0, /* the opening is over (or free): ordinary moves */
    RV_STEP_PLACE,    /* the actor places the next stone (its colour is the side to move) */
    RV_STEP_CHOOSE,   /* the actor chooses a colour (swap2 after 3 stones: or two more stones) */
    RV_STEP_DECLARE,  /* Soosõrv: white's holder declares the number of fifth moves */
    RV_STEP_OFFER,    /* Soosõrv: black's holder offers that many fifth moves */
    RV_STEP_SELECT    /* Soosõrv: white's holder picks one offer, played as move 5 */
} rv_opening_step;

/* A colour choice: the colour the acting player will hold, or (swap2) two more stones. */
typedef enum rv_opening_choice {
    RV_CHOICE_BLACK = 1,
    RV_CHOICE_WHITE = 2,
    RV_CHOICE_PLUS2 = 3
} rv_opening_choice;

typedef struct rv_opening {
    /* private */
    rv_opening_rule rule;
    rv_opening_step step;
    rv_color actor;   /* the holder of this colour acts */
    int phase;        /* position in the rule's script */
    int ply;          /* moves the game must have for the current step */
    int declared;     /* Soosõrv: fifth moves declared (0 before) */
    int noffers;
    rv_gomoku_point offers[RV_OPENING_MAX_OFFERS];
    int end_ply;      /* moves played inside the opening (when step is RV_STEP_PLAY) */
} rv_opening;

/* One act of the opening, as a player or the engine gives it. */
typedef struct rv_opening_act {
    rv_opening_step step;     /* the step this act is for */
    rv_opening_choice choice; /* RV_STEP_CHOOSE */
    int declared;             /* RV_STEP_DECLARE: 1..8 */
    int n;                    /* points used: PLACE 1..3 (placed in turn), OFFER = declared, SELECT 1 */
    rv_gomoku_point pts[RV_OPENING_MAX_OFFERS];
} rv_opening_act;

/* Parses "free", "swap2" or "soosorv8" (also "soosorv-8"). RV_EINVAL otherwise. */
rv_status rv_opening_rule_parse(const char *name, rv_opening_rule *out);

/* "free", "swap2" or "soosorv8". */
const char *rv_opening_rule_name(rv_opening_rule rule);

/* "play", "place", "choose", "declare", "offer", "select". */
const char *rv_opening_step_name(rv_opening_step step);

/*
 * Starts the opening of a new game g (no moves yet). soosorv8 needs Renju on 15x15
 * (RV_EINVAL otherwise); RV_EINVAL too when g already has moves.
 */
rv_status rv_opening_init(rv_opening *o, rv_opening_rule rule, const rv_gomoku *g);

rv_opening_rule rv_opening_get_rule(const rv_opening *o);
rv_opening_step rv_opening_get_step(const rv_opening *o);

/* The colour whose current holder must act (for RV_STEP_PLAY: the side to move of g). */
rv_color rv_opening_actor(const rv_opening *o, const rv_gomoku *g);

/* Soosõrv: the number of fifth moves declared (0 before the declaration). */
int rv_opening_declared(const rv_opening *o);

/* The offered fifth moves into out (room for RV_OPENING_MAX_OFFERS); returns how many. */
int rv_opening_offers(const rv_opening *o, rv_gomoku_point *out);

/* Moves of g played inside the opening, which an undo must not take back (0 while it runs:
   then no undo at all; see rv_opening_get_step). */
int rv_opening_locked_moves(const rv_opening *o);

/* Choices the current step allows: bit (1 << choice) for each rv_opening_choice. */
unsigned rv_opening_choices(const rv_opening *o);

/*
 * Applies one act. On success *swapped (when not NULL) is 1 when the two players now
 * exchange colours, else 0; stones go into g as moves. Errors change nothing:
 * RV_EINVAL   the act is not for the current step, or a choice this step does not allow,
 *             or an offer of a number of points other than the declared one;
 * RV_ERANGE   a point off the board, or a declaration outside 1..8;
 * RV_EOCCUPIED a point that holds a stone (or the same point offered twice);
 * RV_EILLEGAL a stone outside the rule's area (Soosõrv: h8, central 3x3, central 5x5), two
 *             offers symmetrical to each other, or a selection that was not offered;
 * RV_EFORBIDDEN a Renju forbidden point for black.
 */
rv_status rv_opening_apply(rv_opening *o, rv_gomoku *g, const rv_opening_act *act, int *swapped);

/*
 * The engine's act for the current step (not RV_STEP_PLAY): balanced stones when it opens,
 * the better colour when it chooses, a declaration and offers that keep its side's chances,
 * the best offer for white. Each position it weighs costs one rv_gomoku_ai_think with
 * probe (at most 12 per call, 40 for an offer). RV_EINVAL when the opening is over,
 * RV_ENOMEM, or a status of the engine.
 */
rv_status rv_opening_decide(const rv_opening *o, const rv_gomoku *g, rv_gomoku_ai *ai,
                            const rv_gomoku_limits *probe, rv_opening_act *out);

#ifdef __cplusplus
}
#endif
#endif
