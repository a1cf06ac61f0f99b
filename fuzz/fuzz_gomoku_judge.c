/*
 * libFuzzer target: `judge`'s replay. The first byte picks the rule and the
 * board size, the rest is a move list replayed with rv_gomoku_play_forced as
 * `renversi judge` does. Checks: no crash or hang, the verdicts stay
 * consistent (nothing after the end, a forbidden move only under Renju),
 * the forbidden map agrees with single-point queries, and undoing every move
 * gives back the empty board.
 */
#include "renversi/gomoku_record.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const rv_gomoku_rule rules[] = {RV_RULE_FREESTYLE, RV_RULE_STANDARD, RV_RULE_RENJU,
                                           RV_RULE_CARO, RV_RULE_STANDARD_CARO};
    static rv_gomoku_point pts[RV_GOMOKU_MAX_POINTS];
    static uint8_t map[RV_GOMOKU_MAX_POINTS];
    if (size < 1) return 0;
    rv_gomoku_rule rule = rules[data[0] % 5];
    int n = 5 + (data[0] / 5) % 22;
    int count;
    if (rv_gomoku_moves_parse((const char *)data + 1, size - 1, n, pts, RV_GOMOKU_MAX_POINTS,
                              &count, NULL) != RV_OK)
        return 0;
    rv_gomoku g;
    if (rv_gomoku_init(&g, n, n, rule) != RV_OK) abort();
    int played = 0;
    for (int i = 0; i < count; i++) {
        rv_gomoku_result before;
        rv_gomoku_get_result(&g, &before);
        rv_status s = rv_gomoku_play_forced(&g, pts[i].x, pts[i].y);
        if (before.over && s != RV_EOVER) abort();
        if (s != RV_OK) break;
        played++;
        rv_color who = played % 2 ? RV_BLACK : RV_WHITE;
        if (rv_gomoku_at(&g, pts[i].x, pts[i].y) != who) abort();
        rv_gomoku_result r;
        rv_gomoku_get_result(&g, &r);
        if (r.forbidden && (rule != RV_RULE_RENJU || who != RV_BLACK || r.winner != RV_WHITE))
            abort();
        if (r.over && !r.forbidden && r.winner != RV_EMPTY && r.winner != who) abort();
    }
    /* the whole-board map and the single-point query agree */
    int forbidden = rv_gomoku_forbidden_map(&g, map), count2 = 0;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            rv_forbid_kind k = rv_gomoku_forbidden(&g, x, y);
            if (map[y * n + x] != k) abort();
            count2 += k != RV_FORBID_NONE;
        }
    if (count2 != forbidden) abort();
    for (int i = 0; i < played; i++)
        if (rv_gomoku_undo(&g) != RV_OK) abort();
    if (rv_gomoku_undo(&g) != RV_EEMPTY) abort();
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++)
            if (rv_gomoku_at(&g, x, y) != RV_EMPTY) abort();
    return 0;
}
