import type { WebClient } from '@slack/web-api';
import type { AgentSessionPort, SessionStatus } from '../conversation/agent-session.js';
import type { ThreadLocation } from '../conversation/thread-output-port.js';
import type { StatusResult } from '../conversation/turn/turn-progress.js';
import type { Metrics } from '../metrics.js';
import type { Logger } from '../runtime/logger.js';
import { threadTitleFrom } from './views/agent-view.js';

/**
 * Errors meaning `agents.sessions.*` cannot work for this app or workspace (DESIGN "Agent sessions
 * and Stop"): the conversation layer then leaves sessions alone there. Anything else passes.
 */
const UNAVAILABLE_ERRORS = new Set([
  'unknown_method',
  'not_allowed_token_type',
  'missing_scope',
  'feature_not_enabled',
  'not_allowed',
  'method_deprecated',
  'no_permission',
]);

/** Slack's limit on a session title (agents.sessions.rename: 1–200 characters). */
const SESSION_TITLE_MAX_CHARS = 200;

function slackErrorCode(error: unknown): string {
  return (
    (error as { data?: { error?: string } }).data?.error ?? (error as { code?: string }).code ?? 'unknown'
  );
}

/** The session's title: the question's first line, as the agent view titles a DM conversation. */
function titleOf(question: string): string {
  return (threadTitleFrom(question) ?? 'Question for the agent').slice(0, SESSION_TITLE_MAX_CHARS);
}

/**
 * The conversation layer's AgentSessionPort on `agents.sessions.setStatus` / `rename` (typed by
 * @slack/web-api 8.2; https://docs.slack.dev/reference/methods/agents.sessions.setStatus).
 * Thread sessions: `channel_id` + `thread_ts` (the thread's root).
 */
export function createSlackAgentSessions(deps: {
  client: WebClient;
  logger: Logger;
  metrics: Pick<Metrics, 'slackApiError'>;
}): AgentSessionPort {
  const { client, logger, metrics } = deps;

  async function call(method: string, work: () => Promise<unknown>): Promise<StatusResult> {
    try {
      await work();
      return { ok: true };
    } catch (error) {
      const code = slackErrorCode(error);
      metrics.slackApiError(method, code);
      logger.debug({ method, error: code }, 'Slack API call failed');
      return { ok: false, unavailable: UNAVAILABLE_ERRORS.has(code), error: code };
    }
  }

  return {
    setStatus(where: ThreadLocation, status: SessionStatus, question?: string) {
      return call('agents.sessions.setStatus', () =>
        client.agents.sessions.setStatus({
          channel_id: where.channel,
          thread_ts: where.threadTs,
          status,
          ...(question === undefined ? {} : { title: titleOf(question) }),
        }),
      );
    },
    rename(where: ThreadLocation, question: string) {
      return call('agents.sessions.rename', () =>
        client.agents.sessions.rename({
          channel_id: where.channel,
          thread_ts: where.threadTs,
          title: titleOf(question),
        }),
      );
    },
  };
}
