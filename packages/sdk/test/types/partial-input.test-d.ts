// Checked by `tsc -p packages/sdk`: each `@ts-expect-error` line must fail to compile.
import { defineTool, MessageStream, type Parley } from '@parley/sdk';
import { partialInput, toolInputDeltas } from '@parley/sdk/partial-input';
import { expectTypeOf } from 'vitest';
import { z } from 'zod';

declare const client: Parley;
declare const sessionId: string;

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Weather',
  input: z.object({ city: z.string(), days: z.number(), tags: z.array(z.string()) }),
  run: async () => ({}),
});

// With a record of tools, `partial` narrows on `name` to a deep-partial of that tool's input.
const typed = client.messages.stream(
  sessionId,
  { content: 'Hi' },
  { partialInput: partialInput({ get_weather: getWeather }) },
);
typed.on('toolInputDelta', (delta) => {
  expectTypeOf(delta.name).toEqualTypeOf<'get_weather'>();
  expectTypeOf(delta.partial.city).toEqualTypeOf<string | undefined>();
  expectTypeOf(delta.partial.days).toEqualTypeOf<number | undefined>();
  expectTypeOf(delta.partial.tags).toEqualTypeOf<string[] | undefined>();
  // @ts-expect-error not a member of the tool's input
  void delta.partial.country;
  // A snapshot has the type of `partial`.
  expectTypeOf(delta.snapshot()).toEqualTypeOf(delta.partial);
});

// A map of input types by name, type only.
const mapped = client.messages.stream(
  sessionId,
  { content: 'Hi' },
  {
    partialInput: partialInput<{ search: { query: string }; open: { url: string } }>(),
  },
);
mapped.on('toolInputDelta', (delta) => {
  if (delta.name === 'search') expectTypeOf(delta.partial).toEqualTypeOf<{ query?: string }>();
  else expectTypeOf(delta.partial).toEqualTypeOf<{ url?: string }>();
});

// The same items in a for await loop.
async function loop() {
  for await (const delta of toolInputDeltas(typed))
    expectTypeOf(delta.partial.city).toEqualTypeOf<string | undefined>();
}
void loop;

// Without a tool list: any tool, `partial` a record of unknown members.
const plain = client.messages.stream(sessionId, { content: 'Hi' }, { partialInput: partialInput() });
plain.on('toolInputDelta', ({ name, partial, fragment, toolUseId }) => {
  expectTypeOf(name).toEqualTypeOf<string>();
  expectTypeOf(fragment).toEqualTypeOf<string>();
  expectTypeOf(toolUseId).toEqualTypeOf<string>();
  expectTypeOf(partial).toEqualTypeOf<{ [x: string]: unknown }>();
});

// A relayed stream reads the same way.
declare const body: ReadableStream<Uint8Array>;
expectTypeOf(MessageStream.fromReadableStream(body)).toEqualTypeOf<MessageStream>();
expectTypeOf(client.messages.stream(sessionId, {}).toReadableStream()).toEqualTypeOf<
  ReadableStream<Uint8Array>
>();
