import sinon from 'sinon';
import { describe, expect, it, vi } from 'vitest';
import type { PollEntry } from '../../../src/conversation/polling/poll-contract.js';
import type { AgentRunsPort, RunStatusReport } from '../../../src/conversation/ports.js';
import type { ThreadOutput } from '../../../src/conversation/thread-output-port.js';
import { digestReport } from '../../../src/conversation/turn/report-digest.js';
import { createRunStart, type ReadyTurn } from '../../../src/conversation/turn/run-start.js';
import { createTurnLedger, lockNames } from '../../../src/conversation/turn/turn-ledger.js';
import type { ThreadRecord } from '../../../src/conversation/turn/turn-records.js';
import type { TurnRequest } from '../../../src/conversation/turn/turn-request.js';
import { createTurnRunner } from '../../../src/conversation/turn/turn-runner.js';
import { createMetrics } from '../../../src/metrics.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import { createMemoryStore } from '../../../src/store/index.js';
import { createManualClock } from '../../support/manual-clock.js';

const KEY = 'T1:C1:100.000001';
const PREVIOUS: RunStatusReport = { status: 'done', message: 'first answer', totalSteps: 2 };
const REQUEST: TurnRequest = {
  tenant: { teamId: 'T1', home: true, key: undefined },
  teamId: 'T1',
  channel: 'C1',
  threadTs: '100.000001',
  sourceTs: '100.000002',
  userId: 'U1',
  prompt: 'why?',
  mentioned: true,
};
const READY: ReadyTurn = { kind: 'ready', agentId: 'agent', context: {} };
/** The thread after a first answered turn (session s1). */
const ANSWERED: ThreadRecord = {
  threadKey: KEY,
  teamId: 'T1',
  channel: 'C1',
  threadTs: '100.000001',
  agentId: 'agent',
  sessionId: 's1',
  lastFinal: digestReport(PREVIOUS),
  createdAt: 0,
  updatedAt: 0,
};

function setUp(progressTs: Promise<string | undefined> = Promise.resolve('300.000001')) {
  const clock = createManualClock(0);
  const store = createMemoryStore();
  const ledger = createTurnLedger({ store, clock, instanceId: 'i1' });
  const agent = {
    startRun: sinon.stub().resolves({ sessionId: 's1' }),
    followUp: sinon.stub().resolves({ sessionId: 's1' }),
    getRunStatus: sinon.stub().resolves({ status: 'loading' }),
    submitFeedback: sinon.stub().resolves([]),
  } satisfies AgentRunsPort;
  const notices: string[] = [];
  const removed: string[] = [];
  const output: ThreadOutput = {
    postProgress: async () => undefined,
    updateProgress: async () => {},
    removeProgress: async (_where, ts) => void removed.push(ts),
    postAnswer: async () => [],
    postNotice: async (_where, notice) => void notices.push(notice.kind),
    refuse: async () => {},
    findTurnMessages: async () => ({ answer: [], notices: [], progress: [] }),
  };
  const polled: PollEntry[] = [];
  const metrics = createMetrics({ defaultMetrics: false });
  const progress = { follow: () => {}, step: () => {}, settle: async () => {}, end: async () => {} };
  const runner = createTurnRunner({
    store,
    ledger,
    output,
    poller: { add: (entry) => void polled.push(entry), remove: () => true },
    progress,
    clock,
    logger: silentLogger,
    metrics,
    settings: { instanceId: 'i1' },
    newReferenceId: () => 'ref-1',
    isPermanentPollError: () => false,
    errorCode: () => 'x',
  });
  const refuseBusy = sinon.spy();
  const observer = { started: sinon.spy() };
  const runStart = createRunStart({
    ledger,
    agent,
    output,
    runner,
    progress: { begin: () => progressTs },
    clock,
    logger: silentLogger,
    metrics,
    settings: { turnDeadlineMs: 60_000, leaseTtlMs: 5_000 },
    newId: () => 'turn-1',
    refuseBusy,
    observer,
  });
  const spent = { giveBack: sinon.stub().resolves() };
  const begin = (thread?: ThreadRecord) => runStart.begin(REQUEST, thread, READY, spent);
  return { clock, store, agent, runner, polled, notices, removed, refuseBusy, observer, spent, begin };
}

describe('run start', () => {
  it('a new thread: the turn is stored before its run starts, then polled with its session and progress', async () => {
    const t = setUp();
    t.agent.startRun.callsFake(async () => {
      expect(await t.store.getTurn('turn-1')).toMatchObject({ phase: 'starting', kind: 'start' });
      expect(await t.store.lockOwner(lockNames.thread(KEY))).toBe('turn-1');
      return { sessionId: 's1' };
    });
    expect(await t.begin()).toBe('started');
    expect(t.agent.startRun.calledOnceWith('agent', { message: 'why?' })).toBe(true);
    expect(await t.store.getTurn('turn-1')).toMatchObject({
      phase: 'polling',
      sessionId: 's1',
      progressTs: '300.000001',
    });
    expect((await t.store.getThread(KEY))?.sessionId).toBe('s1');
    expect(t.polled).toEqual([expect.objectContaining({ id: 'turn-1', sessionId: 's1', pace: 'normal' })]);
    expect(t.observer.started.calledOnce).toBe(true);
  });

  it('a busy thread: nothing starts, the spending is given back and the sender told', async () => {
    const t = setUp();
    await t.store.tryLock(lockNames.thread(KEY), 'turn-0', 60_000);
    expect(await t.begin(ANSWERED)).toBe('busy');
    expect(t.agent.followUp.called).toBe(false);
    expect(t.spent.giveBack.calledOnce).toBe(true);
    expect(t.refuseBusy.calledOnce).toBe(true);
    expect(await t.store.getTurn('turn-1')).toBeUndefined();
  });

  it('a thread with a session follows up, comparing against its last final report', async () => {
    const t = setUp();
    expect(await t.begin(ANSWERED)).toBe('started');
    expect(t.agent.followUp.calledOnceWith('agent', 's1')).toBe(true);
    expect(t.agent.startRun.called).toBe(false);
    expect(await t.store.getTurn('turn-1')).toMatchObject({
      kind: 'followUp',
      previousFinal: ANSWERED.lastFinal,
    });
  });

  it('a run left open that still works: the thread stays busy and is freed again', async () => {
    const t = setUp();
    t.clock.advance(40_000);
    await t.store.saveThread({ ...ANSWERED, runOpenSince: 10_000 });
    expect(await t.begin({ ...ANSWERED, runOpenSince: 10_000 })).toBe('busy');
    expect(t.agent.followUp.called).toBe(false);
    expect(t.refuseBusy.firstCall.args[1]).toBe(30_000);
    expect(t.spent.giveBack.calledOnce).toBe(true);
    expect(await t.store.lockOwner(lockNames.thread(KEY))).toBeUndefined();
  });

  it('a run left open that has ended: its final report becomes the reference, then the follow-up goes', async () => {
    const t = setUp();
    const ended: RunStatusReport = { status: 'done', message: 'the late answer', totalSteps: 4 };
    t.agent.getRunStatus.resolves(ended);
    await t.store.saveThread({ ...ANSWERED, runOpenSince: 0 });
    expect(await t.begin({ ...ANSWERED, runOpenSince: 0 })).toBe('started');
    const thread = await t.store.getThread(KEY);
    expect(thread?.runOpenSince).toBeUndefined();
    expect(thread?.lastFinal).toEqual(digestReport(ended));
    expect(await t.store.getTurn('turn-1')).toMatchObject({ previousFinal: digestReport(ended) });
    expect(t.agent.followUp.calledOnce).toBe(true);
  });

  it('a failed start request: the thread is told, freed, and keeps its session', async () => {
    const t = setUp();
    await t.store.saveThread(ANSWERED);
    t.agent.followUp.rejects(new Error('agent disabled'));
    expect(await t.begin(ANSWERED)).toBe('start-failed');
    await t.runner.stop();
    expect(t.notices).toEqual(['service-error']);
    expect(t.polled).toEqual([]);
    expect(await t.store.lockOwner(lockNames.thread(KEY))).toBeUndefined();
    expect(await t.store.getTurn('turn-1')).toBeUndefined();
    expect((await t.store.getThread(KEY))?.sessionId).toBe('s1');
  });

  it('a slow progress message: polling starts without it, and the message is removed once posted', async () => {
    let post: (ts: string) => void = () => {};
    const t = setUp(new Promise((resolve) => (post = resolve)));
    const started = t.begin();
    await vi.waitFor(async () => {
      await t.clock.advanceAsync(500);
      expect(t.polled).toHaveLength(1);
    });
    expect(await started).toBe('started');
    expect((await t.store.getTurn('turn-1'))?.progressTs).toBeUndefined();
    post('300.000007');
    await vi.waitFor(() => expect(t.removed).toEqual(['300.000007']));
  });
});
