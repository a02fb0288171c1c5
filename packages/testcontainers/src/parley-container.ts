import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connectSharedServer } from '@parley/reference-server/node';
import { GenericContainer, Wait } from 'testcontainers';
import { containerFetch } from './container-fetch.js';
import { PARLEY_PORT } from './parley-port.js';
import type { ScriptJson } from './script-json.js';
import { StartedParleyContainer } from './started-parley-container.js';

/** Where the container keeps the files the module copies in (the image's working directory). */
const FILES = '/parley';

/** `withPace`: time to the first event, words per second, seeded jitter (docs/testing.md#streaming-pace). */
export interface PaceSettings {
  ttftMs?: number;
  wordsPerSecond?: number;
  jitter?: number;
  seed?: number;
}

/** `withChaos`: seeded chaos (docs/testing.md#seeded-chaos); lists are joined with `+`. */
export interface ChaosSettings {
  rate: number;
  seed: number;
  kinds?: Array<'status' | 'drop' | 'cut-after' | 'malformed' | 'latency'>;
  status?: number[];
  'retry-after'?: number;
  'cut-after'?: number;
  latency?: number | string;
  method?: string;
  path?: string;
}

/** `withCassette`'s replay settings, as `--replay-*` flags. */
export interface ReplaySettings {
  onMismatch?: 'error' | 'stand-in' | 'upstream';
  pace?: 'fast' | 'recorded';
  speed?: number;
  match?: 'order' | 'agentId' | 'sessionData';
}

/**
 * The Parley reference server image as a Testcontainers module. Its methods read like the CLI's
 * options and set the image's variables (docs/containers.md); files (users, script, cassette) are
 * copied in. The control routes are always on, with a control token of the module's own (or
 * {@link withControlToken}'s), so that the started container is a shared server whose
 * {@link StartedParleyContainer.testScope} is the runner helpers' per-test handle. Waits for
 * `GET /readyz`, so a replay's cassette is loaded and an upstream reached before `start()` resolves;
 * a server that exits at start (a bad option) fails `start()` with its last log lines.
 *
 * @example
 * const parley = await new ParleyContainer('parley-server:dev').withUsers({ alice: 'token-a' }).start();
 * try { ... parley.baseUrl ... } finally { await parley.stop(); }
 */
export class ParleyContainer extends GenericContainer {
  private controlToken = `pct_${randomBytes(18).toString('hex')}`;
  private users: Array<[string, string]> = [];
  private readonly flags: string[] = [];
  private timeoutMs = 10_000;

  constructor(image: string) {
    super(image);
    this.withExposedPorts(PARLEY_PORT)
      .withEnvironment({ PORT: String(PARLEY_PORT), PARLEY_CONTROL: '1' })
      .withWaitStrategy(
        Wait.forHttp('/readyz', PARLEY_PORT, { abortOnContainerExit: true })
          .forStatusCode(200)
          .withReadTimeout(100),
      )
      .withStartupTimeout(60_000);
  }

  /** Users and their bearer tokens (`PARLEY_USERS`); the first one's is {@link StartedParleyContainer.token}. */
  withUsers(users: Record<string, string>): this {
    for (const [name, token] of Object.entries(users)) {
      if (!/^[^:\s,]+$/.test(name) || !/^[^\s,]+$/.test(token)) {
        throw new TypeError(`withUsers: "${name}" and its token must be non-empty, with no space or comma`);
      }
      this.users.push([name, token]);
    }
    return this.withEnvironment({ PARLEY_USERS: this.users.map(([n, t]) => `${n}:${t}`).join(',') });
  }

  /** Users from a file of `NAME:TOKEN` lines on this machine, copied in (`PARLEY_USERS_FILE`). */
  withUsersFile(file: string): this {
    const first = /^\s*([^:\s#]+):(\S+)/m.exec(readFileSync(file, 'utf8').replace(/#.*/g, ''));
    if (first?.[1] !== undefined && first[2] !== undefined && this.users.length === 0) {
      this.users.push([first[1], first[2]]);
    }
    return this.withCopyFilesToContainer([
      { source: file, target: `${FILES}/users`, mode: 0o444 },
    ]).withEnvironment({
      PARLEY_USERS_FILE: `${FILES}/users`,
    });
  }

  /** A scripted model (`PARLEY_SCRIPT_FILE`): the script file's JSON, or the path of a script file. */
  withScript(script: ScriptJson | string): this {
    const content = typeof script === 'string' ? readFileSync(script, 'utf8') : JSON.stringify(script);
    return this.withCopyContentToContainer([
      { content, target: `${FILES}/script.json`, mode: 0o444 },
    ]).withEnvironment({ PARLEY_SCRIPT_FILE: `${FILES}/script.json` });
  }

  /** Replays a cassette file of this machine (`PARLEY_REPLAY_FILE`), with the replay settings. */
  withCassette(file: string, settings: ReplaySettings = {}): this {
    const env: Record<string, string> = { PARLEY_REPLAY_FILE: `${FILES}/cassette.json` };
    if (settings.onMismatch !== undefined) env.PARLEY_REPLAY_ON_MISMATCH = settings.onMismatch;
    if (settings.pace !== undefined) env.PARLEY_REPLAY_PACE = settings.pace;
    if (settings.speed !== undefined) env.PARLEY_REPLAY_SPEED = String(settings.speed);
    if (settings.match !== undefined) env.PARLEY_REPLAY_MATCH = settings.match;
    return this.withCopyFilesToContainer([
      { source: file, target: `${FILES}/cassette.json`, mode: 0o444 },
    ]).withEnvironment(env);
  }

  /** Seeded chaos from the start (`PARLEY_CHAOS`): settings, or the flag's text `rate=0.05,seed=42`. */
  withChaos(chaos: ChaosSettings | string): this {
    const text =
      typeof chaos === 'string'
        ? chaos
        : Object.entries(chaos)
            .filter(([, value]) => value !== undefined)
            .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join('+') : value}`)
            .join(',');
    return this.withEnvironment({ PARLEY_CHAOS: text });
  }

  /** The stand-in and scripted models' streaming pace (`PARLEY_PACE`): settings, or `ttft=400ms,tps=40`. */
  withPace(pace: PaceSettings | string): this {
    const text =
      typeof pace === 'string'
        ? pace
        : [
            pace.ttftMs === undefined ? undefined : `ttft=${pace.ttftMs}ms`,
            pace.wordsPerSecond === undefined ? undefined : `tps=${pace.wordsPerSecond}`,
            pace.jitter === undefined ? undefined : `jitter=${pace.jitter}`,
            pace.seed === undefined ? undefined : `seed=${pace.seed}`,
          ]
            .filter((item) => item !== undefined)
            .join(',');
    return this.withEnvironment({ PARLEY_PACE: text });
  }

  /**
   * A checking proxy in front of `url` (`PARLEY_UPSTREAM_URL`), as the container reaches it: another
   * container by its network alias, or the host through `host.testcontainers.internal` (with
   * `TestContainers.exposeHostPorts`). `start()` waits until the upstream answers.
   */
  withUpstream(url: string, options: { token?: string; timeoutMs?: number } = {}): this {
    const env: Record<string, string> = { PARLEY_UPSTREAM_URL: url };
    if (options.token !== undefined) env.PARLEY_UPSTREAM_TOKEN = options.token;
    if (options.timeoutMs !== undefined) env.PARLEY_UPSTREAM_TIMEOUT_MS = String(options.timeoutMs);
    return this.withEnvironment(env);
  }

  /** The control token (`PARLEY_CONTROL_TOKEN`, 16 characters or more); default: a random one. */
  withControlToken(token: string): this {
    this.controlToken = token;
    return this;
  }

  /** Host names besides the service's own to answer (`PARLEY_ALLOWED_HOSTS`; the image allows any). */
  withAllowedHosts(hosts: string[]): this {
    return this.withEnvironment({ PARLEY_ALLOWED_HOSTS: hosts.join(',') });
  }

  /** `PARLEY_HEARTBEAT_TIMEOUT_MS`: a tool call with no heartbeat for this long is claimable again. */
  withHeartbeatTimeout(ms: number): this {
    return this.withEnvironment({ PARLEY_HEARTBEAT_TIMEOUT_MS: String(ms) });
  }

  /** `PARLEY_TOOL_CALL_TIMEOUT_MS`: a tool call's deadline after the model asked for it. */
  withToolCallTimeout(ms: number): this {
    return this.withEnvironment({ PARLEY_TOOL_CALL_TIMEOUT_MS: String(ms) });
  }

  /** `PARLEY_MAX_SESSIONS`: sessions kept at most. */
  withMaxSessions(max: number): this {
    return this.withEnvironment({ PARLEY_MAX_SESSIONS: String(max) });
  }

  /** `--no-faults`: ignore the `x-parley-fault` header. */
  withoutFaultHeader(): this {
    this.flags.push('--no-faults');
    return this;
  }

  /**
   * How long a control call of the started container (a scope's `script`, `journal`, `reset`, ...,
   * any `/_parley/` request of its `fetch`) may wait for its answer's status before it fails with a
   * ParleyContainerError. Default 10 s. The service's routes are not bounded here (a slow reply is
   * your client's time limit's to end); a stopped container fails them at once.
   */
  withControlTimeout(ms: number): this {
    this.timeoutMs = ms;
    return this;
  }

  override async start(): Promise<StartedParleyContainer> {
    this.withEnvironment({ PARLEY_CONTROL_TOKEN: this.controlToken });
    if (this.flags.length > 0) this.withCommand(this.flags);
    const token = this.users[0]?.[1] ?? 'parley-demo-token';
    const started = await super.start();
    const fetch = containerFetch({ containerId: started.getId(), timeoutMs: this.timeoutMs });
    try {
      const shared = await connectSharedServer({
        baseUrl: `http://${started.getHost()}:${started.getMappedPort(PARLEY_PORT)}`,
        controlToken: this.controlToken,
        token,
        caller: 'ParleyContainer',
        fetch,
      });
      return new StartedParleyContainer(started, shared, fetch);
    } catch (error) {
      // Never left running when it cannot be used.
      await started.stop().catch(() => undefined);
      throw error;
    }
  }
}
