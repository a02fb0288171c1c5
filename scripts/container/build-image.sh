#!/usr/bin/env bash
# Builds the parley-server image from the repository: packs @parley/protocol and
# @parley/reference-server (building them first when their dist/ is missing) and builds the
# Dockerfile with those tarballs (`--build-arg TARBALLS=packed`). `docker build .` alone builds the
# packages inside the image build instead; this is the same image without building twice.
#   scripts/container/build-image.sh [TAG]      (default: $PARLEY_IMAGE or localhost/parley:dev)
# Uses podman when it is there (with --format docker, which keeps the HEALTHCHECK), else docker.
set -euo pipefail
cd "$(dirname "$0")/../.."
tag="${1:-${PARLEY_IMAGE:-localhost/parley:dev}}"
if command -v podman >/dev/null; then build=(podman build --format docker)
elif command -v docker >/dev/null; then build=(docker build)
else echo "build-image: neither podman nor docker is installed (see docs/containers.md)" >&2; exit 1; fi

if [ ! -d packages/protocol/dist ] || [ ! -d packages/reference-server/dist ]; then
  npx --yes pnpm@10 --filter "@parley/reference-server..." build
fi
rm -f packed/parley-protocol-*.tgz packed/parley-reference-server-*.tgz
node scripts/pack-workspace.mjs packed @parley/protocol @parley/reference-server >/dev/null
"${build[@]}" --quiet --build-arg TARBALLS=packed -t "$tag" . >/dev/null
echo "built $tag"
