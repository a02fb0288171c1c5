import type { Model, ModelEvent } from '../model/model.js';
import type { ProxyObserver } from '../proxy/proxy-exchange.js';
import type { Clock } from '../time/clock.js';
import { checkOptions, oneOf } from '../utils/check-options.js';
import { testIdWithoutAttempt } from '../utils/test-id.js';
import type { CassetteAdditions } from './cassette-additions.js';
import {
  type CassetteControl,
  RECORD_CONFIG_KEYS,
  REPLAY_CONFIG_KEYS,
  type RecordConfig,
  type ReplayConfig,
} from './cassette-config.js';
import type { Cassette } from './cassette-format.js';
import { REDACTION_KEYS } from './cassette-redaction.js';
import { recordingControl } from './record-source.js';
import type { ReplaySource } from './replay-model.js';
import { replayPlan } from './replay-plan.js';
import { replayTiming } from './replay-timing.js';
import { describeUnused, ReplayUsage } from './replay-usage.js';

/** The cassette options of the server. */
export interface CassetteOptions {
  replay?: string | Cassette | ReplayConfig | undefined;
  record?: string | RecordConfig | undefined;
  upstream?: { url: string } | undefined;
}

/** What the server tells the cassette of itself. */
export interface CassetteDeps {
  clock: Clock;
  /**
   * A session's creation order (`seq`, from 0, never reset), and its test scope (`x-parley-test-id`)
   * with its order there; undefined when it does not exist.
   */
  sessionOf(sessionId: string): { seq: number; scope: string | undefined; scopeSeq: number } | undefined;
  /** How many sessions were created so far (the next one's order). */
  sessionsCreated(): number;
  /** The checking proxy's fetch, to ask the deployment what the cassette lacks. */
  upstreamFetch(request: Request): Promise<Response>;
  /** The token of the server's first user, sent upstream (the proxy swaps it for `upstream.token`). */
  token: string;
  warn(line: string): void;
  /** Where a recording run says what it wrote (`cassette x.json: 1 test recorded, 2 kept`). */
  log(line: string): void;
}

/** A server's cassette: its replay model or its recorder, and the control the server exposes. */
export interface CassetteSetup {
  /** The replay model, when replaying. */
  model: Model | undefined;
  /** The proxy's recorder, when recording everything. */
  recorder: (ProxyObserver & { close(): Promise<void> }) | undefined;
  /** True when replaying with an upstream: it answers what the cassette lacks, not every `/v1` request. */
  replaysWithUpstream: boolean;
  control: CassetteControl | undefined;
  /** `GET /readyz`: loads the replay model; undefined once loaded, else why it cannot be. */
  ready(): Promise<string | undefined>;
  /** Writes what record-missing added. */
  close(): Promise<void>;
}

const READY = async () => undefined;

const NONE: CassetteSetup = {
  model: undefined,
  recorder: undefined,
  replaysWithUpstream: false,
  control: undefined,
  ready: READY,
  close: async () => {},
};

/**
 * Reads and checks the cassette options at creation (a bad value, a missing file or an expired
 * cassette under `'error'` throws here, naming it), and builds the replay model or the recorder.
 * An expired cassette under `expiryStrategy: 'record'` is recorded again, as `record` would.
 */
export function setUpCassette(options: CassetteOptions, deps: CassetteDeps): CassetteSetup {
  if (options.replay !== undefined && options.record !== undefined) {
    throw new Error('createReferenceServer: pass either `record` or `replay`, not both');
  }
  if (options.replay !== undefined) {
    // A path, a loaded cassette (it has `format`), or the settings object.
    const replay = options.replay;
    const config =
      typeof replay === 'object' && replay !== null && !('format' in replay)
        ? (replay as ReplayConfig)
        : { cassette: replay };
    const where = 'createReferenceServer({ replay })';
    checkOptions(config, REPLAY_CONFIG_KEYS, where, { file: 'cassette', path: 'cassette' });
    if (config.cassette === undefined)
      throw new TypeError(`${where}: cassette is required (a path or a cassette)`);
    if (typeof config.recordMissing === 'object') {
      checkOptions(
        config.recordMissing,
        { redact: 'object' },
        'createReferenceServer({ replay: { recordMissing } })',
      );
      checkOptions(config.recordMissing.redact, REDACTION_KEYS, 'the redact option');
    }
    const plan = replayPlan(config, options.upstream !== undefined, deps);
    if ('cassette' in plan) return replaying(config, plan.cassette, options.upstream?.url, deps);
    return recording(
      { file: plan.rerecord, ...(config.per === undefined ? {} : { per: config.per }) },
      options,
      deps,
    );
  }
  if (options.record !== undefined) {
    const config = typeof options.record === 'string' ? { file: options.record } : options.record;
    checkOptions(config, RECORD_CONFIG_KEYS, 'createReferenceServer({ record })');
    checkOptions(config.redact, REDACTION_KEYS, 'the redact option');
    return recording(config, options, deps);
  }
  return NONE;
}

function replaying(
  config: ReplayConfig,
  cassette: Cassette,
  upstreamUrl: string | undefined,
  deps: CassetteDeps,
): CassetteSetup {
  const name = config.name ?? (typeof config.cassette === 'string' ? config.cassette : 'given in code');
  const hasUpstream = upstreamUrl !== undefined;
  const per = config.per ?? 'file';
  // Checked here: a bad speed fails the creation, not the first model call.
  const timing = replayTiming(config);
  const usage = new ReplayUsage(cassette, per);
  // Record-missing's additions are loaded with the replay model: a page that only replays does not carry them.
  let additions: CassetteAdditions | undefined;
  let test: { name: string; first: number } | undefined;
  let rerecord: { command: string; oneTest: boolean } | undefined;
  const failed = new Set<string>();
  // Tests of a shared server begun and not ended (`testStatus`): what they added is not written.
  const unfinished = new Set<string>();
  const {
    cassette: _given,
    name: _name,
    recordMissing,
    per: _per,
    expiresIn: _e,
    expiryStrategy: _s,
    ...options
  } = config;
  const source: ReplaySource = {
    ...options,
    ...timing,
    cassette,
    name,
    per,
    usage,
    rerecording: () => ({
      rerecord,
      from: {
        file: typeof config.cassette === 'string' ? config.cassette : undefined,
        upstream: cassette.upstream,
      },
    }),
    // Sessions play their recorded ones in order of creation (or of creation within their test).
    sessionOrder: (sessionId) => deps.sessionOf(sessionId)?.seq,
    // A session of a test scope belongs to that test; otherwise to the test begun last (beginTest).
    testOf: (sessionId) => {
      const session = deps.sessionOf(sessionId);
      if (session?.scope !== undefined)
        return { name: testIdWithoutAttempt(session.scope), rank: session.scopeSeq };
      if (test === undefined || session === undefined || session.seq < test.first) return undefined;
      return { name: test.name, rank: session.seq - test.first };
    },
    ...(config.recordMissing ? { onRecorded: (addition) => additions?.add(addition) } : {}),
  };
  let model: Promise<Model> | undefined;
  // Loaded with the first model call: a server (or a browser page) that does not replay does not carry it.
  const load = () =>
    (model ??= Promise.all([
      import('./replay-model.js'),
      hasUpstream ? import('./upstream-answerer.js') : undefined,
      config.recordMissing ? import('./cassette-additions.js') : undefined,
    ]).then(([replay, upstream, added]) => {
      if (added !== undefined) additions = new added.CassetteAdditions();
      return replay.createReplayModel({
        ...source,
        ...(upstream === undefined
          ? {}
          : { upstream: upstream.createUpstreamAnswerer({ fetch: deps.upstreamFetch, token: deps.token }) }),
      });
    }));
  return {
    model: async function* replay(request): AsyncGenerator<ModelEvent> {
      yield* (await load())(request);
    },
    recorder: undefined,
    replaysWithUpstream: hasUpstream,
    ready: () =>
      load().then(
        () => undefined,
        (error: Error) => `the cassette ${name} could not be loaded: ${error.message}`,
      ),
    control: {
      name,
      mode: config.recordMissing ? 'record-missing' : 'replay',
      beginTest: (testName, how) => {
        test = { name: testName, first: deps.sessionsCreated() };
        rerecord = how?.rerecord;
        usage.beginTest(testName);
      },
      failTest: (testName) => {
        failed.add(testName);
      },
      skipTest: (testName) => {
        failed.add(testName);
      },
      testsNotRun: () => {},
      testStatus: (testName, status) => {
        if (status === 'running') unfinished.add(testName);
        else unfinished.delete(testName);
        if (status === 'failed' || status === 'skipped') failed.add(testName);
      },
      mismatches: () => usage.mismatches,
      unused: () => usage.unused(),
      describeUnused: () => describeUnused(usage.unused(), cassette.sessions.length),
    },
    close: async () => {
      if (additions === undefined || typeof config.cassette !== 'string') return;
      // What a failed (or unfinished) test recorded is not added: its recording is never written.
      additions.drop(
        (testName) => failed.has(testName) || unfinished.has(testName),
        (index) => cassette.sessions[index]?.test,
      );
      if (additions.isEmpty) return;
      // Taken before the first await: a second close(), even one at once, finds nothing to add.
      const added = additions.take();
      const redact = typeof recordMissing === 'object' ? recordMissing.redact : undefined;
      const [{ provenanceOf }, { updateCassetteFile }] = await Promise.all([
        import('./cassette-provenance.js'),
        import('./write-cassette-file.js'),
      ]);
      // Into the file as it is now, under its lock: another process adding to it at once keeps its part.
      await updateCassetteFile(config.cassette, (current) =>
        added.merge(current ?? cassette, provenanceOf(deps.clock, upstreamUrl), redact),
      );
      deps.log(`cassette ${config.cassette}: ${added.describe()} added (record-missing)`);
    },
  };
}

function recording(config: RecordConfig, options: CassetteOptions, deps: CassetteDeps): CassetteSetup {
  if (options.upstream === undefined) {
    throw new Error(
      `createReferenceServer: record (${config.file}) needs upstream: recording writes what passes through ` +
        'the checking proxy, so give `upstream: { url }` of the deployment to record',
    );
  }
  oneOf('per', config.per, ['file', 'test']);
  const { recorder, control } = recordingControl(config, options.upstream.url, deps);
  // The proxy closes the recorder (its observer), which writes the file.
  return {
    model: undefined,
    recorder,
    replaysWithUpstream: false,
    ready: READY,
    control,
    close: async () => {},
  };
}
