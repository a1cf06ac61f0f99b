# Shared by bench/load.sh and bench/load_pg.sh (sourced, not run): building the load client,
# starting `renversi serve` instances and waiting for their ports, and the CPU time of the
# servers (and of the database) over the measured part of a run.
#   bench_init BUILD          checks the build and compiles bench/load.c into BUILD
#   bench_serve DIR NAME ARGS starts `renversi serve --host 127.0.0.1 --port 0 ARGS...`, its
#                             stderr in DIR/err.NAME; appends its pid to `bench_pids` and its
#                             port to `bench_ports` (comma-separated); exits on failure
#   bench_stop                stops every server started (for an EXIT trap)
#   bench_run CLIENTS SECONDS THINK_MS [DB_PIDS...]
#                             runs the clients against `bench_ports`, with the load average
#                             and CPU per move of the servers (and of DB_PIDS) measured
#                             over the same seconds as the moves (bench/load.c)

bench_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bench_pids=()
bench_ports=

bench_init() {
    bench_build=$1
    renversi=$bench_build/renversi
    [ -x "$renversi" ] || { echo "$(basename "$0"): build first (make)" >&2; exit 2; }
    cc -O2 -Wall -Wextra -o "$bench_build/bench-load" "$bench_here/load.c" \
        $(pkg-config --cflags --libs libcjson)
}

bench_serve() {
    local dir=$1 name=$2 port= _
    shift 2
    : >"$dir/err.$name" # there before the server's shell opens it, for the sed below
    "$renversi" serve --host 127.0.0.1 --port 0 "$@" 2>"$dir/err.$name" &
    bench_pids+=($!)
    for _ in $(seq 100); do
        port=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$dir/err.$name")
        [ -n "$port" ] && break
        kill -0 "$!" 2>/dev/null || break
        sleep 0.1
    done
    [ -n "$port" ] || { cat "$dir/err.$name" >&2; exit 1; }
    bench_ports=${bench_ports:+$bench_ports,}$port
}

bench_stop() {
    local p
    for p in "${bench_pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
    bench_pids=()
}

bench_machine() { # EXTRA: what else to say about the set-up
    echo "$("$renversi" --version); $(nproc) cores: $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)${1:+; $1}" >&2
}

bench_run() {
    local clients=$1 seconds=$2 think=$3
    shift 3
    local db
    db=$(echo "$@" | tr ' ' ',')
    echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    LOAD_CPU_PIDS=$(echo "${bench_pids[@]}" | tr ' ' ',') LOAD_CPU_DB_PIDS=$db \
        "$bench_build/bench-load" "$bench_ports" "$clients" "$seconds" "$think"
    echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
}
