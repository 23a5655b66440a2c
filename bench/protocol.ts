/**
 * What the bench's processes say to each other over IPC, and the fixed parameters they share.
 * The parameters are the issue's: a 2 s long-poll hold, runs of 5 steps 500 ms apart, 100 channels.
 */

import type { ExchangeCounts, FloorExchanges, FloorPlan } from './floor-plan.js';

/** How long the simulator holds a status poll with nothing new. */
export const BENCH_LONG_POLL_MS = 2000;
/** Every run: 5 steps 500 ms apart, then done (terminal 3 s after the start). */
export const BENCH_SCRIPT = { steps: 5, stepMs: 500, outcome: 'done' } as const;
/** Runs are spread over this many channels, one new thread each. */
export const BENCH_CHANNELS = 100;
/** The signing secret shared by the bot, the bare Bolt app and the load generator. Not a secret. */
export const BENCH_SIGNING_SECRET = 'bench-signing-secret-not-real';

/** One mention posted by the load generator: its thread and the id written into its prompt. */
export interface MentionRef {
  id: string;
  channel: string;
  threadTs: string;
}

const RUN_ID = /\bbench-run-([0-9]+-[0-9]+)\b/;

/** The prompt text of run `id`; the simulator keeps it, so the run can be found again. */
export const promptFor = (id: string): string => `summarise the errors of the last hour (bench-run-${id})`;

/** The run id written by {@link promptFor}, if the prompt carries one. */
export function runIdOf(prompt: string): string | undefined {
  return RUN_ID.exec(prompt)?.[1];
}

/** p50/p99/max of one latency series, in milliseconds. */
export interface LatencySummary {
  p50: number;
  p99: number;
  max: number;
}

/** What the stand-ins process measured for one size. */
export interface ServiceReport {
  runs: number;
  answers: number;
  /** Mentions with no accepted answer or no terminal run. */
  unmatched: number;
  /** Run terminal in the simulator → answer accepted by the Slack stand-in. */
  deliveryMs: LatencySummary;
  maxInFlightSeen: number;
  statusRequests: number;
  statusMedianMs: number;
  statusP99Ms: number;
  serviceRequests: number;
  status429: number;
  /** Service requests by method, kind and HTTP status. */
  serviceStatuses: Record<string, number>;
  /** Slack Web API calls by method (failed ones with their error). */
  slackCalls: Record<string, number>;
}

export type StandInsRequest =
  | { type: 'answers' }
  | { type: 'counts' }
  | { type: 'report'; mentions: MentionRef[] };
export type StandInsReply =
  | { type: 'ready'; simUrl: string; slackApiUrl: string }
  | { type: 'counts'; counts: ExchangeCounts; samples: Record<string, Record<string, unknown>> }
  | { type: 'answers'; count: number; runs: number; slackCalls: number; serviceRequests: number }
  | { type: 'report'; report: ServiceReport };

export type LoadRequest =
  | {
      type: 'mentions';
      appUrl: string;
      /** Several replicas: mention `i` goes to `appUrls[i % length]` (then `appUrl` is unused). */
      appUrls?: string[];
      size: number;
      ratePerSecond: number;
      concurrency: number;
    }
  | { type: 'probe'; targets: { bot: string; bare: string }; intervalMs: number }
  | { type: 'stop-probe' };
export type LoadReply =
  | { type: 'ready' }
  | {
      type: 'posted';
      mentions: MentionRef[];
      ackMs: LatencySummary;
      /** With `appUrls`: the ack latency of each app, in the same order. */
      ackMsPerApp?: LatencySummary[];
      failed: number;
      seconds: number;
    }
  | { type: 'probes'; bot: number[]; bare: number[]; failed: number };

/** The bare stack (floor.ts): stand-in addresses first, then one plan per batch of mentions. */
export type FloorRequest =
  | { type: 'init'; simUrl: string; slackApiUrl: string }
  | { type: 'plan'; plan: FloorPlan };
export type FloorReply =
  | { type: 'ready'; url: string }
  | { type: 'planned' }
  | { type: 'done'; exchanges: FloorExchanges };
