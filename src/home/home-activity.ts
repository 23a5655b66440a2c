/**
 * What turns and ratings write for App Home (DESIGN "App Home"): recent threads, this week's
 * tallies, agents seen running; then the asker's home is republished. A failure never reaches the turn.
 */
import { parseThreadKey } from '../conversation/thread-key.js';
import type { TurnObserver } from '../conversation/turn/turn-observer.js';
import type { AnswerRef, TurnOutcome, TurnRecord } from '../conversation/turn/turn-records.js';
import type { Logger } from '../runtime/logger.js';
import type { AgentSeen, HomeStore, RecentThreadStatus, WeeklyTallyKind } from './home-ports.js';
import { isoWeekOf, weekTally } from './iso-week.js';

/** A person's list: their ten newest threads, forgotten a month after the last. */
export const RECENT_THREADS = { max: 10, ttlMs: 30 * 24 * 3_600_000 } as const;
/** A week's tallies outlive it by a week (the home shows the current one). */
export const TALLY_TTL_MS = 15 * 24 * 3_600_000;
const TITLE_MAX_CHARS = 80;

const STATUS_OF: Record<TurnOutcome, RecentThreadStatus> = {
  done: 'answered',
  error: 'failed',
  canceled: 'canceled',
  deadline: 'no-answer',
  service_error: 'failed',
  lost: 'failed',
  undeliverable: 'failed',
  // Stopped by a person: the run is no longer followed and its answer is not posted.
  stopped: 'canceled',
};

/** The question's first line, without the simulator's or Slack's markup, shortened. */
export function threadTitle(question: string): string {
  const line = question.trim().split('\n')[0]?.replace(/\s+/g, ' ').trim() ?? '';
  return line.length > TITLE_MAX_CHARS ? `${line.slice(0, TITLE_MAX_CHARS - 1).trimEnd()}…` : line;
}

/** The turn observer that records App Home's activity. */
export function createHomeActivity(deps: {
  store: HomeStore;
  now: () => number;
  logger: Logger;
  /** The person's own threads in installation `teamId` changed: publish their home there again (rate-bounded by the caller). */
  onThreadsChanged(teamId: string, userId: string): void;
  /** With OAuth: weekly figures per installation (the thread's team), so its admins see their own. */
  byInstallation?: boolean | undefined;
}): TurnObserver & {
  rated(answer: AnswerRef): void;
  /** Settles once the state is recorded (or the failure logged); never rejects. */
  agentSeen(seen: Omit<AgentSeen, 'at'>): Promise<void>;
} {
  const { store, logger } = deps;
  const week = (teamId: string | undefined) =>
    weekTally(isoWeekOf(deps.now()), deps.byInstallation ? teamId : undefined);
  /** Counts `id` once in this week's `kind` (with OAuth, the thread's installation's week). */
  const tally = (what: string, teamId: string | undefined, kind: WeeklyTallyKind, id: string) =>
    beside(what, () => store.tally(week(teamId), kind, id, TALLY_TTL_MS));

  /** Settles once done; a failure is logged. */
  function beside(what: string, work: () => Promise<unknown>, then?: () => void): Promise<void> {
    return work().then(
      () => then?.(),
      (error: unknown) => logger.warn({ err: error }, `App Home: ${what} not recorded`),
    );
  }

  const agentSeen = (seen: Omit<AgentSeen, 'at'>) =>
    beside('agent state', () => store.noteAgentSeen({ ...seen, at: deps.now() }));

  /** The asker's recent-thread entry, then their home again; an alert investigation is the bot's own. */
  function noteThread(what: string, turn: TurnRecord, status: RecentThreadStatus, title?: string): void {
    if (turn.alertAt !== undefined) return;
    const { threadKey, channel, threadTs } = turn;
    const entry = {
      threadKey,
      channel,
      threadTs,
      status,
      updatedAt: deps.now(),
      ...(title ? { title } : {}),
    };
    beside(
      what,
      () => store.noteRecentThread(turn.userId, entry, RECENT_THREADS),
      () => deps.onThreadsChanged(turn.teamId, turn.userId),
    );
  }

  return {
    started(turn, question) {
      noteThread('thread start', turn, 'working', threadTitle(question) || undefined);
      tally('run', turn.teamId, 'runs', turn.turnId);
      const installation = deps.byInstallation ? { installation: turn.teamId } : {};
      void agentSeen({ agentId: turn.agentId, active: true, source: 'run', ...installation });
    },
    finished(turn, outcome) {
      noteThread('thread outcome', turn, STATUS_OF[outcome]);
      if (outcome !== 'done') return;
      tally('answer', turn.teamId, 'answers', turn.turnId);
      if (turn.sessionId) tally('answered session', turn.teamId, 'answered-sessions', turn.sessionId);
    },
    rated(answer) {
      tally('rating', parseThreadKey(answer.threadKey)?.teamId, 'rated-sessions', answer.sessionId);
    },
    agentSeen,
  };
}
