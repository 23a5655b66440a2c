import { helpLine, type Subcommand, UsageError } from './subcommand.js';

type AlertsWebhookCommand = { kind: 'alerts-webhook'; rotate: boolean };

export type AlertsWebhookOutcome =
  /** Shown only to the admin (the reply is ephemeral; the token is never logged). */
  | { kind: 'alert-webhook'; address: string; token: string; rotated: boolean }
  /** No STATE_ENCRYPTION_KEY: an installation's token cannot be kept sealed. */
  | { kind: 'alert-webhook-no-key' };

const NAME = 'alerts-webhook';

/** `/agent alerts webhook [rotate]` (DESIGN "Alert tokens per installation"): made on first use, or replaced. */
export const alertsWebhookCommand: Subcommand<AlertsWebhookCommand, AlertsWebhookOutcome> = {
  words: ['alerts', 'alert'],
  help: [
    helpLine(
      NAME,
      '/agent alerts webhook [rotate]',
      'Show (only to you) this workspace’s own alert address and its token, made on first use; `rotate` replaces the token. Alerts sent with it are investigated in this workspace’s channels only, on each channel’s agent.',
      { example: '/agent alerts webhook' },
    ),
  ],
  parse(args) {
    const [what, verb, ...extra] = args.map((arg) => arg.toLowerCase());
    if (what !== 'webhook') throw new UsageError(NAME, 'unknown alerts command (use `webhook`)');
    if (verb !== undefined && verb !== 'rotate') throw new UsageError(NAME, `unexpected “${verb}”`);
    if (extra.length > 0) throw new UsageError(NAME, `unexpected “${extra[0]}”`);
    return { kind: NAME, rotate: verb === 'rotate' };
  },
  async run({ rotate }, { channelId }, { alertWebhook, tenant }) {
    if (!alertWebhook) return { kind: 'alert-webhook-no-key' };
    const { tokens } = alertWebhook;
    const token = rotate ? await tokens.rotate(tenant.teamId) : await tokens.tokenOf(tenant.teamId);
    return {
      kind: 'alert-webhook',
      address: alertWebhook.address(tenant, channelId),
      token,
      rotated: rotate,
    };
  },
  result: (outcome) => (outcome.kind === 'alert-webhook-no-key' ? 'refused' : 'ok'),
};
