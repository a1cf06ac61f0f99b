/*
 * Opening rules (include/renversi/opening.h): swap2 and Soosõrv-8 as scripts of steps, the
 * checks each act must pass, and the engine's choices, which weigh positions with short
 * thinks of the Gomoku engine.
 */
#include "renversi/opening.h"

#include <stdlib.h>
#include <string.h>

/* One entry of a rule's script. */
typedef struct script_step {
    rv_opening_step step;
    rv_color actor;
    int ply;      /* moves on the board when the step comes */
    int area;     /* PLACE: -1 anywhere, else the largest distance from the centre */
    unsigned choices;
} script_step;

#define CH(c) (1u << (c))

static const script_step swap2_script[] = {
    {RV_STEP_PLACE, RV_BLACK, 0, -1, 0},
    {RV_STEP_PLACE, RV_BLACK, 1, -1, 0},
    {RV_STEP_PLACE, RV_BLACK, 2, -1, 0},
    {RV_STEP_CHOOSE, RV_WHITE, 3, 0, CH(RV_CHOICE_BLACK) | CH(RV_CHOICE_WHITE) | CH(RV_CHOICE_PLUS2)},
    {RV_STEP_PLACE, RV_WHITE, 3, -1, 0},
    {RV_STEP_PLACE, RV_WHITE, 4, -1, 0},
    {RV_STEP_CHOOSE, RV_BLACK, 5, 0, CH(RV_CHOICE_BLACK) | CH(RV_CHOICE_WHITE)},
};

static const script_step soosorv_script[] = {
    {RV_STEP_PLACE, RV_BLACK, 0, 0, 0},
    {RV_STEP_PLACE, RV_BLACK, 1, 1, 0},
    {RV_STEP_PLACE, RV_BLACK, 2, 2, 0},
    {RV_STEP_CHOOSE, RV_WHITE, 3, 0, CH(RV_CHOICE_BLACK) | CH(RV_CHOICE_WHITE)},
    {RV_STEP_DECLARE, RV_WHITE, 3, 0, 0},
    {RV_STEP_PLACE, RV_WHITE, 3, -1, 0},
    {RV_STEP_CHOOSE, RV_BLACK, 4, 0, CH(RV_CHOICE_BLACK) | CH(RV_CHOICE_WHITE)},
    {RV_STEP_OFFER, RV_BLACK, 4, 0, 0},
    {RV_STEP_SELECT, RV_WHITE, 4, 0, 0},
};

#define SWAP2_PLUS2_PHASE 4 /* where swap2 goes on after RV_CHOICE_PLUS2 */

static const script_step *script_of(rv_opening_rule rule, int *n) {
    if (rule == RV_OPENING_SWAP2) {
        *n = (int)(sizeof swap2_script / sizeof swap2_script[0]);
        return swap2_script;
    }
    if (rule == RV_OPENING_SOOSORV8) {
        *n = (int)(sizeof soosorv_script / sizeof soosorv_script[0]);
        return soosorv_script;
    }
    *n = 0;
    return NULL;
}

rv_status rv_opening_rule_parse(const char *name, rv_opening_rule *out) {
    if (!name || !out) return RV_EINVAL;
    if (!strcmp(name, "free")) *out = RV_OPENING_FREE;
    else if (!strcmp(name, "swap2")) *out = RV_OPENING_SWAP2;
    else if (!strcmp(name, "soosorv8") || !strcmp(name, "soosorv-8")) *out = RV_OPENING_SOOSORV8;
    else return RV_EINVAL;
    return RV_OK;
}

const char *rv_opening_rule_name(rv_opening_rule rule) {
    switch (rule) {
    case RV_OPENING_SWAP2: return "swap2";
    case RV_OPENING_SOOSORV8: return "soosorv8";
    default: return "free";
    }
}

const char *rv_opening_step_name(rv_opening_step step) {
    static const char *const names[] = {"play", "place", "choose", "declare", "offer", "select"};
    return step >= RV_STEP_PLAY && step <= RV_STEP_SELECT ? names[step] : "play";
}

/* Moves to script entry `phase`, or ends the opening when the script is done. */
static void enter(rv_opening *o, int phase) {
    int n;
    const script_step *sc = script_of(o->rule, &n);
    o->phase = phase;
    if (!sc || phase >= n) {
        o->step = RV_STEP_PLAY;
        o->actor = RV_EMPTY;
        o->end_ply = o->ply;
        return;
    }
    o->step = sc[phase].step;
    o->actor = sc[phase].actor;
    o->ply = sc[phase].ply;
}

static void finish(rv_opening *o, int ply) {
    o->ply = ply;
    o->step = RV_STEP_PLAY;
    o->actor = RV_EMPTY;
    o->end_ply = ply;
}

rv_status rv_opening_init(rv_opening *o, rv_opening_rule rule, const rv_gomoku *g) {
    if (!o || !g || rv_gomoku_move_count(g) != 0) return RV_EINVAL;
    rv_gomoku_rule r = rv_gomoku_get_rule(g);
    if (rule == RV_OPENING_SOOSORV8 &&
        (r != RV_RULE_RENJU || rv_gomoku_width(g) != 15 || rv_gomoku_height(g) != 15))
        return RV_EINVAL;
    if (rule != RV_OPENING_FREE && rule != RV_OPENING_SWAP2 && rule != RV_OPENING_SOOSORV8)
        return RV_EINVAL;
    memset(o, 0, sizeof *o);
    o->rule = rule;
    enter(o, 0);
    return RV_OK;
}

rv_opening_rule rv_opening_get_rule(const rv_opening *o) { return o->rule; }
rv_opening_step rv_opening_get_step(const rv_opening *o) { return o->step; }

rv_color rv_opening_actor(const rv_opening *o, const rv_gomoku *g) {
    return o->step == RV_STEP_PLAY ? rv_gomoku_to_move(g) : o->actor;
}

int rv_opening_declared(const rv_opening *o) { return o->declared; }

int rv_opening_offers(const rv_opening *o, rv_gomoku_point *out) {
    for (int i = 0; i < o->noffers; i++) out[i] = o->offers[i];
    return o->noffers;
}

int rv_opening_locked_moves(const rv_opening *o) {
    return o->step == RV_STEP_PLAY ? o->end_ply : 0;
}

unsigned rv_opening_choices(const rv_opening *o) {
    int n;
    const script_step *sc = script_of(o->rule, &n);
    return o->step == RV_STEP_CHOOSE && sc ? sc[o->phase].choices : 0;
}

/* ---------------------------------------------------------------- checks */

static int centre_dist(const rv_gomoku *g, int x, int y) {
    int dx = abs(x - rv_gomoku_width(g) / 2), dy = abs(y - rv_gomoku_height(g) / 2);
    return dx > dy ? dx : dy;
}

/* Symmetry t (0..7) of a square board of side n applied to (x, y). */
static void transform(int t, int n, int x, int y, int *ox, int *oy) {
    int a = x, b = y;
    if (t & 1) a = n - 1 - a;
    if (t & 2) b = n - 1 - b;
    if (t & 4) {
        int s = a;
        a = b;
        b = s;
    }
    *ox = a;
    *oy = b;
}

/* Does symmetry t map every stone of g onto a stone of the same colour? */
static int keeps_position(const rv_gomoku *g, int t) {
    int n = rv_gomoku_width(g);
    if (n != rv_gomoku_height(g)) return t == 0;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            rv_color c = rv_gomoku_at(g, x, y);
            if (!c) continue;
            int tx, ty;
            transform(t, n, x, y, &tx, &ty);
            if (rv_gomoku_at(g, tx, ty) != c) return 0;
        }
    return 1;
}

/* Are fifth moves a and b symmetrical in g (one maps onto the other by a symmetry of g)? */
static int symmetrical(const rv_gomoku *g, const unsigned char *keeps, rv_gomoku_point a,
                       rv_gomoku_point b) {
    for (int t = 1; t < 8; t++) {
        if (!keeps[t]) continue;
        int tx, ty;
        transform(t, rv_gomoku_width(g), a.x, a.y, &tx, &ty);
        if (tx == b.x && ty == b.y) return 1;
    }
    return 0;
}

static void symmetries(const rv_gomoku *g, unsigned char keeps[8]) {
    for (int t = 0; t < 8; t++) keeps[t] = (unsigned char)keeps_position(g, t);
}

/* Can the side to move put a stone on p under this step's area? */
static rv_status check_point(const rv_gomoku *g, int area, rv_gomoku_point p) {
    if (p.x < 0 || p.y < 0 || p.x >= rv_gomoku_width(g) || p.y >= rv_gomoku_height(g))
        return RV_ERANGE;
    if (rv_gomoku_at(g, p.x, p.y)) return RV_EOCCUPIED;
    if (area >= 0 && centre_dist(g, p.x, p.y) > area) return RV_EILLEGAL;
    rv_status s = rv_gomoku_check(g, p.x, p.y, NULL);
    return s == RV_OK ? RV_OK : s;
}

/* Checks a set of fifth-move offers (black to move in g). */
static rv_status check_offers(const rv_gomoku *g, const rv_gomoku_point *pts, int n) {
    unsigned char keeps[8];
    symmetries(g, keeps);
    for (int i = 0; i < n; i++) {
        rv_status s = check_point(g, -1, pts[i]);
        if (s != RV_OK) return s;
        for (int j = 0; j < i; j++) {
            if (pts[i].x == pts[j].x && pts[i].y == pts[j].y) return RV_EOCCUPIED;
            if (symmetrical(g, keeps, pts[i], pts[j])) return RV_EILLEGAL;
        }
    }
    return RV_OK;
}

rv_status rv_opening_apply(rv_opening *o, rv_gomoku *g, const rv_opening_act *act, int *swapped) {
    if (!o || !g || !act || o->step == RV_STEP_PLAY || act->step != o->step ||
        rv_gomoku_move_count(g) != o->ply)
        return RV_EINVAL;
    int nsc;
    const script_step *sc = script_of(o->rule, &nsc);
    const script_step *cur = &sc[o->phase];
    int swap = 0;
    switch (o->step) {
    case RV_STEP_PLACE: {
        /* Several stones in one act only while the same step kind and actor go on. */
        if (act->n < 1 || act->n > 3) return RV_EINVAL;
        rv_gomoku trial = *g;
        int phase = o->phase;
        for (int i = 0; i < act->n; i++) {
            if (phase >= nsc || sc[phase].step != RV_STEP_PLACE || sc[phase].actor != cur->actor)
                return RV_EINVAL;
            rv_status s = check_point(&trial, sc[phase].area, act->pts[i]);
            if (s != RV_OK) return s;
            if ((s = rv_gomoku_play(&trial, act->pts[i].x, act->pts[i].y)) != RV_OK) return s;
            phase++;
        }
        *g = trial;
        o->ply = rv_gomoku_move_count(g);
        enter(o, phase);
        break;
    }
    case RV_STEP_CHOOSE:
        if (act->choice < RV_CHOICE_BLACK || act->choice > RV_CHOICE_PLUS2 ||
            !(cur->choices & CH(act->choice)))
            return RV_EINVAL;
        if (act->choice == RV_CHOICE_PLUS2) {
            enter(o, SWAP2_PLUS2_PHASE);
            break;
        }
        swap = (rv_color)act->choice != cur->actor;
        if (o->rule == RV_OPENING_SWAP2) finish(o, o->ply);
        else enter(o, o->phase + 1);
        break;
    case RV_STEP_DECLARE:
        if (act->declared < 1 || act->declared > RV_OPENING_MAX_OFFERS) return RV_ERANGE;
        o->declared = act->declared;
        enter(o, o->phase + 1);
        break;
    case RV_STEP_OFFER: {
        if (act->n != o->declared) return RV_EINVAL;
        rv_status s = check_offers(g, act->pts, act->n);
        if (s != RV_OK) return s;
        o->noffers = act->n;
        memcpy(o->offers, act->pts, (size_t)act->n * sizeof act->pts[0]);
        enter(o, o->phase + 1);
        break;
    }
    case RV_STEP_SELECT: {
        if (act->n != 1) return RV_EINVAL;
        int found = 0;
        for (int i = 0; i < o->noffers; i++)
            found |= o->offers[i].x == act->pts[0].x && o->offers[i].y == act->pts[0].y;
        if (!found) return RV_EILLEGAL;
        rv_status s = rv_gomoku_play(g, act->pts[0].x, act->pts[0].y);
        if (s != RV_OK) return s;
        finish(o, rv_gomoku_move_count(g));
        break;
    }
    default:
        return RV_EINVAL;
    }
    if (swapped) *swapped = swap;
    return RV_OK;
}

/* ---------------------------------------------------------------- the engine's choices */

#define SWAP_MARGIN 60  /* an eval this far below 0 makes a side not worth taking */
#define MAX_PROBES 40

/* The engine's eval of g for its side to move (a finished game counts as decided). */
static rv_status probe(rv_gomoku_ai *ai, const rv_gomoku *g, const rv_gomoku_limits *lim,
                       rv_gomoku_ai_info *info) {
    rv_status s = rv_gomoku_ai_think(ai, g, lim, info);
    if (s == RV_EOVER) {
        rv_gomoku_result r;
        rv_gomoku_get_result(g, &r);
        memset(info, 0, sizeof *info);
        info->x = info->y = -1;
        info->eval = r.winner == RV_EMPTY ? 0 : r.winner == rv_gomoku_to_move(g) ? RV_GOMOKU_AI_WIN : -RV_GOMOKU_AI_WIN;
        return RV_OK;
    }
    return s;
}

/* The eval for white to move after black plays p (g: black to move). */
static rv_status eval_after(rv_gomoku_ai *ai, const rv_gomoku *g, rv_gomoku_point p,
                            const rv_gomoku_limits *lim, int *eval) {
    rv_gomoku t = *g;
    rv_status s = rv_gomoku_play(&t, p.x, p.y);
    if (s != RV_OK) return s;
    rv_gomoku_ai_info info;
    if ((s = probe(ai, &t, lim, &info)) != RV_OK) return s;
    *eval = info.eval;
    return RV_OK;
}

/* Empty, playable points near the stones (within 2), nearest the centre first. */
static int candidates(const rv_gomoku *g, int reach, rv_gomoku_point *out, int max) {
    int w = rv_gomoku_width(g), h = rv_gomoku_height(g), n = 0;
    for (int d = 0; d <= (w > h ? w : h) && n < max; d++)
        for (int y = 0; y < h && n < max; y++)
            for (int x = 0; x < w && n < max; x++) {
                if (centre_dist(g, x, y) != d || rv_gomoku_at(g, x, y)) continue;
                int near = 0;
                for (int yy = y - reach; yy <= y + reach && !near; yy++)
                    for (int xx = x - reach; xx <= x + reach && !near; xx++)
                        near = rv_gomoku_at(g, xx, yy) != RV_EMPTY;
                if (!near || rv_gomoku_check(g, x, y, NULL) != RV_OK) continue;
                out[n++] = (rv_gomoku_point){x, y};
            }
    return n;
}

/* Three-stone openings (black, white, black) as offsets from the centre. */
static const int swap2_openings[][3][2] = {
    {{0, 0}, {1, -1}, {-1, -2}}, {{0, 0}, {0, -1}, {2, 0}},  {{0, 0}, {1, 1}, {-2, 1}},
    {{0, 0}, {2, -1}, {1, 2}},   {{0, 0}, {-1, 0}, {1, -2}}, {{0, 0}, {2, 2}, {-1, 1}},
};
/* Some of the 26 Renju openings: a direct (h9) and an indirect (i9) second move. */
static const int renju_openings[][3][2] = {
    {{0, 0}, {0, -1}, {1, -2}}, {{0, 0}, {0, -1}, {2, 0}},  {{0, 0}, {0, -1}, {-1, 1}},
    {{0, 0}, {1, -1}, {2, 0}},  {{0, 0}, {1, -1}, {0, 2}},  {{0, 0}, {1, -1}, {-2, 2}},
};

/* The opener's stones: of a few openings the one the engine finds most even for white. */
static rv_status decide_opening(const rv_opening *o, const rv_gomoku *g, rv_gomoku_ai *ai,
                                const rv_gomoku_limits *lim, rv_opening_act *out) {
    const int(*list)[3][2] = o->rule == RV_OPENING_SOOSORV8 ? renju_openings : swap2_openings;
    int nlist = 6, cx = rv_gomoku_width(g) / 2, cy = rv_gomoku_height(g) / 2;
    int done = rv_gomoku_move_count(g), best = -1, best_abs = 0;
    for (int k = 0; k < nlist; k++) {
        rv_gomoku t = *g;
        int ok = 1;
        /* The stones already placed must be this opening's first ones. */
        for (int i = 0; i < done && ok; i++) {
            int mx, my;
            rv_gomoku_move_at(g, i, &mx, &my);
            ok = mx == cx + list[k][i][0] && my == cy + list[k][i][1];
        }
        for (int i = done; i < 3 && ok; i++)
            ok = rv_gomoku_play(&t, cx + list[k][i][0], cy + list[k][i][1]) == RV_OK;
        if (!ok) continue;
        rv_gomoku_ai_info info;
        rv_status s = probe(ai, &t, lim, &info);
        if (s != RV_OK) return s;
        int a = abs(info.eval);
        if (best < 0 || a < best_abs) best = k, best_abs = a;
    }
    out->n = 0;
    if (best >= 0) {
        for (int i = done; i < 3; i++)
            out->pts[out->n++] = (rv_gomoku_point){cx + list[best][i][0], cy + list[best][i][1]};
        return RV_OK;
    }
    /* Stones of no listed opening: the nearest allowed point to the centre. */
    int nsc;
    const script_step *sc = script_of(o->rule, &nsc);
    for (int d = 0; d < rv_gomoku_width(g); d++)
        for (int y = 0; y < rv_gomoku_height(g); y++)
            for (int x = 0; x < rv_gomoku_width(g); x++) {
                rv_gomoku_point p = {x, y};
                if (centre_dist(g, x, y) == d && check_point(g, sc[o->phase].area, p) == RV_OK) {
                    out->pts[0] = p;
                    out->n = 1;
                    return RV_OK;
                }
            }
    return RV_EOVER;
}

/* swap2 after "two more": white's best stone, then the black stone leaving the most even game. */
static rv_status decide_plus2(const rv_gomoku *g, rv_gomoku_ai *ai, const rv_gomoku_limits *lim,
                              rv_opening_act *out) {
    rv_gomoku t = *g;
    out->n = 0;
    rv_gomoku_ai_info info;
    rv_status s;
    if (rv_gomoku_to_move(&t) == RV_WHITE) {
        if ((s = probe(ai, &t, lim, &info)) != RV_OK) return s;
        if (info.x < 0) return RV_EOVER;
        out->pts[out->n++] = (rv_gomoku_point){info.x, info.y};
        rv_gomoku_play(&t, info.x, info.y);
    }
    rv_gomoku_point cand[10];
    int nc = candidates(&t, 2, cand, 10), best = -1, best_abs = 0;
    for (int i = 0; i < nc; i++) {
        int e;
        if ((s = eval_after(ai, &t, cand[i], lim, &e)) != RV_OK) return s;
        if (best < 0 || abs(e) < best_abs) best = i, best_abs = abs(e);
    }
    if (best < 0) return RV_EOVER;
    out->pts[out->n++] = cand[best];
    return RV_OK;
}

/* Soosõrv: the fifth moves that leave white the least, pairwise not symmetrical. */
static rv_status decide_offers(const rv_opening *o, const rv_gomoku *g, rv_gomoku_ai *ai,
                               const rv_gomoku_limits *lim, rv_opening_act *out) {
    rv_gomoku_point cand[MAX_PROBES];
    int ev[MAX_PROBES];
    int nc = candidates(g, 2, cand, MAX_PROBES);
    for (int i = 0; i < nc; i++) {
        rv_status s = eval_after(ai, g, cand[i], lim, &ev[i]);
        if (s != RV_OK) return s;
    }
    /* Insertion sort by white's eval, lowest first. */
    for (int i = 1; i < nc; i++)
        for (int j = i; j > 0 && ev[j] < ev[j - 1]; j--) {
            int e = ev[j];
            ev[j] = ev[j - 1], ev[j - 1] = e;
            rv_gomoku_point p = cand[j];
            cand[j] = cand[j - 1], cand[j - 1] = p;
        }
    unsigned char keeps[8];
    symmetries(g, keeps);
    out->n = 0;
    for (int pass = 0; pass < 2 && out->n < o->declared; pass++) {
        /* Pass 1, if the near points ran out: any other point, nearest the centre first. */
        int w = rv_gomoku_width(g), h = rv_gomoku_height(g);
        int total = pass ? w * h : nc;
        for (int i = 0; i < total && out->n < o->declared; i++) {
            rv_gomoku_point p = pass ? (rv_gomoku_point){i % w, i / w} : cand[i];
            if (check_point(g, -1, p) != RV_OK) continue;
            int ok = 1;
            for (int j = 0; j < out->n && ok; j++)
                ok = !(out->pts[j].x == p.x && out->pts[j].y == p.y) &&
                     !symmetrical(g, keeps, out->pts[j], p);
            if (ok) out->pts[out->n++] = p;
        }
    }
    return out->n == o->declared ? RV_OK : RV_EOVER;
}

rv_status rv_opening_decide(const rv_opening *o, const rv_gomoku *g, rv_gomoku_ai *ai,
                            const rv_gomoku_limits *probe_lim, rv_opening_act *out) {
    if (!o || !g || !ai || !probe_lim || !out || o->step == RV_STEP_PLAY ||
        rv_gomoku_move_count(g) != o->ply)
        return RV_EINVAL;
    rv_opening_act act;
    memset(&act, 0, sizeof act);
    act.step = o->step;
    rv_gomoku_ai_info info;
    rv_status s = RV_OK;
    switch (o->step) {
    case RV_STEP_PLACE:
        if (o->ply < 3) {
            s = decide_opening(o, g, ai, probe_lim, &act);
        } else if (o->rule == RV_OPENING_SWAP2) {
            s = decide_plus2(g, ai, probe_lim, &act);
        } else {
            /* Soosõrv: white's fourth move, the engine's best. */
            if ((s = probe(ai, g, probe_lim, &info)) == RV_OK) {
                if (info.x < 0) return RV_EOVER;
                act.pts[0] = (rv_gomoku_point){info.x, info.y};
                act.n = 1;
            }
        }
        break;
    case RV_STEP_CHOOSE: {
        /* White is to move after 3 and 5 stones, black after 4 (Soosõrv). */
        if ((s = probe(ai, g, probe_lim, &info)) != RV_OK) break;
        rv_color tm = rv_gomoku_to_move(g);
        int white_eval = tm == RV_WHITE ? info.eval : -info.eval;
        if (o->rule == RV_OPENING_SOOSORV8 && tm == RV_BLACK)
            /* Black must still offer several fifth moves, and white keeps the best of them. */
            white_eval += 15 * (o->declared - 1);
        unsigned allowed = rv_opening_choices(o);
        if (white_eval < -SWAP_MARGIN) act.choice = RV_CHOICE_BLACK;
        else if ((allowed & CH(RV_CHOICE_PLUS2)) && abs(white_eval) <= SWAP_MARGIN / 3)
            act.choice = RV_CHOICE_PLUS2; /* even: two more stones, and the opener chooses */
        else act.choice = white_eval >= 0 ? RV_CHOICE_WHITE : RV_CHOICE_BLACK;
        break;
    }
    case RV_STEP_DECLARE: {
        /* The better black stands, the more fifth moves white asks for. */
        if ((s = probe(ai, g, probe_lim, &info)) != RV_OK) break;
        int n = 4 - info.eval / 40;
        act.declared = n < 1 ? 1 : n > RV_OPENING_MAX_OFFERS ? RV_OPENING_MAX_OFFERS : n;
        break;
    }
    case RV_STEP_OFFER:
        s = decide_offers(o, g, ai, probe_lim, &act);
        break;
    case RV_STEP_SELECT: {
        int best = -1, best_eval = 0;
        for (int i = 0; i < o->noffers; i++) {
            int e;
            if ((s = eval_after(ai, g, o->offers[i], probe_lim, &e)) != RV_OK) return s;
            if (best < 0 || e > best_eval) best = i, best_eval = e;
        }
        if (best < 0) return RV_EINVAL;
        act.pts[0] = o->offers[best];
        act.n = 1;
        break;
    }
    default:
        return RV_EINVAL;
    }
    if (s != RV_OK) return s;
    *out = act;
    return RV_OK;
}
