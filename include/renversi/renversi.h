/* renversi — the whole public API in one include. */
#ifndef RENVERSI_H
#define RENVERSI_H
#include "renversi/common.h"
#include "renversi/core.h"
#endif
