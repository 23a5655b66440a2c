/**
 * The turn state machine of one thread: `idle → starting → running → idle`. Pure: it returns the
 * next state and the effects to carry out as data; the caller performs them and feeds the results
 * back as events. See the seed's "States and transitions" for the run statuses.
 *
 * Past the turn deadline a running turn may go on `late`: the thread is told, the run is watched
 * at a slow pace, and a late answer is still delivered (marked late); when the watch ends too the
 * thread goes idle with its run left open. A message in a thread whose run was left open goes
 * through `checking` first: the seed's rule 2 allows a follow-up only after a terminal status.
 */
import type { ReportDigest, RunStatusReport } from './ports.js';
import { TERMINAL_STATUSES } from './ports.js';
import { digestReport, sameReportDigest } from './report-digest.js';

/** No turn in flight: the only state that accepts a new turn. */
export interface IdleTurnState {
  phase: 'idle';
  /** The thread's agent session, once its first run has started. */
  sessionId?: string | undefined;
  /** The digest of the thread's last finished turn's final report (for the stale rule). */
  lastFinal?: ReportDigest | undefined;
  /** The last turn ended without a terminal status (deadline, watch ended): its run may still work. */
  runOpen?: boolean | undefined;
}

/** A message arrived in a thread whose run was left open: its status is read before anything is sent. */
export interface CheckingTurnState {
  phase: 'checking';
  turnId: string;
  sessionId: string;
  previousFinal?: ReportDigest | undefined;
}

/** The start (or follow-up) request is on its way; no run to poll yet. */
export interface StartingTurnState {
  phase: 'starting';
  turnId: string;
  /** Set for a follow-up: the session the turn continues. */
  sessionId?: string | undefined;
  previousFinal?: ReportDigest | undefined;
}

/** The run is started and being polled, or its outcome is being delivered. */
export interface RunningTurnState {
  phase: 'running';
  turnId: string;
  sessionId: string;
  previousFinal?: ReportDigest | undefined;
  /** True after a follow-up until a report shows the service has registered the new turn. */
  awaitingFresh: boolean;
  /** The highest `totalSteps` already shown as progress. */
  stepsShown: number;
  /** True once an outcome effect was emitted; the turn ends with `delivered`. */
  awaitingDelivery: boolean;
  /** The digest of the terminal report this turn ended with, if it ended with one. */
  final?: ReportDigest | undefined;
  /** Past the turn deadline, watched at a slow pace for a late answer. */
  late?: boolean | undefined;
}

export type TurnState = IdleTurnState | CheckingTurnState | StartingTurnState | RunningTurnState;

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
  /** `watchLate`: keep watching the run past the deadline (a late-watch limit is configured). */
  | { type: 'deadline-passed'; watchLate?: boolean | undefined }
  /** The late watch reached its limit too. */
  | { type: 'watch-ended' }
  /** The status of a run left open, read before a follow-up; undefined when it could not be read. */
  | { type: 'previous-run-checked'; report?: RunStatusReport | undefined }
  /** The outcome effect was carried out (or given up on): the thread is free again. */
  | { type: 'delivered' };

export type TurnEffect =
  | { type: 'start-run' }
  | { type: 'follow-up'; sessionId: string }
  /** Read the status of the run left open before deciding (rule 2 of the seed). */
  | { type: 'check-previous-run'; sessionId: string }
  | { type: 'refuse-turn'; reason: 'busy' }
  | { type: 'schedule-poll' }
  | { type: 'show-progress'; steps: number }
  /** Status `done`: post the answer (`late`: after the deadline). */
  | { type: 'deliver-answer'; report: RunStatusReport; late?: boolean }
  /** Status `error` or `canceled`: tell the thread how the run ended. */
  | { type: 'deliver-outcome'; report: RunStatusReport; late?: boolean }
  | { type: 'notify-start-failed'; error: unknown }
  | { type: 'notify-poll-failed'; error: unknown }
  /** `watching`: the thread is told the run is still watched; otherwise this ends the turn. */
  | { type: 'notify-deadline'; watching: boolean }
  /** Keep polling past the deadline, at the slow pace, until the watch limit. */
  | { type: 'watch-late' }
  /** The watch limit passed: tell the thread and end the turn with the run left open. */
  | { type: 'notify-watch-ended' };

export interface Transition {
  state: TurnState;
  effects: TurnEffect[];
}

const SCHEDULE_POLL: TurnEffect = { type: 'schedule-poll' };

/**
 * True when `report` is only the previous turn's final status seen again (same status, message
 * and totalSteps, compared by digest): right after a follow-up the service may still show it until
 * it registers the new turn. Missing message / totalSteps compare as '' / 0.
 */
export function isStaleReport(report: RunStatusReport, previousFinal: ReportDigest | undefined): boolean {
  if (previousFinal === undefined) return false;
  return sameReportDigest(digestReport(report), previousFinal);
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
    case 'checking':
      return fromChecking(state, event);
    case 'starting':
      return fromStarting(state, event);
    case 'running':
      return state.awaitingDelivery ? fromDelivering(state, event) : fromRunning(state, event);
  }
}

function unchanged(state: TurnState): Transition {
  return { state, effects: [] };
}

const BUSY: TurnEffect = { type: 'refuse-turn', reason: 'busy' };

function onMessage(state: TurnState, turnId: string): Transition {
  // Rule 2 of the seed: a follow-up only after the previous turn is terminal; never queue it.
  if (state.phase !== 'idle') return { state, effects: [BUSY] };
  const { sessionId, lastFinal } = state;
  if (state.runOpen && sessionId !== undefined) {
    const checking: CheckingTurnState = { phase: 'checking', turnId, sessionId, previousFinal: lastFinal };
    return { state: checking, effects: [{ type: 'check-previous-run', sessionId }] };
  }
  const next: StartingTurnState = { phase: 'starting', turnId, sessionId, previousFinal: lastFinal };
  const effect: TurnEffect =
    sessionId === undefined ? { type: 'start-run' } : { type: 'follow-up', sessionId };
  return { state: next, effects: [effect] };
}

function fromChecking(state: CheckingTurnState, event: TurnEvent): Transition {
  if (event.type !== 'previous-run-checked') return unchanged(state);
  const { report } = event;
  // Could not read it: the follow-up itself will tell (the same error, said in the thread).
  if (report === undefined || TERMINAL_STATUSES.has(report.status)) {
    const previousFinal = report ? digestReport(report) : state.previousFinal;
    const starting: StartingTurnState = {
      phase: 'starting',
      turnId: state.turnId,
      sessionId: state.sessionId,
      previousFinal,
    };
    return { state: starting, effects: [{ type: 'follow-up', sessionId: state.sessionId }] };
  }
  // Still working (`loading`, or `timeout`: nothing new yet): no follow-up may be sent.
  const idle: IdleTurnState = {
    phase: 'idle',
    sessionId: state.sessionId,
    lastFinal: state.previousFinal,
    runOpen: true,
  };
  return { state: idle, effects: [BUSY] };
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
      return { state: back, effects: [{ type: 'notify-deadline', watching: false }] };
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
      if (state.late) return unchanged(state);
      if (event.watchLate) {
        return {
          state: { ...state, late: true },
          effects: [{ type: 'notify-deadline', watching: true }, { type: 'watch-late' }],
        };
      }
      return {
        state: { ...state, awaitingDelivery: true },
        effects: [{ type: 'notify-deadline', watching: false }],
      };
    case 'watch-ended':
      if (!state.late) return unchanged(state);
      return { state: { ...state, awaitingDelivery: true }, effects: [{ type: 'notify-watch-ended' }] };
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
    const type = report.status === 'done' ? 'deliver-answer' : 'deliver-outcome';
    const effect: TurnEffect = state.late ? { type, report, late: true } : { type, report };
    return { state: { ...fresh, awaitingDelivery: true, final: digestReport(report) }, effects: [effect] };
  }
  const steps = report.totalSteps ?? 0;
  // Past the deadline the thread was told the run goes on; no progress indicator is left to update.
  if (steps <= state.stepsShown || state.late) return { state: fresh, effects: [SCHEDULE_POLL] };
  return {
    state: { ...fresh, stepsShown: steps },
    effects: [{ type: 'show-progress', steps }, SCHEDULE_POLL],
  };
}

function fromDelivering(state: RunningTurnState, event: TurnEvent): Transition {
  if (event.type !== 'delivered') return unchanged(state);
  // After a deadline or a failed poll there is no final report to compare a later poll with, and
  // the run may still be working: the next message checks it first.
  if (state.final)
    return { state: { phase: 'idle', sessionId: state.sessionId, lastFinal: state.final }, effects: [] };
  return { state: { phase: 'idle', sessionId: state.sessionId, runOpen: true }, effects: [] };
}
