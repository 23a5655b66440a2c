/**
 * Key names relative to the store's namespace. In Redis every key is `prefix::name`, the layout
 * @keyv/redis uses for its namespace, so the raw keys (locks, in-flight set) sit beside keyv's records
 * and one `SCAN prefix::*` finds everything a deployment owns.
 */
export const storeKeys = {
  thread: (threadKey: string) => `thread:${threadKey}`,
  turn: (turnId: string) => `turn:${turnId}`,
  answer: (channel: string, ts: string) => `answer:${channel}:${ts}`,
  channelAgent: (channel: string) => `channel-agent:${channel}`,
  audience: (channel: string) => `audience:${channel}`,
  rating: (sessionId: string) => `rating:${sessionId}`,
  lock: (name: string) => `lock:${name}`,
  inFlightTurns: 'turns:in-flight',
  allowance: (name: string) => `allowance:${name}`,
  claim: (name: string) => `claim:${name}`,
  channelWatch: (channel: string) => `channel-watch:${channel}`,
  /** A channel where every person's top-level message is a question (`/agent channel answer-all`). */
  answerChannel: (channel: string) => `answer-channel:${channel}`,
  /** A scheduled question (`/agent schedule add`), by its installation's name for it. */
  schedule: (name: string) => `schedule:${name}`,
  accountSlots: (account: string) => `account-slots:${account}`,
  /** Every added service connection by alias (tokens sealed). */
  connections: 'connections',
  /** Channel → alias of the added connection its agent is on. */
  connectionChannels: 'connections:channels',
  installation: (installationId: string) => `installation:${installationId}`,
  /** An installation's own alert webhook token, sealed (DESIGN "Alert tokens per installation"). */
  alertToken: (installationId: string) => `alert-token:${installationId}`,
};

/** The key names a store uses: {@link storeKeys}, or {@link clusterKeys} on a Redis Cluster. */
export type StoreKeys = typeof storeKeys;

/** `{part}`: in a cluster only the part inside the first braces picks the key's slot. */
const tag = (part: string) => `{${part}}`;

/**
 * Key names for a Redis Cluster: each key carries a hash tag, so the keys of one thread (its record
 * and busy lock: `{threadKey}`) and of one turn (record, lease, delivery claim, delivered mark:
 * `{turnId}`) sit in one slot, and the cluster spreads threads and turns over its nodes. Every
 * script names exactly one key, so each runs in one slot. A single Redis and Sentinel keep the
 * untagged names, so an upgraded deployment still finds the records it wrote.
 */
export const clusterKeys: StoreKeys = {
  thread: (threadKey) => `thread:${tag(threadKey)}`,
  turn: (turnId) => `turn:${tag(turnId)}`,
  answer: (channel, ts) => `answer:${tag(`${channel}:${ts}`)}`,
  channelAgent: (channel) => `channel-agent:${tag(channel)}`,
  audience: (channel) => `audience:${tag(channel)}`,
  rating: (sessionId) => `rating:${tag(sessionId)}`,
  // `thread:<threadKey>` → `lock:thread:{<threadKey>}`, beside `thread:{<threadKey>}`.
  lock: (name) => {
    const colon = name.indexOf(':');
    return colon < 0 ? `lock:${tag(name)}` : `lock:${name.slice(0, colon + 1)}${tag(name.slice(colon + 1))}`;
  },
  inFlightTurns: 'turns:in-flight',
  allowance: (name) => `allowance:${tag(name)}`,
  claim: (name) => `claim:${tag(name)}`,
  channelWatch: (channel) => `channel-watch:${tag(channel)}`,
  answerChannel: (channel) => `answer-channel:${tag(channel)}`,
  schedule: (name) => `schedule:${tag(name)}`,
  accountSlots: (account) => `account-slots:${tag(account)}`,
  connections: 'connections',
  connectionChannels: 'connections:channels',
  installation: (installationId) => `installation:${tag(installationId)}`,
  alertToken: (installationId) => `alert-token:${tag(installationId)}`,
};

/** The separator @keyv/redis puts between namespace and key. */
export const NAMESPACE_SEPARATOR = '::';

/** The full Redis key for a relative name under `prefix`. */
export function redisKey(prefix: string, name: string): string {
  return `${prefix}${NAMESPACE_SEPARATOR}${name}`;
}
