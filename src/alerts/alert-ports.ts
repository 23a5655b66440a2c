/** The ports alert investigations talk through; implemented in src/store/ and src/slack/. */

import type { ScheduleInstallations } from '../conversation/schedules/schedule-firing.js';
import type { ThreadLocation } from '../conversation/thread-output-port.js';
import type { Alert } from './alert-payload.js';

/** What a claim holds when someone else took it first. */
export type ClaimResult = { claimed: true } | { claimed: false; value: string };

/** Atomic once-only marks with an expiry (`SET NX PX`), shared by replicas, settled later (the card's ts). */
export interface ClaimStore {
  /** Takes `name` with `value` unless it is held; otherwise says what it holds. */
  claim(name: string, value: string, ttlMs: number): Promise<ClaimResult>;
  readClaim(name: string): Promise<string | undefined>;
  /** Replaces the value when it is still `from`, keeping the expiry; false when it is not. */
  settleClaim(name: string, from: string, to: string): Promise<boolean>;
  /** Deletes the claim when it still holds `value` (the claimant gave up: a retry may take it). */
  releaseClaim(name: string, value: string): Promise<void>;
}

/** A channel whose integration posts are investigated (`/agent channel investigate on`). */
export interface ChannelWatch {
  /** Who turned it on, and when (epoch ms). */
  by: string;
  at: number;
  /** With OAuth: the installation whose admin turned it on (its admins' App Home lists it). */
  installation?: string | undefined;
}

/** Watched channels, kept in the store (no expiry: an admin turns them off). */
export interface ChannelWatchStore {
  getChannelWatch(channel: string): Promise<ChannelWatch | undefined>;
  saveChannelWatch(channel: string, watch: ChannelWatch): Promise<void>;
  deleteChannelWatch(channel: string): Promise<void>;
}

/** Why an alert was not investigated automatically, as its card (or reply) says. */
export type NotInvestigatedReason =
  /** ALERT_RUNS_PER_HOUR investigations already started in the channel in the last hour. */
  | { kind: 'hourly-limit'; limit: number }
  /** People outside the organisation can read the channel, and OUTSIDER_AUDIENCE is not `thread`. */
  | { kind: 'outsiders'; policy: 'dm' | 'refuse' }
  /** Not a home installation and the channel is bound to no connection: the card only. */
  | { kind: 'unbound' };

/** The alert card, as src/slack/views/alert-card.ts renders it: the alert, and what the intake adds. */
export interface AlertCard extends Alert {
  /** The vendor's View in Explore link, when the alert carried what it needs. */
  exploreUrl?: string | undefined;
  /** Undefined: the investigation starts in the card's thread. */
  notInvestigated?: NotInvestigatedReason | undefined;
}

/** The Slack side: the card, and the bot's short replies in alert threads. Errors are Slack's. */
export interface AlertOutput {
  postCard(channel: string, card: AlertCard): Promise<string>;
  /** "Fired again at HH:MM UTC" in the earlier alert's thread. */
  postFiredAgain(where: ThreadLocation, title: string, at: number): Promise<void>;
  /** Under an integration's alert (a watched channel): why it is not investigated automatically. */
  postNotInvestigated(where: ThreadLocation, reason: NotInvestigatedReason): Promise<void>;
}

/** Counters of alert handling; prom-client lives behind this in src/metrics.ts. */
export interface AlertMetrics {
  alertReceived(outcome: AlertOutcome, source: AlertSource): void;
  investigationStarted(source: AlertSource): void;
}

/** What became of an alert (the `outcome` of POST /alerts). */
export type AlertOutcome = 'investigating' | 'duplicate' | 'cooldown' | 'limited';
/** Where an alert came from: the webhook, or an integration's post in a watched channel. */
export type AlertSource = 'webhook' | 'channel';

/** Which installation: `?team=`, its token's, or the only one (DESIGN "Alert tokens per installation"). */
export interface AlertInstallations extends ScheduleInstallations {
  /** With one workspace: the installation a call without `?team=` is for. Unset with OAuth. */
  only?: string | undefined;
}
