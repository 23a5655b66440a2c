import type { AllowanceUse } from '../conversation/ports.js';
import { assertTtl } from './ttls.js';

/**
 * Both backends refuse the same bad uses: a limit of 0 or a fraction would make every use (or a
 * surprising share) fail, and the window becomes a `PEXPIRE`, which takes positive integers only.
 */
export function assertAllowanceUse(use: AllowanceUse): void {
  if (!Number.isSafeInteger(use.limit) || use.limit <= 0) {
    throw new RangeError(`limit must be a positive integer, got ${use.limit}`);
  }
  assertTtl(use.windowMs, 'windowMs');
  if (!Number.isSafeInteger(use.now)) throw new RangeError(`now must be epoch milliseconds, got ${use.now}`);
  if (use.id === '') throw new RangeError('id must not be empty');
}
