import { type AdminCheck, createAdminCheck } from '../../commands/access.js';
import type { ListenerDeps } from './index.js';

/**
 * Who is an admin, for every listener that needs it (commands, the add-connection form): the
 * shared user directory (one users.info cache), Slack admins of the app's own organisation only.
 */
export function adminCheckOf(deps: ListenerDeps): AdminCheck {
  return createAdminCheck({
    adminUserIds: deps.config.access.adminUserIds,
    app: { teamId: deps.identity.teamId, enterpriseId: deps.identity.enterpriseId },
    lookupUser: deps.users.lookup,
    onLookupError: (userId, error) =>
      deps.logger.warn({ user: userId, err: error }, 'users.info failed; treating the user as a non-admin'),
  });
}
