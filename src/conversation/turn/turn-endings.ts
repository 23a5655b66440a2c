import type { Clock } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import type { TurnNotice } from '../thread-output-port.js';
import type { FinalOutcome } from './turn-in-flight.js';
import type { TurnOutcome, TurnRecord } from './turn-records.js';
import type { TurnEffect } from './turn-states.js';

/** The machine's effects that end a turn: each posts one outcome (outcome-poster.ts). */
export type EndingEffect = Extract<TurnEffect, { type: `deliver-${string}` | `notify-${string}` }>;

export interface TurnEndingsDeps {
  clock: Clock;
  logger: Logger;
  newReferenceId: () => string;
}

/** What the thread is told for each way a turn ends, and the log line that goes with it. */
export function createTurnEndings(deps: TurnEndingsDeps) {
  const { clock, logger } = deps;
  const notice = (shown: TurnNotice, outcome: TurnOutcome): FinalOutcome => ({
    kind: 'notice',
    notice: shown,
    outcome,
  });

  function outcomeOf(turn: TurnRecord, effect: EndingEffect): FinalOutcome {
    const { threadKey, turnId, sessionId } = turn;
    const waitedMs = clock.now() - turn.startedAt;
    switch (effect.type) {
      case 'deliver-answer':
      case 'deliver-outcome':
        return { kind: 'report', report: effect.report, late: effect.late === true };
      case 'notify-poll-failed':
        return notice(serviceError(turn, effect.error, 'polling stopped'), 'service_error');
      case 'notify-start-failed':
        return notice(serviceError(turn, effect.error, 'run start failed'), 'service_error');
      case 'notify-lost':
        logger.warn({ threadKey, turnId }, 'turn lost before its run started');
        return notice({ kind: 'lost-turn' }, 'lost');
      case 'notify-deadline':
        return notice({ kind: 'deadline', waitedMs }, 'deadline');
      case 'notify-watch-ended':
        return notice({ kind: 'watch-ended', waitedMs }, 'deadline');
      case 'notify-stopped':
        logger.info({ threadKey, turnId, sessionId }, 'run stopped');
        return notice({ kind: 'stopped' }, 'stopped');
    }
  }

  /** The service failed the turn: logged with a reference id the thread's notice repeats. */
  function serviceError(turn: TurnRecord, error: unknown, message: string): TurnNotice {
    const referenceId = deps.newReferenceId();
    const { threadKey, turnId, sessionId } = turn;
    logger.error({ err: error, threadKey, turnId, sessionId, referenceId }, message);
    return { kind: 'service-error', error, referenceId };
  }

  return { outcomeOf };
}
