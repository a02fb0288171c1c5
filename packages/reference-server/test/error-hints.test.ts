import { describe, expect, it } from 'vitest';
import { editDistance, nearestName } from '../src/utils/nearest-name.js';
import { expectError, harness } from './helpers/api.js';

describe('an unknown field is answered with the field that was meant', () => {
  it('names the nearest known field of that object ("agentID" -> "agentId")', async () => {
    const { call } = harness();
    const error = expectError(
      await call('POST', '/v1/sessions', { customizations: { agentID: 'default' } }),
      400,
      'invalid_request',
    );
    expect(error.message).toBe('customizations: Unrecognized key: "agentID" (did you mean "agentId"?)');
    expect(error.details?.issues).toEqual([
      { path: 'customizations', message: 'Unrecognized key: "agentID" (did you mean "agentId"?)' },
    ]);
  });

  it('names the parent of a field given one level too high ("agentId" -> "customizations.agentId")', async () => {
    const { call } = harness();
    const error = expectError(
      await call('POST', '/v1/sessions', { agentId: 'default' }),
      400,
      'invalid_request',
    );
    expect(error.message).toBe(
      '(body): Unrecognized key: "agentId" (did you mean "customizations.agentId"?)',
    );
  });

  it('an OpenAI-style "messages" list is told that this service takes "content"', async () => {
    const { call, createSession } = harness();
    const sessionId = await createSession();
    const error = expectError(
      await call('POST', `/v1/messages/${sessionId}`, { messages: [{ role: 'user', content: 'Hi' }] }),
      400,
      'invalid_request',
    );
    expect(error.message).toBe(
      '(body): Unrecognized key: "messages": this service takes the new user turn as "content" ' +
        '(a string or content blocks), not a "messages" list; the session keeps the conversation',
    );
  });

  it('a field near none of the known ones keeps the plain message', async () => {
    const { call } = harness();
    const error = expectError(
      await call('POST', '/v1/sessions', { customizations: { somethingElse: 1 } }),
      400,
      'invalid_request',
    );
    expect(error.message).toBe('customizations: Unrecognized key: "somethingElse"');
  });

  it('edit distance counts insertions, deletions and substitutions; near means one edit in three characters', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    // A swap of neighbours is one edit.
    expect(editDistance('rnu', 'run')).toBe(1);
    expect(editDistance('ca', 'abc')).toBe(3);
    expect(nearestName('agentID', ['agentId', 'model'])).toBe('agentId');
    expect(nearestName('modl', ['agentId', 'model'])).toBe('model');
    expect(nearestName('temperature', ['agentId', 'model'])).toBeUndefined();
    expect(nearestName('model', ['model'])).toBeUndefined();
  });
});

describe('a route that is not there says why, when the path tells', () => {
  it('/_parley/ on a server without control routes: they need --control', async () => {
    const { call } = harness();
    const error = expectError(await call('GET', '/_parley/ui/'), 404, 'route_not_found');
    expect(error.message).toBe(
      'No endpoint at GET /_parley/ui/: the journal and control routes (/_parley/) are on only when the ' +
        'server is started with --control (in code: createReferenceServer({ control: true }))',
    );
  });

  it('/v1/v1/: the base URL is given without /v1', async () => {
    const { call } = harness();
    const error = expectError(await call('POST', '/v1/v1/sessions', {}), 404, 'route_not_found');
    expect(error.message).toBe(
      'No endpoint at POST /v1/v1/sessions: the path has /v1 twice: give the base URL without /v1 ' +
        '(e.g. http://127.0.0.1:4010), the client adds /v1 itself',
    );
  });

  it('any other unknown path keeps the plain message', async () => {
    const { call } = harness({ control: true });
    const error = expectError(await call('GET', '/v1/nothing-here'), 404, 'route_not_found');
    expect(error.message).toBe('No endpoint at GET /v1/nothing-here');
  });
});
