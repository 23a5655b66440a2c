import { describe, expect, it } from 'vitest';
import type { TurnOutcome } from '../../src/conversation/turn/turn-records.js';
import { createHomeActivity, threadTitle } from '../../src/home/home-activity.js';
import { createMemoryStore } from '../../src/store/index.js';
import { memoryLogger } from '../support/memory-log.js';
import { POLLED_TURN } from '../support/turn-record.js';

const T = Date.UTC(2026, 10, 25, 12); // in 2026-W48

function setup() {
  const store = createMemoryStore({ clock: () => T });
  const changed: string[] = [];
  const log = memoryLogger('warn');
  const activity = createHomeActivity({
    store,
    now: () => T,
    logger: log.logger,
    onThreadsChanged: (_team, user) => changed.push(user),
  });
  /** The writes happen beside the caller: wait until the home was asked to change `count` times. */
  const settled = async (count: number) => {
    for (let i = 0; i < 100 && changed.length < count; i++) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 5));
  };
  return { store, changed, activity, settled, log };
}

describe('home activity', () => {
  it('writes the asker’s thread as working when the run starts, with the question as its title', async () => {
    const { store, activity, settled, changed } = setup();
    activity.started(POLLED_TURN, 'Why is checkout slow?\nmore detail');
    await settled(1);
    expect(await store.recentThreads('U1')).toEqual([
      {
        threadKey: POLLED_TURN.threadKey,
        channel: 'C1',
        threadTs: POLLED_TURN.threadTs,
        title: 'Why is checkout slow?',
        status: 'working',
        updatedAt: T,
      },
    ]);
    expect(changed).toEqual(['U1']);
    expect(await store.weeklyTallies('2026-W48')).toMatchObject({ runs: 1 });
    expect(await store.agentsSeen()).toEqual([{ agentId: 'agent', active: true, source: 'run', at: T }]);
  });

  it.each<[TurnOutcome, string, number]>([
    ['done', 'answered', 1],
    ['error', 'failed', 0],
    ['canceled', 'canceled', 0],
    ['deadline', 'no-answer', 0],
    ['service_error', 'failed', 0],
    ['lost', 'failed', 0],
    ['undeliverable', 'failed', 0],
  ])('an outcome %s shows %s, keeps the title, and counts %i answer', async (outcome, status, answers) => {
    const { store, activity, settled } = setup();
    activity.started(POLLED_TURN, 'disk?');
    await settled(1);
    activity.finished(POLLED_TURN, outcome);
    await settled(2);
    const [thread] = await store.recentThreads('U1');
    expect(thread).toMatchObject({ status, title: 'disk?' });
    expect(await store.weeklyTallies('2026-W48')).toEqual({
      runs: 1,
      answers,
      'answered-sessions': answers,
      'rated-sessions': 0,
    });
  });

  it('counts a rated session once however often it is rated', async () => {
    const { store, activity } = setup();
    const answer = { threadKey: 'k', agentId: 'a', sessionId: 's1', turnId: 't1' };
    activity.rated(answer);
    activity.rated(answer);
    await new Promise((r) => setTimeout(r, 20));
    expect((await store.weeklyTallies('2026-W48'))['rated-sessions']).toBe(1);
  });

  it('logs a store failure and goes on (the turn never feels it)', async () => {
    const { store, log, changed } = setup();
    const broken = { ...store, noteRecentThread: () => Promise.reject(new Error('store down')) };
    const failing = createHomeActivity({
      store: broken,
      now: () => T,
      logger: log.logger,
      onThreadsChanged: (_team, user) => changed.push(user),
    });
    expect(() => failing.started(POLLED_TURN, 'q')).not.toThrow();
    for (let i = 0; i < 100 && log.records().length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(log.records()[0]).toMatchObject({ msg: 'App Home: thread start not recorded' });
    expect(changed).toEqual([]);
  });

  it.each([
    ['  Why?  ', 'Why?'],
    ['first line\nsecond', 'first line'],
    ['x'.repeat(100), `${'x'.repeat(79)}…`],
  ])('titles %j as %j', (question, title) => {
    expect(threadTitle(question)).toBe(title);
  });
});
