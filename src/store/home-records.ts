import type {
  AgentSeen,
  HomeStore,
  RecentThread,
  WeeklyTallies,
  WeeklyTallyKind,
} from '../home/home-ports.js';
import type { HomePrimitives } from './primitives.js';

/** App Home's key names, relative to the store's namespace (as in keys.ts). */
export const homeKeys = {
  recentThreads: (userId: string) => `home:threads:${userId}`,
  tally: (week: string, kind: WeeklyTallyKind) => `home:tally:${week}:${kind}`,
  boundChannels: 'channel-agents:bound',
  /** Channels whose integration posts are investigated (`/agent channel investigate on`). */
  watchedChannels: 'channel-watch:listed',
  agentsSeen: 'home:agents-seen',
} as const;

/** Agents remembered; more than a deployment binds, few enough to show. */
const AGENTS_SEEN_MAX = 50;
const TALLY_KINDS: readonly WeeklyTallyKind[] = ['runs', 'answers', 'answered-sessions', 'rated-sessions'];

function parsed<T>(value: string): T | undefined {
  try {
    return JSON.parse(value) as T;
  } catch {
    return undefined;
  }
}

/** The HomeStore on either backend's primitives; records are JSON. */
export function createHomeRecords(primitives: HomePrimitives): HomeStore {
  const records = async <T>(name: string) =>
    (await primitives.ranked(name)).flatMap((entry) => parsed<T>(entry.value) ?? []);
  const sorted = async (name: string) => (await primitives.members(name)).sort();
  return {
    async noteRecentThread(userId, thread, limits) {
      const name = homeKeys.recentThreads(userId);
      // An outcome (no title) keeps its start's title; one thread's turns, and writes, never race.
      const title =
        thread.title ??
        (await records<RecentThread>(name)).find((old) => old.threadKey === thread.threadKey)?.title;
      const value = JSON.stringify({ ...thread, ...(title ? { title } : {}) });
      const entry = { field: thread.threadKey, value, rank: thread.updatedAt };
      await primitives.putRanked(name, entry, limits.max, limits.ttlMs);
    },
    recentThreads: (userId) => records<RecentThread>(homeKeys.recentThreads(userId)),
    async tally(week, kind, id, ttlMs) {
      await primitives.addMember(homeKeys.tally(week, kind), id, ttlMs);
    },
    async weeklyTallies(week) {
      const counts = TALLY_KINDS.map(async (kind) => [
        kind,
        await primitives.memberCount(homeKeys.tally(week, kind)),
      ]);
      return Object.fromEntries(await Promise.all(counts)) as WeeklyTallies;
    },
    listBoundChannels: () => sorted(homeKeys.boundChannels),
    listWatchedChannels: () => sorted(homeKeys.watchedChannels),
    async noteAgentSeen(seen) {
      const entry = { field: seen.agentId, value: JSON.stringify(seen), rank: seen.at };
      await primitives.putRanked(homeKeys.agentsSeen, entry, AGENTS_SEEN_MAX);
    },
    agentsSeen: () => records<AgentSeen>(homeKeys.agentsSeen),
  };
}
