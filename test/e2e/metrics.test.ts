import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIM_AGENTS, simDirective } from '../../src/simulator/index.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';

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

async function scrape(harness: Harness) {
  const response = await fetch(`${harness.appUrl}/metrics`);
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

describe('GET /metrics and /healthz', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness();
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
