import type { MessageReply } from '@parley/protocol';
import {
  createReferenceServer,
  createStandInModel,
  ManualClock,
  type ReferenceServer,
} from '@parley/reference-server';
import { expect } from 'vitest';
import {
  createExtensionHost,
  EXTENSION_DIRECTIVES,
  type ExtensionHostOptions,
  type ParleyExtensionHost,
} from '../../../src/extensions/index.js';
import { type Call, caller } from '../../helpers/api.js';

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
 * A reference server wired to an extension host the way the package wires it: the host's catalogue
 * and providers, and the stand-in model with the `/search` and `/mcp` directives.
 */
export function extensionServer(options: ExtensionHostOptions = {}): ExtensionServer {
  const clock = new ManualClock(Date.UTC(2025, 3, 1));
  const host = createExtensionHost({ clock, ...options });
  const server = createReferenceServer({
    clock,
    extensionHost: host,
    agents: host.catalogue.agents,
    models: Object.keys(host.catalogue.models),
    providers: host.gateway.names,
    model: createStandInModel({ directives: EXTENSION_DIRECTIVES }),
  });
  const call = caller(server.fetch);
  return {
    server,
    host,
    clock,
    call,
    async createSession(customizations) {
      const res = await call(
        'POST',
        '/v1/sessions',
        customizations === undefined ? undefined : { customizations },
      );
      expect(res.status, res.text).toBe(201);
      return res.body.sessionId as string;
    },
    async send(sessionId, content) {
      const res = await call<MessageReply>(
        'POST',
        `/v1/messages/${sessionId}`,
        content === undefined ? {} : { content },
      );
      expect(res.status, res.text).toBe(200);
      return res.body;
    },
    close: () => host.close(),
  };
}
