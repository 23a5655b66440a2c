import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../dev/simulator/index.js';
import { type SlackStandin, startSlackStandin } from '../../dev/slack-standin/index.js';
import { uniqueRedisPrefix } from '../support/redis.js';
import { redisServerInstalled } from '../support/redis-server.js';
import { type RedisClusterSet, startCluster } from '../support/redis-topologies.js';
import { type HaBot, haBots } from './ha-bots.js';

/**
 * A Redis Cluster of three primaries (REDIS_CLUSTER_NODES) under two replicas of the real bot:
 * every mention is answered once, the keys spread over the nodes, and a node that crashes and
 * restarts (append-only file) mid-run loses no answer and posts none twice.
 */
const installed = redisServerInstalled();

describe.skipIf(!installed)('Cluster: three primaries, two bot replicas', () => {
  let cluster: RedisClusterSet;
  let sim: Simulator;
  let slack: SlackStandin;
  const bots = haBots(
    () => sim,
    () => slack,
  );

  beforeAll(async () => {
    cluster = await startCluster(3);
  }, 60_000);
  afterAll(async () => {
    await cluster?.close();
  });
  beforeEach(async () => {
    [sim, slack] = await Promise.all([startSimulator({ quiet: true, longPollMs: 500 }), startSlackStandin()]);
  });
  afterEach(async () => {
    // A failed test may have left a node down: bring it back so the bots stop cleanly.
    await Promise.all(cluster.nodes.map((node) => node.start().catch(() => undefined)));
    await bots.stopAll();
    await Promise.all([sim.close(), slack.close()]);
  });

  async function twoReplicas(prefix: string): Promise<[HaBot, HaBot]> {
    const env = { ...cluster.env, REDIS_PREFIX: prefix, LEASE_TTL_MS: '2000', RUNS_PER_PERSON_PER_HOUR: '0' };
    return [
      await bots.start({ ...env, INSTANCE_ID: 'replica-a' }),
      await bots.start({ ...env, INSTANCE_ID: 'replica-b' }),
    ];
  }

  it('answers every mention once, over both replicas, with the keys on every node', async () => {
    const prefix = uniqueRedisPrefix('cluster');
    const replicas = await twoReplicas(prefix);
    const mentions: Array<{ channel: string; threadTs: string }> = [];
    for (let index = 0; index < 12; index += 1) {
      const bot = replicas[index % 2] as HaBot;
      mentions.push(await bots.ask(bot, `Answer number ${index}.`, 500, index % 2 ? 'UBOB' : 'UALICE'));
    }
    await bots.waitFor(
      () => mentions.every((mention) => bots.answersIn(mention).length === 1),
      'twelve answers',
    );
    // Thread records outlive their turns: they show where the keys went.
    const perNode = await cluster.keysPerNode(prefix);
    expect(perNode.filter((count) => count > 0)).toHaveLength(3);
    for (const mention of mentions) expect(bots.answersIn(mention)).toHaveLength(1);
    expect(sim.runs()).toHaveLength(12);
  });

  it('a node crashes and restarts mid-run: every answer lands once, and mentions after it are answered', async () => {
    const prefix = uniqueRedisPrefix('cluster-restart');
    const [a, b] = await twoReplicas(prefix);
    const before: Array<{ channel: string; threadTs: string }> = [];
    for (let index = 0; index < 6; index += 1) {
      before.push(
        await bots.ask(index % 2 ? b : a, `Before the crash ${index}.`, 3_000, index % 2 ? 'UBOB' : 'UALICE'),
      );
    }
    await bots.waitFor(() => bots.logged('turn started').length === 6, 'six runs under way');

    const victim = cluster.nodes[1];
    if (!victim) throw new Error('no second node');
    const troublesBefore = bots.troubles().length;
    await victim.kill();
    // The bots noticed: the store failed under them while runs were under way.
    await bots.waitFor(() => bots.troubles().length > troublesBefore, 'the bots meeting the crash');
    expect(before.some((mention) => bots.answersIn(mention).length === 1)).toBe(false);
    await victim.start();
    await cluster.healthy();

    await bots.waitFor(
      () => before.every((mention) => bots.answersIn(mention).length === 1),
      'the six answers after the restart',
      40_000,
    );
    const after = [
      await bots.ask(a, 'After the crash.', 500, 'UALICE'),
      await bots.ask(b, 'Also after.', 500, 'UBOB'),
    ];
    await bots.waitFor(
      () => after.every((mention) => bots.answersIn(mention).length === 1),
      'answers after the restart',
    );
    for (const mention of [...before, ...after]) expect(bots.answersIn(mention)).toHaveLength(1);
    expect(sim.runs()).toHaveLength(8);
  });
});
