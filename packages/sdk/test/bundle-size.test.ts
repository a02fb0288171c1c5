import { describe, expect, it } from 'vitest';
import { BUNDLES, measureBundles } from '../bench/bundle-size.js';

describe('bundle size (Vite and esbuild, minified, gzip)', () => {
  it('a chat app downloads at most 20 KB first, with partial tool input 27 KB, and the tool helpers only when it runs a tool', async () => {
    const reports = await measureBundles();
    const byName = (name: string, bundler: 'vite' | 'esbuild') => {
      const found = reports.find((r) => r.name === name && r.bundler === bundler);
      if (!found) throw new Error(`no ${bundler} report for ${name}`);
      return found;
    };
    expect(BUNDLES.map((b) => [b.name, b.budgetOf, b.budgetBytes])).toEqual([
      ['chat app', 'initial', { vite: 20 * 1024, esbuild: 20 * 1024 }],
      ['partial-input app', 'initial', { vite: 27 * 1024, esbuild: 27 * 1024 }],
      ['tool worker', 'total', { vite: 42 * 1024, esbuild: 42 * 1024 }],
    ]);
    expect(reports).toHaveLength(6);
    for (const report of reports) {
      expect(report.gzipBytes, `${report.name} (${report.bundler})`).toBeLessThanOrEqual(report.budgetBytes);
      const parts = report.contributors.map((c) => c.what);
      expect(parts.length).toBeGreaterThan(5);
      // Of @parley/protocol the SDK carries only the dependency-free stream scanner, error-code
      // table and folding of a message's events (its build inlines them) and types; zod is the
      // worker's own (left out).
      expect(
        parts.filter((what) =>
          /zod|protocol\/(?!src\/(stream-body-scanner|error-codes|reply-folding)\.ts$)/.test(what),
        ),
      ).toEqual([]);
      expect(parts).toContain('protocol/src/stream-body-scanner.ts');
    }
    // With Vite, the tool helpers are a chunk loaded on the first tool call, not part of a chat
    // app's first download.
    const chat = byName('chat app', 'vite');
    const lazy = chat.contributors.filter((c) => c.lazy).map((c) => c.what);
    expect(lazy).toEqual(
      expect.arrayContaining(['sdk/src/tools/run/run-tool.ts', 'sdk/src/tools/run/heartbeat.ts', 'p-limit']),
    );
    // So is the recovery of the `recover` option: a chat app that streams carries only its wiring.
    expect(lazy).toEqual(
      expect.arrayContaining(['sdk/src/recovery/reply-recovery.ts', 'sdk/src/recovery/session-view.ts']),
    );
    expect(chat.initialGzipBytes).toBeLessThan(chat.totalGzipBytes);
    // The spans of requests and streams load with a client's first traced call, and no bundle holds
    // @opentelemetry/api: the SDK never imports it (an optional peer).
    expect(lazy).toEqual(
      expect.arrayContaining(['sdk/src/tracing/trace-request.ts', 'sdk/src/tracing/stream-span.ts']),
    );
    // Code where it is used: the SDK's own context manager and the empty context load with the
    // tracing code, the loop's checks with the loop's body; the typo warning's names are a
    // development aid a production build drops (no chunk holds them).
    const initial = chat.contributors.filter((c) => !c.lazy).map((c) => c.what);
    expect(initial).not.toContain('sdk/src/tracing/own-context-manager.ts');
    expect(initial).not.toContain('sdk/src/tracing/root-context.ts');
    expect(initial).not.toContain('sdk/src/tools/loop/tool-loop-start.ts');
    expect(initial).not.toContain('sdk/src/errors/tool-not-declared-error.ts');
    for (const report of reports) {
      const names = report.contributors.find((c) => c.what === 'sdk/src/internal/unknown-options.ts');
      expect(names?.bytes ?? 0, `${report.name} (${report.bundler})`).toBeLessThan(200);
    }
    for (const report of reports) {
      expect(report.contributors.filter((c) => c.what.startsWith('@opentelemetry/'))).toEqual([]);
    }
    // Only the app that imports `@parley/sdk/partial-input` carries the JSON parser.
    const parsers = reports.map((r) => [
      r.name,
      r.bundler,
      r.contributors.some((c) => c.what === '@streamparser/json'),
    ]);
    expect(parsers).toEqual([
      ['chat app', 'vite', false],
      ['chat app', 'esbuild', false],
      ['partial-input app', 'vite', true],
      ['partial-input app', 'esbuild', true],
      ['tool worker', 'vite', false],
      ['tool worker', 'esbuild', false],
    ]);
  });
});
