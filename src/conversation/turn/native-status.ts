/**
 * Slack's native thread status (DESIGN "Native progress"), with the fallback to progress messages in a
 * workspace where it is not available, and the accounting of statuses that expired before their refresh.
 */

import type { Clock } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import type { ConversationMetrics } from '../ports.js';
import type { Progress, ThreadLocation } from '../thread-output-port.js';
import type { TurnRecord } from './turn-records.js';

/** What Slack answered a status call. `unavailable`: the method cannot work for this workspace. */
export type StatusResult = { ok: true } | { ok: false; unavailable: boolean; error: string };

/** The thread's native status (`assistant.threads.setStatus`); src/slack/thread-status.ts implements it. */
export interface ThreadStatusPort {
  /** Shows `progress` as the thread's status, or clears the status when it is undefined. Never rejects. */
  set(where: ThreadLocation, progress: Progress | undefined): Promise<StatusResult>;
}

/** Slack clears a thread status two minutes after it was set without a message (DESIGN). */
const STATUS_EXPIRY_MS = 120_000;

export function createNativeStatus(deps: {
  style: 'status' | 'message';
  status: ThreadStatusPort;
  clock: Clock;
  logger: Logger;
  /** Counts statuses that expired before their refresh (absent in tests that do not look). */
  metrics?: Pick<ConversationMetrics, 'progressStatusLapsed'> | undefined;
}) {
  const { status, clock, logger, metrics } = deps;
  /** Workspaces where the native status is not available: decided once per process. */
  const fellBack = new Set<string>();
  let lapseLogged = false;

  const usable = (teamId: string) => deps.style === 'status' && !fellBack.has(teamId);

  /** Shows `progress` as the status; false when Slack did not take it. */
  async function set(where: ThreadLocation, progress: Progress): Promise<boolean> {
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

  /** Slack took a status of `turn` set before at `setBefore`; returns when. Counts a status that lapsed meanwhile. */
  function took(turn: TurnRecord, setBefore: number): number {
    // Slack took the status by the time it answered: the Web client waits out 429s before that.
    const setAt = clock.now();
    const lateMs = setAt - setBefore - STATUS_EXPIRY_MS;
    if (lateMs > 0) lapsed(turn, lateMs);
    return setAt;
  }

  /** Slack cleared the status before this refresh came (refreshes made late by its 429s, or a slow Slack). */
  function lapsed({ turnId, threadKey }: TurnRecord, lateMs: number): void {
    metrics?.progressStatusLapsed();
    if (lapseLogged) return;
    lapseLogged = true;
    logger.warn(
      { turnId, threadKey, lateMs },
      'a thread status expired before its refresh reached Slack (more refreshes than Slack takes, or a slow Slack); logged once, counted in sab_progress_status_lapsed_total',
    );
  }

  async function clear(where: ThreadLocation): Promise<void> {
    if (deps.style === 'status') await status.set(where, undefined);
  }

  return { usable, set, took, clear };
}
