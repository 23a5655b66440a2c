import { describe, expect, it } from 'vitest';
import type { PollHandlers } from '../../../src/conversation/polling/poll-contract.js';
import { createPollRoster, isGone } from '../../../src/conversation/polling/poll-roster.js';

const handlers: PollHandlers = { onReport: () => {}, onError: () => {}, onDeadline: () => {} };
const entry = (id: string) => ({ id, agentId: 'agent', sessionId: id, deadlineAt: 1_000 });

describe('poll roster', () => {
  it('keeps one entry per id: joining again drops the earlier one and aborts its request', () => {
    const roster = createPollRoster();
    const first = roster.join(entry('a'), handlers);
    first.controller = new AbortController();
    const second = roster.join(entry('a'), handlers);
    expect(isGone(first)).toBe(true);
    expect(first.controller.signal.reason).toMatchObject({ name: 'AbortError', message: 'replaced' });
    expect(isGone(second)).toBe(false);
    expect([roster.ids(), roster.size(), roster.has('a')]).toEqual([['a'], 1, true]);
  });

  it('copies the entry it is given', () => {
    const given = entry('a');
    const t = createPollRoster().join(given, handlers);
    given.deadlineAt = 5;
    expect(t.entry.deadlineAt).toBe(1_000);
  });

  it('removes by id once, and a dropped entry that is no longer the one of its id leaves the other alone', () => {
    const roster = createPollRoster();
    const old = roster.join(entry('a'), handlers);
    roster.join(entry('a'), handlers);
    roster.drop(old, 'late drop');
    expect(roster.has('a')).toBe(true);
    expect(roster.remove('a')).toBe(true);
    expect(roster.remove('a')).toBe(false);
    expect(roster.size()).toBe(0);
  });

  it('on close drops every entry with the reason given, and refuses new ones', () => {
    const roster = createPollRoster();
    const ts = ['a', 'b'].map((id) => roster.join(entry(id), handlers));
    const controllers = ts.map((t) => {
      t.controller = new AbortController();
      return t.controller;
    });
    roster.close('poll scheduler stopped');
    expect(ts.map(isGone)).toEqual([true, true]);
    expect(controllers.map((c) => (c.signal.reason as Error).message)).toEqual([
      'poll scheduler stopped',
      'poll scheduler stopped',
    ]);
    expect(() => roster.join(entry('c'), handlers)).toThrow('poll scheduler is stopped');
  });
});
