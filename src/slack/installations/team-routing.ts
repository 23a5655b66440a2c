import type { AgentSessionPort } from '../../conversation/agent-session.js';
import type { ThreadLocation, ThreadOutput } from '../../conversation/thread-output-port.js';
import { ThreadOutputError } from '../../conversation/turn/output-error.js';
import type { ThreadStatusPort } from '../../conversation/turn/turn-progress.js';
import { InstallationGoneError, type SlackClients } from './slack-clients.js';
import type { WorkspaceScope } from './workspace-scope.js';

/** Late thread writes (polling, recovery) in their thread team's installation (DESIGN "Many workspaces"). */
export type TeamRouting = ReturnType<typeof createTeamRouting>;

export function createTeamRouting(clients: SlackClients, scope: WorkspaceScope) {
  return {
    /** Runs `work` for the installation `teamId` names; rejects when it is gone. */
    async within<T>(teamId: string, work: () => Promise<T>): Promise<T> {
      return scope.run(await clients.forTeam(teamId), work);
    },
  };
}

/** The output with every write in its thread's installation. */
export function routeOutputByTeam(output: ThreadOutput, routing: TeamRouting): ThreadOutput {
  const at = <R>(method: string, where: ThreadLocation, write: () => Promise<R>): Promise<R> =>
    routing.within(where.teamId, write).catch((error: unknown) => {
      // A store that cannot answer is a passing fault (unclassified: transient); a gone install is refused
      // for good, as Slack refuses a revoked token.
      if (!(error instanceof InstallationGoneError)) throw error;
      throw new ThreadOutputError('permanent', 'installation_not_found', method, { cause: error });
    });
  return {
    postProgress: (where, ...rest) =>
      at('chat.postMessage', where, () => output.postProgress(where, ...rest)),
    updateProgress: (where, ...rest) => at('chat.update', where, () => output.updateProgress(where, ...rest)),
    removeProgress: (where, ...rest) => at('chat.delete', where, () => output.removeProgress(where, ...rest)),
    postAnswer: (where, ...rest) => at('chat.postMessage', where, () => output.postAnswer(where, ...rest)),
    postNotice: (where, ...rest) => at('chat.postMessage', where, () => output.postNotice(where, ...rest)),
    refuse: (where, ...rest) => at('chat.postEphemeral', where, () => output.refuse(where, ...rest)),
    findTurnMessages: (where, ...rest) =>
      at('conversations.replies', where, () => output.findTurnMessages(where, ...rest)),
  };
}

/** A status or session call whose installation is gone: as if Slack refused it. */
const REFUSED = { ok: false, unavailable: false, error: 'installation_not_found' } as const;

/** The native status in its thread's installation. */
export function routeStatusByTeam(status: ThreadStatusPort, routing: TeamRouting): ThreadStatusPort {
  return {
    set: (where, progress) =>
      routing.within(where.teamId, () => status.set(where, progress)).catch(() => REFUSED),
  };
}

/**
 * Agent sessions in their thread's installation: a poller started in any event's scope ends turns
 * of every installation, each call with its thread's own token (DESIGN "One installation, one tenant").
 */
export function routeSessionsByTeam(port: AgentSessionPort, routing: TeamRouting): AgentSessionPort {
  return {
    setStatus: (where, ...rest) =>
      routing.within(where.teamId, () => port.setStatus(where, ...rest)).catch(() => REFUSED),
    rename: (where, ...rest) =>
      routing.within(where.teamId, () => port.rename(where, ...rest)).catch(() => REFUSED),
  };
}
