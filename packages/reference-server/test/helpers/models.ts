import type { Model, ModelEvent, ModelRequest } from '@parley/reference-server';

/** A deferred promise the test settles. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A model that yields raw events given per call (one array per call, the last repeated). */
export function eventsModel(...calls: ModelEvent[][]): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  const model = async function* (request: ModelRequest) {
    requests.push(request);
    const events = calls[Math.min(requests.length - 1, calls.length - 1)] ?? [];
    for (const event of events) yield event;
  };
  return Object.assign(model, { requests });
}

/** Text answer events. */
export function textEvents(...chunks: string[]): ModelEvent[] {
  return [
    { messageStart: { role: 'assistant' } },
    ...chunks.map((text) => ({ contentBlockDelta: { contentBlockIndex: 0, delta: { text } } })),
    { contentBlockStop: { contentBlockIndex: 0 } },
    { messageStop: { stopReason: 'end_turn' } },
  ];
}

/** Tool-use events, one block per tool. */
export function toolEvents(
  ...uses: Array<{ id: string; name: string; input?: object | string }>
): ModelEvent[] {
  const events: ModelEvent[] = [{ messageStart: { role: 'assistant' } }];
  uses.forEach((use, i) => {
    events.push({
      contentBlockStart: { contentBlockIndex: i, start: { toolUse: { toolUseId: use.id, name: use.name } } },
    });
    const json = typeof use.input === 'string' ? use.input : JSON.stringify(use.input ?? {});
    const half = Math.floor(json.length / 2);
    for (const input of [json.slice(0, half), json.slice(half)]) {
      events.push({ contentBlockDelta: { contentBlockIndex: i, delta: { toolUse: { input } } } });
    }
    events.push({ contentBlockStop: { contentBlockIndex: i } });
  });
  events.push({ messageStop: { stopReason: 'tool_use' } });
  return events;
}

/**
 * A model whose first call yields messageStart and one text delta, then waits for `release` before
 * finishing: lets a test observe the stream mid-reply without sleeping.
 */
export function gatedModel() {
  const gate = deferred();
  const firstEventSent = deferred();
  const model: Model = async function* (request) {
    yield { messageStart: { role: 'assistant' } };
    yield { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'first ' } } };
    firstEventSent.resolve();
    await new Promise<void>((resolve, reject) => {
      gate.promise.then(resolve, reject);
      request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
    });
    yield { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'second' } } };
    yield { contentBlockStop: { contentBlockIndex: 0 } };
    yield { messageStop: { stopReason: 'end_turn' } };
  };
  return {
    model,
    release: () => gate.resolve(),
    fail: (e: unknown) => gate.reject(e),
    firstEventSent: firstEventSent.promise,
  };
}
