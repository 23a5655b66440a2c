import { AsyncLocalStorage } from 'node:async_hooks';
import type { SlackIdentity } from '../slack-identity.js';

/**
 * The installation a piece of work runs for (DESIGN "Many workspaces"): with OAuth each event and
 * its later thread writes run in its scope, carried across awaits and timers, where the Web clients
 * find their token and the identity its bot user: the conversation layer's ports need no token.
 */
export interface SlackWorkspace {
  /** `T…` for a workspace install, `E…` for an org-wide install: the team of thread keys. */
  installationId: string;
  identity: SlackIdentity;
  botToken: string;
}

/** Runs work in an installation's scope, and tells the scope of the work under way. */
export interface WorkspaceScope {
  run<T>(workspace: SlackWorkspace, work: () => T): T;
  /** The installation of the work under way; undefined outside any (single-workspace mode, start-up). */
  current(): SlackWorkspace | undefined;
}

/** The scope on Node's AsyncLocalStorage. */
export function createWorkspaceScope(): WorkspaceScope {
  const storage = new AsyncLocalStorage<SlackWorkspace>();
  return {
    run: (workspace, work) => storage.run(workspace, work),
    current: () => storage.getStore(),
  };
}
