import type { Keyv } from 'keyv';
import { storeKeys } from './keys.js';

/**
 * Slack installations (DESIGN "Many workspaces"), one record per id (`T…`, or an org's `E…`), only
 * as the caller sealed them; no expiry: an installation lasts until Slack says it is gone.
 */
export interface InstallationRecordStore {
  getInstallationRecord(installationId: string): Promise<SealedInstallation | undefined>;
  saveInstallationRecord(installationId: string, record: SealedInstallation): Promise<void>;
  deleteInstallationRecord(installationId: string): Promise<void>;
  /** The installation's own alert webhook token, sealed (alerts/alert-tokens.ts). */
  getAlertTokenRecord(installationId: string): Promise<SealedInstallation | undefined>;
  saveAlertTokenRecord(installationId: string, record: SealedInstallation): Promise<void>;
}

/** A sealed installation (secrets/secret-box.ts format) and when it was saved. */
export type SealedInstallation = { sealed: string; savedAt: number };

export function createInstallationRecords(keyv: Keyv): InstallationRecordStore {
  return {
    getInstallationRecord: (installationId) =>
      keyv.get<SealedInstallation>(storeKeys.installation(installationId)),
    async saveInstallationRecord(installationId, record) {
      await keyv.set(storeKeys.installation(installationId), record);
    },
    async deleteInstallationRecord(installationId) {
      await keyv.delete(storeKeys.installation(installationId));
      await keyv.delete(storeKeys.alertToken(installationId));
    },
    getAlertTokenRecord: (installationId) =>
      keyv.get<SealedInstallation>(storeKeys.alertToken(installationId)),
    async saveAlertTokenRecord(installationId, record) {
      await keyv.set(storeKeys.alertToken(installationId), record);
    },
  };
}
