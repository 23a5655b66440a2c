import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIM_AGENTS, simDirective } from '../../dev/simulator/index.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';
import { memoryLogger } from '../support/memory-log.js';

/**
 * GET /metrics and GET /healthz on the running bot: after real turns against the simulator
 * and the Slack stand-in, the operator's series show what happened.
 */

/** One sample of the Prometheus text format: `name{a="b",…} value`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1] as string] = pair[2] as string;
    }
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return samples;
}

async function scrape(harness: Harness, headers: Record<string, string> = {}) {
  const response = await fetch(`${harness.appUrl}/metrics`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  const samples = parseExposition(await response.text());
  /** The sample's value, or undefined when the series has no such sample. */
  const value = (name: string, labels: Record<string, string> = {}) =>
    samples.find(
      (sample) =>
        sample.name === name && Object.entries(labels).every(([key, want]) => sample.labels[key] === want),
    )?.value;
  /** Sum over every sample of a series (all label values). */
  const total = (name: string) =>
    samples.filter((sample) => sample.name === name).reduce((sum, sample) => sum + sample.value, 0);
  return { samples, value, total };
}

const OPEN_METRICS_WARNING = /GET \/metrics is open to anyone who reaches PORT/;

describe('GET /metrics and /healthz', () => {
  let harness: Harness;
  const log = memoryLogger('warn');

  beforeAll(async () => {
    harness = await startHarness({ logger: log.logger });
  });

  it('without METRICS_TOKEN serves /metrics to anyone, and says so once at start-up', async () => {
    const response = await fetch(`${harness.appUrl}/metrics`);
    expect(response.status).toBe(200);
    const warnings = log.records().filter((record) => OPEN_METRICS_WARNING.test(String(record.msg)));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 'warn', port: harness.bridge.port });
  });
  afterAll(async () => harness?.stop());

  it('answers /healthz with 200 and JSON once the bot serves Slack traffic', async () => {
    const response = await fetch(`${harness.appUrl}/healthz`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('serves every series before any traffic, with nothing counted yet', async () => {
    const { samples, value } = await scrape(harness);
    const names = new Set(samples.map((sample) => sample.name));
    // Labelled counters have no sample until their first increment; the rest exist at once.
    expect(names).toContain('sab_turns_in_flight');
    expect(names).toContain('sab_delivery_latency_seconds_count');
    expect(value('sab_turns_in_flight')).toBe(0);
    expect(value('sab_delivery_latency_seconds_count')).toBe(0);
    // Node's default metrics carry the same prefix.
    expect(names).toContain('sab_process_cpu_user_seconds_total');
  });

  it('counts a turn from its start to its answer', async () => {
    const { channel, threadTs } = await harness.mention(
      `what changed? ${simDirective({ steps: 2, stepMs: 50, answer: 'The *deploy* at noon.' })}`,
    );
    await harness.waitForOutcome(channel, threadTs);

    const { value, total } = await scrape(harness);
    expect(value('sab_turns_started_total', { kind: 'start' })).toBe(1);
    expect(value('sab_turns_started_total', { kind: 'followUp' })).toBe(0);
    expect(value('sab_turns_finished_total', { outcome: 'done' })).toBe(1);
    expect(total('sab_turns_finished_total')).toBe(1);
    expect(value('sab_turns_in_flight')).toBe(0);
    expect(value('sab_status_polls_total', { result: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(value('sab_delivery_latency_seconds_count')).toBe(1);
    const latency = value('sab_delivery_latency_seconds_sum') ?? -1;
    expect(latency).toBeGreaterThanOrEqual(0);
    expect(latency).toBeLessThan(10);
    expect(value('sab_delivery_latency_seconds_bucket', { le: '+Inf' })).toBe(1);
    expect(total('sab_service_errors_total')).toBe(0);
    expect(total('sab_slack_api_errors_total')).toBe(0);
  });

  it('counts a service error when the run cannot start (the agent is disabled: 404)', async () => {
    harness.sim.setAgentActive(SIM_AGENTS.api, false);
    try {
      const { channel, threadTs } = await harness.mention('are you there?');
      const [notice] = await harness.waitForOutcome(channel, threadTs);
      expect(notice?.metadata?.event_type).toBe('agent_notice');
    } finally {
      harness.sim.setAgentActive(SIM_AGENTS.api, true);
    }

    const { value, total } = await scrape(harness);
    expect(value('sab_service_errors_total', { code: 'agent_disabled' })).toBe(1);
    expect(value('sab_turns_finished_total', { outcome: 'service_error' })).toBe(1);
    // A start that failed is not a started turn.
    expect(total('sab_turns_started_total')).toBe(1);
    expect(value('sab_turns_in_flight')).toBe(0);
  });

  it('counts a Slack Web API error by method and error', async () => {
    // The first call of a turn shows its progress (the native status); losing it does not stop the answer.
    harness.slack.failNext('assistant.threads.setStatus', 'internal_error');
    const { channel, threadTs } = await harness.mention(
      `and now? ${simDirective({ steps: 1, stepMs: 20, answer: 'All quiet.' })}`,
    );
    const [answer] = await harness.waitForOutcome(channel, threadTs);
    expect(answer?.metadata?.event_type).toBe('agent_answer');

    const { value } = await scrape(harness);
    expect(
      value('sab_slack_api_errors_total', { method: 'assistant.threads.setStatus', error: 'internal_error' }),
    ).toBe(1);
    expect(value('sab_turns_finished_total', { outcome: 'done' })).toBe(2);
    expect(value('sab_delivery_latency_seconds_count')).toBe(2);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  const token = 'test-metrics-token-not-secret';
  let harness: Harness;
  const log = memoryLogger('debug');

  beforeAll(async () => {
    harness = await startHarness({ env: { METRICS_TOKEN: token }, logger: log.logger });
  });
  afterAll(async () => harness?.stop());

  it.each([
    ['no Authorization header', {}],
    ['a wrong token', { authorization: 'Bearer test-metrics-token-not-secreT' }],
    ['the token with a longer tail', { authorization: `Bearer ${token}x` }],
    ['a prefix of the token', { authorization: `Bearer ${token.slice(0, -1)}` }],
    ['the token without the Bearer scheme', { authorization: token }],
    [
      'the token as Basic credentials',
      { authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}` },
    ],
  ])('refuses %s with 401 and a Bearer challenge, without metrics', async (_, headers) => {
    const response = await fetch(`${harness.appUrl}/metrics`, { headers });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
    const body = await response.text();
    expect(body).not.toMatch(/^sab_/m);
    expect(body).toContain('METRICS_TOKEN');
  });

  it('serves the metrics to the right token (any case of "Bearer", as Prometheus sends it)', async () => {
    for (const scheme of ['Bearer', 'bearer']) {
      const { value } = await scrape(harness, { authorization: `${scheme} ${token}` });
      expect(value('sab_turns_in_flight')).toBe(0);
    }
  });

  it('keeps /healthz open: probes carry no credentials', async () => {
    const response = await fetch(`${harness.appUrl}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('does not warn that /metrics is open, and never logs the token', () => {
    expect(log.records().length).toBeGreaterThan(0);
    expect(log.lines().filter((line) => OPEN_METRICS_WARNING.test(line))).toEqual([]);
    expect(log.lines().join('\n')).not.toContain(token);
  });
});
