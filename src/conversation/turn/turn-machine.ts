/**
 * The turn state machine of one thread, deciding every step of a turn:
 * `idle → (checking →) starting → polling (→ late) → delivering → idle`. Pure: it returns the next
 * state and the effects to carry out as data; the caller performs them and feeds the results back
 * as events. See the seed's "States and transitions" for the run statuses.
 *
 * The phases are one vocabulary with the stored turn record's: a record is saved in `starting`,
 * `polling` or `late` ({@link StoredTurnPhase}), and {@link stateOfRecord} reads it back as the
 * machine's state (a takeover, a restart).
 *
 * Past the turn deadline a polled turn may go on `late`: the thread is told, the run is watched
 * at a slow pace, and a late answer is still delivered (marked late); when the watch ends too the
 * thread goes idle with its run left open. A message in a thread whose run was left open goes
 * through `checking` first: the seed's rule 2 allows a follow-up only after a terminal status.
 *
 * A stop (Slack's Stop button on the thread's agent session) ends a polled turn at once: no more
 * polls, one note, and the thread forgets the run's session — the service has no cancel and takes
 * no follow-up before a run is terminal, so the next question starts a new session.
 *
 * Only an idle thread takes a message: the thread's busy lock (turn-ledger.ts) refuses one while
 * a turn runs, on whichever replica runs it, so the machine never sees a message in another phase.
 */
import type { ReportDigest, RunStatusReport } from '../ports.js';
import { TERMINAL_STATUSES } from '../ports.js';
import { digestReport, sameReportDigest } from './report-digest.js';
import type { StoredTurnPhase, TurnRecord } from './turn-records.js';

/** No turn in flight: the only state that accepts a new turn. */
export interface IdleTurnState {
  phase: 'idle';
  /** The thread's agent session, once its first run has started. */
  sessionId?: string | undefined;
  /** The digest of the thread's last finished turn's final report (for the stale rule). */
  lastFinal?: ReportDigest | undefined;
  /** The last turn ended without a terminal status: its run may still work. */
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

/** The run is started and being polled (`late`: past the deadline, watched at a slow pace). */
export interface PollingTurnState {
  phase: 'polling' | 'late';
  turnId: string;
  sessionId: string;
  previousFinal?: ReportDigest | undefined;
  /** True after a follow-up until a report shows the service has registered the new turn. */
  awaitingFresh: boolean;
  /** The highest `totalSteps` already shown as progress. */
  stepsShown: number;
}

/** What the thread record keeps once a turn ends (written when the thread is freed). */
export type ThreadChange =
  /** The run ended with this final report: the next turn follows up, compared against it. */
  | { kind: 'final'; lastFinal: ReportDigest }
  /** No terminal status (deadline, watch ended, polling failed): the run may still be working. */
  | { kind: 'run-open' }
  /** The run never started: the thread keeps its previous session and final report. */
  | { kind: 'unchanged' }
  /** Someone stopped the run: the thread drops its session; the next question starts a new one. */
  | { kind: 'stopped' };

/** The outcome is decided and being posted (outcome-deliverer.ts); the turn ends with `delivered`. */
export interface DeliveringTurnState {
  phase: 'delivering';
  turnId: string;
  sessionId?: string | undefined;
  previousFinal?: ReportDigest | undefined;
  thread: ThreadChange;
}

export type TurnState =
  | IdleTurnState
  | CheckingTurnState
  | StartingTurnState
  | PollingTurnState
  | DeliveringTurnState;

/** A thread that has never run a turn. */
export const initialTurnState: IdleTurnState = { phase: 'idle' };

export type TurnEvent =
  /** Someone asked for a new turn (a mention or a reply in the thread). */
  | { type: 'message-received'; turnId: string }
  /** The status of a run left open, read before a follow-up; undefined when it could not be read. */
  | { type: 'previous-run-checked'; report?: RunStatusReport | undefined }
  | { type: 'run-started'; sessionId: string }
  | { type: 'run-start-failed'; error: unknown }
  /** A turn found still starting after its instance died: its run may never have started. */
  | { type: 'start-lost' }
  | { type: 'status-report'; report: RunStatusReport }
  /** A status request failed; `permanent` when polling cannot succeed (e.g. the session is gone). */
  | { type: 'poll-failed'; error: unknown; permanent?: boolean | undefined }
  /** `watchLate`: keep watching the run past the deadline (a late-watch limit is configured). */
  | { type: 'deadline-passed'; watchLate?: boolean | undefined }
  /** The late watch reached its limit too. */
  | { type: 'watch-ended' }
  /** Someone inside pressed Stop on the thread's agent session (seen here or through the store). */
  | { type: 'stop-requested' }
  /** The outcome was posted (or given up on): the turn is over. */
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
  | { type: 'notify-lost' }
  | { type: 'notify-poll-failed'; error: unknown }
  /** `watching`: the thread is told the run is still watched; otherwise this ends the turn. */
  | { type: 'notify-deadline'; watching: boolean }
  /** Keep polling past the deadline, at the slow pace, until the watch limit. */
  | { type: 'watch-late' }
  /** The watch limit passed: tell the thread and end the turn with the run left open. */
  | { type: 'notify-watch-ended' }
  /** Stopped: stop polling, tell the thread its answer will not be posted, forget the session. */
  | { type: 'notify-stopped' };

export interface Transition {
  state: TurnState;
  effects: TurnEffect[];
}

const SCHEDULE_POLL: TurnEffect = { type: 'schedule-poll' };
const BUSY: TurnEffect = { type: 'refuse-turn', reason: 'busy' };
const RUN_OPEN: ThreadChange = { kind: 'run-open' };

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
  switch (state.phase) {
    case 'idle':
      return event.type === 'message-received' ? onMessage(state, event.turnId) : unchanged(state);
    case 'checking':
      return event.type === 'previous-run-checked' ? onChecked(state, event.report) : unchanged(state);
    case 'starting':
      return fromStarting(state, event);
    case 'polling':
    case 'late':
      return fromPolling(state, event);
    case 'delivering':
      return event.type === 'delivered' ? onDelivered(state) : unchanged(state);
  }
}

/** The machine's state of a stored turn record (the phases are the same words). */
export function stateOfRecord(turn: TurnRecord): TurnState {
  const starting: StartingTurnState = {
    phase: 'starting',
    turnId: turn.turnId,
    sessionId: turn.kind === 'followUp' ? turn.sessionId : undefined,
    previousFinal: turn.previousFinal,
  };
  if (turn.phase === 'starting' || turn.sessionId === undefined) return starting;
  const { state } = transition(starting, { type: 'run-started', sessionId: turn.sessionId });
  return { ...(state as PollingTurnState), phase: turn.phase };
}

/** The phase to store for a turn in `state`, or undefined when no record stands for it. */
export function storedPhase(state: TurnState): StoredTurnPhase | undefined {
  const { phase } = state;
  return phase === 'starting' || phase === 'polling' || phase === 'late' ? phase : undefined;
}

function unchanged(state: TurnState): Transition {
  return { state, effects: [] };
}

function onMessage(state: IdleTurnState, turnId: string): Transition {
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

function onChecked(state: CheckingTurnState, report: RunStatusReport | undefined): Transition {
  // Could not read it: the follow-up itself will tell (the same error, said in the thread).
  if (report === undefined || TERMINAL_STATUSES.has(report.status)) {
    const previousFinal = report ? digestReport(report) : state.previousFinal;
    const { turnId, sessionId } = state;
    const starting: StartingTurnState = { phase: 'starting', turnId, sessionId, previousFinal };
    return { state: starting, effects: [{ type: 'follow-up', sessionId }] };
  }
  // Still working (`loading`, or `timeout`: nothing new yet): no follow-up may be sent.
  const { sessionId, previousFinal } = state;
  return { state: { phase: 'idle', sessionId, lastFinal: previousFinal, runOpen: true }, effects: [BUSY] };
}

function fromStarting(state: StartingTurnState, event: TurnEvent): Transition {
  switch (event.type) {
    case 'run-started': {
      const polling: PollingTurnState = {
        phase: 'polling',
        turnId: state.turnId,
        sessionId: event.sessionId,
        previousFinal: state.previousFinal,
        awaitingFresh: state.sessionId !== undefined && state.previousFinal !== undefined,
        stepsShown: 0,
      };
      return { state: polling, effects: [SCHEDULE_POLL] };
    }
    // A turn that never started keeps the thread's previous session and final report.
    case 'run-start-failed':
      return ending(state, { kind: 'unchanged' }, { type: 'notify-start-failed', error: event.error });
    case 'start-lost':
      return ending(state, { kind: 'unchanged' }, { type: 'notify-lost' });
    default:
      return unchanged(state);
  }
}

/** The outcome is decided: `effect` posts it; the thread record takes `thread` once freed. */
function ending(
  state: StartingTurnState | PollingTurnState,
  thread: ThreadChange,
  effect: TurnEffect,
): Transition {
  const { turnId, sessionId, previousFinal } = state;
  return { state: { phase: 'delivering', turnId, sessionId, previousFinal, thread }, effects: [effect] };
}

function fromPolling(state: PollingTurnState, event: TurnEvent): Transition {
  switch (event.type) {
    case 'status-report':
      return onReport(state, event.report);
    case 'poll-failed':
      if (!event.permanent) return { state, effects: [SCHEDULE_POLL] };
      return ending(state, RUN_OPEN, { type: 'notify-poll-failed', error: event.error });
    case 'deadline-passed':
      if (state.phase === 'late') return unchanged(state);
      if (!event.watchLate) return ending(state, RUN_OPEN, { type: 'notify-deadline', watching: false });
      return {
        state: { ...state, phase: 'late' },
        effects: [{ type: 'notify-deadline', watching: true }, { type: 'watch-late' }],
      };
    case 'watch-ended':
      if (state.phase !== 'late') return unchanged(state);
      return ending(state, RUN_OPEN, { type: 'notify-watch-ended' });
    case 'stop-requested':
      return ending(state, { kind: 'stopped' }, { type: 'notify-stopped' });
    default:
      return unchanged(state);
  }
}

function onReport(state: PollingTurnState, report: RunStatusReport): Transition {
  if (state.awaitingFresh && isStaleReport(report, state.previousFinal)) {
    return { state, effects: [SCHEDULE_POLL] };
  }
  // `timeout` is the long poll saying "nothing new yet": it proves nothing about the new turn.
  if (report.status === 'timeout') return { state, effects: [SCHEDULE_POLL] };
  const fresh: PollingTurnState = { ...state, awaitingFresh: false };
  if (TERMINAL_STATUSES.has(report.status)) {
    const type = report.status === 'done' ? 'deliver-answer' : 'deliver-outcome';
    const effect: TurnEffect = state.phase === 'late' ? { type, report, late: true } : { type, report };
    return ending(fresh, { kind: 'final', lastFinal: digestReport(report) }, effect);
  }
  const steps = report.totalSteps ?? 0;
  // Past the deadline the thread was told the run goes on; no progress indicator is left to update.
  if (steps <= state.stepsShown || state.phase === 'late') return { state: fresh, effects: [SCHEDULE_POLL] };
  return {
    state: { ...fresh, stepsShown: steps },
    effects: [{ type: 'show-progress', steps }, SCHEDULE_POLL],
  };
}

/** After a deadline or a failed poll the run may still be working: the next message checks it first. */
function onDelivered(state: DeliveringTurnState): Transition {
  const { sessionId, thread } = state;
  if (thread.kind === 'final')
    return { state: { phase: 'idle', sessionId, lastFinal: thread.lastFinal }, effects: [] };
  if (thread.kind === 'run-open') return { state: { phase: 'idle', sessionId, runOpen: true }, effects: [] };
  if (thread.kind === 'stopped') return { state: { phase: 'idle' }, effects: [] };
  return { state: { phase: 'idle', sessionId, lastFinal: state.previousFinal }, effects: [] };
}
