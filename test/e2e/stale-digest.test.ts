import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { simDirective } from '../../dev/simulator/index.js';
import { openInspector } from '../store/redis-test-client.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';
import { redisAvailable, TEST_REDIS_URL, uniqueRedisPrefix } from '../support/redis.js';

/**
 * The stale rule keeps a digest of the previous answer, not its text: after real turns on Redis no
 * stored value holds the answer, and a thread record the previous version wrote (with the whole
 * answer) still keeps the follow-up from taking the old answer for its own.
 */

const hasRedis = await redisAvailable();
const OLD = 'The checkout outage began with the 12:04 deploy.';
const NEW = 'Rolled back at 12:31, errors are gone.';

describe.skipIf(!hasRedis)('the previous answer in Redis', () => {
  let inspector: Awaited<ReturnType<typeof openInspector>>;
  let harness: Harness | undefined;
  let prefix: string;

  beforeAll(async () => {
    inspector = await openInspector();
  });
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
    await inspector.deleteAll(prefix);
  });
  afterAll(async () => inspector?.close());

  async function start() {
    prefix = uniqueRedisPrefix('stale-digest');
    harness = await startHarness({
      env: { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix },
      // The service shows the previous turn's final status for a while after a follow-up.
      sim: { staleAfterFollowUpMs: 400 },
    });
    return harness;
  }

  /** Every string value under the test's prefix, by key. */
  async function storedValues(): Promise<Map<string, string>> {
    const values = new Map<string, string>();
    for (const key of await inspector.keys(prefix)) {
      if ((await inspector.client.type(key)) !== 'string') continue;
      values.set(key, (await inspector.client.get(key)) ?? '');
    }
    return values;
  }

  const threadKey = async () => {
    const keys = (await inspector.keys(prefix)).filter((key) => key.includes('::thread:'));
    expect(keys).toHaveLength(1);
    return keys[0] as string;
  };

  async function answersIn(h: Harness, channel: string, threadTs: string) {
    return h.slack
      .messages(channel, threadTs)
      .filter((message) => message.metadata?.event_type === 'agent_answer')
      .map((message) => h.visibleText(message));
  }

  it('keeps no answer text anywhere, only a digest of the last final report', async () => {
    const h = await start();
    const { channel, threadTs } = await h.mention(
      `one ${simDirective({ steps: 2, stepMs: 20, answer: OLD })}`,
    );
    await h.waitForOutcome(channel, threadTs);
    await h.reply(`two ${simDirective({ steps: 1, stepMs: 100, answer: NEW })}`, { threadTs });
    await h.waitForOutcome(channel, threadTs, 2);
    expect(await answersIn(h, channel, threadTs)).toEqual([
      expect.stringContaining(OLD),
      expect.stringContaining(NEW),
    ]);

    const values = await storedValues();
    expect(values.size).toBeGreaterThan(1);
    for (const [key, value] of values) {
      expect(value, key).not.toContain('checkout outage');
      expect(value, key).not.toContain('Rolled back');
    }
    const thread = JSON.parse(values.get(await threadKey()) ?? 'null').value;
    const [run] = h.sim.runs();
    expect(thread.lastFinal).toEqual({
      status: 'done',
      totalSteps: run?.totalSteps,
      messageSha256: createHash('sha256')
        .update(run?.message ?? '')
        .digest('hex'),
    });
  });

  it('reads a thread record the previous version wrote (the whole answer) and still skips the stale status', async () => {
    const h = await start();
    const { channel, threadTs } = await h.mention(
      `one ${simDirective({ steps: 2, stepMs: 20, answer: OLD })}`,
    );
    await h.waitForOutcome(channel, threadTs);

    // Rewrite the thread record as the previous version saved it: lastFinal = the report as received.
    const key = await threadKey();
    const [run] = h.sim.runs();
    const stored = JSON.parse((await inspector.client.get(key)) ?? 'null');
    stored.value.lastFinal = { status: run?.status, message: run?.message, totalSteps: run?.totalSteps };
    await inspector.client.set(key, JSON.stringify(stored), { KEEPTTL: true });
    expect(await inspector.client.get(key)).toContain('checkout outage');

    await h.reply(`two ${simDirective({ steps: 1, stepMs: 100, answer: NEW })}`, { threadTs });
    await h.waitForOutcome(channel, threadTs, 2);
    expect(await answersIn(h, channel, threadTs)).toEqual([
      expect.stringContaining(OLD),
      expect.stringContaining(NEW),
    ]);
    // Saved again after the follow-up: the old text is gone.
    for (const [name, value] of await storedValues()) expect(value, name).not.toContain('checkout outage');
  });
});
