import { SendMessageRequestSchema, type UserContentBlock } from '@parley/protocol';
import type { Context, Hono } from 'hono';
import { planSend } from '../../conversation/conversation-state.js';
import { type ReplyRequest, type ReplyResult, runReply } from '../../conversation/reply-runner.js';
import { sessionInfo } from '../../conversation/session-store.js';
import { HttpError, toHttpError } from '../../http-error.js';
import { LazyAbortController } from '../../utils/lazy-abort-controller.js';
import { watchClient } from '../connection.js';
import { exceptionEvent } from '../exception-event.js';
import { jsonReply } from '../json-reply.js';
import { leaseTokenOf } from '../lease-token.js';
import { parseWith } from '../parse-with.js';
import { readObjectBody } from '../route-body.js';
import { type AppEnv, type ServerContext, scopeOf } from '../server-context.js';
import { StreamWriter } from '../stream-writer.js';

/** Why a reply was aborted when the client went away. */
export class ClientDisconnectedError extends Error {
  override name = 'ClientDisconnectedError' as const;
  constructor() {
    super('The client disconnected during the reply');
  }
}

/** Send (buffered and streamed) and export. */
export function registerMessageRoutes(app: Hono<AppEnv>, ctx: ServerContext): void {
  app.post('/v1/messages/:sessionId', async (c) => {
    const { reply, release } = await startSend(c, ctx, false);
    try {
      const result = await runReply(replyConfig(c, ctx), reply);
      return jsonReply(c, replyBody(ctx, reply, result), 200);
    } catch (error) {
      throw reply.abort.aborted ? abortError(reply.abort.reason) : toHttpError(error);
    } finally {
      release();
    }
  });

  app.post('/v1/messages/:sessionId/stream', async (c) => {
    const { reply, release, abort } = await startSend(c, ctx, true);
    // The body is a stream from here on; a wrapper that paces events (the toolkit's faults) says how.
    c.env.onStreamed?.();
    const writer = new StreamWriter(reply.session.id, {
      onCancel: () => abort(new ClientDisconnectedError()),
      pacer: c.env.pacer,
      observer: c.env.streamObserver,
    });
    const run = async () => {
      try {
        const result = await runReply(replyConfig(c, ctx), {
          ...reply,
          emit: (event) => writer.event(event),
          ready: () => writer.ready(),
        });
        const { sessionId: _sessionId, ...replyStop } = replyBody(ctx, reply, result);
        writer.event({ replyStop });
      } catch (error) {
        writer.event(
          exceptionEvent(reply.abort.aborted ? abortError(reply.abort.reason) : toHttpError(error)),
        );
      } finally {
        release();
        writer.end();
      }
    };
    void run();
    return new Response(writer.stream, {
      status: 200,
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    });
  });

  app.get('/v1/messages/:sessionId', (c) => {
    const session = ctx.sessions.require(c.get('user'), c.req.param('sessionId'), c.env.scope?.id);
    // Given twice, no value of the two may silently win.
    const given = c.req.queries('includeDeleted') ?? [];
    if (given.length > 1) {
      const message = `given ${given.length} times (${given.map((v) => JSON.stringify(v)).join(', ')}); give it once`;
      throw new HttpError('invalid_request', `includeDeleted: ${message}`, {
        details: { issues: [{ path: 'includeDeleted', message }] },
      });
    }
    const [includeDeleted] = given;
    if (includeDeleted !== undefined && includeDeleted !== 'true' && includeDeleted !== 'false') {
      throw new HttpError('invalid_request', 'includeDeleted: must be "true" or "false"', {
        details: { issues: [{ path: 'includeDeleted', message: 'must be "true" or "false"' }] },
      });
    }
    const messages = includeDeleted === 'true' ? session.messages.all() : session.messages.live();
    return jsonReply(c, { sessionId: session.id, messages }, 200);
  });
}

function replyConfig(c: Context<AppEnv>, ctx: ServerContext) {
  return { model: scopeOf(c, ctx).model, clock: ctx.clock, setup: ctx.setup, host: ctx.host, pace: ctx.pace };
}

function replyBody(ctx: ServerContext, reply: Omit<ReplyRequest, 'emit'>, result: ReplyResult) {
  return {
    sessionId: reply.session.id,
    messages: result.messages,
    stopReason: result.stopReason,
    pendingTools: result.pendingTools,
    heartbeatTimeoutMs: ctx.heartbeatTimeoutMs,
    usage: result.usage,
  };
}

/**
 * Validates a send and marks the session busy, all before any byte of the response: auth already
 * passed; here the session (404), the body (400/413), the conversation rules (409) and the quota
 * (429). The busy flag is set with no await between the checks and the set.
 */
async function startSend(c: Context<AppEnv>, ctx: ServerContext, streamed: boolean) {
  const user = c.get('user');
  const scope = c.env.scope?.id;
  const sessionId = c.req.param('sessionId') ?? '';
  ctx.sessions.require(user, sessionId, scope);
  const leaseToken = leaseTokenOf(c);
  // Only an absent or empty body is a resume; `null` is a 400 like any non-object.
  const body = parseWith(
    SendMessageRequestSchema,
    (await readObjectBody(c, ctx.maxBodyBytes, { required: false })) ?? {},
  );
  const content: UserContentBlock[] | undefined =
    typeof body.content === 'string' ? [{ type: 'text', text: body.content }] : body.content;
  const session = ctx.sessions.require(user, sessionId, scope);
  const plan = planSend(session, content !== undefined);
  const controller = new LazyAbortController();
  session.reply = controller;
  session.replyInfo = { startedAt: ctx.clock.now(), streamed };
  const client = watchClient(c.req.raw, () => controller.abort(new ClientDisconnectedError()));
  const release = () => {
    client.stop();
    if (session.reply === controller) {
      session.reply = undefined;
      session.replyInfo = undefined;
    }
  };
  try {
    await ctx.host?.checkQuota?.(sessionInfo(session));
    if (controller.aborted) throw abortError(controller.reason);
    if (client.goneBefore) throw new ClientDisconnectedError();
  } catch (error) {
    release();
    throw error;
  }
  const reply: Omit<ReplyRequest, 'emit'> = { session, plan, content, abort: controller, leaseToken };
  return { reply, release, abort: (reason: unknown) => controller.abort(reason) };
}

/** The error a reply aborted with: the deletion's 404, a shutdown, or a disconnect. */
function abortError(reason: unknown): HttpError {
  if (reason instanceof HttpError) return reason;
  if (reason instanceof ClientDisconnectedError) {
    return new HttpError('internal_error', 'The reply was interrupted: the client disconnected', {
      cause: reason,
    });
  }
  return new HttpError('internal_error', 'The reply was interrupted', { cause: reason });
}
