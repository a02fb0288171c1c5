import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { InProcessProviderConfig } from '@parley/reference-server';
import { z } from 'zod';

/** Handles on what a test provider's tools are doing. */
export interface TestProviderProbe {
  /** How many servers the gateway created (one per connection). */
  servers: number;
  /** Resolves when the `hang` tool has been entered. */
  hangEntered: Promise<void>;
  /** Set when the `hang` tool saw the cancellation from the client. */
  hangCancelled: boolean;
}

/**
 * An in-process MCP provider with tools that behave badly on purpose: `echo` answers, `boom` throws,
 * `hang` never answers (until the client cancels).
 */
export function testProvider(name = 'test'): { config: InProcessProviderConfig; probe: TestProviderProbe } {
  let entered!: () => void;
  const probe: TestProviderProbe = {
    servers: 0,
    hangEntered: new Promise<void>((resolve) => {
      entered = resolve;
    }),
    hangCancelled: false,
  };
  const config: InProcessProviderConfig = {
    name,
    server: () => {
      probe.servers += 1;
      const server = new McpServer({ name: 'test-provider', version: '1.0.0' });
      server.registerTool(
        'echo',
        { description: 'Echoes its input.', inputSchema: { message: z.string() } },
        async ({ message }) => ({ content: [{ type: 'text', text: message }] }),
      );
      server.registerTool('boom', { description: 'Always fails.', inputSchema: {} }, async () => {
        throw new Error('database on fire');
      });
      server.registerTool(
        'hang',
        { description: 'Never answers.', inputSchema: {} },
        (_args, extra) =>
          new Promise((_resolve, reject) => {
            entered();
            extra.signal.addEventListener('abort', () => {
              probe.hangCancelled = true;
              reject(new Error('cancelled'));
            });
          }),
      );
      server.registerTool(
        'dotted.name',
        { description: 'A name with a dot.', inputSchema: {} },
        async () => ({
          content: [{ type: 'text', text: 'ok' }],
        }),
      );
      return server;
    },
  };
  return { config, probe };
}
