/**
 * Failures injected on demand: a 429 with Retry-After for the next N calls of a method, or a
 * one-off `{ok:false, error}`.
 */
export class FaultPlan {
  private readonly rateLimits = new Map<string, { retryAfterSec: number; remaining: number }>();
  private readonly failures = new Map<string, string[]>();

  /** The next `count` calls of `method` get HTTP 429 with `Retry-After: retryAfterSec`. */
  rateLimitNext(method: string, retryAfterSec: number, count = 1): void {
    this.rateLimits.set(method, { retryAfterSec, remaining: count });
  }

  /** The next call of `method` answers `{ok:false, error}` (queued: call twice for two failures). */
  failNext(method: string, error: string): void {
    const queue = this.failures.get(method) ?? [];
    queue.push(error);
    this.failures.set(method, queue);
  }

  /** Consumes a planned 429 for this call, if any: the Retry-After seconds. */
  takeRateLimit(method: string): number | undefined {
    const plan = this.rateLimits.get(method);
    if (!plan) return undefined;
    plan.remaining -= 1;
    if (plan.remaining <= 0) this.rateLimits.delete(method);
    return plan.retryAfterSec;
  }

  /** Consumes a planned failure for this call, if any: the error name. */
  takeFailure(method: string): string | undefined {
    const queue = this.failures.get(method);
    const error = queue?.shift();
    if (queue && queue.length === 0) this.failures.delete(method);
    return error;
  }
}
