import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIM_ADMIN_EMAILS, SIM_AGENTS, SIM_TOKENS, simDirective } from '../../dev/simulator/index.js';
import { TEST_BOT_TOKEN } from '../../dev/slack-standin/index.js';
import { type Harness, startHarness, TEST_SIGNING_SECRET } from '../support/bridge-harness.js';
import { memoryLogger } from '../support/memory-log.js';

/**
 * The production logger (pino, JSON lines) at debug level, written to memory while the real bot
 * runs turns and admin commands: every line is JSON with a level and a time, and no line
 * carries a secret — not the Slack tokens, not the agent-service tokens, not a token the
 * service hands back.
 */

/** Runs `/agent <text>` as the harness's admin and waits for its response_url reply. */
async function command(harness: Harness, text: string) {
  const posted = await harness.command(text);
  expect(posted.status).toBe(200);
  const replies = await harness.slack.waitFor(
    () => {
      const list = harness.slack.responses(posted.responseId);
      return list.length > 0 ? list : undefined;
    },
    { timeoutMs: 10_000, description: `the reply to /agent ${text}` },
  );
  return replies[0];
}

describe('logs', () => {
  const destination = memoryLogger('debug');
  let harness: Harness;
  let createdToken = '';

  beforeAll(async () => {
    harness = await startHarness({
      env: { LOG_LEVEL: 'debug' },
      logger: destination.logger,
    });
    harness.slack.addUser({ id: 'UADMINLIST' });

    // A turn to its answer.
    const turn = await harness.mention(
      `why is it slow? ${simDirective({ steps: 2, stepMs: 30, answer: 'Because of GC pauses.' })}`,
    );
    await harness.waitForOutcome(turn.channel, turn.threadTs);

    // A turn whose start fails (the service error is logged with its details)…
    harness.sim.setAgentActive(SIM_AGENTS.api, false);
    const failed = await harness.mention('hello?');
    await harness.waitForOutcome(failed.channel, failed.threadTs);
    harness.sim.setAgentActive(SIM_AGENTS.api, true);

    // …and one where Slack fails a post once (the Web API error is logged; the answer is retried).
    harness.slack.failNext('chat.postMessage', 'internal_error');
    const refused = await harness.mention(`again ${simDirective({ steps: 1, stepMs: 20, answer: 'Fine.' })}`);
    await harness.waitForOutcome(refused.channel, refused.threadTs);

    // Admin commands: the identity call, and an account whose token the service returns.
    await command(harness, 'whoami');
    await command(harness, `accounts create "Log Check" ${SIM_ADMIN_EMAILS[0]} 7`);
    const created = harness.sim.accounts().find((account) => account.accountName === 'Log Check');
    createdToken = created?.accountToken ?? '';
  });
  afterAll(async () => harness?.stop());

  it('wrote something at every level the run reached, including debug', () => {
    const levels = new Set(destination.lines().map((line) => (JSON.parse(line) as { level: string }).level));
    expect(levels).toContain('debug');
    expect(levels).toContain('info');
    expect(levels).toContain('warn');
    expect(levels).toContain('error');
    expect(destination.lines().some((line) => line.includes('slack-agent-bridge started'))).toBe(true);
  });

  it('writes one JSON object per line, each with a level and an ISO time', () => {
    const lines = destination.lines();
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines) {
      let parsed: unknown;
      expect(() => {
        parsed = JSON.parse(line);
      }, line).not.toThrow();
      expect(parsed, line).toMatchObject({ level: expect.any(String), time: expect.any(String) });
      const { level, time } = parsed as { level: string; time: string };
      expect(['trace', 'debug', 'info', 'warn', 'error', 'fatal']).toContain(level);
      expect(new Date(time).toISOString()).toBe(time);
    }
  });

  it('never contains a token or the signing secret', () => {
    expect(createdToken, 'the created account and its token').not.toBe('');
    const secrets = {
      'the Slack bot token': TEST_BOT_TOKEN,
      'the Slack signing secret': TEST_SIGNING_SECRET,
      'the agent API token': SIM_TOKENS.agent,
      'the main account token': SIM_TOKENS.main,
      "the created account's token": createdToken,
    };
    const lines = destination.lines();
    for (const [what, secret] of Object.entries(secrets)) {
      const leaking = lines.filter((line) => line.includes(secret));
      expect(leaking, `log lines with ${what}`).toEqual([]);
    }
  });
});
