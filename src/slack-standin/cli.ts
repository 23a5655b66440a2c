/**
 * Runs the Slack stand-in on its own: `npm run slack-standin -- [--port 3100] [--host 127.0.0.1]
 * [--public-url URL] [--events-url URL …] [--signing-secret S] [--ask-every-ms N]`.
 * With `--events-url` (repeatable) and `--ask-every-ms`, a person keeps mentioning the bot and the
 * events go to those bots in turn (compose's sandbox profile runs two replicas this way). Prints its
 * URLs and every answer; SIGINT/SIGTERM close it.
 */
import { parseArgs } from 'node:util';
import { startDemoAsker } from './demo-asker.js';
import { startSlackStandin, TEST_APP_TOKEN, TEST_BOT_TOKEN } from './index.js';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

function nonNegativeInt(name: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) fail(`--${name} must be a non-negative integer, not "${raw}"`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '3100' },
      host: { type: 'string', default: '127.0.0.1' },
      'public-url': { type: 'string' },
      'events-url': { type: 'string', multiple: true, default: [] },
      'signing-secret': { type: 'string' },
      'ask-every-ms': { type: 'string', default: '0' },
    },
  });
  const askEveryMs = nonNegativeInt('ask-every-ms', values['ask-every-ms']);
  const eventsUrls = values['events-url'];
  const signingSecret = values['signing-secret'];
  if (askEveryMs > 0 && eventsUrls.length === 0) fail('--ask-every-ms needs at least one --events-url');
  if (eventsUrls.length > 0 && !signingSecret)
    fail('--events-url needs --signing-secret (the bots check it)');

  const slack = await startSlackStandin({
    host: values.host,
    port: nonNegativeInt('port', values.port),
    ...(values['public-url'] ? { publicUrl: values['public-url'] } : {}),
  });
  const print = (line: string) => process.stdout.write(`${line}\n`);
  print(`Slack stand-in listening on ${slack.url}`);
  print(`  SLACK_API_URL=${slack.apiUrl}`);
  print(
    `  accepts any bot token starting xoxb- (e.g. ${TEST_BOT_TOKEN}), app token xapp- (e.g. ${TEST_APP_TOKEN})`,
  );
  print(`  team ${slack.teamId}, bot user ${slack.botUserId}, people UALICE, UBOB, admin UADMIN`);
  const asker =
    askEveryMs > 0 && signingSecret
      ? startDemoAsker({ slack, eventsUrls, signingSecret, everyMs: askEveryMs, print })
      : undefined;
  if (asker) print(`asking every ${askEveryMs} ms, events to ${eventsUrls.join(', ')}`);

  const stop = () => {
    asker?.stop();
    slack.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`Slack stand-in failed to start: ${String(error)}\n`);
  process.exit(1);
});
