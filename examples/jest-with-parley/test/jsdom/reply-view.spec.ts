import { expect, it } from '@jest/globals';
import { turn } from '@parley/reference-server';
import { useReferenceServer } from '@parley/reference-server/jest';
import { Parley } from '@parley/sdk';

// In jsdom, with the environment that keeps Node's fetch and streams: a "component" that renders a
// streamed reply into the document as it arrives.
const parley = useReferenceServer({ createClient: (init) => new Parley(init) });

async function renderReply(client: Parley, root: HTMLElement, content: string): Promise<void> {
  const { sessionId } = await client.sessions.create();
  const stream = client.messages.stream(sessionId, { content });
  stream.on('text', (delta) => root.append(delta));
  await stream.finalText();
}

it('renders a streamed reply into the document', async () => {
  parley.server.script([turn.text('Hello from the reference server.')]);
  document.body.innerHTML = '<p id="reply"></p>';
  const root = document.getElementById('reply') as HTMLElement;
  await renderReply(parley.client, root, 'Hi');
  expect(root.textContent).toBe('Hello from the reference server.');
  expect(parley.server).toHaveReceived({ method: 'POST', path: '/v1/messages/*/stream' }, { times: 1 });
});
