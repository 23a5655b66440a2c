import type { SandboxStack } from './sandbox-stack.js';

/**
 * `/webhook [title]` in the sandbox: the vendor's custom notification endpoint firing, as it would
 * against a real deployment — a POST to the bot's own `/alerts` with the token, filled from the
 * template in docs/alerts.md. The bot posts the card and investigates in its thread.
 */

/** What the endpoint answered. */
export interface WebhookAnswer {
  status: number;
  outcome?: string;
  channel?: string;
  ts?: string | null;
  reason?: string;
  error?: string;
}

/** The template in docs/alerts.md, filled for one sample alert (a new event each time). */
export function sampleAlertBody(title: string, now = Date.now()): Record<string, unknown> {
  return {
    alert_title: title,
    alert_description: 'Error rate on checkout went above 5% of requests (threshold: 2%) for 10 minutes.',
    alert_severity: 'HIGH',
    alert_event_id: `sandbox-${now}`,
    triggered_id: String(now),
    account_id: '100001',
    alert_timeframe_start: new Date(now - 15 * 60_000).toISOString(),
    alert_timeframe_end: new Date(now).toISOString(),
    alert_app_url: 'https://app.logz.io',
    alert_samples: [
      {
        '@timestamp': new Date(now - 60_000).toISOString(),
        service: 'checkout',
        status: 503,
        message: 'upstream timeout',
      },
    ],
    alert_tags: ['checkout', 'sandbox'],
  };
}

/** Fires one sample alert through the bot's real endpoint, with its token. */
export async function fireSampleAlert(
  stack: Pick<SandboxStack, 'appUrl' | 'alertToken'>,
  title: string,
): Promise<WebhookAnswer> {
  const response = await fetch(`${stack.appUrl}/alerts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.alertToken}` },
    body: JSON.stringify(sampleAlertBody(title)),
  });
  const answer = (await response.json().catch(() => ({}))) as Omit<WebhookAnswer, 'status'>;
  return { status: response.status, ...answer };
}
