import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Simulator, simDirective, startSimulator } from '../../dev/simulator/index.js';
import {
  eventCallback,
  reactionAddedEvent,
  type SlackStandin,
  startSlackStandin,
  visibleText,
} from '../../dev/slack-standin/index.js';
import { loadConfig } from '../../src/config/load-config.js';
import { type RunningBot, startBot } from '../../src/start-bot.js';
import { harnessEnv, TEST_SIGNING_SECRET } from '../support/bridge-harness.js';
import { mentionEvents, messagesOfType, replyEvent, waitUntil } from '../support/child-bot.js';
import { memoryLogger } from '../support/memory-log.js';
import { uniqueRedisPrefix } from '../support/redis.js';
import { type OwnRedisServer, redisServerInstalled, startOwnRedis } from '../support/redis-server.js';
import { postEvent } from '../support/slack-events.js';

/**
 * Redis blinks while a run is under way: the bot's own redis-server (never the shared 6379) is
 * killed after the run started and started again on the same port once the run has finished. The
 * answer must land exactly once after Redis is back, and the thread must stay usable. The bots are
 * the real app (startBot, as `npm start`) in this process, reached with signed events.
 */
const installed = redisServerInstalled();
const SHORT_LEASE_MS = 2_000;

const errorText = (err: unknown) =>
  err && typeof err === 'object' && 'message' in err ? String(err.message).slice(0, 120) : err;

/** A running bot: the real bridge, its JSON log lines, and signed Slack events to it. */
interface Bot {
  send(event: object): Promise<{ status: number }>;
  logs(): Array<Record<string, unknown>>;
  stop(): Promise<void>;
}

describe.skipIf(!installed)('an answer survives a Redis blink (own redis-server, stopped mid-run)', () => {
  let plain: OwnRedisServer;
  let durable: OwnRedisServer;
  let sim: Simulator;
  let slack: SlackStandin;
  let bots: Bot[] = [];

  beforeAll(async () => {
    [plain, durable] = await Promise.all([startOwnRedis('none'), startOwnRedis('aof')]);
  });
  afterAll(async () => {
    await Promise.all([plain?.close(), durable?.close()]);
  });
  beforeEach(async () => {
    [sim, slack] = await Promise.all([startSimulator({ quiet: true, longPollMs: 500 }), startSlackStandin()]);
  });
  afterEach(async () => {
    // A failed test may have left its server stopped: start it, so the bots can stop cleanly.
    await Promise.all([plain.start().catch(() => undefined), durable.start().catch(() => undefined)]);
    await Promise.all(bots.map((bot) => bot.stop()));
    bots = [];
    await Promise.all([sim.close(), slack.close()]);
  });

  async function startBlinkBot(env: Record<string, string>): Promise<Bot> {
    const log = memoryLogger('info');
    const bridge: RunningBot = await startBot(loadConfig(harnessEnv(sim, slack, env)), {
      logger: log.logger,
    });
    const appUrl = `http://127.0.0.1:${bridge.port}`;
    const bot: Bot = {
      send: (event) => postEvent(appUrl, TEST_SIGNING_SECRET, eventCallback(event as never)),
      logs: log.records,
      stop: () => bridge.stop(),
    };
    bots.push(bot);
    return bot;
  }

  const envFor = (redis: OwnRedisServer, extra: Record<string, string> = {}) => ({
    REDIS_URL: redis.url,
    REDIS_PREFIX: uniqueRedisPrefix('blink'),
    ...extra,
  });

  const answersIn = (channel: string, threadTs: string) =>
    messagesOfType(slack, channel, threadTs, 'agent_answer');
  const logged = (msg: string) => bots.flatMap((bot) => bot.logs()).filter((line) => line.msg === msg);
  /** The delivery met the store down: retried (or, before the fix, given up on). */
  const deliveryMetTheOutage = () =>
    logged('delivery failed; will retry').length + logged('turn delivery failed').length > 0;

  /** Waits for `probe`; on a timeout the error carries what the bots logged at warn and above. */
  async function waitFor<T>(
    probe: () => T | undefined | null | false,
    description: string,
    timeoutMs = 10_000,
  ): Promise<T> {
    try {
      return await waitUntil(probe, { timeoutMs, description });
    } catch (error) {
      // Every bot's lines at every level, in time order: a timeout must say where each turn stopped.
      const lines = bots
        .flatMap((bot, index) => bot.logs().map((line): Record<string, unknown> => ({ bot: index, ...line })))
        .sort((x, y) => String(x.time).localeCompare(String(y.time)))
        .map(({ bot, time, level, msg, err, turnId, threadKey }) =>
          JSON.stringify({ bot, time, level, msg, turnId, threadKey, err: errorText(err) }),
        );
      throw new Error(`${(error as Error).message}\n${lines.slice(-60).join('\n')}`);
    }
  }

  /** Mentions the bot with a run that takes about `runMs`; resolves once the run is under way. */
  async function askAndWaitForTheRun(bot: Bot, answer: string, runMs: number) {
    const mention = mentionEvents(
      slack,
      `what broke? ${simDirective({ steps: Math.ceil(runMs / 250), stepMs: 250, answer })}`,
    );
    await Promise.all([bot.send(mention.appMention), bot.send(mention.message)]);
    await waitFor(
      () => sim.runs()[0]?.status === 'loading' && logged('turn started').length === 1,
      'the run under way',
    );
    return mention;
  }

  /** Waits until `count` answers were logged delivered; returns the last of those log lines. */
  async function answersDelivered(count = 1, timeoutMs = 20_000) {
    const lines = await waitFor(
      () => {
        const found = [...logged('answer delivered'), ...logged('late answer delivered')];
        return found.length >= count && found;
      },
      `${count} answer(s) delivered`,
      timeoutMs,
    );
    return lines[count - 1] as Record<string, unknown>;
  }

  it('the run finishes while Redis is down and Redis comes back empty: the answer lands once; a mention meanwhile is told to send again', async () => {
    const bot = await startBlinkBot(envFor(plain, { LEASE_TTL_MS: String(SHORT_LEASE_MS) }));
    const mention = await askAndWaitForTheRun(bot, 'The cache node ran out of memory.', 2_000);

    await plain.stop();
    // Someone asks in another thread while the store is down: told so, not dropped in silence.
    const meanwhile = mentionEvents(slack, `is prod ok? ${simDirective({ steps: 1, answer: 'Yes.' })}`, {
      user: 'UBOB',
    });
    await Promise.all([bot.send(meanwhile.appMention), bot.send(meanwhile.message)]);
    const told = await waitFor(
      () => slack.ephemerals(meanwhile.channel, 'UBOB')[0],
      'the "send it again" ephemeral',
    );
    expect(visibleText(told as never)).toMatch(/state store didn't answer/);
    await waitFor(
      () => sim.runs()[0]?.status === 'done' && deliveryMetTheOutage(),
      'the run done and its delivery failing on the store',
    );
    expect(answersIn(mention.channel, mention.threadTs)).toHaveLength(0);

    await plain.start();
    await answersDelivered();
    const answers = answersIn(mention.channel, mention.threadTs);
    expect(answers).toHaveLength(1);
    expect(visibleText(answers[0] as never)).toContain('The cache node ran out of memory.');
    expect(logged('turn delivery failed')).toHaveLength(0);
    expect(sim.runs()).toHaveLength(1);
  }, 45_000);

  it('two replicas, Redis (append-only) back with its data after the lease lapsed: the answer lands once and the thread goes on in the same session', async () => {
    const env = envFor(durable, { LEASE_TTL_MS: String(SHORT_LEASE_MS) });
    const [a, b] = await Promise.all([
      startBlinkBot({ ...env, INSTANCE_ID: 'replica-a' }),
      startBlinkBot({ ...env, INSTANCE_ID: 'replica-b' }),
    ]);
    const mention = await askAndWaitForTheRun(a, 'A full disk.', 1_500);

    await durable.stop();
    const stoppedAt = Date.now();
    await waitFor(
      () => sim.runs()[0]?.status === 'done' && deliveryMetTheOutage(),
      'the run done and its delivery failing on the store',
    );
    // Down for longer than the lease: once Redis is back, either replica may take the turn.
    await waitUntil(() => Date.now() - stoppedAt > SHORT_LEASE_MS + 500, { timeoutMs: 5_000 });
    await durable.start();

    await answersDelivered();
    expect(answersIn(mention.channel, mention.threadTs)).toHaveLength(1);

    // The thread is free and keeps its session: a reply is a follow-up in the same run.
    const reply = replyEvent(
      slack,
      `and why? ${simDirective({ steps: 1, answer: 'Logs were not rotated.' })}`,
      {
        threadTs: mention.threadTs,
      },
    );
    expect((await b.send(reply.message)).status).toBe(200);
    await answersDelivered(2);
    expect(answersIn(mention.channel, mention.threadTs)).toHaveLength(2);
    expect(sim.runs()).toHaveLength(1);
    expect(sim.runs()[0]?.turns).toBe(2);
  }, 45_000);

  it('Redis goes down after Slack took the answer, before the delivered mark: the retry finds the answer in the thread and posts nothing twice', async () => {
    const bot = await startBlinkBot(envFor(durable));
    const mention = await askAndWaitForTheRun(bot, 'The certificate expired.', 1_000);
    // Slack takes the answer at once; the bot hears of it only once Redis is down.
    const release = slack.holdAnswerNext('chat.postMessage');
    await waitFor(
      () => answersIn(mention.channel, mention.threadTs).length === 1,
      'the answer in the thread',
    );
    await durable.stop();
    release();
    await waitFor(deliveryMetTheOutage, 'the delivery failing on the store after the post');

    await durable.start();
    expect(await answersDelivered()).toMatchObject({ foundInThread: true });
    const answers = answersIn(mention.channel, mention.threadTs);
    expect(answers).toHaveLength(1);
    expect(visibleText(answers[0] as never)).toContain('The certificate expired.');

    // The answer is indexed after all: a 👍 on it reaches the run.
    const ts = answers[0]?.ts ?? '';
    slack.addUserReaction(mention.channel, ts, '+1', 'UALICE');
    await bot.send(reactionAddedEvent({ channel: mention.channel, ts, reaction: '+1', user: 'UALICE' }));
    const sessionId = sim.runs()[0]?.sessionId ?? '';
    await waitFor(() => sim.feedback(sessionId), 'the feedback at the service');
  }, 45_000);
});
