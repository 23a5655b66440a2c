import { afterEach, describe, expect, it } from 'vitest';
import { type Simulator, simDirective, startSimulator } from '../../dev/simulator/index.js';
import {
  agentSessionStoppedEvent,
  eventCallback,
  type SlackStandin,
  startSlackStandin,
  visibleText,
} from '../../dev/slack-standin/index.js';
import { loadConfig } from '../../src/config/load-config.js';
import { silentLogger } from '../../src/runtime/logger.js';
import type { RunningBot } from '../../src/start-bot.js';
import { startBot } from '../../src/start-bot.js';
import { openInspector } from '../store/redis-test-client.js';
import { harnessEnv, TEST_SIGNING_SECRET } from '../support/bridge-harness.js';
import { mentionEvents, messagesOfType, waitUntil } from '../support/child-bot.js';
import { redisAvailable, TEST_REDIS_URL, uniqueRedisPrefix } from '../support/redis.js';
import { postEvent } from '../support/slack-events.js';

/**
 * Stop with two replicas on one Redis (the real app, in this process): whichever replica hears
 * Stop, the one holding the turn ends it — at once when it heard it itself, through the stop mark
 * in the store when the other one did.
 */
const hasRedis = await redisAvailable();

interface Bot {
  bridge: RunningBot;
  send(event: object): Promise<{ status: number }>;
}

describe.skipIf(!hasRedis)('Stop across two replicas on one Redis', () => {
  let sim: Simulator;
  let slack: SlackStandin;
  let prefix: string;
  let a: Bot;
  let b: Bot;

  async function startReplica(instanceId: string, extra: Record<string, string>): Promise<Bot> {
    const env = harnessEnv(sim, slack, {
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: prefix,
      INSTANCE_ID: instanceId,
      ...extra,
    });
    const bridge = await startBot(loadConfig(env), { logger: silentLogger });
    const appUrl = `http://127.0.0.1:${bridge.port}`;
    return { bridge, send: (event) => postEvent(appUrl, TEST_SIGNING_SECRET, eventCallback(event as never)) };
  }

  /** The stand-ins and both replicas; `longPollMs`: how long a status request waits for news. */
  async function start(longPollMs = 500, env: Record<string, string> = {}) {
    [sim, slack] = await Promise.all([startSimulator({ quiet: true, longPollMs }), startSlackStandin()]);
    slack.addUser({ id: 'UADMINLIST' });
    prefix = uniqueRedisPrefix('stop');
    [a, b] = await Promise.all([startReplica('replica-a', env), startReplica('replica-b', env)]);
  }

  afterEach(async () => {
    await Promise.all([a?.bridge.stop(), b?.bridge.stop()]);
    await Promise.all([sim?.close(), slack?.close()]);
    const inspector = await openInspector();
    await inspector.deleteAll(prefix);
    await inspector.close();
  });

  /** Replica A takes a slow question (both events go to it) and shows the session's Stop. */
  async function askOnA(answer: string, script = { steps: 6, stepMs: 500 }) {
    const mention = mentionEvents(slack, `dig ${simDirective({ ...script, answer })}`);
    await Promise.all([a.send(mention.appMention), a.send(mention.message)]);
    await slack.waitFor(() => slack.agentSessions.showsStop(mention.channel, mention.threadTs), {
      description: 'the session processing',
    });
    return mention;
  }

  const stopNotes = (channel: string, threadTs: string) =>
    messagesOfType(slack, channel, threadTs, 'agent_notice').filter((m) => /Stopped\./.test(visibleText(m)));

  const stopsCounted = async (bot: Bot) =>
    /^sab_stops_total\{result="stopped"\} 1$/m.test(await bot.bridge.metrics.render());

  it.each([
    ['the holding replica', () => a],
    ['the other replica', () => b],
  ])(
    'a stop heard by %s ends the turn on the holder: one note, the session active, no answer',
    async (_name, hearer) => {
      await start();
      const { channel, threadTs } = await askOnA('Never posted.');
      await hearer().send(agentSessionStoppedEvent({ channel, thread_ts: threadTs, user: 'UBOB' }));
      await slack.waitFor(() => stopNotes(channel, threadTs).length === 1, {
        timeoutMs: 10_000,
        description: 'the stop note',
      });
      await slack.waitFor(() => slack.agentSessions.session(channel, threadTs)?.status === 'active', {
        description: 'the session active',
      });
      expect(await waitUntil(() => stopsCounted(hearer()), { description: 'the stop counted' })).toBe(true);
      // The holder ended it: its turn counter says so, whoever heard the stop.
      expect(await a.bridge.metrics.render()).toMatch(/^sab_turns_finished_total\{outcome="stopped"\} 1$/m);
      const sessionId = sim.runs()[0]?.sessionId ?? '';
      await slack.waitFor(() => sim.run(sessionId)?.status === 'done', {
        timeoutMs: 10_000,
        description: 'the run done on the service side',
      });
      // A new question in the thread, on the other replica: a new session, and only its answer.
      const reply = mentionEvents(
        slack,
        `again ${simDirective({ steps: 1, stepMs: 50, answer: 'New one.' })}`,
        {
          threadTs,
        },
      );
      await b.send(reply.message);
      await slack.waitFor(() => messagesOfType(slack, channel, threadTs, 'agent_answer').length === 1, {
        timeoutMs: 10_000,
        description: 'the new answer',
      });
      const answers = messagesOfType(slack, channel, threadTs, 'agent_answer').map((m) => visibleText(m));
      expect(answers.join()).toContain('New one.');
      expect(answers.join()).not.toContain('Never posted.');
      expect(stopNotes(channel, threadTs)).toHaveLength(1);
      expect(sim.runs().map((run) => run.turns)).toEqual([1, 1]);
    },
  );

  it('the holder sees a stop heard elsewhere at its lease renewal, while its status request still waits', async () => {
    // No news for 6 s and status requests that wait 8 s for it: only the lease renewal (every 0.5 s)
    // can see the stop mark before the run ends.
    await start(8_000, { LEASE_TTL_MS: '1500', AGENT_STATUS_TIMEOUT_MS: '10000' });
    const { channel, threadTs } = await askOnA('Never posted either.', { steps: 0, stepMs: 6_000 });
    // The service logs a status request once answered: the first one answers at once, and the
    // next one, sent right after, waits for news — the holder is in it.
    const sessionId = await slack.waitFor(() => sim.runs()[0]?.sessionId, { description: 'the run' });
    const polls = () => sim.requests.filter((r) => r.method === 'GET' && r.path.includes(sessionId)).length;
    await waitUntil(() => polls() >= 1, { description: 'the first status request answered' });
    const heardAt = Date.now();
    await b.send(agentSessionStoppedEvent({ channel, thread_ts: threadTs, user: 'UBOB' }));
    await slack.waitFor(() => stopNotes(channel, threadTs).length === 1, {
      timeoutMs: 4_000,
      description: 'the stop note, before the run could answer',
    });
    expect(Date.now() - heardAt).toBeLessThan(3_000);
    expect(sim.run(sessionId)?.status).toBe('loading');
  });
});
