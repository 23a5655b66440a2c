import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simDirective } from '../../dev/simulator/index.js';
import { alertBody, postAlert, TEST_ALERT_TOKEN } from '../support/alert-webhook.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';

/**
 * Issue 32: an alert at the webhook's limits (the longest title it keeps, a description and a
 * severity far past Slack's limits, the most tags it keeps, each long and made of mrkdwn's
 * reserved characters, backticks and emoji) is posted within Slack's limits — the strict
 * stand-in refuses anything else — investigated, and answered 202 `investigating`.
 */
const ALERTS = 'C0ALERTS';
const quick = simDirective({ steps: 1, stepMs: 30, answer: 'Verdict: the tags were fine.' });
const nasty = '<b>&amp; `x` 🚀 <!channel> > ';

describe('an alert at the limits', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({
      env: { ALERT_WEBHOOK_TOKEN: TEST_ALERT_TOKEN, ALERT_CHANNEL_ID: ALERTS },
    });
  });
  afterAll(async () => harness?.stop());

  it('is posted within Slack’s limits, investigated, and answered 202 investigating', async () => {
    const body = alertBody({
      alert_title: `${quick} ${nasty.repeat(40)}`,
      alert_description: nasty.repeat(3_000),
      alert_severity: nasty.repeat(200),
      alert_tags: Array.from({ length: 60 }, (_, i) => `tag-${i}:${nasty.repeat(10)}`),
    });
    expect(JSON.stringify(body).length).toBeLessThan(256 * 1024);
    const posted = await postAlert(harness.appUrl, { body });
    expect(posted.status).toBe(202);
    expect(posted.json).toMatchObject({ outcome: 'investigating', channel: ALERTS });

    const ts = posted.json.ts as string;
    const [card] = harness.slack.messages(ALERTS, ts);
    const blocks = card?.blocks ?? [];
    // The header is plain text (nothing in it pings); the rest is mrkdwn.
    const texts = JSON.stringify(blocks.filter((block) => block.type !== 'header'));
    // Whole tags, then the count of the rest (50 kept by the webhook).
    expect(texts).toMatch(/…and \d+ more/);
    expect(texts).toContain('&lt;b&gt;&amp;amp;');
    expect(texts).not.toContain('<!channel>');
    const description = blocks.find((block) => block.type === 'section' && block.text !== undefined);
    const descriptionText = (description?.text as { text?: string } | undefined)?.text ?? '';
    expect(descriptionText.length).toBeGreaterThan(1_000);
    expect(descriptionText.length).toBeLessThanOrEqual(1_500);

    const [answer] = await harness.waitForOutcome(ALERTS, ts);
    expect(harness.visibleText(answer as never)).toContain('the tags were fine');
    expect(harness.sim.runs()).toHaveLength(1);
  });
});
