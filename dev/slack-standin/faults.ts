/** A lasting failure of a method (or of every method, `*`) until it is cleared. */
export type Outage = { status: number } | { drop: true };

/**
 * Failures injected on demand: a 429 with Retry-After for the next N calls of a method, a
 * one-off `{ok:false, error}`, a call carried out but never answered, or a lasting outage (an
 * HTTP status, or connections dropped without an answer) of one method or all of them.
 */
export class FaultPlan {
  private readonly rateLimits = new Map<string, { retryAfterSec: number; remaining: number }>();
  private readonly failures = new Map<string, string[]>();
  private readonly outages = new Map<string, Outage>();
  private readonly unanswered = new Map<string, number>();
  private readonly held = new Map<string, Array<Promise<void>>>();

  /** From now on calls of `method` (`*`: every method) fail this way; `undefined` ends it. */
  setOutage(method: string, outage: Outage | undefined): void {
    if (outage) this.outages.set(method, outage);
    else this.outages.delete(method);
  }

  /** The lasting outage that applies to a call of `method`, if any. */
  outageFor(method: string): Outage | undefined {
    return this.outages.get(method) ?? this.outages.get('*');
  }

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

  /** The next `count` calls of `method` are carried out, but their answer never comes. */
  leaveUnansweredNext(method: string, count = 1): void {
    this.unanswered.set(method, (this.unanswered.get(method) ?? 0) + count);
  }

  /** Consumes a planned unanswered call: whether this call of `method` gets no answer. */
  takeUnanswered(method: string): boolean {
    const left = this.unanswered.get(method) ?? 0;
    if (left <= 0) return false;
    if (left === 1) this.unanswered.delete(method);
    else this.unanswered.set(method, left - 1);
    return true;
  }

  /**
   * The next call of `method` is carried out at once, but its answer waits until the returned
   * `release` is called (queued: call twice to hold two calls).
   */
  holdAnswerNext(method: string): () => void {
    let release = (): void => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.held.set(method, [...(this.held.get(method) ?? []), gate]);
    return release;
  }

  /** Consumes a planned hold for this call: what its answer waits for, if any. */
  takeHold(method: string): Promise<void> | undefined {
    const queue = this.held.get(method);
    const gate = queue?.shift();
    if (queue && queue.length === 0) this.held.delete(method);
    return gate;
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
