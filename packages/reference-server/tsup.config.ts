import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: ['src/index.ts', 'src/msw.ts', 'src/node.ts', 'src/vitest.ts'],
    format: ['esm', 'cjs'],
    // Shared chunks in both formats: one copy of every class whichever entries are loaded.
    splitting: true,
    dts: true,
    clean: false,
    sourcemap: true,
    target: 'es2022',
  },
  {
    // The CLI: ESM only (top-level await); tsup keeps the shebang and makes the file executable.
    entry: ['src/cli.ts'],
    format: ['esm'],
    sourcemap: true,
    target: 'es2022',
  },
]);
