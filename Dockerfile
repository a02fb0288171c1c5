# The Parley reference server as an image: docs/containers.md.
#
#   docker build -t parley-server .
#   docker run --rm -p 4010:4010 -e PARLEY_USERS=alice:secret-token parley-server
#
# Configured as the CLI is, by environment variables (PORT, PARLEY_USERS, PARLEY_USERS_FILE,
# PARLEY_SCRIPT_FILE, PARLEY_CONTROL, ...) and mounted files, or by flags after the image name:
# the entrypoint is `parley-server` itself, so `docker run parley-server --script /parley/s.json`.
#
# Stage `tarballs` builds and packs @parley/protocol and @parley/reference-server (`pnpm pack`, the
# tarballs npm would publish), or, with `--build-arg TARBALLS=packed`, takes the tarballs packed on
# the host (scripts/container/build-image.sh packs the built packages: CI does, so nothing is built
# twice). Stage `install` installs the tarballs with their production dependencies only; the final
# image holds that and the base image, and runs as the unprivileged `node` user.

FROM node:20-bookworm-slim AS tarballs
ARG TARBALLS=source
WORKDIR /repo
COPY . .
RUN mkdir /packed \
 && if [ "$TARBALLS" = packed ]; then \
      ls packed/parley-protocol-*.tgz packed/parley-reference-server-*.tgz >/dev/null \
        || { echo 'TARBALLS=packed: no tarballs in packed/ (run scripts/container/build-image.sh)' >&2; exit 1; }; \
      cp packed/parley-protocol-*.tgz packed/parley-reference-server-*.tgz /packed/; \
    else \
      npx --yes pnpm@10 install --frozen-lockfile --filter "@parley/reference-server..." --filter parley \
      && npx --yes pnpm@10 --filter "@parley/reference-server..." build \
      && (cd packages/protocol && npx --yes pnpm@10 pack --pack-destination /packed) \
      && (cd packages/reference-server && npx --yes pnpm@10 pack --pack-destination /packed); \
    fi

FROM node:20-bookworm-slim AS install
WORKDIR /opt/parley
COPY --from=tarballs /packed/ /tmp/packed/
# The server's tarball depends on the protocol's version: `overrides` points it at the tarball too.
RUN node -e " \
      const fs = require('node:fs'); \
      const [protocol] = fs.readdirSync('/tmp/packed').filter((f) => f.startsWith('parley-protocol-')); \
      const [server] = fs.readdirSync('/tmp/packed').filter((f) => f.startsWith('parley-reference-server-')); \
      const local = { '@parley/protocol': 'file:/tmp/packed/' + protocol, '@parley/reference-server': 'file:/tmp/packed/' + server }; \
      fs.writeFileSync('package.json', JSON.stringify({ name: 'parley-server-image', private: true, dependencies: local, overrides: local }, null, 2)); \
    " \
 && npm install --omit=dev --no-audit --no-fund --loglevel=error --cache /tmp/npm-cache \
 && rm -rf /tmp/npm-cache \
 # Source maps: 6 MB that Node does not read unless started with --enable-source-maps.
 && find node_modules -name "*.map" -delete

FROM node:20-bookworm-slim
LABEL org.opencontainers.image.title="parley-server" \
      org.opencontainers.image.description="The Parley reference server: an in-memory emulator of the Conversation Session Service" \
      org.opencontainers.image.licenses="MIT"
COPY --from=install /opt/parley/ /opt/parley/
# Relative paths in flags and variables resolve here: mount scripts, cassettes and users files under
# /parley. /parley/recordings is for what the server writes at stop (--record, --report): a named
# volume mounted there starts owned by the node user, so it works with --read-only too.
RUN mkdir -p /parley/recordings && chown -R node:node /parley
WORKDIR /parley
# Reachable from other containers by its service name: every interface, every Host name (the host
# check guards a server on a developer's loopback against DNS rebinding; narrow it with e.g.
# PARLEY_ALLOWED_HOSTS=parley). The HEALTHCHECK follows PORT.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4010 \
    PARLEY_ALLOWED_HOSTS=* \
    PATH=/opt/parley/node_modules/.bin:$PATH
EXPOSE 4010
USER node
# No curl in the slim image: Node's fetch. /readyz is 200 once the server can answer (a replay's
# cassette loaded, an upstream reached), 503 before.
HEALTHCHECK --interval=5s --timeout=30s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4010) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node is PID 1 and stops on SIGTERM itself (exit code 0 within a second): no --init needed.
ENTRYPOINT ["node", "/opt/parley/node_modules/@parley/reference-server/bin/parley-server.js"]
