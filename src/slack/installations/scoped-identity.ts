import type { SlackIdentity } from '../slack-identity.js';
import { NoInstallationInScopeError } from './installation-web-client.js';
import type { WorkspaceScope } from './workspace-scope.js';

/** The bot's identity as the installation under way sees it (with OAuth its ids differ per installation). */
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
