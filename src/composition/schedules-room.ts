/**
 * Scheduled questions, assembled once (DESIGN "Scheduled questions"): the command's port, the
 * firing of due occurrences through a run start of their own, and one ticker per process on the
 * clock it is given (tests move schedule time alone).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { ScheduleCommandPort } from '../commands/command-context.js';
import type { OccurrenceClaims, ScheduleOutput } from '../conversation/schedules/schedule-firing.js';
import { createScheduleFiring, type ScheduleMetrics } from '../conversation/schedules/schedule-firing.js';
import { createSchedules, type ScheduleStore, type Schedules } from '../conversation/schedules/schedules.js';
import { createRunStart, type RunStartDeps } from '../conversation/turn/run-start.js';
import type { Clock } from '../runtime/clock.js';

/** How often every replica looks for due occurrences: well inside the minute a schedule names. */
export const SCHEDULE_TICK_MS = 20_000;

/** The schedules kept in the store (App Home lists them too); six-hex-digit ids, easy to type. */
export function createScheduleBook(store: ScheduleStore, clock: Clock, perChannel: number): Schedules {
  return createSchedules({
    store,
    now: () => clock.now(),
    newId: () => randomBytes(3).toString('hex'),
    perChannel,
  });
}

type FiringDeps = Parameters<typeof createScheduleFiring>[0];

/** What the room is handed: a run start's parts, the firing's, and the command's. */
type ScheduleRoomDeps = Omit<RunStartDeps, 'refuseBusy' | 'newId' | 'clock' | 'metrics'> &
  Pick<FiringDeps, 'installations' | 'channelAgents' | 'connectionExists' | 'audience' | 'outsiderPolicy'> & {
    store: OccurrenceClaims;
    schedules: Schedules;
    /** The ticker's time, and the schedules' (added at, next run). */
    scheduleClock: Clock;
    /** The runs' time (deadlines, progress): the bot's clock. */
    clock: Clock;
    metrics: ScheduleMetrics & RunStartDeps['metrics'];
    settings: RunStartDeps['settings'] & { graceMs: number };
    /** The person's Slack zone (users.info `tz`), in the installation in scope. */
    zoneOf(userId: string): Promise<string | undefined>;
    scheduleOutput: ScheduleOutput;
  };

/** Assembles the schedules room: the command's port, the firing, and the ticker's start and stop. */
export function wireSchedules(deps: ScheduleRoomDeps) {
  const log = deps.logger.child({ component: 'schedules' });
  const { schedules } = deps;
  const runStart = createRunStart({
    ...deps,
    logger: log,
    // A question's new message has no thread yet: never busy, unless someone asked in it first.
    refuseBusy: (request) =>
      log.info({ channel: request.channel, ts: request.threadTs }, 'schedule thread busy'),
  });
  const firing = createScheduleFiring({
    ...deps,
    claims: deps.store,
    runStart,
    output: deps.scheduleOutput,
    clock: deps.scheduleClock,
    logger: log,
    graceMs: deps.settings.graceMs,
    newId: () => randomUUID(),
  });
  const command: ScheduleCommandPort = {
    schedules,
    zoneOf: deps.zoneOf,
    refusesOutsiders: async (channel) =>
      deps.outsiderPolicy !== 'thread' && (await deps.audience.of(channel)).outsiders,
  };

  const stopping = new AbortController();
  let loop: Promise<void> | undefined;
  async function tickUntilStopped(): Promise<void> {
    while (!stopping.signal.aborted) {
      await firing.round().catch((error: unknown) => log.error({ err: error }, 'schedule round failed'));
      await deps.scheduleClock.sleep(SCHEDULE_TICK_MS, stopping.signal).catch(() => undefined);
    }
  }
  return {
    command,
    /** Starts the ticker (a first round at once: an occurrence missed while no replica ran). */
    start() {
      loop ??= tickUntilStopped();
    },
    /** Stops the ticker and waits for a round under way. */
    async stop() {
      stopping.abort();
      await loop;
    },
  };
}
