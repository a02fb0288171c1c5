import type { SharedServer, SharedTestScope, TestAttempt } from '@parley/reference-server/node';
import { AbstractStartedContainer, type StartedTestContainer } from 'testcontainers';
import { ParleyContainerError } from './parley-container-error.js';

/**
 * A started Parley container: a shared server (`connectSharedServer`'s, docs/testing.md) whose
 * test scopes are the runner helpers' own, with its URL, tokens and a `fetch` that names the
 * container when it stops answering.
 */
export class StartedParleyContainer extends AbstractStartedContainer implements SharedServer {
  /** `http://HOST:PORT` as this process reaches the server (no trailing slash): `PARLEY_BASE_URL`. */
  readonly baseUrl: string;

  constructor(
    started: StartedTestContainer,
    private readonly shared: SharedServer,
    /**
     * `fetch` for this container: no answer (stopped, exited, too slow) or a body cut off rejects
     * with a {@link ParleyContainerError} naming it. The scopes use it; give it to your client.
     */
    readonly fetch: typeof globalThis.fetch,
  ) {
    super(started);
    this.baseUrl = shared.url;
  }

  /** The same as {@link baseUrl}: the {@link SharedServer} name. */
  get url(): string {
    return this.shared.url;
  }

  /** The first user's bearer token (the demo user's, `parley-demo-token`, when none is given). */
  get token(): string {
    return this.shared.token;
  }

  /** The control token of `/_parley/` (`PARLEY_CONTROL_TOKEN`, header `x-parley-control-token`). */
  get controlToken(): string {
    return this.shared.controlToken;
  }

  /**
   * The scope of the test named `name` (its full name, run `attempt`), exactly as the runner helpers
   * make it on a shared server: `testId` (the same encoding), `headers`, `fetch`, `script`,
   * `queueFault`, `pendingFaults`, `journal`, `sessions`, `proxyReport`, `reset`.
   */
  testScope(name: string, attempt?: TestAttempt): SharedTestScope {
    return this.shared.testScope(name, attempt);
  }

  /** Resets everything: every test's scope and the default one (`POST /_parley/reset`, no test id). */
  async reset(): Promise<void> {
    const url = `${this.baseUrl}/_parley/reset`;
    const response = await this.fetch(url, {
      method: 'POST',
      headers: { 'x-parley-control-token': this.controlToken },
    });
    const text = await response.text();
    if (!response.ok) {
      throw new ParleyContainerError(`POST ${url} answered ${response.status}: ${text}`, {
        status: response.status,
      });
    }
  }
}
