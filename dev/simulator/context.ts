/** What every handler gets: the simulator's state and the request, already authorised. */
import type { AccountStore } from './accounts.js';
import type { AgentRegistry } from './agents.js';
import type { FeedbackStore } from './feedback.js';
import type { ParsedBody, SimResponse } from './http-io.js';
import type { RunStore } from './runs.js';
import type { PutLogEntry, SimulatorFaults, TokenKind } from './types.js';

/** Options with every default applied. */
export interface ResolvedOptions {
  region: string;
  longPollMs: number;
  maxConcurrent: number;
  putStatus: 200 | 204;
  agentToken: string;
  /** Overrides the seeded agent account in whoami (see SimulatorOptions.agentAccount). */
  agentAccount: { accountId: number; accountName: string } | undefined;
}

export interface SimContext {
  options: ResolvedOptions;
  faults: SimulatorFaults;
  runs: RunStore;
  agents: AgentRegistry;
  feedback: FeedbackStore;
  accounts: AccountStore;
  /** Counts for faults that fire after a number of requests; reset with the simulator. */
  counters: { listings: number };
  /** Every PUT body received, in order (the Simulator's putLog). */
  putLog: PutLogEntry[];
  /** Aborts when the simulator closes, so held long polls end at once. */
  closing: AbortSignal;
  /** Seeded PRNG for faults that fire at a rate. */
  random: () => number;
  now(): number;
}

export interface SimRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  body: ParsedBody;
  token?: TokenKind;
  /** Aborts when the simulator closes or the client goes away. */
  signal: AbortSignal;
}

export type Handler = (ctx: SimContext, req: SimRequest) => SimResponse | Promise<SimResponse>;
