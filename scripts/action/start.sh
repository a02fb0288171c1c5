#!/usr/bin/env bash
# The GitHub Action's start step (action.yml): starts the Parley reference server in the background
# with the action's inputs (INPUT_* variables), as a container (INPUT_MODE=image) or as the npm
# package's bin (INPUT_MODE=npx), and writes PARLEY_BASE_URL, PARLEY_TOKEN, PARLEY_CONTROL_TOKEN and
# what stop.sh needs to $GITHUB_ENV. Runs outside GitHub too: scripts/container/action-test.sh.
set -euo pipefail
: "${GITHUB_ENV:?GITHUB_ENV must name a file}"
docker="${PARLEY_DOCKER:-docker}"
mode="${INPUT_MODE:-image}"
port="${INPUT_PORT:-4010}"
artifacts="${INPUT_ARTIFACTS_DIR:-${RUNNER_TEMP:-/tmp}/parley}"
mkdir -p "$artifacts"
# The container's node user (uid 1000) writes the report here at stop.
chmod a+rwx "$artifacts"
control_token="${INPUT_CONTROL_TOKEN:-pct_$(node -e "process.stdout.write(require('node:crypto').randomBytes(18).toString('hex'))")}"
[ -n "${GITHUB_ACTIONS:-}" ] && echo "::add-mask::$control_token"

# The token of the first user: of INPUT_USERS, else of the users file, else the demo user's.
first_user() { tr ',' '\n' | sed -e 's/#.*//' | tr -s ' \t' '\n' | grep -m1 ':' || true; }
user="$(printf '%s' "${INPUT_USERS:-}" | first_user)"
if [ -z "$user" ] && [ -n "${INPUT_USERS_FILE:-}" ]; then user="$(first_user <"$INPUT_USERS_FILE")"; fi
token="${user#*:}"
token="${token:-parley-demo-token}"

# Options as variables (the image's and the CLI's names); files as paths the server can read.
vars=(PARLEY_CONTROL=1 "PARLEY_CONTROL_TOKEN=$control_token")
[ -n "${INPUT_USERS:-}" ] && vars+=("PARLEY_USERS=$INPUT_USERS")
[ -n "${INPUT_CHAOS:-}" ] && vars+=("PARLEY_CHAOS=$INPUT_CHAOS")
[ -n "${INPUT_PACE:-}" ] && vars+=("PARLEY_PACE=$INPUT_PACE")
[ -n "${INPUT_UPSTREAM:-}" ] && vars+=("PARLEY_UPSTREAM_URL=$INPUT_UPSTREAM")
[ -n "${INPUT_UPSTREAM_TOKEN:-}" ] && vars+=("PARLEY_UPSTREAM_TOKEN=$INPUT_UPSTREAM_TOKEN")
[ -n "${INPUT_ALLOWED_HOSTS:-}" ] && vars+=("PARLEY_ALLOWED_HOSTS=$INPUT_ALLOWED_HOSTS")
# The checking proxy's report (JUnit XML) is written at stop, next to the journal.
[ -n "${INPUT_UPSTREAM:-}" ] && report_name=parley-proxy-report.xml || report_name=
files=()
file_var() { # VARIABLE NAME PATH: the file as the server sees it
  [ -f "$3" ] || { echo "parley action: $1 file $3 does not exist" >&2; exit 2; }
  if [ "$mode" = image ]; then
    files+=(-v "$(realpath "$3"):/parley/inputs/$2:ro")
    vars+=("$1=/parley/inputs/$2")
  else vars+=("$1=$(realpath "$3")"); fi
}
[ -n "${INPUT_USERS_FILE:-}" ] && file_var PARLEY_USERS_FILE users "$INPUT_USERS_FILE"
[ -n "${INPUT_SCRIPT:-}" ] && file_var PARLEY_SCRIPT_FILE script.json "$INPUT_SCRIPT"
[ -n "${INPUT_CASSETTE:-}" ] && file_var PARLEY_REPLAY_FILE cassette.json "$INPUT_CASSETTE"
# shellcheck disable=SC2206 # extra flags are words, as on a command line
args=(${INPUT_ARGS:-})

if [ "$mode" = image ]; then
  image="${INPUT_IMAGE:?the image input is required with mode: image}"
  name="parley-${GITHUB_RUN_ID:-local}-$$"
  [ -n "$report_name" ] && vars+=("PARLEY_PROXY_REPORT=recordings/$report_name")
  env_args=()
  for v in "${vars[@]}"; do env_args+=(-e "$v"); done
  id="$("$docker" run -d --name "$name" -p "127.0.0.1:$port:4010" "${env_args[@]}" "${files[@]}" \
    -v "$artifacts:/parley/recordings" ${INPUT_NETWORK:+--network "$INPUT_NETWORK"} "$image" "${args[@]}")"
  server="container:$id"
else
  # The package's bin itself (not npx, whose shell passes no signal on), installed apart.
  prefix="${RUNNER_TEMP:-/tmp}/parley-server-$$"
  mkdir -p "$prefix"
  # shellcheck disable=SC2086 # INPUT_PACKAGE may list several specs (tarballs)
  npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error ${INPUT_PACKAGE:-@parley/reference-server} >&2
  [ -n "$report_name" ] && vars+=("PARLEY_PROXY_REPORT=$artifacts/$report_name")
  state="${RUNNER_TEMP:-/tmp}/parley-state-$$"
  mkdir -p "$state"
  # A wrapper that waits for the server and keeps its exit code for stop.sh; the server's own pid
  # (node, not a shell) gets the signal.
  LOG="$artifacts/parley-server.log" PIDFILE="$state/pid" CODEFILE="$state/code" env "${vars[@]}" \
    nohup sh -c 'node "$0" "$@" >"$LOG" 2>&1 & echo $! >"$PIDFILE"; wait $!; echo $? >"$CODEFILE"' \
    "$prefix/node_modules/@parley/reference-server/bin/parley-server.js" --host 127.0.0.1 --port "$port" \
    "${args[@]}" >/dev/null 2>&1 &
  for _ in $(seq 50); do [ -s "$state/pid" ] && break; sleep 0.1; done
  [ -s "$state/pid" ] || { echo "parley action: the server did not start" >&2; exit 1; }
  server="pid:$(cat "$state/pid"):$state"
fi

{
  echo "PARLEY_BASE_URL=http://127.0.0.1:$port"
  echo "PARLEY_TOKEN=$token"
  echo "PARLEY_CONTROL_TOKEN=$control_token"
  echo "PARLEY_SERVER=$server"
  echo "PARLEY_ARTIFACTS=$artifacts"
} >>"$GITHUB_ENV"
echo "parley action: server started ($server), http://127.0.0.1:$port"
