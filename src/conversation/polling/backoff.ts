/** Retry delays after consecutive failures: `baseMs` bounds the first one, `maxMs` caps any. */
export const DEFAULT_BACKOFF = { baseMs: 500, maxMs: 30_000 };

export type BackoffOptions = typeof DEFAULT_BACKOFF;

/**
 * "Full jitter": uniform in [0, min(maxMs, baseMs · 2^(attempt−1))), `attempt` counting from 1, so
 * sessions that failed together (a service blip) do not retry together.
 */
export function fullJitterDelay(attempt: number, options: BackoffOptions, random: () => number): number {
  const exponent = Math.max(0, Math.min(attempt - 1, 52));
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** exponent);
  return Math.floor(random() * ceiling);
}
