import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  SIM_AGENTS,
  SIM_TOKENS,
  type Simulator,
  simDirective,
  startSimulator,
} from '../../dev/simulator/index.js';
import { DEFAULT_TEAM_ID } from '../../dev/slack-standin/index.js';
import { CONNECTION_BLOCKS } from '../../src/slack/views/connection-form.js';
import { type RunningBot, startBot } from '../../src/start-bot.js';
import { openInspector } from '../store/redis-test-client.js';
import { type Harness, startHarness, TEST_SIGNING_SECRET } from '../support/bridge-harness.js';
import { agentCommandReply, replyText } from '../support/command-reply.js';
import { memoryLogger } from '../support/memory-log.js';
import { redisAvailable, TEST_REDIS_URL, uniqueRedisPrefix } from '../support/redis.js';
import { homeTabOpenedEvent, postSlashCommand } from '../support/slack-events.js';

/**
 * DESIGN "Many accounts" end to end: two simulators stand for two accounts (the second only takes
 * its own token), the bot on Redis with STATE_ENCRYPTION_KEY. A connection is added through the
 * form, listed, used by a channel, kept encrypted, found again after a restart, and removed.
 */
const hasRedis = await redisAvailable();
/** Obviously fake: 32 bytes of 7s. */
const TEST_KEY = Buffer.alloc(32, 7).toString('base64');
const SECOND_TOKEN = 'sim-second-account-token-not-real';
const EU = 'C0EUROPE';
const quick = (answer: string) => simDirective({ steps: 1, stepMs: 30, answer });

const command = (harness: Harness, text: string, user = 'UADMINLIST', channel = EU) =>
  agentCommandReply(harness, text, user, channel);

/** `/agent connections add`, then the form filled and submitted; returns the ack's JSON. */
async function addThroughForm(
  harness: Harness,
  fields: { alias: string; address: string; token: string },
  user = 'UADMINLIST',
) {
  const opened = harness.slack.openedViews().length;
  const reply = await command(harness, 'connections add', user);
  expect(harness.slack.openedViews()).toHaveLength(opened + 1);
  expect(reply).toContain('form');
  const answer = await harness.submitFormFields(
    {
      [CONNECTION_BLOCKS.alias]: fields.alias,
      [CONNECTION_BLOCKS.address]: fields.address,
      [CONNECTION_BLOCKS.token]: fields.token,
    },
    { user },
  );
  expect(answer.status).toBe(200);
  return JSON.parse(answer.body) as {
    response_action: 'update' | 'errors';
    errors?: Record<string, string>;
    view?: { blocks: Array<{ text?: { text: string } }> };
  };
}

/** Every key and value under the prefix, as text: where a plain token must not be. */
async function everythingStored(prefix: string): Promise<string> {
  const inspector = await openInspector();
  try {
    const keys = await inspector.keys(prefix);
    const parts: string[] = [];
    for (const key of keys) {
      const type = await inspector.client.type(key);
      const value =
        type === 'string'
          ? await inspector.client.get(key)
          : type === 'hash'
            ? JSON.stringify(await inspector.client.hGetAll(key))
            : type === 'set'
              ? JSON.stringify(await inspector.client.sMembers(key))
              : type === 'zset'
                ? JSON.stringify(await inspector.client.zRange(key, 0, -1))
                : '';
      parts.push(`${key}=${value}`);
    }
    return parts.join('\n');
  } finally {
    await inspector.close();
  }
}

describe.skipIf(!hasRedis)('service connections (two simulators, Redis)', () => {
  let second: Simulator;
  let harness: Harness;
  let prefix: string;

  beforeAll(async () => {
    second = await startSimulator({ quiet: true, longPollMs: 500, agentToken: SECOND_TOKEN });
  });
  afterAll(async () => second?.close());
  afterEach(async () => {
    await harness?.stop();
    second.reset();
    const inspector = await openInspector();
    await inspector.deleteAll(prefix);
    await inspector.close();
  });

  let log: ReturnType<typeof memoryLogger>;

  async function start(env: Record<string, string> = {}) {
    prefix = uniqueRedisPrefix('connections');
    log = memoryLogger('debug');
    harness = await startHarness({
      logger: log.logger,
      env: {
        REDIS_URL: TEST_REDIS_URL,
        REDIS_PREFIX: prefix,
        STATE_ENCRYPTION_KEY: TEST_KEY,
        LOG_LEVEL: 'debug',
        ...env,
      },
    });
    return harness;
  }

  it('adds a connection through the form (whoami on its own service), keeps the token sealed, lists it', async () => {
    await start();
    const answer = await addThroughForm(harness, {
      alias: 'eu-prod',
      address: second.url,
      token: SECOND_TOKEN,
    });
    expect(answer.response_action).toBe('update');
    const shown = answer.view?.blocks.map((block) => block.text?.text ?? '').join('\n') ?? '';
    expect(shown).toContain('eu-prod');
    expect(shown).toContain('Production');
    expect(shown).toContain(new URL(second.url).host);
    expect(shown).not.toContain(SECOND_TOKEN);
    // The check went to the second service with its token, not to the default one.
    expect(second.requests.filter((r) => r.path === '/v2/whoami').map((r) => r.token)).toEqual(['agent']);
    expect(harness.sim.requests.filter((r) => r.path === '/v2/whoami')).toEqual([]);

    const stored = await everythingStored(prefix);
    expect(stored).toContain('eu-prod');
    expect(stored).toMatch(/"sealedToken":"v2\.[0-9a-f]{8}\./);
    expect(stored).not.toContain(SECOND_TOKEN);

    const listing = await command(harness, 'connections');
    expect(listing).toMatch(/`default` \(AGENT_API_URL\).*healthy/);
    expect(listing).toMatch(/`eu-prod`.*account \*Production\*.*healthy/);
    expect(listing).not.toContain(SECOND_TOKEN);
    // Audited like the admin commands; the token in no log line.
    expect(log.records()).toContainEqual(
      expect.objectContaining({
        audit: true,
        subcommand: 'connections-add',
        connection: 'eu-prod',
        result: 'ok',
      }),
    );
    expect(log.lines().join('\n')).not.toContain(SECOND_TOKEN);
  });

  it('an admin looking at App Home sees a connection added or removed at once (cached health aside)', async () => {
    await start({ HOME_REPUBLISH_SECONDS: '0.5' });
    const homeText = () => harness.visibleText({ blocks: harness.slack.homeOf('UADMINLIST')?.blocks ?? [] });
    await harness.send(homeTabOpenedEvent({ user: 'UADMINLIST' }));
    await harness.slack.waitFor(() => homeText().includes('`default`'), { description: 'the admin’s home' });
    expect(homeText()).not.toContain('eu-prod');
    const answer = await addThroughForm(harness, {
      alias: 'eu-prod',
      address: second.url,
      token: SECOND_TOKEN,
    });
    expect(answer.response_action).toBe('update');
    // Published again without opening the tab, listing the new connection though the list of a
    // moment ago is still within its minute of cached health.
    await harness.slack.waitFor(() => homeText().includes('`eu-prod`'), {
      description: 'the home listing eu-prod',
    });
    expect(await command(harness, 'connections remove eu-prod')).toContain('eu-prod');
    await harness.slack.waitFor(() => !homeText().includes('eu-prod'), {
      description: 'the home without eu-prod',
    });
  });

  it('a channel on the connection runs there with its token; its threads keep it; remove is refused while used', async () => {
    await start();
    await addThroughForm(harness, { alias: 'eu-prod', address: second.url, token: SECOND_TOKEN });
    const bound = await command(harness, `channel use ${SIM_AGENTS.api} on eu-prod`);
    expect(bound).toContain('on connection `eu-prod`');
    expect(await command(harness, 'channel')).toContain('on connection `eu-prod`');
    // enable/disable act on the channel's connection.
    expect(await command(harness, 'enable')).toContain(SIM_AGENTS.api);
    expect(second.requests.filter((r) => r.path.endsWith('/enable')).map((r) => r.token)).toEqual(['agent']);
    expect(harness.sim.requests.filter((r) => r.path.endsWith('/enable'))).toEqual([]);

    const first = await harness.mention(`what broke? ${quick('Disk full on db-2.')}`, { channel: EU });
    const [answer] = await harness.waitForOutcome(EU, first.threadTs);
    if (!answer) throw new Error('no answer');
    expect(harness.visibleText(answer)).toContain('Disk full on db-2.');
    expect(second.runs()).toHaveLength(1);
    expect(harness.sim.runs()).toHaveLength(0);
    const runRequests = second.requests.filter((r) => r.path.startsWith('/v2/ai-agent/'));
    expect(runRequests.length).toBeGreaterThan(1); // the start and its polls
    expect(new Set(runRequests.map((r) => r.token))).toEqual(new Set(['agent']));

    // 👍 goes to the service the answer came from.
    const click = await harness.clickFeedback(answer, true);
    expect(click.status).toBe(200);
    const sessionId = second.runs()[0]?.sessionId ?? '';
    await harness.slack.waitFor(() => second.feedback(sessionId), {
      description: 'feedback on the second service',
    });

    const removal = await command(harness, 'connections remove eu-prod');
    expect(removal).toContain(`still used by <#${EU}>`);
    expect(await everythingStored(prefix)).toContain('"eu-prod"');

    // Back to the default: new threads go there, the old thread keeps its connection.
    await command(harness, 'channel reset');
    const other = await harness.mention(`and now? ${quick('All green.')}`, { channel: EU });
    await harness.waitForOutcome(EU, other.threadTs);
    expect(harness.sim.runs()).toHaveLength(1);
    await harness.reply(`and db-3? ${quick('db-3 is fine.')}`, { channel: EU, threadTs: first.threadTs });
    await harness.waitForOutcome(EU, first.threadTs, 2);
    expect(second.runs()[0]?.turns).toBe(2);
    expect(harness.sim.runs()).toHaveLength(1);

    const removed = await command(harness, 'connections remove eu-prod');
    expect(removed).toContain('Removed the service connection `eu-prod`');
    expect(await command(harness, 'connections')).not.toContain('eu-prod');

    // The old thread's connection is gone: its next question is told why, and what to do.
    await harness.reply(`and db-4? ${quick('never sent')}`, { channel: EU, threadTs: first.threadTs });
    const [, , gone] = await harness.waitForOutcome(EU, first.threadTs, 3);
    expect(harness.visibleText(gone ?? {})).toContain(
      'The service connection `eu-prod` this conversation uses is gone',
    );
    expect(second.runs()[0]?.turns).toBe(2);
  });

  it('survives a restart: a new bridge on the same prefix opens the sealed token and uses it', async () => {
    await start();
    await addThroughForm(harness, { alias: 'eu-prod', address: second.url, token: SECOND_TOKEN });
    await harness.bridge.stop();
    second.reset();
    let again: RunningBot | undefined = await startBot(harness.config, { logger: silent() });
    try {
      const responseUrl = harness.slack.responseUrl();
      const posted = await postSlashCommand(`http://127.0.0.1:${again.port}`, TEST_SIGNING_SECRET, {
        command: '/agent',
        text: 'connections',
        user_id: 'UADMINLIST',
        channel_id: EU,
        team_id: DEFAULT_TEAM_ID,
        response_url: responseUrl,
      });
      expect(posted.status).toBe(200);
      const listing = await harness.slack.waitFor(
        () => replyText(harness.slack, responseUrl.split('/').pop() ?? ''),
        {
          description: 'the listing after the restart',
        },
      );
      expect(listing).toMatch(/`eu-prod`.*account \*Production\*.*healthy/);
      expect(second.requests.filter((r) => r.path === '/v2/whoami').map((r) => r.token)).toEqual(['agent']);
    } finally {
      await again.stop();
      again = undefined;
    }
    // The harness's own stop closes the stopped bridge again (a no-op) and the fakes.
  });

  it('one failing connection shows as failing; the others list normally', async () => {
    await start();
    await addThroughForm(harness, { alias: 'eu-prod', address: second.url, token: SECOND_TOKEN });
    second.faults.agentTokenAs = 'invalid'; // the token was revoked since
    const listing = await command(harness, 'connections');
    expect(listing).toMatch(/`default` \(AGENT_API_URL\).*healthy/);
    expect(listing).toMatch(/`eu-prod`.*failing: The agent service at .* rejected the token \(HTTP 403/);
  });

  it('a bad token at add time: said under the token field, nothing saved', async () => {
    await start();
    const answer = await addThroughForm(harness, {
      alias: 'eu-prod',
      address: second.url,
      token: SIM_TOKENS.agent,
    });
    expect(answer.response_action).toBe('errors');
    expect(answer.errors?.[CONNECTION_BLOCKS.token]).toMatch(/Not saved\. .*rejected the token \(HTTP 403/);
    expect(answer.errors?.[CONNECTION_BLOCKS.token]).not.toContain(SIM_TOKENS.agent);
    // Nothing of the connection is kept. The check itself ran on that account's request budget,
    // whose slot lease (`account-slots:…`, expiring with LEASE_TTL_MS) is not a saved connection.
    const stored = (await everythingStored(prefix)).replace(/[^\n]*account-slots:[^\n]*/g, '');
    expect(stored).not.toContain('eu-prod');
    expect(log.records()).toContainEqual(
      expect.objectContaining({
        audit: true,
        subcommand: 'connections-add',
        result: 'failed',
        problem: 'token-rejected',
      }),
    );
    expect(log.lines().join('\n')).not.toContain(`"${SIM_TOKENS.agent}"`);
  });

  it('bad input: a clear sentence under the field or in the reply, nothing saved', async () => {
    await start();
    const cases = [
      { fields: { alias: 'eu prod', address: second.url }, field: 'alias', says: /one word without spaces/ },
      {
        fields: { alias: 'a'.repeat(200), address: second.url },
        field: 'alias',
        says: /200 characters long; at most 32/,
      },
      {
        fields: { alias: 'EU_Prod', address: second.url },
        field: 'alias',
        says: /is not an alias \(lower-case/,
      },
      { fields: { alias: 'default', address: second.url }, field: 'alias', says: /AGENT_API_URL/ },
      {
        fields: { alias: 'eu-prod', address: 'not a host' },
        field: 'address',
        says: /is not a URL or host name/,
      },
      {
        fields: { alias: 'eu-prod', address: 'https://' },
        field: 'address',
        says: /is not a URL or host name/,
      },
      {
        fields: { alias: 'eu-prod', address: 'http://api-eu.example.com' },
        field: 'address',
        says: /clear text/,
      },
    ] as const;
    for (const { fields, field, says } of cases) {
      const answer = await addThroughForm(harness, { ...fields, token: SECOND_TOKEN });
      expect(answer.response_action, fields.alias).toBe('errors');
      expect(answer.errors?.[CONNECTION_BLOCKS[field]], `${fields.alias} ${fields.address}`).toMatch(says);
    }
    expect(second.requests).toEqual([]);
    expect(await everythingStored(prefix)).not.toContain('sealedToken');

    expect(await command(harness, `channel use ${SIM_AGENTS.api} on nowhere`)).toContain(
      'There is no service connection `nowhere`',
    );
    expect(await command(harness, 'channel')).toContain('(AGENT_ID)');
    expect(await command(harness, 'connections remove nowhere')).toContain(
      'There is no service connection `nowhere`',
    );
    expect(await command(harness, 'connections remove "two words"')).toContain('one word without spaces');
    const typedToken = await command(harness, `connections add eu ${second.url} ${SECOND_TOKEN}`);
    expect(typedToken).toContain('never type a token into a command');
    expect(typedToken).not.toContain(SECOND_TOKEN);
  });

  it('refused for a non-admin (command and a forged form) and without STATE_ENCRYPTION_KEY', async () => {
    await start({ STATE_ENCRYPTION_KEY: '' });
    harness.slack.addUser({ id: 'UALICE' });
    const noKey = await command(harness, 'connections add');
    expect(noKey).toContain('STATE_ENCRYPTION_KEY is not set');
    expect(harness.slack.openedViews()).toEqual([]);

    const refused = await command(harness, 'connections add', 'UALICE');
    expect(refused).toMatch(/admins/i);
    expect(refused).not.toContain('form');
    expect(harness.slack.openedViews()).toEqual([]);
    expect(await command(harness, 'connections', 'UALICE')).not.toContain('default');
  });

  it('a form submitted by a non-admin saves nothing', async () => {
    await start();
    harness.slack.addUser({ id: 'UALICE' });
    await command(harness, 'connections add');
    const answer = await harness.submitFormFields(
      {
        [CONNECTION_BLOCKS.alias]: 'eu-prod',
        [CONNECTION_BLOCKS.address]: second.url,
        [CONNECTION_BLOCKS.token]: SECOND_TOKEN,
      },
      { user: 'UALICE' },
    );
    expect(JSON.parse(answer.body)).toMatchObject({
      response_action: 'errors',
      errors: { [CONNECTION_BLOCKS.alias]: expect.stringMatching(/Only admins/) },
    });
    expect(second.requests).toEqual([]);
    expect(await everythingStored(prefix)).not.toContain('eu-prod');
  });
});

function silent() {
  const logger = {
    debug: () => {},
    info: () => {},
    warn: () => {},
    error: () => {},
    child: () => logger,
  };
  return logger;
}
