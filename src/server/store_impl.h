/* What each store implementation provides to store.c (not for the rest of the server). */
#ifndef RV_SERVER_STORE_IMPL_H
#define RV_SERVER_STORE_IMPL_H

#include "server/store.h"

typedef struct rv_store_ops {
    const char *kind;
    void (*close)(rv_store *s);
    int (*schema_version)(rv_store *s);
    int (*ping)(rv_store *s);
    int64_t (*new_game)(rv_store *s, const char *room, const char *variant, int size,
                        const char *black, const char *white);
    int (*commit)(rv_store *s, const rv_store_change *c, int64_t *version);
    int (*get_game)(rv_store *s, int64_t game, rv_store_game *out);
    int (*load_game)(rv_store *s, int64_t game, rv_store_game *hdr, char ***moves, int *n);
    int (*list_games)(rv_store *s, rv_store_game *out, int max);
    int (*put_room)(rv_store *s, const rv_store_room *r);
    int (*get_room)(rv_store *s, const char *id, rv_store_room *out);
    int (*claim_seat)(rv_store *s, const char *room, int seat, const char *token);
    int (*set_room_game)(rv_store *s, const char *room, int64_t old_game, int64_t new_game);
    int (*start_game)(rv_store *s, rv_store_room *room, int64_t old_game, int swap,
                      const char *variant, int size, const char *black, const char *white,
                      const char *rules);
    int (*set_players)(rv_store *s, int64_t game, const char *black, const char *white);
    int (*commit_act)(rv_store *s, const rv_store_act *act, int64_t *version);
    int (*add_event)(rv_store *s, int64_t game, int ply, const char *kind, const char *who,
                     const char *text);
    int (*get_events)(rv_store *s, int64_t game, rv_store_note **events, int *n);
    int (*claim_job)(rv_store *s, const char *owner, int lease_s, rv_store_job *job);
    int (*drop_job)(rv_store *s, const rv_store_job *job);
    void (*commit_many)(rv_store *s, const rv_store_change *const *c, int n, int *rc,
                        int64_t *version); /* NULL: commit in turn */
    int (*session)(rv_store *s);       /* NULL: 0 */
    int (*notify)(rv_store *s, const char *notice); /* NULL: nothing to tell */
    void (*nonblocking)(rv_store *s);  /* NULL: nothing to do */
} rv_store_ops;

/* Each implementation's handle starts with this. */
struct rv_store {
    const rv_store_ops *ops;
};

rv_store *rv_store_sqlite_open(const char *path, char *err, size_t errlen);
rv_store *rv_store_pg_open(const char *url, char *err, size_t errlen);
rv_store_watch *rv_store_pg_watch_open(const char *url, int what, char *err, size_t errlen);

/* A growing list of moves for load_game (store.c); -1 when out of memory. */
typedef struct rv_store_moves {
    char **v;
    int n, cap;
} rv_store_moves;
int rv_store_moves_push(rv_store_moves *m, const char *move);
/* Appends one event to a growing array (store.c); -1 when out of memory. */
int rv_store_notes_push(rv_store_note **v, int *n, int *cap, int ply, const char *kind,
                         const char *who, int64_t created, const char *text);

#endif
