import sinon from 'sinon';
import { describe, expect, it } from 'vitest';
import type { Progress, ThreadLocation } from '../../../src/conversation/thread-output-port.js';
import { createNativeStatus, type StatusResult } from '../../../src/conversation/turn/native-status.js';
import type { TurnRecord } from '../../../src/conversation/turn/turn-records.js';
import { createManualClock } from '../../support/manual-clock.js';
import { memoryLogger } from '../../support/memory-log.js';

const where: ThreadLocation = { teamId: 'T1', channel: 'C1', threadTs: '1.1' };
const turn = { turnId: 't1', threadKey: 'T1:C1:1.1' } as TurnRecord;

function nativeStatus(style: 'status' | 'message', answers: StatusResult[] = []) {
  const clock = createManualClock(0);
  const log = memoryLogger('warn');
  const lapsed = sinon.spy();
  const calls: Array<Progress | undefined> = [];
  const status = {
    set: async (_where: ThreadLocation, progress: Progress | undefined) => {
      calls.push(progress);
      return answers.shift() ?? ({ ok: true } as const);
    },
  };
  const native = createNativeStatus({
    style,
    status,
    clock,
    logger: log.logger,
    metrics: { progressStatusLapsed: lapsed },
  });
  return { native, clock, log, lapsed, calls };
}

describe('native status', () => {
  it('falls back in a workspace whose status is unavailable, and only there', async () => {
    const { native, log } = nativeStatus('status', [
      { ok: false, unavailable: true, error: 'missing_scope' },
    ]);
    expect(await native.set(where, { steps: 0, elapsedMs: 0 })).toBe(false);
    expect(native.usable('T1')).toBe(false);
    expect(native.usable('T2')).toBe(true);
    expect(log.records().filter((r) => String(r.msg).includes('not available'))).toHaveLength(1);
  });

  it('stays usable after a passing error', async () => {
    const { native } = nativeStatus('status', [{ ok: false, unavailable: false, error: 'ratelimited' }]);
    expect(await native.set(where, { steps: 1, elapsedMs: 0 })).toBe(false);
    expect(native.usable('T1')).toBe(true);
    expect(await native.set(where, { steps: 1, elapsedMs: 0 })).toBe(true);
  });

  it('counts every status taken more than two minutes after the last, and logs the first only', async () => {
    const { native, clock, log, lapsed } = nativeStatus('status');
    clock.advance(120_000);
    expect(native.took(turn, 0)).toBe(120_000);
    expect(lapsed.callCount).toBe(0);
    clock.advance(130_001);
    native.took(turn, 130_000);
    native.took(turn, 0);
    expect(lapsed.callCount).toBe(2);
    const warnings = log.records().filter((r) => String(r.msg).includes('expired before its refresh'));
    expect(warnings).toHaveLength(1);
  });

  it('is never used, nor cleared, with progress messages', async () => {
    const { native, calls } = nativeStatus('message');
    expect(native.usable('T1')).toBe(false);
    await native.clear(where);
    expect(calls).toEqual([]);
  });
});
