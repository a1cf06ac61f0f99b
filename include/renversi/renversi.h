/* renversi — the whole public API in one include. */
#ifndef RENVERSI_H
#define RENVERSI_H
#include "renversi/common.h"
#include "renversi/core.h"
#include "renversi/gomoku.h"
#include "renversi/gomoku_record.h"
#include "renversi/gomoku_ai.h"
#include "renversi/opening.h"
#include "renversi/reversi.h"
#include "renversi/reversi_record.h"
#include "renversi/reversi_ai.h"
#include "renversi/game.h"
#include "renversi/game_ai.h"
#endif
