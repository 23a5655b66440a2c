import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openInspector } from '../store/redis-test-client.js';
import { installThroughPages, type OAuthHarness, startOAuthHarness } from '../support/oauth-harness.js';
import { redisAvailable, TEST_REDIS_URL, uniqueRedisPrefix } from '../support/redis.js';

const hasRedis = await redisAvailable();

/**
 * Installations in Redis (DESIGN "Many workspaces", "Many accounts"): sealed under
 * STATE_ENCRYPTION_KEY — the plain token is nowhere in Redis — kept across a restart, and gone
 * after app_uninstalled.
 */
describe.skipIf(!hasRedis)('OAuth installations in Redis', () => {
  const prefix = uniqueRedisPrefix('oauth');
  const env = { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix };
  let inspector: Awaited<ReturnType<typeof openInspector>>;
  let h: OAuthHarness | undefined;

  beforeAll(async () => {
    inspector = await openInspector();
  });
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });
  afterAll(async () => {
    await inspector?.deleteAll(prefix);
    await inspector?.close();
  });

  /** Every key under the prefix with its value (strings; other types by their members), as one text. */
  async function everythingStored(): Promise<string> {
    const parts: string[] = [];
    for (const key of await inspector.keys(prefix)) {
      const type = await inspector.client.type(key);
      let value: unknown;
      if (type === 'string') value = await inspector.client.get(key);
      else if (type === 'set') value = await inspector.client.sMembers(key);
      else if (type === 'zset') value = await inspector.client.zRange(key, 0, -1);
      else if (type === 'hash') value = await inspector.client.hGetAll(key);
      parts.push(`${key} ${JSON.stringify(value)}`);
    }
    return parts.join('\n');
  }

  it('keeps the installation sealed (no token in Redis) and answers with it after a restart', async () => {
    h = await startOAuthHarness({ env });
    const flow = await installThroughPages(h, 'Alpha');
    expect(flow.redirect.status, flow.redirectHtml).toBe(200);
    const [token] = h.slack.oauth?.tokensOf('T0ALPHA') ?? [];
    expect(token).toMatch(/^xoxb-standin-T0ALPHA-/);
    const stored = await everythingStored();
    expect(stored).toContain(`${prefix}::installation:T0ALPHA`);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain('xoxb-');
    expect(stored).not.toContain('UBOTALPHA');

    await h.restart();
    const asked = await h.mention('a', 'after the restart');
    const answer = await h.waitForOutcome(asked.channel, asked.threadTs);
    expect(answer.user).toBe('UBOTALPHA');
    const posts = h.slack.calls.filter(
      (call) => call.method === 'chat.postMessage' && call.args.channel === 'C0ALPHA',
    );
    expect(posts.map((call) => call.team)).toEqual(posts.map(() => 'T0ALPHA'));
  });

  it('deletes the installation from Redis on app_uninstalled', async () => {
    h = await startOAuthHarness({ env });
    await installThroughPages(h, 'Beta');
    const key = `${prefix}::installation:T0BETA`;
    expect(await inspector.keys(prefix)).toContain(key);
    const response = await h.send('b', { type: 'app_uninstalled', event_ts: '1700000000.000100' });
    expect(response.status).toBe(200);
    // The listener runs after the ack: wait (bounded) for the key to go.
    const until = Date.now() + 5_000;
    while ((await inspector.client.exists(key)) === 1 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await inspector.client.exists(key)).toBe(0);
  });
});
