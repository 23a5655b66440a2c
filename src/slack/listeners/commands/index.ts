import type { App } from '@slack/bolt';
import { createAdminCheck } from '../../../commands/access.js';
import type { ListenerDeps } from '../index.js';
import { agentCommandListener } from './agent-command.js';
import { slackUserLookup } from './slack-ports.js';

/** Slash commands → listeners. The admin check (and its users.info cache) lives as long as the app. */
export function registerCommandListeners(app: App, deps: ListenerDeps): void {
  const access = createAdminCheck({
    adminUserIds: deps.config.access.adminUserIds,
    lookupUser: slackUserLookup(app.client),
    onLookupError: (userId, error) =>
      deps.logger.warn({ user: userId, err: error }, 'users.info failed; treating the user as a non-admin'),
  });
  app.command('/agent', agentCommandListener(deps, access));
}
