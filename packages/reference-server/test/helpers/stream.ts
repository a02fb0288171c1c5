import type { StreamBody } from '@parley/protocol';

/** The kind (only key) of each event. */
export function kinds(body: StreamBody): string[] {
  return body.events.map((event) => Object.keys(event)[0] ?? '');
}

/** Reads a streamed body chunk by chunk until `until(textSoFar)` holds; returns the reader and text. */
export async function readUntil(response: Response, until: (text: string) => boolean) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!until(text)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`stream ended before the condition held: ${text}`);
    text += decoder.decode(value, { stream: true });
  }
  return {
    text,
    /** Reads the rest and parses the whole body. */
    async finish(): Promise<StreamBody> {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      return JSON.parse(text) as StreamBody;
    },
    reader,
  };
}

/** Lets pending I/O and microtasks run once (not a timed wait). */
export function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
