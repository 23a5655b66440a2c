/**
 * The turn state machine of one thread, pure, deciding every step of a turn:
 * `idle → (checking →) starting → polling (→ late) → delivering → idle` (vocabulary: turn-states.ts).
 * A run left open (deadline, watch ended) is checked before a follow-up: the seed's rule 2 allows one
 * only after a terminal status. A stop makes the thread forget the session: the service has no cancel.
 * Only an idle thread takes a message: the busy lock (turn-ledger.ts) refuses one on any replica.
 */
import { type ReportDigest, type RunStatusReport, TERMINAL_STATUSES } from '../ports.js';
import { digestReport, sameReportDigest } from './report-digest.js';
import type { StoredTurnPhase, ThreadRecord, TurnDraft, TurnRecord } from './turn-records.js';
import type {
  CheckingTurnState,
  DeliveringTurnState,
  IdleTurnState,
  PollingTurnState,
  StartingTurnState,
  ThreadChange,
  Transition,
  TurnEffect,
  TurnEvent,
  TurnState,
} from './turn-states.js';

const SCHEDULE_POLL: TurnEffect = { type: 'schedule-poll' };
const BUSY: TurnEffect = { type: 'refuse-turn', reason: 'busy' };
const RUN_OPEN: ThreadChange = { kind: 'run-open' };

/**
 * True when `report` is only the previous turn's final status seen again (by digest): right after a
 * follow-up the service may still show it until it registers the new turn.
 */
export function isStaleReport(report: RunStatusReport, previousFinal: ReportDigest | undefined): boolean {
  if (previousFinal === undefined) return false;
  return sameReportDigest(digestReport(report), previousFinal);
}

/** The next state and the effects to carry out; an event that does not apply changes nothing. */
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
  const { turnId, previousFinal } = turn;
  const sessionId = turn.kind === 'followUp' ? turn.sessionId : undefined;
  const starting: StartingTurnState = { phase: 'starting', turnId, sessionId, previousFinal };
  if (turn.phase === 'starting' || turn.sessionId === undefined) return starting;
  const { state } = transition(starting, { type: 'run-started', sessionId: turn.sessionId });
  return { ...(state as PollingTurnState), phase: turn.phase };
}

/** A taken message's turn record, `starting`; its first effect says whether it starts a run or follows up. */
export function startingRecord(draft: TurnDraft): TurnRecord {
  return { ...draft, kind: 'start', phase: 'starting' };
}

/** The machine's state of a thread whose busy lock is free: the only state that takes a message. */
export function stateOfThread(thread: ThreadRecord | undefined): IdleTurnState {
  if (!thread) return { phase: 'idle' };
  const { sessionId, lastFinal, runOpenSince } = thread;
  return { phase: 'idle', sessionId, lastFinal, runOpen: runOpenSince !== undefined };
}

/** What the thread record takes once the turn in `state` is over (undefined: not decided). */
export function threadChangeOf(state: TurnState): ThreadChange | undefined {
  return state.phase === 'delivering' ? state.thread : undefined;
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
      return {
        state: polling,
        effects: [{ type: 'record-start', sessionId: event.sessionId }, SCHEDULE_POLL],
      };
    }
    // A turn that never started keeps the thread's previous session and final report.
    case 'run-start-failed':
      return ending(state, { kind: 'unchanged' }, { type: 'notify-start-failed', error: event.error });
    // Found still starting after its instance died: its run may never have started.
    case 'taken-over':
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
    case 'taken-over':
      return { state, effects: onTakeover(state) };
    default:
      return unchanged(state);
  }
}

/** Polled elsewhere until its instance died: poll it here (past its deadline: watch it, told once). */
function onTakeover(state: PollingTurnState): TurnEffect[] {
  const resume: TurnEffect = { type: 'resume', sessionId: state.sessionId };
  if (state.phase === 'polling') return [resume, SCHEDULE_POLL];
  return [resume, { type: 'notify-deadline', watching: true }, { type: 'watch-late' }];
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
