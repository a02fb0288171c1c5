import { describe, expect, it } from 'vitest';
import { checkRequestBody } from '../../src/proxy/check-body.js';
import { protocolOperation } from '../../src/proxy/protocol-operations.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('the checking proxy reads a request body as the service does', () => {
  it('a whitespace-only body breaks the protocol (the service answers 400 invalid_json), even where a body is optional', () => {
    for (const [method, path] of [
      ['POST', '/v1/sessions'],
      ['POST', '/v1/messages/sess_1'],
      ['POST', '/v1/tools/response/sess_1/tooluse_1'],
    ] as const) {
      const checked = checkRequestBody(bytes(' \t'), protocolOperation(method, path));
      expect(checked.violations, path).toEqual([
        { in: 'request', path: '', expected: 'JSON', got: 'text " \\t"' },
      ]);
    }
  });

  it('an empty body is no body: fine where a body is optional, a violation where one is required', () => {
    expect(checkRequestBody(bytes(''), protocolOperation('POST', '/v1/sessions')).violations).toEqual([]);
    expect(
      checkRequestBody(bytes(''), protocolOperation('POST', '/v1/tools/response/sess_1/tooluse_1'))
        .violations,
    ).toEqual([{ in: 'request', path: '', expected: 'a JSON body', got: 'nothing' }]);
  });
});
