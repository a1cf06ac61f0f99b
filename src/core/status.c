/* Status codes and the version string. */
#include "renversi/common.h"

const char *rv_strerror(rv_status s) {
    switch (s) {
    case RV_OK: return "ok";
    case RV_EINVAL: return "invalid input";
    case RV_ERANGE: return "out of range";
    case RV_EOCCUPIED: return "occupied";
    case RV_EILLEGAL: return "illegal move";
    case RV_EFORBIDDEN: return "forbidden point";
    case RV_EOVER: return "game is over";
    case RV_ENOMEM: return "out of memory";
    case RV_EIO: return "input/output error";
    case RV_EEMPTY: return "empty";
    case RV_ETOOLONG: return "input too long";
    }
    return "unknown error";
}

const char *rv_version(void) { return "0.1.0"; }
