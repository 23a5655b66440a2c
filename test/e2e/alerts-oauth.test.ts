import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simDirective } from '../../dev/simulator/index.js';
import { alertBody, postAlert, TEST_ALERT_TOKEN } from '../support/alert-webhook.js';
import {
  installThroughPages,
  type OAuthHarness,
  startOAuthHarness,
  WORKSPACES,
} from '../support/oauth-harness.js';

/**
 * POST /alerts when the app is distributed (DESIGN "Alert investigations", "Many workspaces"): a
 * webhook carries no Slack event, so `?team=` names the installation. The card, the run and the
 * answer go out with that installation's token and bot; without `team`, or for a team that never
 * installed the app, nothing is posted or started.
 */
describe('alert webhook with OAuth (many workspaces)', () => {
  let h: OAuthHarness;
  beforeAll(async () => {
    h = await startOAuthHarness({ env: { ALERT_WEBHOOK_TOKEN: TEST_ALERT_TOKEN } });
    for (const place of ['Alpha', 'Beta', 'the Grid Corp organisation']) {
      const flow = await installThroughPages(h, place);
      expect(flow.redirect.status, flow.redirectHtml).toBe(200);
    }
  });
  afterAll(async () => {
    await h?.stop();
  });

  const cards = (channel: string) =>
    h.slack.messages(channel).filter((message) => message.metadata?.event_type === 'agent_alert');

  async function investigated(channel: string, team: string, botUserId: string) {
    const body = alertBody({
      alert_title: `Errors up in ${channel}`,
      alert_description: `5xx rate doubled ${simDirective({ steps: 1, answer: `Verdict for ${channel}.` })}`,
    });
    const posted = await postAlert(h.appUrl, { body, query: { channel, team } });
    expect(posted.status, JSON.stringify(posted.json)).toBe(202);
    expect(posted.json).toMatchObject({ outcome: 'investigating', channel });
    const card = cards(channel).find((message) => message.ts === posted.json.ts);
    expect(card).toMatchObject({ user: botUserId });
    const answer = await h.waitForOutcome(channel, posted.json.ts);
    expect(answer).toMatchObject({ user: botUserId, metadata: { event_type: 'agent_answer' } });
    const posts = h.slack.calls.filter(
      (call) => call.method === 'chat.postMessage' && call.args.channel === channel,
    );
    expect(posts.length).toBeGreaterThanOrEqual(2);
    // Every post in that channel went out with its own installation's token.
    expect(posts.filter((call) => call.team !== team)).toEqual([]);
  }

  it('investigates in the workspace `team` names, with its token and bot', async () => {
    await investigated('C0BETA', 'T0BETA', WORKSPACES.b.botUserId);
    await investigated('C0ALPHA', 'T0ALPHA', WORKSPACES.a.botUserId);
  });

  it('investigates for an org-wide install named by its org id', async () => {
    await investigated('C0GRID', 'E0GRID', WORKSPACES.org.botUserId);
  });

  it('refuses without team, with a malformed one, or one that never installed the app: nothing posted', async () => {
    const before = h.slack.calls.length;
    const runsBefore = h.sim.runs().length;
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ channel: 'C0BETA' }, /add \?team=/],
      [{ channel: 'C0BETA', team: 'beta' }, /not a Slack workspace or org id/],
      [{ channel: 'C0NEVER', team: 'T0NEVER' }, /not installed in T0NEVER/],
    ];
    for (const [query, error] of cases) {
      const answer = await postAlert(h.appUrl, { body: alertBody(), query });
      expect(answer.status, JSON.stringify(query)).toBe(400);
      expect(answer.json.error).toMatch(error);
    }
    // A wrong token is still refused before anything else.
    const wrong = await postAlert(h.appUrl, {
      body: alertBody(),
      query: { channel: 'C0BETA', team: 'T0BETA' },
      token: { via: 'bearer', value: 'wrong-token-not-real' },
    });
    expect(wrong.status).toBe(401);
    expect(h.slack.calls.slice(before).filter((call) => call.method === 'chat.postMessage')).toEqual([]);
    expect(h.sim.runs()).toHaveLength(runsBefore);
  });
});
