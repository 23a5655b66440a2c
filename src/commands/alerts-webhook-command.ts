import type { AlertTokens } from '../alerts/index.js';
import type { Tenant } from '../conversation/tenancy.js';
import type { CommandOutcome } from './command-outcome.js';
import type { AgentCommand } from './parse-command.js';

/** What `/agent alerts webhook` reaches: the installations' tokens and the route's public address. */
export interface AlertWebhookPort {
  tokens: Pick<AlertTokens, 'tokenOf' | 'rotate'>;
  /** The alert route's address for `tenant`, naming the channel the command was typed in. */
  address: (tenant: Tenant, channelId: string | undefined) => string;
}

/**
 * `/agent alerts webhook [rotate]` (DESIGN "Alert tokens per installation"): the installation's
 * own token, made on first use or replaced; access is checked and audited by the caller, and the
 * reply is ephemeral (the token is never logged).
 */
export async function runAlertsWebhook(
  command: Extract<AgentCommand, { kind: 'alerts-webhook' }>,
  invoker: { tenant: Tenant; channelId?: string | undefined },
  webhook: AlertWebhookPort | undefined,
): Promise<CommandOutcome> {
  if (!webhook) return { kind: 'alert-webhook-no-key' };
  const { teamId } = invoker.tenant;
  const token = command.rotate ? await webhook.tokens.rotate(teamId) : await webhook.tokens.tokenOf(teamId);
  const address = webhook.address(invoker.tenant, invoker.channelId);
  return { kind: 'alert-webhook', address, token, rotated: command.rotate };
}
