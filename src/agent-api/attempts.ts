import type { ShouldRetryState } from 'ky';
import type { BudgetSlot, RequestBudget } from '../budget/request-budget.js';
import type { Logger } from '../runtime/logger.js';
import type { RequestSpec } from './call-context.js';
import { AgentApiError } from './errors.js';
import { asAgentApiFailure } from './errors-from-failures.js';
import { mayRetry, type RetryPolicy } from './retry-policy.js';

/**
 * The attempts of one call, as ky's hooks see them: each holds a budget slot from `beforeRequest`
 * until it ends (a failed one in `shouldRetry`, before ky's wait, so a wait never holds a slot).
 */

/** What the metrics hook receives once per HTTP attempt. */
export interface RequestInfo {
  /** Endpoint name, e.g. `startRun`. */
  endpoint: string;
  status?: number | undefined;
  errorCode?: string | undefined;
  ms: number;
}

export interface AttemptDeps {
  budget: RequestBudget;
  policy: RetryPolicy;
  logger?: Logger | undefined;
  onRequest?: ((info: RequestInfo) => void) | undefined;
  /** Whether each attempt gets a debug line (see `logsDebug`). */
  debug: boolean;
}

/** Whether `logger` writes debug lines (pino's level check, else yes): if not, no attempt reads the clock. */
export function logsDebug(logger: Logger | undefined): boolean {
  if (logger === undefined) return false;
  const levelCheck = (logger as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled;
  return typeof levelCheck === 'function' ? levelCheck.call(logger, 'debug') : true;
}

const codeOf = (error: unknown) => (error instanceof AgentApiError ? error.code : undefined);

/** One call's attempts: budget slots, metrics, debug lines and retry decisions. */
export class CallAttempts {
  private slot: BudgetSlot | undefined;
  private startedAt = 0;
  /** The current attempt's failure, translated once (ky hands the same error to several places). */
  private failure: { error: unknown; translated: unknown } | undefined;

  constructor(
    private readonly call: RequestSpec,
    private readonly deps: AttemptDeps,
  ) {}

  /** From ky's `beforeRequest` hook: waits for a slot (ky's timeout starts after it, as ky sends). */
  async begin(): Promise<void> {
    this.failure = undefined;
    this.slot = await this.deps.budget.acquire(this.call.kind, this.call.signal);
    this.startedAt = performance.now();
  }

  /** ky's `retry.shouldRetry`: `false` stops ky, `undefined` lets it wait and send again. */
  readonly shouldRetry = async ({ error }: ShouldRetryState): Promise<false | undefined> =>
    mayRetry(await this.failed(error), this.call.retry, this.deps.policy);

  /** From ky's `beforeRetry` hook, after the wait. */
  logRetry(retryCount: number): void {
    const { endpoint, method, path } = this.call;
    this.deps.logger?.warn(
      { endpoint, method, path, retryNumber: retryCount, code: codeOf(this.failure?.translated) },
      'agent service request failed; retrying',
    );
  }

  /** Ends the current attempt as failed; resolves with our error (or the caller's abort reason). */
  async failed(error: unknown): Promise<unknown> {
    if (this.failure !== undefined && this.failure.error === error) return this.failure.translated;
    const translated = await asAgentApiFailure(error, this.call);
    this.failure = { error, translated };
    this.end(
      translated instanceof AgentApiError ? translated.status : undefined,
      codeOf(translated) ?? 'aborted',
    );
    return translated;
  }

  /** Ends the current attempt with a response whose body has been read. */
  succeeded(status: number): void {
    this.end(status, undefined);
  }

  private end(status: number | undefined, errorCode: string | undefined): void {
    const slot = this.slot;
    if (slot === undefined) return;
    this.slot = undefined;
    slot.release();
    const { onRequest, debug, logger } = this.deps;
    if (onRequest === undefined && !debug) return;
    const ms = Math.round(performance.now() - this.startedAt);
    const { endpoint, method, path } = this.call;
    onRequest?.({ endpoint, status, errorCode, ms });
    if (debug) logger?.debug({ endpoint, method, path, status, errorCode, ms }, 'agent service request');
  }
}
