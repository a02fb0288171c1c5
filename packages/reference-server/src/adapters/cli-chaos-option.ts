import { InvalidArgumentError } from 'commander';
import {
  CHAOS_KINDS,
  type ChaosKind,
  type ChaosOptions,
  type LatencyDistribution,
  validateChaos,
} from '../testing/chaos-options.js';

const KEYS = ['rate', 'seed', 'kinds', 'status', 'retry-after', 'cut-after', 'latency', 'method', 'path'];

/**
 * `--chaos`: comma-separated `key=value` items, e.g.
 * `rate=0.05,seed=42,kinds=status+latency,latency=lognormal:200:0.5,path=/v1/messages/*`.
 * `rate` (0 to 1, or a percentage) and `seed` are required; lists take `+` between items. Anything
 * else, misspelt or out of range, is an error naming it: never a silent default.
 */
export function parseChaos(value: string): ChaosOptions {
  const items = new Map<string, string>();
  for (const raw of value.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    const at = item.indexOf('=');
    const key = at === -1 ? item : item.slice(0, at).trim();
    if (!KEYS.includes(key)) throw bad(`"${key}" is not a chaos setting; use ${KEYS.join(', ')}`);
    if (at === -1 || item.slice(at + 1).trim() === '') throw bad(`${key} needs a value (${key}=...)`);
    if (items.has(key)) throw bad(`${key} is given twice`);
    items.set(key, item.slice(at + 1).trim());
  }
  const rate = items.get('rate');
  const seed = items.get('seed');
  if (rate === undefined || seed === undefined) {
    throw bad('needs rate= and seed= (e.g. rate=0.05,seed=42): the seed makes a failing run repeatable');
  }
  const options: ChaosOptions = { rate: parseRate(rate), seed: integer('seed', seed) };
  const kinds = items.get('kinds');
  if (kinds !== undefined) options.kinds = kinds.split('+').map((kind) => kind.trim() as ChaosKind);
  const status = items.get('status');
  if (status !== undefined) options.status = status.split('+').map((s) => integer('status', s));
  const retryAfter = items.get('retry-after');
  if (retryAfter !== undefined) options.retryAfterSeconds = integer('retry-after', retryAfter);
  const cutAfter = items.get('cut-after');
  if (cutAfter !== undefined) options.cutAfterEvents = integer('cut-after', cutAfter);
  const latency = items.get('latency');
  if (latency !== undefined) options.latency = parseLatency(latency);
  const method = items.get('method');
  const path = items.get('path');
  if (method !== undefined || path !== undefined) {
    options.match = { ...(method === undefined ? {} : { method }), ...(path === undefined ? {} : { path }) };
  }
  try {
    return validateChaos(options);
  } catch (error) {
    throw bad((error as Error).message.replace(/^Chaos /, ''));
  }
}

/** The start line's note: `5% of requests (status, latency), seed 42`. */
export function chaosNote(options: ChaosOptions): string {
  const match = [options.match?.method, options.match?.path].filter((part) => part !== undefined);
  return (
    `chaos:          ${+(options.rate * 100).toFixed(4)}% of ${match.length > 0 ? `${match.join(' ')} ` : ''}requests ` +
    `(${(options.kinds ?? CHAOS_KINDS).join(', ')}), seed ${options.seed}`
  );
}

/** `0.05` or `5%`. */
function parseRate(text: string): number {
  const percent = text.endsWith('%');
  const number = Number(percent ? text.slice(0, -1) : text);
  if (text === '' || !Number.isFinite(number))
    throw bad(`rate "${text}" must be a number from 0 to 1, or a percentage`);
  return percent ? number / 100 : number;
}

/** `200` or `fixed:200`, `uniform:MIN:MAX`, `lognormal:MEDIAN:SIGMA` (milliseconds). */
function parseLatency(text: string): LatencyDistribution {
  const [name = '', ...args] = text.split(':');
  if (/^\d+$/.test(name) && args.length === 0) return { distribution: 'fixed', ms: Number(name) };
  const expect = (count: number, form: string) => {
    if (args.length !== count) throw bad(`latency "${text}" must be ${form}`);
  };
  if (name === 'fixed') {
    expect(1, 'fixed:MS');
    return { distribution: 'fixed', ms: integer('latency', args[0] ?? '') };
  }
  if (name === 'uniform') {
    expect(2, 'uniform:MIN_MS:MAX_MS');
    return {
      distribution: 'uniform',
      minMs: integer('latency', args[0] ?? ''),
      maxMs: integer('latency', args[1] ?? ''),
    };
  }
  if (name === 'lognormal') {
    expect(2, 'lognormal:MEDIAN_MS:SIGMA');
    const sigma = Number(args[1]);
    if (args[1] === '' || !Number.isFinite(sigma)) throw bad(`latency sigma "${args[1]}" must be a number`);
    return { distribution: 'lognormal', medianMs: integer('latency', args[0] ?? ''), sigma };
  }
  throw bad(`latency "${text}" must be MS, fixed:MS, uniform:MIN_MS:MAX_MS or lognormal:MEDIAN_MS:SIGMA`);
}

function integer(key: string, text: string): number {
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(Number(text)))
    throw bad(`${key} "${text}" must be an integer`);
  return Number(text);
}

function bad(why: string): InvalidArgumentError {
  return new InvalidArgumentError(`${why}.`);
}
