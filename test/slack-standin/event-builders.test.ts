import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, LogLevel, verifySlackRequest } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SlackStandin, startSlackStandin, TEST_BOT_TOKEN } from '../../dev/slack-standin/index.js';
import {
  appMentionEvent,
  eventCallback,
  messageEvent,
  nextTs,
  postEvent,
  postInteraction,
  postSlashCommand,
  reactionAddedEvent,
  signSlackRequest,
} from '../support/slack-events.js';

const SIGNING_SECRET = 'test-signing-secret';

describe('real-shaped payloads for shared channels and Grid', () => {
  it("a Slack Connect envelope names the channel creator's workspace, its authorizations the app's", () => {
    const body = eventCallback(messageEvent({ team: 'T0OTHERORG' }), {
      teamId: 'T0OTHERORG',
      enterpriseId: 'E0OTHER',
      appTeamId: 'T0TEST',
      appEnterpriseId: 'E0ORG',
      isExtSharedChannel: true,
    });
    expect(body).toMatchObject({
      team_id: 'T0OTHERORG',
      enterprise_id: 'E0OTHER',
      context_team_id: 'T0TEST',
      context_enterprise_id: 'E0ORG',
      is_ext_shared_channel: true,
      authorizations: [{ team_id: 'T0TEST', enterprise_id: 'E0ORG', user_id: 'UBOT', is_bot: true }],
      event: { team: 'T0OTHERORG', user_team: 'T0OTHERORG', source_team: 'T0OTHERORG' },
    });
  });

  it('a message can name no workspace at all, like some file shares and broadcasts', () => {
    const event = messageEvent({ team: null, subtype: 'thread_broadcast', thread_ts: '1.000001' });
    expect(event).not.toHaveProperty('team');
    expect(event).not.toHaveProperty('user_team');
    expect(event).not.toHaveProperty('source_team');
    expect(appMentionEvent({ team: 'T1', user_team: 'T2' })).toMatchObject({
      team: 'T1',
      user_team: 'T2',
      source_team: 'T2',
    });
  });
});

describe('signSlackRequest', () => {
  it("matches Slack's documented example", () => {
    // https://docs.slack.dev/authentication/verifying-requests-from-slack (worked example)
    const body =
      'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
    const headers = signSlackRequest('8f742231b10e8888abcd99yyyzzz85a5', body, 1531420618);
    expect(headers['x-slack-signature']).toBe(
      'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
    );
    expect(headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it("passes Bolt's own verification, and a tampered body does not", () => {
    const body = JSON.stringify(eventCallback(appMentionEvent({ text: 'hi' })));
    const h = signSlackRequest(SIGNING_SECRET, body);
    const headers = {
      'x-slack-signature': h['x-slack-signature'],
      'x-slack-request-timestamp': Number(h['x-slack-request-timestamp']),
    };
    expect(() => verifySlackRequest({ signingSecret: SIGNING_SECRET, body, headers })).not.toThrow();
    expect(() => verifySlackRequest({ signingSecret: SIGNING_SECRET, body: `${body} `, headers })).toThrow();
    expect(h['content-type']).toBe('application/json');
  });
});

describe('event builders', () => {
  it('give realistic, increasing timestamps and envelopes', () => {
    const a = nextTs();
    const b = nextTs();
    expect(a).toMatch(/^\d{10}\.\d{6}$/);
    expect(Number(b)).toBeGreaterThan(Number(a));
    const body = eventCallback(messageEvent({ channel: 'D123', text: 'dm' }), { eventId: 'Ev0SAME' });
    expect(body).toMatchObject({
      type: 'event_callback',
      event_id: 'Ev0SAME',
      team_id: 'T0TEST',
      authorizations: [{ team_id: 'T0TEST', user_id: 'UBOT', is_bot: true }],
      event: { type: 'message', channel: 'D123', channel_type: 'im', user: 'UALICE', text: 'dm' },
    });
    expect(messageEvent({ files: [{ id: 'F1' }] })).toMatchObject({ subtype: 'file_share' });
    expect(reactionAddedEvent({ ts: a })).toMatchObject({
      item: { type: 'message', ts: a },
      item_user: 'UBOT',
    });
  });
});

describe('posting to a real Bolt app over HTTP', () => {
  let standin: SlackStandin;
  let app: App;
  let appUrl: string;

  beforeEach(async () => {
    standin = await startSlackStandin();
    app = new App({
      token: TEST_BOT_TOKEN,
      signingSecret: SIGNING_SECRET,
      logLevel: LogLevel.ERROR,
      clientOptions: { slackApiUrl: standin.apiUrl },
    });
    const server = (await app.start(0)) as Server;
    appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    await app.stop();
    await standin.close();
  });

  it('delivers signed events, with retry headers Bolt reads', async () => {
    const seen: { text: string; retryNum: number | undefined }[] = [];
    app.event('app_mention', async ({ event, context }) => {
      seen.push({ text: event.text, retryNum: context.retryNum });
    });
    const body = eventCallback(appMentionEvent({ text: 'first' }));
    const first = await postEvent(appUrl, SIGNING_SECRET, body);
    const retry = await postEvent(appUrl, SIGNING_SECRET, body, { retryNum: 1, retryReason: 'http_timeout' });
    expect([first.status, retry.status]).toEqual([200, 200]);
    expect(first.ms).toBeLessThan(3000);
    await standin.waitFor(() => seen.length === 2);
    expect(seen).toEqual([
      { text: '<@UBOT> first', retryNum: undefined },
      { text: '<@UBOT> first', retryNum: 1 },
    ]);
    const forged = await postEvent(appUrl, 'wrong-secret', body);
    expect(forged.status).toBe(401);
  });

  it('delivers slash commands whose response_url reaches the stand-in', async () => {
    app.command('/agent', async ({ ack, command, respond }) => {
      await ack();
      await respond({ response_type: 'ephemeral', text: `you said ${command.text} as ${command.user_id}` });
    });
    const result = await postSlashCommand(appUrl, SIGNING_SECRET, {
      text: 'help',
      user_id: 'UADMIN',
      response_url: standin.responseUrl('cmd'),
    });
    expect(result.status).toBe(200);
    const [response] = await standin.waitFor(
      () => standin.responses('cmd').length > 0 && standin.responses('cmd'),
    );
    expect(response).toMatchObject({ response_type: 'ephemeral', text: 'you said help as UADMIN' });
  });

  it('delivers interactions as a form-encoded payload', async () => {
    const clicked: string[] = [];
    app.action('feedback', async ({ ack, action }) => {
      await ack();
      clicked.push((action as { value: string }).value);
    });
    const result = await postInteraction(appUrl, SIGNING_SECRET, {
      type: 'block_actions',
      user: { id: 'UALICE', team_id: 'T0TEST' },
      team: { id: 'T0TEST' },
      api_app_id: 'A0APP',
      trigger_id: '1.2.abc',
      channel: { id: 'C1' },
      container: { type: 'message', channel_id: 'C1', message_ts: nextTs() },
      actions: [{ type: 'button', action_id: 'feedback', block_id: 'b', value: 'good', action_ts: nextTs() }],
    });
    expect(result.status).toBe(200);
    await standin.waitFor(() => clicked.length === 1);
    expect(clicked).toEqual(['good']);
  });
});
