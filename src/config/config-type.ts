import type { RedisTopology } from '../store/redis-topology.js';

/** LOG_LEVEL's values (pino's levels, and `silent`). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The parsed configuration (config.ts builds it from the environment, once, at start-up). */
export interface Config {
  slack: {
    /** Unset in OAuth mode (each installation brings its own token). */
    botToken: string | undefined;
    signingSecret: string | undefined;
    appToken: string | undefined;
    apiUrl: string;
    socketMode: boolean;
    /** DESIGN "Many workspaces": set ⇒ installed through OAuth (`/slack/install`), many workspaces. */
    oauth: SlackOAuthConfig | undefined;
  };
  http: { port: number; host: string };
  agent: {
    baseUrl: string;
    token: string;
    agentId: string;
    accountToken: string | undefined;
    accountPathPrefix: string;
    maxInFlight: number;
    /** Requests in flight per service account across every replica (AGENT_ACCOUNT_CONCURRENCY). */
    accountConcurrency: number;
    pollShare: number;
    requestTimeoutMs: number;
    statusTimeoutMs: number;
    /** Least time between the starts of two status polls of one run (AGENT_POLL_INTERVAL_MS). */
    pollIntervalMs: number;
    turnDeadlineMs: number;
    /** How long past the deadline a run is still watched for a late answer (0: not at all). */
    lateWatchMs: number;
    /** CONNECTION_ALLOWED_HOSTS: hosts an added connection may use besides the regional API hosts and loopback. */
    connectionAllowedHosts: string[];
  };
  access: {
    adminUserIds: string[];
    allowedChannelIds: string[];
    allowExternalUsers: boolean;
    /** Guests (`is_restricted` / `is_ultra_restricted`) of the app's organisation count as inside. */
    allowGuests: boolean;
  };
  /** DESIGN "One installation, one tenant". */
  tenants: {
    /**
     * HOME_TEAM_IDS: the installations (workspace `T…` or org `E…`) the default service connection,
     * ADMIN_USER_IDS and ALERT_WEBHOOK_TOKEN serve. Unset: with one workspace, that workspace and its
     * org (from `auth.test`); with OAuth, none.
     */
    homeTeamIds: string[] | undefined;
    /** INSTALL_TEAM_IDS (OAuth): who may install; unset ⇒ anyone. */
    installTeamIds: string[] | undefined;
  };
  /** Who reads an answer (DESIGN "Who reads the answer"). */
  audience: { outsiderPolicy: 'dm' | 'thread' | 'refuse'; memberLimit: number };
  feedback: { name: string; positiveEmoji: string[]; negativeEmoji: string[] };
  answers: { fileThresholdChars: number; progressUpdatesPerMinute: number };
  /** Thread context and time ranges (DESIGN "Thread context", "Time range"). */
  /** `fileMaxChars`: FILE_CONTEXT_MAX_CHARS (shared text files quoted to the agent; 0: none). */
  context: { maxChars: number; alertLookbackMinutes: number; fileMaxChars: number };
  progress: { style: 'status' | 'message'; statusRefreshMs: number };
  agentView: { suggestedPrompts: Array<{ title: string; message: string }> };
  /** DESIGN "App Home": a person's home is published again at most once per `republishMs`. */
  home: { republishMs: number };
  /** DESIGN "Spending": turns per person per rolling hour (0: no limit). */
  spending: { runsPerPersonPerHour: number };
  /** DESIGN "Alert investigations"; `webhookToken` unset ⇒ POST /alerts answers 404. */
  alerts: {
    webhookToken: string | undefined;
    defaultChannelId: string | undefined;
    cooldownMs: number;
    runsPerHour: number;
  };
  /** DESIGN "Scheduled questions": SCHEDULES_PER_CHANNEL, SCHEDULE_GRACE_MINUTES (as ms). */
  schedules: { perChannel: number; graceMs: number };
  state: {
    redisUrl: string | undefined;
    /** One server, Sentinel or Cluster (DESIGN "Redis beyond one node"); unset ⇒ memory. */
    redis: RedisTopology | undefined;
    redisPrefix: string;
    instanceId: string;
    leaseTtlMs: number;
  };
  /**
   * DESIGN "Many accounts": the key secrets are sealed with in the store (unset: nothing secret may
   * be kept), and older keys still accepted for opening after a rotation.
   */
  secrets: { encryptionKey: Buffer | undefined; previousKeys: Buffer[] };
  logLevel: LogLevel;
  /** Set ⇒ GET /metrics needs `Authorization: Bearer <metricsToken>`. */
  ops: { metricsToken: string | undefined };
  /** Variables set to an empty value and so treated as unset (logged at start-up). */
  emptyVariables: string[];
}

/** OAuth distribution: the app's credentials and where Slack's authorize page is. */
export interface SlackOAuthConfig {
  clientId: string;
  clientSecret: string;
  stateSecret: string;
  /** The public address of /slack/oauth_redirect; unset ⇒ the app's first redirect URL in Slack. */
  redirectUri: string | undefined;
  authorizeUrl: string;
}
