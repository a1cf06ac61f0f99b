/* Internal helpers of the Reversi record readers (not public API). */
#ifndef RV_RECORD_REVERSI_UTIL_H
#define RV_RECORD_REVERSI_UTIL_H

#include "renversi/reversi_record.h"

/* Fills *err (if not NULL) for a failure at text[off]: line and offset are
 * computed, the message is "line L, offset O: ..." when the text spans
 * several lines and "offset O: ..." otherwise; err->parse gets the offset,
 * the token there and `expected` (a static string). Returns RV_EINVAL. */
rv_status rv_reversi_fail_at(rv_reversi_error *err, const char *text, size_t len, size_t off,
                             const char *expected, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* Quotes up to 8 characters at s (non-printable ones as '?') into out[12]. */
const char *rv_reversi_quote(const char *s, size_t avail, char out[12]);

/* Parses a board of 64 cells (blanks between them allowed) and a side to
 * move; *pos gets it, *end the offset after the side. Checks the centre. */
rv_status rv_reversi_board_parse_at(const char *text, size_t len, size_t start,
                                    rv_reversi_pos *pos, size_t *end, rv_reversi_error *err);

#endif
