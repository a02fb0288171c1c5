// A streamed chat in a browser: what `import { Parley } from '@parley/sdk'` costs a chat app.
import { APIError, Parley } from '@parley/sdk';

const client = new Parley({ baseUrl: 'https://parley.example', token: 'token' });
const { sessionId } = await client.sessions.create();
const stream = client.messages.stream(sessionId, { content: 'Hello' });
stream.on('text', (delta) => document.body.append(delta));
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
