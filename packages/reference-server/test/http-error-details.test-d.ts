// An HttpError's `details` are typed by its code, from the protocol's `ErrorDetailsByCode` (and the
// server's own codes' table): a call site whose details break the table fails `tsc -p
// packages/reference-server` (the package's `typecheck`).

import { HttpError } from '../src/http-error.js';

// The shapes the table gives pass.
new HttpError('payload_too_large', 'too large', { details: { maxBytes: 1024 } });
new HttpError('upstream_timeout', 'slow', { details: { upstream: 'http://up', timeoutMs: 5000 } });
new HttpError('session_limit_reached', 'full', { details: { maxSessions: 2 } });
new HttpError('unknown_provider', 'unknown', { details: { provider: 'erp', registered: ['crm'] } });
new HttpError('session_not_found', 'gone');

// A field the code does not carry fails.
// @ts-expect-error payload_too_large carries maxBytes, not limit
new HttpError('payload_too_large', 'too large', { details: { limit: 1024 } });

// A field of the wrong type fails.
// @ts-expect-error maxSessions is a number
new HttpError('session_limit_reached', 'full', { details: { maxSessions: '2' } });

// A required field missing fails.
// @ts-expect-error upstream_timeout names its upstream
new HttpError('upstream_timeout', 'slow', { details: { timeoutMs: 5000 } });

// Another code's details fail.
// @ts-expect-error tool_call_terminal carries requestId and state, not openToolCalls
new HttpError('tool_call_terminal', 'done', { details: { openToolCalls: [] } });

// A code the table does not list takes no details.
// @ts-expect-error session_not_found carries no details
new HttpError('session_not_found', 'gone', { details: { sessionId: 'sess_1' } });
