#!/usr/bin/env bash
# Run a command beside a throwaway Redis server: start redis-server on a free loopback port
# in a temporary folder (no persistence), export REMI_TEST_REDIS_URL, run the command, then
# stop the server and remove the folder. Debian's redis-server is installed when missing
# (as root, with apt-get). When REMI_TEST_REDIS_URL is already set, the command just runs.
# If no server can be had, the command runs without the variable (the Redis tests skip),
# except in CI (CI=true), where that is an error. REMI_TEST_REDIS_CTL names a script that
# stops (`stop`) and starts (`start`) the server again on the same port.
#
#   .ci/with-redis.sh .venv/bin/pytest -n auto tests
set -uo pipefail

log() { echo "with-redis: $*" >&2; }

install_redis() {
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || return 1
    log "installing Debian's redis-server"
    export DEBIAN_FRONTEND=noninteractive
    # policy-rc.d answering 101 keeps the package from starting the system's redis service.
    local policy=/usr/sbin/policy-rc.d made_policy=
    if [ ! -e "$policy" ]; then
        printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && made_policy=1
    fi
    apt-get install -y -q redis-server >&2 \
        || { apt-get update -q >&2 && apt-get install -y -q redis-server >&2; }
    local status=$?
    if [ -n "$made_policy" ]; then rm -f "$policy"; fi
    return $status
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

REDIS_DIR=""

start_server() {
    local server port
    server=$(command -v redis-server) || { install_redis && server=$(command -v redis-server); } \
        || return 1
    REDIS_DIR=$(mktemp -d "${TMPDIR:-/tmp}/remikit-redis.XXXXXX") || return 1
    port=$(free_port) || return 1
    cat >"$REDIS_DIR/redis.conf" <<EOF
bind 127.0.0.1
port $port
dir "$REDIS_DIR"
pidfile "$REDIS_DIR/redis.pid"
logfile "$REDIS_DIR/redis.log"
daemonize yes
save ""
appendonly no
EOF
    write_ctl "$server" "$port" || return 1
    "$REDIS_DIR/ctl" start || { cat "$REDIS_DIR/redis.log" >&2; return 1; }
    export REMI_TEST_REDIS_URL="redis://127.0.0.1:$port/0"
    export REMI_TEST_REDIS_CTL="$REDIS_DIR/ctl"
    log "Redis on 127.0.0.1:$port ($REDIS_DIR)"
}

# $REDIS_DIR/ctl stop|start: stop the server (and wait until it is gone) or start it again
# on the same port and wait until it answers PING (the tests of a Redis outage);
# REMI_TEST_REDIS_CTL names it.
write_ctl() {
    local server=$1 port=$2 cli
    cli="$(dirname "$server")/redis-cli"
    [ -x "$cli" ] || cli=$(command -v redis-cli) || return 1
    {
        echo '#!/usr/bin/env bash'
        printf 'server=%q cli=%q dir=%q port=%q\n' "$server" "$cli" "$REDIS_DIR" "$port"
        cat <<'EOF'
case "${1:-}" in
start)
    "$server" "$dir/redis.conf" || exit 1
    for _ in $(seq 300); do
        [ "$("$cli" -p "$port" ping 2>/dev/null)" = PONG ] && exit 0
        sleep 0.1
    done
    echo "redis-server did not answer on port $port" >&2; exit 1 ;;
stop)
    pid=$(cat "$dir/redis.pid" 2>/dev/null) || exit 0
    kill -TERM "$pid" 2>/dev/null || exit 0
    for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || exit 0; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null; rm -f "$dir/redis.pid" ;;
*)
    echo "usage: $0 stop|start" >&2; exit 2 ;;
esac
EOF
    } >"$REDIS_DIR/ctl"
    chmod 755 "$REDIS_DIR/ctl"
}

stop_server() {
    if [ -n "$REDIS_DIR" ]; then
        [ -x "$REDIS_DIR/ctl" ] && "$REDIS_DIR/ctl" stop
        rm -rf "$REDIS_DIR"
    fi
}

if [ $# -eq 0 ]; then echo "usage: $0 COMMAND [ARG...]" >&2; exit 2; fi
if [ -n "${REMI_TEST_REDIS_URL:-}" ]; then exec "$@"; fi
trap stop_server EXIT
if ! start_server; then
    if [ "${CI:-}" = "true" ]; then log "cannot start Redis (required in CI)"; exit 1; fi
    log "no Redis: its tests will be skipped"
    stop_server
    trap - EXIT
    exec "$@"
fi
"$@"
