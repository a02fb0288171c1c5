import { runCli } from '@parley/reference-server/node';
import { describe, expect, it } from 'vitest';

/** Runs the CLI with `argv`; what it printed, its URL, and a close. */
async function start(argv: string[]) {
  const out: string[] = [];
  const result = await runCli(['--port', '0', ...argv], {
    stdout: (t) => out.push(t),
    stderr: (t) => out.push(t),
  });
  if (result.running === undefined) throw new Error(`exit ${result.exitCode}: ${out.join('')}`);
  return { text: out.join(''), url: result.running.url, close: () => result.running.close() };
}

describe('the start lines say what runs and how to reach it', () => {
  it('by default: the URL and demo token, and one short line saying how to turn on the journal', async () => {
    const { text, url, close } = await start([]);
    try {
      expect(text).toBe(
        `Parley reference server listening on ${url} (demo user "demo", token: parley-demo-token)\n` +
          '  journal and control routes: off (start with --control to inspect requests)\n',
      );
    } finally {
      await close();
    }
  });

  it('with --control: the control routes, the journal page and the MCP providers each on a line of their own', async () => {
    const { text, url, close } = await start(['--control', '--control-token', 'start-lines-token-1']);
    try {
      expect(text).toBe(
        `Parley reference server listening on ${url} (demo user "demo", token: parley-demo-token)\n` +
          `  control routes: ${url}/_parley/ (header x-parley-control-token: start-lines-token-1)\n` +
          `  journal page:   ${url}/_parley/ui/#token=start-lines-token-1\n` +
          `  MCP providers:  ${url}/mcp/<name>\n`,
      );
      for (const line of text.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(110);
    } finally {
      await close();
    }
  });
});
