import { afterEach, describe, expect, it } from 'vitest';
import { SIM_AGENTS, simDirective } from '../../dev/simulator/index.js';
import {
  alertMessage,
  appContextChangedEvent,
  DEFAULT_BOT_USER_ID,
  dmMessageViewing,
  type ViewedPlaceInput,
} from '../../dev/slack-standin/index.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';

/**
 * DESIGN "What the person is looking at": a question in the agent's DM carrying `app_context`
 * (the shape @slack/types 3.2 gives it: `entities` of `slack#/types/message_context` and
 * `slack#/types/channel_id`) is prepared as if asked where the person looks — that thread as
 * context, that channel's agent, the alert lookback — when no outsider can read that place; the
 * answer stays in the DM.
 */
const quick = (answer: string) => simDirective({ steps: 1, stepMs: 30, answer });
const SHARED = 'C0SHARED';

/** Alice asks in her DM with the bot while viewing `place`. */
async function askViewing(h: Harness, text: string, place: ViewedPlaceInput) {
  const channel = h.slack.dmChannel('UALICE');
  const stored = h.slack.recordUserMessage({ channel, user: 'UALICE', text });
  await h.send(dmMessageViewing({ channel, user: 'UALICE', text, ts: stored.ts, place }));
  await h.waitForOutcome(channel, stored.ts);
  return { channel, threadTs: stored.ts };
}

describe('app context: what the person is looking at', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  it('a DM question while viewing an alert thread gets its context, its channel agent and the lookback', async () => {
    harness = await startHarness();
    const h = harness;
    await h.command(`channel use ${SIM_AGENTS.alert}`, { channel: 'C0GENERAL' });
    const alert = h.slack.recordBotMessage(alertMessage('C0GENERAL', 'CPU high on checkout'));
    await h.send(
      appContextChangedEvent({ channel: h.slack.dmChannel('UALICE'), place: { channel: 'C0GENERAL' } }),
    );

    const dm = await askViewing(h, `why is this firing? ${quick('The deploy.')}`, {
      channel: 'C0GENERAL',
      messageTs: alert.ts,
    });

    const [run] = h.sim.runs();
    expect(run?.agentId).toBe(SIM_AGENTS.alert);
    expect(run?.contexts[0]?.additionalContext).toContain('CPU high on checkout');
    const start = Date.parse(run?.contexts[0]?.timerange?.startTime ?? '');
    // ALERT_LOOKBACK_MINUTES (60) before the alert, to the second.
    expect(start).toBe(Math.floor(Number(alert.ts)) * 1000 - 60 * 60_000);
    // The answer stays in the DM; the viewed thread gets nothing.
    expect(
      h
        .botMessages(dm.channel, dm.threadTs)
        .map((m) => h.visibleText(m))
        .join(),
    ).toContain('The deploy.');
    expect(h.slack.messages('C0GENERAL', alert.ts).map((m) => m.ts)).toEqual([alert.ts]);
  });

  it('viewing a channel (no thread) gives that channel agent, with no thread context', async () => {
    harness = await startHarness();
    const h = harness;
    await h.command(`channel use ${SIM_AGENTS.alert}`, { channel: 'C0PAYMENTS' });
    await askViewing(h, `anything odd here? ${quick('No.')}`, { channel: 'C0PAYMENTS' });
    const [run] = h.sim.runs();
    expect(run?.agentId).toBe(SIM_AGENTS.alert);
    expect(run?.contexts[0]?.additionalContext).toBeUndefined();
    expect(run?.contexts[0]?.timerange).toBeUndefined();
  });

  it('viewing an outsider-readable channel gives no context: the question is answered plainly', async () => {
    harness = await startHarness({ slack: { conversations: [{ id: SHARED, is_ext_shared: true }] } });
    const h = harness;
    await h.command(`channel use ${SIM_AGENTS.alert}`, { channel: SHARED });
    const alert = h.slack.recordBotMessage(alertMessage(SHARED, 'Disk full on the shared host'));
    const dm = await askViewing(h, `what is this? ${quick('Plain answer.')}`, {
      channel: SHARED,
      messageTs: alert.ts,
    });
    const [run] = h.sim.runs();
    expect(run?.agentId).toBe(SIM_AGENTS.api);
    expect(run?.contexts[0]?.additionalContext).toBeUndefined();
    expect(run?.contexts[0]?.timerange).toBeUndefined();
    expect(
      h
        .botMessages(dm.channel, dm.threadTs)
        .map((m) => h.visibleText(m))
        .join(),
    ).toContain('Plain answer.');
  });

  it('viewing a thread the bot cannot read gives no context either', async () => {
    harness = await startHarness();
    const h = harness;
    // Slack describes the channel (the audience check passes) but will not let the bot read it.
    h.slack.failNext('conversations.replies', 'not_in_channel');
    await h.command(`channel use ${SIM_AGENTS.alert}`, { channel: 'C0SECRET' });
    const alert = h.slack.recordBotMessage(alertMessage('C0SECRET', 'Hidden alert'));
    await askViewing(h, `and this? ${quick('Plain.')}`, { channel: 'C0SECRET', messageTs: alert.ts });
    const [run] = h.sim.runs();
    expect(run?.agentId).toBe(SIM_AGENTS.api);
    expect(run?.contexts[0]?.additionalContext).toBeUndefined();
  });

  it("viewing a channel the asker is not a member of gives no context: app_context counts only for the asker's channels", async () => {
    // Bob's private channel: Alice is not in it (the bot is).
    harness = await startHarness({
      slack: { conversations: [{ id: 'C0BOBONLY', members: ['UBOB', DEFAULT_BOT_USER_ID] }] },
    });
    const h = harness;
    await h.command(`channel use ${SIM_AGENTS.alert}`, { channel: 'C0BOBONLY' });
    const alert = h.slack.recordBotMessage(alertMessage('C0BOBONLY', 'Payroll export failing for ACME'));
    const dm = await askViewing(h, `what is this? ${quick('Plain.')}`, {
      channel: 'C0BOBONLY',
      messageTs: alert.ts,
    });
    const [run] = h.sim.runs();
    expect(run?.agentId).toBe(SIM_AGENTS.api);
    expect(run?.contexts[0]?.additionalContext).toBeUndefined();
    expect(run?.contexts[0]?.timerange).toBeUndefined();
    expect(
      h.slack.calls.filter((c) => c.method === 'conversations.replies' && c.args.channel === 'C0BOBONLY'),
    ).toEqual([]);
    expect(
      h
        .botMessages(dm.channel, dm.threadTs)
        .map((m) => h.visibleText(m))
        .join(),
    ).toContain('Plain.');
  });
});
