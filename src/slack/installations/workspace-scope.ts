import { AsyncLocalStorage } from 'node:async_hooks';
import type { SlackIdentity } from '../slack-identity.js';

/**
 * The installation a piece of work runs for (DESIGN "Many workspaces"). With OAuth every event,
 * and every later write to its thread, runs inside the scope of its installation: the Web clients
 * the bot builds once (installation-web-client.ts) take the token from here, and the bot's identity
 * (scoped-identity.ts) its bot user and organisation. Node's AsyncLocalStorage carries the scope
 * across awaits, timers and queues started inside it, so the conversation layer needs no Slack
 * token in its ports.
 */
export interface SlackWorkspace {
  /** `T…` for a workspace install, `E…` for an org-wide install: the team of thread keys. */
  installationId: string;
  identity: SlackIdentity;
  botToken: string;
}

export interface WorkspaceScope {
  run<T>(workspace: SlackWorkspace, work: () => T): T;
  /** The installation of the work under way; undefined outside any (single-workspace mode, start-up). */
  current(): SlackWorkspace | undefined;
}

export function createWorkspaceScope(): WorkspaceScope {
  const storage = new AsyncLocalStorage<SlackWorkspace>();
  return {
    run: (workspace, work) => storage.run(workspace, work),
    current: () => storage.getStore(),
  };
}
