import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { InstallationListenerDeps } from './installation-listener-deps.js';

/**
 * `tokens_revoked`: the installation is forgotten when its bot token is among them (it uses no user
 * token). https://docs.slack.dev/reference/events/tokens_revoked
 */
export function tokensRevokedListener(deps: InstallationListenerDeps) {
  return async ({ event, context }: SlackEventMiddlewareArgs<'tokens_revoked'> & AllMiddlewareArgs) => {
    if ((event.tokens.bot ?? []).length === 0) {
      deps.logger.info({ installation: context.teamId }, 'user tokens revoked; the bot token stays');
      return;
    }
    await deps.forget(context, 'tokens_revoked');
  };
}
