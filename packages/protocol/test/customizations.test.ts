import { CreateSessionRequestSchema, CustomizationsSchema, SendMessageRequestSchema } from '@parley/protocol';
import { describe, expect, it } from 'vitest';

const tool = {
  name: 'get_weather',
  description: 'Weather for a city',
  requestArgs: { type: 'object', properties: { city: { type: 'string' } } },
};

describe('customizations', () => {
  it('accepts the Simple, Full and Minimal variants', () => {
    expect(CustomizationsSchema.safeParse({ agentId: 'default', product: 'p' }).success).toBe(true);
    expect(
      CustomizationsSchema.safeParse({ model: 'm', extensions: { tools: { get_weather: tool } } }).success,
    ).toBe(true);
    expect(CustomizationsSchema.safeParse({ sessionData: { any: ['thing'] } }).success).toBe(true);
    expect(CreateSessionRequestSchema.safeParse({}).success).toBe(true);
  });

  it('rejects agentId together with model, naming the field', () => {
    const result = CustomizationsSchema.safeParse({ agentId: 'a', model: 'm' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['model']);
  });

  it('rejects a tool whose name differs from its key', () => {
    const result = CustomizationsSchema.safeParse({ extensions: { tools: { other: tool } } });
    expect(result.success).toBe(false);
  });

  it('rejects unknown fields so typos are not silently ignored', () => {
    expect(CustomizationsSchema.safeParse({ agentID: 'default' }).success).toBe(false);
  });

  it('rejects rag.maxResults outside 1..50', () => {
    expect(CustomizationsSchema.safeParse({ extensions: { rag: { maxResults: 0 } } }).success).toBe(false);
    expect(CustomizationsSchema.safeParse({ extensions: { rag: { maxResults: 51 } } }).success).toBe(false);
    expect(CustomizationsSchema.safeParse({ extensions: { rag: { maxResults: 50 } } }).success).toBe(true);
  });
});

describe('send body', () => {
  it('accepts text or text blocks, and no content for a resume', () => {
    expect(SendMessageRequestSchema.safeParse({ content: 'hi' }).success).toBe(true);
    expect(SendMessageRequestSchema.safeParse({ content: [{ type: 'text', text: 'hi' }] }).success).toBe(
      true,
    );
    expect(SendMessageRequestSchema.safeParse({}).success).toBe(true);
  });

  it('rejects a client-authored tool_result block', () => {
    const body = { content: [{ type: 'tool_result', tool_use_id: 't', content: [] }] };
    const result = SendMessageRequestSchema.safeParse(body);
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain('inserted by the server');
  });
});

describe('responses', () => {
  it('pass an unknown content block kind through instead of failing (forward compatibility)', async () => {
    const { MessageSchema } = await import('@parley/protocol');
    const message = {
      role: 'assistant',
      index: 1,
      deletedAt: null,
      createdAt: 0,
      content: [
        { type: 'text', text: 'hi' },
        { type: 'image', source: { url: 'x' } },
      ],
    };
    expect(MessageSchema.parse(message).content[1]).toEqual({ type: 'image', source: { url: 'x' } });
    expect(MessageSchema.safeParse({ ...message, content: [{ type: 'text', text: 5 }] }).success).toBe(false);
  });
});
