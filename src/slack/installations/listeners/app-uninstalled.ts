import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { InstallationListenerDeps } from './installation-listener-deps.js';

/** The installation is forgotten at once. https://docs.slack.dev/reference/events/app_uninstalled */
export function appUninstalledListener(deps: InstallationListenerDeps) {
  return async ({ context }: SlackEventMiddlewareArgs<'app_uninstalled'> & AllMiddlewareArgs) => {
    await deps.forget(context, 'app_uninstalled');
  };
}
