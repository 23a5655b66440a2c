/** A turn as this instance holds it while it starts, polls and posts, and what ends it. */
import type { RunStatusReport } from '../ports.js';
import type { ThreadLocation, TurnNotice } from '../thread-output-port.js';
import type { PostPlace } from './audience-at-post.js';
import type { TurnOutcome, TurnRecord } from './turn-records.js';
import type { TurnState } from './turn-states.js';

/** What ends a turn in the thread: the run's terminal report, or a notice of ours. */
export type FinalOutcome =
  | { kind: 'report'; report: RunStatusReport; late: boolean }
  | { kind: 'notice'; notice: TurnNotice; outcome: TurnOutcome };

/** The effects of a turn's first steps, carried out by run start (run-start.ts) for its request. */
export interface TurnStartWork {
  /** The status of the run left open; undefined when it could not be read. */
  check(sessionId: string): Promise<RunStatusReport | undefined>;
  /** The run left open still works: the thread stays busy. */
  refuse(): Promise<void>;
  /** Stores the turn (`entry.turn`, as the machine decided it) and sends its request. */
  send(entry: TurnInFlight): Promise<void>;
  /** The run started (`entry.turn` holds its session): store it, then show it. */
  started(entry: TurnInFlight): Promise<void>;
}

/** One turn this instance starts, polls or posts, as the runner, its effects and the poster share it. */
export interface TurnInFlight {
  turn: TurnRecord;
  /** After a takeover or a failed post: look in the thread before posting. */
  takenOver: boolean;
  /** The turn machine's state: every step of the turn is decided there. */
  state: TurnState;
  /** Set while the turn starts here (not on a takeover). */
  start?: TurnStartWork | undefined;
  /** The scheduler polls it (it polls again by itself until removed). */
  polled?: boolean | undefined;
  /** Ends this turn's waits between delivery attempts (lease lost, shutdown). */
  abort: AbortController;
  /** The thread lock is given back (once only: a newer turn may hold it by the next attempt). */
  released: boolean;
  /** The deadline notice on its way: a late outcome waits for it, so the thread reads in order. */
  noticeChain: Promise<void>;
  /** The latest step count the run reported (for the receipt of an outcome without a report). */
  steps?: number | undefined;
  /** Where its service data goes, once decided just before posting (kept for retries: one DM, one note). */
  postPlace?: PostPlace | undefined;
}

export const where = ({ teamId, channel, threadTs }: TurnRecord): ThreadLocation => ({
  teamId,
  channel,
  threadTs,
});

export const answerRef = ({ threadKey, agentId, connection, sessionId, turnId }: TurnRecord) => ({
  threadKey,
  agentId,
  ...(connection !== undefined ? { connection } : {}),
  sessionId: sessionId ?? '',
  turnId,
});
