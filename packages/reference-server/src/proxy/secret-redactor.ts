// The secrets the checking proxy holds for its upstream (the upstream token, the URL's password) and
// the token it passes on: kept out of everything the proxy answers, journals and records.

/** What a secret the upstream reflected is replaced with. */
export const REDACTED_SECRET = '[REDACTED]';

/** Secrets shorter than this are masked in the URL only: searched for in bodies they would hit ordinary text. */
export const MIN_REDACTED_SECRET_CHARS = 8;

/**
 * The redactor of each request: `fixed` secrets (the URL's password) and the upstream token, or,
 * when the client's token passes through, that token (a redactor per token, a few kept).
 */
export function secretRedactors(
  upstreamToken: string | undefined,
  fixed: readonly string[],
): (passedToken: string | undefined) => SecretRedactor {
  const always = new SecretRedactor([upstreamToken, ...fixed]);
  const byToken = new Map<string, SecretRedactor>();
  return (passed) => {
    if (passed === undefined || upstreamToken !== undefined) return always;
    let redactor = byToken.get(passed);
    if (redactor === undefined) {
      if (byToken.size >= 16) byToken.clear();
      redactor = new SecretRedactor([passed, ...fixed]);
      byToken.set(passed, redactor);
    }
    return redactor;
  };
}

/** What {@link SecretRedactor.reader} reads from and gives: a stream's reader, as far as the proxy uses it. */
export interface ChunkReader {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  cancel(reason?: unknown): Promise<void>;
}

const utf8 = new TextEncoder();
const REDACTED_BYTES = utf8.encode(REDACTED_SECRET);

/**
 * Replaces secrets with {@link REDACTED_SECRET} in text, bytes (any encoding: UTF-8 bytes are
 * searched) and a stream of chunks (a secret split across chunks included). Secrets shorter than
 * {@link MIN_REDACTED_SECRET_CHARS} are not searched for.
 */
export class SecretRedactor {
  readonly #texts: string[];
  readonly #needles: Uint8Array[];
  readonly #longest: number;

  constructor(secrets: Iterable<string | undefined>) {
    const kept = new Set<string>();
    for (const secret of secrets) {
      if (secret !== undefined && secret.length >= MIN_REDACTED_SECRET_CHARS) kept.add(secret);
    }
    // Longest first: where two secrets start at the same place, the longer one is replaced.
    this.#texts = [...kept].sort((a, b) => b.length - a.length);
    this.#needles = this.#texts.map((text) => utf8.encode(text));
    this.#longest = Math.max(0, ...this.#needles.map((needle) => needle.length));
  }

  /** Whether there is any secret to look for. */
  get active(): boolean {
    return this.#texts.length > 0;
  }

  text(text: string): string {
    let out = text;
    for (const secret of this.#texts) if (out.includes(secret)) out = out.replaceAll(secret, REDACTED_SECRET);
    return out;
  }

  /** Header fields with each value redacted (the same object when nothing was found). */
  fields(fields: Record<string, string>): Record<string, string> {
    let out: Record<string, string> | undefined;
    for (const name in fields) {
      const value = fields[name] as string;
      const redacted = this.text(value);
      if (redacted !== value) {
        out ??= { ...fields };
        out[name] = redacted;
      }
    }
    return out ?? fields;
  }

  /** The bytes with every secret replaced (the same array when none is there). */
  bytes(bytes: Uint8Array): Uint8Array {
    let parts: Uint8Array[] | undefined;
    let from = 0;
    for (;;) {
      const found = this.#next(bytes, from);
      if (found === undefined) break;
      parts ??= [];
      parts.push(bytes.subarray(from, found.at), REDACTED_BYTES);
      from = found.at + found.length;
    }
    if (parts === undefined) return bytes;
    parts.push(bytes.subarray(from));
    return concat(parts);
  }

  /**
   * A reader giving `inner`'s chunks redacted: the end of a chunk that may begin a secret is held
   * back until the next chunk tells (at most the longest secret's length less one byte).
   */
  reader(inner: ChunkReader): ChunkReader {
    if (!this.active) return inner;
    let held: Uint8Array = new Uint8Array(0);
    let done = false;
    return {
      read: async () => {
        for (;;) {
          if (done) return { done: true, value: undefined };
          const result = await inner.read();
          if (result.done) {
            done = true;
            if (held.length === 0) return result;
            const rest = held;
            held = new Uint8Array(0);
            return { done: false, value: rest };
          }
          const replaced = this.bytes(held.length === 0 ? result.value : concat([held, result.value]));
          const keep = this.#partialSuffix(replaced);
          held = replaced.slice(replaced.length - keep);
          if (replaced.length > keep)
            return { done: false, value: replaced.subarray(0, replaced.length - keep) };
        }
      },
      cancel: (reason) => inner.cancel(reason),
    };
  }

  /** The first secret at or after `from` (the longest where two start at once). */
  #next(bytes: Uint8Array, from: number): { at: number; length: number } | undefined {
    let best: { at: number; length: number } | undefined;
    for (const needle of this.#needles) {
      const at = indexOfBytes(bytes, needle, from);
      if (at !== -1 && (best === undefined || at < best.at)) best = { at, length: needle.length };
    }
    return best;
  }

  /** How many bytes at the end of `bytes` are the start of a secret. */
  #partialSuffix(bytes: Uint8Array): number {
    const most = Math.min(this.#longest - 1, bytes.length);
    for (let keep = most; keep > 0; keep--) {
      const start = bytes.length - keep;
      for (const needle of this.#needles) {
        if (needle.length > keep && startsWith(needle, bytes, start)) return keep;
      }
    }
    return 0;
  }
}

/** Where `needle` first occurs in `bytes` at or after `from`, or -1. */
function indexOfBytes(bytes: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0] as number;
  const last = bytes.length - needle.length;
  for (let at = bytes.indexOf(first, from); at !== -1 && at <= last; at = bytes.indexOf(first, at + 1)) {
    let i = 1;
    while (i < needle.length && bytes[at + i] === needle[i]) i++;
    if (i === needle.length) return at;
  }
  return -1;
}

/** Whether `bytes` from `start` to its end is the start of `needle`. */
function startsWith(needle: Uint8Array, bytes: Uint8Array, start: number): boolean {
  for (let i = start; i < bytes.length; i++) if (bytes[i] !== needle[i - start]) return false;
  return true;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
