import { describe, expect, it } from 'vitest';
import type { ChannelAgent } from '../../../src/conversation/context/channel-agents.js';
import {
  createScheduleFiring,
  type OccurrenceResult,
  type ScheduleNotice,
} from '../../../src/conversation/schedules/schedule-firing.js';
import {
  createSchedules,
  type Schedule,
  type ScheduleStore,
} from '../../../src/conversation/schedules/schedules.js';
import type { Tenant } from '../../../src/conversation/tenancy.js';
import type { TurnRequest } from '../../../src/conversation/turn/turn-request.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import { createMemoryClaims } from '../../../src/store/claims.js';
import { createManualClock } from '../../support/manual-clock.js';

/**
 * The firing of one occurrence, with the store's real memory claims and fakes for Slack and the
 * run start: what is posted, who is told, what pauses, and what a later round does again.
 */
const DUE = Date.parse('2026-11-27T08:30:00Z');
const TENANT: Tenant = { teamId: 'T0TEST', home: true, key: undefined };

function memoryScheduleStore(): ScheduleStore {
  const records = new Map<string, Schedule>();
  return {
    getSchedule: async (name) => records.get(name),
    saveSchedule: async (name, schedule) => void records.set(name, structuredClone(schedule)),
    deleteSchedule: async (name) => void records.delete(name),
    listSchedules: async () => [...records.values()],
  };
}

function setup(options: { agent?: ChannelAgent; installed?: boolean; failPosts?: number } = {}) {
  const clock = createManualClock(DUE - 60_000);
  const schedules = createSchedules({
    store: memoryScheduleStore(),
    now: () => clock.now(),
    newId: () => 'abc123',
    perChannel: 10,
  });
  const results: OccurrenceResult[] = [];
  const notices: ScheduleNotice[] = [];
  const runs: TurnRequest[] = [];
  let failPosts = options.failPosts ?? 0;
  let posts = 0;
  const firing = createScheduleFiring({
    schedules,
    claims: createMemoryClaims(() => clock.now()),
    installations: {
      runAs: async (_team, work) =>
        options.installed === false ? { found: false } : { found: true, value: await work(TENANT) },
    },
    channelAgents: { agentFor: async () => options.agent ?? { agentId: 'sim-agent', source: 'default' } },
    connectionExists: async (alias) => alias === 'eu-prod',
    audience: { of: async () => ({ outsiders: false }) as never },
    outsiderPolicy: 'dm',
    runStart: {
      begin: async (request) => {
        runs.push(request);
        return 'started';
      },
    },
    output: {
      postQuestion: async () => {
        if (failPosts > 0) {
          failPosts -= 1;
          throw new Error('slack is down');
        }
        posts += 1;
        return { ts: `1700000000.00000${posts}` };
      },
      tellAdder: async (_schedule, notice) => void notices.push(notice),
    },
    metrics: { scheduleOccurrence: (result) => void results.push(result) },
    clock,
    logger: silentLogger,
    graceMs: 60 * 60_000,
    newId: () => Math.random().toString(36),
  });
  const add = () =>
    schedules.add(TENANT, {
      channel: 'C0TEAM',
      days: [0, 1, 2, 3, 4, 5, 6],
      time: '08:30',
      timeZone: 'Europe/London',
      question: 'what broke overnight?',
      addedBy: 'UADMIN',
    });
  return { clock, schedules, firing, results, notices, runs, add, posts: () => posts };
}

describe('schedule firing', () => {
  it('runs a due occurrence once, as its adder, and not before its time', async () => {
    const t = setup();
    await t.add();
    await t.firing.round();
    expect(t.runs).toHaveLength(0);
    t.clock.advance(60_000);
    await t.firing.round();
    await t.firing.round();
    expect(t.results).toEqual(['run']);
    expect(t.runs).toMatchObject([{ channel: 'C0TEAM', userId: 'UADMIN', threadTs: '1700000000.000001' }]);
  });

  it('pauses a schedule whose connection is gone and tells its adder once', async () => {
    const t = setup({ agent: { agentId: 'a', source: 'channel', connection: 'removed-one' } });
    await t.add();
    t.clock.advance(60_000);
    await t.firing.round();
    t.clock.advance(24 * 60 * 60_000);
    await t.firing.round();
    expect(t.notices).toEqual([{ kind: 'paused', reason: 'connection-gone' }]);
    expect(t.results).toEqual(['failed']);
    expect(t.posts()).toBe(0);
    expect((await t.schedules.inChannel(TENANT, 'C0TEAM'))[0]?.schedule.paused?.reason).toBe(
      'connection-gone',
    );
  });

  it('runs on a bound connection that still exists', async () => {
    const t = setup({ agent: { agentId: 'a', source: 'channel', connection: 'eu-prod' } });
    await t.add();
    t.clock.advance(60_000);
    await t.firing.round();
    expect(t.results).toEqual(['run']);
  });

  it('pauses when the installation is gone', async () => {
    const t = setup({ installed: false });
    await t.add();
    t.clock.advance(60_000);
    await t.firing.round();
    expect(t.results).toEqual(['failed']);
    expect((await t.schedules.inChannel(TENANT, 'C0TEAM'))[0]?.schedule.paused?.reason).toBe(
      'connection-gone',
    );
  });

  it('gives the occurrence back when the post failed, so the next round within the grace asks it', async () => {
    const t = setup({ failPosts: 1 });
    await t.add();
    t.clock.advance(60_000);
    await t.firing.round();
    t.clock.advance(20_000);
    await t.firing.round();
    expect(t.results).toEqual(['failed', 'run']);
    expect(t.posts()).toBe(1);
  });
});
