import type { App } from '@slack/bolt';
import { createAdminCheck } from '../../../commands/access.js';
import type { ListenerDeps } from '../index.js';
import { agentCommandListener } from './agent-command.js';

/**
 * Slash commands → listeners. The admin check asks the shared user directory (one users.info
 * cache) and counts Slack admins of the app's own organisation only.
 */
export function registerCommandListeners(app: App, deps: ListenerDeps): void {
  const access = createAdminCheck({
    adminUserIds: deps.config.access.adminUserIds,
    // Read per command: with OAuth the organisation is the command's installation's.
    app: deps.identity,
    lookupUser: deps.users.lookup,
    onLookupError: (userId, error) =>
      deps.logger.warn({ user: userId, err: error }, 'users.info failed; treating the user as a non-admin'),
  });
  app.command('/agent', agentCommandListener(deps, access));
}
