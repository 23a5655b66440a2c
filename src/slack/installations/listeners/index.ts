import type { App, Context } from '@slack/bolt';
import type { Logger } from '../../../runtime/logger.js';
import { appUninstalledListener } from './app-uninstalled.js';
import { tokensRevokedListener } from './tokens-revoked.js';

/** What the installation listeners reach. */
export interface InstallationListenerDeps {
  /** Forgets the installation the event came from. */
  forget(context: Context, why: 'app_uninstalled' | 'tokens_revoked'): Promise<void>;
  logger: Logger;
}

/** OAuth mode only: Slack telling the app that an installation is gone. */
export function registerInstallationListeners(app: App, deps: InstallationListenerDeps): void {
  app.event('app_uninstalled', appUninstalledListener(deps));
  app.event('tokens_revoked', tokensRevokedListener(deps));
}
