import { defineConfig, type Options } from 'tsup';

const entry = {
  index: 'src/index.ts',
  worker: 'src/worker.ts',
  'worker-web': 'src/worker-web.ts',
  'partial-input': 'src/partial-input.ts',
};
const shared: Options = { sourcemap: true, target: 'es2022' };

export default defineConfig([
  // ESM, one file per source file (as the OpenAI and Anthropic SDKs ship): an app's bundler sees the
  // SDK's own module graph, drops the modules it does not use, and splits the tool helpers (loaded
  // by `client.runToolLoop` / `client.tools.run` on first use) into their own chunk. A pre-bundled
  // file would merge them with code every app needs. Types are bundled per entry.
  {
    ...shared,
    entry: ['src/**/*.ts'],
    bundle: false,
    format: ['esm'],
    dts: { entry },
    clean: false,
  },
  // ky and p-limit ship ESM only: the CommonJS build carries their own copies so `require('@parley/sdk')` works.
  { ...shared, entry, format: ['cjs'], dts: true, noExternal: ['ky', 'p-limit', 'yocto-queue'] },
]);
