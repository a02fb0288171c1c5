// What a failed fetch says, in words: runtimes put the system error code a few causes deep
// (undici: TypeError "fetch failed" → Error { code: 'ECONNREFUSED' }, or an AggregateError of one
// per address). `systemErrorCode` is the one walk over those causes: the message and the retry
// decision both start from its answer.

const CODES: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ENOTFOUND: 'the host name was not found (DNS)',
  EAI_AGAIN: 'the host name could not be resolved now (DNS)',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'connecting timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connecting timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  UND_ERR_SOCKET: 'the server closed the connection',
  EPIPE: 'the server closed the connection',
};

/** Codes after which the server most likely does not run at the base URL. */
const NOT_THERE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Codes that prove the request never reached a server (refused connection, DNS failure), so even a
 * request that is not safe to repeat may be sent again.
 */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * What {@link systemErrorCode} returns for fetch refusing to follow a redirect: every request is
 * sent with `redirect: 'error'` (undici: TypeError "fetch failed" → Error "unexpected redirect").
 */
export const REDIRECT = 'redirect';

/**
 * The first system error code in `error`'s cause chain (or in an AggregateError's errors: undici
 * gathers one per address it tried to connect to), or {@link REDIRECT}.
 */
export function systemErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth++) {
    if ((current as { message?: unknown }).message === 'unexpected redirect') return REDIRECT;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && Object.hasOwn(CODES, code)) return code;
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors)) {
      for (const inner of errors) {
        const found = systemErrorCode(inner);
        if (found) return found;
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** True when `code` (from {@link systemErrorCode}) proves the request never reached a server. */
export function neverSent(code: string | undefined): boolean {
  return code !== undefined && NEVER_SENT.has(code);
}

/**
 * The message of an `APIConnectionError`: what failed, and what to check. `code` is
 * {@link systemErrorCode}'s answer for `error`.
 * `Could not connect to the server: the connection was refused (ECONNREFUSED) (POST http://127.0.0.1:4010/v1/sessions). Check that the server runs at the base URL http://127.0.0.1:4010.`
 */
export function connectionFailureMessage(
  code: string | undefined,
  error: unknown,
  where: string,
  baseUrl: string,
  hint: string,
): string {
  if (code === REDIRECT) {
    // Why not follow it (a redirected POST can come back as a GET without its body): docs/sdk.md.
    return `The server answered with a redirect (${where}), which the SDK does not follow: set the base URL to where the service answers.${hint}`;
  }
  const detail = error instanceof Error ? error.message : String(error);
  const what = code ? `${CODES[code]} (${code})` : detail;
  const check =
    code === undefined || NOT_THERE.has(code)
      ? ` Check that the server runs at the base URL ${baseUrl}.`
      : '';
  return `Could not connect to the server: ${what} (${where}).${check}${hint}`;
}

/**
 * A hint for a base URL that ends in `/v1`: the SDK appends `/v1/...` itself, so requests would go
 * to `/v1/v1/...`. Empty otherwise.
 */
export function baseUrlHint(baseUrl: string): string {
  let path: string;
  try {
    path = new URL(baseUrl).pathname;
  } catch {
    return '';
  }
  if (!/\/v1\/*$/.test(path)) return '';
  const suggested = baseUrl.replace(/\/v1\/*$/, '');
  return ` The base URL ends in /v1, and the SDK adds /v1/... to every path: use ${suggested} instead.`;
}
