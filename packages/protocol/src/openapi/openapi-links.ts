import type { JsonSchema } from './component-schemas.js';

/**
 * An OpenAPI Link Object: the operation a response leads to, and where that operation's
 * parameters (and, for a link that fixes it, the body) come from, as runtime expressions
 * (`$response.body#/json-pointer`, `$request.path.name`).
 */
export interface Link {
  operationId: string;
  description: string;
  parameters: Record<string, string>;
  requestBody?: unknown;
}

/** The session of the response body (a created session). */
const SESSION_IN_BODY = { sessionId: '$response.body#/sessionId' };
/** The session of the request's path. */
const SAME_SESSION = { sessionId: '$request.path.sessionId' };
/** The first pending tool of a buffered reply, in the session of the request's path. */
const FIRST_PENDING_TOOL = {
  sessionId: '$request.path.sessionId',
  requestId: '$response.body#/pendingTools/0/requestId',
};
/** The tool call of the request's path. */
const SAME_CALL = { sessionId: '$request.path.sessionId', requestId: '$request.path.requestId' };
/** The tool call of the response body (a tool call read). */
const CALL_IN_BODY = { sessionId: '$response.body#/sessionId', requestId: '$response.body#/requestId' };

/** The body of a failure report a link sends: the failure route is the heartbeat route with `ERROR`. */
const FAILURE = { state: 'ERROR', error: 'The tool failed' };

/** Read a tool call as the server sees it. */
const readToolCall = (parameters: Record<string, string>, which: string): Link => ({
  operationId: 'getToolCall',
  parameters,
  description: `Read ${which} as the server sees it (state, lease, deadline).`,
});

/** The links of a tool call to its routes: beat, fail, respond and read it. */
function toolCallLinks(parameters: Record<string, string>, which: string): Record<string, Link> {
  return {
    heartbeat: {
      operationId: 'heartbeatToolCall',
      parameters,
      description: `Renew the lease of ${which} (\`PROCESSING\`).`,
    },
    reportFailure: {
      operationId: 'heartbeatToolCall',
      parameters,
      requestBody: FAILURE,
      description: `Settle ${which} as failed (\`ERROR\`): the model is told the error.`,
    },
    respond: {
      operationId: 'respondToolCall',
      parameters,
      description: `Settle ${which} with its result (\`COMPLETE\`).`,
    },
    readToolCall: readToolCall(parameters, which),
  };
}

/** Resume the conversation (a send without `content`) once the last turn's tool calls are settled. */
const RESUME: Link = {
  operationId: 'sendMessage',
  parameters: SAME_SESSION,
  requestBody: {},
  description:
    'Resume the conversation (a send without `content`) once every tool call of the turn is settled.',
};

/**
 * The links of each operation's success response, by operationId: a created session leads to its
 * routes, a buffered reply's first pending tool to the tool-call routes, a settled call to the
 * resume. A streamed reply's pending tools are in its last event, which no JSON pointer can name
 * (a pointer counts from the start of an array): a stateful walk reaches the tool calls through
 * the buffered send.
 */
export const SUCCESS_LINKS: Record<string, Record<string, Link>> = {
  createSession: {
    sendMessage: {
      operationId: 'sendMessage',
      parameters: SESSION_IN_BODY,
      description: 'Send a turn to the new session.',
    },
    streamMessage: {
      operationId: 'streamMessage',
      parameters: SESSION_IN_BODY,
      description: 'Send a turn to the new session, the reply streamed.',
    },
    exportMessages: {
      operationId: 'exportMessages',
      parameters: SESSION_IN_BODY,
      description: 'Export the messages of the new session.',
    },
    rewindMessages: {
      operationId: 'rewindMessages',
      parameters: SESSION_IN_BODY,
      description: 'Rewind the new session to one of its user messages.',
    },
    deleteSession: {
      operationId: 'deleteSession',
      parameters: SESSION_IN_BODY,
      description: 'Delete the new session.',
    },
  },
  sendMessage: {
    ...toolCallLinks(FIRST_PENDING_TOOL, 'the first pending tool of the reply (`stopReason: "tool_use"`)'),
    exportMessages: {
      operationId: 'exportMessages',
      parameters: SAME_SESSION,
      description: 'Export the messages.',
    },
  },
  streamMessage: {
    exportMessages: {
      operationId: 'exportMessages',
      parameters: SAME_SESSION,
      description: 'Export the messages.',
    },
  },
  heartbeatToolCall: {
    ...toolCallLinks(SAME_CALL, 'the same tool call'),
    resume: RESUME,
  },
  respondToolCall: {
    readToolCall: readToolCall(SAME_CALL, 'the same tool call'),
    resume: RESUME,
  },
  getToolCall: toolCallLinks(CALL_IN_BODY, 'this tool call'),
};

/** The links of an operation's success response as OpenAPI JSON, or nothing when it has none. */
export function successLinks(operationId: string): { links?: JsonSchema } {
  const links = SUCCESS_LINKS[operationId];
  return links ? { links } : {};
}
