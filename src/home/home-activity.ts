/**
 * What turns and ratings write for App Home (DESIGN "App Home"): recent threads, this week's
 * tallies, agents seen running; then the asker's home is republished. A failure never reaches the turn.
 */
import { parseThreadKey } from '../conversation/thread-key.js';
import type { TurnObserver } from '../conversation/turn/turn-observer.js';
import type { AnswerRef, TurnOutcome, TurnRecord } from '../conversation/turn/turn-records.js';
import type { Logger } from '../runtime/logger.js';
import type { AgentSeen, HomeStore, RecentThreadStatus } from './home-ports.js';
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

export interface HomeActivityDeps {
  store: HomeStore;
  now: () => number;
  logger: Logger;
  /** The person's own threads in installation `teamId` changed: publish their home there again (rate-bounded by the caller). */
  onThreadsChanged(teamId: string, userId: string): void;
  /** With OAuth: weekly figures per installation (the thread's team), so its admins see their own. */
  byInstallation?: boolean | undefined;
}

/** The turn observer that records App Home's activity. */
export function createHomeActivity(deps: HomeActivityDeps): TurnObserver & {
  rated(answer: AnswerRef): void;
  /** Settles once the state is recorded (or the failure logged); never rejects. */
  agentSeen(seen: Omit<AgentSeen, 'at'>): Promise<void>;
} {
  const { store, logger } = deps;
  const week = (teamId: string | undefined) =>
    weekTally(isoWeekOf(deps.now()), deps.byInstallation ? teamId : undefined);

  /** Settles once done; a failure is logged. */
  function beside(what: string, work: () => Promise<unknown>, then?: () => void): Promise<void> {
    return work().then(
      () => then?.(),
      (error: unknown) => logger.warn({ err: error }, `App Home: ${what} not recorded`),
    );
  }

  function noteThread(turn: TurnRecord, status: RecentThreadStatus, title?: string): Promise<void> {
    const { threadKey, channel, threadTs } = turn;
    const entry = {
      threadKey,
      channel,
      threadTs,
      status,
      updatedAt: deps.now(),
      ...(title ? { title } : {}),
    };
    return store.noteRecentThread(turn.userId, entry, RECENT_THREADS);
  }

  return {
    started(turn, question) {
      const title = threadTitle(question);
      // An alert investigation is the bot's own: it counts, but is nobody's recent thread.
      if (turn.alertAt === undefined) {
        beside(
          'thread start',
          () => noteThread(turn, 'working', title || undefined),
          () => deps.onThreadsChanged(turn.teamId, turn.userId),
        );
      }
      beside('run', () => store.tally(week(turn.teamId), 'runs', turn.turnId, TALLY_TTL_MS));
      const installation = deps.byInstallation ? { installation: turn.teamId } : {};
      beside('agent state', () =>
        store.noteAgentSeen({
          agentId: turn.agentId,
          active: true,
          source: 'run',
          at: deps.now(),
          ...installation,
        }),
      );
    },
    finished(turn, outcome) {
      if (turn.alertAt === undefined) {
        beside(
          'thread outcome',
          () => noteThread(turn, STATUS_OF[outcome]),
          () => deps.onThreadsChanged(turn.teamId, turn.userId),
        );
      }
      if (outcome !== 'done') return;
      beside('answer', () => store.tally(week(turn.teamId), 'answers', turn.turnId, TALLY_TTL_MS));
      if (turn.sessionId) {
        const sessionId = turn.sessionId;
        beside('answered session', () =>
          store.tally(week(turn.teamId), 'answered-sessions', sessionId, TALLY_TTL_MS),
        );
      }
    },
    rated(answer) {
      const teamId = parseThreadKey(answer.threadKey)?.teamId;
      beside('rating', () => store.tally(week(teamId), 'rated-sessions', answer.sessionId, TALLY_TTL_MS));
    },
    agentSeen(seen) {
      return beside('agent state', () => store.noteAgentSeen({ ...seen, at: deps.now() }));
    },
  };
}
