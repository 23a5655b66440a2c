import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, simDirective, startSimulator } from '../../dev/simulator/index.js';
import { type SlackStandin, startSlackStandin } from '../../dev/slack-standin/index.js';
import { harnessEnv } from '../support/bridge-harness.js';
import {
  askAndWaitForAnswer,
  failedStartOutput,
  killAllChildBots,
  startChildBot,
} from '../support/child-bot.js';
import { uniqueRedisPrefix } from '../support/redis.js';
import { freePort, redisServerInstalled } from '../support/redis-server.js';
import {
  type SentinelSet,
  startSentinelSet,
  startTlsRedis,
  type TlsRedis,
} from '../support/redis-topologies.js';

/**
 * A managed Redis's shape — TLS with a self-signed certificate (trusted via NODE_EXTRA_CA_CERTS)
 * and a password, on one server and behind Sentinel — and the start-up errors of every topology:
 * exit 1 naming the variable to fix, never printing a password. The bot runs as a child process
 * (`src/main.ts`), as `npm start` does.
 */
const installed = redisServerInstalled();
const PASSWORD = 'tls-test-password-not-secret';
const WRONG = 'wrong-password-not-secret';

describe.skipIf(!installed)('TLS, passwords and start-up errors', () => {
  let tls: TlsRedis;
  let sentinels: SentinelSet;
  let sim: Simulator;
  let slack: SlackStandin;

  beforeAll(async () => {
    [tls, sentinels, sim, slack] = await Promise.all([
      startTlsRedis(PASSWORD),
      startSentinelSet({ password: PASSWORD, tls: true }),
      startSimulator({ quiet: true, longPollMs: 500 }),
      startSlackStandin(),
    ]);
  }, 60_000);
  afterEach(async () => {
    await killAllChildBots();
  });
  afterAll(async () => {
    await Promise.all([tls?.close(), sentinels?.close(), sim?.close(), slack?.close()]);
  });

  const env = (extra: Record<string, string>) =>
    harnessEnv(sim, slack, { REDIS_PREFIX: uniqueRedisPrefix('tls'), ...extra });

  const failedStart = (extra: Record<string, string>) => failedStartOutput(env(extra));

  it('answers over rediss:// with a password and a self-signed certificate', async () => {
    const bot = await startChildBot(env({ REDIS_URL: tls.url, NODE_EXTRA_CA_CERTS: tls.caFile }));
    await askAndWaitForAnswer(slack, bot, `over TLS? ${simDirective({ steps: 1, answer: 'Encrypted.' })}`);
    expect(bot.stdout()).not.toContain(PASSWORD);
  });

  it('exits 1 naming REDIS_URL on a wrong password, without printing it', async () => {
    const url = tls.url.replace(PASSWORD, WRONG);
    const output = await failedStart({ REDIS_URL: url, NODE_EXTRA_CA_CERTS: tls.caFile });
    expect(output).toMatch(/REDIS_URL: Redis at 127\.0\.0\.1:\d+ is not reachable: WRONGPASS/);
    expect(output).not.toContain(WRONG);
  });

  it('exits 1 naming REDIS_URL when the certificate is not trusted', async () => {
    const output = await failedStart({ REDIS_URL: tls.url });
    expect(output).toMatch(/REDIS_URL: Redis at 127\.0\.0\.1:\d+ is not reachable: .*certificate/i);
    expect(output).not.toContain(PASSWORD);
  });

  it('answers through Sentinel when sentinels and data nodes speak only TLS and the nodes want a password', async () => {
    const bot = await startChildBot(env(sentinels.env));
    const question = `via sentinel? ${simDirective({ steps: 1, answer: 'Found the primary.' })}`;
    await askAndWaitForAnswer(slack, bot, question);
    expect(`${bot.stdout()}${bot.stderr()}`).not.toContain(PASSWORD);
  });

  it('exits 1 naming REDIS_PASSWORD when the nodes behind Sentinel refuse it, without printing it', async () => {
    const output = await failedStart({ ...sentinels.env, REDIS_PASSWORD: WRONG });
    expect(output).toMatch(/REDIS_PASSWORD: Redis at sentinel sab-primary via [\d.:,]+ is not reachable/);
    expect(output).not.toContain(WRONG);
  });

  it('exits 1 naming REDIS_SENTINELS when no sentinel answers', async () => {
    const ports = [await freePort(), await freePort()];
    const output = await failedStart({
      REDIS_SENTINELS: ports.map((port) => `127.0.0.1:${port}`).join(','),
      REDIS_SENTINEL_NAME: 'sab-primary',
    });
    expect(output).toMatch(
      /REDIS_SENTINELS: Redis at sentinel sab-primary via 127\.0\.0\.1:\d+,127\.0\.0\.1:\d+ is not reachable/,
    );
  });

  it('exits 1 naming REDIS_CLUSTER_NODES when the cluster is down', async () => {
    const output = await failedStart({ REDIS_CLUSTER_NODES: `127.0.0.1:${await freePort()}` });
    expect(output).toMatch(/REDIS_CLUSTER_NODES: Redis at cluster 127\.0\.0\.1:\d+ is not reachable/);
  });
});
