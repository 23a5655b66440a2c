import { afterEach, describe, expect, it } from 'vitest';
import { type Simulator, simDirective, startSimulator } from '../../dev/simulator/index.js';
import { type SlackStandin, type StoredEphemeral, startSlackStandin } from '../../dev/slack-standin/index.js';
import { loadConfig } from '../../src/config/load-config.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { type RunningBot, startBot } from '../../src/start-bot.js';
import { openInspector } from '../store/redis-test-client.js';
import { type Harness, harnessEnv, startHarness, TEST_SIGNING_SECRET } from '../support/bridge-harness.js';
import { mentionEvents, messagesOfType } from '../support/child-bot.js';
import { redisAvailable, TEST_REDIS_URL, uniqueRedisPrefix } from '../support/redis.js';
import { eventCallback, postEvent } from '../support/slack-events.js';

/**
 * DESIGN "Spending": RUNS_PER_PERSON_PER_HOUR turns per person per rolling hour, counted in the
 * store across replicas; past it nothing starts and the person is told, only to them, when.
 */
const hasRedis = await redisAvailable();
const HOUR_MS = 60 * 60 * 1000;
const CHANNEL = 'C0GENERAL';
const quick = (answer: string) => simDirective({ steps: 1, stepMs: 30, answer });

/** "14:32" in the zone: what a person there reads on their clock for `at` rounded up to the minute. */
function clockAt(at: number, timeZone: string): string {
  const minute = Math.ceil(at / 60_000) * 60_000;
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(minute);
}

const OVER_LIMIT =
  /^You've asked (\d+) questions in the last hour, the most one person can\. You can ask again at (\d\d:\d\d) \(in (\d+) minutes\)\.$/;

describe('runs per person per hour', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  it("refuses a person's third mention ephemerally, with the time on their clock, while another person is answered", async () => {
    harness = await startHarness({ env: { RUNS_PER_PERSON_PER_HOUR: '2' } });
    const before = Date.now();
    const first = await harness.mention(`one? ${quick('First.')}`);
    const second = await harness.mention(`two? ${quick('Second.')}`);
    await harness.waitForOutcome(CHANNEL, first.threadTs);
    await harness.waitForOutcome(CHANNEL, second.threadTs);
    const after = Date.now();

    const third = await harness.mention(`three? ${quick('Never.')}`);
    const refusal = await harness.slack.waitFor(() =>
      harness?.slack.ephemerals(CHANNEL, 'UALICE').find((each) => each.thread_ts === third.threadTs),
    );
    const [, count, time, minutes] = OVER_LIMIT.exec(refusal.text) ?? [];
    expect(count, refusal.text).toBe('2');
    // UALICE's Slack zone is America/New_York; room comes back an hour after her first question.
    expect([
      clockAt(before + HOUR_MS, 'America/New_York'),
      clockAt(after + HOUR_MS, 'America/New_York'),
    ]).toContain(time);
    expect(Number(minutes)).toBeGreaterThanOrEqual(59);
    expect(Number(minutes)).toBeLessThanOrEqual(61);

    const bob = await harness.mention(`mine? ${quick('For Bob.')}`, { user: 'UBOB' });
    const [answer] = await harness.waitForOutcome(CHANNEL, bob.threadTs);
    expect(harness.visibleText(answer as never)).toContain('For Bob.');
    // Bob's answer came after Alice's third mention was handled: nothing started for it.
    expect(harness.sim.runs()).toHaveLength(3);
    expect(harness.botMessages(CHANNEL, third.threadTs)).toEqual([]);
    expect(harness.slack.ephemerals(CHANNEL, 'UALICE')).toHaveLength(1);
    expect(await harness.bridge.metrics.render()).toMatch(/^sab_turns_over_limit_total 1$/m);
  });

  it('limits before reading: over the limit, or replying in a busy thread, costs Slack no thread read or member scan', async () => {
    harness = await startHarness({ env: { RUNS_PER_PERSON_PER_HOUR: '1' } });
    const h = harness;
    // Read calls: the thread read, the audience (info + member scan), the people looked up.
    const READS = ['conversations.replies', 'conversations.members', 'conversations.info', 'users.info'];
    const readsSince = (from: number) =>
      h.slack.calls.slice(from).filter((call) => READS.includes(call.method));

    // Alice's first question is under an alert: the thread is read, the audience judged.
    const alert = h.slack.recordBotMessage({ channel: CHANNEL, text: 'CPU high on checkout' });
    const first = await h.mention(`why? ${simDirective({ steps: 3, stepMs: 300, answer: 'First.' })}`, {
      threadTs: alert.ts,
    });
    await h.slack.waitFor(() => h.sim.runs()[0]);
    expect(h.slack.calls.some((call) => call.method === 'conversations.replies')).toBe(true);

    // Bob replies in the busy thread (a follow-up would read the thread): refused before reading.
    const beforeBusy = h.slack.calls.length;
    await h.reply(`and memory? ${quick('Never.')}`, { threadTs: first.threadTs, user: 'UBOB' });
    await h.slack.waitFor(() =>
      h.slack.ephemerals(CHANNEL, 'UBOB').find((e) => e.thread_ts === first.threadTs),
    );
    expect(readsSince(beforeBusy).filter((call) => call.method !== 'users.info')).toEqual([]);
    await h.waitForOutcome(CHANNEL, first.threadTs);

    // Alice, over her limit, asks under another alert: told, and nothing read for it.
    const second = h.slack.recordBotMessage({ channel: CHANNEL, text: 'Disk full on db-1' });
    const beforeOver = h.slack.calls.length;
    const over = await h.mention(`and this? ${quick('Never.')}`, { threadTs: second.ts });
    await h.slack.waitFor(() =>
      h.slack.ephemerals(CHANNEL, 'UALICE').find((e) => e.thread_ts === over.threadTs),
    );
    expect(readsSince(beforeOver)).toEqual([]);
    expect(h.sim.runs()).toHaveLength(1);
  });

  it.skipIf(!hasRedis)(
    '0 turns it off: a person with a full hour is answered, and nothing is counted',
    async () => {
      const prefix = uniqueRedisPrefix('spending-off');
      const inspector = await openInspector();
      const key = `${prefix}::allowance:person:UALICE`;
      try {
        // Thirty runs this hour, as another replica would have recorded them: the default refuses the next.
        const now = Date.now();
        for (let index = 0; index < 30; index += 1) {
          await inspector.client.zAdd(key, { score: now - index * 1000, value: `earlier-${index}` });
        }
        harness = await startHarness({
          env: { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix, RUNS_PER_PERSON_PER_HOUR: '0' },
        });
        const mention = await harness.mention(`again? ${quick('Still answered.')}`);
        const [answer] = await harness.waitForOutcome(CHANNEL, mention.threadTs);
        expect(harness.visibleText(answer as never)).toContain('Still answered.');
        expect(await inspector.client.zCard(key)).toBe(30);
        expect(harness.slack.ephemerals(CHANNEL, 'UALICE')).toEqual([]);
      } finally {
        await harness?.stop();
        harness = undefined;
        await inspector.deleteAll(prefix);
        await inspector.close();
      }
    },
  );
});

/** Alice mentions the bot through one replica. */
type MentionOn = (text: string) => Promise<ReturnType<typeof mentionEvents>>;

describe.skipIf(!hasRedis)('runs per person per hour, two replicas on one Redis', () => {
  let sim: Simulator;
  let slack: SlackStandin;
  let prefix: string;
  let replicas: RunningBot[] = [];

  afterEach(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
    replicas = [];
    await Promise.all([sim?.close(), slack?.close()]);
    const inspector = await openInspector();
    await inspector.deleteAll(prefix);
    await inspector.close();
  });

  /** Both replicas share the Redis prefix, as in production: they are one bot to Slack. */
  async function startReplicas(runsPerHour: string) {
    [sim, slack] = await Promise.all([startSimulator({ quiet: true, longPollMs: 500 }), startSlackStandin()]);
    prefix = uniqueRedisPrefix('spending');
    const env = harnessEnv(sim, slack, {
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: prefix,
      RUNS_PER_PERSON_PER_HOUR: runsPerHour,
    });
    for (const id of ['replica-a', 'replica-b']) {
      replicas.push(await startBot(loadConfig({ ...env, INSTANCE_ID: id }), { logger: silentLogger }));
    }
    return replicas.map((replica) => {
      const url = `http://127.0.0.1:${replica.port}`;
      /** Alice mentions the bot; Slack delivers both events of the mention to this replica. */
      return async (text: string) => {
        const mention = mentionEvents(slack, text);
        for (const event of [mention.appMention, mention.message]) {
          await postEvent(url, TEST_SIGNING_SECRET, eventCallback(event as never));
        }
        return mention;
      };
    }) as [MentionOn, MentionOn];
  }

  const answered = (threadTs: string) =>
    slack.waitFor(() => messagesOfType(slack, CHANNEL, threadTs, 'agent_answer').length === 1, {
      description: `an answer in ${threadTs}`,
    });
  const refused = (threadTs: string) =>
    slack.waitFor(
      (): StoredEphemeral | undefined =>
        slack.ephemerals(CHANNEL, 'UALICE').find((each) => each.thread_ts === threadTs),
      { description: `a refusal in ${threadTs}` },
    );

  it('counts one hour for a person across both replicas', async () => {
    const [onA, onB] = await startReplicas('2');
    const first = await onA(`one? ${quick('From A.')}`);
    await answered(first.threadTs);
    const second = await onB(`two? ${quick('From B.')}`);
    await answered(second.threadTs);

    // Each replica started one run: only a shared count refuses the third on either.
    const third = await onA(`three? ${quick('Never.')}`);
    expect((await refused(third.threadTs)).text).toMatch(OVER_LIMIT);
    const fourth = await onB(`four? ${quick('Never.')}`);
    expect((await refused(fourth.threadTs)).text).toMatch(OVER_LIMIT);

    expect(sim.runs()).toHaveLength(2);
    // Nothing in their threads but Alice's own message.
    for (const mention of [third, fourth]) expect(slack.messages(CHANNEL, mention.threadTs)).toHaveLength(1);
  });
});
