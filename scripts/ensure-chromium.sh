#!/usr/bin/env bash
# Make sure Debian's Chromium is at /usr/bin/chromium (Playwright cannot download its own browsers
# here; see docs: toolchain pitfall 2). Idempotent and silent when the browser is already there.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
  exit 0
fi

echo "ensure-chromium: $CHROMIUM missing; installing Debian's chromium" >&2

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo -n"
  else
    echo "ensure-chromium: not root and no sudo; install it with: apt-get install -y --no-install-recommends chromium" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# Quiet unless it fails; then show apt's output.
if ! { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends chromium; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "ensure-chromium: apt-get could not install chromium" >&2
  exit 1
fi

if [ ! -x "$CHROMIUM" ]; then
  echo "ensure-chromium: apt-get finished but $CHROMIUM is still missing" >&2
  exit 1
fi
echo "ensure-chromium: installed $("$CHROMIUM" --version 2>/dev/null || echo chromium)" >&2
