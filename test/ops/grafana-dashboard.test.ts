import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIM_AGENTS, simDirective } from '../../dev/simulator/index.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';
import { waitUntil } from '../support/child-bot.js';

/**
 * ops/grafana-dashboard.json against the running bot: every series a panel queries is on /metrics
 * after real traffic (a turn answered, a turn the service refused, a Slack call that failed), with
 * the labels the panel groups by. A renamed metric or label fails here, not on a blank dashboard.
 */

interface Panel {
  id: number;
  title: string;
  targets: Array<{ expr: string }>;
}

const dashboard = JSON.parse(
  readFileSync(new URL('../../ops/grafana-dashboard.json', import.meta.url), 'utf8'),
) as { uid: string; panels: Panel[]; templating: { list: Array<{ name: string; type: string }> } };
const expressions = dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr));

/** The sab_* series an expression reads. */
const seriesIn = (expr: string) => [...expr.matchAll(/\bsab_[a-z0-9_]+/g)].map((m) => m[0]);
/** The labels of `by (…)` clauses; `instance` and `job` are added by Prometheus when it scrapes. */
const groupLabelsIn = (expr: string) =>
  [...expr.matchAll(/\bby \(([^)]*)\)/g)]
    .flatMap((m) => (m[1] as string).split(',').map((label) => label.trim()))
    .filter((label) => label !== 'instance' && label !== 'job');

/** sample name → the label names seen on its samples. */
function exposition(text: string): Map<string, Set<string>> {
  const series = new Map<string, Set<string>>();
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s/.exec(line);
    if (!match) continue;
    const labels = series.get(match[1] as string) ?? new Set<string>();
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="/g)) labels.add(pair[1] as string);
    series.set(match[1] as string, labels);
  }
  return series;
}

describe('ops/grafana-dashboard.json', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => harness?.stop());

  it('is an importable dashboard with a Prometheus data-source choice and one query per panel at least', () => {
    expect(dashboard.uid).toBe('slack-agent-bridge');
    expect(dashboard.templating.list).toContainEqual(
      expect.objectContaining({ name: 'datasource', type: 'datasource' }),
    );
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const panel of dashboard.panels) expect(panel.targets.length, panel.title).toBeGreaterThan(0);
  });

  it('charts what operators asked for: outcomes, in flight, delivery latency, service and Slack errors', () => {
    const all = expressions.join('\n');
    expect(all).toMatch(/by \(outcome\) \(rate\(sab_turns_finished_total/);
    expect(all).toContain('sab_turns_in_flight');
    expect(all).toMatch(
      /histogram_quantile\(0\.99, sum by \(le\) \(rate\(sab_delivery_latency_seconds_bucket/,
    );
    expect(all).toMatch(/by \(code\) \(rate\(sab_service_errors_total/);
    expect(all).toMatch(/by \(method, error\) \(rate\(sab_slack_api_errors_total/);
  });

  it('queries only series, and groups only by labels, that /metrics has after real turns', async () => {
    // A turn answered.
    const answered = await harness.mention(
      `what changed? ${simDirective({ steps: 2, stepMs: 30, answer: 'A deploy.' })}`,
    );
    await harness.waitForOutcome(answered.channel, answered.threadTs);
    // A turn the service refuses (agent disabled): a service error.
    harness.sim.setAgentActive(SIM_AGENTS.api, false);
    try {
      const refused = await harness.mention('are you there?');
      await harness.waitForOutcome(refused.channel, refused.threadTs);
    } finally {
      harness.sim.setAgentActive(SIM_AGENTS.api, true);
    }
    // A Slack call that fails: a Slack API error (whichever post of the turn it hits).
    harness.slack.failNext('chat.postMessage', 'not_in_channel');
    await harness.mention(`and now? ${simDirective({ steps: 1, stepMs: 20, answer: 'Quiet.' })}`);

    const wanted = [...new Set(expressions.flatMap(seriesIn))];
    expect(wanted.length).toBeGreaterThan(5);
    let series = new Map<string, Set<string>>();
    await waitUntil(
      async () => {
        const response = await fetch(`${harness.appUrl}/metrics`);
        series = exposition(await response.text());
        return wanted.every((name) => series.has(name));
      },
      { timeoutMs: 15_000, description: `every series of the dashboard on /metrics` },
    ).catch(() => undefined);
    expect(
      wanted.filter((name) => !series.has(name)),
      'series the dashboard queries but /metrics lacks',
    ).toEqual([]);
    for (const expr of expressions) {
      for (const name of seriesIn(expr)) {
        const missing = groupLabelsIn(expr).filter((label) => !series.get(name)?.has(label));
        expect(missing, `${expr}: labels of ${name}`).toEqual([]);
      }
    }
  });
});
