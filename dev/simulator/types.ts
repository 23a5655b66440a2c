/**
 * Public types of the agent-service simulator. Written from the service's API document (the seed),
 * never from our client, so the two cannot agree on the same mistake.
 */

/** Terminal outcome of a scripted run turn. */
export type SimOutcome = 'done' | 'error' | 'canceled';

/** Every status value the status endpoint can report. */
export type RunStatus = 'loading' | 'done' | 'error' | 'canceled' | 'timeout';

/** How one turn of a run behaves. */
export interface SimScript {
  /** Steps produced before the outcome; totalSteps grows 1..steps while status is loading. */
  steps: number;
  /** Milliseconds between steps (and between the last step and the outcome). */
  stepMs: number;
  /** Final status of the turn. */
  outcome: SimOutcome;
  /** When set, a done answer is exactly this many characters of Markdown-ish text. */
  size?: number;
}

/** Which of the simulator's tokens a request carried; raw tokens are never stored. */
export type TokenKind = 'agent' | 'main' | 'invalid' | 'otherRegion' | 'unknown';

/** Switches that make the simulator misbehave; mutable while it runs. */
export interface SimulatorFaults {
  /** Run starts and follow-ups answer 503 (the service's maintenance shutdown). */
  maintenance: boolean;
  /** Share (0..1) of status polls answered 500 or 502, drawn from a seeded PRNG. */
  statusErrorRate: number;
  /** Extra delay before a status poll is handled. */
  statusLatencyMs: number;
  /** PUTs for this sub-account id answer 500 and change nothing. */
  failPutForAccount?: number | undefined;
  /** Responses for paths starting with this prefix are 200 with a body breaking the seed's shape. */
  malformed?: string | undefined;
  /**
   * PUTs for this sub-account id are applied, then answered 500: the ambiguous failure a client
   * sees when the service (or a gateway) fails after the write.
   */
  failPutAfterApplyForAccount?: number | undefined;
  /** Listings beyond this many answer 500 (0: every listing fails); undefined: none fails. */
  failListingsAfter?: number | undefined;
  /** Creation answers `{accountId}` only, as the vendor's spec documents it (no accountToken). */
  createWithoutToken?: boolean | undefined;
  /**
   * Creation answers `{}` (200): the account is created, but the answer names neither id nor
   * token — every member of the spec's creation response is optional.
   */
  createAnswersEmpty?: boolean | undefined;
  /**
   * The listing shows this account without these members (top-level names, a nested one such as
   * `utilizationSettings.utilizationEnabled`, or one of every array entry such as
   * `sharingObjectsAccounts.accountId`): every listing member is optional in the spec.
   */
  listingOmits?: { accountId: number; members: readonly string[] } | undefined;
  /**
   * This sub account is on a Consumption plan: listed with `maxDailyGB: null` while not flexible
   * (`isFlexible: false`, `isCapped: false`), as the spec allows there; its PUT may leave
   * maxDailyGB out or null without being flexible.
   */
  consumptionPlanAccount?: number | undefined;
  /** Listings spell `snapsearchRetentionDays` as the spec does (default: `snapSearchRetentionDays`). */
  specSpelling?: boolean | undefined;
  /**
   * Feedback records come back with drifted fields (a numeric id, the score and account id as
   * strings, epoch-ms createdAt, no agentId), as a record format change would bring them.
   */
  feedbackRecordDrift?: boolean | undefined;
  /** Exports answer older-format hits (`_type: "doc"`, no `_source.type`, epoch-ms `_updatedAt`…). */
  legacyExport?: boolean | undefined;
  /**
   * Exports answer `{}` (200): both members of the spec's export response (`kibanaVersion`,
   * `hits`) are optional, so an answer without a list of saved objects is spec-valid.
   */
  exportAnswersEmpty?: boolean | undefined;
  /** `/v2/whoami` answers `{}` (200): the spec's WhoAmI members are optional too. */
  whoamiAnswersEmpty?: boolean | undefined;
  /**
   * The agent token is taken for this kind from now on: a token revoked (`invalid`) or an account
   * moved to another region (`otherRegion`) while the bot runs.
   */
  agentTokenAs?: 'invalid' | 'otherRegion' | undefined;
  /** Error bodies in another of the service's shapes; default `standard` (`{errorCode, message, …}`). */
  errorBodyShape?: ErrorBodyShape | undefined;
}

/**
 * The error-body shapes the real service uses: `{errorCode, message, requestId, parameters}`,
 * `{message}`, `{errorMessage}`, or a bare JSON string.
 */
export type ErrorBodyShape = 'standard' | 'message' | 'errorMessage' | 'string';

/** Options of {@link startSimulator}. */
export interface SimulatorOptions {
  /** Listening port; default 0 (ephemeral). */
  port?: number;
  /** Listening address; default '127.0.0.1'. */
  host?: string;
  /** How long a status poll holds when nothing is new before answering {status:'timeout'}; default 2000. */
  longPollMs?: number;
  /** Script of runs whose message carries no directive; default 3 steps, 200 ms, done. */
  defaultScript?: SimScript;
  /** The server's region slug; default 'us-east-1'. */
  region?: string;
  /** Requests in flight above this answer 429 with Retry-After: 1; default 100, like the real service. */
  maxConcurrent?: number;
  /** Do not print a line per request; default false. */
  quiet?: boolean;
  /** After a follow-up, the status endpoint keeps reporting the previous turn's final status this long; default 0. */
  staleAfterFollowUpMs?: number;
  /**
   * Account-management and export paths are also served under this prefix (e.g. '/v1'), exactly
   * as the vendor's spec writes them: no trailing slash there (the listing under `/v1` is
   * `…/time-based-accounts`; `…/time-based-accounts/` is a 404). The unprefixed seed paths
   * take a trailing slash or none (the seed writes the listing with one, creation without).
   */
  accountPathPrefix?: string;
  /**
   * The token of the agents' account here; default SIM_TOKENS.agent. Another value makes this
   * simulator another account: SIM_TOKENS.agent is then unknown to it.
   */
  agentToken?: string;
  /**
   * The account that token belongs to, as `/v2/whoami` names it; default the seeded sub account
   * (200001, "Production"). A second simulator playing another account gives it another.
   */
  agentAccount?: { accountId: number; accountName: string };
  /** Status of a successful sub-account PUT (the real service documents both); default 204. */
  putStatus?: 200 | 204;
  /** Seed of the PRNG behind statusErrorRate; default 1. */
  seed?: number;
  /** Initial fault switches. */
  faults?: Partial<SimulatorFaults>;
}

/** One handled request, as recorded for tests. */
export interface RequestRecord {
  method: string;
  path: string;
  status: number;
  /** Epoch ms when the request arrived. */
  at: number;
  /** Epoch ms when the response finished. */
  finishedAt: number;
  token?: TokenKind;
}

/** The current state of one run (session), computed from the clock. */
export interface RunView {
  agentId: string;
  sessionId: string;
  accountId: number;
  /** Number of turns (1 + follow-ups). */
  turns: number;
  /** True status of the current turn (ignores the stale-after-follow-up window). */
  status: Exclude<RunStatus, 'timeout'>;
  totalSteps: number;
  message?: string;
  /** Epoch ms at which the current turn became terminal. */
  finishedAt?: number;
  /** Prompts of every turn, in order. */
  prompts: string[];
  /** What each turn's request carried besides the message (additionalContext, timerange), in order. */
  contexts: Array<{
    additionalContext?: string | undefined;
    timerange?: { startTime: string; endTime: string } | undefined;
  }>;
  /** Script of the current turn. */
  script: SimScript;
  /** Epoch ms at which the current turn started (step k is due at startedAt + k * stepMs). */
  startedAt: number;
}

/** A feedback record as the service returns it. */
export interface FeedbackRecord {
  id: string;
  createdAt: string;
  agentId: string;
  accountId: number;
  sessionId: string;
  feedbackName: string;
  score: number;
  comment?: string;
}

/** Full internal record of an account (the listing hides accountToken and email). */
export interface SubAccount {
  accountId: number;
  accountName: string;
  email: string | null;
  accountToken: string;
  /** The main account itself (listed with `isOwner: true`); its PUT is restricted. */
  isOwner: boolean;
  /** null: uncapped (only with isFlexible). */
  maxDailyGB: number | null;
  retentionDays: number;
  searchable: boolean;
  accessible: boolean;
  docSizeSetting: boolean;
  /** Stored as ids; listed as {accountId, accountName} objects. */
  sharingObjectsAccounts: number[];
  utilizationSettings: { frequencyMinutes: number | null; utilizationEnabled: boolean };
  reservedDailyGB: number | null;
  isFlexible: boolean;
  softLimitGB: number | null;
  snapSearchRetentionDays: number | null;
  /** Members no document names, kept and replaced like the others (a PUT that omits them drops them). */
  undocumented: Record<string, unknown>;
}

/** A PUT body as received, for tests that check full replacement. */
export interface PutLogEntry {
  accountId: number;
  body: unknown;
  at: number;
}

/** A running simulator. */
export interface Simulator {
  /** Base URL, e.g. 'http://127.0.0.1:PORT'. */
  url: string;
  port: number;
  /** Stops listening and ends held long polls promptly. */
  close(): Promise<void>;
  requests: RequestRecord[];
  /** Most requests in flight at once (rejected ones included, so a client over budget shows). */
  maxInFlightSeen: number;
  inFlight(): number;
  runs(): RunView[];
  run(sessionId: string): RunView | undefined;
  feedback(sessionId: string): FeedbackRecord | undefined;
  accounts(): SubAccount[];
  putLog: PutLogEntry[];
  setAgentActive(agentId: string, active: boolean): void;
  faults: SimulatorFaults;
  /** Back to the seeded state: no runs, feedback, requests or PUTs; seeded accounts and agents; no faults. */
  reset(): void;
}
