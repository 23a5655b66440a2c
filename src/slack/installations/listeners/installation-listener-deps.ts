import type { Context } from '@slack/bolt';
import type { Logger } from '../../../runtime/logger.js';

/** What the installation listeners reach (a leaf: the listeners and index.ts import it, not each other). */
export interface InstallationListenerDeps {
  /** Forgets the installation the event came from. */
  forget(context: Context, why: 'app_uninstalled' | 'tokens_revoked'): Promise<void>;
  logger: Logger;
}
