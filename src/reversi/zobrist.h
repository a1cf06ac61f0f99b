/* Internal: the Zobrist tables of rv_reversi_hash() (zobrist_table.c, generated). */
#ifndef RV_REVERSI_ZOBRIST_H
#define RV_REVERSI_ZOBRIST_H
#include <stdint.h>
extern const uint64_t rv_reversi_zobrist_keys[2][64];
extern const uint64_t rv_reversi_zobrist_bytes[16][256];
#endif
