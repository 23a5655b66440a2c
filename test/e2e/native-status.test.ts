import { afterEach, describe, expect, it } from 'vitest';
import { simDirective } from '../../dev/simulator/index.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';

const progressMessages = (harness: Harness, channel: string, threadTs: string) =>
  harness.slack.messages(channel, threadTs).filter((m) => m.metadata?.event_type === 'agent_progress');

describe('native progress (PROGRESS_STYLE=status, the default)', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  it('shows the status with steps, refreshes it on a long run, and posts no progress message', async () => {
    harness = await startHarness({ env: { STATUS_REFRESH_SECONDS: '1' } });
    const h = harness;
    // One step at once, then 2.6 s of silence before the answer: longer than two refresh periods.
    const { channel, threadTs } = await h.mention(
      `slow ${simDirective({ steps: 2, stepMs: 1300, answer: 'Took a while.' })}`,
    );
    await h.slack.waitFor(() => h.slack.threadStatus(channel, threadTs), { description: 'a thread status' });
    await h.waitForOutcome(channel, threadTs, 1, 15_000);
    const calls = h.slack.statusCalls(channel, threadTs);
    expect(calls[0]?.status).toMatch(/^is working on it… 0 s$/);
    expect(calls[0]?.loading_messages).toEqual(['Working on it… 0 s']);
    expect(calls.some((call) => /step 1 · /.test(call.status))).toBe(true);
    // Refreshes carry the elapsed time forward even though no new step came.
    const elapsed = calls.map((call) => call.status.match(/(\d+) s$/)?.[1]).filter(Boolean);
    expect(new Set(elapsed).size).toBeGreaterThanOrEqual(3);
    expect(progressMessages(h, channel, threadTs)).toEqual([]);
    expect(h.slack.callCount('chat.update')).toBe(0);
    expect(h.slack.callCount('chat.delete')).toBe(0);
    // The answer cleared the status by itself; the bot did not have to.
    expect(h.slack.threadStatus(channel, threadTs)).toBeUndefined();
    expect(calls.at(-1)?.status).not.toBe('');
  });

  it('clears the status when a turn ends without an answer', async () => {
    harness = await startHarness();
    const { channel, threadTs } = await harness.mention(
      `fail ${simDirective({ steps: 1, stepMs: 20, outcome: 'error', answer: 'no data' })}`,
    );
    await harness.waitForOutcome(channel, threadTs);
    await harness.slack.waitFor(() => harness?.slack.statusCalls(channel, threadTs).at(-1)?.status === '', {
      description: 'the status cleared',
    });
    expect(harness.slack.threadStatus(channel, threadTs)).toBeUndefined();
  });

  it('falls back to a progress message for the workspace when Slack refuses the status, deciding once', async () => {
    harness = await startHarness();
    const h = harness;
    h.slack.refuseThreadStatus('not_allowed_token_type');
    const first = await h.mention(`one ${simDirective({ steps: 1, stepMs: 300, answer: 'First.' })}`);
    await h.slack.waitFor(() => progressMessages(h, first.channel, first.threadTs)[0], {
      description: 'a progress message instead of the status',
    });
    await h.waitForOutcome(first.channel, first.threadTs);
    const second = await h.mention(`two ${simDirective({ steps: 1, stepMs: 300, answer: 'Second.' })}`);
    await h.slack.waitFor(() => progressMessages(h, second.channel, second.threadTs)[0], {
      description: 'the second turn goes straight to a progress message',
    });
    await h.waitForOutcome(second.channel, second.threadTs);
    expect(h.slack.callCount('assistant.threads.setStatus')).toBe(1);
  });

  it('keeps the status after a passing error: the next update tries again', async () => {
    harness = await startHarness({ env: { STATUS_REFRESH_SECONDS: '1' } });
    const h = harness;
    h.slack.failNext('assistant.threads.setStatus', 'internal_error');
    const { channel, threadTs } = await h.mention(
      `blip ${simDirective({ steps: 2, stepMs: 700, answer: 'Fine.' })}`,
    );
    await h.slack.waitFor(() => h.slack.threadStatus(channel, threadTs), {
      timeoutMs: 5_000,
      description: 'the status shown after the failed first try',
    });
    await h.waitForOutcome(channel, threadTs, 1, 10_000);
    expect(progressMessages(h, channel, threadTs)).toEqual([]);
    expect(
      h.slack.calls.some(
        // metadata arrives as an object in a JSON body and as a JSON string in a form body
        (c) =>
          c.method === 'chat.postMessage' && JSON.stringify(c.args.metadata ?? '').includes('agent_progress'),
      ),
    ).toBe(false);
  });
});

describe('progress messages (PROGRESS_STYLE=message)', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  it('refreshes the elapsed time on a silent run, and sets no status', async () => {
    harness = await startHarness({ env: { PROGRESS_STYLE: 'message', STATUS_REFRESH_SECONDS: '1' } });
    const h = harness;
    // No step for 2.5 s: only refreshes can move the elapsed time.
    const { channel, threadTs } = await h.mention(
      `quiet ${simDirective({ steps: 0, stepMs: 2500, answer: 'Done quietly.' })}`,
    );
    const progress = await h.slack.waitFor(() => progressMessages(h, channel, threadTs)[0], {
      description: 'the progress message',
    });
    expect(h.visibleText(progress)).toContain('Working on it… 0 s');
    await h.slack.waitFor(
      () => {
        const now = progressMessages(h, channel, threadTs).find((m) => m.ts === progress.ts);
        return now && /Working on it… [1-9] s/.test(h.visibleText(now));
      },
      { timeoutMs: 5_000, description: 'the elapsed time refreshed' },
    );
    await h.waitForOutcome(channel, threadTs, 1, 10_000);
    expect(h.slack.callCount('assistant.threads.setStatus')).toBe(0);
    expect(progressMessages(h, channel, threadTs)).toEqual([]);
  });
});
