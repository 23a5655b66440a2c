/** `/agent alerts webhook [rotate]` replies: the address and token, shown only to the admin. */
import type { AlertsWebhookOutcome } from '../../../commands/alerts-webhook-command.js';
import { type Replies, reply, reserved } from '../mrkdwn-reply.js';

export const alertsWebhookReplies: Replies<AlertsWebhookOutcome> = {
  'alert-webhook': (outcome) =>
    reply(
      `${outcome.rotated ? 'This workspace has a new alert token: the old one no longer works.' : 'This workspace’s own alert address (only you see this):'}\n• Address: \`POST ${reserved(outcome.address)}\`\n• Token: \`${outcome.token}\` (send it as \`Authorization: Bearer …\`, \`X-Alert-Token\` or the body’s \`token\`)`,
      'Alerts sent with it are investigated in this workspace’s channels only, on the channel’s own agent and connection. Keep the token secret; `/agent alerts webhook rotate` replaces it.',
    ),
  'alert-webhook-no-key': () =>
    'This workspace’s alert token cannot be kept: the bot has no STATE_ENCRYPTION_KEY to seal it with. An operator needs to set it.',
};
