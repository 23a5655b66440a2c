/**
 * The one way anything a person must see reaches the thread (failure classes: output-error.ts).
 * Anything unclassified is transient, a state store that does not answer included: a store that
 * blinks must delay the outcome, never lose it. The caller makes a retry after a post that did land
 * safe (it reads the thread first: outcome-poster.ts).
 */

import type { Clock } from '../../runtime/clock.js';
import { type BackoffOptions, DEFAULT_BACKOFF, fullJitterDelay } from '../polling/backoff.js';
import type { OutputStyle } from '../thread-output-port.js';
import { outputFailureCode, outputFailureKind } from './output-error.js';

export type RetryResult<T> =
  | { ok: true; value: T; style: OutputStyle }
  /** `permanent`: Slack will not take it; `aborted`: the process is stopping or gave up waiting. */
  | { ok: false; reason: 'permanent' | 'aborted'; code: string; error: unknown };

/** Runs `attempt` until it lands or the failure is final; a refused rendering is tried once more plain. */
export async function deliverWhileTransient<T>(
  attempt: (style: OutputStyle) => Promise<T>,
  options: {
    clock: Clock;
    /** Aborting ends the waiting between attempts (shutdown, the turn taken by another replica). */
    signal: AbortSignal;
    backoff?: BackoffOptions | undefined;
    random?: (() => number) | undefined;
    /** Stop trying after this long (refusals: a notice an hour late only confuses). Default: never. */
    giveUpAfterMs?: number | undefined;
    /** Told of each transient failure before the wait; its own failure (the store down) is ignored. */
    onRetry?: ((error: unknown, attempt: number) => void | Promise<void>) | undefined;
    /** The caller's own wait for this failure instead of the backoff (a claim held elsewhere: steady). */
    waitFor?: ((error: unknown) => number | undefined) | undefined;
  },
): Promise<RetryResult<T>> {
  const { clock, signal } = options;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const random = options.random ?? Math.random;
  const startedAt = clock.now();
  let style: OutputStyle = 'rich';
  for (let failures = 1; ; failures += 1) {
    try {
      return { ok: true, value: await attempt(style), style };
    } catch (error) {
      const kind = outputFailureKind(error);
      const code = outputFailureCode(error);
      if (kind === 'content' && style === 'rich') {
        style = 'plain';
        continue;
      }
      if (kind !== 'transient') return { ok: false, reason: 'permanent', code, error };
      const waitMs = options.waitFor?.(error) ?? fullJitterDelay(failures, backoff, random);
      const late =
        options.giveUpAfterMs !== undefined && clock.now() + waitMs - startedAt > options.giveUpAfterMs;
      if (signal.aborted || late) return { ok: false, reason: 'aborted', code, error };
      await Promise.resolve()
        .then(() => options.onRetry?.(error, failures))
        .catch(() => undefined);
      try {
        await clock.sleep(waitMs, signal);
      } catch {
        return { ok: false, reason: 'aborted', code, error };
      }
    }
  }
}
