import type * as z from 'zod';
import type { RewindRequestSchema, SendMessageRequestSchema } from '../send-message.js';
import type { CreateSessionRequestSchema } from '../session.js';
import type { HeartbeatRequestSchema, ToolResponseRequestSchema } from '../tool-call.js';

/** An OpenAPI Example Object: what a request body may be, with a line that says what it does. */
export interface RequestExample<T> {
  summary: string;
  value: T;
}

type Examples<S extends z.ZodType> = Record<string, RequestExample<z.input<S>>>;

/**
 * Request bodies a tool (a stateful API tester, a generated client's docs) can send as they are,
 * by request schema. The send examples use the reference server's stand-in model directives
 * (`/tool name {input}`), so that a walk through the links reaches the tool-call routes.
 */
export const REQUEST_EXAMPLES = {
  CreateSessionRequest: {
    minimal: { summary: 'A Minimal session: the default agent at message time', value: {} },
    sessionData: {
      summary: 'A Minimal session with data of your own, kept with the session',
      value: { customizations: { sessionData: { userName: 'Ada' } } },
    },
  } satisfies Examples<typeof CreateSessionRequestSchema>,
  SendMessageRequest: {
    text: { summary: 'A user turn', value: { content: 'What is the weather in Paris?' } },
    toolCall: {
      summary:
        'A user turn the reference server answers with a tool call (its stand-in model reads `/tool name {input}`)',
      value: { content: '/tool get_weather {"city":"Paris"}\n/then Sunny, 21 degrees in Paris.' },
    },
    resume: { summary: 'Resume once the tool calls of the last turn are settled', value: {} },
  } satisfies Examples<typeof SendMessageRequestSchema>,
  RewindRequest: {
    firstMessage: { summary: 'Rewind to the first user message', value: { index: 0 } },
  } satisfies Examples<typeof RewindRequestSchema>,
  HeartbeatRequest: {
    heartbeat: {
      summary: 'The call is still being worked on (the server records its own receive time)',
      value: { state: 'PROCESSING', heartbeat: 1_765_000_000_000 },
    },
    failure: {
      summary: 'The call failed: the model is told the error',
      value: { state: 'ERROR', error: 'The weather service did not answer' },
    },
  } satisfies Examples<typeof HeartbeatRequestSchema>,
  ToolResponseRequest: {
    result: {
      summary: 'The tool result; fields besides `state` reach the model',
      value: { response: { state: 'COMPLETE', temperature: 21, conditions: 'sunny' } },
    },
  } satisfies Examples<typeof ToolResponseRequestSchema>,
} as const;

/** A request schema that has examples. */
export type ExampleSchema = keyof typeof REQUEST_EXAMPLES;
