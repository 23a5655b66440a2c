import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SUGGESTED_PROMPTS,
  isLoopbackHost,
  loadConfig,
  normaliseBaseUrl,
} from '../src/config/load-config.js';
import { MINIMAL_ENV, configProblems as problems } from './support/config-env.js';

const minimal = MINIMAL_ENV;

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig(minimal);
    expect(config.slack.apiUrl).toBe('https://slack.com/api/');
    expect(config.slack.socketMode).toBe(false);
    expect(config.http.port).toBe(3000);
    expect(config.agent.baseUrl).toBe('https://api-eu.logz.io');
    expect(config.agent.accountToken).toBeUndefined();
    expect(config.agent.accountPathPrefix).toBe('');
    expect(config.agent.maxInFlight).toBe(50);
    expect(config.agent.pollShare).toBe(0.8);
    expect(config.agent.pollIntervalMs).toBe(250);
    expect(config.agent.turnDeadlineMs).toBe(30 * 60 * 1000);
    expect(config.agent.lateWatchMs).toBe(60 * 60 * 1000);
    expect(config.feedback).toEqual({
      name: 'slack-reaction',
      positiveEmoji: ['+1', 'thumbsup', 'white_check_mark', 'heart'],
      negativeEmoji: ['-1', 'thumbsdown', 'x'],
    });
    expect(config.state.redisUrl).toBeUndefined();
    expect(config.logLevel).toBe('info');
    expect(config.access.allowGuests).toBe(false);
  });

  it.each([
    ['api.logz.io', 'https://api.logz.io'],
    ['https://api-uk.logz.io/', 'https://api-uk.logz.io'],
    ['http://127.0.0.1:8787', 'http://127.0.0.1:8787'],
    ['127.0.0.1:8787', 'https://127.0.0.1:8787'],
  ])('reads AGENT_API_URL %s as %s', (input, expected) => {
    expect(normaliseBaseUrl(input)).toBe(expected);
    expect(loadConfig({ ...minimal, AGENT_API_URL: input }).agent.baseUrl).toBe(expected);
  });

  it('uses Socket Mode when SLACK_APP_TOKEN is set, without a signing secret', () => {
    const { SLACK_SIGNING_SECRET: _unused, ...rest } = minimal;
    const config = loadConfig({
      ...rest,
      SLACK_APP_TOKEN: 'xapp-test-not-real',
      SLACK_API_URL: 'http://127.0.0.1:1/api',
    });
    expect(config.slack.socketMode).toBe(true);
    expect(config.slack.apiUrl).toBe('http://127.0.0.1:1/api/');
  });

  it('names every missing variable at once', () => {
    expect(problems({}).map((line) => line.split(':')[0])).toEqual(
      expect.arrayContaining([
        'SLACK_BOT_TOKEN',
        'AGENT_API_URL',
        'AGENT_API_TOKEN',
        'AGENT_ID',
        'SLACK_SIGNING_SECRET',
      ]),
    );
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ AGENT_POLL_SHARE: '1.5' }, 'AGENT_POLL_SHARE'],
    [{ AGENT_POLL_INTERVAL_MS: '10' }, 'AGENT_POLL_INTERVAL_MS'],
    [{ AGENT_POLL_INTERVAL_MS: '60001' }, 'AGENT_POLL_INTERVAL_MS'],
    [{ AGENT_POLL_INTERVAL_MS: '0.5' }, 'AGENT_POLL_INTERVAL_MS'],
    [{ ACCOUNT_API_PATH_PREFIX: 'v1' }, 'ACCOUNT_API_PATH_PREFIX'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ FEEDBACK_NEGATIVE_EMOJI: '+1' }, 'FEEDBACK_NEGATIVE_EMOJI'],
    [{ ALLOW_EXTERNAL_USERS: 'maybe' }, 'ALLOW_EXTERNAL_USERS'],
    [{ ALLOW_GUESTS: 'sometimes' }, 'ALLOW_GUESTS'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL'],
    [{ REDIS_URL: 'http://localhost:6379' }, 'REDIS_URL'],
    [{ SLACK_APP_TOKEN: 'xoxb-test-not-real' }, 'SLACK_APP_TOKEN'],
  ])('refuses %o naming %s', (bad, name) => {
    expect(problems({ ...minimal, ...bad }).some((line) => line.startsWith(`${name}:`))).toBe(true);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT: must be a whole number'],
    [{ PORT: '70000' }, 'PORT: must be at most 65535'],
    [{ AGENT_MAX_IN_FLIGHT: '0' }, 'AGENT_MAX_IN_FLIGHT: must be at least 1'],
    [{ AGENT_POLL_SHARE: 'most' }, 'AGENT_POLL_SHARE: must be a number'],
    [{ LATE_ANSWER_WATCH_MINUTES: 'x' }, 'LATE_ANSWER_WATCH_MINUTES: must be a number'],
    [{ OUTSIDER_AUDIENCE: 'all' }, 'OUTSIDER_AUDIENCE: must be one of dm, thread, refuse'],
  ])('says what is wrong with %o in a sentence, as for every other variable', (bad, line) => {
    const found = problems({ ...minimal, ...bad });
    expect(found).toContain(line);
    expect(found.join('\n')).not.toMatch(/Invalid input|expected number|received NaN/);
  });

  it('says what a Redis URL and an app-level token look like', () => {
    expect(problems({ ...minimal, REDIS_URL: 'localhost:6379' })).toContain(
      'REDIS_URL: must be a redis:// or rediss:// URL, e.g. redis://localhost:6379',
    );
    expect(problems({ ...minimal, SLACK_APP_TOKEN: 'xoxb-test-not-real' })).toContain(
      'SLACK_APP_TOKEN: must be an app-level token (xapp-…) with connections:write, not a bot token (xoxb-…)',
    );
    expect(
      loadConfig({ ...minimal, REDIS_URL: 'rediss://user:pw@redis.example.com:6380/2' }).state.redisUrl,
    ).toBe('rediss://user:pw@redis.example.com:6380/2');
  });

  it('treats an empty number variable as unset, and lists the empty ones', () => {
    const config = loadConfig({ ...minimal, PORT: '', AGENT_POLL_SHARE: ' ', REDIS_URL: '' });
    expect(config.http.port).toBe(3000);
    expect(config.agent.pollShare).toBe(0.8);
    expect(config.state.redisUrl).toBeUndefined();
    expect(config.emptyVariables).toEqual(['PORT', 'AGENT_POLL_SHARE', 'REDIS_URL']);
    expect(loadConfig(minimal).emptyVariables).toEqual([]);
  });

  it('parses lists and flags', () => {
    const config = loadConfig({
      ...minimal,
      ADMIN_USER_IDS: ' U1, U2 ,',
      ALLOWED_CHANNEL_IDS: 'C1',
      ALLOW_EXTERNAL_USERS: 'true',
      ALLOW_GUESTS: 'true',
      ACCOUNT_API_PATH_PREFIX: '/v1',
      TURN_DEADLINE_SECONDS: '90',
      LATE_ANSWER_WATCH_MINUTES: '0.5',
    });
    expect(config.access).toEqual({
      adminUserIds: ['U1', 'U2'],
      allowedChannelIds: ['C1'],
      allowExternalUsers: true,
      allowGuests: true,
    });
    expect(config.agent.accountPathPrefix).toBe('/v1');
    expect(config.agent.turnDeadlineMs).toBe(90_000);
    expect(config.agent.lateWatchMs).toBe(30_000);
  });

  it('reads METRICS_TOKEN (unset: /metrics stays open) and refuses one that cannot be a bearer token', () => {
    expect(loadConfig(minimal).ops.metricsToken).toBeUndefined();
    expect(loadConfig({ ...minimal, METRICS_TOKEN: ' ' }).ops.metricsToken).toBeUndefined();
    expect(loadConfig({ ...minimal, METRICS_TOKEN: ' test-metrics-token \n' }).ops.metricsToken).toBe(
      'test-metrics-token',
    );
    expect(problems({ ...minimal, METRICS_TOKEN: 'two words' })).toEqual([
      expect.stringMatching(/^METRICS_TOKEN: must be one word/),
    ]);
  });

  it.each([
    ['AGENT_API_URL', 'http://api.logz.io', 'http://api.logz.io'],
    ['AGENT_API_URL', 'http://10.0.0.5:8787', 'http://10.0.0.5:8787'],
    ['AGENT_API_URL', 'HTTP://[::2]:8787/', 'http://[::2]:8787'],
    ['AGENT_API_URL', 'http://128.0.0.1', 'http://128.0.0.1'],
    ['AGENT_API_URL', 'http://localhost.example.com', 'http://localhost.example.com'],
    ['SLACK_API_URL', 'http://slack.com/api/', 'http://slack.com'],
    ['SLACK_API_URL', 'http://slack-standin:3100/api/', 'http://slack-standin:3100'],
  ])('refuses %s=%s: the token would travel in clear text', (name, value, origin) => {
    expect(problems({ ...minimal, [name]: value })).toEqual([
      `${name}: ${origin} is not on this machine, so the token would travel in clear text: use https:// (plain http:// is accepted only for localhost, 127.0.0.0/8 and ::1, or a host listed in ALLOW_HTTP_HOSTS)`,
    ]);
  });

  it('names both addresses when both are plain http:// elsewhere, beside other problems', () => {
    const names = problems({
      AGENT_API_URL: 'http://api.logz.io',
      SLACK_API_URL: 'http://slack.com/api/',
    }).map((line) => line.split(':')[0]);
    expect(names).toEqual(expect.arrayContaining(['AGENT_API_URL', 'SLACK_API_URL', 'SLACK_BOT_TOKEN']));
  });

  it.each([
    'http://127.0.0.1:8787',
    'http://127.10.20.30',
    'http://localhost:8787',
    'http://LOCALHOST:8787',
    'http://[::1]:8787',
    'http://[::ffff:127.0.0.1]:8787',
    'https://api.logz.io',
  ])('accepts %s for both addresses (loopback, or https)', (value) => {
    expect(problems({ ...minimal, AGENT_API_URL: value, SLACK_API_URL: `${value}/api/` })).toEqual([]);
  });

  it('accepts plain http:// to the hosts ALLOW_HTTP_HOSTS lists (a private network), and only those', () => {
    const env = {
      ...minimal,
      AGENT_API_URL: 'http://simulator:8787',
      SLACK_API_URL: 'http://slack-standin:3100/api/',
    };
    expect(problems({ ...env, ALLOW_HTTP_HOSTS: 'Simulator, slack-standin' })).toEqual([]);
    expect(problems({ ...env, ALLOW_HTTP_HOSTS: 'simulator' }).map((line) => line.split(':')[0])).toEqual([
      'SLACK_API_URL',
    ]);
  });

  it('reads CONNECTION_ALLOWED_HOSTS as lower-case host names and names a bad entry', () => {
    expect(loadConfig(minimal).agent.connectionAllowedHosts).toEqual([]);
    expect(
      loadConfig({ ...minimal, CONNECTION_ALLOWED_HOSTS: 'Logs-API.example.com, 10.1.2.3' }).agent
        .connectionAllowedHosts,
    ).toEqual(['logs-api.example.com', '10.1.2.3']);
    for (const bad of [
      'https://logs.example.com',
      'logs.example.com:8443',
      'logs.example.com/api',
      'intranet',
    ]) {
      expect(problems({ ...minimal, CONNECTION_ALLOWED_HOSTS: bad }), bad).toEqual([
        `CONNECTION_ALLOWED_HOSTS: must be comma-separated host names like logs-api.example.com (no scheme, port or path): ${bad}`,
      ]);
    }
  });

  it('keeps a bare host https://, whatever the host', () => {
    expect(loadConfig({ ...minimal, AGENT_API_URL: '10.0.0.5:8787' }).agent.baseUrl).toBe(
      'https://10.0.0.5:8787',
    );
  });

  it.each(['-1', 'soon', '100000'])('refuses LATE_ANSWER_WATCH_MINUTES=%s', (value) => {
    expect(problems({ ...minimal, LATE_ANSWER_WATCH_MINUTES: value })).toEqual([
      expect.stringMatching(/^LATE_ANSWER_WATCH_MINUTES: /),
    ]);
  });

  it('reads the progress style, the status refresh and the suggested prompts', () => {
    const defaults = loadConfig(minimal);
    expect(defaults.progress).toEqual({ style: 'status', statusRefreshMs: 90_000 });
    expect(defaults.agentView.suggestedPrompts).toEqual(DEFAULT_SUGGESTED_PROMPTS);
    const prompts = [{ title: 'Disk', message: 'Which hosts are low on disk?' }];
    const set = loadConfig({
      ...minimal,
      PROGRESS_STYLE: 'message',
      STATUS_REFRESH_SECONDS: '30',
      SUGGESTED_PROMPTS: JSON.stringify(prompts),
    });
    expect(set.progress).toEqual({ style: 'message', statusRefreshMs: 30_000 });
    expect(set.agentView.suggestedPrompts).toEqual(prompts);
  });

  it('refuses a bad progress style, a refresh Slack would outlast, and malformed prompts', () => {
    const five = Array.from({ length: 5 }, (_, i) => ({ title: `t${i}`, message: `m${i}` }));
    expect(
      problems({
        ...minimal,
        PROGRESS_STYLE: 'stream',
        STATUS_REFRESH_SECONDS: '120',
        SUGGESTED_PROMPTS: JSON.stringify(five),
      }).map((problem) => problem.split(':')[0]),
    ).toEqual(['PROGRESS_STYLE', 'STATUS_REFRESH_SECONDS', 'SUGGESTED_PROMPTS']);
    expect(problems({ ...minimal, SUGGESTED_PROMPTS: '[{"title":"x"' })).toEqual([
      expect.stringMatching(/^SUGGESTED_PROMPTS: is not JSON/),
    ]);
    expect(problems({ ...minimal, SUGGESTED_PROMPTS: '[{"title":"x"}]' })[0]).toMatch(/^SUGGESTED_PROMPTS/);
  });

  it('reads RUNS_PER_PERSON_PER_HOUR: 30 by default, 0 for no limit, never negative or fractional', () => {
    expect(loadConfig(minimal).spending).toEqual({ runsPerPersonPerHour: 30 });
    expect(loadConfig({ ...minimal, RUNS_PER_PERSON_PER_HOUR: '0' }).spending.runsPerPersonPerHour).toBe(0);
    expect(loadConfig({ ...minimal, RUNS_PER_PERSON_PER_HOUR: '5' }).spending.runsPerPersonPerHour).toBe(5);
    for (const bad of ['-1', '2.5', 'many']) {
      expect(problems({ ...minimal, RUNS_PER_PERSON_PER_HOUR: bad })[0]).toMatch(/^RUNS_PER_PERSON_PER_HOUR/);
    }
  });
});

describe('isLoopbackHost', () => {
  it.each([
    ['localhost', true],
    ['127.0.0.1', true],
    ['127.255.255.254', true],
    ['[::1]', true],
    ['[::ffff:7f00:1]', true],
    ['128.0.0.1', false],
    ['0.0.0.0', false],
    ['[::]', false],
    ['10.0.0.1', false],
    ['localhost.localdomain', false],
    ['app.localhost', false],
  ])('%s → %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});

describe('STATE_ENCRYPTION_KEY', () => {
  const key = Buffer.alloc(32, 7).toString('base64');
  it('is unset by default, and decoded to 32 bytes when given with older keys', () => {
    expect(loadConfig(minimal).secrets.encryptionKey).toBeUndefined();
    const older = Buffer.alloc(32, 9).toString('base64');
    const config = loadConfig({
      ...minimal,
      STATE_ENCRYPTION_KEY: key,
      STATE_ENCRYPTION_PREVIOUS_KEYS: older,
    });
    expect(config.secrets.encryptionKey).toHaveLength(32);
    expect(config.secrets.previousKeys.map((k) => k.toString('base64'))).toEqual([older]);
  });

  it('names a key of the wrong length without echoing it', () => {
    const short = Buffer.alloc(16, 7).toString('base64');
    const found = problems({ ...minimal, STATE_ENCRYPTION_KEY: short });
    expect(found).toEqual([expect.stringMatching(/^STATE_ENCRYPTION_KEY: must be 32 bytes/)]);
    expect(found.join('\n')).not.toContain(short);
  });
});
