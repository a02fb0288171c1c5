import type { Customizations, Message, ToolResultBlock } from '@parley/protocol';
import { ModelError, type ModelRequest } from '../model/model.js';
import type { CassetteTurn, ToolResponse } from './cassette-format.js';
import { field, isRecord, isUsage } from './json-fields.js';
import { liveInput } from './replay-mismatch.js';

/** What the upstream answerer calls the deployment with. */
export interface UpstreamAnswererDeps {
  /** The checking proxy's fetch: the answers are checked against the protocol on the way. */
  fetch: (request: Request) => Promise<Response>;
  /** The bearer token sent (the proxy swaps a local user's for `upstream.token` when given). */
  token: string;
}

interface UpstreamSession {
  readonly id: string;
  /** The live conversation's user messages sent (or answered) upstream so far. */
  handled: number;
  /** Assistant messages of the last upstream reply not yet given to a live call, as turns. */
  queue: Array<Omit<CassetteTurn, 'input'>>;
  /** Client tool calls the last upstream reply stopped for, in order. */
  pending: string[];
  /** The answer to the last handled message, for a call that asks again (after an abort). */
  last: CassetteTurn | undefined;
}

/**
 * Answers a model call from the deployment: the live session gets a session upstream (created
 * with the same customizations), which is brought to the live conversation by sending it the
 * user's messages and the client's tool results it has not had yet, and the call is answered with
 * the next assistant message the upstream's reply holds. A session that joins late (a turn past
 * the recorded ones) makes the upstream answer the earlier messages again; a live session that was
 * rewound starts over upstream. Each answer comes back as a cassette turn, ready to be recorded.
 */
export function createUpstreamAnswerer(
  deps: UpstreamAnswererDeps,
): (request: ModelRequest) => Promise<CassetteTurn> {
  const sessions = new Map<string, UpstreamSession>();

  const call = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await deps.fetch(
      new Request(`http://upstream.parley${path}`, {
        method,
        headers: { authorization: `Bearer ${deps.token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    const text = await response.text();
    let value: unknown;
    try {
      value = text === '' ? undefined : JSON.parse(text);
    } catch {
      value = text;
    }
    if (response.status >= 200 && response.status < 300) return value;
    const error = field(value, 'error');
    const code = field(error, 'code');
    const message = field(error, 'message');
    // The model failed upstream: that is an answer, recorded as a failed turn.
    if (code === 'model_error') return { modelError: typeof message === 'string' ? message : text };
    throw new ModelError(
      `The upstream answered ${method} ${path} with ${response.status}${typeof code === 'string' ? ` ${code}` : ''}: ${typeof message === 'string' ? message : text.slice(0, 200)}`,
    );
  };

  const take = (session: UpstreamSession, reply: unknown) => {
    session.queue = [];
    session.pending = [];
    const failed = field(reply, 'modelError');
    if (typeof failed === 'string') {
      session.queue.push({ content: [], error: { code: 'model_error', message: failed } });
      return;
    }
    const messages = field(reply, 'messages');
    const assistants = (Array.isArray(messages) ? messages : []).filter(
      (m): m is Message => field(m, 'role') === 'assistant' && Array.isArray(field(m, 'content')),
    );
    const stopReason = field(reply, 'stopReason');
    const usage = field(reply, 'usage');
    assistants.forEach((message, i) => {
      const last = i === assistants.length - 1;
      session.queue.push({
        content: message.content as CassetteTurn['content'],
        stopReason: last && typeof stopReason === 'string' ? stopReason : 'tool_use',
        ...(last && isUsage(usage) ? { usage } : {}),
      });
    });
    const pending = field(reply, 'pendingTools');
    for (const tool of Array.isArray(pending) ? pending : []) {
      const id = field(tool, 'requestId');
      if (typeof id === 'string') session.pending.push(id);
    }
  };

  /** Hands one live user message to the upstream session; its model call's answer. */
  const step = async (session: UpstreamSession, message: Message): Promise<CassetteTurn> => {
    const results = message.content.filter((b): b is ToolResultBlock => b.type === 'tool_result');
    const base = `/v1/messages/${encodeURIComponent(session.id)}`;
    let toolResponses: ToolResponse[] = [];
    if (results.length === 0) {
      const content = message.content.filter((b) => b.type === 'text');
      take(session, await call('POST', base, { content }));
    } else if (session.pending.length > 0) {
      // The client's tool results: given to the upstream's pending calls, in order when ids differ.
      toolResponses = await respond(session, results);
      take(session, await call('POST', base, {}));
    }
    // Else a server tool's result: the upstream ran the tool itself; its next message answers.
    const next = session.queue.shift();
    if (next === undefined) {
      throw new ModelError(
        `The upstream's reply in session ${session.id} holds no further assistant message for this call`,
      );
    }
    const input = liveInput([message]);
    if (input === undefined) throw new ModelError('The live conversation has no user message to answer');
    return { input, ...(toolResponses.length > 0 ? { toolResponses } : {}), ...next };
  };

  const respond = async (session: UpstreamSession, results: ToolResultBlock[]): Promise<ToolResponse[]> => {
    const sent: ToolResponse[] = [];
    for (const [i, result] of results.entries()) {
      const requestId = session.pending.includes(result.tool_use_id)
        ? result.tool_use_id
        : session.pending[i];
      if (requestId === undefined) continue;
      const ids = `${encodeURIComponent(session.id)}/${encodeURIComponent(requestId)}`;
      if (result.is_error) {
        const error =
          result.content.map((part) => (part.type === 'text' ? part.text : '')).join('') || 'Error';
        await call('POST', `/v1/tools/request/${ids}/heartbeat`, { state: 'ERROR', error });
        sent.push({ requestId, state: 'ERROR', error });
      } else {
        const json = result.content.find((part) => part.type === 'json')?.json;
        const response = { ...(isRecord(json) ? json : {}), state: 'COMPLETE' };
        await call('POST', `/v1/tools/response/${ids}`, { response });
        sent.push({ requestId, state: 'COMPLETE', response });
      }
    }
    return sent;
  };

  const create = async (customizations: Customizations): Promise<UpstreamSession> => {
    const body = Object.keys(customizations).length === 0 ? undefined : { customizations };
    const id = field(await call('POST', '/v1/sessions', body), 'sessionId');
    if (typeof id !== 'string') throw new ModelError('The upstream created a session without a sessionId');
    return { id, handled: 0, queue: [], pending: [], last: undefined };
  };

  return async (request) => {
    const users = request.messages.filter((m) => m.role === 'user');
    let session = sessions.get(request.sessionId);
    // Rewound since (fewer user messages than were sent): start over upstream.
    if (session !== undefined && session.handled > users.length) session = undefined;
    if (session === undefined) {
      session = await create(request.customizations);
      sessions.set(request.sessionId, session);
    }
    if (session.handled === users.length && session.last !== undefined) return session.last;
    let answer: CassetteTurn | undefined;
    for (let i = session.handled; i < users.length; i++) {
      answer = await step(session, users[i] as Message);
      session.handled = i + 1;
    }
    if (answer === undefined) throw new ModelError('The live conversation has no user message to answer');
    session.last = answer;
    return answer;
  };
}
