import {
  type AppOrganisation,
  ofTheOrganisation,
  type PersonOrganisation,
} from '../conversation/access/who-is-inside.js';

/**
 * Who may run admin commands: ADMIN_USER_IDS in the home installations, and Slack admins and owners
 * inside the organisation, never a guest (DESIGN "The home workspaces", "Guests are outside"). It
 * runs after `/agent`'s inside check, so a listed id is trusted only once past that.
 */

/** The flags of a Slack user that matter here; undefined when Slack does not know the user. */
export type SlackUserRoles = PersonOrganisation & { isAdmin: boolean; isOwner: boolean };

export interface AdminCheckOptions {
  adminUserIds: readonly string[];
  /** The app's organisation (`auth.test`): only its own admins and owners count. */
  app: AppOrganisation;
  /** Port: `users.info` for one user (cached by the caller). Throws when Slack cannot answer. */
  lookupUser: (userId: string) => Promise<SlackUserRoles | undefined>;
  /** Told when users.info fails (the person is then refused: fail closed). */
  onLookupError?: (userId: string, error: unknown) => void;
}

/** Answers "is this Slack user an admin?" of the installation `tenant` names. */
export interface AdminCheck {
  isAdmin(userId: string, tenant: { home: boolean }): Promise<boolean>;
}

/** Whether Slack's admin or owner flag makes this person an admin here: only a member inside. */
export function isInsideAdmin(app: AppOrganisation, roles: SlackUserRoles | undefined): boolean {
  if (!roles || !(roles.isAdmin || roles.isOwner)) return false;
  return !roles.isGuest && ofTheOrganisation(app, roles);
}

/** Builds the check. Listed ids never cost a Slack call. */
export function createAdminCheck(options: AdminCheckOptions): AdminCheck {
  const listed = new Set(options.adminUserIds);
  return {
    async isAdmin(userId, tenant) {
      if (tenant.home && listed.has(userId)) return true;
      try {
        return isInsideAdmin(options.app, await options.lookupUser(userId));
      } catch (error) {
        options.onLookupError?.(userId, error);
        return false;
      }
    },
  };
}
