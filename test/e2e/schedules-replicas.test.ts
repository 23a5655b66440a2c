import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Simulator, simDirective, startSimulator } from '../../dev/simulator/index.js';
import { DEFAULT_BOT_USER_ID, type SlackStandin, startSlackStandin } from '../../dev/slack-standin/index.js';
import { loadConfig } from '../../src/config/load-config.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { type RunningBot, startBot } from '../../src/start-bot.js';
import { openInspector } from '../store/redis-test-client.js';
import { harnessEnv, TEST_SIGNING_SECRET } from '../support/bridge-harness.js';
import { replyText } from '../support/command-reply.js';
import { createManualClock, type ManualClock } from '../support/manual-clock.js';
import { redisAvailable, TEST_REDIS_URL, uniqueRedisPrefix } from '../support/redis.js';
import { postSlashCommand } from '../support/slack-events.js';

/**
 * DESIGN "Scheduled questions": each occurrence exactly once across replicas and restarts, through
 * a claim per schedule and occurrence in the shared store. Every replica's ticker runs on a manual
 * clock of its own, moved together; a restart is a replica started later on the same Redis.
 */
const hasRedis = await redisAvailable();
const TEAM = 'C0TEAM';
const ADMIN = 'UADMIN'; // Europe/London: UTC in November
const DUE = Date.parse('2026-11-27T08:30:00Z');
const MINUTE = 60_000;
const quick = simDirective({ steps: 1, stepMs: 30, answer: 'Asked once.' });

interface Replica {
  bot: RunningBot;
  clock: ManualClock;
}

describe.skipIf(!hasRedis)('scheduled questions on replicas sharing Redis', () => {
  let sim: Simulator;
  let slack: SlackStandin;
  let prefix: string;
  let env: Record<string, string>;
  const running: Replica[] = [];

  beforeEach(async () => {
    [sim, slack] = await Promise.all([startSimulator({ quiet: true, longPollMs: 500 }), startSlackStandin()]);
    slack.addUser({ id: 'UADMINLIST' });
    prefix = uniqueRedisPrefix('schedules');
    env = harnessEnv(sim, slack, { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix });
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((replica) => replica.bot.stop()));
    await Promise.all([sim.close(), slack.close()]);
    const inspector = await openInspector();
    await inspector.deleteAll(prefix);
    await inspector.close();
  });

  /** A replica whose schedule time starts at `at`, once its first round is over. */
  async function startReplica(id: string, at: number): Promise<Replica> {
    const clock = createManualClock(at);
    const bot = await startBot(loadConfig({ ...env, INSTANCE_ID: id }), {
      logger: silentLogger,
      scheduleClock: clock,
    });
    const replica = { bot, clock };
    running.push(replica);
    await roundDone(replica);
    return replica;
  }
  async function stopReplica(replica: Replica): Promise<void> {
    running.splice(running.indexOf(replica), 1);
    await replica.bot.stop();
  }
  const roundDone = (replica: Replica) =>
    slack.waitFor(() => replica.clock.pendingSleepers() === 1, { description: 'a schedule round' });
  async function round(replica: Replica, ms: number): Promise<void> {
    replica.clock.advance(ms);
    await roundDone(replica);
  }
  async function addSchedule(replica: Replica, text: string): Promise<string> {
    const responseId = randomUUID();
    const posted = await postSlashCommand(`http://127.0.0.1:${replica.bot.port}`, TEST_SIGNING_SECRET, {
      text,
      user_id: ADMIN,
      channel_id: TEAM,
      response_url: slack.responseUrl(responseId),
    });
    expect(posted.status).toBe(200);
    return slack.waitFor(() => replyText(slack, responseId));
  }
  const questions = () =>
    slack
      .messages(TEAM)
      .filter(
        (message) => message.user === DEFAULT_BOT_USER_ID && message.text.startsWith('Scheduled question'),
      );
  async function occurrences(replicas: Replica[], result: string): Promise<number> {
    const counts = await Promise.all(
      replicas.map(async ({ bot }) => {
        const line = new RegExp(`^sab_schedule_occurrences_total\\{result="${result}"\\} (\\d+)$`, 'm');
        return Number(line.exec(await bot.metrics.render())?.[1] ?? Number.NaN);
      }),
    );
    return counts.reduce((sum, count) => sum + count, 0);
  }

  it('posts one question and starts one run when two replicas reach its minute together', async () => {
    const [a, b] = await Promise.all([
      startReplica('replica-a', DUE - MINUTE),
      startReplica('replica-b', DUE - MINUTE),
    ]);
    const replicas = [a, b] as Replica[];
    expect(
      await addSchedule(a as Replica, `schedule add daily 08:30 what broke overnight? ${quick}`),
    ).toContain('Europe/London');
    // Both wake in the same minute, again and again: only one may ask.
    for (let tick = 0; tick < 4; tick += 1) {
      await Promise.all(replicas.map((replica) => round(replica, 20_000)));
    }
    await slack.waitFor(() => questions().length === 1);
    const ts = questions()[0]?.ts ?? '';
    await slack.waitFor(
      () => slack.messages(TEAM, ts).some((message) => message.metadata?.event_type === 'agent_answer'),
      { timeoutMs: 10_000 },
    );
    expect(questions()).toHaveLength(1);
    expect(sim.runs()).toHaveLength(1);
    expect(await occurrences(replicas, 'run')).toBe(1);
  });

  it('asks once after a restart within SCHEDULE_GRACE_MINUTES, and not again after another', async () => {
    const before = await startReplica('before', DUE - 10 * MINUTE);
    await addSchedule(before, `schedule add daily 08:30 anything overnight? ${quick}`);
    await stopReplica(before);
    // No replica ran at 08:30; one starts 30 minutes later (the grace is 60).
    const after = await startReplica('after', DUE + 30 * MINUTE);
    await slack.waitFor(() => questions().length === 1);
    expect(await occurrences([after], 'run')).toBe(1);
    await stopReplica(after);
    const again = await startReplica('again', DUE + 35 * MINUTE);
    expect(questions()).toHaveLength(1);
    expect(await occurrences([again], 'run')).toBe(0);
    expect(sim.runs()).toHaveLength(1);
  });

  it('skips, and counts, an occurrence missed by more than SCHEDULE_GRACE_MINUTES', async () => {
    const before = await startReplica('before', DUE - 10 * MINUTE);
    await addSchedule(before, `schedule add daily 08:30 anything overnight? ${quick}`);
    await stopReplica(before);
    const late = await startReplica('late', DUE + 75 * MINUTE);
    expect(await occurrences([late], 'skipped')).toBe(1);
    expect(questions()).toHaveLength(0);
    // The next day's is asked as usual.
    await round(late, 24 * 60 * MINUTE - 75 * MINUTE);
    await slack.waitFor(() => questions().length === 1);
    expect(await occurrences([late], 'run')).toBe(1);
  });
});
