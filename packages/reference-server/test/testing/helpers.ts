import { tick } from '../helpers/stream.js';

/** Reads one chunk of a body as text (undefined at its end). */
export async function readChunk(
  reader: ReadableStreamDefaultReader<Uint8Array>,
): Promise<string | undefined> {
  const { done, value } = await reader.read();
  return done ? undefined : new TextDecoder().decode(value);
}

/** Whether `promise` is still pending after pending I/O and microtasks ran a few times (no timed wait). */
export async function stillPending(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  for (let i = 0; i < 5; i++) await tick();
  return !settled;
}

/** Reads a whole body as text, or returns the error its read rejected with. */
export async function readAll(response: Response): Promise<{ text: string; error?: unknown }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text };
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    return { text, error };
  }
}
