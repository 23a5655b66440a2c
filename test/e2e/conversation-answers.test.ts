import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { SIM_AGENTS, type SimulatorFaults, simDirective } from '../../dev/simulator/index.js';
import { SLACK_LIMITS } from '../../dev/slack-standin/index.js';
import { createLogger } from '../../src/logging.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';
import { memoryLogger } from '../support/memory-log.js';

const outcomeText = (harness: Harness, channel: string, threadTs: string) =>
  harness.slack
    .messages(channel, threadTs)
    .filter((message) => ['agent_answer', 'agent_notice'].includes(message.metadata?.event_type ?? ''))
    .map((message) => harness.visibleText(message))
    .join('\n');

describe('progress and answers', () => {
  let harness: Harness;
  afterEach(async () => harness?.stop());

  it('shows a progress message (PROGRESS_STYLE=message) while the run works and removes it when the answer lands', async () => {
    harness = await startHarness({ env: { PROGRESS_UPDATES_PER_MINUTE: '600', PROGRESS_STYLE: 'message' } });
    const { channel, threadTs } = await harness.mention(
      `dig ${simDirective({ steps: 4, stepMs: 250, answer: 'Found it.' })}`,
    );
    const progress = await harness.slack.waitFor(
      () =>
        harness.slack
          .messages(channel, threadTs)
          .find((message) => message.metadata?.event_type === 'agent_progress'),
      { description: 'a progress message' },
    );
    expect(harness.visibleText(progress)).toContain('Working on it');
    await harness.slack.waitFor(
      () =>
        /step [1-4]/.test(
          harness.visibleText(
            harness.slack.messages(channel, threadTs).find((m) => m.ts === progress.ts) ?? {},
          ),
        ),
      { description: 'a progress update with a step count' },
    );
    await harness.waitForOutcome(channel, threadTs);
    expect(harness.slack.messages(channel, threadTs).some((message) => message.ts === progress.ts)).toBe(
      false,
    );
    expect(outcomeText(harness, channel, threadTs)).toContain('Found it.');
  });

  it('delivers a 60,000-character answer whole, within every Slack limit, and as a file', async () => {
    harness = await startHarness();
    const { channel, threadTs } = await harness.mention(
      `big one ${simDirective({ steps: 1, stepMs: 20, size: 60_000 })}`,
    );
    await harness.waitForOutcome(channel, threadTs);
    const original = harness.sim.runs()[0]?.message ?? '';
    expect(original).toHaveLength(60_000);
    const failed = harness.slack.calls.filter((call) => !call.ok);
    expect(failed).toEqual([]);
    const parts = harness.slack
      .messages(channel, threadTs)
      .filter((message) => message.metadata?.event_type === 'agent_answer');
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect((part.text ?? '').length).toBeLessThanOrEqual(4_000);
      const markdown = (part.blocks ?? []).map((block) => (block as { text?: string }).text ?? '').join('');
      expect(markdown.length).toBeLessThanOrEqual(SLACK_LIMITS.markdownBlockCharsPerMessage);
    }
    // Every non-blank line of the answer appears, in order, across the parts.
    const shown = parts
      .flatMap((part) => (part.blocks ?? []).map((block) => (block as { text?: string }).text ?? ''))
      .join('\n');
    let cursor = 0;
    for (const line of original.split('\n').filter((l) => l.trim() && !l.startsWith('```'))) {
      const found = shown.indexOf(line.trim(), cursor);
      expect(found, `line missing: ${line.slice(0, 60)}`).toBeGreaterThanOrEqual(0);
      cursor = found;
    }
    const [file] = harness.slack.files(channel);
    expect(file?.thread_ts).toBe(threadTs);
    expect(file?.text).toBe(original);
  });

  it('neutralises broadcast mentions and other control sequences in agent output', async () => {
    harness = await startHarness();
    const { channel, threadTs } = await harness.mention(
      `ping ${simDirective({ steps: 1, stepMs: 20, answer: 'Heads up', mention: ['channel', 'here', 'everyone', 'user', 'link'] })}`,
    );
    await harness.waitForOutcome(channel, threadTs);
    const [answer] = harness.slack
      .messages(channel, threadTs)
      .filter((m) => m.metadata?.event_type === 'agent_answer');
    const raw = JSON.stringify({ text: answer?.text, blocks: answer?.blocks });
    for (const sequence of [
      '<!channel>',
      '<!here>',
      '<!everyone>',
      '<@U0SIMUSER1>',
      '<https://example.com/sim|',
    ]) {
      expect(raw).not.toContain(sequence);
    }
    expect(harness.visibleText(answer ?? {})).toContain('Heads up');
  });

  it('shows a Markdown link disguised as another address with its real target', async () => {
    harness = await startHarness();
    const disguised = 'Log in at [https://good.example/login](https://evil.example/steal) now.';
    const { channel, threadTs } = await harness.mention(
      `link ${simDirective({ steps: 1, stepMs: 20, answer: disguised })}`,
    );
    await harness.waitForOutcome(channel, threadTs);
    const [answer] = harness.slack
      .messages(channel, threadTs)
      .filter((m) => m.metadata?.event_type === 'agent_answer');
    const markdown = (answer?.blocks ?? []).map((block) => (block as { text?: string }).text ?? '').join('');
    expect(markdown).not.toContain('](https://evil.example/steal)');
    expect(markdown).toContain('https://good.example/login (https://evil.example/steal)');
    expect(answer?.text).toContain('https://evil.example/steal');
  });

  it('posts the answer even when Slack rate-limits the first try', async () => {
    harness = await startHarness();
    harness.slack.rateLimitNext('chat.postMessage', 1, 1);
    const { channel, threadTs } = await harness.mention(
      `limited ${simDirective({ steps: 1, stepMs: 20, answer: 'Patience.' })}`,
    );
    await harness.waitForOutcome(channel, threadTs);
    expect(outcomeText(harness, channel, threadTs)).toContain('Patience.');
  });

  it('does not hold the run back while Slack rate-limits the progress message', async () => {
    harness = await startHarness({ env: { PROGRESS_STYLE: 'message' } });
    harness.slack.rateLimitNext('chat.postMessage', 4, 1);
    const { channel, threadTs } = await harness.mention(
      `hurry ${simDirective({ steps: 1, stepMs: 20, answer: 'Quick.' })}`,
    );
    const started = Date.now();
    await harness.slack.waitFor(
      () => harness.sim.requests.some((r) => r.method === 'GET' && r.path.includes('/v2/ai-agent/')),
      {
        description: 'the first status poll',
      },
    );
    expect(Date.now() - started).toBeLessThan(3_000);
    await harness.waitForOutcome(channel, threadTs, 1, 15_000);
    expect(outcomeText(harness, channel, threadTs)).toContain('Quick.');
    // The late progress message is removed once Slack accepts it.
    await harness.slack.waitFor(
      () =>
        !harness.slack.messages(channel, threadTs).some((m) => m.metadata?.event_type === 'agent_progress'),
      { timeoutMs: 10_000, description: 'no progress message left' },
    );
  });

  it('takes the follow-up answer, not the stale status of the previous turn', async () => {
    harness = await startHarness({ sim: { staleAfterFollowUpMs: 400 } });
    const { channel, threadTs } = await harness.mention(
      `one ${simDirective({ steps: 1, stepMs: 20, answer: 'Old answer.' })}`,
    );
    await harness.waitForOutcome(channel, threadTs);
    await harness.reply(`two ${simDirective({ steps: 2, stepMs: 100, answer: 'New answer.' })}`, {
      threadTs,
    });
    await harness.waitForOutcome(channel, threadTs, 2);
    const answers = harness.slack
      .messages(channel, threadTs)
      .filter((m) => m.metadata?.event_type === 'agent_answer');
    expect(answers.map((m) => harness.visibleText(m))).toEqual([
      expect.stringContaining('Old answer.'),
      expect.stringContaining('New answer.'),
    ]);
  });
});

describe('outcomes other than an answer', () => {
  let harness: Harness;
  afterEach(async () => harness?.stop());

  const cases: Array<{
    name: string;
    env?: Record<string, string>;
    /** Switched on once the bot has started (a bad token would stop it at start-up). */
    faults?: Partial<SimulatorFaults>;
    directive?: string;
    expected: RegExp;
    ref: boolean;
  }> = [
    {
      name: 'the agent reports an error',
      directive: simDirective({ steps: 1, stepMs: 20, outcome: 'error', answer: 'index missing' }),
      expected: /index missing/,
      ref: false,
    },
    {
      name: 'the run is canceled',
      directive: simDirective({ steps: 1, stepMs: 20, outcome: 'canceled' }),
      expected: /cancel/i,
      ref: false,
    },
    {
      name: 'the token is rejected (401)',
      faults: { agentTokenAs: 'invalid' },
      expected: /AGENT_API_TOKEN/,
      ref: true,
    },
    {
      name: 'the agent is disabled (404)',
      env: { AGENT_ID: SIM_AGENTS.disabled },
      expected: /\/agent enable/,
      ref: true,
    },
    {
      name: 'the token belongs to another region',
      faults: { agentTokenAs: 'otherRegion' },
      expected: /eu-central-1.*us-east-1|us-east-1.*eu-central-1/,
      ref: true,
    },
    {
      name: 'the service is unreachable',
      env: { AGENT_API_URL: 'http://127.0.0.1:9', AGENT_REQUEST_TIMEOUT_MS: '2000' },
      expected: /reach/i,
      ref: true,
    },
  ];

  for (const testCase of cases) {
    it(`says so in one sentence when ${testCase.name}`, async () => {
      harness = await startHarness({ env: testCase.env });
      Object.assign(harness.sim.faults, testCase.faults);
      const { channel, threadTs } = await harness.mention(`what now? ${testCase.directive ?? ''}`);
      await harness.waitForOutcome(channel, threadTs);
      const text = outcomeText(harness, channel, threadTs);
      expect(text).toMatch(testCase.expected);
      if (testCase.ref) expect(text).toMatch(/ref: [0-9a-f]{6,}/);
      expect(
        harness.slack.messages(channel, threadTs).filter((m) => m.metadata?.event_type === 'agent_answer'),
      ).toHaveLength(0);
    });
  }

  it('puts the reference id of the sentence in the log line with the details', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    harness = await startHarness({
      env: { AGENT_API_URL: 'http://127.0.0.1:9' },
      logger: createLogger({ level: 'info', destination }),
    });
    const { channel, threadTs } = await harness.mention('anyone there?');
    await harness.waitForOutcome(channel, threadTs);
    const ref = /ref: ([0-9a-f]+)/.exec(outcomeText(harness, channel, threadTs))?.[1];
    expect(ref).toBeTruthy();
    const logged = lines.map((line) => JSON.parse(line)).find((entry) => entry.referenceId === ref);
    expect(logged?.level).toBe('error');
    expect(logged?.threadKey).toContain(channel);
  });

  it('says the service is in maintenance (503)', async () => {
    harness = await startHarness();
    harness.sim.faults.maintenance = true;
    const { channel, threadTs } = await harness.mention('status?');
    await harness.waitForOutcome(channel, threadTs);
    expect(outcomeText(harness, channel, threadTs)).toMatch(/maintenance/i);
    expect(
      harness.sim.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/v2/ai-agent/')),
    ).toHaveLength(1);
  });

  it('reports an invalid response from the service with a reference id', async () => {
    harness = await startHarness();
    harness.sim.faults.malformed = '/v2/ai-agent/';
    const { channel, threadTs } = await harness.mention('status?');
    await harness.waitForOutcome(channel, threadTs);
    expect(outcomeText(harness, channel, threadTs)).toMatch(/ref: [0-9a-f]{6,}/);
  });

  it('tells the thread when it stopped waiting past the turn deadline', async () => {
    harness = await startHarness({ env: { TURN_DEADLINE_SECONDS: '1', LATE_ANSWER_WATCH_MINUTES: '0' } });
    const { channel, threadTs } = await harness.mention(
      `forever ${simDirective({ steps: 50, stepMs: 200 })}`,
    );
    await harness.waitForOutcome(channel, threadTs, 1, 8_000);
    expect(outcomeText(harness, channel, threadTs)).toMatch(/stopped waiting|gave up|no longer/i);
  });
});

/** What the bot decided for each reaction it handled (its `reaction handled` debug line). */
const reactionResults = (log: ReturnType<typeof memoryLogger>) =>
  log
    .records()
    .filter((record) => record.msg === 'reaction handled')
    .map((record) => ({ ts: record.ts, result: record.result }));

describe('reactions become feedback', () => {
  let harness: Harness;
  afterEach(async () => harness?.stop());

  it('scores 👍 as 100 and 👎 as 0 on the session, latest wins; other emoji and other messages do nothing', async () => {
    const log = memoryLogger('debug');
    harness = await startHarness({ logger: log.logger, env: { LOG_LEVEL: 'debug' } });
    const { channel, threadTs, ts } = await harness.mention(
      `rate me ${simDirective({ steps: 1, stepMs: 20, answer: 'Rated.' })}`,
    );
    await harness.waitForOutcome(channel, threadTs);
    const sessionId = harness.sim.runs()[0]?.sessionId ?? '';
    const [answer] = harness.slack
      .messages(channel, threadTs)
      .filter((m) => m.metadata?.event_type === 'agent_answer');
    await harness.react(channel, ts, '+1');
    await harness.react(channel, answer?.ts ?? '', 'tada');
    // Not a fixed sleep: wait until the bot has handled both reactions and said why it sent nothing.
    const handled = await harness.slack.waitFor(
      () => {
        const results = reactionResults(log);
        return results.length === 2 && results;
      },
      { description: 'both reactions handled', timeoutMs: 5_000 },
    );
    expect(handled).toEqual(
      expect.arrayContaining([
        { ts, result: 'not-an-answer' },
        { ts: answer?.ts, result: 'not-feedback-emoji' },
      ]),
    );
    expect(harness.sim.feedback(sessionId)).toBeUndefined();
    await harness.react(channel, answer?.ts ?? '', '+1');
    await harness.slack.waitFor(() => harness.sim.feedback(sessionId)?.score === 100, {
      description: 'score 100',
    });
    expect(harness.sim.feedback(sessionId)?.feedbackName).toBe('slack-reaction');
    await harness.react(channel, answer?.ts ?? '', 'thumbsdown', 'UBOB');
    await harness.slack.waitFor(() => harness.sim.feedback(sessionId)?.score === 0, {
      description: 'score 0',
    });
  });

  it('works on every part of a split answer, with a configured emoji set and feedback name', async () => {
    harness = await startHarness({
      env: { FEEDBACK_POSITIVE_EMOJI: 'star', FEEDBACK_NEGATIVE_EMOJI: 'poop', FEEDBACK_NAME: 'helpful' },
    });
    const { channel, threadTs } = await harness.mention(
      `long ${simDirective({ steps: 1, stepMs: 20, size: 25_000 })}`,
    );
    await harness.waitForOutcome(channel, threadTs);
    const sessionId = harness.sim.runs()[0]?.sessionId ?? '';
    const parts = harness.slack
      .messages(channel, threadTs)
      .filter((m) => m.metadata?.event_type === 'agent_answer');
    expect(parts.length).toBeGreaterThan(1);
    await harness.react(channel, parts.at(-1)?.ts ?? '', 'star');
    await harness.slack.waitFor(() => harness.sim.feedback(sessionId)?.score === 100, {
      description: 'score from the last part',
    });
    await harness.react(channel, parts[0]?.ts ?? '', 'poop');
    await harness.slack.waitFor(() => harness.sim.feedback(sessionId)?.score === 0, {
      description: 'score from the first part',
    });
    expect(harness.sim.feedback(sessionId)?.feedbackName).toBe('helpful');
  });

  it('ignores reactions on notices', async () => {
    const log = memoryLogger('debug');
    harness = await startHarness({ logger: log.logger, env: { LOG_LEVEL: 'debug' } });
    const failed = await harness.mention(`fail ${simDirective({ steps: 1, stepMs: 20, outcome: 'error' })}`);
    const [notice] = await harness.waitForOutcome(failed.channel, failed.threadTs);
    await harness.react(failed.channel, notice?.ts ?? '', '+1');
    // The positive signal: the bot finished with the notice's reaction (after its bounded wait for an
    // answer index entry that never comes) and said why it sent nothing.
    const handled = await harness.slack.waitFor(
      () => reactionResults(log).find((record) => record.ts === notice?.ts),
      { description: "the notice's reaction handled", timeoutMs: 5_000 },
    );
    expect(handled.result).toBe('not-an-answer');
    const noticeSession = harness.sim.runs()[0]?.sessionId ?? '';
    expect(harness.sim.requests.filter((r) => r.path.includes('/feedback'))).toEqual([]);
    // The same reaction on a real answer does reach the service, and it is the only rating sent.
    const answered = await harness.mention(
      `rate ${simDirective({ steps: 1, stepMs: 20, answer: 'Rated.' })}`,
    );
    const [answer] = await harness.waitForOutcome(answered.channel, answered.threadTs);
    const answerSession = harness.sim.runs().find((run) => run.sessionId !== noticeSession)?.sessionId ?? '';
    await harness.react(answered.channel, answer?.ts ?? '', '+1');
    await harness.slack.waitFor(() => harness.sim.feedback(answerSession)?.score === 100, {
      description: 'feedback for the answer',
    });
    expect(harness.sim.requests.filter((r) => r.path.includes('/feedback'))).toHaveLength(1);
    expect(harness.sim.feedback(noticeSession)).toBeUndefined();
  });
});
