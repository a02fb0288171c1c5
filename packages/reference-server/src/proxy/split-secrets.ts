import type { SecretRedactor } from './secret-redactor.js';

type TimedEvent = { atMs: number; event: Record<string, unknown> };

/**
 * A secret the upstream streamed in pieces (a model's text or tool input split over several
 * deltas) passes the byte redaction: in the events told to observers (what a cassette replays),
 * the deltas of such a block become one delta of the redacted text, at the last one's time.
 */
export function redactSplitSecrets(events: TimedEvent[], redactor: SecretRedactor): TimedEvent[] {
  if (!redactor.active) return events;
  const blocks = new Map<string, number[]>();
  let message = 0;
  events.forEach(({ event }, i) => {
    if ('messageStart' in event) message++;
    const piece = deltaPiece(event);
    if (piece === undefined) return;
    const key = `${message}:${piece.block}:${piece.kind}`;
    const at = blocks.get(key);
    if (at === undefined) blocks.set(key, [i]);
    else at.push(i);
  });
  const dropped = new Set<number>();
  const out = [...events];
  for (const indexes of blocks.values()) {
    if (indexes.length < 2) continue;
    const pieces = indexes.map((i) => deltaPiece((events[i] as TimedEvent).event) as DeltaPiece);
    const joined = pieces.map((p) => p.text).join('');
    const redacted = redactor.text(joined);
    if (redacted === joined) continue;
    const last = indexes.at(-1) as number;
    for (const i of indexes) if (i !== last) dropped.add(i);
    const { kind, block } = pieces[0] as DeltaPiece;
    const delta = kind === 'text' ? { text: redacted } : { toolUse: { input: redacted } };
    out[last] = {
      atMs: (events[last] as TimedEvent).atMs,
      event: { contentBlockDelta: { contentBlockIndex: block, delta } },
    };
  }
  return dropped.size === 0 ? out : out.filter((_, i) => !dropped.has(i));
}

interface DeltaPiece {
  kind: 'text' | 'toolUse';
  block: unknown;
  text: string;
}

function deltaPiece(event: Record<string, unknown>): DeltaPiece | undefined {
  const payload = event.contentBlockDelta as { contentBlockIndex?: unknown; delta?: unknown } | undefined;
  if (typeof payload !== 'object' || payload === null) return undefined;
  const delta = payload.delta as { text?: unknown; toolUse?: { input?: unknown } } | undefined;
  if (typeof delta?.text === 'string') {
    return { kind: 'text', block: payload.contentBlockIndex, text: delta.text };
  }
  const input = delta?.toolUse?.input;
  if (typeof input === 'string') return { kind: 'toolUse', block: payload.contentBlockIndex, text: input };
  return undefined;
}
