#!/usr/bin/env bash
# Run a command beside a throwaway PostgreSQL cluster: initdb into a temporary folder,
# start it on a free loopback port, export REMI_TEST_POSTGRES_URL, run the command, then
# stop the cluster and remove the folder. Debian's postgresql is installed when missing
# (as root, with apt-get). PostgreSQL refuses to run as root, so as root the cluster runs
# as the user postgres. When REMI_TEST_POSTGRES_URL is already set, the command just runs.
# If no cluster can be had, the command runs without the variable (the PostgreSQL tests
# skip), except in CI (CI=true), where that is an error. REMI_TEST_POSTGRES_CTL names a
# script that stops (`stop`) and starts (`start`) the cluster again.
#
#   .ci/with-postgres.sh .venv/bin/pytest -n auto tests
set -uo pipefail

log() { echo "with-postgres: $*" >&2; }

pg_bindir() {
    local dir
    for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then echo "$dir"; return 0; fi
    done
    if command -v initdb >/dev/null && command -v pg_ctl >/dev/null; then
        dirname "$(command -v initdb)"; return 0
    fi
    return 1
}

install_postgres() {
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || return 1
    log "installing Debian's postgresql"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q postgresql >&2 \
        || { apt-get update -q >&2 && apt-get install -y -q postgresql >&2; }
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

PG_DIR=""
AS=()

start_cluster() {
    local bindir port user
    bindir=$(pg_bindir) || { install_postgres && bindir=$(pg_bindir); } || return 1
    PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/remikit-pg.XXXXXX") || return 1
    if [ "$(id -u)" = 0 ]; then
        user=postgres
        id -u "$user" >/dev/null 2>&1 || user=nobody
        chown "$user" "$PG_DIR"
        if command -v runuser >/dev/null; then AS=(runuser -u "$user" --); else AS=(su "$user" -s /bin/sh -c); fi
    fi
    chmod 700 "$PG_DIR"
    port=$(free_port) || return 1
    as_pg "$bindir/initdb" -D "$PG_DIR/data" -U remi -A trust -E UTF8 --locale=C.UTF-8 --no-sync \
        >"$PG_DIR/initdb.log" 2>&1 || { cat "$PG_DIR/initdb.log" >&2; return 1; }
    local ctl=("$bindir/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 -m fast
        -o "-c listen_addresses=127.0.0.1 -p $port -k $PG_DIR -c fsync=off -c max_connections=300")
    as_pg "${ctl[@]}" start >&2 || { cat "$PG_DIR/server.log" >&2; return 1; }
    PG_CTL="$bindir/pg_ctl"
    write_ctl "${ctl[@]}"
    export REMI_TEST_POSTGRES_URL="postgresql://remi@127.0.0.1:$port/postgres"
    export REMI_TEST_POSTGRES_CTL="$PG_DIR/ctl"
    log "PostgreSQL on 127.0.0.1:$port ($PG_DIR)"
}

as_pg() {
    if [ ${#AS[@]} -eq 0 ]; then "$@";
    elif [ "${AS[0]}" = su ]; then "${AS[@]}" "$(printf '%q ' "$@")";
    else "${AS[@]}" "$@"; fi
}

# $PG_DIR/ctl stop|start: stop the cluster or start it again, as it was started (the
# tests of a database outage); REMI_TEST_POSTGRES_CTL names it.
write_ctl() {
    local cmd
    cmd=$(printf '%q ' "$@")
    {
        echo '#!/usr/bin/env bash'
        if [ ${#AS[@]} -eq 0 ]; then echo "exec $cmd \"\$1\""
        elif [ "${AS[0]}" = su ]; then echo "exec $(printf '%q ' "${AS[@]}") \"$cmd \$1\""
        else echo "exec $(printf '%q ' "${AS[@]}") $cmd \"\$1\""; fi
    } >"$PG_DIR/ctl"
    chmod 755 "$PG_DIR/ctl"
}

stop_cluster() {
    if [ -n "${PG_CTL:-}" ]; then as_pg "$PG_CTL" -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1; fi
    [ -n "$PG_DIR" ] && rm -rf "$PG_DIR"
}

if [ $# -eq 0 ]; then echo "usage: $0 COMMAND [ARG...]" >&2; exit 2; fi
if [ -n "${REMI_TEST_POSTGRES_URL:-}" ]; then exec "$@"; fi
trap stop_cluster EXIT
if ! start_cluster; then
    if [ "${CI:-}" = "true" ]; then log "cannot start PostgreSQL (required in CI)"; exit 1; fi
    log "no PostgreSQL: its tests will be skipped"
    stop_cluster
    trap - EXIT
    exec "$@"
fi
"$@"
