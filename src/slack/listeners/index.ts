import type { App } from '@slack/bolt';
import { registerActionListeners } from './actions/index.js';
import { adminCheckOf } from './admin-access.js';
import { registerCommandListeners } from './commands/index.js';
import { type EventPorts, registerEventListeners } from './events/index.js';
import type { ListenerDeps } from './listener-deps.js';
import type { ConnectionFormPorts } from './views/connection-form-submitted.js';
import { registerViewListeners } from './views/index.js';

/** What the listeners use, together; each listener takes only its part (see its file). */
export type ListenerPorts = EventPorts & ConnectionFormPorts & ListenerDeps;

/** Registers every listener (events, commands, actions, views) on the app. */
export function registerListeners(app: App, ports: ListenerPorts): void {
  registerEventListeners(app, ports);
  registerCommandListeners(app, ports);
  registerActionListeners(app, ports);
  registerViewListeners(app, { ...ports, admins: adminCheckOf(ports) });
}
