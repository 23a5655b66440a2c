/** The installation a request is for (DESIGN "One installation, one tenant"), made where it enters. */
export interface Tenant extends InstallationRef {
  /** Served by the default connection, ADMIN_USER_IDS and ALERT_WEBHOOK_TOKEN. */
  home: boolean;
  /** Its id in store keys with OAuth; undefined with one workspace, so keys stay as before installations. */
  key: string | undefined;
}

/** Where an installation is known from: a Slack identity (`auth.test`'s, or an installation's). */
export interface InstallationRef {
  /** The installation's id, the thread keys' team: `T…`, or `E…` for an org-wide install. */
  teamId: string;
  /** The Grid org the installation belongs to, if any (a HOME_TEAM_IDS `E…` covers its workspaces). */
  enterpriseId?: string | undefined;
}

export function createTenancy(options: {
  /** HOME_TEAM_IDS, or with one workspace its default (that workspace and its org). */
  homeTeamIds: readonly string[];
  /** OAuth: installations are told apart in store keys. */
  many: boolean;
}) {
  const home = new Set(options.homeTeamIds);
  /** The store-key part of the installation `teamId` (a turn record's team): see {@link Tenant.key}. */
  const keyOf = (teamId: string) => (options.many ? teamId : undefined);
  return {
    of: (installation: InstallationRef): Tenant => ({
      teamId: installation.teamId,
      ...(installation.enterpriseId ? { enterpriseId: installation.enterpriseId } : {}),
      home:
        home.has(installation.teamId) ||
        (installation.enterpriseId !== undefined && home.has(installation.enterpriseId)),
      key: keyOf(installation.teamId),
    }),
    keyOf,
  };
}

/** Tenants of installations, and their store keys. */
export type Tenancy = ReturnType<typeof createTenancy>;

/** The home installations when HOME_TEAM_IDS is unset: one workspace's own, none with OAuth. */
export function defaultHomeTeamIds(
  configured: readonly string[] | undefined,
  oneWorkspace: InstallationRef | undefined,
): string[] {
  if (configured) return [...configured];
  if (!oneWorkspace) return [];
  return [oneWorkspace.teamId, ...(oneWorkspace.enterpriseId ? [oneWorkspace.enterpriseId] : [])];
}

/** A store name owned by an installation: `<installation>:<name>`, or `name` with one workspace. */
export function tenantName(key: string | undefined, name: string): string {
  return key === undefined ? name : `${key}:${name}`;
}

/** `tenant`'s record of `name` ({@link tenantName}), else its own kept under `name` alone before names. */
export async function tenantRecord<R extends { installation?: string | undefined }>(
  tenant: Tenant,
  name: string,
  get: (name: string) => Promise<R | undefined>,
): Promise<R | undefined> {
  const own = await get(tenantName(tenant.key, name));
  if (own || tenant.key === undefined) return own;
  const earlier = await get(name);
  return earlier?.installation === tenant.teamId ? earlier : undefined;
}

/** The Slack channel id in a store name made by {@link tenantName}. */
export function channelOfName(name: string): string {
  return name.slice(name.lastIndexOf(':') + 1);
}
