import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import type { Logger } from '../../runtime/logger.js';
import { type SecretBox, sealPlace } from '../../secrets/secret-box.js';
import type { InstallationRecordStore } from '../../store/index.js';

/** What identifies an installation: the fields of a query or of an installation Bolt hands over. */
type InstallationKeys = Partial<
  Pick<InstallationQuery<boolean>, 'isEnterpriseInstall' | 'enterpriseId' | 'teamId'>
>;

/** The installation's id in the store and thread keys: an org-wide install's enterprise, else the team. */
export function installationIdOf(keys: InstallationKeys): string | undefined {
  if (keys.isEnterpriseInstall && keys.enterpriseId) return keys.enterpriseId;
  return keys.teamId ?? keys.enterpriseId;
}

/** The store's keys of an installation as Bolt builds it after `oauth.v2.access`. */
export function keysOfInstallation(installation: Installation): InstallationKeys {
  return {
    isEnterpriseInstall: installation.isEnterpriseInstall,
    enterpriseId: installation.enterprise?.id,
    teamId: installation.team?.id,
  };
}

/** Bolt's InstallationStore, with the look-ups by id that background work and uninstalls use. */
export interface SealedInstallationStore extends InstallationStore {
  /** The installation kept under `installationId` (`T…` or `E…`), opened; undefined when none. */
  fetchById(installationId: string): Promise<Installation | undefined>;
  deleteInstallation(query: InstallationQuery<boolean>): Promise<void>;
}

/**
 * Bolt's InstallationStore on our state store (DESIGN "Many workspaces"): each installation sealed
 * whole, so Redis shows its id, never a token; an org-wide install under the enterprise id
 * (as Bolt's own stores: https://docs.slack.dev/tools/bolt-js/concepts/authenticating-oauth).
 */
export function createSealedInstallationStore(deps: {
  records: InstallationRecordStore;
  box: SecretBox;
  logger: Logger;
  now?: () => number;
}): SealedInstallationStore {
  const { records, box, logger } = deps;
  const now = deps.now ?? Date.now;

  /** An installation opens only under the id it was sealed for (DESIGN "Sealed values know their place"). */
  const placeOf = (installationId: string) => sealPlace('installation', installationId);

  async function fetchById(installationId: string): Promise<Installation | undefined> {
    const record = await records.getInstallationRecord(installationId);
    if (!record) return undefined;
    let opened: string;
    try {
      opened = box.open(record.sealed, placeOf(installationId));
    } catch (error) {
      // Moved from another record, tampered with, or under a key not configured: never used.
      logger.warn({ installation: installationId, err: error }, 'Slack installation could not be opened');
      throw error;
    }
    if (box.isUnbound(record.sealed)) {
      // Sealed before record binding: sealed again for the record it was found under, once.
      await records.saveInstallationRecord(installationId, {
        ...record,
        sealed: box.seal(opened, placeOf(installationId)),
      });
      logger.info({ installation: installationId }, 'Slack installation sealed again, bound to its record');
    }
    return JSON.parse(opened) as Installation;
  }

  return {
    fetchById,
    async storeInstallation(installation) {
      const id = installationIdOf(keysOfInstallation(installation as Installation));
      if (!id) throw new Error('the installation names neither a workspace nor an enterprise');
      await records.saveInstallationRecord(id, {
        sealed: box.seal(JSON.stringify(installation), placeOf(id)),
        savedAt: now(),
      });
      logger.info(
        { installation: id, enterprise: installation.isEnterpriseInstall === true },
        'Slack installation saved',
      );
    },
    async fetchInstallation(query) {
      const id = installationIdOf(query);
      // An org-wide install also serves events that name a workspace of the org.
      const found =
        (id ? await fetchById(id) : undefined) ??
        (query.enterpriseId && query.enterpriseId !== id ? await fetchById(query.enterpriseId) : undefined);
      // Bolt expects a throw for "not installed here": it answers the event without a listener.
      if (!found) throw new Error(`no Slack installation for ${id ?? 'this payload'}`);
      return found;
    },
    async deleteInstallation(query) {
      const id = installationIdOf(query);
      if (!id) return;
      await records.deleteInstallationRecord(id);
      logger.info({ installation: id }, 'Slack installation forgotten');
    },
  };
}
