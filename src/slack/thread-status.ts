import type { ThreadStatusPort } from '../conversation/turn/turn-progress.js';
import { FEATURE_UNAVAILABLE, type StatusCallDeps, statusCall } from './slack-errors.js';
import { renderThreadStatus } from './views/thread-status.js';

/** `setStatus` cannot work for this app or workspace: progress messages (DESIGN "Native progress"). */
const UNAVAILABLE_ERRORS = new Set([...FEATURE_UNAVAILABLE, 'invalid_arguments']);

/** The conversation layer's ThreadStatusPort on `assistant.threads.setStatus`. */
export function createSlackThreadStatus(deps: StatusCallDeps): ThreadStatusPort {
  return {
    set: (where, progress) =>
      statusCall(deps, 'assistant.threads.setStatus', UNAVAILABLE_ERRORS, () =>
        deps.client.assistant.threads.setStatus({
          channel_id: where.channel,
          thread_ts: where.threadTs,
          ...renderThreadStatus(progress),
        }),
      ),
  };
}
