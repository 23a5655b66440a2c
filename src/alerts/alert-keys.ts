import { createHash } from 'node:crypto';
import type { Alert } from './alert-payload.js';

/**
 * The store names of an alert's dedupe and cooldown claims. Parts come from the vendor (titles can
 * be long and hold anything), so they are hashed into fixed-length names.
 */

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);

/** One investigation per alert event: its event id, else its trigger id, else its title and window. */
export function alertEventKey(alert: Alert): string {
  if (alert.eventId) return `event:${alert.eventId}`;
  if (alert.triggeredId) return `triggered:${alert.triggeredId}`;
  return `title:${normaliseTitle(alert.title)}:${alert.windowStart ?? ''}:${alert.windowEnd ?? ''}`;
}

/** Titles that differ only in case or spacing are the same alert firing again. */
export function normaliseTitle(title: string): string {
  return title.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The dedupe claim of one alert event (or one Slack message) in one channel. */
export function dedupeClaimName(channel: string, eventKey: string): string {
  return `alert-event:${channel}:${digest(eventKey)}`;
}

/** The cooldown claim of one title in one channel. */
export function cooldownClaimName(channel: string, title: string): string {
  return `alert-cooldown:${channel}:${digest(normaliseTitle(title))}`;
}
