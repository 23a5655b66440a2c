import { afterEach, describe, expect, it } from 'vitest';
import { type Simulator, simDirective, startSimulator } from '../../dev/simulator/index.js';
import { type SlackStandin, startSlackStandin, TEST_APP_TOKEN } from '../../dev/slack-standin/index.js';
import { loadConfig } from '../../src/config/load-config.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { type RunningBot, startBot } from '../../src/start-bot.js';
import { alertBody, postAlert, TEST_ALERT_TOKEN } from '../support/alert-webhook.js';
import { harnessEnv } from '../support/bridge-harness.js';

/** POST /alerts is served on PORT in Socket Mode too, beside /healthz and /metrics. */
describe('POST /alerts in Socket Mode', () => {
  let sim: Simulator;
  let slack: SlackStandin;
  let bridge: RunningBot | undefined;
  afterEach(async () => {
    await bridge?.stop();
    await Promise.all([sim.close(), slack.close()]);
  });

  it('takes an alert and investigates it in the card’s thread', async () => {
    [sim, slack] = await Promise.all([startSimulator({ quiet: true, longPollMs: 500 }), startSlackStandin()]);
    const { SLACK_SIGNING_SECRET: _unused, ...env } = harnessEnv(sim, slack, {
      SLACK_APP_TOKEN: TEST_APP_TOKEN,
      ALERT_WEBHOOK_TOKEN: TEST_ALERT_TOKEN,
      ALERT_CHANNEL_ID: 'C0ALERTS',
    });
    bridge = await startBot(loadConfig(env), { logger: silentLogger });
    const url = `http://127.0.0.1:${bridge.port}`;
    const refused = await postAlert(url, {
      body: alertBody(),
      token: { via: 'header', value: 'wrong-wrong-wrong-wrong' },
    });
    expect(refused.status).toBe(401);
    const quick = simDirective({ steps: 1, stepMs: 30, answer: 'Socket verdict.' });
    const posted = await postAlert(url, { body: alertBody({ alert_title: `Over the socket ${quick}` }) });
    expect(posted.json).toMatchObject({ outcome: 'investigating', channel: 'C0ALERTS' });
    await slack.waitFor(() =>
      slack
        .messages('C0ALERTS', posted.json.ts)
        .find((message) => message.metadata?.event_type === 'agent_answer'),
    );
    expect(sim.runs()).toHaveLength(1);
  });
});
