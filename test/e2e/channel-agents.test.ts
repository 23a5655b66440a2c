import { afterEach, describe, expect, it } from 'vitest';
import { SIM_AGENTS, type Simulator, simDirective, startSimulator } from '../../dev/simulator/index.js';
import {
  appMentionEvent,
  DEFAULT_BOT_USER_ID,
  DEFAULT_TEAM_ID,
  eventCallback,
  type SlackStandin,
  startSlackStandin,
} from '../../dev/slack-standin/index.js';
import { loadConfig } from '../../src/config/load-config.js';
import { type RunningBot, startBot } from '../../src/start-bot.js';
import { openInspector } from '../store/redis-test-client.js';
import { type Harness, harnessEnv, startHarness, TEST_SIGNING_SECRET } from '../support/bridge-harness.js';
import { agentCommandReply } from '../support/command-reply.js';
import { memoryLogger } from '../support/memory-log.js';
import { redisAvailable, TEST_REDIS_URL, uniqueRedisPrefix } from '../support/redis.js';
import { postEvent, postSlashCommand } from '../support/slack-events.js';

/** DESIGN "Channel agents" end to end: `/agent channel …`, then the runs new threads start. */
const quick = (answer: string) => simDirective({ steps: 1, stepMs: 30, answer });
const PAYMENTS = 'C0PAYMENTS';
const hasRedis = await redisAvailable();

const command = (harness: Harness, text: string, user = 'UADMINLIST', channel = PAYMENTS) =>
  agentCommandReply(harness, text, user, channel);

async function ask(harness: Harness, text: string, where: { channel: string; threadTs?: string }) {
  const mention = await harness.mention(text, where);
  const count = harness.slack
    .messages(where.channel, mention.threadTs)
    .filter((m) => m.metadata?.event_type === 'agent_answer').length;
  await harness.waitForOutcome(
    where.channel,
    mention.threadTs,
    Math.max(1, count + (where.threadTs ? 1 : 0)),
  );
  return mention;
}

describe('channel agents', () => {
  let harness: Harness;
  afterEach(async () => harness?.stop());

  it('new threads use the channel agent, existing threads keep theirs, other channels keep AGENT_ID', async () => {
    const log = memoryLogger('info');
    harness = await startHarness({ logger: log.logger, env: { LOG_LEVEL: 'info' } });
    expect(await command(harness, 'channel', 'UALICE')).toContain(`the bot's agent \`${SIM_AGENTS.api}\``);
    const before = await ask(harness, `first ${quick('A.')}`, { channel: PAYMENTS });

    const bound = await command(harness, `channel use ${SIM_AGENTS.alert}`);
    expect(bound).toContain(`will use agent \`${SIM_AGENTS.alert}\` (before: \`${SIM_AGENTS.api}\`)`);
    expect(await command(harness, 'channel', 'UALICE')).toContain(`use agent \`${SIM_AGENTS.alert}\``);

    await ask(harness, `new thread ${quick('B.')}`, { channel: PAYMENTS });
    await harness.reply(`follow-up in the old thread ${quick('C.')}`, {
      channel: PAYMENTS,
      threadTs: before.threadTs,
    });
    await harness.waitForOutcome(PAYMENTS, before.threadTs, 2);
    await ask(harness, `elsewhere ${quick('D.')}`, { channel: 'C0GENERAL' });

    const agentOf = (prompt: string) =>
      harness.sim.runs().find((run) => run.prompts.some((p) => p.includes(prompt)))?.agentId;
    expect(agentOf('first')).toBe(SIM_AGENTS.api);
    expect(agentOf('new thread')).toBe(SIM_AGENTS.alert);
    expect(agentOf('follow-up in the old thread')).toBe(SIM_AGENTS.api);
    expect(agentOf('elsewhere')).toBe(SIM_AGENTS.api);

    // enable/disable without an id act on the channel's agent.
    expect(await command(harness, 'disable')).toContain(SIM_AGENTS.alert);
    expect(harness.sim.requests.some((r) => r.path.endsWith(`${SIM_AGENTS.alert}/disable`))).toBe(true);

    const reset = await command(harness, 'channel reset');
    expect(reset).toContain(`the bot's agent \`${SIM_AGENTS.api}\` again (before: \`${SIM_AGENTS.alert}\`)`);
    await ask(harness, `after reset ${quick('E.')}`, { channel: PAYMENTS });
    expect(agentOf('after reset')).toBe(SIM_AGENTS.api);

    // Both changes are in the audit log: who, what, before and after.
    const audits = log
      .records()
      .filter((record) => record.audit === true && String(record.subcommand).startsWith('channel'));
    expect(audits).toEqual([
      expect.objectContaining({
        user: 'UADMINLIST',
        channel: PAYMENTS,
        subcommand: 'channel-use',
        agentId: SIM_AGENTS.alert,
        previousAgentId: SIM_AGENTS.api,
        result: 'ok',
      }),
      expect.objectContaining({
        user: 'UADMINLIST',
        channel: PAYMENTS,
        subcommand: 'channel-reset',
        agentId: SIM_AGENTS.api,
        previousAgentId: SIM_AGENTS.alert,
        result: 'ok',
      }),
    ]);
  });

  it('refuses channel use and reset to non-admins and changes nothing', async () => {
    harness = await startHarness();
    const refused = await command(harness, `channel use ${SIM_AGENTS.alert}`, 'UALICE');
    expect(refused).toContain('Only admins');
    expect(await command(harness, 'channel reset', 'UBOB')).toContain('Only admins');
    expect(await command(harness, 'channel', 'UALICE')).toContain(`the bot's agent \`${SIM_AGENTS.api}\``);
    expect(await command(harness, 'channel use not/an id')).toContain(
      'Usage: `/agent channel use <agent-id> [on <alias>]`',
    );
  });

  it('a binding to an unknown agent is stored as asked; the first run says the agent is unknown', async () => {
    harness = await startHarness();
    await command(harness, 'channel use no-such-agent');
    const mention = await harness.mention(`hi ${quick('X.')}`, { channel: PAYMENTS });
    await harness.waitForOutcome(PAYMENTS, mention.threadTs);
    const [notice] = harness.botMessages(PAYMENTS, mention.threadTs);
    expect(harness.visibleText(notice as never)).toContain('/agent enable');
  });
});

describe.skipIf(!hasRedis)('channel agents with Redis', () => {
  let sim: Simulator;
  let slack: SlackStandin;
  let bridge: RunningBot | undefined;
  let prefix: string;
  afterEach(async () => {
    await bridge?.stop();
    await Promise.all([sim.close(), slack.close()]);
    const inspector = await openInspector();
    await inspector.deleteAll(prefix);
    await inspector.close();
  });

  it('a binding is kept across a restart of the bot', async () => {
    [sim, slack] = await Promise.all([startSimulator({ quiet: true, longPollMs: 300 }), startSlackStandin()]);
    // The ADMIN_USER_IDS person is a member (every person is looked up: is it a guest?).
    slack.addUser({ id: 'UADMINLIST' });
    prefix = uniqueRedisPrefix('channel-agents');
    const config = loadConfig(harnessEnv(sim, slack, { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix }));
    const { silentLogger } = await import('../../src/runtime/logger.js');
    bridge = await startBot(config, { logger: silentLogger });
    const appUrl = () => `http://127.0.0.1:${bridge?.port}`;
    const responseUrl = slack.responseUrl('bind');
    await postSlashCommand(appUrl(), TEST_SIGNING_SECRET, {
      command: '/agent',
      text: `channel use ${SIM_AGENTS.alert}`,
      user_id: 'UADMINLIST',
      channel_id: PAYMENTS,
      team_id: DEFAULT_TEAM_ID,
      response_url: responseUrl,
    });
    await slack.waitFor(() => slack.responses('bind').length > 0, { description: 'the bind reply' });

    await bridge.stop();
    bridge = await startBot(config, { logger: silentLogger });
    const text = `<@${DEFAULT_BOT_USER_ID}> after restart ${quick('R.')}`;
    const stored = slack.recordUserMessage({ channel: PAYMENTS, user: 'UALICE', text });
    await postEvent(
      appUrl(),
      TEST_SIGNING_SECRET,
      eventCallback(appMentionEvent({ channel: PAYMENTS, user: 'UALICE', text, ts: stored.ts })),
    );
    await slack.waitFor(() => sim.runs().length === 1, { description: 'the run after the restart' });
    expect(sim.runs()[0]?.agentId).toBe(SIM_AGENTS.alert);
  });
});
