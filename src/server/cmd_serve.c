/* `renversi serve`: the browser game and online rooms (docs/play.md); built with the server
 * only (RV_SERVER), the command table says so otherwise (src/cli/main.c). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmdline/cmdline.h"
#include "server/server.h"

static const char usage[] =
    "usage: renversi serve [--host 127.0.0.1] [--port 8080] [--db renversi.db] [--web DIR]\n"
    "                      [--origin URL[,URL...]]\n"
    "\n"
    "Serves the browser game (Gomoku, Renju, Reversi against the computer or online\n"
    "rooms shared by a link) on http://HOST:PORT/ and its WebSocket API on /ws\n"
    "(docs/protocol-web.md). Every game and move is stored in the database before it\n"
    "is acknowledged: an SQLite file (one server), or PostgreSQL, which several\n"
    "servers behind a load balancer can share (docs/deploy.md). The schema is created\n"
    "or migrated at start; a database with a newer schema is refused untouched.\n"
    "\n"
    "  --host ADDR  address to listen on (default 127.0.0.1)\n"
    "  --port N     port (default 8080; 0 picks a free one)\n"
    "  --db DB      SQLite file or :memory: (default renversi.db), or a PostgreSQL URL:\n"
    "               postgresql://USER:PASSWORD@HOST:PORT/DBNAME or\n"
    "               postgres:///DBNAME?host=/SOCKET/DIR (libpq's parameters may follow)\n"
    "  --web DIR    the page's files (default: the source tree's web/, else the installed one)\n"
    "  --origin L   the page origins allowed to open the WebSocket, comma-separated\n"
    "               (like https://games.example.org); default: the host it was asked at\n"
    "  --quiet      print nothing when listening\n"
    "Ctrl-C (SIGINT) or SIGTERM stops the server.\n";

static int has_index(const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/index.html", dir);
    return access(path, R_OK) == 0;
}

int rv_cmd_serve(int argc, char **argv) {
    const char *cmd = argv[0];
    if (rv_cli_wants_help(argc, argv)) {
        fputs(usage, stdout);
        return RV_EXIT_OK;
    }
    const char *host = "127.0.0.1", *db = "renversi.db", *web = NULL, *origin = NULL;
    long port = 8080;
    int quiet = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "--host") && more) host = argv[++i];
        else if (!strcmp(a, "--db") && more) db = argv[++i];
        else if (!strcmp(a, "--web") && more) web = argv[++i];
        else if (!strcmp(a, "--origin") && more) origin = argv[++i];
        else if (!strcmp(a, "--quiet")) quiet = 1;
        else if (!strcmp(a, "--port") && more) {
            if (rv_cli_parse_int(argv[++i], 0, 65535, &port))
                return rv_cli_fail(cmd, "--port '%s': expected a port number 0..65535", argv[i]);
        } else
            return rv_cli_fail(cmd, "unknown or incomplete option '%s' (try --help)", a);
    }
    if (!web) {
#ifdef RV_WEB_DIR
        if (has_index(RV_WEB_DIR)) web = RV_WEB_DIR;
#endif
#ifdef RV_INSTALL_WEB_DIR
        if (!web && has_index(RV_INSTALL_WEB_DIR)) web = RV_INSTALL_WEB_DIR;
#endif
        if (!web) return rv_cli_fail(cmd, "cannot find the web/ directory: give --web DIR");
    } else if (!has_index(web)) {
        return rv_cli_fail(cmd, "--web '%s': no index.html there", web);
    }
    rv_server_opts o = {.host = host, .port = (int)port, .db = db, .web = web, .quiet = quiet,
                        .origin = origin};
    return rv_server_run(&o);
}
