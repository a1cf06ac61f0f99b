/* The /healthz and /readyz endpoints (health.c): a libwebsockets protocol for two mounts. */
#ifndef RV_SERVER_HEALTH_H
#define RV_SERVER_HEALTH_H

#include <libwebsockets.h>

/* Answers GET /healthz (200 while serving) and GET /readyz (200 when the database answers,
   else 503), plain text. Per-session data: 96 bytes. */
int srv_health_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                        size_t len);

#endif
