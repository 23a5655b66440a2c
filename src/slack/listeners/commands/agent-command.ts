import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import type { AdminCheck } from '../../../commands/access.js';
import type { CommandContext } from '../../../commands/command-context.js';
import { changesAdminHome, parseCommand, runAgentCommand } from '../../../commands/registry.js';
import { DEFAULT_CONNECTION } from '../../../connections/connection-alias.js';
import { UnknownConnectionError } from '../../../connections/connection-clients.js';
import type { Tenant } from '../../../conversation/tenancy.js';
import { tenantOf } from '../../event-tenant.js';
import { NO_PREVIEWS } from '../../no-previews.js';
import { personOfCommand } from '../../payload-person.js';
import {
  type CommandReply,
  renderAcknowledgement,
  renderCommandOutcome,
} from '../../views/commands/index.js';
import { renderConnectionForm } from '../../views/connection-form.js';
import { describeError, newReferenceId } from '../../views/describe-error.js';
import { type NoticeView, renderRefusal } from '../../views/notices.js';
import type { ListenerDeps } from '../listener-deps.js';
import { slackDmUploader } from './slack-ports.js';

type Args = SlackCommandMiddlewareArgs & AllMiddlewareArgs;

/**
 * `/agent …`: ack at once (Slack's 3 seconds), refuse an outsider before anything runs, then run the
 * subcommand and answer ephemerally through response_url (which works where the bot is no member).
 */
export function agentCommandListener(deps: ListenerDeps, access: AdminCheck) {
  const { logger } = deps;
  return async ({ command, ack, respond, client, context: event }: Args): Promise<void> => {
    const tenant = tenantOf(event);
    const parsed = parseCommand(command.text ?? '');
    const person = personOfCommand(command);
    // "Working on it…" only to someone of the app's workspace; others wait for the check. (A guest
    // of the workspace may see it before the refusal: it says nothing but that work may follow.)
    const knownInside = deps.commands.allowExternalUsers || person.workspaceId === deps.identity.teamId;
    const acknowledgement = knownInside ? renderAcknowledgement(parsed) : undefined;
    await ack(acknowledgement ? { response_type: 'ephemeral', text: acknowledgement } : undefined);
    const verdict = await deps.inside.check(person);
    if (!verdict.inside) {
      logger.info(
        { user: command.user_id, reason: verdict.reason },
        '/agent from outside the organisation refused',
      );
      await reply(respond, logger, command.user_id, renderRefusal(verdict.refusal));
      return;
    }
    const context: CommandContext = {
      tenant,
      api: deps.agentApi,
      access,
      accountsConfigured: deps.commands.accountsConfigured,
      defaultAgentId: deps.commands.defaultAgentId,
      channelAgents: deps.channelAgents,
      watchedChannels: deps.alerts?.watched,
      answerChannels: deps.answerChannels,
      schedules: deps.schedules,
      capacityLock: deps.capacityLock,
      sendFilesToUser: slackDmUploader(client),
      newReferenceId,
      logger,
      ...connectionsContext(deps, client, command.trigger_id, tenant),
      alertWebhook: deps.alerts?.tokens && {
        tokens: deps.alerts.tokens,
        address: (owner, channelId) => alertAddress(deps.commands.redirectUri, owner.teamId, channelId),
      },
    };
    let answer: CommandReply;
    try {
      const invoker = { userId: command.user_id, channelId: command.channel_id };
      const outcome = await runAgentCommand(parsed, invoker, context);
      answer = renderCommandOutcome(outcome);
      if (outcome.kind === 'agent-state') {
        // Noted in the command's installation (its admins' App Home lists it).
        const { agentId, active } = outcome;
        const installation = tenant.key !== undefined ? { installation: tenant.key } : {};
        await deps.agentStates?.agentSeen({ agentId, active, source: 'command', ...installation });
      }
      // After the state is recorded: the home published now must show it.
      if (changesAdminHome(parsed, outcome)) deps.appHome?.settingsChanged(tenant, command.user_id);
    } catch (error) {
      const referenceId = newReferenceId();
      logger.error({ err: error, referenceId, user: command.user_id }, 'agent command crashed');
      const text = describeError(error, referenceId);
      answer = { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
    }
    await reply(respond, logger, command.user_id, answer);
  };
}

/** Answers ephemerally; a failure is logged by its message only: the body may hold an account's token. */
async function reply(
  respond: Args['respond'],
  logger: ListenerDeps['logger'],
  user: string,
  body: CommandReply | NoticeView,
) {
  try {
    // Replies carry service data (accounts, whoami, connections): no previews of their links.
    await respond({ response_type: 'ephemeral', replace_original: false, ...body, ...NO_PREVIEWS });
  } catch (error) {
    logger.error({ user, error: (error as Error).message }, 'replying to /agent failed');
  }
}

/** The connections commands' ports: the admin service, the add form, each connection's client. */
function connectionsContext(
  deps: ListenerDeps,
  client: Args['client'],
  triggerId: string,
  tenant: Tenant,
): Pick<CommandContext, 'connections' | 'openConnectionForm' | 'apiOn'> {
  const { connections } = deps;
  if (!connections) return {};
  return {
    connections: connections.admin,
    openConnectionForm: async () => {
      await client.views.open({ trigger_id: triggerId, view: renderConnectionForm() });
    },
    // Only the tenant's own aliases resolve; the default one is the operator's (home only).
    apiOn: async (alias) => {
      if ((alias === undefined || alias === DEFAULT_CONNECTION) && !tenant.home) {
        throw new UnknownConnectionError(DEFAULT_CONNECTION);
      }
      return connections.clients.api(alias, tenant.key);
    },
  };
}

/** An installation's alert address: SLACK_REDIRECT_URI's origin, `/alerts`, its team and the channel. */
function alertAddress(redirect: string | undefined, teamId: string, channelId: string | undefined): string {
  const origin = redirect ? new URL(redirect).origin : 'https://<this bot’s address>';
  const channel = channelId && /^[CG]/.test(channelId) ? channelId : '<channel id>';
  return `${origin}/alerts?team=${teamId}&channel=${channel}`;
}
