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

/**
 * An installation's workspace. Thread keys and who-is-inside take the installation's id as the team:
 * for an org-wide install the org (`E…`) never equals a workspace, so everyone is judged by their enterprise.
 */
export function workspaceOf(
  installationId: string,
  botToken: string,
  bot: Omit<SlackIdentity, 'teamId' | 'url'>,
): SlackWorkspace {
  return { installationId, botToken, identity: { ...bot, teamId: installationId } };
}

/** Runs work in an installation's scope; `current()` is undefined outside any (one workspace, start-up). */
export type WorkspaceScope = ReturnType<typeof createWorkspaceScope>;

export function createWorkspaceScope() {
  const storage = new AsyncLocalStorage<SlackWorkspace>();
  return {
    run: <T>(workspace: SlackWorkspace, work: () => T): T => storage.run(workspace, work),
    current: (): SlackWorkspace | undefined => storage.getStore(),
  };
}
