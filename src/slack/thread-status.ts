import type { WebClient } from '@slack/web-api';
import type { Progress, ThreadLocation } from '../conversation/thread-output-port.js';
import type { StatusResult, ThreadStatusPort } from '../conversation/turn/turn-progress.js';
import type { Metrics } from '../metrics.js';
import type { Logger } from '../runtime/logger.js';
import { renderThreadStatus } from './views/thread-status.js';

/**
 * Errors meaning `assistant.threads.setStatus` cannot work for this app or workspace (DESIGN
 * "Native progress"): the conversation layer then falls back to progress messages there.
 * Anything else (ratelimited, internal_error, 5xx) passes.
 */
const UNAVAILABLE_ERRORS = new Set([
  'not_allowed_token_type',
  'missing_scope',
  'not_allowed',
  'feature_not_enabled',
  'unknown_method',
  'method_deprecated',
  'invalid_arguments',
]);

/** The Web client's platform error code (`data.error`), else its own code. */
function slackErrorCode(error: unknown): string {
  return (
    (error as { data?: { error?: string } }).data?.error ?? (error as { code?: string }).code ?? 'unknown'
  );
}

/** The conversation layer's ThreadStatusPort on `assistant.threads.setStatus`. */
export function createSlackThreadStatus(deps: {
  client: WebClient;
  logger: Logger;
  metrics: Pick<Metrics, 'slackApiError'>;
}): ThreadStatusPort {
  return {
    async set(where: ThreadLocation, progress: Progress | undefined): Promise<StatusResult> {
      try {
        await deps.client.assistant.threads.setStatus({
          channel_id: where.channel,
          thread_ts: where.threadTs,
          ...renderThreadStatus(progress),
        });
        return { ok: true };
      } catch (error) {
        const code = slackErrorCode(error);
        deps.metrics.slackApiError('assistant.threads.setStatus', code);
        deps.logger.debug({ method: 'assistant.threads.setStatus', error: code }, 'Slack API call failed');
        return { ok: false, unavailable: UNAVAILABLE_ERRORS.has(code), error: code };
      }
    },
  };
}
