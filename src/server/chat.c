/*
 * Chat in a room and the game's other events (hints used between players, opening choices):
 * each is stored with the game before the room hears of it, sent to everyone in the room,
 * sent again to whoever joins, and given with the game's replay (docs/protocol-web.md).
 * Text is kept as sent (valid UTF-8, no control characters); the page shows it as text.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "renversi/core.h"
#include "server/srv.h"

static cJSON *event_json(const char *kind, const char *who, const char *text, int ply,
                         int64_t created) {
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "kind", kind);
    cJSON_AddStringToObject(j, "who", who);
    cJSON_AddStringToObject(j, "text", text);
    cJSON_AddNumberToObject(j, "ply", ply);
    cJSON_AddNumberToObject(j, "time", (double)created);
    return j;
}

void srv_event_broadcast(room *r, const char *kind, const char *who, const char *text, int ply,
                         int64_t created) {
    cJSON *j = event_json(kind, who, text, ply, created);
    cJSON_AddStringToObject(j, "type", "event");
    srv_broadcast_json(r, j);
    cJSON_Delete(j);
}

int srv_note(srv *s, room *r, const char *kind, const char *who, const char *text) {
    int ply = rv_game_nmoves(&r->game);
    /* A shared store tells the other servers, whose clients of the room hear it from them. */
    if (rv_store_add_event(s->store, r->rec.game_id, ply, kind, who, text)) return -1;
    srv_event_broadcast(r, kind, who, text, ply, (int64_t)time(NULL));
    return 0;
}

void srv_note_async(srv *s, room *r, srv_conn *c, const char *kind, const char *who,
                    const char *text) {
    if (!s->db_started) {
        if (srv_note(s, r, kind, who, text) && c)
            srv_error(c, "store_failed", "the message could not be stored");
        return;
    }
    srv_db_job *j = calloc(1, sizeof *j);
    if (!j) {
        if (c) srv_error(c, "server", "out of memory");
        return;
    }
    j->kind = SRV_DB_NOTE;
    j->room = r;
    j->game_id = r->rec.game_id;
    j->note_ply = rv_game_nmoves(&r->game);
    snprintf(j->note_kind, sizeof j->note_kind, "%s", kind);
    snprintf(j->note_who, sizeof j->note_who, "%s", who);
    snprintf(j->notice, sizeof j->notice, "%s", text);
    r->busy_conn = c;
    srv_db_submit(s, j);
}

void srv_note_done(srv *s, room *r, srv_conn *c, const srv_db_job *j) {
    (void)s;
    if (j->rc != RV_STORE_OK) {
        if (c) srv_error(c, "store_failed", "the message could not be stored");
        return;
    }
    /* (The other servers hear it from the database; the room has not moved on to another
       game meanwhile: it waited for this job.) */
    if (j->game_id != r->rec.game_id) return;
    srv_event_broadcast(r, j->note_kind, j->note_who, j->notice, j->note_ply, (int64_t)time(NULL));
    if (!strcmp(j->note_kind, "hint")) {
        /* A hint asked between two players counts in the state. */
        int seat = !strcmp(j->note_who, "black") ? RV_BLACK : !strcmp(j->note_who, "white") ? RV_WHITE : 0;
        if (seat) r->hints_used[seat]++;
        srv_broadcast_state(r);
    }
}

cJSON *srv_notes_json(const rv_store_note *ev, int n) {
    cJSON *arr = cJSON_CreateArray();
    for (int i = 0; i < n; i++) {
        if (!strcmp(ev[i].kind, "rules")) continue; /* settings, not something that happened */
        cJSON_AddItemToArray(arr, event_json(ev[i].kind, ev[i].who, ev[i].text, ev[i].ply,
                                             ev[i].created));
    }
    return arr;
}

cJSON *srv_events_json(rv_store *st, int64_t game) {
    rv_store_note *ev;
    int n;
    if (rv_store_get_events(st, game, &ev, &n)) return NULL;
    cJSON *arr = srv_notes_json(ev, n);
    free(ev);
    return arr;
}

void srv_send_events_array(srv_conn *c, int64_t game, cJSON *events) {
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "type", "events");
    cJSON_AddNumberToObject(j, "game_id", (double)game);
    cJSON_AddItemToObject(j, "events", events);
    srv_send_json(c, j);
    cJSON_Delete(j);
}

void srv_send_events(srv *s, srv_conn *c, const room *r) {
    cJSON *arr = srv_events_json(s->store, r->rec.game_id);
    if (arr) srv_send_events_array(c, r->rec.game_id, arr);
}

/* Characters of a chat text: -1 unless it is valid UTF-8 without control characters. */
static int chat_chars(const char *t) {
    const unsigned char *p = (const unsigned char *)t;
    int n = 0;
    while (*p) {
        unsigned c = *p;
        int len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3
                                 : (c & 0xF8) == 0xF0 ? 4 : 0;
        if (!len || (len == 2 && c < 0xC2) || (len == 4 && c > 0xF4)) return -1;
        unsigned cp = len == 1 ? c : c & (0x7Fu >> len);
        for (int i = 1; i < len; i++) {
            if ((p[i] & 0xC0) != 0x80) return -1;
            cp = (cp << 6) | (p[i] & 0x3F);
        }
        if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
            (cp >= 0xD800 && cp <= 0xDFFF))
            return -1; /* overlong forms, surrogates */
        if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0) || cp == 0x2028 || cp == 0x2029) return -1;
        p += len;
        n++;
    }
    return n;
}

void srv_chat(srv *s, srv_conn *c, const cJSON *msg) {
    room *r = c->room;
    if (!r) return srv_error(c, "no_room", "join or create a room first");
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(msg, "text");
    if (!cJSON_IsString(t) || !t->valuestring)
        return srv_bad_request(c, "text", "chat needs \"text\": a string");
    /* Spaces around the text do not count. */
    const char *b = t->valuestring;
    while (*b == ' ') b++;
    size_t len = strlen(b);
    while (len && b[len - 1] == ' ') len--;
    if (len == 0) return srv_error(c, "chat_empty", "the message is empty");
    if (len > 4 * SRV_CHAT_MAX) len = 4 * SRV_CHAT_MAX + 1; /* surely too long: stop counting */
    char *text = malloc(len + 1);
    if (!text) return srv_error(c, "server", "out of memory");
    memcpy(text, b, len);
    text[len] = 0;
    int n = chat_chars(text);
    if (n < 0) {
        free(text);
        return srv_error(c, "chat_bad_text", "the message is not UTF-8 text without control characters");
    }
    if (n > SRV_CHAT_MAX) {
        free(text);
        cJSON *p = cJSON_CreateObject();
        cJSON_AddNumberToObject(p, "max", SRV_CHAT_MAX);
        return srv_error_params(c, "chat_too_long", "a chat message has at most 200 characters", p);
    }
    /* Its own rate limit, well below the connection's: a burst, then one every 2 s. */
    uint64_t now = rv_clock_ns();
    if (c->chat_ns == 0) c->chat_bucket = SRV_CHAT_BURST;
    else c->chat_bucket += (double)(now - c->chat_ns) / 1e9 * SRV_CHAT_PER_SEC;
    if (c->chat_bucket > SRV_CHAT_BURST) c->chat_bucket = SRV_CHAT_BURST;
    c->chat_ns = now;
    if (c->chat_bucket < 1.0) {
        free(text);
        cJSON *p = cJSON_CreateObject();
        cJSON_AddNumberToObject(p, "seconds", (int)((1.0 - c->chat_bucket) / SRV_CHAT_PER_SEC) + 1);
        return srv_error_params(c, "chat_rate", "too many chat messages: wait a moment", p);
    }
    c->chat_bucket -= 1.0;
    const char *who = c->seat ? srv_color_name((rv_color)c->seat) : "spectator";
    srv_note_async(s, r, c, "chat", who, text);
    free(text);
}
