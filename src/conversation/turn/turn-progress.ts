/**
 * How a turn shows that the agent works (DESIGN "Native progress"): Slack's native thread status,
 * or a progress message (`PROGRESS_STYLE=message`, and where the status is not available). Updates
 * go through the progress throttle, so progress never delays an answer; a refresh keeps the elapsed
 * time moving and a status alive (Slack clears one after two minutes). One schedule wakes them all.
 */

import type { Clock } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import { createDueSchedule } from '../polling/due-schedule.js';
import type { ConversationMetrics } from '../ports.js';
import type { Progress, ThreadLocation, ThreadOutput } from '../thread-output-port.js';
import { createProgressThrottle } from './progress-throttle.js';
import { where } from './turn-in-flight.js';
import type { TurnRecord } from './turn-records.js';

/** One coalesced progress update of a turn: its progress message when it has one, else its status. */
export interface ProgressUpdate extends Progress {
  where: ThreadLocation;
  /** The turn's progress message; undefined when the turn shows the native status. */
  ts?: string | undefined;
}

/** What Slack answered a status call. `unavailable`: the method cannot work for this workspace. */
export type StatusResult = { ok: true } | { ok: false; unavailable: boolean; error: string };

/** The thread's native status (`assistant.threads.setStatus`); src/slack/thread-status.ts implements it. */
export interface ThreadStatusPort {
  /** Shows `progress` as the thread's status, or clears the status when it is undefined. Never rejects. */
  set(where: ThreadLocation, progress: Progress | undefined): Promise<StatusResult>;
}

/** Refreshes edit a progress message at most this often: its elapsed time moves, within Tier 3. */
const MESSAGE_REFRESH_MAX_MS = 30_000;

const STARTED: Progress = { steps: 0, elapsedMs: 0 };

/** Slack clears a thread status two minutes after it was set without a message (DESIGN). */
const STATUS_EXPIRY_MS = 120_000;

/** A followed turn: a small record, no timer — one shared schedule wakes refreshes when due. */
interface Followed {
  turn: TurnRecord;
  steps: number;
  /** When the next refresh falls due: a refresh period after the latest send began. */
  dueAt: number;
  /** When Slack last answered a status set of the turn with success (status turns only). */
  statusSetAt: number;
}

export function createTurnProgress(deps: {
  style: 'status' | 'message';
  /** How often a turn's progress is shown again when no new step came. */
  refreshMs: number;
  /** Progress updates allowed per minute across all turns (the progress throttle's budget). */
  perMinute: number;
  output: Pick<ThreadOutput, 'postProgress' | 'updateProgress' | 'removeProgress'>;
  status: ThreadStatusPort;
  clock: Clock;
  logger: Logger;
  /** Counts statuses that expired before their refresh (absent in tests that do not look). */
  metrics?: Pick<ConversationMetrics, 'progressStatusLapsed'> | undefined;
}) {
  const { output, status, clock, logger, metrics } = deps;
  /** Workspaces where the native status is not available: decided once per process. */
  const fellBack = new Set<string>();
  const followed = new Map<string, Followed>();
  let lapseLogged = false;
  const throttle = createProgressThrottle<ProgressUpdate>({ perMinute: deps.perMinute, clock, logger, send });
  const refreshes = createDueSchedule<Followed>({
    clock,
    onDue: refreshIfDue,
    isStale: (entry) => followed.get(entry.turn.turnId) !== entry,
  });

  const usesStatus = (teamId: string) => deps.style === 'status' && !fellBack.has(teamId);
  const showsStatus = (turn: TurnRecord) => !turn.progressTs && usesStatus(turn.teamId);
  const refreshEveryMs = (turn: TurnRecord) =>
    turn.progressTs ? Math.min(deps.refreshMs, MESSAGE_REFRESH_MAX_MS) : deps.refreshMs;

  async function setStatus(where: ThreadLocation, progress: Progress | undefined): Promise<boolean> {
    const result = await status.set(where, progress);
    if (result.ok) return true;
    if (result.unavailable && !fellBack.has(where.teamId)) {
      fellBack.add(where.teamId);
      logger.warn(
        { teamId: where.teamId, error: result.error },
        'native thread status is not available in this workspace; showing progress messages instead',
      );
    }
    // A passing error (rate limit, 5xx) is not a reason to fall back: the next update tries again.
    return false;
  }

  async function send(turnId: string, update: ProgressUpdate): Promise<void> {
    const entry = followed.get(turnId);
    const startedAt = clock.now();
    // Whatever is shown now restarts the refresh period; the schedule notices the later time.
    if (entry) entry.dueAt = startedAt + refreshEveryMs(entry.turn);
    if (update.ts) return output.updateProgress(update.where, update.ts, update);
    if (!usesStatus(update.where.teamId)) return;
    if (!(await setStatus(update.where, update)) || !entry) return;
    // Slack took the status by the time it answered: the Web client waits out 429s before that.
    const setAt = clock.now();
    if (setAt - entry.statusSetAt > STATUS_EXPIRY_MS) statusLapsed(entry, setAt);
    entry.statusSetAt = setAt;
  }

  /** Slack cleared the status before this refresh came (refreshes made late by its 429s, or a slow Slack). */
  function statusLapsed(entry: Followed, at: number): void {
    metrics?.progressStatusLapsed();
    if (lapseLogged) return;
    lapseLogged = true;
    const { turnId, threadKey } = entry.turn;
    logger.warn(
      { turnId, threadKey, lateMs: at - entry.statusSetAt - STATUS_EXPIRY_MS },
      'a thread status expired before its refresh reached Slack (more refreshes than Slack takes, or a slow Slack); logged once, counted in sab_progress_status_lapsed_total',
    );
  }

  /**
   * Shows that turn `turnId` started: the native status, or a progress message whose ts is returned
   * (the record keeps it for whoever ends the turn; the message carries the turn id for a successor).
   */
  async function begin(where: ThreadLocation, turnId: string): Promise<string | undefined> {
    if (usesStatus(where.teamId)) {
      if ((await setStatus(where, STARTED)) || usesStatus(where.teamId)) return undefined;
    }
    return output.postProgress(where, STARTED, turnId);
  }

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
      if (showsStatus(entry.turn)) throttle.offerRefresh(entry.turn.turnId, snapshot(entry));
      else throttle.offer(entry.turn.turnId, snapshot(entry));
      entry.dueAt = now + refreshEveryMs(entry.turn);
    }
    refreshes.add(entry.dueAt, entry);
  }

  /** From now until {@link settle}: step updates, and a refresh whenever nothing was shown for a while. */
  function follow(turn: TurnRecord): void {
    const now = clock.now();
    const entry: Followed = { turn, steps: 0, dueAt: now + refreshEveryMs(turn), statusSetAt: now };
    followed.set(turn.turnId, entry);
    refreshes.add(entry.dueAt, entry);
  }

  /** The run reported `steps` (more than shown before). */
  function step(turn: TurnRecord, steps: number): void {
    const entry = followed.get(turn.turnId);
    if (!entry) return;
    entry.steps = steps;
    throttle.offer(turn.turnId, snapshot(entry));
  }

  /** Stops every update of the turn and waits for one under way, so nothing lands after the answer. */
  async function settle(turnId: string): Promise<void> {
    // The schedule drops the entry lazily (isStale): nothing to cancel, no timer to clear.
    followed.delete(turnId);
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
    } else if (options.clearStatus && deps.style === 'status') {
      await status.set(where(turn), undefined);
    }
  }

  async function close(): Promise<void> {
    followed.clear();
    refreshes.close();
    await throttle.close();
  }

  return { begin, follow, step, settle, end, close };
}

export type TurnProgress = ReturnType<typeof createTurnProgress>;
