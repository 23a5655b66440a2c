import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/conversation/clock.js';
import type { Progress, ThreadLocation, TurnRecord } from '../../src/conversation/ports.js';
import { createTurnProgress, type StatusResult } from '../../src/conversation/turn-progress.js';
import { silentLogger } from '../../src/logging.js';

const where: ThreadLocation = { teamId: 'T1', channel: 'C1', threadTs: '1.1' };

/** A status port and a progress-message output that record what a person would see. */
function fakes(answers: StatusResult[] = []) {
  const statuses: Array<Progress | undefined> = [];
  const messages: string[] = [];
  const status = {
    set: async (_where: ThreadLocation, progress: Progress | undefined) => {
      statuses.push(progress);
      return answers.shift() ?? ({ ok: true } as const);
    },
  };
  const output = {
    postProgress: async (_w: ThreadLocation, p: Progress) => {
      messages.push(`post ${p.steps}`);
      return '9.9';
    },
    updateProgress: async (_w: ThreadLocation, _ts: string, p: Progress) => {
      messages.push(`update ${p.steps} ${p.elapsedMs}`);
    },
    removeProgress: async () => {
      messages.push('remove');
    },
  };
  return { statuses, messages, status, output };
}

function turn(overrides: Partial<TurnRecord> = {}): TurnRecord {
  return {
    turnId: 't1',
    threadKey: 'T1:C1:1.1',
    teamId: 'T1',
    channel: 'C1',
    threadTs: '1.1',
    agentId: 'a',
    userId: 'U1',
    sourceTs: '1.1',
    kind: 'start',
    phase: 'running',
    sessionId: 's1',
    startedAt: 0,
    deadlineAt: 1_000_000,
    ...overrides,
  };
}

describe('turn progress', () => {
  it('falls back to progress messages for a workspace once, on an error saying the status is unavailable', async () => {
    const clock = createManualClock(0);
    const f = fakes([{ ok: false, unavailable: true, error: 'missing_scope' }]);
    const progress = createTurnProgress({
      style: 'status',
      refreshMs: 90_000,
      perMinute: 600,
      clock,
      logger: silentLogger,
      ...f,
    });
    expect(await progress.begin(where)).toBe('9.9');
    expect(await progress.begin(where)).toBe('9.9');
    expect(f.statuses).toHaveLength(1);
    expect(await progress.begin({ ...where, teamId: 'T2' })).toBeUndefined();
    await progress.close();
  });

  it('keeps the status after a passing error and tries again with the next update', async () => {
    const clock = createManualClock(0);
    const f = fakes([{ ok: false, unavailable: false, error: 'ratelimited' }]);
    const progress = createTurnProgress({
      style: 'status',
      refreshMs: 90_000,
      perMinute: 600,
      clock,
      logger: silentLogger,
      ...f,
    });
    expect(await progress.begin(where)).toBeUndefined();
    progress.follow(turn());
    progress.step(turn(), 2);
    await clock.advanceAsync(1);
    expect(f.statuses.at(-1)).toMatchObject({ steps: 2, elapsedMs: 0 });
    expect(f.messages).toEqual([]);
    await progress.close();
  });

  it('refreshes the elapsed time of a silent run every refresh period, and stops once settled', async () => {
    const clock = createManualClock(0);
    const f = fakes();
    const progress = createTurnProgress({
      style: 'status',
      refreshMs: 10_000,
      perMinute: 600,
      clock,
      logger: silentLogger,
      ...f,
    });
    progress.follow(turn());
    await clock.advanceAsync(25_000);
    expect(f.statuses.map((p) => p?.elapsedMs)).toEqual([10_000, 20_000]);
    await progress.settle('t1');
    await clock.advanceAsync(30_000);
    expect(f.statuses).toHaveLength(2);
    await progress.close();
  });

  it('refreshes a progress message at least every 30 s, and removes it at the end', async () => {
    const clock = createManualClock(0);
    const f = fakes();
    const progress = createTurnProgress({
      style: 'message',
      refreshMs: 90_000,
      perMinute: 600,
      clock,
      logger: silentLogger,
      ...f,
    });
    const followed = turn({ progressTs: '9.9' });
    progress.follow(followed);
    await clock.advanceAsync(61_000);
    expect(f.messages).toEqual(['update 0 30000', 'update 0 60000']);
    await progress.end(followed, { clearStatus: true });
    expect(f.messages.at(-1)).toBe('remove');
    expect(f.statuses).toEqual([]);
    await progress.close();
  });

  it('clears the status only when asked (a turn that ended without an answer message)', async () => {
    const clock = createManualClock(0);
    const f = fakes();
    const progress = createTurnProgress({
      style: 'status',
      refreshMs: 90_000,
      perMinute: 600,
      clock,
      logger: silentLogger,
      ...f,
    });
    await progress.end(turn(), { clearStatus: false });
    expect(f.statuses).toEqual([]);
    await progress.end(turn(), { clearStatus: true });
    expect(f.statuses).toEqual([undefined]);
    await progress.close();
  });
});
