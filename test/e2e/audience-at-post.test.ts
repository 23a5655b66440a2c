import { afterEach, describe, expect, it } from 'vitest';
import { simDirective } from '../../dev/simulator/index.js';
import {
  channelSharedEvent,
  DEFAULT_BOT_USER_ID,
  type StoredMessage,
} from '../../dev/slack-standin/index.js';
import { alertBody, postAlert, TEST_ALERT_TOKEN } from '../support/alert-webhook.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';
import { memoryLogger } from '../support/memory-log.js';

/**
 * DESIGN "Audience at every post": who can read a conversation is judged when a turn starts and
 * again just before service data is posted. Here the channel is shared with another organisation
 * (the stand-in's `channel_shared`, which drops the cached verdict) while the agent works: the
 * asker's answer goes to their DM with one note in the thread; an alert investigation's answer is
 * not posted at all, and its thread says why. No log data lands in the shared channel either way.
 */
const SECRET = 'error rate 42% on payments-db';
const INSIDERS = ['UADMINLIST', 'UALICE', 'UBOB', DEFAULT_BOT_USER_ID];
const slow = (answer: string) => simDirective({ steps: 4, stepMs: 250, answer });

describe('audience checked again before the answer is posted', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  const textOf = (h: Harness, messages: StoredMessage[]) =>
    messages.map((message) => h.visibleText(message as never)).join('\n');

  /** Shares `channel` with another organisation and waits until the bot dropped its verdict. */
  async function shareWhileWorking(h: Harness, log: ReturnType<typeof memoryLogger>, channel: string) {
    // The run is under way (its start reached the service) before the channel changes.
    await h.slack.waitFor(() => h.sim.runs()[0]);
    expect(h.sim.runs()[0]?.status).toBe('loading');
    h.slack.setConversation({ id: channel, is_ext_shared: true, members: [...INSIDERS, 'UEXTERNAL'] });
    await h.send(channelSharedEvent(channel));
    await h.slack.waitFor(() => log.records().some((record) => record.msg === 'audience dropped'));
  }

  it("a question's answer goes to the asker's DM, with the note in the thread", async () => {
    const log = memoryLogger('debug');
    harness = await startHarness({ logger: log.logger });
    const h = harness;
    const asked = await h.mention(`why are payments failing? ${slow(SECRET)}`, { channel: 'C0LATER' });
    await shareWhileWorking(h, log, 'C0LATER');

    const dm = h.slack.dmChannel('UALICE');
    const quote = await h.slack.waitFor(() =>
      h.slack.messages(dm).find((message) => message.user === DEFAULT_BOT_USER_ID && !message.thread_ts),
    );
    const [answer] = await h.waitForOutcome(dm, quote.ts);
    expect(h.visibleText(answer as never)).toContain(SECRET);
    expect(h.visibleText(quote as never)).toContain('became readable by more people while I worked on it');
    expect(quote.text).toContain('/archives/C0LATER/');

    // The shared thread: the note (who, why), nothing of the answer.
    const inThread = h.botMessages('C0LATER', asked.threadTs);
    expect(textOf(h, inThread)).toContain("I've answered <@UALICE> in a direct message");
    expect(textOf(h, inThread)).toContain('shared with another organisation');
    const fromBot = [...h.botMessages('C0LATER', asked.threadTs), ...h.slack.messages('C0LATER')].filter(
      (message) => message.user === DEFAULT_BOT_USER_ID,
    );
    expect(fromBot.length).toBeGreaterThan(0);
    expect(JSON.stringify(fromBot)).not.toContain('42%');
    expect(fromBot.filter((message) => message.metadata?.event_type === 'agent_answer')).toEqual([]);
    // The answer's buttons and reactions find its run in the DM.
    expect(answer?.metadata?.event_payload?.turn_id).toBeDefined();
  });

  it("an alert investigation's answer is not posted in the channel; its thread says why", async () => {
    const log = memoryLogger('debug');
    harness = await startHarness({
      logger: log.logger,
      env: { ALERT_WEBHOOK_TOKEN: TEST_ALERT_TOKEN, ALERT_CHANNEL_ID: 'C0ALERTS' },
    });
    const h = harness;
    const posted = await postAlert(h.appUrl, {
      body: alertBody({ alert_title: `Payments 5xx ${slow(SECRET)}` }),
    });
    expect(posted.json.outcome).toBe('investigating');
    await shareWhileWorking(h, log, 'C0ALERTS');

    const [notice] = await h.waitForOutcome('C0ALERTS', posted.json.ts);
    expect(notice?.metadata?.event_payload?.notice).toBe('withheld');
    expect(h.visibleText(notice as never)).toContain("I haven't posted the answer here");
    expect(h.visibleText(notice as never)).toContain('shared with another organisation');
    // The card quotes the alert's title, which carries the simulator's script: everything else is checked.
    const fromBot = h
      .botMessages('C0ALERTS', posted.json.ts)
      .filter(
        (message) => message.user === DEFAULT_BOT_USER_ID && message.metadata?.event_type !== 'agent_alert',
      );
    expect(fromBot.length).toBeGreaterThan(0);
    expect(JSON.stringify(fromBot)).not.toContain('42%');
    expect(fromBot.filter((message) => message.metadata?.event_type === 'agent_answer')).toEqual([]);
    // Nobody's DM got it either: the investigation has no asker.
    expect(h.sim.runs()[0]?.status).toBe('done');
  });

  it('a late answer (past the deadline, shared during the late watch) goes to the DM too', async () => {
    const log = memoryLogger('debug');
    harness = await startHarness({
      logger: log.logger,
      env: { TURN_DEADLINE_SECONDS: '1', LATE_ANSWER_WATCH_MINUTES: '1' },
    });
    const h = harness;
    const asked = await h.mention(`slow? ${simDirective({ steps: 8, stepMs: 300, answer: SECRET })}`, {
      channel: 'C0LATE',
    });
    // The deadline notice is in the thread: the turn is in its late watch.
    await h.slack.waitFor(
      () =>
        h.botMessages('C0LATE', asked.threadTs).find((m) => m.metadata?.event_payload?.notice === 'deadline'),
      { timeoutMs: 5_000, description: 'the deadline notice' },
    );
    await shareWhileWorking(h, log, 'C0LATE');

    const dm = h.slack.dmChannel('UALICE');
    const late = await h.slack.waitFor(
      () => h.slack.allMessages().find((m) => m.channel === dm && m.metadata?.event_type === 'agent_answer'),
      { timeoutMs: 10_000, description: 'the late answer in the DM' },
    );
    expect(h.visibleText(late as never)).toContain(SECRET);
    expect(h.visibleText(late as never)).toMatch(/Late answer/);
    const inThread = h.botMessages('C0LATE', asked.threadTs);
    expect(JSON.stringify(inThread)).not.toContain('42%');
    expect(textOf(h, inThread)).toContain("I've answered <@UALICE> in a direct message");
  });
});
