import { Hono } from 'hono';
import type { SessionStore } from '../conversation/session-store.js';
import { readJsonBody } from '../http/json-body.js';
import type { User } from '../http/token-auth.js';
import { HttpError, isHttpError } from '../http-error.js';
import { loadScript } from '../model/script-file.js';
import type { Clock } from '../time/clock.js';
import { testIdWithoutAttempt } from '../utils/test-id.js';
import { TEST_STATUSES, type TestStatus } from '../utils/test-status.js';
import { type ControlTokenCheck, controlAccess, isJsonContentType } from './control-access.js';
import { CONTROL_PREFIX } from './control-prefix.js';
import type { QueuedFault } from './fault-queue.js';
import type { JournalFilter } from './journal.js';
import type { Scope } from './scope.js';
import type { ScopeRegistry } from './scope-registry.js';
import { snapshotSessions } from './session-snapshot.js';

/**
 * What the control routes act on. Each request acts on its scope (`x-parley-test-id`, resolved at
 * the edge): its journal, faults, script, sessions and reset.
 */
export interface ControlTarget {
  clock: Clock;
  users: readonly User[];
  sessions: SessionStore;
  scopes: ScopeRegistry;
  /**
   * What the request's control token says (every route but the journal page's shell needs the
   * right one), once a wrong one's wait is over: repeated wrong ones are answered slowly.
   */
  checkControlToken(request: Request): Promise<ControlTokenCheck>;
  /** As a checking proxy: its report (`GET /_parley/proxy/report`). */
  proxyReport?: () => unknown;
  /** With a cassette: a test (its id without the run) began or ended (`POST /_parley/cassette/outcome`). */
  testStatus?: (test: string, status: TestStatus) => void;
}

/** The journal page's shell: static HTML that holds no data, served without the control token. */
const PAGE_PATHS = new Set([`${CONTROL_PREFIX}/ui`, `${CONTROL_PREFIX}/ui/`]);
const RESET_PATH = `${CONTROL_PREFIX}/reset`;

/**
 * The test-only control and inspection routes, `/_parley/...`. Each needs the control token in the
 * `x-parley-control-token` header (the journal page's shell excepted) and takes JSON bodies only.
 */
export function createControlRoutes(
  target: ControlTarget,
): (request: Request, scope: Scope) => Promise<Response> {
  const app = new Hono<{ Bindings: { scope: Scope } }>().basePath(CONTROL_PREFIX);
  const isPage = (method: string, path: string) =>
    (method === 'GET' || method === 'HEAD') && PAGE_PATHS.has(path);
  app.use(
    '*',
    controlAccess((request) => target.checkControlToken(request), isPage),
    // A control request sets its test up: its scope is registered (again, after a removal). A reset
    // of a scope the server does not hold makes none.
    async (c, next) => {
      if (!isPage(c.req.method, c.req.path) && c.req.path !== RESET_PATH) {
        c.env.scope = target.scopes.admit(c.env.scope);
      }
      await next();
    },
  );
  const jsonBody = async (request: Request, limit: number): Promise<unknown> => {
    if (!isJsonContentType(request)) {
      throw new HttpError('unsupported_media_type', 'The body must be JSON (content-type: application/json)');
    }
    return readJsonBody(request, limit);
  };
  const requireUser = (name: string | undefined) => {
    if (name !== undefined && !target.users.some((u) => u.name === name)) {
      throw new HttpError('invalid_request', `user: no user named ${JSON.stringify(name)}`, {
        details: { issues: [{ path: 'user', message: 'no such user' }] },
      });
    }
    return name;
  };

  app.get('/health', (c) =>
    c.json({
      status: 'ok',
      time: target.clock.now(),
      sessions: target.sessions.size,
      users: target.users.map((u) => u.name),
    }),
  );

  app.post('/reset', (c) => {
    const user = requireUser(c.req.query('user'));
    target.scopes.reset(c.env.scope, { user });
    return c.json({ reset: user ?? 'all' });
  });

  app.get('/journal', (c) => {
    const filter: JournalFilter = {};
    const session = c.req.query('session');
    const path = c.req.query('path');
    const method = c.req.query('method');
    const user = c.req.query('user');
    if (session !== undefined) filter.sessionId = session;
    if (path !== undefined) filter.path = path;
    if (method !== undefined) filter.method = method;
    if (user !== undefined) filter.user = user;
    const { journal } = c.env.scope;
    return c.json({ entries: journal.entries(filter), dropped: journal.dropped });
  });

  app.delete('/journal', (c) => {
    c.env.scope.journal.clear();
    return c.body(null, 204);
  });

  app.get('/faults', (c) => c.json({ pending: c.env.scope.faults.pending }));

  app.post('/faults', async (c) => {
    const body = (await jsonBody(c.req.raw, 64 * 1024)) as QueuedFault | undefined;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new HttpError('invalid_request', 'The body must be a fault object, e.g. {"status":503}');
    }
    const { faults } = c.env.scope;
    try {
      faults.next(body);
    } catch (error) {
      throw new HttpError('invalid_request', (error as Error).message);
    }
    return c.json({ pending: faults.pending }, 201);
  });

  app.delete('/faults', (c) => {
    c.env.scope.faults.clear();
    return c.body(null, 204);
  });

  app.put('/script', async (c) => {
    const body = await jsonBody(c.req.raw, 1024 * 1024);
    try {
      const script = loadScript(body);
      c.env.scope.script(script);
      return c.json(Array.isArray(script) ? { turns: script.length } : { rules: script.rules.length });
    } catch (error) {
      if (isHttpError(error)) throw error;
      throw new HttpError('invalid_request', (error as Error).message);
    }
  });

  app.delete('/script', (c) => {
    c.env.scope.restoreModel();
    return c.body(null, 204);
  });

  app.get('/sessions', (c) =>
    c.json({
      sessions: snapshotSessions(target.sessions, requireUser(c.req.query('user')), c.env.scope.id),
    }),
  );

  app.get('/proxy/report', (c) => {
    if (target.proxyReport === undefined) {
      throw new HttpError(
        'route_not_found',
        'The server is not a checking proxy (start it with an upstream)',
      );
    }
    return c.json(target.proxyReport() as object);
  });

  app.post('/cassette/outcome', async (c) => {
    const body = await jsonBody(c.req.raw, 1024);
    const outcome = (body as { outcome?: unknown } | null)?.outcome;
    if (!TEST_STATUSES.includes(outcome as TestStatus)) {
      throw new HttpError(
        'invalid_request',
        `outcome: must be one of ${TEST_STATUSES.map((s) => JSON.stringify(s)).join(', ')}, e.g. {"outcome":"failed"}`,
        { details: { issues: [{ path: 'outcome', message: 'not a test outcome' }] } },
      );
    }
    const { id } = c.env.scope;
    if (id === undefined) {
      throw new HttpError(
        'invalid_request',
        'A test outcome needs the test: send its x-parley-test-id header',
        { details: { issues: [{ path: 'x-parley-test-id', message: 'missing' }] } },
      );
    }
    // The cassette keys a test's recordings by its id without the run: every run of it counts.
    target.testStatus?.(testIdWithoutAttempt(id), outcome as TestStatus);
    return c.body(null, 204);
  });

  // The page is loaded on its first request: a browser bundle of the server does not carry it.
  const journalPage = async () => (await import('./journal-page.js')).journalPageResponse();
  app.get('/ui', journalPage);
  app.get('/ui/', journalPage);

  app.notFound((c) =>
    new HttpError(
      'route_not_found',
      `No control route at ${c.req.method} ${new URL(c.req.url).pathname}`,
    ).toResponse(),
  );
  app.onError((error) =>
    (isHttpError(error)
      ? error
      : new HttpError('internal_error', 'An unexpected server failure')
    ).toResponse(),
  );
  return async (request, scope) => app.fetch(request, { scope });
}
