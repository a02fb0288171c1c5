// Node-only: loaded with a dynamic import by the gateway, so browser bundles of the server never pull
// in node:child_process.
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { StdioProviderConfig } from './provider-config.js';

export function createStdioTransport(config: StdioProviderConfig['stdio']): Transport {
  return new StdioClientTransport({
    command: config.command,
    ...(config.args === undefined ? {} : { args: config.args }),
    ...(config.env === undefined ? {} : { env: config.env }),
    ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    stderr: 'inherit',
  });
}
