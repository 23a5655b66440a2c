import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { simDirective } from '../../dev/simulator/index.js';
import { createLogger } from '../../src/logging.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';

const byType = (harness: Harness, channel: string, threadTs: string, type: string) =>
  harness.slack.messages(channel, threadTs).filter((message) => message.metadata?.event_type === type);

const failedCalls = (harness: Harness, method: string, error: string) =>
  harness.slack.calls.filter((call) => call.method === method && call.error === error);

/** Status polls the simulator saw for a session (GET of the run). */
const statusPolls = (harness: Harness, sessionId: string, after = 0) =>
  harness.sim.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/${sessionId}`) && r.at >= after);

function logLines() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger({ level: 'info', destination }) };
}

/** These cases are about messages Slack refuses: progress as a message, which can be refused too. */
const AS_MESSAGES = { PROGRESS_STYLE: 'message' };

describe('when Slack fails', () => {
  let harness: Harness;
  afterEach(async () => harness?.stop());

  it('a deadline notice during a Slack outage lands once Slack is back, once, and the progress goes', async () => {
    harness = await startHarness({
      env: { TURN_DEADLINE_SECONDS: '1', LATE_ANSWER_WATCH_MINUTES: '0', ...AS_MESSAGES },
    });
    const { channel, threadTs } = await harness.mention(
      `forever ${simDirective({ steps: 100, stepMs: 200 })}`,
    );
    await harness.slack.waitFor(() => byType(harness, channel, threadTs, 'agent_progress').length === 1, {
      description: 'the progress message',
    });
    harness.slack.setOutage('*', { status: 500 });
    // The Web client retries a 5xx five times by itself; the bot must try again after that (and
    // then reads the thread first, for a notice that landed after all). Each of the Web client's
    // rounds waits 7.75–15.5 s (web-client.ts), and up to three come before the sixth failed read:
    // a progress refresh already in flight (the notice waits for it), the notice, the read.
    await harness.slack.waitFor(() => failedCalls(harness, 'conversations.replies', 'http_500').length >= 6, {
      timeoutMs: 75_000,
      description: 'the notice retried past the Web client’s own retries',
    });
    expect(byType(harness, channel, threadTs, 'agent_notice')).toHaveLength(0);
    harness.slack.setOutage('*', undefined);
    const [notice] = await harness.waitForOutcome(channel, threadTs, 1, 40_000);
    expect(harness.visibleText(notice ?? {})).toMatch(/stopped waiting/);
    expect(byType(harness, channel, threadTs, 'agent_notice')).toHaveLength(1);
    expect(byType(harness, channel, threadTs, 'agent_progress')).toHaveLength(0);
  }, 150_000);

  it('an answer during dropped connections lands once they are back', async () => {
    harness = await startHarness({ env: AS_MESSAGES });
    const { channel, threadTs } = await harness.mention(
      `soon ${simDirective({ steps: 2, stepMs: 600, answer: 'Worth the wait.' })}`,
    );
    await harness.slack.waitFor(() => byType(harness, channel, threadTs, 'agent_progress').length === 1, {
      description: 'the progress message',
    });
    harness.slack.setOutage('chat.postMessage', { drop: true });
    await harness.slack.waitFor(
      () => failedCalls(harness, 'chat.postMessage', 'connection_dropped').length >= 7,
      { timeoutMs: 40_000, description: 'the answer retried past the Web client’s own retries' },
    );
    harness.slack.setOutage('chat.postMessage', undefined);
    await harness.waitForOutcome(channel, threadTs, 1, 40_000);
    const answers = byType(harness, channel, threadTs, 'agent_answer');
    expect(answers).toHaveLength(1);
    expect(harness.visibleText(answers[0] ?? {})).toContain('Worth the wait.');
  }, 90_000);

  it('not_in_channel ends the turn at once: few calls, no more polls, thread released, one warn line', async () => {
    const { lines, logger } = logLines();
    harness = await startHarness({ logger, env: AS_MESSAGES });
    const { channel, threadTs } = await harness.mention(
      `bye ${simDirective({ steps: 3, stepMs: 300, answer: 'Nobody will read this.' })}`,
      { channel: 'C0LEAVING' },
    );
    await harness.slack.waitFor(() => byType(harness, channel, threadTs, 'agent_progress').length === 1, {
      description: 'the progress message',
    });
    harness.slack.setNotInChannel(channel);
    const run = await harness.slack.waitFor(() => harness.sim.runs().find((r) => r.status === 'done'), {
      description: 'the run done',
    });
    await harness.slack.waitFor(
      () => lines.find((line) => line.msg === 'Slack refused the outcome for good; turn dropped'),
      { description: 'the turn dropped' },
    );
    // Give a runaway loop time to show itself.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const refusedAnswers = failedCalls(harness, 'chat.postMessage', 'not_in_channel');
    expect(refusedAnswers).toHaveLength(1);
    expect(statusPolls(harness, run.sessionId, (run.finishedAt ?? 0) + 1_000)).toHaveLength(0);
    const dropped = lines.filter((line) => line.msg === 'Slack refused the outcome for good; turn dropped');
    expect(dropped).toHaveLength(1);
    expect(dropped[0]).toMatchObject({ level: 'warn', code: 'not_in_channel', channel });
    const metrics = await harness.bridge.metrics.render();
    expect(metrics).toMatch(/sab_deliveries_dropped_total\{error="not_in_channel"\} 1/);
    expect(metrics).toMatch(/sab_turns_finished_total\{outcome="undeliverable"\} 1/);
    expect(metrics).toMatch(/sab_turns_in_flight 0/);
    // The thread is free: once the bot is back in the channel, a reply is a follow-up.
    harness.slack.setNotInChannel(channel, false);
    await harness.reply(`again ${simDirective({ steps: 1, stepMs: 20, answer: 'Back.' })}`, {
      channel,
      threadTs,
    });
    const [back] = await harness.slack.waitFor(
      () => {
        const answers = byType(harness, channel, threadTs, 'agent_answer');
        return answers.length > 0 ? answers : undefined;
      },
      { description: 'the follow-up answer' },
    );
    expect(harness.visibleText(back ?? {})).toContain('Back.');
    expect(harness.sim.runs()[0]?.turns).toBe(2);
  }, 30_000);

  it('an answer Slack refuses as invalid_blocks falls back to plain text and lands once', async () => {
    harness = await startHarness({ env: AS_MESSAGES });
    const { channel, threadTs } = await harness.mention(
      `blocks ${simDirective({ steps: 2, stepMs: 300, answer: 'Plain but **here**.' })}`,
    );
    await harness.slack.waitFor(() => byType(harness, channel, threadTs, 'agent_progress').length === 1, {
      description: 'the progress message',
    });
    harness.slack.failNext('chat.postMessage', 'invalid_blocks');
    await harness.waitForOutcome(channel, threadTs);
    const answers = byType(harness, channel, threadTs, 'agent_answer');
    expect(answers).toHaveLength(1);
    expect(answers[0]?.blocks).toBeUndefined();
    expect(answers[0]?.text).toContain('Plain but **here**.');
    expect(failedCalls(harness, 'chat.postMessage', 'invalid_blocks')).toHaveLength(1);
  });

  it('a notice Slack refuses as msg_too_long falls back to plain text and lands once', async () => {
    harness = await startHarness({ env: AS_MESSAGES });
    const { channel, threadTs } = await harness.mention(
      `fail ${simDirective({ steps: 2, stepMs: 300, outcome: 'error', answer: 'disk full' })}`,
    );
    await harness.slack.waitFor(() => byType(harness, channel, threadTs, 'agent_progress').length === 1, {
      description: 'the progress message',
    });
    harness.slack.failNext('chat.postMessage', 'msg_too_long');
    await harness.waitForOutcome(channel, threadTs);
    const notices = byType(harness, channel, threadTs, 'agent_notice');
    expect(notices).toHaveLength(1);
    expect(notices[0]?.blocks).toBeUndefined();
    expect(notices[0]?.text).toContain('disk full');
  });

  it('a busy refusal is retried through a Slack hiccup', async () => {
    harness = await startHarness({ env: AS_MESSAGES });
    const { channel, threadTs } = await harness.mention(
      `slow ${simDirective({ steps: 10, stepMs: 300, answer: 'Done.' })}`,
    );
    await harness.slack.waitFor(() => byType(harness, channel, threadTs, 'agent_progress').length === 1, {
      description: 'the progress message',
    });
    harness.slack.failNext('chat.postEphemeral', 'internal_error');
    await harness.reply('are you there?', { threadTs });
    const [refusal] = await harness.slack.waitFor(
      () => {
        const found = harness.slack.ephemerals(channel, 'UALICE');
        return found.length > 0 ? found : undefined;
      },
      { description: 'the busy refusal' },
    );
    expect(refusal?.text).toMatch(/still working on the previous message.*at it for/);
    expect(failedCalls(harness, 'chat.postEphemeral', 'internal_error')).toHaveLength(1);
  });
});
