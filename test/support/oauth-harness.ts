import { SIM_AGENTS, SIM_TOKENS, startSimulator } from '../../dev/simulator/index.js';
import {
  appMentionEvent,
  eventCallback,
  messageEvent,
  type StandinWorkspace,
  type StoredMessage,
  startSlackStandin,
} from '../../dev/slack-standin/index.js';
import { loadConfig } from '../../src/config/load-config.js';
import type { Clock } from '../../src/runtime/clock.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { type RunningBot, startBot } from '../../src/start-bot.js';
import { postEvent } from './slack-events.js';

/**
 * The real bot in OAuth mode (DESIGN "Many workspaces") against the simulator and a Slack stand-in
 * that knows several installable places, each with its own channels and people.
 */

export const OAUTH_SIGNING_SECRET = 'test-signing-secret-not-real';
export const OAUTH_CLIENT_ID = '1111.2222';
export const OAUTH_CLIENT_SECRET = 'test-client-secret-not-real';

/** Two workspaces and a Grid org installed org-wide. */
export const WORKSPACES: Record<'a' | 'b' | 'org', StandinWorkspace> = {
  a: { teamId: 'T0ALPHA', teamName: 'Alpha', botUserId: 'UBOTALPHA', botId: 'BALPHA', channels: ['C0ALPHA'] },
  b: { teamId: 'T0BETA', teamName: 'Beta', botUserId: 'UBOTBETA', botId: 'BBETA', channels: ['C0BETA'] },
  org: {
    teamId: 'T0GRIDONE',
    teamName: 'Grid One',
    enterpriseId: 'E0GRID',
    enterpriseName: 'Grid Corp',
    orgWide: true,
    botUserId: 'UBOTGRID',
    botId: 'BGRID',
    channels: ['C0GRID'],
  },
};

/** People of each place: Anna of Alpha, Ben of Beta, Carl of a Grid org's workspace. */
export const PEOPLE = {
  a: { id: 'UANNA', team_id: 'T0ALPHA' },
  b: { id: 'UBEN', team_id: 'T0BETA' },
  org: { id: 'UCARL', team_id: 'T0GRIDTWO', enterprise_id: 'E0GRID' },
};

export async function startOAuthHarness(
  options: { env?: Record<string, string> /** The schedule ticker's clock. */; scheduleClock?: Clock } = {},
) {
  const botOptions = {
    logger: silentLogger,
    ...(options.scheduleClock ? { scheduleClock: options.scheduleClock } : {}),
  };
  const sim = await startSimulator({ quiet: true, longPollMs: 500 });
  const slack = await startSlackStandin({
    oauth: {
      clientId: OAUTH_CLIENT_ID,
      clientSecret: OAUTH_CLIENT_SECRET,
      workspaces: Object.values(WORKSPACES),
    },
  });
  for (const person of Object.values(PEOPLE)) slack.addUser({ ...person, name: person.id.toLowerCase() });
  const config = loadConfig({
    SLACK_CLIENT_ID: OAUTH_CLIENT_ID,
    SLACK_CLIENT_SECRET: OAUTH_CLIENT_SECRET,
    SLACK_STATE_SECRET: 'test-state-secret-not-real',
    SLACK_AUTHORIZE_URL: slack.authorizeUrl,
    STATE_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
    SLACK_SIGNING_SECRET: OAUTH_SIGNING_SECRET,
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    AGENT_API_URL: sim.url,
    AGENT_API_TOKEN: SIM_TOKENS.agent,
    AGENT_ID: SIM_AGENTS.api,
    LOG_LEVEL: 'silent',
    // Every place home, as before tenants (DESIGN "The home workspaces"): tests of tenancy set their own.
    HOME_TEAM_IDS: 'T0ALPHA,T0BETA,E0GRID',
    ...options.env,
  });
  let bridge: RunningBot;
  try {
    bridge = await startBot(config, botOptions);
  } catch (error) {
    await Promise.all([sim.close(), slack.close()]);
    throw error;
  }
  let appUrl = `http://127.0.0.1:${bridge.port}`;
  // The app's redirect URL as registered in its Slack settings.
  slack.oauth?.redirectUrls.push(`${appUrl}/slack/oauth_redirect`);

  /** The envelope Slack sends for an event in `place`: its installation in `authorizations`. */
  function envelope(place: keyof typeof WORKSPACES, event: object) {
    const w = WORKSPACES[place];
    const team = w.orgWide ? PEOPLE.org.team_id : w.teamId;
    return eventCallback(event as never, {
      teamId: team,
      enterpriseId: w.enterpriseId,
      authorizations: [
        {
          enterprise_id: w.enterpriseId ?? null,
          team_id: w.orgWide ? null : w.teamId,
          user_id: w.botUserId,
          is_bot: true,
          is_enterprise_install: w.orgWide === true,
        },
      ],
    });
  }

  return {
    sim,
    slack,
    config,
    get bridge() {
      return bridge;
    },
    get appUrl() {
      return appUrl;
    },
    envelope,
    /** A new bot process on the same configuration (and store): what a deploy or a crash does. */
    async restart() {
      await bridge.stop();
      bridge = await startBot(config, botOptions);
      appUrl = `http://127.0.0.1:${bridge.port}`;
      slack.oauth?.redirectUrls.push(`${appUrl}/slack/oauth_redirect`);
    },
    /** Sends any event of `place`, signed. */
    send: (place: keyof typeof WORKSPACES, event: object) =>
      postEvent(appUrl, OAUTH_SIGNING_SECRET, envelope(place, event)),

    /** A person of `place` mentions its bot in its channel: `app_mention` and `message`, as Slack sends. */
    async mention(place: keyof typeof WORKSPACES, text: string) {
      const w = WORKSPACES[place];
      const person = PEOPLE[place];
      const channel = w.channels?.[0] ?? '';
      const full = `<@${w.botUserId}> ${text}`;
      const stored = slack.recordUserMessage({ channel, user: person.id, text: full, team: person.team_id });
      const base = { channel, user: person.id, text: full, ts: stored.ts, team: person.team_id };
      const responses = await Promise.all([
        postEvent(
          appUrl,
          OAUTH_SIGNING_SECRET,
          envelope(place, appMentionEvent({ ...base, botUserId: w.botUserId })),
        ),
        postEvent(appUrl, OAUTH_SIGNING_SECRET, envelope(place, messageEvent(base))),
      ]);
      return { channel, threadTs: stored.ts, responses };
    },

    /** The thread's answer once it is in (an `agent_answer` or `agent_notice` message). */
    waitForOutcome(channel: string, threadTs: string, timeoutMs = 10_000): Promise<StoredMessage> {
      return slack.waitFor(
        () =>
          slack
            .messages(channel, threadTs)
            .find((m) => ['agent_answer', 'agent_notice'].includes(m.metadata?.event_type ?? '')),
        { timeoutMs, description: `an outcome in ${channel}/${threadTs}` },
      );
    },

    async stop() {
      await bridge.stop();
      await Promise.all([sim.close(), slack.close()]);
    },
  };
}

export type OAuthHarness = Awaited<ReturnType<typeof startOAuthHarness>>;

/**
 * A person installs the app as a browser would, without one: the install page (its state cookie),
 * the "Add to Slack" link, the stand-in's authorize page, its "Allow in <place>" link, back to the
 * app's redirect with the cookie. Resolves with every page seen.
 */
export async function installThroughPages(harness: OAuthHarness, allowIn: string) {
  const install = await fetch(`${harness.appUrl}/slack/install`);
  const installHtml = await install.text();
  const cookie = (install.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const addToSlack = linkNamed(installHtml, 'Add to Slack');
  const authorize = await fetch(addToSlack);
  const authorizeHtml = await authorize.text();
  const allow = linkNamed(authorizeHtml, `Allow in ${allowIn}`);
  const redirect = await fetch(allow, { headers: { cookie } });
  return {
    install,
    installHtml,
    cookie,
    addToSlack,
    authorizeHtml,
    allow,
    redirect,
    redirectHtml: await redirect.text(),
  };
}

/** The href of the link whose text is `name` (pages are ours and the stand-in's: plain anchors). */
export function linkNamed(html: string, name: string): string {
  for (const match of html.matchAll(/<a [^>]*href="([^"]*)"[^>]*>([^<]*)<\/a>/g)) {
    if (match[2]?.trim() === name)
      return (match[1] ?? '')
        .replaceAll('&amp;', '&')
        .replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c)));
  }
  throw new Error(`no link named "${name}" in:\n${html}`);
}
