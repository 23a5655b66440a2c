import type { OutsiderReason } from './audience.js';

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

/**
 * What the stale rule remembers of a final report (see report-digest.ts): never the answer's text.
 */
export interface ReportDigest {
  status: RunStatus;
  /** `totalSteps`, 0 when the report had none. */
  totalSteps: number;
  /** SHA-256 (hex) of the message, of '' when the report had none. */
  messageSha256: string;
}

/** What a turn sends to the service as `context`. */
export interface RunInput {
  message: string;
  additionalContext?: string | undefined;
  timerange?: TimeRange | undefined;
}

/** The service's `context.timerange`: ISO 8601 UTC timestamps. */
export interface TimeRange {
  startTime: string;
  endTime: string;
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
  /** The service connection (alias) its runs go to; undefined: the default (AGENT_API_*). */
  connection?: string | undefined;
  /** Set once the first run has started. */
  sessionId?: string | undefined;
  /** The digest of the thread's last finished turn's final status (for stale-status detection). */
  lastFinal?: ReportDigest | undefined;
  /** The Slack message of the thread's latest turn: a follow-up's context is what came after it. */
  lastTurnTs?: string | undefined;
  /**
   * Set when the last turn ended without a terminal status (deadline, late watch ended, status
   * unreadable): when that run started. The next message reads the run's status before a follow-up.
   */
  runOpenSince?: number | undefined;
  createdAt: number;
  updatedAt: number;
}

/** The phases of a turn, in memory (turn-machine.ts) and in its stored record alike. */
export type TurnPhase = 'idle' | 'checking' | 'starting' | 'polling' | 'late' | 'delivering';
/** The phases a turn record is stored in: from before its run starts until its outcome is posted. */
export type StoredTurnPhase = Extract<TurnPhase, 'starting' | 'polling' | 'late'>;

/** A turn in flight. Stored before its run starts, deleted once its outcome is delivered. */
export interface TurnRecord {
  turnId: string;
  threadKey: string;
  teamId: string;
  channel: string;
  threadTs: string;
  agentId: string;
  /** The service connection (alias) its runs go to; undefined: the default (AGENT_API_*). */
  connection?: string | undefined;
  userId: string;
  /** The Slack message that started the turn. */
  sourceTs: string;
  kind: 'start' | 'followUp';
  phase: StoredTurnPhase;
  sessionId?: string | undefined;
  /** For follow-ups: the digest of the previous turn's final status, which a poll may still report (stale). */
  previousFinal?: ReportDigest | undefined;
  /** The progress message shown in the thread, if any. */
  progressTs?: string | undefined;
  /** The person's message carried files, which are not sent to the agent: the answer says so. */
  filesNotSent?: boolean | undefined;
  /** The time range the run was given, stated under the answer. */
  timerange?: TimeRange | undefined;
  startedAt: number;
  deadlineAt: number;
  /** Phase `late`: watched for a late answer until then. */
  watchUntil?: number | undefined;
  /** The "still working past the deadline" notice is in the thread. */
  deadlineNoticed?: boolean | undefined;
}

/** What a reaction on an answer message needs to find its session. */
export interface AnswerRef {
  threadKey: string;
  agentId: string;
  /** The service connection (alias) its runs go to; undefined: the default (AGENT_API_*). */
  connection?: string | undefined;
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

  /** The session's current rating (the latest from a button or a reaction), sent again with a comment. */
  saveRating(sessionId: string, score: boolean): Promise<void>;
  getRating(sessionId: string): Promise<boolean | undefined>;

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

  /**
   * Atomically counts one use of `name` in a rolling window (DESIGN "Spending"): drops the uses
   * older than `windowMs` before `now`, and records `use.id` at `now` if fewer than `limit`
   * remain; a refused use is not recorded. Shared by every replica on the store.
   */
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

/** How a turn ended, for metrics and logs. */
export type TurnOutcome =
  | 'done'
  | 'error'
  | 'canceled'
  | 'deadline'
  | 'service_error'
  | 'lost'
  /** Slack refused the outcome for good (bot removed from the channel, token revoked…). */
  | 'undeliverable';

/** Counters the conversation layer reports; prom-client lives behind this in src/metrics.ts. */
export interface ConversationMetrics {
  turnStarted(kind: 'start' | 'followUp'): void;
  turnFinished(outcome: TurnOutcome): void;
  turnsInFlight(count: number): void;
  statusPoll(result: { ok: boolean; errorCode?: string | undefined }): void;
  serviceError(code: string): void;
  /** Terminal status seen → answer accepted by Slack. */
  deliveryLatency(ms: number): void;
  /** A turn's outcome given up on because Slack refused it for good, by Slack's error code. */
  deliveryDropped(code: string): void;
  /** A turn's native thread status expired (Slack clears it after 2 min) before its refresh landed. */
  progressStatusLapsed(): void;
  /** A question asked where outsiders read: answered privately, or refused (OUTSIDER_AUDIENCE). */
  outsiderReadable(action: 'private' | 'refused', reason: OutsiderReason): void;
  /** A message not taken because its sender used up their runs for the hour (DESIGN "Spending"). */
  turnOverLimit(): void;
}

/** Where in Slack a turn's output goes. */
export interface ThreadLocation {
  teamId: string;
  channel: string;
  threadTs: string;
}

export interface Progress {
  steps: number;
  elapsedMs: number;
}

/** Everything a turn can end with besides an answer. */
export type TurnNotice =
  | { kind: 'run-error'; reason: string }
  | { kind: 'canceled' }
  /** The turn deadline passed; `watchForMs` > 0: the run is still watched that much longer. */
  | { kind: 'deadline'; waitedMs: number; watchForMs?: number | undefined }
  /** The late watch ended too: nothing more is posted unless the person asks again. */
  | { kind: 'watch-ended'; waitedMs: number }
  | { kind: 'service-error'; error: unknown; referenceId: string }
  | { kind: 'lost-turn' };

/** What the answer's footer tells besides the answer itself. */
export type AnswerNote = 'files-not-sent';

/** Why a message did not become a turn, shown to its sender only. */
export type Refusal =
  | 'busy'
  | 'external-user'
  /** A guest of the workspace (ALLOW_GUESTS is off). */
  | 'guest'
  /** `users.info` did not answer, so the bot could not tell whether the sender is inside. */
  | 'identity-unchecked'
  | 'channel-not-allowed'
  | 'empty-prompt'
  | 'unavailable'
  /** A time phrase that cannot be a range: wholly in the future, reversed, or over 31 days. */
  | 'time-future'
  | 'time-reversed'
  | 'time-too-long'
  /** `OUTSIDER_AUDIENCE=refuse` and people outside the organisation can read the conversation. */
  | 'outsider-audience'
  /** The answer had to go to a DM (`OUTSIDER_AUDIENCE=dm`), and Slack would not open one. */
  | 'private-thread-failed'
  /** The sender used up `RUNS_PER_PERSON_PER_HOUR`; the detail says when they can ask again. */
  | 'over-limit';

/**
 * The thread as the conversation layer sees it. src/slack/ implements it with the Web API
 * and the views; rendering decisions (split, neutralise, files) live there.
 */
export interface ThreadOutput {
  /**
   * Posts the turn's progress message, tagged with the turn id (as answers and notices are), so a
   * successor can find it when the turn record does not name it; returns its ts (undefined when
   * Slack refused it).
   */
  postProgress(where: ThreadLocation, progress: Progress, turnId: string): Promise<string | undefined>;
  updateProgress(where: ThreadLocation, ts: string, progress: Progress): Promise<void>;
  removeProgress(where: ThreadLocation, ts: string): Promise<void>;
  /**
   * Posts the whole answer (split, and as a file when long); returns the ts of every part.
   * `onPart` is awaited after each part Slack accepted, before the next one is posted.
   * Failures are {@link ThreadOutputError}s (src/conversation/output-error.ts), as for every method.
   */
  postAnswer(
    where: ThreadLocation,
    answer: AnswerToPost,
    onPart?: (ts: string) => Promise<void>,
  ): Promise<string[]>;
  postNotice(where: ThreadLocation, notice: TurnNotice, turnId: string, style?: OutputStyle): Promise<void>;
  /** Tells only `userId` why their message was not taken, next to `sourceTs`. */
  refuse(
    where: ThreadLocation,
    userId: string,
    sourceTs: string,
    refusal: Refusal,
    detail?: RefusalDetail,
  ): Promise<void>;
  /**
   * After a takeover or a failed post: what of this turn is already in the thread, found by the
   * turn id in the messages' metadata. One thread read (`conversations.replies`) per call.
   */
  findTurnMessages(where: ThreadLocation, turnId: string): Promise<TurnMessages>;
}

/** A turn's messages found in its thread. */
export interface TurnMessages {
  /** The ts of every answer part; empty unless the answer is complete (a partial one is posted again). */
  answer: string[];
  /** The kinds of the turn's notices. */
  notices: Array<TurnNotice['kind']>;
  /** The ts of the turn's progress messages (normally one). */
  progress: string[];
}

/** `plain`: the fallback rendering (text only) after Slack refused the rich one. */
export type OutputStyle = 'rich' | 'plain';

export interface AnswerToPost {
  markdown: string;
  turnId: string;
  style?: OutputStyle | undefined;
  /** Set when the answer came after the turn deadline: how long the agent took. */
  lateAfterMs?: number | undefined;
  /** Footer notes, e.g. that shared files were not sent to the agent. */
  notes?: AnswerNote[] | undefined;
  /** The time range the run looked at, stated in the footer. */
  timerange?: TimeRange | undefined;
}

/** What a refusal can say besides its reason. */
export interface RefusalDetail {
  /** For `busy`: how long the agent has been working on the thread's turn. */
  workingForMs?: number | undefined;
  /** For `outsider-audience` and `private-thread-failed`: why the conversation is outsider-readable. */
  audience?: OutsiderReason | undefined;
  /** For `over-limit`: when the sender can ask again (epoch ms), … */
  retryAt?: number | undefined;
  /** … the runs one person may start in an hour, … */
  limit?: number | undefined;
  /** … and the sender's IANA time zone (`users.info` `tz`), when known; else the time is in UTC. */
  timeZone?: string | undefined;
}
