import type { ChannelAgents } from '../conversation/context/channel-agents.js';
import { isKnownZone } from '../conversation/schedules/schedule-times.js';
import type { Schedules } from '../conversation/schedules/schedules.js';
import type { Tenant } from '../conversation/tenancy.js';
import type { CommandOutcome } from './command-outcome.js';
import type { ScheduleCommand } from './schedule-parse.js';

/** What `/agent schedule …` reaches, made once in the composition root (schedules-room.ts). */
export interface ScheduleCommandPort {
  schedules: Pick<Schedules, 'add' | 'remove' | 'inChannel'>;
  /** The person's Slack time zone (`users.info` → `tz`), in the command's installation. */
  zoneOf(userId: string): Promise<string | undefined>;
  /**
   * Whether people outside the organisation can read `channel` (audience.ts), as the alert intake
   * asks it: false when OUTSIDER_AUDIENCE=thread lets answers go there anyway.
   */
  refusesOutsiders(channel: string): Promise<boolean>;
}

/** Without a zone from Slack, times are UTC (and every reply says so). */
export const FALLBACK_ZONE = 'UTC';

/**
 * `/agent schedule …` (DESIGN "Scheduled questions"): access is checked and audited by the
 * caller. Adding is refused outside a channel, where the channel has no agent of this
 * installation, where outsiders can read it, and past SCHEDULES_PER_CHANNEL.
 */
export async function runScheduleCommand(
  command: ScheduleCommand,
  invoker: { tenant: Tenant; userId: string; channelId?: string | undefined },
  port: ScheduleCommandPort | undefined,
  channelAgents: Pick<ChannelAgents, 'agentFor'>,
): Promise<CommandOutcome> {
  if (!port) return { kind: 'help' };
  const { tenant, userId, channelId } = invoker;
  switch (command.kind) {
    case 'schedule-remove': {
      const removed = await port.schedules.remove(tenant, command.id);
      return removed
        ? { kind: 'schedule-removed', schedule: removed }
        : { kind: 'schedule-unknown', id: command.id };
    }
    case 'schedule': {
      if (!channelId) return { kind: 'schedule-refused', reason: 'not-a-channel' };
      return { kind: 'schedules', channelId, rows: await port.schedules.inChannel(tenant, channelId) };
    }
    case 'schedule-add': {
      // A DM or a group DM has no "channel" to post a morning question in.
      if (!channelId || !/^[CG]/.test(channelId))
        return { kind: 'schedule-refused', reason: 'not-a-channel' };
      if ((await channelAgents.agentFor(tenant, channelId)).source === 'unbound')
        return { kind: 'channel-unbound' };
      if (await port.refusesOutsiders(channelId)) return { kind: 'schedule-refused', reason: 'outsiders' };
      const zone = await port.zoneOf(userId).catch(() => undefined);
      const timeZone = zone && isKnownZone(zone) ? zone : FALLBACK_ZONE;
      const { kind: _kind, ...timing } = command;
      const result = await port.schedules.add(tenant, {
        ...timing,
        timeZone,
        channel: channelId,
        addedBy: userId,
      });
      if (!result.added) return { kind: 'schedule-refused', reason: 'channel-full', limit: result.limit };
      return { kind: 'schedule-added', schedule: result.schedule, nextRun: result.nextRun };
    }
  }
}
