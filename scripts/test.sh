#!/usr/bin/env bash
# `npm test`: the whole check, as CI runs it. Brings what it needs (Debian's Chromium, a throwaway
# Postgres 15 server, promtool, Caddy), then lint, typecheck, unit tests, build, e2e tests, the chaos
# run (three instances of the build on the throwaway Postgres, docs/chaos.md), a two-minute soak with
# Postgres restarted under it (a Postgres of its own, ADR 39), and a closing line
# `N passed, N failed[, N skipped]` built from the runners' JSON reports in .ci-out/.
#
# Every step runs even when an earlier one failed, so one run shows everything and the test counts
# are complete; the only exception is e2e, which needs a successful build and a browser. The
# script exits non-zero if any step failed or any test failed (or no test ran).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

export NEXT_TELEMETRY_DISABLED=1
OUT=.ci-out
TOTAL_STEPS=10

# ---------------------------------------------------------------------------------------------
# Bookkeeping

STEP_NAMES=()
STEP_STATUS=()
STEP_TIMES=()
FAILED_STEPS=0
STEP_NO=0

now_ms() { date +%s%3N; }
fmt_ms() { printf '%d.%01ds' "$(($1 / 1000))" "$((($1 % 1000) / 100))"; }

record() { # name status elapsed_ms
  STEP_NAMES+=("$1")
  STEP_STATUS+=("$2")
  STEP_TIMES+=("$3")
  if [ "$2" = "FAILED" ]; then FAILED_STEPS=$((FAILED_STEPS + 1)); fi
}

# step NAME COMMAND...: runs the command under a header, prints its wall time, records the result.
# Returns the command's exit code.
step() {
  local name=$1
  shift
  STEP_NO=$((STEP_NO + 1))
  echo
  echo "================================================================================"
  echo "==> [$STEP_NO/$TOTAL_STEPS] $name: $*"
  echo "================================================================================"
  local t0 rc elapsed
  t0=$(now_ms)
  "$@"
  rc=$?
  elapsed=$(($(now_ms) - t0))
  # Ctrl-C: tools like Playwright catch SIGINT and exit 130 themselves, and then bash does not run
  # its own INT trap; stop here instead of carrying on with the next step.
  if [ "$rc" -eq 130 ] || [ "$rc" -eq 143 ]; then
    echo "<== [$STEP_NO/$TOTAL_STEPS] $name: interrupted (exit $rc) after $(fmt_ms "$elapsed")"
    exit "$rc"
  fi
  if [ "$rc" -eq 0 ]; then
    echo "<== [$STEP_NO/$TOTAL_STEPS] $name: ok in $(fmt_ms "$elapsed")"
    record "$name" ok "$elapsed"
  else
    echo "<== [$STEP_NO/$TOTAL_STEPS] $name: FAILED (exit $rc) in $(fmt_ms "$elapsed")"
    record "$name" FAILED "$elapsed"
  fi
  return "$rc"
}

skip_step() { # NAME REASON
  STEP_NO=$((STEP_NO + 1))
  echo
  echo "================================================================================"
  echo "==> [$STEP_NO/$TOTAL_STEPS] $1: SKIPPED ($2)"
  echo "================================================================================"
  record "$1" "FAILED (skipped: $2)" 0
  FAILED_STEPS=$((FAILED_STEPS + 1))
}

# replay_step NAME OUTPUT_FILE RC ELAPSED_MS: a step that ran in the background, shown and recorded
# as one once it has ended.
replay_step() {
  STEP_NO=$((STEP_NO + 1))
  echo
  echo "================================================================================"
  echo "==> [$STEP_NO/$TOTAL_STEPS] $1 (ran beside the step before)"
  echo "================================================================================"
  cat "$2"
  if [ "$3" -eq 0 ]; then
    echo "<== [$STEP_NO/$TOTAL_STEPS] $1: ok in $(fmt_ms "$4")"
    record "$1" ok "$4"
  else
    echo "<== [$STEP_NO/$TOTAL_STEPS] $1: FAILED (exit $3) in $(fmt_ms "$4")"
    record "$1" FAILED "$4"
  fi
}

# ---------------------------------------------------------------------------------------------
# Cleanup: the throwaway Postgres is always stopped and its directory removed, on success,
# failure, Ctrl-C or kill.

PG_STATE=""
cleanup() {
  if [ -n "$PG_STATE" ]; then
    bash scripts/pg-throwaway.sh stop "$PG_STATE" || true
    rm -f "$PG_STATE"
    PG_STATE=""
  fi
}
trap cleanup EXIT
trap 'echo; echo "test.sh: interrupted" >&2; exit 130' INT
trap 'echo "test.sh: terminated" >&2; exit 143' TERM
trap 'exit 129' HUP

RUN_T0=$(now_ms)

if [ ! -x node_modules/.bin/next ] || [ ! -x node_modules/.bin/vitest ] || [ ! -x node_modules/.bin/playwright ]; then
  echo "test.sh: node_modules is missing or incomplete; run 'npm ci || npm install' first" >&2
  exit 1
fi

mkdir -p "$OUT"
rm -f "$OUT"/*.json

# 1. Browser for e2e.
CHROMIUM_OK=1
step "chromium" bash scripts/ensure-package.sh /usr/bin/chromium chromium || CHROMIUM_OK=0
if [ "$CHROMIUM_OK" = 1 ]; then /usr/bin/chromium --version 2>/dev/null || true; fi
# promtool and Caddy, for the unit tests' checks of deploy/prometheus/ and the Caddyfile (without
# them those tests fail, saying so).
bash scripts/ensure-package.sh promtool prometheus prometheus || echo "test.sh: promtool could not be installed" >&2
bash scripts/ensure-package.sh caddy caddy caddy || echo "test.sh: caddy could not be installed" >&2

# 2. Throwaway Postgres for the tests that run against a real server.
PG_OK=1
start_pg() {
  local url
  PG_STATE=$(mktemp /tmp/pg-throwaway-state.XXXXXX) || return 1
  url=$(bash scripts/pg-throwaway.sh start "$PG_STATE") || return 1
  export TEST_DATABASE_URL="$url"
  echo "TEST_DATABASE_URL=$TEST_DATABASE_URL"
}
step "postgres" start_pg || PG_OK=0

# 3-4. Static checks, side by side: each is one process on one core, and together they took 70 s
# of a run held to 30 minutes. The typecheck's output is shown under its own header when it ends.
TYPECHECK_OUT=$(mktemp)
(
  t0=$(now_ms)
  npm run --silent typecheck >"$TYPECHECK_OUT" 2>&1
  echo "$? $(($(now_ms) - t0))" >"$TYPECHECK_OUT.done"
) &
TYPECHECK_PID=$!
step "lint" npm run --silent lint
wait "$TYPECHECK_PID"
read -r TYPECHECK_RC TYPECHECK_MS <"$TYPECHECK_OUT.done" || { TYPECHECK_RC=1; TYPECHECK_MS=0; }
replay_step "typecheck" "$TYPECHECK_OUT" "$TYPECHECK_RC" "$TYPECHECK_MS"
rm -f "$TYPECHECK_OUT" "$TYPECHECK_OUT.done"

# 5. Unit tests (JSON report for the summary).
step "unit tests" npx --no-install vitest run --config scripts/vitest.config.ts \
  --reporter=default --reporter=json --outputFile.json="$OUT/vitest.json"

# 6. Production build (the e2e server runs it).
BUILD_OK=1
step "build" npm run --silent build || BUILD_OK=0

# 7. End-to-end tests against `npm start` (reporters: list + JSON, see e2e/playwright.config.ts).
if [ "$BUILD_OK" = 0 ]; then
  skip_step "e2e tests" "the build failed"
elif [ "$CHROMIUM_OK" = 0 ]; then
  skip_step "e2e tests" "no Chromium"
else
  step "e2e tests" npx --no-install playwright test --config e2e/playwright.config.ts
fi

# 8. Chaos: the build as deployed, three instances on the throwaway Postgres, kills and an outage.
if [ "$BUILD_OK" = 0 ]; then
  skip_step "chaos" "the build failed"
elif [ "$PG_OK" = 0 ]; then
  skip_step "chaos" "no Postgres"
else
  step "chaos" npm run --silent chaos
fi

# 9. Soak: the same three instances for two minutes at a steady rate, Postgres restarted twice under
# traffic (ADR 39); the hour-long run is `npm run soak -- --minutes 60`.
if [ "$BUILD_OK" = 0 ]; then
  skip_step "soak" "the build failed"
elif [ "$PG_OK" = 0 ]; then
  skip_step "soak" "no Postgres"
else
  step "soak" npm run --silent soak -- --minutes 2
fi

# The throwaway server is no longer needed; stop it before the summary.
cleanup

# 10. Summary: a table of the steps, then the closing line (last line of the output).
STEP_NO=$((STEP_NO + 1))
echo
echo "================================================================================"
echo "==> [$STEP_NO/$TOTAL_STEPS] summary (total $(fmt_ms $(($(now_ms) - RUN_T0))))"
echo "================================================================================"
for i in "${!STEP_NAMES[@]}"; do
  printf '  %-12s %-9s %s\n' "${STEP_NAMES[$i]}" "$(fmt_ms "${STEP_TIMES[$i]}")" "${STEP_STATUS[$i]}"
done
if [ "$FAILED_STEPS" -gt 0 ]; then
  echo "  $FAILED_STEPS step(s) failed"
fi
node scripts/summarize-tests.mjs
SUMMARY_RC=$?

if [ "$FAILED_STEPS" -gt 0 ] || [ "$SUMMARY_RC" -ne 0 ]; then
  exit 1
fi
exit 0
