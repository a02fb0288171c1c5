#!/usr/bin/env bash
# The container stage: builds the image from the repository and runs everything that needs it
# (docs/containers.md): the ParleyContainer and image tests (vitest, packages/testcontainers), the
# Python client (python3-docker + http.client) and the GitHub Action's step scripts. It never skips:
# whatever it cannot set up fails the stage with the reason.
#
# Needs a container engine with the Docker API. On this project's machines that is rootful Podman,
# set up by the shared tools (tools/container/setup.sh), found at ../shared relative to the
# repository (to the main checkout for a git worktree), at /work/shared, or at $PARLEY_CONTAINER_TOOLS. When Podman or
# the base image is missing and we are root, setup.sh runs (about 41 s, once); the Docker API is
# started when it does not answer, and stopped again at the end if this script started it.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
banner() { printf '\n!!! CONTAINER STAGE FAILED: %s\n\n' "$*" >&2; exit 1; }
timings=()
step() { # NAME COMMAND...
  local start=$SECONDS
  "${@:2}" || banner "$1 failed (see above)"
  timings+=("$1 $((SECONDS - start)) s")
}

tools="${PARLEY_CONTAINER_TOOLS:-}"
if [ -z "$tools" ]; then
  for candidate in "$root/../shared/tools/container" \
    "$(dirname "$(git rev-parse --path-format=absolute --git-common-dir 2>/dev/null || echo /nonexistent/.git)")/../shared/tools/container" \
    /work/shared/tools/container; do
    if [ -x "$candidate/setup.sh" ]; then tools="$(cd "$candidate" && pwd)"; break; fi
  done
fi

if ! command -v podman >/dev/null || ! podman image exists node:20-bookworm-slim 2>/dev/null; then
  [ -n "$tools" ] || banner "Podman (or its node:20-bookworm-slim base image) is missing, and the shared setup script was not found at ../shared/tools/container (set PARLEY_CONTAINER_TOOLS)"
  [ "$(id -u)" = 0 ] || banner "Podman (or its base image) is missing, and $tools/setup.sh must run as root"
  step setup "$tools/setup.sh"
fi

# The Docker API: the one DOCKER_HOST names, or Podman's socket when something answers there; else
# this script starts `podman system service` and stops exactly that process at the end. (Not the
# shared service.sh: its HEALTHCHECK loop starts a node process in every running container each
# second, which these tests do not need: they run the check on demand and wait on /readyz.)
socket="${DOCKER_HOST:-unix:///run/podman/podman.sock}"
if ! curl -sf --unix-socket "${socket#unix://}" http://d/_ping >/dev/null 2>&1; then
  [ -z "${DOCKER_HOST:-}" ] || banner "no Docker API answers at DOCKER_HOST=$DOCKER_HOST"
  mkdir -p /run/podman
  api_log="$(mktemp)"
  podman system service --time=0 "$socket" >"$api_log" 2>&1 &
  api_pid=$!
  trap 'kill "$api_pid" 2>/dev/null; rm -f "$api_log"' EXIT
  for _ in $(seq 100); do curl -sf --unix-socket "${socket#unix://}" http://d/_ping >/dev/null 2>&1 && break; sleep 0.1; done
  curl -sf --unix-socket "${socket#unix://}" http://d/_ping >/dev/null 2>&1 ||
    banner "podman system service did not answer on $socket: $(cat "$api_log")"
fi
export DOCKER_HOST="$socket"
export TESTCONTAINERS_RYUK_DISABLED="${TESTCONTAINERS_RYUK_DISABLED:-true}"
export TESTCONTAINERS_HOST_OVERRIDE="${TESTCONTAINERS_HOST_OVERRIDE:-localhost}"
export PARLEY_IMAGE="${PARLEY_IMAGE:-localhost/parley:dev}"

python=/usr/bin/python3
if ! "$python" -c 'import docker' 2>/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    timeout 300 apt-get install -y -qq python3-docker >/dev/null 2>&1 ||
      { timeout 300 apt-get update -qq && timeout 300 apt-get install -y -qq python3-docker >/dev/null; } ||
      banner "python3-docker could not be installed with apt-get"
  else banner "Debian's python3-docker is missing (apt-get install python3-docker, as root)"; fi
fi

step "image build" scripts/container/build-image.sh "$PARLEY_IMAGE"

# The three suites wait on the container engine more than on the CPU: they run at once, each with
# containers of its own; the Python and action output is printed when they end.
logs="$(mktemp -d)"
start=$SECONDS
"$python" scripts/container/python-client-test.py >"$logs/python" 2>&1 &
python_pid=$!
scripts/container/action-test.sh >"$logs/action" 2>&1 &
action_pid=$!
node_status=0
npx vitest run --config packages/testcontainers/vitest.config.ts || node_status=$?
python_status=0
wait "$python_pid" || python_status=$?
action_status=0
wait "$action_pid" || action_status=$?
echo "--- python client (scripts/container/python-client-test.py)"; cat "$logs/python"
echo "--- action scripts (scripts/container/action-test.sh)"; cat "$logs/action"
rm -rf "$logs"
timings+=("tests $((SECONDS - start)) s")
[ "$node_status" = 0 ] || banner "node container tests failed (exit code $node_status, see above)"
[ "$python_status" = 0 ] || banner "the python client test failed (see above)"
[ "$action_status" = 0 ] || banner "the action scripts test failed (see above)"
echo "container stage passed: ${timings[*]/%/,}" | sed 's/,$//'
