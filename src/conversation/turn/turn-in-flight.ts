/** A turn as this instance holds it while it polls and delivers, and what ends it. */
import type { RunStatusReport } from '../ports.js';
import type { ThreadLocation, TurnNotice } from '../thread-output-port.js';
import type { PostPlace } from './audience-at-post.js';
import type { TurnOutcome, TurnRecord } from './turn-records.js';
import type { TurnState } from './turn-states.js';

/** What ends a turn in the thread: the run's terminal report, or a notice of ours. */
export type FinalOutcome =
  | { kind: 'report'; report: RunStatusReport; late: boolean }
  | { kind: 'notice'; notice: TurnNotice; outcome: TurnOutcome };

/** One turn this instance polls or delivers, as the deliverer and the poller share it. */
export interface TurnInFlight {
  turn: TurnRecord;
  /** After a takeover or a failed post: look in the thread before posting. */
  takenOver: boolean;
  /** The turn machine's state (the outcome to post, and what the thread keeps, are decided there). */
  state: TurnState;
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
