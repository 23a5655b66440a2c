import { randomBytes } from 'node:crypto';
import { type Config, loadConfig } from '../../src/config/load-config.js';
import type { OutsiderPolicy } from '../../src/conversation/access/answer-place.js';
import type { Logger } from '../../src/runtime/logger.js';
import { startBot } from '../../src/start-bot.js';
import { localBotEnv } from '../local-stack/bot-env.js';
import { type SimScript, type Simulator, startSimulator } from '../simulator/index.js';
import {
  DEFAULT_BOT_ID,
  DEFAULT_BOT_USER_ID,
  DEFAULT_TEAM_ID,
  type SlackStandin,
  startSlackStandin,
  TEST_BOT_TOKEN,
} from '../slack-standin/index.js';
import { createScheduleClock, type ScheduleClock } from './schedule-clock.js';

/** The person at the keyboard: a workspace member listed in ADMIN_USER_IDS. */
export const SANDBOX_USER = { id: 'USANDBOX', name: 'you' } as const;
/** The sandbox person's Slack time zone (users.info `tz`): the bot reads their times, schedules included, in it. */
export const SANDBOX_ZONE = 'Europe/London';
/** The demo account's token: obviously fake, taken only by the second simulator. */
const DEMO_TOKEN = 'sim-demo-account-token-not-real';
/** The demo account, as its simulator's whoami names it: not the default connection's account. */
export const DEMO_ACCOUNT = { accountId: 300001, accountName: 'Demo Team' } as const;
/** The channel the sandbox chats in. */
export const SANDBOX_CHANNEL = { id: 'C0SANDBOX', name: 'sandbox' } as const;

/** How the chat reads Slack's `<@U…>` and `<#C…>` for the sandbox's own person and channel. */
export const SANDBOX_NAMES: Readonly<Record<string, string>> = {
  [SANDBOX_USER.id]: SANDBOX_USER.name,
  [SANDBOX_CHANNEL.id]: SANDBOX_CHANNEL.name,
};

/** Everything `npm run sandbox` runs, all on 127.0.0.1 with ephemeral ports. */
export interface SandboxStack {
  sim: Simulator;
  /** A second simulator: another account, for `/agent connections add` (DESIGN "Many accounts"). */
  demoSim: Simulator;
  /** The demo account's token (the second simulator takes only this one). */
  demoToken: string;
  slack: SlackStandin;
  config: Config;
  /** The simulator's script for turns without a `[sim …]` directive. */
  script: SimScript;
  /** Where Slack would send events: `${appUrl}/slack/events`. */
  appUrl: string;
  /** Random per run; the sandbox signs every request it sends the bot with it. */
  signingSecret: string;
  /** Random per run: ALERT_WEBHOOK_TOKEN, which `/webhook` sends to POST /alerts. */
  alertToken: string;
  /** The bot's schedule clock (`startBot`'s `scheduleClock`): `/schedule --now` moves it alone. */
  scheduleClock: ScheduleClock;
  /** With `oauth`: the bot's install page, to open in a browser. */
  installUrl?: string;
  /** Stops the bot, then the simulator and the stand-in. Safe to call twice. */
  stop(): Promise<void>;
}

/** Options of {@link startSandboxStack}. */
export interface SandboxStackOptions {
  /** The simulator's script for turns without a `[sim …]` directive. */
  script: SimScript;
  logger: Logger;
  logLevel: string;
  /** The bot's `OUTSIDER_AUDIENCE` (what `/shared` shows). Default `dm`, as the bot's own default. */
  outsiderAudience?: OutsiderPolicy;
  /**
   * OAuth distribution (`--oauth`): the bot runs with client credentials and no bot token, and
   * the stand-in plays Slack's authorize page and `oauth.v2.access` for one workspace.
   */
  oauth?: boolean;
}

/**
 * The bot's environment, built in code: the same variables `npm start` reads, with obviously fake
 * tokens the stand-in and the simulator accept. No Redis: the in-process store.
 */
export function sandboxEnv(
  sim: Pick<Simulator, 'url'>,
  slack: Pick<SlackStandin, 'apiUrl'>,
  signingSecret: string,
  logLevel: string,
  outsiderAudience: OutsiderPolicy = 'dm',
  alertToken = randomBytes(24).toString('hex'),
): Record<string, string> {
  return localBotEnv(
    { simUrl: sim.url, slackApiUrl: slack.apiUrl, signingSecret },
    {
      ADMIN_USER_IDS: SANDBOX_USER.id,
      INSTANCE_ID: 'sandbox',
      LOG_LEVEL: logLevel,
      OUTSIDER_AUDIENCE: outsiderAudience,
      ALERT_WEBHOOK_TOKEN: alertToken,
      ALERT_CHANNEL_ID: SANDBOX_CHANNEL.id,
      // Random per run: connections added in the sandbox live in its memory only.
      STATE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    },
  );
}

/**
 * The one workspace `--oauth` installs into: the stand-in's own team, bot user and #sandbox, so the
 * chat's events name the installation the bot stores.
 */
export const SANDBOX_WORKSPACE = {
  teamId: DEFAULT_TEAM_ID,
  teamName: 'Sandbox Co',
  botUserId: DEFAULT_BOT_USER_ID,
  botId: DEFAULT_BOT_ID,
  channels: [SANDBOX_CHANNEL.id],
} as const;

/** The sandbox app's OAuth credentials: obviously fake, known to the stand-in and the bot only. */
const SANDBOX_OAUTH = {
  clientId: '0000.sandbox',
  clientSecret: 'sandbox-client-secret-not-real',
  workspaces: [{ ...SANDBOX_WORKSPACE, channels: [...SANDBOX_WORKSPACE.channels] }],
};

/** The sandbox's environment for OAuth distribution: client credentials instead of a bot token. */
function oauthEnv(env: Record<string, string>, slack: SlackStandin): Record<string, string> {
  const { SLACK_BOT_TOKEN: _none, ...rest } = env;
  return {
    ...rest,
    SLACK_CLIENT_ID: SANDBOX_OAUTH.clientId,
    SLACK_CLIENT_SECRET: SANDBOX_OAUTH.clientSecret,
    SLACK_STATE_SECRET: randomBytes(24).toString('hex'),
    SLACK_AUTHORIZE_URL: slack.authorizeUrl,
    // The installed workspace is the home one: the default connection and ADMIN_USER_IDS serve it.
    HOME_TEAM_IDS: SANDBOX_WORKSPACE.teamId,
  };
}

/** Starts the simulator, the Slack stand-in and the real bot (startBot, as `npm start` does). */
export async function startSandboxStack(options: SandboxStackOptions): Promise<SandboxStack> {
  // A short long-poll keeps shutdown quick: stopping waits for the poll in flight.
  const sim = await startSimulator({ quiet: true, longPollMs: 1_000, defaultScript: options.script });
  const demo = {
    quiet: true,
    longPollMs: 1_000,
    defaultScript: options.script,
    agentToken: DEMO_TOKEN,
    agentAccount: DEMO_ACCOUNT,
  };
  const demoSim = await startSimulator(demo).catch(async (error: unknown) => {
    await sim.close();
    throw error;
  });
  const standin = options.oauth ? { oauth: SANDBOX_OAUTH } : { botToken: TEST_BOT_TOKEN };
  const slack = await startSlackStandin(standin).catch(async (error: unknown) => {
    await Promise.all([sim.close(), demoSim.close()]);
    throw error;
  });
  slack.addUser({
    id: SANDBOX_USER.id,
    name: SANDBOX_USER.name,
    real_name: 'You (sandbox)',
    tz: SANDBOX_ZONE,
  });
  const signingSecret = randomBytes(24).toString('hex');
  const alertToken = randomBytes(24).toString('hex');
  const scheduleClock = createScheduleClock();
  let config: Config;
  let bridge: Awaited<ReturnType<typeof startBot>>;
  try {
    const env = sandboxEnv(sim, slack, signingSecret, options.logLevel, options.outsiderAudience, alertToken);
    config = loadConfig(options.oauth ? oauthEnv(env, slack) : env);
    bridge = await startBot(config, { logger: options.logger, scheduleClock });
  } catch (error) {
    await Promise.all([sim.close(), demoSim.close(), slack.close()]);
    throw error;
  }
  let stopping: Promise<void> | undefined;
  const appUrl = `http://127.0.0.1:${bridge.port}`;
  // The redirect URL the app registers in its Slack settings (its port is known only now).
  slack.oauth?.redirectUrls.push(`${appUrl}/slack/oauth_redirect`);
  return {
    ...(options.oauth ? { installUrl: `${appUrl}/slack/install` } : {}),
    sim,
    demoSim,
    demoToken: DEMO_TOKEN,
    slack,
    config,
    script: options.script,
    appUrl,
    signingSecret,
    alertToken,
    scheduleClock,
    stop() {
      stopping ??= (async () => {
        await bridge.stop();
        await Promise.all([sim.close(), demoSim.close(), slack.close()]);
      })();
      return stopping;
    },
  };
}
