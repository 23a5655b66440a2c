import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Simulator, simDirective, startSimulator } from '../../dev/simulator/index.js';
import { type SlackStandin, startSlackStandin, visibleText } from '../../dev/slack-standin/index.js';
import { openInspector } from '../store/redis-test-client.js';
import { harnessEnv } from '../support/bridge-harness.js';
import {
  type ChildBot,
  killAllChildBots,
  mentionEvents,
  messagesOfType,
  replyEvent,
  startChildBot,
  waitUntil,
  withBotOutput,
} from '../support/child-bot.js';
import { redisAvailable, TEST_REDIS_URL, uniqueRedisPrefix } from '../support/redis.js';
import { startSlowStartProxy } from '../support/slow-start-proxy.js';

const hasRedis = await redisAvailable();
const LEASE_TTL_MS = 2000;

describe.skipIf(!hasRedis)('two replicas on one Redis (child processes)', () => {
  let sim: Simulator;
  let slack: SlackStandin;
  let prefix: string;
  let a: ChildBot;
  let b: ChildBot;
  let agentProxy: Awaited<ReturnType<typeof startSlowStartProxy>>;

  beforeEach(async () => {
    [sim, slack] = await Promise.all([startSimulator({ quiet: true, longPollMs: 500 }), startSlackStandin()]);
    prefix = uniqueRedisPrefix('replicas');
    agentProxy = await startSlowStartProxy(sim.url);
    const env = harnessEnv(sim, slack, {
      AGENT_API_URL: agentProxy.url,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: prefix,
      LEASE_TTL_MS: String(LEASE_TTL_MS),
      // Progress messages: what a dead process leaves behind in the thread must be cleaned up.
      PROGRESS_STYLE: 'message',
    });
    [a, b] = await Promise.all([
      startChildBot({ ...env, INSTANCE_ID: 'replica-a' }),
      startChildBot({ ...env, INSTANCE_ID: 'replica-b' }),
    ]);
  });
  afterEach(async () => {
    await killAllChildBots();
    await Promise.all([sim.close(), slack.close(), agentProxy.close()]);
    const inspector = await openInspector();
    await inspector.deleteAll(prefix);
    await inspector.close();
  });

  /** Whether the one stored turn under `keyPrefix` records its progress message's ts. */
  async function storedTurnHasProgress(keyPrefix: string): Promise<boolean> {
    const inspector = await openInspector();
    try {
      const keys = (await inspector.keys(keyPrefix)).filter((key) => key.includes('::turn:'));
      const values = await Promise.all(keys.map((key) => inspector.client.get(key)));
      return values.some((raw) => typeof raw === 'string' && raw.includes('"progressTs"'));
    } finally {
      await inspector.close();
    }
  }

  const answersIn = (channel: string, threadTs: string) =>
    messagesOfType(slack, channel, threadTs, 'agent_answer');

  /** Waits until the thread shows `count` answers and no progress message (the thread is idle). */
  function waitForAnswers(channel: string, threadTs: string, count: number, timeoutMs = 10_000) {
    return withBotOutput(
      slack.waitFor(
        () =>
          answersIn(channel, threadTs).length >= count &&
          messagesOfType(slack, channel, threadTs, 'agent_progress').length === 0,
        { timeoutMs, description: `${count} answer(s) in ${channel}/${threadTs}` },
      ),
      a,
      b,
    );
  }

  it('answers turns started on either replica once, and a follow-up on the other replica continues the thread', async () => {
    const quick = (answer: string) => simDirective({ steps: 2, stepMs: 100, answer });
    const first = mentionEvents(slack, `one? ${quick('First answer.')}`);
    const second = mentionEvents(slack, `two? ${quick('Second answer.')}`);
    await Promise.all([
      a.send(first.appMention),
      a.send(first.message),
      b.send(second.appMention),
      b.send(second.message),
    ]);
    await waitForAnswers(first.channel, first.threadTs, 1);
    await waitForAnswers(second.channel, second.threadTs, 1);
    expect(visibleText(answersIn(first.channel, first.threadTs)[0] as never)).toContain('First answer.');
    expect(visibleText(answersIn(second.channel, second.threadTs)[0] as never)).toContain('Second answer.');
    expect(sim.runs()).toHaveLength(2);

    // Follow-ups reach the replica that did not start the thread.
    const firstReply = replyEvent(slack, `more? ${quick('First follow-up.')}`, { threadTs: first.threadTs });
    const secondReply = replyEvent(slack, `more? ${quick('Second follow-up.')}`, {
      threadTs: second.threadTs,
    });
    await Promise.all([b.send(firstReply.message), a.send(secondReply.message)]);
    await waitForAnswers(first.channel, first.threadTs, 2);
    await waitForAnswers(second.channel, second.threadTs, 2);

    expect(sim.runs()).toHaveLength(2);
    expect(sim.runs().map((run) => run.turns)).toEqual([2, 2]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(answersIn(first.channel, first.threadTs)).toHaveLength(2);
    expect(answersIn(second.channel, second.threadTs)).toHaveLength(2);
    expect(visibleText(answersIn(first.channel, first.threadTs)[1] as never)).toContain('First follow-up.');
  });

  it('takes the same Slack message once across replicas (both events, with retries, on both)', async () => {
    const mention = mentionEvents(
      slack,
      `status? ${simDirective({ steps: 2, stepMs: 100, answer: 'All good.' })}`,
    );
    const acks = await Promise.all([
      a.send(mention.appMention),
      b.send(mention.message),
      b.send(mention.appMention, { retryNum: 1 }),
      a.send(mention.message, { retryNum: 1 }),
      a.send(mention.appMention, { retryNum: 2 }),
      b.send(mention.message, { retryNum: 2 }),
    ]);
    expect(acks.map((ack) => ack.status)).toEqual([200, 200, 200, 200, 200, 200]);
    await waitForAnswers(mention.channel, mention.threadTs, 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(sim.runs()).toHaveLength(1);
    expect(answersIn(mention.channel, mention.threadTs)).toHaveLength(1);
    // A duplicate is dropped silently: nobody is told the thread is busy.
    expect(slack.ephemerals(mention.channel)).toHaveLength(0);
  });

  it('kill -9 of the replica holding a turn: the other finishes it after the lease expires, posting once', async () => {
    const mention = mentionEvents(
      slack,
      `slow? ${simDirective({ steps: 12, stepMs: 250, answer: 'Finished by the survivor.' })}`,
    );
    await Promise.all([a.send(mention.appMention), a.send(mention.message)]);
    // Killed once the session id and the progress message's ts are saved (a turn killed before
    // the session id is saved is reported lost, not resumed). This covers the recorded progress
    // message; one killed before its ts is saved is found by its metadata instead (restart-redis).
    await withBotOutput(
      waitUntil(
        async () =>
          a.logs().some((line) => line.msg === 'turn started') &&
          messagesOfType(slack, mention.channel, mention.threadTs, 'agent_progress').length === 1 &&
          (await storedTurnHasProgress(prefix)),
        { timeoutMs: 8_000, description: 'replica a started the turn' },
      ),
      a,
    );
    await a.kill('SIGKILL');
    const killedAt = Date.now();

    await waitForAnswers(mention.channel, mention.threadTs, 1, 15_000);
    const runEnd = sim.runs()[0]?.finishedAt ?? 0;
    // Taken over within a few seconds of the lease expiring (or of the run ending, if later).
    expect(Date.now() - Math.max(killedAt + LEASE_TTL_MS, runEnd)).toBeLessThan(5_000);
    expect(b.logs().some((line) => line.msg === 'resuming turn')).toBe(true);

    await new Promise((resolve) => setTimeout(resolve, 500));
    const answers = answersIn(mention.channel, mention.threadTs);
    expect(answers).toHaveLength(1);
    expect(visibleText(answers[0] as never)).toContain('Finished by the survivor.');
    expect(messagesOfType(slack, mention.channel, mention.threadTs, 'agent_notice')).toHaveLength(0);
    expect(sim.runs()).toHaveLength(1);
  });

  it('SIGTERM of the replica holding a turn: it gives up its lease, exits 0, and the other answers once', async () => {
    const mention = mentionEvents(
      slack,
      `slow? ${simDirective({ steps: 8, stepMs: 250, answer: 'Handed over cleanly.' })}`,
    );
    await Promise.all([b.send(mention.appMention), b.send(mention.message)]);
    await withBotOutput(
      waitUntil(() => b.logs().some((line) => line.msg === 'turn started'), {
        timeoutMs: 8_000,
        description: 'replica b started the turn',
      }),
      b,
    );
    const exit = await b.kill('SIGTERM');
    expect(exit, b.describe()).toEqual({ code: 0, signal: null });

    await waitForAnswers(mention.channel, mention.threadTs, 1, 15_000);
    expect(a.logs().some((line) => line.msg === 'resuming turn')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(answersIn(mention.channel, mention.threadTs)).toHaveLength(1);
    expect(visibleText(answersIn(mention.channel, mention.threadTs)[0] as never)).toContain(
      'Handed over cleanly.',
    );
    expect(sim.runs()).toHaveLength(1);
  });

  it('a run start slower than the lease: the starting replica keeps its lease and no replica calls the turn lost', async () => {
    agentProxy.setStartDelay(LEASE_TTL_MS * 2);
    const mention = mentionEvents(
      slack,
      `slow start? ${simDirective({ steps: 1, stepMs: 50, answer: 'Worth the wait.' })}`,
    );
    await Promise.all([a.send(mention.appMention), a.send(mention.message)]);
    await waitForAnswers(mention.channel, mention.threadTs, 1, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(messagesOfType(slack, mention.channel, mention.threadTs, 'agent_notice')).toHaveLength(0);
    expect(answersIn(mention.channel, mention.threadTs)).toHaveLength(1);
    expect(sim.runs()).toHaveLength(1);
  });
});
