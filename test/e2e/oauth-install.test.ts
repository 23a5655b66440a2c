import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appMentionEvent, eventCallback } from '../../dev/slack-standin/index.js';
import {
  installThroughPages,
  linkNamed,
  OAUTH_SIGNING_SECRET,
  type OAuthHarness,
  PEOPLE,
  startOAuthHarness,
  WORKSPACES,
} from '../support/oauth-harness.js';
import { postEvent, postSlashCommand } from '../support/slack-events.js';

/**
 * DESIGN "Many workspaces", end to end over HTTP: the install page, the state round trip, a bad
 * state, oauth.v2.access against the stand-in, events of two workspaces and of an org-wide install
 * each answered with its own installation's token, and uninstall / token revocation forgetting one.
 */
describe('OAuth distribution (many workspaces)', () => {
  let h: OAuthHarness;
  beforeAll(async () => {
    h = await startOAuthHarness();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('serves an install page whose "Add to Slack" link carries the state its cookie holds', async () => {
    const install = await fetch(`${h.appUrl}/slack/install`);
    expect(install.status).toBe(200);
    expect(install.headers.get('content-type')).toContain('text/html');
    const html = await install.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toMatch(/<title>Add the agent bot to Slack<\/title>/);
    expect(html.match(/<h1>/g)).toHaveLength(1);
    const link = new URL(linkNamed(html, 'Add to Slack'));
    expect(`${link.origin}${link.pathname}`).toBe(h.slack.authorizeUrl);
    expect(link.searchParams.get('client_id')).toBe('1111.2222');
    expect(link.searchParams.get('scope')?.split(',')).toEqual(
      expect.arrayContaining(['chat:write', 'users:read']),
    );
    const state = link.searchParams.get('state');
    expect(state).toBeTruthy();
    expect(install.headers.get('set-cookie')).toContain(`slack-app-oauth-state=${state}`);
  });

  it('installs into a workspace: state checked, code exchanged with oauth.v2.access, success page', async () => {
    const flow = await installThroughPages(h, 'Alpha');
    expect(flow.redirect.status, flow.redirectHtml).toBe(200);
    expect(flow.redirectHtml).toContain('<h1>The agent bot is installed</h1>');
    expect(flow.redirectHtml).toContain('It is installed in Alpha.');
    const exchange = h.slack.calls.filter((call) => call.method === 'oauth.v2.access');
    expect(exchange.at(-1)).toMatchObject({ ok: true, args: { client_id: '1111.2222' } });
    // The client secret is sent (the stand-in checked it) and never logged by it.
    expect(JSON.stringify(exchange)).not.toContain('test-client-secret-not-real');
  });

  it('refuses a redirect whose state is not the browser’s, with a page saying why', async () => {
    const install = await fetch(`${h.appUrl}/slack/install`);
    const cookie = (install.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const authorize = await (await fetch(linkNamed(await install.text(), 'Add to Slack'))).text();
    const allow = new URL(linkNamed(authorize, 'Allow in Beta'));
    allow.searchParams.set('state', 'forged-state');
    const before = h.slack.callCount('oauth.v2.access');
    const redirect = await fetch(allow, { headers: { cookie } });
    const html = await redirect.text();
    expect(redirect.status).toBe(400);
    expect(html).toContain('<h1>The agent bot was not installed</h1>');
    expect(html).toContain('The install link has expired or was opened in another browser');
    expect(linkNamed(html, 'Start the installation again')).toBe('/slack/install');
    // Nothing was exchanged: the code is never sent to Slack for a state that does not match.
    expect(h.slack.callCount('oauth.v2.access')).toBe(before);
  });

  it('refuses the redirect without the state cookie (another browser)', async () => {
    const install = await fetch(`${h.appUrl}/slack/install`);
    const allow = linkNamed(
      await (await fetch(linkNamed(await install.text(), 'Add to Slack'))).text(),
      'Allow in Beta',
    );
    const redirect = await fetch(allow);
    expect(redirect.status).toBe(400);
    expect(await redirect.text()).toContain('opened in another browser');
  });

  it('answers each workspace with its own token and identity', async () => {
    await installThroughPages(h, 'Beta');
    const [alpha, beta] = await Promise.all([
      h.mention('a', 'errors in checkout?'),
      h.mention('b', 'latency?'),
    ]);
    for (const response of [...alpha.responses, ...beta.responses]) expect(response.status).toBe(200);
    const [answerA, answerB] = await Promise.all([
      h.waitForOutcome(alpha.channel, alpha.threadTs),
      h.waitForOutcome(beta.channel, beta.threadTs),
    ]);
    // Posted by each workspace's own bot, with each installation's token.
    expect(answerA).toMatchObject({ user: WORKSPACES.a.botUserId, metadata: { event_type: 'agent_answer' } });
    expect(answerB).toMatchObject({ user: WORKSPACES.b.botUserId, metadata: { event_type: 'agent_answer' } });
    const posts = h.slack.calls.filter((call) => call.method === 'chat.postMessage' && call.ok);
    expect(posts.filter((call) => call.args.channel === 'C0ALPHA').map((call) => call.team)).toEqual(
      expect.arrayContaining(['T0ALPHA']),
    );
    expect(posts.filter((call) => call.args.channel === 'C0ALPHA' && call.team !== 'T0ALPHA')).toEqual([]);
    expect(posts.filter((call) => call.args.channel === 'C0BETA' && call.team !== 'T0BETA')).toEqual([]);
    // No call went out without an installation's token, nor was any refused as another's.
    expect(
      h.slack.calls.filter((call) => call.error === 'not_authed' || call.error === 'channel_not_found'),
    ).toEqual([]);
    // The agent got the question without the workspace's bot mention.
    const prompts = h.sim.runs().flatMap((run) => run.prompts);
    expect(prompts).toContain('errors in checkout?');
    expect(prompts.join('\n')).not.toContain('UBOTALPHA');
  });

  it('installs org-wide on Enterprise Grid and answers a person of any workspace of the org', async () => {
    const flow = await installThroughPages(h, 'the Grid Corp organisation');
    expect(flow.redirect.status, flow.redirectHtml).toBe(200);
    expect(flow.redirectHtml).toContain('installed for the whole organisation Grid Corp');
    const asked = await h.mention('org', 'what broke?');
    const answer = await h.waitForOutcome(asked.channel, asked.threadTs);
    expect(answer).toMatchObject({
      user: WORKSPACES.org.botUserId,
      metadata: { event_type: 'agent_answer' },
    });
    const posts = h.slack.calls.filter(
      (call) => call.method === 'chat.postMessage' && call.args.channel === 'C0GRID',
    );
    expect(posts.map((call) => call.team)).toContain('E0GRID');
    // Carl is of another workspace of the org: inside by his enterprise (users.info with the org's token).
    expect(
      h.slack.calls.some(
        (call) => call.method === 'users.info' && call.args.user === PEOPLE.org.id && call.team === 'E0GRID',
      ),
    ).toBe(true);
  });

  it('judges who is inside by the installation: Beta’s person is outside in Alpha’s channel', async () => {
    const text = `<@${WORKSPACES.a.botUserId}> may I?`;
    const stored = h.slack.recordUserMessage({ channel: 'C0ALPHA', user: PEOPLE.b.id, text, team: 'T0BETA' });
    const event = { channel: 'C0ALPHA', user: PEOPLE.b.id, text, ts: stored.ts, team: 'T0BETA' };
    const runsBefore = h.sim.runs().length;
    await h.send('a', appMentionEvent({ ...event, botUserId: WORKSPACES.a.botUserId }));
    const refusal = await h.slack.waitFor(() => h.slack.ephemerals('C0ALPHA', PEOPLE.b.id)[0], {
      description: 'the refusal Ben sees',
    });
    expect(refusal.text).toMatch(/organisation|outside/i);
    expect(h.slack.calls.find((call) => call.method === 'chat.postEphemeral')?.team).toBe('T0ALPHA');
    expect(h.sim.runs().length).toBe(runsBefore);
  });

  it('serves /agent in a workspace with that installation', async () => {
    const responseUrl = h.slack.responseUrl();
    const id = responseUrl.split('/').pop() ?? '';
    const posted = await postSlashCommand(h.appUrl, OAUTH_SIGNING_SECRET, {
      command: '/agent',
      text: 'help',
      user_id: PEOPLE.a.id,
      channel_id: 'C0ALPHA',
      team_id: 'T0ALPHA',
      response_url: responseUrl,
    });
    expect(posted.status).toBe(200);
    const [reply] = await h.slack.waitFor(
      () => (h.slack.responses(id).length > 0 ? h.slack.responses(id) : undefined),
      {
        description: '/agent help answered',
      },
    );
    expect(JSON.stringify(reply)).toContain('/agent');
  });

  it('does not answer an event of a workspace that never installed the app', async () => {
    const stranger = h.slack.recordUserMessage({
      channel: 'C0NEVER',
      user: 'UDORA',
      text: '<@UBOTX> hi',
      team: 'T0NEVER',
    });
    const event = {
      channel: 'C0NEVER',
      user: 'UDORA',
      text: stranger.text,
      ts: stranger.ts,
      team: 'T0NEVER',
    };
    const response = await postEvent(
      h.appUrl,
      OAUTH_SIGNING_SECRET,
      eventCallback(appMentionEvent({ ...event, botUserId: 'UBOTX' }), {
        teamId: 'T0NEVER',
        authorizations: [
          {
            enterprise_id: null,
            team_id: 'T0NEVER',
            user_id: 'UBOTX',
            is_bot: true,
            is_enterprise_install: false,
          },
        ],
      }),
    );
    // Bolt finds no installation and authorizes nothing: no listener runs.
    expect(response.status).toBeGreaterThanOrEqual(200);
    const alpha = await h.mention('a', 'after the stranger');
    await h.waitForOutcome(alpha.channel, alpha.threadTs);
    expect(h.slack.calls.filter((call) => JSON.stringify(call.args).includes('C0NEVER'))).toEqual([]);
  });

  it('forgets a workspace on app_uninstalled, and an org on tokens_revoked', async () => {
    // Slack still takes the old tokens here: only the bot's own forgetting can keep it quiet.
    const uninstalled = await h.send('b', { type: 'app_uninstalled', event_ts: '1700000000.000100' });
    expect(uninstalled.status).toBe(200);
    const revoked = await h.send('org', {
      type: 'tokens_revoked',
      tokens: { oauth: [], bot: [WORKSPACES.org.botUserId] },
      event_ts: '1700000000.000200',
    });
    expect(revoked.status).toBe(200);
    const callsBefore = h.slack.calls.length;
    const beta = await h.mention('b', 'still there?');
    const org = await h.mention('org', 'anyone?');
    // Alpha, asked after them, is answered: the events before it were handled by then.
    const alpha = await h.mention('a', 'and now?');
    await h.waitForOutcome(alpha.channel, alpha.threadTs);
    const later = h.slack.calls.slice(callsBefore);
    expect(later.filter((call) => call.team === 'T0BETA' || call.team === 'E0GRID')).toEqual([]);
    expect(later.some((call) => call.team === 'T0ALPHA')).toBe(true);
    expect(h.slack.messages(beta.channel, beta.threadTs)).toHaveLength(1);
    expect(h.slack.messages(org.channel, org.threadTs)).toHaveLength(1);
  });
});
