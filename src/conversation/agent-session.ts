/** Each turn's thread as a Slack agent session (DESIGN "Agent sessions and Stop"). */
import type { Logger } from '../runtime/logger.js';
import type { ThreadLocation } from './thread-output-port.js';
import type { StatusResult } from './turn/turn-progress.js';

/** The session states this bot sets (Slack also knows `suspended` and `closed`). */
export type SessionStatus = 'processing' | 'active';

/** Port: Slack's `agents.sessions.*` (src/slack/agent-sessions.ts). Never rejects. */
export interface AgentSessionPort {
  /** Sets the thread's session status; `question` names a session this call creates. */
  setStatus(where: ThreadLocation, status: SessionStatus, question?: string): Promise<StatusResult>;
  rename(where: ThreadLocation, question: string): Promise<StatusResult>;
}

/** What a turn tells the session when its run starts. */
export interface SessionBegin {
  /** The turn starts a new run: the session is named after this question. */
  question?: string | undefined;
  /** Also rename: a channel thread's session may exist already (a title is only set on creation). */
  rename?: boolean | undefined;
}

export function createAgentSessions(deps: { port: AgentSessionPort; logger: Logger }) {
  const { port, logger } = deps;
  /** Workspaces where Slack refused the sessions methods: left alone until the process restarts. */
  const refused = new Set<string>();

  /** False once the workspace refused the methods (logged the first time). */
  function usable(where: ThreadLocation, result: StatusResult): boolean {
    if (result.ok || !result.unavailable) return true;
    if (!refused.has(where.teamId)) {
      refused.add(where.teamId);
      logger.warn(
        { teamId: where.teamId, error: result.error },
        'agent sessions are not available in this workspace; threads show the text status only (no Stop button)',
      );
    }
    return false;
  }

  /** The run works: `processing` (named on a new session), then the rename when asked for. */
  async function begin(where: ThreadLocation, options: SessionBegin = {}): Promise<void> {
    if (refused.has(where.teamId)) return;
    const set = await port.setStatus(where, 'processing', options.question);
    // No session to rename when Slack did not take the status (it creates the session).
    if (!usable(where, set) || !set.ok || !options.rename || options.question === undefined) return;
    usable(where, await port.rename(where, options.question));
  }

  /** The turn's outcome is posted (or the run was stopped): the session waits for the next question. */
  async function end(where: ThreadLocation): Promise<void> {
    if (refused.has(where.teamId)) return;
    usable(where, await port.setStatus(where, 'active'));
  }

  return { begin, end };
}

export type AgentSessions = ReturnType<typeof createAgentSessions>;
