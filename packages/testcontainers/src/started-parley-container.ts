import { AbstractStartedContainer, type StartedTestContainer } from 'testcontainers';
import { type ControlTarget, controlCall } from './control-client.js';
import { PARLEY_PORT } from './parley-port.js';
import { type ParleyTestHandle, parleyTestHandle } from './parley-test-handle.js';

/** A started Parley container: its URL, tokens, per-test handles and a full reset. */
export class StartedParleyContainer extends AbstractStartedContainer {
  /** `http://HOST:PORT` as this process reaches the server (no trailing slash). */
  readonly baseUrl: string;
  private readonly target: ControlTarget;

  constructor(
    started: StartedTestContainer,
    /** The first user's bearer token (the demo user's, `parley-demo-token`, when none is given). */
    readonly token: string,
    /** The control token of `/_parley/` (header `x-parley-control-token`). */
    readonly controlToken: string,
    timeoutMs: number,
  ) {
    super(started);
    this.baseUrl = `http://${started.getHost()}:${started.getMappedPort(PARLEY_PORT)}`;
    this.target = { baseUrl: this.baseUrl, controlToken, containerId: started.getId(), timeoutMs };
  }

  /** The handle of one test (its script, faults, journal, sessions, reset), scoped by `x-parley-test-id`. */
  forTest(testId: string): ParleyTestHandle {
    return parleyTestHandle(this.target, this.token, testId);
  }

  /** Resets everything: every test's scope and the default one (`POST /_parley/reset`, no test id). */
  async reset(): Promise<void> {
    await controlCall(this.target, 'POST', '/reset');
  }
}
