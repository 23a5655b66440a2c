import type { RequestBudget } from '../budget/request-budget.js';
import type { FeedbackInput, RunInput, RunStatusReport } from '../conversation/ports.js';
import type { Logger } from '../runtime/logger.js';
import {
  type CreatedSubAccount,
  createSubAccount,
  listSubAccounts,
  type NewSubAccount,
  type SubAccount,
  type SubAccountUpdate,
  updateSubAccount,
} from './accounts.js';
import { type AgentActivation, followUp, getRunStatus, setAgentActive, startRun } from './agent.js';
import type { RequestInfo } from './attempts.js';
import type { AgentCallOptions, CallContext } from './call-context.js';
import { type ExportResult, exportSavedObjects, type SavedObjectType } from './export.js';
import { type FeedbackRecord, getFeedback, submitFeedback } from './feedback.js';
import { type Identity, whoami } from './identity.js';
import { DEFAULT_RETRY_POLICY } from './retry-policy.js';
import { createServiceHttp } from './service-http.js';

export interface AgentApiOptions {
  /** The account's region-specific base address, normalised (no trailing slash). */
  baseUrl: string;
  /** Token of the account that owns the agents (agent, identity and export endpoints). */
  token: string;
  /** Main-account token for sub-account management; without it those calls throw NotConfigured. */
  accountToken?: string | undefined;
  /** '' (the seed's paths) or e.g. '/v1' for account-management and export paths. Default ''. */
  accountPathPrefix?: string | undefined;
  /** The process-wide cap on requests in flight. */
  budget: RequestBudget;
  /** Client-side timeout per request, until the response's headers (ky's `timeout`). Default 15000. */
  requestTimeoutMs?: number | undefined;
  /** Client-side timeout of a status long poll. Default 60000. */
  statusTimeoutMs?: number | undefined;
  retry?: {
    /** Retries after the first attempt. Default 3. */
    limit?: number | undefined;
    /** Default 200. */
    baseDelayMs?: number | undefined;
    /** Default 5000. */
    maxDelayMs?: number | undefined;
    /** A longer `Retry-After` is not waited for: the error is returned. Default 60000. */
    maxRetryAfterMs?: number | undefined;
  };
  logger?: Logger | undefined;
  /** Metrics hook, called once per HTTP attempt. */
  onRequest?: ((info: RequestInfo) => void) | undefined;
  /** Jitter source in [0, 1). Default Math.random. */
  random?: (() => number) | undefined;
}

/** One typed method per service endpoint. Structurally satisfies the conversation's AgentRunsPort. */
export interface AgentApi {
  startRun(agentId: string, input: RunInput, options?: AgentCallOptions): Promise<{ sessionId: string }>;
  getRunStatus(agentId: string, sessionId: string, options?: AgentCallOptions): Promise<RunStatusReport>;
  followUp(
    agentId: string,
    sessionId: string,
    input: RunInput,
    options?: AgentCallOptions,
  ): Promise<{ sessionId: string }>;
  enableAgent(agentId: string, options?: AgentCallOptions): Promise<AgentActivation>;
  disableAgent(agentId: string, options?: AgentCallOptions): Promise<AgentActivation>;
  submitFeedback(
    agentId: string,
    items: FeedbackInput[],
    options?: AgentCallOptions,
  ): Promise<FeedbackRecord[]>;
  /** null when the run has no feedback. */
  getFeedback(agentId: string, sessionId: string, options?: AgentCallOptions): Promise<FeedbackRecord | null>;
  /** `accountToken` is undefined when the service answered without one (the account exists). */
  createSubAccount(account: NewSubAccount, options?: AgentCallOptions): Promise<CreatedSubAccount>;
  listSubAccounts(options?: AgentCallOptions): Promise<SubAccount[]>;
  updateSubAccount(accountId: number, body: SubAccountUpdate, options?: AgentCallOptions): Promise<void>;
  exportSavedObjects(type: SavedObjectType, options?: AgentCallOptions): Promise<ExportResult>;
  whoami(options?: AgentCallOptions): Promise<Identity>;
}

/** Builds the client. Makes no request until a method is called. */
export function createAgentApi(options: AgentApiOptions): AgentApi {
  const retry = options.retry ?? {};
  const requestTimeoutMs = options.requestTimeoutMs ?? 15_000;
  const statusTimeoutMs = options.statusTimeoutMs ?? 60_000;
  const send = createServiceHttp({
    baseUrl: options.baseUrl,
    budget: options.budget,
    bodyTimeoutMs: Math.max(requestTimeoutMs, statusTimeoutMs),
    retry: {
      limit: retry.limit ?? DEFAULT_RETRY_POLICY.limit,
      baseDelayMs: retry.baseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
      maxDelayMs: retry.maxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
      maxRetryAfterMs: retry.maxRetryAfterMs ?? DEFAULT_RETRY_POLICY.maxRetryAfterMs,
    },
    random: options.random ?? Math.random,
    logger: options.logger,
    onRequest: options.onRequest,
  });
  const context: CallContext = {
    send,
    agentToken: options.token,
    accountToken: options.accountToken,
    accountPathPrefix: options.accountPathPrefix ?? '',
    requestTimeoutMs,
    statusTimeoutMs,
  };
  return {
    startRun: (agentId, input, callOptions) => startRun(context, agentId, input, callOptions),
    getRunStatus: (agentId, sessionId, callOptions) => getRunStatus(context, agentId, sessionId, callOptions),
    followUp: (agentId, sessionId, input, callOptions) =>
      followUp(context, agentId, sessionId, input, callOptions),
    enableAgent: (agentId, callOptions) => setAgentActive(context, agentId, true, callOptions),
    disableAgent: (agentId, callOptions) => setAgentActive(context, agentId, false, callOptions),
    submitFeedback: (agentId, items, callOptions) => submitFeedback(context, agentId, items, callOptions),
    getFeedback: (agentId, sessionId, callOptions) => getFeedback(context, agentId, sessionId, callOptions),
    createSubAccount: (account, callOptions) => createSubAccount(context, account, callOptions),
    listSubAccounts: (callOptions) => listSubAccounts(context, callOptions),
    updateSubAccount: (accountId, body, callOptions) =>
      updateSubAccount(context, accountId, body, callOptions),
    exportSavedObjects: (type, callOptions) => exportSavedObjects(context, type, callOptions),
    whoami: (callOptions) => whoami(context, callOptions),
  };
}
