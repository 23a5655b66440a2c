/**
 * One alert (webhook or watched-channel post) → at most one investigation (DESIGN "Alert investigations"):
 * dedupe, cooldown, outsiders, the hourly limit, the card, then the run with the bot as the asker.
 */

import { randomUUID } from 'node:crypto';
import type { ConversationAudience } from '../conversation/access/audience.js';
import { HOUR_MS } from '../conversation/access/spending.js';
import { type ChannelAgent, type ChannelAgents, readyOn } from '../conversation/context/channel-agents.js';
import { ownRunRequest } from '../conversation/own-run.js';
import type { ConversationStore } from '../conversation/ports.js';
import { type Tenant, tenantName } from '../conversation/tenancy.js';
import type { RunStart } from '../conversation/turn/run-start.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import { createWorkUnderWay } from '../runtime/work-under-way.js';
import { cooldownClaimName, createAlertClaims, dedupeClaimName } from './alert-claims.js';
import { type Alert, exploreUrl } from './alert-payload.js';
import type {
  AlertMetrics,
  AlertOutcome,
  AlertOutput,
  AlertSource,
  ClaimStore,
  NotInvestigatedReason,
} from './alert-ports.js';
import { alertRunInput } from './alert-run-input.js';

/** Kept past a day: vendors retry for hours, and the same event must not start twice. */
const DEDUPE_TTL_MS = 25 * 60 * 60 * 1000;

/** Where an alert goes and how it is known. */
export interface AlertTarget {
  /** The installation the alert is for: its binding, claims, cooldowns and hourly limit are its own. */
  tenant: Tenant;
  channel: string;
  /** `?agent=`: else the channel's agent, else AGENT_ID. */
  agentId?: string | undefined;
  source: AlertSource;
  /** An integration's post already in the channel: the investigation goes in its thread, no card. */
  postedTs?: string | undefined;
  /** Dedupe key (default: the alert's event id, trigger id, or title and window). */
  eventKey: string;
  cooldownText?: string | undefined;
}

/** What POST /alerts answers. */
export interface AlertReceipt {
  outcome: AlertOutcome;
  channel: string;
  /** The card (or the earlier alert's card, for a duplicate or a repeat), when known. */
  ts?: string | undefined;
  reason?: NotInvestigatedReason['kind'] | undefined;
}

/** Slack would not take the card: nothing was started, and every claim was given back. */
export class AlertCardError extends Error {
  constructor(readonly original: unknown) {
    super('the alert card could not be posted', { cause: original });
    this.name = 'AlertCardError';
  }
}

export interface AlertIntakeDeps {
  store: ClaimStore & Pick<ConversationStore, 'takeAllowance' | 'returnAllowance'>;
  output: AlertOutput;
  /** Who can read the channel (audience.ts): asked unless OUTSIDER_AUDIENCE=thread. */
  audience: Pick<ConversationAudience, 'of'>;
  policy: 'dm' | 'thread' | 'refuse';
  channelAgents: Pick<ChannelAgents, 'agentFor'>;
  runStart: Pick<RunStart, 'begin'>;
  metrics: AlertMetrics;
  clock: Clock;
  logger: Logger;
  settings: {
    botUserId: string;
    cooldownMs: number;
    /** 0: no limit. */
    runsPerHour: number;
    maxChars: number;
    lookbackMinutes: number;
  };
  newId?: () => string;
}

export function createAlertIntake(deps: AlertIntakeDeps) {
  const { output, clock, logger, settings, metrics } = deps;
  const newId = deps.newId ?? (() => randomUUID());
  const claims = createAlertClaims({ store: deps.store, clock, newId });
  const investigations = createInvestigations(deps);

  async function receive(alert: Alert, target: AlertTarget): Promise<AlertReceipt> {
    const arrivedAt = clock.now();
    const claim = claims.open(target.postedTs);
    // Claims are the installation's own: another one seeing the same shared channel has its own.
    const channelName = tenantName(target.tenant.key, target.channel);
    const first = await claim.take(dedupeClaimName(channelName, target.eventKey), DEDUPE_TTL_MS);
    if (!first.taken) return done({ outcome: 'duplicate', channel: target.channel, ts: first.ts }, target);
    const cooldown =
      settings.cooldownMs > 0
        ? cooldownClaimName(channelName, target.cooldownText ?? alert.title)
        : undefined;
    try {
      const earlier = cooldown ? await claim.take(cooldown, settings.cooldownMs) : { taken: true as const };
      if (earlier.taken)
        return done(await investigateOrNot(alert, target, claim, cooldown, arrivedAt), target);
      // The same title within the cooldown: "fired again" in the earlier thread, nothing new.
      await claim.settle(earlier.ts);
      if (earlier.ts) {
        const where = { teamId: target.tenant.teamId, channel: target.channel, threadTs: earlier.ts };
        await output
          .postFiredAgain(where, alert.title, clock.now())
          .catch(warnOnFailure(logger, 'fired-again reply not posted', target.channel));
      }
      return done({ outcome: 'cooldown', channel: target.channel, ts: earlier.ts }, target);
    } catch (error) {
      // Nothing is in Slack (a card Slack took is never given back): a retry may take it all.
      await claim.giveBack();
      throw error;
    }
  }

  async function investigateOrNot(
    alert: Alert,
    target: AlertTarget,
    claim: ReturnType<typeof claims.open>,
    cooldown: string | undefined,
    arrivedAt: number,
  ): Promise<AlertReceipt> {
    const allowanceId = newId();
    const channelAgent = await deps.channelAgents.agentFor(target.tenant, target.channel);
    const reason = await whyNot(deps, target, channelAgent, allowanceId);
    // Only an investigation starts a cooldown: a limited alert's repeat gets a card of its own.
    if (reason && cooldown) await claim.giveBack([cooldown]);
    const ts = await place(deps, alert, target, reason, allowanceId);
    await claim.settle(ts);
    if (reason) return { outcome: 'limited', channel: target.channel, ts, reason: reason.kind };
    investigations.start(alert, target, channelAgent, ts, arrivedAt);
    return { outcome: 'investigating', channel: target.channel, ts };
  }

  function done(receipt: AlertReceipt, target: AlertTarget): AlertReceipt {
    metrics.alertReceived(receipt.outcome, target.source);
    logger.info({ ...receipt, source: target.source }, 'alert received');
    return receipt;
  }

  return { receive, settle: investigations.settle };
}

export type AlertIntake = ReturnType<typeof createAlertIntake>;

const allowanceName = (target: AlertTarget) => `alerts:${tenantName(target.tenant.key, target.channel)}`;

const warnOnFailure = (logger: Logger, what: string, channel: string) => (error: unknown) =>
  logger.warn({ err: error, channel }, what);

/** Unbound, then who reads the channel (neither costs an allowance), then the hourly limit. */
async function whyNot(
  deps: AlertIntakeDeps,
  target: AlertTarget,
  channelAgent: ChannelAgent,
  allowanceId: string,
): Promise<NotInvestigatedReason | undefined> {
  const { policy, settings } = deps;
  if (channelAgent.source === 'unbound') return { kind: 'unbound' };
  // Not the answer placement: an alert has no asker whose DM could take the answer.
  if (policy !== 'thread' && (await deps.audience.of(target.channel)).outsiders) {
    return { kind: 'outsiders', policy: policy === 'refuse' ? 'refuse' : 'dm' };
  }
  if (settings.runsPerHour <= 0) return undefined;
  const use = { id: allowanceId, limit: settings.runsPerHour, windowMs: HOUR_MS, now: deps.clock.now() };
  const verdict = await deps.store.takeAllowance(allowanceName(target), use);
  return verdict.ok ? undefined : { kind: 'hourly-limit', limit: settings.runsPerHour };
}

/** The card (webhook), or a note under the integration's post when it is not investigated. */
async function place(
  deps: AlertIntakeDeps,
  alert: Alert,
  target: AlertTarget,
  reason: NotInvestigatedReason | undefined,
  allowanceId: string,
): Promise<string> {
  if (target.postedTs) {
    if (reason) {
      const where = { teamId: target.tenant.teamId, channel: target.channel, threadTs: target.postedTs };
      await deps.output
        .postNotInvestigated(where, reason)
        .catch(warnOnFailure(deps.logger, 'alert note not posted', target.channel));
    }
    return target.postedTs;
  }
  const card = { ...alert, exploreUrl: exploreUrl(alert), notInvestigated: reason };
  try {
    return await deps.output.postCard(target.channel, card);
  } catch (error) {
    if (!reason) await deps.store.returnAllowance(allowanceName(target), allowanceId).catch(() => undefined);
    throw new AlertCardError(error);
  }
}

/** Investigations started behind their alert's receipt, through the same run start as a mention. */
function createInvestigations(deps: AlertIntakeDeps) {
  const { settings, logger } = deps;
  const background = createWorkUnderWay();

  /** The run in the alert's thread; the bot is the asker. */
  async function investigate(
    alert: Alert,
    target: AlertTarget,
    channelAgent: ChannelAgent,
    ts: string,
    arrivedAt: number,
  ): Promise<void> {
    const { tenant, channel, source } = target;
    // `?agent=` picks the agent; the connection stays the channel's (an unbound channel never gets here).
    const agentId = target.agentId ?? channelAgent.agentId ?? '';
    const { message, ...context } = alertRunInput(alert, settings, deps.clock.now());
    const asked = { tenant, channel, ts, userId: settings.botUserId, prompt: message, alertAt: arrivedAt };
    const prepared = readyOn(channelAgent, agentId, context);
    const result = await deps.runStart.begin(...ownRunRequest(asked, prepared));
    if (result === 'started') deps.metrics.investigationStarted(source);
    logger.info({ channel, ts, agentId, source, result }, 'alert investigation');
  }

  return {
    start(...args: Parameters<typeof investigate>): void {
      const handled = investigate(...args).catch((error: unknown) =>
        logger.error({ err: error }, 'alert investigation failed to start'),
      );
      background.track(handled);
    },
    /** Resolves once every investigation being started has been handed over (shutdown, tests). */
    settle: background.settled,
  };
}
