#!/usr/bin/env node
// The package's `bin`: a committed file, so installing the package never links a missing file;
// the CLI itself is the built `dist/cli.js`.
const cli = new URL('../dist/cli.js', import.meta.url);
try {
  await import(cli.href);
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/cli.js')) {
    console.error(
      'parley-server: dist/cli.js is missing. In the Parley repository run `npx --yes pnpm@10 build` first, or `npx --yes pnpm@10 start` to run from source.',
    );
    process.exit(1);
  }
  throw error;
}
