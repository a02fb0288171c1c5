#!/usr/bin/env bash
# The GitHub Action's stop step (runs `if: always()`): saves the journal
# ($PARLEY_ARTIFACTS/parley-journal.json) and the server's output (parley-server.log), stops the
# server with SIGTERM (the checking proxy's report is written then), and fails when the server
# exited non-zero (e.g. --fail-on-violation saw a violation). Never leaves the server running.
set -euo pipefail
docker="${PARLEY_DOCKER:-docker}"
if [ -z "${PARLEY_SERVER:-}" ]; then echo "parley action: no server to stop"; exit 0; fi
artifacts="${PARLEY_ARTIFACTS:?}"
curl -s --max-time 10 -H "x-parley-control-token: $PARLEY_CONTROL_TOKEN" \
  "$PARLEY_BASE_URL/_parley/journal" >"$artifacts/parley-journal.json" || echo "parley action: journal not saved" >&2
case "$PARLEY_SERVER" in
  container:*)
    id="${PARLEY_SERVER#container:}"
    "$docker" stop -t 10 "$id" >/dev/null 2>&1 || true
    code="$("$docker" wait "$id" 2>/dev/null || echo 1)"
    "$docker" logs "$id" >"$artifacts/parley-server.log" 2>&1 || true
    "$docker" rm -f "$id" >/dev/null 2>&1 || true
    ;;
  pid:*)
    rest="${PARLEY_SERVER#pid:}"
    pid="${rest%%:*}"
    state="${rest#*:}"
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 100); do [ -s "$state/code" ] && break; sleep 0.1; done
    if [ -s "$state/code" ]; then code="$(cat "$state/code")"
    else kill -KILL "$pid" 2>/dev/null || true; code=137; fi
    ;;
esac
echo "parley action: server stopped (exit code $code); journal and output in $artifacts"
[ "$code" = 0 ] || { echo "::error::the Parley server exited with code $code; see $artifacts/parley-server.log" >&2; exit 1; }
