import { REQUEST_ID_HEADER } from '@parley/protocol';
import type { MiddlewareHandler } from 'hono';
import { requestId } from 'hono/request-id';
import type { AppEnv } from './server-context.js';
import { setResponseHeader } from './text-response.js';

/** A new request id: `req_` and 32 hex digits. */
export function newRequestId(): string {
  return `req_${crypto.randomUUID().replaceAll('-', '')}`;
}

/**
 * Gives every request an id (`c.get('requestId')`): the one its wrapper chose (`hooks.requestId`,
 * so the testing toolkit's journal and the response agree) or a new one, and stamps it on the
 * response, errors and 404s included. An `x-request-id` sent by the client is not taken over.
 */
export function requestIdMiddleware(): MiddlewareHandler<AppEnv>[] {
  return [
    // No headerName: hono's middleware would otherwise adopt the client's header and set its own.
    requestId({
      headerName: '',
      generator: (c) => (c.env as AppEnv['Bindings']).requestId ?? newRequestId(),
    }),
    async (c, next) => {
      await next();
      // After next(): a response a handler or onError built itself has no headers from c.header().
      const stamped = setResponseHeader(c.res, REQUEST_ID_HEADER, c.get('requestId'));
      if (stamped !== c.res) c.res = stamped;
    },
  ];
}
