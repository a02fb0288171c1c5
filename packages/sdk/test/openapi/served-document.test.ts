import { createOpenApiDocument } from '@parley/protocol/openapi';
import { startServer } from '@parley/reference-server';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { expect, it } from 'vitest';

it('GET /openapi.json serves the document without a token, and it passes Redocly lint (recommended-strict)', async () => {
  const running = await startServer({ port: 0 });
  try {
    const response = await fetch(`${running.url}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('x-request-id')).toEqual(expect.any(String));
    const text = await response.text();
    expect(JSON.parse(text)).toEqual(createOpenApiDocument());

    // As in the protocol package's test: the one rule off wants a 4XX on GET /openapi.json too.
    const config = await createConfig({
      extends: ['recommended-strict'],
      rules: { 'operation-4xx-response': 'off' },
    });
    const problems = await lintFromString({
      source: text,
      absoluteRef: `${running.url}/openapi.json`,
      config,
    });
    expect(problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);

    // The /v1 routes still need a token.
    expect((await fetch(`${running.url}/v1/sessions`)).status).toBe(401);
  } finally {
    await running.close();
  }
});
