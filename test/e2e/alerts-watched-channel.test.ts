import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { simDirective } from '../../dev/simulator/index.js';
import {
  alertMessage,
  type BotMessageInput,
  DEFAULT_BOT_USER_ID,
  type SlackStandin,
  type StoredMessage,
} from '../../dev/slack-standin/index.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';
import { memoryLogger } from '../support/memory-log.js';

/**
 * DESIGN "Alert investigations", watched channels: `/agent channel investigate on|off`, then every
 * new top-level post by another bot or integration there is an alert, investigated in its thread.
 */
const WATCHED = 'C0WATCHED';
const quick = simDirective({ steps: 1, stepMs: 30, answer: 'Verdict: a deploy at 09:58 did it.' });

/** The reply's visible text (section blocks), once it came. */
function replyText(slack: SlackStandin, responseId: string): string | undefined {
  const [reply] = slack.responses(responseId);
  if (!reply) return undefined;
  const blocks = (reply.blocks ?? []) as Array<{ text?: { text?: string } }>;
  return blocks.map((block) => block.text?.text ?? '').join('\n') || reply.text || undefined;
}

/** The `message` event Slack sends for a post already in the channel (message.channels). */
const eventOf = (message: StoredMessage) => ({ ...message, channel_type: 'channel', event_ts: message.ts });

describe('watched channels', () => {
  let harness: Harness;
  const log = memoryLogger('info');
  beforeAll(async () => {
    harness = await startHarness({ env: { ALERT_COOLDOWN_MINUTES: '30' }, logger: log.logger });
    harness.slack.addUser({ id: 'UALICE' });
  });
  afterAll(async () => harness?.stop());
  afterEach(async () => {
    await harness.slack.waitFor(() => harness.sim.runs().every((run) => run.status !== 'loading'));
    await harness.slack.waitFor(async () => true);
    harness.sim.reset();
  });

  async function command(text: string, channel = WATCHED, user = 'UADMINLIST') {
    const posted = await harness.command(text, { channel, user });
    expect(posted.status).toBe(200);
    return harness.slack.waitFor(() => replyText(harness.slack, posted.responseId), {
      description: `the reply to /agent ${text}`,
    });
  }

  /** An integration posts in a channel, and Slack tells the bot. */
  async function integrationPosts(input: BotMessageInput, delivery: { retryNum?: number } = {}) {
    const message = harness.slack.recordBotMessage(input);
    const response = await harness.send(eventOf(message), delivery);
    expect(response.status).toBe(200);
    return message;
  }

  it('is switched by admins, audited like other admin commands, and shown by /agent channel', async () => {
    expect(await command('channel', WATCHED)).toContain('not investigated automatically');
    expect(await command('channel investigate on', WATCHED, 'UALICE')).toContain('Only admins');
    expect(await command('channel investigate on')).toContain('are now investigated');
    expect(await command('channel')).toContain('are investigated in their threads');
    expect(await command('channel investigate maybe')).toContain('is not `on` or `off`');
    const audits = log
      .records()
      .filter((record) => record.audit === true && record.subcommand === 'channel-investigate');
    expect(
      audits.map(({ user, channel, on, result, outcome }) => ({ user, channel, on, result, outcome })),
    ).toEqual([
      { user: 'UALICE', channel: WATCHED, on: true, result: 'refused', outcome: 'refused' },
      { user: 'UADMINLIST', channel: WATCHED, on: true, result: 'ok', outcome: 'channel-watch' },
      { user: 'UADMINLIST', channel: WATCHED, on: undefined, result: 'refused', outcome: 'usage' },
    ]);
  });

  it('investigates an integration alert (attachments and blocks) in its thread, once across retries', async () => {
    await command('channel investigate on');
    const alert = await integrationPosts(alertMessage(WATCHED, `Checkout CPU ${quick}`));
    // Slack retries the event (and may give the retry a new event id): the same message, once.
    await harness.send(eventOf(alert), { retryNum: 1 });
    await harness.send(eventOf(alert), { retryNum: 2, eventId: 'Ev0RETRIEDNEW' });
    const [answer] = await harness.waitForOutcome(WATCHED, alert.ts);
    expect(harness.visibleText(answer as never)).toContain('a deploy at 09:58 did it');
    expect(harness.sim.runs()).toHaveLength(1);
    const [run] = harness.sim.runs();
    expect(run?.prompts[0]).not.toContain('Checkout CPU');
    expect(run?.contexts[0]?.additionalContext).toContain('Alert: Alert: Checkout CPU');
    const context = run?.contexts[0]?.additionalContext ?? '';
    expect(context).toContain('[FIRING:1] Checkout CPU');
    expect(context).toContain('Value: 97.3 (threshold 90) for 5m');
    expect(context).toContain('Grafana (integration)');
    const alertMs = Math.floor(Number(alert.ts) * 1000);
    expect(Date.parse(run?.contexts[0]?.timerange?.startTime ?? '')).toBe(
      Math.floor((alertMs - 3_600_000) / 1000) * 1000,
    );
    // No card: the integration's post is the thread's root.
    expect(
      harness.slack.messages(WATCHED).filter((m) => m.user === DEFAULT_BOT_USER_ID && !m.thread_ts),
    ).toEqual([]);
  });

  it("investigates an app's post with blocks only (bot_id, no subtype)", async () => {
    await command('channel investigate on');
    const posted = await integrationPosts({
      channel: WATCHED,
      username: 'PagerDuty',
      bot_id: 'B0PAGERDUTY',
      app: { user: 'UPAGERDUTY', app_id: 'A0PAGERDUTY' },
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: `*Triggered:* Payments 5xx above 2% ${quick}` } },
        { type: 'context', elements: [{ type: 'mrkdwn', text: 'Service: payments-api' }] },
      ],
    });
    await harness.waitForOutcome(WATCHED, posted.ts);
    expect(harness.sim.runs()[0]?.contexts[0]?.additionalContext).toContain(
      'Alert: Triggered: Payments 5xx above 2%',
    );
    expect(harness.sim.runs()[0]?.contexts[0]?.additionalContext).toContain('Service: payments-api');
  });

  it('skips recoveries, replies, people and the bot itself; a repeat of the first line goes into the earlier thread', async () => {
    await command('channel investigate on');
    const first = await integrationPosts(alertMessage(WATCHED, `Disk full on db-1 ${quick}`));
    await harness.waitForOutcome(WATCHED, first.ts);
    await integrationPosts({
      channel: WATCHED,
      username: 'Grafana',
      bot_id: 'B0GRAFANA',
      attachments: [{ title: '[RESOLVED] Disk full on db-1', text: 'back to normal' }],
    });
    await integrationPosts({ channel: WATCHED, text: 'Recovered: Queue depth', bot_id: 'B0DATADOG' });
    await integrationPosts({ channel: WATCHED, text: `still failing ${quick}`, thread_ts: first.ts });
    const person = harness.slack.recordUserMessage({
      channel: WATCHED,
      user: 'UALICE',
      text: `CPU high? ${quick}`,
    });
    await harness.send(eventOf(person));
    const repeat = await integrationPosts(alertMessage(WATCHED, `Disk full on db-1 ${quick}`));
    const firedAgain = await harness.slack.waitFor(() =>
      harness
        .botMessages(WATCHED, first.ts)
        .find((m) => /fired again at \d\d:\d\d UTC/.test(harness.visibleText(m as never))),
    );
    expect(firedAgain.thread_ts).toBe(first.ts);
    expect(harness.slack.messages(WATCHED, repeat.ts)).toHaveLength(1);
    // The positive signal: a new alert after all of them is the second and last run.
    const next = await integrationPosts(alertMessage(WATCHED, `Memory high on db-2 ${quick}`));
    await harness.waitForOutcome(WATCHED, next.ts);
    expect(harness.sim.runs().map((run) => run.prompts[0]?.slice(0, 50))).toHaveLength(2);
  });

  it('investigates nothing once switched off, nor in channels never switched on', async () => {
    await command('channel investigate on', 'C0STILL');
    await command('channel investigate off');
    await integrationPosts(alertMessage(WATCHED, `Off alert ${quick}`));
    await integrationPosts(alertMessage('C0NEVER', `Never alert ${quick}`));
    const still = await integrationPosts(alertMessage('C0STILL', `Still watched ${quick}`));
    await harness.waitForOutcome('C0STILL', still.ts);
    expect(harness.sim.runs()).toHaveLength(1);
    expect(harness.sim.runs()[0]?.contexts[0]?.additionalContext).toContain('Still watched');
  });
});
