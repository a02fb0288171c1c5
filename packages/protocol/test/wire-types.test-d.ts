// The wire types (`@parley/protocol/wire`, plain TypeScript, what the SDK publishes) against the
// zod schemas the reference server validates and answers with. Checked by `tsc -p packages/protocol`
// (the package's `typecheck`). What the server sends, typed by a schema, must fit the wire type of
// a response, and what a wire type of a request allows must pass its schema's input type. Where the
// two are meant to be the same they must be equal: a field added on one side only fails here.

import { expectTypeOf } from 'vitest';
import type * as z from 'zod';
import type * as P from '../src/index.js';
import type * as W from '../src/wire/index.js';

/**
 * The same shape: identical after both are normalised (readonly dropped, intersections flattened),
 * compared member by member for a union and key by key both ways at every depth, so a field added
 * to one variant of a union, on either side, fails.
 */
type Same<A, B> = Equal<Shape<A>, Shape<B>>;
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Shape<T> = T extends string | number | boolean | null | undefined
  ? T
  : T extends readonly (infer E)[]
    ? Shape<E>[]
    : T extends object
      ? { -readonly [K in keyof T]: Shape<T[K]> }
      : T;
// zod's loose objects add `[key: string]: unknown` (a newer peer's extra fields pass through):
// compare without it. A record (only an index signature, e.g. a tool's `input`) keeps it.
type Strip<T> = T extends string | number | boolean | null | undefined
  ? T
  : T extends readonly (infer E)[]
    ? Strip<E>[]
    : T extends object
      ? [KnownKeys<T>] extends [never]
        ? { [K in keyof T]: Strip<T[K]> }
        : { [K in keyof T as string extends K ? never : K]: Strip<T[K]> }
      : T;
type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : K]: 1 };
/** What a response schema sends, as the wire type would write it. */
type Sent<S extends z.ZodType> = Strip<z.output<S>>;

// Responses: the schema's output and the wire type are one shape.
expectTypeOf<Same<Sent<typeof P.MessageSchema>, W.Message>>().toEqualTypeOf<true>();
expectTypeOf<Same<Sent<typeof P.ContentBlockSchema>, W.ContentBlock>>().toEqualTypeOf<true>();
expectTypeOf<Same<Sent<typeof P.ResponseContentBlockSchema>, W.ContentBlock>>().toEqualTypeOf<true>();
expectTypeOf<Same<Sent<typeof P.TextBlockSchema>, W.TextBlock>>().toEqualTypeOf<true>();
expectTypeOf<Same<Sent<typeof P.ToolUseBlockSchema>, W.ToolUseBlock>>().toEqualTypeOf<true>();
expectTypeOf<Same<Sent<typeof P.ToolResultBlockSchema>, W.ToolResultBlock>>().toEqualTypeOf<true>();
expectTypeOf<Same<Sent<typeof P.ToolResultContentSchema>, W.ToolResultContent>>().toEqualTypeOf<true>();
expectTypeOf<Same<Sent<typeof P.JsonObjectSchema>, W.JsonObject>>().toEqualTypeOf<true>();
expectTypeOf<Same<Sent<typeof P.PendingToolSchema>, W.PendingTool>>().toEqualTypeOf<true>();
expectTypeOf<Same<Sent<typeof P.ToolCallSchema>, W.ToolCall>>().toEqualTypeOf<true>();
expectTypeOf<Same<Sent<typeof P.UsageSchema>, W.Usage>>().toEqualTypeOf<true>();
expectTypeOf<Same<Sent<typeof P.RewindResponseSchema>, W.RewindResponse>>().toEqualTypeOf<true>();
expectTypeOf<
  Same<Sent<typeof P.ExportMessagesResponseSchema>, W.ExportMessagesResponse>
>().toEqualTypeOf<true>();
expectTypeOf<Same<Sent<typeof P.SessionSummarySchema>, W.SessionSummary>>().toEqualTypeOf<true>();
expectTypeOf<Same<Sent<typeof P.ListSessionsResponseSchema>, W.ListSessionsResponse>>().toEqualTypeOf<true>();
expectTypeOf<Same<z.output<typeof P.RoleSchema>, W.Role>>().toEqualTypeOf<true>();
expectTypeOf<Same<z.output<typeof P.StopReasonSchema>, W.StopReason>>().toEqualTypeOf<true>();
expectTypeOf<Same<z.output<typeof P.ToolCallStateSchema>, W.ToolCallState>>().toEqualTypeOf<true>();

// The buffered reply: the server always sends the stop reason and the heartbeat timeout; the wire
// type leaves them optional because a client also reads a reply recovered from the session, which
// may lack both (docs/sdk.md, "Recovery"). With both, the wire's reply is the schema's.
type ReplyAsSent = Omit<W.MessageReply, 'stopReason' | 'heartbeatTimeoutMs'> & {
  stopReason: W.StopReason;
  heartbeatTimeoutMs: number;
};
expectTypeOf<Same<Sent<typeof P.MessageReplySchema>, ReplyAsSent>>().toEqualTypeOf<true>();
expectTypeOf<z.output<typeof P.MessageReplySchema>>().toExtend<W.MessageReply>();

// Stream events: the same kinds, and each payload the server sends fits the wire's payload of that
// kind.
expectTypeOf<Same<P.KnownStreamEventKind, W.KnownStreamEventKind>>().toEqualTypeOf<true>();
expectTypeOf<Same<P.ExceptionEventKind, W.ExceptionEventKind>>().toEqualTypeOf<true>();
type Fits<K extends P.KnownStreamEventKind> = [Strip<P.StreamEventPayload<K>>] extends [
  W.StreamEventPayloads[K],
]
  ? true
  : false;
expectTypeOf<{ [K in P.KnownStreamEventKind]: Fits<K> }[P.KnownStreamEventKind]>().toEqualTypeOf<true>();
// Payloads that are not open unions are one shape on both sides.
type Exact<K extends P.KnownStreamEventKind> = Same<Strip<P.StreamEventPayload<K>>, W.StreamEventPayloads[K]>;
expectTypeOf<Exact<'messageStart'>>().toEqualTypeOf<true>();
expectTypeOf<Exact<'contentBlockStop'>>().toEqualTypeOf<true>();
expectTypeOf<Exact<'messageStop'>>().toEqualTypeOf<true>();
expectTypeOf<Exact<'metadata'>>().toEqualTypeOf<true>();
expectTypeOf<Exact<'internalServerException'>>().toEqualTypeOf<true>();
expectTypeOf<
  Same<Strip<P.StreamEventPayload<'replyStop'>>, Omit<ReplyAsSent, 'sessionId'>>
>().toEqualTypeOf<true>();
// A content block's start and delta: the known members are the schema's; the wire adds `object`
// for a kind a newer server may send (the schema's `looseObject({})` member).
type KnownMembers<T> = T extends unknown ? ([KnownKeys<T>] extends [never] ? never : T) : never;
type StartSent = KnownMembers<P.StreamEventPayload<'contentBlockStart'>['start']>;
type DeltaSent = KnownMembers<P.StreamEventPayload<'contentBlockDelta'>['delta']>;
expectTypeOf<Same<Strip<StartSent>, W.ToolUseBlockStart | W.ToolResultBlockStart>>().toEqualTypeOf<true>();
expectTypeOf<
  Same<Strip<DeltaSent>, W.TextDelta | W.ToolUseDelta | W.ToolResultDelta>
>().toEqualTypeOf<true>();

// Requests: what the wire type allows passes the schema's input type, and the plain parts are one
// shape with the schema's.
expectTypeOf<W.SendMessageRequest>().toExtend<z.input<typeof P.SendMessageRequestSchema>>();
expectTypeOf<Same<z.output<typeof P.SendMessageRequestSchema>, W.SendMessageRequest>>().toEqualTypeOf<true>();
expectTypeOf<Same<z.output<typeof P.UserContentBlockSchema>, W.UserContentBlock>>().toEqualTypeOf<true>();
expectTypeOf<Same<Sent<typeof P.ToolDefinitionSchema>, Strip<W.ToolDefinition>>>().toEqualTypeOf<true>();
expectTypeOf<W.ToolDefinition>().toExtend<z.input<typeof P.ToolDefinitionSchema>>();
expectTypeOf<Same<Sent<typeof P.RagConfigSchema>, W.RagConfig>>().toEqualTypeOf<true>();
expectTypeOf<Same<Sent<typeof P.ExtensionsSchema>, Strip<W.Extensions>>>().toEqualTypeOf<true>();
// The tool-call and rewind request bodies the SDK writes.
expectTypeOf<W.HeartbeatRequest>().toExtend<z.input<typeof P.HeartbeatRequestSchema>>();
expectTypeOf<Same<z.output<typeof P.HeartbeatRequestSchema>, W.HeartbeatRequest>>().toEqualTypeOf<true>();
expectTypeOf<Same<Sent<typeof P.HeartbeatLeaseSchema>, W.HeartbeatLease>>().toEqualTypeOf<true>();
expectTypeOf<W.ToolResponseRequest>().toExtend<z.input<typeof P.ToolResponseRequestSchema>>();
expectTypeOf<
  Same<Sent<typeof P.ToolResponseRequestSchema>, Strip<W.ToolResponseRequest>>
>().toEqualTypeOf<true>();
expectTypeOf<W.RewindRequest>().toExtend<z.input<typeof P.RewindRequestSchema>>();
expectTypeOf<Same<z.output<typeof P.RewindRequestSchema>, W.RewindRequest>>().toEqualTypeOf<true>();
// `customizations`: the schema's static type is one flat object (its refinement rejects `agentId`
// with `model`, and `sessionData` with either); the wire type is the union of the three variants,
// each of which the schema accepts, and which together name the schema's fields.
expectTypeOf<W.Customizations>().toExtend<z.input<typeof P.CustomizationsSchema>>();
expectTypeOf<
  Same<keyof z.output<typeof P.CustomizationsSchema>, keyof W.SimpleCustomizations>
>().toEqualTypeOf<true>();
expectTypeOf<
  Same<keyof z.output<typeof P.CustomizationsSchema>, keyof W.FullCustomizations>
>().toEqualTypeOf<true>();
expectTypeOf<
  Same<keyof z.output<typeof P.CustomizationsSchema>, keyof W.MinimalCustomizations>
>().toEqualTypeOf<true>();

// Every code with details in the wire's table is a code of the error table.
expectTypeOf<keyof W.ErrorDetailsByCode>().toExtend<P.ErrorCode>();
