import { describe, expect, it } from 'vitest';
import type { RunStatusReport } from '../../../src/conversation/ports.js';
import { digestReport } from '../../../src/conversation/turn/report-digest.js';
import {
  isStaleReport,
  startingRecord,
  stateOfRecord,
  storedPhase,
  transition,
} from '../../../src/conversation/turn/turn-machine.js';
import type { TurnRecord } from '../../../src/conversation/turn/turn-records.js';
import {
  type DeliveringTurnState,
  initialTurnState,
  type PollingTurnState,
  type StartingTurnState,
  type ThreadChange,
  type TurnEffect,
  type TurnEvent,
  type TurnState,
} from '../../../src/conversation/turn/turn-states.js';

/** The previous turn's final report as the service sent it, and as the machine remembers it. */
const previousReport: RunStatusReport = { status: 'done', message: 'first answer', totalSteps: 3 };
const previousFinal = digestReport(previousReport);
const failure = new Error('boom');
const answerReport: RunStatusReport = { status: 'done', message: 'answer', totalSteps: 4 };

const idle: TurnState = initialTurnState;
const idleWithSession: TurnState = { phase: 'idle', sessionId: 's1', lastFinal: previousFinal };
const startingNew: StartingTurnState = {
  phase: 'starting',
  turnId: 't1',
  sessionId: undefined,
  previousFinal: undefined,
};
const startingFollowUp: StartingTurnState = {
  phase: 'starting',
  turnId: 't2',
  sessionId: 's1',
  previousFinal,
};
const polling: PollingTurnState = {
  phase: 'polling',
  turnId: 't1',
  sessionId: 's1',
  previousFinal: undefined,
  awaitingFresh: false,
  stepsShown: 2,
};
const pollingFollowUp: PollingTurnState = {
  ...polling,
  turnId: 't2',
  previousFinal,
  awaitingFresh: true,
  stepsShown: 0,
};
const late: PollingTurnState = { ...polling, phase: 'late' };

/** The delivering state a turn in `from` ends in, the thread record to take `thread`. */
function ending(from: StartingTurnState | PollingTurnState, thread: ThreadChange): DeliveringTurnState {
  const { turnId, sessionId, previousFinal: previous } = from;
  return { phase: 'delivering', turnId, sessionId, previousFinal: previous, thread };
}
const finalOf = (r: RunStatusReport): ThreadChange => ({ kind: 'final', lastFinal: digestReport(r) });
const RUN_OPEN: ThreadChange = { kind: 'run-open' };
const UNCHANGED: ThreadChange = { kind: 'unchanged' };
const delivering = ending(polling, finalOf(answerReport));

const report = (r: RunStatusReport): TurnEvent => ({ type: 'status-report', report: r });
const message: TurnEvent = { type: 'message-received', turnId: 't9' };
const started: TurnEvent = { type: 'run-started', sessionId: 's1' };
const startFailed: TurnEvent = { type: 'run-start-failed', error: failure };
const takenOver: TurnEvent = { type: 'taken-over' };
const pollFailed: TurnEvent = { type: 'poll-failed', error: failure };
const pollFailedForGood: TurnEvent = { type: 'poll-failed', error: failure, permanent: true };
const deadline: TurnEvent = { type: 'deadline-passed' };
const delivered: TurnEvent = { type: 'delivered' };
const deadlineWatching: TurnEvent = { type: 'deadline-passed', watchLate: true };
const watchEnded: TurnEvent = { type: 'watch-ended' };
const stopRequested: TurnEvent = { type: 'stop-requested' };
const STOPPED: ThreadChange = { kind: 'stopped' };
const checked = (r?: RunStatusReport): TurnEvent => ({ type: 'previous-run-checked', report: r });
const loading3 = report({ status: 'loading', totalSteps: 3 });
const timeout = report({ status: 'timeout' });
const done = report(answerReport);
const errored = report({ status: 'error', message: 'agent failed' });
const canceled = report({ status: 'canceled' });
const stale = report(previousReport);

const POLL: TurnEffect = { type: 'schedule-poll' };
const RECORD: TurnEffect = { type: 'record-start', sessionId: 's1' };
const BUSY: TurnEffect = { type: 'refuse-turn', reason: 'busy' };

/** [case, state, event, expected state ('same' = unchanged object), expected effects] */
type Row = [string, TurnState, TurnEvent, TurnState | 'same', TurnEffect[]];

const idleRunOpen: TurnState = { phase: 'idle', sessionId: 's1', lastFinal: previousFinal, runOpen: true };
const checking: TurnState = { phase: 'checking', turnId: 't9', sessionId: 's1', previousFinal };

/** Events a phase does not act on: unchanged, no effects (a late report, a duplicate start…). */
const ignored = (name: string, state: TurnState, events: TurnEvent[]): Row[] =>
  events.map((e): Row => [`${name} ignores ${e.type}`, state, e, 'same', []]);

const rows: Row[] = [
  // idle: only a new turn does anything
  ['idle + message → start-run', idle, message, { phase: 'starting', turnId: 't9' }, [{ type: 'start-run' }]],
  [
    'idle with a session + message → follow-up',
    idleWithSession,
    message,
    { phase: 'starting', turnId: 't9', sessionId: 's1', previousFinal },
    [{ type: 'follow-up', sessionId: 's1' }],
  ],
  ...ignored('idle', idleWithSession, [
    started,
    startFailed,
    takenOver,
    loading3,
    done,
    pollFailed,
    deadline,
    watchEnded,
    checked(previousReport),
    delivered,
    stopRequested,
  ]),

  // starting
  ['starting + run-started → polling', startingNew, started, { ...polling, stepsShown: 0 }, [RECORD, POLL]],
  [
    'follow-up + run-started → polling, awaiting a fresh report',
    startingFollowUp,
    started,
    pollingFollowUp,
    [RECORD, POLL],
  ],
  [
    'starting + start failed → delivering the notice, the thread unchanged',
    startingNew,
    startFailed,
    ending(startingNew, UNCHANGED),
    [{ type: 'notify-start-failed', error: failure }],
  ],
  [
    'follow-up start failed → delivering, keeping the session',
    startingFollowUp,
    startFailed,
    ending(startingFollowUp, UNCHANGED),
    [{ type: 'notify-start-failed', error: failure }],
  ],
  [
    'starting + taken over (found after a restart) → delivering the lost notice',
    startingFollowUp,
    takenOver,
    ending(startingFollowUp, UNCHANGED),
    [{ type: 'notify-lost' }],
  ],
  ...ignored('starting', startingNew, [
    message,
    loading3,
    pollFailed,
    deadline,
    watchEnded,
    checked(previousReport),
    delivered,
    // No run to stop yet: the stop mark waits in the store for the first poll.
    stopRequested,
  ]),

  // polling
  [
    'loading with more steps → progress + poll',
    polling,
    loading3,
    { ...polling, stepsShown: 3 },
    [{ type: 'show-progress', steps: 3 }, POLL],
  ],
  [
    'loading without new steps → poll only',
    polling,
    report({ status: 'loading', totalSteps: 2 }),
    polling,
    [POLL],
  ],
  ['loading without totalSteps → poll only', polling, report({ status: 'loading' }), polling, [POLL]],
  ['timeout → poll again', polling, timeout, 'same', [POLL]],
  [
    'done → deliver the answer',
    polling,
    done,
    delivering,
    [{ type: 'deliver-answer', report: answerReport }],
  ],
  [
    'error → deliver the outcome',
    polling,
    errored,
    ending(polling, finalOf({ status: 'error', message: 'agent failed' })),
    [{ type: 'deliver-outcome', report: { status: 'error', message: 'agent failed' } }],
  ],
  [
    'canceled → deliver the outcome',
    polling,
    canceled,
    ending(polling, finalOf({ status: 'canceled' })),
    [{ type: 'deliver-outcome', report: { status: 'canceled' } }],
  ],
  ['poll failed → poll again', polling, pollFailed, 'same', [POLL]],
  [
    'poll failed for good → notify, the run left open',
    polling,
    pollFailedForGood,
    ending(polling, RUN_OPEN),
    [{ type: 'notify-poll-failed', error: failure }],
  ],
  [
    'deadline → notify, the run left open',
    polling,
    deadline,
    ending(polling, RUN_OPEN),
    [{ type: 'notify-deadline', watching: false }],
  ],
  [
    'deadline with a late watch → late: notify, keep watching',
    polling,
    deadlineWatching,
    late,
    [{ type: 'notify-deadline', watching: true }, { type: 'watch-late' }],
  ],
  [
    'polling + stop → delivering the stop note; the thread drops the session',
    polling,
    stopRequested,
    ending(polling, STOPPED),
    [{ type: 'notify-stopped' }],
  ],
  [
    'follow-up polling + stop → the same: never a follow-up of the stopped run',
    pollingFollowUp,
    stopRequested,
    ending(pollingFollowUp, STOPPED),
    [{ type: 'notify-stopped' }],
  ],
  [
    'polling + taken over → keep the session, poll here',
    polling,
    takenOver,
    'same',
    [{ type: 'resume', sessionId: 's1' }, POLL],
  ],
  ...ignored('polling', polling, [
    message,
    started,
    startFailed,
    watchEnded,
    checked(previousReport),
    delivered,
  ]),

  // late: past the deadline, watched at a slow pace
  ['late: new steps show no progress', late, loading3, late, [POLL]],
  ['late: timeout → poll again', late, timeout, 'same', [POLL]],
  [
    'late: done → deliver the answer, marked late',
    late,
    done,
    ending(late, finalOf(answerReport)),
    [{ type: 'deliver-answer', report: answerReport, late: true }],
  ],
  [
    'late: error → deliver the outcome, marked late',
    late,
    errored,
    ending(late, finalOf({ status: 'error', message: 'agent failed' })),
    [{ type: 'deliver-outcome', report: { status: 'error', message: 'agent failed' }, late: true }],
  ],
  [
    'late: watch ended → notify, end the turn with the run left open',
    late,
    watchEnded,
    ending(late, RUN_OPEN),
    [{ type: 'notify-watch-ended' }],
  ],
  ['late: poll failed → poll again', late, pollFailed, 'same', [POLL]],
  [
    'late: poll failed for good → notify',
    late,
    pollFailedForGood,
    ending(late, RUN_OPEN),
    [{ type: 'notify-poll-failed', error: failure }],
  ],
  [
    'late + stop → the late answer is never delivered: the stop note instead',
    late,
    stopRequested,
    ending(late, STOPPED),
    [{ type: 'notify-stopped' }],
  ],
  [
    'late + taken over → keep the session, the thread told it is watched, watch on',
    late,
    takenOver,
    'same',
    [
      { type: 'resume', sessionId: 's1' },
      { type: 'notify-deadline', watching: true },
      { type: 'watch-late' },
    ],
  ],
  ...ignored('late', late, [message, started, startFailed, deadlineWatching, checked(), delivered]),

  // a message in a thread whose run was left open: read its status first (rule 2)
  [
    'idle with a run left open + message → check the run first',
    idleRunOpen,
    message,
    checking,
    [{ type: 'check-previous-run', sessionId: 's1' }],
  ],
  [
    'checking: the run finished → follow-up, its final report is the stale one',
    checking,
    checked({ status: 'done', message: 'late answer', totalSteps: 9 }),
    {
      phase: 'starting',
      turnId: 't9',
      sessionId: 's1',
      previousFinal: digestReport({ status: 'done', message: 'late answer', totalSteps: 9 }),
    },
    [{ type: 'follow-up', sessionId: 's1' }],
  ],
  [
    'checking: still loading → refused, the run stays open',
    checking,
    checked({ status: 'loading', totalSteps: 9 }),
    idleRunOpen,
    [BUSY],
  ],
  [
    'checking: timeout (nothing new) → refused',
    checking,
    checked({ status: 'timeout' }),
    idleRunOpen,
    [BUSY],
  ],
  [
    'checking: status unreadable → follow-up (the service then says what is wrong)',
    checking,
    checked(undefined),
    { phase: 'starting', turnId: 't9', sessionId: 's1', previousFinal },
    [{ type: 'follow-up', sessionId: 's1' }],
  ],
  ...ignored('checking', checking, [
    message,
    started,
    startFailed,
    takenOver,
    loading3,
    done,
    pollFailed,
    deadline,
    watchEnded,
    delivered,
    stopRequested,
  ]),

  // the stale rule, right after a follow-up
  ['follow-up: previous final again → not the answer, poll', pollingFollowUp, stale, 'same', [POLL]],
  ['follow-up: timeout keeps waiting for a fresh report', pollingFollowUp, timeout, 'same', [POLL]],
  [
    'follow-up: loading proves the new turn is registered',
    pollingFollowUp,
    loading3,
    { ...pollingFollowUp, awaitingFresh: false, stepsShown: 3 },
    [{ type: 'show-progress', steps: 3 }, POLL],
  ],
  [
    'follow-up: a different done is the answer',
    pollingFollowUp,
    done,
    ending(pollingFollowUp, finalOf(answerReport)),
    [{ type: 'deliver-answer', report: answerReport }],
  ],
  [
    'after a fresh report, a report equal to the previous final is the answer',
    { ...pollingFollowUp, awaitingFresh: false },
    stale,
    ending(pollingFollowUp, { kind: 'final', lastFinal: previousFinal }),
    [{ type: 'deliver-answer', report: previousReport }],
  ],

  // delivering: only `delivered` ends it; the thread becomes what the outcome decided
  [
    'delivered → idle with the final report',
    delivering,
    delivered,
    { phase: 'idle', sessionId: 's1', lastFinal: digestReport(answerReport) },
    [],
  ],
  [
    'delivered after a deadline → idle with the run left open',
    ending(polling, RUN_OPEN),
    delivered,
    { phase: 'idle', sessionId: 's1', runOpen: true },
    [],
  ],
  [
    'delivered after the watch ended → idle with the run left open',
    ending(late, RUN_OPEN),
    delivered,
    { phase: 'idle', sessionId: 's1', runOpen: true },
    [],
  ],
  [
    'delivered after a stop → idle with no session: the next message starts a new run',
    ending(pollingFollowUp, STOPPED),
    delivered,
    { phase: 'idle' },
    [],
  ],
  [
    'delivered after a failed follow-up → idle as before the turn',
    ending(startingFollowUp, UNCHANGED),
    delivered,
    idleWithSession,
    [],
  ],
  ...ignored('delivering', delivering, [
    message,
    started,
    startFailed,
    takenOver,
    loading3,
    done,
    stale,
    pollFailed,
    deadline,
    watchEnded,
    checked(previousReport),
    // The outcome was decided before the stop: it stands.
    stopRequested,
  ]),
];

describe('transition', () => {
  it.each(rows)('%s', (_name, state, event, expectedState, expectedEffects) => {
    const result = transition(state, event);
    if (expectedState === 'same') expect(result.state).toBe(state);
    else expect(result.state).toEqual(expectedState);
    expect(result.effects).toEqual(expectedEffects);
  });

  it('covers every event type in every phase', () => {
    const eventTypes = new Set<TurnEvent['type']>([
      'message-received',
      'previous-run-checked',
      'run-started',
      'run-start-failed',
      'taken-over',
      'status-report',
      'poll-failed',
      'deadline-passed',
      'watch-ended',
      'stop-requested',
      'delivered',
    ]);
    const seen = new Set(rows.map(([, state, event]) => `${state.phase}:${event.type}`));
    for (const phase of ['idle', 'checking', 'starting', 'polling', 'late', 'delivering']) {
      for (const type of eventTypes) expect(seen, `${phase}:${type}`).toContain(`${phase}:${type}`);
    }
  });

  it('runs a thread through a stop: the next message starts a new run, not a follow-up', () => {
    const steps: TurnEvent[] = [
      { type: 'message-received', turnId: 't1' },
      { type: 'run-started', sessionId: 's1' },
      report({ status: 'loading', totalSteps: 1 }),
      stopRequested,
      // The run's answer, reported after the stop, is not taken.
      done,
      { type: 'delivered' },
      { type: 'message-received', turnId: 't2' },
    ];
    let state: TurnState = initialTurnState;
    const effects: string[] = [];
    for (const event of steps) {
      const result = transition(state, event);
      state = result.state;
      effects.push(...result.effects.map((e) => e.type));
    }
    expect(effects).toEqual([
      'start-run',
      'record-start',
      'schedule-poll',
      'show-progress',
      'schedule-poll',
      'notify-stopped',
      'start-run',
    ]);
    expect(state).toEqual({ phase: 'starting', turnId: 't2' });
  });

  it('runs a whole thread: start, progress, answer, follow-up past a stale report', () => {
    const steps: TurnEvent[] = [
      { type: 'message-received', turnId: 't1' },
      { type: 'run-started', sessionId: 's1' },
      report({ status: 'loading', totalSteps: 1 }),
      report(previousReport),
      { type: 'delivered' },
      { type: 'message-received', turnId: 't2' },
      { type: 'run-started', sessionId: 's1' },
      report(previousReport),
      report({ status: 'done', message: 'second answer', totalSteps: 5 }),
      { type: 'delivered' },
    ];
    let state: TurnState = initialTurnState;
    const effects: string[] = [];
    for (const event of steps) {
      const result = transition(state, event);
      state = result.state;
      effects.push(...result.effects.map((e) => e.type));
    }
    expect(effects).toEqual([
      'start-run',
      'record-start',
      'schedule-poll',
      'show-progress',
      'schedule-poll',
      'deliver-answer',
      'follow-up',
      'record-start',
      'schedule-poll',
      'schedule-poll',
      'deliver-answer',
    ]);
    expect(state).toEqual({
      phase: 'idle',
      sessionId: 's1',
      lastFinal: digestReport({ status: 'done', message: 'second answer', totalSteps: 5 }),
    });
  });
});

describe("the stored record speaks the machine's phases", () => {
  const record: TurnRecord = {
    turnId: 't2',
    threadKey: 'T1:C1:1.000001',
    teamId: 'T1',
    channel: 'C1',
    threadTs: '1.000001',
    agentId: 'agent',
    userId: 'U1',
    sourceTs: '2.000001',
    kind: 'followUp',
    phase: 'starting',
    sessionId: 's1',
    previousFinal,
    startedAt: 0,
    deadlineAt: 60_000,
  };

  it.each<[string, TurnRecord, TurnState]>([
    ['a follow-up still starting', record, startingFollowUp],
    [
      'a polled follow-up (a takeover waits for a fresh report)',
      { ...record, phase: 'polling' },
      pollingFollowUp,
    ],
    ['a late-watched follow-up', { ...record, phase: 'late' }, { ...pollingFollowUp, phase: 'late' }],
    [
      'a new run, polled',
      { ...record, turnId: 't1', kind: 'start', phase: 'polling', previousFinal: undefined },
      { ...polling, stepsShown: 0 },
    ],
    [
      'a polled record without a session (its run never started)',
      { ...record, kind: 'start', phase: 'polling', sessionId: undefined },
      { ...startingFollowUp, sessionId: undefined },
    ],
  ])('%s', (_name, stored, state) => {
    expect(stateOfRecord(stored)).toEqual(state);
  });

  it("a taken message's record is stored starting, as a new run until its first effect decides", () => {
    const { kind: _kind, phase: _phase, previousFinal: _previousFinal, ...draft } = record;
    const stored = startingRecord(draft);
    expect(stored).toEqual({ ...draft, kind: 'start', phase: 'starting' });
    expect(storedPhase(stateOfRecord(stored))).toBe('starting');
  });

  it.each<[TurnState, string | undefined]>([
    [idle, undefined],
    [checking, undefined],
    [startingNew, 'starting'],
    [polling, 'polling'],
    [late, 'late'],
    [delivering, undefined],
  ])('%o is stored as %s', (state, phase) => {
    expect(storedPhase(state)).toBe(phase);
  });
});

describe('isStaleReport (by digest)', () => {
  it.each<[string, RunStatusReport, RunStatusReport | undefined, boolean]>([
    ['identical', { ...previousReport }, previousReport, true],
    ['no previous final', previousReport, undefined, false],
    ['other status', { ...previousReport, status: 'error' }, previousReport, false],
    ['other message', { ...previousReport, message: 'new' }, previousReport, false],
    [
      'message differing in one trailing space',
      { ...previousReport, message: 'first answer ' },
      previousReport,
      false,
    ],
    ['message differing in case', { ...previousReport, message: 'First answer' }, previousReport, false],
    ['other totalSteps', { ...previousReport, totalSteps: 4 }, previousReport, false],
    [
      'missing fields equal empty ones',
      { status: 'canceled' },
      { status: 'canceled', message: '', totalSteps: 0 },
      true,
    ],
    ['a message is not its absence', { status: 'error', message: 'x' }, { status: 'error' }, false],
  ])('%s', (_name, r, previous, expected) => {
    expect(isStaleReport(r, previous && digestReport(previous))).toBe(expected);
  });

  it('compares with a digest that holds no text of the answer', () => {
    const answer = 'The deploy at 12:04 broke the checkout service.';
    const digest = digestReport({ status: 'done', message: answer, totalSteps: 7 });
    expect(digest).toEqual({
      status: 'done',
      totalSteps: 7,
      messageSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    for (const word of answer.split(/\W+/).filter((w) => w.length > 2)) {
      expect(JSON.stringify(digest)).not.toContain(word);
    }
    expect(isStaleReport({ status: 'done', message: answer, totalSteps: 7 }, digest)).toBe(true);
  });
});
