/*
 * Internal: the line pattern (PAT_*) a colour makes by playing the centre of an
 * 11-point window, for every window key and rule. Computed at build time by
 * tools/gen_pattern_table.c into gb_pat_tab (pattern.h); tests/test_gomoku_eval.c
 * checks the table against it. Not part of the library.
 */
#ifndef RV_GOMOKU_PATTERN_CLASSIFY_H
#define RV_GOMOKU_PATTERN_CLASSIFY_H

#include "gomoku/pattern.h"

#include <string.h>

static const uint16_t gb_pow3[10] = {1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683};

/*
 * Does playing the centre of line[0..10] (line[5] = own stone already) make a win
 * for this colour under the rule? Returns PAT_FIVE, PAT_OVERLINE (Renju black's
 * six or more) or PAT_NONE. Only the row through the centre counts: a pattern is
 * what this move makes.
 */
static int gb_five_at(const uint8_t *line, rv_gomoku_rule rule, int black) {
    int l = 5, r = 5;
    while (l > 0 && line[l - 1] == 1) l--;
    while (r < 10 && line[r + 1] == 1) r++;
    int len = r - l + 1;
    /* the window sees 5 points each side: a row reaching its edge is >= 6 anyway */
    int blocked = (l == 0 || line[l - 1] == 2) && (r == 10 || line[r + 1] == 2);
    switch (rule) {
    case RV_RULE_FREESTYLE: return len >= 5 ? PAT_FIVE : PAT_NONE;
    case RV_RULE_STANDARD: return len == 5 ? PAT_FIVE : PAT_NONE;
    case RV_RULE_RENJU:
        if (!black) return len >= 5 ? PAT_FIVE : PAT_NONE;
        return len == 5 ? PAT_FIVE : len > 5 ? PAT_OVERLINE : PAT_NONE;
    case RV_RULE_CARO: return len > 5 || (len == 5 && !blocked) ? PAT_FIVE : PAT_NONE;
    case RV_RULE_STANDARD_CARO: return len == 5 && !blocked ? PAT_FIVE : PAT_NONE;
    }
    return PAT_NONE;
}

/* Memoised classification of one key (0xFF = not yet known). */
static int gb_classify(uint8_t *tab, int key, rv_gomoku_rule rule, int black) {
    if (tab[key] != 0xFF) return tab[key];
    uint8_t line[11];
    int rest = key;
    for (int i = 0; i < 10; i++) {
        int d = rest % 3;
        rest /= 3;
        line[i < 5 ? i : i + 1] = (uint8_t)d;
    }
    line[5] = 1;
    int res = gb_five_at(line, rule, black);
    if (res == PAT_NONE) {
        /* the strongest base pattern one more stone makes, and at how many points */
        int completions = 0, best = PB_NONE, nbest = 0;
        for (int i = 0; i < 10; i++) {
            if (line[i < 5 ? i : i + 1] != 0) continue;
            int c = gb_kind_base(gb_classify(tab, key + gb_pow3[i], rule, black));
            if (c == PB_FIVE)
                completions++;
            else if (c != PB_OVERLINE && c > best)
                best = c, nbest = 1;
            else if (c == best)
                nbest++;
        }
        if (completions >= 2)
            res = PAT_FLEX4;
        else if (completions == 1)
            res = PAT_BLOCK4;
        else {
            switch (best) {
            case PB_FLEX4: res = nbest >= 2 ? PAT_FLEX3_2 : PAT_FLEX3; break;
            case PB_BLOCK4: res = PAT_BLOCK3; break;
            case PB_FLEX3: res = nbest >= 4 ? PAT_FLEX2_4 : nbest == 3 ? PAT_FLEX2_3 : PAT_FLEX2; break;
            case PB_BLOCK3: res = PAT_BLOCK2; break;
            case PB_FLEX2: res = PAT_FLEX1; break;
            default: res = PAT_NONE;
            }
        }
    }
    tab[key] = (uint8_t)res;
    return res;
}


/* Fills tab[PAT_KEYS] with the patterns of black (black 1) or white under the rule. */
static void gb_classify_all(uint8_t *tab, rv_gomoku_rule rule, int black) {
    memset(tab, 0xFF, PAT_KEYS);
    for (int k = 0; k < PAT_KEYS; k++) gb_classify(tab, k, rule, black);
}

#endif
