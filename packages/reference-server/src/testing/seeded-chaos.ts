// Loaded when chaos is first set (fault-queue.ts): it imports only types from the modules of the
// first chunk, so a browser bundle that never uses chaos carries none of it.

import { seededRandom } from '../utils/seeded-random.js';
import type { ChaosKind, LatencyDistribution, ResolvedChaos } from './chaos-options.js';
import type { Fault } from './fault.js';

/** How the journal marks a fault seeded chaos gave (`entry.chaos`). */
export interface ChaosMark {
  kind: ChaosKind;
  seed: number;
  /** The request's number (from 0) among the same requests of its session: with the seed, it replays the draw. */
  n: number;
}

/** Sessions whose request counts chaos keeps; past them the oldest session's counts go. */
export const MAX_CHAOS_SESSIONS = 10_000;

/**
 * Seeded chaos: decides, for each matching request, whether it gets a fault and which. A request's
 * draw depends only on the seed, the request (method and path, with session and tool-call ids as
 * placeholders) and how many such requests its session made before: the same requests give the
 * same faults, whatever other sessions (other tests running alongside) do meanwhile.
 */
export class SeededChaos {
  /** Per session (`''` for requests outside one): requests made so far, by request key. */
  readonly #counts = new Map<string, Map<string, number>>();

  /** @param settings checked, with their defaults (`resolveChaos`). */
  constructor(readonly settings: ResolvedChaos) {}

  /**
   * The fault this request gets, with its mark for the journal; undefined for none. Called for
   * every request chaos matches (the caller checks `match`), so each one counts.
   */
  draw(method: string, pathname: string): { fault: Fault; mark: ChaosMark } | undefined {
    const { settings } = this;
    const { session, template } = requestKey(pathname);
    const key = `${method.toUpperCase()} ${template}`;
    const n = this.#count(session, key);
    const random = seededRandom(settings.seed, `${key}#${n}`);
    if (random() >= settings.rate) return undefined;
    // A cut needs a streamed body: other requests draw from the other kinds.
    const streamed = key.startsWith('POST ') && template.endsWith('/stream');
    const kinds = streamed ? settings.kinds : settings.kinds.filter((kind) => kind !== 'cut-after');
    const kind = kinds[Math.floor(random() * kinds.length)];
    if (kind === undefined) return undefined;
    return { fault: this.#fault(kind, random), mark: { kind, seed: settings.seed, n } };
  }

  #count(session: string, key: string): number {
    let counts = this.#counts.get(session);
    if (counts === undefined) {
      if (this.#counts.size >= MAX_CHAOS_SESSIONS)
        this.#counts.delete(this.#counts.keys().next().value ?? '');
      counts = new Map();
      this.#counts.set(session, counts);
    }
    const n = counts.get(key) ?? 0;
    counts.set(key, n + 1);
    return n;
  }

  #fault(kind: ChaosKind, random: () => number): Fault {
    const { settings } = this;
    switch (kind) {
      case 'status': {
        const status = settings.statuses[Math.floor(random() * settings.statuses.length)] ?? 503;
        return { status, retryAfterSeconds: settings.retryAfterSeconds };
      }
      case 'drop':
        return { drop: true };
      case 'cut-after':
        return { cutAfterEvents: settings.cutAfterEvents };
      case 'malformed':
        return { malformed: true };
      case 'latency':
        return { latencyMs: drawLatency(settings.latency, random) };
    }
  }
}

/** The longest wait drawn, as `validateChaos` allows for the inputs (a lognormal tail may go past it). */
const MAX_LATENCY_MS = 3_600_000;

/** One wait from the distribution, whole milliseconds from 0 to an hour. */
export function drawLatency(latency: LatencyDistribution, random: () => number): number {
  let ms: number;
  if (latency.distribution === 'fixed') ms = latency.ms;
  else if (latency.distribution === 'uniform') {
    ms = latency.minMs + Math.floor(random() * (latency.maxMs - latency.minMs + 1));
  } else {
    // Box-Muller: a standard normal from two uniforms (1 - u keeps the logarithm finite).
    const z = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    ms = latency.medianMs * Math.exp(latency.sigma * z);
  }
  return Math.min(MAX_LATENCY_MS, Math.max(0, Math.round(ms)));
}

/**
 * The session a protocol request is about and its path with ids as placeholders, e.g.
 * `/v1/messages/{sessionId}/stream`; `''` for a request outside a session (`/v1/sessions`).
 */
export function requestKey(pathname: string): { session: string; template: string } {
  const segments = pathname.split('/');
  if (segments[1] !== 'v1') return { session: '', template: pathname };
  const at = segments[2] === 'sessions' || segments[2] === 'messages' ? 3 : segments[2] === 'tools' ? 4 : -1;
  const session = at === -1 ? undefined : segments[at];
  if (session === undefined || session === '') return { session: '', template: pathname };
  segments[at] = '{sessionId}';
  if (at === 4 && segments[5] !== undefined && segments[5] !== '') segments[5] = '{requestId}';
  return { session, template: segments.join('/') };
}
