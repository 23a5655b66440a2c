import type { ThreadOutput } from '../conversation/thread-output-port.js';
import type { Clock } from '../runtime/clock.js';
import type { AlertMetrics } from './alert-ports.js';

/** Investigations awaited at once, at most; past it the oldest is forgotten (its sample is lost). */
const MAX_WAITING = 5_000;

/**
 * Time to verdict: from an alert's arrival to the first answer in its investigation's thread. A
 * thin wrapper over the thread output, so turn delivery needs no idea of alerts. In-process: an
 * answer a second replica delivers after a takeover is not timed.
 */
export function createVerdictClock(deps: { clock: Clock; metrics: Pick<AlertMetrics, 'timeToVerdict'> }) {
  const waiting = new Map<string, number>();
  const keyOf = (channel: string, threadTs: string) => `${channel}:${threadTs}`;

  function expect(channel: string, threadTs: string, receivedAt: number): void {
    if (waiting.size >= MAX_WAITING) waiting.delete(waiting.keys().next().value as string);
    waiting.set(keyOf(channel, threadTs), receivedAt);
  }

  /** `output` whose answers stop the clock of the thread they answer. */
  function observe<T extends ThreadOutput>(output: T): T {
    const postAnswer: ThreadOutput['postAnswer'] = async (where, answer, onPart) => {
      const parts = await output.postAnswer(where, answer, onPart);
      const key = keyOf(where.channel, where.threadTs);
      const receivedAt = waiting.get(key);
      if (receivedAt !== undefined) {
        waiting.delete(key);
        deps.metrics.timeToVerdict(deps.clock.now() - receivedAt);
      }
      return parts;
    };
    return { ...output, postAnswer };
  }

  return { expect, observe };
}

export type VerdictClock = ReturnType<typeof createVerdictClock>;
