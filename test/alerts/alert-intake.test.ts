import { describe, expect, it } from 'vitest';
import { AlertCardError, type AlertTarget, createAlertIntake } from '../../src/alerts/alert-intake.js';
import type { Alert } from '../../src/alerts/alert-payload.js';
import type {
  AlertCard,
  AlertOutcome,
  AlertSource,
  NotInvestigatedReason,
} from '../../src/alerts/alert-ports.js';
import type { Audience } from '../../src/conversation/access/audience.js';
import type { ChannelAgent } from '../../src/conversation/context/channel-agents.js';
import type { Tenant } from '../../src/conversation/tenancy.js';
import type { RunStart } from '../../src/conversation/turn/run-start.js';
import { createMemoryStore } from '../../src/store/memory-store.js';
import { createManualClock } from '../support/manual-clock.js';
import { memoryLogger } from '../support/memory-log.js';

const HOME: Tenant = { teamId: 'T0HOME', home: true, key: undefined };
const MINUTE = 60_000;

const alert = (title = 'CPU above 90% on checkout', extra: Partial<Alert> = {}): Alert => ({
  title,
  tags: [],
  ...extra,
});

const target = (eventKey: string, extra: Partial<AlertTarget> = {}): AlertTarget => ({
  tenant: HOME,
  channel: 'C0ALERTS',
  source: 'webhook',
  eventKey,
  ...extra,
});

type Begin = Parameters<RunStart['begin']>;

/** The intake with an in-memory store, a manual clock and fakes that record what reaches Slack and the run start. */
function harness(
  options: {
    cooldownMinutes?: number;
    runsPerHour?: number;
    policy?: 'dm' | 'thread' | 'refuse';
    outsiders?: Set<string>;
    agents?: (tenant: Tenant, channel: string) => ChannelAgent;
    failCard?: () => boolean;
    /** Which store call fails, read at each call (a test can heal the store). */
    storeFails?: { method: 'claim' | 'takeAllowance' | undefined };
    startFails?: boolean;
  } = {},
) {
  const clock = createManualClock(Date.UTC(2026, 10, 27, 12, 0));
  const memory = createMemoryStore({ clock: () => clock.now() });
  const store = {
    claim: memory.claim.bind(memory),
    readClaim: memory.readClaim.bind(memory),
    settleClaim: memory.settleClaim.bind(memory),
    releaseClaim: memory.releaseClaim.bind(memory),
    takeAllowance: memory.takeAllowance.bind(memory),
    returnAllowance: memory.returnAllowance.bind(memory),
  };
  const failing = options.storeFails;
  if (failing) {
    const { claim, takeAllowance } = store;
    const unreachable = () => Promise.reject(new Error('store unreachable'));
    store.claim = (...args) => (failing.method === 'claim' ? unreachable() : claim(...args));
    store.takeAllowance = (...args) =>
      failing.method === 'takeAllowance' ? unreachable() : takeAllowance(...args);
  }
  const cards: { channel: string; card: AlertCard; ts: string }[] = [];
  const firedAgain: { threadTs: string; title: string }[] = [];
  const notes: { threadTs: string; reason: NotInvestigatedReason }[] = [];
  const audienceAsked: string[] = [];
  const started: Begin[] = [];
  const received: { outcome: AlertOutcome; source: AlertSource }[] = [];
  const investigations: AlertSource[] = [];
  let nextTs = 1;
  const log = memoryLogger('info');
  const intake = createAlertIntake({
    store,
    output: {
      async postCard(channel, card) {
        if (options.failCard?.()) throw new Error('invalid_blocks');
        const ts = `1764244800.${String(nextTs++).padStart(6, '0')}`;
        cards.push({ channel, card, ts });
        return ts;
      },
      async postFiredAgain(where, title) {
        firedAgain.push({ threadTs: where.threadTs, title });
      },
      async postNotInvestigated(where, reason) {
        notes.push({ threadTs: where.threadTs, reason });
      },
    },
    audience: {
      async of(channel): Promise<Audience> {
        audienceAsked.push(channel);
        return options.outsiders?.has(channel) ? { outsiders: true, reason: 'shared' } : { outsiders: false };
      },
    },
    policy: options.policy ?? 'dm',
    channelAgents: {
      agentFor: async (tenant, channel) =>
        options.agents?.(tenant, channel ?? '') ?? { agentId: 'agent-default', source: 'default' },
    },
    runStart: {
      async begin(...args: Begin) {
        if (options.startFails) throw new Error('ledger down');
        started.push(args);
        return 'started';
      },
    },
    metrics: {
      alertReceived: (outcome, source) => received.push({ outcome, source }),
      investigationStarted: (source) => investigations.push(source),
    },
    clock,
    logger: log.logger,
    settings: {
      botUserId: 'UBOT',
      cooldownMs: (options.cooldownMinutes ?? 0) * MINUTE,
      runsPerHour: options.runsPerHour ?? 0,
      maxChars: 4_000,
      lookbackMinutes: 15,
    },
  });
  return { intake, clock, cards, firedAgain, notes, audienceAsked, started, received, investigations, log };
}

describe('alert intake', () => {
  it('investigates a new alert once: a card, then one run in its thread, asked by the bot', async () => {
    const h = harness();
    const receipt = await h.intake.receive(alert(), target('event:1'));
    await h.intake.settle();

    expect(receipt).toEqual({ outcome: 'investigating', channel: 'C0ALERTS', ts: h.cards[0]?.ts });
    expect(h.cards).toHaveLength(1);
    expect(h.cards[0]?.card.notInvestigated).toBeUndefined();
    expect(h.started).toHaveLength(1);
    const [request, thread, prepared] = h.started[0] as Begin;
    expect(request).toMatchObject({
      channel: 'C0ALERTS',
      threadTs: receipt.ts,
      sourceTs: receipt.ts,
      userId: 'UBOT',
      tenant: HOME,
      mentioned: true,
    });
    expect(request.prompt).not.toContain('CPU above 90%');
    expect(thread).toBeUndefined();
    expect(prepared).toMatchObject({ kind: 'ready', agentId: 'agent-default' });
    expect(h.received).toEqual([{ outcome: 'investigating', source: 'webhook' }]);
    expect(h.investigations).toEqual(['webhook']);
  });

  it('dedupes: the same event again (a vendor retry) answers the first card and starts nothing', async () => {
    const h = harness();
    const first = await h.intake.receive(alert(), target('event:1'));
    const again = await h.intake.receive(alert(), target('event:1'));
    await h.intake.settle();

    expect(again).toEqual({ outcome: 'duplicate', channel: 'C0ALERTS', ts: first.ts });
    expect(h.cards).toHaveLength(1);
    expect(h.started).toHaveLength(1);
    expect(h.received.map((r) => r.outcome)).toEqual(['investigating', 'duplicate']);
  });

  it('starts the run once when two deliveries of one event race; the second waits for the card', async () => {
    const h = harness();
    let settled = false;
    const both = Promise.all([
      h.intake.receive(alert(), target('event:race')),
      h.intake.receive(alert(), target('event:race')),
    ]).finally(() => {
      settled = true;
    });
    // The later delivery finds the claim still pending and reads it again on the clock's steps.
    for (let step = 0; step < 40 && !settled; step += 1) {
      await h.clock.flush();
      await h.clock.advanceAsync(100);
    }
    const [a, b] = await both;
    await h.intake.settle();

    expect([a.outcome, b.outcome].sort()).toEqual(['duplicate', 'investigating']);
    expect(a.ts).toBe(h.cards[0]?.ts);
    expect(b.ts).toBe(h.cards[0]?.ts);
    expect(h.started).toHaveLength(1);
    expect(h.cards).toHaveLength(1);
  });

  it('cools down: the same title within the cooldown replies "fired again" in the first thread', async () => {
    const h = harness({ cooldownMinutes: 30 });
    const first = await h.intake.receive(alert('Disk full on db-1'), target('event:1'));
    h.clock.advance(10 * MINUTE);
    // Case and spacing do not make another alert.
    const repeat = await h.intake.receive(alert('disk  FULL on db-1'), target('event:2'));
    await h.intake.settle();

    expect(repeat).toEqual({ outcome: 'cooldown', channel: 'C0ALERTS', ts: first.ts });
    expect(h.firedAgain).toEqual([{ threadTs: first.ts, title: 'disk  FULL on db-1' }]);
    expect(h.cards).toHaveLength(1);
    expect(h.started).toHaveLength(1);
  });

  it('investigates the same title again once the cooldown is over', async () => {
    const h = harness({ cooldownMinutes: 30 });
    await h.intake.receive(alert('Disk full on db-1'), target('event:1'));
    h.clock.advance(31 * MINUTE);
    const later = await h.intake.receive(alert('Disk full on db-1'), target('event:2'));
    await h.intake.settle();

    expect(later.outcome).toBe('investigating');
    expect(h.started).toHaveLength(2);
    expect(h.firedAgain).toEqual([]);
  });

  it('holds to ALERT_RUNS_PER_HOUR per channel: the next alert gets a card that says why, no run', async () => {
    const h = harness({ runsPerHour: 2 });
    await h.intake.receive(alert('a'), target('event:a'));
    await h.intake.receive(alert('b'), target('event:b'));
    const third = await h.intake.receive(alert('c'), target('event:c'));
    // Another channel has its own hour.
    const elsewhere = await h.intake.receive(alert('d'), target('event:d', { channel: 'C0OTHER' }));
    await h.intake.settle();

    expect(third).toMatchObject({ outcome: 'limited', reason: 'hourly-limit' });
    expect(h.cards.find((c) => c.ts === third.ts)?.card.notInvestigated).toEqual({
      kind: 'hourly-limit',
      limit: 2,
    });
    expect(elsewhere.outcome).toBe('investigating');
    expect(h.started.map(([request]) => request.channel)).toEqual(['C0ALERTS', 'C0ALERTS', 'C0OTHER']);

    h.clock.advance(61 * MINUTE);
    const nextHour = await h.intake.receive(alert('e'), target('event:e'));
    expect(nextHour.outcome).toBe('investigating');
  });

  it('does not start a cooldown for a limited alert: its repeat gets a card of its own', async () => {
    const h = harness({ runsPerHour: 1, cooldownMinutes: 30 });
    await h.intake.receive(alert('first'), target('event:1'));
    const limited = await h.intake.receive(alert('second'), target('event:2'));
    const repeat = await h.intake.receive(alert('second'), target('event:3'));

    expect(limited.outcome).toBe('limited');
    expect(repeat.outcome).toBe('limited');
    expect(repeat.ts).not.toBe(limited.ts);
    expect(h.firedAgain).toEqual([]);
  });

  it('does not investigate in a channel outsiders can read, and spends no hourly allowance on it', async () => {
    const h = harness({ outsiders: new Set(['C0SHARED']), runsPerHour: 1 });
    const shared = await h.intake.receive(alert(), target('event:1', { channel: 'C0SHARED' }));
    await h.intake.settle();

    expect(shared).toMatchObject({ outcome: 'limited', reason: 'outsiders' });
    expect(h.audienceAsked).toEqual(['C0SHARED']);
    expect(h.cards[0]?.card.notInvestigated).toEqual({ kind: 'outsiders', policy: 'dm' });
    expect(h.started).toEqual([]);
    // The hour's one investigation is still there for a channel only insiders read.
    expect((await h.intake.receive(alert(), target('event:3'))).outcome).toBe('investigating');
  });

  it('names the refuse policy on the card, and with OUTSIDER_AUDIENCE=thread does not ask who reads', async () => {
    const refuse = harness({ outsiders: new Set(['C0ALERTS']), policy: 'refuse' });
    await refuse.intake.receive(alert(), target('event:1'));
    expect(refuse.cards[0]?.card.notInvestigated).toEqual({ kind: 'outsiders', policy: 'refuse' });

    const thread = harness({ outsiders: new Set(['C0ALERTS']), policy: 'thread' });
    const receipt = await thread.intake.receive(alert(), target('event:1'));
    await thread.intake.settle();
    expect(receipt.outcome).toBe('investigating');
    expect(thread.audienceAsked).toEqual([]);
    expect(thread.started).toHaveLength(1);
  });

  it('investigates an integration post in its own thread, with no card; a limited one gets a note', async () => {
    const h = harness({ runsPerHour: 1 });
    const posted = { source: 'channel' as const, postedTs: '1764244700.000100' };
    const first = await h.intake.receive(alert('a'), target('message:1', posted));
    const second = await h.intake.receive(
      alert('b'),
      target('message:2', { ...posted, postedTs: '1764244700.000200' }),
    );
    await h.intake.settle();

    expect(first).toEqual({ outcome: 'investigating', channel: 'C0ALERTS', ts: '1764244700.000100' });
    expect(h.started[0]?.[0].threadTs).toBe('1764244700.000100');
    expect(second).toMatchObject({ outcome: 'limited', ts: '1764244700.000200' });
    expect(h.notes).toEqual([{ threadTs: '1764244700.000200', reason: { kind: 'hourly-limit', limit: 1 } }]);
    expect(h.cards).toEqual([]);
    expect(h.investigations).toEqual(['channel']);
  });

  it('keeps tenants apart: the same event and title in another installation is its own alert', async () => {
    const a: Tenant = { teamId: 'T0AAA', home: true, key: 'T0AAA' };
    const b: Tenant = { teamId: 'T0BBB', home: true, key: 'T0BBB' };
    const h = harness({ cooldownMinutes: 30, runsPerHour: 1 });
    const inA = await h.intake.receive(alert(), target('event:1', { tenant: a }));
    const inB = await h.intake.receive(alert(), target('event:1', { tenant: b }));
    const againInA = await h.intake.receive(alert(), target('event:1', { tenant: a }));
    await h.intake.settle();

    expect(inA.outcome).toBe('investigating');
    expect(inB.outcome).toBe('investigating');
    expect(againInA).toEqual({ outcome: 'duplicate', channel: 'C0ALERTS', ts: inA.ts });
    expect(h.started.map(([request]) => request.tenant.teamId)).toEqual(['T0AAA', 'T0BBB']);
  });

  it("uses the channel's binding in the alert's installation; ?agent= picks the agent on its connection", async () => {
    const h = harness({
      agents: (tenant) =>
        tenant.teamId === 'T0BOUND'
          ? { agentId: 'agent-bound', connection: 'conn-1', source: 'channel' }
          : { source: 'unbound' },
    });
    const bound: Tenant = { teamId: 'T0BOUND', home: false, key: 'T0BOUND' };
    const other: Tenant = { teamId: 'T0NONE', home: false, key: 'T0NONE' };
    await h.intake.receive(alert(), target('event:1', { tenant: bound, agentId: 'agent-asked' }));
    const unbound = await h.intake.receive(alert(), target('event:1', { tenant: other }));
    await h.intake.settle();

    expect(h.started).toHaveLength(1);
    expect(h.started[0]?.[2]).toMatchObject({ agentId: 'agent-asked', connection: 'conn-1' });
    expect(unbound).toMatchObject({ outcome: 'limited', reason: 'unbound' });
    expect(h.cards[1]?.card.notInvestigated).toEqual({ kind: 'unbound' });
  });

  it('gives every claim and the allowance back when Slack refuses the card, so a retry investigates', async () => {
    let refuse = true;
    const h = harness({ cooldownMinutes: 30, runsPerHour: 1, failCard: () => refuse });
    await expect(h.intake.receive(alert(), target('event:1'))).rejects.toBeInstanceOf(AlertCardError);
    expect(h.started).toEqual([]);

    refuse = false;
    const retry = await h.intake.receive(alert(), target('event:1'));
    await h.intake.settle();
    expect(retry.outcome).toBe('investigating');
    expect(h.started).toHaveLength(1);
  });

  it('starts nothing and posts nothing when the store fails; once it is back, the retry investigates', async () => {
    const failing: { method: 'claim' | 'takeAllowance' | undefined } = { method: 'claim' };
    const h = harness({ storeFails: failing, runsPerHour: 5, cooldownMinutes: 30 });
    await expect(h.intake.receive(alert(), target('event:1'))).rejects.toThrow('store unreachable');
    failing.method = 'takeAllowance';
    // The dedupe and cooldown claims were taken this time, then given back with the failure.
    await expect(h.intake.receive(alert(), target('event:1'))).rejects.toThrow('store unreachable');
    expect(h.cards).toEqual([]);
    expect(h.started).toEqual([]);

    failing.method = undefined;
    const retry = await h.intake.receive(alert(), target('event:1'));
    await h.intake.settle();
    expect(retry.outcome).toBe('investigating');
    expect(h.started).toHaveLength(1);
  });

  it('logs an investigation that fails to start, without failing the alert or counting it started', async () => {
    const h = harness({ startFails: true });
    const receipt = await h.intake.receive(alert(), target('event:1'));
    await h.intake.settle();
    expect(receipt.outcome).toBe('investigating');
    expect(h.investigations).toEqual([]);
    expect(h.log.records().some((r) => r.msg === 'alert investigation failed to start')).toBe(true);
  });
});
