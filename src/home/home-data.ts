/** What a person's App Home shows (DESIGN "App Home"), for slack/views/home-view.ts. */
import type { AdminCheck } from '../commands/access.js';
import type { InsideCheck } from '../conversation/access/who-is-inside.js';
import type { ChannelBindingStore } from '../conversation/context/context-ports.js';
import type { ListedSchedule } from '../conversation/schedules/schedules.js';
import { channelOfName, type Tenant } from '../conversation/tenancy.js';
import type { Logger } from '../runtime/logger.js';
import type { AgentSeen, HomeStore, RecentThread, WeeklyTallies } from './home-ports.js';
import { isoWeekOf, weekTally } from './iso-week.js';
import type { ConnectionStatus, ServiceConnections } from './service-connections.js';
import type { WatchedChannels } from './watched-channels.js';

/** An agent as the admins' home lists it. */
export interface AgentRow {
  agentId: string;
  /** AGENT_ID, the agent of every channel without a binding. */
  isDefault: boolean;
  channels: string[];
  /** Its state as last seen; undefined: never seen since the store was new. */
  seen?: AgentSeen | undefined;
}

/** A channel and the agent its admins bound to it (`/agent channel use`). */
type ChannelAgent = { channel: string; agentId: string };

export interface AdminHome {
  /** undefined: the connections could not be listed. */
  connections: ConnectionStatus[] | undefined;
  agents: AgentRow[];
  channelAgents: ChannelAgent[];
  /** undefined: no source of watched channels is wired. */
  watched: string[] | undefined;
  /** Channels where every top-level message is answered; undefined: none wired, or unlistable. */
  answerChannels?: string[] | undefined;
  /** The installation's scheduled questions, soonest first; undefined: none wired, or unlistable. */
  schedules?: ListedSchedule[] | undefined;
  week: { label: string } & WeeklyTallies;
}

export type PersonHome =
  | { kind: 'outsider' }
  | {
      kind: 'member';
      prompts: ReadonlyArray<{ title: string; message: string }>;
      threads: RecentThread[];
      admin?: AdminHome | undefined;
    };

export interface HomeDataDeps {
  store: HomeStore & Pick<ChannelBindingStore, 'getChannelBinding'>;
  inside: Pick<InsideCheck, 'check'>;
  admins: AdminCheck;
  connections: ServiceConnections;
  /** Unset: the home says no source of watched channels is wired (see watched-channels.ts). */
  watched?: WatchedChannels | undefined;
  /** Answer channels (`/agent channel answer-all`) the installation under way turned on. */
  answerChannels?: { list(tenant: Tenant): Promise<string[]> } | undefined;
  /** Scheduled questions of the installation under way (`/agent schedule add`). */
  schedules?: { ofInstallation(tenant: Tenant): Promise<ListedSchedule[]> } | undefined;
  defaultAgentId: string;
  prompts: ReadonlyArray<{ title: string; message: string }>;
  now: () => number;
  logger: Logger;
}

/** Gathers a person's home; an admin part that fails shows as unknown. */
export function createHomeData(deps: HomeDataDeps) {
  const { store, logger } = deps;

  async function orUndefined<T>(what: string, work: () => Promise<T>): Promise<T | undefined> {
    try {
      return await work();
    } catch (error) {
      logger.warn({ err: error }, `App Home: ${what} unavailable`);
      return undefined;
    }
  }

  async function adminHome(tenant: Tenant): Promise<AdminHome> {
    const label = isoWeekOf(deps.now());
    const { watched: watching, answerChannels: answering, schedules: scheduling } = deps;
    const [connections, bound, seen, watched, tallies, answerChannels, schedules] = await Promise.all([
      orUndefined('connections', () => deps.connections.list(tenant)),
      orUndefined('channel agents', () => boundChannelAgents(store, tenant)),
      orUndefined('agents', () => store.agentsSeen()),
      watching ? orUndefined('watched channels', () => watching.list(tenant)) : undefined,
      orUndefined('weekly tallies', () => store.weeklyTallies(weekTally(label, tenant.key))),
      answering ? orUndefined('answer channels', () => answering.list(tenant)) : undefined,
      scheduling ? orUndefined('schedules', () => scheduling.ofInstallation(tenant)) : undefined,
    ]);
    const channelRows = bound ?? [];
    return {
      connections,
      agents: agentRows(tenant, deps.defaultAgentId, channelRows, seen ?? []),
      channelAgents: channelRows,
      watched,
      ...(answerChannels ? { answerChannels } : {}),
      ...(schedules ? { schedules } : {}),
      week: { label, runs: 0, answers: 0, 'answered-sessions': 0, 'rated-sessions': 0, ...tallies },
    };
  }

  /** The home of `userId` in `tenant`'s installation; the inside check asks Slack about the person when it must. */
  async function forPerson(userId: string, tenant: Tenant): Promise<PersonHome> {
    const verdict = await deps.inside.check({ userId });
    if (!verdict.inside) return { kind: 'outsider' };
    const [threads, isAdmin] = await Promise.all([
      orUndefined('recent threads', () => store.recentThreads(userId)),
      deps.admins.isAdmin(userId, tenant),
    ]);
    return {
      kind: 'member',
      prompts: deps.prompts,
      threads: threads ?? [],
      ...(isAdmin ? { admin: await adminHome(tenant) } : {}),
    };
  }

  return { forPerson };
}

/** The channel agents `tenant`'s admins bound (one organisation's are not listed to another's). */
async function boundChannelAgents(store: HomeDataDeps['store'], tenant: Tenant): Promise<ChannelAgent[]> {
  const names = await store.listBoundChannels();
  const bindings = await Promise.all(names.map((name) => store.getChannelBinding(name)));
  const view = tenant.key === undefined ? undefined : tenant.teamId;
  return names.flatMap((name, index) => {
    const binding = bindings[index];
    return binding && binding.installation === view
      ? [{ channel: channelOfName(name), agentId: binding.agentId }]
      : [];
  });
}

/** The agents an admin's home lists, each once: the default, the bound ones, those seen here. */
export function agentRows(tenant: Tenant, defaultAgentId: string, bound: ChannelAgent[], seen: AgentSeen[]) {
  // An agent seen only in another installation is not listed (the default and bound ones are).
  const seenHere = seen.filter((row) => row.installation === tenant.key).map((row) => row.agentId);
  // AGENT_ID is the operator's default: listed to the home installations only.
  const ids = [...(tenant.home ? [defaultAgentId] : []), ...bound.map((row) => row.agentId), ...seenHere];
  return [...new Set(ids)].map((agentId) => ({
    agentId,
    isDefault: agentId === defaultAgentId,
    channels: bound.filter((row) => row.agentId === agentId).map((row) => row.channel),
    seen: seen.find((row) => row.agentId === agentId),
  }));
}
