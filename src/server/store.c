/* The store interface: picks the implementation from the --db argument and forwards. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "server/store_impl.h"

/* "postgres:" or "postgresql:" (any case) in front: a URL for libpq, however malformed. */
static int is_pg_url(const char *db) {
    return !strncasecmp(db, "postgresql:", 11) || !strncasecmp(db, "postgres:", 9);
}

rv_store *rv_store_open(const char *db, char *err, size_t errlen) {
    if (!db || !*db) {
        snprintf(err, errlen, "--db needs a file name or a postgresql:// URL");
        return NULL;
    }
    return is_pg_url(db) ? rv_store_pg_open(db, err, errlen) : rv_store_sqlite_open(db, err, errlen);
}

void rv_store_close(rv_store *s) {
    if (s) s->ops->close(s);
}

const char *rv_store_kind(const rv_store *s) { return s->ops->kind; }

int rv_store_schema_version(rv_store *s) { return s->ops->schema_version(s); }

int rv_store_ping(rv_store *s) { return s->ops->ping(s); }

int rv_store_shared(const rv_store *s) { return strcmp(s->ops->kind, "sqlite") != 0; }

int rv_store_session(rv_store *s) { return s->ops->session ? s->ops->session(s) : 0; }

int rv_store_notify(rv_store *s, const char *notice) {
    if (!notice || strlen(notice) >= RV_STORE_NOTICE) return RV_STORE_FAIL;
    return s->ops->notify ? s->ops->notify(s, notice) : RV_STORE_OK;
}

void rv_store_set_nonblocking_reconnect(rv_store *s) {
    if (s->ops->nonblocking) s->ops->nonblocking(s);
}

int64_t rv_store_new_game(rv_store *s, const char *room, const char *variant, int size,
                          const char *black, const char *white) {
    return s->ops->new_game(s, room, variant, size, black, white);
}

int rv_store_commit(rv_store *s, const rv_store_change *c, int64_t *version) {
    if (c->keep < 0 || c->n < 0 || (c->n && !c->moves) || !c->result) return RV_STORE_FAIL;
    return s->ops->commit(s, c, version);
}

void rv_store_commit_many(rv_store *s, const rv_store_change *const *changes, int n, int *rc,
                          int64_t *version) {
    int ok = s->ops->commit_many != NULL && n > 1;
    for (int i = 0; i < n && ok; i++) {
        const rv_store_change *c = changes[i];
        ok = c->keep >= 0 && c->n >= 0 && (!c->n || c->moves) && c->result;
        for (int k = 0; k < i && ok; k++) ok = changes[k]->game != c->game;
    }
    if (ok) return s->ops->commit_many(s, changes, n, rc, version);
    for (int i = 0; i < n; i++) rc[i] = rv_store_commit(s, changes[i], version ? &version[i] : NULL);
}

int rv_store_get_game(rv_store *s, int64_t game, rv_store_game *out) {
    return s->ops->get_game(s, game, out);
}

int rv_store_load_game(rv_store *s, int64_t game, rv_store_game *hdr, char ***moves, int *n) {
    return s->ops->load_game(s, game, hdr, moves, n);
}

void rv_store_free_moves(char **moves, int n) {
    for (int i = 0; i < n; i++) free(moves[i]);
    free(moves);
}

int rv_store_list_games(rv_store *s, rv_store_game *out, int max) {
    return max > 0 ? s->ops->list_games(s, out, max) : 0;
}

int rv_store_put_room(rv_store *s, const rv_store_room *r) { return s->ops->put_room(s, r); }

int rv_store_get_room(rv_store *s, const char *id, rv_store_room *out) {
    return s->ops->get_room(s, id, out);
}

int rv_store_claim_seat(rv_store *s, const char *room, int seat, const char *token) {
    if ((seat != 1 && seat != 2) || !token || !*token) return RV_STORE_FAIL;
    return s->ops->claim_seat(s, room, seat, token);
}

int rv_store_set_room_game(rv_store *s, const char *room, int64_t old_game, int64_t new_game) {
    return s->ops->set_room_game(s, room, old_game, new_game);
}

int rv_store_start_game(rv_store *s, rv_store_room *room, int64_t old_game, int swap,
                        const char *variant, int size, const char *black, const char *white,
                        const char *rules) {
    return s->ops->start_game(s, room, old_game, swap, variant, size, black, white, rules);
}

int rv_store_claim_job(rv_store *s, const char *owner, int lease_s, rv_store_job *job) {
    return s->ops->claim_job(s, owner, lease_s, job);
}

int rv_store_drop_job(rv_store *s, const rv_store_job *job) { return s->ops->drop_job(s, job); }

rv_store_watch *rv_store_watch_open(const char *db, int what, char *err, size_t errlen) {
    if (!db || !is_pg_url(db)) {
        snprintf(err, errlen, "only a PostgreSQL store can be watched");
        return NULL;
    }
    return rv_store_pg_watch_open(db, what, err, errlen);
}

int rv_store_commit_act(rv_store *s, const rv_store_act *act, int64_t *version) {
    if (act->swap && (!act->room || !act->black || !act->white)) return RV_STORE_FAIL;
    if (act->kind && (!act->who || !act->text)) return RV_STORE_FAIL;
    return s->ops->commit_act(s, act, version);
}

int rv_store_set_players(rv_store *s, int64_t game, const char *black, const char *white) {
    return s->ops->set_players(s, game, black, white);
}

int rv_store_add_event(rv_store *s, int64_t game, int ply, const char *kind, const char *who,
                       const char *text) {
    char cut[RV_STORE_EVENT_TEXT];
    snprintf(cut, sizeof cut, "%s", text);
    return s->ops->add_event(s, game, ply, kind, who, cut);
}

int rv_store_get_events(rv_store *s, int64_t game, rv_store_note **events, int *n) {
    return s->ops->get_events(s, game, events, n);
}

int rv_store_notes_push(rv_store_note **v, int *n, int *cap, int ply, const char *kind,
                         const char *who, int64_t created, const char *text) {
    if (*n == *cap) {
        int c = *cap ? 2 * *cap : 16;
        rv_store_note *nv = realloc(*v, (size_t)c * sizeof *nv);
        if (!nv) return -1;
        *v = nv;
        *cap = c;
    }
    rv_store_note *e = &(*v)[(*n)++];
    e->ply = ply;
    snprintf(e->kind, sizeof e->kind, "%s", kind ? kind : "");
    snprintf(e->who, sizeof e->who, "%s", who ? who : "");
    e->created = created;
    snprintf(e->text, sizeof e->text, "%s", text ? text : "");
    return 0;
}

int rv_store_moves_push(rv_store_moves *m, const char *move) {
    if (m->n == m->cap) {
        int cap = m->cap ? 2 * m->cap : 64;
        char **v = realloc(m->v, (size_t)cap * sizeof *v);
        if (!v) return -1;
        m->v = v;
        m->cap = cap;
    }
    if (!(m->v[m->n] = strdup(move ? move : ""))) return -1;
    m->n++;
    return 0;
}
