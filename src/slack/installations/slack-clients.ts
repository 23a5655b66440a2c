import type { Installation } from '@slack/bolt';
import { installationIdOf, keysOfInstallation, type SealedInstallationStore } from './installation-store.js';
import { type SlackWorkspace, workspaceOf } from './workspace-scope.js';

/**
 * How background work (delivery, polling, recovery: after the event returned) finds its installation
 * again, by the turn record's team (`T…`, or `E…` for an org-wide install). DESIGN "Many workspaces".
 */
export type SlackClients = ReturnType<typeof createSlackClients>;

/** Raised when an installation is not (or no longer) kept. */
export class InstallationGoneError extends Error {
  readonly code = 'installation_not_found';
  constructor(readonly installationId: string) {
    super(`no Slack installation for ${installationId} (uninstalled, or never installed)`);
    this.name = 'InstallationGoneError';
  }
}

/** The workspace of a stored installation; undefined when it has no bot (a user-only install). */
function workspaceOfInstallation(installation: Installation): SlackWorkspace | undefined {
  const installationId = installationIdOf(keysOfInstallation(installation));
  const bot = installation.bot;
  if (!installationId || !bot) return undefined;
  const enterpriseId = installation.enterprise?.id;
  return workspaceOf(installationId, bot.token, { botUserId: bot.userId, botId: bot.id, enterpriseId });
}

/** How long an opened installation is reused before the store is read again. */
const REMEMBER_MS = 60_000;

/** The installations, each remembered for {@link REMEMBER_MS} after it is opened. */
export function createSlackClients(store: SealedInstallationStore, now: () => number = Date.now) {
  const remembered = new Map<string, { workspace: SlackWorkspace; until: number }>();
  return {
    /** Rejects with {@link InstallationGoneError} when the installation is not (or no longer) kept. */
    async forTeam(installationId: string): Promise<SlackWorkspace> {
      const hit = remembered.get(installationId);
      if (hit && hit.until > now()) return hit.workspace;
      const installation = await store.fetchById(installationId);
      const workspace = installation ? workspaceOfInstallation(installation) : undefined;
      if (!workspace) {
        remembered.delete(installationId);
        throw new InstallationGoneError(installationId);
      }
      remembered.set(installationId, { workspace, until: now() + REMEMBER_MS });
      return workspace;
    },
    /** Drops what is remembered of an installation (uninstalled, tokens revoked). */
    forget(installationId: string): void {
      remembered.delete(installationId);
    },
  };
}
