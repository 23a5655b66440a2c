/**
 * The baseline for ack latency: a bare Bolt app with the bot's receiver (HTTPReceiver on
 * POST /slack/events, ack before processing) and listeners that only ack. Listens on loopback,
 * port 0; prints `{"url"}` as one JSON line and sends it over IPC when started with `fork`.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, LogLevel } from '@slack/bolt';
import { BENCH_SIGNING_SECRET } from './protocol.js';

async function main(): Promise<void> {
  const receiver = new HTTPReceiver({
    signingSecret: BENCH_SIGNING_SECRET,
    endpoints: '/slack/events',
    processBeforeResponse: false,
    logLevel: LogLevel.WARN,
  });
  const app = new App({
    token: 'xoxb-bench-bare-not-a-real-token',
    receiver,
    logLevel: LogLevel.WARN,
    // Nothing to verify: no Slack is reachable, and the bot skips it at construction too.
    tokenVerificationEnabled: false,
    botId: 'B0BOT',
    botUserId: 'UBOT',
  });
  app.event('app_mention', async () => {});
  app.event('message', async () => {});
  const server = (await receiver.start({ port: 0, host: '127.0.0.1' })) as Server;
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  process.stdout.write(`${JSON.stringify({ url })}\n`);
  process.send?.({ type: 'ready', url });
  const stop = () => {
    void app.stop().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.once('disconnect', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`bare Bolt app failed to start: ${String(error)}\n`);
  process.exit(1);
});
