/** Spending (DESIGN "Spending"): `RUNS_PER_PERSON_PER_HOUR` runs a person per rolling hour, in the store. */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import type { PeopleDirectory } from '../context/context-ports.js';
import type { ConversationMetrics, ConversationStore } from '../ports.js';
import type { RefusalDetail } from '../thread-output-port.js';

export const HOUR_MS = 60 * 60 * 1000;

/** One use taken: give it back when its turn does not start after all. Never throws. */
export interface SpentRun {
  giveBack(): Promise<void>;
}

export type SpendingVerdict =
  | ({ ok: true } & SpentRun)
  /** Nothing was counted; `detail` says when the person can ask again. */
  | { ok: false; refusal: 'over-limit'; detail: RefusalDetail };

export interface Spending {
  /** Counts one run for `userId`, or says when they can ask again. Store failures reject. */
  take(userId: string): Promise<SpendingVerdict>;
}

/** A use that costs nothing (the bot's own runs: alerts, schedules). */
export const NOTHING_TO_GIVE_BACK: SpentRun = { giveBack: async () => {} };

/** No limit: every turn may start, and nothing touches the store. */
export const unlimitedSpending: Spending = {
  take: async () => ({ ok: true, ...NOTHING_TO_GIVE_BACK }),
};

export function createSpending(deps: {
  store: Pick<ConversationStore, 'takeAllowance' | 'returnAllowance'>;
  /** `RUNS_PER_PERSON_PER_HOUR`; 0: no limit (nothing is counted). */
  runsPerHour: number;
  clock: Clock;
  logger: Logger;
  metrics: Pick<ConversationMetrics, 'turnOverLimit'>;
  /** For the refusal's time zone; without it (or when the look-up fails) the time is in UTC. */
  people?: PeopleDirectory | undefined;
  newId?: () => string;
}): Spending {
  const { store, runsPerHour, clock, logger, metrics } = deps;
  if (runsPerHour <= 0) return unlimitedSpending;
  const newId = deps.newId ?? randomUUID;

  async function take(userId: string): Promise<SpendingVerdict> {
    // Slack user ids are unique across workspaces.
    const name = `person:${userId}`;
    const use = { id: newId(), limit: runsPerHour, windowMs: HOUR_MS, now: clock.now() };
    const verdict = await store.takeAllowance(name, use);
    if (verdict.ok) return { ok: true, giveBack: () => giveBack(name, use.id) };
    metrics.turnOverLimit();
    logger.info({ userId, limit: runsPerHour, retryAt: verdict.retryAt }, 'person over the hourly run limit');
    const timeZone = (await deps.people?.profile(userId).catch(() => undefined))?.tz;
    return {
      ok: false,
      refusal: 'over-limit',
      detail: { retryAt: verdict.retryAt, limit: runsPerHour, timeZone },
    };
  }

  /** A use not given back only costs the person one run of their hour: log, never fail the turn. */
  async function giveBack(name: string, id: string): Promise<void> {
    await store.returnAllowance(name, id).catch((error: unknown) => {
      logger.warn({ err: error }, 'could not give back a run allowance');
    });
  }

  return { take };
}
