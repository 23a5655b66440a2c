import type { App } from '@slack/bolt';
import { adminCheckOf } from '../admin-access.js';
import type { ListenerDeps } from '../listener-deps.js';
import { agentCommandListener } from './agent-command.js';

/** Slash commands → listeners. */
export function registerCommandListeners(app: App, deps: ListenerDeps): void {
  app.command('/agent', agentCommandListener(deps, adminCheckOf(deps)));
}
