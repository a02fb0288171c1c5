import type { ProxyReportSnapshot } from '../proxy/proxy-report.js';

/** What can differ between a recorded turn and the live deployment's answer to the same input. */
export const DRIFT_KINDS = ['stopReason', 'toolCalls', 'events', 'messages', 'text', 'usage'] as const;
export type DriftKind = (typeof DRIFT_KINDS)[number];

/** One difference: what the cassette holds and what the deployment answered, as short text. */
export interface DriftDifference {
  kind: DriftKind;
  recorded: string;
  live: string;
  /** `text`: how alike the two texts are, from 0 (nothing shared) to 1 (the same words in order). */
  similarity?: number;
}

/** Token counts, as a reply's `usage` says. */
export interface DriftUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

/** One recorded turn beside the deployment's answer. */
export interface TurnDrift {
  /** 1-based, as replay mismatches count turns. */
  turn: number;
  /** What the turn answered: the user's text (cut) or `tool results`. */
  input: string;
  /** What differs (those of ignored kinds left out); empty when the deployment answered alike. */
  differences: DriftDifference[];
  /** The text similarity, also when it is 1 or ignored. */
  similarity?: number;
  /** Usage beside it, whether or not it counts as drift. */
  usage: { recorded?: DriftUsage; live?: DriftUsage };
}

/** One recorded session played against the deployment. */
export interface SessionDrift {
  /** 1-based. */
  session: number;
  test?: string;
  /** The session the deployment created for it. */
  liveSessionId?: string;
  turns: TurnDrift[];
  /**
   * Why the session could not be played to its end (the deployment refused a request, answered
   * something unreadable, or had fewer messages than recorded); the turns after it are not compared.
   */
  stopped?: string;
}

/** What {@link driftReport} gives: per session and turn, what differs. */
export interface DriftReport {
  /** The cassette's name (its path). */
  cassette: string;
  /** The deployment's URL, any password masked. */
  upstream: string;
  /** Kinds left out of the comparison (`--ignore`). */
  ignored: DriftKind[];
  /** Below this a text counts as drift (1: any difference). */
  textSimilarity: number;
  sessions: number;
  /** Turns compared (a stopped session's later turns are not). */
  turnsCompared: number;
  turnsWithDrift: number;
  /** Differences in all, and per kind. */
  drifts: number;
  byKind: Record<DriftKind, number>;
  /** Sessions that could not be played to their end. */
  sessionsStopped: number;
  /** Protocol violations the checking proxy found in the deployment's answers: not drift. */
  violations: number;
  /** The checking proxy's report of the run. */
  proxy: ProxyReportSnapshot;
  results: SessionDrift[];
}
