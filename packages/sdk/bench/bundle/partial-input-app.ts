// A chat app that renders tool input as it streams: the chat app plus `@parley/sdk/partial-input`
// (the SDK's partial JSON parser, built on @streamparser/json).
import { APIError, Parley } from '@parley/sdk';
import { partialInput } from '@parley/sdk/partial-input';

const client = new Parley({ baseUrl: 'https://parley.example', token: 'token' });
const { sessionId } = await client.sessions.create();
const stream = client.messages.stream(sessionId, { content: 'Hello' }, { partialInput: partialInput() });
stream.on('text', (delta) => document.body.append(delta));
stream.on('toolInputDelta', ({ name, partial }) => {
  document.title = `${name} ${JSON.stringify(partial)}`;
});
for await (const event of stream) if (event.type === 'unknown') console.debug(event.kind);
try {
  console.log(
    await stream.finalReply(),
    await client.sessions.list(),
    await client.messages.export(sessionId),
  );
} catch (error) {
  if (error instanceof APIError) console.error(error.requestId);
}
await client.sessions.delete(sessionId);
