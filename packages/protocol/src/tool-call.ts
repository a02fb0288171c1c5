import * as z from 'zod';
import { JsonObjectSchema } from './content.js';
import { ToolCallStateSchema } from './send-message.js';

const HEARTBEAT_TIMESTAMP_RULE = "must be a non-negative integer: the caller's Unix time in milliseconds";

/** A heartbeat's timestamp: Unix time in whole milliseconds (`Date.now()`), never negative. */
export const HeartbeatTimestampSchema = z
  .number({ error: HEARTBEAT_TIMESTAMP_RULE })
  .int({ error: HEARTBEAT_TIMESTAMP_RULE })
  .nonnegative({ error: HEARTBEAT_TIMESTAMP_RULE });

/** `POST /v1/tools/request/:sessionId/:requestId/heartbeat` body: a liveness beat or a failure report. */
export const HeartbeatRequestSchema = z.discriminatedUnion('state', [
  z.strictObject({
    state: z.literal('PROCESSING'),
    /** The caller's timestamp (Unix ms). The server records its own receive time for staleness. */
    heartbeat: HeartbeatTimestampSchema,
  }),
  z.strictObject({
    state: z.literal('ERROR'),
    /** Human-readable; the model sees it and may adjust. */
    error: z.string().min(1),
    heartbeat: HeartbeatTimestampSchema.optional(),
  }),
]);
export type HeartbeatRequest = z.infer<typeof HeartbeatRequestSchema>;

/** `POST /v1/tools/response/:sessionId/:requestId` body. Fields besides `state` reach the model unchanged. */
export const ToolResponseRequestSchema = z.strictObject({
  response: z.looseObject({ state: z.literal('COMPLETE') }),
});
export type ToolResponseRequest = { response: { state: 'COMPLETE'; [field: string]: unknown } };

/** `GET /v1/tools/request/:sessionId/:requestId` → 200: one tool call as the server sees it now. */
export const ToolCallSchema = z.looseObject({
  sessionId: z.string(),
  requestId: z.string(),
  name: z.string(),
  input: JsonObjectSchema,
  state: ToolCallStateSchema,
  createdAt: z.number(),
  deadlineAt: z.number(),
  /** Server receive time of the last PROCESSING heartbeat. */
  lastHeartbeatAt: z.number().nullable(),
  /** When the call reached a terminal state. */
  settledAt: z.number().nullable(),
  /** The error text for ERROR and ABANDONED calls. */
  error: z.string().optional(),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;
