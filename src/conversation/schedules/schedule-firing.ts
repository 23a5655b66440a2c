/**
 * Firing scheduled questions (DESIGN "Scheduled questions"): each round (~20 s, every replica) claims each
 * schedule's latest due occurrence in the store, so it runs once; the holder asks as a mention would.
 */
import type { Clock } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import type { ConversationAudience } from '../access/audience.js';
import { type ChannelAgent, type ChannelAgents, readyOn } from '../context/channel-agents.js';
import { parseTimeRange } from '../context/time-range.js';
import { ownRunRequest } from '../own-run.js';
import type { Tenant } from '../tenancy.js';
import type { RunStart } from '../turn/run-start.js';
import { previousOccurrence } from './schedule-times.js';
import { type PauseReason, type Schedule, type Schedules, scheduleName } from './schedules.js';

/** Past a week: a weekly occurrence stays "the latest due" seven days, and no round may take it twice. */
const OCCURRENCE_CLAIM_TTL_MS = 8 * 24 * 60 * 60 * 1000;
/** Late by this much is still on time: a round's interval and a slow round (not a missed one). */
const ON_TIME_MS = 2 * 60 * 1000;

export type OccurrenceResult = 'run' | 'skipped' | 'failed';

export interface ScheduleMetrics {
  scheduleOccurrence(result: OccurrenceResult): void;
}

/** What a schedule's adder is told in a DM. */
export type ScheduleNotice = { kind: 'outsiders'; due: number } | { kind: 'paused'; reason: PauseReason };

/** The Slack side. Errors other than the bot being out of the channel reach the caller. */
export interface ScheduleOutput {
  /** The question as a new top-level message; `gone`: Slack said the bot is not in (or there is no) channel. */
  postQuestion(schedule: Schedule): Promise<{ ts: string } | { gone: true }>;
  tellAdder(schedule: Schedule, notice: ScheduleNotice): Promise<void>;
}

/** Once-only marks with an expiry, shared by every replica (the store's alert claims). */
export interface OccurrenceClaims {
  claim(name: string, value: string, ttlMs: number): Promise<{ claimed: boolean }>;
  releaseClaim(name: string, value: string): Promise<void>;
}

/** Runs work as a schedule's (or alert's) installation (alert-installations.ts `runAs`). */
export interface ScheduleInstallations {
  /** `work`'s result as that installation; `{ found: false }` when none is kept for it. */
  runAs<T>(
    team: string,
    work: (tenant: Tenant) => Promise<T>,
  ): Promise<{ found: true; value: T } | { found: false }>;
}

interface ScheduleFiringDeps {
  schedules: Pick<Schedules, 'list' | 'pause'>;
  claims: OccurrenceClaims;
  installations: ScheduleInstallations;
  channelAgents: Pick<ChannelAgents, 'agentFor'>;
  /** Whether the installation still has the connection `alias` (removed ones are gone). */
  connectionExists(alias: string, tenant: Tenant): Promise<boolean>;
  audience: Pick<ConversationAudience, 'of'>;
  outsiderPolicy: 'dm' | 'thread' | 'refuse';
  runStart: Pick<RunStart, 'begin'>;
  output: ScheduleOutput;
  metrics: ScheduleMetrics;
  clock: Clock;
  logger: Logger;
  /** SCHEDULE_GRACE_MINUTES as ms. */
  graceMs: number;
  newId: () => string;
}

export function createScheduleFiring(deps: ScheduleFiringDeps) {
  const { clock, logger, metrics } = deps;
  const endings = createOccurrenceEndings(deps);
  const ask = createScheduledAsk(deps, endings);

  /** One round: every schedule's latest due occurrence, handled by whoever claims it. */
  async function round(): Promise<void> {
    const now = clock.now();
    for (const schedule of await deps.schedules.list()) {
      if (schedule.paused) continue;
      const due = previousOccurrence(schedule, now);
      if (due === undefined || due < schedule.addedAt) continue;
      await occurrence(schedule, due, now).catch((error: unknown) => {
        metrics.scheduleOccurrence('failed');
        logger.error({ err: error, schedule: schedule.id, due }, 'scheduled question failed');
      });
    }
  }

  async function occurrence(schedule: Schedule, due: number, now: number): Promise<void> {
    // The installation's name for the schedule: ids are short, and unique only per installation.
    const name = `schedule:${scheduleName(schedule)}:${due}`;
    const token = deps.newId();
    if (!(await deps.claims.claim(name, token, OCCURRENCE_CLAIM_TTL_MS)).claimed) return;
    if (now - due > deps.graceMs + ON_TIME_MS) {
      return endings.done(schedule, due, 'skipped', 'missed: no replica ran at its time');
    }
    // Nothing in Slack yet (a failed post): the next round, still within the grace, may try again.
    const giveBack = () => deps.claims.releaseClaim(name, token).catch(() => undefined);
    const fired = await deps.installations.runAs(schedule.teamId, (tenant) =>
      ask(schedule, tenant, due, giveBack),
    );
    if (fired.found) return;
    // The installation is gone (uninstalled): nobody can be told in its workspace.
    await deps.schedules.pause(schedule, 'connection-gone');
    endings.done(schedule, due, 'failed', 'installation gone: paused');
  }

  return { round };
}

/** How an occurrence ends: counted and logged, and its adder told when it did not run. */
function createOccurrenceEndings({ output, schedules, metrics, logger }: ScheduleFiringDeps) {
  async function tell(schedule: Schedule, notice: ScheduleNotice): Promise<void> {
    await output
      .tellAdder(schedule, notice)
      .catch((error: unknown) =>
        logger.warn({ err: error, schedule: schedule.id, notice: notice.kind }, 'schedule notice not sent'),
      );
  }

  function done(schedule: Schedule, due: number, result: OccurrenceResult, why: string, ts?: string): void {
    metrics.scheduleOccurrence(result);
    logger.info(
      { schedule: schedule.id, channel: schedule.channel, due, result, why, ...(ts ? { ts } : {}) },
      'scheduled question',
    );
  }

  async function pauseAndTell(schedule: Schedule, due: number, reason: PauseReason): Promise<void> {
    await schedules.pause(schedule, reason);
    await tell(schedule, { kind: 'paused', reason });
    done(schedule, due, 'failed', `paused: ${reason}`);
  }

  return { tell, done, pauseAndTell };
}

type OccurrenceEndings = ReturnType<typeof createOccurrenceEndings>;

/** The claimed occurrence asked: the question posted in its channel, then run as a mention's would be. */
function createScheduledAsk(deps: ScheduleFiringDeps, { tell, done, pauseAndTell }: OccurrenceEndings) {
  /** Unbound here, or bound to a connection that was removed: nothing can answer. */
  async function connectionGone(channelAgent: ChannelAgent, tenant: Tenant): Promise<boolean> {
    if (channelAgent.source === 'unbound') return true;
    const alias = channelAgent.connection;
    return alias !== undefined && !(await deps.connectionExists(alias, tenant));
  }

  /** The time range the question's own words name (in its adder's zone), as a mention's. */
  function contextOf(schedule: Schedule) {
    const phrase = parseTimeRange(schedule.question, deps.clock.now(), schedule.timeZone);
    return phrase.kind === 'range' ? { timerange: phrase.range } : {};
  }

  return async function ask(
    schedule: Schedule,
    tenant: Tenant,
    due: number,
    giveBack: () => Promise<void>,
  ): Promise<void> {
    const channelAgent = await deps.channelAgents.agentFor(tenant, schedule.channel);
    if (await connectionGone(channelAgent, tenant)) return pauseAndTell(schedule, due, 'connection-gone');
    if (deps.outsiderPolicy !== 'thread' && (await deps.audience.of(schedule.channel)).outsiders) {
      await tell(schedule, { kind: 'outsiders', due });
      return done(schedule, due, 'skipped', 'outsiders can read the channel');
    }
    const posted = await deps.output.postQuestion(schedule).catch(async (error: unknown) => {
      await giveBack();
      throw error;
    });
    if ('gone' in posted) return pauseAndTell(schedule, due, 'left-channel');
    const asked = {
      tenant,
      channel: schedule.channel,
      ts: posted.ts,
      // The adder asks: a channel turned outsider-readable before the answer sends it to their DM.
      userId: schedule.addedBy,
      prompt: schedule.question,
    };
    const prepared = readyOn(channelAgent, channelAgent.agentId ?? '', contextOf(schedule));
    const result = await deps.runStart.begin(...ownRunRequest(asked, prepared));
    done(schedule, due, result === 'started' ? 'run' : 'failed', `run start: ${result}`, posted.ts);
  };
}
