import type { BotMessageInput } from './inspection.js';

/**
 * A monitoring alert as integrations post it: no `text`, the words in legacy attachments (title,
 * text, fields, fallback) and Block Kit (a header, a section with a link, and a block type the
 * bot does not know), shaped after what Grafana- and Datadog-style apps send.
 */
export function alertMessage(
  channel: string,
  summary: string,
  options: { ts?: string } = {},
): BotMessageInput {
  return {
    channel,
    username: 'Grafana',
    bot_id: 'B0GRAFANA',
    text: '',
    ...(options.ts ? { ts: options.ts } : {}),
    attachments: [
      {
        color: '#d63232',
        title: `[FIRING:1] ${summary}`,
        title_link: 'https://grafana.example.com/alerting/grafana/abc123/view',
        text: 'Value: 97.3 (threshold 90) for 5m',
        fields: [
          { title: 'service', value: 'checkout', short: true },
          { title: 'severity', value: 'critical', short: true },
        ],
        fallback: `[FIRING:1] ${summary}`,
      },
    ],
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: `Alert: ${summary}` } },
      {
        type: 'section',
        text: { type: 'mrkdwn', text: '*Runbook:* <https://runbooks.example.com/cpu|CPU high on checkout>' },
      },
      { type: 'alert_panel_v9', payload: { opaque: true } },
    ],
  };
}
