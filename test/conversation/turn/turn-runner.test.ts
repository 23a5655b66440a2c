import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PollHandlers } from '../../../src/conversation/polling/poll-contract.js';
import type { ConversationStore } from '../../../src/conversation/ports.js';
import type { ThreadOutput } from '../../../src/conversation/thread-output-port.js';
import { ThreadOutputError } from '../../../src/conversation/turn/output-error.js';
import { createTurnLedger, lockNames } from '../../../src/conversation/turn/turn-ledger.js';
import type { TurnRecord } from '../../../src/conversation/turn/turn-records.js';
import { createTurnRunner } from '../../../src/conversation/turn/turn-runner.js';
import { createMetrics } from '../../../src/metrics.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import { createMemoryStore } from '../../../src/store/index.js';
import { createManualClock } from '../../support/manual-clock.js';
import { POLLED_TURN } from '../../support/turn-record.js';

/**
 * Delivery with a store that goes down and comes back (Redis blinking): the memory store behind a
 * switch that makes every call fail the way node-redis does while it reconnects.
 */
function blinkingStore() {
  const inner = createMemoryStore();
  const state = { down: false };
  const offline = () => Object.assign(new Error('The client is offline'), { name: 'ClientOfflineError' });
  const store = new Proxy(inner, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (state.down) return Promise.reject(offline());
        return value.apply(target, args);
      };
    },
  }) as ConversationStore;
  return { store, state };
}

/** A thread that records what the bot posted and finds it again by turn id (as conversations.replies does). */
function recordingThread() {
  const answers: Array<{ turnId: string; ts: string }> = [];
  const notices: Array<{ turnId: string; kind: string }> = [];
  const hooks = { afterAnswer: (): void => {}, beforeAnswer: (): void => {} };
  let reads = 0;
  const output: ThreadOutput = {
    postProgress: async () => undefined,
    updateProgress: async () => {},
    removeProgress: async () => {},
    async postAnswer(_where, answer, onPart) {
      hooks.beforeAnswer();
      const ts = `200.00000${answers.length + 1}`;
      answers.push({ turnId: answer.turnId, ts });
      await onPart?.(ts);
      hooks.afterAnswer();
      return [ts];
    },
    async postNotice(_where, notice, turnId) {
      notices.push({ turnId, kind: notice.kind });
    },
    refuse: async () => {},
    async findTurnMessages(_where, turnId) {
      reads += 1;
      return {
        answer: answers.filter((a) => a.turnId === turnId).map((a) => a.ts),
        notices: notices.filter((n) => n.turnId === turnId).map((n) => n.kind as never),
        progress: [],
      };
    },
  };
  return { output, answers, notices, hooks, reads: () => reads };
}

const TURN: TurnRecord = POLLED_TURN;

async function setUp(options: { lateWatchMs?: number } = {}) {
  const clock = createManualClock(0);
  const { store, state } = blinkingStore();
  const thread = recordingThread();
  const polled = new Map<string, { handlers: PollHandlers; pace: string | undefined }>();
  const runner = createTurnRunner({
    store,
    ledger: createTurnLedger({ store, clock, instanceId: 'i1' }),
    output: thread.output,
    poller: {
      add: (entry, handlers) => {
        polled.set(entry.id, { handlers, pace: entry.pace });
      },
      remove: (id) => polled.delete(id),
    },
    progress: { follow: () => {}, step: () => {}, settle: async () => {}, end: async () => {} },
    clock,
    logger: silentLogger,
    metrics: createMetrics({ defaultMetrics: false }),
    settings: { instanceId: 'i1', lateWatchMs: options.lateWatchMs },
    newReferenceId: () => 'ref-1',
    isPermanentPollError: () => false,
    errorCode: () => 'x',
    random: () => 0.5,
  });
  await store.saveThread({
    threadKey: TURN.threadKey,
    teamId: 'T1',
    channel: 'C1',
    threadTs: TURN.threadTs,
    agentId: 'agent',
    sessionId: 's1',
    createdAt: 0,
    updatedAt: 0,
  });
  await store.tryLock(lockNames.thread(TURN.threadKey), TURN.turnId, 600_000);
  await store.tryLock(lockNames.lease(TURN.turnId), 'i1', 15_000);
  await store.saveTurn(TURN);
  // Taken over from an instance that died: the same path as a fresh start from its first poll on.
  await runner.takeOver(TURN);
  const handlers = () => {
    const found = polled.get(TURN.turnId);
    if (!found) throw new Error('the turn is not polled');
    return found.handlers;
  };
  /** Lets the retry loop run through `ms` of backoff (each wait wakes, tries, sleeps again). */
  const pass = async (ms: number) => {
    await clock.advanceAsync(ms);
    await clock.flush();
  };
  return { clock, store, state, thread, polled, runner, handlers, pass };
}

/** The turn is over in the store: delivered mark written, record gone, thread free. */
async function expectFinished(store: ConversationStore) {
  expect(await store.lockOwner(lockNames.delivered(TURN.turnId))).toBe('i1');
  expect(await store.getTurn(TURN.turnId)).toBeUndefined();
  expect(await store.lockOwner(lockNames.thread(TURN.threadKey))).toBeUndefined();
}

describe('turn runner while the store blinks', () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  it('a run that finishes while the store is down is delivered once the store answers again', async () => {
    const t = await setUp();
    stop = t.runner.stop;
    t.state.down = true;
    await t.handlers().onReport({ status: 'done', message: 'The answer.' });
    expect(t.polled.has(TURN.turnId)).toBe(false);
    await t.pass(10_000);
    expect(t.thread.answers).toHaveLength(0);
    expect(t.runner.tracking()).toEqual([TURN.turnId]);

    t.state.down = false;
    await t.pass(60_000);
    await vi.waitFor(() => expect(t.thread.answers).toHaveLength(1));
    await vi.waitFor(() => expect(t.runner.tracking()).toEqual([]));
    await expectFinished(t.store);
    expect(await t.store.lookupAnswer('C1', t.thread.answers[0]?.ts ?? '')).toMatchObject({
      turnId: TURN.turnId,
    });
  });

  it('the post landed and the store went down before the delivered mark: the retry finds the answer instead of posting again', async () => {
    const t = await setUp();
    stop = t.runner.stop;
    t.thread.hooks.afterAnswer = () => {
      t.state.down = true;
    };
    await t.handlers().onReport({ status: 'done', message: 'The answer.' });
    await vi.waitFor(() => expect(t.thread.answers).toHaveLength(1));
    await t.pass(10_000);
    expect(t.runner.tracking()).toEqual([TURN.turnId]);

    t.state.down = false;
    await t.pass(60_000);
    await vi.waitFor(() => expect(t.runner.tracking()).toEqual([]));
    expect(t.thread.answers).toHaveLength(1);
    expect(t.thread.reads()).toBeGreaterThanOrEqual(1);
    await expectFinished(t.store);
    // Indexed after all, so a reaction on it finds the run.
    expect(await t.store.lookupAnswer('C1', t.thread.answers[0]?.ts ?? '')).toMatchObject({
      turnId: TURN.turnId,
    });
  });

  it('Slack refuses for good and the store goes down: the turn is cleared once the store answers', async () => {
    const t = await setUp();
    stop = t.runner.stop;
    t.thread.hooks.beforeAnswer = () => {
      t.state.down = true;
      throw new ThreadOutputError('permanent', 'not_in_channel', 'chat.postMessage');
    };
    await t.handlers().onReport({ status: 'done', message: 'The answer.' });
    await t.pass(10_000);
    expect(t.runner.tracking()).toEqual([TURN.turnId]);

    t.state.down = false;
    await t.pass(60_000);
    await vi.waitFor(() => expect(t.runner.tracking()).toEqual([]));
    expect(t.thread.answers).toHaveLength(0);
    await expectFinished(t.store);
    expect(await t.store.lockOwner(lockNames.lease(TURN.turnId))).toBeUndefined();
  });

  it('the deadline passes while the store is down: the late watch goes on and the late answer lands', async () => {
    const t = await setUp({ lateWatchMs: 600_000 });
    stop = t.runner.stop;
    t.state.down = true;
    await t.handlers().onDeadline();
    expect(t.polled.get(TURN.turnId)?.pace).toBe('late');

    t.state.down = false;
    await t.pass(60_000);
    await vi.waitFor(() => expect(t.thread.notices).toEqual([{ turnId: TURN.turnId, kind: 'deadline' }]));
    await t.handlers().onReport({ status: 'done', message: 'Late but right.' });
    await t.pass(1_000);
    await vi.waitFor(() => expect(t.thread.answers).toHaveLength(1));
    await vi.waitFor(() => expect(t.runner.tracking()).toEqual([]));
  });
});
