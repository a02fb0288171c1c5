import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  CreateSessionRequestSchema,
  ERROR_CODES,
  HeartbeatRequestSchema,
  RewindRequestSchema,
  SendMessageRequestSchema,
  STREAM_EVENT_SCHEMAS,
  ToolResponseRequestSchema,
} from '@parley/protocol';
import { createOpenApiDocument, STREAM_EVENT_KINDS } from '@parley/protocol/openapi';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { OPENAPI_FILES, renderOpenApiJson } from '../scripts/openapi-files.js';

const document = createOpenApiDocument();

/** A request body's media type: its schema reference and its examples. */
interface JsonBody {
  schema: { $ref: string };
  examples?: Record<string, { value: unknown }>;
}
const METHODS = ['get', 'post', 'delete'] as const;

function operations() {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method] !== undefined).map((method) => ({
      path,
      method,
      operation: item[method] as {
        operationId: string;
        security?: unknown[];
        responses: Record<string, unknown>;
      },
    })),
  );
}

/** The error codes a response pins `error.code` to. */
function codesOf(response: unknown): string[] {
  const schema = (response as { content?: Record<string, { schema: { allOf?: unknown[] } }> }).content?.[
    'application/json'
  ]?.schema;
  const pinned = schema?.allOf?.[1] as
    | { properties: { error: { properties: { code: { enum: string[] } } } } }
    | undefined;
  return pinned?.properties.error.properties.code.enum ?? [];
}

describe('the OpenAPI document', () => {
  it('is committed as generated: packages/protocol/openapi.json and docs/openapi.json (run `pnpm openapi` after a schema change)', () => {
    const expected = renderOpenApiJson();
    for (const file of OPENAPI_FILES) {
      expect(readFileSync(file, 'utf8'), `${fileURLToPath(file)} is stale: run \`pnpm openapi\``).toBe(
        expected,
      );
    }
  });

  it('passes a standard OpenAPI 3.1 validator: Redocly lint, recommended-strict rules, no problem', async () => {
    // The one rule turned off asks every operation for a 4XX response; GET /openapi.json has none
    // (no body, no auth). Every /v1 operation is checked for one below instead.
    const config = await createConfig({
      extends: ['recommended-strict'],
      rules: { 'operation-4xx-response': 'off' },
    });
    const problems = await lintFromString({
      source: renderOpenApiJson(),
      absoluteRef: 'openapi.json',
      config,
    });
    const report = problems.map(
      (p) => `${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(', ')}`,
    );
    expect(report).toEqual([]);
    expect(document.openapi).toMatch(/^3\.1\./);
  });

  it('gives every /v1 operation the bearer scheme, a 401 and an x-request-id header on every response', () => {
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    const all = operations();
    expect(all.length).toBe(12);
    for (const { path, operation } of all) {
      if (path.startsWith('/v1/')) {
        expect(operation.security, path).toBeUndefined();
        expect(codesOf(operation.responses['401']), path).toEqual(['unauthorized']);
      } else {
        expect(operation.security, path).toEqual([]);
        expect(operation.responses['401'], path).toBeUndefined();
      }
      for (const response of Object.values(operation.responses)) {
        expect((response as { headers: Record<string, unknown> }).headers['x-request-id'], path).toEqual({
          $ref: '#/components/headers/RequestId',
        });
      }
    }
  });

  it('answers every error code of the table at its status somewhere, and route_not_found is described for unknown paths', () => {
    const seen = new Set<string>();
    for (const { operation } of operations()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const code of codesOf(response)) {
          expect(ERROR_CODES[code as keyof typeof ERROR_CODES].status, code).toBe(Number(status));
          seen.add(code);
        }
      }
    }
    const missing = Object.keys(ERROR_CODES).filter((code) => !seen.has(code));
    expect(missing).toEqual(['route_not_found']);
    expect(document.info.description).toContain('404 route_not_found');
  });

  it('gives every request body examples the protocol accepts as they are (its zod schemas parse each)', () => {
    const schemas = {
      CreateSessionRequest: CreateSessionRequestSchema,
      SendMessageRequest: SendMessageRequestSchema,
      RewindRequest: RewindRequestSchema,
      HeartbeatRequest: HeartbeatRequestSchema,
      ToolResponseRequest: ToolResponseRequestSchema,
    };
    let examples = 0;
    for (const { path, method, operation } of operations()) {
      const body = (operation as { requestBody?: { content: Record<string, JsonBody> } }).requestBody;
      if (!body) continue;
      const media = body.content['application/json'];
      const name = media?.schema.$ref.split('/').at(-1) as keyof typeof schemas;
      expect(Object.keys(media?.examples ?? {}).length, `${method} ${path}`).toBeGreaterThan(0);
      for (const [key, example] of Object.entries(media?.examples ?? {})) {
        examples++;
        expect(schemas[name].safeParse(example.value).success, `${method} ${path} ${key}`).toBe(true);
      }
    }
    expect(examples).toBeGreaterThanOrEqual(8);
  });

  it('describes the stream as application/json with an event component for every known event kind', () => {
    expect(STREAM_EVENT_KINDS).toEqual(Object.keys(STREAM_EVENT_SCHEMAS));
    const stream = document.paths['/v1/messages/{sessionId}/stream']?.post as {
      responses: { 200: { content: Record<string, unknown> } };
    };
    expect(stream.responses[200].content).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/StreamBody' } },
    });
    const oneOf = (document.components.schemas.StreamEvent as { oneOf: { $ref: string }[] }).oneOf;
    expect(oneOf.map((ref) => ref.$ref.split('/').at(-1))).toEqual([
      'MessageStartEvent',
      'ContentBlockStartEvent',
      'ContentBlockDeltaEvent',
      'ContentBlockStopEvent',
      'MessageStopEvent',
      'MetadataEvent',
      'ReplyStopEvent',
      'InternalServerExceptionEvent',
      'ModelStreamErrorExceptionEvent',
      'ValidationExceptionEvent',
      'ThrottlingExceptionEvent',
      'ServiceUnavailableExceptionEvent',
      'UnknownStreamEvent',
    ]);
  });
});
