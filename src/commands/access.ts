/**
 * Who may run admin commands: the ids in ADMIN_USER_IDS, plus Slack workspace admins and owners
 * (`users.info` → `is_admin` / `is_owner`). The Slack call stays in slack/ behind `lookupUser`.
 */

/** The flags of a Slack user that matter here; undefined when Slack does not know the user. */
export interface SlackUserRoles {
  isAdmin: boolean;
  isOwner: boolean;
}

/** Port: `users.info` for one user. Throws when Slack cannot answer. */
export type LookupUser = (userId: string) => Promise<SlackUserRoles | undefined>;

export interface AdminCheckOptions {
  adminUserIds: readonly string[];
  lookupUser: LookupUser;
  /** How long a users.info answer is trusted. Default 5 minutes: a demoted admin loses access soon. */
  ttlMs?: number;
  /** Default Date.now. */
  now?: () => number;
  /** Told when users.info fails (the person is then refused: fail closed). */
  onLookupError?: (userId: string, error: unknown) => void;
}

/** Answers "is this Slack user an admin?", caching workspace roles briefly. */
export interface AdminCheck {
  isAdmin(userId: string): Promise<boolean>;
}

/** Builds the check. The cache lives as long as the returned object (one per app). */
export function createAdminCheck(options: AdminCheckOptions): AdminCheck {
  const listed = new Set(options.adminUserIds);
  const ttlMs = options.ttlMs ?? 5 * 60_000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { admin: boolean; expiresAt: number }>();
  // Concurrent commands from one person share one users.info call.
  const pending = new Map<string, Promise<boolean>>();

  async function lookup(userId: string): Promise<boolean> {
    try {
      const roles = await options.lookupUser(userId);
      const admin = roles !== undefined && (roles.isAdmin || roles.isOwner);
      prune(now());
      cache.set(userId, { admin, expiresAt: now() + ttlMs });
      return admin;
    } catch (error) {
      // Not cached: the next command asks Slack again.
      options.onLookupError?.(userId, error);
      return false;
    }
  }

  /** Drops expired answers so the cache never outgrows the people who used the command lately. */
  function prune(at: number): void {
    for (const [userId, entry] of cache) if (entry.expiresAt <= at) cache.delete(userId);
  }

  return {
    async isAdmin(userId) {
      if (listed.has(userId)) return true;
      const cached = cache.get(userId);
      if (cached && cached.expiresAt > now()) return cached.admin;
      const inFlight = pending.get(userId);
      if (inFlight) return inFlight;
      const answer = lookup(userId);
      pending.set(userId, answer);
      // Always after the set above (a then-callback), even if lookupUser failed synchronously.
      void answer.then(() => pending.delete(userId));
      return answer;
    },
  };
}
