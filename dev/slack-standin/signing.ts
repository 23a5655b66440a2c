import { createHmac } from 'node:crypto';

/** Headers Slack sends with a signed request. https://docs.slack.dev/authentication/verifying-requests-from-slack */
export interface SlackSignatureHeaders {
  'x-slack-signature': string;
  'x-slack-request-timestamp': string;
  'content-type': string;
}

/**
 * Signs `body` as Slack does: `v0=` + hex HMAC-SHA256 of `v0:${timestamp}:${body}` keyed with the
 * signing secret. `timestamp` (unix seconds) defaults to now. content-type is JSON for a JSON body,
 * form-encoded otherwise (commands and interactions).
 */
export function signSlackRequest(
  signingSecret: string,
  body: string,
  timestamp: number = Math.floor(Date.now() / 1000),
): SlackSignatureHeaders {
  const digest = createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex');
  return {
    'x-slack-signature': `v0=${digest}`,
    'x-slack-request-timestamp': String(timestamp),
    'content-type': body.trimStart().startsWith('{')
      ? 'application/json'
      : 'application/x-www-form-urlencoded',
  };
}
