import type { Keyv } from 'keyv';
import type { ConnectionRecordStore, StoredConnection } from '../connections/connection-record.js';
import { storeKeys } from './keys.js';

/** The channel bindings' side of the connections: which channel uses which connection. */
export interface ChannelConnectionIndex {
  /** Records that `channel` is bound to an agent on `alias` (undefined: the default connection). */
  noteChannelConnection(channel: string, alias: string | undefined): Promise<void>;
}

/**
 * Service connections (DESIGN "Many accounts"; tokens sealed) by alias, and channel → alias so a
 * removal names the channels using it. Only admins change them: a read-modify-write is enough.
 */
export function createConnectionRecords(keyv: Keyv): ConnectionRecordStore & ChannelConnectionIndex {
  const all = async () => (await keyv.get<Record<string, StoredConnection>>(storeKeys.connections)) ?? {};
  const channels = async () => (await keyv.get<Record<string, string>>(storeKeys.connectionChannels)) ?? {};

  return {
    async getConnection(alias) {
      return (await all())[alias];
    },
    async listConnections() {
      return Object.values(await all()).sort((a, b) => a.alias.localeCompare(b.alias));
    },
    async saveConnection(connection) {
      await keyv.set(storeKeys.connections, { ...(await all()), [connection.alias]: connection });
    },
    async deleteConnection(alias) {
      const { [alias]: _gone, ...rest } = await all();
      await keyv.set(storeKeys.connections, rest);
    },
    async channelsUsing(alias) {
      return Object.entries(await channels())
        .filter(([, used]) => used === alias)
        .map(([channel]) => channel)
        .sort();
    },
    async noteChannelConnection(channel, alias) {
      const current = await channels();
      if (current[channel] === alias) return;
      const { [channel]: _before, ...rest } = current;
      const next = alias === undefined ? rest : { ...rest, [channel]: alias };
      await keyv.set(storeKeys.connectionChannels, next);
    },
  };
}
