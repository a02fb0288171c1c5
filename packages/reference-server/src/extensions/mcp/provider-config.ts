import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import * as z from 'zod';

/**
 * Provider names: letters and digits in words joined by single `-` or `_`, so the `__` that joins a
 * provider name and a tool name (`erp__get_customer`) is unambiguous.
 */
export const PROVIDER_NAME_PATTERN = /^[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*$/;

export { PROVIDER_TOOL_SEPARATOR } from '../../model/tool-names.js';

/** Per-call timeout of provider calls (connect, list tools, call a tool) unless configured. */
export const DEFAULT_PROVIDER_TIMEOUT_MS = 10_000;

interface ProviderBase {
  /** Name used in `extensions.mcpProviders` and as the tool-name prefix. */
  name: string;
  /** Overrides the gateway's per-call timeout for this provider. */
  timeoutMs?: number;
}

/** A provider run in this process: the gateway connects to a fresh server over an in-memory transport. */
export interface InProcessProviderConfig extends ProviderBase {
  server: () => McpServer | Promise<McpServer>;
  /** Puts the provider's state back as it started; a full `server.reset()` calls it. */
  reset?(): void;
}
/** A provider started as a child process speaking MCP over stdio (Node only). */
export interface StdioProviderConfig extends ProviderBase {
  stdio: { command: string; args?: string[]; env?: Record<string, string>; cwd?: string };
}
/** A provider reached over MCP streamable HTTP. */
export interface HttpProviderConfig extends ProviderBase {
  url: string;
  /** Extra request headers, e.g. `Authorization`. */
  headers?: Record<string, string>;
}
/** Any transport: the gateway connects a `Client` to what `transport()` returns. */
export interface TransportProviderConfig extends ProviderBase {
  transport: () => Transport | Promise<Transport>;
}

export type ProviderConfig =
  | InProcessProviderConfig
  | StdioProviderConfig
  | HttpProviderConfig
  | TransportProviderConfig;

const NameSchema = z
  .string()
  .regex(
    PROVIDER_NAME_PATTERN,
    'letters and digits, words joined by single "-" or "_" (e.g. "erp", "my-crm")',
  );
const TimeoutSchema = z.number().int().min(1).max(600_000).optional();

/** Providers as written in a config file: a stdio command or a streamable-HTTP URL. */
export const ProviderFileConfigSchema = z.union([
  z.strictObject({
    name: NameSchema,
    timeoutMs: TimeoutSchema,
    stdio: z.strictObject({
      command: z.string().min(1),
      args: z.array(z.string()).optional(),
      env: z.record(z.string(), z.string()).optional(),
      cwd: z.string().min(1).optional(),
    }),
  }),
  z.strictObject({
    name: NameSchema,
    timeoutMs: TimeoutSchema,
    url: z.url({ protocol: /^https?$/ }),
    headers: z.record(z.string(), z.string()).optional(),
  }),
]);
export type ProviderFileConfig = StdioProviderConfig | HttpProviderConfig;

export function isValidProviderName(name: string): boolean {
  return PROVIDER_NAME_PATTERN.test(name);
}
