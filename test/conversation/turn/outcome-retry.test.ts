import { describe, expect, it } from 'vitest';
import type { OutputStyle } from '../../../src/conversation/thread-output-port.js';
import { deliverWhileTransient } from '../../../src/conversation/turn/outcome-retry.js';
import { type OutputFailureKind, ThreadOutputError } from '../../../src/conversation/turn/output-error.js';
import { createManualClock } from '../../support/manual-clock.js';

const failure = (kind: OutputFailureKind, code: string = kind) =>
  new ThreadOutputError(kind, code, 'chat.postMessage');

/** An attempt that fails with `script[i]` on try i, then succeeds; records the style of each try. */
function scripted(script: Array<ThreadOutputError | Error>) {
  const styles: OutputStyle[] = [];
  const attempt = async (style: OutputStyle) => {
    styles.push(style);
    const error = script[styles.length - 1];
    if (error) throw error;
    return 'posted';
  };
  return { attempt, styles };
}

describe('deliverWhileTransient', () => {
  it.each([
    ['lands at once', [], { ok: true, value: 'posted', style: 'rich' }, ['rich']],
    [
      'waits out transient failures',
      [failure('transient'), failure('transient'), new Error('socket hang up')],
      { ok: true, value: 'posted', style: 'rich' },
      ['rich', 'rich', 'rich', 'rich'],
    ],
    [
      'falls back to plain once on a content error',
      [failure('content', 'invalid_blocks')],
      { ok: true, value: 'posted', style: 'plain' },
      ['rich', 'plain'],
    ],
    [
      'gives up when the plain rendering is refused too',
      [failure('content', 'invalid_blocks'), failure('content', 'msg_too_long')],
      { ok: false, reason: 'permanent', code: 'msg_too_long' },
      ['rich', 'plain'],
    ],
    [
      'gives up at once on a permanent error',
      [failure('permanent', 'not_in_channel')],
      { ok: false, reason: 'permanent', code: 'not_in_channel' },
      ['rich'],
    ],
    [
      'keeps the plain style through later transient failures',
      [failure('content'), failure('transient')],
      { ok: true, value: 'posted', style: 'plain' },
      ['rich', 'plain', 'plain'],
    ],
  ])('%s', async (_name, script, expected, styles) => {
    const clock = createManualClock();
    const run = scripted(script);
    const result = deliverWhileTransient(run.attempt, {
      clock,
      signal: new AbortController().signal,
      random: () => 0.5,
    });
    await clock.advanceAsync(10 * 60_000);
    expect(await result).toMatchObject(expected);
    expect(run.styles).toEqual(styles);
  });

  it('backs off with growing, capped waits between transient failures', async () => {
    const clock = createManualClock();
    const tries: number[] = [];
    const result = deliverWhileTransient(
      async () => {
        tries.push(clock.now());
        if (tries.length < 5) throw failure('transient');
        return 'ok';
      },
      {
        clock,
        signal: new AbortController().signal,
        random: () => 0.99,
        backoff: { baseMs: 1000, maxMs: 3000 },
      },
    );
    await clock.advanceAsync(60_000);
    await result;
    const gaps = tries.slice(1).map((at, i) => at - (tries[i] ?? 0));
    expect(gaps).toEqual([990, 1980, 2970, 2970]);
  });

  it("waits the caller's own steady beat for the failures it names, and backs off for the rest", async () => {
    const clock = createManualClock();
    const tries: number[] = [];
    const claimed = new Error('delivery claimed by another instance');
    const result = deliverWhileTransient(
      async () => {
        tries.push(clock.now());
        if (tries.length < 6) throw tries.length === 5 ? failure('transient') : claimed;
        return 'ok';
      },
      {
        clock,
        signal: new AbortController().signal,
        random: () => 0.99,
        backoff: { baseMs: 1000, maxMs: 30_000 },
        waitFor: (error) => (error === claimed ? 700 : undefined),
      },
    );
    await clock.advanceAsync(120_000);
    await result;
    const gaps = tries.slice(1).map((at, i) => at - (tries[i] ?? 0));
    // Four steady beats while the claim is held; the fifth failure backs off as its count says.
    expect(gaps).toEqual([700, 700, 700, 700, 15_840]);
  });

  it('waits out a store that does not answer, even when the retry hook needs that store too', async () => {
    // What node-redis throws while Redis is down (ClientOfflineError): not a Slack refusal.
    const offline = Object.assign(new Error('The client is offline'), { name: 'ClientOfflineError' });
    const clock = createManualClock();
    const run = scripted([offline, offline, offline]);
    const hooked: number[] = [];
    const result = deliverWhileTransient(run.attempt, {
      clock,
      signal: new AbortController().signal,
      random: () => 0.5,
      onRetry: async (_error, attempt) => {
        hooked.push(attempt);
        throw offline; // letting go of a claim in the store that is down
      },
    });
    await clock.advanceAsync(60_000);
    expect(await result).toEqual({ ok: true, value: 'posted', style: 'rich' });
    expect(run.styles).toHaveLength(4);
    expect(hooked).toEqual([1, 2, 3]);
  });

  it('stops waiting when its signal aborts', async () => {
    const clock = createManualClock();
    const stop = new AbortController();
    const result = deliverWhileTransient(
      async () => {
        throw failure('transient', 'http_500');
      },
      { clock, signal: stop.signal, random: () => 0.5 },
    );
    await clock.advanceAsync(5_000);
    stop.abort();
    expect(await result).toMatchObject({ ok: false, reason: 'aborted', code: 'http_500' });
  });

  it('gives up after giveUpAfterMs', async () => {
    const clock = createManualClock();
    let tries = 0;
    const result = deliverWhileTransient(
      async () => {
        tries += 1;
        throw failure('transient');
      },
      { clock, signal: new AbortController().signal, random: () => 0.99, giveUpAfterMs: 10_000 },
    );
    await clock.advanceAsync(60_000);
    expect(await result).toMatchObject({ ok: false, reason: 'aborted' });
    expect(tries).toBeGreaterThan(2);
    expect(tries).toBeLessThan(8);
  });
});
