import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { tenantOf } from '../../event-tenant.js';
import type { ListenerDeps } from '../listener-deps.js';

type Args = SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs;

/**
 * The bot's Messages tab (its agent view) opened → suggested prompts to start from; its Home tab
 * opened → the person's home is published (app-home.ts).
 */
export function appHomeOpenedListener(deps: ListenerDeps) {
  return async ({ event, client, context }: Args): Promise<void> => {
    if (event.tab === 'home') {
      await deps.appHome?.opened(tenantOf(context), event.user);
      return;
    }
    if (event.tab !== 'messages') return;
    await deps.agentView.offerSuggestedPrompts(client, event.channel);
  };
}
