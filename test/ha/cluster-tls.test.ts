import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, simDirective, startSimulator } from '../../dev/simulator/index.js';
import { type SlackStandin, startSlackStandin } from '../../dev/slack-standin/index.js';
import { harnessEnv } from '../support/bridge-harness.js';
import {
  failedStartOutput,
  killAllChildBots,
  mentionEvents,
  messagesOfType,
  startChildBot,
  withBotOutput,
} from '../support/child-bot.js';
import { uniqueRedisPrefix } from '../support/redis.js';
import { redisServerInstalled } from '../support/redis-server.js';
import { type RedisClusterSet, startCluster } from '../support/redis-topologies.js';

/**
 * A managed cluster's shape: three primaries that speak only TLS (clients and the cluster bus, a
 * self-signed certificate trusted through NODE_EXTRA_CA_CERTS) and require a password, under the
 * real bot as a child process (`src/main.ts`, as `npm start`): answers land, the keys spread over
 * the nodes, and a wrong password ends start-up naming REDIS_PASSWORD without printing it.
 */
const installed = redisServerInstalled();
const PASSWORD = 'cluster-test-password-not-secret';
const WRONG = 'wrong-cluster-password-not-secret';

describe.skipIf(!installed)('Cluster over TLS with a password', () => {
  let cluster: RedisClusterSet;
  let sim: Simulator;
  let slack: SlackStandin;

  beforeAll(async () => {
    [cluster, sim, slack] = await Promise.all([
      startCluster(3, { password: PASSWORD, tls: true }),
      startSimulator({ quiet: true, longPollMs: 500 }),
      startSlackStandin(),
    ]);
  }, 60_000);
  afterEach(async () => {
    await killAllChildBots();
  });
  afterAll(async () => {
    await Promise.all([cluster?.close(), sim?.close(), slack?.close()]);
  });

  const env = (prefix: string, extra: Record<string, string> = {}) =>
    harnessEnv(sim, slack, { ...cluster.env, REDIS_PREFIX: prefix, RUNS_PER_PERSON_PER_HOUR: '0', ...extra });

  it('answers every mention once, with the keys on every node, and never prints the password', async () => {
    const prefix = uniqueRedisPrefix('cluster-tls');
    const bot = await startChildBot(env(prefix));
    const mentions = Array.from({ length: 9 }, (_, index) =>
      mentionEvents(slack, `over TLS ${index}? ${simDirective({ steps: 1, answer: `Encrypted ${index}.` })}`),
    );
    for (const mention of mentions)
      await Promise.all([bot.send(mention.appMention), bot.send(mention.message)]);
    await withBotOutput(
      slack.waitFor(
        () =>
          mentions.every(
            (mention) =>
              messagesOfType(slack, mention.channel, mention.threadTs, 'agent_answer').length === 1,
          ),
        { timeoutMs: 20_000, description: 'nine answers' },
      ),
      bot,
    );
    // Thread records outlive their turns: nine threads' keys land on all three nodes.
    expect((await cluster.keysPerNode(prefix)).filter((count) => count > 0)).toHaveLength(3);
    expect(sim.runs()).toHaveLength(9);
    expect(`${bot.stdout()}${bot.stderr()}`).not.toContain(PASSWORD);
  });

  const failedStart = (extra: Record<string, string>) =>
    failedStartOutput(env(uniqueRedisPrefix('cluster-tls-failed'), extra));

  it('exits 1 naming REDIS_PASSWORD when the nodes refuse it, without printing it', async () => {
    // The cluster client says only "All the root nodes are unavailable"; the bot asks a node why.
    const output = await failedStart({ REDIS_PASSWORD: WRONG });
    expect(output).toMatch(/REDIS_PASSWORD: Redis at cluster [\d.:,]+ is not reachable: .*WRONGPASS/);
    expect(output).not.toContain(WRONG);
    expect(output).not.toContain(PASSWORD);
  });

  it('exits 1 naming REDIS_CLUSTER_NODES and the certificate when it is not trusted', async () => {
    const output = await failedStart({ NODE_EXTRA_CA_CERTS: '' });
    expect(output).toMatch(/REDIS_CLUSTER_NODES: Redis at cluster [\d.:,]+ is not reachable: .*certificate/i);
    expect(output).not.toContain(PASSWORD);
  });
});
