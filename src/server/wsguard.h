/*
 * RFC 6455 section 5.1 in front of libwebsockets 4.1, which takes unmasked client frames: a
 * check of the bytes a client sends, before libwebsockets reads them (relay.c feeds it).
 *
 * The stream starts as HTTP. Every line that starts with `upgrade:` (any case) marks its
 * request head as a possible WebSocket handshake; at the end of such a head (a line feed at
 * the start of a line, after an optional carriage return: the earliest place libwebsockets'
 * parser can end a head) the check holds every later byte back until libwebsockets says it
 * accepted the upgrade (srv_wsguard_upgraded). From there on the bytes are frames, each of
 * whose headers must have the mask bit set. A head libwebsockets reads differently (ending
 * later) then waits for bytes that never come and times out: never unchecked frames.
 */
#ifndef RV_SERVER_WSGUARD_H
#define RV_SERVER_WSGUARD_H

#include <stddef.h>
#include <stdint.h>

/* A walk over WebSocket frames: where each header starts and how long its payload is. */
typedef struct srv_wsframes {
    uint8_t hdr[14];
    uint8_t got;               /* header bytes read of the frame being read */
    uint64_t left;             /* payload bytes still to come of that frame */
} srv_wsframes;

enum srv_wsguard_state {
    SRV_WSG_HTTP,              /* request heads, passed on as they come */
    SRV_WSG_HOLD,              /* after a head with an Upgrade header: nothing more goes on */
    SRV_WSG_FRAMES,            /* the upgrade was accepted: masked frames only */
    SRV_WSG_BAD                /* an unmasked frame (or a length of 2^63 or more): close */
};

typedef struct srv_wsguard {
    int state;                 /* enum srv_wsguard_state */
    int line;                  /* 0: inside a line; 1: at a line's start; 2: there after CR */
    int match;                 /* bytes of "upgrade:" matched on this line, -1: no match */
    int upgrade;               /* this head has an Upgrade line */
    srv_wsframes in;           /* the client's frames */
    /* The server's side, to close at a frame boundary: found after its 101 response. */
    int out_state;             /* 0: looking for "HTTP/1.1 101 "; 1: for the head's end;
                                  2: frames */
    int out_match;             /* bytes of the pattern matched */
    srv_wsframes out;
} srv_wsguard;

/* Starts a check at the beginning of a connection. */
void srv_wsguard_init(srv_wsguard *g);

/* Checks n bytes from the client; returns how many of them may go on to libwebsockets now
   (all n, or fewer when the check holds (SRV_WSG_HOLD) or refused (SRV_WSG_BAD) the rest).
   Bytes not passed are fed again later (after srv_wsguard_upgraded), never twice passed. */
size_t srv_wsguard_client(srv_wsguard *g, const uint8_t *p, size_t n);

/* libwebsockets accepted the WebSocket upgrade: held bytes are frames from here on. Outside
   SRV_WSG_HOLD the streams disagree with what the check saw, and the state becomes
   SRV_WSG_BAD. */
void srv_wsguard_upgraded(srv_wsguard *g);

/* Walks n bytes the server sends. With to_boundary, stops at the end of the current frame
   (returns 0 when already there); otherwise returns n. */
size_t srv_wsguard_server(srv_wsguard *g, const uint8_t *p, size_t n, int to_boundary);

/* Whether the server's stream is between two WebSocket frames (a close frame may go in). */
int srv_wsguard_server_at_boundary(const srv_wsguard *g);

#endif
