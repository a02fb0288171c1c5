import { Parley } from '@parley/sdk';
import { systemClock, type WorkerClock } from './clock.js';
import { CLIENT_HEADER } from './job.js';
import { DEFAULT_RECOVERY_INTERVAL_MS, DEFAULT_REPORT_ATTEMPTS, ToolWorker } from './tool-worker.js';
import { createWeatherTool, DEFAULT_TOOL_DELAY_MS } from './weather-tool.js';

/** How the worker is configured; the flags of the worker process. */
export interface WorkerSettings {
  baseUrl: string;
  token: string;
  /** How long `get_weather` takes. Default 500 ms. */
  toolDelayMs?: number;
  reportAttempts?: number;
  recoveryIntervalMs?: number;
  concurrency?: number;
}

/**
 * The worker's client (marked with {@link CLIENT_HEADER}) and its {@link ToolWorker}. `clock` is the
 * time the tool's work and the recovery loop wait on (real time unless a test passes its own).
 */
export function createWorker(
  settings: WorkerSettings,
  log: (line: string) => void,
  { clock = systemClock }: { clock?: WorkerClock } = {},
): ToolWorker {
  const client = new Parley({
    baseUrl: settings.baseUrl,
    token: settings.token,
    headers: { [CLIENT_HEADER]: 'tool-worker' },
  });
  return new ToolWorker({
    client,
    tools: [createWeatherTool({ delayMs: settings.toolDelayMs ?? DEFAULT_TOOL_DELAY_MS, clock })],
    reportAttempts: settings.reportAttempts ?? DEFAULT_REPORT_ATTEMPTS,
    recoveryIntervalMs: settings.recoveryIntervalMs ?? DEFAULT_RECOVERY_INTERVAL_MS,
    clock,
    log,
  });
}

/** The worker process's flags for these settings; the token goes through `PARLEY_TOKEN`, not argv. */
export function settingsToArgs(settings: WorkerSettings): string[] {
  const args = ['--base-url', settings.baseUrl];
  if (settings.toolDelayMs !== undefined) args.push('--tool-delay-ms', String(settings.toolDelayMs));
  if (settings.reportAttempts !== undefined) args.push('--report-attempts', String(settings.reportAttempts));
  if (settings.recoveryIntervalMs !== undefined) {
    args.push('--recovery-interval-ms', String(settings.recoveryIntervalMs));
  }
  if (settings.concurrency !== undefined) args.push('--concurrency', String(settings.concurrency));
  return args;
}
