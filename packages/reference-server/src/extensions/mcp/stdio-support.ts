// Node's side of `#stdio-support` (package.json `imports`): this runtime starts stdio providers. A
// browser bundle resolves `#stdio-support` to stdio-support-browser.ts instead, so it never reaches
// the MCP SDK's stdio client and its Node built-ins.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { StdioProviderConfig } from './provider-config.js';

/** Why this runtime cannot start stdio providers; `undefined` where it can (Node, Deno, Bun). */
export const STDIO_UNAVAILABLE_REASON: string | undefined = undefined;

/** A transport that starts the provider's command as a child process (loaded on first use). */
export async function createStdioTransport(config: StdioProviderConfig['stdio']): Promise<Transport> {
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  return new StdioClientTransport({
    command: config.command,
    ...(config.args === undefined ? {} : { args: config.args }),
    ...(config.env === undefined ? {} : { env: config.env }),
    ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    stderr: 'inherit',
  });
}
