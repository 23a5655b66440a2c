import { App, LogLevel, SocketModeReceiver } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  appMentionEvent,
  eventCallback,
  type SlackStandin,
  slashCommandFields,
  startSlackStandin,
  TEST_APP_TOKEN,
  TEST_BOT_TOKEN,
} from '../../dev/slack-standin/index.js';

let standin: SlackStandin;
let app: App | undefined;

beforeEach(async () => {
  standin = await startSlackStandin();
});
afterEach(async () => {
  await app?.stop();
  app = undefined;
  await standin.close();
});

/** A Bolt app in Socket Mode pointed at the stand-in, configured the way the bot is. */
function socketModeApp(): App {
  return new App({
    token: TEST_BOT_TOKEN,
    appToken: TEST_APP_TOKEN,
    socketMode: true,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: standin.apiUrl },
    // SocketModeReceiver builds its own Web client for apps.connections.open from these options.
    installerOptions: { clientOptions: { slackApiUrl: standin.apiUrl } },
  });
}

describe('Socket Mode stand-in', () => {
  it('hands out a ws URL for an app token only', async () => {
    const call = (token: string) =>
      fetch(`${standin.apiUrl}apps.connections.open`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      }).then((r) => r.json() as Promise<Record<string, unknown>>);
    expect((await call(TEST_APP_TOKEN)).url).toMatch(
      /^ws:\/\/127\.0\.0\.1:\d+\/socket\?ticket=\w+&app_id=A0APP$/,
    );
    expect(await call(TEST_BOT_TOKEN)).toMatchObject({ ok: false, error: 'not_allowed_token_type' });
  });

  it('connects a real Bolt app, which acks events and runs its listener', async () => {
    app = socketModeApp();
    const seen: string[] = [];
    app.event('app_mention', async ({ event, say }) => {
      seen.push(event.text);
      await say({ text: 'on it', thread_ts: event.ts });
    });
    await app.start();
    await standin.socket.waitForConnection();
    expect(standin.socket.connected()).toBe(true);

    const mention = appMentionEvent({ channel: 'C1', text: 'how many errors?' });
    const ack = await standin.socket.send({ type: 'events_api', payload: eventCallback(mention) });
    expect(ack.envelope_id).toMatch(/[0-9a-f-]{36}/);
    const reply = await standin.waitFor(() => standin.messages('C1', mention.ts)[0], {
      description: 'the reply in the thread',
    });
    expect(reply.text).toBe('on it');
    expect(seen).toEqual(['<@UBOT> how many errors?']);
  });

  it('returns the payload a slash command is acked with', async () => {
    app = socketModeApp();
    app.command('/agent', async ({ ack }) => {
      await ack({ response_type: 'ephemeral', text: 'help text' });
    });
    await app.start();
    await standin.socket.waitForConnection();
    const ack = await standin.socket.send({
      type: 'slash_commands',
      payload: slashCommandFields({ text: 'help' }),
    });
    expect(ack.payload).toMatchObject({ text: 'help text' });
  });

  it('gets an ack from Bolt even for an event nobody listens to', async () => {
    app = socketModeApp();
    await app.start();
    await standin.socket.waitForConnection();
    const ack = await standin.socket.send({
      type: 'events_api',
      payload: eventCallback({ type: 'unknown_thing' }),
    });
    expect(ack.envelope_id).toBeTruthy();
  });

  it('rejects a send with no client, and one that is never acked', async () => {
    await expect(standin.socket.send({ type: 'events_api', payload: {} })).rejects.toThrow(
      /no Socket Mode client/,
    );
    const open = await fetch(`${standin.apiUrl}apps.connections.open`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_APP_TOKEN}` },
    }).then((r) => r.json() as Promise<{ url: string }>);
    const silent = new WebSocket(open.url);
    const hello = await new Promise<string>((resolve) =>
      silent.once('message', (data) => resolve(String(data))),
    );
    expect(JSON.parse(hello)).toMatchObject({ type: 'hello', num_connections: 1 });
    await expect(
      standin.socket.send({ type: 'events_api', payload: {} }, { timeoutMs: 100 }),
    ).rejects.toThrow(/no ack/);
    silent.close();
  });

  it('refuses a WebSocket without a valid single-use ticket', async () => {
    const open = await fetch(`${standin.apiUrl}apps.connections.open`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_APP_TOKEN}` },
    }).then((r) => r.json() as Promise<{ url: string }>);
    const first = await connectOutcome(open.url);
    const reused = await connectOutcome(open.url);
    expect([first, reused]).toEqual(['open', 'error']);
  });

  it('lets the client reconnect after a disconnect message', async () => {
    const receiver = new SocketModeReceiver({
      appToken: TEST_APP_TOKEN,
      logLevel: LogLevel.ERROR,
      clientPingTimeout: 300, // also the reconnect delay
      installerOptions: { clientOptions: { slackApiUrl: standin.apiUrl } },
    });
    app = new App({ token: TEST_BOT_TOKEN, receiver, clientOptions: { slackApiUrl: standin.apiUrl } });
    await app.start();
    await standin.socket.waitForConnection();
    standin.socket.requestReconnect();
    await standin.waitFor(
      () => standin.callCount('apps.connections.open') === 2 && standin.socket.connected(),
      {
        description: 'a second connection',
      },
    );
    const ack = await standin.socket.send({ type: 'events_api', payload: eventCallback({ type: 'x' }) });
    expect(ack.envelope_id).toBeTruthy();
  });
});

function connectOutcome(url: string): Promise<'open' | 'error'> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('error', () => resolve('error'));
  });
}
