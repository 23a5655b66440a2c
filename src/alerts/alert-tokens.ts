/** Each installation's own alert webhook token, kept sealed (DESIGN "Alert tokens per installation"). */
import { randomBytes } from 'node:crypto';
import { secretCheck } from '../http/secret-check.js';

/** Where the sealed tokens are kept (store/installation-records.ts), one per installation. */
export interface AlertTokenRecords {
  getAlertTokenRecord(installationId: string): Promise<{ sealed: string; savedAt: number } | undefined>;
  saveAlertTokenRecord(installationId: string, record: { sealed: string; savedAt: number }): Promise<void>;
}

/** Port: the secret box (secrets/secret-box.ts), wired in the composition root. */
export interface Sealer {
  /** Seals `plain` bound to `place`, its record: moved to another record it does not open. */
  seal(plain: string, place: string): string;
  /** Throws when the value was not sealed by a known key, was tampered with, or belongs elsewhere. */
  open(sealed: string, place: string): string;
}

/** The token's sealed place (DESIGN "Sealed values know their place"), as secret-box.ts's `sealPlace`. */
const placeOf = (installationId: string) => JSON.stringify(['alert-token', installationId]);

/** `T…`/`E…`, a dot, then the random part: the installation is readable without a store read. */
const TOKEN = /^([TE][A-Z0-9]{2,})\.([A-Za-z0-9_-]{20,})$/;

export function createAlertTokens(deps: { records: AlertTokenRecords; box: Sealer; now: () => number }) {
  const { records, box } = deps;

  async function make(installationId: string): Promise<string> {
    const token = `${installationId}.${randomBytes(24).toString('base64url')}`;
    await records.saveAlertTokenRecord(installationId, {
      sealed: box.seal(token, placeOf(installationId)),
      savedAt: deps.now(),
    });
    return token;
  }

  async function kept(installationId: string): Promise<string | undefined> {
    const record = await records.getAlertTokenRecord(installationId);
    return record ? box.open(record.sealed, placeOf(installationId)) : undefined;
  }

  return {
    /** The installation's token: the kept one, or a new one on first use. */
    async tokenOf(installationId: string): Promise<string> {
      return (await kept(installationId)) ?? make(installationId);
    },
    /** A new token for the installation; the old one stops working at once. */
    rotate: make,
    /** The installation one of the presented tokens belongs to; undefined when none does. */
    async installationOf(presented: readonly string[]): Promise<string | undefined> {
      for (const candidate of presented) {
        const installationId = TOKEN.exec(candidate)?.[1];
        if (!installationId) continue;
        const token = await kept(installationId);
        // Compared in constant time, as ALERT_WEBHOOK_TOKEN is.
        if (token && secretCheck(token)([candidate])) return installationId;
      }
      return undefined;
    },
  };
}

export type AlertTokens = ReturnType<typeof createAlertTokens>;
