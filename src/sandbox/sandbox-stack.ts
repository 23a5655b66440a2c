import { randomBytes } from 'node:crypto';
import { type Config, loadConfig } from '../config.js';
import type { OutsiderPolicy } from '../conversation/access/answer-place.js';
import { localBotEnv } from '../local-stack/bot-env.js';
import type { Logger } from '../runtime/logger.js';
import { type SimScript, type Simulator, startSimulator } from '../simulator/index.js';
import { type SlackStandin, startSlackStandin, TEST_BOT_TOKEN } from '../slack-standin/index.js';
import { startBot } from '../start-bot.js';

/** The person at the keyboard: a workspace member listed in ADMIN_USER_IDS. */
export const SANDBOX_USER = { id: 'USANDBOX', name: 'you' } as const;
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
  const slack = await startSlackStandin({ botToken: TEST_BOT_TOKEN }).catch(async (error: unknown) => {
    await Promise.all([sim.close(), demoSim.close()]);
    throw error;
  });
  slack.addUser({ id: SANDBOX_USER.id, name: SANDBOX_USER.name, real_name: 'You (sandbox)' });
  const signingSecret = randomBytes(24).toString('hex');
  const alertToken = randomBytes(24).toString('hex');
  let config: Config;
  let bridge: Awaited<ReturnType<typeof startBot>>;
  try {
    config = loadConfig(
      sandboxEnv(sim, slack, signingSecret, options.logLevel, options.outsiderAudience, alertToken),
    );
    bridge = await startBot(config, { logger: options.logger });
  } catch (error) {
    await Promise.all([sim.close(), demoSim.close(), slack.close()]);
    throw error;
  }
  let stopping: Promise<void> | undefined;
  return {
    sim,
    demoSim,
    demoToken: DEMO_TOKEN,
    slack,
    config,
    script: options.script,
    appUrl: `http://127.0.0.1:${bridge.port}`,
    signingSecret,
    alertToken,
    stop() {
      stopping ??= (async () => {
        await bridge.stop();
        await Promise.all([sim.close(), demoSim.close(), slack.close()]);
      })();
      return stopping;
    },
  };
}
