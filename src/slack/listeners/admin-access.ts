import { type AdminCheck, createAdminCheck } from '../../commands/access.js';
import type { ListenerDeps } from './listener-deps.js';

/** Who is an admin (commands, the add-connection form): Slack admins of the app's own organisation only. */
export function adminCheckOf(
  deps: Pick<ListenerDeps, 'commands' | 'identity' | 'users' | 'logger'>,
): AdminCheck {
  return createAdminCheck({
    adminUserIds: deps.commands.adminUserIds,
    // Read per command: with OAuth the organisation is the command's installation's.
    app: deps.identity,
    lookupUser: deps.users.lookup,
    onLookupError: (userId, error) =>
      deps.logger.warn({ user: userId, err: error }, 'users.info failed; treating the user as a non-admin'),
  });
}
