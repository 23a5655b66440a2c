import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Simulator, simDirective, startSimulator } from '../../dev/simulator/index.js';
import {
  type SlackStandin,
  slashCommandFields,
  startSlackStandin,
  TEST_APP_TOKEN,
  visibleText,
} from '../../dev/slack-standin/index.js';
import { loadConfig } from '../../src/config/load-config.js';
import type { Logger } from '../../src/runtime/logger.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { type RunningBot, startBot } from '../../src/start-bot.js';
import { harnessEnv } from '../support/bridge-harness.js';
import { mentionEvents, messagesOfType } from '../support/child-bot.js';
import { memoryLogger } from '../support/memory-log.js';
import { eventCallback } from '../support/slack-events.js';

describe('Socket Mode end to end (the real bridge against the stand-in socket)', () => {
  let sim: Simulator;
  let slack: SlackStandin;
  let bridge: RunningBot | undefined;

  beforeEach(async () => {
    [sim, slack] = await Promise.all([startSimulator({ quiet: true, longPollMs: 500 }), startSlackStandin()]);
  });
  afterEach(async () => {
    await bridge?.stop();
    bridge = undefined;
    await Promise.all([sim.close(), slack.close()]);
  });

  /** Socket Mode: the app token set, no signing secret at all. */
  async function startSocketBridge(
    extra: Record<string, string> = {},
    logger: Logger = silentLogger,
  ): Promise<RunningBot> {
    const { SLACK_SIGNING_SECRET: _unused, ...env } = harnessEnv(sim, slack, {
      SLACK_APP_TOKEN: TEST_APP_TOKEN,
      ...extra,
    });
    const config = loadConfig(env);
    expect(config.slack.socketMode).toBe(true);
    expect(config.slack.signingSecret).toBeUndefined();
    bridge = await startBot(config, { logger });
    return bridge;
  }

  it('connects, answers /healthz, acks an events_api envelope and answers in the thread', async () => {
    const log = memoryLogger('debug');
    const running = await startSocketBridge({ LOG_LEVEL: 'debug' }, log.logger);
    await slack.socket.waitForConnection();
    // apps.connections.open went to SLACK_API_URL (the stand-in), with the app token.
    expect(slack.callCount('apps.connections.open')).toBeGreaterThanOrEqual(1);
    const health = await fetch(`http://127.0.0.1:${running.port}/healthz`);
    expect(health.status).toBe(200);
    await health.body?.cancel();
    // No HTTP event endpoint in Socket Mode: events come over the socket only.
    const events = await fetch(`http://127.0.0.1:${running.port}/slack/events`, {
      method: 'POST',
      body: '{}',
    });
    expect(events.status).toBe(404);
    await events.body?.cancel();

    const mention = mentionEvents(
      slack,
      `errors? ${simDirective({ steps: 2, stepMs: 50, answer: 'Over the socket.' })}`,
    );
    const envelopeId = 'envelope-mention-1';
    const ack = await slack.socket.send({
      envelope_id: envelopeId,
      type: 'events_api',
      payload: eventCallback(mention.appMention),
    });
    expect(ack.envelope_id).toBe(envelopeId);
    // Slack also sends the message event for the same mention: acked, and not a second turn.
    const second = await slack.socket.send({ type: 'events_api', payload: eventCallback(mention.message) });
    expect(second.envelope_id).toBeTruthy();

    const answers = await slack.waitFor(
      () => {
        const found = messagesOfType(slack, mention.channel, mention.threadTs, 'agent_answer');
        return found.length > 0 && found;
      },
      { timeoutMs: 8_000, description: 'the answer in the thread' },
    );
    expect(visibleText(answers[0] as never)).toContain('Over the socket.');
    // Not a fixed sleep: the bot has handled both events of the mention, the second as a duplicate.
    const handled = await slack.waitFor(
      () => {
        const results = log
          .records()
          .filter((record) => record.msg === 'message handled' && record.ts === mention.ts)
          .map((record) => record.result);
        return results.length === 2 && results;
      },
      { description: 'both events of the mention handled' },
    );
    expect(handled.sort()).toEqual(['duplicate', 'started']);
    expect(messagesOfType(slack, mention.channel, mention.threadTs, 'agent_answer')).toHaveLength(1);
    expect(sim.runs()).toHaveLength(1);
  });

  it('asks for METRICS_TOKEN on /metrics of its own ops server too, and keeps /healthz open', async () => {
    const token = 'test-metrics-token-not-secret';
    const running = await startSocketBridge({ METRICS_TOKEN: token });
    await slack.socket.waitForConnection();
    const base = `http://127.0.0.1:${running.port}`;
    const refused = await fetch(`${base}/metrics`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
    await refused.body?.cancel();
    const served = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(served.status).toBe(200);
    expect(await served.text()).toMatch(/^sab_turns_in_flight 0$/m);
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    await health.body?.cancel();
  });

  it('acks a slash command envelope and answers through its response URL', async () => {
    await startSocketBridge();
    await slack.socket.waitForConnection();
    const responseUrl = slack.responseUrl();
    const ack = await slack.socket.send({
      envelope_id: 'envelope-command-1',
      type: 'slash_commands',
      payload: slashCommandFields({
        command: '/agent',
        text: 'help',
        user_id: 'UALICE',
        response_url: responseUrl,
      }),
    });
    expect(ack.envelope_id).toBe('envelope-command-1');
    const id = responseUrl.split('/').pop() ?? '';
    const responses = await slack.waitFor(() => slack.responses(id).length > 0 && slack.responses(id), {
      description: 'the help text at the response URL',
    });
    expect(JSON.stringify(responses[0])).toContain('/agent');
  });
});
