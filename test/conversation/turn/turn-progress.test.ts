import sinon from 'sinon';
import { describe, expect, it } from 'vitest';
import type { Progress, ThreadLocation } from '../../../src/conversation/thread-output-port.js';
import { createTurnProgress, type StatusResult } from '../../../src/conversation/turn/turn-progress.js';
import type { TurnRecord } from '../../../src/conversation/turn/turn-records.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import { createManualClock, type ManualClock } from '../../support/manual-clock.js';
import { memoryLogger } from '../../support/memory-log.js';

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
    postProgress: async (_w: ThreadLocation, p: Progress, turnId: string) => {
      messages.push(`post ${p.steps} ${turnId}`);
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
    phase: 'polling',
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
    expect(await progress.begin(where, 't1')).toBe('9.9');
    expect(await progress.begin(where, 't1')).toBe('9.9');
    expect(f.statuses).toHaveLength(1);
    expect(await progress.begin({ ...where, teamId: 'T2' }, 't2')).toBeUndefined();
    // The message carries its turn: a successor that never got the turn's record finds it by that.
    expect(f.messages).toEqual(['post 0 t1', 'post 0 t1']);
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
    expect(await progress.begin(where, 't1')).toBeUndefined();
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

/** Many turns: what each thread's status showed, and when. */
function recordingStatus(clock: ManualClock, gate?: (threadTs: string) => Promise<void> | undefined) {
  const shown = new Map<string, Array<{ at: number; steps: number }>>();
  let calls = 0;
  const status = {
    set: async (w: ThreadLocation, progress: Progress | undefined): Promise<StatusResult> => {
      calls += 1;
      const at = clock.now();
      await gate?.(w.threadTs);
      if (progress) shown.set(w.threadTs, [...(shown.get(w.threadTs) ?? []), { at, steps: progress.steps }]);
      return { ok: true };
    },
  };
  return { status, shown, calls: () => calls };
}

const manyTurns = (n: number, overrides: Partial<TurnRecord> = {}) =>
  Array.from({ length: n }, (_, i) =>
    turn({ turnId: `t${i}`, threadTs: `${i}.1`, threadKey: `T1:C1:${i}.1`, ...overrides }),
  );

const noMessages = {
  postProgress: async () => '9.9',
  updateProgress: async () => undefined,
  removeProgress: async () => undefined,
};

describe('turn progress under load (one shared refresh schedule)', () => {
  it('keeps the status of 200 long turns alive with the default budget while steps keep coming', async () => {
    const clock = createManualClock(0);
    const rec = recordingStatus(clock);
    const lapsed = sinon.spy();
    const progress = createTurnProgress({
      style: 'status',
      refreshMs: 90_000,
      perMinute: 40,
      output: noMessages,
      status: rec.status,
      clock,
      logger: silentLogger,
      metrics: { progressStatusLapsed: lapsed },
    });
    const turns = manyTurns(200);
    for (const t of turns) progress.follow(t);
    await clock.flush();
    // One sleeper for the refreshes of all 200 turns, not one each.
    expect(clock.pendingSleepers()).toBe(1);
    const minutes = 10;
    let offered = 0;
    for (let at = 0; at < minutes * 60_000; at += 5_000) {
      for (const t of turns) progress.step(t, at / 5_000 + 1); // a new step every 5 s, on every turn
      offered += turns.length;
      await clock.advanceAsync(5_000);
    }
    for (const t of turns) {
      const times = [0, ...(rec.shown.get(t.threadTs) ?? []).map((s) => s.at), clock.now()];
      // The fake Slack answers at once, so a call's start is when the status was set.
      const gaps = times.slice(1).map((at, i) => at - (times[i] as number));
      // Slack clears a status 2 minutes after it was set: every gap stays under that.
      expect(Math.max(...gaps), t.turnId).toBeLessThan(120_000);
      // Refreshes carry the latest step, so the step count moves even while steps are held back.
      expect(rec.shown.get(t.threadTs)?.at(-1)?.steps).toBeGreaterThan(100);
    }
    expect(lapsed.callCount).toBe(0);
    // Steps were coalesced: far fewer calls than steps offered — refreshes (about 7 per turn in
    // 10 minutes) plus at most the budget's worth of step updates.
    expect(rec.calls()).toBeLessThanOrEqual(turns.length * 7 + 40 * minutes + 5);
    expect(offered).toBe(24_000);
    await progress.close();
    expect(clock.pendingSleepers()).toBe(0);
  });

  it('settle waits for a send under way, and nothing is sent after it', async () => {
    const clock = createManualClock(0);
    let release = (): void => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const rec = recordingStatus(clock, () => (clock.now() >= 90_000 ? held : undefined));
    const progress = createTurnProgress({
      style: 'status',
      refreshMs: 90_000,
      perMinute: 40,
      output: noMessages,
      status: rec.status,
      clock,
      logger: silentLogger,
    });
    const [a, b] = manyTurns(2);
    progress.follow(a as TurnRecord);
    progress.follow(b as TurnRecord);
    await clock.advanceAsync(90_000); // both refreshes start; Slack holds them
    expect(rec.calls()).toBe(2);
    let settled = false;
    const settling = progress.settle('t0').then(() => {
      settled = true;
    });
    progress.step(a as TurnRecord, 7);
    await clock.advanceAsync(1_000);
    expect(settled).toBe(false);
    release();
    await settling;
    await clock.advanceAsync(600_000);
    // t0: the refresh that was under way, nothing after; t1 keeps refreshing.
    expect(rec.shown.get('0.1')?.map((s) => s.at)).toEqual([90_000]);
    expect(rec.shown.get('1.1')?.length).toBeGreaterThan(5);
    await progress.close();
  });

  it('close stops every refresh and sleeper', async () => {
    const clock = createManualClock(0);
    const rec = recordingStatus(clock);
    const progress = createTurnProgress({
      style: 'status',
      refreshMs: 90_000,
      perMinute: 1,
      output: noMessages,
      status: rec.status,
      clock,
      logger: silentLogger,
    });
    const turns = manyTurns(50);
    for (const t of turns) progress.follow(t);
    for (const t of turns) progress.step(t, 1); // most wait for tokens
    await clock.flush();
    const before = rec.calls();
    await progress.close();
    expect(clock.pendingSleepers()).toBe(0);
    for (const t of turns) progress.step(t, 2);
    await clock.advanceAsync(600_000);
    expect(rec.calls()).toBe(before);
  });

  it('keeps progress-message refreshes within the budget: a message does not expire', async () => {
    const clock = createManualClock(0);
    const edits: number[] = [];
    const progress = createTurnProgress({
      style: 'message',
      refreshMs: 90_000,
      perMinute: 40,
      output: { ...noMessages, updateProgress: async () => void edits.push(clock.now()) },
      status: recordingStatus(clock).status,
      clock,
      logger: silentLogger,
    });
    for (const t of manyTurns(100, { progressTs: '9.9' })) progress.follow(t);
    await clock.advanceAsync(5 * 60_000);
    // 100 messages want an edit every 30 s (200 a minute); chat.update gets the 40 a minute.
    expect(edits.length).toBeGreaterThan(150);
    expect(edits.length).toBeLessThanOrEqual(5 * 40 + 5);
    await progress.close();
  });

  it('logs once and counts every status that expired before its refresh reached Slack', async () => {
    const clock = createManualClock(0);
    // Slack (or its 429s, waited out by the Web client) takes 130 s to take the first refreshes.
    const rec = recordingStatus(clock, () =>
      clock.now() === 90_000 ? clock.sleep(130_000).then(() => undefined) : undefined,
    );
    const lapsed = sinon.spy();
    const log = memoryLogger('warn');
    const progress = createTurnProgress({
      style: 'status',
      refreshMs: 90_000,
      perMinute: 40,
      output: noMessages,
      status: rec.status,
      clock,
      logger: log.logger,
      metrics: { progressStatusLapsed: lapsed },
    });
    for (const t of manyTurns(3)) progress.follow(t);
    await clock.advanceAsync(300_000);
    // Set at 0 s; the refresh sent at 90 s reached Slack only at 220 s: 100 s without a status,
    // three times. The next refreshes (220 s, 310 s…) are on time again.
    expect(lapsed.callCount).toBe(3);
    const warnings = log.records().filter((r) => String(r.msg).includes('expired before its refresh'));
    expect(warnings).toHaveLength(1);
    await progress.close();
  });
});
