/**
 * Who may run admin commands: the ids in ADMIN_USER_IDS, plus Slack workspace admins and owners
 * (`users.info` → `is_admin` / `is_owner`). The Slack call and its cache stay in slack/ (the user
 * directory) behind `lookupUser`.
 */

/** The flags of a Slack user that matter here; undefined when Slack does not know the user. */
export interface SlackUserRoles {
  isAdmin: boolean;
  isOwner: boolean;
}

/** Port: `users.info` for one user (cached by the caller). Throws when Slack cannot answer. */
export type LookupUser = (userId: string) => Promise<SlackUserRoles | undefined>;

export interface AdminCheckOptions {
  adminUserIds: readonly string[];
  lookupUser: LookupUser;
  /** Told when users.info fails (the person is then refused: fail closed). */
  onLookupError?: (userId: string, error: unknown) => void;
}

/** Answers "is this Slack user an admin?". */
export interface AdminCheck {
  isAdmin(userId: string): Promise<boolean>;
}

/** Builds the check. Listed ids never cost a Slack call. */
export function createAdminCheck(options: AdminCheckOptions): AdminCheck {
  const listed = new Set(options.adminUserIds);
  return {
    async isAdmin(userId) {
      if (listed.has(userId)) return true;
      try {
        const roles = await options.lookupUser(userId);
        return roles !== undefined && (roles.isAdmin || roles.isOwner);
      } catch (error) {
        options.onLookupError?.(userId, error);
        return false;
      }
    },
  };
}
