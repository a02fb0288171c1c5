import { ResponseValidationError } from '../errors/index.js';
import { check, describeIssue, type Shape } from '../internal/shape.js';

/** `POST http://…/v1/sessions, request req_…`: where a response came from, for error messages. */
export function where(ctx: { method: string; url: string }, requestId: string | undefined): string {
  return `${ctx.method} ${ctx.url}${requestId === undefined ? '' : `, request ${requestId}`}`;
}

/** Checks `data` against `shape`; a mismatch is a {@link ResponseValidationError}. */
export function validate<T>(
  shape: Shape,
  data: unknown,
  ctx: { method: string; url: string; requestId?: string | undefined },
): T {
  const issues = check(shape, data);
  if (issues.length === 0) return data as T;
  const first = issues[0];
  throw new ResponseValidationError(
    `Response does not match the protocol${first ? ` at ${describeIssue(first)}` : ''} (${where(ctx, ctx.requestId)})`,
    { issues, body: data },
  );
}
