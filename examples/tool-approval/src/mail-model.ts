import { type Model, scriptedModel, turn } from '@parley/reference-server';
import type { Message } from '@parley/sdk';

const EMAIL_REQUEST = /^email\s+(\w+)\s*[:,]?\s+(.+)$/i;

/**
 * The model of the embedded server (the reference server has no real model): "email ada: the
 * build is green" looks the contact up and sends the email, with two tool calls, one per reply;
 * once the results are in it says what happened. Anything else gets a hint.
 */
export const mailModel: Model = scriptedModel((request) => {
  const last = request.messages.at(-1);
  if (last && hasToolResults(last)) return afterResults(request.messages);
  const text = userText(last);
  const email = EMAIL_REQUEST.exec(text);
  if (!email)
    return turn.text('Ask me to "email NAME: MESSAGE", for example "email ada: the build is green".');
  const name = email[1] ?? '';
  return turn.toolUse('lookup_contact', { name: name.toLowerCase() }, { text: `Looking up ${name}.` });
});

/** After a result: send the email once the address is known, else report how the send went. */
function afterResults(messages: readonly Message[]) {
  const results = toolResults(messages);
  const lookup = results.find((r) => r.name === 'lookup_contact');
  const sent = results.find((r) => r.name === 'send_email');
  if (sent) {
    return turn.text(sent.isError ? `I did not send it. ${sent.text}` : `Sent: ${sent.text}`);
  }
  if (!lookup || lookup.isError)
    return turn.text(`I could not find that contact. ${lookup?.text ?? ''}`.trim());
  const address = (JSON.parse(lookup.text) as { email: string }).email;
  const request = EMAIL_REQUEST.exec(lastRequest(messages)) ?? [];
  return turn.toolUse(
    'send_email',
    { to: address, body: request[2] ?? '' },
    { text: `Sending it to ${address}.` },
  );
}

interface Result {
  name: string;
  isError: boolean;
  text: string;
}

/** The results of the last tool round, named after their tool_use blocks. */
function toolResults(messages: readonly Message[]): Result[] {
  const names = new Map<string, string>();
  for (const message of messages) {
    for (const block of message.content) if (block.type === 'tool_use') names.set(block.id, block.name);
  }
  const last = messages.at(-1);
  return (last?.content ?? []).flatMap((block) =>
    block.type === 'tool_result'
      ? [
          {
            name: names.get(block.tool_use_id) ?? '?',
            isError: block.is_error,
            text: block.content
              .map((part) => (part.type === 'text' ? part.text : JSON.stringify(part.json)))
              .join(''),
          },
        ]
      : [],
  );
}

function hasToolResults(message: Message): boolean {
  return message.role === 'user' && message.content.some((block) => block.type === 'tool_result');
}

function userText(message: Message | undefined): string {
  return (message?.content ?? [])
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('')
    .trim();
}

/** The user's own request: the last user message with text (not a tool-result message). */
function lastRequest(messages: readonly Message[]): string {
  const request = [...messages].reverse().find((m) => m.role === 'user' && !hasToolResults(m));
  return userText(request);
}
