import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SIM_AGENTS,
  SIM_TOKENS,
  type Simulator,
  simDirective,
  startSimulator,
} from '../../dev/simulator/index.js';
import { appMentionEvent, messageEvent, submitNewestFormFields } from '../../dev/slack-standin/index.js';
import { CONNECTION_BLOCKS } from '../../src/slack/views/connection-form.js';
import { alertBody, postAlert, TEST_ALERT_TOKEN } from '../support/alert-webhook.js';
import { oauthCommand } from '../support/oauth-command.js';
import {
  installThroughPages,
  OAUTH_SIGNING_SECRET,
  type OAuthHarness,
  PEOPLE,
  startOAuthHarness,
  WORKSPACES,
} from '../support/oauth-harness.js';

/**
 * Two installations apart (DESIGN "Decisions for the fourth round"; issue 28's reproductions):
 * Alpha is the operator's home workspace (HOME_TEAM_IDS), Beta is another organisation that
 * installed the app, and both see one shared channel. Beta's owner cannot reach the operator's
 * account, Beta's binding of the shared channel never serves Alpha's people, each has its own
 * alert token and watch, and a poll result of Beta's thread is written with Beta's token however
 * the poller was started.
 */
const SHARED = 'C0SHARED';
const BETA_TOKEN = 'sim-beta-account-token-not-real';
/** Listed in ADMIN_USER_IDS, but of Beta (not home) and no Slack admin there: no admin. */
const BEA = { id: 'UBEA', team_id: 'T0BETA' };

describe('installations apart (OAuth, HOME_TEAM_IDS)', () => {
  let h: OAuthHarness;
  let betaService: Simulator;
  beforeAll(async () => {
    betaService = await startSimulator({ quiet: true, longPollMs: 500, agentToken: BETA_TOKEN });
    h = await startOAuthHarness({
      env: {
        HOME_TEAM_IDS: 'T0ALPHA',
        ADMIN_USER_IDS: `${PEOPLE.a.id},${BEA.id}`,
        ACCOUNT_API_TOKEN: SIM_TOKENS.main,
        ALERT_WEBHOOK_TOKEN: TEST_ALERT_TOKEN,
        // A thread's outcome republishes its asker's home soon after (in the thread's installation).
        HOME_REPUBLISH_SECONDS: '0.2',
      },
    });
    // Ben owns Beta's workspace: an admin of Beta, never of the operator's account.
    h.slack.addUser({ ...PEOPLE.b, name: 'ben', is_owner: true, is_admin: true });
    h.slack.addUser({ ...BEA, name: 'bea' });
    for (const place of ['Alpha', 'Beta']) {
      const flow = await installThroughPages(h, place);
      expect(flow.redirect.status, flow.redirectHtml).toBe(200);
    }
  });
  afterAll(async () => {
    await h?.stop();
    await betaService?.close();
  });

  const people = {
    a: { user: PEOPLE.a.id, team: 'T0ALPHA', place: 'a' as const },
    b: { user: PEOPLE.b.id, team: 'T0BETA', place: 'b' as const },
    bea: { user: BEA.id, team: 'T0BETA', place: 'b' as const },
  };

  /** `/agent <text>` by `who` in `channel`; resolves with the last reply. */
  const command = (who: keyof typeof people, text: string, channel: string) =>
    oauthCommand(h, { ...people[who], channel }, text);
  const said = async (who: keyof typeof people, text: string, channel: string) =>
    JSON.stringify(await command(who, text, channel));

  /** `who` mentions the bot of their installation in `channel` (app_mention and message, as Slack sends). */
  async function mention(who: 'a' | 'b', channel: string, text: string) {
    const person = PEOPLE[who];
    const bot = WORKSPACES[who].botUserId;
    const full = `<@${bot}> ${text}`;
    const stored = h.slack.recordUserMessage({ channel, user: person.id, text: full, team: person.team_id });
    const base = { channel, user: person.id, text: full, ts: stored.ts, team: person.team_id };
    await Promise.all([
      h.send(who, appMentionEvent({ ...base, botUserId: bot })),
      h.send(who, messageEvent(base)),
    ]);
    return stored.ts;
  }

  const serviceCalls = (sim: Simulator, part: string) => sim.requests.filter((r) => r.path.includes(part));

  it('refuses the operator’s account commands to another installation’s owner, sending nothing', async () => {
    const before = h.sim.requests.length;
    for (const text of ['accounts', 'export dashboard', 'capacity move 1 from a to b']) {
      const reply = await said('b', text, 'C0BETA');
      expect(reply, text).toMatch(/home workspace only/);
      expect(reply).toContain('/agent channel use &lt;agent-id&gt; on &lt;alias&gt;');
    }
    // Nor does the operator's default connection show up, nor answer whoami, there.
    expect(await said('b', 'connections', 'C0BETA')).not.toContain('default');
    expect(await said('b', 'whoami', 'C0BETA')).toMatch(/no agent in this workspace/);
    expect(h.sim.requests.slice(before)).toEqual([]);
    // The operator's own home still has them.
    expect(await said('a', 'accounts', 'C0ALPHA')).not.toMatch(/home workspace only/);
    // ADMIN_USER_IDS counts only at home: Bea, listed, is no admin of Beta.
    expect(await said('bea', 'channel investigate on', 'C0BETA')).toMatch(/Only admins/);
  });

  it('answers a question in another installation’s unbound channel with the bind command, reaching no service', async () => {
    const runsBefore = h.sim.runs().length;
    const ts = await mention('b', 'C0BETA', 'what failed last night?');
    const refusal = await h.slack.waitFor(
      () =>
        h.slack.calls.find(
          (call) =>
            call.method === 'chat.postEphemeral' &&
            call.args.channel === 'C0BETA' &&
            JSON.stringify(call.args).includes('/agent channel use'),
        ),
      { description: 'the unbound-channel sentence' },
    );
    expect(refusal.team).toBe('T0BETA');
    expect(h.slack.messages('C0BETA', ts).filter((m) => m.metadata?.event_type === 'agent_answer')).toEqual(
      [],
    );
    expect(h.sim.runs()).toHaveLength(runsBefore);
    expect(betaService.runs()).toEqual([]);
  });

  it('keeps Beta’s binding of a shared channel Beta’s own: Alpha’s people stay on Alpha’s account', async () => {
    expect(await said('b', 'connections add', 'C0BETA')).toContain('form');
    const added = await submitNewestFormFields(
      h.slack,
      { appUrl: h.appUrl, signingSecret: OAUTH_SIGNING_SECRET },
      {
        [CONNECTION_BLOCKS.alias]: 'beta-prod',
        [CONNECTION_BLOCKS.address]: betaService.url,
        [CONNECTION_BLOCKS.token]: BETA_TOKEN,
      },
      { user: PEOPLE.b.id, team: 'T0BETA', userTeam: 'T0BETA' },
    );
    expect(added.body).toContain('beta-prod');
    expect(await said('b', `channel use ${SIM_AGENTS.api} on beta-prod`, SHARED)).toContain('beta-prod');
    // Alpha sees the shared channel on its own (default) agent.
    const alphaView = await said('a', 'channel', SHARED);
    expect(alphaView).not.toContain('beta-prod');
    expect(alphaView).toContain('AGENT_ID');

    const ts = await mention('a', SHARED, 'errors in checkout?');
    const outcome = await h.waitForOutcome(SHARED, ts);
    expect(outcome.metadata?.event_type).toBe('agent_answer');
    expect(betaService.runs()).toEqual([]);
    expect(h.sim.runs().map((run) => run.prompts[0])).toContain('errors in checkout?');

    // Beta's disable in the shared channel acts on Beta's binding, on Beta's service.
    const alphaDisables = serviceCalls(h.sim, '/disable').length;
    expect(await said('b', 'disable', SHARED)).toContain('disabled');
    expect(serviceCalls(h.sim, '/disable')).toHaveLength(alphaDisables);
    expect(serviceCalls(betaService, '/disable')).toHaveLength(1);
    expect(await said('b', 'enable', SHARED)).toContain('enabled');
    // Beta's reset leaves Alpha's view of the channel alone, and Beta's channel has no agent now.
    expect(await said('b', 'channel reset', SHARED)).toMatch(/has no agent now/);
    expect(await said('b', `channel use ${SIM_AGENTS.api} on beta-prod`, SHARED)).toContain('beta-prod');
  });

  it('keeps each installation’s watch of a shared channel its own', async () => {
    expect(await said('a', 'channel investigate on', SHARED)).toMatch(/now investigated/);
    expect(await said('b', 'channel investigate off', SHARED)).toMatch(/are not investigated/);
    expect(await said('a', 'channel', SHARED)).toMatch(/are investigated in their threads/);
    expect(await said('b', 'channel', SHARED)).toMatch(/are not investigated automatically/);
  });

  it('writes a poll result of Beta’s thread with Beta’s token, while Alpha’s run keeps the poller busy', async () => {
    const slow = simDirective({ steps: 8, stepMs: 250, answer: 'Alpha verdict.' });
    const alphaTs = await mention('a', 'C0ALPHA', `slow one ${slow}`);
    // Alpha's run is polled from Alpha's event; Beta's starts while it goes on.
    await h.slack.waitFor(() => h.sim.runs().find((run) => run.prompts[0]?.startsWith('slow one')), {
      description: 'Alpha’s run started',
    });
    const quick = simDirective({ steps: 2, stepMs: 150, answer: 'Beta verdict.' });
    const betaTs = await mention('b', SHARED, `quick one ${quick}`);
    const betaAnswer = await h.waitForOutcome(SHARED, betaTs, 15_000);
    expect(betaAnswer).toMatchObject({
      user: WORKSPACES.b.botUserId,
      metadata: { event_type: 'agent_answer' },
    });
    await h.waitForOutcome('C0ALPHA', alphaTs, 15_000);
    const sessionCalls = (threadTs: string) =>
      h.slack.calls.filter(
        (call) => call.method === 'agents.sessions.setStatus' && call.args.thread_ts === threadTs,
      );
    // The session of each thread ends `active`, set with its own installation's token.
    const beta = await h.slack.waitFor(
      () =>
        sessionCalls(betaTs).some((call) => call.args.status === 'active') ? sessionCalls(betaTs) : undefined,
      { description: 'Beta’s session set active' },
    );
    expect(beta.map((call) => call.team)).toEqual(beta.map(() => 'T0BETA'));
    const alpha = sessionCalls(alphaTs);
    expect(alpha.map((call) => call.team)).toEqual(alpha.map(() => 'T0ALPHA'));
    expect(betaService.runs().map((run) => run.prompts[0])).toContain(`quick one ${quick}`);
    // Ben's home, published when his question started and again once its answer landed: Beta's token.
    const homes = await h.slack.waitFor(
      () => {
        const found = h.slack.calls.filter(
          (call) => call.method === 'views.publish' && call.args.user_id === PEOPLE.b.id,
        );
        return found.length >= 2 ? found : undefined;
      },
      { description: 'Ben’s home published twice' },
    );
    expect(homes.map((call) => call.team)).toEqual(homes.map(() => 'T0BETA'));
  });

  describe('alert tokens per installation', () => {
    const tokenIn = (reply: string) => /T0BETA\.[A-Za-z0-9_-]{20,}/.exec(reply)?.[0] ?? '';

    it('lets ALERT_WEBHOOK_TOKEN act in the home installation only, and never in a DM', async () => {
      const home = await postAlert(h.appUrl, {
        body: alertBody({ alert_title: 'Home alert' }),
        query: { team: 'T0ALPHA', channel: 'C0ALPHA' },
      });
      expect(home.status, JSON.stringify(home.json)).toBe(202);
      const posts = h.slack.calls.length;
      const elsewhere = await postAlert(h.appUrl, {
        body: alertBody({ alert_title: 'Reach into Beta' }),
        query: { team: 'T0BETA', channel: 'C0BETA' },
      });
      expect(elsewhere.status).toBe(403);
      const dm = await postAlert(h.appUrl, {
        body: alertBody({ alert_title: 'Into a DM' }),
        query: { team: 'T0ALPHA', channel: 'D0ANNA' },
      });
      expect(dm.status).toBe(400);
      expect(dm.json.error).toMatch(/never a DM/);
      expect(h.slack.calls.slice(posts).filter((call) => call.method === 'chat.postMessage')).toEqual([]);
    });

    it('gives Beta a token of its own that acts in Beta only, on the channel’s binding; rotate replaces it', async () => {
      const shown = await command('b', 'alerts webhook', SHARED);
      expect(shown.response_type).toBe('ephemeral');
      const token = tokenIn(JSON.stringify(shown));
      expect(token).not.toBe('');
      expect(JSON.stringify(shown)).toContain(`/alerts?team=T0BETA&amp;channel=${SHARED}`);
      // Shown again, the same token (made on first use, kept sealed).
      expect(tokenIn(await said('b', 'alerts webhook', SHARED))).toBe(token);
      const beta = { via: 'bearer' as const, value: token };

      const posts = h.slack.calls.length;
      const intoAlpha = await postAlert(h.appUrl, {
        body: alertBody({ alert_title: 'Beta into Alpha' }),
        query: { team: 'T0ALPHA', channel: 'C0ALPHA' },
        token: beta,
      });
      expect(intoAlpha.status).toBe(403);
      expect(h.slack.calls.slice(posts).filter((call) => call.method === 'chat.postMessage')).toEqual([]);
      // Alpha's own channel is not Beta's: Slack takes no card there from Beta's token.
      const foreign = await postAlert(h.appUrl, {
        body: alertBody({ alert_title: 'Beta into Alpha’s channel' }),
        query: { channel: 'C0ALPHA' },
        token: beta,
      });
      expect(foreign.status).toBe(502);
      expect(JSON.stringify(h.slack.messages('C0ALPHA'))).not.toContain('Beta into Alpha');

      // In Beta's unbound channel: the card says why, and nothing reaches any service.
      const runsBefore = h.sim.runs().length + betaService.runs().length;
      const unbound = await postAlert(h.appUrl, {
        body: alertBody({ alert_title: 'Beta unbound' }),
        query: { channel: 'C0BETA' },
        token: beta,
      });
      expect(unbound.status, JSON.stringify(unbound.json)).toBe(202);
      expect(unbound.json).toMatchObject({ outcome: 'limited', reason: 'unbound' });
      expect(h.sim.runs().length + betaService.runs().length).toBe(runsBefore);

      // In the shared channel Beta bound: investigated on Beta's agent and connection.
      const bound = await postAlert(h.appUrl, {
        body: alertBody({
          alert_title: 'Beta bound',
          alert_description: `latency ${simDirective({ steps: 1, answer: 'Beta alert verdict.' })}`,
        }),
        query: { channel: SHARED, team: 'T0BETA' },
        token: beta,
      });
      expect(bound.status, JSON.stringify(bound.json)).toBe(202);
      expect(bound.json).toMatchObject({ outcome: 'investigating' });
      const answer = await h.waitForOutcome(SHARED, String(bound.json.ts), 15_000);
      expect(answer).toMatchObject({ user: WORKSPACES.b.botUserId });
      expect(betaService.runs().length).toBeGreaterThanOrEqual(2);
      expect(h.sim.runs().length + betaService.runs().length).toBe(runsBefore + 1);

      const rotated = tokenIn(await said('b', 'alerts webhook rotate', SHARED));
      expect(rotated).not.toBe(token);
      const old = await postAlert(h.appUrl, {
        body: alertBody({ alert_title: 'Old token' }),
        query: { channel: 'C0BETA' },
        token: beta,
      });
      expect(old.status).toBe(401);
      const fresh = await postAlert(h.appUrl, {
        body: alertBody({ alert_title: 'New token' }),
        query: { channel: 'C0BETA' },
        token: { via: 'header', value: rotated },
      });
      expect(fresh.status).toBe(202);
    });
  });
});
