/**
 * How a turn shows that the agent works (DESIGN "Native progress"): Slack's native thread status
 * by default, or a progress message (`PROGRESS_STYLE=message`, and per workspace when the status
 * is not available there). Step updates and refreshes share the progress throttle, so progress
 * never delays an answer; a refresh on a run that reports nothing new keeps the elapsed time
 * moving (and a status alive: Slack clears one after two minutes).
 */
import { DONE_WAITING } from './clock.js';
import type { Clock, Logger, Progress, ThreadLocation, ThreadOutput, TurnRecord } from './ports.js';
import { createProgressThrottle } from './progress-throttle.js';

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

export interface TurnProgressDeps {
  style: 'status' | 'message';
  /** How often a turn's progress is shown again when no new step came. */
  refreshMs: number;
  /** Progress updates allowed per minute across all turns (the progress throttle's budget). */
  perMinute: number;
  output: Pick<ThreadOutput, 'postProgress' | 'updateProgress' | 'removeProgress'>;
  status: ThreadStatusPort;
  clock: Clock;
  logger: Logger;
}

/**
 * A progress message is edited (`chat.update`, one notification-free edit) at most this often by
 * refreshes: often enough that its elapsed time visibly moves, rarely enough for Tier 3.
 */
const MESSAGE_REFRESH_MAX_MS = 30_000;

const STARTED: Progress = { steps: 0, elapsedMs: 0 };

const whereOf = (turn: TurnRecord): ThreadLocation => ({
  teamId: turn.teamId,
  channel: turn.channel,
  threadTs: turn.threadTs,
});

interface Followed {
  turn: TurnRecord;
  steps: number;
  lastShownAt: number;
  stop: AbortController;
}

export function createTurnProgress(deps: TurnProgressDeps) {
  const { output, status, clock, logger } = deps;
  /** Workspaces where the native status is not available: decided once per process. */
  const fellBack = new Set<string>();
  const followed = new Map<string, Followed>();
  const throttle = createProgressThrottle<ProgressUpdate>({
    perMinute: deps.perMinute,
    clock,
    logger,
    send: (_key, update) => send(update),
  });

  const usesStatus = (teamId: string) => deps.style === 'status' && !fellBack.has(teamId);

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

  async function send(update: ProgressUpdate): Promise<void> {
    if (update.ts) return output.updateProgress(update.where, update.ts, update);
    if (usesStatus(update.where.teamId)) await setStatus(update.where, update);
  }

  /**
   * Shows that a turn started: the native status, or a progress message whose ts is returned
   * (the turn record keeps it, so whoever ends the turn removes the message).
   */
  async function begin(where: ThreadLocation): Promise<string | undefined> {
    if (usesStatus(where.teamId)) {
      if ((await setStatus(where, STARTED)) || usesStatus(where.teamId)) return undefined;
    }
    return output.postProgress(where, STARTED);
  }

  function offer(entry: Followed): void {
    entry.lastShownAt = clock.now();
    throttle.offer(entry.turn.turnId, {
      where: whereOf(entry.turn),
      ts: entry.turn.progressTs,
      steps: entry.steps,
      elapsedMs: clock.now() - entry.turn.startedAt,
    });
  }

  async function refreshLoop(entry: Followed): Promise<void> {
    const everyMs = entry.turn.progressTs ? Math.min(deps.refreshMs, MESSAGE_REFRESH_MAX_MS) : deps.refreshMs;
    while (!entry.stop.signal.aborted) {
      const dueIn = entry.lastShownAt + everyMs - clock.now();
      if (dueIn > 0) {
        const slept = await clock.sleep(dueIn, entry.stop.signal).then(
          () => true,
          () => false,
        );
        if (!slept) return;
        continue; // a step may have been shown meanwhile
      }
      offer(entry);
    }
  }

  /** From now until {@link settle}: step updates, and a refresh whenever nothing was shown for a while. */
  function follow(turn: TurnRecord): void {
    stopFollowing(turn.turnId);
    const entry: Followed = { turn, steps: 0, lastShownAt: clock.now(), stop: new AbortController() };
    followed.set(turn.turnId, entry);
    void refreshLoop(entry);
  }

  /** The run reported `steps` (more than shown before). */
  function step(turn: TurnRecord, steps: number): void {
    const entry = followed.get(turn.turnId);
    if (!entry) return;
    entry.steps = steps;
    offer(entry);
  }

  function stopFollowing(turnId: string): void {
    followed.get(turnId)?.stop.abort(DONE_WAITING);
    followed.delete(turnId);
  }

  /** Stops every update of the turn and waits for one under way, so nothing lands after the answer. */
  async function settle(turnId: string): Promise<void> {
    stopFollowing(turnId);
    await throttle.cancel(turnId);
  }

  /**
   * The turn is over: its progress message goes; its status is cleared unless an answer message
   * was posted (which clears it by itself) or another instance ended the turn.
   */
  async function end(turn: TurnRecord, options: { clearStatus: boolean }): Promise<void> {
    await settle(turn.turnId);
    if (turn.progressTs) {
      await output.removeProgress(whereOf(turn), turn.progressTs).catch(() => undefined);
    } else if (options.clearStatus && deps.style === 'status') {
      await status.set(whereOf(turn), undefined);
    }
  }

  async function close(): Promise<void> {
    for (const turnId of [...followed.keys()]) stopFollowing(turnId);
    await throttle.close();
  }

  return { begin, follow, step, settle, end, close };
}

export type TurnProgress = ReturnType<typeof createTurnProgress>;
