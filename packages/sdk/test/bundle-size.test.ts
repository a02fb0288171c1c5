import { describe, expect, it } from 'vitest';
import { BUNDLES, measureBundles } from '../bench/bundle-size.js';

describe('bundle size (esbuild, minified, gzip)', () => {
  it('a streamed chat app stays within 20 KB, with partial tool input within 26 KB, a tool worker within 22 KB', async () => {
    const reports = await measureBundles();
    const [chat, partial, worker] = reports;
    expect(reports.map((r) => [r.name, r.budgetBytes])).toEqual([
      ['chat app', 20 * 1024],
      ['partial-input app', 26 * 1024],
      ['tool worker', 22 * 1024],
    ]);
    expect(BUNDLES).toHaveLength(3);
    expect(chat?.gzipBytes).toBeLessThanOrEqual(20 * 1024);
    expect(partial?.gzipBytes).toBeLessThanOrEqual(26 * 1024);
    expect(worker?.gzipBytes).toBeLessThanOrEqual(22 * 1024);
    for (const report of reports) {
      const parts = report.contributors.map((c) => c.what);
      expect(parts.length).toBeGreaterThan(5);
      // The SDK imports only types from @parley/protocol; zod is the worker's own (left out).
      expect(parts.filter((what) => /zod|protocol\//.test(what))).toEqual([]);
    }
    // Only the app that imports `@parley/sdk/partial-input` carries the JSON parser.
    const parsers = reports.map((r) => r.contributors.some((c) => c.what === '@streamparser/json'));
    expect(parsers).toEqual([false, true, false]);
  });
});
