import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Simulator, simDirective, startSimulator } from '../../dev/simulator/index.js';
import {
  alertMessage,
  eventCallback,
  type SlackStandin,
  startSlackStandin,
} from '../../dev/slack-standin/index.js';
import { loadConfig } from '../../src/config/load-config.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { type RunningBot, startBot } from '../../src/start-bot.js';
import { openInspector } from '../store/redis-test-client.js';
import { alertBody, postAlert, TEST_ALERT_TOKEN } from '../support/alert-webhook.js';
import { harnessEnv, TEST_SIGNING_SECRET } from '../support/bridge-harness.js';
import { redisAvailable, TEST_REDIS_URL, uniqueRedisPrefix } from '../support/redis.js';
import { postEvent, postSlashCommand } from '../support/slack-events.js';

/**
 * Two replicas on one Redis receive the same alert (the vendor retrying against a load balancer,
 * or an event delivered to both): one card, one investigation, one answer.
 */
const hasRedis = await redisAvailable();
const quick = simDirective({ steps: 1, stepMs: 50, answer: 'Verdict: one replica answered.' });

describe.skipIf(!hasRedis)('alerts on two replicas sharing Redis', () => {
  let sim: Simulator;
  let slack: SlackStandin;
  let prefix: string;
  let replicas: RunningBot[] = [];

  beforeEach(async () => {
    [sim, slack] = await Promise.all([startSimulator({ quiet: true, longPollMs: 500 }), startSlackStandin()]);
    slack.addUser({ id: 'UADMINLIST' });
    prefix = uniqueRedisPrefix('alert-replicas');
    const env = harnessEnv(sim, slack, {
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: prefix,
      ALERT_WEBHOOK_TOKEN: TEST_ALERT_TOKEN,
      ALERT_CHANNEL_ID: 'C0ALERTS',
      // A stopped replica's turn is taken over within seconds.
      LEASE_TTL_MS: '2000',
    });
    replicas = await Promise.all(
      ['replica-a', 'replica-b'].map((id) =>
        startBot(loadConfig({ ...env, INSTANCE_ID: id }), { logger: silentLogger }),
      ),
    );
  });
  afterEach(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
    await Promise.all([sim.close(), slack.close()]);
    const inspector = await openInspector();
    await inspector.deleteAll(prefix);
    await inspector.close();
  });

  const urlOf = (replica: RunningBot) => `http://127.0.0.1:${replica.port}`;
  const answersIn = (channel: string, ts: string) =>
    slack.messages(channel, ts).filter((message) => message.metadata?.event_type === 'agent_answer');

  it('investigates a webhook alert posted to both replicas at once exactly once', async () => {
    const body = alertBody({ alert_title: `Both replicas ${quick}`, alert_event_id: 'evt-both' });
    const answers = await Promise.all(
      [...replicas, ...replicas].map((replica) => postAlert(urlOf(replica), { body })),
    );
    const outcomes = answers.map((answer) => answer.json.outcome).sort();
    expect(outcomes).toEqual(['duplicate', 'duplicate', 'duplicate', 'investigating']);
    const ts = answers.find((answer) => answer.json.outcome === 'investigating')?.json.ts ?? '';
    expect(new Set(answers.map((answer) => answer.json.ts))).toEqual(new Set([ts]));
    await slack.waitFor(() => answersIn('C0ALERTS', ts).length === 1, { timeoutMs: 10_000 });
    expect(sim.runs()).toHaveLength(1);
    expect(
      slack.messages('C0ALERTS').filter((message) => message.metadata?.event_type === 'agent_alert'),
    ).toHaveLength(1);
  });

  it('times the verdict where the answer is posted: by the replica that took the run over', async () => {
    const [a, b] = replicas as [RunningBot, RunningBot];
    const slow = simDirective({ steps: 12, stepMs: 250, answer: 'Verdict: finished by the survivor.' });
    const posted = await postAlert(urlOf(a), { body: alertBody({ alert_title: `Handed over ${slow}` }) });
    expect(posted.json.outcome).toBe('investigating');
    await slack.waitFor(() => sim.runs()[0]?.status === 'loading', { description: 'the run under way' });
    // Replica a goes away mid-run (a deploy) and lets go of the turn: b resumes it.
    await a.stop();
    replicas = [b];
    await slack.waitFor(() => answersIn('C0ALERTS', posted.json.ts).length === 1, {
      timeoutMs: 20_000,
      description: 'the answer, posted by b',
    });
    // Observed once the delivery is recorded, a moment after Slack took the answer.
    const verdicts = /^sab_alert_time_to_verdict_seconds_count (\d+)$/m;
    const counted = async (replica: RunningBot) => Number(verdicts.exec(await replica.metrics.render())?.[1]);
    for (let waited = 0; waited < 5_000 && (await counted(b)) === 0; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await counted(b)).toBe(1);
    expect(await counted(a)).toBe(0);
    expect(sim.runs()).toHaveLength(1);
  });

  it('investigates a watched channel post delivered to both replicas once', async () => {
    const [a, b] = replicas as [RunningBot, RunningBot];
    const responseUrl = slack.responseUrl();
    await postSlashCommand(urlOf(a), TEST_SIGNING_SECRET, {
      command: '/agent',
      text: 'channel investigate on',
      user_id: 'UADMINLIST',
      channel_id: 'C0WATCHED',
      team_id: 'T0TEST',
      response_url: responseUrl,
    });
    const id = responseUrl.split('/').pop() ?? '';
    await slack.waitFor(() => slack.responses(id)[0]);
    const alert = slack.recordBotMessage(alertMessage('C0WATCHED', `Shared post ${quick}`));
    const event = { ...alert, channel_type: 'channel', event_ts: alert.ts };
    await Promise.all(
      [a, b, b, a].map((replica, retry) =>
        postEvent(urlOf(replica), TEST_SIGNING_SECRET, eventCallback(event as never), {
          retryNum: retry || undefined,
        }),
      ),
    );
    await slack.waitFor(() => answersIn('C0WATCHED', alert.ts).length === 1, { timeoutMs: 10_000 });
    expect(sim.runs()).toHaveLength(1);
  });
});
