import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { AppHome } from '../../../home/app-home.js';
import type { AgentView } from '../../agent-view.js';
import { tenantOf } from '../../event-tenant.js';

type Args = SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs;

/** The bot's Messages tab opened → suggested prompts; its Home tab → the person's home is published. */
export interface HomeOpenedPorts {
  /** Absent: the Home tab is left as Slack shows it. */
  appHome?: Pick<AppHome, 'opened'> | undefined;
  agentView: Pick<AgentView, 'offerSuggestedPrompts'>;
}

export function appHomeOpenedListener(deps: HomeOpenedPorts) {
  return async ({ event, client, context }: Args): Promise<void> => {
    if (event.tab === 'home') await deps.appHome?.opened(tenantOf(context), event.user);
    else if (event.tab === 'messages') await deps.agentView.offerSuggestedPrompts(client, event.channel);
  };
}
