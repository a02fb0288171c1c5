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
// The stream scanner shared with the server's proxy, from @parley/protocol: inlined, so that
// installing the SDK installs neither the protocol package nor zod.
const SCANNER = 'src/streaming/stream-body-scanner.ts';
const shared: Options = { sourcemap: true, target: 'es2022' };
// Declarations marked `@internal` (the transport, the request spec, the recovery's target, the
// stream's start options) are left out of the published types: they are not part of the contract.
export const dts = { entry, compilerOptions: { stripInternal: true } };

export default defineConfig([
  // ESM, one file per source file (as the OpenAI and Anthropic SDKs ship): an app's bundler sees the
  // SDK's own module graph, drops the modules it does not use, and splits the tool helpers (loaded
  // by `client.runToolLoop` / `client.tools.run` on first use) into their own chunk. A pre-bundled
  // file would merge them with code every app needs. Types are bundled per entry.
  {
    ...shared,
    entry: ['src/**/*.ts', `!${SCANNER}`],
    bundle: false,
    format: ['esm'],
    dts,
    clean: false,
  },
  // The scanner's one file, with the protocol's module inside it.
  {
    ...shared,
    entry: { 'streaming/stream-body-scanner': SCANNER },
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
