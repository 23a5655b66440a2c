import { describe, expect, it } from 'vitest';
import type { RunStatusReport } from '../../src/conversation/ports.js';
import { digestReport } from '../../src/conversation/report-digest.js';
import {
  initialTurnState,
  isStaleReport,
  type RunningTurnState,
  type TurnEffect,
  type TurnEvent,
  type TurnState,
  transition,
} from '../../src/conversation/turn-machine.js';

/** The previous turn's final report as the service sent it, and as the machine remembers it. */
const previousReport: RunStatusReport = { status: 'done', message: 'first answer', totalSteps: 3 };
const previousFinal = digestReport(previousReport);
const failure = new Error('boom');

const idle: TurnState = initialTurnState;
const idleWithSession: TurnState = { phase: 'idle', sessionId: 's1', lastFinal: previousFinal };
const startingNew: TurnState = {
  phase: 'starting',
  turnId: 't1',
  sessionId: undefined,
  previousFinal: undefined,
};
const startingFollowUp: TurnState = { phase: 'starting', turnId: 't2', sessionId: 's1', previousFinal };
const running: RunningTurnState = {
  phase: 'running',
  turnId: 't1',
  sessionId: 's1',
  previousFinal: undefined,
  awaitingFresh: false,
  stepsShown: 2,
  awaitingDelivery: false,
};
const runningFollowUp: RunningTurnState = {
  ...running,
  turnId: 't2',
  previousFinal,
  awaitingFresh: true,
  stepsShown: 0,
};
const delivering: RunningTurnState = {
  ...running,
  awaitingDelivery: true,
  final: digestReport({ status: 'done', message: 'answer', totalSteps: 4 }),
};

const report = (r: RunStatusReport): TurnEvent => ({ type: 'status-report', report: r });
const message: TurnEvent = { type: 'message-received', turnId: 't9' };
const started: TurnEvent = { type: 'run-started', sessionId: 's1' };
const startFailed: TurnEvent = { type: 'run-start-failed', error: failure };
const pollFailed: TurnEvent = { type: 'poll-failed', error: failure };
const pollFailedForGood: TurnEvent = { type: 'poll-failed', error: failure, permanent: true };
const deadline: TurnEvent = { type: 'deadline-passed' };
const delivered: TurnEvent = { type: 'delivered' };
const deadlineWatching: TurnEvent = { type: 'deadline-passed', watchLate: true };
const watchEnded: TurnEvent = { type: 'watch-ended' };
const checked = (r?: RunStatusReport): TurnEvent => ({ type: 'previous-run-checked', report: r });
const loading3 = report({ status: 'loading', totalSteps: 3 });
const timeout = report({ status: 'timeout' });
const done = report({ status: 'done', message: 'answer', totalSteps: 4 });
const errored = report({ status: 'error', message: 'agent failed' });
const canceled = report({ status: 'canceled' });
const stale = report(previousReport);

const POLL: TurnEffect = { type: 'schedule-poll' };
const BUSY: TurnEffect = { type: 'refuse-turn', reason: 'busy' };

/** [case, state, event, expected state ('same' = unchanged object), expected effects] */
type Row = [string, TurnState, TurnEvent, TurnState | 'same', TurnEffect[]];

const late: RunningTurnState = { ...running, late: true };
const idleRunOpen: TurnState = { phase: 'idle', sessionId: 's1', lastFinal: previousFinal, runOpen: true };
const checking: TurnState = { phase: 'checking', turnId: 't9', sessionId: 's1', previousFinal };

const idleEvents: TurnEvent[] = [
  started,
  startFailed,
  loading3,
  done,
  pollFailed,
  deadline,
  watchEnded,
  checked(previousReport),
  delivered,
];
const deliveringEvents: TurnEvent[] = [
  started,
  startFailed,
  loading3,
  done,
  stale,
  pollFailed,
  deadline,
  watchEnded,
  checked(previousReport),
];
const checkingEvents: TurnEvent[] = [
  started,
  startFailed,
  loading3,
  done,
  pollFailed,
  deadline,
  watchEnded,
  delivered,
];

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
  ...idleEvents.map((e): Row => [`idle ignores ${e.type}`, idleWithSession, e, 'same', []]),

  // starting
  ['starting + message → refused', startingNew, message, 'same', [BUSY]],
  [
    'starting + run-started → running',
    startingNew,
    started,
    { ...running, stepsShown: 0, awaitingFresh: false },
    [POLL],
  ],
  [
    'follow-up + run-started → running, awaiting a fresh report',
    startingFollowUp,
    started,
    runningFollowUp,
    [POLL],
  ],
  [
    'starting + start failed → idle, notify',
    startingNew,
    startFailed,
    { phase: 'idle', sessionId: undefined, lastFinal: undefined },
    [{ type: 'notify-start-failed', error: failure }],
  ],
  [
    'follow-up start failed → idle keeping the session',
    startingFollowUp,
    startFailed,
    idleWithSession,
    [{ type: 'notify-start-failed', error: failure }],
  ],
  [
    'starting + deadline → idle, notify',
    startingFollowUp,
    deadline,
    idleWithSession,
    [{ type: 'notify-deadline', watching: false }],
  ],
  ['starting ignores status-report', startingNew, loading3, 'same', []],
  ['starting ignores watch-ended', startingNew, watchEnded, 'same', []],
  ['starting ignores previous-run-checked', startingNew, checked(previousReport), 'same', []],
  ['starting ignores poll-failed', startingNew, pollFailed, 'same', []],
  ['starting ignores delivered', startingNew, delivered, 'same', []],

  // running
  ['running + message → refused', running, message, 'same', [BUSY]],
  ['running ignores run-started', running, started, 'same', []],
  ['running ignores run-start-failed', running, startFailed, 'same', []],
  [
    'loading with more steps → progress + poll',
    running,
    loading3,
    { ...running, stepsShown: 3 },
    [{ type: 'show-progress', steps: 3 }, POLL],
  ],
  [
    'loading without new steps → poll only',
    running,
    report({ status: 'loading', totalSteps: 2 }),
    running,
    [POLL],
  ],
  ['loading without totalSteps → poll only', running, report({ status: 'loading' }), running, [POLL]],
  ['timeout → poll again', running, timeout, 'same', [POLL]],
  [
    'done → deliver the answer',
    running,
    done,
    {
      ...running,
      awaitingDelivery: true,
      final: digestReport({ status: 'done', message: 'answer', totalSteps: 4 }),
    },
    [{ type: 'deliver-answer', report: { status: 'done', message: 'answer', totalSteps: 4 } }],
  ],
  [
    'error → deliver the outcome',
    running,
    errored,
    { ...running, awaitingDelivery: true, final: digestReport({ status: 'error', message: 'agent failed' }) },
    [{ type: 'deliver-outcome', report: { status: 'error', message: 'agent failed' } }],
  ],
  [
    'canceled → deliver the outcome',
    running,
    canceled,
    { ...running, awaitingDelivery: true, final: digestReport({ status: 'canceled' }) },
    [{ type: 'deliver-outcome', report: { status: 'canceled' } }],
  ],
  ['poll failed → poll again', running, pollFailed, 'same', [POLL]],
  [
    'poll failed for good → notify',
    running,
    pollFailedForGood,
    { ...running, awaitingDelivery: true },
    [{ type: 'notify-poll-failed', error: failure }],
  ],
  [
    'deadline → notify',
    running,
    deadline,
    { ...running, awaitingDelivery: true },
    [{ type: 'notify-deadline', watching: false }],
  ],
  ['running ignores delivered before an outcome', running, delivered, 'same', []],
  ['running ignores watch-ended before a deadline', running, watchEnded, 'same', []],
  ['running ignores previous-run-checked', running, checked(previousReport), 'same', []],

  // past the deadline, watched late
  [
    'deadline with a late watch → notify, keep watching',
    running,
    deadlineWatching,
    late,
    [{ type: 'notify-deadline', watching: true }, { type: 'watch-late' }],
  ],
  ['late + message → refused', late, message, 'same', [BUSY]],
  ['late ignores a second deadline', late, deadlineWatching, 'same', []],
  ['late: new steps show no progress', late, loading3, late, [POLL]],
  ['late: timeout → poll again', late, timeout, 'same', [POLL]],
  [
    'late: done → deliver the answer, marked late',
    late,
    done,
    {
      ...late,
      awaitingDelivery: true,
      final: digestReport({ status: 'done', message: 'answer', totalSteps: 4 }),
    },
    [{ type: 'deliver-answer', report: { status: 'done', message: 'answer', totalSteps: 4 }, late: true }],
  ],
  [
    'late: error → deliver the outcome, marked late',
    late,
    errored,
    { ...late, awaitingDelivery: true, final: digestReport({ status: 'error', message: 'agent failed' }) },
    [{ type: 'deliver-outcome', report: { status: 'error', message: 'agent failed' }, late: true }],
  ],
  [
    'late: watch ended → notify, end the turn',
    late,
    watchEnded,
    { ...late, awaitingDelivery: true },
    [{ type: 'notify-watch-ended' }],
  ],
  [
    'late: poll failed for good → notify',
    late,
    pollFailedForGood,
    { ...late, awaitingDelivery: true },
    [{ type: 'notify-poll-failed', error: failure }],
  ],
  [
    'delivered after the watch ended → idle with the run left open',
    { ...late, awaitingDelivery: true },
    delivered,
    { phase: 'idle', sessionId: 's1', runOpen: true },
    [],
  ],

  // a message in a thread whose run was left open: read its status first (rule 2)
  [
    'idle with a run left open + message → check the run first',
    idleRunOpen,
    message,
    checking,
    [{ type: 'check-previous-run', sessionId: 's1' }],
  ],
  ['checking + message → refused', checking, message, 'same', [BUSY]],
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
  ...checkingEvents.map((e): Row => [`checking ignores ${e.type}`, checking, e, 'same', []]),

  // the stale rule, right after a follow-up
  ['follow-up: previous final again → not the answer, poll', runningFollowUp, stale, 'same', [POLL]],
  ['follow-up: timeout keeps waiting for a fresh report', runningFollowUp, timeout, 'same', [POLL]],
  [
    'follow-up: loading proves the new turn is registered',
    runningFollowUp,
    loading3,
    { ...runningFollowUp, awaitingFresh: false, stepsShown: 3 },
    [{ type: 'show-progress', steps: 3 }, POLL],
  ],
  [
    'follow-up: a different done is the answer',
    runningFollowUp,
    done,
    {
      ...runningFollowUp,
      awaitingFresh: false,
      awaitingDelivery: true,
      final: digestReport({ status: 'done', message: 'answer', totalSteps: 4 }),
    },
    [{ type: 'deliver-answer', report: { status: 'done', message: 'answer', totalSteps: 4 } }],
  ],
  [
    'after a fresh report, a report equal to the previous final is the answer',
    { ...runningFollowUp, awaitingFresh: false },
    stale,
    { ...runningFollowUp, awaitingFresh: false, awaitingDelivery: true, final: previousFinal },
    [{ type: 'deliver-answer', report: previousReport }],
  ],

  // delivering: waits for `delivered`, refuses turns
  ['delivering + message → refused', delivering, message, 'same', [BUSY]],
  ...deliveringEvents.map((e): Row => [`delivering ignores ${e.type}`, delivering, e, 'same', []]),
  [
    'delivered → idle with the final report',
    delivering,
    delivered,
    {
      phase: 'idle',
      sessionId: 's1',
      lastFinal: digestReport({ status: 'done', message: 'answer', totalSteps: 4 }),
    },
    [],
  ],
  [
    'delivered after a deadline → idle with no final report',
    { ...running, awaitingDelivery: true },
    delivered,
    { phase: 'idle', sessionId: 's1', runOpen: true },
    [],
  ],
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
      'run-started',
      'run-start-failed',
      'status-report',
      'poll-failed',
      'deadline-passed',
      'watch-ended',
      'previous-run-checked',
      'delivered',
    ]);
    const phaseOf = (s: TurnState): string =>
      s.phase === 'running' && s.awaitingDelivery ? 'delivering' : s.phase;
    const seen = new Set(rows.map(([, state, event]) => `${phaseOf(state)}:${event.type}`));
    for (const phase of ['idle', 'checking', 'starting', 'running', 'delivering']) {
      for (const type of eventTypes) expect(seen, `${phase}:${type}`).toContain(`${phase}:${type}`);
    }
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
      'schedule-poll',
      'show-progress',
      'schedule-poll',
      'deliver-answer',
      'follow-up',
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
