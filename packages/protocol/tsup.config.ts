import { defineConfig } from 'tsup';

export default defineConfig({
  entry: [
    'src/index.ts',
    'src/openapi.ts',
    'src/stream-body-scanner.ts',
    'src/error-codes.ts',
    'src/reply-folding.ts',
    'src/wire/index.ts',
  ],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
});
