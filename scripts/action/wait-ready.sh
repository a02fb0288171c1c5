#!/usr/bin/env bash
# The GitHub Action's readiness step: polls $PARLEY_BASE_URL/readyz until 200 (a replay's cassette
# loaded, an upstream reached). A server that exited, or one not ready within INPUT_READY_TIMEOUT
# seconds (default 60), fails the step with the server's output.
set -euo pipefail
docker="${PARLEY_DOCKER:-docker}"
: "${PARLEY_BASE_URL:?run start.sh first}" "${PARLEY_SERVER:?run start.sh first}"
deadline=$((SECONDS + ${INPUT_READY_TIMEOUT:-60}))
logs() {
  case "$PARLEY_SERVER" in
    container:*) "$docker" logs "${PARLEY_SERVER#container:}" 2>&1 || true ;;
    pid:*) cat "$PARLEY_ARTIFACTS/parley-server.log" 2>/dev/null || true ;;
  esac
}
running() {
  case "$PARLEY_SERVER" in
    container:*) [ "$("$docker" inspect --format '{{.State.Running}}' "${PARLEY_SERVER#container:}" 2>/dev/null)" = true ] ;;
    pid:*) pid="${PARLEY_SERVER#pid:}"; kill -0 "${pid%%:*}" 2>/dev/null ;;
  esac
}
while :; do
  status="$(curl -s -o /dev/null -w '%{http_code}' "$PARLEY_BASE_URL/readyz" || true)"
  if [ "$status" = 200 ]; then echo "parley action: ready at $PARLEY_BASE_URL"; exit 0; fi
  if ! running; then
    echo "::error::the Parley server exited before it was ready; its output:" >&2
    logs >&2
    exit 1
  fi
  if [ "$SECONDS" -ge "$deadline" ]; then
    echo "::error::the Parley server was not ready within ${INPUT_READY_TIMEOUT:-60} s (GET /readyz: $status); its output:" >&2
    logs >&2
    exit 1
  fi
  sleep 0.2
done
