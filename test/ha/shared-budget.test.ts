import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Simulator, simDirective, startSimulator } from '../../dev/simulator/index.js';
import { type SlackStandin, startSlackStandin } from '../../dev/slack-standin/index.js';
import { harnessEnv } from '../support/bridge-harness.js';
import {
  type ChildBot,
  killAllChildBots,
  mentionEvents,
  messagesOfType,
  startChildBot,
  waitUntil,
  withBotOutput,
} from '../support/child-bot.js';
import { uniqueRedisPrefix } from '../support/redis.js';
import { type OwnRedisServer, redisServerInstalled, startOwnRedis } from '../support/redis-server.js';
import { withNode } from '../support/redis-topologies.js';

/**
 * One request budget per account across replicas (AGENT_ACCOUNT_CONCURRENCY): two replicas, each
 * allowed more than half the account (AGENT_MAX_IN_FLIGHT=5 of 6), under more runs than the account
 * allows at once. The service never sees more than 6 requests in flight from both together; one
 * replica is killed midway, its slots fall out of the store, and every run is answered once.
 */
const installed = redisServerInstalled();
const ACCOUNT_LIMIT = 6;
const RUNS = 16;

describe.skipIf(!installed)('the shared request budget', () => {
  let redis: OwnRedisServer;
  let sim: Simulator;
  let slack: SlackStandin;

  beforeAll(async () => {
    redis = await startOwnRedis('none');
  });
  afterAll(async () => {
    await redis?.close();
  });
  beforeEach(async () => {
    // The simulator refuses (429) past the account's limit, as the service does.
    [sim, slack] = await Promise.all([
      startSimulator({ quiet: true, longPollMs: 3000, maxConcurrent: ACCOUNT_LIMIT }),
      startSlackStandin(),
    ]);
  });
  afterEach(async () => {
    await killAllChildBots();
    await Promise.all([sim.close(), slack.close()]);
  });

  /** The holders of the account's slots in the store, by instance id. */
  const holders = (prefix: string) =>
    withNode(redis.port, async (client) => {
      const keys = await client.keys(`${prefix}::account-slots:*`);
      const fields = keys.length > 0 ? await client.hKeys(keys[0] as string) : [];
      return fields.map((field) => field.split(':')[0]);
    });

  it('keeps both replicas within the account, frees a killed replica’s slots, and answers every run once', async () => {
    const prefix = uniqueRedisPrefix('budget');
    const env = harnessEnv(sim, slack, {
      REDIS_URL: redis.url,
      REDIS_PREFIX: prefix,
      LEASE_TTL_MS: '2000',
      AGENT_ACCOUNT_CONCURRENCY: String(ACCOUNT_LIMIT),
      AGENT_MAX_IN_FLIGHT: '5',
      RUNS_PER_PERSON_PER_HOUR: '0',
    });
    const [a, b] = await Promise.all([
      startChildBot({ ...env, INSTANCE_ID: 'replica-a' }),
      startChildBot({ ...env, INSTANCE_ID: 'replica-b' }),
    ]);
    const mentions: Array<{ channel: string; threadTs: string }> = [];
    for (let index = 0; index < RUNS; index += 1) {
      const bot: ChildBot = index % 2 ? b : a;
      const text = `run ${index} ${simDirective({ steps: 4, stepMs: 1500, answer: `Answer ${index}.` })}`;
      const mention = mentionEvents(slack, text, { user: index % 2 ? 'UBOB' : 'UALICE' });
      await Promise.all([bot.send(mention.appMention), bot.send(mention.message)]);
      mentions.push(mention);
    }
    await withBotOutput(
      waitUntil(() => sim.runs().length === RUNS, { timeoutMs: 20_000, description: `${RUNS} runs started` }),
      a,
      b,
    );
    expect((await holders(prefix)).sort()).toEqual(['replica-a', 'replica-b']);

    await a.kill('SIGKILL');
    await waitUntil(async () => (await holders(prefix)).join() === 'replica-b', {
      timeoutMs: 10_000,
      description: "the killed replica's slots falling out",
    });

    const answers = (mention: (typeof mentions)[number]) =>
      messagesOfType(slack, mention.channel, mention.threadTs, 'agent_answer');
    await withBotOutput(
      waitUntil(() => mentions.every((mention) => answers(mention).length === 1), {
        timeoutMs: 40_000,
        description: `${RUNS} answers`,
      }),
      b,
    );
    for (const mention of mentions) expect(answers(mention)).toHaveLength(1);
    // Each replica alone would poll 4 at once (80 % of its 5): 8 together, past the account's 6.
    // Shared, they stayed within it (the simulator counts rejected requests too).
    expect(sim.maxInFlightSeen).toBeLessThanOrEqual(ACCOUNT_LIMIT);
    expect(sim.maxInFlightSeen).toBeGreaterThanOrEqual(4);
    expect(sim.requests.filter((request) => request.status === 429)).toEqual([]);
  }, 90_000);
});
