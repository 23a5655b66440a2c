/** POST /alerts as the vendor's custom notification endpoint sends it, for end-to-end tests. */

/** Obviously fake, and long enough for ALERT_WEBHOOK_TOKEN's rule. */
export const TEST_ALERT_TOKEN = 'test-alert-token-not-real-0001';

export interface AlertPost {
  /** The JSON body (an object is serialised; a string is sent as is). */
  body: unknown;
  query?: Record<string, string>;
  /** How the token travels (default: bearer). */
  token?: { via: 'bearer' | 'header' | 'body' | 'none'; value?: string };
}

/** What POST /alerts answers (an error body has `error` only). */
export interface AlertAnswer {
  outcome?: string;
  channel?: string;
  ts: string;
  reason?: string;
  error?: string;
}

export async function postAlert(
  appUrl: string,
  post: AlertPost,
): Promise<{ status: number; json: AlertAnswer }> {
  const token = post.token?.value ?? TEST_ALERT_TOKEN;
  const via = post.token?.via ?? 'bearer';
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (via === 'bearer') headers.authorization = `Bearer ${token}`;
  if (via === 'header') headers['x-alert-token'] = token;
  let body = post.body;
  if (via === 'body' && typeof body === 'object' && body !== null) body = { ...body, token };
  const url = new URL('/alerts', appUrl);
  for (const [name, value] of Object.entries(post.query ?? {})) url.searchParams.set(name, value);
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: AlertAnswer;
  try {
    json = JSON.parse(text) as AlertAnswer;
  } catch {
    json = { ts: '', error: text };
  }
  return { status: response.status, json };
}

/** A body as the README's template fills it (one firing of "CPU high on checkout"). */
export function alertBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    alert_title: 'CPU high on checkout',
    alert_description: 'CPU above 90% for 5 minutes on the checkout service.',
    alert_severity: 'HIGH',
    alert_event_id: `event-${Math.random().toString(36).slice(2)}`,
    triggered_id: '7788',
    account_id: '123456',
    alert_timeframe_start: '2026-11-25T10:00:00Z',
    alert_timeframe_end: '2026-11-25T10:15:00Z',
    alert_app_url: 'https://app.logz.io',
    alert_samples: [{ message: 'cpu=97', host: 'checkout-1' }],
    alert_tags: ['checkout', 'prod'],
    ...overrides,
  };
}
