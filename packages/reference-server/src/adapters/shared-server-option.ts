import { SERVER_OPTION_KEYS } from '../reference-server-options.js';
import { SHARED_SERVER_HINT, type SharedServerOptions } from './shared-server.js';

/** The options that choose a shared server: `serverUrl`, or `mode: 'shared'` (then `PARLEY_BASE_URL`). */
interface SharedChoice {
  mode?: string | undefined;
  serverUrl?: string | undefined;
  controlToken?: string | undefined;
  resetAfterEach?: boolean | undefined;
  cassette?: unknown;
}

// What a shared server's test may still give: the rest are the shared server's own options.
const ALLOWED_WITH_SHARED = new Set(['controlToken']);

/**
 * The shared server a helper's options ask for (`serverUrl` given, even undefined, or `mode:
 * 'shared'`), or undefined for a server of its own. Never falls back to a server of its own: a
 * shared config without a URL, or with options only a server of its own takes, fails here.
 */
export function sharedServerOf(
  caller: string,
  options: SharedChoice & object,
  env: Readonly<Record<string, string | undefined>>,
): SharedServerOptions | undefined {
  if (!('serverUrl' in options) && options.mode !== 'shared') return undefined;
  const baseUrl = options.serverUrl ?? env.PARLEY_BASE_URL;
  if (baseUrl === undefined || baseUrl === '') {
    throw new TypeError(
      `${caller}: a shared server needs its URL: pass serverUrl, or set PARLEY_BASE_URL; ${SHARED_SERVER_HINT}`,
    );
  }
  const controlToken = options.controlToken ?? env.PARLEY_CONTROL_TOKEN;
  if (controlToken === undefined || controlToken === '') {
    throw new TypeError(
      `${caller}: the shared server at ${baseUrl} needs its control token: pass controlToken, or set ` +
        `PARLEY_CONTROL_TOKEN; ${SHARED_SERVER_HINT}`,
    );
  }
  const own = Object.keys(options).filter(
    (key) => key in SERVER_OPTION_KEYS && !ALLOWED_WITH_SHARED.has(key),
  );
  if (options.cassette !== undefined) own.push('cassette');
  if (options.resetAfterEach === false) own.push('resetAfterEach');
  if (own.length > 0) {
    throw new TypeError(
      `${caller}: ${own.join(', ')} ${own.length === 1 ? 'is an option' : 'are options'} of a server of the ` +
        "file's own, not of a shared one (serverUrl): give it to the shared server (parley-server run " +
        '--control ...), where it applies to every test; each test has a scope of its own there',
    );
  }
  return { baseUrl, controlToken, ...(env.PARLEY_TOKEN ? { token: env.PARLEY_TOKEN } : {}) };
}
