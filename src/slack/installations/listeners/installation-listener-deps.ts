import type { Context } from '@slack/bolt';
import type { Logger } from '../../../runtime/logger.js';

/**
 * What the installation listeners reach. A leaf of its own so that each listener and the
 * registration in index.ts import it without importing one another.
 */
export interface InstallationListenerDeps {
  /** Forgets the installation the event came from. */
  forget(context: Context, why: 'app_uninstalled' | 'tokens_revoked'): Promise<void>;
  logger: Logger;
}
