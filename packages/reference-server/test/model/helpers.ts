import type { ContentBlock, Customizations, JsonObject, Message, ToolResultContent } from '@parley/protocol';
import type { Model, ModelEvent, ModelRequest, ModelTool } from '@parley/reference-server';
import { ManualClock } from '@parley/reference-server';

let nextIndex = 0;
function message(role: Message['role'], content: ContentBlock[]): Message {
  return { role, index: nextIndex++, content, deletedAt: null, createdAt: 0 };
}

export const msg = {
  user: (text: string): Message => message('user', [{ type: 'text', text }]),
  system: (text: string): Message => message('system', [{ type: 'text', text }]),
  assistant: (text: string): Message => message('assistant', [{ type: 'text', text }]),
  toolUses: (...uses: Array<{ id: string; name: string; input?: JsonObject }>): Message =>
    message(
      'assistant',
      uses.map((use) => ({ type: 'tool_use', id: use.id, name: use.name, input: use.input ?? {} })),
    ),
  toolResults: (
    ...results: Array<{ id: string; content: ToolResultContent[]; isError?: boolean }>
  ): Message =>
    message(
      'user',
      results.map((result) => ({
        type: 'tool_result',
        tool_use_id: result.id,
        content: result.content,
        is_error: result.isError ?? false,
      })),
    ),
};

export interface FakeRequestOptions {
  clock?: ManualClock;
  signal?: AbortSignal;
  maxTokens?: number;
  turn?: number;
  tools?: ModelTool[];
  customizations?: Customizations;
}

/** A ModelRequest over `messages` (a string is one user text message). */
export function fakeRequest(messages: string | Message[], options: FakeRequestOptions = {}): ModelRequest {
  return {
    sessionId: 'sess_test',
    messages: typeof messages === 'string' ? [msg.user(messages)] : messages,
    system: undefined,
    tools: options.tools ?? [],
    customizations: options.customizations ?? {},
    agentId: 'default',
    modelId: undefined,
    parameters: options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens },
    turn: options.turn ?? 0,
    signal: options.signal ?? new AbortController().signal,
    clock: options.clock ?? new ManualClock(1_000_000),
  };
}

export async function collect(events: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const out: ModelEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** Runs a model on a request and returns every event. */
export function run(model: Model, request: ModelRequest): Promise<ModelEvent[]> {
  return collect(model(request));
}

/** Runs and returns the rejection (fails the test if the model does not fail). */
export async function runToError(
  model: Model,
  request: ModelRequest,
): Promise<{ error: Error & { code?: string }; events: ModelEvent[] }> {
  const events: ModelEvent[] = [];
  try {
    for await (const event of model(request)) events.push(event);
  } catch (error) {
    return { error: error as Error & { code?: string }, events };
  }
  throw new Error(`expected the model to fail, it produced ${events.length} events`);
}

/** The text deltas, in order. */
export function textDeltas(events: ModelEvent[]): string[] {
  const out: string[] = [];
  for (const event of events) {
    if ('contentBlockDelta' in event && 'text' in event.contentBlockDelta.delta) {
      out.push(event.contentBlockDelta.delta.text);
    }
  }
  return out;
}

export function joinedText(events: ModelEvent[]): string {
  return textDeltas(events).join('');
}

export interface StreamedToolUse {
  toolUseId: string;
  name: string;
  fragments: string[];
  input: unknown;
}

/** The tool uses, their input fragments joined and parsed at contentBlockStop. */
export function toolUses(events: ModelEvent[]): StreamedToolUse[] {
  const open = new Map<number, StreamedToolUse>();
  const done: StreamedToolUse[] = [];
  for (const event of events) {
    if ('contentBlockStart' in event) {
      const { contentBlockIndex, start } = event.contentBlockStart;
      open.set(contentBlockIndex, { ...start.toolUse, fragments: [], input: undefined });
    } else if ('contentBlockDelta' in event && 'toolUse' in event.contentBlockDelta.delta) {
      open
        .get(event.contentBlockDelta.contentBlockIndex)
        ?.fragments.push(event.contentBlockDelta.delta.toolUse.input);
    } else if ('contentBlockStop' in event) {
      const use = open.get(event.contentBlockStop.contentBlockIndex);
      if (use !== undefined) {
        const json = use.fragments.join('');
        use.input = JSON.parse(json === '' ? '{}' : json);
        done.push(use);
      }
    }
  }
  return done;
}

/** The event kinds in order, e.g. `['messageStart', 'contentBlockDelta', ...]`. */
export function kinds(events: ModelEvent[]): string[] {
  return events.map((event) => Object.keys(event)[0] ?? '?');
}

export function stopReason(events: ModelEvent[]): string | undefined {
  for (const event of events) if ('messageStop' in event) return event.messageStop.stopReason;
  return undefined;
}

export function usage(events: ModelEvent[]) {
  for (const event of events) if ('metadata' in event) return event.metadata;
  return undefined;
}
