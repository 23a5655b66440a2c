/** What App Home reads and the turns write (DESIGN "App Home"); src/store/home-records.ts implements it. */

/** Where a person's thread stands, as their home shows it. */
export type RecentThreadStatus = 'working' | 'answered' | 'failed' | 'canceled' | 'no-answer';

/** One of a person's recent threads with the bot. */
export interface RecentThread {
  threadKey: string;
  channel: string;
  threadTs: string;
  /** The thread's first question, shortened; kept when a later write has none. */
  title?: string | undefined;
  status: RecentThreadStatus;
  /** Epoch ms of the last change: the list is newest first. */
  updatedAt: number;
}

/**
 * Counted per ISO week as distinct ids (a retry counts nothing twice): turn ids for runs and answers,
 * session ids for answered and rated sessions (feedback coverage is rated ÷ answered).
 */
export type WeeklyTallyKind = 'runs' | 'answers' | 'answered-sessions' | 'rated-sessions';
/** Each kind's count in one week. */
export type WeeklyTallies = Record<WeeklyTallyKind, number>;

/** An agent's state as the bot last saw it: no service endpoint lists agents or their state. */
export interface AgentSeen {
  agentId: string;
  active: boolean;
  /** `command`: `/agent enable|disable`; `run`: a run started on it. */
  source: 'command' | 'run';
  at: number;
  /** With OAuth: the installation it was last seen in (its admins' App Home lists it). */
  installation?: string | undefined;
}

/** Port: App Home's records in the state store. */
export interface HomeStore {
  /** Adds or replaces the thread (by thread key), keeping the newest `max`; forgotten `ttlMs` after the last write. */
  noteRecentThread(
    userId: string,
    thread: RecentThread,
    limits: { max: number; ttlMs: number },
  ): Promise<void>;
  /** The person's recent threads, newest first. */
  recentThreads(userId: string): Promise<RecentThread[]>;
  /** Counts `id` once in `week` (e.g. `2026-W48`) for `kind`; the week's tally expires after `ttlMs`. */
  tally(week: string, kind: WeeklyTallyKind, id: string, ttlMs: number): Promise<void>;
  weeklyTallies(week: string): Promise<WeeklyTallies>;
  /** Channels bound with `/agent channel use` (kept beside the bindings themselves). */
  listBoundChannels(): Promise<string[]>;
  /** Channels watched for alerts (`/agent channel investigate on`), kept beside their settings. */
  listWatchedChannels(): Promise<string[]>;
  noteAgentSeen(seen: AgentSeen): Promise<void>;
  /** Every agent the bot has seen, most recently seen first. */
  agentsSeen(): Promise<AgentSeen[]>;
}
