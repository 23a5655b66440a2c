import { describe, expect, it } from 'vitest';
import type { RecentThread } from '../../src/home/home-ports.js';
import type { StateStore } from '../../src/store/index.js';

const T = 1_700_000_000_000;
const LIMITS = { max: 3, ttlMs: 60_000 };

const recent = (n: number, overrides: Partial<RecentThread> = {}): RecentThread => ({
  threadKey: `T1:C1:${n}.000100`,
  channel: 'C1',
  threadTs: `${n}.000100`,
  title: `question ${n}`,
  status: 'working',
  updatedAt: T + n,
  ...overrides,
});

/** App Home's records (src/home/home-ports.ts) on one implementation; part of the store contract. */
export function describeHomeStoreContract(
  store: () => StateStore,
  advance: (ms: number) => Promise<void>,
): void {
  describe('App Home records', () => {
    it('keeps answer channels (no expiry) and lists them, sorted, until turned off', async () => {
      await store().saveAnswerChannel('C2', { by: 'U1', at: T });
      await store().saveAnswerChannel('T9:C1', { by: 'U2', at: T + 1 });
      expect(await store().listAnswerChannels()).toEqual(['C2', 'T9:C1']);
      expect(await store().getAnswerChannel('T9:C1')).toEqual({ by: 'U2', at: T + 1 });
      await store().deleteAnswerChannel('T9:C1');
      expect(await store().getAnswerChannel('T9:C1')).toBeUndefined();
      expect(await store().listAnswerChannels()).toEqual(['C2']);
    });

    it("keeps a person's newest threads, newest first, one entry per thread", async () => {
      for (const n of [1, 2, 3, 4]) await store().noteRecentThread('U1', recent(n), LIMITS);
      await store().noteRecentThread('U1', recent(2, { status: 'answered', updatedAt: T + 10 }), LIMITS);
      const threads = await store().recentThreads('U1');
      expect(threads.map((thread) => [thread.threadTs, thread.status])).toEqual([
        ['2.000100', 'answered'],
        ['4.000100', 'working'],
        ['3.000100', 'working'],
      ]);
      expect(await store().recentThreads('U2')).toEqual([]);
    });

    it('keeps the title a later write leaves out', async () => {
      await store().noteRecentThread('U1', recent(1), LIMITS);
      await store().noteRecentThread(
        'U1',
        recent(1, { title: undefined, status: 'failed', updatedAt: T + 5 }),
        LIMITS,
      );
      expect(await store().recentThreads('U1')).toEqual([recent(1, { status: 'failed', updatedAt: T + 5 })]);
    });

    it('forgets the list its TTL after the last write', async () => {
      await store().noteRecentThread('U1', recent(1), { max: 3, ttlMs: 150 });
      await advance(300);
      expect(await store().recentThreads('U1')).toEqual([]);
    });

    it('keeps the newest under concurrent writes', async () => {
      await Promise.all(
        Array.from({ length: 12 }, (_, n) => store().noteRecentThread('U1', recent(n + 1), LIMITS)),
      );
      expect((await store().recentThreads('U1')).map((thread) => thread.updatedAt)).toEqual([
        T + 12,
        T + 11,
        T + 10,
      ]);
    });

    it('tallies distinct ids per week and kind', async () => {
      await store().tally('2026-W48', 'runs', 'turn-1', 60_000);
      await store().tally('2026-W48', 'runs', 'turn-1', 60_000);
      await store().tally('2026-W48', 'runs', 'turn-2', 60_000);
      await store().tally('2026-W48', 'rated-sessions', 's1', 60_000);
      await store().tally('2026-W47', 'answers', 'turn-0', 60_000);
      expect(await store().weeklyTallies('2026-W48')).toEqual({
        runs: 2,
        answers: 0,
        'answered-sessions': 0,
        'rated-sessions': 1,
      });
    });

    it('lists the bound channels as bindings come and go', async () => {
      const binding = { agentId: 'a1', boundBy: 'U1', boundAt: T };
      await store().saveChannelBinding('C2', binding);
      await store().saveChannelBinding('C1', binding);
      await store().deleteChannelBinding('C2');
      expect(await store().listBoundChannels()).toEqual(['C1']);
    });

    it('remembers the latest state seen per agent, most recent first', async () => {
      await store().noteAgentSeen({ agentId: 'a1', active: true, source: 'run', at: T });
      await store().noteAgentSeen({ agentId: 'a2', active: true, source: 'run', at: T + 1 });
      await store().noteAgentSeen({ agentId: 'a1', active: false, source: 'command', at: T + 2 });
      expect(await store().agentsSeen()).toEqual([
        { agentId: 'a1', active: false, source: 'command', at: T + 2 },
        { agentId: 'a2', active: true, source: 'run', at: T + 1 },
      ]);
    });
  });
}
