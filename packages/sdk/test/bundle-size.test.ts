import { describe, expect, it } from 'vitest';
import { measureBundles } from '../bench/bundle-size.js';

describe('bundle size (esbuild, minified, gzip)', () => {
  it('a streamed chat app stays within 20 KB and a tool worker within 22 KB, without zod or the protocol runtime', async () => {
    const [chat, worker] = await measureBundles();
    expect(chat?.gzipBytes).toBeLessThanOrEqual(20 * 1024);
    expect(worker?.gzipBytes).toBeLessThanOrEqual(22 * 1024);
    for (const report of [chat, worker]) {
      const parts = report?.contributors.map((c) => c.what) ?? [];
      expect(parts.length).toBeGreaterThan(5);
      // The SDK imports only types from @parley/protocol; zod is the worker's own (left out).
      expect(parts.filter((what) => /zod|protocol\//.test(what))).toEqual([]);
    }
  });
});
