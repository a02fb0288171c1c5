import { defineConfig, type Options } from 'tsup';

const shared: Options = {
  entry: ['src/index.ts', 'src/worker.ts', 'src/worker-web.ts', 'src/partial-input.ts'],
  dts: true,
  sourcemap: true,
  target: 'es2022',
};

export default defineConfig([
  { ...shared, format: ['esm'], clean: false },
  // ky and p-limit ship ESM only: the CommonJS build carries their own copies so `require('@parley/sdk')` works.
  { ...shared, format: ['cjs'], noExternal: ['ky', 'p-limit', 'yocto-queue'] },
]);
