import type { OutsiderReason } from './access/audience.js';
import type { RunInput, RunStatusReport } from './run-types.js';
import type { AnswerRef, ThreadRecord, TurnOutcome, TurnRecord } from './turn/turn-records.js';

/** The conversation layer's ports, implemented at the edges: this folder never imports Bolt, ky or keyv. */

// The run's vocabulary lives in the leaf run-types.ts, re-exported for the edges that know the ports.
export type { ReportDigest, RunInput, RunStatus, RunStatusReport, TimeRange } from './run-types.js';
export { TERMINAL_STATUSES } from './run-types.js';

export interface FeedbackInput {
  sessionId: string;
  feedbackName: string;
  score: number | boolean;
  comment?: string | undefined;
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Client-side timeout for this one request, overriding the client default. */
  timeoutMs?: number | undefined;
}

/** The part of the agent service a conversation needs. Errors are the agent-api's typed errors. */
export interface AgentRunsPort {
  startRun(agentId: string, input: RunInput, options?: CallOptions): Promise<{ sessionId: string }>;
  followUp(
    agentId: string,
    sessionId: string,
    input: RunInput,
    options?: CallOptions,
  ): Promise<{ sessionId: string }>;
  getRunStatus(agentId: string, sessionId: string, options?: CallOptions): Promise<RunStatusReport>;
  submitFeedback(agentId: string, items: FeedbackInput[], options?: CallOptions): Promise<unknown>;
}
/** Conversation state: records with TTLs plus the atomic operations keyv lacks (src/store/). */
export interface ConversationStore {
  getThread(threadKey: string): Promise<ThreadRecord | undefined>;
  saveThread(thread: ThreadRecord): Promise<void>;

  /** Saves the turn and adds it to the in-flight set. */
  saveTurn(turn: TurnRecord): Promise<void>;
  getTurn(turnId: string): Promise<TurnRecord | undefined>;
  /** Deletes the turn and removes it from the in-flight set. */
  deleteTurn(turnId: string): Promise<void>;
  listInFlightTurnIds(): Promise<string[]>;

  indexAnswer(channel: string, ts: string, ref: AnswerRef): Promise<void>;
  lookupAnswer(channel: string, ts: string): Promise<AnswerRef | undefined>;

  /** The session's current rating (the latest from a button or a reaction), sent again with a comment. */
  saveRating(sessionId: string, score: boolean): Promise<void>;
  getRating(sessionId: string): Promise<boolean | undefined>;

  /** Atomic `SET key owner NX PX ttl`; true when taken or already the caller's (expiry renewed). */
  tryLock(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Extends a lock the caller owns; false when it is gone or owned by someone else. */
  renewLock(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Deletes the lock only when the caller owns it. */
  unlock(name: string, owner: string): Promise<void>;
  lockOwner(name: string): Promise<string | undefined>;

  /** Atomically records `use.id` at `now` if under `limit` in the rolling window (DESIGN "Spending"). */
  takeAllowance(name: string, use: AllowanceUse): Promise<AllowanceVerdict>;
  /** Forgets one recorded use (its turn did not start after all); nothing if it is gone. */
  returnAllowance(name: string, id: string): Promise<void>;

  close(): Promise<void>;
}

/** One use of a rolling-window allowance, for {@link ConversationStore.takeAllowance}. */
export interface AllowanceUse {
  /** Unique per use: what {@link ConversationStore.returnAllowance} removes. */
  id: string;
  /** Uses allowed within the window (a positive integer). */
  limit: number;
  windowMs: number;
  /** Epoch ms; the caller's clock, so tests and replicas judge the window alike. */
  now: number;
}

/** `retryAt`: when the oldest use that keeps the allowance full leaves the window (epoch ms). */
export type AllowanceVerdict = { ok: true } | { ok: false; retryAt: number };
/** Counters the conversation layer reports; prom-client lives behind this in src/metrics.ts. */
export interface ConversationMetrics {
  turnStarted(kind: 'start' | 'followUp'): void;
  turnFinished(outcome: TurnOutcome): void;
  turnsInFlight(count: number): void;
  statusPoll(result: { ok: boolean; errorCode?: string | undefined }): void;
  serviceError(code: string): void;
  /** Terminal status seen → answer accepted by Slack. */
  deliveryLatency(ms: number): void;
  /** Alert arrival → investigation's answer posted, measured by the replica that posts it. */
  timeToVerdict(ms: number): void;
  /** A turn's outcome given up on because Slack refused it for good, by Slack's error code. */
  deliveryDropped(code: string): void;
  /** A turn's native thread status expired (Slack clears it after 2 min) before its refresh landed. */
  progressStatusLapsed(): void;
  /** A question asked where outsiders read: answered privately, or refused (OUTSIDER_AUDIENCE). */
  outsiderReadable(action: 'private' | 'refused', reason: OutsiderReason): void;
  /** A message not taken because its sender used up their runs for the hour (DESIGN "Spending"). */
  turnOverLimit(): void;
  /** A Stop on a thread's agent session; an `outsider`'s is ignored. */
  stopPressed(result: 'stopped' | 'idle' | 'outsider'): void;
}
