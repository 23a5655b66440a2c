/**
 * How a turn shows that the agent works (DESIGN "Native progress"): Slack's native thread status,
 * or a progress message (`PROGRESS_STYLE=message`, and where the status is not available). Updates
 * go through the progress throttle, so progress never delays an answer; a refresh keeps the elapsed
 * time moving and a status alive (Slack clears one after two minutes). One schedule wakes them all.
 */

import type { Clock } from '../../runtime/clock.js';
import { createDueSchedule } from '../polling/due-schedule.js';
import type { Progress, ThreadLocation, ThreadOutput } from '../thread-output-port.js';
import { createNativeStatus } from './native-status.js';
import { createProgressThrottle, type ProgressThrottle } from './progress-throttle.js';
import { where } from './turn-in-flight.js';
import type { TurnRecord } from './turn-records.js';

export type { StatusResult, ThreadStatusPort } from './native-status.js';

/** One coalesced progress update of a turn: its progress message when it has one, else its status. */
export interface ProgressUpdate extends Progress {
  where: ThreadLocation;
  /** The turn's progress message; undefined when the turn shows the native status. */
  ts?: string | undefined;
}

/** Refreshes edit a progress message at most this often: its elapsed time moves, within Tier 3. */
const MESSAGE_REFRESH_MAX_MS = 30_000;

const STARTED: Progress = { steps: 0, elapsedMs: 0 };

/** A followed turn: a small record, no timer — one shared schedule wakes refreshes when due. */
interface Followed {
  turn: TurnRecord;
  steps: number;
  /** When the next refresh falls due: a refresh period after the latest send began. */
  dueAt: number;
  /** When Slack last answered a status set of the turn with success (status turns only). */
  statusSetAt: number;
}

export function createTurnProgress(
  deps: Parameters<typeof createNativeStatus>[0] & {
    /** How often a turn's progress is shown again when no new step came. */
    refreshMs: number;
    /** Progress updates allowed per minute across all turns (the progress throttle's budget). */
    perMinute: number;
    output: Pick<ThreadOutput, 'postProgress' | 'updateProgress' | 'removeProgress'>;
  },
) {
  const { output, clock, logger } = deps;
  const native = createNativeStatus(deps);
  const throttle = createProgressThrottle<ProgressUpdate>({ perMinute: deps.perMinute, clock, logger, send });
  const turns = createFollowedTurns({
    ...deps,
    throttle,
    showsStatus: (turn) => !turn.progressTs && native.usable(turn.teamId),
  });

  async function send(turnId: string, update: ProgressUpdate): Promise<void> {
    const entry = turns.shown(turnId);
    if (update.ts) return output.updateProgress(update.where, update.ts, update);
    if (!native.usable(update.where.teamId)) return;
    if (!(await native.set(update.where, update)) || !entry) return;
    entry.statusSetAt = native.took(entry.turn, entry.statusSetAt);
  }

  /**
   * Shows that turn `turnId` started: the native status, or a progress message whose ts is returned
   * (the record keeps it for whoever ends the turn; the message carries the turn id for a successor).
   */
  async function begin(where: ThreadLocation, turnId: string): Promise<string | undefined> {
    if (native.usable(where.teamId)) {
      if ((await native.set(where, STARTED)) || native.usable(where.teamId)) return undefined;
    }
    return output.postProgress(where, STARTED, turnId);
  }

  /** Stops every update of the turn and waits for one under way, so nothing lands after the answer. */
  async function settle(turnId: string): Promise<void> {
    turns.unfollow(turnId);
    await throttle.cancel(turnId);
  }

  /**
   * The turn is over: its progress message goes; its status is cleared unless an answer message
   * was posted (which clears it by itself) or another instance ended the turn.
   */
  async function end(turn: TurnRecord, options: { clearStatus: boolean }): Promise<void> {
    await settle(turn.turnId);
    if (turn.progressTs) {
      await output.removeProgress(where(turn), turn.progressTs).catch(() => undefined);
    } else if (options.clearStatus) {
      await native.clear(where(turn));
    }
  }

  async function close(): Promise<void> {
    turns.close();
    await throttle.close();
  }

  return { begin, follow: turns.follow, step: turns.step, settle, end, close };
}

export type TurnProgress = ReturnType<typeof createTurnProgress>;

/** The turns being followed: their latest step, and a refresh offered whenever nothing was shown for a while. */
function createFollowedTurns(deps: {
  refreshMs: number;
  clock: Clock;
  throttle: ProgressThrottle<ProgressUpdate>;
  showsStatus(turn: TurnRecord): boolean;
}) {
  const { clock, throttle } = deps;
  const followed = new Map<string, Followed>();
  const refreshes = createDueSchedule<Followed>({
    clock,
    onDue: refreshIfDue,
    isStale: (entry) => followed.get(entry.turn.turnId) !== entry,
  });

  const refreshEveryMs = (turn: TurnRecord) =>
    turn.progressTs ? Math.min(deps.refreshMs, MESSAGE_REFRESH_MAX_MS) : deps.refreshMs;

  function snapshot(entry: Followed): ProgressUpdate {
    return {
      where: where(entry.turn),
      ts: entry.turn.progressTs,
      steps: entry.steps,
      elapsedMs: clock.now() - entry.turn.startedAt,
    };
  }

  /** A status refresh goes ahead of steps (a status expires); a progress message's is an ordinary update. */
  function refreshIfDue(entry: Followed, now: number): void {
    if (entry.dueAt <= now) {
      if (deps.showsStatus(entry.turn)) throttle.offerRefresh(entry.turn.turnId, snapshot(entry));
      else throttle.offer(entry.turn.turnId, snapshot(entry));
      entry.dueAt = now + refreshEveryMs(entry.turn);
    }
    refreshes.add(entry.dueAt, entry);
  }

  return {
    /** From now until `unfollow`: step updates, and a refresh whenever nothing was shown for a while. */
    follow(turn: TurnRecord): void {
      const now = clock.now();
      const entry: Followed = { turn, steps: 0, dueAt: now + refreshEveryMs(turn), statusSetAt: now };
      followed.set(turn.turnId, entry);
      refreshes.add(entry.dueAt, entry);
    },
    /** The run reported `steps` (more than shown before). */
    step(turn: TurnRecord, steps: number): void {
      const entry = followed.get(turn.turnId);
      if (!entry) return;
      entry.steps = steps;
      throttle.offer(turn.turnId, snapshot(entry));
    },
    /** An update of the turn is being shown: it restarts the refresh period (the schedule notices the later time). */
    shown(turnId: string): Followed | undefined {
      const entry = followed.get(turnId);
      if (entry) entry.dueAt = clock.now() + refreshEveryMs(entry.turn);
      return entry;
    },
    // The schedule drops the entry lazily (isStale): nothing to cancel, no timer to clear.
    unfollow: (turnId: string) => followed.delete(turnId),
    close(): void {
      followed.clear();
      refreshes.close();
    },
  };
}
