// The page: posts the user's text to the app's own route and reads the reply with the SDK in the
// browser. It never sees the Parley token; `MessageStream.fromReadableStream` reads what the route
// relays, with the same events and the same typed errors as a direct stream.
import { MessageStream, StreamError } from '@parley/sdk';

const form = document.querySelector<HTMLFormElement>('#chat');
const input = document.querySelector<HTMLTextAreaElement>('#content');
const log = document.querySelector<HTMLDivElement>('#log');
const errorLine = document.querySelector<HTMLParagraphElement>('#error');
let sessionId: string | undefined;

async function send(content: string): Promise<void> {
  if (!log || !errorLine) return;
  errorLine.textContent = '';
  const question = document.createElement('p');
  question.className = 'user';
  question.textContent = content;
  const answer = document.createElement('p');
  answer.className = 'assistant';
  log.append(question, answer);

  const response = await fetch('/api/chat', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sessionId, content }),
  });
  if (!response.ok || !response.body) {
    errorLine.textContent = `The app answered ${response.status}`;
    return;
  }
  const stream = MessageStream.fromReadableStream(response.body);
  stream.on('text', (delta) => answer.append(delta));
  try {
    await stream.done();
  } catch (error) {
    // The same class as on the server: a StreamError for a stream that broke, an APIError
    // subclass (NotFoundError, RateLimitError, ...) for a request the service refused.
    const name = error instanceof Error ? error.name : 'Error';
    errorLine.dataset.kind = name;
    errorLine.dataset.streamError = String(error instanceof StreamError);
    errorLine.textContent = `${name}: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    sessionId = stream.sessionId ?? sessionId;
  }
}

form?.addEventListener('submit', (event) => {
  event.preventDefault();
  const content = input?.value.trim() ?? '';
  if (input) input.value = '';
  if (content !== '') void send(content);
});
