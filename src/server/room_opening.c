/*
 * The opening rule of a room (swap2, Soosõrv-8; docs/protocol-web.md): the library's
 * rv_opening decides what is allowed; this file turns messages into its acts, stores the
 * stones as moves and the choices as events, exchanges the seats when a player swaps, and
 * rebuilds the opening of a game loaded from the store.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/srv.h"

static const char *const choice_names[] = {"", "black", "white", "plus2"};

static int in_opening(const room *r) {
    return !rv_game_is_reversi(&r->game) && rv_opening_get_step(&r->open) != RV_STEP_PLAY;
}

char *srv_opening_json(const room *r) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "rule", rv_opening_rule_name(rv_opening_get_rule(&r->open)));
    rv_opening_step step = rv_game_is_reversi(&r->game) ? RV_STEP_PLAY : rv_opening_get_step(&r->open);
    cJSON_AddStringToObject(o, "step", rv_opening_step_name(step));
    if (step != RV_STEP_PLAY) cJSON_AddStringToObject(o, "actor", srv_color_name(r->open.actor));
    else cJSON_AddNullToObject(o, "actor");
    cJSON *ch = cJSON_AddArrayToObject(o, "choices");
    unsigned choices = rv_opening_choices(&r->open);
    for (int k = RV_CHOICE_BLACK; k <= RV_CHOICE_PLUS2; k++)
        if (choices & (1u << k)) cJSON_AddItemToArray(ch, cJSON_CreateString(choice_names[k]));
    cJSON_AddNumberToObject(o, "declared", rv_opening_declared(&r->open));
    cJSON *offers = cJSON_AddArrayToObject(o, "offers");
    rv_gomoku_point pts[RV_OPENING_MAX_OFFERS];
    int n = step == RV_STEP_SELECT ? rv_opening_offers(&r->open, pts) : 0;
    for (int i = 0; i < n; i++) {
        char t[16];
        rv_game_point_text(&r->game, pts[i].x, pts[i].y, t, sizeof t);
        cJSON *p = cJSON_CreateArray();
        cJSON_AddItemToArray(p, cJSON_CreateNumber(pts[i].x));
        cJSON_AddItemToArray(p, cJSON_CreateNumber(pts[i].y));
        cJSON_AddItemToArray(p, cJSON_CreateString(t));
        cJSON_AddItemToArray(offers, p);
    }
    cJSON_AddNumberToObject(o, "locked", rv_opening_locked_moves(&r->open));
    cJSON *w = cJSON_CreateObject();
    cJSON_AddItemToObject(w, "opening", o);
    char *text = cJSON_PrintUnformatted(w);
    cJSON_Delete(w);
    if (!text) return NULL;
    /* Without the outer braces: the state message appends "opening":{...}. */
    size_t len = strlen(text);
    memmove(text, text + 1, len - 2);
    text[len - 2] = 0;
    return text;
}

/* The event text of a choice, declaration or offer ("" for stones and picks). */
static void act_text(const room *r, const rv_opening_act *a, char *buf, size_t n) {
    buf[0] = 0;
    if (a->step == RV_STEP_CHOOSE) snprintf(buf, n, "%s", choice_names[a->choice]);
    else if (a->step == RV_STEP_DECLARE) snprintf(buf, n, "%d", a->declared);
    else if (a->step == RV_STEP_OFFER) {
        size_t len = 0;
        for (int i = 0; i < a->n && len < n; i++) {
            char t[16];
            rv_game_point_text(&r->game, a->pts[i].x, a->pts[i].y, t, sizeof t);
            len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? " " : "", t);
        }
    }
}

/* An act and the state it leads to, made before it is stored. */
typedef struct srv_act srv_act;
struct srv_act {
    rv_opening_act act;
    rv_game game;           /* with the act's stones */
    rv_opening open;
    rv_store_room rec;      /* the seats after it */
    rv_color actor;
    int from, ai, undo;     /* the moves before it, the AI job it queues, the undo request */
    int64_t game_id, version;
    rv_store_act store;     /* its note and swap (pointing into this struct) */
    char text[128], black[16], white[16];
};

/* Makes A, the act ACT of the colour that must act now in room R: RV_OK or a status of the
   rules (nothing changed). */
static rv_status plan_act(const srv *s, const room *r, const rv_opening_act *act, srv_act *a) {
    memset(a, 0, sizeof *a);
    a->act = *act;
    a->open = r->open;
    rv_gomoku scratch = *rv_game_gomoku(&r->game);
    a->actor = r->open.actor;
    a->from = rv_game_nmoves(&r->game);
    int swapped = 0;
    rv_status st = rv_opening_apply(&a->open, &scratch, act, &swapped);
    if (st != RV_OK) return st;
    /* The stones the act placed, played on the room's game in the same order. */
    a->game = r->game;
    for (int i = a->from; i < rv_gomoku_move_count(&scratch); i++) {
        int x, y;
        rv_gomoku_move_at(&scratch, i, &x, &y);
        if ((st = rv_game_play_xy(&a->game, x, y, NULL, 0, NULL)) != RV_OK) return st;
    }
    act_text(r, act, a->text, sizeof a->text);
    a->rec = r->rec;
    if (swapped) {
        memcpy(a->rec.token[0], r->rec.token[1], sizeof a->rec.token[0]);
        memcpy(a->rec.token[1], r->rec.token[0], sizeof a->rec.token[1]);
        a->rec.ai_color = (r->rec.ai_color & 1 ? 2 : 0) | (r->rec.ai_color & 2 ? 1 : 0);
    }
    a->store = (rv_store_act){
        .kind = a->text[0] ? rv_opening_step_name(act->step) : NULL,
        .who = srv_color_name(a->actor), .text = a->text, .swap = swapped, .room = a->rec.id,
        .black = srv_player_label(&a->rec, RV_BLACK, a->black, sizeof a->black),
        .white = srv_player_label(&a->rec, RV_WHITE, a->white, sizeof a->white)};
    /* The opening over with the computer to move: a shared store queues its job too. */
    rv_color tm = rv_game_to_move(&a->game);
    a->ai = rv_store_shared(s->store) && rv_opening_get_step(&a->open) == RV_STEP_PLAY && tm &&
                    (a->rec.ai_color & tm) && !rv_game_over(&a->game)
                ? a->rec.level
                : 0;
    a->undo = r->undo_request;
    a->game_id = r->rec.game_id;
    a->version = r->version;
    return RV_OK;
}

int srv_act_store(rv_store *st, const srv_act *a, int64_t *nv) {
    return srv_commit_game(st, a->game_id, a->version, &a->game, a->from, a->undo, a->ai,
                           &a->store, nv);
}

/* The room takes a stored act (now at version NV). */
static void take_act(srv *s, room *r, const srv_act *a, int64_t nv) {
    r->game = a->game;
    r->version = nv;
    r->open = a->open;
    r->ai_pending = a->ai > 0;
    if (a->text[0])
        srv_event_broadcast(r, rv_opening_step_name(a->act.step), srv_color_name(a->actor),
                            a->text, rv_game_nmoves(&a->game), (int64_t)time(NULL));
    if (a->store.swap) srv_swap_seats(r, &a->rec);
    srv_ai_request(s, r);
}

/* What apply_act answers when the store worker has the act: the room waits (srv_act_done). */
#define ACT_PENDING 1

/*
 * Applies an act for the colour that must act now (C: the sender, NULL for the computer): its
 * stones, its note (a choice, a declaration, an offer) and on a swap the seats and players
 * exchanged, stored in one transaction checked against the game's version. RV_OK; a status of
 * the rules (nothing changed); RV_EIO when the store failed or another server acted first
 * (nothing changed either; for a message, srv_handle then reads the room again and handles it
 * anew); ACT_PENDING when the store worker stores it (a shared store, the room not busy).
 */
static int apply_act(srv *s, room *r, srv_conn *c, const rv_opening_act *act) {
    srv_act *a = malloc(sizeof *a);
    if (!a) return RV_EIO;
    rv_status st = plan_act(s, r, act, a);
    if (st != RV_OK) {
        free(a);
        return st;
    }
    if (s->db_started && !r->busy) {
        srv_db_job *j = calloc(1, sizeof *j);
        if (!j || (c && srv_job_msg(s, j))) {
            free(j);
            free(a);
            return RV_EIO;
        }
        j->kind = SRV_DB_ACT;
        j->room = r;
        j->game_id = a->game_id;
        j->version = a->version;
        j->act = a;
        snprintf(j->what, sizeof j->what, "the opening %s", rv_opening_step_name(act->step));
        r->busy_conn = c;
        srv_db_submit(s, j);
        return ACT_PENDING;
    }
    int64_t v;
    int rc = srv_act_store(s->store, a, &v);
    if (rc != RV_STORE_OK) {
        if (rc == RV_STORE_CONFLICT && c && !s->retried) s->retry = 1;
        free(a);
        return RV_EIO;
    }
    take_act(s, r, a, v);
    free(a);
    return RV_OK;
}

void srv_opening_ai_act(srv *s, room *r, const rv_opening_act *act) {
    if (!in_opening(r)) return;
    int st = apply_act(s, r, NULL, act);
    if (st != RV_OK && st != ACT_PENDING)
        fprintf(stderr, "renversi serve: the computer's opening %s was refused (%s)\n",
                rv_opening_step_name(act->step), rv_strerror((rv_status)st));
}

/* The error for a refused act, worded by its step. */
static void refused(srv_conn *c, const room *r, const rv_opening_act *act, rv_status st) {
    cJSON *p = cJSON_CreateObject();
    if (st == RV_EIO) {
        cJSON_Delete(p);
        return srv_error(c, "store_failed", "the opening could not be stored: try again");
    }
    if (st == RV_EOCCUPIED) {
        cJSON_Delete(p);
        return srv_error(c, "occupied", "that point is taken");
    }
    if (st == RV_EFORBIDDEN) {
        cJSON_Delete(p);
        return srv_error(c, "forbidden", "a forbidden point for black");
    }
    if (st == RV_ERANGE && act->step == RV_STEP_DECLARE) {
        cJSON_AddNumberToObject(p, "max", RV_OPENING_MAX_OFFERS);
        return srv_error_params(c, "opening_declare", "declare from 1 to 8 fifth moves", p);
    }
    if (st == RV_ERANGE) {
        cJSON_Delete(p);
        return srv_error(c, "bad_move", "that point is off the board");
    }
    if (act->step == RV_STEP_PLACE && st == RV_EILLEGAL) {
        static const char *const area[] = {"centre", "3x3", "5x5"};
        int ply = rv_game_nmoves(&r->game);
        cJSON_AddStringToObject(p, "area", area[ply < 3 ? ply : 2]);
        return srv_error_params(c, "opening_area",
                                "the first three stones go on h8, then the central 3x3, then the central 5x5", p);
    }
    if (act->step == RV_STEP_OFFER && st == RV_EILLEGAL) {
        cJSON_Delete(p);
        return srv_error(c, "opening_symmetric", "two of these fifth moves are symmetrical");
    }
    if (act->step == RV_STEP_OFFER && st == RV_EINVAL) {
        cJSON_AddNumberToObject(p, "declared", rv_opening_declared(&r->open));
        return srv_error_params(c, "opening_count", "offer exactly the declared number of fifth moves", p);
    }
    if (act->step == RV_STEP_SELECT) {
        cJSON_Delete(p);
        return srv_error(c, "opening_not_offered", "pick one of the offered fifth moves");
    }
    if (act->step == RV_STEP_CHOOSE) {
        cJSON *ch = cJSON_AddArrayToObject(p, "choices");
        unsigned choices = rv_opening_choices(&r->open);
        for (int k = RV_CHOICE_BLACK; k <= RV_CHOICE_PLUS2; k++)
            if (choices & (1u << k)) cJSON_AddItemToArray(ch, cJSON_CreateString(choice_names[k]));
        return srv_error_params(c, "opening_choice", "that choice is not open now", p);
    }
    cJSON_Delete(p);
    srv_bad_request(c, "type", "that is not allowed in the opening now");
}

/* Checks that c may act in the room's opening now; 0 when it may. */
static int may_act(srv_conn *c, const room *r) {
    if (!r) return srv_error(c, "no_room", "join or create a room first"), -1;
    if (!c->seat) return srv_error(c, "not_seated", "you are watching this game"), -1;
    if (rv_game_over(&r->game)) return srv_error(c, "over", "the game is over"), -1;
    if (!in_opening(r)) return srv_error(c, "opening_over", "the opening is over: play moves"), -1;
    if (srv_turn(r) != (rv_color)c->seat) return srv_error(c, "not_your_turn", "it is not your turn"), -1;
    return 0;
}

static void wrong_step(srv_conn *c, const room *r) {
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "step", rv_opening_step_name(rv_opening_get_step(&r->open)));
    srv_error_params(c, "opening_step", "the opening waits for something else", p);
}

void srv_opening_point(srv *s, srv_conn *c, int x, int y) {
    room *r = c->room;
    if (may_act(c, r)) return;
    rv_opening_act act;
    memset(&act, 0, sizeof act);
    act.step = rv_opening_get_step(&r->open);
    if (act.step != RV_STEP_PLACE && act.step != RV_STEP_SELECT) return wrong_step(c, r);
    act.n = 1;
    act.pts[0] = (rv_gomoku_point){x, y};
    int st = apply_act(s, r, c, &act);
    if (st == ACT_PENDING) return;
    if (st == RV_EIO && s->retry) return; /* another server acted first: srv_handle looks again */
    if (st != RV_OK) return refused(c, r, &act, (rv_status)st);
    srv_broadcast_state(r);
}

void srv_opening_msg(srv *s, srv_conn *c, const cJSON *msg) {
    room *r = c->room;
    const cJSON *choice = cJSON_GetObjectItemCaseSensitive(msg, "choice");
    const cJSON *declare = cJSON_GetObjectItemCaseSensitive(msg, "declare");
    const cJSON *offer = cJSON_GetObjectItemCaseSensitive(msg, "offer");
    const cJSON *select = cJSON_GetObjectItemCaseSensitive(msg, "select");
    if (!!choice + !!declare + !!offer + !!select != 1)
        return srv_bad_request(c, "type", "opening needs one of \"choice\", \"declare\", \"offer\", \"select\"");
    if (may_act(c, r)) return;
    rv_opening_act act;
    memset(&act, 0, sizeof act);
    rv_opening_step step = rv_opening_get_step(&r->open);
    if (choice) {
        act.step = RV_STEP_CHOOSE;
        const char *v = cJSON_IsString(choice) ? choice->valuestring : NULL;
        for (int k = RV_CHOICE_BLACK; v && k <= RV_CHOICE_PLUS2; k++)
            if (!strcmp(v, choice_names[k])) act.choice = (rv_opening_choice)k;
        if (!act.choice) return srv_bad_request(c, "choice", "choice must be \"black\", \"white\" or \"plus2\"");
    } else if (declare) {
        act.step = RV_STEP_DECLARE;
        double d = cJSON_IsNumber(declare) ? declare->valuedouble : 0.5;
        if (d != (double)(int)(d >= -1e6 && d <= 1e6 ? d : 0.5))
            return srv_bad_request(c, "declare", "declare must be a whole number");
        act.declared = (int)d;
    } else if (offer) {
        act.step = RV_STEP_OFFER;
        int n = cJSON_IsArray(offer) ? cJSON_GetArraySize(offer) : -1;
        if (n < 1 || n > RV_OPENING_MAX_OFFERS)
            return srv_bad_request(c, "offer", "offer must be a list of 1 to 8 points like \"h9\"");
        for (int i = 0; i < n; i++) {
            const cJSON *it = cJSON_GetArrayItem(offer, i);
            int x, y;
            if (!cJSON_IsString(it) || rv_game_parse_point(&r->game, it->valuestring, &x, &y) != RV_OK || x < 0)
                return srv_error(c, "bad_move", "offer: every item must be a point like \"h9\"");
            act.pts[act.n++] = (rv_gomoku_point){x, y};
        }
    } else {
        act.step = RV_STEP_SELECT;
        int x, y;
        if (!cJSON_IsString(select) || rv_game_parse_point(&r->game, select->valuestring, &x, &y) != RV_OK || x < 0)
            return srv_error(c, "bad_move", "select must be a point like \"h9\"");
        act.n = 1;
        act.pts[0] = (rv_gomoku_point){x, y};
    }
    if (act.step != step) return wrong_step(c, r);
    int st = apply_act(s, r, c, &act);
    if (st == ACT_PENDING) return;
    if (st == RV_EIO && s->retry) return; /* another server acted first: srv_handle looks again */
    if (st != RV_OK) return refused(c, r, &act, (rv_status)st);
    srv_broadcast_state(r);
}

void srv_act_done(srv *s, room *r, srv_db_job *j) {
    srv_conn *c = r->busy_conn;
    r->busy_conn = NULL;
    if (j->rc == RV_STORE_OK && r->version == j->version && r->rec.game_id == j->game_id) {
        take_act(s, r, j->act, j->nv);
        srv_broadcast_state(r);
        return;
    }
    /* Stored, but this copy moved meanwhile; or another server acted first: read the room
       again (and decide the message anew). */
    if (j->rc == RV_STORE_OK || (j->rc == RV_STORE_CONFLICT && !j->retried && c))
        return srv_reread_retry(s, r, c, j);
    if (c) return refused(c, r, &j->act->act, RV_EIO);
    fprintf(stderr, "renversi serve: the computer's opening %s was not stored\n",
            rv_opening_step_name(j->act->act.step));
}

/* An event of the store back into an act (choose, declare, offer); 0 when it is one. */
static int event_act(const room *r, const rv_store_note *e, rv_opening_act *act) {
    memset(act, 0, sizeof *act);
    if (!strcmp(e->kind, "choose")) {
        act->step = RV_STEP_CHOOSE;
        for (int k = RV_CHOICE_BLACK; k <= RV_CHOICE_PLUS2; k++)
            if (!strcmp(e->text, choice_names[k])) act->choice = (rv_opening_choice)k;
        return act->choice ? 0 : -1;
    }
    if (!strcmp(e->kind, "declare")) {
        act->step = RV_STEP_DECLARE;
        act->declared = atoi(e->text);
        return 0;
    }
    if (!strcmp(e->kind, "offer")) {
        act->step = RV_STEP_OFFER;
        char buf[RV_STORE_EVENT_TEXT];
        snprintf(buf, sizeof buf, "%s", e->text);
        for (char *tok = strtok(buf, " "); tok && act->n < RV_OPENING_MAX_OFFERS; tok = strtok(NULL, " ")) {
            int x, y;
            if (rv_game_parse_point(&r->game, tok, &x, &y) != RV_OK) return -1;
            act->pts[act->n++] = (rv_gomoku_point){x, y};
        }
        return 0;
    }
    return -1;
}

static int rebuild(room *r, const rv_store_note *ev, int nev) {
    rv_opening_rule rule = RV_OPENING_FREE;
    for (int i = 0; i < nev; i++)
        if (!strcmp(ev[i].kind, "rules")) {
            const char *o = strstr(ev[i].text, "opening=");
            char name[16] = "";
            if (o) sscanf(o + 8, "%15[a-z0-9-]", name);
            if (rv_opening_rule_parse(name, &rule) != RV_OK) rule = RV_OPENING_FREE;
        }
    rv_gomoku g;
    if (rv_game_is_reversi(&r->game)) {
        rv_gomoku_init(&g, 15, 15, RV_RULE_FREESTYLE);
        return rv_opening_init(&r->open, RV_OPENING_FREE, &g) == RV_OK ? 0 : -1;
    }
    const rv_gomoku *full = rv_game_gomoku(&r->game);
    rv_gomoku_init(&g, rv_gomoku_width(full), rv_gomoku_height(full), rv_gomoku_get_rule(full));
    rv_opening o;
    if (rv_opening_init(&o, rule, &g) != RV_OK) return -1;
    int n = rv_gomoku_move_count(full), e = 0;
    for (int k = 0; k <= n; k++) {
        for (; e < nev && ev[e].ply <= k; e++) {
            rv_opening_act act;
            if (event_act(r, &ev[e], &act)) continue; /* chat, hints, settings */
            if (rv_opening_apply(&o, &g, &act, NULL) != RV_OK) return -1;
        }
        if (k == n) break;
        int x, y;
        rv_gomoku_move_at(full, k, &x, &y);
        rv_opening_step step = rv_opening_get_step(&o);
        if (step == RV_STEP_PLACE || step == RV_STEP_SELECT) {
            rv_opening_act act;
            memset(&act, 0, sizeof act);
            act.step = step;
            act.n = 1;
            act.pts[0] = (rv_gomoku_point){x, y};
            if (rv_opening_apply(&o, &g, &act, NULL) != RV_OK) return -1;
        } else if (step == RV_STEP_PLAY) {
            if (rv_gomoku_play_forced(&g, x, y) != RV_OK) return -1;
        } else {
            return -1; /* a move where the opening waited for a choice */
        }
    }
    r->open = o;
    return 0;
}

int srv_opening_rebuild(room *r, const rv_store_note *ev, int nev) {
    if (rebuild(r, ev, nev) == 0) return 0;
    /* Stored moves and choices that do not fit the rule: the game goes on without it. */
    fprintf(stderr, "renversi serve: room %s: the opening could not be rebuilt; playing on freely\n",
            r->rec.id);
    rv_gomoku g;
    rv_gomoku_init(&g, 15, 15, RV_RULE_FREESTYLE);
    return rv_opening_init(&r->open, RV_OPENING_FREE, &g) == RV_OK ? 0 : -1;
}
