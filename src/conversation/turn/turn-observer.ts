import type { TurnOutcome, TurnRecord } from './turn-records.js';

/**
 * Told when a turn's run starts and when its outcome is posted (App Home: src/home/home-activity.ts).
 * Implementations must not throw and must not hold the turn up.
 */
export interface TurnObserver {
  /** The run started (or followed up); `question` is what the person asked. */
  started(turn: TurnRecord, question: string): void;
  /** The turn's outcome was posted (or given up on, `undeliverable`). */
  finished(turn: TurnRecord, outcome: TurnOutcome): void;
}
