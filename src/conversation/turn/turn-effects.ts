import type { PollScheduler } from '../polling/poll-contract.js';
import { createOutcomePoster, type OutcomePosterDeps } from './outcome-poster.js';
import { createTurnEndings, type TurnEndingsDeps } from './turn-endings.js';
import type { FinalOutcome, TurnInFlight } from './turn-in-flight.js';
import type { TurnLedger } from './turn-ledger.js';
import { storedPhase } from './turn-machine.js';
import { createTurnPolls, type TurnPollsDeps } from './turn-polls.js';
import type { TurnProgress } from './turn-progress.js';
import type { TurnEffect } from './turn-states.js';

export interface TurnEffectsDeps
  extends Omit<OutcomePosterDeps, 'stopPolling'>,
    Omit<TurnPollsDeps, 'poller'>,
    TurnEndingsDeps {
  ledger: TurnLedger;
  poller: Pick<PollScheduler, 'add' | 'remove'>;
  progress: Pick<TurnProgress, 'follow' | 'step' | 'settle' | 'end'>;
  metrics: OutcomePosterDeps['metrics'] & TurnPollsDeps['metrics'];
}

/**
 * The one place the turn machine's effects are carried out: the start (the entry's `start`), the
 * polls (turn-polls.ts), the outcome (outcome-poster.ts). Results go back to the machine (`feed`).
 */
export function createTurnEffects(deps: TurnEffectsDeps) {
  const { ledger, clock, logger, poller } = deps;
  const polls = createTurnPolls(deps);
  const endings = createTurnEndings(deps);
  const poster = createOutcomePoster({ ...deps, stopPolling: (turnId) => poller.remove(turnId) });
  /** Posts under way, so `settled` can wait for them. */
  const running = new Set<Promise<void>>();

  async function perform(entry: TurnInFlight, effect: TurnEffect): Promise<void> {
    const { turn } = entry;
    switch (effect.type) {
      case 'check-previous-run': {
        const report = await entry.start?.check(effect.sessionId);
        return deps.feed(entry, { type: 'previous-run-checked', report });
      }
      case 'refuse-turn':
        return entry.start?.refuse();
      case 'start-run':
      case 'follow-up': {
        const previousFinal = 'previousFinal' in entry.state ? entry.state.previousFinal : undefined;
        const kind = effect.type === 'start-run' ? 'start' : 'followUp';
        entry.turn = { ...turn, kind, phase: storedPhase(entry.state) ?? turn.phase, previousFinal };
        return entry.start?.send(entry);
      }
      case 'record-start':
        entry.turn = { ...turn, phase: storedPhase(entry.state) ?? turn.phase, sessionId: effect.sessionId };
        return entry.start?.started(entry);
      case 'resume':
        logger.info(
          { threadKey: turn.threadKey, sessionId: effect.sessionId, turnId: turn.turnId },
          'resuming turn',
        );
        return deps.ledger.restoreSession(turn.threadKey, effect.sessionId);
      case 'schedule-poll':
        return polls.follow(entry);
      case 'watch-late':
        return polls.watchLate(entry);
      case 'show-progress':
        entry.steps = effect.steps;
        return deps.progress.step(turn, effect.steps);
      case 'notify-deadline':
        if (effect.watching) return noticeLateWatch(entry);
        return end(entry, endings.outcomeOf(turn, effect));
      default:
        return end(entry, endings.outcomeOf(turn, effect));
    }
  }

  /** Every outcome stops polling; the post goes on (and retries) beside the poller. */
  function end(entry: TurnInFlight, outcome: FinalOutcome): void {
    poller.remove(entry.turn.turnId);
    background(poster.post(entry, outcome));
  }

  /** Past the deadline with a late watch: record it (a takeover keeps watching), tell the thread once. */
  async function noticeLateWatch(entry: TurnInFlight): Promise<void> {
    if (entry.turn.watchUntil === undefined) {
      const phase = storedPhase(entry.state) ?? entry.turn.phase;
      entry.turn = { ...entry.turn, phase, watchUntil: clock.now() + deps.lateWatchMs };
      // The record lets a takeover keep watching; with the store down this instance watches on anyway.
      await ledger.saveTurn(entry.turn).catch((error: unknown) => {
        logger.warn({ err: error, turnId: entry.turn.turnId }, 'late watch not recorded; watching on');
      });
    }
    if (!entry.turn.deadlineNoticed) entry.noticeChain = background(poster.postDeadlineNotice(entry));
  }

  /** Runs `work` beside the caller, so `settled` can wait for it; its failures are logged. */
  function background(work: Promise<void>): Promise<void> {
    const settled = work.catch((error: unknown) => logger.error({ err: error }, 'turn delivery failed'));
    running.add(settled);
    void settled.finally(() => running.delete(settled));
    return settled;
  }

  return {
    perform,
    /** Another instance owns the turn now: what it finds in the thread is its own business. */
    forget: poster.forget,
    settled: () => Promise.all([...running]),
  };
}
