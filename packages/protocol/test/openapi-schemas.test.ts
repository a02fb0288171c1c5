import {
  CreateSessionRequestSchema,
  HeartbeatRequestSchema,
  MessageSchema,
  RewindRequestSchema,
  SendMessageRequestSchema,
  ToolResponseRequestSchema,
} from '@parley/protocol';
import { createOpenApiDocument } from '@parley/protocol/openapi';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';

const DOCUMENT_ID = 'https://parley.test/openapi.json';
const ajv = new Ajv2020({ allErrors: true });
// The document's top-level fields are not JSON Schema keywords; components are reached by $ref.
for (const keyword of ['openapi', 'info', 'servers', 'security', 'tags', 'paths', 'components']) {
  ajv.addKeyword(keyword);
}
ajv.addSchema({ ...createOpenApiDocument(), $id: DOCUMENT_ID });

const component = (name: string) => {
  const validate = ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/${name}`);
  if (!validate) throw new Error(`No component ${name}`);
  return validate;
};

const text = (t: string) => ({ type: 'text', text: t });
const tool = (name: string) => ({ name, description: 'd', requestArgs: { type: 'object' } });
const message = (content: unknown[]) => ({
  role: 'assistant',
  index: 1,
  content,
  deletedAt: null,
  createdAt: 1,
});

/** Bodies each schema must judge as zod does: valid ones and ones a refinement or a rule rejects. */
const CASES: Array<[string, z.ZodType, unknown[]]> = [
  [
    'CreateSessionRequest',
    CreateSessionRequestSchema,
    [
      {},
      { customizations: {} },
      { customizations: { agentId: 'weather', product: 'p' } },
      { customizations: { model: 'm', extensions: { mcpProviders: ['erp'] } } },
      { customizations: { sessionData: { any: ['json'] } } },
      { customizations: { agentId: 'a', model: 'm' } },
      { customizations: { agentId: 'a', sessionData: 1 } },
      { customizations: { model: 'm', sessionData: null } },
      { customizations: { agentID: 'typo' } },
      { customizations: { product: '' } },
      { customizations: { extensions: { tools: { get_weather: tool('get_weather') } } } },
      {
        customizations: {
          extensions: { tools: { bad: { ...tool('bad'), requestArgs: { type: 'array' } } } },
        },
      },
      { customizations: { extensions: { tools: { 'bad name': tool('bad name') } } } },
      {
        customizations: {
          extensions: {
            tools: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`t${i}`, tool(`t${i}`)])),
          },
        },
      },
      { customizations: { extensions: { rag: { maxResults: 50, tagFilter: { include: { a: ['b'] } } } } } },
      { customizations: { extensions: { rag: { maxResults: 51 } } } },
      { customizations: { extensions: { rag: { maxResults: 1.5 } } } },
      { extra: true },
    ],
  ],
  [
    'SendMessageRequest',
    SendMessageRequestSchema,
    [
      {},
      { content: 'hi' },
      { content: [text('a'), text('b')] },
      { content: '' },
      { content: [] },
      { content: [text('')] },
      { content: [{ type: 'tool_result', tool_use_id: 'x', content: [], is_error: false }] },
      { content: 5 },
      { content: 'hi', extra: 1 },
    ],
  ],
  [
    'HeartbeatRequest',
    HeartbeatRequestSchema,
    [
      { state: 'PROCESSING', heartbeat: 1 },
      { state: 'PROCESSING' },
      { state: 'ERROR', error: 'failed' },
      { state: 'ERROR', error: 'failed', heartbeat: 2 },
      { state: 'ERROR', error: '' },
      { state: 'COMPLETE' },
      { state: 'PROCESSING', heartbeat: 1, extra: 1 },
    ],
  ],
  [
    'ToolResponseRequest',
    ToolResponseRequestSchema,
    [
      { response: { state: 'COMPLETE', temp: 21 } },
      { response: { state: 'ERROR' } },
      {},
      { response: {}, x: 1 },
    ],
  ],
  ['RewindRequest', RewindRequestSchema, [{ index: 0 }, { index: 7 }, { index: -1 }, { index: 1.5 }, {}]],
  [
    'Message',
    MessageSchema,
    [
      message([text('hi')]),
      message([{ type: 'tool_use', id: 't', name: 'n', input: {} }]),
      message([{ type: 'image_later', url: 'x' }]),
      message([{ type: 'text' }]),
      message([{ type: 'tool_use', id: 't', name: 'n', input: [] }]),
      { ...message([]), role: 'robot' },
      { ...message([]), index: -1 },
      { ...message([]), deletedAt: undefined },
      { ...message([]), laterField: 1 },
    ],
  ],
];

describe('the document’s component schemas', () => {
  it.each(CASES)('%s accepts and rejects the bodies its zod schema does', (name, schema, bodies) => {
    const validate = component(name);
    const verdicts = bodies.map((body) => ({
      body,
      zod: schema.safeParse(body).success,
      json: validate(body),
    }));
    expect(verdicts.filter((v) => v.zod !== v.json)).toEqual([]);
    // Each table holds bodies of both kinds, so agreement means something.
    expect(new Set(verdicts.map((v) => v.zod))).toEqual(new Set([true, false]));
  });
});
