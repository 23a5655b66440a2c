/**
 * The native thread status (`assistant.threads.setStatus`) while the agent works: a short status
 * and loading messages carrying the step count and the elapsed time.
 * https://docs.slack.dev/reference/methods/assistant.threads.setStatus
 */
import type { Progress } from '../../conversation/thread-output-port.js';
import { formatDuration } from './notices.js';

/** Slack rotates through at most 10 loading messages. */
export const MAX_LOADING_MESSAGES = 10;

export interface StatusView {
  /** Shown after the app's name ("… is working on it"); empty clears the status. */
  status: string;
  loading_messages?: string[];
}

/** "is working on it… step 3 · 42 s", and the same words as the loading message. */
export function renderThreadStatus(progress: Progress | undefined): StatusView {
  if (!progress) return { status: '' };
  const step = progress.steps > 0 ? `step ${progress.steps} · ` : '';
  const elapsed = formatDuration(progress.elapsedMs);
  return {
    status: `is working on it… ${step}${elapsed}`,
    loading_messages: [`Working on it… ${step}${elapsed}`],
  };
}
