import { defineConfig, type Options } from 'tsup';

const shared: Options = {
  entry: ['src/index.ts', 'src/worker.ts', 'src/worker-web.ts'],
  dts: true,
  sourcemap: true,
  target: 'es2022',
};

export default defineConfig([
  { ...shared, format: ['esm'], clean: false },
  // ky ships ESM only: the CommonJS build carries its own copy so `require('@parley/sdk')` works.
  { ...shared, format: ['cjs'], noExternal: ['ky'] },
]);
