/** Scheduled questions (DESIGN "Scheduled questions"): what `/agent schedule add|remove` keep. */
import { type Tenant, tenantName } from '../tenancy.js';
import { nextOccurrence, type ScheduleTiming } from './schedule-times.js';

/** Why a schedule stopped firing until an admin adds it again. */
export type PauseReason =
  /** Slack said `not_in_channel` / `channel_not_found` when the question was posted. */
  | 'left-channel'
  /** The channel's binding or its service connection is gone (nothing can answer there). */
  | 'connection-gone';

export interface Schedule extends ScheduleTiming {
  /** Short and unique: what `/agent schedule remove <id>` names. */
  id: string;
  /** The installation's store key (tenancy.ts); undefined with one workspace. */
  installation: string | undefined;
  /** The installation's team (`T…`, or `E…` for an org-wide install): its token posts and runs. */
  teamId: string;
  channel: string;
  question: string;
  addedBy: string;
  /** Epoch ms: occurrences before this never run. */
  addedAt: number;
  /** Set once, when its adder was told; a paused schedule does not fire. */
  paused?: { reason: PauseReason; at: number } | undefined;
}

/** The records (src/store/schedule-records.ts), each under {@link scheduleName}. */
export interface ScheduleStore {
  getSchedule(name: string): Promise<Schedule | undefined>;
  saveSchedule(name: string, schedule: Schedule): Promise<void>;
  deleteSchedule(name: string): Promise<void>;
  /** Every schedule of every installation (the ticker's round). */
  listSchedules(): Promise<Schedule[]>;
}

/** What adding asks for: the parsed command plus who added it, in which zone. */
export type NewSchedule = Omit<Schedule, 'id' | 'installation' | 'teamId' | 'addedAt' | 'paused'>;

export type AddResult =
  | { added: true; schedule: Schedule; nextRun: number | undefined }
  | { added: false; reason: 'channel-full'; limit: number };

/** A schedule's store name: its id under its installation's key (tenancy.ts `tenantName`). */
export const scheduleName = (schedule: Pick<Schedule, 'installation' | 'id'>) =>
  tenantName(schedule.installation, schedule.id);

/** Fresh ids tried before giving up: six hex digits rarely collide within one installation. */
const ID_ATTEMPTS = 5;

/** A schedule with its next run, as the list shows it. */
export interface ListedSchedule {
  schedule: Schedule;
  nextRun: number | undefined;
}

export function createSchedules(deps: {
  store: ScheduleStore;
  now: () => number;
  newId: () => string;
  /** SCHEDULES_PER_CHANNEL. */
  perChannel: number;
}) {
  const { store } = deps;
  const owned = (tenant: Tenant) => (schedule: Schedule) => schedule.installation === tenant.key;
  const withNext = (schedule: Schedule): ListedSchedule => ({
    schedule,
    nextRun: schedule.paused ? undefined : nextOccurrence(schedule, deps.now()),
  });
  const byNextRun = (a: ListedSchedule, b: ListedSchedule) =>
    (a.nextRun ?? Number.MAX_SAFE_INTEGER) - (b.nextRun ?? Number.MAX_SAFE_INTEGER) ||
    a.schedule.id.localeCompare(b.schedule.id);

  /** The installation's schedules in `channel`, soonest first. */
  async function inChannel(tenant: Tenant, channel: string): Promise<ListedSchedule[]> {
    return (await ofInstallation(tenant)).filter((listed) => listed.schedule.channel === channel);
  }

  /** Every schedule of the installation (App Home), soonest first. */
  async function ofInstallation(tenant: Tenant): Promise<ListedSchedule[]> {
    return (await store.listSchedules()).filter(owned(tenant)).map(withNext).sort(byNextRun);
  }

  async function add(tenant: Tenant, wanted: NewSchedule): Promise<AddResult> {
    const existing = await inChannel(tenant, wanted.channel);
    if (existing.length >= deps.perChannel)
      return { added: false, reason: 'channel-full', limit: deps.perChannel };
    const schedule: Schedule = {
      ...wanted,
      days: [...wanted.days],
      id: await freeId(tenant),
      installation: tenant.key,
      teamId: tenant.teamId,
      addedAt: deps.now(),
    };
    await store.saveSchedule(scheduleName(schedule), schedule);
    return { added: true, schedule, nextRun: nextOccurrence(schedule, deps.now()) };
  }

  async function freeId(tenant: Tenant): Promise<string> {
    for (let attempt = 1; ; attempt += 1) {
      const id = deps.newId();
      const taken = await store.getSchedule(scheduleName({ installation: tenant.key, id }));
      if (!taken || attempt >= ID_ATTEMPTS) return id;
    }
  }

  /** Removes the installation's schedule `id` (another installation's is "not found", as a missing one). */
  async function remove(tenant: Tenant, id: string): Promise<Schedule | undefined> {
    const name = scheduleName({ installation: tenant.key, id });
    const schedule = await store.getSchedule(name);
    if (!schedule) return undefined;
    await store.deleteSchedule(name);
    return schedule;
  }

  /** Marks `schedule` paused (its adder is told by the caller, once). */
  async function pause(schedule: Schedule, reason: PauseReason): Promise<void> {
    const name = scheduleName(schedule);
    const current = await store.getSchedule(name);
    if (!current || current.paused) return;
    await store.saveSchedule(name, { ...current, paused: { reason, at: deps.now() } });
  }

  return { inChannel, ofInstallation, add, remove, pause, list: () => store.listSchedules() };
}

export type Schedules = ReturnType<typeof createSchedules>;
