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
  installation: (installationId: string) => `installation:${installationId}`,
} as const;

/** The separator @keyv/redis puts between namespace and key. */
export const NAMESPACE_SEPARATOR = '::';

/** The full Redis key for a relative name under `prefix`. */
export function redisKey(prefix: string, name: string): string {
  return `${prefix}${NAMESPACE_SEPARATOR}${name}`;
}
