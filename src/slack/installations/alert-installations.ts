import type { AlertInstallations } from '../../alerts/index.js';
import type { SlackInstallations } from './oauth-setup.js';
import { InstallationGoneError } from './slack-clients.js';

/**
 * A webhook alert has no Slack event to carry its installation: `?team=` names it, and its intake
 * runs inside that installation's scope (workspace-scope.ts), as an event's would.
 */
export function alertInstallations(installations: SlackInstallations): AlertInstallations {
  return {
    current: () => installations.scope.current()?.installationId,
    async runAs(team, work) {
      let workspace: Awaited<ReturnType<SlackInstallations['clients']['forTeam']>>;
      try {
        workspace = await installations.clients.forTeam(team);
      } catch (error) {
        if (error instanceof InstallationGoneError) return { found: false };
        throw error;
      }
      return { found: true, value: await installations.scope.run(workspace, work) };
    },
  };
}
