import { InvalidArgumentError } from 'commander';
import type { StreamPace } from '../model/stream-pace.js';

// The pace flags: --pace for the stand-in and scripted models, --replay-speed for a replay.

const PACE_KEYS = ['ttft', 'tps', 'jitter', 'seed'];

/** A figure of --pace: a plain number (digits, an optional fraction), never negative. */
function figure(key: string, text: string): number {
  if (!/^\d+(\.\d+)?$/.test(text)) {
    throw new InvalidArgumentError(`${key}=${text}: must be a number >= 0 (e.g. ttft=400ms,tps=40).`);
  }
  return Number(text);
}

/**
 * `--pace ttft=400ms,tps=40,jitter=0.2,seed=7`: time to the first event (`ms` or `s`; a bare
 * number is ms), words per second (> 0), jitter from 0 to 1 (or a percentage) and the jitter's
 * integer seed. A negative, non-numeric or unknown item is an error naming it.
 */
export function parsePace(value: string): StreamPace {
  const pace: StreamPace = {};
  const seen = new Set<string>();
  for (const raw of value.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    const at = item.indexOf('=');
    const key = at === -1 ? item : item.slice(0, at).trim();
    const text = at === -1 ? '' : item.slice(at + 1).trim();
    if (!PACE_KEYS.includes(key)) {
      throw new InvalidArgumentError(`"${key}" is not a pace setting; use ${PACE_KEYS.join(', ')}.`);
    }
    if (text === '') throw new InvalidArgumentError(`${key} needs a value (${key}=...).`);
    if (seen.has(key)) throw new InvalidArgumentError(`${key} is given twice.`);
    seen.add(key);
    if (key === 'ttft') {
      const unit = /^(.*?)(ms|s)?$/.exec(text) as RegExpExecArray;
      const ms = figure(key, unit[1] ?? '') * (unit[2] === 's' ? 1000 : 1);
      pace.ttftMs = ms;
    } else if (key === 'tps') {
      const tps = figure(key, text);
      if (tps === 0) throw new InvalidArgumentError('tps=0: words per second must be > 0.');
      pace.wordsPerSecond = tps;
    } else if (key === 'jitter') {
      const percent = text.endsWith('%');
      const jitter = figure(key, percent ? text.slice(0, -1) : text) / (percent ? 100 : 1);
      if (jitter > 1) throw new InvalidArgumentError(`jitter=${text}: must be from 0 to 1 (or 0% to 100%).`);
      pace.jitter = jitter;
    } else {
      if (!/^-?\d+$/.test(text)) throw new InvalidArgumentError(`seed=${text}: must be an integer.`);
      pace.seed = Number(text);
    }
  }
  if (seen.size === 0) throw new InvalidArgumentError('needs at least one setting, e.g. ttft=400ms,tps=40.');
  return pace;
}

/** `--replay-speed`: a number > 0, how many times faster than recorded a replay plays. */
export function parseReplaySpeed(value: string): number {
  const speed = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(speed > 0)) {
    throw new InvalidArgumentError('must be a number > 0 (10 plays the recorded cadence ten times faster).');
  }
  return speed;
}

/** The values of the pace flags. */
export interface CliPaceOptions {
  pace?: StreamPace;
  replaySpeed?: number;
}

/** The pace flags' specs (`CliOptionSpec`s: cli-options.ts lists them after the cassette flags). */
export const PACE_CLI_OPTIONS = [
  {
    flags: '--pace <settings>',
    description:
      'stream the stand-in and scripted models at a pace: ttft=400ms,tps=40,jitter=0.2,seed=7 (time to first event, words per second, seeded jitter 0-1)',
    env: 'PARLEY_PACE',
    parse: parsePace,
  },
  {
    flags: '--replay-speed <multiple>',
    description:
      'replay at the recorded cadence this many times faster (e.g. 10); implies --replay-pace recorded',
    env: 'PARLEY_REPLAY_SPEED',
    parse: parseReplaySpeed,
  },
] as const;

/** The start line of `--pace`: `pace:           first event after 400 ms, 40 words/s, jitter 0.2 (seed 7)`. */
export function paceNote(pace: StreamPace): string {
  const parts = [
    ...(pace.ttftMs === undefined ? [] : [`first event after ${pace.ttftMs} ms`]),
    ...(pace.wordsPerSecond === undefined ? [] : [`${pace.wordsPerSecond} words/s`]),
    ...(pace.jitter === undefined ? [] : [`jitter ${pace.jitter} (seed ${pace.seed ?? 0})`]),
  ];
  return `pace:           ${parts.join(', ') || 'at once'}`;
}
