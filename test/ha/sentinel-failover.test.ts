import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../dev/simulator/index.js';
import { type SlackStandin, startSlackStandin, visibleText } from '../../dev/slack-standin/index.js';
import { uniqueRedisPrefix } from '../support/redis.js';
import { redisServerInstalled } from '../support/redis-server.js';
import { type SentinelSet, startSentinelSet, withNode } from '../support/redis-topologies.js';
import { haBots } from './ha-bots.js';

/**
 * Redis behind Sentinel (REDIS_SENTINELS): the primary is killed while a run is under way and the
 * sentinels promote the replica. The answer lands exactly once, and mentions after the failover
 * are answered — by two replicas of the real bot sharing the topology.
 */
const installed = redisServerInstalled();
const PASSWORD = 'sentinel-test-password-not-secret';

describe.skipIf(!installed)('Sentinel: the primary dies mid-run', () => {
  let set: SentinelSet;
  let sim: Simulator;
  let slack: SlackStandin;
  const bots = haBots(
    () => sim,
    () => slack,
  );

  beforeAll(async () => {
    set = await startSentinelSet({ password: PASSWORD });
  }, 60_000);
  afterAll(async () => {
    await set?.close();
  });
  beforeEach(async () => {
    [sim, slack] = await Promise.all([startSimulator({ quiet: true, longPollMs: 500 }), startSlackStandin()]);
  });
  afterEach(async () => {
    await bots.stopAll();
    await Promise.all([sim.close(), slack.close()]);
  });

  it('promotes the replica: the answer lands once, and a mention after the failover is answered', async () => {
    const prefix = uniqueRedisPrefix('sentinel');
    const env = { ...set.env, REDIS_PREFIX: prefix, LEASE_TTL_MS: '2000' };
    const [a, b] = [
      await bots.start({ ...env, INSTANCE_ID: 'replica-a' }),
      await bots.start({ ...env, INSTANCE_ID: 'replica-b' }),
    ];
    const first = await bots.ask(a, 'The primary was fine all along.', 8_000);
    await bots.waitFor(
      () => sim.runs()[0]?.status === 'loading' && bots.logged('turn started').length === 1,
      'the run under way',
    );

    await set.failover();
    // Mid-run: the run is still going on the new primary.
    expect(bots.answersIn(first)).toHaveLength(0);
    expect(
      await withNode(set.replica.port, (client) => client.keys(`${prefix}::*`), { password: PASSWORD }),
    ).not.toEqual([]);
    await bots.waitFor(() => bots.answersIn(first).length === 1, 'the answer after the failover', 30_000);
    expect(visibleText(bots.answersIn(first)[0] as never)).toContain('The primary was fine all along.');

    const second = await bots.ask(b, 'Answered on the new primary.', 500, 'UBOB');
    await bots.waitFor(
      () => bots.answersIn(second).length === 1,
      'the answer to a mention after the failover',
    );
    // Once more, past both answers: nothing is posted twice.
    await bots.waitFor(
      () => bots.logged('answer delivered').length + bots.logged('late answer delivered').length >= 2,
      'both deliveries logged',
    );
    expect(bots.answersIn(first)).toHaveLength(1);
    expect(bots.answersIn(second)).toHaveLength(1);
    expect(sim.runs()).toHaveLength(2);
  }, 90_000);
});
