/**
 * What the environment may hold: every variable the bot reads, its type and default, and the rules
 * that join several (checked together, so one start names every problem). load-config.ts maps it.
 */
import os from 'node:os';
import { z } from 'zod';
import { checkRedisTopology, checkSlackAuth, type Issue, refusePlainHttp } from './cross-checks.js';
import * as field from './fields.js';

const variables = z.object({
  // Required unless OAuth distribution is configured (then each installation brings its own token).
  SLACK_BOT_TOKEN: field.optionalString,
  SLACK_SIGNING_SECRET: field.optionalString,
  SLACK_APP_TOKEN: field.appToken,
  SLACK_API_URL: field.slackApiUrl,
  PORT: field.intFrom(3000, 0, 65535),
  HOST: z.string().trim().default('0.0.0.0'),
  SLACK_CLIENT_ID: field.optionalString,
  SLACK_CLIENT_SECRET: field.optionalString,
  SLACK_STATE_SECRET: field.optionalString,
  SLACK_REDIRECT_URI: field.optionalUrl,
  SLACK_AUTHORIZE_URL: field.authorizeUrl,

  AGENT_API_URL: field.baseUrl,
  AGENT_API_TOKEN: field.required,
  AGENT_ID: field.required,
  ACCOUNT_API_TOKEN: field.optionalString,
  ACCOUNT_API_PATH_PREFIX: z
    .string()
    .trim()
    .default('')
    .refine((value) => value === '' || /^\/[A-Za-z0-9/_-]*[^/]$/.test(value), 'must look like /v1')
    .transform((value) => value.replace(/\/+$/, '')),
  AGENT_MAX_IN_FLIGHT: field.intFrom(50, 1),
  AGENT_POLL_SHARE: z.preprocess(
    field.emptyAsUnset,
    z.coerce
      .number({ error: 'must be a number' })
      .gt(0, 'must be above 0 and below 1')
      .lt(1, 'must be above 0 and below 1')
      .default(0.8),
  ),
  AGENT_REQUEST_TIMEOUT_MS: field.intFrom(15_000, 100),
  AGENT_STATUS_TIMEOUT_MS: field.intFrom(60_000, 100),
  // Spaces one run's polls (the long poll answers every step); ≥ 50 ms: never a tight loop.
  AGENT_POLL_INTERVAL_MS: field.intFrom(250, 50, 60_000),
  TURN_DEADLINE_SECONDS: field.intFrom(1800, 1),
  // Minutes, fractions allowed; 0 turns the late watch off (the deadline then ends the turn).
  LATE_ANSWER_WATCH_MINUTES: field.numberFrom(60, 0, 24 * 60),

  ADMIN_USER_IDS: field.csv,
  // DESIGN "The home workspaces": who the default connection, ADMIN_USER_IDS and ALERT_WEBHOOK_TOKEN serve.
  HOME_TEAM_IDS: field.teamIds,
  // DESIGN "Who may install" (OAuth only): unset ⇒ anyone may install.
  INSTALL_TEAM_IDS: field.teamIds,
  ALLOWED_CHANNEL_IDS: field.csv,
  ALLOW_EXTERNAL_USERS: field.bool(false),
  ALLOW_GUESTS: field.bool(false),
  OUTSIDER_AUDIENCE: z.enum(['dm', 'thread', 'refuse']).default('dm'),
  AUDIENCE_MEMBER_LIMIT: field.intFrom(500, 0, 100_000),
  FEEDBACK_NAME: z.string().trim().min(1).default('slack-reaction'),
  FEEDBACK_POSITIVE_EMOJI: field.csvWithDefault('+1,thumbsup,white_check_mark,heart'),
  FEEDBACK_NEGATIVE_EMOJI: field.csvWithDefault('-1,thumbsdown,x'),
  ANSWER_FILE_THRESHOLD_CHARS: field.intFrom(20_000, 1000),
  PROGRESS_UPDATES_PER_MINUTE: field.intFrom(40, 1),
  THREAD_CONTEXT_MAX_CHARS: field.intFrom(8000, 0, 200_000),
  ALERT_LOOKBACK_MINUTES: field.intFrom(60, 0, 7 * 24 * 60),
  // Shared text files quoted to the agent, a budget of their own; 0 reads no file.
  FILE_CONTEXT_MAX_CHARS: field.intFrom(20_000, 0, 200_000),
  PROGRESS_STYLE: z.enum(['status', 'message']).default('status'),
  // Slack clears a thread status after 2 minutes without a message: stay under it.
  STATUS_REFRESH_SECONDS: field
    .intFrom(90, 1)
    .pipe(z.number().max(119, 'must be under 120 (Slack clears a status after 2 minutes)')),
  SUGGESTED_PROMPTS: field.suggestedPrompts,
  // App Home: least time between two publishes of one person's home after their threads changed.
  HOME_REPUBLISH_SECONDS: field.numberFrom(10, 0.1, 3600),
  // Turns one person may start in any rolling hour, across replicas; 0: no limit.
  RUNS_PER_PERSON_PER_HOUR: field.intFrom(30),
  // DESIGN "Alert investigations": POST /alerts is served only with a token set.
  ALERT_WEBHOOK_TOKEN: field.alertToken,
  ALERT_CHANNEL_ID: field.optionalString,
  ALERT_COOLDOWN_MINUTES: field.intFrom(30, 0, 7 * 24 * 60),
  // Investigations per channel in any rolling hour, across replicas; 0: no limit.
  ALERT_RUNS_PER_HOUR: field.intFrom(20),
  SCHEDULES_PER_CHANNEL: field.intFrom(10, 1, 100),
  // A due time missed while no replica ran is still run when one starts within this many minutes.
  SCHEDULE_GRACE_MINUTES: field.intFrom(60, 0, 24 * 60),

  REDIS_URL: field.redisUrl,
  REDIS_SENTINELS: field.redisNodes,
  REDIS_SENTINEL_NAME: field.optionalString,
  REDIS_SENTINEL_PASSWORD: field.optionalString,
  REDIS_CLUSTER_NODES: field.redisNodes,
  REDIS_USERNAME: field.optionalString,
  REDIS_PASSWORD: field.optionalString,
  REDIS_TLS: field.bool(false),
  // The service's concurrent requests per account, shared by every replica through the store.
  AGENT_ACCOUNT_CONCURRENCY: field.intFrom(100, 1),
  REDIS_PREFIX: z.string().trim().min(1).default('sab'),
  INSTANCE_ID: z.string().trim().min(1).default(`${os.hostname()}-${process.pid}`),
  LEASE_TTL_MS: field.intFrom(15_000, 1000),
  LOG_LEVEL: z.enum(field.LOG_LEVELS).default('info'),
  METRICS_TOKEN: field.metricsToken,
  ALLOW_HTTP_HOSTS: field.csv,
  // DESIGN "Service addresses": hosts an added connection may point at besides the regional API hosts.
  CONNECTION_ALLOWED_HOSTS: field.hostNames,
  STATE_ENCRYPTION_KEY: field.encryptionKey,
  STATE_ENCRYPTION_PREVIOUS_KEYS: field.encryptionKeys,
});

/** Every environment variable the bot reads (docs/configuration.md's table lists them all; test/docs.test.ts checks it). */
export const CONFIG_VARIABLES = Object.keys(variables.shape);

export const envSchema = variables.superRefine(
  (env, ctx) => {
    const issue: Issue = (name, message) => ctx.addIssue({ code: 'custom', path: [name], message });
    if (!env.SLACK_APP_TOKEN && !env.SLACK_SIGNING_SECRET) {
      issue('SLACK_SIGNING_SECRET', 'is required in HTTP mode (set SLACK_APP_TOKEN instead for Socket Mode)');
    }
    checkSlackAuth(env, issue);
    if (Array.isArray(env.INSTALL_TEAM_IDS) && env.INSTALL_TEAM_IDS.length > 0 && !env.SLACK_CLIENT_ID) {
      issue(
        'INSTALL_TEAM_IDS',
        'applies to OAuth distribution only (SLACK_CLIENT_ID): with SLACK_BOT_TOKEN nobody installs',
      );
    }
    refusePlainHttp(env, issue);
    checkRedisTopology(env, issue);
    const positive = Array.isArray(env.FEEDBACK_POSITIVE_EMOJI) ? env.FEEDBACK_POSITIVE_EMOJI : [];
    const negative = Array.isArray(env.FEEDBACK_NEGATIVE_EMOJI) ? env.FEEDBACK_NEGATIVE_EMOJI : [];
    if (positive.some((emoji) => negative.includes(emoji))) {
      issue('FEEDBACK_NEGATIVE_EMOJI', 'shares an emoji with FEEDBACK_POSITIVE_EMOJI');
    }
  },
  // Run even when other variables failed: every problem is named in one go, not one per restart.
  { when: () => true },
);

export type Env = z.output<typeof envSchema>;
