/** What a turn's receipt says (DESIGN "Answer receipt"); slack/views/receipt.ts renders it. */
import type { TimeRange } from '../run-types.js';
import type { TurnRecord } from './turn-records.js';

export interface TurnReceipt {
  /** The agent's `totalSteps` (or the last count seen), when known. */
  steps?: number | undefined;
  /** From the turn's start to its outcome. */
  tookMs: number;
  /** The time range the run was given; undefined: the agent's saved payload decided. */
  timerange?: TimeRange | undefined;
}

/** The receipt of `turn` at `now`, with the steps from the final report or the last progress. */
export function receiptOf(turn: TurnRecord, now: number, steps: number | undefined): TurnReceipt {
  return {
    ...(steps !== undefined && steps > 0 ? { steps } : {}),
    tookMs: Math.max(0, now - turn.startedAt),
    ...(turn.timerange ? { timerange: turn.timerange } : {}),
  };
}
