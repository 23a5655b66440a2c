import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { InstallationListenerDeps } from './installation-listener-deps.js';

/**
 * `tokens_revoked`: the bot's token is the only one an installation uses, so when it is among the
 * revoked ones the installation is forgotten; revoked user tokens alone change nothing here.
 * https://docs.slack.dev/reference/events/tokens_revoked
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
