/* The position a Gomocup brain thinks about, built from the stones it was given. */
#include "proto/gomocup_game.h"

rv_status gc_free_point(const gc_game *gm, int x, int y) {
    if (x < 0 || y < 0 || x >= gm->w || y >= gm->h) return RV_ERANGE;
    for (int i = 0; i < gm->n; i++)
        if (gm->st[i].x == x && gm->st[i].y == y) return RV_EOCCUPIED;
    return RV_OK;
}

/* Replays the stones as alternating moves when they alternate from `first`. */
static rv_status replay(const gc_game *gm, int black_own, rv_gomoku *g) {
    for (int i = 0; i < gm->n; i++)
        if (gm->st[i].own != ((i % 2 == 0) ? black_own : !black_own)) return RV_EINVAL;
    rv_status s = rv_gomoku_init(g, gm->w, gm->h, gm->rule);
    if (s != RV_OK) return s;
    for (int i = 0; i < gm->n; i++) {
        /* a forbidden move by the opponent is the manager's business: keep the stone */
        s = rv_gomoku_play(g, gm->st[i].x, gm->st[i].y);
        if (s == RV_EFORBIDDEN) return RV_EINVAL;
        if (s != RV_OK) return s;
    }
    return RV_OK;
}

rv_status gc_position(const gc_game *gm, rv_gomoku *out) {
    int own = 0;
    for (int i = 0; i < gm->n; i++) own += gm->st[i].own;
    int opp = gm->n - own;
    int black_own;
    if (own == opp)
        black_own = 1;
    else if (opp == own + 1)
        black_own = 0;
    else
        return RV_EINVAL;
    rv_gomoku g;
    rv_status s = replay(gm, black_own, &g);
    if (s == RV_EINVAL) {
        /* not in move order: set the stones up, then play one black stone as a move
           when white (the brain) is to move */
        s = rv_gomoku_init(&g, gm->w, gm->h, gm->rule);
        if (s != RV_OK) return s;
        int last_black = -1;
        for (int i = 0; i < gm->n; i++)
            if (gm->st[i].own == black_own) last_black = i;
        for (int i = 0; i < gm->n; i++) {
            if (!black_own && i == last_black) continue;
            rv_color c = gm->st[i].own == black_own ? RV_BLACK : RV_WHITE;
            s = rv_gomoku_set_stone(&g, gm->st[i].x, gm->st[i].y, c);
            if (s != RV_OK) return s;
        }
        if (!black_own) {
            s = rv_gomoku_play_forced(&g, gm->st[last_black].x, gm->st[last_black].y);
            if (s != RV_OK) return s;
        }
    } else if (s != RV_OK)
        return s;
    rv_gomoku_result r;
    rv_gomoku_get_result(&g, &r);
    if (r.over || gm->n >= gm->w * gm->h) return RV_EOVER;
    *out = g;
    return RV_OK;
}
