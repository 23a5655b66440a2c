import type { App } from '@slack/bolt';
import { createAdminCheck } from '../../commands/access.js';
import { registerActionListeners } from './actions/index.js';
import { registerCommandListeners } from './commands/index.js';
import { type EventPorts, registerEventListeners } from './events/index.js';
import type { ListenerDeps } from './listener-deps.js';
import type { ConnectionFormPorts } from './views/connection-form-submitted.js';
import { registerViewListeners } from './views/index.js';

/** What the listeners use, together; each listener takes only its part (see its file). */
export type ListenerPorts = EventPorts & ConnectionFormPorts & ListenerDeps;

/** Registers every listener (events, commands, actions, views) on the app. */
export function registerListeners(app: App, ports: ListenerPorts): void {
  // Who is an admin (commands, the add-connection form): Slack admins of the app's own organisation only.
  const admins = createAdminCheck({
    adminUserIds: ports.commands.adminUserIds,
    // Read per command: with OAuth the organisation is the command's installation's.
    app: ports.identity,
    lookupUser: ports.users.lookup,
    onLookupError: (userId, error) =>
      ports.logger.warn({ user: userId, err: error }, 'users.info failed; treating the user as a non-admin'),
  });
  registerEventListeners(app, ports);
  registerCommandListeners(app, ports, admins);
  registerActionListeners(app, ports);
  registerViewListeners(app, { ...ports, admins });
}
