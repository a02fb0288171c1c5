import { APIError, type Parley, type RequestOptions } from '@parley/sdk';

/** Options of {@link summarize}. */
export interface SummarizeOptions extends RequestOptions {
  /** Attempts of the send when the service answers 503. Default 2. */
  attempts?: number;
}

/**
 * The "application" under test: asks the service for a summary of `text` in a new session.
 * A 503 means the service did not take the message, so sending it again is safe: it retries.
 */
export async function summarize(
  client: Parley,
  text: string,
  options: SummarizeOptions = {},
): Promise<string> {
  const { attempts = 2, ...requestOptions } = options;
  const { sessionId } = await client.sessions.create({ customizations: { agentId: 'assistant' } });
  for (let attempt = 1; ; attempt++) {
    try {
      const reply = await client.messages.send(sessionId, { content: `Summarize: ${text}` }, requestOptions);
      return reply.messages
        .filter((message) => message.role === 'assistant')
        .flatMap((message) => message.content)
        .map((block) => (block.type === 'text' ? block.text : ''))
        .join('');
    } catch (error) {
      if (error instanceof APIError && error.status === 503 && attempt < attempts) continue;
      throw error;
    }
  }
}
