import { describe, expect, it } from 'vitest';
import {
  createRequestBudget,
  type RequestBudget,
  type RequestKind,
} from '../../src/budget/request-budget.js';

/** A promise with its resolve exposed, to hold a slot until the test lets go. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Holds a slot of `kind` while `fn` runs, as the client holds one for each attempt. */
async function holding<T>(
  budget: RequestBudget,
  kind: RequestKind,
  fn: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const slot = await budget.acquire(kind, signal);
  try {
    return await fn();
  } finally {
    slot.release();
  }
}

describe('createRequestBudget', () => {
  it('has the documented defaults and keeps at least one poll slot', () => {
    const budget = createRequestBudget();
    expect([budget.limit, budget.pollSlots]).toEqual([50, 40]);
    expect(createRequestBudget({ limit: 1 }).pollSlots).toBe(1);
    expect(createRequestBudget({ limit: 7, pollShare: 0.5 }).pollSlots).toBe(3);
  });

  it.each([{ limit: 0 }, { limit: 2.5 }, { pollShare: 0 }, { pollShare: 1.5 }])('refuses %j', (options) => {
    expect(() => createRequestBudget(options)).toThrow(RangeError);
  });

  it('never runs more than `limit` at once and starts waiters in FIFO order', async () => {
    const budget = createRequestBudget({ limit: 2 });
    const held = gate();
    const started: number[] = [];
    const calls = [1, 2, 3, 4, 5].map((id) =>
      holding(budget, 'other', async () => {
        started.push(id);
        await held.opened;
        return id;
      }),
    );
    await tick();
    expect([budget.inFlight(), budget.queued(), started]).toEqual([2, 3, [1, 2]]);
    held.open();
    await expect(Promise.all(calls)).resolves.toEqual([1, 2, 3, 4, 5]);
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(budget.maxInFlightSeen()).toBe(2);
    expect(budget.inFlight()).toBe(0);
  });

  it('lets other requests past polls that fill their share', async () => {
    const budget = createRequestBudget({ limit: 4, pollShare: 0.5 });
    const polls = gate();
    const pollCalls = Array.from({ length: 6 }, () => holding(budget, 'poll', () => polls.opened));
    await tick();
    expect([budget.inFlightPolls(), budget.queued()]).toEqual([2, 4]);
    // Two free slots remain for everything else, even with four polls queued ahead.
    await expect(holding(budget, 'other', async () => budget.inFlight())).resolves.toBe(3);
    polls.open();
    await Promise.all(pollCalls);
    expect(budget.inFlightPolls()).toBe(0);
  });

  it('hands a released slot to the next waiter', async () => {
    const budget = createRequestBudget({ limit: 1 });
    const first = await budget.acquire('other');
    const second = budget.acquire('poll');
    await tick();
    expect([budget.inFlight(), budget.queued()]).toEqual([1, 1]);
    first.release();
    (await second).release();
    expect([budget.inFlight(), budget.queued()]).toEqual([0, 0]);
  });

  it('frees a slot once, however often it is released', async () => {
    const budget = createRequestBudget({ limit: 2 });
    const first = await budget.acquire('other');
    await budget.acquire('other');
    first.release();
    first.release();
    expect(budget.inFlight()).toBe(1);
  });

  it('drops a queued request whose signal aborts, without running it', async () => {
    const budget = createRequestBudget({ limit: 1 });
    const held = gate();
    const first = holding(budget, 'other', () => held.opened);
    const controller = new AbortController();
    let ran = false;
    const second = holding(
      budget,
      'other',
      async () => {
        ran = true;
      },
      controller.signal,
    );
    await tick();
    expect(budget.queued()).toBe(1);
    controller.abort(new Error('user left'));
    await expect(second).rejects.toThrow('user left');
    expect(budget.queued()).toBe(0);
    held.open();
    await first;
    expect(ran).toBe(false);
    expect(budget.inFlight()).toBe(0);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const budget = createRequestBudget();
    await expect(
      holding(budget, 'poll', async () => 1, AbortSignal.abort(new Error('gone'))),
    ).rejects.toThrow('gone');
  });

  it('within an account share, caps at the grant, polls keeping their share of it, and tells its demand', async () => {
    let grant = 4;
    const demands: number[] = [];
    const listeners: Array<() => void> = [];
    const account = {
      granted: () => grant,
      demand: (slots: number) => demands.push(slots),
      onGrant: (listener: () => void) => listeners.push(listener),
    };
    const budget = createRequestBudget({ limit: 10, pollShare: 0.5, account });
    await budget.acquire('poll');
    await budget.acquire('poll');
    const thirdPoll = budget.acquire('poll');
    await budget.acquire('other');
    await budget.acquire('other');
    const thirdOther = budget.acquire('other');
    // A grant of 4 holds 4 in flight, of which polls floor(4 × 0.5) = 2.
    expect([budget.inFlight(), budget.inFlightPolls(), budget.queued()]).toEqual([4, 2, 2]);
    expect(demands.at(-1)).toBe(6);
    grant = 10;
    for (const listener of listeners) listener();
    await Promise.all([thirdPoll, thirdOther]);
    expect([budget.inFlight(), budget.inFlightPolls(), budget.queued()]).toEqual([6, 3, 0]);
  });
});
