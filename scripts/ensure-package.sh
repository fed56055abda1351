#!/usr/bin/env bash
# ensure-package.sh COMMAND PACKAGE [SERVICE]: make sure COMMAND is there, installing Debian's
# PACKAGE with apt-get when it is not (no downloads but npm's and Debian's here: Chromium for
# Playwright, toolchain pitfall 2; promtool for deploy/prometheus/; Caddy for the deploy
# rehearsal). Idempotent and silent when COMMAND is already there. A package that starts a
# service of its own (prometheus, caddy) has SERVICE stopped and disabled again where systemd
# runs: only the command is wanted, not a server on its port.
set -euo pipefail

COMMAND=$1
PACKAGE=$2
SERVICE=${3:-}
NAME="ensure-package ($PACKAGE)"

if command -v "$COMMAND" >/dev/null 2>&1; then
  exit 0
fi

echo "$NAME: $COMMAND missing; installing Debian's $PACKAGE" >&2

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo -n"
  else
    echo "$NAME: not root and no sudo; install it with: apt-get install -y --no-install-recommends $PACKAGE" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# Quiet unless it fails; then show apt's output.
if ! { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends "$PACKAGE"; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "$NAME: apt-get could not install $PACKAGE" >&2
  exit 1
fi

if [ -n "$SERVICE" ] && [ -d /run/systemd/system ]; then
  $SUDO systemctl disable --now "$SERVICE" >/dev/null 2>&1 || true
fi

if ! command -v "$COMMAND" >/dev/null 2>&1; then
  echo "$NAME: apt-get finished but $COMMAND is still missing" >&2
  exit 1
fi
echo "$NAME: installed $("$COMMAND" --version 2>&1 | head -n 1)" >&2
