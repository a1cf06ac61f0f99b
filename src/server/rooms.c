/*
 * Rooms and the JSON game protocol (docs/protocol-web.md). The server is the referee:
 * every move goes through the library (renversi/game.h) and is committed to the store,
 * against the game's stored version, before anyone hears of it.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "renversi/core.h"
#include "server/game_json.h"
#include "server/srv.h"

static const char *color_name(rv_color c) {
    return c == RV_BLACK ? "black" : c == RV_WHITE ? "white" : NULL;
}

const char *srv_color_name(rv_color c) { return color_name(c); }

static rv_color parse_color(const char *s) {
    if (!s) return RV_EMPTY;
    if (!strcmp(s, "black")) return RV_BLACK;
    if (!strcmp(s, "white")) return RV_WHITE;
    return RV_EMPTY;
}

/* ---------------------------------------------------------------- sending */

static void send_json(srv_conn *c, cJSON *j) {
    char *t = cJSON_PrintUnformatted(j);
    if (t) srv_send(c, t, strlen(t));
    free(t);
}

void srv_send_json(srv_conn *c, const cJSON *j) { send_json(c, (cJSON *)j); }

static void flush_room(room *r);

void srv_broadcast_json(room *r, const cJSON *j) {
    /* A message to the room comes after the state of what led to it. */
    flush_room(r);
    char *t = cJSON_PrintUnformatted(j);
    for (srv_conn *c = r->conns; t && c; c = c->next_in_room) srv_send(c, t, strlen(t));
    free(t);
}

void srv_error_params(srv_conn *c, const char *code, const char *message, cJSON *params) {
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "type", "error");
    cJSON_AddStringToObject(j, "code", code);
    cJSON_AddStringToObject(j, "message", message);
    /* The parameters are members of the error itself, like `point` and `field`. */
    while (params && params->child) {
        cJSON *item = cJSON_DetachItemViaPointer(params, params->child);
        cJSON_AddItemToObject(j, item->string, item);
    }
    cJSON_Delete(params);
    send_json(c, j);
    cJSON_Delete(j);
}

void srv_error(srv_conn *c, const char *code, const char *message) {
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "type", "error");
    cJSON_AddStringToObject(j, "code", code);
    cJSON_AddStringToObject(j, "message", message);
    send_json(c, j);
    cJSON_Delete(j);
}

/* A refused move: its point, the forbidden kind and, for `illegal`, a reason code. */
static void error_kind(srv_conn *c, const char *code, const char *message, int kind,
                       const char *point, const char *reason) {
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "type", "error");
    cJSON_AddStringToObject(j, "code", code);
    cJSON_AddStringToObject(j, "message", message);
    if (kind) cJSON_AddStringToObject(j, "kind", rv_forbid_name((rv_forbid_kind)kind));
    if (point && *point) cJSON_AddStringToObject(j, "point", point);
    if (reason) cJSON_AddStringToObject(j, "reason", reason);
    send_json(c, j);
    cJSON_Delete(j);
}

/* An error with one parameter for the page to word it with (docs/protocol-web.md). */
static void error_with(srv_conn *c, const char *code, const char *message, const char *key,
                       const char *value) {
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "type", "error");
    cJSON_AddStringToObject(j, "code", code);
    cJSON_AddStringToObject(j, "message", message);
    cJSON_AddStringToObject(j, key, value);
    send_json(c, j);
    cJSON_Delete(j);
}

/* bad_request names the field that is missing or wrong. */
static void bad_request(srv_conn *c, const char *field, const char *message) {
    error_with(c, "bad_request", message, "field", field);
}

void srv_bad_request(srv_conn *c, const char *field, const char *message) {
    bad_request(c, field, message);
}

/* The board, marks and move list of a game, as fields of obj. */
static void add_position(cJSON *obj, const rv_game *p) {
    int n = rv_game_size(p);
    char *board = malloc((size_t)n * n + 1);
    if (board) {
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                rv_color c = rv_game_at(p, x, y);
                board[y * n + x] = c == RV_BLACK ? 'X' : c == RV_WHITE ? 'O' : '.';
            }
        board[n * n] = 0;
        cJSON_AddStringToObject(obj, "board", board);
        free(board);
    }
    /* Labels come from the notation code, so the page never converts coordinates itself. */
    cJSON *cols = cJSON_AddArrayToObject(obj, "cols");
    cJSON *rows = cJSON_AddArrayToObject(obj, "rows");
    for (int i = 0; i < n; i++) {
        char t[16];
        rv_game_point_text(p, i, 0, t, sizeof t);
        char *d = t;
        while (*d && (*d < '0' || *d > '9')) d++;
        char col[8];
        snprintf(col, sizeof col, "%.*s", (int)(d - t), t);
        cJSON_AddItemToArray(cols, cJSON_CreateString(col));
        rv_game_point_text(p, 0, i, t, sizeof t);
        d = t;
        while (*d && (*d < '0' || *d > '9')) d++;
        cJSON_AddItemToArray(rows, cJSON_CreateString(d));
    }
    int nm = rv_game_nmoves(p);
    cJSON *moves = cJSON_AddArrayToObject(obj, "moves");
    for (int i = 0; i < nm; i++) {
        char t[16];
        rv_game_move_text(p, i, t, sizeof t);
        cJSON_AddItemToArray(moves, cJSON_CreateString(t));
    }
    int lx, ly;
    if (nm > 0 && rv_game_move_xy(p, nm - 1, &lx, &ly)) {
        cJSON *last = cJSON_AddArrayToObject(obj, "last");
        cJSON_AddItemToArray(last, cJSON_CreateNumber(lx));
        cJSON_AddItemToArray(last, cJSON_CreateNumber(ly));
    } else {
        cJSON_AddNullToObject(obj, "last");
    }
    uint8_t *marks = calloc((size_t)n * n, 1);
    cJSON *legal = cJSON_AddArrayToObject(obj, "legal");
    cJSON *forb = cJSON_AddArrayToObject(obj, "forbidden");
    if (marks && rv_game_marks(p, marks) > 0) {
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                int m = marks[y * n + x];
                if (!m) continue;
                cJSON *pt = cJSON_CreateArray();
                cJSON_AddItemToArray(pt, cJSON_CreateNumber(x));
                cJSON_AddItemToArray(pt, cJSON_CreateNumber(y));
                if (m == RV_MARK_LEGAL) {
                    cJSON_AddItemToArray(legal, pt);
                } else {
                    cJSON_AddItemToArray(pt, cJSON_CreateString(rv_forbid_name((rv_forbid_kind)m)));
                    cJSON_AddItemToArray(forb, pt);
                }
            }
    }
    free(marks);
    rv_color tm = rv_game_to_move(p);
    if (tm) cJSON_AddStringToObject(obj, "to_move", color_name(tm));
    else cJSON_AddNullToObject(obj, "to_move");
    cJSON_AddBoolToObject(obj, "over", rv_game_over(p));
    char res[128];
    rv_game_result_text(p, res, sizeof res);
    cJSON_AddStringToObject(obj, "result", res);
    rv_color w = rv_game_winner(p);
    if (rv_game_over(p)) cJSON_AddStringToObject(obj, "winner", w ? color_name(w) : "draw");
    else cJSON_AddNullToObject(obj, "winner");
    char *extra = srv_points_json(p);
    if (extra) cJSON_AddRawToObject(obj, "points", extra);
    free(extra);
    extra = srv_end_json(p);
    if (extra) cJSON_AddRawToObject(obj, "end", extra);
    free(extra);
    rv_game_result res_;
    rv_game_get_result(p, &res_);
    int b = res_.discs_black, wh = res_.discs_white;
    cJSON *counts = cJSON_AddArrayToObject(obj, "counts");
    cJSON_AddItemToArray(counts, cJSON_CreateNumber(b));
    cJSON_AddItemToArray(counts, cJSON_CreateNumber(wh));
}

void srv_room_counts(const room *r, int *black, int *white, int *spectators) {
    int n[3] = {0, 0, 0};
    for (const srv_conn *c = r->conns; c; c = c->next_in_room) n[c->seat]++;
    *black = n[RV_BLACK];
    *white = n[RV_WHITE];
    *spectators = n[0];
}

/* Is someone at the seat, through this server or another (shared stores)? */
static int seat_present(const room *r, int seat) {
    for (const srv_conn *c = r->conns; c; c = c->next_in_room)
        if (c->seat == seat) return 1;
    for (int i = 0; i < r->npeers; i++)
        if (seat == RV_BLACK ? r->peers[i].black : r->peers[i].white) return 1;
    return 0;
}

static const char *seat_kind(const room *r, int seat) {
    if (r->rec.ai_color & seat) return "ai";
    return r->rec.token[seat - 1][0] ? "human" : "open";
}

/* A growing text buffer for the state message, the hot path of every move: written by hand
   (cJSON's number printing and allocations cost more than the rest of a move). */
typedef struct sbuf {
    char *p;
    size_t len, cap;
    int oom;
} sbuf;

static void sb_put(sbuf *b, const char *s, size_t n) {
    if (b->oom) return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (b->len + n + 1 > cap) cap *= 2;
        char *np = realloc(b->p, cap);
        if (!np) {
            b->oom = 1;
            return;
        }
        b->p = np;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
}

static void sb_str(sbuf *b, const char *s) { sb_put(b, s, strlen(s)); }

static void sb_int(sbuf *b, long long v) {
    char t[24];
    int n = snprintf(t, sizeof t, "%lld", v);
    sb_put(b, t, (size_t)n);
}

/* A JSON string value (quotes, backslashes and control characters escaped). */
static void sb_qstr(sbuf *b, const char *s) {
    sb_put(b, "\"", 1);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        size_t run = 0;
        while (s[run] && s[run] != '"' && s[run] != '\\' && (unsigned char)s[run] >= 0x20) run++;
        if (run) {
            sb_put(b, s, run);
            s += run - 1;
        } else if (ch == '"' || ch == '\\') {
            char e[2] = {'\\', (char)ch};
            sb_put(b, e, 2);
        } else if (ch < 0x20) {
            char e[8];
            snprintf(e, sizeof e, "\\u%04x", ch);
            sb_put(b, e, 6);
        }
    }
    sb_put(b, "\"", 1);
}

/* The next member's key (the object always has "type" first, so a comma leads). */
static void sb_key(sbuf *b, const char *key) {
    sb_put(b, ",\"", 2);
    sb_str(b, key);
    sb_put(b, "\":", 2);
}

static const char *color_or_null(rv_color c) { return c ? color_name(c) : NULL; }

static void sb_key_str(sbuf *b, const char *key, const char *v) {
    sb_key(b, key);
    if (v) sb_qstr(b, v);
    else sb_str(b, "null");
}

static int in_opening(const room *r) {
    return !rv_game_is_reversi(&r->game) && rv_opening_get_step(&r->open) != RV_STEP_PLAY;
}

/* Hints: always against the computer; between two players only if the creator allowed them. */
static int hints_allowed(const room *r) {
    return strcmp(r->rec.mode, "online") || r->allow_hints;
}

/* The state message of a room (see docs/protocol-web.md); malloc'd, or NULL. */
static char *state_text(const room *r) {
    const rv_game *p = &r->game;
    int n = rv_game_size(p), nm = rv_game_nmoves(p);
    sbuf b = {0};
    char t[160];
    sb_str(&b, "{\"type\":\"state\"");
    sb_key_str(&b, "room", r->rec.id);
    sb_key(&b, "game_id");
    sb_int(&b, r->rec.game_id);
    sb_key_str(&b, "mode", r->rec.mode);
    sb_key_str(&b, "variant", rv_game_variant(p));
    sb_key(&b, "size");
    sb_int(&b, n);
    sb_key(&b, "level");
    sb_int(&b, r->rec.level);
    sb_key(&b, "board");
    char cells[RV_GOMOKU_MAX_POINTS + 2];
    int k = 0;
    cells[k++] = '"';
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            rv_color c = rv_game_at(p, x, y);
            cells[k++] = c == RV_BLACK ? 'X' : c == RV_WHITE ? 'O' : '.';
        }
    cells[k++] = '"';
    sb_put(&b, cells, (size_t)k);
    /* Labels come from the notation code, so the page never converts coordinates itself. */
    for (int axis = 0; axis < 2; axis++) {
        sb_key(&b, axis ? "rows" : "cols");
        sb_put(&b, "[", 1);
        for (int i = 0; i < n; i++) {
            rv_game_point_text(p, axis ? 0 : i, axis ? i : 0, t, sizeof t);
            size_t digits = strcspn(t, "0123456789");
            if (axis) memmove(t, t + digits, strlen(t + digits) + 1);
            else t[digits] = 0;
            if (i) sb_put(&b, ",", 1);
            sb_qstr(&b, t);
        }
        sb_put(&b, "]", 1);
    }
    sb_key(&b, "moves");
    sb_put(&b, "[", 1);
    for (int i = 0; i < nm; i++) {
        rv_game_move_text(p, i, t, sizeof t);
        if (i) sb_put(&b, ",", 1);
        sb_qstr(&b, t);
    }
    sb_put(&b, "]", 1);
    char *extra = srv_points_json(p);
    sb_key(&b, "points");
    sb_str(&b, extra ? extra : "null");
    free(extra);
    /* The last moves' changes: a newer state may replace one a client has not read. */
    extra = srv_recent_json(p, 4);
    sb_key(&b, "recent");
    sb_str(&b, extra ? extra : "null");
    free(extra);
    int lx, ly;
    sb_key(&b, "last");
    if (nm > 0 && rv_game_move_xy(p, nm - 1, &lx, &ly)) {
        snprintf(t, sizeof t, "[%d,%d]", lx, ly);
        sb_str(&b, t);
    } else {
        sb_str(&b, "null");
    }
    uint8_t *marks = calloc((size_t)n * n, 1);
    int nmarks = marks ? rv_game_marks(p, marks) : 0;
    for (int pass = 0; pass < 2; pass++) {
        sb_key(&b, pass ? "forbidden" : "legal");
        sb_put(&b, "[", 1);
        int first = 1;
        for (int i = 0; nmarks && i < n * n; i++) {
            int m = marks[i];
            if (!m || (m == RV_MARK_LEGAL) == pass) continue;
            if (!first) sb_put(&b, ",", 1);
            first = 0;
            if (pass) snprintf(t, sizeof t, "[%d,%d,\"%s\"]", i % n, i / n, rv_forbid_name((rv_forbid_kind)m));
            else snprintf(t, sizeof t, "[%d,%d]", i % n, i / n);
            sb_str(&b, t);
        }
        sb_put(&b, "]", 1);
    }
    free(marks);
    sb_key_str(&b, "to_move", color_or_null(rv_game_to_move(p)));
    sb_key(&b, "over");
    sb_str(&b, rv_game_over(p) ? "true" : "false");
    rv_game_result_text(p, t, sizeof t);
    sb_key_str(&b, "result", t);
    rv_color w = rv_game_winner(p);
    sb_key_str(&b, "winner", rv_game_over(p) ? (w ? color_name(w) : "draw") : NULL);
    extra = srv_end_json(p);
    sb_key(&b, "end");
    sb_str(&b, extra ? extra : "null");
    free(extra);
    rv_game_result res;
    rv_game_get_result(p, &res);
    int bl = res.discs_black, wh = res.discs_white;
    snprintf(t, sizeof t, "[%d,%d]", bl, wh);
    sb_key(&b, "counts");
    sb_str(&b, t);
    int spectators = 0;
    for (const srv_conn *c = r->conns; c; c = c->next_in_room) spectators += c->seat == 0;
    for (int i = 0; i < r->npeers; i++) spectators += r->peers[i].spectators;
    snprintf(t, sizeof t,
             ",\"seats\":{\"black\":\"%s\",\"white\":\"%s\"},\"present\":{\"black\":%s,\"white\":%s}"
             ",\"spectators\":%d,\"thinking\":%s",
             seat_kind(r, RV_BLACK), seat_kind(r, RV_WHITE),
             seat_present(r, RV_BLACK) ? "true" : "false", seat_present(r, RV_WHITE) ? "true" : "false",
             spectators, r->thinking || r->ai_wait || r->ai_pending ? "true" : "false");
    sb_str(&b, t);
    sb_key_str(&b, "undo_request", color_or_null(r->undo_request));
    sb_key_str(&b, "turn", color_or_null(srv_turn(r)));
    snprintf(t, sizeof t, ",\"hints\":{\"allowed\":%s,\"black\":%d,\"white\":%d}",
             hints_allowed(r) ? "true" : "false", r->hints_used[RV_BLACK], r->hints_used[RV_WHITE]);
    sb_str(&b, t);
    char *op = srv_opening_json(r);
    if (op) {
        sb_put(&b, ",", 1);
        sb_str(&b, op);
        free(op);
    }
    sb_put(&b, "}", 1);
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    return b.p;
}

/*
 * A room's state goes out once per service round however many changes it had (a crowd
 * of spectators joining at once costs one state, not one per join): broadcast_state marks
 * the room, srv_rooms_flush sends. Every change is committed before it is marked.
 */
static void send_state_now(room *r);

static void broadcast_state(room *r) {
    if (!r->owner) return send_state_now(r);
    if (r->dirty) return;
    r->dirty = 1;
    r->next_dirty = r->owner->dirty;
    r->owner->dirty = r;
}

/* Sends the room's pending state now (out of its turn in the flush). */
static void flush_room(room *r) {
    if (!r->dirty || !r->owner) return;
    room **dp = &r->owner->dirty;
    while (*dp && *dp != r) dp = &(*dp)->next_dirty;
    if (*dp) *dp = r->next_dirty;
    r->dirty = 0;
    r->next_dirty = NULL;
    send_state_now(r);
}

void srv_rooms_flush(srv *s) {
    room *r = s->dirty;
    s->dirty = NULL;
    while (r) {
        room *n = r->next_dirty;
        r->dirty = 0;
        r->next_dirty = NULL;
        send_state_now(r);
        r = n;
    }
}

static void send_state_now(room *r) {
    if (!r->conns) return;
    char *t = state_text(r);
    if (!t) return;
    /* Built once, queued by reference; a newer state replaces one a client has not read. */
    srv_buf *b = srv_buf_new(r->conns->queues, t, strlen(t));
    free(t);
    for (srv_conn *c = r->conns; b && c; c = c->next_in_room) srv_send_buf(c, b, 1);
    srv_buf_unref(b);
}

void srv_broadcast_state(room *r) { broadcast_state(r); }

/* ---------------------------------------------------------------- the room table */

static unsigned hash_id(const char *s) {
    unsigned h = 2166136261u;
    while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;
    return h % SRV_ROOM_BUCKETS;
}

static room *find_loaded(srv *s, const char *id) {
    for (room *r = s->rooms[hash_id(id)]; r; r = r->next)
        if (!strcmp(r->rec.id, id)) return r;
    return NULL;
}

room *srv_room_find(srv *s, const char *id) { return find_loaded(s, id); }

static void room_insert(srv *s, room *r) {
    unsigned h = hash_id(r->rec.id);
    r->owner = s;
    r->gen = ++s->last_gen;
    r->next = s->rooms[h];
    s->rooms[h] = r;
    s->nrooms++;
}

/* Messages that wait for the room's store job. */
typedef struct srv_deferred {
    struct srv_deferred *next;
    srv_conn *c;
    size_t len;
    char text[];
} srv_deferred;

static void drop_deferred(room *r, const srv_conn *c) {
    srv_deferred **pp = &r->deferred;
    r->deferred_tail = NULL;
    while (*pp) {
        srv_deferred *d = *pp;
        if (!c || d->c == c) {
            *pp = d->next;
            free(d);
        } else {
            r->deferred_tail = d;
            pp = &d->next;
        }
    }
}

static void room_unload(srv *s, room *r) {
    srv_shared_room_unloading(s, r);
    room **pp = &s->rooms[hash_id(r->rec.id)];
    while (*pp && *pp != r) pp = &(*pp)->next;
    if (*pp) *pp = r->next;
    s->nrooms--;
    if (r->dirty) {
        room **dp = &s->dirty;
        while (*dp && *dp != r) dp = &(*dp)->next_dirty;
        if (*dp) *dp = r->next_dirty;
    }
    drop_deferred(r, NULL);
    free(r);
}

/* Nobody and nothing holds the room: it goes (it is read again when someone comes). */
static int room_idle(const room *r) {
    return r->nconns == 0 && !r->thinking && !r->hints && !r->busy;
}

void srv_room_maybe_unload(srv *s, room *r) {
    if (room_idle(r)) room_unload(s, r);
}

void srv_rooms_free(srv *s) {
    s->dirty = NULL;
    for (int i = 0; i < SRV_ROOM_BUCKETS; i++)
        while (s->rooms[i]) {
            room *r = s->rooms[i];
            s->rooms[i] = r->next;
            drop_deferred(r, NULL);
            free(r);
        }
}

rv_color srv_turn(const room *r) {
    if (rv_game_over(&r->game)) return RV_EMPTY;
    if (!rv_game_is_reversi(&r->game) && rv_opening_get_step(&r->open) != RV_STEP_PLAY)
        return rv_opening_actor(&r->open, rv_game_gomoku(&r->game));
    return rv_game_to_move(&r->game);
}

static int ai_to_move(const room *r) {
    rv_color tm = srv_turn(r);
    return tm && (r->rec.ai_color & tm);
}

int srv_ai_turn(const room *r) { return ai_to_move(r); }

/* Asks for the computer's move; with the queue full the room waits for the tick. */
static void want_ai(srv *s, room *r) {
    if (srv_ai_submit(s, r) == 0) {
        r->ai_wait = 0;
        return;
    }
    r->ai_wait = 1;
    r->ai_retry_ns = rv_clock_ns() + (uint64_t)SRV_TICK_MS * 1000000u;
}

/* Drops the room's AI work (its position changed, or nobody is left to answer). */
static void stop_ai(srv *s, room *r) {
    if (r->thinking || r->hints) srv_ai_cancel(s, r);
    r->thinking = 0;
    r->ai_wait = 0;
    r->ai_backoff_ms = 0;
}

static void ai_request(srv *s, room *r);

int srv_load_game(rv_store *st, int64_t id, rv_game *p, rv_store_game *hdr) {
    char err[128];
    char **moves;
    int n;
    if (rv_store_load_game(st, id, hdr, &moves, &n)) return -1;
    if (rv_game_init(p, hdr->variant, hdr->size, err, sizeof err) != RV_OK) {
        rv_store_free_moves(moves, n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (i < rv_game_nmoves(p)) continue; /* a forced pass the rules already played */
        char why[128];
        int kind;
        if (rv_game_play_text(p, moves[i], why, sizeof why, &kind) != RV_OK) {
            fprintf(stderr, "renversi serve: game %lld move %d: %s\n", (long long)id, i + 1, why);
            break;
        }
    }
    rv_store_free_moves(moves, n);
    if (!rv_game_over(p)) {
        if (strstr(hdr->result, "black resigned")) rv_game_resign(p, RV_BLACK);
        else if (strstr(hdr->result, "white resigned")) rv_game_resign(p, RV_WHITE);
    }
    return 0;
}

/* The room's settings, hints used and opening, from the stored events of its current game. */
static int take_events(room *r, const rv_store_note *ev, int n) {
    for (int i = 0; i < n; i++) {
        if (!strcmp(ev[i].kind, "rules")) r->allow_hints = strstr(ev[i].text, "hints=1") != NULL;
        if (!strcmp(ev[i].kind, "hint")) r->hints_used[parse_color(ev[i].who)]++;
    }
    return srv_opening_rebuild(r, ev, n);
}

static int load_events(srv *s, room *r) {
    rv_store_note *ev = NULL;
    int n = 0;
    if (rv_store_get_events(s->store, r->rec.game_id, &ev, &n)) return -1;
    int rc = take_events(r, ev, n);
    free(ev);
    return rc;
}

/* The room with this id, from memory or from the store (a room resumes after a restart). */
static room *get_room(srv *s, const char *id) {
    room *r = find_loaded(s, id);
    if (r) return r;
    rv_store_room rec;
    if (rv_store_get_room(s->store, id, &rec)) return NULL;
    r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->rec = rec;
    rv_store_game hdr;
    if (srv_load_game(s->store, rec.game_id, &r->game, &hdr) || load_events(s, r)) {
        free(r);
        return NULL;
    }
    r->version = hdr.version;
    r->undo_request = (rv_color)hdr.undo_request;
    r->ai_pending = hdr.ai_pending;
    room_insert(s, r);
    srv_shared_room_loaded(s, r);
    ai_request(s, r);
    return r;
}

int srv_room_refresh(srv *s, room *r) { return srv_room_refresh_game(s, r, 1); }

static void send_joined(srv_conn *c, room *r);

int srv_room_read(rv_store *st, const char *id, const rv_store_room *cur, int room_too,
                  srv_room_data *d) {
    rv_store_room rec = *cur;
    d->ev = NULL;
    d->nev = 0;
    if ((room_too && rv_store_get_room(st, id, &rec)) ||
        srv_load_game(st, rec.game_id, &d->game, &d->hdr) ||
        rv_store_get_events(st, rec.game_id, &d->ev, &d->nev))
        return -1;
    d->rec = rec;
    return 0;
}

/* Each seated connection follows its token into room record REC (which the room then
   takes): it is told of a new seat. 1 when a seat changed. */
static int seats_follow(room *r, const rv_store_room *rec) {
    int changed = 0;
    for (srv_conn *c = r->conns; c; c = c->next_in_room) {
        if (!c->seat) continue;
        const char *tok = r->rec.token[c->seat - 1];
        int seat = 0;
        for (int k = 1; k <= 2 && tok[0]; k++)
            if (!strcmp(rec->token[k - 1], tok)) seat = k;
        if (seat == c->seat) continue;
        c->seat = seat;
        changed = 1;
        r->presence_dirty = 1;
        rv_store_room keep = r->rec;
        r->rec = *rec;
        send_joined(c, r);
        r->rec = keep;
    }
    return changed;
}

void srv_room_apply(srv *s, room *r, srv_room_data *d) {
    if (d->rec.game_id == r->rec.game_id && d->hdr.version < r->version) {
        /* Read before a change this copy has since heard of: read again. */
        free(d->ev);
        d->ev = NULL;
        r->reread = 1;
        return;
    }
    int moved = d->rec.game_id != r->rec.game_id || d->hdr.version != r->version;
    int changed = moved || memcmp(d->rec.token, r->rec.token, sizeof d->rec.token) ||
                  d->hdr.ai_pending != r->ai_pending;
    if (moved) {
        r->gen = ++s->last_gen; /* answers of the AI for the old state are dropped */
        if (r->thinking) srv_ai_cancel(s, r);
        r->thinking = 0;
    }
    /* Seats whose tokens another server exchanged (an opening's colour choice, a new game):
       each connection follows its token. */
    if (seats_follow(r, &d->rec)) changed = 1;
    r->rec = d->rec;
    r->game = d->game;
    r->version = d->hdr.version;
    r->undo_request = (rv_color)d->hdr.undo_request;
    r->ai_pending = d->hdr.ai_pending;
    /* The opening and hints of what another server stored (notes come without commits). */
    rv_opening open = r->open;
    int hints[3], allow = r->allow_hints;
    memcpy(hints, r->hints_used, sizeof hints);
    memset(r->hints_used, 0, sizeof r->hints_used);
    for (int i = 0; i < d->nev; i++) {
        if (!strcmp(d->ev[i].kind, "rules")) r->allow_hints = strstr(d->ev[i].text, "hints=1") != NULL;
        if (!strcmp(d->ev[i].kind, "hint")) r->hints_used[parse_color(d->ev[i].who)]++;
    }
    srv_opening_rebuild(r, d->ev, d->nev);
    free(d->ev);
    d->ev = NULL;
    changed = changed || memcmp(&open, &r->open, sizeof open) || allow != r->allow_hints ||
              memcmp(hints, r->hints_used, sizeof hints);
    if (changed) broadcast_state(r);
}

int srv_room_refresh_game(srv *s, room *r, int room_too) {
    srv_room_data *d = malloc(sizeof *d);
    if (!d || srv_room_read(s->store, r->rec.id, &r->rec, room_too, d)) {
        if (d) free(d->ev);
        free(d);
        return -1;
    }
    srv_room_apply(s, r, d);
    free(d);
    return 0;
}

int srv_room_apply_commit(srv *s, room *r, int64_t version, int keep, int undo, int ai,
                          const char *moves, const char *result) {
    if (version != r->version + 1 || in_opening(r) || keep < 0 || keep > rv_game_nmoves(&r->game))
        return -1;
    rv_game g = r->game;
    while (rv_game_nmoves(&g) > keep)
        if (rv_game_undo(&g) != RV_OK) return -1;
    if (rv_game_nmoves(&g) != keep) return -1;
    int k = keep;
    for (const char *p = strcmp(moves, "-") ? moves : ""; *p; k++) {
        size_t n = strcspn(p, ",");
        char mv[16];
        if (n == 0 || n >= sizeof mv) return -1;
        memcpy(mv, p, n);
        mv[n] = 0;
        p += n + (p[n] == ',');
        if (k < rv_game_nmoves(&g)) continue; /* a forced pass the rules already played */
        if (rv_game_play_text(&g, mv, NULL, 0, NULL) != RV_OK) return -1;
    }
    if (!rv_game_over(&g)) {
        if (strstr(result, "black resigned")) rv_game_resign(&g, RV_BLACK);
        else if (strstr(result, "white resigned")) rv_game_resign(&g, RV_WHITE);
    }
    /* Anything this copy would not end the same way (an undone resignation...): read it. */
    char res[128] = "";
    if (rv_game_over(&g)) rv_game_result_text(&g, res, sizeof res);
    if (rv_game_nmoves(&g) != k || strcmp(res, result)) return -1;
    r->gen = ++s->last_gen; /* answers of the AI for the old state are dropped */
    if (r->thinking) srv_ai_cancel(s, r);
    r->thinking = 0;
    r->game = g;
    r->version = version;
    r->undo_request = (rv_color)undo;
    r->ai_pending = ai > 0;
    srv_trace(s, "apply", "%s %d", r->rec.id, keep);
    broadcast_state(r);
    return 0;
}

void srv_room_reread(srv *s, room *r) {
    if (r->busy) {
        r->reread = 1;
        return;
    }
    srv_db_job *j = calloc(1, sizeof *j);
    if (!j) return;
    j->kind = SRV_DB_READ;
    j->room = r;
    j->room_too = 1;
    j->data.rec = r->rec;
    r->reread = 0;
    srv_db_submit(s, j);
}

static void leave_room(srv *s, srv_conn *c) {
    room *r = c->room;
    if (!r) return;
    srv_conn **pp = &r->conns;
    while (*pp && *pp != c) pp = &(*pp)->next_in_room;
    if (*pp) *pp = c->next_in_room;
    r->nconns--;
    r->presence_dirty = 1;
    drop_deferred(r, c);
    if (r->busy_conn == c) r->busy_conn = NULL;
    c->room = NULL;
    c->seat = 0;
    c->next_in_room = NULL;
    if (r->nconns == 0) {
        /* Nobody left to answer: the room's AI jobs are withdrawn (a player who comes back
           gets them again), so rooms left behind cannot fill the queue. */
        if (r->thinking || r->hints || r->ai_wait) r->gen = ++s->last_gen;
        stop_ai(s, r);
    }
    if (room_idle(r)) room_unload(s, r);
    else broadcast_state(r);
}

static void enter_room(srv_conn *c, room *r, int seat) {
    c->room = r;
    c->seat = seat;
    c->next_in_room = r->conns;
    r->conns = c;
    r->nconns++;
    r->presence_dirty = 1;
}

void srv_conn_closed(srv *s, srv_conn *c) {
    leave_room(s, c);
    /* Its jobs in the store worker answer nobody now. */
    for (struct srv_db_job *j = c->jobs; j; j = j->conn_next) j->conn = NULL;
    c->jobs = NULL;
    c->joining = 0;
    while (c->deferred) {
        srv_deferred *d = c->deferred;
        c->deferred = d->next;
        free(d);
    }
    c->deferred_tail = NULL;
}

static void send_joined(srv_conn *c, room *r) {
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "type", "joined");
    cJSON_AddStringToObject(j, "room", r->rec.id);
    cJSON_AddStringToObject(j, "seat", c->seat ? color_name((rv_color)c->seat) : "spectator");
    if (c->seat) cJSON_AddStringToObject(j, "token", r->rec.token[c->seat - 1]);
    send_json(c, j);
    cJSON_Delete(j);
}

/* ---------------------------------------------------------------- actions */

const char *srv_player_label(const rv_store_room *rec, int seat, char *buf, size_t n) {
    if (rec->ai_color & seat) snprintf(buf, n, "ai %d", rec->level);
    else snprintf(buf, n, "human");
    return buf;
}

/* A new game for room R: its board, opening rule and rules note, the players' labels, and
   with SWAP the players' colours exchanged. 0 on success, else a reason in err. */
static int new_game_prepare(const room *r, const char *variant, int size, rv_opening_rule rule,
                            int allow_hints, int swap, srv_new_game *n, char *err, size_t len) {
    memset(n, 0, sizeof *n);
    if (rv_game_init(&n->game, variant, size, err, len) != RV_OK) return -1;
    rv_gomoku none; /* Reversi has no opening rule: a free one on an empty board */
    rv_gomoku_init(&none, 15, 15, RV_RULE_FREESTYLE);
    if (rv_game_is_reversi(&n->game)) rule = RV_OPENING_FREE;
    if (rv_opening_init(&n->open, rule,
                        rv_game_is_reversi(&n->game) ? &none : rv_game_gomoku(&n->game)) != RV_OK) {
        snprintf(err, len, "the %s opening does not fit this game", rv_opening_rule_name(rule));
        return -1;
    }
    n->rec = r->rec;
    n->old_game = r->rec.game_id;
    n->swap = swap;
    n->allow_hints = allow_hints;
    int ai = r->rec.ai_color;
    if (swap) ai = (ai & 1 ? 2 : 0) | (ai & 2 ? 1 : 0);
    for (int seat = RV_BLACK; seat <= RV_WHITE; seat++) {
        char *label = seat == RV_BLACK ? n->black : n->white;
        if (ai & seat) snprintf(label, sizeof n->black, "ai %d", r->rec.level);
        else snprintf(label, sizeof n->black, "human");
    }
    snprintf(n->rules, sizeof n->rules, "opening=%s;hints=%d", rv_opening_rule_name(rule),
             allow_hints);
    return 0;
}

/* The room takes the new game that was stored (seats follow their tokens). */
static void new_game_apply(srv *s, room *r, const srv_new_game *n) {
    stop_ai(s, r);
    seats_follow(r, &n->rec);
    r->rec = n->rec;
    r->game = n->game;
    r->version = 0;
    r->open = n->open;
    r->allow_hints = n->allow_hints;
    memset(r->hints_used, 0, sizeof r->hints_used);
    r->ai_pending = 0;
    r->gen = ++s->last_gen;
    r->undo_request = RV_EMPTY;
}

/* Starts a new game in the room (store first, one transaction), with its opening rule and
   hint setting; with SWAP the players exchange colours. */
static int room_new_game(srv *s, room *r, const char *variant, int size, rv_opening_rule rule,
                         int allow_hints, int swap, char *err, size_t n) {
    srv_new_game ng;
    if (new_game_prepare(r, variant, size, rule, allow_hints, swap, &ng, err, n)) return -1;
    int rc = rv_store_start_game(s->store, &ng.rec, ng.old_game, swap, variant,
                                 rv_game_size(&ng.game), ng.black, ng.white, ng.rules);
    if (rc) {
        if (rc == RV_STORE_CONFLICT) s->retry = 1;
        snprintf(err, n, rc == RV_STORE_CONFLICT ? "the room has a newer game already"
                                                 : "the database refused the new game");
        return -1;
    }
    new_game_apply(s, r, &ng);
    return 0;
}

/* The message being handled, copied into a store job (handled again after a conflict). */
static int job_msg(srv *s, srv_db_job *j) {
    if (!(j->msg = malloc(s->msg_len + 1))) return -1;
    if (s->msg_len) memcpy(j->msg, s->msg_text, s->msg_len);
    j->msg[s->msg_len] = 0;
    j->msglen = s->msg_len;
    j->retried = s->retried;
    return 0;
}

int srv_job_msg(srv *s, srv_db_job *j) { return job_msg(s, j); }

/* A new game on a shared store: the store worker starts it; the room waits (start_done). */
static void new_game_async(srv *s, room *r, srv_conn *c, const char *variant, int size,
                           rv_opening_rule rule, int allow_hints, int swap) {
    char err[160];
    srv_db_job *j = calloc(1, sizeof *j);
    if (!j || !(j->start = malloc(sizeof *j->start)) || job_msg(s, j)) {
        if (j) free(j->start);
        free(j);
        return srv_error(c, "server", "out of memory");
    }
    if (new_game_prepare(r, variant, size, rule, allow_hints, swap, j->start, err, sizeof err)) {
        free(j->start);
        free(j->msg);
        free(j);
        return srv_error(c, "unavailable", err);
    }
    j->kind = SRV_DB_START;
    j->room = r;
    snprintf(j->what, sizeof j->what, "the new game");
    r->busy_conn = c;
    srv_db_submit(s, j);
}

/* The events message of a game just started (it has none yet). */
static void send_no_events(srv_conn *c, const room *r) {
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "type", "events");
    cJSON_AddNumberToObject(j, "game_id", (double)r->rec.game_id);
    cJSON_AddItemToObject(j, "events", cJSON_CreateArray());
    send_json(c, j);
    cJSON_Delete(j);
}

static int json_int(const cJSON *obj, const char *key, int def, int lo, int hi, int *out) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v || cJSON_IsNull(v)) {
        *out = def;
        return 0;
    }
    /* The range first: converting a double outside int's range is undefined. */
    double d = cJSON_IsNumber(v) ? v->valuedouble : 0.5;
    if (!(d >= lo && d <= hi) || d != (double)(int)d) return -1;
    *out = (int)d;
    return 0;
}

static const char *json_str(const cJSON *obj, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static void do_create(srv *s, srv_conn *c, const cJSON *msg) {
    const char *variant = json_str(msg, "variant");
    const char *mode = json_str(msg, "mode");
    const char *color = json_str(msg, "color");
    int size, level;
    if (!variant) variant = "renju";
    if (!mode) mode = "ai";
    if (strcmp(mode, "ai") && strcmp(mode, "online"))
        return bad_request(c, "mode", "mode must be \"ai\" or \"online\"");
    rv_color me = color ? parse_color(color) : RV_BLACK;
    if (!me) return bad_request(c, "color", "color must be \"black\" or \"white\"");
    if (json_int(msg, "size", 0, 0, RV_GOMOKU_MAX_SIZE, &size))
        return bad_request(c, "size", "size must be an integer from 5 to 26");
    if (json_int(msg, "level", 5, 1, 20, &level))
        return bad_request(c, "level", "level must be an integer from 1 to 20");
    rv_game probe;
    char err[160];
    rv_status st = rv_game_init(&probe, variant, size, err, sizeof err);
    if (st != RV_OK) return bad_request(c, st == RV_ERANGE ? "size" : "variant", err);
    const char *opening = json_str(msg, "opening");
    rv_opening_rule rule = RV_OPENING_FREE;
    rv_opening o;
    if (opening && (rv_opening_rule_parse(opening, &rule) != RV_OK ||
                    (rv_game_is_reversi(&probe) && rule != RV_OPENING_FREE) ||
                    (!rv_game_is_reversi(&probe) &&
                     rv_opening_init(&o, rule, rv_game_gomoku(&probe)) != RV_OK))) {
        cJSON *p = cJSON_CreateObject();
        cJSON_AddStringToObject(p, "opening", opening);
        cJSON_AddStringToObject(p, "variant", rv_game_variant(&probe));
        cJSON_AddNumberToObject(p, "size", rv_game_size(&probe));
        return srv_error_params(c, "bad_opening",
                                "opening: free; swap2 for Gomoku; soosorv8 for Renju on 15x15", p);
    }
    const cJSON *hints = cJSON_GetObjectItemCaseSensitive(msg, "hints");
    if (hints && !cJSON_IsBool(hints)) return bad_request(c, "hints", "hints must be true or false");

    room *r = calloc(1, sizeof *r);
    if (!r) return srv_error(c, "server", "out of memory");
    do {
        if (srv_random_hex(r->rec.id, 5)) {
            free(r);
            return srv_error(c, "server", "no randomness for a room id");
        }
    } while (find_loaded(s, r->rec.id));
    snprintf(r->rec.mode, sizeof r->rec.mode, "%s", mode);
    r->rec.level = level;
    if (!strcmp(mode, "ai")) r->rec.ai_color = rv_opponent(me);
    if (srv_random_hex(r->rec.token[me - 1], 16)) {
        free(r);
        return srv_error(c, "server", "no randomness for a seat token");
    }
    if (s->db_started) {
        /* Stored by the store worker: the room is loaded meanwhile, with its creator in it
           and its messages waiting (start_done tells the creator, or takes it away). */
        srv_new_game ng;
        if (new_game_prepare(r, variant, size, rule, cJSON_IsTrue(hints), 0, &ng, err,
                             sizeof err)) {
            free(r);
            return srv_error(c, "unavailable", err);
        }
        r->game = ng.game;
        r->open = ng.open;
        leave_room(s, c);
        room_insert(s, r);
        enter_room(c, r, me);
        return new_game_async(s, r, c, variant, size, rule, cJSON_IsTrue(hints), 0);
    }
    if (room_new_game(s, r, variant, size, rule, cJSON_IsTrue(hints), 0, err, sizeof err)) {
        free(r);
        return srv_error(c, "unavailable", err);
    }
    leave_room(s, c);
    room_insert(s, r);
    enter_room(c, r, me);
    send_joined(c, r);
    ai_request(s, r);
    broadcast_state(r);
    send_no_events(c, r);
}

/* Compares a token without an early exit, so timing says nothing about how much matched. */
static int token_eq(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    unsigned diff = (unsigned)(la ^ lb);
    for (size_t i = 0; i < la && i < lb; i++) diff |= (unsigned char)(a[i] ^ b[i]);
    return diff == 0;
}

/* A shared store: the store worker reads the room and claims a seat for the visitor (the
   connection's messages wait); join_done puts it in. */
static void join_async(srv *s, srv_conn *c, const char *id, const char *token) {
    srv_db_job *j = calloc(1, sizeof *j);
    if (!j) return srv_error(c, "server", "out of memory");
    j->kind = SRV_DB_JOIN;
    j->conn = c;
    snprintf(j->join_id, sizeof j->join_id, "%s", id);
    /* (a token too long to be one cannot match, cut or not) */
    snprintf(j->join_token, sizeof j->join_token, "%s", token && strlen(token) < sizeof j->join_token ? token : "");
    c->joining = 1;
    srv_db_submit(s, j);
}

static void do_join(srv *s, srv_conn *c, const cJSON *msg) {
    const char *id = json_str(msg, "room");
    const char *token = json_str(msg, "token");
    if (!id || strlen(id) >= sizeof(((rv_store_room *)0)->id))
        return bad_request(c, "room", "join needs \"room\": the room's id");
    if (s->db_started) return join_async(s, c, id, token);
    if (c->room && !strcmp(c->room->rec.id, id)) leave_room(s, c);
    room *r = get_room(s, id);
    if (!r) return srv_error(c, "no_room", "no such room");
    /* Seats may have been taken through another server since this one loaded the room. */
    if (rv_store_shared(s->store)) srv_room_refresh(s, r);
    leave_room(s, c);
    int seat = 0;
    if (token && *token) {
        for (int k = 1; k <= 2; k++)
            if (r->rec.token[k - 1][0] && token_eq(r->rec.token[k - 1], token)) seat = k;
    }
    if (!seat && !strcmp(r->rec.mode, "online")) {
        /* The first visitor without a seat takes the open one; later ones watch. */
        for (int k = 1; k <= 2 && !seat; k++)
            if (!r->rec.token[k - 1][0]) {
                char tok[40];
                if (srv_random_hex(tok, 16)) break;
                int rc = rv_store_claim_seat(s->store, r->rec.id, k, tok);
                if (rc == RV_STORE_CONFLICT) {
                    /* Taken through another server meanwhile: look at the other seat. */
                    srv_room_refresh(s, r);
                    continue;
                }
                if (rc) break;
                memcpy(r->rec.token[k - 1], tok, sizeof tok);
                seat = k;
            }
    }
    enter_room(c, r, seat);
    /* Back in a room whose computer stopped when it emptied: it thinks again. */
    if (!rv_game_over(&r->game) && !r->thinking && !r->ai_wait) ai_request(s, r);
    send_joined(c, r);
    broadcast_state(r);
    srv_send_events(s, c, r);
}

/*
 * Commits game G as the room's game: its moves from ply KEEP on replace the stored ones,
 * with its result and the undo request, in one transaction against the room's version.
 * On success the room takes G; otherwise nothing changed (RV_STORE_CONFLICT: another
 * commit came first).
 */
static int room_commit(srv *s, room *r, const rv_game *g, int keep, rv_color undo_request) {
    /* A shared store queues the computer's move with the commit (any server may think);
       its opening choices are thought in process (ai_request). */
    rv_color tm = rv_game_to_move(g);
    int ai = rv_store_shared(s->store) && !in_opening(r) && tm && (r->rec.ai_color & tm)
                 ? r->rec.level : 0;
    int64_t v;
    int rc = srv_commit_game(s->store, r->rec.game_id, r->version, g, keep, undo_request, ai, NULL,
                             &v);
    if (rc != RV_STORE_OK) {
        if (rc == RV_STORE_CONFLICT) s->retry = 1;
        return rc;
    }
    if (g != &r->game) r->game = *g;
    r->version = v;
    r->undo_request = undo_request;
    r->ai_pending = ai > 0;
    return RV_STORE_OK;
}

int srv_room_commit(srv *s, room *r, const rv_game *g, int keep) {
    return room_commit(s, r, g, keep, r->undo_request);
}

int srv_commit_game(rv_store *st, int64_t game_id, int64_t version, const rv_game *g, int keep,
                    int undo_request, int ai_level, const rv_store_act *act, int64_t *nv) {
    int n = rv_game_nmoves(g);
    char texts[3][16];
    const char *moves[3];
    if (n - keep > 3) return RV_STORE_FAIL; /* a move and a forced pass, or opening stones */
    for (int i = keep; i < n; i++) {
        rv_game_move_text(g, i, texts[i - keep], sizeof texts[0]);
        moves[i - keep] = texts[i - keep];
    }
    char res[128] = "";
    if (rv_game_over(g)) rv_game_result_text(g, res, sizeof res);
    rv_store_change ch = {.game = game_id, .version = version, .keep = keep, .moves = moves,
                          .n = n > keep ? n - keep : 0, .result = res,
                          .undo_request = undo_request, .ai_level = ai_level};
    if (!act) return rv_store_commit(st, &ch, nv);
    rv_store_act a = *act;
    a.change = ch;
    return rv_store_commit_act(st, &a, nv);
}

void srv_ai_request(srv *s, room *r) { ai_request(s, r); }

/* What a room does once a commit of the store worker is stored (commit_done). */
enum { AFTER_NONE, AFTER_RESET, AFTER_DECLINED };
static void commit_job(srv *s, room *r, srv_conn *c, const rv_game *g, int keep,
                       rv_color undo, int after, int asker, int by, const char *what);

/* The computer is to move: one SQLite server thinks in process; with a shared store the
   commit that led here queued a job, or (a new game, a lost job) one is queued now (by the
   store worker; while the room has another job, the tick tries again). */
static void ai_request(srv *s, room *r) {
    if (!ai_to_move(r)) return;
    if (!rv_store_shared(s->store) || in_opening(r)) return want_ai(s, r);
    if (r->ai_pending) return;
    if (!s->db_started)
        return (void)room_commit(s, r, &r->game, rv_game_nmoves(&r->game), r->undo_request);
    if (r->busy) {
        r->ai_wait = 1;
        r->ai_retry_ns = rv_clock_ns() + (uint64_t)SRV_TICK_MS * 1000000u;
        return;
    }
    r->ai_wait = 0;
    commit_job(s, r, NULL, &r->game, rv_game_nmoves(&r->game), r->undo_request, AFTER_NONE, 0,
               0, "the computer's turn");
}

/* The answer to a commit that failed: with RV_STORE_CONFLICT the first time, none
   (srv_handle re-reads the room and handles the message again); else an error. */
static void commit_failed(srv *s, srv_conn *c, int rc, const char *what) {
    char m[160];
    if (rc == RV_STORE_CONFLICT && !s->retried) return;
    s->retry = 0;
    if (rc == RV_STORE_CONFLICT) {
        snprintf(m, sizeof m, "the game changed meanwhile: %s was not stored, look again", what);
        return srv_error(c, "stale", m);
    }
    snprintf(m, sizeof m, "the server cannot reach its database: %s was not stored, try again",
             what);
    srv_error(c, "unavailable", m);
}

/* A commit on a shared store (a move, an undo, a resignation, an undo request or its answer,
   a computer move to queue): the store worker commits game G (its moves from ply KEEP on,
   the undo request UNDO) and the room waits (srv_room_db_done). C: whose message it answers
   (NULL: none). AFTER: AFTER_RESET drops the room's AI work, AFTER_DECLINED tells the room
   that colour ASKER's undo request was declined by colour BY. */
static void commit_job(srv *s, room *r, srv_conn *c, const rv_game *g, int keep,
                       rv_color undo, int after, int asker, int by, const char *what) {
    srv_db_job *j = calloc(1, sizeof *j);
    int n = rv_game_nmoves(g);
    if (!j || n - keep > 3 || (c && job_msg(s, j))) {
        free(j);
        if (c) srv_error(c, "server", "out of memory");
        return;
    }
    j->kind = SRV_DB_COMMIT;
    j->room = r;
    j->game_id = r->rec.game_id;
    j->version = r->version;
    j->keep = keep;
    j->nmoves = n > keep ? n - keep : 0;
    for (int i = keep; i < n; i++) rv_game_move_text(g, i, j->moves[i - keep], sizeof j->moves[0]);
    if (rv_game_over(g)) rv_game_result_text(g, j->result, sizeof j->result);
    j->undo = undo;
    rv_color tm = rv_game_to_move(g);
    j->ai = !in_opening(r) && tm && (r->rec.ai_color & tm) ? r->rec.level : 0;
    j->after = *g;
    j->after_kind = after;
    j->asker = asker;
    j->by = by;
    snprintf(j->what, sizeof j->what, "%s", what);
    r->busy_conn = c;
    srv_trace(s, "sub", "%s %lld %d %llu", r->rec.id, (long long)j->game_id, keep,
              (unsigned long long)(c ? c->rx_ns : 0));
    srv_db_submit(s, j);
}

static void do_move(srv *s, srv_conn *c, const cJSON *msg) {
    room *r = c->room;
    if (!r) return srv_error(c, "no_room", "join or create a room first");
    if (!c->seat) return srv_error(c, "not_seated", "you are watching this game: you cannot move");
    if (rv_game_over(&r->game)) return srv_error(c, "over", "the game is over");
    if (srv_turn(r) != (rv_color)c->seat)
        return srv_error(c, "not_your_turn", "it is not your turn");
    int ply;
    if (json_int(msg, "ply", -1, 0, 1 << 20, &ply))
        return bad_request(c, "ply", "ply must be the number of moves played so far");
    if (ply >= 0 && ply != rv_game_nmoves(&r->game))
        return srv_error(c, "stale", "the position changed: this move was for an older one");
    const char *text = json_str(msg, "move");
    int x, y, has_xy = !json_int(msg, "x", -1, 0, 25, &x) && !json_int(msg, "y", -1, 0, 25, &y);
    if (!text && !(has_xy && x >= 0 && y >= 0))
        return bad_request(c, "move", "move needs \"move\" (like \"h8\") or \"x\" and \"y\"");
    if (!rv_game_is_reversi(&r->game) && rv_opening_get_step(&r->open) != RV_STEP_PLAY) {
        if (text && rv_game_parse_point(&r->game, text, &x, &y) != RV_OK)
            return srv_error(c, "bad_move", "that is not a point like h8");
        return srv_opening_point(s, c, x, y);
    }
    int from = rv_game_nmoves(&r->game);
    srv_trace(s, "mv", "%s %d", r->rec.id, from);
    rv_game g = r->game;
    char why[160];
    int kind = 0;
    rv_status st = text ? rv_game_play_text(&g, text, why, sizeof why, &kind)
                        : rv_game_play_xy(&g, x, y, why, sizeof why, &kind);
    if (st != RV_OK) {
        const char *code = st == RV_EFORBIDDEN ? "forbidden"
                           : st == RV_EOCCUPIED ? "occupied"
                           : st == RV_EOVER     ? "over"
                           : st == RV_EINVAL    ? "bad_move"
                                                : "illegal";
        char pt[16] = "";
        int px = x, py = y;
        if (!text || rv_game_parse_point(&r->game, text, &px, &py) == RV_OK)
            if (px >= 0 && py >= 0 && px < rv_game_size(&r->game) && py < rv_game_size(&r->game))
                rv_game_point_text(&r->game, px, py, pt, sizeof pt);
        const char *reason = NULL;
        if (st == RV_ERANGE) reason = "off_board";
        else if (st == RV_EILLEGAL && px < 0) reason = "must_move";
        else if (st == RV_EILLEGAL && rv_game_is_reversi(&r->game)) reason = "no_flips";
        else if (!strcmp(code, "illegal")) reason = "other";
        return error_kind(c, code, why, kind, pt, reason);
    }
    if (s->db_started) return commit_job(s, r, c, &g, from, RV_EMPTY, AFTER_NONE, 0, 0, "the move");
    int rc = room_commit(s, r, &g, from, RV_EMPTY);
    if (rc) return commit_failed(s, c, rc, "the move");
    ai_request(s, r);
    broadcast_state(r);
}

/* Takes back moves until colour `who` has one fewer move (and it is their turn): 1 when
   there is none to take back, else room_commit's answer. */
static int undo_for(srv *s, room *r, rv_color who) {
    rv_game g = r->game;
    if (rv_game_undo_for(&g, who) != RV_OK) return 1;
    if (rv_game_nmoves(&g) < rv_opening_locked_moves(&r->open)) return 2;
    int rc = room_commit(s, r, &g, rv_game_nmoves(&g), RV_EMPTY);
    if (rc) return rc;
    r->gen = ++s->last_gen;
    stop_ai(s, r);
    return 0;
}

static void do_undo(srv *s, srv_conn *c) {
    room *r = c->room;
    if (!r) return srv_error(c, "no_room", "join or create a room first");
    if (!c->seat) return srv_error(c, "not_seated", "you are watching this game");
    rv_game_result res;
    rv_game_get_result(&r->game, &res);
    if (res.end == RV_END_RESIGN) return srv_error(c, "over", "the game ended by resignation");
    if (!rv_game_is_reversi(&r->game) && rv_opening_get_step(&r->open) != RV_STEP_PLAY)
        return srv_error(c, "opening_undo", "the opening cannot be taken back");
    if (!strcmp(r->rec.mode, "online")) {
        if (r->undo_request) return srv_error(c, "pending", "an undo request is already open");
        rv_game probe = r->game;
        if (rv_game_undo_for(&probe, (rv_color)c->seat) != RV_OK)
            return srv_error(c, "nothing_to_undo", "you have no move to take back");
        if (rv_game_nmoves(&probe) < rv_opening_locked_moves(&r->open))
            return srv_error(c, "opening_undo", "the opening cannot be taken back");
        if (s->db_started)
            return commit_job(s, r, c, &r->game, rv_game_nmoves(&r->game), (rv_color)c->seat,
                              AFTER_NONE, 0, 0, "the undo request");
        int rc = room_commit(s, r, &r->game, rv_game_nmoves(&r->game), (rv_color)c->seat);
        if (rc) return commit_failed(s, c, rc, "the undo request");
        return broadcast_state(r);
    }
    if (s->db_started) {
        rv_game g = r->game;
        if (rv_game_undo_for(&g, (rv_color)c->seat) != RV_OK)
            return srv_error(c, "nothing_to_undo", "you have no move to take back");
        if (rv_game_nmoves(&g) < rv_opening_locked_moves(&r->open))
            return srv_error(c, "opening_undo", "the opening cannot be taken back");
        return commit_job(s, r, c, &g, rv_game_nmoves(&g), RV_EMPTY, AFTER_RESET, 0, 0,
                          "the undo");
    }
    int rc = undo_for(s, r, (rv_color)c->seat);
    if (rc == 1) return srv_error(c, "nothing_to_undo", "you have no move to take back");
    if (rc == 2) return srv_error(c, "opening_undo", "the opening cannot be taken back");
    if (rc) return commit_failed(s, c, rc, "the undo");
    ai_request(s, r);
    broadcast_state(r);
}

/* Everyone hears that ASKER's undo request was declined by BY, the asker above all (after
   the state, which clears messages). */
static void undo_declined(room *r, rv_color asker, rv_color by) {
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "type", "notice");
    cJSON_AddStringToObject(j, "code", "undo_declined");
    cJSON_AddStringToObject(j, "asker", color_name(asker));
    cJSON_AddStringToObject(j, "by", color_name(by));
    srv_broadcast_json(r, j);
    cJSON_Delete(j);
}

static void do_undo_reply(srv *s, srv_conn *c, const cJSON *msg) {
    room *r = c->room;
    if (!r || !c->seat) return srv_error(c, "not_seated", "only a player can answer");
    if (!r->undo_request || r->undo_request == (rv_color)c->seat)
        return srv_error(c, "no_request", "there is no undo request to answer");
    const cJSON *acc = cJSON_GetObjectItemCaseSensitive(msg, "accept");
    if (!cJSON_IsBool(acc)) return bad_request(c, "accept", "accept must be true or false");
    rv_color who = r->undo_request;
    if (s->db_started) {
        /* Accepted: the asker's move is taken back (if it still can be); else the request
           is withdrawn. */
        rv_game g = r->game;
        if (cJSON_IsTrue(acc) && rv_game_undo_for(&g, who) == RV_OK &&
            rv_game_nmoves(&g) >= rv_opening_locked_moves(&r->open))
            return commit_job(s, r, c, &g, rv_game_nmoves(&g), RV_EMPTY, AFTER_RESET, 0, 0,
                              "the answer");
        return commit_job(s, r, c, &r->game, rv_game_nmoves(&r->game), RV_EMPTY,
                          cJSON_IsTrue(acc) ? AFTER_NONE : AFTER_DECLINED, who, c->seat,
                          "the answer");
    }
    int rc = cJSON_IsTrue(acc) ? undo_for(s, r, who) : 1;
    /* Refused (or nothing left to take back): the request is withdrawn. */
    if (rc == 1 || rc == 2) rc = room_commit(s, r, &r->game, rv_game_nmoves(&r->game), RV_EMPTY);
    if (rc) return commit_failed(s, c, rc, "the answer");
    broadcast_state(r);
    if (!cJSON_IsTrue(acc)) undo_declined(r, who, (rv_color)c->seat);
}

static void do_hint(srv *s, srv_conn *c) {
    room *r = c->room;
    if (!r) return srv_error(c, "no_room", "join or create a room first");
    if (!c->seat) return srv_error(c, "not_seated", "you are watching this game");
    if (rv_game_over(&r->game)) return srv_error(c, "over", "the game is over");
    if (!hints_allowed(r))
        return srv_error(c, "hint_off", "hints are off in this room (its creator did not allow them)");
    if (in_opening(r)) return srv_error(c, "opening_hint", "no hints during the opening");
    if (rv_game_to_move(&r->game) != (rv_color)c->seat)
        return srv_error(c, "not_your_turn", "it is not your turn");
    if (r->hints >= 1) return srv_error(c, "pending", "a hint is already being computed");
    if (srv_ai_hint(s, r, c->seat))
        return srv_error(c, "busy", "the computer is busy: ask again in a moment");
    if (!strcmp(r->rec.mode, "online")) {
        /* Between two players a hint is announced to the room and kept with the game. */
        char ply[16];
        snprintf(ply, sizeof ply, "%d", rv_game_nmoves(&r->game));
        if (s->db_started) {
            /* (counted when stored: srv_note_done) */
            srv_note_async(s, r, NULL, "hint", color_name((rv_color)c->seat), ply);
        } else if (srv_note(s, r, "hint", color_name((rv_color)c->seat), ply) == 0) {
            r->hints_used[c->seat]++;
            broadcast_state(r);
        }
    }
}

static void do_resign(srv *s, srv_conn *c) {
    room *r = c->room;
    if (!r) return srv_error(c, "no_room", "join or create a room first");
    if (!c->seat) return srv_error(c, "not_seated", "you are watching this game");
    if (rv_game_over(&r->game)) return srv_error(c, "over", "the game is over");
    rv_game g = r->game;
    rv_game_resign(&g, (rv_color)c->seat);
    if (s->db_started)
        return commit_job(s, r, c, &g, rv_game_nmoves(&g), RV_EMPTY, AFTER_RESET, 0, 0,
                          "the resignation");
    int rc = room_commit(s, r, &g, rv_game_nmoves(&g), RV_EMPTY);
    if (rc) return commit_failed(s, c, rc, "the resignation");
    r->gen = ++s->last_gen;
    stop_ai(s, r);
    broadcast_state(r);
}

void srv_swap_seats(room *r, const rv_store_room *rec) {
    r->rec = *rec;
    /* Each seated connection follows its token to the other seat. */
    for (srv_conn *c = r->conns; c; c = c->next_in_room)
        if (c->seat) {
            c->seat = 3 - c->seat;
            send_joined(c, r);
        }
}

static void do_new(srv *s, srv_conn *c) {
    room *r = c->room;
    if (!r) return srv_error(c, "no_room", "join or create a room first");
    if (!c->seat) return srv_error(c, "not_seated", "you are watching this game");
    if (!strcmp(r->rec.mode, "online") && !rv_game_over(&r->game))
        return srv_error(c, "in_progress", "resign first: the game is still going on");
    char err[160], variant[16];
    snprintf(variant, sizeof variant, "%s", rv_game_variant(&r->game));
    /* Online, the players take turns with black: colours swap for the next game (in the
       same transaction as the new game). */
    int swap = !strcmp(r->rec.mode, "online");
    if (s->db_started)
        return new_game_async(s, r, c, variant, rv_game_size(&r->game),
                              rv_opening_get_rule(&r->open), r->allow_hints, swap);
    if (room_new_game(s, r, variant, rv_game_size(&r->game), rv_opening_get_rule(&r->open),
                      r->allow_hints, swap, err, sizeof err)) {
        if (s->retry && !s->retried) return; /* another server started one: look again */
        s->retry = 0;
        return srv_error(c, "unavailable", err);
    }
    ai_request(s, r);
    broadcast_state(r);
}

static void hint_done(srv *s, room *r, ai_job *job) {
    r->hints--;
    if (job->gen == r->gen && job->status == RV_OK) {
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "type", "hint");
        char t[16] = "pass";
        if (job->x >= 0) rv_game_point_text(&r->game, job->x, job->y, t, sizeof t);
        cJSON_AddStringToObject(j, "move", t);
        cJSON_AddNumberToObject(j, "x", job->x);
        cJSON_AddNumberToObject(j, "y", job->y);
        cJSON_AddNumberToObject(j, "ply", rv_game_nmoves(&r->game));
        char *text = cJSON_PrintUnformatted(j);
        cJSON_Delete(j);
        for (srv_conn *c = r->conns; text && c; c = c->next_in_room)
            if (c->seat == job->seat) srv_send(c, text, strlen(text));
        free(text);
    }
    if (room_idle(r)) room_unload(s, r);
}

void srv_ai_done(srv *s, ai_job *job) {
    room *r = find_loaded(s, job->room);
    srv_trace(s, "aid", "%s %d %d %d", job->room, rv_game_nmoves(&job->game), job->hint,
              r ? job->gen == r->gen : -1);
    if (!r) return;
    if (job->hint) return hint_done(s, r, job);
    if (job->gen != r->gen) {
        /* An answer for a position the room has left (undo, resign, new game). */
        if (room_idle(r)) room_unload(s, r);
        return;
    }
    r->thinking = 0;
    if (job->status != RV_OK && job->status != RV_EOVER) {
        for (srv_conn *c = r->conns; c; c = c->next_in_room)
            srv_error(c, "ai_failed", "the computer cannot play this game here");
    }
    if (job->opening) {
        if (job->status == RV_OK && ai_to_move(r)) srv_opening_ai_act(s, r, &job->act);
    } else if (job->status == RV_OK && ai_to_move(r)) {
        int from = rv_game_nmoves(&r->game);
        rv_game g = r->game;
        char why[160];
        int kind;
        int rc;
        rv_status st = job->x < 0 ? rv_game_play_text(&g, "pass", why, sizeof why, &kind)
                                  : rv_game_play_xy(&g, job->x, job->y, why, sizeof why, &kind);
        if (st != RV_OK) {
            fprintf(stderr, "renversi serve: the AI's move was refused: %s\n", why);
        } else if ((rc = room_commit(s, r, &g, from, RV_EMPTY))) {
            s->retry = 0;
            if (rc == RV_STORE_CONFLICT) {
                srv_room_refresh(s, r);
            } else {
                /* The database refused (disk full, connection lost): the players hear of it
                   and the computer tries again, waiting longer each time, until it is stored. */
                r->ai_backoff_ms = r->ai_backoff_ms ? r->ai_backoff_ms * 2 : 1000;
                if (r->ai_backoff_ms > 30000) r->ai_backoff_ms = 30000;
                r->ai_wait = 1;
                r->ai_retry_ns = rv_clock_ns() + (uint64_t)r->ai_backoff_ms * 1000000u;
                fprintf(stderr, "renversi serve: room %s: the computer's move could not be "
                                "stored; retrying in %d s\n", r->rec.id, r->ai_backoff_ms / 1000);
                for (srv_conn *c = r->conns; c; c = c->next_in_room)
                    srv_error(c, "store_failed",
                              "the computer's move could not be stored: it will try again");
            }
        } else {
            r->ai_backoff_ms = 0;
            ai_request(s, r);
        }
    }
    if (room_idle(r)) {
        room_unload(s, r);
        return;
    }
    broadcast_state(r);
}

void srv_rooms_tick(srv *s) {
    srv_ai_restop(s);
    uint64_t now = rv_clock_ns();
    for (int i = 0; i < SRV_ROOM_BUCKETS; i++)
        for (room *r = s->rooms[i]; r; r = r->next) {
            if (!r->ai_wait || now < r->ai_retry_ns) continue;
            if (!r->nconns || !ai_to_move(r) || rv_game_over(&r->game) || r->thinking) {
                r->ai_wait = 0;
                continue;
            }
            ai_request(s, r);
        }
}

/* ---------------------------------------------------------------- stored games */

/* A stored game's public fields: never its room id, the share link that gives a seat. */
static void add_header(cJSON *o, const rv_store_game *g) {
    cJSON_AddNumberToObject(o, "id", (double)g->id);
    cJSON_AddStringToObject(o, "variant", g->variant);
    cJSON_AddNumberToObject(o, "size", g->size);
    cJSON_AddStringToObject(o, "black", g->black);
    cJSON_AddStringToObject(o, "white", g->white);
    cJSON_AddNumberToObject(o, "created", (double)g->created);
    cJSON_AddNumberToObject(o, "nmoves", g->nmoves);
    cJSON_AddStringToObject(o, "result", g->result);
}

static void do_list(rv_store *st, srv_conn *c) {
    enum { MAX = 50 };
    rv_store_game *g = malloc(MAX * sizeof *g);
    if (!g) return srv_error(c, "server", "out of memory");
    int n = rv_store_list_games(st, g, MAX);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "type", "games");
    cJSON *arr = cJSON_AddArrayToObject(j, "games");
    for (int i = 0; i < n; i++) {
        cJSON *o = cJSON_CreateObject();
        add_header(o, &g[i]);
        cJSON_AddItemToArray(arr, o);
    }
    free(g);
    send_json(c, j);
    cJSON_Delete(j);
}

static int stored_id(srv_conn *c, const cJSON *msg, int64_t *id) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(msg, "id");
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 1 && v->valuedouble <= 9e15)) {
        bad_request(c, "id", "id must be a stored game's number");
        return -1;
    }
    *id = (int64_t)v->valuedouble;
    return 0;
}

static void do_replay(rv_store *st, srv_conn *c, const cJSON *msg) {
    int64_t id;
    if (stored_id(c, msg, &id)) return;
    rv_game *full = malloc(sizeof *full), *step = malloc(sizeof *step);
    rv_store_game hdr;
    if (!full || !step || srv_load_game(st, id, full, &hdr)) {
        free(full);
        free(step);
        return srv_error(c, "not_found", "no such game");
    }
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "type", "replay");
    add_header(j, &hdr);
    add_position(j, full);
    cJSON *ev = srv_events_json(st, id); /* chat and opening choices, with their ply */
    if (ev) cJSON_AddItemToObject(j, "events", ev);
    /* What each ply changed, so the page can step through without knowing any rule: per
       ply a string, the mover's stone (X or O; "" for a pass) then two letters (column,
       row from the top; a = 0) per point that took it, the move first, then the flips. */
    cJSON *steps = cJSON_AddArrayToObject(j, "steps");
    char err[64];
    rv_game_init(step, rv_game_variant(full), rv_game_size(full), err, sizeof err);
    int n = rv_game_size(full), nm = rv_game_nmoves(full);
    char *prev = malloc((size_t)n * n + 1), *d = malloc(2 * (size_t)n * n + 2);
    if (prev) {
        for (int k = 0; k < n * n; k++) {
            rv_color col = rv_game_at(step, k % n, k / n);
            prev[k] = col == RV_BLACK ? 'X' : col == RV_WHITE ? 'O' : '.';
        }
        prev[n * n] = 0;
        cJSON_AddStringToObject(j, "start", prev);
    }
    /* Gomoku stones never change once placed: a step is the move. Reversi: the move and
       the discs that changed colour (a 64-square comparison). */
    int flips = rv_game_is_reversi(full);
    for (int i = 1; prev && d && i <= nm; i++) {
        size_t len = 0;
        int mx = -1, my = -1;
        rv_game_move_xy(full, i - 1, &mx, &my);
        if (!flips) {
            if (mx >= 0 && my >= 0) {
                d[len++] = rv_game_move_color(full, i - 1) == RV_BLACK ? 'X' : 'O';
                d[len++] = (char)('a' + mx);
                d[len++] = (char)('a' + my);
            }
            d[len] = 0;
            cJSON_AddItemToArray(steps, cJSON_CreateString(d));
            continue;
        }
        for (int k = 0; k < n * n; k++) prev[k] = (char)rv_game_at(step, k % n, k / n);
        if (i > rv_game_nmoves(step)) {
            char t[16], why[64];
            int kind;
            rv_game_move_text(full, i - 1, t, sizeof t);
            rv_game_play_text(step, t, why, sizeof why, &kind);
        }
        if (mx >= 0 && my >= 0 && mx < n && my < n && rv_game_at(step, mx, my) != (rv_color)prev[my * n + mx]) {
            rv_color col = rv_game_at(step, mx, my);
            d[len++] = col == RV_BLACK ? 'X' : 'O';
            d[len++] = (char)('a' + mx);
            d[len++] = (char)('a' + my);
        }
        for (int k = 0; k < n * n; k++) {
            rv_color col = rv_game_at(step, k % n, k / n);
            if (col == (rv_color)prev[k] || (k % n == mx && k / n == my)) continue;
            if (!len) d[len++] = col == RV_BLACK ? 'X' : 'O';
            d[len++] = (char)('a' + k % n);
            d[len++] = (char)('a' + k / n);
        }
        d[len] = 0;
        cJSON_AddItemToArray(steps, cJSON_CreateString(d));
    }
    free(prev);
    free(d);
    free(full);
    free(step);
    send_json(c, j);
    cJSON_Delete(j);
}

static void do_export(rv_store *st, srv_conn *c, const cJSON *msg) {
    int64_t id;
    if (stored_id(c, msg, &id)) return;
    const char *format = json_str(msg, "format");
    if (!format) return bad_request(c, "format", "format: psq, moves, ggf or transcript");
    rv_game *g = malloc(sizeof *g);
    rv_store_game hdr;
    if (!g || srv_load_game(st, id, g, &hdr)) {
        free(g);
        return srv_error(c, "not_found", "no such game");
    }
    char *text = NULL;
    rv_game_export(g, format, &text);
    free(g);
    if (!text)
        return error_with(c, "bad_format", "this game cannot be exported in that format (Gomoku: "
                                           "psq, moves; Reversi: transcript, ggf, moves)",
                          "format", format);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "type", "export");
    cJSON_AddNumberToObject(j, "id", (double)id);
    cJSON_AddStringToObject(j, "format", format);
    char fname[64];
    const char *ext = !strcmp(format, "psq")   ? "psq"
                      : !strcmp(format, "ggf") ? "ggf"
                                               : "txt";
    snprintf(fname, sizeof fname, "renversi-%lld-%s.%s", (long long)id, format, ext);
    cJSON_AddStringToObject(j, "filename", fname);
    cJSON_AddStringToObject(j, "text", text);
    free(text);
    send_json(c, j);
    cJSON_Delete(j);
}

/* ---------------------------------------------------------------- a connection's jobs */

void srv_join_read(rv_store *st, srv_db_job *j) {
    rv_store_room cur;
    memset(&cur, 0, sizeof cur);
    if (srv_room_read(st, j->join_id, &cur, 1, &j->data)) {
        free(j->data.ev);
        j->data.ev = NULL;
        j->data.nev = 0;
        /* No such room, or no database: told apart by asking it. */
        j->rc = rv_store_ping(st) == RV_STORE_OK ? RV_STORE_CONFLICT : RV_STORE_FAIL;
        return;
    }
    j->rc = RV_STORE_OK;
    rv_store_room *rec = &j->data.rec;
    for (int k = 1; k <= 2 && j->join_token[0]; k++)
        if (rec->token[k - 1][0] && token_eq(rec->token[k - 1], j->join_token)) return;
    if (strcmp(rec->mode, "online")) return;
    /* The first visitor without a seat takes the open one; later ones watch. */
    for (int k = 1; k <= 2; k++) {
        if (rec->token[k - 1][0]) continue;
        char tok[40];
        if (srv_random_hex(tok, 16)) return;
        int rc = rv_store_claim_seat(st, rec->id, k, tok);
        if (rc == RV_STORE_CONFLICT) {
            /* Taken through another server meanwhile: look at the other seat. */
            rv_store_room again;
            if (rv_store_get_room(st, rec->id, &again) == RV_STORE_OK)
                memcpy(rec->token, again.token, sizeof rec->token);
            continue;
        }
        if (rc) return;
        memcpy(rec->token[k - 1], tok, sizeof tok);
        memcpy(j->claimed, tok, sizeof tok);
        j->join_seat = k;
        return;
    }
}

static void do_list(rv_store *st, srv_conn *c);
static void do_replay(rv_store *st, srv_conn *c, const cJSON *msg);
static void do_export(rv_store *st, srv_conn *c, const cJSON *msg);

void srv_ask_run(rv_store *st, srv_db_job *j) {
    cJSON *msg = cJSON_ParseWithLength(j->msg, j->msglen);
    const char *type = json_str(msg, "type");
    if (type && !strcmp(type, "list")) do_list(st, j->out);
    else if (type && !strcmp(type, "replay")) do_replay(st, j->out, msg);
    else if (type && !strcmp(type, "export")) do_export(st, j->out, msg);
    cJSON_Delete(msg);
    j->rc = RV_STORE_OK;
}

/* A list, a replay or an export on a shared store: answered by the store worker. */
static void ask_async(srv *s, srv_conn *c) {
    srv_db_job *j = calloc(1, sizeof *j);
    if (!j || !(j->out = calloc(1, sizeof *j->out)) || job_msg(s, j)) {
        if (j) free(j->out);
        free(j);
        return srv_error(c, "server", "out of memory");
    }
    j->kind = SRV_DB_ASK;
    j->conn = c;
    srv_db_submit(s, j);
}

/* The messages that waited for the connection's join. */
static void run_conn_deferred(srv *s, srv_conn *c) {
    while (c->deferred && !c->joining) {
        srv_deferred *d = c->deferred;
        c->deferred = d->next;
        if (!c->deferred) c->deferred_tail = NULL;
        srv_handle(s, c, d->text, d->len);
        free(d);
    }
}

/* A room loaded from what the store worker read (NULL when its opening cannot be
   rebuilt); d->ev stays the caller's. */
static room *room_from_data(srv *s, const srv_room_data *d) {
    room *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->rec = d->rec;
    r->game = d->game;
    r->version = d->hdr.version;
    r->undo_request = (rv_color)d->hdr.undo_request;
    r->ai_pending = d->hdr.ai_pending;
    if (take_events(r, d->ev, d->nev)) {
        free(r);
        return NULL;
    }
    room_insert(s, r);
    srv_shared_room_loaded(s, r);
    return r;
}

static void join_done(srv *s, srv_conn *c, srv_db_job *j) {
    c->joining = 0;
    if (j->rc != RV_STORE_OK) {
        if (j->rc == RV_STORE_CONFLICT) srv_error(c, "no_room", "no such room");
        else srv_error(c, "unavailable", "the server cannot reach its database: try again");
        return run_conn_deferred(s, c);
    }
    cJSON *events = srv_notes_json(j->data.ev, j->data.nev);
    leave_room(s, c);
    room *r = find_loaded(s, j->join_id);
    if (r) {
        srv_room_apply(s, r, &j->data); /* (takes d->ev) */
        if (!r->busy && r->reread) srv_room_reread(s, r); /* read before a change heard */
    } else if (!(r = room_from_data(s, &j->data))) {
        cJSON_Delete(events);
        srv_error(c, "unavailable", "the room's game could not be read");
        return run_conn_deferred(s, c);
    }
    /* The seat claimed for this visitor is stored, whatever this copy has heard yet. */
    if (j->join_seat && !r->rec.token[j->join_seat - 1][0])
        memcpy(r->rec.token[j->join_seat - 1], j->claimed, sizeof j->claimed);
    int seat = 0;
    for (int k = 1; k <= 2; k++) {
        const char *tok = r->rec.token[k - 1];
        if (tok[0] && ((j->join_token[0] && token_eq(tok, j->join_token)) ||
                       (k == j->join_seat && !strcmp(tok, j->claimed))))
            seat = k;
    }
    enter_room(c, r, seat);
    /* Back in a room whose computer stopped when it emptied: it thinks again. */
    if (!rv_game_over(&r->game) && !r->thinking && !r->ai_wait) ai_request(s, r);
    send_joined(c, r);
    broadcast_state(r);
    srv_send_events_array(c, r->rec.game_id, events);
    run_conn_deferred(s, c);
}

void srv_conn_db_done(srv *s, srv_conn *c, srv_db_job *j) {
    if (!c) return; /* it has closed */
    if (j->kind == SRV_DB_JOIN) return join_done(s, c, j);
    srv_queue_copy(j->out, c);
}

/* ---------------------------------------------------------------- dispatch */

static void dispatch(srv *s, srv_conn *c, const cJSON *msg, const char *type);

/* Appends a copy of connection c's message to the list (*head, *tail); 0 when out of memory. */
static int defer_message(srv_conn *c, const char *text, size_t len, srv_deferred **head,
                         srv_deferred **tail) {
    srv_deferred *d = malloc(sizeof *d + len + 1);
    if (!d) return 0;
    d->next = NULL;
    d->c = c;
    d->len = len;
    memcpy(d->text, text, len);
    d->text[len] = 0;
    if (*tail) (*tail)->next = d;
    else *head = d;
    *tail = d;
    return 1;
}

void srv_handle(srv *s, srv_conn *c, const char *text, size_t len) {
    /* The connection's join answers first; then the room's store job: the message waits. */
    int queued = -1;
    if (c->joining) queued = defer_message(c, text, len, &c->deferred, &c->deferred_tail);
    else if (c->room && c->room->busy)
        queued = defer_message(c, text, len, &c->room->deferred, &c->room->deferred_tail);
    if (queued == 0) return srv_error(c, "server", "out of memory");
    if (queued == 1) return;
    s->msg_text = text;
    s->msg_len = len;
    cJSON *msg = cJSON_ParseWithLength(text, len);
    if (!msg) return srv_error(c, "bad_json", "the message is not valid JSON");
    const char *type = json_str(msg, "type");
    s->retry = s->retried = 0;
    dispatch(s, c, msg, type);
    if (s->retry) {
        /* Another server committed to this room first: read it again and decide anew (the
           move may now be out of turn, the undo already answered...). */
        s->retry = 0;
        s->retried = 1;
        if (c->room) srv_room_refresh(s, c->room);
        dispatch(s, c, msg, type);
    }
    s->retry = s->retried = 0;
    s->msg_text = NULL;
    s->msg_len = 0;
    cJSON_Delete(msg);
}

void srv_room_run_deferred(srv *s, room *r) {
    while (r->deferred && !r->busy) {
        srv_deferred *d = r->deferred;
        r->deferred = d->next;
        if (!r->deferred) r->deferred_tail = NULL;
        srv_handle(s, d->c, d->text, d->len);
        free(d);
    }
}

/* Another commit came first (or the room changed meanwhile): the room is read again, then
   (after a conflict) the message handled anew: it may now be out of turn. */
static void reread_retry(srv *s, room *r, srv_conn *c, srv_db_job *j) {
    srv_db_job *rj = calloc(1, sizeof *rj);
    if (!rj) return;
    rj->kind = SRV_DB_READ;
    rj->room = r;
    rj->room_too = 1;
    rj->data.rec = r->rec;
    r->reread = 0; /* this read covers what was heard so far */
    snprintf(rj->what, sizeof rj->what, "%s", j->what);
    if (j->rc == RV_STORE_CONFLICT) {
        rj->msg = j->msg;
        rj->msglen = j->msglen;
        j->msg = NULL;
    }
    r->busy_conn = c;
    srv_db_submit(s, rj);
}

void srv_reread_retry(srv *s, room *r, srv_conn *c, srv_db_job *j) { reread_retry(s, r, c, j); }

/* A new game of the store worker is done (1: the room is gone, a creation that failed). */
static int start_done(srv *s, room *r, srv_db_job *j) {
    srv_conn *c = r->busy_conn;
    r->busy_conn = NULL;
    srv_new_game *n = j->start;
    int created = n->old_game == 0;
    if (j->rc == RV_STORE_OK && (created || n->old_game == r->rec.game_id)) {
        new_game_apply(s, r, n);
        if (created && c) send_joined(c, r);
        ai_request(s, r);
        broadcast_state(r);
        if (created && c) send_no_events(c, r);
        return 0;
    }
    if (created) {
        /* Nothing was stored: the room goes (with its creator's waiting messages). */
        drop_deferred(r, NULL);
        r->reread = 0;
        if (!c) return 0; /* gone already: the room is unloaded as idle */
        srv_error(c, "unavailable", "the database refused the new game");
        leave_room(s, c);
        return 1;
    }
    if (j->rc == RV_STORE_OK || (j->rc == RV_STORE_CONFLICT && !j->retried && c)) {
        reread_retry(s, r, c, j);
        return 0;
    }
    if (c)
        srv_error(c, "unavailable", j->rc == RV_STORE_CONFLICT
                                        ? "the room has a newer game already"
                                        : "the database refused the new game");
    return 0;
}

/* A commit of the store worker is done. */
static void commit_done(srv *s, room *r, srv_db_job *j) {
    srv_conn *c = r->busy_conn;
    r->busy_conn = NULL;
    if (j->rc == RV_STORE_OK && r->version == j->version && r->rec.game_id == j->game_id) {
        r->game = j->after;
        r->version = j->nv;
        r->undo_request = (rv_color)j->undo;
        r->ai_pending = j->ai > 0;
        if (j->after_kind == AFTER_RESET) {
            r->gen = ++s->last_gen;
            stop_ai(s, r);
        }
        ai_request(s, r);
        broadcast_state(r);
        if (j->after_kind == AFTER_DECLINED) undo_declined(r, (rv_color)j->asker, (rv_color)j->by);
        return;
    }
    if (j->rc == RV_STORE_OK || (j->rc == RV_STORE_CONFLICT && !j->retried && c))
        return reread_retry(s, r, c, j);
    if (!c) return;
    char m[160];
    if (j->rc == RV_STORE_CONFLICT) {
        snprintf(m, sizeof m, "the game changed meanwhile: %s was not stored, look again", j->what);
        return srv_error(c, "stale", m);
    }
    snprintf(m, sizeof m, "the server cannot reach its database: %s was not stored, try again",
             j->what);
    srv_error(c, "unavailable", m);
}

void srv_room_db_done(srv *s, srv_db_job *j) {
    room *r = j->room;
    r->busy = 0;
    if (j->kind == SRV_DB_COMMIT) {
        srv_trace(s, "done", "%s %d %d", r->rec.id, j->keep, j->rc);
        commit_done(s, r, j);
    } else if (j->kind == SRV_DB_ACT) {
        srv_act_done(s, r, j);
    } else if (j->kind == SRV_DB_START) {
        if (start_done(s, r, j)) return;
    } else if (j->kind == SRV_DB_NOTE) {
        srv_conn *c = r->busy_conn;
        r->busy_conn = NULL;
        srv_note_done(s, r, c, j);
    } else if (j->kind == SRV_DB_READ) {
        srv_conn *c = r->busy_conn;
        r->busy_conn = NULL;
        if (j->rc == RV_STORE_OK) {
            /* (a change heard while the read ran has set r->reread: read once more) */
            srv_room_apply(s, r, &j->data);
        } else if (c) {
            char m[160];
            snprintf(m, sizeof m,
                     "the server cannot reach its database: %s was not stored, try again",
                     j->what[0] ? j->what : "the change");
            srv_error(c, "unavailable", m);
        }
        if (j->rc == RV_STORE_OK && c && j->msg && c->room == r) {
            /* The message that met a newer version, once more against what was read. */
            s->retried = 1;
            cJSON *msg = cJSON_ParseWithLength(j->msg, j->msglen);
            s->msg_text = j->msg;
            s->msg_len = j->msglen;
            if (msg) dispatch(s, c, msg, json_str(msg, "type"));
            s->retry = s->retried = 0;
            s->msg_text = NULL;
            s->msg_len = 0;
            cJSON_Delete(msg);
        }
    }
    if (!r->busy && r->reread) srv_room_reread(s, r);
    srv_room_run_deferred(s, r);
    srv_room_maybe_unload(s, r);
}

static void dispatch(srv *s, srv_conn *c, const cJSON *msg, const char *type) {
    if (!cJSON_IsObject(msg) || !type) {
        bad_request(c, "type", "a message is a JSON object with a \"type\"");
    } else if (!strcmp(type, "create")) {
        do_create(s, c, msg);
    } else if (!strcmp(type, "join")) {
        do_join(s, c, msg);
    } else if (!strcmp(type, "move")) {
        do_move(s, c, msg);
    } else if (!strcmp(type, "undo")) {
        do_undo(s, c);
    } else if (!strcmp(type, "undo_reply")) {
        do_undo_reply(s, c, msg);
    } else if (!strcmp(type, "hint")) {
        do_hint(s, c);
    } else if (!strcmp(type, "resign")) {
        do_resign(s, c);
    } else if (!strcmp(type, "new")) {
        do_new(s, c);
    } else if (!strcmp(type, "list") || !strcmp(type, "replay") || !strcmp(type, "export")) {
        if (s->db_started) ask_async(s, c);
        else if (!strcmp(type, "list")) do_list(s->store, c);
        else if (!strcmp(type, "replay")) do_replay(s->store, c, msg);
        else do_export(s->store, c, msg);
    } else if (!strcmp(type, "chat")) {
        srv_chat(s, c, msg);
    } else if (!strcmp(type, "opening")) {
        srv_opening_msg(s, c, msg);
    } else if (!strcmp(type, "ping")) {
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "type", "pong");
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "id");
        if (id) cJSON_AddItemToObject(j, "id", cJSON_Duplicate(id, 1));
        send_json(c, j);
        cJSON_Delete(j);
    } else {
        char m[96];
        snprintf(m, sizeof m, "unknown message type \"%.40s\"", type);
        error_with(c, "unknown_type", m, "got", type);
    }
}
