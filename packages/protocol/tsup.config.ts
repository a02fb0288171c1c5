import { defineConfig } from 'tsup';

// No source maps in the published files: dist/ is readable ES2022 (not minified), so a stack trace
// points at lines users can read, and a map would point at files the package does not ship (src/,
// the workspace's node_modules/.pnpm); the CommonJS maps of tsup's code splitting even name the
// build machine's absolute path. scripts/check-packed.mjs checks the tarballs ship none.
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
  sourcemap: false,
  target: 'es2022',
});
