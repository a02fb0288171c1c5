// Checked by `tsc -p packages/sdk` (the package's `typecheck`).
import {
  APIError,
  ConflictError,
  type ErrorDetailsOf,
  type OpenToolCall,
  RateLimitError,
  type RequestIssue,
  type ToolCallState,
} from '@parley/sdk';
import { expectTypeOf } from 'vitest';

declare const error: unknown;

if (error instanceof ConflictError && error.code === 'tool_calls_open') {
  // The form docs/sdk.md shows, typed.
  expectTypeOf(error.details?.openToolCalls).toEqualTypeOf<OpenToolCall[] | undefined>();
  for (const call of error.details?.openToolCalls ?? []) {
    expectTypeOf(call.requestId).toEqualTypeOf<string>();
    expectTypeOf(call.state).toEqualTypeOf<ToolCallState>();
  }
}
if (error instanceof APIError) {
  expectTypeOf(error.details?.issues).toEqualTypeOf<RequestIssue[] | undefined>();
  expectTypeOf(error.details?.maxBytes).toEqualTypeOf<number | undefined>();
  // A field a newer server adds is still readable.
  expectTypeOf(error.details?.somethingNew).toEqualTypeOf<unknown>();
}
if (error instanceof RateLimitError) {
  expectTypeOf(error.details?.retryAfterSeconds).toEqualTypeOf<number | undefined>();
}
expectTypeOf<ErrorDetailsOf<'tool_calls_open'>['openToolCalls']>().toEqualTypeOf<OpenToolCall[]>();
expectTypeOf<ErrorDetailsOf<'reply_in_progress'>['sessionId']>().toEqualTypeOf<string>();
