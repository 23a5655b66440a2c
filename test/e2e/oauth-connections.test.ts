import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIM_AGENTS, type Simulator, startSimulator } from '../../dev/simulator/index.js';
import { submitNewestFormFields } from '../../dev/slack-standin/index.js';
import { CONNECTION_BLOCKS } from '../../src/slack/views/connection-form.js';
import { oauthCommand } from '../support/oauth-command.js';
import {
  installThroughPages,
  OAUTH_SIGNING_SECRET,
  type OAuthHarness,
  PEOPLE,
  startOAuthHarness,
} from '../support/oauth-harness.js';
import { homeTabOpenedEvent } from '../support/slack-events.js';

/**
 * Service connections when the app is distributed (DESIGN "Many accounts", "Many workspaces"): a
 * connection belongs to the installation whose admin added it. Another installation's admins
 * neither see it (`/agent connections`, App Home) nor bind a channel to it, remove it, or learn
 * more than that its alias is taken: one organisation's token never serves another's channels.
 * App Home lists each installation's own channel agents, watched channels, agents seen and weekly
 * figures too.
 */
const ALPHA_TOKEN = 'sim-alpha-account-token-not-real';

describe('service connections belong to their installation (OAuth)', () => {
  let h: OAuthHarness;
  let alphaService: Simulator;
  beforeAll(async () => {
    alphaService = await startSimulator({ quiet: true, longPollMs: 500, agentToken: ALPHA_TOKEN });
    h = await startOAuthHarness({ env: { ADMIN_USER_IDS: `${PEOPLE.a.id},${PEOPLE.b.id}` } });
    for (const place of ['Alpha', 'Beta']) {
      const flow = await installThroughPages(h, place);
      expect(flow.redirect.status, flow.redirectHtml).toBe(200);
    }
  });
  afterAll(async () => {
    await h?.stop();
    await alphaService?.close();
  });

  const admins = {
    a: { user: PEOPLE.a.id, team: 'T0ALPHA', channel: 'C0ALPHA' },
    b: { user: PEOPLE.b.id, team: 'T0BETA', channel: 'C0BETA' },
  };

  /** `/agent <text>` by the place's admin in its channel; resolves with the reply's text. */
  const command = async (place: 'a' | 'b', text: string): Promise<string> =>
    JSON.stringify(await oauthCommand(h, admins[place], text));

  async function addThroughForm(place: 'a' | 'b', alias: string, address: string, token: string) {
    expect(await command(place, 'connections add')).toContain('form');
    const answer = await submitNewestFormFields(
      h.slack,
      { appUrl: h.appUrl, signingSecret: OAUTH_SIGNING_SECRET },
      {
        [CONNECTION_BLOCKS.alias]: alias,
        [CONNECTION_BLOCKS.address]: address,
        [CONNECTION_BLOCKS.token]: token,
      },
      { user: admins[place].user, team: admins[place].team, userTeam: admins[place].team },
    );
    expect(answer.status).toBe(200);
    return answer.body;
  }

  it('lists, binds and removes a connection only in the installation that added it', async () => {
    const added = await addThroughForm('a', 'alpha-prod', alphaService.url, ALPHA_TOKEN);
    expect(added).toContain('alpha-prod');
    expect(added).not.toContain('errors');

    expect(await command('a', 'connections')).toContain('alpha-prod');
    const betaListing = await command('b', 'connections');
    expect(betaListing).toContain('default');
    expect(betaListing).not.toContain('alpha-prod');

    // Beta cannot run its channel on Alpha's account, nor remove Alpha's connection.
    expect(await command('b', 'channel use some-agent on alpha-prod')).toMatch(/alpha-prod/);
    expect(await command('b', 'channel')).not.toContain('alpha-prod');
    await command('b', 'connections remove alpha-prod');
    expect(await command('a', 'connections')).toContain('alpha-prod');

    // Beta's admin learns only that the alias is taken.
    const taken = await addThroughForm('b', 'alpha-prod', alphaService.url, ALPHA_TOKEN);
    expect(taken).toContain('is taken');
    expect(taken).not.toContain('exists');

    // Alpha binds its channel to it; Alpha's runs go to Alpha's account with Alpha's token.
    expect(await command('a', `channel use ${SIM_AGENTS.api} on alpha-prod`)).toContain('alpha-prod');
    const asked = await h.mention('a', 'errors in checkout?');
    const outcome = await h.waitForOutcome(asked.channel, asked.threadTs);
    expect(outcome.metadata?.event_type).toBe('agent_answer');
    expect(alphaService.runs().map((run) => run.prompts[0])).toEqual(['errors in checkout?']);
    expect(h.sim.runs()).toEqual([]);
  });

  it('shows each admin’s App Home only their installation’s connections, channel agents, watches, agents and weekly figures', async () => {
    await command('a', 'channel investigate on');
    // An agent seen only in Alpha (enabled there, on Alpha's connection).
    expect(await command('a', `enable ${SIM_AGENTS.alert}`)).toContain('enabled');
    const homeOf = async (place: 'a' | 'b') => {
      const user = admins[place].user;
      const before = h.slack.homePublishes(user);
      await h.send(place, homeTabOpenedEvent({ user }));
      await h.slack.waitFor(() => h.slack.homePublishes(user) > before, { description: `${user}'s home` });
      return JSON.stringify(h.slack.homeOf(user)?.blocks ?? []);
    };
    // Alpha's answered question is counted beside the turn: open until it shows (bounded).
    let alpha = await homeOf('a');
    for (let tries = 0; tries < 50 && !alpha.includes('Answers: *1*'); tries++) alpha = await homeOf('a');
    expect(alpha).toMatch(/Runs: \*1\* · Answers: \*1\*/);
    expect(alpha).toContain('alpha-prod');
    expect(alpha).toContain(SIM_AGENTS.alert);
    expect(alpha).toContain(`<#C0ALPHA> → \`${SIM_AGENTS.api}\``);
    expect(alpha).toMatch(/Watched channels.*<#C0ALPHA>/);
    // Opened right after, within the minute of cached health: still Beta's own list.
    const beta = await homeOf('b');
    expect(beta).toContain('default');
    expect(beta).not.toContain('alpha-prod');
    expect(beta).not.toContain('C0ALPHA');
    expect(beta).not.toContain(SIM_AGENTS.alert);
    // This week's figures are each installation's own: Beta asked nothing.
    expect(beta).toMatch(/Runs: \*0\* · Answers: \*0\*/);
  });
});
