import { createServer, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import {
  createReferenceServer,
  type ReferenceServer,
  type ReferenceServerOptions,
} from '@parley/reference-server';
import { CLIENT_HEADER } from './job.js';

/** One request the server received, as the app side's test double journals it. */
export interface RequestRecord {
  method: string;
  path: string;
  /** What the reference server answered. */
  status: number;
  /** What the client got instead, when a fault replaced the answer. */
  deliveredStatus?: number;
  /** The `x-parley-client` header (`tool-worker` for the worker), or `app`. */
  client: string;
}

/**
 * A reference server whose listener can go away and come back on the same port, keeping its state.
 *
 * The reference server is in memory, so a real restart would forget every session; a real service
 * keeps its state in a database. This class models exactly the part a worker sees: for a while
 * connections are refused (`stop()`), then the same service answers again on the same address
 * (`start()`). It also journals requests and can lose the answer to a tool report (the server
 * applied it, the client sees a 502), like a proxy that times out on the way back.
 */
export class RestartableServer {
  readonly reference: ReferenceServer;
  readonly requests: RequestRecord[] = [];
  readonly #lostAnswers = new Set<string>();
  readonly #http: Server;
  #port: number;

  private constructor(reference: ReferenceServer, port: number) {
    this.reference = reference;
    this.#port = port;
    this.#http = createServer(getRequestListener(this.#handle, { overrideGlobalObjects: false }));
  }

  /** Creates the reference server and starts listening (`port` 0 picks a free one, kept across restarts). */
  static async start(options: ReferenceServerOptions & { port?: number } = {}): Promise<RestartableServer> {
    const { port = 0, ...serverOptions } = options;
    const server = new RestartableServer(createReferenceServer(serverOptions), port);
    await server.start();
    return server;
  }

  get url(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  get listening(): boolean {
    return this.#http.listening;
  }

  /** Listens again on the same port. */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#http.once('error', reject);
      this.#http.listen(this.#port, '127.0.0.1', () => {
        this.#http.off('error', reject);
        const address = this.#http.address();
        if (address !== null && typeof address === 'object') this.#port = address.port;
        resolve();
      });
    });
  }

  /** Stops listening and drops every open connection: new connections are refused until `start()`. */
  stop(): Promise<void> {
    return new Promise((resolve) => {
      this.reference.abortReplies();
      this.#http.close(() => resolve());
      this.#http.closeAllConnections();
    });
  }

  /** The next tool report for `requestId` is applied, but its answer is replaced by a 502. */
  loseNextReportAnswer(requestId: string): void {
    this.#lostAnswers.add(requestId);
  }

  #handle = async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    const response = await this.reference.fetch(request);
    const record: RequestRecord = {
      method: request.method,
      path: pathname,
      status: response.status,
      client: request.headers.get(CLIENT_HEADER) ?? 'app',
    };
    this.requests.push(record);
    const requestId = pathname.startsWith('/v1/tools/response/') ? pathname.split('/').at(-1) : undefined;
    if (requestId !== undefined && this.#lostAnswers.delete(requestId)) {
      record.deliveredStatus = 502;
      const error = { code: 'bad_gateway', message: 'The answer was lost on its way back (simulated fault)' };
      return Response.json({ error }, { status: 502 });
    }
    return response;
  };
}
