/** The one place that reads the environment: a bad value stops the start naming every offender (main.ts). */
import type { z } from 'zod';
import type { RedisTopology } from '../store/redis-topology.js';
import { CONFIG_VARIABLES, type Env, envSchema } from './variables.js';

export { DEFAULT_SUGGESTED_PROMPTS, isLoopbackHost, normaliseBaseUrl } from './fields.js';
export { CONFIG_VARIABLES } from './variables.js';

/** The Redis the variables point at, if any. */
function redisTopology(env: Env): RedisTopology | undefined {
  const auth = { username: env.REDIS_USERNAME, password: env.REDIS_PASSWORD, tls: env.REDIS_TLS };
  if (env.REDIS_SENTINELS.length > 0 && env.REDIS_SENTINEL_NAME !== undefined) {
    return {
      kind: 'sentinel',
      sentinels: env.REDIS_SENTINELS,
      name: env.REDIS_SENTINEL_NAME,
      auth,
      sentinelPassword: env.REDIS_SENTINEL_PASSWORD,
    };
  }
  if (env.REDIS_CLUSTER_NODES.length > 0) return { kind: 'cluster', nodes: env.REDIS_CLUSTER_NODES, auth };
  return env.REDIS_URL === undefined ? undefined : { kind: 'single', url: env.REDIS_URL };
}

/** Thrown by loadConfig with one line per offending variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** The parsed configuration, built from the environment once, at start-up. */
export type Config = ReturnType<typeof toConfig>;
/** OAuth distribution: the app's credentials and where Slack's authorize page is. */
export type SlackOAuthConfig = NonNullable<Config['slack']['oauth']>;

function toConfig(env: Env, emptyVariables: string[]) {
  return {
    slack: {
      botToken: env.SLACK_BOT_TOKEN,
      signingSecret: env.SLACK_SIGNING_SECRET,
      appToken: env.SLACK_APP_TOKEN,
      apiUrl: env.SLACK_API_URL,
      socketMode: env.SLACK_APP_TOKEN !== undefined,
      // DESIGN "Many workspaces": set ⇒ installed through OAuth (`/slack/install`), many workspaces.
      oauth:
        env.SLACK_CLIENT_ID && env.SLACK_CLIENT_SECRET && env.SLACK_STATE_SECRET
          ? {
              clientId: env.SLACK_CLIENT_ID,
              clientSecret: env.SLACK_CLIENT_SECRET,
              stateSecret: env.SLACK_STATE_SECRET,
              // Unset ⇒ the app's first redirect URL in Slack.
              redirectUri: env.SLACK_REDIRECT_URI,
              authorizeUrl: env.SLACK_AUTHORIZE_URL,
            }
          : undefined,
    },
    http: { port: env.PORT, host: env.HOST },
    agent: {
      baseUrl: env.AGENT_API_URL,
      token: env.AGENT_API_TOKEN,
      agentId: env.AGENT_ID,
      accountToken: env.ACCOUNT_API_TOKEN,
      accountPathPrefix: env.ACCOUNT_API_PATH_PREFIX,
      maxInFlight: env.AGENT_MAX_IN_FLIGHT,
      accountConcurrency: env.AGENT_ACCOUNT_CONCURRENCY,
      pollShare: env.AGENT_POLL_SHARE,
      requestTimeoutMs: env.AGENT_REQUEST_TIMEOUT_MS,
      statusTimeoutMs: env.AGENT_STATUS_TIMEOUT_MS,
      pollIntervalMs: env.AGENT_POLL_INTERVAL_MS,
      turnDeadlineMs: env.TURN_DEADLINE_SECONDS * 1000,
      lateWatchMs: Math.round(env.LATE_ANSWER_WATCH_MINUTES * 60_000),
      connectionAllowedHosts: env.CONNECTION_ALLOWED_HOSTS,
    },
    access: {
      adminUserIds: env.ADMIN_USER_IDS,
      allowedChannelIds: env.ALLOWED_CHANNEL_IDS,
      allowExternalUsers: env.ALLOW_EXTERNAL_USERS,
      // Guests (`is_restricted` / `is_ultra_restricted`) of the app's organisation count as inside.
      allowGuests: env.ALLOW_GUESTS,
    },
    // DESIGN "One installation, one tenant"; unset home: with one workspace, that workspace and its org.
    tenants: {
      homeTeamIds: env.HOME_TEAM_IDS.length > 0 ? env.HOME_TEAM_IDS : undefined,
      installTeamIds: env.INSTALL_TEAM_IDS.length > 0 ? env.INSTALL_TEAM_IDS : undefined,
    },
    audience: { outsiderPolicy: env.OUTSIDER_AUDIENCE, memberLimit: env.AUDIENCE_MEMBER_LIMIT },
    feedback: {
      name: env.FEEDBACK_NAME,
      positiveEmoji: env.FEEDBACK_POSITIVE_EMOJI,
      negativeEmoji: env.FEEDBACK_NEGATIVE_EMOJI,
    },
    answers: {
      fileThresholdChars: env.ANSWER_FILE_THRESHOLD_CHARS,
      progressUpdatesPerMinute: env.PROGRESS_UPDATES_PER_MINUTE,
    },
    context: {
      maxChars: env.THREAD_CONTEXT_MAX_CHARS,
      alertLookbackMinutes: env.ALERT_LOOKBACK_MINUTES,
      fileMaxChars: env.FILE_CONTEXT_MAX_CHARS,
    },
    progress: { style: env.PROGRESS_STYLE, statusRefreshMs: env.STATUS_REFRESH_SECONDS * 1000 },
    agentView: { suggestedPrompts: env.SUGGESTED_PROMPTS },
    home: { republishMs: Math.round(env.HOME_REPUBLISH_SECONDS * 1000) },
    spending: { runsPerPersonPerHour: env.RUNS_PER_PERSON_PER_HOUR },
    alerts: {
      webhookToken: env.ALERT_WEBHOOK_TOKEN,
      defaultChannelId: env.ALERT_CHANNEL_ID,
      cooldownMs: env.ALERT_COOLDOWN_MINUTES * 60_000,
      runsPerHour: env.ALERT_RUNS_PER_HOUR,
    },
    schedules: { perChannel: env.SCHEDULES_PER_CHANNEL, graceMs: env.SCHEDULE_GRACE_MINUTES * 60_000 },
    // Memory when no Redis is set (DESIGN "Redis beyond one node").
    state: {
      redisUrl: env.REDIS_URL,
      redis: redisTopology(env),
      redisPrefix: env.REDIS_PREFIX,
      instanceId: env.INSTANCE_ID,
      leaseTtlMs: env.LEASE_TTL_MS,
    },
    // DESIGN "Many accounts": no key ⇒ nothing secret is kept; previous keys still open after a rotation.
    secrets: { encryptionKey: env.STATE_ENCRYPTION_KEY, previousKeys: env.STATE_ENCRYPTION_PREVIOUS_KEYS },
    logLevel: env.LOG_LEVEL,
    // Set ⇒ GET /metrics needs `Authorization: Bearer <metricsToken>`.
    ops: { metricsToken: env.METRICS_TOKEN },
    emptyVariables,
  };
}

/** `NAME: problem`; a choice zod words as "Invalid option: expected one of …" reads like the others. */
function problemOf(issue: z.core.$ZodIssue): string {
  const name = issue.path.join('.') || 'environment';
  if (issue.code === 'invalid_value' && issue.message.startsWith('Invalid'))
    return `${name}: must be one of ${issue.values.map(String).join(', ')}`;
  return `${name}: ${issue.message}`;
}

/** Parses the environment; throws ConfigError listing every problem. Defaults to process.env. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map(problemOf));
  const emptyVariables = CONFIG_VARIABLES.filter((name) => source[name]?.trim() === '');
  return toConfig(parsed.data, emptyVariables);
}
