/** The body of POST /alerts (docs/alerts.md's template): only a title is required; bad extras left out. */
import { parseJson } from './template-body.js';

/** An alert, from the webhook or from an integration's post in a watched channel. */
export interface Alert {
  title: string;
  description?: string | undefined;
  severity?: string | undefined;
  eventId?: string | undefined;
  triggeredId?: string | undefined;
  accountId?: string | undefined;
  /** Epoch ms. */
  windowStart?: number | undefined;
  windowEnd?: number | undefined;
  appUrl?: string | undefined;
  /** Samples as text (JSON re-serialised compactly). */
  samples?: string | undefined;
  tags: string[];
}

export type ParsedAlert = { ok: true; alert: Alert } | { ok: false; problem: string };

/** A title on one line, at most 300 characters (Slack's header block takes 150; the agent needs no more). */
export const alertTitle = (text: string) => text.replace(/\s+/g, ' ').slice(0, 300);

/** Titles that differ only in case or spacing are the same alert firing again. */
export const normaliseTitle = (title: string): string => title.toLowerCase().replace(/\s+/g, ' ').trim();
const MAX_TAGS = 50;

type Json = Record<string, unknown>;

/** A scalar as trimmed text (numbers too: ids often arrive as numbers), else undefined. */
function text(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** An instant as epoch ms: ISO 8601 with a zone, or epoch s/ms (below 10^11 is seconds; 10^11 ms: 1973). */
export function parseInstant(value: unknown): number | undefined {
  const raw = typeof value === 'number' ? String(value) : text(value);
  if (raw === undefined) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) {
    const number = Number(raw);
    const ms = number < 1e11 ? number * 1000 : number;
    return Number.isFinite(ms) && ms > 0 ? Math.round(ms) : undefined;
  }
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(raw)) return undefined;
  const ms = Date.parse(raw.replace(' ', 'T'));
  return Number.isNaN(ms) ? undefined : ms;
}

/** JSON text or a JSON value → the value; other text stays text. */
function jsonOrText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  return /^[[{"]/.test(trimmed) ? (parseJson(trimmed) ?? trimmed) : trimmed;
}

/** Tags: an array (of strings, or `{key, value}` / `{name, value}` objects), an object, or JSON text of either. */
function parseTags(value: unknown): string[] {
  const parsed = jsonOrText(value);
  const list = Array.isArray(parsed)
    ? parsed
    : typeof parsed === 'object' && parsed !== null
      ? Object.entries(parsed).map(([key, tagValue]) => ({ key, value: tagValue }))
      : typeof parsed === 'string'
        ? parsed.split(',')
        : [];
  const tags = list
    .map((item) => {
      if (typeof item !== 'object' || item === null) return text(item);
      const { key, name, value: tagValue } = item as Json;
      const label = text(key) ?? text(name);
      const shown = text(tagValue);
      return label && shown ? `${label}:${shown}` : (label ?? shown);
    })
    .filter((tag): tag is string => tag !== undefined);
  return [...new Set(tags)].slice(0, MAX_TAGS);
}

/** Samples as text: JSON kept as compact JSON, text as is. */
function parseSamples(value: unknown): string | undefined {
  const parsed = jsonOrText(value);
  if (parsed === undefined || parsed === null || parsed === '') return undefined;
  if (Array.isArray(parsed) && parsed.length === 0) return undefined;
  return typeof parsed === 'string' ? parsed : JSON.stringify(parsed);
}

/** An http(s) URL as sent (the link recipe appends to it), without a fragment; else undefined. */
function httpUrl(value: unknown): string | undefined {
  const raw = text(value)?.split('#')[0];
  if (!raw || !URL.canParse(raw) || /\s/.test(raw)) return undefined;
  return /^https?:$/.test(new URL(raw).protocol) ? raw : undefined;
}

/** A JSON object (not null, not an array). */
export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The parsed JSON body → an alert, or the 400's problem. */
export function parseAlertBody(body: unknown): ParsedAlert {
  if (!isObject(body)) return { ok: false, problem: 'the body must be a JSON object' };
  const title = text(body.alert_title);
  if (!title) return { ok: false, problem: 'alert_title is missing' };
  return {
    ok: true,
    alert: {
      title: alertTitle(title),
      description: text(body.alert_description),
      severity: text(body.alert_severity),
      eventId: text(body.alert_event_id),
      triggeredId: text(body.triggered_id),
      accountId: text(body.account_id),
      windowStart: parseInstant(body.alert_timeframe_start),
      windowEnd: parseInstant(body.alert_timeframe_end),
      appUrl: httpUrl(body.alert_app_url),
      samples: parseSamples(body.alert_samples ?? body.alert_samples_json),
      tags: parseTags(body.alert_tags ?? body.alert_tags_json),
    },
  };
}

/** One investigation per alert event: its event id, else its trigger id, else its title and window. */
export function alertEventKey(alert: Alert): string {
  if (alert.eventId) return `event:${alert.eventId}`;
  if (alert.triggeredId) return `triggered:${alert.triggeredId}`;
  return `title:${normaliseTitle(alert.title)}:${alert.windowStart ?? ''}:${alert.windowEnd ?? ''}`;
}

/** The vendor's View in Explore link (the recipe of its own notifications), when all three are known. */
export function exploreUrl(alert: Pick<Alert, 'appUrl' | 'triggeredId' | 'accountId'>): string | undefined {
  if (!alert.appUrl || !alert.triggeredId || !alert.accountId) return undefined;
  const triggered = encodeURIComponent(alert.triggeredId);
  const account = encodeURIComponent(alert.accountId);
  return `${alert.appUrl}#/view-in-explore?&triggeredId=${triggered}&switchToAccountId=${account}`;
}
