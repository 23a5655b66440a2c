/**
 * Runs the Slack stand-in on its own: `npm run slack-standin -- [options]` (`--help` lists them).
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

/** The `--help` text. */
const USAGE = `Usage: npm run slack-standin -- [options]

Runs the Slack stand-in (the fake Slack Web API the tests and the sandbox use) on its own.
Point the bot at it with SLACK_API_URL (printed) and any bot token starting xoxb-.

Options:
  --port <n>              port to listen on (default 3100; 0: any free port)
  --host <addr>           address to listen on (default 127.0.0.1)
  --public-url <url>      the address others reach it by, if not http://host:port
  --events-url <url>      a bot's POST /slack/events (repeatable: events go to each in turn)
  --signing-secret <s>    the bots' SLACK_SIGNING_SECRET (needed with --events-url)
  --ask-every-ms <n>      a person mentions the bot every n ms (needs --events-url)
  -h, --help              this text`;

const OPTIONS = {
  port: { type: 'string', default: '3100' },
  host: { type: 'string', default: '127.0.0.1' },
  'public-url': { type: 'string' },
  'events-url': { type: 'string', multiple: true, default: [] as string[] },
  'signing-secret': { type: 'string' },
  'ask-every-ms': { type: 'string', default: '0' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** Parses the command line; a wrong option prints the usage and exits 2 (not a stack trace). */
function readArgs() {
  try {
    return parseArgs({ options: OPTIONS });
  } catch (error) {
    fail(`slack-standin: ${(error as Error).message}\n\n${USAGE}`);
  }
}

async function main(): Promise<void> {
  const { values } = readArgs();
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
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
