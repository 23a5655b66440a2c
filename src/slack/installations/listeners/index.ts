import type { App } from '@slack/bolt';
import { appUninstalledListener } from './app-uninstalled.js';
import type { InstallationListenerDeps } from './installation-listener-deps.js';
import { tokensRevokedListener } from './tokens-revoked.js';

/** OAuth mode only: Slack telling the app that an installation is gone. */
export function registerInstallationListeners(app: App, deps: InstallationListenerDeps): void {
  app.event('app_uninstalled', appUninstalledListener(deps));
  app.event('tokens_revoked', tokensRevokedListener(deps));
}
