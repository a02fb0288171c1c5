import type { JsonObject } from '@parley/protocol';
import { STDIO_UNAVAILABLE_REASON } from '#stdio-support';
import type { ServerTool, ServerToolResult } from '../../conversation/server-tool.js';
import type { Clock } from '../../time/clock.js';
import { systemClock } from '../../time/system-clock.js';
import { abortable } from '../../utils/abortable.js';
import { errorResult, toServerToolResult } from './call-result.js';
import type { ProviderConnection } from './connect-provider.js';
import {
  DEFAULT_PROVIDER_TIMEOUT_MS,
  isValidProviderName,
  PROVIDER_TOOL_SEPARATOR,
  type ProviderConfig,
} from './provider-config.js';
import { SDK_TIMEOUT_MS } from './sdk-timeout.js';
import { isProviderTimeoutError, withTimeout } from './with-timeout.js';

/** A tool of a provider, as listed by the provider and as the model sees it. */
export interface ProviderTool {
  provider: string;
  /** The tool's name at the provider. */
  toolName: string;
  /** `provider__tool`, the name the model sees. */
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface GatewayOptions {
  providers?: readonly ProviderConfig[];
  /** Time source of the per-call timeout; the system clock by default. */
  clock?: Clock;
  /** Per-call timeout (connect, list tools, call a tool), default 10 000 ms; a provider may override it. */
  timeoutMs?: number;
}

const VALID_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

interface Connected {
  connection: ProviderConnection;
  tools: ProviderTool[];
}

/**
 * The platform's tool gateway: loads tool definitions from registered MCP providers and calls them.
 * Connections open on first use and are reused; a connection that closes is reopened on the next use.
 * {@link call} never throws: a provider error, a timeout or invalid input is an error result.
 *
 * @example
 * const gateway = new Gateway({ providers: [erpProvider()] });
 * const tools = await gateway.serverTools(['erp']);
 * await gateway.close();
 */
export class Gateway {
  readonly #providers = new Map<string, ProviderConfig>();
  readonly #connections = new Map<string, Promise<Connected>>();
  readonly #clock: Clock;
  readonly #timeoutMs: number;
  #closed = false;

  constructor(options: GatewayOptions = {}) {
    this.#clock = options.clock ?? systemClock;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
    for (const provider of options.providers ?? []) this.register(provider);
  }

  /**
   * Registers a provider; its name must be new and match `PROVIDER_NAME_PATTERN`. A stdio provider
   * throws where no child process can be started (a browser).
   */
  register(provider: ProviderConfig): void {
    if (!isValidProviderName(provider.name)) {
      throw new Error(
        `Invalid provider name "${provider.name}": use letters and digits joined by single - or _`,
      );
    }
    if (this.#providers.has(provider.name))
      throw new Error(`Provider "${provider.name}" is registered twice`);
    if ('stdio' in provider && STDIO_UNAVAILABLE_REASON !== undefined)
      throw new Error(`Provider "${provider.name}": ${STDIO_UNAVAILABLE_REASON}`);
    this.#providers.set(provider.name, provider);
  }

  has(name: string): boolean {
    return this.#providers.has(name);
  }

  /** The configuration a provider was registered with. */
  provider(name: string): ProviderConfig | undefined {
    return this.#providers.get(name);
  }

  /** Registered provider names, in registration order. */
  get names(): string[] {
    return [...this.#providers.keys()];
  }

  /** The provider's tools (connecting on first use). Throws when the provider cannot be reached. */
  async tools(provider: string): Promise<ProviderTool[]> {
    return (await this.#connect(provider)).tools;
  }

  /**
   * Server tools for the named providers. A provider that cannot be reached right now contributes no
   * tools (it is retried at the next call) rather than failing the reply.
   */
  async serverTools(providers: readonly string[]): Promise<ServerTool[]> {
    const lists = await Promise.all(
      [...new Set(providers)].map((name) => this.tools(name).catch(() => [] as ProviderTool[])),
    );
    return lists.flat().map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      call: (input, context) => this.call(tool.provider, tool.toolName, input, { signal: context.signal }),
    }));
  }

  /** Calls a provider tool. Never throws: failures come back as `isError: true` results. */
  async call(
    provider: string,
    toolName: string,
    input: JsonObject,
    options: { signal?: AbortSignal } = {},
  ): Promise<ServerToolResult> {
    const config = this.#providers.get(provider);
    if (config === undefined) return errorResult(`Unknown provider "${provider}"`);
    const timeoutMs = config.timeoutMs ?? this.#timeoutMs;
    const what = `Provider "${provider}" (tool ${toolName})`;
    try {
      return await withTimeout(this.#clock, timeoutMs, what, options.signal, async (signal) => {
        const { connection } = await this.#connect(provider, signal);
        const result = await connection.client.callTool({ name: toolName, arguments: input }, undefined, {
          signal,
          timeout: SDK_TIMEOUT_MS,
        });
        return toServerToolResult(result);
      });
    } catch (error) {
      if (isProviderTimeoutError(error)) return errorResult(error.message);
      if (options.signal?.aborted) return errorResult(`${what} was cancelled: the reply was interrupted`);
      return errorResult(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * Puts back the state of the providers that can (in-process providers with `reset`, as the
   * built-in `erp`); connections stay open. A full `server.reset()` calls it.
   */
  reset(): void {
    for (const provider of this.#providers.values()) if ('reset' in provider) provider.reset?.();
  }

  /** Closes every open provider connection (and in-process provider servers). */
  async close(): Promise<void> {
    this.#closed = true;
    const open = [...this.#connections.values()];
    this.#connections.clear();
    await Promise.all(open.map((p) => p.then((c) => c.connection.close()).catch(() => undefined)));
  }

  #connect(provider: string, signal?: AbortSignal): Promise<Connected> {
    const existing = this.#connections.get(provider);
    if (existing !== undefined) return existing;
    const config = this.#providers.get(provider);
    if (config === undefined) return Promise.reject(new Error(`Unknown provider "${provider}"`));
    if (this.#closed) return Promise.reject(new Error('The gateway is closed'));
    const timeoutMs = config.timeoutMs ?? this.#timeoutMs;
    // The connection is shared, so one caller's abort must not cancel it: only the timeout bounds it.
    const connecting = withTimeout(
      this.#clock,
      timeoutMs,
      `Provider "${provider}"`,
      undefined,
      async (bound) => {
        // The MCP SDK loads with the first provider a session uses, not with the server.
        const { connectProvider } = await import('./connect-provider.js');
        const connection = await connectProvider(config, {
          signal: bound,
          onClose: () => {
            if (this.#connections.get(provider) === connecting) this.#connections.delete(provider);
          },
        });
        try {
          const tools = await listAllTools(provider, connection, bound);
          return { connection, tools };
        } catch (error) {
          await connection.close();
          throw error;
        }
      },
    );
    this.#connections.set(provider, connecting);
    connecting.catch(() => {
      if (this.#connections.get(provider) === connecting) this.#connections.delete(provider);
    });
    if (signal === undefined) return connecting;
    return abortable(connecting, signal);
  }
}

async function listAllTools(
  provider: string,
  connection: ProviderConnection,
  signal: AbortSignal,
): Promise<ProviderTool[]> {
  const tools: ProviderTool[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await connection.client.listTools(cursor === undefined ? {} : { cursor }, {
      signal,
      timeout: SDK_TIMEOUT_MS,
    });
    for (const tool of page.tools) {
      // Model APIs accept [a-zA-Z0-9_-]{1,64}: other characters become "_", longer names are left out.
      const name = `${provider}${PROVIDER_TOOL_SEPARATOR}${tool.name.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
      if (!VALID_TOOL_NAME.test(name) || seen.has(name)) continue;
      seen.add(name);
      tools.push({
        provider,
        toolName: tool.name,
        name,
        description: `[${provider}] ${tool.description ?? tool.title ?? tool.name}`,
        inputSchema: tool.inputSchema as Record<string, unknown>,
      });
    }
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}
