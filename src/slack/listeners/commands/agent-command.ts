import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import type { AdminCheck } from '../../../commands/access.js';
import { type CommandContext, runAgentCommand } from '../../../commands/admin-commands.js';
import { createCapacityLock } from '../../../commands/capacity-lock.js';
import { changesAdminHome } from '../../../commands/command-outcome.js';
import { parseCommand } from '../../../commands/parse-command.js';
import { personOfCommand } from '../../payload-person.js';
import {
  type CommandReply,
  renderAcknowledgement,
  renderCommandOutcome,
} from '../../views/command-replies.js';
import { renderConnectionForm } from '../../views/connection-form.js';
import { describeError, newReferenceId } from '../../views/describe-error.js';
import { type NoticeView, renderRefusal } from '../../views/notices.js';
import type { ListenerDeps } from '../index.js';
import { slackDmUploader } from './slack-ports.js';

type Args = SlackCommandMiddlewareArgs & AllMiddlewareArgs;

/**
 * `/agent …`: ack at once (Slack's 3 seconds), check that the person is inside the organisation
 * (an outsider in a shared channel is refused before anything runs), then run the subcommand and
 * answer through response_url, ephemerally — which also works in channels the bot is not a member of.
 */
export function agentCommandListener(deps: ListenerDeps, access: AdminCheck) {
  const { logger } = deps;
  return async ({ command, ack, respond, client }: Args): Promise<void> => {
    const parsed = parseCommand(command.text ?? '');
    const person = personOfCommand(command);
    // "Working on it…" only to someone of the app's workspace; others wait for the check. (A guest
    // of the workspace may see it before the refusal: it says nothing but that work may follow.)
    const knownInside = deps.config.access.allowExternalUsers || person.workspaceId === deps.identity.teamId;
    const acknowledgement = knownInside ? renderAcknowledgement(parsed) : undefined;
    await ack(acknowledgement ? { response_type: 'ephemeral', text: acknowledgement } : undefined);
    const verdict = await deps.inside.check(person);
    if (!verdict.inside) {
      logger.info(
        { user: command.user_id, reason: verdict.reason },
        '/agent from outside the organisation refused',
      );
      const refusal = renderRefusal(verdict.refusal);
      await reply(respond, logger, command.user_id, refusal);
      return;
    }
    const context: CommandContext = {
      api: deps.agentApi,
      access,
      accountsConfigured: deps.config.agent.accountToken !== undefined,
      defaultAgentId: deps.config.agent.agentId,
      channelAgents: deps.channelAgents,
      watchedChannels: deps.alerts?.watched,
      answerChannels: deps.answerChannels,
      capacityLock: () => createCapacityLock(deps.store, deps.config.state.instanceId),
      sendFilesToUser: slackDmUploader(client),
      newReferenceId,
      logger,
      ...connectionsContext(deps, client, command.trigger_id),
    };
    let answer: CommandReply;
    try {
      const outcome = await runAgentCommand(
        parsed,
        { userId: command.user_id, channelId: command.channel_id },
        context,
      );
      answer = renderCommandOutcome(outcome);
      if (outcome.kind === 'agent-state') {
        const seen = { agentId: outcome.agentId, active: outcome.active, source: 'command' as const };
        await deps.agentStates?.agentSeen(seen);
      }
      // After the state is recorded: the home published now must show it.
      if (changesAdminHome(outcome)) deps.appHome?.settingsChanged(command.user_id);
    } catch (error) {
      const referenceId = newReferenceId();
      logger.error({ err: error, referenceId, user: command.user_id }, 'agent command crashed');
      const text = describeError(error, referenceId);
      answer = { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
    }
    await reply(respond, logger, command.user_id, answer);
  };
}

/**
 * Answers ephemerally. A failed reply is logged with its message only: the request body may hold
 * a new account's token.
 */
async function reply(
  respond: Args['respond'],
  logger: ListenerDeps['logger'],
  user: string,
  body: CommandReply | NoticeView,
) {
  try {
    await respond({ response_type: 'ephemeral', replace_original: false, ...body });
  } catch (error) {
    logger.error({ user, error: (error as Error).message }, 'replying to /agent failed');
  }
}

/** The connections commands' ports: the admin service, the add form, each connection's client. */
function connectionsContext(
  deps: ListenerDeps,
  client: Args['client'],
  triggerId: string,
): Pick<CommandContext, 'connections' | 'openConnectionForm' | 'apiOn'> {
  const { connections } = deps;
  if (!connections) return {};
  return {
    connections: connections.admin,
    openConnectionForm: async () => {
      await client.views.open({ trigger_id: triggerId, view: renderConnectionForm() });
    },
    apiOn: (alias) => connections.clients.api(alias),
  };
}
