// The error-code table, free of zod: `@parley/protocol/error-codes` is its entry, which the SDK's
// build inlines (packages/sdk/tsup.config.ts) so the SDK and the server read one table.

/**
 * Every error code the service returns, with its HTTP status. The server renders errors from this
 * table and the SDK maps them back; `docs/errors.md` explains each.
 */
export const ERROR_CODES = {
  invalid_json: { status: 400, description: 'The body is not valid JSON.' },
  invalid_request: {
    status: 400,
    description: 'The body or a parameter breaks the schema; the message names the field.',
  },
  invalid_rewind_target: {
    status: 400,
    description: 'Rewind must target a live, client-authored user message.',
  },
  unknown_agent: { status: 400, description: 'customizations.agentId is not in the agent catalogue.' },
  unknown_model: { status: 400, description: 'customizations.model is not in the model catalogue.' },
  unknown_provider: {
    status: 400,
    description: 'A name in extensions.mcpProviders is not a registered provider.',
  },
  unknown_index: {
    status: 400,
    description: 'A name in extensions.rag.indexes is not a registered document index.',
  },
  unauthorized: {
    status: 401,
    description: 'The Authorization header is missing, malformed or carries an unknown token.',
  },
  route_not_found: { status: 404, description: 'No endpoint at this method and path.' },
  session_not_found: { status: 404, description: 'The session does not exist or belongs to another user.' },
  message_not_found: { status: 404, description: 'No live message at that index.' },
  tool_call_not_found: { status: 404, description: 'The tool call does not exist in this session.' },
  reply_in_progress: {
    status: 409,
    description: 'A reply is still running in this session; wait for it to end.',
  },
  tool_calls_open: {
    status: 409,
    description: 'Tool calls of the last turn are not settled yet; details.openToolCalls names them.',
  },
  resume_required: {
    status: 409,
    description: 'The tool calls are settled: resume (send without content) before a new user message.',
  },
  nothing_to_resume: {
    status: 409,
    description:
      'Resume needs a conversation that ends with settled tool calls or an unanswered user message.',
  },
  tool_call_terminal: { status: 409, description: 'The tool call is already COMPLETE, ERROR or ABANDONED.' },
  payload_too_large: { status: 413, description: 'The body is larger than the server accepts.' },
  quota_exceeded: {
    status: 429,
    description: "The product's quota is used up; retry after Retry-After seconds.",
  },
  internal_error: { status: 500, description: 'An unexpected server failure.' },
  no_script_match: {
    status: 501,
    description: 'The scripted model (strict mode) has no turn for this conversation.',
  },
  replay_mismatch: {
    status: 501,
    description:
      'Replaying a cassette: this model call is not the recorded one (other user text or tool results, or no turn left).',
  },
  model_error: { status: 502, description: 'The model failed while producing the reply.' },
  upstream_unreachable: {
    status: 502,
    description: 'The checking proxy could not reach its upstream; the message names it.',
  },
  injected_fault: {
    status: 503,
    description: 'A fault injected by the testing toolkit (the status may vary).',
  },
  upstream_timeout: {
    status: 504,
    description: 'The checking proxy gave up waiting for its upstream; the message names it.',
  },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
