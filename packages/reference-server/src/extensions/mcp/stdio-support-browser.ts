// The browser's side of `#stdio-support` (package.json `imports`, condition `browser`): a page has no
// child processes, so stdio providers are refused with a clear error instead of failing the bundle.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { StdioProviderConfig } from './provider-config.js';

/** Why this runtime cannot start stdio providers. */
export const STDIO_UNAVAILABLE_REASON: string | undefined =
  'stdio providers start a child process, which a browser cannot: ' +
  'use an HTTP provider ({ name, url }) or an in-process one ({ name, server }) here';

/** Always throws: see {@link STDIO_UNAVAILABLE_REASON}. */
export async function createStdioTransport(config: StdioProviderConfig['stdio']): Promise<Transport> {
  throw new Error(`Cannot run "${config.command}": ${STDIO_UNAVAILABLE_REASON}`);
}
