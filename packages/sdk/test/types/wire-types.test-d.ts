// The SDK writes the protocol's wire types out as plain TypeScript (no schema library in its
// declarations). Checked by `tsc -p packages/sdk`: what the server sends, typed by
// @parley/protocol's schemas, must fit the SDK's types, and what the SDK's types allow must pass the
// protocol's. A field added to the protocol and not to the SDK fails here.
import type * as P from '@parley/protocol';
import type * as S from '@parley/sdk';
import { expectTypeOf } from 'vitest';

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
// zod's loose objects add `[key: string]: unknown`: compare without it. A record (only an index
// signature, e.g. a tool's `input`) keeps it.
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

expectTypeOf<Same<Strip<P.Message>, S.Message>>().toEqualTypeOf<true>();
expectTypeOf<Same<Strip<P.ContentBlock>, S.ContentBlock>>().toEqualTypeOf<true>();
// A reply the `recover` option took from the session may lack what the session does not record
// (its stop reason, the heartbeat timeout); with both, the SDK's reply is the wire's.
type ReplyAsSent = Omit<S.MessageReply, 'stopReason' | 'heartbeatTimeoutMs'> & {
  stopReason: S.StopReason;
  heartbeatTimeoutMs: number;
};
expectTypeOf<Same<Strip<P.MessageReply>, ReplyAsSent>>().toEqualTypeOf<true>();
expectTypeOf<P.MessageReply>().toExtend<S.MessageReply>();
expectTypeOf<Same<Strip<P.PendingTool>, S.PendingTool>>().toEqualTypeOf<true>();
expectTypeOf<Same<Strip<P.ToolCall>, S.ToolCall>>().toEqualTypeOf<true>();
expectTypeOf<Same<Strip<P.RewindResponse>, S.RewindResponse>>().toEqualTypeOf<true>();
expectTypeOf<Same<Strip<P.SessionSummary>, S.SessionSummary>>().toEqualTypeOf<true>();
expectTypeOf<Same<Strip<P.Usage>, S.Usage>>().toEqualTypeOf<true>();
expectTypeOf<Same<P.Role, S.Role>>().toEqualTypeOf<true>();
expectTypeOf<Same<P.StopReason, S.StopReason>>().toEqualTypeOf<true>();
expectTypeOf<Same<P.ToolCallState, S.ToolCallState>>().toEqualTypeOf<true>();
expectTypeOf<Same<P.UserContentBlock, S.UserContentBlock>>().toEqualTypeOf<true>();
expectTypeOf<Same<P.Customizations, S.Customizations>>().toEqualTypeOf<true>();
expectTypeOf<Same<P.ToolDefinition, S.ToolDefinition>>().toEqualTypeOf<true>();
expectTypeOf<Same<P.ErrorCode, S.ErrorCode>>().toEqualTypeOf<true>();
expectTypeOf<Same<P.KnownStreamEventKind, S.KnownStreamEventKind>>().toEqualTypeOf<true>();
expectTypeOf<Same<P.ExceptionEventKind, S.ExceptionEventKind>>().toEqualTypeOf<true>();

// Each event payload the server can send fits the SDK's type of that kind.
type Fits<K extends P.KnownStreamEventKind> = [Strip<P.StreamEventPayload<K>>] extends [
  S.StreamEventPayloads[K],
]
  ? true
  : false;
expectTypeOf<{ [K in P.KnownStreamEventKind]: Fits<K> }[P.KnownStreamEventKind]>().toEqualTypeOf<true>();

// Every code with details in the SDK's table is a code of the protocol.
expectTypeOf<keyof S.ErrorDetailsByCode>().toExtend<P.ErrorCode>();
