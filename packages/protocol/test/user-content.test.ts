import { UserContentBlockSchema } from '@parley/protocol';
import { describe, expect, it } from 'vitest';

function issuesOf(block: unknown) {
  const result = UserContentBlockSchema.safeParse(block);
  expect(result.success).toBe(false);
  return result.error?.issues ?? [];
}

describe('user content blocks', () => {
  it('a user message holding a tool_use block is refused with one issue: what is wrong and what to send', () => {
    const issues = issuesOf({ type: 'tool_use', id: 'tooluse_1', name: 'get_weather', input: {} });
    expect(issues).toHaveLength(1);
    const [issue] = issues;
    expect(issue?.path).toEqual(['type']);
    expect(issue?.message).toContain('cannot hold a tool_use block');
    expect(issue?.message).toContain('POST /v1/tools/response/:sessionId/:requestId');
    expect(issue?.message).toContain('resume with an empty body {}');
    expect(issue?.message).not.toContain('tool_result');
  });

  it('a tool_result block is refused: the server inserts it when a tool response is submitted', () => {
    const [issue] = issuesOf({ type: 'tool_result', tool_use_id: 't', content: [] });
    expect(issue?.path).toEqual(['type']);
    expect(issue?.message).toContain('inserted by the server');
  });

  it('another block kind, or none, is refused naming the text block to send', () => {
    expect(issuesOf({ type: 'image', source: {} })[0]?.message).toBe(
      'clients send only text blocks, { "type": "text", "text": "..." }, not "image"',
    );
    expect(issuesOf({ text: 'no type' })[0]?.message).toContain('clients send only text blocks');
  });

  it('a text block still needs non-empty text and no other fields', () => {
    expect(issuesOf({ type: 'text', text: '' })[0]?.path).toEqual(['text']);
    expect(issuesOf({ type: 'text', text: 'a', extra: 1 })[0]?.code).toBe('unrecognized_keys');
    expect(UserContentBlockSchema.safeParse({ type: 'text', text: 'hi' }).success).toBe(true);
  });
});
