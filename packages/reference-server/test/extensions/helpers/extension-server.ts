import type { MessageReply } from '@parley/protocol';
import {
  createExtensionHost,
  type ExtensionHostOptions,
  ManualClock,
  type ParleyExtensionHost,
  type ReferenceServer,
} from '@parley/reference-server';
import { type Call, harness } from '../../helpers/api.js';

export interface ExtensionServer {
  server: ReferenceServer;
  host: ParleyExtensionHost;
  clock: ManualClock;
  call: Call;
  createSession(customizations?: unknown): Promise<string>;
  send(sessionId: string, content?: unknown): Promise<MessageReply>;
  close(): Promise<void>;
}

/**
 * A reference server wired to an extension host: the server takes the host's catalogue and
 * providers, and the stand-in model knows the `/search` and `/mcp` directives.
 */
export function extensionServer(options: ExtensionHostOptions = {}): ExtensionServer {
  const clock = new ManualClock(Date.UTC(2025, 3, 1));
  const host = createExtensionHost({ clock, ...options });
  return { ...harness({ clock, extensionHost: host }), host, close: () => host.close() };
}
