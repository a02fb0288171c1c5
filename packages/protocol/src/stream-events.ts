import * as z from 'zod';
import { RoleSchema } from './message.js';
import { MessageReplySchema, StopReasonSchema } from './send-message.js';

/**
 * Events of `POST /v1/messages/:sessionId/stream`, in Amazon Bedrock ConverseStream shapes: each event
 * is an object with exactly one key naming its kind. Parley adds `index` to `messageStart`, tool
 * results as `toolResult` blocks, and a final `replyStop`. Kinds not listed here may appear and
 * must be passed through by consumers.
 */
export const MessageStartSchema = z.looseObject({
  role: RoleSchema,
  /** Parley: the index the message gets in the conversation. */
  index: z.number().int().nonnegative(),
});

export const ContentBlockStartSchema = z.looseObject({
  contentBlockIndex: z.number().int().nonnegative(),
  start: z.union([
    z.looseObject({ toolUse: z.looseObject({ toolUseId: z.string(), name: z.string() }) }),
    z.looseObject({
      toolResult: z.looseObject({ toolUseId: z.string(), status: z.enum(['success', 'error']) }),
    }),
    z.looseObject({}),
  ]),
});

export const ContentBlockDeltaSchema = z.looseObject({
  contentBlockIndex: z.number().int().nonnegative(),
  delta: z.union([
    z.looseObject({ text: z.string() }),
    /** A fragment of the tool input's JSON text: join the fragments, parse at contentBlockStop. */
    z.looseObject({ toolUse: z.looseObject({ input: z.string() }) }),
    z.looseObject({
      toolResult: z.array(
        z.union([z.looseObject({ text: z.string() }), z.looseObject({ json: z.unknown() })]),
      ),
    }),
    z.looseObject({}),
  ]),
});

export const ContentBlockStopSchema = z.looseObject({ contentBlockIndex: z.number().int().nonnegative() });

/** `stopReason` is present on assistant messages only. */
export const MessageStopSchema = z.looseObject({
  stopReason: StopReasonSchema.optional(),
  additionalModelResponseFields: z.unknown().optional(),
});

export const MetadataSchema = z.looseObject({
  usage: z.looseObject({ inputTokens: z.number(), outputTokens: z.number(), totalTokens: z.number() }),
  metrics: z.looseObject({ latencyMs: z.number() }).optional(),
});

export const ExceptionSchema = z.looseObject({
  message: z.string(),
  /** Parley: the error code from the error table (e.g. `model_error`). */
  code: z.string().optional(),
  originalStatusCode: z.number().optional(),
  originalMessage: z.string().optional(),
});

/** Parley: the last event of a completed reply. Carries everything the buffered reply carries. */
export const ReplyStopSchema = MessageReplySchema.omit({ sessionId: true });

export const EXCEPTION_EVENT_KINDS = [
  'internalServerException',
  'modelStreamErrorException',
  'validationException',
  'throttlingException',
  'serviceUnavailableException',
] as const;
export type ExceptionEventKind = (typeof EXCEPTION_EVENT_KINDS)[number];

/** Schema of each known event kind's payload. */
export const STREAM_EVENT_SCHEMAS = {
  messageStart: MessageStartSchema,
  contentBlockStart: ContentBlockStartSchema,
  contentBlockDelta: ContentBlockDeltaSchema,
  contentBlockStop: ContentBlockStopSchema,
  messageStop: MessageStopSchema,
  metadata: MetadataSchema,
  replyStop: ReplyStopSchema,
  internalServerException: ExceptionSchema,
  modelStreamErrorException: ExceptionSchema,
  validationException: ExceptionSchema,
  throttlingException: ExceptionSchema,
  serviceUnavailableException: ExceptionSchema,
} as const;

export type KnownStreamEventKind = keyof typeof STREAM_EVENT_SCHEMAS;
/** A payload by kind. */
export type StreamEventPayload<K extends KnownStreamEventKind> = z.infer<(typeof STREAM_EVENT_SCHEMAS)[K]>;
/** A known stream event: `{ [kind]: payload }`. */
export type StreamEvent = {
  [K in KnownStreamEventKind]: { [P in K]: StreamEventPayload<K> };
}[KnownStreamEventKind];

export function isKnownStreamEventKind(kind: string): kind is KnownStreamEventKind {
  return Object.hasOwn(STREAM_EVENT_SCHEMAS, kind);
}

/** The body of a streamed reply: `{ "sessionId": ..., "events": [...] }`, written incrementally. */
export interface StreamBody {
  sessionId: string;
  events: Array<StreamEvent | Record<string, unknown>>;
}
