import type { App } from '@slack/bolt';
import type { AdminCheck } from '../../../commands/access.js';
import type { ListenerDeps } from '../listener-deps.js';
import { agentCommandListener } from './agent-command.js';

export function registerCommandListeners(app: App, deps: ListenerDeps, admins: AdminCheck): void {
  app.command('/agent', agentCommandListener(deps, admins));
}
