import type { FileReport } from '../context/file-context.js';
import type { ReportDigest, TimeRange } from '../run-types.js';

/** The records of a thread and of its turn in flight, as the turn ledger stores them. */

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
  /** When the run started, if the last turn ended with no terminal status: the next message reads it. */
  runOpenSince?: number | undefined;
  createdAt: number;
  updatedAt: number;
}

/** The machine's phases (turn-states.ts) a turn record is stored in, until its outcome is posted. */
export type StoredTurnPhase = 'starting' | 'polling' | 'late';

/** A turn before the machine decides how it starts (a new run or a follow-up). */
export type TurnDraft = Omit<TurnRecord, 'kind' | 'phase' | 'previousFinal'>;

/** A turn in flight. Stored before its run starts, deleted once its outcome is delivered. */
export interface TurnRecord
  extends Pick<ThreadRecord, 'threadKey' | 'teamId' | 'channel' | 'threadTs' | 'agentId' | 'connection'> {
  turnId: string;
  userId: string;
  /** The Slack message that started the turn. */
  sourceTs: string;
  kind: 'start' | 'followUp';
  phase: StoredTurnPhase;
  sessionId?: string | undefined;
  /** For follow-ups: the digest of the previous turn's final status, which a poll may still report. */
  previousFinal?: ReportDigest | undefined;
  /** The progress message shown in the thread, if any. */
  progressTs?: string | undefined;
  /** The message's files were not sent (written before files were read as context; kept for old turns). */
  filesNotSent?: boolean | undefined;
  /** The files the turn saw: which were sent to the agent, which not and why (the answer's footer). */
  files?: FileReport | undefined;
  /** The time range the run was given, stated under the answer. */
  timerange?: TimeRange | undefined;
  startedAt: number;
  deadlineAt: number;
  /** Phase `late`: watched for a late answer until then. */
  watchUntil?: number | undefined;
  /** The "still working past the deadline" notice is in the thread. */
  deadlineNoticed?: boolean | undefined;
  /** An alert investigation: when the alert arrived (its answer's time to verdict counts from it). */
  alertAt?: number | undefined;
}

/** What a reaction on an answer message needs to find its session. */
export interface AnswerRef extends Pick<TurnRecord, 'threadKey' | 'agentId' | 'connection' | 'turnId'> {
  sessionId: string;
}

/** How a turn ended, for metrics and logs. */
export type TurnOutcome =
  | 'done'
  | 'error'
  | 'canceled'
  | 'deadline'
  | 'service_error'
  | 'lost'
  /** Slack refused the outcome for good (bot removed from the channel, token revoked…). */
  | 'undeliverable'
  /** Someone pressed Stop: the run was no longer followed (DESIGN "Agent sessions and Stop"). */
  | 'stopped';
