import sinon from 'sinon';
import { describe, expect, it, vi } from 'vitest';
import type { RunStatusReport } from '../../../src/conversation/ports.js';
import type { OutputStyle, ThreadOutput } from '../../../src/conversation/thread-output-port.js';
import { createOutcomePoster } from '../../../src/conversation/turn/outcome-poster.js';
import { ThreadOutputError } from '../../../src/conversation/turn/output-error.js';
import { digestReport } from '../../../src/conversation/turn/report-digest.js';
import type { FinalOutcome, TurnInFlight } from '../../../src/conversation/turn/turn-in-flight.js';
import { createTurnLedger, lockNames } from '../../../src/conversation/turn/turn-ledger.js';
import { stateOfRecord, transition } from '../../../src/conversation/turn/turn-machine.js';
import { createMetrics } from '../../../src/metrics.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import { createMemoryStore } from '../../../src/store/index.js';
import { createManualClock } from '../../support/manual-clock.js';
import { POLLED_TURN as TURN } from '../../support/turn-record.js';

const ANSWER: RunStatusReport = { status: 'done', message: 'The answer.', totalSteps: 3 };
const DONE: FinalOutcome = { kind: 'report', report: ANSWER, late: false };

/** A thread that keeps what was posted in it, found again by turn id as `conversations.replies` does. */
function slackThread() {
  const answers: Array<{ turnId: string; ts: string; style: OutputStyle | undefined }> = [];
  const notices: Array<{ turnId: string; kind: string; style: OutputStyle | undefined }> = [];
  const refusals = { answer: [] as Error[] };
  const output: Pick<ThreadOutput, 'postAnswer' | 'postNotice' | 'findTurnMessages' | 'removeProgress'> = {
    removeProgress: async () => {},
    async postAnswer(_where, answer, onPart) {
      const refusal = refusals.answer.shift();
      if (refusal) throw refusal;
      const ts = `200.00000${answers.length + 1}`;
      answers.push({ turnId: answer.turnId, ts, style: answer.style });
      await onPart?.(ts);
      return [ts];
    },
    async postNotice(_where, notice, turnId, style) {
      notices.push({ turnId, kind: notice.kind, style });
    },
    async findTurnMessages(_where, turnId) {
      return {
        answer: answers.filter((a) => a.turnId === turnId).map((a) => a.ts),
        notices: notices.filter((n) => n.turnId === turnId).map((n) => n.kind as never),
        progress: [],
      };
    },
  };
  return { output, answers, notices, refusals };
}

/** TURN polled on instance i1, its thread lock and record in the store, its answer `report` decided. */
async function setUp(report: RunStatusReport = ANSWER) {
  const clock = createManualClock(0);
  const store = createMemoryStore();
  const ledger = createTurnLedger({ store, clock, instanceId: 'i1' });
  const thread = slackThread();
  const finished = sinon.spy(async (_entry: TurnInFlight) => {});
  const stopPolling = sinon.spy();
  const metrics = createMetrics({ defaultMetrics: false });
  const dropped = sinon.spy(metrics, 'deliveryDropped');
  const poster = createOutcomePoster({
    ledger,
    store,
    output: thread.output,
    progress: { settle: async () => {}, end: async () => {} },
    clock,
    logger: silentLogger,
    metrics,
    isCurrent: () => true,
    finished,
    stopPolling,
    random: () => 0.5,
  });
  await store.saveThread({ ...TURN, sessionId: 's1', createdAt: 0, updatedAt: 0 });
  await ledger.threadLock(TURN.threadKey, TURN.turnId).take(600_000);
  await ledger.saveTurn(TURN);
  const entry: TurnInFlight = {
    turn: TURN,
    takenOver: false,
    state: transition(stateOfRecord(TURN), { type: 'status-report', report }).state,
    abort: new AbortController(),
    released: false,
    noticeChain: Promise.resolve(),
  };
  return { clock, store, ledger, thread, poster, entry, finished, stopPolling, dropped };
}

/** The turn is over in the store: delivered mark written, record gone, thread free. */
async function expectCleared(store: ReturnType<typeof createMemoryStore>) {
  expect(await store.lockOwner(lockNames.delivered(TURN.turnId))).toBe('i1');
  expect(await store.getTurn(TURN.turnId)).toBeUndefined();
  expect(await store.lockOwner(lockNames.thread(TURN.threadKey))).toBeUndefined();
}

describe('outcome poster', () => {
  it('posts the answer once, indexes it, records the final report and clears the turn', async () => {
    const t = await setUp();
    await t.poster.post(t.entry, DONE);
    expect(t.thread.answers).toEqual([{ turnId: TURN.turnId, ts: '200.000001', style: 'rich' }]);
    expect(await t.store.lookupAnswer('C1', '200.000001')).toMatchObject({ turnId: TURN.turnId });
    expect((await t.store.getThread(TURN.threadKey))?.lastFinal).toEqual(digestReport(ANSWER));
    await expectCleared(t.store);
    expect(t.finished.callCount).toBe(1);
  });

  it('posts nothing when the delivered mark is there (another replica posted it), and still ends the turn', async () => {
    const t = await setUp();
    await t.store.tryLock(lockNames.delivered(TURN.turnId), 'i2', 60_000);
    await t.poster.post(t.entry, DONE);
    expect(t.thread.answers).toEqual([]);
    expect(t.finished.callCount).toBe(1);
    expect(await t.store.getTurn(TURN.turnId)).toBeUndefined();
  });

  it('waits while another replica holds the delivery claim, and posts once the claim lapses', async () => {
    const t = await setUp();
    await t.store.tryLock(lockNames.delivery(TURN.turnId), 'i2', 60_000);
    const posting = t.poster.post(t.entry, DONE);
    await t.clock.advanceAsync(3_000);
    await t.clock.flush();
    expect(t.thread.answers).toEqual([]);
    await t.store.unlock(lockNames.delivery(TURN.turnId), 'i2');
    await t.clock.advanceAsync(1_000);
    await posting;
    expect(t.thread.answers).toHaveLength(1);
    await expectCleared(t.store);
  });

  it('after a takeover reads the thread first: an answer already there is indexed, not posted again', async () => {
    const t = await setUp();
    t.thread.answers.push({ turnId: TURN.turnId, ts: '200.000009', style: 'rich' });
    t.entry.takenOver = true;
    await t.poster.post(t.entry, DONE);
    expect(t.thread.answers).toHaveLength(1);
    expect(await t.store.lookupAnswer('C1', '200.000009')).toMatchObject({ turnId: TURN.turnId });
    await expectCleared(t.store);
  });

  it('after a takeover does not post a notice the thread already shows', async () => {
    const t = await setUp({ status: 'error', message: 'agent failed' });
    t.thread.notices.push({ turnId: TURN.turnId, kind: 'run-error', style: 'rich' });
    t.entry.takenOver = true;
    await t.poster.post(t.entry, {
      kind: 'report',
      report: { status: 'error', message: 'agent failed' },
      late: false,
    });
    expect(t.thread.notices).toHaveLength(1);
    await expectCleared(t.store);
  });

  it('posts in the plain style when Slack refuses the rendering', async () => {
    const t = await setUp();
    t.thread.refusals.answer.push(new ThreadOutputError('content', 'invalid_blocks', 'chat.postMessage'));
    await t.poster.post(t.entry, DONE);
    expect(t.thread.answers).toEqual([{ turnId: TURN.turnId, ts: '200.000001', style: 'plain' }]);
    await expectCleared(t.store);
  });

  it('drops the turn at once when Slack refuses for good: polling stops, the thread is freed', async () => {
    const t = await setUp();
    t.thread.refusals.answer.push(new ThreadOutputError('permanent', 'not_in_channel', 'chat.postMessage'));
    await t.poster.post(t.entry, DONE);
    expect(t.thread.answers).toEqual([]);
    expect(t.dropped.calledOnceWith('not_in_channel')).toBe(true);
    expect(t.stopPolling.calledOnceWith(TURN.turnId)).toBe(true);
    await expectCleared(t.store);
    expect(t.finished.callCount).toBe(1);
  });

  it('retries a transient failure until Slack takes the answer', async () => {
    const t = await setUp();
    t.thread.refusals.answer.push(new ThreadOutputError('transient', 'ratelimited', 'chat.postMessage'));
    const posting = t.poster.post(t.entry, DONE);
    await vi.waitFor(async () => {
      await t.clock.advanceAsync(1_000);
      expect(t.thread.answers).toHaveLength(1);
    });
    await posting;
    await expectCleared(t.store);
  });
});
