import {
  createStandInModel,
  EXTENSION_DIRECTIVES,
  ManualClock,
  type ModelRequest,
} from '@parley/reference-server';
import { describe, expect, test } from 'vitest';

async function toolUses(text: string) {
  const model = createStandInModel({ directives: EXTENSION_DIRECTIVES });
  const request = {
    sessionId: 's',
    messages: [{ role: 'user', index: 0, content: [{ type: 'text', text }], deletedAt: null, createdAt: 0 }],
    system: undefined,
    tools: [],
    customizations: {},
    agentId: 'default',
    modelId: undefined,
    parameters: {},
    turn: 0,
    signal: new AbortController().signal,
    clock: new ManualClock(0),
  } satisfies ModelRequest;
  const starts: { name: string }[] = [];
  let input = '';
  for await (const event of model(request)) {
    if ('contentBlockStart' in event) starts.push(event.contentBlockStart.start.toolUse);
    if ('contentBlockDelta' in event && 'toolUse' in event.contentBlockDelta.delta) {
      input += event.contentBlockDelta.delta.toolUse.input;
    }
  }
  return { names: starts.map((s) => s.name), input };
}

describe('stand-in directives for extensions', () => {
  test('/search QUERY calls search_documents', async () => {
    expect(await toolUses('/search refund policy')).toEqual({
      names: ['search_documents'],
      input: '{"query":"refund policy"}',
    });
  });

  test('/mcp PROVIDER.TOOL {json} calls PROVIDER__TOOL', async () => {
    expect(await toolUses('/mcp erp.get_customer {"customerId":"C-1001"}')).toEqual({
      names: ['erp__get_customer'],
      input: '{"customerId":"C-1001"}',
    });
    expect((await toolUses('/mcp erp.list_products')).names).toEqual(['erp__list_products']);
  });

  test('malformed directives fail the model with the line', async () => {
    await expect(toolUses('/mcp erp')).rejects.toThrow(/line 1.*PROVIDER\.TOOL/);
    await expect(toolUses('/mcp erp.x {nope')).rejects.toThrow(/not valid JSON/);
    await expect(toolUses('/mcp erp.x [1]')).rejects.toThrow(/JSON object/);
    await expect(toolUses('/search ')).rejects.toThrow(/\/search QUERY/);
  });
});
