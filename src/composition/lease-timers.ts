import type { TurnRecovery } from '../conversation/turn/turn-recovery.js';
import type { Logger } from '../runtime/logger.js';

/** Lease renewal every third of the TTL; orphan adoption every half, so takeover is prompt. */
export function startLeaseTimers(
  recovery: Pick<TurnRecovery, 'renewLeases' | 'adoptOrphans'>,
  leaseTtlMs: number,
  logger: Logger,
): NodeJS.Timeout[] {
  const run = (what: string, task: () => Promise<unknown>) => () => {
    task().catch((error: unknown) => logger.error({ err: error }, `${what} failed`));
  };
  const renew = setInterval(run('lease renewal', recovery.renewLeases), Math.max(250, leaseTtlMs / 3));
  const adopt = setInterval(run('turn takeover', recovery.adoptOrphans), Math.max(500, leaseTtlMs / 2));
  renew.unref();
  adopt.unref();
  return [renew, adopt];
}
