import {
  CHAOS_KINDS,
  type ChaosKind,
  type ChaosOptions,
  chaosMatches,
  type LatencyDistribution,
  MAX_CHAOS_LATENCY_MS,
  validateChaos,
} from './chaos-options.js';
import type { Fault } from './fault.js';
import { seededRandom } from './seeded-random.js';

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
  readonly options: ChaosOptions;
  readonly #kinds: readonly ChaosKind[];
  /** Per session (`''` for requests outside one): requests made so far, by request key. */
  readonly #counts = new Map<string, Map<string, number>>();

  constructor(options: ChaosOptions) {
    this.options = validateChaos({ ...options });
    this.#kinds = [...(options.kinds ?? CHAOS_KINDS)];
  }

  /** The fault this request gets, with its mark for the journal; undefined for none. */
  draw(method: string, pathname: string): { fault: Fault; mark: ChaosMark } | undefined {
    if (!chaosMatches(this.options, method, pathname)) return undefined;
    const { session, template } = requestKey(pathname);
    const key = `${method.toUpperCase()} ${template}`;
    const n = this.#count(session, key);
    const random = seededRandom(this.options.seed, `${key}#${n}`);
    if (random() >= this.options.rate) return undefined;
    // A cut needs a streamed body: other requests draw from the other kinds.
    const streamed = key.startsWith('POST ') && template.endsWith('/stream');
    const kinds = streamed ? this.#kinds : this.#kinds.filter((kind) => kind !== 'cut-after');
    const kind = kinds[Math.floor(random() * kinds.length)];
    if (kind === undefined) return undefined;
    return { fault: this.#fault(kind, random), mark: { kind, seed: this.options.seed, n } };
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
    const o = this.options;
    switch (kind) {
      case 'status': {
        const statuses =
          o.status === undefined ? [503] : typeof o.status === 'number' ? [o.status] : o.status;
        const status = statuses[Math.floor(random() * statuses.length)] ?? 503;
        return { status, retryAfterSeconds: o.retryAfterSeconds ?? 1 };
      }
      case 'drop':
        return { drop: true };
      case 'cut-after':
        return { cutAfterEvents: o.cutAfterEvents ?? 3 };
      case 'malformed':
        return { malformed: true };
      case 'latency':
        return { latencyMs: drawLatency(o.latency ?? { distribution: 'fixed', ms: 1000 }, random) };
    }
  }
}

/** One wait from the distribution, whole milliseconds within 0 and {@link MAX_CHAOS_LATENCY_MS}. */
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
  return Math.min(MAX_CHAOS_LATENCY_MS, Math.max(0, Math.round(ms)));
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
