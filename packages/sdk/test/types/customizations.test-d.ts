// Checked by `tsc -p packages/sdk`: each `@ts-expect-error` line must fail to compile.
import { type CreateSessionParams, defineTool, type Parley, type StreamEventItem } from '@parley/sdk';
import { z } from 'zod';

declare const client: Parley;

// Simple, Full and Minimal compile.
void client.sessions.create({ customizations: { agentId: 'support', product: 'web' } });
void client.sessions.create({
  customizations: { model: 'claude-sonnet', extensions: { mcpProviders: ['erp'] } },
});
void client.sessions.create({
  customizations: { sessionData: { plan: 'pro' }, extensions: { rag: { maxResults: 3 } } },
});
void client.sessions.create({});
void client.sessions.create();

// @ts-expect-error agentId and model are mutually exclusive
void client.sessions.create({ customizations: { agentId: 'support', model: 'claude-sonnet' } });

// @ts-expect-error sessionData belongs to the Minimal variant only
void client.sessions.create({ customizations: { agentId: 'support', sessionData: {} } });

// @ts-expect-error sessionData belongs to the Minimal variant only
const full: CreateSessionParams = { customizations: { model: 'm', sessionData: 1 } };
void full;

// @ts-expect-error unknown customization fields do not compile
void client.sessions.create({ customizations: { agentID: 'support' } });

// @ts-expect-error extensions.tools values must be ToolDefinitions
void client.sessions.create({ customizations: { extensions: { tools: { weather: { name: 'weather' } } } } });

// Tools defined with the SDK go straight into customizations.extensions.tools.
const weather = defineTool({
  name: 'get_weather',
  description: 'Weather for a city',
  input: z.object({ city: z.string() }),
  run: async ({ city }) => ({ city, temperatureC: 18 }),
});
void client.sessions.create({
  customizations: { agentId: 'support', extensions: { tools: { get_weather: weather.definition } } },
});

// Message content is a string or text blocks.
void client.messages.send('s', { content: [{ type: 'text', text: 'hi' }] });
const toolResult = { type: 'tool_result', tool_use_id: 'x', content: [], is_error: false } as const;
// @ts-expect-error clients cannot author tool_result blocks
void client.messages.send('s', { content: [toolResult] });

// Stream events narrow on `type`.
declare const event: StreamEventItem;
if (event.type === 'messageStart') {
  const index: number = event.index;
  void index;
}
if (event.type === 'unknown') {
  const kind: string = event.kind;
  void kind;
}
// @ts-expect-error `index` is only on messageStart
void event.index;
