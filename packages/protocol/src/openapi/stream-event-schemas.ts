import type { STREAM_EVENT_SCHEMAS } from '../stream-events.js';
import { type JsonSchema, schemaRef } from './component-schemas.js';

/** The payload component of each known event kind. */
const PAYLOAD_COMPONENTS: Record<keyof typeof STREAM_EVENT_SCHEMAS, string> = {
  messageStart: 'MessageStart',
  contentBlockStart: 'ContentBlockStart',
  contentBlockDelta: 'ContentBlockDelta',
  contentBlockStop: 'ContentBlockStop',
  messageStop: 'MessageStop',
  metadata: 'Metadata',
  replyStop: 'ReplyStop',
  internalServerException: 'Exception',
  modelStreamErrorException: 'Exception',
  validationException: 'Exception',
  throttlingException: 'Exception',
  serviceUnavailableException: 'Exception',
};

/** The component name of the event `{ [kind]: payload }`: `messageStart` → `MessageStartEvent`. */
export function eventComponentName(kind: string): string {
  return `${kind.charAt(0).toUpperCase()}${kind.slice(1)}Event`;
}

/** The event kinds the document describes, in stream order. */
export const STREAM_EVENT_KINDS = Object.keys(PAYLOAD_COMPONENTS) as (keyof typeof STREAM_EVENT_SCHEMAS)[];

/**
 * The component schemas of the stream: one per event kind (an object with exactly that one key),
 * `UnknownStreamEvent` for kinds added later, `StreamEvent` (one of them) and `StreamBody`.
 */
export function streamEventSchemas(): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  for (const kind of STREAM_EVENT_KINDS) {
    schemas[eventComponentName(kind)] = {
      type: 'object',
      description: `A \`${kind}\` event.`,
      properties: { [kind]: schemaRef(PAYLOAD_COMPONENTS[kind]) },
      required: [kind],
      additionalProperties: false,
    };
  }
  schemas.UnknownStreamEvent = {
    type: 'object',
    description:
      'An event of a kind added in a later version: one key naming the kind. Consumers pass it through.',
    minProperties: 1,
    maxProperties: 1,
    propertyNames: { not: { enum: STREAM_EVENT_KINDS } },
    additionalProperties: {},
  };
  schemas.StreamEvent = {
    description:
      'One event: an object with exactly one key naming its kind (Amazon Bedrock ConverseStream shapes, plus `replyStop`).',
    oneOf: [
      ...STREAM_EVENT_KINDS.map((kind) => schemaRef(eventComponentName(kind))),
      schemaRef('UnknownStreamEvent'),
    ],
  };
  schemas.StreamBody = {
    type: 'object',
    description:
      'The streamed reply: written incrementally, it is one JSON document when complete. A completed reply ends with `replyStop`; a failure after the headers ends with one exception event, and the JSON still closes.',
    properties: {
      sessionId: { type: 'string' },
      events: { type: 'array', items: schemaRef('StreamEvent') },
    },
    required: ['sessionId', 'events'],
    additionalProperties: {},
  };
  return schemas;
}
