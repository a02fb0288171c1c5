import type { Hono } from 'hono';
import type { AppEnv } from '../server-context.js';

/** The path of the readiness check: always served, outside `/v1`, without authentication. */
export const HEALTH_PATH = '/healthz';

/**
 * `GET /healthz` (and `HEAD`): `200 { "status": "ok" }` once the server answers requests. For
 * container and CI readiness checks; it needs no token and tells nothing about sessions or users.
 */
export function registerHealthRoute(app: Hono<AppEnv>): void {
  app.get(HEALTH_PATH, (c) => {
    c.header('cache-control', 'no-store');
    return c.json({ status: 'ok' }, 200);
  });
}
