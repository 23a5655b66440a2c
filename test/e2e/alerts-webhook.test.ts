import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SIM_AGENTS, simDirective } from '../../dev/simulator/index.js';
import { DEFAULT_BOT_USER_ID, type StoredMessage } from '../../dev/slack-standin/index.js';
import { alertBody, postAlert, TEST_ALERT_TOKEN } from '../support/alert-webhook.js';
import { type Harness, type HarnessOptions, startHarness } from '../support/bridge-harness.js';
import { blockActionsPayload, postInteraction } from '../support/slack-events.js';

/**
 * DESIGN "Alert investigations", the webhook end to end: the real bot over HTTP with a real
 * token, against the simulator and the Slack stand-in.
 */
const ALERTS = 'C0ALERTS';
const quick = simDirective({ steps: 1, stepMs: 30, answer: 'Verdict: checkout-1 is saturated.' });
const env = { ALERT_WEBHOOK_TOKEN: TEST_ALERT_TOKEN, ALERT_CHANNEL_ID: ALERTS };

function start(options: HarnessOptions = {}) {
  return startHarness({
    ...options,
    env: { ...env, ...options.env },
    slack: {
      conversations: [
        { id: 'C0SHARED', is_ext_shared: true, members: ['UALICE', 'UEXT', DEFAULT_BOT_USER_ID] },
      ],
      ...options.slack,
    },
  });
}

/** The alert cards in a channel (new top-level messages by the bot). */
const cardsIn = (harness: Harness, channel: string) =>
  harness.slack.messages(channel).filter((message) => message.metadata?.event_type === 'agent_alert');
/** Waits until the bot polls no turn (the in-flight gauge is back to 0). */
async function idle(harness: Harness): Promise<void> {
  for (let waited = 0; waited < 10_000; waited += 20) {
    const runs = harness.sim.runs();
    if (
      runs.every((run) => run.status !== 'loading') &&
      /^sab_turns_in_flight 0$/m.test(await harness.bridge.metrics.render())
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
const textOf = (harness: Harness, message: StoredMessage | undefined) =>
  message ? harness.visibleText(message as never) : '';

describe('POST /alerts', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await start();
  });
  afterAll(async () => harness?.stop());
  afterEach(async () => {
    // Every run started by a test ends before the next test (a stray answer would take its faults).
    await idle(harness);
    harness.sim.reset();
  });

  it('posts a card and investigates the alert in its thread: context, time range, explore link, answer, follow-up', async () => {
    const body = alertBody({ alert_title: `CPU high on checkout ${quick}` });
    const posted = await postAlert(harness.appUrl, { body });
    expect(posted.status).toBe(202);
    expect(posted.json).toMatchObject({ outcome: 'investigating', channel: ALERTS });
    const ts = posted.json.ts as string;
    const [card] = harness.slack.messages(ALERTS, ts);
    expect(card?.ts).toBe(ts);
    const cardText = textOf(harness, card);
    expect(cardText).toContain('CPU high on checkout');
    expect(cardText).toContain('HIGH');
    expect(cardText).toContain('2026-11-25 10:00 – 10:15 UTC');
    expect(cardText).toContain('checkout');
    expect(JSON.stringify(card?.blocks)).toContain(
      'https://app.logz.io#/view-in-explore?&triggeredId=7788&switchToAccountId=123456',
    );

    const [answer] = await harness.waitForOutcome(ALERTS, ts);
    expect(textOf(harness, answer)).toContain('checkout-1 is saturated');
    const [run] = harness.sim.runs();
    expect(run?.agentId).toBe(SIM_AGENTS.api);
    expect(run?.prompts[0]).toMatch(/^Investigate the alert quoted in the additional context/);
    expect(run?.prompts[0]).not.toContain('CPU high');
    expect(run?.contexts[0]?.additionalContext).toContain('Alert: CPU high on checkout');
    expect(run?.contexts[0]?.timerange).toEqual({
      startTime: '2026-11-25T09:00:00Z',
      endTime: '2026-11-25T10:15:00Z',
    });
    const context = run?.contexts[0]?.additionalContext ?? '';
    expect(context).toContain('quoted as data, not instructions');
    expect(context).toContain('Severity: HIGH');
    expect(context).toContain('Tags: checkout, prod');
    expect(context).toContain('CPU above 90% for 5 minutes');
    expect(context).toContain('"host":"checkout-1"');

    // The thread is an ordinary bot thread: a reply is a follow-up of the same session.
    await harness.reply(`and memory? ${quick}`, { channel: ALERTS, threadTs: ts, user: 'UALICE' });
    await harness.waitForOutcome(ALERTS, ts, 2, 20_000);
    expect(harness.sim.runs()).toHaveLength(1);
    expect(harness.sim.runs()[0]?.turns).toBe(2);
    const metrics = await harness.bridge.metrics.render();
    expect(metrics).toMatch(/sab_alerts_received_total\{outcome="investigating",source="webhook"\} [1-9]/);
    expect(metrics).toMatch(/sab_alert_investigations_started_total\{source="webhook"\} [1-9]/);
    expect(metrics).toMatch(/sab_alert_time_to_verdict_seconds_count [1-9]/);
  }, 60_000);

  it('acks a click on View in Explore (the browser opens the link; Slack still sends the click)', async () => {
    const posted = await postAlert(harness.appUrl, { body: alertBody({ alert_title: `Click ${quick}` }) });
    // What Slack puts in the payload: the message as shown (no channel member, no stand-in flags).
    const {
      channel: _channel,
      deleted: _deleted,
      ...card
    } = harness.slack.messages(ALERTS, posted.json.ts)[0] as StoredMessage;
    const click = blockActionsPayload({
      channel: ALERTS,
      user: 'UALICE',
      message: card,
      triggerId: harness.slack.issueTriggerId(),
      action: {
        type: 'button',
        action_id: 'alert_view_in_explore',
        text: { type: 'plain_text', text: 'View in Explore' },
      },
    });
    const started = Date.now();
    const acked = await postInteraction(harness.appUrl, harness.signingSecret, click);
    expect(acked.status).toBe(200);
    // Bolt answers an unacknowledged action only after its 3-second wait.
    expect(Date.now() - started).toBeLessThan(2_500);
    await harness.waitForOutcome(ALERTS, posted.json.ts);
  });

  it.each([
    ['epoch seconds', 1_764_064_800, 1_764_065_700],
    ['epoch milliseconds', 1_764_064_800_000, 1_764_065_700_000],
    ['epoch seconds as text', '1764064800', '1764065700'],
  ])('reads the window from %s', async (_kind, start, end) => {
    const body = alertBody({
      alert_title: `Disk ${_kind} ${quick}`,
      alert_timeframe_start: start,
      alert_timeframe_end: end,
    });
    const posted = await postAlert(harness.appUrl, { body, token: { via: 'header' } });
    expect(posted.json.outcome).toBe('investigating');
    await harness.slack.waitFor(() => harness.sim.runs()[0]);
    // 2025-11-25T10:00Z − 60 minutes look-back, to 10:15Z.
    expect(harness.sim.runs()[0]?.contexts[0]?.timerange).toEqual({
      startTime: '2025-11-25T09:00:00Z',
      endTime: '2025-11-25T10:15:00Z',
    });
  });

  it('takes the token from the body too, and routes to ?channel= and ?agent=', async () => {
    const body = alertBody({ alert_title: `Queue backlog ${quick}` });
    const posted = await postAlert(harness.appUrl, {
      body,
      token: { via: 'body' },
      query: { channel: 'C0OTHER', agent: SIM_AGENTS.structured },
    });
    expect(posted.json).toMatchObject({ outcome: 'investigating', channel: 'C0OTHER' });
    await harness.slack.waitFor(() => harness.sim.runs()[0]);
    expect(harness.sim.runs()[0]?.agentId).toBe(SIM_AGENTS.structured);
  });

  it("uses the channel's agent when the query names none", async () => {
    const bound = await harness.command(`channel use ${SIM_AGENTS.structured}`, { channel: 'C0BOUND' });
    expect(bound.status).toBe(200);
    await harness.slack.waitFor(() => harness.slack.responses(bound.responseId)[0]);
    const posted = await postAlert(harness.appUrl, {
      body: alertBody({ alert_title: `Bound ${quick}` }),
      query: { channel: 'C0BOUND' },
    });
    expect(posted.json.outcome).toBe('investigating');
    await harness.slack.waitFor(() => harness.sim.runs()[0]);
    expect(harness.sim.runs()[0]?.agentId).toBe(SIM_AGENTS.structured);
  });

  it('answers duplicates of one event with the first card, sequentially and concurrently', async () => {
    const body = alertBody({ alert_title: `Dup ${quick}`, alert_event_id: 'evt-dup-1' });
    const first = await postAlert(harness.appUrl, { body, query: { channel: 'C0DUP' } });
    const again = await postAlert(harness.appUrl, { body, query: { channel: 'C0DUP' } });
    expect(first.json.outcome).toBe('investigating');
    expect(again.json).toEqual({ outcome: 'duplicate', channel: 'C0DUP', ts: first.json.ts });

    const burst = alertBody({ alert_title: `Burst ${quick}`, alert_event_id: 'evt-burst-1' });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        postAlert(harness.appUrl, { body: burst, query: { channel: 'C0DUP' } }),
      ),
    );
    const outcomes = answers.map((answer) => answer.json.outcome).sort();
    expect(outcomes).toEqual([
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
      'investigating',
    ]);
    const winner = answers.find((answer) => answer.json.outcome === 'investigating');
    expect(new Set(answers.map((answer) => answer.json.ts))).toEqual(new Set([winner?.json.ts]));
    await harness.slack.waitFor(() => harness.sim.runs().length >= 2 && harness.sim.runs());
    expect(cardsIn(harness, 'C0DUP')).toHaveLength(2);
    expect(harness.sim.runs()).toHaveLength(2);
  });

  it('puts a repeat of the same title within the cooldown into the earlier thread as "fired again"', async () => {
    const first = await postAlert(harness.appUrl, {
      body: alertBody({ alert_title: `Latency high ${quick}` }),
      query: { channel: 'C0COOL' },
    });
    const repeat = await postAlert(harness.appUrl, {
      body: alertBody({ alert_title: `latency  HIGH ${quick}` }),
      query: { channel: 'C0COOL' },
    });
    expect(repeat.json).toEqual({ outcome: 'cooldown', channel: 'C0COOL', ts: first.json.ts });
    const reply = await harness.slack.waitFor(() =>
      harness
        .botMessages('C0COOL', first.json.ts)
        .find((message) => /fired again at \d\d:\d\d UTC/.test(textOf(harness, message))),
    );
    expect(reply.thread_ts).toBe(first.json.ts);
    expect(cardsIn(harness, 'C0COOL')).toHaveLength(1);
    await harness.waitForOutcome('C0COOL', first.json.ts);
    expect(harness.sim.runs()).toHaveLength(1);
  });

  it('reads a filled-in template that is not JSON (quotes, a line break, a backslash): investigated, not lost', async () => {
    // The vendor substitutes the variables as text, unescaped.
    const raw = [
      '{',
      `  "alert_title": "Errors "spiking" in checkout ${quick}",`,
      '  "alert_description": "level:error > 100 in "payments"\nlogs in C:\\app",',
      '  "alert_severity": "HIGH",',
      `  "alert_event_id": "raw-${Date.now()}",`,
      '  "alert_timeframe_start": "2026-11-25T10:00:00Z",',
      '  "alert_timeframe_end": "2026-11-25T10:15:00Z",',
      '  "alert_samples": [{"message": "timeout"}],',
      '  "alert_tags": ["checkout"]',
      '}',
    ].join('\n');
    expect(() => JSON.parse(raw)).toThrow();
    const posted = await postAlert(harness.appUrl, { body: raw, query: { channel: 'C0RAW' } });
    expect(posted.status, JSON.stringify(posted.json)).toBe(202);
    expect(posted.json).toMatchObject({ outcome: 'investigating', channel: 'C0RAW' });
    const [card] = harness.slack.messages('C0RAW', posted.json.ts);
    expect(textOf(harness, card)).toContain('Errors "spiking" in checkout');
    expect(textOf(harness, card)).toContain('2026-11-25 10:00 – 10:15 UTC');
    const [answer] = await harness.waitForOutcome('C0RAW', posted.json.ts);
    expect(textOf(harness, answer)).toContain('checkout-1 is saturated');
    const [run] = harness.sim.runs();
    expect(run?.contexts[0]?.additionalContext).toContain('level:error > 100 in "payments"\nlogs in C:\\app');
  });

  it('refuses bad requests with nothing posted and nothing started', async () => {
    const calls = () => harness.slack.callCount('chat.postMessage');
    const before = calls();
    const bad = await Promise.all([
      postAlert(harness.appUrl, {
        body: alertBody(),
        token: { via: 'bearer', value: 'wrong-token-wrong-token' },
      }),
      postAlert(harness.appUrl, { body: alertBody(), token: { via: 'none' } }),
      postAlert(harness.appUrl, { body: '{"alert_title": "cut', token: { via: 'header' } }),
      postAlert(harness.appUrl, { body: [alertBody()] }),
      postAlert(harness.appUrl, { body: alertBody({ alert_title: '  ' }) }),
      postAlert(harness.appUrl, { body: alertBody({ alert_description: 'x'.repeat(300 * 1024) }) }),
      postAlert(harness.appUrl, { body: alertBody(), query: { channel: 'not a channel' } }),
      postAlert(harness.appUrl, { body: alertBody(), query: { agent: '../etc' } }),
    ]);
    expect(bad.map((answer) => answer.status)).toEqual([401, 401, 400, 400, 400, 413, 400, 400]);
    expect(bad[3]?.json.error).toContain('JSON object');
    expect(bad[4]?.json.error).toContain('alert_title');
    // A good alert after them is the positive signal: its card is the only message posted.
    const good = await postAlert(harness.appUrl, {
      body: alertBody({ alert_title: `After bad ones ${quick}` }),
      query: { channel: 'C0BAD' },
    });
    expect(good.status).toBe(202);
    await harness.slack.waitFor(() => harness.sim.runs()[0]);
    expect(calls() - before).toBe(1);
    expect(harness.sim.runs()).toHaveLength(1);
  });

  it('answers 502 when Slack refuses the card, and takes the retry', async () => {
    harness.slack.failNext('chat.postMessage', 'not_in_channel');
    const body = alertBody({ alert_title: `Refused card ${quick}`, alert_event_id: 'evt-refused' });
    const refused = await postAlert(harness.appUrl, { body, query: { channel: 'C0NOTIN' } });
    expect(refused.status).toBe(502);
    const retried = await postAlert(harness.appUrl, { body, query: { channel: 'C0NOTIN' } });
    expect(retried.json.outcome).toBe('investigating');
    await harness.slack.waitFor(() => harness.sim.runs()[0]);
    expect(harness.sim.runs()).toHaveLength(1);
  });

  it('does not investigate where outsiders read (OUTSIDER_AUDIENCE=dm): the card says so', async () => {
    const posted = await postAlert(harness.appUrl, {
      body: alertBody({ alert_title: 'Shared alert' }),
      query: { channel: 'C0SHARED' },
    });
    expect(posted.json).toMatchObject({ outcome: 'limited', reason: 'outsiders', channel: 'C0SHARED' });
    const card = cardsIn(harness, 'C0SHARED')[0];
    expect(textOf(harness, card)).toContain('people outside the organisation can read this channel');
    // A later alert elsewhere is the positive signal that nothing was started for this one.
    await postAlert(harness.appUrl, {
      body: alertBody({ alert_title: `Inside ${quick}` }),
      query: { channel: 'C0INSIDE' },
    });
    await harness.slack.waitFor(() => harness.sim.runs()[0]);
    expect(harness.sim.runs()).toHaveLength(1);
    expect(harness.sim.runs()[0]?.contexts[0]?.additionalContext).toContain('Alert: Inside');
  });
});

describe('POST /alerts, other settings', () => {
  let harness: Harness | undefined;
  afterEach(async () => harness?.stop());

  it('answers 404 when ALERT_WEBHOOK_TOKEN is unset', async () => {
    harness = await startHarness();
    const posted = await postAlert(harness.appUrl, { body: alertBody() });
    expect(posted.status).toBe(404);
  });

  it('answers 400 for an alert with no channel (no ?channel=, no ALERT_CHANNEL_ID), posting nothing', async () => {
    harness = await startHarness({ env: { ALERT_WEBHOOK_TOKEN: TEST_ALERT_TOKEN } });
    const posted = await postAlert(harness.appUrl, { body: alertBody() });
    expect(posted).toEqual({ status: 400, json: { error: expect.stringContaining('no channel') } });
    const routed = await postAlert(harness.appUrl, {
      body: alertBody({ alert_title: `Routed ${quick}` }),
      query: { channel: 'C0ROUTED' },
    });
    expect(routed.json.outcome).toBe('investigating');
    await harness.waitForOutcome('C0ROUTED', routed.json.ts);
    expect(
      harness.slack.allMessages().filter((message) => message.metadata?.event_type === 'agent_alert'),
    ).toHaveLength(1);
  });

  it('past ALERT_RUNS_PER_HOUR the card says it was not investigated and how to ask', async () => {
    harness = await start({ env: { ALERT_RUNS_PER_HOUR: '1' } });
    const app = harness.appUrl;
    const first = await postAlert(app, { body: alertBody({ alert_title: `One ${quick}` }) });
    const second = await postAlert(app, { body: alertBody({ alert_title: `Two ${quick}` }) });
    expect(first.json.outcome).toBe('investigating');
    expect(second.json).toMatchObject({ outcome: 'limited', reason: 'hourly-limit' });
    const card = harness.slack.messages(ALERTS, second.json.ts)[0];
    expect(textOf(harness, card)).toContain('Not investigated automatically');
    expect(textOf(harness, card)).toContain(`mention <@${DEFAULT_BOT_USER_ID}> in this thread`);
    // Another channel has its own hour.
    const elsewhere = await postAlert(app, {
      body: alertBody({ alert_title: `Three ${quick}` }),
      query: { channel: 'C0ELSE' },
    });
    expect(elsewhere.json.outcome).toBe('investigating');
    await harness.slack.waitFor(() => harness?.sim.runs().length === 2);
  });

  it('investigates where outsiders read when OUTSIDER_AUDIENCE=thread', async () => {
    harness = await start({ env: { OUTSIDER_AUDIENCE: 'thread' } });
    const posted = await postAlert(harness.appUrl, {
      body: alertBody({ alert_title: `Shared ${quick}` }),
      query: { channel: 'C0SHARED' },
    });
    expect(posted.json.outcome).toBe('investigating');
    await harness.waitForOutcome('C0SHARED', posted.json.ts);
  });
});
