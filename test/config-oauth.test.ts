import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load-config.js';
import { configProblems as problems } from './support/config-env.js';

/** DESIGN "Many workspaces": SLACK_BOT_TOKEN for one workspace, or the three OAuth variables. */

const base = {
  SLACK_SIGNING_SECRET: 'test-secret',
  AGENT_API_URL: 'api-eu.logz.io',
  AGENT_API_TOKEN: 'test-agent-token',
  AGENT_ID: 'agent-1',
};
const oauth = {
  SLACK_CLIENT_ID: '1111.2222',
  SLACK_CLIENT_SECRET: 'test-client-secret-not-real',
  SLACK_STATE_SECRET: 'test-state-secret-not-real',
  STATE_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
};

describe('OAuth distribution config', () => {
  it('needs no SLACK_BOT_TOKEN once the three OAuth variables are set', () => {
    const config = loadConfig({ ...base, ...oauth });
    expect(config.slack.botToken).toBeUndefined();
    expect(config.slack.oauth).toEqual({
      clientId: '1111.2222',
      clientSecret: 'test-client-secret-not-real',
      stateSecret: 'test-state-secret-not-real',
      redirectUri: undefined,
      authorizeUrl: 'https://slack.com/oauth/v2/authorize',
    });
  });

  it('keeps single-workspace mode the default', () => {
    const config = loadConfig({ ...base, SLACK_BOT_TOKEN: 'xoxb-test-not-real' });
    expect(config.slack.oauth).toBeUndefined();
    expect(problems(base)).toEqual([
      'SLACK_BOT_TOKEN: is required (or set SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET to install the app through OAuth)',
    ]);
  });

  it('names the OAuth variables still missing', () => {
    expect(problems({ ...base, SLACK_CLIENT_ID: '1111.2222' })).toEqual(
      expect.arrayContaining([
        'SLACK_CLIENT_SECRET: is required with SLACK_CLIENT_ID (OAuth)',
        'SLACK_STATE_SECRET: is required with SLACK_CLIENT_ID (OAuth)',
      ]),
    );
  });

  it('refuses OAuth without STATE_ENCRYPTION_KEY, in a sentence naming it', () => {
    const { STATE_ENCRYPTION_KEY: _key, ...withoutKey } = oauth;
    const found = problems({ ...base, ...withoutKey });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^STATE_ENCRYPTION_KEY: is required with SLACK_CLIENT_ID: Slack installations/);
  });

  it.each([
    [
      { SLACK_BOT_TOKEN: 'xoxb-test-not-real' },
      'SLACK_CLIENT_ID: cannot be set together with SLACK_BOT_TOKEN',
    ],
    [{ SLACK_APP_TOKEN: 'xapp-test-not-real' }, 'SLACK_APP_TOKEN: OAuth distribution'],
    [
      { SLACK_REDIRECT_URI: 'https://bot.example.com/callback' },
      'SLACK_REDIRECT_URI: must be the public address',
    ],
    [{ SLACK_AUTHORIZE_URL: 'slack.com/oauth' }, 'SLACK_AUTHORIZE_URL: must be an http:// or https:// URL'],
  ])('refuses %o', (extra, problem) => {
    expect(problems({ ...base, ...oauth, ...extra }).join('\n')).toContain(problem);
  });

  it('takes the public redirect address and another authorize page', () => {
    const config = loadConfig({
      ...base,
      ...oauth,
      SLACK_REDIRECT_URI: 'https://bot.example.com/slack/oauth_redirect',
      SLACK_AUTHORIZE_URL: 'http://127.0.0.1:9/oauth/v2/authorize',
    });
    expect(config.slack.oauth?.redirectUri).toBe('https://bot.example.com/slack/oauth_redirect');
    expect(config.slack.oauth?.authorizeUrl).toBe('http://127.0.0.1:9/oauth/v2/authorize');
  });
});
