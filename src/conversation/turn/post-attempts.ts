import type { Clock } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import type { OutputStyle } from '../thread-output-port.js';
import { deliverWhileTransient, type RetryResult } from './outcome-retry.js';
import { outputFailureCode } from './output-error.js';
import type { TurnInFlight } from './turn-in-flight.js';
import type { TurnLedger } from './turn-ledger.js';

/** A claim held elsewhere is looked at again this often, not backed off: a dead holder costs TTL + this. */
const CLAIM_RECHECK_MS = 1_000;

/** Another replica holds this turn's delivery claim: wait, then look again. */
export class ClaimedElsewhere extends Error {
  constructor() {
    super('delivery claimed by another instance');
    this.name = 'ClaimedElsewhere';
  }
}

export interface PostAttemptsDeps {
  ledger: Pick<TurnLedger, 'deliveryClaim'>;
  clock: Clock;
  logger: Logger;
  /** Default `Math.random` (the jitter of delivery retries). */
  random?: (() => number) | undefined;
}

/** The attempts of one post: transient failures waited out, a claim held elsewhere looked at again. */
export function createPostAttempts(deps: PostAttemptsDeps) {
  const { ledger, clock, logger } = deps;

  /** Tries `attempt` until it lands; between tries the claim is let go and the thread read first. */
  function retrying<T>(
    entry: TurnInFlight,
    attempt: (style: OutputStyle) => Promise<T>,
  ): Promise<RetryResult<T>> {
    const { turn } = entry;
    const random = deps.random ?? Math.random;
    return deliverWhileTransient(attempt, {
      clock,
      signal: entry.abort.signal,
      random: deps.random,
      waitFor: (error) =>
        error instanceof ClaimedElsewhere ? CLAIM_RECHECK_MS * (0.75 + 0.5 * random()) : undefined,
      onRetry: async (error, attempts) => {
        entry.takenOver = true;
        // With the store down the claim stays ours: our next try takes it again, or it lapses.
        await ledger
          .deliveryClaim(turn.turnId)
          .release()
          .catch(() => undefined);
        if (error instanceof ClaimedElsewhere) return;
        const fields = {
          err: error,
          code: outputFailureCode(error),
          threadKey: turn.threadKey,
          turnId: turn.turnId,
        };
        logger.warn({ ...fields, attempts }, 'delivery failed; will retry');
      },
    });
  }

  return { retrying };
}
