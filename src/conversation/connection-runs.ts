/** Several service connections (DESIGN "Many accounts"): a thread stays on the one it started on. */
import type { AgentRunsPort } from './ports.js';

/** The agent service of each connection, by alias (undefined: the default connection). */
export interface ConnectionRuns {
  /** `teamId`: the installation of the thread (its key's team); only its own aliases resolve. */
  on(connection: string | undefined, teamId: string): AgentRunsPort;
}

/** The runs port of `connection`: the default `agent` when there is no alias or no registry. */
export function runsOn(
  agent: AgentRunsPort,
  connections: ConnectionRuns | undefined,
  connection: string | undefined,
  teamId: string,
): AgentRunsPort {
  return connection !== undefined && connections ? connections.on(connection, teamId) : agent;
}
