import { sealPlace } from '../secrets/secret-box.js';

/** A service connection as stored (DESIGN "Many accounts"): its token only sealed, never in plain. */
export interface StoredConnection {
  alias: string;
  /** The region's API address, normalised (no trailing slash). */
  baseUrl: string;
  /** `v1.<keyId>.…`: see secrets/secret-box.ts. */
  sealedToken: string;
  /** What `/v2/whoami` answered when the connection was added. */
  accountId: number;
  accountName: string;
  addedBy: string;
  addedAt: number;
  /** With OAuth (DESIGN "Many workspaces"): the installation (`T…`/`E…`) whose admins alone may use it. */
  installation?: string | undefined;
}

/** Where a sealed token belongs (DESIGN "Sealed values know their place"): elsewhere it does not open. */
export const connectionSealPlace = (connection: Pick<StoredConnection, 'alias' | 'installation'>) =>
  sealPlace('connection', connection.installation, connection.alias);

/** Where connections are kept: the state store, shared by every replica, no expiry. */
export interface ConnectionRecordStore {
  getConnection(alias: string): Promise<StoredConnection | undefined>;
  /** In alias order. */
  listConnections(): Promise<StoredConnection[]>;
  saveConnection(connection: StoredConnection): Promise<void>;
  deleteConnection(alias: string): Promise<void>;
  /** The channels bound to an agent on `alias` (kept up to date by the channel bindings). */
  channelsUsing(alias: string): Promise<string[]>;
}
