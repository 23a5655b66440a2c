import { ConfigError, loadConfig } from '../../src/config/load-config.js';

/** The fewest variables a one-workspace bot starts with (obviously fake values). */
export const MINIMAL_ENV = {
  SLACK_BOT_TOKEN: 'xoxb-test-not-real',
  SLACK_SIGNING_SECRET: 'test-secret',
  AGENT_API_URL: 'api-eu.logz.io',
  AGENT_API_TOKEN: 'test-agent-token',
  AGENT_ID: 'agent-1',
};

/** What loadConfig says is wrong with `env` (empty when it loads). */
export function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}
