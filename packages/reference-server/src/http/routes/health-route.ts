import type { Hono } from 'hono';
import { HttpError } from '../../http-error.js';
import type { AppEnv } from '../server-context.js';

/** The path of the liveness check: always served, outside `/v1`, without authentication. */
export const HEALTH_PATH = '/healthz';
/** The path of the readiness check: the cassette loaded, the upstream answered. */
export const READY_PATH = '/readyz';

/** `/healthz` and `/readyz`: answered by the core alone (no scope, journal or fault). */
export function isProbePath(pathname: string): boolean {
  return pathname === HEALTH_PATH || pathname === READY_PATH;
}

/**
 * `GET /healthz` (and `HEAD`): `200 { "status": "ok" }` once the server answers requests. For
 * container and CI readiness checks; it needs no token and tells nothing about sessions or users.
 */
export function registerHealthRoute(
  app: Hono<AppEnv>,
  ready: () => Promise<string | undefined> = async () => undefined,
): void {
  app.get(HEALTH_PATH, (c) => {
    c.header('cache-control', 'no-store');
    return c.json({ status: 'ok' }, 200);
  });
  // `GET /readyz`: 200 once what the server needs is there, `503 not_ready` with the reason before.
  app.get(READY_PATH, async (c) => {
    const reason = await ready();
    if (reason !== undefined) {
      throw new HttpError('not_ready', `Not ready: ${reason}`, { headers: { 'cache-control': 'no-store' } });
    }
    c.header('cache-control', 'no-store');
    return c.json({ status: 'ready' }, 200);
  });
}
