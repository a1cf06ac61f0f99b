/* Gomoku rule variants: names and the Gomocup `INFO rule` codes (shared/spec/gomocup.md). */
#include "renversi/gomoku.h"

#include <string.h>

rv_status rv_gomoku_rule_parse(const char *name, rv_gomoku_rule *out) {
    static const struct {
        const char *name;
        rv_gomoku_rule rule;
    } names[] = {
        {"freestyle", RV_RULE_FREESTYLE},
        {"gomoku", RV_RULE_FREESTYLE},
        {"standard", RV_RULE_STANDARD},
        {"exact5", RV_RULE_STANDARD},
        {"exactly-five", RV_RULE_STANDARD},
        {"renju", RV_RULE_RENJU},
        {"caro", RV_RULE_CARO},
        {"standard-caro", RV_RULE_STANDARD_CARO},
    };
    if (name == NULL) return RV_EINVAL;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(name, names[i].name) == 0) {
            *out = names[i].rule;
            return RV_OK;
        }
    }
    return RV_EINVAL;
}

rv_status rv_gomoku_rule_from_gomocup(int bits, rv_gomoku_rule *out) {
    if (bits < 0 || bits > 15) return RV_ERANGE;
    /* Yixin Board and the engines that follow it send a lone 2 for Renju. */
    if (bits == 2) {
        *out = RV_RULE_RENJU;
        return RV_OK;
    }
    switch (bits & ~2) { /* bit 2 ("continuous game") does not change the rules of one game */
    case 0: *out = RV_RULE_FREESTYLE; return RV_OK;
    case 1: *out = RV_RULE_STANDARD; return RV_OK;
    case 4:
    case 5: *out = RV_RULE_RENJU; return RV_OK; /* Renju already means exactly five for black */
    case 8: *out = RV_RULE_CARO; return RV_OK;
    case 9: *out = RV_RULE_STANDARD_CARO; return RV_OK;
    default: return RV_EINVAL;
    }
}

const char *rv_gomoku_rule_name(rv_gomoku_rule rule) {
    switch (rule) {
    case RV_RULE_FREESTYLE: return "freestyle";
    case RV_RULE_STANDARD: return "standard";
    case RV_RULE_RENJU: return "renju";
    case RV_RULE_CARO: return "caro";
    case RV_RULE_STANDARD_CARO: return "standard-caro";
    }
    return "unknown";
}

const char *rv_forbid_name(rv_forbid_kind kind) {
    switch (kind) {
    case RV_FORBID_DOUBLE_THREE: return "double-three";
    case RV_FORBID_DOUBLE_FOUR: return "double-four";
    case RV_FORBID_OVERLINE: return "overline";
    case RV_FORBID_NONE: break;
    }
    return "";
}
