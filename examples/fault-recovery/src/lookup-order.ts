import { defineTool, jsonSchema } from '@parley/sdk';

/** The example's one tool: looks an order up in a fixed table. */
export const lookupOrder = defineTool({
  name: 'lookup_order',
  description: 'The status of an order, by its id',
  input: jsonSchema<{ id: string }>({
    type: 'object',
    properties: { id: { type: 'string' } },
    required: ['id'],
  }),
  run: ({ id }) => ({ id, status: id === 'A-17' ? 'shipped' : 'unknown' }),
});
