/**
 * The turn state machine of one thread: `idle → starting → running → idle`. Pure: it returns the
 * next state and the effects to carry out as data; the caller performs them and feeds the results
 * back as events. See the seed's "States and transitions" for the run statuses.
 */
import type { RunStatusReport } from './ports.js';
import { TERMINAL_STATUSES } from './ports.js';

/** No turn in flight: the only state that accepts a new turn. */
export interface IdleTurnState {
  phase: 'idle';
  /** The thread's agent session, once its first run has started. */
  sessionId?: string | undefined;
  /** The final report of the thread's last finished turn (for the stale rule). */
  lastFinal?: RunStatusReport | undefined;
}

/** The start (or follow-up) request is on its way; no run to poll yet. */
export interface StartingTurnState {
  phase: 'starting';
  turnId: string;
  /** Set for a follow-up: the session the turn continues. */
  sessionId?: string | undefined;
  previousFinal?: RunStatusReport | undefined;
}

/** The run is started and being polled, or its outcome is being delivered. */
export interface RunningTurnState {
  phase: 'running';
  turnId: string;
  sessionId: string;
  previousFinal?: RunStatusReport | undefined;
  /** True after a follow-up until a report shows the service has registered the new turn. */
  awaitingFresh: boolean;
  /** The highest `totalSteps` already shown as progress. */
  stepsShown: number;
  /** True once an outcome effect was emitted; the turn ends with `delivered`. */
  awaitingDelivery: boolean;
  /** The terminal report this turn ended with, if it ended with one. */
  final?: RunStatusReport | undefined;
}

export type TurnState = IdleTurnState | StartingTurnState | RunningTurnState;

/** A thread that has never run a turn. */
export const initialTurnState: IdleTurnState = { phase: 'idle' };

export type TurnEvent =
  /** Someone asked for a new turn (a mention or a reply in the thread). */
  | { type: 'message-received'; turnId: string }
  | { type: 'run-started'; sessionId: string }
  | { type: 'run-start-failed'; error: unknown }
  | { type: 'status-report'; report: RunStatusReport }
  /** A status request failed; `permanent` when polling cannot succeed (e.g. the session is gone). */
  | { type: 'poll-failed'; error: unknown; permanent?: boolean | undefined }
  | { type: 'deadline-passed' }
  /** The outcome effect was carried out (or given up on): the thread is free again. */
  | { type: 'delivered' };

export type TurnEffect =
  | { type: 'start-run' }
  | { type: 'follow-up'; sessionId: string }
  | { type: 'refuse-turn'; reason: 'busy' }
  | { type: 'schedule-poll' }
  | { type: 'show-progress'; steps: number }
  /** Status `done`: post the answer. */
  | { type: 'deliver-answer'; report: RunStatusReport }
  /** Status `error` or `canceled`: tell the thread how the run ended. */
  | { type: 'deliver-outcome'; report: RunStatusReport }
  | { type: 'notify-start-failed'; error: unknown }
  | { type: 'notify-poll-failed'; error: unknown }
  | { type: 'notify-deadline' };

export interface Transition {
  state: TurnState;
  effects: TurnEffect[];
}

const SCHEDULE_POLL: TurnEffect = { type: 'schedule-poll' };

/**
 * True when `report` is only the previous turn's final status seen again (same status, message
 * and totalSteps): right after a follow-up the service may still show it until it registers the
 * new turn. Missing message / totalSteps compare as '' / 0.
 */
export function isStaleReport(report: RunStatusReport, previousFinal: RunStatusReport | undefined): boolean {
  if (previousFinal === undefined) return false;
  return (
    report.status === previousFinal.status &&
    (report.message ?? '') === (previousFinal.message ?? '') &&
    (report.totalSteps ?? 0) === (previousFinal.totalSteps ?? 0)
  );
}

/**
 * The next state and the effects to carry out. Events that do not apply to the current state
 * (a late report, a duplicate `run-started`) leave it unchanged with no effects.
 */
export function transition(state: TurnState, event: TurnEvent): Transition {
  if (event.type === 'message-received') return onMessage(state, event.turnId);
  switch (state.phase) {
    case 'idle':
      return unchanged(state);
    case 'starting':
      return fromStarting(state, event);
    case 'running':
      return state.awaitingDelivery ? fromDelivering(state, event) : fromRunning(state, event);
  }
}

function unchanged(state: TurnState): Transition {
  return { state, effects: [] };
}

function onMessage(state: TurnState, turnId: string): Transition {
  // Rule 2 of the seed: a follow-up only after the previous turn is terminal; never queue it.
  if (state.phase !== 'idle') return { state, effects: [{ type: 'refuse-turn', reason: 'busy' }] };
  const { sessionId, lastFinal } = state;
  const next: StartingTurnState = { phase: 'starting', turnId, sessionId, previousFinal: lastFinal };
  const effect: TurnEffect =
    sessionId === undefined ? { type: 'start-run' } : { type: 'follow-up', sessionId };
  return { state: next, effects: [effect] };
}

function fromStarting(state: StartingTurnState, event: TurnEvent): Transition {
  // A turn that never started keeps the thread's previous session and final report.
  const back: IdleTurnState = { phase: 'idle', sessionId: state.sessionId, lastFinal: state.previousFinal };
  switch (event.type) {
    case 'run-started': {
      const running: RunningTurnState = {
        phase: 'running',
        turnId: state.turnId,
        sessionId: event.sessionId,
        previousFinal: state.previousFinal,
        awaitingFresh: state.sessionId !== undefined && state.previousFinal !== undefined,
        stepsShown: 0,
        awaitingDelivery: false,
      };
      return { state: running, effects: [SCHEDULE_POLL] };
    }
    case 'run-start-failed':
      return { state: back, effects: [{ type: 'notify-start-failed', error: event.error }] };
    case 'deadline-passed':
      return { state: back, effects: [{ type: 'notify-deadline' }] };
    default:
      return unchanged(state);
  }
}

function fromRunning(state: RunningTurnState, event: TurnEvent): Transition {
  switch (event.type) {
    case 'status-report':
      return onReport(state, event.report);
    case 'poll-failed':
      if (!event.permanent) return { state, effects: [SCHEDULE_POLL] };
      return {
        state: { ...state, awaitingDelivery: true },
        effects: [{ type: 'notify-poll-failed', error: event.error }],
      };
    case 'deadline-passed':
      return { state: { ...state, awaitingDelivery: true }, effects: [{ type: 'notify-deadline' }] };
    default:
      return unchanged(state);
  }
}

function onReport(state: RunningTurnState, report: RunStatusReport): Transition {
  if (state.awaitingFresh && isStaleReport(report, state.previousFinal)) {
    return { state, effects: [SCHEDULE_POLL] };
  }
  // `timeout` is the long poll saying "nothing new yet": it proves nothing about the new turn.
  if (report.status === 'timeout') return { state, effects: [SCHEDULE_POLL] };
  const fresh: RunningTurnState = { ...state, awaitingFresh: false };
  if (TERMINAL_STATUSES.has(report.status)) {
    const effect: TurnEffect =
      report.status === 'done' ? { type: 'deliver-answer', report } : { type: 'deliver-outcome', report };
    return { state: { ...fresh, awaitingDelivery: true, final: report }, effects: [effect] };
  }
  const steps = report.totalSteps ?? 0;
  if (steps <= state.stepsShown) return { state: fresh, effects: [SCHEDULE_POLL] };
  return {
    state: { ...fresh, stepsShown: steps },
    effects: [{ type: 'show-progress', steps }, SCHEDULE_POLL],
  };
}

function fromDelivering(state: RunningTurnState, event: TurnEvent): Transition {
  if (event.type !== 'delivered') return unchanged(state);
  // After a deadline or a failed poll there is no final report to compare a later poll with.
  return { state: { phase: 'idle', sessionId: state.sessionId, lastFinal: state.final }, effects: [] };
}
