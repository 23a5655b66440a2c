/**
 * Key names relative to the store's namespace (in Redis `prefix::name`, @keyv/redis's layout, so
 * one `SCAN prefix::*` finds everything a deployment owns), each id passed through `tag`.
 */
function keyNames(tag: (part: string) => string) {
  return {
    thread: (threadKey: string) => `thread:${tag(threadKey)}`,
    turn: (turnId: string) => `turn:${tag(turnId)}`,
    answer: (channel: string, ts: string) => `answer:${tag(`${channel}:${ts}`)}`,
    channelAgent: (channel: string) => `channel-agent:${tag(channel)}`,
    audience: (channel: string) => `audience:${tag(channel)}`,
    rating: (sessionId: string) => `rating:${tag(sessionId)}`,
    // `thread:<threadKey>` → `lock:thread:{<threadKey>}` in a cluster, beside `thread:{<threadKey>}`.
    lock: (name: string) => {
      const colon = name.indexOf(':');
      return `lock:${name.slice(0, colon + 1)}${tag(name.slice(colon + 1))}`;
    },
    inFlightTurns: 'turns:in-flight',
    allowance: (name: string) => `allowance:${tag(name)}`,
    claim: (name: string) => `claim:${tag(name)}`,
    channelWatch: (channel: string) => `channel-watch:${tag(channel)}`,
    /** A channel where every person's top-level message is a question (`/agent channel answer-all`). */
    answerChannel: (channel: string) => `answer-channel:${tag(channel)}`,
    /** A scheduled question (`/agent schedule add`), by its installation's name for it. */
    schedule: (name: string) => `schedule:${tag(name)}`,
    accountSlots: (account: string) => `account-slots:${tag(account)}`,
    /** Every added service connection by alias (tokens sealed). */
    connections: 'connections',
    /** Channel → alias of the added connection its agent is on. */
    connectionChannels: 'connections:channels',
    installation: (installationId: string) => `installation:${tag(installationId)}`,
    /** An installation's own alert webhook token, sealed (DESIGN "Alert tokens per installation"). */
    alertToken: (installationId: string) => `alert-token:${tag(installationId)}`,
  };
}

/** The key names of a single Redis, Sentinel and memory: untagged. */
export const storeKeys = keyNames((part) => part);

/** The key names a store uses: {@link storeKeys}, or {@link clusterKeys} on a Redis Cluster. */
export type StoreKeys = typeof storeKeys;

/**
 * Key names for a Redis Cluster: a hash tag (`{part}` picks the slot) puts one thread's or turn's
 * keys in one slot. Other topologies keep the untagged names, so an upgrade finds its records.
 */
export const clusterKeys: StoreKeys = keyNames((part) => `{${part}}`);

/** The full Redis key for a relative name under `prefix` (`::` is @keyv/redis's separator). */
export function redisKey(prefix: string, name: string): string {
  return `${prefix}::${name}`;
}
