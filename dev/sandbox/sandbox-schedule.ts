/**
 * `npm run sandbox:schedule -- [--now] [question]`: a scheduled question's thread, end to end on
 * loopback (DESIGN "Scheduled questions"). It starts the simulator, the Slack stand-in and the real
 * bot (startBot), adds `/agent schedule add daily <HH:MM> <question>` one minute ahead as an admin
 * in #sandbox, and prints the question the bot posts at that minute and its thread's answer.
 * `--now` moves the schedule clock (only the ticker's: runs keep real time) to that minute at
 * once, so the question is asked within one tick (~20 s) instead of up to 80 s.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/logging.js';
import { type Clock, systemClock } from '../../src/runtime/clock.js';
import { startBot } from '../../src/start-bot.js';
import { localBotEnv } from '../local-stack/bot-env.js';
import { simDirective, startSimulator } from '../simulator/index.js';
import {
  DEFAULT_BOT_USER_ID,
  postSlashCommand,
  type StoredMessage,
  startSlackStandin,
  visibleText,
} from '../slack-standin/index.js';

const CHANNEL = 'C0SANDBOX';
/** A workspace admin of the stand-in, in Europe/London. */
const ADMIN = 'UADMIN';
const ZONE = 'Europe/London';
const WAIT_MS = 150_000;

/** Real time plus an offset the demo can move: the schedule ticker's clock. */
function movableClock(): Clock & { jumpTo(at: number): void } {
  let offset = 0;
  return {
    now: () => systemClock.now() + offset,
    sleep: (ms, signal) => systemClock.sleep(ms, signal),
    jumpTo: (at) => {
      offset = Math.max(offset, at - systemClock.now());
    },
  };
}

/** `HH:MM` of the minute after `at` in `timeZone`, and that minute's instant. */
function nextMinute(at: number, timeZone: string): { hhmm: string; at: number } {
  const minute = Math.floor(at / 60_000) * 60_000 + 60_000;
  const hhmm = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(minute);
  return { hhmm, at: minute };
}

async function waitFor<T>(probe: () => T | undefined, what: string): Promise<T> {
  const until = Date.now() + WAIT_MS;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    await systemClock.sleep(250);
  }
}

async function main(argv: string[]): Promise<void> {
  const now = argv.includes('--now');
  const words = argv
    .filter((arg) => arg !== '--now')
    .join(' ')
    .trim();
  const question = `${words || 'what broke overnight since 18:00 yesterday?'} ${simDirective({ steps: 3, stepMs: 400, answer: 'Overnight: one deploy at 02:10, error rate back to normal by 02:25. Nothing open.' })}`;
  const sim = await startSimulator({ quiet: true, longPollMs: 1_000 });
  const slack = await startSlackStandin();
  const clock = movableClock();
  const signingSecret = randomBytes(24).toString('hex');
  const env = localBotEnv(
    { simUrl: sim.url, slackApiUrl: slack.apiUrl, signingSecret },
    { LOG_LEVEL: 'silent' },
  );
  const bot = await startBot(loadConfig(env), { logger: silentLogger, scheduleClock: clock });
  try {
    const minute = nextMinute(clock.now(), ZONE);
    const responseId = randomUUID();
    const text = `schedule add daily ${minute.hhmm} ${question}`;
    console.log(`you (admin, ${ZONE}) in #sandbox: /agent ${text}`);
    await postSlashCommand(`http://127.0.0.1:${bot.port}`, signingSecret, {
      text,
      user_id: ADMIN,
      channel_id: CHANNEL,
      response_url: slack.responseUrl(responseId),
    });
    const reply = await waitFor(() => slack.responses(responseId)[0], 'the reply to /agent schedule add');
    console.log(`bot (only you see this): ${visibleText(reply as never)}`);
    if (now) {
      clock.jumpTo(minute.at);
      console.log(
        `sandbox: --now moved the schedule clock to ${minute.hhmm} ${ZONE}; the next tick (≤ 20 s) asks`,
      );
    } else {
      console.log(`sandbox: waiting for ${minute.hhmm} ${ZONE} (up to 80 s; --now skips the wait)`);
    }
    const isQuestion = (message: StoredMessage) =>
      message.user === DEFAULT_BOT_USER_ID && message.text.startsWith('Scheduled question');
    const posted = await waitFor(() => slack.messages(CHANNEL).find(isQuestion), 'the scheduled question');
    console.log(`bot in #sandbox: ${visibleText(posted)}`);
    const answer = await waitFor(
      () => slack.messages(CHANNEL, posted.ts).find((m) => m.metadata?.event_type === 'agent_answer'),
      'the answer in its thread',
    );
    console.log(`bot in the thread: ${visibleText(answer)}`);
  } finally {
    await bot.stop();
    await Promise.all([sim.close(), slack.close()]);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
