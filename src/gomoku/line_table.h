/*
 * Internal: rv_line_class(), the class of one line through a point (lines.h).
 * Computed directly for now; a generated lookup table replaces it for speed.
 */
#ifndef RV_GOMOKU_LINE_TABLE_H
#define RV_GOMOKU_LINE_TABLE_H

#include "gomoku/lines.h"

static inline unsigned rv_line_class(unsigned wb, unsigned wo) {
    return rv_line_class_direct(wb, wo);
}

#endif
