import type { AlertInstallations } from '../../alerts/index.js';
import type { Tenancy } from '../../conversation/tenancy.js';
import type { SlackIdentity } from '../slack-identity.js';
import type { SlackInstallations } from './oauth-setup.js';
import { InstallationGoneError } from './slack-clients.js';

/** A webhook alert's installation is named by `?team=` (or its token); its intake runs as that one's. */
export function alertInstallations(installations: SlackInstallations, tenancy: Tenancy): AlertInstallations {
  return {
    async runAs(team, work) {
      const workspace = await installations.clients.forTeam(team).catch((error: unknown) => {
        if (error instanceof InstallationGoneError) return undefined;
        throw error;
      });
      if (!workspace) return { found: false };
      const tenant = tenancy.of(workspace.identity);
      return { found: true, value: await installations.scope.run(workspace, () => work(tenant)) };
    },
  };
}

/** One workspace (SLACK_BOT_TOKEN): the only installation, named by `auth.test`. */
export function singleAlertInstallation(identity: SlackIdentity, tenancy: Tenancy): AlertInstallations {
  const tenant = tenancy.of(identity);
  return {
    only: identity.teamId,
    async runAs(team, work) {
      if (team !== identity.teamId && team !== identity.enterpriseId) return { found: false };
      return { found: true, value: await work(tenant) };
    },
  };
}
