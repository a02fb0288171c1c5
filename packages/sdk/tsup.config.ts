import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';

export const entry = {
  index: 'src/index.ts',
  tools: 'src/tools.ts',
  worker: 'src/worker.ts',
  'partial-input': 'src/partial-input.ts',
};
// The two worker runtimes `#platform` chooses between (package.json `imports`, by export condition).
const platforms = {
  'tools/worker/platform-node': 'src/tools/worker/platform-node.ts',
  'tools/worker/platform-web': 'src/tools/worker/platform-web.ts',
};
// The modules that re-export a zod-free part of @parley/protocol (the stream scanner shared with the
// server's proxy, the error-code table, the folding of a stream's events shared with its cassettes): inlined, so that installing the SDK installs neither
// the protocol package nor zod. SDK files import these modules, never `@parley/protocol/...`: the
// ESM build below transpiles file by file, and esbuild leaves a bare import as it is when it does
// not bundle, so the published file would import a package users do not install.
const INLINED = {
  'streaming/stream-body-scanner': 'src/streaming/stream-body-scanner.ts',
  'wire/error-codes': 'src/wire/error-codes.ts',
  'streaming/reply-folding': 'src/streaming/reply-folding.ts',
};
// No source maps in the published files: dist/ is readable ES2022 (not minified), so a stack trace
// points at lines users can read, and a map would point at files the package does not ship (src/,
// the workspace's node_modules/.pnpm); the CommonJS maps of tsup's code splitting even name the
// build machine's absolute path. scripts/check-packed.mjs checks the tarballs ship none.
const shared: Options = { sourcemap: false, target: 'es2022' };
// Declarations marked `@internal` (the transport, the request spec, the recovery's target, the
// stream's start options) are left out of the published types: they are not part of the contract.
// The error-code table and the wire types are public: their declarations come from the protocol's
// source, so the published types name no `@parley/protocol`.
export const dts = {
  entry,
  compilerOptions: {
    stripInternal: true,
    paths: {
      '@parley/protocol/error-codes': [
        fileURLToPath(new URL('../protocol/src/error-codes.ts', import.meta.url)),
      ],
      '@parley/protocol/wire': [fileURLToPath(new URL('../protocol/src/wire/index.ts', import.meta.url))],
    },
  },
};

export default defineConfig([
  // ESM, one file per source file (as the OpenAI and Anthropic SDKs ship): an app's bundler sees the
  // SDK's own module graph, drops the modules it does not use, and splits off the tool helpers
  // (imported by `client.runToolLoop` / `client.tools.run` on first use). A pre-bundled file would
  // merge them with code every app needs. Types are bundled per entry.
  {
    ...shared,
    entry: ['src/**/*.ts', ...Object.values(INLINED).map((file) => `!${file}`)],
    bundle: false,
    format: ['esm'],
    dts,
    clean: false,
  },
  // Each of those one file, with the protocol's module inside it.
  {
    ...shared,
    entry: INLINED,
    format: ['esm'],
    noExternal: ['@parley/protocol'],
    clean: false,
  },
  // ky and p-limit ship ESM only: the CommonJS build carries their own copies so `require('@parley/sdk')` works.
  // `#platform` stays an import, resolved where the package runs.
  {
    ...shared,
    entry: { ...entry, ...platforms },
    format: ['cjs'],
    dts,
    external: ['#platform'],
    noExternal: ['ky', 'p-limit', 'yocto-queue', '@parley/protocol'],
  },
]);
