/*
 * Internal: rv_line_class(), the class of one line through a point (lines.h),
 * read from tables generated at build time by tools/gen_line_table.c from
 * rv_line_class_direct() (tests/test_gomoku_lines.c checks every entry).
 */
#ifndef RV_GOMOKU_LINE_TABLE_H
#define RV_GOMOKU_LINE_TABLE_H

#include "gomoku/lines.h"

extern const uint16_t rv_line_tern[2048];
extern const uint16_t rv_line_class_tab[59049];
extern const uint8_t rv_line_near[2048];

/* The class for the 11-bit windows wb (black) and wo (white or off-board). */
static inline unsigned rv_line_class(unsigned wb, unsigned wo) {
    return rv_line_class_tab[rv_line_tern[wb] + 2 * rv_line_tern[wo]];
}

#endif
