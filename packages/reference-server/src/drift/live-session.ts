import type { CassetteTurn, TurnInput } from '../cassette/cassette-format.js';
import { field, isRecord, isUsage } from '../cassette/json-fields.js';
import { streamParts } from '../cassette/stream-messages.js';
import type { LiveTurn } from './drift-compare.js';

/**
 * The drift run cannot go on: the deployment cannot be reached, timed out, or refused the token.
 * No report is made of a run that ended so.
 */
export class DriftUpstreamError extends Error {
  override name = 'DriftUpstreamError' as const;
}

/** One request of a session went wrong in a way that stops that session (not the run). */
export class LiveSessionError extends Error {
  override name = 'LiveSessionError' as const;
}

/** What the deployment answered to one send: its assistant messages and the client tools it waits for. */
export interface LiveReply {
  turns: LiveTurn[];
  pending: string[];
}

/** Codes of a proxy or deployment answer that end the whole run. */
const FATAL_CODES: ReadonlySet<string> = new Set(['upstream_unreachable', 'upstream_timeout']);

/** A session at the deployment, reached through the checking proxy's `fetch`. */
export class LiveSession {
  private constructor(
    private readonly fetch: (request: Request) => Promise<Response>,
    private readonly token: string,
    readonly id: string,
  ) {}

  /** Creates the session upstream with the recorded customizations. */
  static async create(
    fetch: (request: Request) => Promise<Response>,
    token: string,
    customizations: Record<string, unknown> | null,
  ): Promise<LiveSession> {
    const body = customizations === null ? undefined : { customizations };
    const created = await call(fetch, token, 'POST', '/v1/sessions', body);
    const id = field(parse(created.text, 'POST /v1/sessions'), 'sessionId');
    if (typeof id !== 'string') throw new LiveSessionError('POST /v1/sessions answered without a sessionId');
    return new LiveSession(fetch, token, id);
  }

  /** Sends the user's text (or `{}` to resume), streamed or buffered as the recording was. */
  async send(input: TurnInput | undefined, streamed: boolean): Promise<LiveReply> {
    const body = input !== undefined && 'user' in input ? { content: input.user } : {};
    const path = `/v1/messages/${encodeURIComponent(this.id)}${streamed ? '/stream' : ''}`;
    const answer = await call(this.fetch, this.token, 'POST', path, body, true);
    const value = parse(answer.text, `POST ${path}`);
    if (answer.status === 502 && field(field(value, 'error'), 'code') === 'model_error') {
      return {
        turns: [
          {
            content: [],
            error: { code: 'model_error', message: String(field(field(value, 'error'), 'message')) },
          },
        ],
        pending: [],
      };
    }
    return streamed ? streamedReply(value) : bufferedReply(value);
  }

  /** Settles the deployment's pending tool calls with the recorded responses, in order. */
  async respond(pending: readonly string[], turn: CassetteTurn): Promise<void> {
    const recorded = turn.toolResponses ?? fromResults(turn);
    for (const [i, requestId] of pending.entries()) {
      const ids = `${encodeURIComponent(this.id)}/${encodeURIComponent(requestId)}`;
      const response = recorded[i];
      if (response?.state === 'COMPLETE') {
        await call(this.fetch, this.token, 'POST', `/v1/tools/response/${ids}`, {
          response: response.response,
        });
      } else {
        // A recorded error, or a call the recording does not hold: the conversation goes on all the same.
        const error =
          response?.state === 'ERROR' ? response.error : 'The drift run has no recorded result for this call';
        await call(this.fetch, this.token, 'POST', `/v1/tools/request/${ids}/heartbeat`, {
          state: 'ERROR',
          error,
        });
      }
    }
  }

  /** Deletes the session upstream (best effort). */
  async delete(): Promise<void> {
    await call(this.fetch, this.token, 'DELETE', `/v1/sessions/${encodeURIComponent(this.id)}`).catch(
      () => undefined,
    );
  }
}

type RecordedResponse = NonNullable<CassetteTurn['toolResponses']>[number];

/** A turn recorded without `toolResponses`: its tool results as responses. */
function fromResults(turn: CassetteTurn): RecordedResponse[] {
  if (!('toolResults' in turn.input)) return [];
  return turn.input.toolResults.map((result): RecordedResponse => {
    if (result.is_error) {
      const error = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('') || 'Error';
      return { requestId: result.tool_use_id, state: 'ERROR', error };
    }
    const json = result.content.find((part) => part.type === 'json')?.json;
    return {
      requestId: result.tool_use_id,
      state: 'COMPLETE',
      response: { ...(isRecord(json) ? json : {}), state: 'COMPLETE' },
    };
  });
}

async function call(
  fetch: (request: Request) => Promise<Response>,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  modelErrorIsAnswer = false,
): Promise<{ status: number; text: string }> {
  const response = await fetch(
    new Request(`http://drift.parley${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  const text = await response.text();
  if (response.status >= 200 && response.status < 300) return { status: response.status, text };
  let error: unknown;
  try {
    error = field(JSON.parse(text), 'error');
  } catch {
    error = undefined;
  }
  const code = field(error, 'code');
  const message = field(error, 'message');
  const said = `${method} ${path} answered ${response.status}${typeof code === 'string' ? ` ${code}` : ''}: ${typeof message === 'string' ? message : text.slice(0, 200)}`;
  if (
    (typeof code === 'string' && FATAL_CODES.has(code)) ||
    response.status === 401 ||
    response.status === 403
  ) {
    throw new DriftUpstreamError(said);
  }
  if (modelErrorIsAnswer && response.status === 502 && code === 'model_error')
    return { status: response.status, text };
  throw new LiveSessionError(said);
}

function parse(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new LiveSessionError(`${what}: the answer is not JSON (${text.slice(0, 80)})`);
  }
}

function pendingOf(reply: unknown): string[] {
  const pending = field(reply, 'pendingTools');
  return (Array.isArray(pending) ? pending : [])
    .map((tool) => field(tool, 'requestId'))
    .filter((id): id is string => typeof id === 'string');
}

function bufferedReply(reply: unknown): LiveReply {
  const messages = field(reply, 'messages');
  const assistants = (Array.isArray(messages) ? messages : []).filter(
    (m) => field(m, 'role') === 'assistant' && Array.isArray(field(m, 'content')),
  );
  const stopReason = field(reply, 'stopReason');
  const usage = field(reply, 'usage');
  const turns = assistants.map((message, i): LiveTurn => {
    const last = i === assistants.length - 1;
    return {
      content: field(message, 'content') as LiveTurn['content'],
      stopReason: last && typeof stopReason === 'string' ? stopReason : 'tool_use',
      ...(last && isUsage(usage) ? { usage } : {}),
    };
  });
  return { turns, pending: pendingOf(reply) };
}

function streamedReply(body: unknown): LiveReply {
  const events = field(body, 'events');
  if (!Array.isArray(events)) throw new LiveSessionError('the streamed reply holds no events array');
  const recorded = events.filter(isRecord).map((event) => ({ atMs: 0, event }));
  const turns: LiveTurn[] = [];
  for (const part of streamParts(recorded)) {
    if (part.kind === 'exception') {
      const error = { code: String(part.code ?? part.eventKind), message: String(part.message) };
      // A message cut by the failure is that model call's answer, failed.
      const last = turns.at(-1);
      if (last !== undefined && last.stopReason === undefined && last.error === undefined) last.error = error;
      else turns.push({ content: [], error });
    } else if (part.role === 'assistant') {
      turns.push({
        content: part.content as LiveTurn['content'],
        ...(part.stopReason === undefined ? {} : { stopReason: part.stopReason }),
        ...(part.usage === undefined ? {} : { usage: part.usage }),
        events: part.events.map((e) => Object.keys(e.event)[0] ?? ''),
      });
    }
  }
  const stop = recorded.find((e) => 'replyStop' in e.event)?.event.replyStop;
  return { turns, pending: pendingOf(stop) };
}
