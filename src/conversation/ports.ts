/**
 * The ports the conversation layer talks through. Implementations live at the edges
 * (agent-api/, store/, slack/); this folder never imports Bolt, ky or keyv.
 */

/** Statuses the service reports for a run. `loading` and `timeout` mean "poll again". */
export type RunStatus = 'loading' | 'done' | 'error' | 'canceled' | 'timeout';
export const TERMINAL_STATUSES: ReadonlySet<RunStatus> = new Set(['done', 'error', 'canceled']);

export interface RunStatusReport {
  status: RunStatus;
  message?: string | undefined;
  totalSteps?: number | undefined;
}

/** What a turn sends to the service as `context`. */
export interface RunInput {
  message: string;
  additionalContext?: string | undefined;
}

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

/** Time, injected so polling and deadlines can be tested without fake timers. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason when it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Structured logger (pino-compatible subset). Never pass tokens; prompts only at debug. */
export interface Logger {
  debug(fields: object, message?: string): void;
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
  child(bindings: object): Logger;
}

/** One Slack thread bound to one agent session. Key: `team:channel:thread_ts`. */
export interface ThreadRecord {
  threadKey: string;
  teamId: string;
  channel: string;
  threadTs: string;
  agentId: string;
  /** Set once the first run has started. */
  sessionId?: string | undefined;
  /** The final status of the thread's last finished turn (for stale-status detection). */
  lastFinal?: RunStatusReport | undefined;
  createdAt: number;
  updatedAt: number;
}

export type TurnPhase = 'starting' | 'running';

/** A turn in flight. Stored before its run starts, deleted once its outcome is delivered. */
export interface TurnRecord {
  turnId: string;
  threadKey: string;
  teamId: string;
  channel: string;
  threadTs: string;
  agentId: string;
  userId: string;
  /** The Slack message that started the turn. */
  sourceTs: string;
  kind: 'start' | 'followUp';
  phase: TurnPhase;
  sessionId?: string | undefined;
  /** For follow-ups: the previous turn's final status, which a poll may still report (stale). */
  previousFinal?: RunStatusReport | undefined;
  /** The progress message shown in the thread, if any. */
  progressTs?: string | undefined;
  startedAt: number;
  deadlineAt: number;
}

/** What a reaction on an answer message needs to find its session. */
export interface AnswerRef {
  threadKey: string;
  agentId: string;
  sessionId: string;
  turnId: string;
}

/**
 * Conversation state: records with TTLs plus the atomic operations keyv lacks.
 * Memory and Redis implementations live in src/store/.
 */
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

  /**
   * Atomic set-if-absent with expiry (`SET key owner NX PX ttl`). True when this call took it
   * or the caller already owned it (then the expiry is renewed).
   */
  tryLock(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Extends a lock the caller owns; false when it is gone or owned by someone else. */
  renewLock(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Deletes the lock only when the caller owns it. */
  unlock(name: string, owner: string): Promise<void>;
  lockOwner(name: string): Promise<string | undefined>;

  close(): Promise<void>;
}
