import { SIM_AGENTS, SIM_TOKENS } from '../simulator/index.js';
import { TEST_BOT_TOKEN } from '../slack-standin/index.js';

/**
 * The bot's environment against the local stand-ins: the same variables `npm start` reads, every
 * address on loopback, port 0, obviously fake tokens the simulator and the Slack stand-in accept.
 * One builder for the end-to-end tests, the sandbox and the bench; each adds its own overrides.
 */
export function localBotEnv(
  stand: { simUrl: string; slackApiUrl: string; signingSecret: string },
  overrides: Record<string, string> = {},
): Record<string, string> {
  return {
    SLACK_BOT_TOKEN: TEST_BOT_TOKEN,
    SLACK_SIGNING_SECRET: stand.signingSecret,
    SLACK_API_URL: stand.slackApiUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    AGENT_API_URL: stand.simUrl,
    AGENT_API_TOKEN: SIM_TOKENS.agent,
    AGENT_ID: SIM_AGENTS.api,
    ACCOUNT_API_TOKEN: SIM_TOKENS.main,
    ...overrides,
  };
}
