import type { AgentSessionPort } from '../conversation/agent-session.js';
import { FEATURE_UNAVAILABLE, type StatusCallDeps, statusCall } from './slack-errors.js';
import { threadTitleFrom } from './views/agent-view.js';

/** `agents.sessions.*` cannot work for this app or workspace (DESIGN "Agent sessions and Stop"). */
const UNAVAILABLE_ERRORS = new Set([...FEATURE_UNAVAILABLE, 'no_permission']);

/** Slack's limit on a session title (agents.sessions.rename: 1–200 characters). */
const SESSION_TITLE_MAX_CHARS = 200;

/** The session's title: the question's first line, as the agent view titles a DM conversation. */
function titleOf(question: string): string {
  return (threadTitleFrom(question) ?? 'Question for the agent').slice(0, SESSION_TITLE_MAX_CHARS);
}

/** The AgentSessionPort (https://docs.slack.dev/reference/methods/agents.sessions.setStatus). */
export function createSlackAgentSessions(deps: StatusCallDeps): AgentSessionPort {
  const { client } = deps;
  return {
    setStatus: (where, status, question) =>
      statusCall(deps, 'agents.sessions.setStatus', UNAVAILABLE_ERRORS, () =>
        client.agents.sessions.setStatus({
          channel_id: where.channel,
          thread_ts: where.threadTs,
          status,
          ...(question === undefined ? {} : { title: titleOf(question) }),
        }),
      ),
    rename: ({ channel, threadTs }, question) =>
      statusCall(deps, 'agents.sessions.rename', UNAVAILABLE_ERRORS, () =>
        client.agents.sessions.rename({ channel_id: channel, thread_ts: threadTs, title: titleOf(question) }),
      ),
  };
}
