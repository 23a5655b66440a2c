/** The turn machine's vocabulary: its states (one per phase), events and effects; rules: turn-machine.ts. */
import type { ReportDigest, RunStatusReport } from '../ports.js';
import type { ThreadRecord } from './turn-records.js';

/** No turn in flight: the only state that accepts a new turn. */
export interface IdleTurnState extends Pick<ThreadRecord, 'sessionId' | 'lastFinal'> {
  phase: 'idle';
  /** The last turn ended without a terminal status: its run may still work. */
  runOpen?: boolean | undefined;
}

/** What every phase in flight carries: the turn, and the final report a follow-up compares against. */
interface TurnUnderWay {
  turnId: string;
  previousFinal?: ReportDigest | undefined;
}

/** A message arrived in a thread whose run was left open: its status is read before anything is sent. */
export interface CheckingTurnState extends TurnUnderWay {
  phase: 'checking';
  sessionId: string;
}

/** The start (or follow-up) request is on its way; no run to poll yet. */
export interface StartingTurnState extends TurnUnderWay {
  phase: 'starting';
  /** Set for a follow-up: the session the turn continues. */
  sessionId?: string | undefined;
}

/** The run is started and being polled (`late`: past the deadline, watched at a slow pace). */
export interface PollingTurnState extends TurnUnderWay {
  phase: 'polling' | 'late';
  sessionId: string;
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

/** The outcome is decided and being posted (outcome-poster.ts); the turn ends with `delivered`. */
export interface DeliveringTurnState extends TurnUnderWay {
  phase: 'delivering';
  sessionId?: string | undefined;
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
  /** This instance took the turn over from one that died (its lease lapsed). */
  | { type: 'taken-over' }
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
  /** The run started: its session id is stored at once (a crash from here on resumes the run). */
  | { type: 'record-start'; sessionId: string }
  /** Poll the run (nothing to do when it is polled already: the scheduler polls again by itself). */
  | { type: 'schedule-poll' }
  /** A taken-over run: the thread keeps its session. */
  | { type: 'resume'; sessionId: string }
  | { type: 'show-progress'; steps: number }
  /** Status `done`: post the answer (`late`: after the deadline). */
  | { type: 'deliver-answer'; report: RunStatusReport; late?: boolean }
  /** Status `error` or `canceled`: tell the thread how the run ended. */
  | { type: 'deliver-outcome'; report: RunStatusReport; late?: boolean }
  | { type: 'notify-start-failed'; error: unknown }
  | { type: 'notify-lost' }
  | { type: 'notify-poll-failed'; error: unknown }
  /** `watching`: the thread is told (once, a takeover included) the run is still watched; else it ends. */
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
