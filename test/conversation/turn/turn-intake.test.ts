import sinon from 'sinon';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnswerPlacement } from '../../../src/conversation/access/answer-place.js';
import { createSpending, HOUR_MS } from '../../../src/conversation/access/spending.js';
import {
  createInsideCheck,
  type PersonOrganisation,
} from '../../../src/conversation/access/who-is-inside.js';
import type { PollEntry } from '../../../src/conversation/polling/poll-contract.js';
import type { AgentRunsPort } from '../../../src/conversation/ports.js';
import type { Refusal, ThreadOutput } from '../../../src/conversation/thread-output-port.js';
import { digestReport } from '../../../src/conversation/turn/report-digest.js';
import { createTurnIntake } from '../../../src/conversation/turn/turn-intake.js';
import { createTurnLedger, lockNames } from '../../../src/conversation/turn/turn-ledger.js';
import type { ThreadRecord } from '../../../src/conversation/turn/turn-records.js';
import type { TurnRequest } from '../../../src/conversation/turn/turn-request.js';
import { createTurnRunner } from '../../../src/conversation/turn/turn-runner.js';
import { createMetrics } from '../../../src/metrics.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import { createMemoryStore } from '../../../src/store/index.js';
import { createManualClock, type ManualClock } from '../../support/manual-clock.js';
import { withoutContext } from '../../support/without-context.js';

/** A ThreadOutput that records what a person would be told. */
function recordingOutput() {
  const refusals: Array<{ userId: string; refusal: Refusal; workingForMs?: number; retryAt?: number }> = [];
  const output: ThreadOutput = {
    postProgress: async () => '1.000001',
    updateProgress: async () => {},
    removeProgress: async () => {},
    postAnswer: async () => [],
    postNotice: async () => {},
    refuse: async (_where, userId, _ts, refusal, detail) => {
      refusals.push({
        userId,
        refusal,
        ...(detail?.workingForMs !== undefined ? { workingForMs: detail.workingForMs } : {}),
        ...(detail?.retryAt !== undefined ? { retryAt: detail.retryAt } : {}),
      });
    },
    findTurnMessages: async () => ({ answer: [], notices: [], progress: [] }),
  };
  return { output, refusals };
}

/** The request's thread, whose last run was left open (deadline passed) at time 0. */
const THREAD_WITH_RUN_OPEN: ThreadRecord = {
  threadKey: 'T1:C1:100.000001',
  teamId: 'T1',
  channel: 'C1',
  threadTs: '100.000001',
  agentId: 'agent',
  sessionId: 's1',
  runOpenSince: 0,
  createdAt: 0,
  updatedAt: 0,
};

const request: TurnRequest = {
  tenant: { teamId: 'T1', home: true, key: undefined },
  teamId: 'T1',
  channel: 'C1',
  threadTs: '100.000001',
  sourceTs: '100.000001',
  userId: 'U1',
  prompt: 'why?',
  mentioned: true,
};

/** users.info as the inside check sees it: U1 and U2 are colleagues, UOUT is from another organisation. */
const ORGANISATIONS: Record<string, PersonOrganisation> = {
  U1: { teamId: 'T1', isGuest: false, isStranger: false },
  U2: { teamId: 'T1', isGuest: false, isStranger: false },
  UOUT: { teamId: 'T9', isGuest: false, isStranger: false },
};

function starter(
  store = createMemoryStore(),
  options: {
    clock?: ManualClock;
    lookup?: (userId: string) => Promise<PersonOrganisation | undefined>;
    runsPerHour?: number;
  } = {},
) {
  const clock = options.clock ?? createManualClock(0);
  const lookup = options.lookup ?? (async (userId: string) => ORGANISATIONS[userId]);
  const agent: AgentRunsPort = {
    startRun: sinon.stub().resolves({ sessionId: 's1' }),
    followUp: sinon.stub().resolves({ sessionId: 's1' }),
    getRunStatus: sinon.stub().resolves({ status: 'loading' }),
    submitFeedback: sinon.stub().resolves([]),
  };
  const { output, refusals } = recordingOutput();
  const polled: PollEntry[] = [];
  // The real runner (its own tests: turn-runner.test.ts), over a poller that only records.
  const ledger = createTurnLedger({ store, clock, instanceId: 'i1' });
  const runner = createTurnRunner({
    store,
    ledger,
    output,
    poller: { add: (entry) => void polled.push(entry), remove: () => true },
    progress: { follow: () => {}, step: () => {}, settle: async () => {}, end: async () => {} },
    clock,
    logger: silentLogger,
    metrics: createMetrics({ defaultMetrics: false }),
    settings: { instanceId: 'i1' },
    newReferenceId: () => 'ref-1',
    isPermanentPollError: () => false,
    errorCode: () => 'x',
  });
  const turns = createTurnIntake({
    store,
    ledger,
    agent,
    output,
    runner,
    progress: { begin: (where, turnId) => output.postProgress(where, { steps: 0, elapsedMs: 0 }, turnId) },
    clock,
    logger: silentLogger,
    metrics: createMetrics({ defaultMetrics: false }),
    settings: { instanceId: 'i1', turnDeadlineMs: 60_000, leaseTtlMs: 5_000 },
    inside: createInsideCheck({
      app: { teamId: 'T1' },
      allowExternalUsers: false,
      allowGuests: false,
      lookup,
      logger: silentLogger,
    }),
    context: withoutContext('agent'),
    // Who reads the answer has tests of its own (answer-place, audience, e2e who-reads-the-answer).
    placement: createAnswerPlacement({
      audience: { of: async () => ({ outsiders: false }) },
      policy: 'thread',
      replies: {
        openThread: () => Promise.reject(new Error('not used')),
        leaveNote: () => Promise.reject(new Error('not used')),
      },
      logger: silentLogger,
      metrics: createMetrics({ defaultMetrics: false }),
    }),
    spending: createSpending({
      store,
      runsPerHour: options.runsPerHour ?? 0,
      clock,
      logger: silentLogger,
      metrics: createMetrics({ defaultMetrics: false }),
    }),
  });
  return { turns, agent, runner, polled, refusals, store };
}

describe('turn intake', () => {
  afterEach(() => sinon.restore());

  it('starts a run and hands the turn to the poller, once per Slack message', async () => {
    const { turns, agent, polled, store } = starter();
    expect(await turns.handle(request)).toBe('started');
    expect(await turns.handle(request)).toBe('duplicate');
    expect((agent.startRun as sinon.SinonStub).callCount).toBe(1);
    expect(polled).toEqual([expect.objectContaining({ sessionId: 's1', pace: 'normal' })]);
    expect(await store.getTurn(polled[0]?.id ?? '')).toMatchObject({ sessionId: 's1', phase: 'polling' });
  });

  it('tells the sender when the store does not answer, instead of dropping the message', async () => {
    const store = createMemoryStore();
    sinon.stub(store, 'getThread').rejects(new Error('connection lost'));
    const { turns, agent, refusals } = starter(store);
    expect(await turns.handle(request)).toBe('failed');
    expect(refusals).toEqual([{ userId: 'U1', refusal: 'unavailable' }]);
    expect((agent.startRun as sinon.SinonStub).called).toBe(false);
  });

  it('refuses a second message while the thread is busy, without starting anything', async () => {
    const { turns, agent, refusals } = starter();
    await turns.handle(request);
    expect(await turns.handle({ ...request, sourceTs: '100.000002', userId: 'U2', mentioned: false })).toBe(
      'busy',
    );
    expect(refusals).toEqual([{ userId: 'U2', refusal: 'busy', workingForMs: 0 }]);
    expect((agent.followUp as sinon.SinonStub).called).toBe(false);
  });

  it('says in the busy refusal how long the agent has been working', async () => {
    const clock = createManualClock(0);
    const { turns, refusals } = starter(createMemoryStore(), { clock });
    await turns.handle(request);
    clock.advance(125_000);
    await turns.handle({ ...request, sourceTs: '100.000002', userId: 'U2', mentioned: false });
    expect(refusals).toEqual([{ userId: 'U2', refusal: 'busy', workingForMs: 125_000 }]);
  });

  it.each([
    ['still loading', { status: 'loading' as const }, 'busy', 0],
    ['nothing new yet (timeout)', { status: 'timeout' as const }, 'busy', 0],
    ['done', { status: 'done' as const, message: 'the late answer' }, 'started', 1],
  ])('reads a run left open before a follow-up: %s → %s', async (_name, status, result, followUps) => {
    const clock = createManualClock(0);
    const store = createMemoryStore();
    await store.saveThread(THREAD_WITH_RUN_OPEN);
    const { turns, agent, refusals } = starter(store, { clock });
    (agent.getRunStatus as sinon.SinonStub).resolves(status);
    clock.advance(40 * 60_000);
    expect(await turns.handle({ ...request, sourceTs: '100.000009', mentioned: false })).toBe(result);
    expect((agent.followUp as sinon.SinonStub).callCount).toBe(followUps);
    const thread = await store.getThread('T1:C1:100.000001');
    if (result === 'busy') {
      expect(refusals).toEqual([{ userId: 'U1', refusal: 'busy', workingForMs: 40 * 60_000 }]);
      expect(thread?.runOpenSince).toBe(0);
      // The thread is free again for the next try.
      expect(await store.lockOwner('thread:T1:C1:100.000001')).toBeUndefined();
    } else {
      expect(thread?.runOpenSince).toBeUndefined();
      // The stale rule's reference is the run's final report, kept as a digest: not its text.
      expect(thread?.lastFinal).toEqual(digestReport(status));
      expect(JSON.stringify(thread)).not.toContain('late answer');
      const [turnId] = await store.listInFlightTurnIds();
      const turn = await store.getTurn(turnId ?? '');
      expect(turn?.previousFinal).toEqual(digestReport(status));
      expect(JSON.stringify(turn)).not.toContain('late answer');
    }
  });

  it('ignores an unmentioned reply in a thread without a session', async () => {
    const { turns, agent } = starter();
    expect(await turns.handle({ ...request, mentioned: false })).toBe('no-session');
    expect((agent.startRun as sinon.SinonStub).called).toBe(false);
  });

  it('takes a reply in a thread whose first turn failed to start, as a new run', async () => {
    const { turns, agent, runner, store } = starter();
    (agent.startRun as sinon.SinonStub).onFirstCall().rejects(new Error('agent disabled'));
    expect(await turns.handle(request)).toBe('start-failed');
    // The failed turn's notice is posted beside the caller; then the thread is idle again.
    await runner.stop();
    expect(await store.lockOwner(lockNames.thread('T1:C1:100.000001'))).toBeUndefined();
    const reply = { ...request, sourceTs: '100.000003', mentioned: false };
    expect(await turns.handle(reply)).toBe('started');
    expect((agent.startRun as sinon.SinonStub).callCount).toBe(2);
    expect((agent.followUp as sinon.SinonStub).called).toBe(false);
  });

  it('refuses an outsider who addressed the bot, and only logs an unaddressed outsider reply', async () => {
    const { turns, agent, refusals } = starter();
    const outsider = { ...request, userId: 'UOUT', workspaceId: undefined };
    expect(await turns.handle(outsider)).toBe('outsider');
    expect(refusals).toEqual([{ userId: 'UOUT', refusal: 'external-user' }]);
    await turns.handle({ ...request, sourceTs: '100.000004' });
    const reply = { ...outsider, sourceTs: '100.000005', mentioned: false };
    expect(await turns.handle(reply)).toBe('outsider');
    expect(refusals).toHaveLength(1);
    expect((agent.startRun as sinon.SinonStub).callCount).toBe(1);
    expect((agent.followUp as sinon.SinonStub).called).toBe(false);
  });

  it('fails closed when users.info cannot answer, and says so', async () => {
    const { turns, agent, refusals } = starter(createMemoryStore(), {
      lookup: async () => {
        throw new Error('slack is down');
      },
    });
    expect(await turns.handle({ ...request, workspaceId: undefined })).toBe('outsider');
    expect(refusals).toEqual([{ userId: 'U1', refusal: 'identity-unchecked' }]);
    expect((agent.startRun as sinon.SinonStub).called).toBe(false);
  });

  describe('runs per person per hour', () => {
    /** A thread with a session and no turn running: a reply there is a follow-up. */
    const idleThread = (store: ReturnType<typeof createMemoryStore>, threadTs: string) =>
      store.saveThread({
        threadKey: `T1:C1:${threadTs}`,
        teamId: 'T1',
        channel: 'C1',
        threadTs,
        agentId: 'agent',
        sessionId: 's0',
        createdAt: 0,
        updatedAt: 0,
      });
    const mentionIn = (threadTs: string, userId = 'U1') => ({
      ...request,
      threadTs,
      sourceTs: threadTs,
      userId,
    });

    it('counts new sessions and follow-ups alike; past the limit nothing starts and the person is told when', async () => {
      const clock = createManualClock(1_000_000);
      const store = createMemoryStore();
      await idleThread(store, '200.000001');
      const { turns, agent, refusals } = starter(store, { clock, runsPerHour: 2 });
      expect(await turns.handle(mentionIn('100.000001'))).toBe('started');
      clock.advance(60_000);
      const followUp = { ...request, threadTs: '200.000001', sourceTs: '200.000002', mentioned: false };
      expect(await turns.handle(followUp)).toBe('started');
      expect(await turns.handle(mentionIn('300.000001'))).toBe('over-limit');
      expect(refusals).toEqual([{ userId: 'U1', refusal: 'over-limit', retryAt: 1_000_000 + HOUR_MS }]);
      expect((agent.startRun as sinon.SinonStub).callCount).toBe(1);
      expect((agent.followUp as sinon.SinonStub).callCount).toBe(1);
      expect(await store.lockOwner(lockNames.thread('T1:C1:300.000001'))).toBeUndefined();
      expect(await turns.handle(mentionIn('400.000001', 'U2'))).toBe('started');
    });

    it('gives the run back when the thread is busy', async () => {
      const { turns, refusals } = starter(createMemoryStore(), { runsPerHour: 2 });
      await turns.handle(mentionIn('100.000001'));
      const whileBusy = { ...request, sourceTs: '100.000002', mentioned: false };
      expect(await turns.handle(whileBusy)).toBe('busy');
      expect(await turns.handle(mentionIn('300.000001'))).toBe('started');
      expect(refusals.map((refusal) => refusal.refusal)).toEqual(['busy']);
    });

    it('gives the run back when the run left open in the thread is still working', async () => {
      const store = createMemoryStore();
      await store.saveThread(THREAD_WITH_RUN_OPEN);
      const { turns, agent } = starter(store, { runsPerHour: 1 });
      (agent.getRunStatus as sinon.SinonStub).resolves({ status: 'loading' });
      expect(await turns.handle({ ...request, sourceTs: '100.000009', mentioned: false })).toBe('busy');
      expect(await turns.handle(mentionIn('300.000001'))).toBe('started');
    });
  });
});
