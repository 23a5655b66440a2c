import type { App } from '@slack/bolt';
import { registerActionListeners } from './actions/index.js';
import { registerCommandListeners } from './commands/index.js';
import { registerEventListeners } from './events/index.js';
import type { ListenerDeps } from './listener-deps.js';
import { registerViewListeners } from './views/index.js';

/** Registers every listener (events, commands, actions, views) on the app. */
export function registerListeners(app: App, deps: ListenerDeps): void {
  registerEventListeners(app, deps);
  registerCommandListeners(app, deps);
  registerActionListeners(app, deps);
  registerViewListeners(app, deps);
}
