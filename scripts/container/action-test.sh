#!/usr/bin/env bash
# Runs the GitHub Action's step scripts (scripts/action/*.sh) here, as action.yml runs them on a
# runner, with GITHUB_ENV and RUNNER_TEMP in a temporary folder: in `image` mode against the image
# and in `npx` mode against the packed tarballs. Checks PARLEY_BASE_URL and the token work, that stop
# saves the journal and the server's output and stops the server with exit code 0, and that a
# server that cannot start fails the readiness step with its message.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
image="${PARLEY_IMAGE:-localhost/parley:dev}"
if [ -z "${PARLEY_DOCKER:-}" ]; then
  if command -v docker >/dev/null && docker version >/dev/null 2>&1; then export PARLEY_DOCKER=docker; else export PARLEY_DOCKER=podman; fi
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "action test FAILED: $*" >&2; exit 1; }

# One use of the action: start, wait for /readyz, the command, stop. INPUT_* come from the caller.
use_action() { # NAME COMMAND
  local dir="$work/$1"
  mkdir -p "$dir/tmp"
  (
    export RUNNER_TEMP="$dir/tmp" GITHUB_ENV="$dir/env" INPUT_ARTIFACTS_DIR="$dir/tmp/parley"
    : >"$GITHUB_ENV"
    # As on a runner: a failed step skips the command; stop always runs.
    status=0
    scripts/action/start.sh || exit 1
    set -a; . "$GITHUB_ENV"; set +a
    if scripts/action/wait-ready.sh; then bash -c "$2" || status=$?; else status=1; fi
    scripts/action/stop.sh || status=1
    exit "$status"
  )
}

# A test command: a session created with PARLEY_TOKEN, and a scripted reply.
check_server='
  set -e
  session=$(curl -sf -X POST -H "authorization: Bearer $PARLEY_TOKEN" "$PARLEY_BASE_URL/v1/sessions")
  id=$(printf "%s" "$session" | sed -E "s/.*\"sessionId\":\"([^\"]+)\".*/\1/")
  curl -sf -H "authorization: Bearer $PARLEY_TOKEN" -H "content-type: application/json" \
    -d "{\"content\":\"Hi\"}" "$PARLEY_BASE_URL/v1/messages/$id" | grep -q "From the action script"
'
echo '{"turns":[{"text":"From the action script."}]}' >"$work/script.json"
printf '# users\nci:ci-token-123\n' >"$work/users"

INPUT_MODE=image INPUT_IMAGE="$image" INPUT_PORT=14011 INPUT_USERS_FILE="$work/users" INPUT_SCRIPT="$work/script.json" \
  use_action image "$check_server" || fail "image mode"
grep -q '"path":"/v1/sessions"' "$work/image/tmp/parley/parley-journal.json" || fail "image mode: no journal saved"
grep -q 'stopped (SIGTERM)' "$work/image/tmp/parley/parley-server.log" || fail "image mode: no server output saved"
echo "action test: image mode ok"

INPUT_MODE=npx INPUT_PORT=14012 INPUT_USERS="ci:ci-token-456" INPUT_SCRIPT="$work/script.json" \
  INPUT_PACKAGE="$root/$(ls packed/parley-protocol-*.tgz) $root/$(ls packed/parley-reference-server-*.tgz)" \
  use_action npx "$check_server" || fail "npx mode"
grep -q '"path":"/v1/sessions"' "$work/npx/tmp/parley/parley-journal.json" || fail "npx mode: no journal saved"
echo "action test: npx mode ok"

# A bad option: the readiness step fails at once with the server's message, nothing left running.
if INPUT_MODE=image INPUT_IMAGE="$image" INPUT_PORT=14013 INPUT_PACE=bogus use_action bad true 2>"$work/bad.err"; then
  fail "a bad option passed the readiness step"
fi
grep -q "PARLEY_PACE value 'bogus' is invalid" "$work/bad.err" || fail "bad option: no server message: $(cat "$work/bad.err")"
[ -z "$("$PARLEY_DOCKER" ps -aq --filter "name=parley-local-")" ] || fail "bad option: a container was left"
echo "action test: a bad option fails the readiness step with the server's message"
