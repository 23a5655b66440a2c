import type { SlackIdentity } from '../slack-identity.js';
import { NoInstallationInScopeError } from './installation-web-client.js';
import type { WorkspaceScope } from './workspace-scope.js';

/**
 * The bot's identity as the installation under way sees it: with OAuth, who the bot is (its user
 * and bot ids) and which organisation is "inside" differ per installation. The services built once
 * at start-up read the identity when they need it, so they hold this view instead of `auth.test`'s
 * one answer; each read is the current installation's.
 */
export function scopedIdentity(scope: WorkspaceScope): SlackIdentity {
  const current = (field: string) => {
    const workspace = scope.current();
    if (!workspace) throw new NoInstallationInScopeError(`identity.${field}`);
    return workspace.identity;
  };
  return {
    get botUserId() {
      return current('botUserId').botUserId;
    },
    get botId() {
      return current('botId').botId;
    },
    get teamId() {
      return current('teamId').teamId;
    },
    get enterpriseId() {
      return current('enterpriseId').enterpriseId;
    },
  };
}
