import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../dev/simulator/index.js';
import { CONNECTION_BLOCKS } from '../../src/slack/views/connection-form.js';
import { openInspector } from '../store/redis-test-client.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';
import { agentCommandReply } from '../support/command-reply.js';
import { redisAvailable, TEST_REDIS_URL, uniqueRedisPrefix } from '../support/redis.js';

/**
 * Issue 32 end to end: 35 service connections added through the form (the listing broke at
 * about 24: one section of 3,997 characters with 31), then `/agent connections` — a reply the
 * strict stand-in takes, in several sections, every connection listed — and a form answered with
 * an alias of `<`, `>`, `&`, backticks and emoji.
 */
const hasRedis = await redisAvailable();
/** Obviously fake: 32 bytes of 7s. */
const TEST_KEY = Buffer.alloc(32, 7).toString('base64');
const SECOND_TOKEN = 'sim-second-account-token-not-real';
const ADMIN = 'UADMINLIST';
const CONNECTIONS = 35;

describe.skipIf(!hasRedis)('35 service connections', () => {
  let second: Simulator;
  let harness: Harness;
  const prefix = uniqueRedisPrefix('connections-limits');

  beforeAll(async () => {
    second = await startSimulator({ quiet: true, longPollMs: 500, agentToken: SECOND_TOKEN });
    harness = await startHarness({
      env: { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix, STATE_ENCRYPTION_KEY: TEST_KEY },
    });
  });
  afterAll(async () => {
    await harness?.stop();
    await second?.close();
    const inspector = await openInspector();
    await inspector.deleteAll(prefix);
    await inspector.close();
  });

  const submit = async (alias: string) => {
    await agentCommandReply(harness, 'connections add', ADMIN, 'C0EUROPE');
    const answer = await harness.submitFormFields(
      {
        [CONNECTION_BLOCKS.alias]: alias,
        [CONNECTION_BLOCKS.address]: second.url,
        [CONNECTION_BLOCKS.token]: SECOND_TOKEN,
      },
      { user: ADMIN },
    );
    return JSON.parse(answer.body) as { response_action: string; errors?: Record<string, string> };
  };

  it('are all listed by /agent connections, in sections Slack takes', async () => {
    for (let i = 1; i <= CONNECTIONS; i += 1) {
      expect((await submit(`eu-${String(i).padStart(2, '0')}`)).response_action).toBe('update');
    }
    const posted = await harness.command('connections', { user: ADMIN, channel: 'C0EUROPE' });
    const [reply] = await harness.slack.waitFor(() => {
      const responses = harness.slack.responses(posted.responseId);
      return responses.length > 0 && responses;
    });
    expect(harness.slack.refusals()).toEqual([]);
    const sections = (reply?.blocks ?? []) as unknown as Array<{ text: { text: string } }>;
    expect(sections.length).toBeGreaterThan(2);
    for (const section of sections) expect(section.text.text.length).toBeLessThanOrEqual(3_000);
    const listed = sections.map((section) => section.text.text).join('\n');
    for (let i = 1; i <= CONNECTIONS; i += 1)
      expect(listed).toContain(`\`eu-${String(i).padStart(2, '0')}\``);
    expect(listed).toContain('&lt;agent-id&gt; on &lt;alias&gt;');
  });

  it('answers an alias made of <, >, &, backticks and emoji under its field', async () => {
    const answer = await submit('<b>&`x`🚀');
    expect(answer.response_action).toBe('errors');
    expect(answer.errors?.[CONNECTION_BLOCKS.alias]).toMatch(/not an alias/);
  });
});
