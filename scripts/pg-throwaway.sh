#!/usr/bin/env bash
# A throwaway Postgres server for tests: a fresh cluster in a temporary directory, listening on
# 127.0.0.1 only, trust auth, no fsync. Nothing of it survives `stop`.
#
# Run it:
#   scripts/pg-throwaway.sh start [STATE_FILE]   # prints the URL (only that) on stdout
#   scripts/pg-throwaway.sh stop  [STATE_FILE]   # stops the server and deletes its directory
#   scripts/pg-throwaway.sh status [STATE_FILE]
#   scripts/pg-throwaway.sh down [STATE_FILE]    # a fast shutdown (as a managed Postgres restarts), data kept
#   scripts/pg-throwaway.sh up [STATE_FILE]      # starts it again on the same port (after `down`)
# STATE_FILE (default .ci-out/pg-throwaway.env) is a small shell file that `start` writes:
#   PG_THROWAWAY_DIR=... PG_THROWAWAY_PORT=... PG_THROWAWAY_URL=...
# so the caller can `source` it, and `stop` knows what to stop. `stop` is safe to call twice or
# when `start` failed half-way.
#
# Or source it and call the functions `pg_throwaway_start [STATE_FILE]` (sets and exports
# PG_THROWAWAY_DIR, PG_THROWAWAY_PORT, PG_THROWAWAY_URL) and `pg_throwaway_stop [STATE_FILE]`.
#
# Environment: PG_BIN (default /usr/lib/postgresql/15/bin), PG_PORT (default: a free port the
# OS picks). Postgres 15 is installed with apt-get when missing. initdb and pg_ctl refuse to run
# as root, so as root they run as the `postgres` user.

_pg_throwaway_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

_pg_log() { echo "pg-throwaway: $*" >&2; }

_pg_bin() {
  if [ -n "${PG_BIN:-}" ]; then echo "$PG_BIN"; return; fi
  if [ -x /usr/lib/postgresql/15/bin/initdb ]; then echo /usr/lib/postgresql/15/bin; return; fi
  # Any other installed major version will do for tests.
  local d
  d="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
  echo "${d:-/usr/lib/postgresql/15/bin}"
}

_pg_ensure_installed() {
  local bin
  bin="$(_pg_bin)"
  if [ -x "$bin/initdb" ] && [ -x "$bin/pg_ctl" ]; then return 0; fi
  if [ "$(id -u)" -ne 0 ]; then
    _pg_log "no Postgres binaries in $bin and not root; install them with: apt-get install -y postgresql"
    return 1
  fi
  _pg_log "no Postgres binaries in $bin; installing Debian's postgresql"
  local log
  log="$(mktemp)"
  if ! { DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
         DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql; } >"$log" 2>&1; then
    cat "$log" >&2; rm -f "$log"
    _pg_log "apt-get install postgresql failed"
    return 1
  fi
  rm -f "$log"
  # The package may start its own cluster on 5432; it is not ours, and we do not need it.
  bin="$(_pg_bin)"
  [ -x "$bin/initdb" ] || { _pg_log "still no initdb in $bin"; return 1; }
}

# Runs a Postgres command as the postgres user when we are root.
_pg_as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

_pg_free_port() {
  if [ -n "${PG_PORT:-}" ]; then echo "$PG_PORT"; return; fi
  # Ask the OS for a free port on 127.0.0.1.
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})' 2>/dev/null && return
  # Fallback without node: the first port from 54329 nobody answers on.
  local p
  for p in $(seq 54329 54429); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return; fi
  done
  echo 54329
}

_pg_state_file() { echo "${1:-$_pg_throwaway_root/.ci-out/pg-throwaway.env}"; }

# Starts the server of DIR on PORT, with its log in DIR/server.log.
_pg_ctl_start() {
  # -l: the server's output goes to a file, never to our stdout (a caller's $(...) would hang
  # on the pipe the postmaster keeps open). fsync off: the data is thrown away anyway.
  _pg_as_owner "$(_pg_bin)/pg_ctl" -D "$1" -l "$1/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $2 -k $1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
    start >/dev/null 2>&1 </dev/null
}

pg_throwaway_start() {
  local state bin dir port attempt url
  state="$(_pg_state_file "${1:-}")"
  _pg_ensure_installed || return 1
  bin="$(_pg_bin)"
  if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
    _pg_log "no 'postgres' user to run initdb as (initdb refuses root)"
    return 1
  fi

  # /tmp explicitly: the postgres user must be able to reach the directory, whatever TMPDIR is.
  dir="$(mktemp -d /tmp/pg-throwaway.XXXXXX)" || return 1
  mkdir -p "$(dirname "$state")"
  # Write the state first, so that `stop` cleans up even if the start fails below.
  printf 'PG_THROWAWAY_DIR=%q\n' "$dir" >"$state"
  if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir"; fi
  chmod 700 "$dir"

  if ! _pg_as_owner "$bin/initdb" -D "$dir" -A trust -U postgres --no-sync -E UTF8 --locale=C.UTF-8 \
      >"$dir.initdb.log" 2>&1 </dev/null; then
    # Some images lack C.UTF-8; try again with the plain C locale.
    rm -rf "${dir:?}"/* 2>/dev/null
    if ! _pg_as_owner "$bin/initdb" -D "$dir" -A trust -U postgres --no-sync -E UTF8 --locale=C \
        >"$dir.initdb.log" 2>&1 </dev/null; then
      cat "$dir.initdb.log" >&2
      _pg_log "initdb failed"
      rm -f "$dir.initdb.log"
      pg_throwaway_stop "$state"
      return 1
    fi
  fi
  rm -f "$dir.initdb.log"

  for attempt in 1 2 3 4 5; do
    port="$(_pg_free_port)"
    if _pg_ctl_start "$dir" "$port"; then
      url="postgres://postgres@127.0.0.1:$port/postgres"
      {
        printf 'PG_THROWAWAY_DIR=%q\n' "$dir"
        printf 'PG_THROWAWAY_PORT=%q\n' "$port"
        printf 'PG_THROWAWAY_URL=%q\n' "$url"
      } >"$state"
      export PG_THROWAWAY_DIR="$dir" PG_THROWAWAY_PORT="$port" PG_THROWAWAY_URL="$url"
      echo "$url"
      return 0
    fi
    if [ -n "${PG_PORT:-}" ] || ! grep -qi "could not bind\|address already in use\|could not create any TCP" "$dir/server.log" 2>/dev/null; then
      break
    fi
    _pg_log "port $port was taken; trying another (attempt $attempt)"
  done
  tail -n 30 "$dir/server.log" >&2 2>/dev/null
  _pg_log "pg_ctl start failed"
  pg_throwaway_stop "$state"
  return 1
}

pg_throwaway_stop() {
  local state bin dir pid
  state="$(_pg_state_file "${1:-}")"
  [ -f "$state" ] || return 0
  dir="$(
    PG_THROWAWAY_DIR=""
    # shellcheck disable=SC1090
    . "$state"
    echo "$PG_THROWAWAY_DIR"
  )"
  # Only ever delete what `start` made.
  case "$dir" in
    /tmp/pg-throwaway.??????) ;;
    *) _pg_log "refusing to remove unexpected directory '$dir' from $state"; rm -f "$state"; return 1 ;;
  esac
  if [ -d "$dir" ]; then
    bin="$(_pg_bin)"
    if [ -f "$dir/postmaster.pid" ]; then
      if ! _pg_as_owner "$bin/pg_ctl" -D "$dir" -m fast -w -t 30 stop >/dev/null 2>&1 </dev/null; then
        pid="$(head -n 1 "$dir/postmaster.pid" 2>/dev/null)"
        if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
          _pg_log "pg_ctl stop failed; killing postmaster $pid"
          kill -QUIT "$pid" 2>/dev/null
          sleep 1
          kill -KILL "$pid" 2>/dev/null
        fi
      fi
    fi
    rm -rf "$dir"
  fi
  rm -f "$dir.initdb.log" "$state"
  unset PG_THROWAWAY_DIR PG_THROWAWAY_PORT PG_THROWAWAY_URL
  return 0
}

# The server of STATE_FILE stopped as a managed Postgres is for maintenance (`-m fast`: open
# sessions are ended, their transactions rolled back), its data kept for `up`.
pg_throwaway_down() {
  local state
  state="$(_pg_state_file "${1:-}")"
  [ -f "$state" ] || { _pg_log "no $state"; return 1; }
  (
    # shellcheck disable=SC1090
    . "$state"
    _pg_as_owner "$(_pg_bin)/pg_ctl" -D "$PG_THROWAWAY_DIR" -m fast -w -t 30 stop >/dev/null 2>&1 </dev/null
  )
}

# The server of STATE_FILE started again on its port, after `down`.
pg_throwaway_up() {
  local state
  state="$(_pg_state_file "${1:-}")"
  [ -f "$state" ] || { _pg_log "no $state"; return 1; }
  (
    # shellcheck disable=SC1090
    . "$state"
    _pg_ctl_start "$PG_THROWAWAY_DIR" "$PG_THROWAWAY_PORT" || {
      tail -n 20 "$PG_THROWAWAY_DIR/server.log" >&2
      _pg_log "pg_ctl start failed"
      exit 1
    }
  )
}

pg_throwaway_status() {
  local state
  state="$(_pg_state_file "${1:-}")"
  if [ ! -f "$state" ]; then echo "not running (no $state)"; return 1; fi
  (
    # shellcheck disable=SC1090
    . "$state"
    if [ -n "${PG_THROWAWAY_PORT:-}" ] && "$(_pg_bin)/pg_isready" -q -h 127.0.0.1 -p "$PG_THROWAWAY_PORT"; then
      echo "running: $PG_THROWAWAY_URL (dir $PG_THROWAWAY_DIR)"
    else
      echo "not answering (dir ${PG_THROWAWAY_DIR:-?})"
      exit 1
    fi
  )
}

# Executed (not sourced): dispatch the subcommand.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -uo pipefail
  case "${1:-}" in
    start) pg_throwaway_start "${2:-}" ;;
    stop) pg_throwaway_stop "${2:-}" ;;
    status) pg_throwaway_status "${2:-}" ;;
    down) pg_throwaway_down "${2:-}" ;;
    up) pg_throwaway_up "${2:-}" ;;
    *) echo "usage: $0 start|stop|status|down|up [STATE_FILE]" >&2; exit 2 ;;
  esac
fi
